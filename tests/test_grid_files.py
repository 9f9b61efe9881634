"""The ten grid files agree with the game they print, and every built-in grid
has the properties every grid needs.

The expected data below is this test's own transcription of the ten grids,
written by hand from the published sheets (and, for rainbow and disorder, the
project's own design, whose properties are checked below), in the notation of
their rules: numbers left to right, colour letters R, Y, G, B.  It is never
read from the YAML: a typo in a grid file must show up here as a difference,
not be copied into the test.  docs/rules.md states the same rules in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.grid.model import Colour, Effect, Grid, Lucky, Row, Symbol

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE
LETTERS = {"R": R, "Y": Y, "G": G, "B": B}

# The base rules: the row scores for 1..16 crosses.
TRIANGULAR = (1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120, 136)

Cells = list[tuple[int, Colour]]


def one_colour(colour: Colour, numbers: str) -> Cells:
    """'2 3 4' in one colour."""
    return [(int(n), colour) for n in numbers.split()]


def blocks(numbers: str, letters: str) -> Cells:
    """Numbers and, separately, their colour letters: '2 3', 'Y B'."""
    return [(int(n), LETTERS[c]) for n, c in zip(numbers.split(), letters.split(), strict=True)]


def lettered(cells: str) -> Cells:
    """'9Y 4R 8G': number then colour letter."""
    return [(int(cell[:-1]), LETTERS[cell[-1]]) for cell in cells.split()]


UP = "2 3 4 5 6 7 8 9 10 11 12"
DOWN = "12 11 10 9 8 7 6 5 4 3 2"
CLASSIC = [one_colour(R, UP), one_colour(Y, UP), one_colour(G, DOWN), one_colour(B, DOWN)]


@dataclass(frozen=True)
class Expected:
    rows: list[Cells]
    close_after: int = 5
    max_crosses: int = 12
    dice_faces: int = 6
    lucky: Lucky | None = None
    double: set[tuple[Colour, int]] = field(default_factory=set)  # (row's lock colour, number)
    framed: set[tuple[Colour, int]] = field(default_factory=set)
    bonus_bar: tuple[Colour, ...] = ()
    symbols: dict[tuple[Colour, int], Symbol] = field(default_factory=dict)
    powers: dict[Symbol, tuple[Effect, int]] = field(default_factory=dict)  # amount 0 = none
    bis: bool = False
    cross_cap: int | None = None


LONGO_UP = "2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"
LONGO_DOWN = "16 15 14 13 12 11 10 9 8 7 6 5 4 3 2"

EXPECTED = {
    "classic": Expected(CLASSIC),
    "longo": Expected(
        [one_colour(R, LONGO_UP), one_colour(Y, LONGO_UP), one_colour(G, LONGO_DOWN), one_colour(B, LONGO_DOWN)],
        close_after=6,
        max_crosses=16,
        dice_faces=8,
        lucky=Lucky(count=2, low=2, high=16),
    ),
    "doubles": Expected(
        CLASSIC,
        close_after=7,
        max_crosses=16,
        double={(c, n) for c in (R, Y) for n in (3, 5, 9, 11)} | {(c, n) for c in (G, B) for n in (11, 9, 5, 3)},
    ),
    "bis": Expected(CLASSIC, close_after=7, max_crosses=16, bis=True, cross_cap=16),
    "bonus": Expected(
        CLASSIC,
        framed={(R, 3), (R, 6), (R, 9), (Y, 5), (Y, 8), (Y, 11), (G, 11), (G, 7), (G, 4), (B, 10), (B, 8), (B, 5)},
        bonus_bar=(R, Y, G, B, G, R, B, Y, R, Y, B, G),
    ),
    "powers": Expected(
        CLASSIC,
        symbols={
            (Y, 11): Symbol.CIRCLE, (G, 9): Symbol.CIRCLE,
            (Y, 7): Symbol.DIAMOND, (B, 7): Symbol.DIAMOND,
            (R, 8): Symbol.SQUARE, (B, 10): Symbol.SQUARE,
            (R, 6): Symbol.OCTAGON, (B, 4): Symbol.OCTAGON,
            (Y, 3): Symbol.STAR, (G, 5): Symbol.STAR,
        },  # fmt: skip
        powers={
            Symbol.CIRCLE: (Effect.EXTRA_CROSSES, 2),
            Symbol.DIAMOND: (Effect.CROSS_EACH_OPEN_ROW, 0),
            Symbol.SQUARE: (Effect.DOUBLE_LOWEST_ROW, 0),
            Symbol.OCTAGON: (Effect.BONUS_POINTS, 13),
            Symbol.STAR: (Effect.NO_PENALTIES, 0),
        },
    ),
    "blocks": Expected(
        [
            blocks(UP, "Y Y Y B B B G G G R R"),
            blocks(UP, "R R G G G G B B Y Y Y"),
            blocks(DOWN, "B B B Y Y Y R R R G G"),
            blocks(DOWN, "G G R R R R Y Y B B B"),
        ]
    ),
    "mixed": Expected(
        [
            one_colour(R, "10 6 2 8 3 4 12 5 9 7 11"),
            one_colour(Y, "9 12 4 6 7 2 5 8 11 3 10"),
            one_colour(G, "8 2 10 12 6 9 7 4 5 11 3"),
            one_colour(B, "5 7 11 9 12 3 8 10 2 6 4"),
        ]
    ),
    "rainbow": Expected(
        [
            blocks(UP, "Y B R G Y B R G Y B R"),
            blocks(UP, "R G Y B R G Y B R G Y"),
            blocks(DOWN, "B R G Y B R G Y B R G"),
            blocks(DOWN, "G Y B R G Y B R G Y B"),
        ]
    ),
    "disorder": Expected(
        [
            lettered("9Y 4R 8G 7Y 5B 10R 3B 12R 2B 6G 11R"),
            lettered("7B 8Y 12B 5R 6Y 11B 2R 10Y 4G 9B 3Y"),
            lettered("8R 5G 6R 2G 9R 12G 11Y 3G 7R 4Y 10G"),
            lettered("11G 10B 2Y 8B 7G 5Y 9G 6B 12Y 3R 4B"),
        ]
    ),
}

# Every one of the ten: locks red, yellow, green, blue from top to bottom
# (classic rows by colour; blocks, rainbow, mixed and disorder by last cell).
LOCKS = (R, Y, G, B)


@pytest.fixture(scope="module")
def grids() -> dict[str, Grid]:
    return {name: load_grid(name) for name in EXPECTED}


def marked(grid: Grid, attribute: str) -> dict[tuple[Colour, int], object]:
    """(row's lock colour, number) -> the cell's ``attribute``, where it is set."""
    return {
        (row.lock_colour, cell.number): getattr(cell, attribute)
        for row in grid.rows
        for cell in row.cells
        if getattr(cell, attribute)
    }


def test_builtin_names_are_the_ten_grids():
    assert set(builtin_names()) == set(EXPECTED)


# -- each file against the transcription ---------------------------------------

ten = pytest.mark.parametrize("name", sorted(EXPECTED))


@ten
def test_rows_cell_by_cell(grids, name):
    actual = [[(cell.number, cell.colour) for cell in row.cells] for row in grids[name].rows]
    assert actual == EXPECTED[name].rows


@ten
def test_locks(grids, name):
    assert tuple(row.lock_colour for row in grids[name].rows) == LOCKS


@ten
def test_dice_threshold_and_penalties(grids, name):
    grid, expected = grids[name], EXPECTED[name]
    assert grid.name == name
    assert (grid.dice_faces, grid.close_after) == (expected.dice_faces, expected.close_after)
    assert (grid.penalty_boxes, grid.penalty_points) == (4, 5)


@ten
def test_scoring_table(grids, name):
    assert grids[name].table == TRIANGULAR[: EXPECTED[name].max_crosses]


@ten
def test_lucky_numbers(grids, name):
    assert grids[name].lucky == EXPECTED[name].lucky


@ten
def test_bis_and_cross_cap(grids, name):
    grid, expected = grids[name], EXPECTED[name]
    assert (grid.bis, grid.cross_cap) == (expected.bis, expected.cross_cap)


@ten
def test_double_cells(grids, name):
    assert set(marked(grids[name], "double")) == EXPECTED[name].double


@ten
def test_framed_cells_and_bonus_bar(grids, name):
    grid, expected = grids[name], EXPECTED[name]
    assert set(marked(grid, "framed")) == expected.framed
    assert grid.bonus_bar == expected.bonus_bar


@ten
def test_symbols_and_powers(grids, name):
    grid, expected = grids[name], EXPECTED[name]
    assert marked(grid, "symbol") == expected.symbols
    assert {p.symbol: (p.effect, p.amount) for p in grid.powers} == expected.powers


def test_doubles_are_the_2nd_4th_8th_and_10th_cells(grids):
    for row in grids["doubles"].rows:
        assert [i + 1 for i, cell in enumerate(row.cells) if cell.double] == [2, 4, 8, 10]


def test_bis_rows_hold_more_than_the_cap(grids):
    # 11 cells + 10 small boxes + lock = 22, of which only 16 count.
    assert all(grids["bis"].row_capacity(row) == 22 for row in grids["bis"].rows)


# -- disorder: the properties its design promises ------------------------------
# Checked on the transcription (does the design keep its own promises?) and
# on the file (does what ships keep them?).


@pytest.fixture(params=["transcription", "disorder.yaml"])
def disorder(request, grids) -> list[Cells]:
    if request.param == "transcription":
        return EXPECTED["disorder"].rows
    return [[(cell.number, cell.colour) for cell in row.cells] for row in grids["disorder"].rows]


def test_disorder_rows_hold_2_to_12_once(disorder):
    for cells in disorder:
        assert sorted(n for n, _ in cells) == list(range(2, 13))


def test_disorder_colours_have_11_cells_and_each_number_once(disorder):
    for colour in Colour:
        assert sorted(n for cells in disorder for n, c in cells if c is colour) == list(range(2, 13))


def test_disorder_columns_have_4_numbers_and_4_colours(disorder):
    for column in zip(*disorder, strict=True):
        assert len({n for n, _ in column}) == 4
        assert len({c for _, c in column}) == 4


def test_disorder_neighbours_differ_in_colour(disorder):
    # "Neighbouring" means sharing a side: left/right in a row and above/below
    # in a column.  Not diagonal: the data has many same-coloured diagonal
    # pairs (9Y of row 1 and 8Y of row 2, for one), so the design cannot mean it.
    for r, cells in enumerate(disorder):
        for c, (_, colour) in enumerate(cells):
            if c + 1 < len(cells):
                assert colour is not cells[c + 1][1], f"row {r + 1}, cells {c + 1} and {c + 2}"
            if r + 1 < len(disorder):
                assert colour is not disorder[r + 1][c][1], f"rows {r + 1} and {r + 2}, cell {c + 1}"


# -- every built-in grid, including ones added later ---------------------------

every = pytest.mark.parametrize("name", builtin_names())


@every
def test_builtin_loads(name):
    assert load_grid(name).name == name


@every
def test_builtin_has_four_rows_with_different_locks(name):
    locks = [row.lock_colour for row in load_grid(name).rows]
    assert len(set(locks)) == len(locks) == 4


@every
def test_builtin_numbers_are_possible_sums(name):
    grid = load_grid(name)
    # a white die plus a coloured die, both 1..dice_faces
    sums = range(2, 2 * grid.dice_faces + 1)
    assert all(cell.number in sums for row in grid.rows for cell in row.cells)


def crosses_before_last(grid: Grid, row: Row) -> int:
    """The base rules: a double cell counts 2; a second cross in a Bis box counts 1."""
    before_last = row.cells[:-1]
    return sum(2 if cell.double else 1 for cell in before_last) + (len(before_last) if grid.bis else 0)


@every
def test_builtin_threshold_reachable_before_last_cell(name):
    grid = load_grid(name)
    assert all(crosses_before_last(grid, row) >= grid.close_after for row in grid.rows)


@every
def test_builtin_table_covers_most_crosses(name):
    grid = load_grid(name)
    for row in grid.rows:
        last = row.cells[-1]
        capacity = crosses_before_last(grid, row) + (2 if last.double else 1) + 1  # + the lock
        assert len(grid.table) >= min(capacity, grid.cross_cap or capacity)
