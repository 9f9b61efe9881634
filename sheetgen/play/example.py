"""A worked example for a grid's rules: ``example_marks(grid)`` is a filled-in
sheet that shows what the grid's rules are about, for the rules card to draw
and the scorer to add up.

The sheet is one a game of the project's own simulator left: games of a fixed
seed are played in order, and the first final sheet (seat by seat) that uses
every feature the grid has (a closed row, a penalty, a bonus chain fired, a
lucky cross, a small box, a double cell, a power, a cell in a row of several
colours) is the example, so every run finds the same one.  Where no game in
``SEARCH`` shows them all, the sheet is composed instead (``composed_marks``).

The composed sheet is built from the grid's data, so every grid, built in or
not, gets one, and it is one a game can leave (``score_sheet`` accepts it): the top row
closed with the crosses it needs and cells skipped on the way, the other rows
crossed less and less far, one penalty; and where the grid has them, a double
cell crossed, a small box crossed, the bar boxes its framed cells earned, and
a power unlocked (one that adds points, if the grid has one, so the example
shows it in the total; the crosses may unlock others too).
"""

from __future__ import annotations

from functools import lru_cache

from ..grid.model import Effect, Grid, Power, Row
from ..records import record
from .game import Rulebook, Sheet, marks_document, rulebook, score
from .marks import Marks, RowMarks, marks_from_data
from .simulate import TYPICAL_PLAYERS, TYPICAL_SEED, Setup, play_game

SOURCE = "example"  # the marks' "file", in the scorer's messages
# Crosses in the rows below the closed one, top to bottom: fewer and fewer.
OPEN_ROW_CROSSES = (4, 3, 2)
# Powers worth showing in a total, best first.
SHOWN_EFFECTS = (Effect.BONUS_POINTS, Effect.DOUBLE_LOWEST_ROW, Effect.NO_PENALTIES)


SEARCH = 200  # games played to find a sheet that shows every feature of its grid


@record
class ExampleSheet:
    """The example: its marks, the player's lucky numbers (to print on the
    pictured sheet), and the game and seat it comes from (None: composed)."""

    marks: Marks
    lucky: tuple[int, ...] = ()
    game: int | None = None
    seat: int = 0


def example_marks(grid: Grid) -> Marks:
    """A legal, instructive filled-in sheet of ``grid``."""
    return example_sheet(grid).marks


def features(grid: Grid) -> frozenset[str]:
    """What an example sheet of ``grid`` must show: a closed row, a penalty and
    a cross in every row ("rows") always; "bonus", "lucky", "bis", "double", "power" and "colour" (a cell of
    a row of several colours) where the grid has them."""
    wanted = {"lock", "penalty", "rows"}
    wanted |= {"bonus"} if grid.bonus_bar else set()
    wanted |= {"lucky"} if grid.lucky else set()
    wanted |= {"bis"} if grid.bis else set()
    wanted |= {"double"} if any(cell.weight > 1 for row in grid.rows for cell in row.cells) else set()
    wanted |= {"power"} if grid.powers else set()
    wanted |= {"colour"} if any(len(row.colours) > 1 for row in grid.rows) else set()
    return frozenset(wanted)


def used(grid: Grid, sheet: Sheet) -> frozenset[str]:
    """The features a final sheet of a game uses (the names of ``features``;
    a power counts when it adds points)."""
    found = {"lock"} if any(sheet.locked) else set()
    found |= {"rows"} if all(sheet.cells) else set()
    found |= {"penalty"} if sheet.penalties else set()
    found |= {"bonus"} if any(sheet.bonus_rows) else set()
    found |= {"lucky"} if sheet.lucky_crosses else set()
    found |= {"bis"} if any(sheet.boxes) else set()
    found |= {"power"} if sheet.unlocked and score(rulebook(grid), sheet).power_points > 0 else set()
    for r, row in enumerate(grid.rows):
        crossed = [cell for i, cell in enumerate(row.cells) if sheet.cells[r] >> i & 1]
        found |= {"double"} if any(cell.weight > 1 for cell in crossed) else set()
        found |= {"colour"} if crossed and len(row.colours) > 1 else set()
    return frozenset(found)


@lru_cache(maxsize=64)
def example_sheet(grid: Grid) -> ExampleSheet:
    """The first final sheet of the simulator's games (seed ``TYPICAL_SEED``,
    ``TYPICAL_PLAYERS`` players) that uses every feature of ``grid``; else the
    composed one."""
    wanted, rules = features(grid), rulebook(grid)
    setup = Setup(grid, players=TYPICAL_PLAYERS, seed=TYPICAL_SEED)  # play_game plays one game of it
    for game in range(SEARCH):
        for sheet in play_game(setup, game, rules).sheets:
            if wanted <= used(grid, sheet):
                return ExampleSheet(_marks(rules, sheet), tuple(sorted(sheet.lucky)), game, sheet.seat)
    return ExampleSheet(composed_marks(grid))


def _marks(rules: Rulebook, sheet: Sheet) -> Marks:
    marks = marks_from_data(marks_document(rules, sheet), SOURCE, rules.grid)
    return Marks(SOURCE, marks.rows, marks.penalties, marks.bonus_bar)


def composed_marks(grid: Grid) -> Marks:
    """A sheet composed from ``grid``'s data, as the module's text says."""
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
