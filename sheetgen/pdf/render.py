"""The only module that imports reportlab: geometry in, PDF bytes out.

The sheet's drawing and imposition hand over items in mm with a top-left origin; here
they become points with PDF's bottom-left origin.  The sheet that is the same
everywhere is drawn once as a form XObject and placed in every slot; only the
per-sheet items (lucky numbers, serial, header) are drawn per slot, and the
cut lines once per page as another form.  Output is deterministic:
reportlab's invariant mode fixes dates and document ids.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
import os
import unicodedata
from contextlib import contextmanager
from functools import lru_cache
from typing import Iterable, Iterator, Sequence

# reportlab takes settings from RL_* environment variables when it is first
# imported: RL_pdfComments=1 would change the bytes, a malformed value stop the
# import.  sheetgen's output depends on its inputs only, so they are hidden.
_RL_SETTINGS = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith("RL_")}
try:
    from reportlab import rl_config
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
finally:
    os.environ.update(_RL_SETTINGS)

from ..errors import LayoutError
from .geometry import Circle, Drawing, Item, Polygon, Rect, Text
from .impose import PagePlan
from .truetype import slim_truetype
from ..grid.validate import one_of

# DejaVu Sans, the extended Vera family, subset by scripts/fonts.py to the Latin
# letters of Western, Central and Eastern Europe and the sheets' punctuation.
# The condensed faces print cell numbers (two digits fit a narrow cell); bold
# text is always in the condensed bold face, so that a sheet embeds one bold face.
FONTS = {"DejaVuSans": "DejaVuSans.ttf", "DejaVuSansCondensed": "DejaVuSansCondensed.ttf",
         "DejaVuSansCondensed-Bold": "DejaVuSansCondensed-Bold.ttf"}
FONT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fonts")

rl_config.useA85 = 0  # ASCII85 wrapping adds a quarter to every stream; PDF does not need it


def _font(bold: bool, condensed: bool = False) -> str:
    """The face that prints text ``bold`` and/or ``condensed``: bold is condensed bold."""
    name = "DejaVuSansCondensed-Bold" if bold else "DejaVuSansCondensed" if condensed else "DejaVuSans"
    return _registered(name)


@lru_cache(maxsize=None)
def _registered(name: str) -> str:
    if name not in pdfmetrics.getRegisteredFontNames():
        # an absolute path: a bare name makes reportlab try it as a URL first (and import urllib).
        # Not ASCII-readable: reportlab would otherwise reserve the whole of ASCII in the first
        # subset and embed its 95 glyphs, where a sheet prints some twenty; the text still reads
        # back through each subset's ToUnicode map.
        font = TTFont(name, os.path.join(FONT_DIR, FONTS[name]), asciiReadable=False)
        face = font.face
        full_subset = face.makeSubset
        face.makeSubset = lambda subset: slim_truetype(full_subset(subset))
        pdfmetrics.registerFont(font)
    return name


def measure_text(text: str, bold: bool, size: float, condensed: bool = False) -> float:
    """Width of ``text`` in mm at font size ``size`` mm, in the bold (condensed
    bold) or the condensed face, or the regular one.  Text with a character
    the sheet's fonts cannot print raises ``LayoutError``: it would print as
    nothing, and every text is measured before it is placed."""
    missing = unprintable(text)
    if missing:
        raise LayoutError(no_glyph(missing))
    return pdfmetrics.stringWidth(text, _font(bold, condensed), size)


def no_glyph(missing: str) -> str:
    """What to say of text with the characters ``missing``, which the sheet's fonts do not print."""
    return (f"the sheet's font has no {one_of([repr(ch) for ch in missing])}"
            " (expected European Latin letters, digits and punctuation)")


@lru_cache(maxsize=None)
def _printable() -> frozenset[str]:
    """Every character all faces print."""
    def drawn(face) -> set[int]:
        glyphs, offsets = face.charToGlyph, face.glyphPos  # a glyph's outline is offsets[g] to offsets[g + 1]
        return {code for code, glyph in glyphs.items()
                if glyph and (offsets[glyph] < offsets[glyph + 1] or unicodedata.category(chr(code)) == "Zs")}

    codes = set.intersection(*(drawn(pdfmetrics.getFont(_registered(name)).face) for name in FONTS))
    return frozenset(chr(code) for code in codes if unicodedata.category(chr(code)) not in ("Cc", "Cs", "Co", "Cn"))


def unprintable(text: str) -> str:
    """The characters of ``text`` that would not print, each once, in order:
    those some face of the sheet's fonts (regular, condensed, condensed bold)
    has no glyph for, or maps to the empty box of a missing glyph (glyph 0) or
    to a glyph without outline when they are not spaces, and what is not a
    character to print at all (controls, surrogates, noncharacters).  Any text
    may be drawn in any face, so what prints is what every face prints."""
    return "".join(dict.fromkeys(ch for ch in text if ch not in _printable()))


class _Painter:
    """Draws items given in mm, top-left origin, in a space ``height`` mm tall."""

    def __init__(self, canvas: Canvas, height: float):
        self.c, self.height = canvas, height

    def point(self, x: float, y: float) -> tuple[float, float]:
        return x * mm, (self.height - y) * mm

    def colours(self, fill, stroke, line: float, dash: Sequence[float] = ()) -> tuple[int, int]:
        c = self.c
        if fill is not None:
            c.setFillColorRGB(*fill)
        if stroke is not None:
            c.setStrokeColorRGB(*stroke)
            c.setLineWidth(line * mm)
            c.setDash([d * mm for d in dash] if dash else [])
        return int(stroke is not None), int(fill is not None)

    def draw(self, items: Iterable[Item]) -> None:
        for item in items:
            if isinstance(item, Text):
                self.text(item)
            elif isinstance(item, Rect):
                self.rect(item)
            elif isinstance(item, Circle):
                stroke, fill = self.colours(item.fill, item.stroke, item.line)
                x, y = self.point(item.cx, item.cy)
                self.c.circle(x, y, item.r * mm, stroke=stroke, fill=fill)
            elif isinstance(item, Polygon):
                stroke, fill = self.colours(item.fill, item.stroke, item.line, item.dash)
                path = self.c.beginPath()
                path.moveTo(*self.point(*item.points[0]))
                for p in item.points[1:]:
                    path.lineTo(*self.point(*p))
                if item.closed:
                    path.close()
                self.c.drawPath(path, stroke=stroke, fill=fill and item.closed)

    def rect(self, item: Rect) -> None:
        stroke, fill = self.colours(item.fill, item.stroke, item.line)
        box = item.box
        x, y = self.point(box.x, box.bottom)
        if item.radius > 0:
            self.c.roundRect(x, y, box.w * mm, box.h * mm, item.radius * mm, stroke=stroke, fill=fill)
        else:
            self.c.rect(x, y, box.w * mm, box.h * mm, stroke=stroke, fill=fill)
        if item.hatch > 0 and item.stroke is not None:
            self.hatch(item)

    def hatch(self, item: Rect) -> None:
        """Diagonal lines across the box, clipped to it (rounded corners included)."""
        c, box = self.c, item.box
        c.saveState()
        clip = c.beginPath()
        if item.radius > 0:
            clip.roundRect(*self.point(box.x, box.bottom), box.w * mm, box.h * mm, item.radius * mm)
        else:
            clip.rect(*self.point(box.x, box.bottom), box.w * mm, box.h * mm)
        c.clipPath(clip, stroke=0, fill=0)
        c.setLineWidth(0.15 * mm)
        c.setDash([])
        offset = -box.h
        while offset < box.w:
            c.line(*self.point(box.x + offset, box.bottom), *self.point(box.x + offset + box.h, box.y))
            offset += item.hatch
        c.restoreState()

    def text(self, item: Text) -> None:
        font = _font(item.bold, item.condensed)
        size = item.size * mm
        width = pdfmetrics.stringWidth(item.text, font, size) * item.stretch
        x = item.x * mm - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
        y = (self.height - item.y) * mm
        self.c.setFillColorRGB(*item.colour)
        if item.stretch == 1.0:
            self.c.setFont(font, size)
            self.c.drawString(x, y, item.text)
            return
        # The horizontal scale (Tz) is part of the graphics state and outlives the
        # text object: saved and restored, so that only this text is narrowed.
        self.c.saveState()
        text = self.c.beginText(x, y)
        text.setFont(font, size)
        text.setHorizScale(item.stretch * 100)
        text.textOut(item.text)
        self.c.drawText(text)
        self.c.restoreState()


@dataclass(frozen=True)
class Section:
    """Pages that share one paper and one sheet layout: one print job."""

    plan: PagePlan
    sheet: Drawing  # the art every sheet shares, drawn once as a form
    pages: Iterable[Sequence[Sequence[Item]]]  # per page, the per-sheet items of each slot filled


@contextmanager
def _without_source_date_epoch() -> Iterator[None]:
    """reportlab dates a PDF (and seeds its document id) from SOURCE_DATE_EPOCH
    when it is set, even in invariant mode; sheetgen's bytes depend on its
    inputs only, so the variable is hidden while a document is made."""
    saved = os.environ.pop("SOURCE_DATE_EPOCH", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["SOURCE_DATE_EPOCH"] = saved


def render_sections(sections: Iterable[Section], *, title: str = "") -> bytes:
    """A PDF of several sections in turn (a batch's jobs in one file), each
    on its own pages and paper size."""
    buffer = io.BytesIO()
    with _without_source_date_epoch():
        canvas = Canvas(
            buffer,
            invariant=1,
            pageCompression=1,
            initialFontName=_font(False),  # an embedded font, so no unembedded Helvetica is added
            initialFontSize=8,
        )
    canvas.setTitle(title)
    canvas.setCreator("sheetgen")
    canvas.setProducer("sheetgen")

    for index, section in enumerate(sections):
        plan, sheet = section.plan, section.sheet
        sheet_form, page_form = f"sheet{index}", f"page{index}"
        canvas.setPageSize((plan.width * mm, plan.height * mm))
        canvas.beginForm(sheet_form, 0, 0, sheet.width * mm, sheet.height * mm)
        _Painter(canvas, sheet.height).draw(sheet.items)
        canvas.endForm()
        canvas.beginForm(page_form, 0, 0, plan.width * mm, plan.height * mm)
        _Painter(canvas, plan.height).draw(plan.items)
        canvas.endForm()

        sheet_painter = _Painter(canvas, sheet.height)
        for page in section.pages:
            canvas.doForm(page_form)
            for slot, extra in zip(plan.slots, page):
                canvas.saveState()
                canvas.translate(slot.x * mm, (plan.height - slot.bottom) * mm)
                canvas.doForm(sheet_form)
                sheet_painter.draw(extra)
                canvas.restoreState()
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()
