"""The live rules of the simulator and of the counter page are one contract.

Games of ``sheetgen.play.game`` (seeded, every built-in grid, 1 to 5 players,
every strategy in some seat) are recorded by tests/live_rules.py and replayed
through the page's ``window.sheetgen.engine`` in Chromium: at every decision the
page must offer exactly the moves the simulator offers for those dice (and the
penalty box when the active player crossed nothing), every forced cross must be
pending on the page in the simulator's order (the rows tied for a power's
crosses too), and the game must end the same way with the same sheets.  The
hand-made cases of tests/conformance/live-cases.json run through both engines
the same way and must also leave the sheets they expect, worked out by hand.

One page load per grid; all its games in one ``execute_script`` call.
"""

from __future__ import annotations

import pytest
from live_rules import PAGE_RUNNER, case_grid, compare, load_live_cases, normal, ops, scripted, simulated

from sheetgen.grid.load import builtin_names, grid_from_data, load_grid
from sheetgen.play.counter import counter_html
from sheetgen.play.strategies import STRATEGIES

from browser import open_page, run_json
from test_conformance_browser import CUSTOM

PLAYERS = range(1, 6)
NAMES = sorted(STRATEGIES)
CASES = load_live_cases()


def games_of(grid, salt: int, rounds: int = 1):
    """``rounds`` games per number of players; seat k of the n-player game plays
    strategy (n + k) mod 3, so every strategy sits at every table of 3 or more."""
    return [simulated(grid, salt * 1000 + 10 * n + round, n, [NAMES[(n + k) % len(NAMES)] for k in range(n)])
            for n in PLAYERS for round in range(rounds)]


def run_on_page(chromium, folder, grid, records) -> list[list[str]]:
    open_page(chromium, counter_html(grid), folder / f"live-{grid.name}.html")
    sent = [ops(rec) for rec in records]
    answers = run_json(chromium, PAGE_RUNNER, [{"players": rec.players, "ops": o} for rec, o in zip(records, sent)])
    return [compare(rec, o, answer) for rec, o, answer in zip(records, sent, answers)]


@pytest.mark.slow  # a browser
@pytest.mark.parametrize("name", builtin_names() + list(CUSTOM))
def test_the_page_plays_the_simulators_games(chromium, tmp_path, name):
    # The grids of every feature at once (chains of bonus and power crosses) get more games.
    grid = grid_from_data(CUSTOM[name], f"{name}.yaml") if name in CUSTOM else load_grid(name)
    records = games_of(grid, len(name), rounds=4 if name in CUSTOM else 1)
    results = run_on_page(chromium, tmp_path, grid, records)
    for rec, problems in zip(records, results):
        assert problems == [], f"{name}, {rec.players} players: " + "\n".join(problems)
    assert sum(1 for rec in records for e in rec.events if e[0] == "ask") > 50  # real games, many decisions


def test_the_cases_leave_the_sheets_worked_out_by_hand():
    """The simulator on each hand-made case gives the case's end and sheets."""
    for case in CASES:
        rec = scripted(case_grid(case), case)
        assert rec.end == case["expect"]["end"], case["id"]
        assert rec.sheets == [normal(s) for s in case["expect"]["sheets"]], case["id"]
        if "crosses" in case["expect"]:  # every cross in the order made: forced crosses' order
            assert [list(e[1:]) for e in rec.events if e[0] == "x"] == case["expect"]["crosses"], case["id"]
        asked = {f"{e[2]}.{e[1]}.{e[3]}": sorted(map(list, e[4])) for e in rec.events if e[0] == "ask"}
        for key, moves in case.get("offered", {}).items():
            assert asked.get(key, []) == sorted(moves), (case["id"], key)
        assert sum(1 for op in ops(rec) if op.get("probe")) == len(case.get("probes", [])), case["id"]  # each placed
        for probe in case.get("probes", []):  # a cell the page refuses is no move of the simulator's there
            move, seat = probe["move"], int(probe["at"].split(".")[1])
            if probe.get("before") and move["player"] == seat and move["move"] in ("cross", "bis", "lucky"):
                kind = {"cross": "cell", "bis": "bis", "lucky": "lucky"}[move["move"]]
                assert [kind, move["row"], move["number"]] not in asked.get(probe["at"], []), (case["id"], probe)


@pytest.mark.slow  # a browser
def test_the_page_plays_the_hand_made_cases(chromium, tmp_path):
    by_grid: dict[str, list] = {}
    for case in CASES:
        by_grid.setdefault(str(case["grid"]), []).append(case)
    for cases in by_grid.values():
        grid = case_grid(cases[0])
        records = [scripted(grid, case) for case in cases]
        for case, problems in zip(cases, run_on_page(chromium, tmp_path, grid, records)):
            assert problems == [], f"{case['id']}: " + "\n".join(problems)
