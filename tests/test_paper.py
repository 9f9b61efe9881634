"""Paper sizes: the same 96 x 66 mm sheets, 8 to a page, on A4 and US Letter,
with nothing printed within 5 mm of any paper edge (on the rendered page)."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from PIL import ImageOps

from sheetgen.grid.load import load_grid
from sheetgen.pdf.impose import EDGE, MARK_GAP, MARK_LEN, PAPERS, impose
from sheetgen.runs.jobs import Job, render_job
from sheetgen.sheet.plan import STANDARD

DPI = 200
PX_PER_MM = DPI / 25.4


@pytest.mark.parametrize("paper, points", [("a4", (595, 842)), ("letter", (612, 792))])
def test_the_page_has_the_paper_size_and_the_sheets_keep_theirs(paper, points):
    page = pdfium.PdfDocument(render_job(Job(load_grid("classic"), paper=paper)))[0]
    assert tuple(round(v) for v in page.get_size()) == points
    plan = impose(paper, STANDARD.width, STANDARD.height)
    assert {(slot.w, slot.h) for slot in plan.slots} == {(96.0, 66.0)}
    width, height = PAPERS[paper]
    assert plan.slots[0].x == pytest.approx(width - plan.slots[-1].right)  # centred
    assert plan.slots[0].y == pytest.approx(height - plan.slots[-1].bottom)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_nothing_is_printed_within_5_mm_of_the_paper_edge(paper):
    job = Job(load_grid("longo"), paper=paper, header="Club de Lyon", first_serial=1)
    page = pdfium.PdfDocument(render_job(job))[0]
    image = ImageOps.invert(page.render(scale=DPI / 72).to_pil().convert("L"))
    left, top, right, bottom = image.getbbox()  # of everything not white
    w, h = image.size
    margins_mm = [edge / PX_PER_MM for edge in (left, top, w - right, h - bottom)]
    # one pixel of slack: a line ending exactly at 5 mm may tint the pixel it starts in
    assert min(margins_mm) >= EDGE - 1 / PX_PER_MM, margins_mm
    plan = impose(paper, STANDARD.width, STANDARD.height)
    block = min(plan.slots[0].x, plan.slots[0].y)  # the narrowest margin around the sheets
    # the outermost ink is a cut mark, as long on this paper as on the others
    assert min(margins_mm) == pytest.approx(block - MARK_GAP - MARK_LEN, abs=1.5 / PX_PER_MM), margins_mm
