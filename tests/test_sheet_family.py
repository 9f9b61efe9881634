"""Two hundred custom grids, each printed in two sizes, papers and languages
of its own (sampled, so that every size, paper and language comes up), read
back by the shared sheet checks: text >= 6 pt, no horizontal scaling, numbers
>= 0.3 mm inside their frames, cells >= 0.8 mm apart, nothing within 5 mm of
the paper's edge; and every page read by qpdf, poppler and MuPDF.  A grid the
plan refuses is one no arrangement can print: its message names the place in
the grid file.  The rules cards of one grid in seven and the heat maps of one
in ten pass the same readers and read-back checks."""

from __future__ import annotations

import collections
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


def named_refusal(message: str) -> bool:
    """Whether ``message`` names the figure that fails (docs/limits.md): rows too low, a row's cells or a
    special cell's number too wide, a scoring table too long (with the max_crosses that fits)."""
    return (": rows: the rows do not fit: each of the " in message
            or ("rows[" in message and ("do not fit in a row" in message or "does not fit inside the frames" in message))
            or (": the scoring table does not fit" in message and "would fit)" in message))


# What the family's plans still refuse, by look and grid: on how many of the 25 choices (docs/limits.md).
# A header and serial strip takes height that four-row grids with Bis boxes and tables of 18 to 36
# columns needed for a second table line; corner marks in every cell (mono) take height in every row.
REFUSED = {
    "plain": {},
    "header-and-serial": {"family-15": 9, "family-30": 9, "family-171": 14, "family-278": 25},
    "mono": {"family-18": 10, "family-44": 9, "family-67": 25, "family-111": 25, "family-112": 25,
             "family-146": 8, "family-170": 10, "family-171": 25, "family-233": 25, "family-269": 10},
}


@pytest.mark.slow
@pytest.mark.parametrize("look", ["plain", "header-and-serial", "mono"])
def test_every_custom_grid_of_the_family_is_planned_in_every_size_paper_and_language(look):
    """Planning is cheap: all 200 grids in all 25 choices (5,000 sheets), their plans
    held to the plan's checks (numbers 0.3 mm inside their frames, cells 0.8 mm
    apart); a refusal only where REFUSED says, naming what fails.  And again with a
    header and serial strip, as `sheetgen check` lays a grid out, and in mono (sampled: REFUSED's counts
    are of all 25 choices, so a sample's are at most those)."""
    problems, refused, counts = [], [], collections.Counter()
    options = {"header": "Club night", "first_serial": 1} if look == "header-and-serial" else {}
    theme = "mono" if look == "mono" else "colour"
    for index, (data, grid) in enumerate(family(200)):
        # in colour every choice; with a strip and in mono a fifth of them, each choice 40 times (the suite's time)
        for size, paper, lang in CHOICES if look == "plain" else CHOICES[index % 5::5]:
            try:
                plan, _ = layout_job(Job(grid, sheets=1, size=size, paper=paper, lang=lang, theme=theme, **options))
            except LayoutError as error:
                counts[data["name"]] += 1
                refused.append(str(error))
                continue
            problems += [f"{data['name']} ({size.name}, {lang}): {p}" for p in plan_problems(plan, measure_text)]
    assert problems == []
    assert all(count <= REFUSED[look].get(name, 0) for name, count in counts.items()), counts
    assert all(named_refusal(message) for message in refused), refused


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
