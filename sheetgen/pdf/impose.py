"""Imposition: where the sheets of a page go, and the cut lines and marks.

Pure geometry in mm, origin at the top-left corner of the paper.  Sheets
tile a 2 x 4 block centred on the paper with no gap between them, so one cut
serves two sheets; the block's edges and the lines between sheets are dashed,
and short solid marks in the margin continue each cut line so that a guillotine
can be lined up after the dashes are cut away.
"""

from __future__ import annotations


from ..records import record
from ..errors import LayoutError
from .geometry import Box, Item, Polygon

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
COLUMNS, ROWS = 2, 4
EDGE = 5.0  # nothing is printed within this distance of the paper's edge
MARK_GAP = 0.5  # between the sheets and the start of a cut mark
MARK_LEN = 2.0  # the same on every paper: US Letter leaves 7.7 mm above and below the sheets, 5 of them blank
CUT_GREY = (0.55, 0.55, 0.55)


@record
class PagePlan:
    width: float
    height: float
    slots: tuple[Box, ...]  # reading order: left to right, top to bottom
    items: tuple[Item, ...]  # cut lines and marks, the same on every page

    @property
    def per_page(self) -> int:
        return len(self.slots)


def impose(paper: str, sheet_w: float, sheet_h: float) -> PagePlan:
    width, height = PAPERS[paper]
    block_w, block_h = COLUMNS * sheet_w, ROWS * sheet_h
    left, top = (width - block_w) / 2, (height - block_h) / 2
    if min(left, top) < EDGE:
        raise LayoutError(f"{COLUMNS} x {ROWS} sheets of {sheet_w} x {sheet_h} mm leave less than {EDGE} mm on {paper}")
    slots = tuple(
        Box(left + c * sheet_w, top + r * sheet_h, sheet_w, sheet_h) for r in range(ROWS) for c in range(COLUMNS)
    )
    xs = [left + c * sheet_w for c in range(COLUMNS + 1)]
    ys = [top + r * sheet_h for r in range(ROWS + 1)]
    right, bottom = xs[-1], ys[-1]
    items: list[Item] = []
    dash = (1.5, 1.5)
    for x in xs:
        items.append(Polygon(((x, top), (x, bottom)), stroke=CUT_GREY, line=0.15, closed=False, dash=dash))
        items.extend(_mark(x, top, 0, -1, height) + _mark(x, bottom, 0, 1, height))
    for y in ys:
        items.append(Polygon(((left, y), (right, y)), stroke=CUT_GREY, line=0.15, closed=False, dash=dash))
        items.extend(_mark(left, y, -1, 0, width) + _mark(right, y, 1, 0, width))
    return PagePlan(width, height, slots, tuple(items))


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
