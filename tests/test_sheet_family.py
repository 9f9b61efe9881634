"""Two hundred custom grids, each printed in two sizes, papers and languages
of its own (sampled, so that every size, paper and language comes up), read
back by the shared sheet checks: text >= 6 pt, no horizontal scaling, numbers
>= 0.3 mm inside their frames, cells >= 0.8 mm apart, nothing within 5 mm of
the paper's edge; and every page read by qpdf, poppler and MuPDF.  A grid the
plan refuses is one no arrangement can print: its message names the place in
the grid file.  The rules cards of one grid in seven and the heat maps of one
in ten pass the same readers and read-back checks."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from sheetgen.errors import LayoutError
from sheetgen.grid.load import load_grid
from sheetgen.pdf.render import measure_text
from sheetgen.play.heatmap import draw_heatmap
from sheetgen.play.simulate import Setup, simulate
from sheetgen.runs.jobs import Job, layout_job, render_job
from sheetgen.runs.rules_pdf import rules_card_pdf
from sheetgen.sheet.plan import SIZES
from sheetgen.sheet.style import languages

from grid_family import family
from sheet_checks import pdf_problems, plan_problems, reader_problems

CHOICES = [(size, paper, lang) for size in SIZES.values() for paper in size.papers for lang in languages()]
EIGHT = Path(__file__).parent / "grids" / "eight.yaml"


def sheet_problems(grid, size, paper, lang, folder) -> list[str]:
    """What the checks find on ``grid``'s sheet; LayoutError if the plan refuses it."""
    job = Job(grid, sheets=1, size=size, paper=paper, lang=lang)
    plan, _ = layout_job(job)
    pdf = render_job(job)
    return plan_problems(plan, measure_text) + pdf_problems(pdf) + reader_problems(pdf, folder)


@pytest.mark.slow
def test_two_hundred_custom_grids_print_and_pass_the_sheet_checks(tmp_path):
    # Each grid in two of the 25 choices, one from each end of the list, so
    # that a grid meets two sizes, papers and languages and every choice comes
    # up a dozen times.
    problems, refused, printed = [], [], 0
    firsts = itertools.cycle(CHOICES[::-1] + CHOICES)
    seconds = itertools.cycle(CHOICES[7:] + CHOICES[:7])
    for (data, grid), first, second in zip(family(200), firsts, seconds):
        for size, paper, lang in (first, second):
            try:
                found = sheet_problems(grid, size, paper, lang, tmp_path)
            except LayoutError as error:
                refused.append(str(error))
                continue
            printed += 1
            problems += [f"{data['name']} ({size.name}, {paper}, {lang}): {p}" for p in found]
    assert problems == []
    assert printed == 400, refused


@pytest.mark.slow
def test_the_family_s_rules_cards_and_heat_maps_pass_the_readers_and_the_checks(tmp_path):
    problems, cards, maps, cards_wanted, maps_wanted = [], 0, 0, 0, 0
    papers = itertools.cycle(["a4", "letter"])
    langs = itertools.cycle(languages())
    for index, (data, grid) in enumerate(family(200)):
        # 29 cards, every language on both papers; a grid no sheet prints passes its turn on
        cards_wanted += index % 7 == 0
        if cards < cards_wanted:
            paper, lang = next(papers), next(langs)
            try:
                pdf = rules_card_pdf(grid, lang, paper)
            except LayoutError:
                continue
            cards += 1
            found = pdf_problems(pdf) + reader_problems(pdf, tmp_path)
            problems += [f"{data['name']} card ({paper}, {lang}): {p}" for p in found]
        maps_wanted += index % 10 == 3  # 20 heat maps, of a short run
        if maps < maps_wanted:
            report = simulate(Setup(grid, games=4, players=2))
            try:
                pdf = draw_heatmap(report, "pdf")
            except LayoutError:
                continue
            maps += 1
            problems += [f"{data['name']} heat map: {p}" for p in reader_problems(pdf, tmp_path)]
    assert problems == []
    assert (cards, maps) == (29, 20)


@pytest.mark.slow
@pytest.mark.parametrize("lang", languages())
def test_the_eight_sided_grid_prints_in_every_size_and_paper(lang, tmp_path):
    grid = load_grid(str(EIGHT))
    for size in SIZES.values():
        for paper in size.papers:
            assert sheet_problems(grid, size, paper, lang, tmp_path) == [], (size.name, paper)
