"""Valid PDFs for every reader: for every built-in grid, qpdf finds no error,
every font is embedded, poppler, MuPDF and PDFium draw the same picture and
print no warning, and the text reads back as what was printed: each row's
numbers in order, and each sheet's lucky numbers, in every slot of the page.

A reader that is not installed skips its checks with the reason; CI
(.ci/run) installs them all.
"""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from sheetgen.grid.load import load_grid
from sheetgen.pdf.geometry import Box
from sheetgen.runs.jobs import Job, job_section, layout_job, render_job, sheet_data

from conftest import GRID_NAMES, need_tool

DPI = 100
POINTS_PER_MM = 72 / 25.4
# Pictures are compared as 8 x 8 pixel averages: readers differ in anti-aliasing
# (the built-in grids agree within 31 of 255), not in what they draw; a sheet
# that lost its text differs by 150.
TILE = 8
MOST_TILE_DIFFERENCE = 48


@functools.cache
def job(name: str) -> Job:
    return Job(load_grid(name))


@pytest.fixture(params=GRID_NAMES)
def pdf(request, tmp_path) -> Path:
    path = tmp_path / f"{request.param}.pdf"
    path.write_bytes(render_job(job(request.param)))
    return path


def run(*command: str) -> subprocess.CompletedProcess:
    need_tool(command[0])
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_qpdf_finds_no_error(pdf):
    done = run("qpdf", "--check", str(pdf))
    assert (done.returncode, done.stderr) == (0, ""), done.stdout + done.stderr
    assert "No syntax or stream encoding errors found" in done.stdout


def test_every_font_is_embedded(pdf):
    done = run("pdffonts", str(pdf))
    assert (done.returncode, done.stderr) == (0, "")
    header, rule, *fonts = done.stdout.splitlines()
    emb = header.index("emb")
    assert fonts, "no fonts"
    for font in fonts:
        assert font[emb:emb + 3] == "yes", f"not embedded: {font}"


def poppler(pdf: Path) -> Image.Image:
    done = run("pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(pdf), str(pdf.with_suffix("")) + "-poppler")
    assert (done.returncode, done.stderr) == (0, "")
    return Image.open(str(pdf.with_suffix("")) + "-poppler.png")


def mupdf(pdf: Path) -> Image.Image:
    out = pdf.with_name(pdf.stem + "-mupdf.png")
    # -q: no progress lines; -N: no colour management (not every build has it, and says so)
    done = run("mutool", "draw", "-q", "-N", "-r", str(DPI), "-o", str(out), str(pdf), "1")
    assert (done.returncode, done.stderr) == (0, "")
    return Image.open(out)


def pdfium_(pdf: Path) -> Image.Image:
    return pdfium.PdfDocument(pdf)[0].render(scale=DPI / 72).to_pil()


READERS = {"poppler": poppler, "mupdf": mupdf, "pdfium": pdfium_}


def tile_difference(a: Image.Image, b: Image.Image) -> int:
    assert a.size == b.size
    difference = ImageChops.difference(a.convert("RGB").reduce(TILE), b.convert("RGB").reduce(TILE))
    return max(difference.convert("L").getextrema())


def test_readers_draw_the_same_picture_without_warnings(pdf):
    pictures = {name: draw(pdf) for name, draw in READERS.items()}  # each skips if its tool is missing
    a4 = (210 / 25.4 * DPI, 297 / 25.4 * DPI)  # pixels, before the readers round them
    for name, picture in pictures.items():
        assert all(abs(got - size) <= 1 for got, size in zip(picture.size, a4)), (name, picture.size)
        assert picture.convert("L").getextrema()[0] < 64, f"{name} drew nothing dark"
    for first, second in [("poppler", "mupdf"), ("poppler", "pdfium"), ("mupdf", "pdfium")]:
        difference = tile_difference(pictures[first], pictures[second])
        assert difference <= MOST_TILE_DIFFERENCE, f"{first} and {second} differ by {difference}"


def words(pdf: Path) -> list[tuple[Box, str]]:
    """Every word poppler reads on the first page, with its box in mm."""
    done = run("pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-")
    assert (done.returncode, done.stderr) == (0, "")
    number = r'"([\d.]+)"'
    found = re.findall(rf"<word xMin={number} yMin={number} xMax={number} yMax={number}>([^<]*)</word>", done.stdout)
    return [(Box(float(x0) / POINTS_PER_MM, float(y0) / POINTS_PER_MM, (float(x1) - float(x0)) / POINTS_PER_MM,
                 (float(y1) - float(y0)) / POINTS_PER_MM), text) for x0, y0, x1, y1, text in found]


def read_in(area: Box, page: list[tuple[Box, str]]) -> list[str]:
    """The words whose centre is in ``area``, left to right."""
    inside = [(box.x, text) for box, text in page if area.x <= box.cx <= area.right and area.y <= box.cy <= area.bottom]
    return [text for _, text in sorted(inside)]


def test_text_reads_back_row_by_row_in_every_slot(pdf):
    name = pdf.stem
    grid, section, sheet = job(name).grid, job_section(job(name)), layout_job(job(name))[0]
    page = words(pdf)
    lucky = list(sheet_data(job(name)))
    for slot_index, slot in enumerate(section.plan.slots):
        for r, row in enumerate(grid.rows):
            boxes = [c.box for c in sheet.cells if c.row == r]
            band = Box(slot.x + boxes[0].x, slot.y + boxes[0].y, boxes[-1].right - boxes[0].x, boxes[0].h)
            assert read_in(band, page) == [str(n) for n in row.numbers], (name, slot_index, r)
        for box, number in zip(sheet.lucky_boxes, lucky[slot_index].lucky, strict=True):
            assert read_in(box.shifted(slot.x, slot.y), page) == [str(number)], (name, slot_index)
