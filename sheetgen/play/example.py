"""A worked example for a grid's rules: ``example_marks(grid)`` is a filled-in
sheet that shows what the grid's rules are about, for the rules card to draw
and the scorer to add up.

The sheet is built from the grid's data, so every grid, built in or not, gets
one, and it is one a game can leave (``score_sheet`` accepts it): the top row
closed with the crosses it needs and cells skipped on the way, the other rows
crossed less and less far, one penalty; and where the grid has them, a double
cell crossed, a small box crossed, the bar boxes its framed cells earned, and
a power unlocked (one that adds points, if the grid has one, so the example
shows it in the total; the crosses may unlock others too).
"""

from __future__ import annotations

from ..grid.model import Effect, Grid, Power, Row
from .marks import Marks, RowMarks

SOURCE = "example"  # the marks' "file", in the scorer's messages
# Crosses in the rows below the closed one, top to bottom: fewer and fewer.
OPEN_ROW_CROSSES = (4, 3, 2)
# Powers worth showing in a total, best first.
SHOWN_EFFECTS = (Effect.BONUS_POINTS, Effect.DOUBLE_LOWEST_ROW, Effect.NO_PENALTIES)


def example_marks(grid: Grid) -> Marks:
    """A legal, instructive filled-in sheet of ``grid``."""
    closed, closed_boxes = _closed_row(grid, grid.rows[0])
    crossed = [closed] + [
        _open_row(row, OPEN_ROW_CROSSES[min(i, len(OPEN_ROW_CROSSES) - 1)]) for i, row in enumerate(grid.rows[1:])
    ]
    power = _shown_power(grid)
    if power is not None:
        for r, c in grid.symbol_cells(power.symbol):
            crossed[r].add(c)
    bis = [closed_boxes] + [set() for _ in grid.rows[1:]]
    if grid.bis:
        bis[1].add(max(crossed[1]))  # under the rightmost cross, the one that may take its box
    framed = sum(row.cells[c].framed for row, cells in zip(grid.rows, crossed) for c in cells)
    rows = tuple(
        RowMarks(
            crossed=tuple(row.cells[c].number for c in sorted(cells)),
            bis=tuple(row.cells[c].number for c in sorted(boxes)),
        )
        for row, cells, boxes in zip(grid.rows, crossed, bis)
    )
    return Marks(
        source=SOURCE,
        rows=rows,
        penalties=1,
        bonus_bar=tuple(range(1, min(framed, len(grid.bonus_bar)) + 1)),
    )


def _closed_row(grid: Grid, row: Row) -> tuple[set[int], set[int]]:
    """Every other cell from the left until the row may close, then its last
    cell; and the small boxes it takes if its cells alone are not enough."""
    last = len(row.cells) - 1
    chosen: set[int] = set()
    for step in (2, 1):  # skip cells to show that it is allowed; take them all if the row is too short
        for c in range(0, last, step):
            if _weight(row, chosen) >= grid.close_after:
                break
            chosen.add(c)
    boxes = set(range(grid.close_after - _weight(row, chosen))) if grid.bis else set()
    return chosen | {last}, boxes


def _open_row(row: Row, crosses: int) -> set[int]:
    """``crosses`` cells from the left, the second one skipped, never the last cell."""
    return set(list(range(0, len(row.cells) - 1))[: crosses + 1]) - {1}


def _weight(row: Row, cells: set[int]) -> int:
    return sum(row.cells[c].weight for c in cells)


def _shown_power(grid: Grid) -> Power | None:
    """The power the example unlocks: one whose cells can be crossed in any open row."""
    candidates = [
        power
        for power in grid.powers
        if all(c != len(grid.rows[r].cells) - 1 for r, c in grid.symbol_cells(power.symbol))
    ]
    for effect in SHOWN_EFFECTS:
        for power in candidates:
            if power.effect is effect:
                return power
    return candidates[0] if candidates else None
