"""Regenerate the README's pictures: one PNG of one sheet per built-in grid,
of disorder in each print theme but the default, and a whole classic page.

    .venv/bin/python scripts/gallery.py      # docs/gallery/<grid>.png, disorder-<theme>.png, docs/classic-page.png
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.pdf.impose import impose
from sheetgen.runs.jobs import Job, render_job
from sheetgen.sheet.plan import STANDARD
from sheetgen.sheet.style import DEFAULT_THEME, themes

DPI = 150
PAGE_DPI = 60
DOCS = Path(__file__).resolve().parent.parent / "docs"
HERE = DOCS / "gallery"


def main() -> None:
    plan = impose("a4", STANDARD.width, STANDARD.height)
    slot = plan.slots[0]
    scale = DPI / 25.4
    HERE.mkdir(parents=True, exist_ok=True)
    jobs = {name: Job(load_grid(name)) for name in builtin_names()}
    jobs |= {f"disorder-{theme}": Job(load_grid("disorder"), theme=theme)
             for theme in themes() if theme != DEFAULT_THEME}
    for name, job in jobs.items():
        page = pdfium.PdfDocument(render_job(job))[0]
        image = page.render(scale=DPI / 72).to_pil()
        crop = image.crop(tuple(round(edge * scale) for edge in (slot.x, slot.y, slot.right, slot.bottom)))
        crop.save(HERE / f"{name}.png", optimize=True)
        print(HERE / f"{name}.png")
    page = pdfium.PdfDocument(render_job(jobs["classic"]))[0].render(scale=PAGE_DPI / 72).to_pil()
    page.save(DOCS / "classic-page.png", optimize=True, dpi=(PAGE_DPI, PAGE_DPI))
    print(DOCS / "classic-page.png")


if __name__ == "__main__":
    main()
