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
