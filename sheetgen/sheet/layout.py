"""Sheet layout: a Grid becomes the geometry of one score sheet, in mm.

Pure data, no drawing: ``layout_sheet`` returns every item printed the same
on every sheet of a run (rows, locks, legends, table, totals) and the boxes
where per-sheet content goes (lucky numbers, serial number, header line);
``personalise`` returns the few items that differ from sheet to sheet.
The sheet is laid out top to bottom in bands; rows get the height that the
other bands leave.  What cannot be printed legibly raises ``LayoutError``.

Text widths come from ``measure(text, bold, size) -> width`` (all mm), given
by the caller, so that this module does not depend on a font library.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ..errors import LayoutError
from ..pdf.geometry import RGB, Box, Circle, Item, Polygon, Rect, Text
from ..grid.model import Cell, Colour, Grid, Row, Symbol
from ..grid.validate import plural
from .style import Labels, Mark, Theme, Tint

Measure = Callable[[str, bool, float], float]

SHEET_W = 96.0  # fits 2 x 4 on A4 and on US Letter with 5 mm free at every edge
SHEET_H = 66.0
PAD = 3.0  # blank border inside the cut line, for imprecise cutting
CAP = 0.729  # cap height of the font, as a fraction of its size
MIN_NUMBER_CAP = 2.5  # smallest cap height of a cell number, mm
MIN_TEXT = 1.6  # smallest size of any other text, mm (about 4.5 pt)
MIN_STRETCH = 0.8  # text may be condensed to 80 % of its width, no further
BASE_CLOSE_AFTER = 5  # the base rule; other thresholds get a hint by the lock

GAP = 0.8  # between bands
CELL_GAP = 0.3  # between the cells of a row
STRIP_H = 2.6  # header line and serial number
TITLE_H = 5.0
LEGEND_H = 2.6
BAR_H = 3.6
TABLE_ROW_H = 2.8
TOTALS_H = 5.4
BIS_H = 2.3
MAX_CELL_H = 7.5
NUMBER_SHARE = 0.45  # a cell number's cap height is at most this share of its cell's height
MIN_CELL_H = MIN_NUMBER_CAP / NUMBER_SHARE  # the lowest cell whose number is still legible
HEAVY = 0.45  # the dark frame of a framed (bonus) cell
MAX_MARK = 1.8  # a colour mark in a cell's corner
WHITE = (1.0, 1.0, 1.0)
KEY_TEXT = 1.8  # the words of the key to the colour marks, when it shares the title band
MIN_NAME_LINE = 25.0  # the key shares the title band only if this much is left to write a name on


@dataclass(frozen=True)
class CellGeometry:
    row: int
    index: int
    box: Box  # the whole cell, frame included
    number: Text
    bis_box: Box | None = None
    mark_box: Box | None = None  # the colour mark, when the theme prints marks


@dataclass(frozen=True)
class SheetLayout:
    width: float
    height: float
    items: tuple[Item, ...]  # the same on every sheet
    cells: tuple[CellGeometry, ...]
    locks: tuple[Box, ...]
    lucky_boxes: tuple[Box, ...] = ()
    header_box: Box | None = None
    serial_box: Box | None = None

    @property
    def content(self) -> Box:
        return Box(PAD, PAD, self.width - 2 * PAD, self.height - 2 * PAD)


@dataclass(frozen=True)
class SheetData:
    """What differs from sheet to sheet."""

    lucky: tuple[int, ...] = ()
    serial: int | None = None
    header: str = ""


def fit_text(
    text: str,
    box: Box,
    size: float,
    colour,
    measure: Measure,
    *,
    bold: bool = False,
    anchor: str = "start",
    min_size: float = MIN_TEXT,
    role: str = "label",
) -> Text:
    """``text`` in ``box``, vertically centred on its capitals; condensed and
    then made smaller if it is too wide, down to ``min_size``."""
    size = min(size, box.h / CAP)
    width = measure(text, bold, size)
    stretch = 1.0
    if width > box.w:
        stretch = max(MIN_STRETCH, box.w / width)
        if width * stretch > box.w:
            if size * box.w / (width * stretch) < min_size - 1e-9:
                raise LayoutError(
                    f"text {text!r} does not fit its box: needs {width * MIN_STRETCH * min_size / size:.1f} mm"
                    f" at the smallest size, has {box.w:.1f} mm"
                )
            size *= box.w / (width * stretch)
    if size < min_size - 1e-9:
        raise LayoutError(f"text {text!r} does not fit its box: {box.h:.1f} mm is too low for its smallest size")
    x = {"start": box.x, "middle": box.cx, "end": box.right}[anchor]
    return Text(x, box.cy + size * CAP / 2, text, size, colour, bold, anchor, stretch, box, role)


class _Sheet:
    """Collects items while the bands are laid out, top to bottom."""

    def __init__(self, grid: Grid, labels: Labels, theme: Theme, measure: Measure):
        self.grid, self.labels, self.theme, self.measure = grid, labels, theme, measure
        self.items: list[Item] = []
        self.key_in_title = False  # the key to the colour marks found room in the title band
        self.left, self.right = PAD, SHEET_W - PAD
        self.width = self.right - self.left

    def text(self, text: str, box: Box, size: float, *, bold: bool = False, **kw) -> Text:
        bold = bold and self.theme.bold  # a theme may print everything regular, to save ink
        item = fit_text(text, box, size, kw.pop("colour", self.theme.ink), self.measure, bold=bold, **kw)
        self.items.append(item)
        return item

    def label_width(self, text: str, size: float, bold: bool = False, most: float = 30.0) -> float:
        return min(most, self.measure(text, bold, size) + 0.6)


def layout_sheet(
    grid: Grid,
    labels: Labels,
    theme: Theme,
    measure: Measure,
    *,
    header: bool = False,
    serial: bool = False,
) -> SheetLayout:
    """The static geometry of one sheet of ``grid``; ``header``/``serial``
    reserve a strip at the top for a per-sheet header line and serial number.
    What cannot be printed legibly raises ``LayoutError`` naming the grid file."""
    try:
        return _layout_sheet(_Sheet(grid, labels, theme, measure), header, serial)
    except LayoutError as error:
        raise error.located(grid.source) from None


def _layout_sheet(s: _Sheet, header: bool, serial: bool) -> SheetLayout:
    grid = s.grid
    y = PAD
    header_box = serial_box = None
    if header or serial:
        serial_w = 22.0 if serial else 0.0
        if header:
            header_box = Box(s.left, y, s.width - serial_w - GAP, STRIP_H)
        if serial:
            serial_box = Box(s.right - serial_w, y, serial_w, STRIP_H)
        y += STRIP_H + 0.4
    lucky_boxes = _title_band(s, Box(s.left, y, s.width, TITLE_H))
    y += TITLE_H + GAP

    # Bands below the rows, measured first so that the rows get what is left.
    below: list[tuple[float, Callable[[float], None]]] = []
    if grid.bonus_bar:
        below.append((BAR_H, lambda top: _bonus_bar(s, top)))
    legends = _legend_lines(s)
    for line in legends:
        below.append((LEGEND_H, lambda top, line=line: _legend_line(s, top, line)))
    below.append((2 * TABLE_ROW_H, lambda top: _score_table(s, top)))
    bottom_lines = _bottom_lines(s)
    below.extend((TOTALS_H, lambda top, parts=parts: _bottom_line(s, top, parts)) for parts in bottom_lines)
    below_h = sum(h for h, _ in below) + GAP * len(below)
    bands = ["the bonus bar"] if grid.bonus_bar else []
    if legends:
        bands.append(plural(len(legends), "legend line", "legend lines"))
    listed = ", ".join(bands + ["the scoring table", "the penalty boxes"]) + " and the totals"

    rows_h = SHEET_H - PAD - below_h - y
    cells, locks = _rows(s, Box(s.left, y, s.width, rows_h), f"{listed} take {below_h:.1f} mm below them")
    y += rows_h
    for height, draw in below:
        y += GAP
        draw(y)
        y += height
    return SheetLayout(SHEET_W, SHEET_H, tuple(s.items), cells, locks, lucky_boxes, header_box, serial_box)


# -- title band -------------------------------------------------------------


def _title_band(s: _Sheet, band: Box) -> tuple[Box, ...]:
    """Title, then the name field, then (if the grid has them) the lucky-number boxes."""
    try:
        title_w = min(s.measure(s.grid.title, True, 3.6) + 1.0, s.width * 0.4)
    except LayoutError as error:  # a character the font cannot print
        raise LayoutError(error.message, "title") from None
    try:
        s.text(s.grid.title, Box(band.x, band.y, title_w, band.h), 3.6, bold=True, role="title")
    except LayoutError as error:
        raise LayoutError(f"{error.message} (shorten the title)", "title") from None
    x = band.x + title_w + 1.5
    lucky_boxes: tuple[Box, ...] = ()
    end = band.right
    if s.grid.lucky:
        count = s.grid.lucky.count
        box_w = 5.0
        boxes_w = count * box_w + (count - 1) * 0.6
        label_w = s.label_width(s.labels("lucky"), 2.2, most=22.0)
        start = band.right - boxes_w
        s.text(s.labels("lucky"), Box(start - label_w - 0.4, band.y, label_w, band.h), 2.2, anchor="end")
        lucky_boxes = tuple(
            Box(start + i * (box_w + 0.6), band.y + 0.3, box_w, band.h - 0.6) for i in range(count)
        )
        for box in lucky_boxes:
            s.items.append(Rect(box, stroke=s.theme.ink, line=0.25, radius=0.5))
        end = start - label_w - 2.0
    label = s.labels("name")
    label_w = s.label_width(label, 2.2, most=16.0)
    end = _title_key(s, band, x + label_w, end)
    s.text(label, Box(x, band.y, label_w, band.h), 2.2, role="label")
    line_y = band.y + band.h * 0.5 + 2.2 * CAP / 2
    if end - (x + label_w) < 10:
        beside = f"the title and {plural(s.grid.lucky.count, 'lucky number', 'lucky numbers')}" if s.grid.lucky \
            else "the title"
        raise LayoutError(
            f"{beside} leave {max(0.0, end - x - label_w):.1f} mm for the name field, which needs 10 mm"
            f" (shorten the title{' or draw fewer lucky numbers' if s.grid.lucky else ''})", "title")
    s.items.append(Polygon(((x + label_w, line_y), (end, line_y)), stroke=s.theme.line, line=0.2, closed=False))
    return lucky_boxes


def _key_entries(s: _Sheet) -> list[tuple[Colour, str]]:
    """The key to the colour marks: the colours this sheet prints, each with its name."""
    used = {cell.colour for row in s.grid.rows for cell in row.cells} | set(s.grid.bonus_bar)
    return [(colour, s.labels(f"colour_{colour.value}")) for colour in Colour if colour in used]


def _title_key(s: _Sheet, band: Box, start: float, end: float) -> float:
    """The key to the colour marks, two colours a line, at the right end of the
    title band (before ``end``) if that leaves the name field, which starts at
    ``start``, ``MIN_NAME_LINE`` mm; else it gets a legend line below the rows.
    Returns where the name field ends."""
    if not s.theme.marks:
        return end
    entries = _key_entries(s)
    line_h = band.h / 2
    widths = [max(line_h + s.measure(text, False, KEY_TEXT) for _, text in entries[col::2]) for col in (0, 1)
              if entries[col::2]]
    key_w = sum(widths) + 1.0 * (len(widths) - 1)
    if end - key_w - 1.5 - start < MIN_NAME_LINE:
        return end
    left = end - key_w
    for i, (colour, text) in enumerate(entries):
        x = left + (widths[0] + 1.0 if i % 2 else 0.0)
        top = band.y + (i // 2) * line_h
        _swatch(s, Box(x, top + 0.2, line_h - 0.4, line_h - 0.4), colour)
        s.text(text, Box(x + line_h, top, widths[i % 2] - line_h, line_h), KEY_TEXT, role="legend")
    s.key_in_title = True
    return left - 1.5


# -- rows ---------------------------------------------------------------------


def _rows(s: _Sheet, area: Box, below: str) -> tuple[tuple[CellGeometry, ...], tuple[Box, ...]]:
    """The rows in ``area``; ``below`` says what takes the height under them, for errors."""
    grid = s.grid
    pitch = area.h / len(grid.rows)
    bis_h = BIS_H if grid.bis else 0.0
    cell_h = min(MAX_CELL_H, pitch - GAP - bis_h)
    if cell_h < MIN_CELL_H - 1e-9:
        raise LayoutError(
            f"the rows do not fit: each of the {len(grid.rows)} rows gets {max(0.0, pitch):.1f} mm of height,"
            f" needs at least {MIN_CELL_H + GAP + bis_h:.1f} mm; {below}", "rows")
    needs_hint = grid.close_after != BASE_CLOSE_AFTER
    arrow_w = 2.2
    lock_w = min(cell_h, 4.4 if needs_hint else 5.6)
    hint_text = s.labels("threshold", grid.close_after)
    hint_w = s.label_width(hint_text, 2.0, bold=True, most=6.0) if needs_hint else 0.0
    longest = max(len(row.cells) for row in grid.rows)
    cells_x = area.x + arrow_w + 0.6
    cells_w = area.right - cells_x - GAP - lock_w - (hint_w + 0.3 if needs_hint else 0.0)
    cell_pitch = (cells_w + CELL_GAP) / longest
    cell_w = cell_pitch - CELL_GAP
    frame = _frame(s, cell_w)
    mark = min(MAX_MARK, cell_h * 0.24) if s.theme.marks else 0.0
    widest = max((str(c.number) for row in grid.rows for c in row.cells), key=lambda t: s.measure(t, True, 1.0))
    number_size = min(cell_h * NUMBER_SHARE, 3.4) / CAP
    inner_w = cell_w - 2 * frame - 0.2
    # How small the numbers get once condensed as far as allowed: never under the minimum cap height.
    fitted = min(number_size, inner_w / (s.measure(widest, True, 1.0) * MIN_STRETCH))
    if fitted * CAP < MIN_NUMBER_CAP - 1e-9:
        number_w = s.measure(widest, True, MIN_NUMBER_CAP / CAP) * MIN_STRETCH
        needs = number_w + 2 * frame + 0.2

        def fits(count: int) -> bool:  # wider cells get wider frames
            width = (cells_w + CELL_GAP) / count - CELL_GAP
            return width - 2 * _frame(s, width) - 0.2 >= number_w

        most = max((count for count in range(1, longest) if fits(count)), default=0)
        first = next(r for r, row in enumerate(grid.rows) if len(row.cells) == longest)
        raise LayoutError(
            f"{longest} cells do not fit in a row: each is {cell_w:.1f} mm wide, the number {widest!r}"
            f" needs {needs:.1f} mm at {MIN_NUMBER_CAP} mm cap height (at most {most} cells fit)",
            f"rows[{first}].cells")

    # A double or framed cell has less room inside its frames than a plain one.
    smallest = MIN_NUMBER_CAP / CAP
    for r, row in enumerate(grid.rows):
        for i, cell in enumerate(row.cells):
            room = cell_w - 2 * _number_inset(cell, frame)
            need = s.measure(str(cell.number), True, smallest) * MIN_STRETCH
            if need > room + 1e-9:
                kind = "double and framed" if cell.double and cell.framed else "double" if cell.double else "framed"
                raise LayoutError(
                    f"the number {cell.number} does not fit inside the frames of a {kind} cell {cell_w:.1f} mm"
                    f" wide: it needs {need:.1f} mm at {MIN_NUMBER_CAP} mm cap height, the frames leave"
                    f" {room:.1f} mm (use fewer cells in the row)", f"rows[{r}].cells[{i}]")

    cells: list[CellGeometry] = []
    locks: list[Box] = []
    for r, row in enumerate(grid.rows):
        top = area.y + r * pitch + (pitch - cell_h - bis_h - GAP) / 2
        _arrow(s, Box(area.x, top, arrow_w, cell_h), row)
        for i, cell in enumerate(row.cells):
            box = Box(cells_x + i * cell_pitch, top, cell_w, cell_h)
            try:
                number, mark_box = _cell(s, box, cell, frame, number_size, mark)
            except LayoutError as error:
                raise LayoutError(error.message, error.path or f"rows[{r}].cells[{i}]") from None
            bis_box = None
            if grid.bis and i < len(row.cells) - 1:
                size = min(bis_h - 0.3, cell_w * 0.6)
                bis_box = Box(box.cx - size / 2, box.bottom + 0.3, size, size)
                s.items.append(Rect(bis_box, fill=(1, 1, 1), stroke=s.theme.tint(cell.colour).strong, line=0.25))
            cells.append(CellGeometry(r, i, box, number, bis_box, mark_box))
        lock_x = cells_x + len(row.cells) * cell_pitch - CELL_GAP + GAP
        lock = Box(lock_x, top + (cell_h - lock_w) / 2, lock_w, lock_w)
        _lock(s, lock, row.lock_colour)
        locks.append(lock)
        if needs_hint:
            s.text(hint_text, Box(lock.right + 0.3, top, hint_w, cell_h), 2.0, bold=True, role="hint",
                   colour=s.theme.muted)
    return tuple(cells), tuple(locks)


def _cell(s: _Sheet, box: Box, cell: Cell, frame: float, number_size: float, mark: float) -> tuple[Text, Box | None]:
    """A cell: a band (filled theme) or a line (outlined theme) of its strong
    colour around its background, and its number; a mark of ``mark`` mm in the
    top-left corner, the number below it, when the theme shows marks."""
    tint = s.theme.tint(cell.colour)
    radius = min(0.8, box.w * 0.12)
    inner = box.inset(HEAVY) if cell.framed else box
    if s.theme.outlined:
        if cell.framed:  # a heavy dark frame around the cell: a bonus cell
            s.items.append(Rect(box.inset(HEAVY / 2), stroke=s.theme.ink, line=HEAVY, radius=radius))
        s.items.extend(_tinted(inner.inset(frame / 2), tint, radius, frame))
    else:
        if cell.framed:
            s.items.append(Rect(box, fill=s.theme.ink, radius=radius))
        s.items.append(Rect(inner, fill=tint.strong, radius=radius))
        s.items.extend(_tinted(inner.inset(frame), tint, radius * 0.6))
    pale = inner.inset(frame)
    if cell.double:  # a second frame inside the first: the cell is doubled
        s.items.append(Rect(pale.inset(0.45), stroke=tint.strong, line=0.35, radius=radius * 0.5))
    number_box = box.inset(_number_inset(cell, frame))
    corner = None
    if mark:
        edge = pale.inset(0.85 if cell.double else 0.25)  # clear of the second frame of a double cell
        corner = Box(edge.x, edge.y, mark, mark)
        _mark(s, cell.colour, corner)
        below = corner.bottom + 0.15
        number_box = Box(number_box.x, below, number_box.w, number_box.bottom - below)
    if cell.symbol is not None:  # a badge on the cell's top edge, clear of the number
        size = min(2.6, box.w * 0.5)
        _symbol(s, cell.symbol, Box(box.cx - size / 2, box.y - size * 0.45, size, size))
    number = s.text(str(cell.number), number_box, number_size, bold=True, anchor="middle",
                    colour=tint.ink, min_size=MIN_NUMBER_CAP / CAP, role="number")
    return number, corner


def _frame(s: _Sheet, cell_w: float) -> float:
    """The width of a cell's coloured frame, mm: the theme's outline, or a band
    that grows with the cell."""
    return s.theme.outline if s.theme.outlined else min(0.6, max(0.28, cell_w * 0.09))


def _number_inset(cell: Cell, frame: float) -> float:
    """How far a cell's number stays inside its cell, mm: the frames it has."""
    return (HEAVY if cell.framed else 0.0) + frame + (0.55 if cell.double else 0.1)


def _mark(s: _Sheet, colour: Colour, box: Box, fill: RGB | None = None) -> None:
    """The mark that stands for ``colour``, filled (in its ink unless ``fill``
    is given), inside the square ``box``."""
    tint = s.theme.tint(colour)
    ink = fill or tint.ink
    w = box.w
    if tint.mark is Mark.TRIANGLE:
        s.items.append(Polygon(((box.x, box.bottom - w * 0.06), (box.cx, box.y + w * 0.06),
                                (box.right, box.bottom - w * 0.06)), fill=ink))
    elif tint.mark is Mark.CIRCLE:
        s.items.append(Circle(box.cx, box.cy, w * 0.46, fill=ink))
    elif tint.mark is Mark.SQUARE:
        s.items.append(Rect(box.inset(w * 0.1), fill=ink))
    else:
        s.items.append(Polygon(((box.cx, box.y), (box.right, box.cy), (box.cx, box.bottom), (box.x, box.cy)),
                               fill=ink))


def _tinted(box: Box, tint: Tint, radius: float, line: float = 0.0) -> list[Rect]:
    """``box`` in a colour's background, hatched if the colour is, outlined in
    its strong colour when ``line`` (mm) is not 0."""
    outline = tint.strong if line else None
    if not tint.hatch:
        return [Rect(box, fill=tint.pale, stroke=outline, line=line, radius=radius)]
    # The renderer hatches in the stroke colour: a hairline edge in it, under the outline.
    hatched = Rect(box, fill=tint.pale, stroke=tint.hatch_ink, line=0.05, radius=radius, hatch=tint.hatch)
    return [hatched, Rect(box, stroke=outline, line=line, radius=radius)] if line else [hatched]


def _swatch(s: _Sheet, box: Box, colour: Colour) -> None:
    """For the key: a square of the colour's background with its mark on it."""
    s.items.extend(_tinted(box, s.theme.tint(colour), 0.3, 0.2))
    _mark(s, colour, box.inset(0.3))


def _colour_box(s: _Sheet, box: Box, colour: Colour, radius: float) -> None:
    """A box to write or cross in, in ``colour``'s look, with the colour's mark
    in its top-left corner when the theme shows marks."""
    line = s.theme.outline
    s.items.extend(_tinted(box, s.theme.tint(colour), radius, line))
    if s.theme.marks:
        size = min(1.6, box.h * 0.38)
        _mark(s, colour, Box(box.x + line / 2 + 0.25, box.y + line / 2 + 0.25, size, size))


def _arrow(s: _Sheet, box: Box, row: Row) -> None:
    """A triangle pointing right: crosses go left to right."""
    colour = s.theme.tint(row.lock_colour).strong if len(row.colours) == 1 else s.theme.muted
    h = min(box.h * 0.6, box.w * 1.4)
    s.items.append(
        Polygon(((box.x, box.cy - h / 2), (box.right, box.cy), (box.x, box.cy + h / 2)), fill=colour)
    )


def _lock(s: _Sheet, box: Box, colour: Colour) -> None:
    """A padlock on a disc of the lock's colour: white on its strong colour,
    or, in an outlined theme, in its strong colour on its background.  When
    the theme shows marks, the keyhole is the colour's mark."""
    tint = s.theme.tint(colour)
    w = box.w
    if s.theme.outlined:
        line = s.theme.outline
        s.items.append(Circle(box.cx, box.cy, (w - line) / 2, fill=tint.pale, stroke=tint.strong, line=line))
        metal, keyhole = tint.strong, WHITE
    else:
        s.items.append(Circle(box.cx, box.cy, w / 2, fill=tint.strong))
        metal, keyhole = WHITE, tint.ink
    if s.theme.marks:  # a bigger body, for a keyhole big enough to read
        body = Box(box.cx - w * 0.26, box.y + w * 0.4, w * 0.52, w * 0.42)
    else:
        body = Box(box.cx - w * 0.22, box.y + w * 0.45, w * 0.44, w * 0.32)
    s.items.append(Rect(body, fill=metal, radius=w * 0.04))
    radius = w * 0.14
    arc = tuple(
        (box.cx + radius * math.cos(math.pi * k / 10), body.y - radius * math.sin(math.pi * k / 10) + 0.05)
        for k in range(11)
    )
    s.items.append(Polygon(((arc[0][0], body.y + 0.1),) + arc + ((arc[-1][0], body.y + 0.1),),
                           stroke=metal, line=w * 0.07, closed=False))
    if s.theme.marks:
        size = body.h * 0.8
        _mark(s, colour, Box(body.cx - size / 2, body.cy - size / 2, size, size), keyhole)


def _symbol(s: _Sheet, symbol: Symbol, box: Box, colour=None) -> None:
    """A power symbol as a vector shape, dark outline on white."""
    ink = colour or s.theme.ink
    r = box.w / 2
    cx, cy = box.cx, box.cy

    def ring(count: int, radius: float, turn: float) -> tuple[tuple[float, float], ...]:
        return tuple(
            (cx + radius * math.cos(turn + 2 * math.pi * k / count), cy + radius * math.sin(turn + 2 * math.pi * k / count))
            for k in range(count)
        )

    line = 0.18
    if symbol is Symbol.CIRCLE:
        s.items.append(Circle(cx, cy, r * 0.9, fill=(1, 1, 1), stroke=ink, line=line))
    elif symbol is Symbol.DIAMOND:
        s.items.append(Polygon(ring(4, r, -math.pi / 2), fill=(1, 1, 1), stroke=ink, line=line))
    elif symbol is Symbol.SQUARE:
        s.items.append(Rect(box.inset(r * 0.2), fill=(1, 1, 1), stroke=ink, line=line))
    elif symbol is Symbol.OCTAGON:
        s.items.append(Polygon(ring(8, r, math.pi / 8), fill=(1, 1, 1), stroke=ink, line=line))
    else:  # star: ten points, alternating radius
        points = tuple(
            (cx + (r if k % 2 == 0 else r * 0.45) * math.cos(-math.pi / 2 + math.pi * k / 5),
             cy + (r if k % 2 == 0 else r * 0.45) * math.sin(-math.pi / 2 + math.pi * k / 5))
            for k in range(10)
        )
        s.items.append(Polygon(points, fill=(1, 1, 1), stroke=ink, line=line))


# -- bands below the rows -----------------------------------------------------


def _bonus_bar(s: _Sheet, top: float) -> None:
    label = s.labels("bonus")
    label_w = s.label_width(label, 2.2, bold=True, most=14.0)
    s.text(label, Box(s.left, top, label_w, BAR_H), 2.2, bold=True)
    count = len(s.grid.bonus_bar)
    x = s.left + label_w + 1.0
    pitch = min(6.0, (s.right - x + 0.6) / count)
    size = min(BAR_H, pitch - 0.6)
    for i, colour in enumerate(s.grid.bonus_bar):
        _colour_box(s, Box(x + i * pitch, top + (BAR_H - size) / 2, size, size), colour, 0.4)


def _legend_lines(s: _Sheet) -> list[list[tuple[Symbol | str | None, str]]]:
    """The legends this grid needs, packed into lines of (marker, text)."""
    grid, labels = s.grid, s.labels
    lines: list[list[tuple[Symbol | str | None, str]]] = []
    if s.theme.marks and not s.key_in_title:  # the key to the colour marks
        lines.append(_key_entries(s))
    if grid.has_double:
        lines.append([("double", labels("legend_double"))])
    if grid.bis:
        lines.append([("bis", labels("legend_bis"))])
    if grid.bonus_bar:
        lines.append([("framed", labels("legend_bonus"))])
    if grid.powers:
        line: list[tuple[Symbol | str | None, str]] = []
        used = 0.0
        for power in grid.powers:
            text = labels(f"power_{power.effect.value}", power.amount or None)
            width = 2.6 + s.measure(text, False, 1.9) + 2.0
            if line and used + width > s.width:
                lines.append(line)
                line, used = [], 0.0
            line.append((power.symbol, text))
            used += width
        lines.append(line)
    return lines


def _legend_line(s: _Sheet, top: float, entries: list[tuple[Symbol | str | None, str]]) -> None:
    widths = [2.6 + s.measure(text, False, 1.9) for _, text in entries]
    spare = (s.width - sum(widths)) / len(entries) if len(entries) > 1 else 0.0
    x = s.left
    for (marker, text), width in zip(entries, widths):
        slot = width + max(0.0, spare)
        marker_box = Box(x, top + 0.2, LEGEND_H - 0.4, LEGEND_H - 0.4)
        if isinstance(marker, Symbol):
            _symbol(s, marker, marker_box)
        elif isinstance(marker, Colour):
            _swatch(s, marker_box, marker)
        elif marker == "double":
            s.items.append(Rect(marker_box, stroke=s.theme.ink, line=0.2))
            s.items.append(Rect(marker_box.inset(0.45), stroke=s.theme.ink, line=0.2))
        elif marker == "framed":
            s.items.append(Rect(marker_box, stroke=s.theme.ink, line=0.5))
        elif marker == "bis":
            s.items.append(Rect(marker_box.inset(0.4), stroke=s.theme.ink, line=0.2))
        s.text(text, Box(x + 2.6, top, min(slot, s.right - x) - 2.6, LEGEND_H), 1.9, role="legend")
        x += slot


def _score_table(s: _Sheet, top: float) -> None:
    """Crosses 1x..Nx over their points, as long as the grid's maximum."""
    table = s.grid.table
    crosses, points = s.labels("crosses"), s.labels("points")
    label_w = max(s.label_width(crosses, 1.9, most=13.0), s.label_width(points, 1.9, most=13.0))
    s.text(crosses, Box(s.left, top, label_w, TABLE_ROW_H), 1.9, colour=s.theme.muted)
    s.text(points, Box(s.left, top + TABLE_ROW_H, label_w, TABLE_ROW_H), 1.9, colour=s.theme.muted)
    x = s.left + label_w + 0.5
    col = (s.right - x) / len(table)
    _check_table_fits(s, s.right - x)
    s.items.append(Rect(Box(x, top, s.right - x, 2 * TABLE_ROW_H), stroke=s.theme.line, line=0.15))
    s.items.append(Polygon(((x, top + TABLE_ROW_H), (s.right, top + TABLE_ROW_H)), stroke=s.theme.line,
                           line=0.15, closed=False))
    for i, value in enumerate(table):
        cx = x + i * col
        if i:
            s.items.append(Polygon(((cx, top), (cx, top + 2 * TABLE_ROW_H)), stroke=s.theme.line, line=0.15,
                                   closed=False))
        s.text(s.labels("table_crosses", i + 1), Box(cx + 0.15, top, col - 0.3, TABLE_ROW_H), 1.8, anchor="middle",
               colour=s.theme.muted, role="table")
        s.text(str(value), Box(cx + 0.15, top + TABLE_ROW_H, col - 0.3, TABLE_ROW_H), 2.0, bold=True,
               anchor="middle", role="table")


def _check_table_fits(s: _Sheet, width: float) -> None:
    """Refuse a scoring table whose columns, sharing ``width`` mm, are too narrow
    for their labels, and say how long a table would fit."""

    def needs(crosses: int) -> float:  # the widest labels of a table that long, at their smallest
        points = str(s.grid.table[crosses - 1])
        header = s.labels("table_crosses", crosses)
        return max(s.measure(header, False, MIN_TEXT), s.measure(points, True, MIN_TEXT)) * MIN_STRETCH

    length = len(s.grid.table)
    if needs(length) <= width / length - 0.3 + 1e-9:
        return
    most = next((n for n in range(length - 1, 0, -1) if needs(n) <= width / n - 0.3), 0)
    raise LayoutError(
        f"the scoring table does not fit: {length} columns (1x to {length}x) of {width / length:.1f} mm each,"
        f" {str(s.grid.table[-1])!r} needs {needs(length) + 0.3:.1f} mm (a max_crosses of at most {most} would fit)",
        "max_crosses" if s.grid.cross_cap else "")



def _bottom_lines(s: _Sheet) -> list[list[str]]:
    """Penalties and totals share one line when the penalties label fits beside
    the totals, condensed or smaller if need be (long words in some languages);
    else they take one line each."""
    if s.measure(s.labels("penalties"), False, MIN_TEXT) * MIN_STRETCH + 0.6 <= _shared_label_room(s):
        return [["penalties", "totals"]]
    return [["penalties"], ["totals"]]


def _shared_label_room(s: _Sheet) -> float:
    """The width left for the penalties label on a line shared with the totals."""
    return s.width - s.grid.penalty_boxes * 4.8 - 2.0 - _totals_min_width(s)


def _totals_min_width(s: _Sheet) -> float:
    return (len(s.grid.rows) + 2) * 7.0 + (len(s.grid.rows) + 1) * 2.6


def _bottom_line(s: _Sheet, top: float, parts: list[str]) -> None:
    x = s.left
    if "penalties" in parts:
        label = s.labels("penalties")
        label_w = s.label_width(label, 2.2, most=18.0)
        if "totals" in parts:
            label_w = min(label_w, _shared_label_room(s))
        s.text(label, Box(x, top, label_w - 0.6, TOTALS_H), 2.2)  # 0.6: clear of the first box
        x += label_w
        mark = s.labels("penalty_box", s.grid.penalty_points)
        for i in range(s.grid.penalty_boxes):
            box = Box(x + i * 4.8, top + (TOTALS_H - 4.2) / 2, 4.2, 4.2)
            s.items.append(Rect(box, fill=(1, 1, 1), stroke=s.theme.ink, line=0.25, radius=0.4))
            s.text(mark, box.inset(0.5), 1.7, anchor="middle", colour=s.theme.muted, role="penalty")
        x += s.grid.penalty_boxes * 4.8 + 2.0
    if "totals" in parts:
        _totals(s, Box(x, top, s.right - x, TOTALS_H))


def _totals(s: _Sheet, area: Box) -> None:
    """One box per row (in its lock colour) + ... - penalties = total."""
    rows = s.grid.rows
    op_w = 2.6
    count = len(rows) + 2
    box_w = min(11.0, (area.w - (count - 1) * op_w) / count)
    total_w = area.w - (count - 1) * op_w - (count - 1) * box_w
    x = area.x
    operators = ["+"] * (len(rows) - 1) + ["-", "="]
    for i in range(count):
        width = total_w if i == count - 1 else box_w
        box = Box(x, area.y, width, area.h)
        if i < len(rows):
            _colour_box(s, box, rows[i].lock_colour, 0.5)
        else:
            s.items.append(Rect(box, fill=(1, 1, 1), stroke=s.theme.ink, line=0.3 if i == count - 1 else 0.25,
                                radius=0.5))
            caption = s.labels("penalties_short" if i == len(rows) else "total")
            s.text(caption, Box(box.x + 0.5, box.y + 0.3, box.w - 1.0, 1.7), 1.6, colour=s.theme.muted,
                   role="caption")
        x += width
        if i < count - 1:
            s.text(operators[i], Box(x, area.y, op_w, area.h), 3.0, bold=True, anchor="middle", role="operator")
            x += op_w


# -- per-sheet content ----------------------------------------------------------


def personalise(layout: SheetLayout, data: SheetData, labels: Labels, theme: Theme, measure: Measure) -> tuple[Item, ...]:
    """The items of one sheet that differ from sheet to sheet."""
    items: list[Item] = []
    for box, number in zip(layout.lucky_boxes, data.lucky):
        items.append(fit_text(str(number), box.inset(0.4), 3.4, theme.ink, measure, bold=theme.bold, anchor="middle",
                              role="lucky"))
    if data.header and layout.header_box:
        items.append(fit_text(data.header, layout.header_box, 2.2, theme.ink, measure, role="header"))
    if data.serial is not None and layout.serial_box:
        items.append(fit_text(labels("serial", f"{data.serial:06d}"), layout.serial_box, 2.2, theme.muted, measure,
                              anchor="end", role="serial"))
    return tuple(items)
