"""One rasterised page per grid against a committed golden image.

Geometry tests come first (test_layout.py); this catches what they cannot
see: a colour gone wrong, a shape drawn in the wrong place.  After an
intended change to the look, regenerate and review the images:

    SHEETGEN_GOLDEN=update .venv/bin/python -m pytest tests/test_golden.py
    git diff --stat tests/golden/
"""

from __future__ import annotations

import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.runs.jobs import Job, render_job

GOLDEN = Path(__file__).parent / "golden"
DPI = 30
MAX_MEAN_DIFF = 1.5  # mean absolute grey difference, 0..255
MAX_CHANGED = 0.005  # share of pixels that differ by more than 48 grey levels


def rasterise(name: str) -> Image.Image:
    page = pdfium.PdfDocument(render_job(Job(load_grid(name))))[0]
    return page.render(scale=DPI / 72).to_pil().convert("L")


@pytest.mark.parametrize("name", builtin_names())
def test_page_matches_golden(name):
    image = rasterise(name)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("SHEETGEN_GOLDEN") == "update" or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        image.save(path, optimize=True)
        if os.environ.get("SHEETGEN_GOLDEN") != "update":
            pytest.fail(f"no golden image for {name}: wrote {path}, review and commit it")
        return
    golden = Image.open(path).convert("L")
    assert image.size == golden.size
    diff = ImageChops.difference(image, golden)
    histogram = diff.histogram()
    pixels = image.size[0] * image.size[1]
    mean = sum(level * count for level, count in enumerate(histogram)) / pixels
    changed = sum(histogram[49:]) / pixels
    assert mean <= MAX_MEAN_DIFF and changed <= MAX_CHANGED, (
        f"{name}: mean difference {mean:.2f}, {changed:.2%} of pixels changed; "
        "if intended, regenerate with SHEETGEN_GOLDEN=update (see this file's docstring)"
    )
