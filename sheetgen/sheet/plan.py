"""The sheet plan: a Grid becomes named boxes with their meaning, in mm.

``plan_sheet`` decides where everything printed on one sheet goes and what it
means (this cell is row 2's fifth, number 7, yellow, framed; this box is the
third penalty box, worth 5; this operator is the minus), and checks that it
all fits legibly: every ``LayoutError`` is raised here, and ``_where`` adds
the place in the grid file (cfgv's way: once, around the part that can fail).
The plan draws nothing; ``draw.draw_sheet`` turns it into items and
``pictograms`` holds the shapes.

The sheet is planned top to bottom in bands: an optional strip (header,
serial), the title band, the rows, then the bands below them (bonus bar,
legend lines, scoring table, penalties, totals); the rows get the height the
other bands leave.  Sizes here are for the standard sheet; a ``SheetSize``
scales type, minimum sizes, line widths and band heights by its ``scale``.
Text widths come from ``measure(text, bold, size, condensed=False) -> width``
(all mm), given by the caller, so that the plan needs no font library.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache
from typing import Protocol

from ..errors import LayoutError
from ..grid.model import Cell, Colour, Effect, Grid, Row, Symbol, row_points
from ..pdf.geometry import RGB, Box, Text
from ..records import record
from ..words import plural
from .boxes import (
    ArrowPlan,
    BarBand,
    CellPlan,
    ColourBox,
    LegendEntry,
    LockPlan,
    MachinePlan,
    PenaltiesBand,
    PenaltyBox,
    RowsBand,
    SheetData,
    SheetPlan,
    SheetSize,
    StripBand,
    TableBand,
    TableColumn,
    TitleBand,
    TotalBox,
    TotalsBand,
)
from .style import Labels, Theme

__all__ = ["ArrowPlan", "CellPlan", "ColourBox", "LegendEntry", "LockPlan", "MachinePlan", "PenaltyBox",
           "SheetData", "SheetPlan", "SheetSize", "TableColumn", "TotalBox", "Measure", "plan_sheet",
           "fit_text", "inside_frame", "STANDARD", "LARGE", "A6", "SIZES"]


class Measure(Protocol):
    def __call__(self, text: str, bold: bool, size: float, condensed: bool = False) -> float: ...
    def __hash__(self) -> int: ...  # texts are cached by the measure that fitted them


# The standard sheet: 2 x 4 on A4 and on US Letter, 5 mm free at every edge.
STANDARD = SheetSize("standard", 96.0, 66.0, 1.0)
# Large print, for players who read small type badly: 2 x 2 on a landscape A4 or
# US Letter page.  Upright, only two would fit (one across); turned, four of them
# 1.4 times as large.  132 mm is the widest two can be across US Letter (279.4 mm)
# with 5 mm free and room for the cut marks; rows get the height to spare.
LARGE = SheetSize("large", 132.0, 92.0, 1.4)
# One sheet to an A6 page (landscape), for pre-cut cards and print shops: the
# sheet is the page less the 5 mm edge, so that nothing prints within 5 mm of it.
A6 = SheetSize("a6", 138.0, 95.0, 1.45, ("a6",))
SIZES = {size.name: size for size in (STANDARD, LARGE, A6)}

PAD = 3.0  # blank border inside the cut line, for imprecise cutting (the same at any size)
CAP = 0.729  # cap height of the sheet's fonts (DejaVu Sans), as a fraction of their size
DESCENT = 0.2402  # and how far their descenders reach below the baseline
PT = 25.4 / 72  # one point, mm

# At the standard size, mm; multiplied by SheetSize.scale.
MIN_TEXT = 6 * PT  # the smallest text printed
MIN_NUMBER_CAP = 2.0  # the smallest cap height of a cell number (8 pt type), where the rows leave room
LEAST_NUMBER_CAP = 6 * PT * 0.729  # and where they do not: 6 pt type, the smallest text printed
COMFORTABLE_CAP = 2.5  # numbers this tall (10 pt type) keep the looser arrangement; smaller take the largest that fits
CLEAR = 0.4  # a number or a value stays this far inside the frame of its box, left and right
V_CLEAR = 0.4  # and this far above and below its capitals (a rule checks 0.3 mm)
LABEL_CLEAR = 0.4  # a label keeps twice this from the box it names
TABLE_CLEAR = 0.5  # a table entry stays this far from its column's lines
GAP = 0.5  # between bands
LINE_GAP = 0.3  # between the lines of the legend
DESCENDER_CLEAR = 0.4  # between the legend's descenders and the scoring table's top line
# Between any two boxes to cross or write in (cells of a row, rows, a row and its lock, the bonus bar's boxes,
# penalty boxes): a pen stroke stays off the next frame.
CELL_GAP = 0.8
STRIP_H = 2.6  # header line and serial number
TITLE_H = 4.3
LEGEND_H = 2.3
MARKER_GAP = 0.6  # between a legend marker and its text
ENTRY_GAP = 2.0  # between the entries of a legend line
BAR_H = 4.0
TABLE_ROW_H = 2.4
PENALTIES_H = 4.2  # the penalty boxes' band, as high as a penalty box is (at least) wide
BIS_H = 2.5  # a Bis box: room for a cross
BIS_GAP = 0.2  # between a cell and its Bis box
MAX_CELL_H = 7.5
MAX_NUMBER_CAP = 3.4
HEAVY = 0.6  # the dark frame of a framed (bonus) cell
THIN_FRAME = 0.28  # the thinnest colour band of a cell (a special cell's, inside its heavy or second frame)
DOUBLE_INSET = 0.25  # from a cell's background to the second frame of a double cell
DOUBLE_LINE = 0.25
MARK = 1.2  # a colour mark in a cell's top-left corner
SYMBOL = 2.2  # a power symbol in its top-right corner (2 mm and more: its shape shows at arm's length)
CORNER = 0.12  # around the things in a cell's corners
ARROW_W = 2.0
LOCK_W = 5.6
HINTED_LOCK_W = 4.0  # a lock with a threshold hint beside it
TITLE_SIZE = 3.6
TITLE_STEP = 0.1  # a title beside lucky numbers shrinks by this, down to 6 pt, to leave the name field its room
LABEL_SIZE = 2.4  # name, lucky numbers, bonus, penalties
STRIP_SIZE = 2.3  # header line and serial number
HINT_SIZE = 2.2
LUCKY_BOX_W = 5.6
TIGHT_LUCKY_BOX_W = 4.6  # where the name field needs the room
LUCKY_GAP = 0.6
PENALTY_GAP = CELL_GAP
OPERATOR_W = 2.6
OPERATOR_SIZE = 3.2
OPERATOR_CLEAR = CLEAR  # an operator from the boxes beside it, as a value from its frame
TOTAL_BOX_W = 11.0  # at most; room for a handwritten 136
TOTAL_CAPTION_H = 2.0
MIN_TOTAL_W = 6.5  # a row's box in the totals line: room for a handwritten 136
MIN_NAME_FIELD = 10.0
KEY_NAME_FIELD = 25.0  # the colour key shares the title band only if this much is left to write a name on
SERIAL_W = 22.0
LINE = 0.2  # rules: the name line, table lines
TABLE_RULE = LINE * 0.75  # the scoring table's rules, centred on its boxes' edges
BOX_LINE = 0.25  # frames of boxes to write in (lucky, penalties, totals)
CAPTION_TOP = BOX_LINE + 0.2  # a totals box's label from its top edge
TOTAL_LINE = BOX_LINE + 0.1  # the grand total's frame, a little heavier
WRITE_H = 5.0  # free height under a totals box's label (below its descenders) to write a number in
# A totals box: its label (6 pt, under the frame), its descenders, the height to write in, the frame.
TOTALS_H = CAPTION_TOP + TOTAL_CAPTION_H / 2 + MIN_TEXT * (CAP / 2 + DESCENT) + WRITE_H + TOTAL_LINE

FIDUCIAL = 4.0  # the side of a fiducial square at each corner, mm (at any size)
MACHINE_CLEAR = 1.0  # nothing else prints this close to a machine mark, mm (at any size)
CODE = 10.0  # the side of the machine code's square, its quiet zone included

BASE_CLOSE_AFTER = 5  # the base rule; other thresholds get a hint by the lock and its key
MIN_STRETCH = 1.0  # no text is narrowed (no horizontal scaling): it wraps or takes a smaller size
MINUS = "\u2212"
OPERATORS = ("+", MINUS, "=")  # between row totals, before the penalties, before the total
AT_ONCE = frozenset({Effect.EXTRA_CROSSES, Effect.CROSS_EACH_OPEN_ROW})  # the other powers act at the end


def inside_frame(box: Box, size: SheetSize) -> Box:
    """Where a number or value written in a framed box (lucky, penalty) goes: clear of its frame."""
    return box.inset((BOX_LINE / 2 + CLEAR) * size.scale)


# -- errors: where --------------------------------------------------------------------


@contextmanager
def _where(path: str = "", source: str = "") -> Iterator[None]:
    """A ``LayoutError`` raised inside names ``path`` in the grid file and the
    grid file ``source``, where it does not name them yet (the innermost place wins)."""
    try:
        yield
    except LayoutError as error:
        raise error.within(path, source) from None


# -- the arrangements a plan tries, in order ---------------------------------------------


@record
class Arrangement:
    """How the plan makes room: the first of ``ARRANGEMENTS`` that fits is the sheet's."""

    number_cap: float = MIN_NUMBER_CAP  # the smallest cap height of a cell number, standard mm
    arrow: bool = True  # the direction arrow at the start of each row
    table_lines: int = 1  # the scoring table on this many lines
    hint: bool = True  # a lock's threshold beside it ("7x"; the legend explains it either way)
    compact: bool = False  # narrower locks, a double's second frame closer in, numbers nearer (>= 0.3 mm) the frame
    tight: bool = False  # the very last resort (the last of ``ARRANGEMENTS``): tighter bands, no gap under the last row


# The arrow and the lock's hint stay as long as any arrangement allows them; within that, numbers keep
# their 2 mm capitals as long as they can; only then do they go down to 6 pt.  Of the arrangements that keep
# as much, looser spacing first, the sheet takes the first whose numbers have 2.5 mm capitals, else the one
# with the largest numbers (``_first_plan``).  Within each, the table takes more lines.
ARRANGEMENTS = tuple(
    Arrangement(cap, arrow, lines, hint, compact)
    for arrow, hint in ((True, True), (False, True), (False, False))
    for cap, compact in ((MIN_NUMBER_CAP, False), (MIN_NUMBER_CAP, True), (LEAST_NUMBER_CAP, False),
                         (LEAST_NUMBER_CAP, True))
    for lines in (1, 2, 3, 4)
) + tuple(
    # After all of them, tried only where none of them prints (``_planner``: no sheet that prints in one
    # changes): compact rows of 6 pt numbers whose last row keeps no 0.8 mm under it where no pen box follows
    # (the bonus bar's do), the scoring table's rows 0.3 mm from their rules' ink above and below its
    # capitals, and a header strip only the tight gap above the title band.  Only these leave room for a
    # header over four rows of Bis boxes and a long table, or for mono's corner marks in such rows.
    Arrangement(LEAST_NUMBER_CAP, arrow, lines, hint, True, True)
    for arrow, hint in ((True, True), (False, True), (False, False))
    for lines in (1, 2, 3, 4)
)
COMPACT_DOUBLE_INSET = 0.15
COMPACT_DOUBLE_LINE = 0.2
LEAST_DOUBLE_LINE = 0.15  # a double's second frame in compact rows of 6 pt numbers (the last resort)
COMPACT_CLEAR = 0.3  # a number from its frame, left and right, in compact rows of 6 pt numbers (the last resort)
COMPACT_V_CLEAR = 0.3  # above and below a number's capitals in compact rows (a sheet check wants 0.3)
COMPACT_HEAVY = 0.5  # still one heavy line: a framed cell never reads as a double one
COMPACT_LOCK_W = 3.2
COMPACT_TABLE_CLEAR = 0.3 + TABLE_RULE / 2  # a table entry 0.3 mm from its rules (centred on the edges)
COMPACT_ARROW_W = 1.4
COMPACT_OUTLINE = 0.2  # an outlined cell's line at most, as a compact colour frame (mono's 0.35 mm: a long row's width)
TIGHT_GAP = 0.3
TIGHT_PENALTIES_H = 3.6  # the last resort's penalty boxes: still larger than a Bis box (2.5 mm high)
TIGHT_TABLE_ROW_H = MIN_TEXT * CAP + 2 * (COMPACT_V_CLEAR + TABLE_RULE / 2)  # the last resort's table rows
COMPACT_STRIP_H = MIN_TEXT * CAP + 2 * COMPACT_V_CLEAR  # the last resort: the header line in 6 pt (_least_strip)
TIGHT_LINE_GAP = 0.1
TIGHT_LEGEND_H = 2.2
TIGHT_SYMBOL = 2.0


# -- the context every band is planned in -------------------------------------------------


@record
class _Sheet:
    grid: Grid
    labels: Labels
    theme: Theme
    measure: Measure
    size: SheetSize
    fit: Arrangement
    machine: bool = False  # fiducials at the four corners
    code: bool = False  # and a square for the machine code, right of the totals (or above them: code_above)
    key_in_title: bool | None = None  # where the standard sheet put the colour key (None: where it fits)
    lock_w: float | None = None  # the standard sheet's lock width, standard mm (a larger sheet's is it scaled)
    frame: float | None = None  # and its cells' colour frame: a larger sheet's is at most it scaled
    code_above: bool = False  # the code's square above the totals line's right end: the line takes the width

    def mm(self, standard: float) -> float:
        """A length of the standard sheet, at this sheet's size."""
        return standard * self.size.scale

    @property
    def gap(self) -> float:  # between bands, standard mm
        return TIGHT_GAP if self.fit.compact else GAP

    @property
    def line_gap(self) -> float:  # between legend lines, standard mm
        return TIGHT_LINE_GAP if self.fit.compact else LINE_GAP

    @property
    def legend_h(self) -> float:  # a legend line, standard mm
        return TIGHT_LEGEND_H if self.fit.compact else LEGEND_H

    @property
    def penalties_h(self) -> float:  # the penalty boxes' band and their side, standard mm
        return TIGHT_PENALTIES_H if self.fit.tight else PENALTIES_H

    @property
    def table_row_h(self) -> float:  # a line of the scoring table, standard mm
        return TIGHT_TABLE_ROW_H if self.fit.tight else TABLE_ROW_H

    @property
    def symbol(self) -> float:  # a power symbol's side, standard mm
        return TIGHT_SYMBOL if self.fit.compact else SYMBOL

    @property
    def heavy(self) -> float:  # a framed cell's dark frame, standard mm
        return COMPACT_HEAVY if self.fit.compact else HEAVY

    @property
    def double_inset(self) -> float:  # standard mm
        return COMPACT_DOUBLE_INSET if self.fit.compact else DOUBLE_INSET

    @property
    def double_line(self) -> float:  # standard mm
        if self.fit.compact:
            return LEAST_DOUBLE_LINE if self.fit.number_cap < MIN_NUMBER_CAP else COMPACT_DOUBLE_LINE
        return DOUBLE_LINE

    @property
    def content(self) -> Box:
        return Box(PAD, PAD, self.size.width - 2 * PAD, self.size.height - 2 * PAD)

    def bold(self, bold: bool) -> bool:
        return bold and self.theme.bold  # a theme may print everything regular, to save ink

    def width(self, text: str, size: float, bold: bool = False) -> float:
        return self.measure(text, self.bold(bold), self.mm(size), self.bold(bold))

    def label_width(self, text: str, size: float, bold: bool = False, most: float = 30.0) -> float:
        """The width a label takes (with its clearance), at most ``most`` mm of the standard sheet."""
        return min(self.mm(most), self.width(text, size, bold) + self.mm(2 * LABEL_CLEAR))

    def text(self, text: str, box: Box, size: float, *, bold: bool = False, anchor: str = "start",
             colour: RGB | None = None, role: str = "label") -> Text:
        """A label or legend in ``box``: smaller if need be.  Bold
        text is in the condensed bold face, the one face the numbers need anyway."""
        return fit_text(text, box, self.mm(size), colour or self.theme.ink, self.measure, bold=self.bold(bold),
                        anchor=anchor, min_size=self.mm(MIN_TEXT), role=role, condensed=self.bold(bold))

    def number(self, text: str, box: Box, size: float, colour: RGB, role: str, bold: bool = True) -> Text:
        """A number in ``box`` at ``size`` mm (already scaled): condensed face, never narrowed."""
        return fit_text(text, box, size, colour, self.measure, bold=self.bold(bold), anchor="middle",
                        min_size=size, role=role, condensed=True)

    def number_size(self, widest: str, box_w: float, cap_h: float, bold: bool = True) -> float:
        """The font size at which ``widest`` fills ``box_w`` or its caps ``cap_h``, whichever is less."""
        return min(box_w / self.measure(widest, self.bold(bold), 1.0, True), cap_h / CAP)


def fit_text(text: str, box: Box, size: float, colour: RGB, measure: Measure, *, bold: bool = False,
             anchor: str = "start", min_size: float, role: str = "label", condensed: bool = False) -> Text:
    """``text`` in ``box``, vertically centred on its capitals; made smaller
    if it is too wide, down to ``min_size`` (text is never narrowed: a narrowed
    line beside a plain one reads as a misprint)."""
    size = min(size, box.h / CAP)
    width = measure(text, bold, size, condensed)
    stretch = 1.0
    if width > box.w + 1e-9:
        if size * box.w / width < min_size - 1e-9:
            raise LayoutError(
                f"text {text!r} does not fit its box: needs {width * min_size / size:.1f} mm"
                f" at the smallest size, has {box.w:.1f} mm")
        size *= box.w / width
    if size < min_size - 1e-9:
        raise LayoutError(f"text {text!r} does not fit its box: {box.h:.1f} mm is too low for its smallest size")
    x = {"start": box.x, "middle": box.cx, "end": box.right}[anchor]
    return Text(x, box.cy + size * CAP / 2, text, size, colour, bold, anchor, stretch, box, role, condensed)


def plan_sheet(grid: Grid, labels: Labels, theme: Theme, measure: Measure, size: SheetSize = STANDARD, *,
               header: bool = False, serial: bool = False, machine: bool = True) -> SheetPlan:
    """The plan of one sheet of ``grid``; ``header``/``serial`` reserve a strip
    at the top for a per-sheet header line and serial number; ``machine``
    keeps the corners free for fiducials and, where there is room, a square
    beside the totals (or above their right end, where the totals line needs the
    width) for a machine-readable code (``SheetPlan.machine``).  What cannot be
    printed legibly raises ``LayoutError`` naming the grid file."""
    if not theme.marks and any(len(row.colours) > 1 for row in grid.rows):
        # Where cells of several colours share a row, colour alone must not tell them apart (colour-blind
        # players, greyscale copies): their marks print in every theme.
        theme = replace(theme, marks=True)
    with _where(source=grid.source):
        return _planner(grid, labels, theme, measure, size, header, serial, machine)[0]


@lru_cache(maxsize=128)  # a larger sheet plans the standard one first, which its standard print has planned
def _planner(grid: Grid, labels: Labels, theme: Theme, measure: Measure, size: SheetSize, header: bool,
             serial: bool, machine: bool) -> tuple[SheetPlan, int]:
    """The plan in the first of ``ARRANGEMENTS`` that fits, with the machine
    code's square if any arrangement keeps one, and its place in them.  A larger
    sheet starts from the standard sheet's arrangement (it is the standard
    sheet scaled, never tighter), but for a tight one; the tight arrangements are
    tried after every other, with the code or without; when none fits,
    ``_nearest`` picks the refusal."""
    first, key_in_title, lock_w, scaled_code = 0, None, None, True
    standard: SheetPlan | None = None
    if size != STANDARD:
        try:
            standard, first = _planner(grid, labels, theme, measure, STANDARD, header, serial, machine)
        except LayoutError:
            standard, first = None, 0
        if standard is not None and ARRANGEMENTS[first].tight:
            # The standard sheet prints only in a tight arrangement: the larger one plans on its own, as where
            # the standard sheet is refused (what printed before the tight arrangements still does).
            standard, first = None, 0
        if standard is not None:
            key_in_title = bool(standard.key)  # the larger sheet is the standard one scaled, its key where it was
            lock_w = standard.locks[0].box.w  # and its locks: a wider one would take the cells' width
            scaled_code = standard.machine is not None and standard.machine.code is not None
    later = range(first, len(ARRANGEMENTS))
    tries = [(code, place) for code in ((True, False) if machine else (False,)) for place in later]
    if machine and not scaled_code:
        # Where the standard sheet gave its machine code up to keep its arrangement, the larger one
        # keeps the code only in that arrangement and where its numbers stay the standard's scaled (its room
        # may fit the code), never in a tighter arrangement.
        tries = [(True, first)] + [(False, place) for place in later] + [(True, place) for place in later[1:]]
    tries.sort(key=lambda attempt: ARRANGEMENTS[attempt[1]].tight)  # the tight ones last, with the code or not
    # The totals line is the same in every arrangement.  Where it cannot fit beside the code's square, the
    # square goes above the line's right end, beside the penalties and the scoring table, and the line takes
    # the sheet's width (``code_above``).
    above = machine and not _totals_fit(_Sheet(grid, labels, theme, measure, size, ARRANGEMENTS[0], machine, True))
    # whether the scoring table fits on so many lines, with the code's square or not: the same in every arrangement
    fits_on: dict[tuple[int, bool], bool] = {}

    def table_fits(lines: int, code: bool) -> bool:
        if (lines, code) not in fits_on:
            fits_on[lines, code] = _table_fits(_Sheet(grid, labels, theme, measure, size,
                                                      replace(ARRANGEMENTS[0], table_lines=lines), machine, code,
                                                      code_above=code and above))
        return fits_on[lines, code]

    # Where the totals line does not fit even so, no plan with the code can be made, and those tries are left
    # out.  Only if no other try makes a plan are they made after all, in their order, for the refusal they
    # give (``_nearest``).
    hopeless = {code for code in {code for code, _ in tries}
                if not _totals_fit(_Sheet(grid, labels, theme, measure, size, ARRANGEMENTS[0], machine, code,
                                          code_above=code and above))}
    quick = [(code, place) for code, place in tries if code not in hopeless]
    refusals: list[tuple[int, LayoutError]] = []
    for attempts in ([quick, tries] if hopeless else [tries]):
        found = _first_plan(grid, labels, theme, measure, size, header, serial, machine, above, attempts, first,
                            scaled_code, key_in_title, lock_w, standard, table_fits)
        if isinstance(found, tuple):
            return found
        refusals = found
    raise _nearest(refusals)


def _first_plan(grid: Grid, labels: Labels, theme: Theme, measure: Measure, size: SheetSize, header: bool,
                serial: bool, machine: bool, above: bool, tries: list[tuple[bool, int]], first: int,
                scaled_code: bool, key_in_title: bool | None, lock_w: float | None, standard: SheetPlan | None,
                table_fits: Callable[[int, bool], bool]) -> tuple[SheetPlan, int] | list[tuple[int, LayoutError]]:
    """Of the first run of ``tries`` (machine code or not, arrangement) that keep as much (the code, the
    arrows, the hints, the numbers' least size) in which any fits, the first plan whose numbers have
    ``COMFORTABLE_CAP``, else the plan with the largest numbers (of two alike the earlier), with its
    arrangement; else each one's refusal, with how far its plan got.  ``above``: the code's square, if
    any, goes above the totals line."""
    refusals: list[tuple[int, LayoutError]] = []
    best: tuple[SheetPlan, int] | None = None
    kept = None  # what the run of tries being compared keeps
    for code, place in tries:
        fit = ARRANGEMENTS[place]
        if (code, fit.arrow, fit.hint, fit.number_cap) != kept:
            if best is not None:
                return best
            kept = (code, fit.arrow, fit.hint, fit.number_cap)
        if fit.table_lines > 1 and table_fits(fit.table_lines - 1, code):
            continue  # more lines than the table needs only take the rows' height
        reached: list[str] = []
        try:
            sheet = _Sheet(grid, labels, theme, measure, size, fit, machine, code, key_in_title, lock_w,
                           max(c.frame for c in standard.cells) if standard is not None else None,
                           code_above=code and above)
            plan = _plan(sheet, header, serial, reached)
        except LayoutError as error:
            refusals.append((len(reached), error))
            continue
        numbers = min(c.text.size for c in plan.cells)
        if code and not scaled_code and place == first and standard is not None and \
                numbers < min(c.text.size for c in standard.cells) * size.scale - 1e-9:
            continue  # the code would take height from the rows: the standard sheet scaled has none
        if numbers * CAP >= sheet.mm(COMFORTABLE_CAP) - 1e-9:
            return plan, place  # the earliest with numbers this large: looser spacing before larger numbers
        if best is None or numbers > min(c.text.size for c in best[0].cells) + 1e-9:
            best = plan, place
    return best if best is not None else refusals


def _totals_fit(s: _Sheet) -> bool:
    """Whether the totals line fits across the sheet (beside the code's square, if ``s.code`` and not
    ``s.code_above``), as ``_plan``
    places it; what it needs does not depend on the arrangement."""
    content = s.content
    corner, code_left = _clear_of_marks(s, _machine(s))
    try:
        _totals(s, Box(content.x + corner, 0.0, code_left - content.x - corner, s.mm(TOTALS_H)))
    except LayoutError:
        return False
    return True


def _clear_of_marks(s: _Sheet, machine: MachinePlan | None) -> tuple[float, float]:
    """What the bands the corner marks share (the top ones and the totals) keep clear of them: the
    corner square's width at either side, and where the totals end, left of the code's square if it is
    beside them."""
    corner = FIDUCIAL + MACHINE_CLEAR if machine else 0.0
    code = machine.code if machine and not s.code_above else None
    code_left = code.x - MACHINE_CLEAR if code else s.content.right - corner
    return corner, code_left


def _figure(error: LayoutError) -> tuple[str, str]:
    """What a refusal is about: its place in the grid file and its first words, numbers left out."""
    return error.path, re.sub(r"\d+(\.\d+)?", "#", error.message.split(":")[0])


def _nearest(refusals: list[tuple[int, LayoutError]]) -> LayoutError:
    """The refusal that says what stops the grid printing: where one figure
    fails in every arrangement, the most lenient arrangement's word on it (the
    last: what it says would fit, fits); else the refusal of the arrangement
    that came nearest to a sheet, the one whose plan got furthest (of two as
    far, the later, more lenient one).  Not simply the last: the last
    arrangement may fail on a figure an earlier one placed."""
    figures = {_figure(error) for _, error in refusals}
    if len(figures) == 1:
        return refusals[-1][1]
    furthest = max(reached for reached, _ in refusals)
    return [error for reached, error in refusals if reached == furthest][-1]


def _beside_code(s: _Sheet, machine: MachinePlan | None, legend_lines: list[list[_Entry]], table_h: float) -> float:
    """The blank (mm) above the scoring table that keeps the bands above it ``MACHINE_CLEAR`` above a code's
    square that is above the totals line (``s.code_above``): beside the square go the penalties, the table
    and the legend's last lines that fit left of it; the first band above them that does not (a longer
    legend line, the bonus bar, the rows) ends that far above the square."""
    if not (machine and machine.code and s.code_above):
        return 0.0
    content, code = s.content, machine.code
    table_top = content.bottom - s.mm(TOTALS_H + s.penalties_h + 2 * s.gap) - table_h
    if not legend_lines:
        bottom = table_top - s.mm(s.gap)  # of the bonus bar or the rows
    else:
        narrow = code.x - MACHINE_CLEAR - content.x
        beside = 0
        for line in reversed(legend_lines):
            if not _line_fits(s, line, narrow):
                break
            beside += 1
        bottom = table_top - s.mm(_after_legend(s)) - beside * s.mm(s.legend_h + s.line_gap)
        if beside == len(legend_lines):  # the bonus bar or the rows, above the legend's first line
            bottom += s.mm(s.line_gap - s.gap)
    return max(0.0, bottom - (code.y - MACHINE_CLEAR))


def _machine(s: _Sheet) -> MachinePlan | None:
    """The fiducials at the content's four corners and the code's square left
    of the bottom-right one (``s.code_above``: above the totals line, at the
    content's right edge), or None when the marks are off."""
    if not s.machine:
        return None
    c, side = s.content, FIDUCIAL
    fiducials = (Box(c.x, c.y, side, side), Box(c.right - side, c.y, side, side),
                 Box(c.right - side, c.bottom - side, side, side), Box(c.x, c.bottom - side, side, side))
    code = None
    if s.code:
        w = s.mm(CODE)
        code = Box(c.right - w, c.bottom - s.mm(TOTALS_H) - MACHINE_CLEAR - w, w, w) if s.code_above \
            else Box(c.right - side - MACHINE_CLEAR - w, c.bottom - w, w, w)
    return MachinePlan(fiducials, code)


def _plan(s: _Sheet, header: bool, serial: bool, reached: list[str] | None = None) -> SheetPlan:
    """The sheet in the arrangement ``s.fit``; ``reached`` gets the name of
    each band as it is placed, so that a refusal tells how far the plan got."""
    reached = [] if reached is None else reached
    grid, content = s.grid, s.content
    machine = _machine(s)
    corner, code_left = _clear_of_marks(s, machine)
    top = Box(content.x + corner, content.y, content.w - 2 * corner, content.h)
    y = content.y
    strip = StripBand(0.0)
    if header or serial:
        strip_h = COMPACT_STRIP_H if _least_strip(s) else STRIP_H
        strip = _strip(s, Box(top.x, y, top.w, s.mm(strip_h)), header, serial)
        # the full gap (the header line is read apart from the title band), but in the tight arrangements
        y += s.mm(strip_h + (TIGHT_GAP if s.fit.tight else GAP))
    with _where("title"):
        title = _title_band(s, Box(top.x, y, top.w, s.mm(TITLE_H)))
    reached.append("title")
    y += s.mm(TITLE_H + s.gap)

    key_in_title = bool(title.key)
    legend_lines = _legend_lines(s, key_in_title)
    # A legend line that fits beside the penalty boxes goes there, leaving the rows more height.
    beside_x = content.x + _penalties_w(s) + s.mm(ENTRY_GAP)
    beside_right = machine.code.x - MACHINE_CLEAR if machine and machine.code else content.right
    shared = next((line for line, next_line in zip(legend_lines, [*legend_lines[1:], []])
                   if all(entry.movable for entry in line) and not any(entry.indent for entry in line)
                   and not any(e.indent for e in next_line)  # a wrapped entry stays together
                   and _line_fits(s, line, beside_right - beside_x)), None)
    order = [id(line) for line in legend_lines]  # the legend keeps its lines' order, wherever they print
    legend_lines = [line for line in legend_lines if line is not shared]
    table_h = 2 * s.mm(s.table_row_h) * s.fit.table_lines + s.mm(s.gap) * (s.fit.table_lines - 1)
    legend_h = len(legend_lines) * s.mm(s.legend_h + s.line_gap) - s.mm(s.line_gap)
    spare = _beside_code(s, machine, legend_lines, table_h)
    below = [s.mm(BAR_H)] * bool(grid.bonus_bar) + [legend_h] * bool(legend_lines) + [
        table_h, s.mm(s.penalties_h), s.mm(TOTALS_H)]
    below_h = sum(below) + s.mm(s.gap) * len(below) + s.mm(_after_legend(s) - s.gap) * bool(legend_lines) + spare
    bands = ["the bonus bar"] if grid.bonus_bar else []
    if legend_lines:
        bands.append(plural(len(legend_lines), "legend line", "legend lines"))
    listed = ", ".join(bands + ["the scoring table", "the penalty boxes"]) + " and the totals"
    if spare:
        listed += " (beside the machine code)"

    rows_box = Box(content.x, y, content.w, content.bottom - below_h - y)
    with _where("rows"):
        rows = _rows(s, rows_box, f"{listed} take {below_h:.1f} mm below them")
    reached.append("rows")
    y = rows_box.bottom + s.mm(s.gap)

    bar = None
    if grid.bonus_bar:
        bar = _bonus_bar(s, Box(content.x, y, content.w, s.mm(BAR_H)), rows.cells_x)
        y += s.mm(BAR_H + s.gap)
        reached.append("bonus bar")
    placed: dict[int, list[LegendEntry]] = {}
    for before, line in zip([None, *legend_lines], legend_lines):
        headed = bool(line[0].heading) and (before is None or before[0].heading != line[0].heading)
        placed[id(line)] = _legend_line(s, line, Box(content.x, y, content.w, s.mm(s.legend_h)), headed)
        y += s.mm(s.legend_h + s.line_gap)
    y += (s.mm(_after_legend(s) - s.line_gap)) if legend_lines else 0.0
    reached.append("legend")
    y += spare
    table = _score_table(s, Box(content.x, y, _table_w(s), table_h))
    reached.append("table")
    y += table_h + s.mm(s.gap)
    penalties = _penalties(s, Box(content.x, y, beside_right - content.x, s.mm(s.penalties_h)))
    if shared:
        band = Box(beside_x, y + s.mm(s.penalties_h - s.legend_h) / 2, beside_right - beside_x, s.mm(s.legend_h))
        placed[id(shared)] = _legend_line(s, shared, band, False)
    legend = [entry for key in order if key in placed for entry in placed[key]]
    reached.append("penalties")
    y += s.mm(s.penalties_h + s.gap)
    totals = _totals(s, Box(content.x + corner, y, code_left - content.x - corner, s.mm(TOTALS_H)))
    reached.append("totals")
    if machine and machine.code and not s.code_above and \
            machine.code.y - MACHINE_CLEAR < y - s.mm(s.penalties_h + 2 * s.gap) - 1e-9:
        raise LayoutError("no room for the machine code beside the penalties and the totals")
    return SheetPlan(
        size=s.size, content=content, title=title.title, name_label=title.name_label, name_line=title.name_line,
        cells=rows.cells, arrows=rows.arrows, locks=rows.locks, legend=tuple(legend),
        table_labels=table.table_labels, table_box=table.table_box, table=table.table,
        penalties_label=penalties.penalties_label, penalties=penalties.penalties,
        totals=totals.totals, operators=totals.operators, key=title.key,
        bar_label=bar.bar_label if bar else None, bar=bar.bar if bar else (),
        lucky_label=title.lucky_label, lucky_boxes=title.lucky_boxes, lucky_size=title.lucky_size,
        header_box=strip.header_box, serial_box=strip.serial_box, serial_format=strip.serial_format,
        strip_size=strip.strip_size, machine=machine, marks=s.theme.marks)


# -- the strip and the title band -------------------------------------------------------


def _least_strip(s: _Sheet) -> bool:
    """Whether the header and serial strip is at its least, 6 pt type in a band that leaves its capitals
    0.3 mm above and below: in compact rows of 6 pt numbers (the last resort), so that a header costs
    the rows 0.46 mm less."""
    return s.fit.compact and s.fit.number_cap < MIN_NUMBER_CAP


def _strip(s: _Sheet, band: Box, header: bool, serial: bool) -> StripBand:
    size = s.mm(MIN_TEXT if _least_strip(s) else STRIP_SIZE)
    serial_w = s.mm(SERIAL_W) if serial else 0.0
    header_box = Box(band.x, band.y, band.w - serial_w - (s.mm(s.gap) if serial else 0.0), band.h) if header else None
    if not serial:
        return StripBand(size, header_box)
    return StripBand(size, header_box, Box(band.right - serial_w, band.y, serial_w, band.h), s.labels("serial"))


def _title_band(s: _Sheet, band: Box) -> TitleBand:
    """Title, then the name field, then the key to the colour marks (if it
    fits here) and the lucky-number boxes (if the grid has them); where the
    name field is too short, with smaller labels and lucky boxes, then with
    the title smaller, a tenth of a mm at a time, down to 6 pt."""
    try:
        return _title_band_in(s, band, LABEL_SIZE, LUCKY_BOX_W)
    except LayoutError:
        pass
    title_size = TITLE_SIZE
    while True:
        try:
            return _title_band_in(s, band, MIN_TEXT, TIGHT_LUCKY_BOX_W, title_size)
        except LayoutError:
            if title_size <= MIN_TEXT + 1e-9:
                raise
            title_size = max(MIN_TEXT, round(title_size - TITLE_STEP, 6))


def _title_band_in(s: _Sheet, band: Box, label_size: float, lucky_box_w: float,
                   title_size: float = TITLE_SIZE) -> TitleBand:
    grid = s.grid
    words = s.labels.grid_title(grid)  # a built-in grid's title in the sheet's language, a custom grid's own
    title_w = min(s.width(words, title_size, True) + s.mm(1.0), band.w * 0.4)
    try:
        title = s.text(words, Box(band.x, band.y, title_w, band.h), title_size, bold=True, role="title")
    except LayoutError as error:
        raise LayoutError(f"{error.message} (shorten the title)") from None
    x = band.x + title_w + s.mm(1.5)
    end = band.right
    lucky_label: Text | None = None
    lucky_boxes: tuple[Box, ...] = ()
    lucky_size = 0.0
    if grid.lucky:
        count = grid.lucky.count
        box_w = s.mm(lucky_box_w)
        boxes_w = count * box_w + (count - 1) * s.mm(LUCKY_GAP)
        label = s.labels("lucky")
        label_w = s.label_width(label, label_size, most=28.0)
        start = band.right - boxes_w
        label_right = start - s.mm(2 * LABEL_CLEAR)
        lucky_label = s.text(label, Box(label_right - label_w, band.y, label_w, band.h), label_size, anchor="end")
        lucky_boxes = tuple(Box(start + i * (box_w + s.mm(LUCKY_GAP)), band.y + s.mm(0.2), box_w,
                                band.h - s.mm(0.4)) for i in range(count))
        widest = max((str(n) for n in range(grid.lucky.low, grid.lucky.high + 1)),
                     key=lambda t: s.measure(t, s.bold(True), 1.0, True))
        inner = inside_frame(lucky_boxes[0], s.size)
        lucky_size = s.number_size(widest, inner.w, inner.h)
        end = label_right - label_w - s.mm(1.5)
    label = s.labels("name")
    label_w = s.label_width(label, label_size, most=16.0)
    key = _title_key(s, band, x + label_w, end)
    if key:
        end = min(entry.marker_box.x for entry in key if entry.marker_box) - s.mm(1.5)
    if end - (x + label_w) < s.mm(MIN_NAME_FIELD):
        beside = f"the title and {plural(grid.lucky.count, 'lucky number', 'lucky numbers')}" if grid.lucky \
            else "the title"
        raise LayoutError(
            f"{beside} leave {max(0.0, end - x - label_w):.1f} mm for the name field, which needs"
            f" {s.mm(MIN_NAME_FIELD):.0f} mm (shorten the title{' or draw fewer lucky numbers' if grid.lucky else ''})")
    name_label = s.text(label, Box(x, band.y, label_w - s.mm(LABEL_CLEAR), band.h), label_size)
    line_y = name_label.y + s.mm(0.3)
    return TitleBand(title, name_label, Box(x + label_w, line_y, end - x - label_w, 0.0), key, lucky_label,
                     lucky_boxes, lucky_size)


def _colours_used(grid: Grid) -> list[Colour]:
    used = {cell.colour for row in grid.rows for cell in row.cells} | set(grid.bonus_bar)
    return [colour for colour in Colour if colour in used]


def _title_key(s: _Sheet, band: Box, start: float, end: float) -> tuple[LegendEntry, ...]:
    """The key to the colour marks, two colours a line, at the right end of the
    title band (before ``end``), if that leaves the name field (from ``start``)
    ``KEY_NAME_FIELD`` mm; else nothing (it gets a legend line below the rows)."""
    if not s.theme.marks or s.key_in_title is False:
        return ()
    entries = [(colour, s.labels(f"colour_{colour.value}")) for colour in _colours_used(s.grid)]
    line_h = band.h / 2
    swatch = line_h - s.mm(0.3)
    gap, column_gap = s.mm(MARKER_GAP), s.mm(1.0)
    widths = [max(swatch + gap + s.width(text, MIN_TEXT) for _, text in entries[col::2])
              for col in (0, 1) if entries[col::2]]
    key_w = sum(widths) + column_gap * (len(widths) - 1)
    if end - key_w - s.mm(1.5) - start < s.mm(KEY_NAME_FIELD if s.key_in_title is None else MIN_NAME_FIELD):
        return ()
    left = end - key_w
    placed = []
    for i, (colour, text) in enumerate(entries):
        x = left + (widths[0] + column_gap if i % 2 else 0.0)
        top = band.y + (i // 2) * line_h
        marker = Box(x, top + (line_h - swatch) / 2, swatch, swatch)
        words = s.text(text, Box(marker.right + gap, top, widths[i % 2] - swatch - gap, line_h), MIN_TEXT,
                       role="legend")
        placed.append(LegendEntry(colour, marker, words))
    return tuple(placed)


# -- rows -------------------------------------------------------------------------------


def _frame(s: _Sheet, cell_w: float) -> float:
    """The width of a cell's colour frame, mm: the theme's outline, or a band
    that grows with the cell."""
    if s.theme.outlined:
        return s.mm(min(s.theme.outline, COMPACT_OUTLINE) if s.fit.compact else s.theme.outline)
    if s.fit.compact:
        return s.mm(0.2)
    band = min(s.mm(0.6), max(s.mm(THIN_FRAME), cell_w * 0.075))
    return band if s.frame is None else min(band, s.mm(s.frame))


def _cell_frame(s: _Sheet, cell: Cell, frame: float) -> float:
    """A cell's colour frame, mm: the row's ``frame``, or a special cell's thinner band (its heavy or
    second frame marks it; the band it keeps is the thinnest a plain cell has), so that its number needs
    no smaller size than its neighbours' (one number size on the sheet)."""
    return min(frame, s.mm(THIN_FRAME)) if cell.framed or cell.double else frame


def _insets(s: _Sheet, cell: Cell, frame: float) -> tuple[float, float]:
    """How far a cell's background (``pale``) and its number's box lie inside the cell, mm."""
    pale = _cell_frame(s, cell, frame) + (s.mm(s.heavy) if cell.framed else 0.0)
    second = s.mm(s.double_inset + s.double_line) if cell.double else 0.0
    return pale, pale + second


def _number_box(s: _Sheet, box: Box, inset: float, strips: tuple[float, float],
                beside: tuple[bool, bool]) -> Box:
    """Where a cell's number goes: ``inset`` inside the cell, clear of its
    frames by ``CLEAR`` (left and right) and ``V_CLEAR``, and of the things in its
    top corners (``strips``: what the left and the right one take, as high as
    wide), each either ``beside`` the number (the number keeps its width from
    that side) or above it (the number keeps its height from the top and as
    much from the bottom: it stays centred on the cell's height)."""
    clear = s.mm(COMPACT_CLEAR if s.fit.compact and s.fit.number_cap < MIN_NUMBER_CAP else CLEAR)
    v_clear = s.mm(COMPACT_V_CLEAR if s.fit.compact else V_CLEAR)
    left, right = (strip if side else 0.0 for strip, side in zip(strips, beside))
    y = inset + max(strip for strip, side in zip(strips, beside) if not side) if not all(beside) else inset
    y += v_clear
    x = box.x + inset + clear + left
    return Box(x, box.y + y, box.right - inset - clear - right - x, box.h - 2 * y)


# Where a cell's number may go, for each of the things in its top corners (left, right): below it, beside it.
PLACES = ((False, False), (True, True), (True, False), (False, True))


def _mark_below_symbol(s: _Sheet, cell: Cell, inner_h: float) -> bool:
    """Whether a cell's colour mark goes in its bottom-right corner, under its power symbol, instead of
    the top-left one: where it has both and is ``inner_h`` high enough for the two (its number then keeps
    room on its right only, as beside a symbol alone)."""
    return s.theme.marks and cell.symbol is not None and inner_h >= s.mm(s.symbol + MARK + 3 * CORNER) - 1e-9


def _kind(cell: Cell) -> tuple[bool, bool, bool]:
    """What a cell's number boxes depend on besides its row: its frames and whether it has a symbol."""
    return cell.framed, cell.double, cell.symbol is not None


def _corner_strip(s: _Sheet, cell: Cell, inner_h: float) -> tuple[float, float]:
    """How far in a cell's number keeps from its left and its right side for
    the colour mark in its top-left corner (or under the symbol) and the power
    symbol in its top-right one, mm (as far from the top and the bottom: they
    are squares); 0 where there is none.  ``inner_h``: the cell's height inside its frames."""
    def strip(side: float) -> float:
        return s.mm(CORNER + side + CORNER) if side else 0.0

    if _mark_below_symbol(s, cell, inner_h):
        return 0.0, strip(s.symbol)
    return strip(MARK if s.theme.marks else 0.0), strip(s.symbol if cell.symbol else 0.0)


def _rows(s: _Sheet, area: Box, below: str) -> RowsBand:
    """The rows in ``area``; ``below`` says what takes the height under them, for errors."""
    grid = s.grid
    bis_h = s.mm(BIS_H + BIS_GAP) if grid.bis else 0.0
    cell_gap = s.mm(CELL_GAP)  # between the cells of a row, a row (or its Bis boxes) and the next, a row and its lock
    # Each row keeps the gap under it; in the tight arrangements the last one only where the bonus bar's boxes follow.
    pitch = (area.h + (cell_gap if s.fit.tight and not grid.bonus_bar else 0.0)) / len(grid.rows)
    cell_h = min(s.mm(MAX_CELL_H), pitch - cell_gap - bis_h)
    needs_hint = grid.close_after != BASE_CLOSE_AFTER and s.fit.hint
    lock_most = COMPACT_LOCK_W if s.fit.compact else HINTED_LOCK_W if needs_hint else LOCK_W
    lock_w = min(cell_h, s.mm(lock_most if s.lock_w is None else min(lock_most, s.lock_w)))
    hint_text = s.labels("threshold", grid.close_after)
    hint_w = s.label_width(hint_text, HINT_SIZE, bold=True, most=7.0) if needs_hint else 0.0
    longest = max(len(row.cells) for row in grid.rows)
    arrow_w = s.mm(COMPACT_ARROW_W if s.fit.compact else ARROW_W)
    cells_x = area.x + (arrow_w + s.mm(0.4 if s.fit.compact else 0.6) if s.fit.arrow else 0.0)
    cells_w = area.right - cells_x - cell_gap - lock_w - hint_w
    cell_pitch = (cells_w + cell_gap) / longest
    cell_w = cell_pitch - cell_gap
    frame = _frame(s, cell_w)
    number_cap = s.mm(s.fit.number_cap)
    smallest = number_cap / CAP
    # What a cell's frames take depends on its kind only, its corner strip on its row: each found once.
    kinds: dict[tuple[bool, bool], tuple[float, float]] = {}

    def insets(cell: Cell) -> tuple[float, float]:
        kind = (cell.framed, cell.double)
        if kind not in kinds:
            kinds[kind] = _insets(s, cell, frame)
        return kinds[kind]

    # What a cell's corner marks take depends on whether it has a symbol: found once for each kind of cell.
    strips = {_kind(cell): _corner_strip(s, cell, cell_h - 2 * insets(cell)[1])
              for row in grid.rows for cell in row.cells}

    def number_boxes(cell: Cell, box: Box) -> list[Box]:
        """Where the number of ``cell`` (in ``box``) may go: below its corner marks, beside them (or between
        strips as wide on both sides, so that it stays centred across the cell too)."""
        kind = strips[_kind(cell)]
        both = (max(kind), max(kind))
        return [_number_box(s, box, insets(cell)[1], kind, beside) for beside in PLACES] + [
            _number_box(s, box, insets(cell)[1], both, (True, True))]

    plain = Box(0, 0, cell_w, cell_h)
    inner = {_kind(cell): number_boxes(cell, plain)
             for row in grid.rows for cell in row.cells}

    def room_of(cell: Cell, width: float) -> list[Box]:  # a cell's number boxes high enough for ``number_cap``
        boxes = inner[_kind(cell)] if width == cell_w else \
            number_boxes(cell, Box(0, 0, width, cell_h))
        return [box for box in boxes if box.h >= number_cap - 1e-9]

    def largest(cell: Cell, width: float) -> float:
        """The largest number size at which the number of ``cell`` fits a cell ``width`` wide; 0 if not at
        ``number_cap``."""
        text = str(cell.number)
        need = s.measure(text, s.bold(True), smallest, True)
        return max([s.number_size(text, box.w, box.h) for box in room_of(cell, width) if need <= box.w + 1e-9],
                   default=0.0)

    def row_widths(row: Row) -> list[float]:
        """The widths of a row's cells: its special cells (framed, double, with a power symbol: their
        frames or the symbol take room from the number) wider than its plain ones, the plain ones as much
        narrower between them (the row as long; a row shorter than the longest takes its room first), by
        as much as takes the row's smallest number largest (found by halving: the special cells' numbers
        grow with their width, the plain ones' shrink); where that takes them no larger, or every cell is
        special, its cells alike."""
        special = [cell.framed or cell.double or cell.symbol is not None for cell in row.cells]
        count, alike = sum(special), [cell_w] * len(row.cells)
        if not count or count == len(row.cells):
            return alike
        spare = (longest - len(row.cells)) * cell_pitch  # what a shorter row leaves free before the lock

        def widths_for(more: float) -> list[float]:
            less = max(0.0, more * count - spare) / (len(row.cells) - count)
            return [cell_w + more if wide else cell_w - less for wide in special]

        # Of each kind of cell, special or plain, the widest number: it takes the smallest size.
        widest_of: dict[tuple[bool, bool, bool], int] = {}
        for i, cell in enumerate(row.cells):
            kind = _kind(cell)
            if kind not in widest_of or s.measure(str(cell.number), s.bold(True), 1.0, True) > s.measure(
                    str(row.cells[widest_of[kind]].number), s.bold(True), 1.0, True):
                widest_of[kind] = i

        def smallest_numbers(widths: list[float]) -> tuple[float, float]:  # (special cells', plain cells')
            sizes = {i: largest(row.cells[i], widths[i]) for i in widest_of.values()}
            return (min(size for i, size in sizes.items() if special[i]),
                    min(size for i, size in sizes.items() if not special[i]))

        wide, plain_cells = smallest_numbers(alike)
        if wide >= plain_cells:
            return alike
        low, high = 0.0, cell_w * min(1.0, (len(row.cells) - count) / count) / 2 + spare / count
        for _ in range(16):
            middle = (low + high) / 2
            wide, plain_cells = smallest_numbers(widths_for(middle))
            low, high = (middle, high) if wide < plain_cells else (low, middle)
        widths = widths_for(low)
        return widths if min(smallest_numbers(widths)) > min(smallest_numbers(alike)) + 1e-9 else alike

    widths = [row_widths(row) for row in grid.rows]

    # Height: every cell's number at least ``number_cap`` tall inside its frames, beside its corner marks
    # if not below them.
    tallest = max(cell_h - max(box.h for box in inner[key]) for key in strips) + number_cap
    if cell_h < tallest - 1e-9:
        raise LayoutError(
            f"the rows do not fit: each of the {len(grid.rows)} rows gets {max(0.0, pitch):.1f} mm of height,"
            f" needs at least {tallest + cell_gap + bis_h:.1f} mm; {below}")

    # Width: the widest number of a plain cell, then of the cells with more frames.
    numbers = [str(c.number) for row in grid.rows for c in row.cells]
    widest = max(numbers, key=lambda t: s.measure(t, s.bold(True), 1.0, True))
    number_w = s.measure(widest, s.bold(True), smallest, True)
    # A plain cell's corner marks (a cell with a power symbol is checked as the special ones, below).
    plain_strips = [strips.get((False, False, False), _corner_strip(s, Cell(2, Colour.RED), cell_h - 2 * frame))]

    def room(width: float) -> float:  # inside a plain cell ``width`` wide; wider cells get wider frames
        frame_w = _frame(s, width)
        return min(max((box.w for beside in PLACES
                        for box in [_number_box(s, Box(0, 0, width, cell_h), frame_w, kind, beside)]
                        if box.h >= number_cap - 1e-9), default=0.0) for kind in plain_strips)

    if number_w > room(cell_w) + 1e-9:
        most = max((count for count in range(1, longest)
                    if number_w <= room((cells_w + cell_gap) / count - cell_gap) + 1e-9), default=0)
        first = next(r for r, row in enumerate(grid.rows) if len(row.cells) == longest)
        with _where(f"rows[{first}].cells"):
            raise LayoutError(
                f"{longest} cells do not fit in a row: each is {cell_w:.2f} mm wide, the number {widest!r}"
                f" needs {number_w + cell_w - room(cell_w):.2f} mm at {number_cap:.1f} mm cap height"
                f" (at most {most} cells fit)")
    for r, row in enumerate(grid.rows):
        for i, (cell, width) in enumerate(zip(row.cells, widths[r])):
            need = s.measure(str(cell.number), s.bold(True), smallest, True)
            if not any(need <= box.w + 1e-9 for box in room_of(cell, width)):
                left = max((box.w for box in room_of(cell, width)), default=0.0)
                kind = "double and framed" if cell.double and cell.framed else "double" if cell.double else \
                    "framed" if cell.framed else "power symbol's"
                with _where(f"rows[{r}].cells[{i}]"):
                    raise LayoutError(
                        f"the number {cell.number} does not fit inside the frames of a {kind} cell {width:.1f} mm"
                        f" wide: it needs {need:.2f} mm at {number_cap:.1f} mm cap height, the frames leave"
                        f" {left:.2f} mm (use fewer cells in the row)")

    def row_top(r: int) -> float:
        return area.y + r * pitch + (pitch - cell_h - bis_h - cell_gap) / 2

    boxes = [[Box(cells_x + sum(row_w[:i]) + i * cell_gap, row_top(r), width, cell_h)
              for i, width in enumerate(row_w)] for r, row_w in enumerate(widths)]

    def places(cell: Cell, box: Box, size: float) -> list[Box]:
        """The places the number of ``cell`` (in ``box``) may go where it fits at ``size``."""
        text = str(cell.number)
        return [place for place in number_boxes(cell, box) if place.h >= size * CAP - 1e-9
                and s.measure(text, s.bold(True), size, True) <= place.w + 1e-9]

    # One number size on the whole sheet: the largest at which every number fits its cell, in the place that
    # takes the largest number there (below its corner marks, beside them).
    size = min(min(max(s.number_size(str(cell.number), place.w, place.h) for place in places(cell, box, smallest))
                   for row, row_boxes in zip(grid.rows, boxes) for cell, box in zip(row.cells, row_boxes)),
               s.mm(MAX_NUMBER_CAP) / CAP)
    # Each number at that size where it fits nearest the middle of its cell (of two as near, the first place).
    number_boxes_of = [[min(places(cell, box, size), key=lambda place: round(abs(place.cx - box.cx), 6))
                        for cell, box in zip(row.cells, row_boxes)] for row, row_boxes in zip(grid.rows, boxes)]

    cells: list[CellPlan] = []
    arrows: list[ArrowPlan] = []
    locks: list[LockPlan] = []
    for r, row in enumerate(grid.rows):
        top = row_top(r)
        for i, (cell, box, place) in enumerate(zip(row.cells, boxes[r], number_boxes_of[r])):
            pale_in, number_in = insets(cell)
            pale = box.inset(pale_in)
            corner = box.inset(number_in + s.mm(CORNER))
            side, mark = s.mm(s.symbol), s.mm(MARK)
            symbol_box = Box(corner.right - side, corner.y, side, side) if cell.symbol else None
            mark_box = None
            if symbol_box is not None and _mark_below_symbol(s, cell, box.h - 2 * number_in):
                mark_box = Box(symbol_box.cx - mark / 2, corner.bottom - mark, mark, mark)
            elif s.theme.marks:
                mark_box = Box(corner.x, corner.y, mark, mark)
            bis_box = None
            if grid.bis and i < len(row.cells) - 1:
                bis_w = min(cell_w - s.mm(1.0), s.mm(1.6 * BIS_H))
                bis_box = Box(box.cx - bis_w / 2, box.bottom + s.mm(BIS_GAP), bis_w, s.mm(BIS_H))
            text = s.number(str(cell.number), place, size, s.theme.tint(cell.colour).ink, "number")
            second = pale.inset(s.mm(s.double_inset)) if cell.double else None
            cells.append(CellPlan(r, i, cell.number, cell.colour, cell.double, cell.framed, cell.symbol, box, pale,
                                  _cell_frame(s, cell, frame), text, mark_box, symbol_box, bis_box, second,
                                  s.mm(s.double_line),
                                  s.mm(s.heavy) if cell.framed else 0.0))
        if s.fit.arrow:
            arrows.append(ArrowPlan(r, Box(area.x, top, arrow_w, cell_h), "right",
                                    row.lock_colour if len(row.colours) == 1 else None))
        lock = Box(boxes[r][-1].right + cell_gap, top + (cell_h - lock_w) / 2, lock_w, lock_w)
        hint = None
        if needs_hint:
            hint = s.text(hint_text, Box(lock.right + s.mm(LABEL_CLEAR), top, hint_w - s.mm(LABEL_CLEAR), cell_h),
                          HINT_SIZE, bold=True, role="hint")
        locks.append(LockPlan(r, lock, row.lock_colour, hint))
    return RowsBand(tuple(cells), tuple(arrows), tuple(locks), cells_x)


# -- bands below the rows -------------------------------------------------------------------


def _bonus_bar(s: _Sheet, band: Box, cells_x: float) -> BarBand:
    """The label, then the bar's boxes across the rest of the rows' width."""
    label = s.labels("bonus")
    label_w = max(cells_x - band.x, s.label_width(label, LABEL_SIZE, bold=True, most=14.0))
    text = s.text(label, Box(band.x, band.y, label_w - s.mm(LABEL_CLEAR), band.h), LABEL_SIZE, bold=True)
    count = len(s.grid.bonus_bar)
    gap = s.mm(CELL_GAP)
    pitch = (band.right - band.x - label_w + gap) / count
    boxes = tuple(ColourBox(i, Box(band.x + label_w + i * pitch, band.y, pitch - gap, band.h), colour)
                  for i, colour in enumerate(s.grid.bonus_bar))
    return BarBand(text, boxes)


@record
class _Entry:
    """A legend entry before it is placed: marker, text, and the heading of its group."""

    marker: Symbol | Colour | str
    text: str
    heading: str = ""
    movable: bool = True  # may be printed beside the penalty boxes, away from the others (not the powers)
    indent: float = 0.0  # a line that goes on from the one above starts where its text did


def _legend_entries(s: _Sheet, key_in_title: bool) -> list[_Entry]:
    grid, labels = s.grid, s.labels
    entries: list[_Entry] = []
    if s.theme.marks and not key_in_title:  # the key to the colour marks
        entries += [_Entry(colour, labels(f"colour_{colour.value}")) for colour in _colours_used(grid)]
    if grid.close_after != BASE_CLOSE_AFTER:
        entries.append(_Entry("threshold", labels("legend_threshold", grid.close_after)))
    if any(len(row.colours) > 1 for row in grid.rows):
        entries.append(_Entry("", labels("legend_any_row")))
    if grid.has_double:
        entries.append(_Entry("double", labels("legend_double")))
    if grid.bis:
        entries.append(_Entry("bis", labels("legend_bis")))
    if grid.bonus_bar:
        entries.append(_Entry("framed", labels("legend_bonus")))
    if grid.lucky:
        entries.append(_Entry("lucky", labels("legend_lucky")))
    if grid.powers:
        both = all(len(grid.symbol_cells(power.symbol)) == 2 for power in grid.powers)
        entries.append(_Entry("", labels("legend_powers_both" if both else "legend_powers")))  # may go beside
        for when in ("power_at_once", "power_at_end"):
            heading = labels(when)
            entries += [_Entry(p.symbol, labels(f"power_{p.effect.value}", p.amount or None), heading, False)
                        for p in grid.powers if (p.effect in AT_ONCE) == (when == "power_at_once")]
    return entries


def _marker_w(s: _Sheet, entry: _Entry) -> float:
    if entry.marker == "":
        return entry.indent
    if entry.marker == "threshold":
        return s.width(s.labels("threshold", s.grid.close_after), MIN_TEXT, True) + s.mm(MARKER_GAP)
    return s.mm(s.legend_h - 0.3 + MARKER_GAP)


def _wrapped(s: _Sheet, entry: _Entry) -> list[_Entry]:
    """``entry``, or the lines it wraps to at the sheet's width (text is never
    narrowed): its marker on the first, the others indented to its text.  A
    larger sheet wraps where the standard one does (at its width, scaled): the
    padding is the same at any size, which leaves a larger sheet a little more."""
    width = min(s.content.w, (STANDARD.width - 2 * PAD) * s.size.scale)
    if _line_fits(s, [entry], width):
        return [entry]
    indent = _marker_w(s, entry)
    parts: list[_Entry] = []
    words = entry.text.split(" ")
    while words:
        take = len(words)
        while take > 1:
            part = replace(entry, text=" ".join(words[:take])) if not parts else \
                replace(entry, marker="", text=" ".join(words[:take]), indent=indent)
            if _line_fits(s, [part], width):
                break
            take -= 1
        text = " ".join(words[:take])
        parts.append(replace(entry, text=text) if not parts else replace(entry, marker="", text=text, indent=indent))
        words = words[take:]
    return parts


def _legend_lines(s: _Sheet, key_in_title: bool) -> list[list[_Entry]]:
    """The legend packed into lines: entries side by side while they fit at
    their natural width, a group's heading at the start of its line; a new
    heading starts a new line, an entry too long for a line wraps."""
    lines: list[list[_Entry]] = []
    for entry in (part for whole in _legend_entries(s, key_in_title) for part in _wrapped(s, whole)):
        line = lines[-1] if lines else None
        if line is not None and line[-1].heading == entry.heading and _line_fits(s, line + [entry], s.content.w):
            line.append(entry)
        else:
            lines.append([entry])
    return lines


def _after_legend(s: _Sheet) -> float:
    """The gap between the legend's last line and the scoring table, standard mm: the band gap, or
    more where the legend's descenders (below its line's box: its text is centred on its capitals)
    would come closer than ``DESCENDER_CLEAR`` to the table's top rule."""
    overhang = MIN_TEXT * (CAP / 2 + DESCENT) - s.legend_h / 2
    return max(s.gap, overhang + DESCENDER_CLEAR + TABLE_RULE / 2)


def _heading_w(s: _Sheet, line: list[_Entry]) -> float:
    """The heading column: as wide as the widest heading of the legend, so entries line up."""
    heading = line[0].heading
    if not heading:
        return 0.0
    headings = {entry.heading for entry in _legend_entries(s, False) if entry.heading}
    return max(s.width(h, MIN_TEXT, True) for h in headings) + s.mm(MARKER_GAP)


def _line_parts(s: _Sheet, line: list[_Entry]) -> tuple[float, float]:
    """(fixed width of markers, gaps and heading; natural width of the texts) of a legend line."""
    fixed = _heading_w(s, line) + sum(_marker_w(s, e) for e in line) + s.mm(ENTRY_GAP) * (len(line) - 1)
    return fixed, sum(s.width(e.text, MIN_TEXT) for e in line)


def _line_fits(s: _Sheet, line: list[_Entry], width: float) -> bool:
    """Whether ``line`` fits ``width`` mm, its text at its natural width."""
    fixed, texts = _line_parts(s, line)
    return fixed + texts <= width + 1e-9


def _legend_line(s: _Sheet, line: list[_Entry], band: Box, headed: bool) -> list[LegendEntry]:
    """The entries of ``line`` side by side in ``band``; ``headed``: with their
    group's heading (else its column stays blank: the group goes on from the line above)."""
    placed: list[LegendEntry] = []
    x, top, height = band.x, band.y, band.h
    if line[0].heading:
        width = _heading_w(s, line)
        if headed:
            heading = s.text(line[0].heading, Box(x, top, width - s.mm(MARKER_GAP), height), MIN_TEXT, bold=True,
                             role="legend")
            placed.append(LegendEntry("", None, heading))
        x += width
    for entry in line:
        marker_box = hint = None
        marker_w = _marker_w(s, entry)
        if entry.marker == "threshold":
            hint_box = Box(x, top, marker_w - s.mm(MARKER_GAP), height)
            hint = s.text(s.labels("threshold", s.grid.close_after), hint_box, MIN_TEXT, bold=True, role="hint")
            marker_box = hint_box
        elif entry.marker != "":
            side = height - s.mm(0.3)
            marker_box = Box(x, top + s.mm(0.15), side, side)
        x += marker_w
        width = s.width(entry.text, MIN_TEXT)
        words = s.text(entry.text, Box(x, top, min(width + 1e-6, band.right - x), height), MIN_TEXT,
                       role="legend")
        placed.append(LegendEntry(entry.marker, marker_box, words, hint))
        x += width + s.mm(ENTRY_GAP)
    return placed


def _score_table(s: _Sheet, band: Box) -> TableBand:
    """Crosses 1x..Nx over their points, as long as the grid's maximum, on
    ``s.fit.table_lines`` lines (each with its labels) when one is too narrow.
    The columns of a line are equal where the widest entry fits them; else
    each is as wide as its own entries need, the short ones ("1x", "3") first,
    and shares what the line has to spare (``_table_widths``)."""
    table = s.grid.table
    row_h = s.mm(s.table_row_h)
    crosses, points = s.labels("crosses"), s.labels("points")
    found = _table_widths(s, band.w, len(table))
    if found is None:
        _check_table_fits(s, band.w)
        raise AssertionError("a table refused without a reason")  # pragma: no cover
    clear, label_w, lines = found
    x = band.x + label_w
    width = band.right - x
    widths = [w for line in lines for w in line]
    size = max(s.mm(MIN_TEXT), min([s.mm(2.4)] + [s.number_size(str(value), w - 2 * clear, row_h * 0.73)
                                                  for value, w in zip(table, widths)]))
    labels: list[Text] = []
    columns = []
    i = 0
    for line, line_widths in enumerate(lines):
        top = band.y + line * (2 * row_h + s.mm(s.gap))
        labels += [s.text(text, Box(band.x, top + k * row_h, label_w - s.mm(LABEL_CLEAR), row_h), MIN_TEXT,
                          role="table") for k, text in enumerate((crosses, points))]
        equal = len(set(line_widths)) == 1
        for j, w in enumerate(line_widths):
            left = x + j * w if equal else x + sum(line_widths[:j])
            box = Box(left, top, w, 2 * row_h)
            inner = box.inset(clear)
            header = s.text(s.labels("table_crosses", i + 1), Box(inner.x, top, inner.w, row_h), MIN_TEXT,
                            anchor="middle", role="table")
            number = s.number(str(table[i]), Box(inner.x, top + row_h, inner.w, row_h), size, s.theme.ink, "points")
            columns.append(TableColumn(i + 1, table[i], box, header, number))
            i += 1
    return TableBand(tuple(labels), Box(x, band.y, width, band.h), tuple(columns))


def _table_clears(s: _Sheet) -> list[tuple[float, float]]:
    """How far (mm) a table entry may keep from its column's edges and the labels from the table, in the
    order tried: ``TABLE_CLEAR`` and twice ``LABEL_CLEAR``; in compact arrangements, where that does not
    fit, an entry 0.3 mm from its rules' ink (as a cell's number from its frame), then the labels only
    ``LABEL_CLEAR`` from the table."""
    steps = [(TABLE_CLEAR, 2 * LABEL_CLEAR)]
    if s.fit.compact:
        steps += [(COMPACT_TABLE_CLEAR, 2 * LABEL_CLEAR), (COMPACT_TABLE_CLEAR, LABEL_CLEAR)]
    return [(s.mm(clear), s.mm(label)) for clear, label in steps]


def _table_label_w(s: _Sheet, label_clear: float) -> float:
    """The width of the table's labels column ("Crosses", "Points"), with ``label_clear`` mm before the table."""
    return max(min(s.mm(14.0), s.width(s.labels(key), MIN_TEXT) + label_clear) for key in ("crosses", "points"))


def _table_need(s: _Sheet, crosses: int, clear: float) -> float:
    """The width column ``crosses`` needs: its widest label at the smallest size, and ``clear`` either side
    (of a table longer than the grid's, the points such a table would have)."""
    table = s.grid.table
    points = str(table[crosses - 1]) if crosses <= len(table) else str(row_points(crosses))
    return max(s.width(s.labels("table_crosses", crosses), MIN_TEXT),
               s.measure(points, s.bold(True), s.mm(MIN_TEXT), True)) + 2 * clear


def _table_widths(s: _Sheet, band_w: float, length: int) -> tuple[float, float, list[list[float]]] | None:
    """The entries' clearance, the labels' width and each line's column widths of a table ``length``
    long on ``s.fit.table_lines`` lines ``band_w`` mm wide, labels included, or None if it does not fit.
    Equal columns where the widest need fits them; else, in compact arrangements, the columns in order,
    each line as full as the fullest must be (the least such width, found by halving), each column its
    need and an equal share of its line's rest."""
    lines = s.fit.table_lines
    for clear, label_clear in _table_clears(s):
        label_w = _table_label_w(s, label_clear)
        width = band_w - label_w
        needs = [_table_need(s, n, clear) for n in range(1, length + 1)]
        per_line = -(-length // lines)
        if max(needs) <= width / per_line + 1e-9:
            return clear, label_w, [[width / per_line] * len(needs[i:i + per_line])
                                    for i in range(0, length, per_line)]
        fullest = _split(needs, width)
        if not s.fit.compact or lines == 1 or fullest is None or len(fullest) > lines:
            continue  # columns of their own widths: compact arrangements, 2 lines or more (one more line is roomier)
        low, high = max(needs), width
        for _ in range(40):
            middle = (low + high) / 2
            split = _split(needs, middle)
            if split is not None and len(split) <= lines:
                high = middle
            else:
                low = middle
        split = _split(needs, high) or []
        return clear, label_w, [[need + (width - sum(line)) / len(line) for need in line] for line in split]
    return None


def _split(needs: list[float], width: float) -> list[list[float]] | None:
    """``needs`` in order on lines of ``width``, each line as full as it can be; None if one need is wider."""
    if max(needs) > width + 1e-9:
        return None
    lines: list[list[float]] = [[]]
    for need in needs:
        if sum(lines[-1]) + need > width + 1e-9:
            lines.append([])
        lines[-1].append(need)
    return lines


def _table_w(s: _Sheet) -> float:
    """The scoring table's width, labels included: the content's, less the code's square and its clearance
    where the square is above the totals line, beside the table."""
    beside = s.machine and s.code and s.code_above
    return s.content.w - (s.mm(CODE) + MACHINE_CLEAR if beside else 0.0)


def _table_fits(s: _Sheet) -> bool:
    """Whether the scoring table fits on ``s.fit.table_lines`` lines."""
    try:
        _score_table(s, Box(s.content.x, 0.0, _table_w(s), 2 * s.mm(s.table_row_h) * s.fit.table_lines))
    except LayoutError:
        return False
    return True


def _check_table_fits(s: _Sheet, band_w: float) -> None:
    """Refuse a scoring table whose columns, each at least as wide as its labels
    need, do not fit on its lines (``band_w`` mm with their labels), and say how long a table would fit."""
    length = len(s.grid.table)
    if _table_widths(s, band_w, length) is not None:
        return
    lines = s.fit.table_lines
    clear, label_clear = _table_clears(s)[-1]  # the most lenient
    width = band_w - _table_label_w(s, label_clear)
    needs = [_table_need(s, n, clear) for n in range(1, length + 1)]
    most = next((n for n in range(length - 1, 0, -1) if _table_widths(s, band_w, n) is not None), 0)
    on = f" on {lines} lines" if lines > 1 else ""
    if s.fit.compact and lines > 1:  # columns of their own widths
        need = f" need {sum(needs):.1f} mm, {plural(lines, 'line', 'lines')} of {width:.1f} mm hold {most} of them"
    else:  # equal columns
        per_line = -(-length // lines)
        widest = max(range(length), key=needs.__getitem__)
        need = (f", {per_line} a line of {width / per_line:.2f} mm each,"
                f" column {widest + 1}x needs {needs[widest]:.2f} mm")
    with _where("max_crosses" if s.grid.cross_cap else ""):
        raise LayoutError(f"the scoring table does not fit{on}: {length} columns (1x to {length}x){need}"
                          f" (a max_crosses of at most {most} would fit)")


def _penalty_side(s: _Sheet) -> float:
    """A penalty box's width: square, wider where its value ("−10") needs it."""
    value = s.labels("penalty_box", s.grid.penalty_points)
    return max(s.mm(s.penalties_h), s.width(value, MIN_TEXT) + 2 * s.mm(BOX_LINE / 2 + CLEAR))


def _penalties_w(s: _Sheet) -> float:
    """The width of the penalties label and boxes."""
    return s.label_width(s.labels("penalties"), LABEL_SIZE, most=30.0) + s.grid.penalty_boxes * (
        _penalty_side(s) + s.mm(PENALTY_GAP)) - s.mm(PENALTY_GAP)


def _penalties(s: _Sheet, band: Box) -> PenaltiesBand:
    label = s.labels("penalties")
    label_w = s.label_width(label, LABEL_SIZE, most=30.0)
    text = s.text(label, Box(band.x, band.y, label_w - s.mm(LABEL_CLEAR), band.h), LABEL_SIZE)
    side = s.mm(s.penalties_h)
    width = _penalty_side(s)
    pitch = width + s.mm(PENALTY_GAP)
    value = s.labels("penalty_box", s.grid.penalty_points)
    boxes = []
    for i in range(s.grid.penalty_boxes):
        box = Box(band.x + label_w + i * pitch, band.y + (band.h - side) / 2, width, side)
        if box.right > band.right + 1e-9:
            with _where("penalties.boxes"):
                raise LayoutError(f"{plural(s.grid.penalty_boxes, 'penalty box', 'penalty boxes')} do not fit"
                                  f" beside their label: at most {int((band.w - label_w) // pitch)} fit")
        inner = inside_frame(box, s.size)
        boxes.append(PenaltyBox(i, box, s.grid.penalty_points,
                                s.text(value, inner, MIN_TEXT, anchor="middle", role="penalty")))
    return PenaltiesBand(text, tuple(boxes))


def _totals(s: _Sheet, band: Box) -> TotalsBand:
    """One box per row + powers (if the grid has them) − penalties = total.
    A row of one colour gets a box in its colour; a row of several colours a
    white one labelled by its number, so that no box reads as a colour's total.
    The boxes with a label are as wide as it; the rows share the rest."""
    rows = s.grid.rows
    plus, minus, equals = OPERATORS
    parts: list[tuple[str, int | None, str]] = []  # kind, row, caption
    for r, one in enumerate(rows):
        parts.append(("row", r, s.labels("total_row", r + 1) if len(one.colours) > 1 else ""))
    if s.grid.powers:
        parts.append(("powers", None, s.labels("powers_short")))
    parts += [("penalties", None, s.labels("penalties_short")), ("total", None, s.labels("total"))]
    signs = [plus] * (len(parts) - 3) + [minus, equals]
    op_w = s.mm(OPERATOR_W)
    inset = s.mm(BOX_LINE + CLEAR)
    needs = [s.width(caption, MIN_TEXT) + 2 * inset if caption else 0.0 for _, _, caption in parts]
    room = band.w - (len(parts) - 1) * op_w
    # The widest box every box may have, a labelled one as wide as its label at least: what fills the line.
    row_w = min(s.mm(TOTAL_BOX_W), room / len(parts))
    while row_w > 0 and sum(max(need, row_w) for need in needs) > room + 1e-9:
        row_w -= s.mm(0.05)
    widths = [max(need, row_w) for need in needs]
    widths[-1] = band.w - sum(widths[:-1]) - (len(parts) - 1) * op_w
    if widths[-1] < max(needs[-1], s.mm(MIN_TOTAL_W)) - 1e-9 or row_w < s.mm(MIN_TOTAL_W) - 1e-9:
        raise LayoutError(f"the totals line does not fit: {len(parts)} boxes in {band.w:.1f} mm, each row's box"
                          f" needs {s.mm(MIN_TOTAL_W):.1f} mm and a labelled one its label")
    boxes: list[TotalBox] = []
    operators: list[Text] = []
    x = band.x
    for i, ((kind, row, caption_text), width) in enumerate(zip(parts, widths)):
        box = Box(x, band.y, width, band.h)
        caption = None
        if caption_text:
            caption_box = Box(box.x + inset, box.y + s.mm(CAPTION_TOP), box.w - 2 * inset, s.mm(TOTAL_CAPTION_H))
            caption = s.text(caption_text, caption_box, MIN_TEXT, role="caption")
        colour = rows[row].lock_colour if row is not None and not caption_text else None
        boxes.append(TotalBox(kind, box, row=row, colour=colour, caption=caption))
        x += width
        if i < len(signs):
            operator_box = Box(x + s.mm(OPERATOR_CLEAR), band.y + s.mm(CLEAR), op_w - s.mm(2 * OPERATOR_CLEAR),
                               band.h - s.mm(2 * CLEAR))
            operators.append(s.text(signs[i], operator_box, OPERATOR_SIZE, bold=True, anchor="middle",
                                    role="operator"))
            x += op_w
    return TotalsBand(tuple(boxes), tuple(operators))
