"""How much ink a page takes in each theme, against the default 'colour' theme.

    .venv/bin/python scripts/ink.py [--no-machine-marks] [GRID ...]   # default: every built-in grid

The first page of each grid is rasterised (PDFium, 150 dpi) and measured two ways:

- darkness: 1 - mean grey / 255, the share of the page a greyscale print covers;
- colour ink: 1 - mean of R, G and B / 255, the cyan, magenta and yellow a plain
  RGB-to-CMY conversion lays down (light yellow counts in full here, not in grey).

Blank paper is 0, solid black 1.  The margins and cut marks are the same in every
theme, so the ratio between themes is what the themes themselves change; so are the
machine marks (the corner squares and code for `sheetgen scan`), which
``--no-machine-marks`` leaves off, as `sheetgen render --no-machine-marks` does.
"""

from __future__ import annotations

import sys

import pypdfium2 as pdfium
from PIL import Image, ImageStat

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.runs.jobs import Job, render_job
from sheetgen.sheet.style import DEFAULT_THEME, themes

DPI = 150


def page_image(pdf: bytes, dpi: int = DPI) -> Image.Image:
    """The first page of ``pdf`` as an RGB image."""
    return pdfium.PdfDocument(pdf)[0].render(scale=dpi / 72).to_pil().convert("RGB")


def ink_coverage(pdf: bytes, dpi: int = DPI) -> tuple[float, float]:
    """(darkness, colour ink) of the first page of ``pdf``, each from 0 to 1."""
    image = page_image(pdf, dpi)
    grey = ImageStat.Stat(image.convert("L")).mean[0]
    rgb = ImageStat.Stat(image).mean
    return 1 - grey / 255, 1 - sum(rgb) / (3 * 255)


def main(args: list[str]) -> None:
    marks = "--no-machine-marks" not in args
    names = [arg for arg in args if arg != "--no-machine-marks"]
    print(f"{'grid':<10} {'theme':<10} {'darkness':>9} {'vs colour':>10} {'colour ink':>11} {'vs colour':>10}")
    for name in names or builtin_names():
        grid = load_grid(name)
        base = ink_coverage(render_job(Job(grid, theme=DEFAULT_THEME, machine_marks=marks)))
        for theme in themes():
            dark, cmy = (ink_coverage(render_job(Job(grid, theme=theme, machine_marks=marks)))
                         if theme != DEFAULT_THEME else base)
            print(f"{name:<10} {theme:<10} {dark:>9.2%} {dark / base[0] - 1:>+10.0%}"
                  f" {cmy:>11.2%} {cmy / base[1] - 1:>+10.0%}")


if __name__ == "__main__":
    main(sys.argv[1:])
