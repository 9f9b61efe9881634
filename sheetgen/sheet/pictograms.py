"""The shapes of a sheet: pure functions from a box (mm) to drawing items.

Each pictogram is drawn inside the box it is given, in the colours it is
given; none looks anything up or keeps state.  ``draw.draw_sheet`` decides
which pictogram goes in which box of the plan, and in which colours.
"""

from __future__ import annotations

import math

from ..grid.model import Symbol
from ..pdf.geometry import RGB, Box, Circle, Item, Polygon, Rect
from .style import Mark, Tint

WHITE: RGB = (1.0, 1.0, 1.0)


def tinted(box: Box, tint: Tint, radius: float, line: float = 0.0, fill: RGB | None = None) -> tuple[Item, ...]:
    """``box`` in a colour's background (or ``fill``), hatched if the colour
    is, outlined in its strong colour when ``line`` (mm) is not 0."""
    outline = tint.strong if line else None
    background = fill or tint.pale
    if not tint.hatch or fill is not None:
        return (Rect(box, fill=background, stroke=outline, line=line, radius=radius),)
    # The renderer hatches in the stroke colour: a hairline edge in it, under the outline.
    hatched = Rect(box, fill=background, stroke=tint.hatch_ink, line=0.05, radius=radius, hatch=tint.hatch)
    return (hatched, Rect(box, stroke=outline, line=line, radius=radius)) if line else (hatched,)


def mark(box: Box, shape: Mark, colour: RGB) -> tuple[Item, ...]:
    """The mark ``shape`` filled in ``colour`` inside the square ``box``.
    Marks share no shape with the power symbols (circle, diamond, square,
    octagon, star), so that neither is read for the other."""
    x, y, w = box.x, box.y, box.w
    if shape is Mark.TRIANGLE:  # pointing up
        return (Polygon(((x, y + w * 0.9), (box.cx, y + w * 0.05), (box.right, y + w * 0.9)), fill=colour),)
    if shape is Mark.WEDGE:  # pointing down
        return (Polygon(((x, y + w * 0.1), (box.right, y + w * 0.1), (box.cx, y + w * 0.95)), fill=colour),)
    if shape is Mark.BAR:
        return (Rect(Box(x, box.cy - w * 0.2, w, w * 0.4), fill=colour),)
    # bow tie: two triangles meeting at the centre
    return (Polygon(((x, y + w * 0.1), (box.cx, box.cy), (x, y + w * 0.9)), fill=colour),
            Polygon(((box.right, y + w * 0.1), (box.cx, box.cy), (box.right, y + w * 0.9)), fill=colour))


def swatch(box: Box, tint: Tint, line: float) -> tuple[Item, ...]:
    """For the key to the colour marks: a square of the colour's background with its mark on it."""
    return tinted(box, tint, 0.3, line) + mark(box.inset(box.w * 0.18), tint.mark, tint.ink)


def cell_frame(pale: Box, tint: Tint, frame: float, *, outlined: bool, radius: float,
               fill: RGB | None = None, dash: tuple[float, ...] = ()) -> tuple[Item, ...]:
    """A cell: a band (filled) or a line (``outlined``) of its strong colour,
    ``frame`` mm wide, around its background ``pale`` (in ``fill`` if given);
    ``radius`` is the corner radius of the frame's outer edge.  An outlined
    cell's line is dashed (on, off, ... mm) when ``dash`` is given."""
    if outlined and dash:
        box, inner = pale.inset(-frame / 2), max(0.0, radius - frame / 2)
        return tinted(box, tint, inner, fill=fill) + (
            Polygon(rounded(box, inner), stroke=tint.strong, line=frame, dash=dash),)
    if outlined:
        return tinted(pale.inset(-frame / 2), tint, max(0.0, radius - frame / 2), frame, fill)
    return (Rect(pale.inset(-frame), fill=tint.strong, radius=radius),) + tinted(
        pale, tint, max(0.0, radius - frame), fill=fill)


def rounded(box: Box, radius: float, steps: int = 4) -> tuple[tuple[float, float], ...]:
    """The outline of ``box`` with corners rounded by ``radius``, as points
    (``steps`` segments a corner), clockwise from the top right corner."""
    corners = ((box.right - radius, box.y + radius, -math.pi / 2), (box.right - radius, box.bottom - radius, 0.0),
               (box.x + radius, box.bottom - radius, math.pi / 2), (box.x + radius, box.y + radius, math.pi))
    return tuple((cx + radius * math.cos(start + math.pi / 2 * k / steps),
                  cy + radius * math.sin(start + math.pi / 2 * k / steps))
                 for cx, cy, start in corners for k in range(steps + 1))


def heavy_frame(box: Box, colour: RGB, width: float, radius: float) -> tuple[Item, ...]:
    """One heavy line just inside ``box`` (corner radius ``radius`` outside):
    a framed (bonus) cell.  A single thick line, where a double cell has two thin ones."""
    return (Rect(box.inset(width / 2), stroke=colour, line=width, radius=max(0.0, radius - width / 2)),)


def double_frame(box: Box, colour: RGB, line: float, radius: float) -> tuple[Item, ...]:
    """A second frame, ``line`` mm thick, inside ``box``: a double cell."""
    return (Rect(box.inset(line / 2), stroke=colour, line=line, radius=radius),)


def writing_box(box: Box, colour: RGB, line: float, radius: float = 0.0) -> tuple[Item, ...]:
    """A white box to write or cross in (lucky numbers, penalties, Bis boxes, totals)."""
    return (Rect(box.inset(line / 2), fill=WHITE, stroke=colour, line=line, radius=radius),)


def arrow(box: Box, colour: RGB, direction: str = "right") -> tuple[Item, ...]:
    """A triangle pointing the way crosses go."""
    h = min(box.h * 0.6, box.w * 1.4)
    tip, base = (box.right, box.x) if direction == "right" else (box.x, box.right)
    return (Polygon(((base, box.cy - h / 2), (tip, box.cy), (base, box.cy + h / 2)), fill=colour),)


def lock(box: Box, tint: Tint, *, outlined: bool, line: float, marked: bool) -> tuple[Item, ...]:
    """A padlock on a disc of the lock's colour: white on its strong colour,
    or, ``outlined``, in its numbers' colour on its background.  ``marked``:
    the colour's mark, large, is the padlock's body."""
    w = box.w
    if outlined:  # the colour's background, hatched if it is, as on its cells: a disc is a box this round
        disc = tinted(box.inset(line / 2), tint, (w - line) / 2, line)
        metal, keyhole = tint.ink, WHITE  # the numbers' colour: a light outline's would not show
    else:
        disc = (Circle(box.cx, box.cy, w / 2, fill=tint.strong),)
        metal, keyhole = WHITE, tint.ink
    if marked:  # a bigger body, for a mark big enough to read
        body = Box(box.cx - w * 0.27, box.y + w * 0.38, w * 0.54, w * 0.44)
    else:
        body = Box(box.cx - w * 0.22, box.y + w * 0.45, w * 0.44, w * 0.32)
    radius = w * 0.14
    arc = tuple((box.cx + radius * math.cos(math.pi * k / 10), body.y - radius * math.sin(math.pi * k / 10) + 0.05)
                for k in range(11))
    shackle = Polygon(((arc[0][0], body.y + 0.1),) + arc + ((arc[-1][0], body.y + 0.1),), stroke=metal,
                      line=w * 0.07, closed=False)
    items: tuple[Item, ...] = disc + (Rect(body, fill=metal, radius=w * 0.04), shackle)
    if marked:
        side = body.h * 0.8
        items += mark(Box(body.cx - side / 2, body.cy - side / 2, side, side), tint.mark, keyhole)
    return items


def symbol(box: Box, shape: Symbol, ink: RGB, line: float, paper: RGB = WHITE) -> tuple[Item, ...]:
    """A power symbol inside the square ``box``: an outline in ``ink`` on
    ``paper``, but for the octagon, solid ``ink``; five shapes told apart by
    their outline and fill at arm's length."""
    r = box.w / 2 - line / 2
    cx, cy = box.cx, box.cy

    def ring(count: int, radius: float, turn: float) -> tuple[tuple[float, float], ...]:
        return tuple((cx + radius * math.cos(turn + 2 * math.pi * k / count),
                      cy + radius * math.sin(turn + 2 * math.pi * k / count)) for k in range(count))

    if shape is Symbol.CIRCLE:
        return (Circle(cx, cy, r, fill=paper, stroke=ink, line=line),)
    if shape is Symbol.DIAMOND:
        return (Polygon(ring(4, r, -math.pi / 2), fill=paper, stroke=ink, line=line),)
    if shape is Symbol.SQUARE:
        return (Rect(box.inset(box.w * 0.12), fill=paper, stroke=ink, line=line),)
    if shape is Symbol.OCTAGON:  # solid: the one filled symbol, never read for the circle
        return (Polygon(ring(8, r, math.pi / 8), fill=ink, stroke=ink, line=line),)
    points = tuple((cx + (r if k % 2 == 0 else r * 0.45) * math.cos(-math.pi / 2 + math.pi * k / 5),
                    cy + (r if k % 2 == 0 else r * 0.45) * math.sin(-math.pi / 2 + math.pi * k / 5))
                   for k in range(10))
    return (Polygon(points, fill=paper, stroke=ink, line=line),)
