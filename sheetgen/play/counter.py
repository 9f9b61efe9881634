"""The counter page: one self-contained HTML file to tap a game's sheets into.

``counter_html(grid, lang)`` fills the page's template (``data/counter.html``:
its HTML, CSS and JavaScript, readable, edited as one file) with data only:
the grid as JSON (``grid_as_data``, the same model the Python scorer reads),
the words of the language, the theme's colours (with the darker shades a
screen needs for contrast, ``theme_as_data``) and the sheet's pictures
(locks, power symbols, colour marks, arrows) drawn by the sheet's own
pictograms and written as SVG.  Python never writes JavaScript; the
template's engine implements the rules engine contract of docs/scoring.md
(``window.sheetgen.score``, ``window.sheetgen.legalMoves``) and the table's
live rules (``window.sheetgen.engine``) on that data, knowing no grid by name.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache

from ..grid.model import Colour, Grid, Symbol
from ..pdf.geometry import RGB, Box, Polygon
from ..pdf.svg import colour as css_colour
from ..pdf.svg import svg_picture
from ..sheet import pictograms as pict
from ..sheet.draw import SYMBOL_LINE
from ..sheet.plan import LOCK_W, SYMBOL
from ..sheet.style import (
    DATA,
    DEFAULT_LANG,
    DEFAULT_THEME,
    Labels,
    Theme,
    load_labels,
    load_theme,
)

TEMPLATE = DATA / "counter.html"
PLACES = ("lang", "title", "data")  # {{lang}}, {{title}}, {{data}} in the template, each once
PLACE = re.compile(r"\{\{(" + "|".join(PLACES) + r")\}\}")
MAX_PAGE_BYTES = 150 * 1024  # the bound issue 13 sets; tests hold every grid, language and theme to it
PICTURE = 10.0  # the side of every picture, in the user units of its SVG (mm on a 10 mm sheet cell)
CROSS_LINE = 1.1  # the player's cross over a cell, in PICTURE units
# Contrast ratios of WCAG 2.2: borders and icons (1.4.11), text (1.4.3), text at AAA (1.4.6).
BORDER_CONTRAST, TEXT_CONTRAST, STRONG_CONTRAST = 3.0, 4.5, 7.0
PAGE_WORDS = ("counter_", "colour_")  # the page's words, and the colours' names it makes keys of ("colour_red")
PAGE = (0.957, 0.957, 0.949)  # the page's background around the sheet, #f4f4f2
# Why the page refuses a move: each reason its live engine throws (``Refused``'s
# ``reason``) -> the words that say it (``counter_why_*`` of the language files)
# and what fills their ``{n}``: nothing, ``player`` (a name), ``players`` (the
# names that closed a row), ``n`` (a number) or ``message`` (the scorer's words).
# The page reads this table; tests/test_counter_refusals.py holds it to the
# reasons the page's engine throws and to every language.
REFUSALS: dict[str, tuple[str, str | None]] = {
    "over": ("counter_why_over", None),
    "move": ("counter_why_move", None),
    "form": ("counter_why_move", None),  # a stored table that is no table
    "pending": ("counter_why_pending", None),
    "pending-other": ("counter_why_pending_other", "player"),
    "nothing-pending": ("counter_why_nothing_pending", None),
    "not-fewest": ("counter_why_not_fewest", None),
    "active-only": ("counter_why_active_only", "player"),
    "acted": ("counter_why_acted", None),
    "penalty-taken": ("counter_why_penalty_taken", None),
    "lucky-action": ("counter_why_lucky_action", None),
    "lucky-row": ("counter_why_lucky_row", None),
    "row-locked": ("counter_why_row_locked", None),
    "row-closed": ("counter_why_row_closed", "players"),
    "crossed": ("counter_why_crossed", None),
    "left": ("counter_why_left", None),
    "threshold": ("counter_why_threshold", "n"),
    "bis-rightmost": ("counter_why_bis_rightmost", None),
    "impossible": ("counter_why_impossible", "message"),
    "penalty-active": ("counter_why_penalty_active", "player"),
    "penalty-crossed": ("counter_why_penalty_crossed", None),
    "penalty-once": ("counter_why_penalty_once", None),
    "penalty-due": ("counter_why_penalty_due", "player"),
}


def counter_html(grid: Grid, lang: str = DEFAULT_LANG, theme: str = DEFAULT_THEME, words: Labels | None = None,
                 pack_page: str | None = None, review: dict | None = None) -> str:
    """The counter page of ``grid`` in language ``lang`` (or in the ``words`` of
    a language file of the user's, whose language is not known: 'und') and
    print theme ``theme``; ``pack_page``: the address (relative to the page) of
    the download pack's page it belongs to, for a link back, or None for a page
    on its own; ``review``: the sheets `sheetgen scan --review` read, opened at
    start ({"players": marks of each with its "player", "check": [{"player",
    "problem"}]})."""
    labels, look = words or load_labels(lang), load_theme(theme)
    code = "und" if words is not None else lang
    data = page_data(grid, labels, look) | {"pack": pack_page} | ({"review": review} if review else {})
    return fill_template(TEMPLATE.read_text(encoding="utf-8"), code, labels.grid_title(grid), data)


def fill_template(template: str, lang: str, title: str, data: dict) -> str:
    """The template with its places filled: text escaped for HTML, data as
    JSON that cannot end its script element."""
    values = {"lang": html.escape(lang), "title": html.escape(title), "data": script_json(data)}
    for place in PLACES:
        marker = "{{" + place + "}}"
        if template.count(marker) != 1:
            raise ValueError(f"{TEMPLATE.name}: expected {marker} once, found it {template.count(marker)} times")
    # One pass: a title that reads "{{data}}" is text, not a place.
    return PLACE.sub(lambda match: values[match.group(1)], template)


def script_json(data: dict) -> str:
    """``data`` as JSON to put inside ``<script type="application/json">``: no
    ``<``, ``>`` or ``&`` appears raw, so no text in it (a grid's title, a
    word) can close the element or open a comment."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def page_data(grid: Grid, labels: Labels, theme: Theme) -> dict:
    """Everything the page reads: the grid, the words, the look."""
    return {
        "grid": grid_as_data(grid) | {"title": labels.grid_title(grid)},  # the title in the page's language
        "words": {key: text for key, text in labels.words if key.startswith(PAGE_WORDS) or key in named_in_page()},
        "look": theme_as_data(theme),
        "pictures": pictures(grid, theme),
        "refusals": {reason: {"words": words, "value": value} for reason, (words, value) in REFUSALS.items()},
    }


@cache
def named_in_page() -> frozenset[str]:
    """Every name the page's template quotes ("total", "penalty_box"...): the words it looks up by name,
    besides its own (``PAGE_WORDS``); the rules card's and the pack page's words stay out of the page."""
    return frozenset(re.findall(r'"([a-z][a-z0-9_]*)"', TEMPLATE.read_text(encoding="utf-8")))


def grid_as_data(grid: Grid) -> dict:
    """The grid model as plain JSON data: every field a rules engine reads,
    cells in full (number, colour, double, framed, symbol), nothing derived."""
    return {
        "name": grid.name,
        "title": grid.title,
        "dice_faces": grid.dice_faces,
        "close_after": grid.close_after,
        "penalty_boxes": grid.penalty_boxes,
        "penalty_points": grid.penalty_points,
        "cross_cap": grid.cross_cap,
        "bis": grid.bis,
        "bonus_bar": [colour.value for colour in grid.bonus_bar],
        "lucky": {"count": grid.lucky.count, "low": grid.lucky.low, "high": grid.lucky.high} if grid.lucky else None,
        "powers": [{"symbol": p.symbol.value, "effect": p.effect.value, "amount": p.amount} for p in grid.powers],
        "rows": [
            {"cells": [{"number": cell.number, "colour": cell.colour.value, "double": cell.double,
                        "framed": cell.framed, "symbol": cell.symbol.value if cell.symbol else None}
                       for cell in row.cells]}
            for row in grid.rows
        ],
    }


def theme_as_data(theme: Theme) -> dict:
    """The theme's colours as CSS writes them, and how its cells are drawn.

    Print colours are chosen for paper; a screen in daylight needs contrast
    (WCAG 2.2): ``edge`` is the colour's border, darkened where needed to
    stand 3:1 against white and its pale fill, ``text`` its numbers, 4.5:1 on
    the fill, and ``strong_edge``/``strong_text`` the same at 4.5:1 and 7:1
    for the page's high-contrast look."""
    colours = {}
    white = (1.0, 1.0, 1.0)
    for colour in Colour:
        tint = theme.tint(colour)
        backs = (white, tint.pale)
        colours[colour.value] = {"strong": css_colour(tint.strong), "pale": css_colour(tint.pale),
                                 "ink": css_colour(tint.ink),
                                 "hatch": css_colour(tint.hatch_ink) if tint.hatch else None,
                                 "edge": css_colour(darkened(tint.strong, backs, BORDER_CONTRAST)),
                                 "text": css_colour(darkened(tint.ink, backs, TEXT_CONTRAST)),
                                 "strong_edge": css_colour(darkened(tint.strong, backs, TEXT_CONTRAST)),
                                 "strong_text": css_colour(darkened(tint.ink, backs, STRONG_CONTRAST))}
    return {"colours": colours, "ink": css_colour(darkened(theme.ink, (white, PAGE), TEXT_CONTRAST)),
            "muted": css_colour(darkened(theme.muted, (white, PAGE), TEXT_CONTRAST)),
            "line": css_colour(darkened(theme.line, (white, PAGE), BORDER_CONTRAST)),
            "outlined": theme.outlined, "bold": theme.bold, "marks": theme.marks}


def luminance(rgb: RGB) -> float:
    """The relative luminance of WCAG 2: 0 for black, 1 for white."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """The contrast ratio of two colours, from 1 to 21."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def darkened(rgb: RGB, backgrounds: tuple[RGB, ...], ratio: float) -> RGB:
    """``rgb``, mixed with black in steps of 1 % until it stands ``ratio`` to 1
    against every colour of ``backgrounds`` (black always does, against light ones)."""
    for step in range(101):
        # As CSS writes it: whole 255ths, so that the colour on the page is the one measured.
        shade: RGB = tuple(round(c * (1 - step / 100) * 255) / 255 for c in rgb)  # type: ignore[assignment]
        if all(contrast(shade, back) >= ratio for back in backgrounds):
            return shade
    return (0.0, 0.0, 0.0)


def pictures(grid: Grid, theme: Theme) -> dict[str, str]:
    """The sheet's pictograms as SVG, by name: ``lock-red``, ``arrow-red``,
    ``mark-red`` (themes with colour marks), ``symbol-star``, and ``cross``,
    the player's cross.  Only what ``grid`` uses."""
    box = Box(0.0, 0.0, PICTURE, PICTURE)
    out: dict[str, str] = {}
    printed = {cell.colour for row in grid.rows for cell in row.cells} | set(grid.bonus_bar)
    used = [c for c in Colour if c in printed]
    for colour in used:
        tint = theme.tint(colour)
        # Lines keep their share of the picture: the lock is LOCK_W mm wide on the sheet.
        lock = pict.lock(box, tint, outlined=theme.outlined, line=theme.outline * PICTURE / LOCK_W, marked=theme.marks)
        out[f"lock-{colour.value}"] = svg_picture(lock, PICTURE, PICTURE, f"lock-{colour.value}")
        arrow = pict.arrow(box, tint.strong)
        out[f"arrow-{colour.value}"] = svg_picture(arrow, PICTURE, PICTURE, f"arrow-{colour.value}")
        if theme.marks:
            out[f"mark-{colour.value}"] = svg_picture(pict.mark(box, tint.mark, tint.ink), PICTURE, PICTURE)
    symbols = [s for s in Symbol if any(cell.symbol is s for row in grid.rows for cell in row.cells)]
    for symbol in symbols:
        items = pict.symbol(box, symbol, theme.ink, SYMBOL_LINE * PICTURE / SYMBOL)
        out[f"symbol-{symbol.value}"] = svg_picture(items, PICTURE, PICTURE)
    out["cross"] = svg_picture(cross(box, theme.ink), PICTURE, PICTURE)
    return out


def cross(box: Box, ink: RGB) -> tuple[Polygon, ...]:
    """A player's pen cross over ``box``: not on the printed sheet, only on the page."""
    inner = box.inset(box.w * 0.14)
    return (Polygon(((inner.x, inner.y), (inner.right, inner.bottom)), stroke=ink, line=CROSS_LINE, closed=False),
            Polygon(((inner.right, inner.y), (inner.x, inner.bottom)), stroke=ink, line=CROSS_LINE, closed=False))
