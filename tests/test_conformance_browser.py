"""The counter page's engine against the conformance suite, in a real browser:
every case of tests/conformance/ scored by ``window.sheetgen.score`` on the
page of its grid gives exactly the expected result, as the Python scorer does
(tests/test_conformance.py); and on random sheets, both engines give the same
JSON: every player's sheet of games the simulator plays (``sheetgen simulate``,
each game also as one file of its players, ranked), the sheets of
tests/legal_games.py (where other players close rows), and all of them again
spoiled on purpose, to compare the refusals.

Each grid's page is loaded once and scores all its documents in one call;
documents go in as JSON text, so that the page reads them as Python's json
module does (``2.0`` is not a whole number)."""

from __future__ import annotations

import json
import random

import pytest
from conformance.suite import comparable, differences, grid_data, load_cases

from sheetgen.grid.load import builtin_names, grid_from_data, load_grid
from sheetgen.grid.model import Grid
from sheetgen.play.counter import counter_html
from sheetgen.play.simulate import Setup, game_marks
from sheetgen.play.tally import score_document

from browser import open_page, run_json
from legal_games import marks_document, play
from test_simulate import EVERYTHING

CASES = load_cases()
GAMES = 8  # simulated games per grid, of 4 players: 32 sheets and 8 tables
LEGAL = 16  # sheets of tests/legal_games.py per grid
# Grids of one's own: every feature at once (test_simulate.py), and its twin
# where a circle crosses once and two symbols share one effect.
TWIN = {**EVERYTHING, "name": "everything-twice",
        "powers": {**EVERYTHING["powers"], "circle": {"effect": "extra_crosses", "crosses": 1},
                   "square": {"effect": "no_penalties"}}}
CUSTOM = {"everything": EVERYTHING, "everything-twice": TWIN}


def case_grid(case) -> Grid:
    return load_grid(case.grid) if isinstance(case.grid, str) else grid_from_data(grid_data(case.grid), f"{case.id}.yaml")


def page_scores(chromium, folder, grid: Grid, documents: list[tuple[str, str]]) -> list[dict]:
    """``window.sheetgen.score(text, file)`` for each (JSON text, file name), on ``grid``'s page."""
    open_page(chromium, counter_html(grid), folder / f"counter-{grid.name}.html")
    return run_json(chromium, "return arguments[0].map(([text, file]) => window.sheetgen.score(text, file));",
                    [list(document) for document in documents])


@pytest.fixture(scope="module")
def case_results(chromium, tmp_path_factory):
    """Every case's result from the page, by case id."""
    folder = tmp_path_factory.mktemp("conformance")
    by_grid: dict[str, list] = {}
    for case in CASES:
        by_grid.setdefault(json.dumps(case.grid, sort_keys=True), []).append(case)
    results = {}
    for cases in by_grid.values():
        scored = page_scores(chromium, folder, case_grid(cases[0]), [(json.dumps(c.marks), c.file) for c in cases])
        results.update({case.id: result for case, result in zip(cases, scored)})
    return results


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_the_page_engine_agrees(case_results, case):
    assert differences(case_results[case.id], case.expect) == [], case.description


def test_the_runner_sees_a_wrong_answer(case_results):
    """The comparison is not vacuous: a case's result against another case's expectation differs."""
    case, other = next(c for c in CASES if c.id == "classic-68"), next(c for c in CASES if c.id == "classic-70")
    assert differences(case_results[case.id], other.expect) != []
    assert case_results["classic-threshold"]["refused"][0]["message"]  # engines word their refusals


# -- random sheets: legal ones from games, and the same spoiled -------------------------------


def spoiled(document: dict, grid: Grid, rng: random.Random) -> object:
    """``document`` with one fault a person or a program might make: a number
    moved, added or doubled, a lock claimed, too many penalties, a small box or
    a bar box out of place, or a fault of form."""
    doc = json.loads(json.dumps(document))
    rows = doc["rows"]
    r = rng.randrange(len(rows))
    numbers = list(grid.rows[r].numbers)
    crossed = rows[r].setdefault("crossed", [])
    fault = rng.randrange(16)
    if fault == 0:
        crossed.append(rng.randint(0, 20))
    elif fault == 1 and crossed:
        crossed.remove(rng.choice(crossed))
    elif fault == 2 and crossed:
        crossed.append(rng.choice(crossed))
    elif fault == 3:
        rows[r]["lock"] = rng.random() < 0.5
    elif fault == 4:
        doc["penalties"] = doc.get("penalties", 0) + rng.randint(1, 4)
    elif fault == 5:
        rows[r]["bis"] = rows[r].get("bis", []) + [rng.choice(numbers)]
    elif fault == 6:
        doc["bonus_bar"] = sorted(set(doc.get("bonus_bar", []) + [rng.randint(0, 14)]))
    elif fault == 7 and doc.get("bonus_bar"):
        doc["bonus_bar"].pop(rng.randrange(len(doc["bonus_bar"])))
    elif fault == 8:
        rows[r]["crossed"] = rng.sample(numbers, rng.randint(0, len(numbers)))
    elif fault == 9:
        rows[r]["crossed"] = numbers[-1:] + rng.sample(numbers[:-1], rng.randint(3, 8))
    elif fault == 10:
        crossed.append(str(rng.choice(numbers)))
    elif fault == 11:
        doc["penalties"] = rng.choice([-1, 2.0, "1", None, True])
    elif fault == 12:
        rows.pop(r)
    elif fault == 13:
        rows[r][rng.choice(["locked", "lock"])] = rng.choice(["yes", 1, None])
    elif fault == 14:
        doc[rng.choice(["player", "grid"])] = rng.choice(["", " ", "x" * 41, "a\tb", 7, grid.name, "other", "Ann"])
    else:
        return {"grid": grid.name, "players": [
            {**doc, "player": rng.choice(["Lea", "Tom"])},
            {**document, "player": rng.choice(["Tom", "Max"])},
        ]}
    return doc


def random_documents(grid: Grid, seed: int) -> tuple[list[object], list[object]]:
    """Legal documents of ``grid`` (sheets and tables of simulated games, sheets
    of tests/legal_games.py), and each sheet spoiled."""
    rng = random.Random(seed)
    setup = Setup(grid, games=GAMES, players=4, seed=seed)
    games = [game_marks(setup, index) for index in range(GAMES)]
    sheets = [sheet for game in games for sheet in game]
    sheets += [marks_document(play(grid, seed * 1000 + n)) for n in range(LEGAL)]
    tables = [{"grid": grid.name, "players": [{k: v for k, v in sheet.items() if k != "grid"} for sheet in game]}
              for game in games]
    return sheets + tables, [spoiled(sheet, grid, rng) for sheet in sheets]


@pytest.mark.parametrize("name", builtin_names() + list(CUSTOM))
def test_both_engines_give_the_same_json_on_random_sheets(chromium, tmp_path, name):
    grid = grid_from_data(CUSTOM[name], f"{name}.yaml") if name in CUSTOM else load_grid(name)
    legal, bad = random_documents(grid, seed=len(name))
    documents = legal + bad
    expected = [score_document(grid, document, "game.json") for document in documents]
    got = page_scores(chromium, tmp_path, grid, [(json.dumps(document), "game.json") for document in documents])
    for document, mine, theirs in zip(documents, got, expected):
        assert comparable(mine) == comparable(theirs), json.dumps(document)
    # The games are real games: every legal sheet scores, tables are ranked, and most spoiled sheets are refused.
    assert all(not result["refused"] and result["ranking"] for result in expected[:len(legal)])
    assert sum(bool(result["refused"]) for result in expected[len(legal):]) > len(bad) // 2
