"""A few rasterised sheets against committed golden images, in colour.

The plan tests (test_plan.py) check meaning first; this catches what they
cannot see: a colour gone wrong, a glyph drawn in place of another, a shape
in the wrong place.  Each case is the first sheet of a page at 150 dpi, in
RGB, compared square millimetre by square millimetre (6 x 6 pixel tiles):
a tile's mean colour may move a little (anti-aliasing), not by what a
changed glyph or colour moves it.  After an intended change to the look,
regenerate and review the images:

    SHEETGEN_GOLDEN=update .venv/bin/python -m pytest tests/test_golden.py
    git diff --stat tests/golden/
"""

from __future__ import annotations

import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from sheetgen.grid.load import load_grid
from sheetgen.pdf.impose import impose
from sheetgen.runs.jobs import Job, layout_job, render_job
from sheetgen.sheet.plan import CAP, STANDARD

GOLDEN = Path(__file__).parent / "golden"
DPI = 150
TILE = 6  # pixels: about 1 mm
MOST_TILE_DIFFERENCE = 24  # of 255, in any channel: a glyph or colour changed moves a tile by more
CASES = {  # name: (grid, theme, colour marks, language)
    "classic": ("classic", "colour", False, "en"),
    "powers-mono-de": ("powers", "mono", False, "de"),
    "longo-ink-saver-fr": ("longo", "ink-saver", False, "fr"),
    "disorder-marks-it": ("disorder", "colour", True, "it"),
    "bonus-nl": ("bonus", "colour", False, "nl"),
}


def rasterise(grid: str, theme: str, marks: bool, lang: str) -> Image.Image:
    job = Job(load_grid(grid), sheets=1, theme=theme, colour_marks=marks, lang=lang, header="Club", first_serial=7)
    page = pdfium.PdfDocument(render_job(job))[0].render(scale=DPI / 72).to_pil().convert("RGB")
    slot = impose(job.paper, STANDARD.width, STANDARD.height).slots[0]
    k = DPI / 25.4
    return page.crop(tuple(round(v * k) for v in (slot.x, slot.y, slot.right, slot.bottom)))


def tile_difference(a: Image.Image, b: Image.Image) -> int:
    """The largest difference of mean colour, in any channel, between two images' tiles."""
    assert a.size == b.size
    return max(max(band) for band in ImageChops.difference(a.reduce(TILE), b.reduce(TILE)).getextrema())


@pytest.mark.parametrize("name", sorted(CASES))
def test_sheet_matches_golden(name):
    image = rasterise(*CASES[name])
    path = GOLDEN / f"{name}.png"
    if os.environ.get("SHEETGEN_GOLDEN") == "update" or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        image.save(path, optimize=True)
        if os.environ.get("SHEETGEN_GOLDEN") != "update":
            pytest.fail(f"no golden image for {name}: wrote {path}, review and commit it")
        return
    golden = Image.open(path).convert("RGB")
    difference = tile_difference(image, golden)
    assert difference <= MOST_TILE_DIFFERENCE, (
        f"{name}: a tile differs by {difference} of 255; "
        "if intended, regenerate with SHEETGEN_GOLDEN=update (see this file's docstring)")


def test_the_comparison_sees_a_changed_glyph_and_a_changed_colour():
    image = rasterise(*CASES["classic"])
    plan = layout_job(Job(load_grid("classic"), header="Club", first_serial=7))[0]
    k = DPI / 25.4
    minus = plan.operators[-2]  # shortened to a hyphen: its right half painted over in white
    half = minus.box.cx, minus.y - minus.size * CAP, minus.box.right, minus.y
    glyph = image.copy()
    glyph.paste((255, 255, 255), tuple(round(v * k) for v in half))
    cell = plan.cells[0].pale  # a corner of the first (red) cell's background in the green one's
    recoloured = image.copy()
    recoloured.paste((224, 245, 227), tuple(round(v * k) for v in (cell.x, cell.y, cell.x + 2.0, cell.y + 2.0)))
    assert tile_difference(image, image) == 0
    assert tile_difference(image, glyph) > MOST_TILE_DIFFERENCE
    assert tile_difference(image, recoloured) > MOST_TILE_DIFFERENCE
