"""Readings made marks and scores: what the scorer refuses or a doubtful box makes "check this sheet"."""

from __future__ import annotations

from ..errors import InputError
from ..grid.model import Grid
from ..play.marks import Marks, RowMarks
from ..play.scoring import Score, score_sheet
from ..records import record
from ..sheet.plan import SheetPlan
from .read import SheetReading


@record
class Checked:
    reading: SheetReading
    marks: Marks
    score: Score | None  # None: check this sheet
    problem: str = ""  # why it must be checked


def marks_of(reading: SheetReading, grid: Grid, plan: SheetPlan) -> Marks:
    """The marks a reading says the player crossed."""
    numbers = {(cell.row, cell.index): cell.number for cell in plan.cells}
    crossed: list[list[int]] = [[] for _ in grid.rows]
    bis: list[list[int]] = [[] for _ in grid.rows]
    locks = [False] * len(grid.rows)
    penalties = 0
    bar = []
    for box in reading.boxes:
        if not box.crossed:
            continue
        if box.kind == "cell":
            crossed[box.row].append(numbers[box.row, box.index])
        elif box.kind == "bis":
            bis[box.row].append(numbers[box.row, box.index])
        elif box.kind == "lock":
            locks[box.row] = True
        elif box.kind == "penalty":
            penalties += 1
        else:
            bar.append(box.row + 1)
    rows = tuple(RowMarks(tuple(c), locks[i], tuple(b)) for i, (c, b) in enumerate(zip(crossed, bis)))
    return Marks(reading.where, rows, penalties, tuple(sorted(bar)), None)


def check(reading: SheetReading, grid: Grid, plan: SheetPlan) -> Checked:
    """The sheet scored, or why it must be checked: doubtful boxes, or a reading the rules forbid."""
    marks = marks_of(reading, grid, plan)
    if reading.doubtful:
        names = ", ".join(box.ident for box in reading.doubtful)
        return Checked(reading, marks, None, f"check this sheet: doubtful {names}")
    try:
        return Checked(reading, marks, score_sheet(grid, marks))
    except InputError as error:
        return Checked(reading, marks, None, f"check this sheet: {error.message}"
                                             + (f" ({error.path})" if error.path else ""))


def marks_data(checked: Checked, grid: Grid) -> dict:
    """The marks as a marks file holds them (docs/scoring.md), for `sheetgen score` to read back."""
    marks = checked.marks
    return {"grid": grid.name,
            "rows": [{"crossed": list(row.crossed), "lock": bool(row.lock), **({"bis": list(row.bis)} if row.bis
                                                                             else {})} for row in marks.rows],
            "penalties": marks.penalties, **({"bonus_bar": list(marks.bonus_bar)} if marks.bonus_bar else {})}
