"""Many games: every final sheet is one the scorer accepts and scores as the
engine tallied it; reports are deterministic whatever the number of
processes; the figures, the warnings and the strategies do what they say;
the command line's errors are one line each."""

from __future__ import annotations

import json
import math
import re
import runpy
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.grid.load import builtin_names, grid_from_data, load_grid
from sheetgen.play.game import BIS, CELL, LUCKY, POWER, Game, hand_dice, marks_document, rulebook
from sheetgen.play.marks import marks_from_data
from sheetgen.play.scoring import score_sheet
from sheetgen.play.simulate import (
    WIN_SHARES,
    Report,
    Setup,
    Spread,
    Tally,
    compare_json,
    compare_text,
    differences,
    empty_tally,
    game_marks,
    mean_interval,
    play_game,
    report_json,
    report_text,
    share_interval,
    simulate,
    typical_game,
)
from sheetgen.play.strategies import CAREFUL_SKIP_POINTS, GREEDY_MAX_SKIP, STRATEGIES, below

# Seats take these in turn: every strategy plays every grid; games per table (best is the slowest).
TABLES = [(2, ("random", "greedy"), 400), (3, ("careful", "random", "greedy"), 400), (5, ("careful",), 400),
          (3, ("best", "careful"), 60), (1, ("best",), 100)]


# Three grids in the quick tier (the plain one, powers, a bonus chain), the others in the slow one.
QUICK_GRIDS = ("classic", "powers", "bonus")


@pytest.mark.parametrize("name", [name if name in QUICK_GRIDS else pytest.param(name, marks=pytest.mark.slow)
                                  for name in builtin_names()])
def test_every_final_sheet_is_accepted_and_scored_as_tallied(name):
    grid = load_grid(name)
    rules = rulebook(grid)
    ends = Counter()
    for players, strategies, games in TABLES:
        setup = Setup(grid, games=games, players=players, strategies=strategies, seed=7)
        for index in range(setup.games):
            result = play_game(setup, index, rules)
            ends[result.end] += 1
            for sheet, tallied in zip(result.sheets, result.scores):
                where = f"{name} game {index} of {players}, seat {sheet.seat}"
                score = score_sheet(grid, marks_from_data(marks_document(rules, sheet), where, grid))
                assert [row.points for row in score.rows] == list(tallied.rows), where
                assert score.penalty_points == tallied.penalty_points, where
                assert sum(power.points for power in score.powers) == tallied.power_points, where
                assert score.total == tallied.total, where
    assert set(ends) <= {"locks", "penalties"} and ends["locks"] > 0


# Every feature in one grid of three rows, cells of other colours inside rows,
# a lock colour (blue) with no row, three penalty boxes of 4 points.
EVERYTHING = {
    "name": "everything", "title": "Everything", "dice_faces": 6, "close_after": 6,
    "penalties": {"boxes": 3, "points": 4}, "bis": True, "lucky": {"count": 2, "from": 3, "to": 11},
    "bonus_bar": ["green", "red", "yellow", "red", "green", "yellow"],
    "powers": {"circle": {"effect": "extra_crosses", "crosses": 3}, "diamond": {"effect": "cross_each_open_row"},
               "octagon": {"effect": "bonus_points", "points": 7}, "square": {"effect": "double_lowest_row"},
               "star": {"effect": "no_penalties"}},
    "rows": [
        {"colour": "red", "cells": [2, 3, {"number": 4, "colour": "yellow"}, 5, 6, 7, {"number": 8, "colour": "green"},
                                    9, 10, 11, 12],
         "double": [3, 9], "framed": [5, 10], "symbols": {4: "circle", 7: "diamond", 11: "octagon"}},
        {"colour": "yellow", "cells": [12, 11, 10, {"number": 9, "colour": "red"}, 8, 7, 6, 5, 4, 3, 2],
         "framed": [8, 4], "symbols": {11: "circle", 6: "diamond", 3: "square"}},
        {"colour": "green", "cells": [7, 6, 8, 5, 9, 4, 10, 3, 11, 2, 12], "double": [8], "framed": [9],
         "symbols": {6: "octagon", 3: "square", 10: "star", 5: "star"}},
    ],
}


def test_a_grid_with_every_feature_at_once_leaves_sheets_the_scorer_accepts():
    grid = grid_from_data(EVERYTHING, "everything.yaml")
    rules = rulebook(grid)
    unlocked = Counter()
    for players, strategies in ((1, ("greedy",)), (3, ("careful", "random", "greedy")), (2, ("best", "best"))):
        setup = Setup(grid, games=300, players=players, strategies=strategies, seed=5)
        for index in range(setup.games):
            result = play_game(setup, index, rules)
            for sheet, tallied in zip(result.sheets, result.scores):
                document = marks_document(rules, sheet)
                assert score_sheet(grid, marks_from_data(document, "x", grid)).total == tallied.total, document
                unlocked.update(sheet.unlocked)
    assert set(unlocked) == {0, 1, 2, 3, 4}  # every power fired in some game


def test_game_marks_are_one_seeded_game_and_score_as_it_ended():
    setup = Setup(load_grid("bonus"), players=3, seed=11)
    documents = game_marks(setup, 5)
    assert documents == game_marks(setup, 5) != game_marks(setup, 6)
    result = play_game(setup, 5)
    grid = setup.grid
    assert [score_sheet(grid, marks_from_data(d, "x", grid)).total for d in documents] == [
        s.total for s in result.scores]
    assert [d["player"] for d in documents] == ["player 1", "player 2", "player 3"]


# -- determinism -------------------------------------------------------------------


def test_the_same_seed_gives_the_same_report_whatever_the_jobs():
    setup = Setup(load_grid("rainbow"), games=600, players=3, strategies=("careful", "greedy"), seed=3)
    one = report_json(simulate(setup, jobs=1))
    assert report_json(simulate(setup, jobs=2)) == one
    assert report_text(simulate(setup, jobs=3)) == report_text(simulate(setup, jobs=1))
    other = report_json(simulate(Setup(setup.grid, games=600, players=3, strategies=("careful", "greedy"), seed=4)))
    assert other["score"] != one["score"]


def test_a_game_does_not_depend_on_the_games_around_it():
    grid = load_grid("longo")
    small, large = Setup(grid, games=10, seed=9), Setup(grid, games=5000, seed=9)
    assert [s.total for s in play_game(small, 7).scores] == [s.total for s in play_game(large, 7).scores]


def test_progress_is_told_every_game():
    told = []
    simulate(Setup(load_grid("classic"), games=600), progress=told.append)
    assert sum(told) == 600 and len(told) == 3  # chunks of 250


# -- the figures -----------------------------------------------------------------------


def test_spread_of_a_histogram():
    spread = Spread.of(Counter({1: 1, 2: 1, 3: 1, 4: 1, 10: 1}))
    # mean 20 / 5 = 4; squares 1 + 4 + 9 + 16 + 100 = 130; variance (130 - 400 / 5) / 4 = 12.5
    assert (spread.n, spread.mean, round(spread.sd ** 2, 9)) == (5, 4.0, 12.5)
    # positions 0.1 x 4 = 0.4, 0.5 x 4 = 2 and 0.9 x 4 = 3.6, rounded down: the 1st, 3rd and 4th values
    assert (spread.low, spread.median, spread.high, spread.least, spread.most) == (1, 3, 4, 1, 10)


def _closing_game(rows=(0, 1)) -> Game:
    """Classic, 3 players: seats 1 and 2 close ``rows`` in the first action 1."""
    rules = rulebook(load_grid("classic"))

    def closer(row):
        return lambda moves, sheet, table: (CELL, row, 10) if (CELL, row, 10) in moves else None

    game = Game(rules, [lambda m, s, t: None, *map(closer, rows)], hand_dice([(6, 6, (1, 1, 1, 1))]))
    for seat, row in zip((1, 2), rows):
        for index in range(5):
            game.cross(game.sheets[seat], row, index, 1)
    return game


def test_a_tally_counts_closings_locks_ties_and_ends():
    result = _closing_game().play()
    tally = empty_tally(Setup(load_grid("classic"), players=3))
    tally.add(result)
    tally.add(result)
    tally.settle()
    assert tally.games == 2 and tally.ends == Counter({"locks": 2})
    assert tally.row_closed == [2, 2, 0, 0]
    assert tally.row_locks[0] == [0, 2, 0] and tally.row_locks[1] == [0, 0, 2]
    assert tally.row_active_locks == [0, 0, 0, 0]  # seat 0 was active
    # Seats 1 and 2 tie with 28 (5 + 12 + lock): half a win each, every game.
    assert tally.winning == Counter({28: 2}) and tally.seat_wins == [0, WIN_SHARES, WIN_SHARES]
    assert tally.rolls == Counter({1: 2})
    assert tally.cells[0] == [2] * 5 + [0] * 5 + [2]  # red 2..6 and 12, twice
    report = Report(Setup(load_grid("classic"), games=2, players=3), tally)
    assert report.win_share(1) == 0.5
    assert report.cell_rates()[(0, 10)] == 2 / 6  # 2 of 6 sheets crossed red 12


def test_a_row_two_players_close_at_once_is_one_closing_and_two_locks():
    result = _closing_game(rows=(0, 0)).play()
    assert result.end is None  # only one row closed
    tally = empty_tally(Setup(load_grid("classic"), players=3))
    tally.add(result)
    assert tally.row_closed == [1, 0, 0, 0] and tally.row_locks[0] == [0, 1, 1]
    assert tally.row_close_roll == [1, 0, 0, 0]


def test_tallies_merge_exactly():
    setup = Setup(load_grid("powers"), games=300, players=2, strategies=("random",), seed=2)
    whole = _tally(setup, range(300))
    parts = _tally(setup, range(0, 120))
    parts.merge(_tally(setup, range(120, 300)))
    assert parts == whole and parts.cells == whole.cells and sum(map(sum, whole.cells)) > 0


def _tally(setup, indexes) -> Tally:
    tally = empty_tally(setup)
    for index in indexes:
        tally.add(play_game(setup, index))
    return tally.settle()


# -- warnings ---------------------------------------------------------------------------


def _report_with(setup: Setup, **figures) -> Report:
    tally = empty_tally(setup)
    tally.games = setup.games
    for name, value in figures.items():
        setattr(tally, name, value)
    return Report(setup, tally)


def test_warnings_name_what_plays_badly_with_its_sample():
    grid = load_grid("classic")
    setup = Setup(grid, games=1000, players=4)
    every_cell = [[4000] * 11 for _ in range(4)]  # every cell of every sheet crossed
    fair = _report_with(setup, row_closed=[500, 480, 520, 500], seat_wins=[250 * WIN_SHARES] * 4, cells=every_cell)
    assert fair.warnings() == []
    bad = _report_with(
        setup,
        row_closed=[30, 400, 500, 200],
        seat_wins=[320 * WIN_SHARES, 230 * WIN_SHARES, 225 * WIN_SHARES, 225 * WIN_SHARES],
        cells=[[4000] * 5 + [30] + [4000] * 5] + every_cell[1:],
    )
    assert bad.warnings() == [
        "red almost never closes: in 3.0% of 1,000 games",
        "green closes 16.7 times as often as red (50.0% against 3.0% of 1,000 games)",
        "1 cell is almost never crossed, of 4,000 sheets: red 7 (0.8%)",
        "the first player wins 32.0% of 1,000 games, against 25.0% for a fair seat (noise: ±4.1%)",
    ]


def test_no_first_seat_warning_when_seats_play_differently_or_within_noise():
    grid = load_grid("classic")
    every_cell = [[4000] * 11 for _ in range(4)]
    mixed = Setup(grid, games=1000, players=4, strategies=("careful", "random"))
    ahead = [400 * WIN_SHARES, 100 * WIN_SHARES, 400 * WIN_SHARES, 100 * WIN_SHARES]
    assert _report_with(mixed, row_closed=[500] * 4, seat_wins=ahead, cells=every_cell).warnings() == []
    same = Setup(grid, games=1000, players=4)
    noise = [280 * WIN_SHARES, 240 * WIN_SHARES, 240 * WIN_SHARES, 240 * WIN_SHARES]  # +3.0%, under 4.1%
    assert _report_with(same, row_closed=[500] * 4, seat_wins=noise, cells=every_cell).warnings() == []


def test_a_row_that_cannot_close_in_practice_is_reported():
    data = {
        "name": "hard", "title": "Hard", "dice_faces": 6, "close_after": 10, "penalties": {"boxes": 4, "points": 5},
        "rows": [{"colour": "red", "cells": list(range(2, 13))}, {"colour": "yellow", "cells": list(range(2, 13))},
                 {"colour": "green", "cells": list(range(12, 1, -1))}, {"colour": "blue", "cells": list(range(12, 1, -1))}],
    }
    grid = grid_from_data(data, "hard.yaml")
    report = simulate(Setup(grid, games=300, players=4, seed=1))
    assert any(w.startswith("red almost never closes") for w in report.warnings())


# -- strategies ---------------------------------------------------------------------------


CLASSIC_RULES = rulebook(load_grid("classic"))


def _decide(strategy: str, moves, *, next_cells=(0, 0, 0, 0), crosses=(0, 0, 0, 0), action=1, active_crossed=False,
            seed=0):
    """What a strategy chooses for a classic sheet in a given state."""
    import random

    game = Game(CLASSIC_RULES, [lambda m, s, t: None], hand_dice([]))
    sheet = game.sheets[0]
    sheet.next[:], sheet.crosses[:] = list(next_cells), list(crosses)
    game.table.action, game.table.active_crossed = action, active_crossed
    return STRATEGIES[strategy].make(random.Random(seed))(list(moves), sheet, game.table)


def test_a_strategys_own_draw_is_randrange_draw_for_draw():
    # Ties are broken by ``below`` instead of ``randrange``: the same numbers from
    # the same bits, so the generator is left where randrange leaves it (a
    # draw of 1 too, which takes a bit), and the games do not change.
    import random

    ours, theirs = random.Random(5), random.Random(5)
    draw = below(ours)
    sizes = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100] * 40
    assert [draw(n) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert ours.getstate() == theirs.getstate()


def test_random_crosses_any_legal_move_and_never_passes():
    moves = [(CELL, 0, 3), (CELL, 1, 9), (CELL, 2, 1)]
    picks = Counter(_decide("random", moves, seed=seed) for seed in range(600))
    assert set(picks) == set(moves) and min(picks.values()) > 150


def test_greedy_takes_the_fewest_lost_cells_up_to_its_limit_ties_at_random():
    assert _decide("greedy", [(CELL, 0, 3), (CELL, 1, 1)], next_cells=(0, 0, 0, 0)) == (CELL, 1, 1)
    assert _decide("greedy", [(CELL, 0, 2 + GREEDY_MAX_SKIP)], next_cells=(2, 0, 0, 0)) == (CELL, 0, 2 + GREEDY_MAX_SKIP)
    assert _decide("greedy", [(CELL, 0, 3 + GREEDY_MAX_SKIP)], next_cells=(2, 0, 0, 0)) is None
    assert _decide("greedy", [(BIS, 0, 1), (CELL, 1, 1)], next_cells=(2, 0, 0, 0)) == (BIS, 0, 1)
    ties = {_decide("greedy", [(CELL, 0, 0), (CELL, 3, 0)], seed=seed) for seed in range(40)}
    assert ties == {(CELL, 0, 0), (CELL, 3, 0)}


def test_careful_loses_no_cell_unless_it_closes_a_row_a_row_is_young_or_a_penalty_costs_more():
    # No loss first, in the row with most crosses.
    assert _decide("careful", [(CELL, 0, 4), (CELL, 1, 2), (CELL, 2, 2)], next_cells=(2, 2, 2, 0),
                   crosses=(2, 1, 2, 0)) == (CELL, 2, 2)
    # A lock, whatever it skips.
    assert _decide("careful", [(CELL, 0, 10)], next_cells=(7, 0, 0, 0), crosses=(5, 0, 0, 0)) == (CELL, 0, 10)
    # One lost cell in a row of at most one cross, not in an older row.
    assert _decide("careful", [(CELL, 1, 3)], next_cells=(0, 2, 0, 0), crosses=(0, 1, 0, 0)) == (CELL, 1, 3)
    assert _decide("careful", [(CELL, 1, 4)], next_cells=(0, 3, 0, 0), crosses=(0, 2, 0, 0)) is None
    # Against a penalty (5 points), 2 points a lost cell: 2 cells (4) yes, 3 cells (6) no.
    state = dict(next_cells=(0, 3, 0, 0), crosses=(0, 3, 0, 0), action=2)
    assert CAREFUL_SKIP_POINTS == 2
    assert _decide("careful", [(CELL, 1, 5)], **state) == (CELL, 1, 5)
    assert _decide("careful", [(CELL, 1, 6)], **state) is None
    # No penalty at stake: in action 1, or once action 1 crossed something.
    assert _decide("careful", [(CELL, 1, 5)], **{**state, "action": 1}) is None
    assert _decide("careful", [(CELL, 1, 5)], **state, active_crossed=True) is None


def test_a_power_choice_is_always_made():
    for name in STRATEGIES:
        assert _decide(name, [(POWER, 0, 0), (POWER, 3, 0)]) in {(POWER, 0, 0), (POWER, 3, 0)}


# -- the download pack's figures ----------------------------------------------------------


def test_typical_game_is_fixed_and_plausible():
    typical = typical_game(load_grid("classic"))
    assert typical == typical_game(load_grid("classic"))
    assert 40 < typical.winning_score < 160 and 15 < typical.rolls < 80
    assert (typical.games, typical.players) == (500, 4)
    assert typical_game(load_grid("classic"), jobs=2) == typical


# -- the command line ----------------------------------------------------------------------


def test_simulate_prints_the_report(run):
    result = run("simulate", "classic", "--games", "300", "--players", "3", "--strategy", "greedy")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Qwixx (classic): 300 games of 3 players (greedy x3), seed 1"
    for heading in ("score per sheet", "winning score", "game length (rolls)", "How games end (300 games)",
                    "Rows (300 games, 900 sheets):", "Seats (300 games each):"):
        assert any(line.strip().startswith(heading) for line in lines), heading


def test_simulate_json_is_the_report_as_data(run):
    result = run("simulate", "bonus", "--games", "250", "--json", "--seed", "5", "--jobs", "2")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["grid"], data["games"], data["sheets"], data["seed"]) == ("bonus", 250, 1000, 5)
    assert data == report_json(simulate(Setup(load_grid("bonus"), games=250, seed=5)))
    assert sum(end["games"] for end in data["ends"].values()) == 250


def test_a_long_run_shows_a_progress_bar_only_on_a_terminal(run, monkeypatch):
    import sheetgen.cli as cli_module

    monkeypatch.setattr(cli_module, "SHOW_PROGRESS_AFTER", 0.0)
    assert "Playing" not in run("simulate", "classic", "--games", "600").output
    monkeypatch.setattr(cli_module, "_is_terminal", lambda: True)
    assert "Playing" in run("simulate", "classic", "--games", "600").output


def test_json_gives_small_boxes_on_grids_with_them():
    bis = report_json(simulate(Setup(load_grid("bis"), games=100)))["rows"][0]
    assert list(bis["boxes_crossed_share"]) == [str(n) for n in range(2, 12)]  # every cell but the last
    assert 0 < max(bis["boxes_crossed_share"].values()) < 1
    assert "boxes_crossed_share" not in report_json(simulate(Setup(load_grid("classic"), games=100)))["rows"][0]


def test_heatmap_writes_the_picture_after_the_report(run, tmp_path):
    result = run("simulate", "classic", "--games", "200", "--heatmap", "maps/classic.png")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("\nwrote maps/classic.png\n")
    assert (tmp_path / "maps" / "classic.png").read_bytes().startswith(b"\x89PNG")
    result = run("simulate", "classic", "--games", "200", "--heatmap", "classic.PDF", "--json")
    assert json.loads(result.stdout)["games"] == 200  # nothing but the JSON on standard output
    assert (tmp_path / "classic.PDF").read_bytes().startswith(b"%PDF-")


def test_a_grid_that_cannot_be_drawn_is_refused_before_any_game(run, tmp_path, monkeypatch):
    import sheetgen.play.simulate as simulation

    def no_games(*args, **kwargs):
        raise AssertionError("games were played")

    import sheetgen.play.heatmap as heatmap

    monkeypatch.setattr(simulation, "simulate", no_games)
    monkeypatch.setattr(heatmap, "HEATMAP_GROWTH", ())  # no larger sheet of the heat map's own to fall back on
    crowded = tmp_path / "crowded.yaml"  # three rows under a bar, eight legend lines: no room for the rows
    crowded.write_text(CROWDED)
    result = run("simulate", str(crowded), "--heatmap", "crowded.png")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"sheetgen: {crowded}: rows: the rows do not fit") and result.stderr.count("\n") == 1
    assert not (tmp_path / "crowded.png").exists()


def test_a_grid_whose_sheet_cannot_print_still_gets_its_heat_map(run, tmp_path):
    crowded = tmp_path / "crowded.yaml"  # the sheet cannot print; the heat map draws it larger
    crowded.write_text(CROWDED)
    result = run("simulate", str(crowded), "--games", "20", "--heatmap", "crowded.png")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "crowded.png").read_bytes().startswith(b"\x89PNG")


CROWDED = """\
name: crowded
title: Crowded
dice_faces: 6
close_after: 6
penalties: {boxes: 3, points: 4}
bis: true
lucky: {count: 2, from: 3, to: 11}
bonus_bar: [green, red, yellow, red, green, yellow]
powers:
  circle: {effect: extra_crosses, crosses: 3}
  diamond: {effect: cross_each_open_row}
  octagon: {effect: bonus_points, points: 7}
  square: {effect: double_lowest_row}
  star: {effect: no_penalties}
rows:
  - {colour: red, cells: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], framed: [5, 10], symbols: {4: circle, 7: diamond, 11: octagon}}
  - {colour: yellow, cells: [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2], framed: [8, 4], symbols: {11: circle, 6: diamond, 3: square}}
  - {colour: green, cells: [7, 6, 8, 5, 9, 4, 10, 3, 11, 2, 12], framed: [9], symbols: {6: octagon, 3: square, 10: star, 5: star}}
"""


SIMULATE_ERRORS = [
    (("simulate", "nosuch"), 1, "sheetgen: nosuch: unknown grid (expected a file or one of "),
    (("simulate", "classic", "--strategy", "clever"), 2,
     "sheetgen simulate: Invalid value for '--strategy': 'clever' is not one of 'random', 'greedy', 'careful', 'best'."),
    (("simulate", "classic", "--strategy", "x" * 100), 2,
     "sheetgen simulate: Invalid value for '--strategy': 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' is not"),
    (("simulate", "classic", "--strategy", "\x1b[31mred"), 2,
     "sheetgen simulate: Invalid value for '--strategy': '\\x1b[31mred' is not one of"),
    (("simulate", "classic", "--games", "0"), 2,
     "sheetgen simulate: Invalid value for '--games': 0 is not in the range 1<=x<=1000000."),
    (("simulate", "classic", "--players", "9"), 2,
     "sheetgen simulate: Invalid value for '--players': 9 is not in the range 1<=x<=8."),
    (("simulate", "classic", "--players", "2", "--strategy", "random", "--strategy", "greedy", "--strategy",
      "careful"), 2, "sheetgen simulate: Invalid value for '--strategy': 3 strategies for 2 players"),
    (("simulate", "classic", "--heatmap", "heat.svg"), 2,
     "sheetgen simulate: Invalid value for '--heatmap': expected a file name ending in .pdf or .png, got 'heat.svg'"),
]


def test_the_command_line_bounds_and_defaults_are_the_librarys():
    from sheetgen.cli import PLAYERS_MAX, STRATEGY_DEFAULT
    from sheetgen.play.simulate import MAX_PLAYERS
    from sheetgen.play.strategies import DEFAULT_STRATEGY

    assert (PLAYERS_MAX, STRATEGY_DEFAULT) == (MAX_PLAYERS, DEFAULT_STRATEGY)
    assert all(WIN_SHARES % k == 0 for k in range(1, MAX_PLAYERS + 1))


def test_grids_and_strategies_complete_in_the_shell():
    def offered(*words: str) -> list[str]:
        env = {"_SHEETGEN_COMPLETE": "bash_complete", "COMP_WORDS": " ".join(("sheetgen", "simulate") + words),
               "COMP_CWORD": str(len(words) + 1)}
        result = CliRunner().invoke(cli, [], env=env, prog_name="sheetgen")
        return [line.removeprefix("plain,") for line in result.stdout.splitlines() if line]

    assert offered("cl") == ["classic"]
    assert offered("classic", "--strategy", "") == list(STRATEGIES)
    assert offered("classic", "--strategy", "g") == ["greedy"]


def test_simulate_help_lists_the_strategies(run):
    result = run("simulate", "--help")
    for name, strategy in STRATEGIES.items():
        assert name in result.output and strategy.summary.split()[0] in result.output


@pytest.mark.parametrize("args, code, start", SIMULATE_ERRORS, ids=[" ".join(a[1:]) for a, _, _ in SIMULATE_ERRORS])
def test_simulate_errors_are_one_line(run, args, code, start):
    result = run(*args)
    assert result.exit_code == code
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(start), result.stderr


# -- docs/simulate.md tells the truth ---------------------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs" / "simulate.md"


def test_the_docs_report_is_what_the_command_prints(run):
    shown = re.search(r"```text\n(Qwixx \(classic\).*?)```", DOCS.read_text(), re.S).group(1)
    assert run("simulate", "classic", "--games", "1000").stdout == shown


def test_the_docs_balance_table_is_what_the_script_prints():
    script = runpy.run_path(str(DOCS.parent.parent / "scripts" / "simulate_docs.py"))
    assert script["balance_table"]() in DOCS.read_text()


@pytest.mark.slow
@pytest.mark.parametrize("grid", ["classic", "powers", "longo"])  # a sample: each row takes 5 to 10 s
def test_the_docs_best_averages_are_what_the_script_prints(grid):
    script = runpy.run_path(str(DOCS.parent.parent / "scripts" / "simulate_docs.py"))
    row = "| " + " | ".join(script["best_row"](grid)) + " |"
    assert row in DOCS.read_text().splitlines()


@pytest.mark.slow
def test_the_docs_first_player_table_is_what_the_script_prints():  # about 10 s: best plays a fifth of it
    script = runpy.run_path(str(DOCS.parent.parent / "scripts" / "simulate_docs.py"))
    assert script["first_player_table"]() in DOCS.read_text()


# -- intervals and comparisons --------------------------------------------------------


def test_a_means_interval_is_worked_by_hand():
    # 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32 / 7, standard error
    # sqrt(32 / 7 / 8) = 0.75593, times 1.96 = 1.48160.
    values = [2, 4, 4, 4, 5, 5, 7, 9]
    low, high = mean_interval(len(values), sum(values), sum(v * v for v in values))
    assert (round(low, 4), round(high, 4)) == (3.5184, 6.4816)
    assert Spread.of(Counter(values)).ci95 == (low, high)


def test_a_shares_interval_is_wilsons_worked_by_hand():
    # 8 of 10, z = 1.96: centre (0.8 + z²/20) / (1 + z²/10) = 0.71674, half
    # z sqrt(0.8 x 0.2 / 10 + z²/400) / (1 + z²/10) = 0.22658.
    low, high = share_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert share_interval(0, 50)[0] == 0 and 0.05 < share_interval(0, 50)[1] < 0.08  # never below 0


def test_a_seats_interval_is_that_of_its_games_scores():
    setup = Setup(load_grid("classic"), games=40, players=2, strategies=("careful", "greedy"), seed=3)
    report = simulate(setup)
    scores = [play_game(setup, index).scores[1].total for index in range(setup.games)]
    assert report.seat_score_ci(1) == pytest.approx(mean_interval(len(scores), sum(scores),
                                                                  sum(s * s for s in scores)))


def _report_of(scores: Counter, penalties: int, first_wins: int) -> Report:
    setup = Setup(load_grid("classic"), games=4, players=1)
    tally = empty_tally(setup)
    tally.games, tally.scores, tally.winning, tally.rolls = 4, scores, scores, Counter({30: 4})
    tally.ends = Counter({"penalties": penalties, "locks": 4 - penalties})
    tally.seat_wins, tally.penalties = [first_wins * WIN_SHARES], [Counter({0: 4})]
    return Report(setup, tally)


def test_two_runs_differences_are_worked_by_hand():
    # A: 10, 10, 20, 20 (mean 15, sd sqrt(100 / 3), error 2.88675); B: 20 x4 (error 0).
    a, b = _report_of(Counter({10: 2, 20: 2}), 2, 4), _report_of(Counter({20: 4}), 0, 4)
    score = differences(a, b)[0]
    assert (score.figure, score.difference, round(score.error, 5)) == ("mean score", 5, 2.88675)
    assert round(score.z, 3) == 1.732 and not score.significant
    penalties = differences(a, b)[3]
    # 2 of 4 against 0 of 4: error sqrt(0.5 x 0.5 / 4) = 0.25, z = -2: significant.
    assert (penalties.difference, penalties.error, penalties.significant) == (-0.5, 0.25, True)
    data = compare_json([a, b])
    half = 1.959964 * math.sqrt(100 / 3) / 2
    assert len(data["runs"]) == 2 and data["differences"][0]["ci95"] == pytest.approx([5 - half, 5 + half])


def test_a_negative_figure_prints_with_a_minus_sign_never_a_hyphen():
    # B against A, the runs of the test above the other way round: mean score 15 - 20 = -5.0, z = -1.7;
    # ends on penalties 0% - 50% = -50.0 percentage points, z = -2.0; a score of -5 in the run's own table.
    a, b = _report_of(Counter({20: 4}), 2, 4), _report_of(Counter({10: 2, 20: 2}), 0, 4)
    text = compare_text([a, b])
    assert "\u22125.0" in text and "\u22121.7" in text and "\u221250.0%" in text and "\u22122.0" in text
    assert not re.search(r"(?<![\w.])-\d", text), text
    own = report_text(_report_of(Counter({-5: 2, 20: 2}), 2, 4))
    assert "\u22125" in own and not re.search(r"(?<![\w.])-\d", own), own


def test_two_grids_are_played_side_by_side(run):
    result = run("simulate", "classic", "bis", "--games", "60", "--players", "2")
    lines = result.stdout.splitlines()
    assert lines[0] == "2 runs of 60 games, seed 1; ± is a 95% interval"
    assert any(line.startswith("  classic (careful x2)") for line in lines)
    assert any(line.startswith("  bis (careful x2)") for line in lines)
    assert "bis (careful x2) against classic (careful x2) (shares in percentage points):" in lines


def test_strategy_all_runs_every_strategy(run):
    result = run("simulate", "classic", "--strategy", "all", "--games", "30", "--players", "2", "--json")
    data = json.loads(result.stdout)
    assert [r["strategies"] for r in data["runs"]] == [[name, name] for name in STRATEGIES]
    assert "differences" not in data


@pytest.mark.parametrize("args, message", [
    (("classic", "bis", "--heatmap", "x.png"), "a heat map is drawn of one run"),
    (("classic", "--strategy", "all", "--strategy", "careful"), "'all' or a list with commas is the only"),
])
def test_runs_side_by_side_refuse_what_they_cannot_do(run, args, message):
    result = run("simulate", *args, "--games", "10")
    assert result.exit_code == 2 and message in result.stderr


def test_the_score_plot_bands_shares_of_sheets_by_five_points():
    from sheetgen.play.plot import bands

    setup = Setup(load_grid("classic"), games=1, players=4)
    tally = empty_tally(setup)
    tally.games, tally.scores = 1, Counter({-3: 1, 0: 1, 4: 1, 12: 1})  # bands -5, 0, 0, 10
    assert bands(Report(setup, tally)) == {-5: 0.25, 0: 0.5, 10: 0.25}


def test_plot_writes_the_score_distribution_of_every_run(run):
    result = run("simulate", "classic", "bis", "--games", "20", "--players", "2", "--plot", "scores.svg")
    svg = Path("scores.svg").read_text()
    assert svg.startswith("<svg") and "classic (careful x2), mean" in svg and "bis (careful x2), mean" in svg
    assert result.exit_code == 0
    refused = run("simulate", "classic", "--games", "20", "--plot", "scores.png")
    assert refused.exit_code == 2 and "expected a file name ending in .svg" in refused.stderr


# -- what each feature's crosses scored ------------------------------------------------------


def test_a_features_points_are_the_sheet_scored_with_and_without_its_crosses():
    from sheetgen.play.game import Sheet
    from sheetgen.play.simulate import feature_points

    # bis: red 5 crosses of which 1 a small box (15 - 10 = 5 points), green 3 with 2 boxes (6 - 1 = 5).
    rules = rulebook(load_grid("bis"))
    sheet = Sheet(rules, 0)
    sheet.crosses, sheet.boxes = [5, 0, 3, 0], [0b10, 0, 0b101, 0]
    assert feature_points(rules, sheet) == [("bis", 10)]
    sheet.locked[0] = True  # the lock stays: red 6 marks against 5, 21 - 15
    assert feature_points(rules, sheet) == [("bis", 11)]

    # doubles: a double cell crossed counts 2; without its second cross, 1 fewer.
    rules = rulebook(load_grid("doubles"))
    row, index = next((r, i) for r, bits in enumerate(rules.doubles) for i in range(12) if bits >> i & 1)
    sheet = Sheet(rules, 0)
    sheet.cells[row], sheet.crosses[row] = 1 << index, 4  # 4 crosses: 10 points, 6 without one
    assert feature_points(rules, sheet) == [("doubles", 4)]

    # classic has none of the features: nothing to value.
    assert feature_points(rulebook(load_grid("classic")), Sheet(rulebook(load_grid("classic")), 0)) == []


def test_a_bonus_cross_and_a_lucky_cross_are_counted_in_their_row():
    rules = rulebook(load_grid("bonus"))
    game = Game(rules, [lambda m, s, t: None], hand_dice([]))
    sheet = game.sheets[0]
    row, index = next((r, i) for r in range(rules.rows) for i in range(rules.last[r]) if rules.framed[r][i])
    game.cross(sheet, row, index, 1)  # the framed cell: the first bar box, and its colour's row's first free cell
    bonus_row = rules.row_of_colour[rules.bar[0]]
    assert sheet.bonus_rows == [int(r == bonus_row) for r in range(rules.rows)]
    from sheetgen.play.simulate import feature_points

    crosses = sheet.crosses[bonus_row]
    expected = (crosses * (crosses + 1) - (crosses - 1) * crosses) // 2
    assert feature_points(rules, sheet) == [("bar", expected)]

    rules = rulebook(load_grid("longo"))
    game = Game(rules, [lambda m, s, t: next((x for x in m if x[0] == LUCKY), None)], hand_dice([(1, 2, (1, 1, 1, 1))]),
                [(3, 4)])  # white 1 + 2 = 3, a lucky number: its cross goes to a row with fewest crosses
    result = game.play()
    assert sum(result.sheets[0].lucky_rows) == 1 == result.sheets[0].lucky_crosses


def test_the_report_gives_each_features_mean_points_with_an_interval():
    # Three sheets valued 2, 4 and 6 points of small boxes: mean 4, sd 2, 4 ± 1.96 * 2 / sqrt(3).
    setup = Setup(load_grid("bis"), games=1, players=3)
    tally = empty_tally(setup)
    tally.games = 1
    tally.feature_points["bis"], tally.feature_squares["bis"] = 12, 4 + 16 + 36
    mean, (low, high) = Report(setup, tally).feature_points()["bis"]
    half = 1.959964 * 2 / math.sqrt(3)
    assert mean == 4 and low == pytest.approx(4 - half) and high == pytest.approx(4 + half)
