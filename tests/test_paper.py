"""Papers and sheet sizes: how many sheets a page holds, where they go and
where the cuts are; then, on the rendered page, for every grid in every size
on every paper it prints on, nothing within 5 mm of the paper's edge."""

from __future__ import annotations

import itertools

import pypdfium2 as pdfium
import pytest
from PIL import ImageOps

from sheetgen.errors import LayoutError
from sheetgen.grid.load import load_grid
from sheetgen.pdf.geometry import Box, bounds
from sheetgen.pdf.impose import EDGE, MARK_GAP, MARK_LEN, impose
from sheetgen.runs.jobs import Job, render_job
from sheetgen.sheet.plan import PAD, SIZES

from conftest import GRID_NAMES

DPI = 200
PX_PER_MM = DPI / 25.4
CASES = [(size, paper) for size in SIZES for paper in SIZES[size].papers]
IDS = [f"{size}-{paper}" for size, paper in CASES]
# What each size is for, from the brief, not from the code: (columns, rows, page in points, wide x high).
# Large print is 4 to a landscape page (turned, four sheets are 1.4 times the standard; upright, two
# would fit); an A6 sheet is alone on a landscape A6 page.
PAGES = {
    ("standard", "a4"): (2, 4, (595, 842)),
    ("standard", "letter"): (2, 4, (612, 792)),
    ("large", "a4"): (2, 2, (842, 595)),
    ("large", "letter"): (2, 2, (792, 612)),
    ("a6", "a6"): (1, 1, (420, 298)),
}


def test_every_size_prints_on_the_papers_it_is_for():
    assert sorted(CASES) == sorted(PAGES)


@pytest.mark.parametrize("size, paper", CASES, ids=IDS)
def test_a_page_holds_the_sheets_its_size_is_for_centred(size, paper):
    columns, rows, points = PAGES[size, paper]
    sheet = SIZES[size]
    page = pdfium.PdfDocument(render_job(Job(load_grid("classic"), sheets=columns * rows, size=sheet,
                                             paper=paper)))
    assert len(page) == 1
    assert tuple(round(v) for v in page[0].get_size()) == points
    plan = impose(paper, sheet.width, sheet.height)
    assert len(plan.slots) == columns * rows
    assert {(slot.w, slot.h) for slot in plan.slots} == {(sheet.width, sheet.height)}
    assert len({slot.x for slot in plan.slots}) == columns and len({slot.y for slot in plan.slots}) == rows
    assert plan.slots[0].x == pytest.approx(plan.width - plan.slots[-1].right)  # centred
    assert plan.slots[0].y == pytest.approx(plan.height - plan.slots[-1].bottom)


@pytest.mark.parametrize("size, paper", CASES, ids=IDS)
def test_the_slots_tile_the_page_inside_the_margins(size, paper):
    sheet = SIZES[size]
    plan = impose(paper, sheet.width, sheet.height)
    page = Box(EDGE, EDGE, plan.width - 2 * EDGE, plan.height - 2 * EDGE)
    for slot in plan.slots:
        assert page.contains(slot)
    for a, b in itertools.combinations(plan.slots, 2):
        assert not a.overlaps(b)
    area = sum(s.w * s.h for s in plan.slots)
    block = Box(plan.slots[0].x, plan.slots[0].y, plan.slots[-1].right - plan.slots[0].x,
                plan.slots[-1].bottom - plan.slots[0].y)
    assert area == pytest.approx(block.w * block.h)  # no gaps: one cut serves two sheets
    for item in plan.items:
        assert page.contains(bounds(item)), item


def on_a_line(a: tuple[float, float], b: tuple[float, float], lines) -> bool:
    """Whether the segment a-b lies on one of ``lines`` (straight, two points each)."""
    def inside(p, line):
        (x0, y0), (x1, y1) = line.points
        return (min(x0, x1) - 1e-6 <= p[0] <= max(x0, x1) + 1e-6) and (min(y0, y1) - 1e-6 <= p[1] <= max(y0, y1) + 1e-6)

    return any(inside(a, line) and inside(b, line) for line in lines)


@pytest.mark.parametrize("size, paper", CASES, ids=IDS)
def test_every_edge_between_sheets_is_a_cut_line_with_a_mark_at_each_end(size, paper):
    columns, rows, _ = PAGES[size, paper]
    sheet = SIZES[size]
    plan = impose(paper, sheet.width, sheet.height)
    lines = [i for i in plan.items if i.dash]
    marks = [i for i in plan.items if not i.dash]
    if columns * rows == 1:  # paper of the sheet's own size: its edge is the cut
        assert plan.items == ()
        return
    assert len(lines) == (columns + 1) + (rows + 1) and len(marks) == 2 * len(lines)
    for slot in plan.slots:
        corners = [(slot.x, slot.y), (slot.right, slot.y), (slot.right, slot.bottom), (slot.x, slot.bottom)]
        for a, b in zip(corners, corners[1:] + corners[:1]):
            assert on_a_line(a, b, lines), (slot, a, b)
    for mark in marks:
        (x0, y0), (x1, y1) = mark.points
        assert abs(x1 - x0) + abs(y1 - y0) == pytest.approx(MARK_LEN)


def test_the_page_is_turned_only_when_that_holds_more_sheets():
    turned = impose("a4", 140.0, 95.0)  # 1 x 3 upright, 2 x 2 turned
    assert (turned.width, turned.height, turned.per_page) == (297.0, 210.0, 4)
    square = impose("a4", 95.0, 95.0)  # 2 x 3 upright, 3 x 2 turned: upright, as the paper lies in the tray
    assert (square.width, square.height, square.per_page) == (210.0, 297.0, 6)


def test_a_sheet_too_large_for_the_paper_is_refused():
    with pytest.raises(LayoutError) as caught:
        impose("a6", 140.0, 100.0)
    assert str(caught.value) == "a sheet of 140 x 100 mm does not fit on A6 paper with 5 mm free at every edge"
    assert impose("a6", 138.0, 95.0).per_page == 1  # exactly the page less 5 mm at every edge


def margins_of_the_ink(pdf: bytes) -> list[float]:
    """Left, top, right and bottom margins of everything not white on the first page, mm."""
    page = pdfium.PdfDocument(pdf)[0]
    image = ImageOps.invert(page.render(scale=DPI / 72).to_pil().convert("L"))
    left, top, right, bottom = image.getbbox()
    w, h = image.size
    return [edge / PX_PER_MM for edge in (left, top, w - right, h - bottom)]


@pytest.mark.parametrize("size, paper", CASES, ids=IDS)
@pytest.mark.parametrize("name", GRID_NAMES)
def test_nothing_is_printed_within_5_mm_of_the_paper_edge(name, size, paper):
    sheet = SIZES[size]
    job = Job(load_grid(name), size=sheet, paper=paper, header="Club de Lyon", first_serial=1)
    margins = margins_of_the_ink(render_job(job))
    # one pixel of slack: a line ending exactly at 5 mm may tint the pixel it starts in
    assert min(margins) >= EDGE - 1 / PX_PER_MM, margins
    plan = impose(paper, sheet.width, sheet.height)
    block = min(plan.slots[0].x, plan.slots[0].y)  # the narrowest margin around the sheets
    if plan.items:  # the outermost ink is a cut mark, as long on this paper as on the others
        assert min(margins) == pytest.approx(block - MARK_GAP - MARK_LEN, abs=1.5 / PX_PER_MM), margins
    else:  # the sheet's own content, inside its blank border
        assert min(margins) >= block + PAD - 1 / PX_PER_MM, margins


def test_check_lays_a_grid_out_in_every_size_and_names_the_one_that_fails(monkeypatch):
    from sheetgen.runs import jobs
    from sheetgen.sheet.plan import STANDARD, SheetSize

    grid = load_grid("classic")
    jobs.check_printable(grid)  # every shipped size
    narrow = SheetSize("narrow", 60.0, 66.0)  # 11 cells fit 54 mm at 6 pt, six totals boxes do not
    monkeypatch.setattr(jobs, "SIZES", {"standard": STANDARD, "narrow": narrow})
    with pytest.raises(LayoutError) as caught:
        jobs.check_printable(grid)
    assert caught.value.message.startswith("the totals line does not fit: 6 boxes in ")
    assert caught.value.message.endswith(" (with --size narrow)"), caught.value.message
