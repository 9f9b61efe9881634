"""The only module that imports reportlab: geometry in, PDF bytes out.

The sheet's drawing and imposition hand over items in mm with a top-left origin; here
they become points with PDF's bottom-left origin.  The sheet that is the same
everywhere is drawn once as a form XObject and placed in every slot; only the
per-sheet items (lucky numbers, serial, header) are drawn per slot, and the
cut lines once per page as another form.  Output is deterministic:
reportlab's invariant mode fixes dates and document ids.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache, lru_cache
from typing import cast

from ..errors import LayoutError
from ..records import record
from ..words import one_of
from . import qr
from .geometry import RGB, Circle, Code, Drawing, Item, Placed, Polygon, Rect, Text
from .impose import PagePlan
from .truetype import slim_truetype

# reportlab takes settings from RL_* environment variables when it is first
# imported: RL_pdfComments=1 would change the bytes, a malformed value stop the
# import.  sheetgen's output depends on its inputs only, so they are hidden.
_RL_SETTINGS = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith("RL_")}
try:
    from reportlab import rl_config
    from reportlab.lib.rl_accel import escapePDF, fp_str
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
finally:
    os.environ.update(_RL_SETTINGS)

# DejaVu Sans, the extended Vera family, subset by scripts/fonts.py to the Latin
# letters of Western, Central and Eastern Europe and the sheets' punctuation.
# The condensed faces print cell numbers (two digits fit a narrow cell); bold
# text is always in the condensed bold face, so that a sheet embeds one bold face.
# The light face, DejaVu Sans ExtraLight condensed as DejaVu condenses, has the digits alone, each as
# wide as in the condensed face: cell numbers print in it (``Text.light``) and measure the same.
FONTS = {"DejaVuSans": "DejaVuSans.ttf", "DejaVuSansCondensed": "DejaVuSansCondensed.ttf",
         "DejaVuSansCondensed-Bold": "DejaVuSansCondensed-Bold.ttf",
         "DejaVuSansCondensed-ExtraLight": "DejaVuSansCondensed-ExtraLight.ttf"}
LIGHT_FACE, LIGHT_CHARACTERS = "DejaVuSansCondensed-ExtraLight", frozenset("0123456789")
FONT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fonts")

rl_config.useA85 = 0  # ASCII85 wrapping adds a quarter to every stream; PDF does not need it


def _font(bold: bool, condensed: bool = False) -> str:
    """The face that prints text ``bold`` and/or ``condensed``: bold is condensed bold."""
    name = "DejaVuSansCondensed-Bold" if bold else "DejaVuSansCondensed" if condensed else "DejaVuSans"
    return _registered(name)


def _face(item: Text) -> str:
    """The face ``item`` prints in: the light one for ``light`` condensed digits."""
    if item.light and item.condensed and not item.bold and LIGHT_CHARACTERS.issuperset(item.text):
        return _registered(LIGHT_FACE)
    return _font(item.bold, item.condensed)


@cache
def _registered(name: str) -> str:
    if name not in pdfmetrics.getRegisteredFontNames():
        # an absolute path: a bare name makes reportlab try it as a URL first (and import urllib).
        # Not ASCII-readable: reportlab would otherwise reserve the whole of ASCII in the first
        # subset and embed its 95 glyphs, where a sheet prints some twenty; the text still reads
        # back through each subset's ToUnicode map.
        font = TTFont(name, os.path.join(FONT_DIR, FONTS[name]), asciiReadable=False)
        face = font.face
        full_subset = face.makeSubset
        face.makeSubset = lambda subset: slim_truetype(full_subset(subset))  # type: ignore[method-assign]
        pdfmetrics.registerFont(font)
    return name


@lru_cache(maxsize=4096)  # the same words and numbers come back on every sheet
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


@cache
def _printable() -> frozenset[str]:
    """Every character all faces print.  scripts/fonts.py gives every face the
    same characters, so the regular face, which every sheet prints in, says
    which (tests/test_pdf.py holds this to every face): a run reads no face
    it does not print in."""
    face = cast(TTFont, pdfmetrics.getFont(_font(False))).face
    glyphs, offsets = face.charToGlyph, face.glyphPos  # a glyph's outline is offsets[g] to offsets[g + 1]
    return frozenset(chr(code) for code, glyph in glyphs.items()
                     if glyph and (offsets[glyph] < offsets[glyph + 1] or unicodedata.category(chr(code)) == "Zs")
                     and unicodedata.category(chr(code)) not in ("Cc", "Cs", "Co", "Cn"))


def unprintable(text: str) -> str:
    """The characters of ``text`` that would not print, each once, in order:
    those some face of the sheet's fonts (regular, condensed, condensed bold)
    has no glyph for, or maps to the empty box of a missing glyph (glyph 0) or
    to a glyph without outline when they are not spaces, and what is not a
    character to print at all (controls, surrogates, noncharacters).  Any text
    may be drawn in any face, so what prints is what every face prints."""
    printable = _printable()
    if printable.issuperset(text):  # nearly always: no need to look at each character
        return ""
    return "".join(dict.fromkeys(ch for ch in text if ch not in printable))


# reportlab's rounded corners: the control points lie this far from the corner, times the
# radius; kept so that a rounded box is the outline it was.
CORNER_CONTROL = 0.4472
# Painting operators by (stroke, fill); even-odd, as reportlab fills.
PAINT = {(True, False): "S", (False, True): "f*", (True, True): "B*", (False, False): "n"}


def _n(value: float, places: int = 3) -> str:
    """``value`` with ``places`` decimals, as short as PDF reads it (".5", "12", "-3.25").
    Lengths are in points: 0.001 pt is a two-thousandth of a pixel at 150 dpi.  Two
    decimals would do for the eye, but readers that snap lines to pixels (poppler) then
    move ten times as many edges by a pixel as with three."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    if text.startswith(("0.", "-0.")):
        text = text.replace("0.", ".", 1)
    return "0" if text in ("", "-0") else text


@lru_cache(maxsize=256)  # a sheet has a few colours, set again and again
def _rgb(colour: Sequence[float]) -> str:
    return " ".join(_n(v, 3) for v in colour)


@lru_cache(maxsize=256)  # the cells of a sheet share a few sizes
def _round_rect(w: float, h: float, r: float) -> str:
    """The path of a ``w`` x ``h`` box with corners of radius ``r`` at the origin, points."""
    t = CORNER_CONTROL * r
    W, H, R, T, WR, WT, HR, HT = (_n(v) for v in (w, h, r, t, w - r, w - t, h - r, h - t))
    return (f"{R} 0 m {WR} 0 l {WT} 0 {W} {T} {W} {R} c {W} {HR} l {W} {HT} {WT} {H} {WR} {H} c {R} {H} l"
            f" {T} {H} 0 {HT} 0 {HR} c 0 {R} l 0 {T} {T} 0 {R} 0 c h")


@lru_cache(maxsize=64)
def _circle(r: float) -> str:
    """The path of a circle of radius ``r`` around (r, r), as four Bézier quarters, points."""
    k = r * 4 / 3 * (1 - math.cos(math.pi / 4)) / math.sin(math.pi / 4)
    D, R, RK, RL = (_n(v) for v in (2 * r, r, r + k, r - k))
    return (f"{D} {R} m {D} {RK} {RK} {D} {R} {D} c {RL} {D} 0 {RK} 0 {R} c 0 {RL} {RL} 0 {R} 0 c"
            f" {RK} 0 {D} {RL} {D} {R} c h")


class _Painter:
    """Draws items given in mm, top-left origin, in a space ``height`` mm tall.

    The operators are written compactly, for the sheet's form is most of a PDF:
    lengths in points with three decimals; every shape but a plain rectangle at the
    origin of a frame of its own (``cm``), so that the cells, locks and boxes of one
    size are the same operators, which deflate then stores once; colours, line widths
    and dashes set only when they change; consecutive texts in one text object.  Texts
    keep reportlab's placement and font sizes to six digits: readers fit glyphs to the
    pixel grid, and a size or place rounded to 0.01 pt moves some glyphs by a pixel."""

    def __init__(self, canvas: Canvas, height: float):
        self.c, self.height = canvas, height
        self.known: dict[str, object] = {}  # the parts of the graphics state this stream has set
        self.spans: dict[tuple[str, str], list[tuple[int, str]]] = {}  # (face, text) -> its subsets' Tj

    def point(self, x: float, y: float) -> tuple[float, float]:
        return x * mm, (self.height - y) * mm

    def draw(self, items: Iterable[Item]) -> None:
        self.known = {}  # a form takes the state of where it is drawn: nothing is known at its start
        run: list[Text] = []
        for item in items:
            if isinstance(item, Text):
                run.append(item)
                continue
            if run:
                self.texts(run)
                run = []
            if isinstance(item, Rect):
                self.rect(item)
            elif isinstance(item, Code):
                self.code(item)
            elif isinstance(item, Circle):
                origin = self.point(item.cx - item.r, item.cy + item.r)
                self.shape(item.fill, item.stroke, item.line, (), _circle(item.r * mm), origin)
            elif isinstance(item, Polygon):
                points = [self.point(*p) for p in item.points]
                x, y = min(p[0] for p in points), min(p[1] for p in points)
                steps = [f"{_n(px - x)} {_n(py - y)} {'l' if i else 'm'}" for i, (px, py) in enumerate(points)]
                path = " ".join(steps + ["h"] if item.closed else steps)
                self.shape(item.fill, item.stroke, item.line, item.dash, path, (x, y), fillable=item.closed)
        if run:
            self.texts(run)

    def state(self, fill: RGB | None, stroke: RGB | None, line: float, dash: Sequence[float]) -> list[str]:
        """The operators that set what differs from what this stream has set."""
        known, ops = self.known, []
        if fill is not None and known.get("fill") != fill:
            known["fill"] = fill
            ops.append(f"{_rgb(fill)} rg")
        if stroke is not None:
            if known.get("stroke") != stroke:
                known["stroke"] = stroke
                ops.append(f"{_rgb(stroke)} RG")
            width = _n(line * mm)  # as written: widths that differ past the third decimal are one
            if known.get("line") != width:
                known["line"] = width
                ops.append(f"{width} w")
            if known.get("dash") != dash:
                known["dash"] = dash
                ops.append(f"[{' '.join(_n(d * mm, 4) for d in dash)}] 0 d")
        return ops

    def shape(self, fill: RGB | None, stroke: RGB | None, line: float, dash: Sequence[float], path: str,
              origin: tuple[float, float] | None = None, fillable: bool = True,
              scale: tuple[float, float] = (1.0, 1.0)) -> None:
        """``path`` filled and/or stroked, drawn in a frame whose origin is at ``origin`` (points) if given,
        its units ``scale`` points along x and y (negative: the axis reversed)."""
        ops = self.state(fill, stroke, line, dash)
        drawn = f"{path} {PAINT[stroke is not None, fill is not None and fillable]}"
        if origin is not None:
            drawn = f"q {_n(scale[0])} 0 0 {_n(scale[1])} {_n(origin[0])} {_n(origin[1])} cm {drawn} Q"
        self.c.addLiteral(" ".join(ops + [drawn]))

    def rect(self, item: Rect) -> None:
        box = item.box
        x, y = self.point(box.x, box.bottom)
        w, h = box.w * mm, box.h * mm
        if item.radius > 0:
            self.shape(item.fill, item.stroke, item.line, (), _round_rect(w, h, item.radius * mm), (x, y))
        else:
            self.shape(item.fill, item.stroke, item.line, (), f"{_n(x)} {_n(y)} {_n(w)} {_n(h)} re")
        if item.hatch > 0 and item.stroke is not None:
            self.hatch(item, x, y, w, h)

    def code(self, item: Code) -> None:
        """A QR code: a white square, then its dark modules as one path of squares. (A one-bit image
        mask would be smaller and quicker, but readers draw it each their own way at screen
        resolutions, where the path looks the same in all of them: tests/test_readers.py.)"""
        size = len(qr.modules(item.text)) + 2 * item.quiet
        step = min(item.box.w, item.box.h) / size
        left, low = self.point(item.box.x, item.box.bottom)
        white = f"{_n(left)} {_n(low)} {_n(item.box.w * mm)} {_n(item.box.h * mm)} re"
        self.shape((1.0, 1.0, 1.0), None, 0.0, (), white)
        corner = self.point(item.box.x + item.quiet * step, item.box.y + item.quiet * step)  # the modules' top left
        self.shape((0.0, 0.0, 0.0), None, 0.0, (), _code_path(item.text), corner, scale=(step * mm, -step * mm))

    def hatch(self, item: Rect, x: float, y: float, w: float, h: float) -> None:
        """Horizontal lines across the box, in its stroke colour, clipped to it
        (rounded corners included): never along a stroke of a cross, which runs
        at 45 degrees, so a crossed cell shows its cross whole."""
        clip = _round_rect(w, h, item.radius * mm) if item.radius > 0 else f"0 0 {_n(w)} {_n(h)} re"
        lines = []
        offset = item.hatch / 2
        while offset < item.box.h:
            lines.append(f"0 {_n(offset * mm)} m {_n(w)} {_n(offset * mm)} l")
            offset += item.hatch
        # The line width and dash set here end with the Q: what ``known`` says holds again after it.
        self.c.addLiteral(f"q 1 0 0 1 {_n(x)} {_n(y)} cm {clip} W n {_n(0.15 * mm)} w [] 0 d {' '.join(lines)} S Q")

    def texts(self, run: Sequence[Text]) -> None:
        """Texts in one text object, in the operators reportlab's text objects
        write, without their bookkeeping (a unique sheet's texts are most of
        its cost).  No text is scaled horizontally (no Tz): text that does not
        fit is made smaller or wrapped by the plan."""
        doc = self.c._doc  # type: ignore[attr-defined]  # reportlab's document: it numbers the font subsets that splitString fills
        ops = ["BT"]
        face = subset = None
        for item in run:
            name = _face(item)
            font = cast(TTFont, pdfmetrics.getFont(name))  # every face is registered by _registered
            size = item.size * mm
            width = font.stringWidth(item.text, size)
            x = item.x * mm - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
            ops.append(f"1 0 0 1 {fp_str(x, (self.height - item.y) * mm)} Tm")
            if self.known.get("fill") != item.colour:
                self.known["fill"] = item.colour
                ops.append(f"{fp_str(item.colour)} rg")
            if (name, size) != face:
                face, subset = (name, size), None
            spans = self.spans.get((name, item.text))
            if spans is None:  # a text's codes stay what splitString first gave them, in one document
                spans = self.spans[name, item.text] = [(part, f"({escapePDF(codes)}) Tj")
                                                       for part, codes in font.splitString(item.text, doc)]
            for part, shown in spans:
                if part != subset:
                    subset = part
                    ops.append(f"{font.getSubsetInternalName(part, doc)} {fp_str(size)} Tf 0 TL")
                ops.append(shown)
        ops.append("ET")
        self.c.addLiteral(" ".join(ops))


_DARK = re.compile("1+")  # a run of dark modules in a row of a QR code


@lru_cache(maxsize=256)  # identical sheets share their code
def _code_path(text: str) -> str:
    """The dark modules of ``text``'s code as a path in modules (one unit a module, rows downwards):
    each row's run of them one rectangle of whole numbers."""
    return " ".join([f"{run.start()} {r} {run.end() - run.start()} 1 re"
                     for r, row in enumerate(qr.modules(text)) for run in _DARK.finditer(row)])


@record
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


SUBSET_TAG = re.compile(rb"/([A-Z]{6})\+([A-Za-z0-9-]+)")


def unique_subset_names(pdf: bytes) -> bytes:
    """``pdf`` with its font subsets' six-letter tags ("AAAAAA+DejaVuSans")
    derived from its content, so that files merged into one (a club's night,
    a print shop's run) do not share a tag for different subsets, and the
    same input still gives the same bytes.  The tags keep their length: the
    cross-reference offsets stay right."""
    digest = hashlib.sha256(pdf).digest()
    tags: dict[tuple[bytes, bytes], bytes] = {}
    for found in dict.fromkeys(SUBSET_TAG.findall(pdf)):  # (tag, font): each subset of each font
        mixed = hashlib.sha256(digest + b"+".join(found)).digest()
        tags[found] = bytes(65 + byte % 26 for byte in mixed[:6])
    return SUBSET_TAG.sub(lambda match: b"/" + tags[match.group(1), match.group(2)] + b"+" + match.group(2), pdf)


def _canvas(buffer: io.BytesIO, title: str, author: str, subject: str) -> Canvas:
    """A deterministic canvas writing to ``buffer``, with the document's title, author and subject."""
    with _without_source_date_epoch():
        canvas = Canvas(
            buffer,
            invariant=1,
            pageCompression=1,
            # an embedded font, so no unembedded Helvetica is added (a name, where the stubs say float)
            initialFontName=_font(False),  # type: ignore[arg-type]
            initialFontSize=8,
        )
    canvas.setTitle(title)
    canvas.setAuthor(author or "sheetgen")
    canvas.setSubject(subject)
    canvas.setCreator("sheetgen")
    canvas.setProducer("sheetgen")
    return canvas


def render_sections(sections: Iterable[Section], *, title: str = "", author: str = "", subject: str = "") -> bytes:
    """A PDF of several sections in turn (a batch's jobs in one file), each
    on its own pages and paper size."""
    buffer = io.BytesIO()
    canvas = _canvas(buffer, title, author, subject)
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
        # Where each slot's sheet goes, as canvas.translate writes it; the slot's
        # q ... Q is written as is: nothing here reads the state reportlab keeps.
        moves = [f"1 0 0 1 {fp_str(slot.x * mm, (plan.height - slot.bottom) * mm)} cm" for slot in plan.slots]
        for page in section.pages:
            canvas.doForm(page_form)
            for move, extra in zip(moves, page):
                canvas.addLiteral("q")
                canvas.addLiteral(move)
                canvas.doForm(sheet_form)
                sheet_painter.draw(extra)
                canvas.addLiteral("Q")
            canvas.showPage()
    canvas.save()
    return unique_subset_names(buffer.getvalue())


def render_page(page: Drawing, placed: Sequence[Placed] = (), *, title: str = "", author: str = "",
                subject: str = "") -> bytes:
    """A one-page PDF ``page.width`` x ``page.height`` mm: ``page``'s items,
    then each placed drawing at its corner and scale (the rules card)."""
    buffer = io.BytesIO()
    canvas = _canvas(buffer, title, author, subject)
    canvas.setPageSize((page.width * mm, page.height * mm))
    _Painter(canvas, page.height).draw(page.items)
    for picture in placed:
        canvas.saveState()
        canvas.translate(picture.x * mm, (page.height - picture.y - picture.box.h) * mm)
        canvas.scale(picture.scale, picture.scale)
        _Painter(canvas, picture.drawing.height).draw(picture.drawing.items)
        canvas.restoreState()
    canvas.showPage()
    canvas.save()
    return unique_subset_names(buffer.getvalue())
