"""The 200 custom grids of tests/grid_family.py planned (not rendered: planning
is cheap) in every size, paper and language, their plans held to the plan's
checks; apart from test_sheet_family.py, which renders them, so that the two
run on two workers."""

from __future__ import annotations

import collections

import pytest

from sheetgen.errors import LayoutError
from sheetgen.pdf.render import measure_text
from sheetgen.runs.jobs import Job, layout_job

from grid_family import family
from sheet_checks import plan_problems
from test_sheet_family import CHOICES


def named_refusal(message: str) -> bool:
    """Whether ``message`` names the figure that fails (docs/limits.md): rows too low, a row's cells or a
    special cell's number too wide, a scoring table too long (with the max_crosses that fits)."""
    return (": rows: the rows do not fit: each of the " in message
            or ("rows[" in message and ("do not fit in a row" in message or "does not fit inside the frames" in message))
            or (": the scoring table does not fit" in message and "would fit)" in message))


# What the family's plans still refuse, by look and grid: on how many of the 25 choices (docs/limits.md).
# Corner marks in every cell (mono) take height in every row, and rows of 19 cells leave their numbers no
# room beside them.  The tight arrangements (the last resort) print all 57 sheets with a header and serial
# strip refused before them (four-row grids with Bis boxes and tables of 18 to 36 columns), and 43 of the
# 172 in mono.
REFUSED = {
    "plain": {},
    "header-and-serial": {},
    "mono": {"family-44": 4, "family-67": 25, "family-111": 25, "family-112": 25, "family-171": 25,
             "family-233": 25},
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
