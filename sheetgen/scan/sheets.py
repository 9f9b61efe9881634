"""Readings made marks and scores: what the scorer refuses or a doubtful box makes "check this sheet"."""

from __future__ import annotations

from dataclasses import replace

from ..errors import InputError
from ..grid.model import Grid
from ..play.marks import Marks, RowMarks
from ..play.scoring import Score, score_sheet
from ..records import record
from ..sheet.plan import SheetPlan
from ..sheet.style import load_labels
from ..words import signed
from .read import BoxReading, SheetReading

MOST_DOUBTFUL = 6  # the readings of up to this many doubtful boxes are tried (64), as on the review page


@record
class Reading:
    """One way the doubtful boxes of a sheet may be read, which the rules accept."""

    crossed: tuple[tuple[BoxReading, bool], ...]  # each doubtful box, in the reading's order, and crossed or not
    total: int  # the sheet's total read so


@record
class Checked:
    reading: SheetReading  # as read, a doubtful box guessed crossed where every legal reading crosses it
    marks: Marks
    score: Score | None  # None: check this sheet
    problem: str = ""  # why it must be checked
    legal: tuple[Reading, ...] | None = None  # the readings of its doubtful boxes the rules accept; None: not tried
    tried: int = 0  # how many readings were tried (a doubtful lock goes with its last cell); 0: not tried


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
        problem = f"check this sheet: doubtful {names}"
        if len(reading.doubtful) > MOST_DOUBTFUL:
            return Checked(reading, marks, None, problem)
        legal, tried = legal_readings(reading, grid, plan)
        reading = as_the_rules_need(reading, legal)
        return Checked(reading, marks_of(reading, grid, plan), None, problem, legal, tried)
    try:
        return Checked(reading, marks, score_sheet(grid, marks))
    except InputError as error:
        return Checked(reading, marks, None, f"check this sheet: {error.message}"
                                             + (f" ({error.path})" if error.path else ""))


def legal_readings(reading: SheetReading, grid: Grid, plan: SheetPlan) -> tuple[tuple[Reading, ...], int]:
    """Each reading of the doubtful boxes (crossed or not, every combination) that the scorer accepts,
    with its total, in the review page's order (none crossed first, the first box changing fastest),
    and how many readings were tried.  A doubtful lock whose row's last cell is in doubt too is read
    with that cell, as the rules cross them together (and the review page has it); a box read surely
    stays as read."""
    doubtful = reading.doubtful
    last: dict[int, BoxReading] = {}
    for box in reading.boxes:
        if box.kind == "cell" and (box.row not in last or box.index > last[box.row].index):
            last[box.row] = box
    follows = {i: doubtful.index(last[box.row]) for i, box in enumerate(doubtful)
               if box.kind == "lock" and box.row in last and last[box.row] in doubtful}
    free = [i for i in range(len(doubtful)) if i not in follows]
    legal = []
    for mask in range(2 ** len(free)):
        on = {i: (mask >> bit) % 2 == 1 for bit, i in enumerate(free)}
        on.update({i: on[cell] for i, cell in follows.items()})
        changed = {box: on[i] for i, box in enumerate(doubtful)}
        boxes = tuple(replace(box, crossed=changed[box]) if box in changed else box for box in reading.boxes)
        try:
            score = score_sheet(grid, marks_of(replace(reading, boxes=boxes), grid, plan))
        except InputError:
            continue
        legal.append(Reading(tuple((box, on[i]) for i, box in enumerate(doubtful)), score.total))
    return tuple(legal), 2 ** len(free)


def as_the_rules_need(reading: SheetReading, legal: tuple[Reading, ...]) -> SheetReading:
    """The guesses for a sheet's doubtful boxes (they stay doubtful, the sheet to check) made crossed where
    every reading the rules accept crosses them (the one legal reading, or a lock's last cell that each of
    them crosses): a mark the reader missed, or saw as less than an X, that the rules need.  A doubtful
    box guessed crossed is never made empty by the rules: they cannot tell a misread from a player's slip
    (a lock crossed without its row's last cell), and the sheet is kept as drawn."""
    if not legal:
        return reading
    needed = {box for box, _ in legal[0].crossed if all(dict(r.crossed)[box] for r in legal)}
    return replace(reading, boxes=tuple(replace(box, crossed=True) if box in needed else box for box in reading.boxes))


def reading_text(reading: Reading, grid: Grid) -> str:
    """A reading in English, as the review page words it: "Red 11 crossed, Red 12 not crossed"."""
    words = load_labels("en")
    return ", ".join(f"{box_name(box, grid)} {words('counter_crossed') if on else words('counter_review_not_crossed')}"
                     for box, on in reading.crossed)


def box_name(box: BoxReading, grid: Grid) -> str:
    """A box as the counter page names it in English: "Red 11", "Row 2: red 5", "Red lock",
    "Small box under Red 4", "Penalty box 2", "Bonus box 3"."""
    words = load_labels("en")
    if box.kind == "penalty":
        return words("counter_penalty_box", box.row + 1)
    if box.kind == "bar":
        return words("counter_bonus_box", box.row + 1)
    row = grid.rows[box.row]
    one_colour = len(row.colours) == 1
    row_name = _capital(words(f"colour_{row.lock_colour.value}")) if one_colour else words("counter_row", box.row + 1)
    if box.kind == "lock":
        return words("counter_lock", row_name)
    cell = row.cells[box.index]
    name = f"{words(f'colour_{cell.colour.value}')} {cell.number}"
    name = _capital(name) if one_colour else f"{row_name}: {name}"
    return words("counter_bis", name) if box.kind == "bis" else name


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def readings_lines(checked: Checked, grid: Grid) -> list[str]:
    """What the report of a sheet to check says of its doubtful boxes' readings, a line each."""
    doubtful = len(checked.reading.doubtful)
    if not doubtful:
        return []
    if checked.legal is None:
        return [f"too many doubtful boxes ({doubtful}) to list the legal readings (at most {MOST_DOUBTFUL})"]
    if not checked.legal:
        return [f"no reading of the doubtful {'box' if doubtful == 1 else 'boxes'} is legal"]
    if len(checked.legal) == checked.tried:
        totals = sorted({reading.total for reading in checked.legal})
        span = (f"total {signed(totals[0])}" if len(totals) == 1
                else f"totals {signed(totals[0])} to {signed(totals[-1])}")
        return [f"every reading of the doubtful {'box' if doubtful == 1 else 'boxes'} is legal"
                f" ({checked.tried}, {span})"]
    return [f"legal: {reading_text(reading, grid)} (total {signed(reading.total)})" for reading in checked.legal]


def readings_data(checked: Checked, grid: Grid) -> dict:
    """The readings of a sheet to check in --json: ``readings``, the legal ones ([] none; null when
    not tried), and ``readings_tried``, how many were tried (0: no doubtful box, or too many)."""
    legal = None if checked.legal is None else [
        {"boxes": {box.ident: on for box, on in reading.crossed}, "total": reading.total,
         "text": reading_text(reading, grid)} for reading in checked.legal]
    return {"readings": legal, "readings_tried": checked.tried}


def marks_data(checked: Checked, grid: Grid) -> dict:
    """The marks as a marks file holds them (docs/scoring.md), for `sheetgen score` to read back."""
    marks = checked.marks
    return {"grid": grid.name,
            "rows": [{"crossed": list(row.crossed), "lock": bool(row.lock), **({"bis": list(row.bis)} if row.bis
                                                                             else {})} for row in marks.rows],
            "penalties": marks.penalties, **({"bonus_bar": list(marks.bonus_bar)} if marks.bonus_bar else {})}
