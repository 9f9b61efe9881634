"""From a sheet plan to the items that print it: a thin loop.

``draw_sheet`` gives the items every sheet of a run shares; ``personalise``
the few that differ from sheet to sheet (lucky numbers, header, serial
number).  Where things go and what they mean is the plan's; how each thing
looks is the pictograms'; this module only pairs them, in the theme's colours.
All lengths in mm.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import lru_cache

from ..grid.model import Colour, Symbol
from ..pdf.geometry import RGB, Box, Drawing, Item, Polygon, Rect, Text
from . import pictograms as pict
from .plan import (
    BOX_LINE,
    HEAVY,
    LINE,
    MIN_TEXT,
    TABLE_RULE,
    TOTAL_LINE,
    CellPlan,
    LegendEntry,
    Measure,
    SheetData,
    SheetPlan,
    SheetSize,
    fit_text,
    inside_frame,
)
from .style import Theme

SYMBOL_LINE = 0.16


def draw_sheet(plan: SheetPlan, theme: Theme, *, cell_fills: Mapping[tuple[int, int], RGB] | None = None) -> Drawing:
    """The art of one sheet.  ``cell_fills`` maps (row, cell index) to a
    background colour that replaces the cell's own (a heat map, say)."""
    if plan.marks and not theme.marks:  # the plan prints the colour marks on a grid that needs them
        theme = replace(theme, marks=True)
    return Drawing(plan.width, plan.height, tuple(_items(plan, theme, cell_fills or {})))


def _items(plan: SheetPlan, theme: Theme, fills: Mapping[tuple[int, int], RGB]) -> Iterator[Item]:
    k = plan.size.scale
    yield plan.title
    yield plan.name_label
    line = plan.name_line
    yield Polygon(((line.x, line.bottom), (line.right, line.bottom)), stroke=theme.line, line=LINE * k, closed=False)
    if plan.lucky_label is not None:
        yield plan.lucky_label
    for box in plan.lucky_boxes:
        yield from pict.writing_box(box, theme.box_line, _thin(theme, BOX_LINE * k, k), 0.5 * k)
    for entry in plan.key:
        yield from _legend_entry(entry, theme, k)

    for cell in plan.cells:
        yield from _cell(cell, theme, fills.get((cell.row, cell.index)), k)
    for arrow in plan.arrows:
        colour = theme.tint(arrow.colour).strong if arrow.colour else theme.muted
        yield from pict.arrow(arrow.box, colour, arrow.direction)
    for lock in plan.locks:
        yield from pict.lock(lock.box, theme.tint(lock.colour), outlined=theme.outlined, line=theme.outline * k,
                             marked=theme.marks)
        if lock.hint is not None:
            yield lock.hint

    if plan.bar_label is not None:
        yield plan.bar_label
    for bar_box in plan.bar:
        yield from _colour_box(bar_box.box, bar_box.colour, theme, 0.4 * k, k)
    for entry in plan.legend:
        yield from _legend_entry(entry, theme, k)

    yield from plan.table_labels
    rule = TABLE_RULE * k
    for top in sorted({column.box.y for column in plan.table}):  # the table's lines, each framed
        line_columns = [column for column in plan.table if column.box.y == top]
        first, last = line_columns[0].box, line_columns[-1].box
        frame = Box(first.x, top, last.right - first.x, first.h)
        yield Rect(frame, stroke=theme.line, line=rule)
        yield Polygon(((frame.x, frame.cy), (frame.right, frame.cy)), stroke=theme.line, line=rule, closed=False)
        for column in line_columns[1:]:
            yield Polygon(((column.box.x, frame.y), (column.box.x, frame.bottom)), stroke=theme.line, line=rule,
                          closed=False)
    for column in plan.table:
        yield column.header
        yield column.value

    yield plan.penalties_label
    for penalty in plan.penalties:
        yield from pict.writing_box(penalty.box, theme.box_line, _thin(theme, BOX_LINE * k, k), 0.4 * k)
        yield penalty.text
    for total in plan.totals:
        if total.colour is not None:
            # White to write in when the theme's cells are outlined: a mono grey or hatching is not.
            yield from _colour_box(total.box, total.colour, theme, 0.5 * k, k, white=theme.outlined)
        else:
            width = (TOTAL_LINE if total.kind == "total" else BOX_LINE) * k
            yield from pict.writing_box(total.box, theme.box_line, _thin(theme, width, k), 0.5 * k)
        if total.caption is not None:
            yield total.caption
    yield from plan.operators


def _cell(cell: CellPlan, theme: Theme, fill: RGB | None, k: float) -> Iterator[Item]:
    tint = theme.tint(cell.colour)
    radius = min(0.8 * k, cell.box.w * 0.12)  # of the cell's outer corners; inner frames follow them
    if cell.framed:
        # Outlined themes (ink-saver, mono) frame it in the cell's strong colour: a band of ink, not of black.
        band = theme.frame or (tint.strong if theme.outlined else theme.ink)
        yield from pict.heavy_frame(cell.box, band, cell.heavy, radius)
        radius = max(0.0, radius - cell.heavy)
    yield from pict.cell_frame(cell.pale, tint, cell.frame, outlined=theme.outlined, radius=radius, fill=fill,
                               dash=() if cell.framed else theme.dash)  # a band's edge stays solid
    if cell.second is not None:
        line = _thin(theme, cell.second_line, k)
        yield from pict.double_frame(cell.second, tint.strong, line, radius * 0.5)
    if cell.mark_box is not None:
        yield from pict.mark(cell.mark_box, tint.mark, tint.ink)
    if cell.symbol_box is not None and cell.symbol is not None:
        yield from pict.symbol(cell.symbol_box, cell.symbol, theme.symbol_ink, SYMBOL_LINE * k)
    yield replace(cell.text, light=True) if theme.light else cell.text
    if cell.bis_box is not None:
        yield from pict.writing_box(cell.bis_box, tint.strong, _thin(theme, BOX_LINE * k, k), 0.3 * k)


def _thin(theme: Theme, line: float, k: float) -> float:
    """A line around a box to write in: no heavier than the theme's outline, when its cells are outlined."""
    return min(line, theme.outline * k) if theme.outlined else line


def _colour_box(box: Box, colour: Colour, theme: Theme, radius: float, k: float,
                white: bool = False) -> Iterator[Item]:
    """A box to write or cross in, in ``colour``'s look (on white paper when
    ``white``), with the colour's mark in its top-left corner when the theme
    shows marks."""
    tint = theme.tint(colour)
    line = theme.outline * k
    yield from pict.tinted(box.inset(line / 2), tint, radius, line, fill=pict.WHITE if white else None)
    if theme.marks:
        side = min(1.4 * k, box.h * 0.38)
        corner = line + 0.2 * k
        yield from pict.mark(Box(box.x + corner, box.y + corner, side, side), tint.mark, tint.ink)


def _legend_entry(entry: LegendEntry, theme: Theme, k: float) -> Iterator[Item]:
    box, marker = entry.marker_box, entry.marker
    if entry.hint is not None:
        yield entry.hint
    elif box is None:  # a line of text alone
        pass
    elif isinstance(marker, Colour):
        yield from pict.swatch(box, theme.tint(marker), 0.2 * k)
    elif isinstance(marker, Symbol):  # a power symbol
        yield from pict.symbol(box, marker, theme.symbol_ink, SYMBOL_LINE * k)
    elif marker in ("double", "framed", "bis", "lucky"):
        yield from _marker(marker, box, theme, k)
    yield entry.text


def _marker(kind: str, box: Box, theme: Theme, k: float) -> Iterator[Item]:
    """The legend's small picture of a double, framed, Bis or lucky box, in ink."""
    line = 0.2 * k
    if kind == "double":
        yield from pict.writing_box(box, theme.box_line, line)
        yield from pict.double_frame(box.inset(0.45 * k), theme.ink, line, 0.0)
    elif kind == "framed":
        yield from pict.heavy_frame(box, theme.ink, HEAVY * k, 0.0)
    elif kind == "bis":
        yield from pict.writing_box(box.inset(0.35 * k), theme.ink, line)
    else:
        yield from pict.writing_box(box, theme.box_line, line, 0.3 * k)


def personalise(plan: SheetPlan, data: SheetData, theme: Theme, measure: Measure) -> tuple[Item, ...]:
    """The items of one sheet that differ from sheet to sheet."""
    smallest = MIN_TEXT * plan.size.scale
    items: list[Item] = []
    for box, number in zip(plan.lucky_boxes, data.lucky):
        items.append(_lucky_text(number, box, plan.size, plan.lucky_size, theme.ink, theme.bold, measure))
    if data.header and plan.header_box:
        items.append(_header_text(data.header, plan.header_box, plan.strip_size, theme.ink, measure, smallest))
    if data.serial is not None and plan.serial_box:
        items.append(fit_text(plan.serial_format.replace("{n}", f"{data.serial:06d}"), plan.serial_box,
                              plan.strip_size, theme.muted, measure, anchor="end", min_size=smallest, role="serial"))
    return tuple(items)


# A lucky number in its box, or a job's header, is the same text on thousands of
# sheets: fitted once (a text is plain data).  Serial numbers differ on every sheet.


@lru_cache(maxsize=1024)
def _lucky_text(number: int, box: Box, size: SheetSize, text_size: float, ink: RGB, bold: bool,
                measure: Measure) -> Text:
    return fit_text(str(number), inside_frame(box, size), text_size, ink, measure, bold=bold, anchor="middle",
                    min_size=text_size, role="lucky", condensed=True)


@lru_cache(maxsize=64)
def _header_text(header: str, box: Box, text_size: float, ink: RGB, measure: Measure, smallest: float) -> Text:
    return fit_text(header, box, text_size, ink, measure, min_size=smallest, role="header")
