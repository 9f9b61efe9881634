"""Imposition: where the sheets of a page go, and the cut lines and marks.

Pure geometry in mm, origin at the top-left corner of the page.  ``impose``
finds how many sheets of a size a paper holds: as many columns and rows as
fit with ``EDGE`` free at every edge, on the paper upright or turned
(landscape) if turned holds more.  The sheets tile one block centred on the
page with no gap between them, so one cut serves two sheets; the block's
edges and the lines between sheets are dashed, and short solid marks in the
margin continue each cut line so that a guillotine can be lined up after the
dashes are cut away.  A page of one sheet has no cut lines: it is meant for
paper of that size (pre-cut cards, a print shop's own trimming), whose edge
is the cut.
"""

from __future__ import annotations

from ..errors import LayoutError
from ..records import record
from .geometry import Box, Item, Polygon

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a6": (105.0, 148.0)}  # upright: width, height
PAPER_NAMES = {"a4": "A4", "letter": "US Letter", "a6": "A6"}
EDGE = 5.0  # nothing is printed within this distance of the paper's edge
MARK_GAP = 0.5  # between the sheets and the start of a cut mark
MARK_LEN = 2.0  # the same on every paper: US Letter leaves 7.7 mm above and below the sheets, 5 of them blank
CUT_GREY = (0.55, 0.55, 0.55)


@record
class PagePlan:
    width: float  # of the page as printed: the paper's, or its height when turned
    height: float
    slots: tuple[Box, ...]  # reading order: left to right, top to bottom
    items: tuple[Item, ...]  # cut lines and marks, the same on every page

    @property
    def per_page(self) -> int:
        return len(self.slots)


def fit(paper: str, sheet_w: float, sheet_h: float) -> tuple[float, float, int, int]:
    """(page width, page height, columns, rows): the most sheets ``sheet_w`` x
    ``sheet_h`` mm that fit ``paper`` with ``EDGE`` free, upright first."""
    upright = PAPERS[paper]
    best = None
    for width, height in (upright, upright[::-1]):
        columns = int((width - 2 * EDGE + 1e-9) // sheet_w)
        rows = int((height - 2 * EDGE + 1e-9) // sheet_h)
        if best is None or columns * rows > best[2] * best[3]:
            best = (width, height, columns, rows)
    assert best is not None
    if best[2] * best[3] == 0:
        raise LayoutError(f"a sheet of {sheet_w:g} x {sheet_h:g} mm does not fit on {PAPER_NAMES[paper]} paper"
                          f" with {EDGE:g} mm free at every edge")
    return best


def impose(paper: str, sheet_w: float, sheet_h: float) -> PagePlan:
    """The page of ``paper`` holding the most sheets ``sheet_w`` x ``sheet_h`` mm."""
    width, height, columns, rows = fit(paper, sheet_w, sheet_h)
    block_w, block_h = columns * sheet_w, rows * sheet_h
    left, top = (width - block_w) / 2, (height - block_h) / 2
    slots = tuple(
        Box(left + c * sheet_w, top + r * sheet_h, sheet_w, sheet_h) for r in range(rows) for c in range(columns)
    )
    items = _cut_lines(width, height, left, top, sheet_w, sheet_h, columns, rows) if len(slots) > 1 else ()
    return PagePlan(width, height, slots, items)


def _cut_lines(width: float, height: float, left: float, top: float, sheet_w: float, sheet_h: float,
               columns: int, rows: int) -> tuple[Item, ...]:
    """Dashed lines along every cut, each continued by a mark at both ends."""
    xs = [left + c * sheet_w for c in range(columns + 1)]
    ys = [top + r * sheet_h for r in range(rows + 1)]
    right, bottom = xs[-1], ys[-1]
    items: list[Item] = []
    dash = (1.5, 1.5)
    for x in xs:
        items.append(Polygon(((x, top), (x, bottom)), stroke=CUT_GREY, line=0.15, closed=False, dash=dash))
        items.extend(_mark(x, top, 0, -1, height) + _mark(x, bottom, 0, 1, height))
    for y in ys:
        items.append(Polygon(((left, y), (right, y)), stroke=CUT_GREY, line=0.15, closed=False, dash=dash))
        items.extend(_mark(left, y, -1, 0, width) + _mark(right, y, 1, 0, width))
    return tuple(items)


def _mark(x: float, y: float, dx: int, dy: int, extent: float) -> list[Item]:
    """A cut mark continuing a cut line outwards from the block edge at (x, y),
    in direction (dx, dy), kept out of the ``EDGE`` strip of the paper."""
    at = x if dx else y  # the coordinate that moves
    start = at + (dx or dy) * MARK_GAP
    end = at + (dx or dy) * (MARK_GAP + MARK_LEN)
    end = max(EDGE, end) if (dx or dy) < 0 else min(extent - EDGE, end)
    if (end - start) * (dx or dy) < 0.5:  # no room for a visible mark
        return []
    points = ((start, y), (end, y)) if dx else ((x, start), (x, end))
    return [Polygon(points, stroke=(0, 0, 0), line=0.2, closed=False)]
