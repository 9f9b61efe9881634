"""Serial numbers: the cut-and-stack order (the default) and the page order,
by hand-worked tables, and read back from the PDF where poppler finds them."""

from __future__ import annotations

import re
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetgen.grid.load import load_grid
from sheetgen.pdf.geometry import Box
from sheetgen.runs.jobs import Job, SerialOrder, layout_job, page_plan, render_job, serial_numbers, sheet_data

from conftest import need_tool

STACK, PAGE = SerialOrder.STACK, SerialOrder.PAGE
POINTS_PER_MM = 72 / 25.4

# (sheets, sheets a page, serials in print order: page by page, slot by slot), worked by hand
STACKS = [
    (8, 8, [1, 2, 3, 4, 5, 6, 7, 8]),  # one page: nothing to stack
    (5, 8, [1, 2, 3, 4, 5]),
    (16, 8, [1, 3, 5, 7, 9, 11, 13, 15,  2, 4, 6, 8, 10, 12, 14, 16]),
    (24, 8, [1, 4, 7, 10, 13, 16, 19, 22,  2, 5, 8, 11, 14, 17, 20, 23,  3, 6, 9, 12, 15, 18, 21, 24]),
    # a last page of 4: slots 1-4 pile 3 sheets, slots 5-8 only 2
    (20, 8, [1, 4, 7, 10, 13, 15, 17, 19,  2, 5, 8, 11, 14, 16, 18, 20,  3, 6, 9, 12]),
    (9, 8, [1, 3, 4, 5, 6, 7, 8, 9,  2]),
    (10, 4, [1, 4, 7, 9,  2, 5, 8, 10,  3, 6]),  # four sheets a page (large print)
    (3, 1, [1, 2, 3]),  # one sheet a page (A6): the stack is the print order
]


@pytest.mark.parametrize("sheets, per_page, expected", STACKS, ids=[f"{s}-of-{p}" for s, p, _ in STACKS])
def test_stack_order_by_hand(sheets, per_page, expected):
    assert serial_numbers(sheets, per_page, 1, STACK) == expected
    assert serial_numbers(sheets, per_page, 41, STACK) == [n + 40 for n in expected]


def test_page_order_numbers_slot_after_slot():
    assert serial_numbers(20, 8, 7, PAGE) == list(range(7, 27))


def piles(serials: list[int], per_page: int) -> list[list[int]]:
    """What cutting the printed pages as one stack gives: the sheets of each slot, top page first."""
    return [serials[slot::per_page] for slot in range(per_page)]


@given(st.integers(1, 400), st.sampled_from([1, 2, 4, 8]), st.integers(0, 1000))
def test_every_pile_is_in_sequence_and_the_piles_follow_on(sheets, per_page, first):
    serials = serial_numbers(sheets, per_page, first, STACK)
    assert len(serials) == sheets
    stacked = [n for pile in piles(serials, per_page) for n in pile]  # pile 1 on top of pile 2...
    assert stacked == list(range(first, first + sheets))


# -- read back from the PDF ------------------------------------------------------


def words_by_page(pdf: bytes, tmp_path) -> list[list[tuple[Box, str]]]:
    """Every word poppler reads, with its box in mm, page by page."""
    need_tool("pdftotext")
    path = tmp_path / "sheets.pdf"
    path.write_bytes(pdf)
    done = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    number = r'"([\d.]+)"'
    word = re.compile(rf"<word xMin={number} yMin={number} xMax={number} yMax={number}>([^<]*)</word>")
    return [[(Box(float(x0) / POINTS_PER_MM, float(y0) / POINTS_PER_MM, (float(x1) - float(x0)) / POINTS_PER_MM,
                  (float(y1) - float(y0)) / POINTS_PER_MM), text) for x0, y0, x1, y1, text in word.findall(page)]
            for page in done.stdout.split("<page ")[1:]]


def read_in(area: Box, page: list[tuple[Box, str]]) -> str:
    return " ".join(text for box, text in page if area.x <= box.cx <= area.right and area.y <= box.cy <= area.bottom)


def printed(job: Job, tmp_path) -> list[dict[str, str]]:
    """Per sheet, in print order: its serial and its lucky numbers as printed."""
    sheet = layout_job(job)[0]
    found = []
    for page in words_by_page(render_job(job), tmp_path):
        for slot in page_plan(job).slots:
            serial = read_in(sheet.serial_box.shifted(slot.x, slot.y), page)
            if serial:
                lucky = [read_in(box.shifted(slot.x, slot.y), page) for box in sheet.lucky_boxes]
                found.append({"serial": serial, "lucky": " ".join(lucky)})
    return found


def test_a_cut_stack_of_a_numbered_run_gives_piles_in_sequence(tmp_path):
    """20 longo sheets on 3 pages, the last one half full, numbered from 41."""
    job = Job(load_grid("longo"), sheets=20, first_serial=41)
    sheets = printed(job, tmp_path)
    assert [s["serial"] for s in sheets] == [f"No. {n + 40:06d}" for n in STACKS[4][2]]
    # lucky numbers stay dealt in print order: what the unnumbered run deals, sheet for sheet
    dealt = [" ".join(map(str, d.lucky)) for d in sheet_data(Job(load_grid("longo"), sheets=20))]
    assert [s["lucky"] for s in sheets] == dealt
    for start in range(0, 20, 8):  # so the sheets of a page never share a pair
        assert len(set(dealt[start:start + 8])) == len(dealt[start:start + 8])


def test_page_order_reads_back_page_by_page(tmp_path):
    job = Job(load_grid("classic"), sheets=12, first_serial=1, serial_order=PAGE, lang="de")
    assert [s["serial"] for s in printed(job, tmp_path)] == [f"Nr. {n:06d}" for n in range(1, 13)]
