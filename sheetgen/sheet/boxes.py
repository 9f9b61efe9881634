"""The sheet plan's records: every box of one sheet and what it means, in mm.

``plan.plan_sheet`` makes a ``SheetPlan`` from these; ``draw.draw_sheet``
turns it into drawing items.  The bands the plan is made of (``StripBand``,
``TitleBand``, ``RowsBand``...) are records too, so that a renamed field fails
at type-check time instead of at run time.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..grid.model import Colour, Symbol
from ..pdf.geometry import Box, Text
from ..records import record


@record
class SheetSize:
    """A sheet's trimmed size in mm; ``scale``: how much bigger its type,
    minimum sizes, line widths and fixed band heights are than the standard's;
    ``papers``: the papers it is printed on, the first the default (the
    imposition finds how many sheets a page holds)."""

    name: str
    width: float
    height: float
    scale: float = 1.0
    papers: tuple[str, ...] = ("a4", "letter")


# -- the plan -----------------------------------------------------------------------


@record
class CellPlan:
    """One cell of a row: what it is and where its parts go."""

    row: int
    index: int
    number: int
    colour: Colour
    double: bool
    framed: bool
    symbol: Symbol | None
    box: Box  # the whole cell, frames included
    pale: Box  # the background inside the cell's colour frame
    frame: float  # width of the cell's colour frame (band or line)
    text: Text  # the number
    mark_box: Box | None = None  # the colour mark, when the theme prints marks
    symbol_box: Box | None = None
    bis_box: Box | None = None
    second: Box | None = None  # a double cell's second frame
    second_line: float = 0.0  # and the width of its line
    heavy: float = 0.0  # a framed cell's dark frame, mm


@record
class ArrowPlan:
    """The direction hint at the start of a row: crosses go this way."""

    row: int
    box: Box
    direction: str  # "right": left to right, the reading direction
    colour: Colour | None  # the row's colour, None for a row of many colours


@record
class LockPlan:
    row: int
    box: Box
    colour: Colour  # the colour of the row's last cell: the die that leaves the game
    hint: Text | None = None  # "7x" when the row closes after another number of crosses than 5


@record
class ColourBox:
    """A box to cross or write in, in a colour's look (bonus bar, row totals)."""

    index: int
    box: Box
    colour: Colour


@record
class PenaltyBox:
    index: int
    box: Box
    points: int  # what a cross here costs
    text: Text  # "−5"


@record
class TotalBox:
    """A box of the totals line: a row's points (in its lock colour, or white
    and captioned "Row 2" when its cells have several colours), the powers'
    points, the penalties or the total."""

    kind: str  # "row", "powers", "penalties" or "total"
    box: Box
    row: int | None = None
    colour: Colour | None = None
    caption: Text | None = None


@record
class TableColumn:
    crosses: int
    points: int
    box: Box  # both lines of the column
    header: Text  # "3x"
    value: Text  # "6"


@record
class LegendEntry:
    """A marker and its explanation.  ``marker`` is a power symbol, a colour
    (the key to the colour marks), a hint text ("7x"), or one of "double",
    "framed", "bis"; "" for a line of text alone."""

    marker: Symbol | Colour | str
    marker_box: Box | None
    text: Text
    hint: Text | None = None  # the marker, when it is a text


@record
class SheetPlan:
    size: SheetSize
    content: Box  # everything printed stays inside
    title: Text
    name_label: Text
    name_line: Box  # a line along the bottom of this box (height 0)
    cells: tuple[CellPlan, ...]
    arrows: tuple[ArrowPlan, ...]
    locks: tuple[LockPlan, ...]
    legend: tuple[LegendEntry, ...]
    table_labels: tuple[Text, ...]  # "Crosses", "Points"
    table_box: Box
    table: tuple[TableColumn, ...]
    penalties_label: Text
    penalties: tuple[PenaltyBox, ...]
    totals: tuple[TotalBox, ...]
    operators: tuple[Text, ...]  # between the totals boxes, in order
    key: tuple[LegendEntry, ...] = ()  # the key to the colour marks, when it shares the title band
    bar_label: Text | None = None
    bar: tuple[ColourBox, ...] = ()
    lucky_label: Text | None = None
    lucky_boxes: tuple[Box, ...] = ()
    lucky_size: float = 0.0  # font size of the lucky numbers, mm (the widest of the grid's range fits)
    header_box: Box | None = None
    serial_box: Box | None = None
    serial_format: str = ""  # the serial label, "{n}" standing for the number
    strip_size: float = 0.0  # font size of the header line and serial number, mm
    machine: MachinePlan | None = None  # None when the marks are switched off
    marks: bool = False  # the colour marks print (the theme's, or a grid whose rows have several colours)

    @property
    def width(self) -> float:
        return self.size.width

    @property
    def height(self) -> float:
        return self.size.height

    def texts(self) -> Iterator[Text]:
        """Every text the plan prints, in no particular order."""
        yield self.title
        yield self.name_label
        for text in (self.lucky_label, self.bar_label, self.penalties_label):
            if text is not None:
                yield text
        for cell in self.cells:
            yield cell.text
        for lock in self.locks:
            if lock.hint is not None:
                yield lock.hint
        for entry in self.key + self.legend:
            yield entry.text
            if entry.hint is not None:
                yield entry.hint
        yield from self.table_labels
        for column in self.table:
            yield column.header
            yield column.value
        for box in self.penalties:
            yield box.text
        for total in self.totals:
            if total.caption is not None:
                yield total.caption
        yield from self.operators


@record
class SheetData:
    """What differs from sheet to sheet."""

    lucky: tuple[int, ...] = ()
    serial: int | None = None
    header: str = ""




@record
class MachinePlan:
    """Room for the marks a scanner reads back: nothing else prints there."""

    fiducials: tuple[Box, ...]  # four squares: top-left, top-right, bottom-right, bottom-left, sheet mm
    code: Box | None  # a square for a QR code, its quiet zone included; None where no room


# -- the bands a plan is made of, top to bottom ------------------------------------------


@record
class StripBand:
    """The strip above the title: a per-sheet header line and serial number."""

    strip_size: float
    header_box: Box | None = None
    serial_box: Box | None = None
    serial_format: str = ""


@record
class TitleBand:
    title: Text
    name_label: Text
    name_line: Box
    key: tuple[LegendEntry, ...] = ()
    lucky_label: Text | None = None
    lucky_boxes: tuple[Box, ...] = ()
    lucky_size: float = 0.0
    code: Box | None = None  # the machine code's square, when the band keeps one free


@record
class RowsBand:
    cells: tuple[CellPlan, ...]
    arrows: tuple[ArrowPlan, ...]
    locks: tuple[LockPlan, ...]
    cells_x: float  # where the rows' first cells start: the bonus bar's boxes line up with them


@record
class BarBand:
    bar_label: Text
    bar: tuple[ColourBox, ...]


@record
class TableBand:
    table_labels: tuple[Text, ...]
    table_box: Box
    table: tuple[TableColumn, ...]


@record
class PenaltiesBand:
    penalties_label: Text
    penalties: tuple[PenaltyBox, ...]


@record
class TotalsBand:
    totals: tuple[TotalBox, ...]
    operators: tuple[Text, ...]
