"""Drawing items as SVG text, for web pages: the same shapes the PDF prints.

``svg_picture`` writes items (``geometry``: millimetres, top-left origin, y
downwards, as SVG has it) as one ``<svg>`` element whose user units are those
millimetres, so that the browser scales the picture to whatever box the page
gives it.  Pure text, no library; what it writes is markup, so every value in
it is a number or a colour it formats itself, and text is escaped.
"""

from __future__ import annotations

import html

from .geometry import RGB, Circle, Code, Item, Polygon, Rect, Text

HATCH_LINE = 0.15  # mm, as the PDF renderer draws hatching


def svg_picture(items: tuple[Item, ...] | list[Item], width: float, height: float, ident: str = "p") -> str:
    """``items`` in a ``width`` x ``height`` mm picture.  ``ident`` names the
    picture's own definitions (hatching clips): unique among the pictures of
    one page, since SVG ids share the page's name space."""
    parts = [_item(item, f"{ident}-{n}") for n, item in enumerate(items)]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}"'
            f' aria-hidden="true" focusable="false">{"".join(parts)}</svg>')


def colour(rgb: RGB) -> str:
    """An RGB triple from 0 to 1 as CSS writes it: ``#d92933``."""
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in rgb)


def _n(value: float) -> str:
    """A length with what a picture needs (a thousandth of a mm), no trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _paint(fill: RGB | None, stroke: RGB | None, line: float) -> str:
    out = f' fill="{colour(fill)}"' if fill is not None else ' fill="none"'
    if stroke is not None and line > 0:
        out += f' stroke="{colour(stroke)}" stroke-width="{_n(line)}"'
    return out


def _item(item: Item, ident: str) -> str:
    if isinstance(item, Rect):
        return _rect(item, ident)
    if isinstance(item, Circle):
        return (f'<circle cx="{_n(item.cx)}" cy="{_n(item.cy)}" r="{_n(item.r)}"'
                f'{_paint(item.fill, item.stroke, item.line)}/>')
    if isinstance(item, Polygon):
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in item.points)
        tag = "polygon" if item.closed else "polyline"
        fill = item.fill if item.closed else None
        dash = f' stroke-dasharray="{" ".join(_n(d) for d in item.dash)}"' if item.dash else ""
        ends = ' stroke-linecap="round" stroke-linejoin="round"' if not item.closed else ' stroke-linejoin="round"'
        return f'<{tag} points="{points}"{_paint(fill, item.stroke, item.line)}{dash}{ends}/>'
    if isinstance(item, Code):
        return ""  # a sheet's machine code is for the printed sheet only, not a web page's picture of it
    return _text(item)


def _rect(item: Rect, ident: str) -> str:
    box = item.box
    corner = f' rx="{_n(item.radius)}"' if item.radius > 0 else ""
    shape = f'x="{_n(box.x)}" y="{_n(box.y)}" width="{_n(box.w)}" height="{_n(box.h)}"{corner}'
    if not item.hatch:
        return f"<rect {shape}{_paint(item.fill, item.stroke, item.line)}/>"
    # Hatching as the PDF prints it: diagonal lines ``hatch`` mm apart, in the
    # stroke colour, clipped to the (rounded) box, between its fill and its edge.
    ink = item.stroke or (0.0, 0.0, 0.0)
    lines, offset = [], -box.h
    while offset < box.w:
        start = box.x + offset
        lines.append(f"M{_n(start)} {_n(box.bottom)}L{_n(start + box.h)} {_n(box.y)}")
        offset += item.hatch
    return (f'<clipPath id="{ident}"><rect {shape}/></clipPath>'
            f'<rect {shape}{_paint(item.fill, None, 0)}/>'
            f'<path d="{"".join(lines)}" clip-path="url(#{ident})"'
            f' stroke="{colour(ink)}" stroke-width="{_n(HATCH_LINE)}"/>'
            f'<rect {shape}{_paint(None, item.stroke, item.line)}/>')


def _text(item: Text) -> str:
    weight = ' font-weight="bold"' if item.bold else ' font-weight="200"' if item.light else ""
    stretch = ' font-stretch="condensed"' if item.condensed else ""
    return (f'<text x="{_n(item.x)}" y="{_n(item.y)}" font-size="{_n(item.size)}" font-family="DejaVu Sans, sans-serif"'
            f' text-anchor="{item.anchor}" fill="{colour(item.colour)}"{weight}{stretch}>'
            f'{html.escape(item.text)}</text>')
