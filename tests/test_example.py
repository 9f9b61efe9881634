"""The worked example of every grid's rules: a final sheet of the simulator's
games that uses every feature of its grid (or, where none does, a composed
one), whose total is the one computed here by hand from the rules (crosses
per row, the lock counting one, triangular points, -5 a penalty, the
powers); the same sheet every run."""

from __future__ import annotations

import pytest

from sheetgen.grid.load import builtin_dir, builtin_names, grid_from_data, load_grid
from sheetgen.grid.yamlio import read_yaml
from sheetgen.play.example import composed_marks, example_marks, example_sheet, features, used
from sheetgen.play.game import rulebook
from sheetgen.play.scoring import score_sheet
from sheetgen.play.simulate import TYPICAL_PLAYERS, TYPICAL_SEED, Setup, play_game

# grid: the numbers crossed row by row (the top row closed), small boxes, bar
# boxes; then each row's crosses and the total, by hand.
PLAIN = ([2, 4, 6, 8, 10, 12], [2, 4, 5, 6], [12, 10, 9], [12, 10])
EXAMPLES = {
    # 6 numbers + lock = 7 (28), 4 (10), 3 (6), 2 (3), one penalty: 28 + 10 + 6 + 3 - 5
    "classic": (PLAIN, {}, (), (7, 4, 3, 2), 42),
    # 7 before the last (2..6, 8, 10) + 12 + lock = 9 (45); 4 + the small box under 6 = 5 (15)
    "bis": (([2, 3, 4, 5, 6, 8, 10, 12], [2, 4, 5, 6], [12, 10, 9], [12, 10]), {1: [6]}, (), (9, 5, 3, 2), 64),
    # doubles 3, 5, 9 count two: red 2+3+4+6+8+10 = 7 before 12, + lock = 9 (45); 5 (15); 4 (10); 2 (3)
    "doubles": (([2, 3, 4, 6, 8, 10, 12], [2, 4, 5, 6], [12, 10, 9], [12, 10]), {}, (), (9, 5, 4, 2), 68),
    # 6 before 16, + lock = 8 (36), 4 (10), 3 (6), 2 (3)
    "longo": (([2, 4, 6, 8, 10, 12, 16], [2, 4, 5, 6], [16, 14, 13], [16, 14]), {}, (), (8, 4, 3, 2), 50),
    # framed red 6, yellow 5, blue 10 crossed: the first three bar boxes; the bar scores nothing
    "bonus": (PLAIN, {}, (1, 2, 3), (7, 4, 3, 2), 42),
    # octagon (red 6, blue 4) +13; square (red 8, blue 10) doubles the lowest row, green or blue, 6:
    # 28 + 10 + 6 + 6 - 5 + 13 + 6
    "powers": (([2, 4, 6, 8, 10, 12], [2, 4, 5, 6], [12, 10, 9], [12, 10, 4]), {}, (), (7, 4, 3, 3), 64),
    # by position: cells 1, 3, 5, 7, 9 and the last of each row, whatever their numbers
    "mixed": (([10, 2, 3, 12, 9, 11], [9, 4, 6, 7], [8, 10, 12], [5, 11]), {}, (), (7, 4, 3, 2), 42),
    "disorder": (([9, 8, 5, 3, 2, 11], [7, 12, 5, 6], [8, 6, 2], [11, 2]), {}, (), (7, 4, 3, 2), 42),
    "blocks": (PLAIN, {}, (), (7, 4, 3, 2), 42),
    "rainbow": (PLAIN, {}, (), (7, 4, 3, 2), 42),
}


# The simulator's sheets, as the card shows them: (game, seat), crosses per row (the lock
# counting one, a double cell two, a small box one), the rows locked, penalties, bar boxes,
# lucky numbers, and the total by hand.
SHOWN = {
    # 9 cells + 2 small boxes + lock = 12 (78); 1 + 1 box = 2 (3); 9 + 2 boxes = 11 (66); 2 (3); -5
    "bis": ((0, 2), (12, 2, 11, 2), (0,), 1, 0, (), 145),
    "blocks": ((0, 0), (9, 7, 6, 3), (0,), 1, 0, (), 95),  # 45 + 28 + 21 + 6 - 5
    # 6 (21); 7 + lock = 8 (36); 4 (10); 6 (21); 2 penalties -10; six bar boxes, worth nothing
    "bonus": ((1, 2), (6, 8, 4, 6), (1,), 2, 6, (), 78),
    # 9 + lock = 10 (55); 2 (3); 6 + lock = 7 (28): the second row closed ends the game; 3 (6); -5
    "classic": ((0, 2), (10, 2, 7, 3), (0, 2), 1, 0, (), 87),
    "disorder": ((0, 0), (6, 7, 2, 1), (1,), 1, 0, (), 48),  # 21 + 28 + 3 + 1 - 5
    # red 2 4 5 6 8 9 10 11, of which 5 9 11 double: 11 (66); yellow all 11 cells, 4 double, + lock:
    # 16 (136); green 10 9, 9 double: 3 (6); blue 12: 1 (1); -5
    "doubles": ((0, 1), (11, 16, 3, 1), (1,), 1, 0, (), 204),
    # 5 (15); 2 (3); 9 + lock = 10 (55); 5 (15); the fourth penalty ends the game: -20
    "longo": ((0, 3), (5, 2, 10, 5), (2,), 4, 0, (12, 14), 68),
    "mixed": ((0, 0), (4, 8, 7, 4), (1,), 1, 0, (), 79),  # 10 + 36 + 28 + 10 - 5
    # 5 (15); 8 + lock = 9 (45); 1 (1); 6 (21); -10; the square doubles the lowest row, green's 1: +1
    "powers": ((1, 2), (5, 9, 1, 6), (1,), 2, 0, (), 73),
    "rainbow": ((2, 0), (7, 6, 6, 5), (0,), 3, 0, (), 70),  # 28 + 21 + 21 + 15 - 15
}


def test_every_builtin_grid_has_a_hand_computed_example():
    assert set(EXAMPLES) == set(builtin_names()) == set(SHOWN)


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_the_shown_sheet_is_the_simulators_and_scores_as_computed_by_hand(name):
    (game, seat), crosses, locked, penalties, bar, lucky, total = SHOWN[name]
    grid = load_grid(name)
    shown = example_sheet(grid)
    assert (shown.game, shown.seat, shown.lucky) == (game, seat, lucky)
    sheet = play_game(Setup(grid, players=TYPICAL_PLAYERS, seed=TYPICAL_SEED), game).sheets[seat]
    assert features(grid) <= used(grid, sheet)
    score = score_sheet(grid, shown.marks)
    assert tuple(row.crosses for row in score.rows) == crosses
    assert tuple(r for r, row in enumerate(score.rows) if row.locked) == locked
    assert (shown.marks.penalties, len(shown.marks.bonus_bar)) == (penalties, bar)
    assert score.total == total


def test_the_features_a_sheet_must_show_come_from_the_grid():
    base = {"lock", "penalty", "rows"}
    assert features(load_grid("classic")) == base
    assert features(load_grid("doubles")) == base | {"double"}
    assert features(load_grid("bis")) == base | {"bis"}
    assert features(load_grid("bonus")) == base | {"bonus"}
    assert features(load_grid("longo")) == base | {"lucky"}
    assert features(load_grid("powers")) == base | {"power"}
    assert features(load_grid("rainbow")) == base | {"colour"}


def test_a_sheet_without_a_feature_is_passed_over():
    grid = load_grid("doubles")
    sheet = play_game(Setup(grid, players=TYPICAL_PLAYERS, seed=TYPICAL_SEED), 0).sheets[0]
    assert "double" in used(grid, sheet)
    sheet.cells = [bits & ~0b1010001010 for bits in sheet.cells]  # no double cell: the 2nd, 4th, 8th, 10th
    assert "double" not in used(grid, sheet)


def test_the_example_is_the_same_every_run():
    grid = load_grid("powers")
    assert example_sheet.__wrapped__(grid) == example_sheet.__wrapped__(grid) == example_sheet(grid)


def test_where_no_game_shows_every_feature_the_sheet_is_composed(monkeypatch):
    import sheetgen.play.example as example

    monkeypatch.setattr(example, "SEARCH", 0)
    grid = load_grid("bonus")
    assert example.example_sheet.__wrapped__(grid).marks == composed_marks(grid)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_example_is_the_sheet_described_and_scores_as_computed_by_hand(name):
    crossed, bis, bar, crosses, total = EXAMPLES[name]
    grid = load_grid(name)
    marks = composed_marks(grid)
    assert [sorted(row.crossed) for row in marks.rows] == [sorted(numbers) for numbers in crossed]
    assert {r: list(row.bis) for r, row in enumerate(marks.rows) if row.bis} == bis
    assert (marks.bonus_bar, marks.penalties) == (bar, 1)
    score = score_sheet(grid, marks)  # refuses a sheet no game can leave
    assert tuple(row.crosses for row in score.rows) == crosses
    assert [row.locked for row in score.rows] == [True, False, False, False]
    assert score.total == total


def test_a_grid_of_ones_own_gets_a_legal_example():
    data = read_yaml(builtin_dir() / "bis.yaml") | {"close_after": 14, "name": "long-bis", "max_crosses": 20}
    grid = grid_from_data(data, "long-bis.yaml")
    marks = composed_marks(grid)
    # 10 cells before the last are not 14: four small boxes make up the rest.
    assert marks.rows[0].bis == (2, 3, 4, 5)
    assert score_sheet(grid, marks).rows[0].crosses == 10 + 4 + 2


def test_a_grid_of_ones_own_gets_a_game_that_shows_its_features():
    from test_rules_stated import custom_grids

    for name, grid in custom_grids().items():
        shown = example_sheet(grid)
        assert shown.game is not None, name
        sheet = play_game(Setup(grid, players=TYPICAL_PLAYERS, seed=TYPICAL_SEED), shown.game).sheets[shown.seat]
        assert features(grid) <= used(grid, sheet), name
        assert score_sheet(grid, example_marks(grid)).total == rulebook_total(grid, sheet)


def rulebook_total(grid, sheet) -> int:
    from sheetgen.play.game import score

    return score(rulebook(grid), sheet).total
