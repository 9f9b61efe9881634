"""The figures the docs give of what sheetgen makes are measured, not typed:
each is computed here from the thing itself (the zip's size is checked in
tests/test_pack.py, which builds the pack; the benchmark gives the times)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.play.counter import counter_html
from sheetgen.runs.pack import Look, Pack, every_look
from sheetgen.sheet.plan import SIZES
from sheetgen.sheet.style import languages, themes

DOCS = Path(__file__).resolve().parent.parent / "docs"


def figure(page: str, pattern: str) -> tuple[str, ...]:
    found = re.search(pattern, " ".join((DOCS / page).read_text(encoding="utf-8").split()))
    assert found, f"{page}: no {pattern!r}"
    return found.groups()


def whole(text: str) -> int:
    return int(text.replace(",", ""))


def test_the_packs_counts_are_those_of_the_pack():
    pack = Pack()
    grid_langs = len(pack.grids) * len(pack.langs)
    per, total = figure("sizes.md", r"That is (\d+) one-page PDFs a grid and language, ([\d,]+) in all")
    assert (whole(per), whole(total)) == (pack.sheet_files, pack.sheet_files * grid_langs)
    every = sum(len(size.papers) for size in SIZES.values()) * len(every_look())
    per, total = figure("sizes.md", r"every look in every size would be (\d+) a grid and language, ([\d,]+) in all")
    assert (whole(per), whole(total)) == (every, every * grid_langs)
    pdfs, cards, counters = figure("printing.md", r"([\d,]+) one-page PDFs, ([\d,]+) rules cards and ([\d,]+) counter")
    assert (whole(pdfs), whole(cards), whole(counters)) == (
        pack.sheet_files * grid_langs, len(pack.card_papers) * grid_langs, grid_langs)
    assert Look("colour", True).name == "colour-marks"


@pytest.mark.slow
def test_the_counter_pages_size_is_as_measured():
    low, high = figure("counter.md", r"\((\d+) to (\d+) KiB for the built-in grids in every language and theme[;)]")
    sizes = [len(counter_html(load_grid(name), lang, theme).encode()) / 1024
             for name in builtin_names() for lang in languages() for theme in themes()]
    assert (int(low), int(high)) == (int(min(sizes)), round(max(sizes))), (min(sizes), max(sizes))


def test_the_number_sizes_limits_md_gives_are_the_plans():
    """docs/limits.md: the one number size of bonus, doubles and classic (standard sheet, no header)."""
    from sheetgen.pdf.render import measure_text
    from sheetgen.sheet.plan import PT, plan_sheet
    from sheetgen.sheet.style import load_labels, load_theme

    def points(grid: str, theme: str) -> str:
        plan = plan_sheet(load_grid(grid), load_labels("en"), load_theme(theme), measure_text)
        return f"{min(cell.text.size for cell in plan.cells) / PT:.1f}"

    colour = figure("limits.md", r"colour look without header, (\d+\.\d) pt on bonus and (\d+\.\d) pt on doubles"
                                 r" against classic's (\d+\.\d) pt")
    assert colour == (points("bonus", "colour"), points("doubles", "colour"), points("classic", "colour"))
    mono = figure("limits.md", r"in mono, (\d+\.\d) pt on bonus against classic's (\d+\.\d) pt")
    assert mono == (points("bonus", "mono"), points("classic", "mono"))
    assert figure("limits.md", r"powers' numbers are (\d+\.\d) pt in the colour look") == (points("powers", "colour"),)


def test_the_code_square_heights_limits_md_gives_are_the_plans():
    """docs/limits.md: how high above the sheet's bottom edge a code's square above the totals line is
    (blocks in French, at each size), and the totals line's width then (80 mm of the standard sheet)."""
    from sheetgen.pdf.render import measure_text
    from sheetgen.sheet.plan import plan_sheet
    from sheetgen.sheet.style import load_labels, load_theme

    plans = {size: plan_sheet(load_grid("blocks"), load_labels("fr"), load_theme("colour"), measure_text, SIZES[size])
             for size in ("standard", "large", "a6")}
    heights = tuple(f"{SIZES[size].height - plan.machine.code.y:.1f}" for size, plan in plans.items())
    assert figure("limits.md", r"The square is then (\d+\.\d) mm above the sheet's bottom edge \((\d+\.\d) mm on a"
                               r" large sheet, (\d+\.\d) mm on A6\)") == heights
    line = plans["standard"].totals
    assert figure("limits.md", r"it takes the width less the corner marks \((\d+) mm of the standard sheet's") == (
        f"{line[-1].box.right - line[0].box.x:.0f}",)
