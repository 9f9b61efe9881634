"""The worked example of every grid's rules: a sheet a game can leave, whose
total is the one computed here by hand from the rules (crosses per row, the
lock counting one, triangular points, -5 a penalty, the powers)."""

from __future__ import annotations

import pytest

from sheetgen.grid.load import builtin_dir, builtin_names, grid_from_data, load_grid
from sheetgen.grid.yamlio import read_yaml
from sheetgen.play.example import example_marks
from sheetgen.play.scoring import score_sheet

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


def test_every_builtin_grid_has_a_hand_computed_example():
    assert set(EXAMPLES) == set(builtin_names())


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_example_is_the_sheet_described_and_scores_as_computed_by_hand(name):
    crossed, bis, bar, crosses, total = EXAMPLES[name]
    grid = load_grid(name)
    marks = example_marks(grid)
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
    marks = example_marks(grid)
    # 10 cells before the last are not 14: four small boxes make up the rest.
    assert marks.rows[0].bis == (2, 3, 4, 5)
    assert score_sheet(grid, marks).rows[0].crosses == 10 + 4 + 2
