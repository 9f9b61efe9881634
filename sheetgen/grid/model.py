"""The grid model: frozen data that says everything printed on a sheet and
every rule the scorer applies.  Built only by ``grid.load`` (``load_grid``,
``grid_from_data``, which check every field); everything downstream trusts it.
"""

from __future__ import annotations

from dataclasses import field
from enum import Enum

from ..records import record


class Colour(str, Enum):
    """The four coloured dice; a cell, a lock or a bonus box has one of them."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"


class Symbol(str, Enum):
    """Shapes printed on power cells."""

    CIRCLE = "circle"
    DIAMOND = "diamond"
    SQUARE = "square"
    OCTAGON = "octagon"
    STAR = "star"


class Effect(str, Enum):
    """What a power does once every cell carrying its symbol is crossed."""

    EXTRA_CROSSES = "extra_crosses"  # at once, `amount` crosses in your row with fewest crosses
    CROSS_EACH_OPEN_ROW = "cross_each_open_row"  # at once, one cross in each open row
    DOUBLE_LOWEST_ROW = "double_lowest_row"  # at the end, lowest-scoring row counts twice
    BONUS_POINTS = "bonus_points"  # `amount` points
    NO_PENALTIES = "no_penalties"  # penalties score 0


@record
class Cell:
    number: int
    colour: Colour
    double: bool = False  # one cross here counts as two
    framed: bool = False  # crossing it takes a bonus-bar box
    symbol: Symbol | None = None

    @property
    def weight(self) -> int:
        return 2 if self.double else 1


@record
class Row:
    cells: tuple[Cell, ...]

    @property
    def lock_colour(self) -> Colour:
        """The lock takes the colour of the row's last cell."""
        return self.cells[-1].colour

    @property
    def colours(self) -> frozenset[Colour]:
        """The colours of the row's cells: one, or several (blocks, rainbow, disorder)."""
        return frozenset(cell.colour for cell in self.cells)

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(cell.number for cell in self.cells)


@record
class Power:
    symbol: Symbol
    effect: Effect
    amount: int = 0  # points for BONUS_POINTS, crosses for EXTRA_CROSSES


@record
class Lucky:
    """Each sheet carries ``count`` distinct personal numbers from low..high."""

    count: int
    low: int
    high: int


@record
class Grid:
    name: str
    title: str
    description: str
    dice_faces: int
    close_after: int  # crosses needed in a row before its last cell may be crossed
    penalty_boxes: int
    penalty_points: int
    rows: tuple[Row, ...]
    lucky: Lucky | None = None
    bis: bool = False  # a small box under every cell but the last of each row
    bonus_bar: tuple[Colour, ...] = ()
    powers: tuple[Power, ...] = ()
    cross_cap: int | None = None  # at most this many crosses of a row count
    source: str = field(default="", compare=False)  # the file it was read from, for messages

    def row_capacity(self, row: Row) -> int:
        """Most crosses a row can hold: its cells (doubles twice), Bis boxes, the lock."""
        bis_boxes = len(row.cells) - 1 if self.bis else 0
        return sum(cell.weight for cell in row.cells) + bis_boxes + 1

    @property
    def max_crosses(self) -> int:
        """Length of the scoring table: the most crosses one row can score."""
        most = max(self.row_capacity(row) for row in self.rows)
        return min(most, self.cross_cap) if self.cross_cap else most

    @property
    def table(self) -> tuple[int, ...]:
        """Points for 1..max_crosses crosses (triangular numbers)."""
        return tuple(row_points(n) for n in range(1, self.max_crosses + 1))

    @property
    def has_double(self) -> bool:
        return any(cell.double for row in self.rows for cell in row.cells)

    @property
    def has_framed(self) -> bool:
        return any(cell.framed for row in self.rows for cell in row.cells)

    def row_of_colour(self, colour: Colour) -> int | None:
        """Index of the row whose lock has ``colour`` (lock colours differ)."""
        for index, row in enumerate(self.rows):
            if row.lock_colour is colour:
                return index
        return None

    def symbol_cells(self, symbol: Symbol) -> tuple[tuple[int, int], ...]:
        """(row index, cell index) of every cell that carries ``symbol``."""
        return tuple(
            (r, c)
            for r, row in enumerate(self.rows)
            for c, cell in enumerate(row.cells)
            if cell.symbol is symbol
        )


def row_name(grid: Grid, index: int) -> str:
    """A row as score tables, reports and JSON name it: its colour ('red'), or
    its place from the top ('row 2') when its cells have several colours.  The
    rules name it in the reader's language (``play.rules.row_in_words``)."""
    row = grid.rows[index]
    return row.lock_colour.value if len(row.colours) == 1 else f"row {index + 1}"


def row_points(crosses: int) -> int:
    """Triangular score of a row: 1, 3, 6, 10 ... for 1, 2, 3, 4 ... crosses."""
    return crosses * (crosses + 1) // 2
