"""Drawing primitives as plain data, in millimetres.

Coordinates are local to the thing being drawn (a sheet, a page), with the
origin at the top-left corner and y growing downwards, as one reads a page.
Colours are RGB triples from 0 to 1.  Only the renderer turns these into
PDF operators (and points).
"""

from __future__ import annotations

from dataclasses import replace

from ..records import record

RGB = tuple[float, float, float]


@record
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def inset(self, d: float) -> Box:
        return Box(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def contains(self, other: Box, tolerance: float = 1e-6) -> bool:
        return (
            other.x >= self.x - tolerance
            and other.y >= self.y - tolerance
            and other.right <= self.right + tolerance
            and other.bottom <= self.bottom + tolerance
        )

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.right - 1e-6
            and other.x < self.right - 1e-6
            and self.y < other.bottom - 1e-6
            and other.y < self.bottom - 1e-6
        )

    def shifted(self, dx: float, dy: float) -> Box:
        return replace(self, x=self.x + dx, y=self.y + dy)


@record
class Rect:
    box: Box
    fill: RGB | None = None
    stroke: RGB | None = None
    line: float = 0.2  # stroke width, mm
    radius: float = 0.0  # corner radius, mm
    hatch: float = 0.0  # spacing of horizontal hatching lines in the stroke colour, 0 = none


@record
class Circle:
    cx: float
    cy: float
    r: float
    fill: RGB | None = None
    stroke: RGB | None = None
    line: float = 0.2


@record
class Polygon:
    """A path through ``points``; closed and fillable unless ``closed`` is False."""

    points: tuple[tuple[float, float], ...]
    fill: RGB | None = None
    stroke: RGB | None = None
    line: float = 0.2
    closed: bool = True
    dash: tuple[float, ...] = ()


@record
class Text:
    """One line of text; ``x`` is its start, centre or end by ``anchor``; ``y`` is the baseline.

    ``size`` is the font size (em) in mm; ``stretch`` narrows text meant to be
    narrowed (< 1); ``condensed`` picks the condensed face (cell numbers).
    ``box`` is the area the text must stay inside (checked by the plan and tests).
    ``light`` prints digits in the condensed face's light weight (cell numbers in
    a look that saves ink), as wide as in the condensed face; other text in the face
    it would print in anyway.
    """

    x: float
    y: float
    text: str
    size: float
    colour: RGB
    bold: bool = False
    anchor: str = "start"  # start | middle | end
    stretch: float = 1.0
    box: Box | None = None
    role: str = ""  # what it is, for tests: "number", "label", "legend", ...
    condensed: bool = False
    light: bool = False


@record
class Code:
    """A QR code of ``text`` filling ``box`` (its quiet zone included), black on white: the
    machine-readable line of a sheet (``sheet/machine.py``).  Only the renderer encodes it."""

    box: Box
    text: str
    quiet: int = 2  # modules of white around the symbol, inside ``box``


Item = Rect | Circle | Polygon | Text | Code


@record
class Drawing:
    """Items drawn in a space ``width`` x ``height`` mm: the art of one sheet."""

    width: float
    height: float
    items: tuple[Item, ...]


def bounds(item: Item) -> Box:
    """The area ``item`` covers (text: its box when it has one)."""
    if isinstance(item, Rect):
        return item.box
    if isinstance(item, Circle):
        return Box(item.cx - item.r, item.cy - item.r, 2 * item.r, 2 * item.r)
    if isinstance(item, Code):
        return item.box
    if isinstance(item, Polygon):
        xs = [p[0] for p in item.points]
        ys = [p[1] for p in item.points]
        return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    if item.box is not None:
        return item.box
    raise ValueError("text without a box has no known bounds")


@record
class Placed:
    """A drawing put on a page: its top-left corner at (``x``, ``y``), every
    length multiplied by ``scale``."""

    drawing: Drawing
    x: float
    y: float
    scale: float = 1.0

    @property
    def box(self) -> Box:
        return Box(self.x, self.y, self.drawing.width * self.scale, self.drawing.height * self.scale)

    def on_page(self, box: Box) -> Box:
        """Where ``box``, in the drawing's mm, is on the page."""
        k = self.scale
        return Box(self.x + box.x * k, self.y + box.y * k, box.w * k, box.h * k)
