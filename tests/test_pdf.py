"""The PDF itself: pages, size, text, fonts, determinism."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from sheetgen.grid.load import load_grid
from sheetgen.pdf.impose import impose
from sheetgen.runs.jobs import Job, render_job
from sheetgen.sheet.plan import STANDARD

MM = 72 / 25.4


def slot_text(page, plan, slot_index: int) -> str:
    slot = plan.slots[slot_index]
    text = page.get_textpage()
    return text.get_text_bounded(
        left=slot.x * MM, bottom=(plan.height - slot.bottom) * MM, right=slot.right * MM, top=(plan.height - slot.y) * MM
    )


def test_classic_page_is_a4_with_every_number_of_every_sheet():
    grid = load_grid("classic")
    pdf = pdfium.PdfDocument(render_job(Job(grid)))
    assert len(pdf) == 1
    width, height = pdf[0].get_size()
    assert (round(width), round(height)) == (595, 842)
    plan = impose("a4", STANDARD.width, STANDARD.height)
    for slot in range(8):
        text = slot_text(pdf[0], plan, slot)
        numbers = [int(n) for n in re.findall(r"\b\d+\b", text)]
        rows = [list(row.numbers) for row in grid.rows]
        # the four rows, in reading order, come first (the table follows them)
        assert numbers[:44] == [n for row in rows for n in row], text


def test_pages_hold_eight_sheets_and_the_last_page_the_rest(grid):
    pdf = pdfium.PdfDocument(render_job(Job(grid, sheets=19)))
    assert len(pdf) == 3


@pytest.mark.parametrize("name", ["classic", "longo"])
def test_same_input_and_seed_give_the_same_bytes(name):
    job = Job(load_grid(name), sheets=16, seed=7)
    assert render_job(job) == render_job(job)


def test_another_seed_changes_the_lucky_numbers_only_where_the_grid_has_them():
    classic, longo = load_grid("classic"), load_grid("longo")
    assert render_job(Job(classic, seed=1)) == render_job(Job(classic, seed=2))
    assert render_job(Job(longo, seed=1)) != render_job(Job(longo, seed=2))


def test_every_font_is_embedded():
    data = render_job(Job(load_grid("classic")))
    fonts = re.findall(rb"/BaseFont\s*/([A-Za-z0-9+\-]+)", data)
    assert fonts, "no fonts found"
    assert data.count(b"/FontFile2") == len(set(fonts)), fonts
    assert b"Helvetica" not in data


def test_text_prints_as_wide_as_measured_never_scaled_and_right_aligned_text_is_flush():
    """Plain text and a right-aligned serial number each print as wide as they
    were measured, the serial ends at its x; no text is scaled horizontally
    (no Tz operator: text that does not fit is made smaller or wrapped)."""
    import zlib

    from sheetgen.pdf.geometry import Drawing, Text
    from sheetgen.pdf.render import Section, measure_text, render_sections

    ink = (0, 0, 0)
    plain = Text(3, 20, "Penalties", 2.2, ink)
    serial = Text(90, 30, "No. 000042", 2.2, ink, anchor="end")
    plan = impose("a4", STANDARD.width, STANDARD.height)
    pdf = render_sections([Section(plan, Drawing(STANDARD.width, STANDARD.height, (plain,)), [[[serial]]])])
    page = pdfium.PdfDocument(pdf)[0]
    text = page.get_textpage()
    chars = text.get_text_range()
    slot = plan.slots[0]

    def span(word: str) -> tuple[float, float]:  # left and right of the word's glyphs on the sheet, mm
        start = chars.index(word)
        boxes = [text.get_charbox(i) for i in range(start, start + len(word))]
        return min(b[0] for b in boxes) / MM - slot.x, max(b[2] for b in boxes) / MM - slot.x

    left, right = span("Penalties")
    assert right - left == pytest.approx(measure_text("Penalties", False, 2.2), abs=0.5)  # ink, not advance
    left, right = span("000042")
    assert right == pytest.approx(90, abs=0.5)
    streams = [zlib.decompress(raw) for raw in re.findall(rb"stream\r?\n(.*?)endstream", pdf, re.DOTALL)]
    content = [stream for stream in streams if b" Tj" in stream]  # the page and form contents, not the fonts
    assert content and not any(b" Tz" in stream for stream in content)


CLUB_NAMES = ["Klub Kraków – środa", "Győr", "Iași", "İstanbul", "Dvůr Králové", "Łódź „Zagłębie”", "№ 7 · 3×"]


def test_central_and_eastern_european_names_print_and_read_back():
    from sheetgen.pdf.render import unprintable

    for name in CLUB_NAMES:
        assert unprintable(name) == "", name
    for name in CLUB_NAMES:
        page = pdfium.PdfDocument(render_job(Job(load_grid("classic"), sheets=1, header=name)))[0]
        assert name in page.get_textpage().get_text_range()


def test_what_prints_is_what_every_face_has_a_glyph_for():
    from reportlab.pdfbase import pdfmetrics

    from sheetgen.pdf.render import _font, unprintable

    faces = [pdfmetrics.getFont(_font(bold, condensed)).face.charToGlyph
             for bold, condensed in ((False, False), (False, True), (True, True))]
    every = set(faces[0]).intersection(*faces[1:])
    assert len(every) > 500
    for code in range(0x20, 0x2200):
        assert (unprintable(chr(code)) == "") == (code in every), hex(code)
    assert unprintable("木ж😀") == "木ж😀"


def test_each_slot_sets_the_colours_of_its_own_items():
    """The renderer sets a colour only when it changes, so what it believes set must
    start afresh in every slot (a slot's state is the page's, not the last slot's):
    the same coloured box in every slot prints in its colour in every slot."""
    from sheetgen.pdf.geometry import Box, Drawing, Rect
    from sheetgen.pdf.render import Section, render_sections

    red, blue = (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)
    plan = impose("a4", STANDARD.width, STANDARD.height)
    sheet = Drawing(STANDARD.width, STANDARD.height, (Rect(Box(60, 10, 20, 20), fill=blue),))
    box = Rect(Box(10, 10, 20, 20), fill=red, stroke=red, line=0.5)
    pdf = render_sections([Section(plan, sheet, [[[box]] * 8])])
    image = pdfium.PdfDocument(pdf)[0].render(scale=1).to_pil().convert("RGB")
    for slot in plan.slots:
        assert image.getpixel((round((slot.x + 20) * MM), round((slot.y + 20) * MM))) == (255, 0, 0), slot
        assert image.getpixel((round((slot.x + 70) * MM), round((slot.y + 20) * MM))) == (0, 0, 255), slot


def test_fonts_embed_the_glyphs_printed_and_no_others():
    """A classic sheet prints some twenty characters in each face: each subset
    holds those (reportlab pads a subset to 33 codes), not the whole of ASCII (128)."""
    data = render_job(Job(load_grid("classic")))
    last_codes = [int(n) for n in re.findall(rb"/LastChar (\d+)", data)]
    assert len(last_codes) == 2 and max(last_codes) < 40, last_codes


def test_font_subsets_are_named_from_the_content_of_their_file():
    """Merged files must not share a subset tag for different subsets: each
    file's tags come from its content (so the same input keeps its bytes)."""
    from sheetgen.grid.load import load_grid
    from sheetgen.runs.jobs import Job, render_job

    def tags(pdf: bytes) -> list[bytes]:
        return re.findall(rb"/BaseFont /([A-Z]{6})\+", pdf)

    classic, powers = render_job(Job(load_grid("classic"))), render_job(Job(load_grid("powers")))
    assert len(set(tags(classic))) == len(tags(classic)) >= 2  # one tag per subset
    assert not set(tags(classic)) & set(tags(powers))
    assert b"AAAAAA+" not in classic
    assert render_job(Job(load_grid("classic"))) == classic
