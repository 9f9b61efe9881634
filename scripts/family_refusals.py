"""How many of the test family's plans are refused, by look and grid, in all 25 sizes, papers and languages.

The counts docs/limits.md gives and tests/test_family_plans.py's REFUSED caps (its test plans a fifth of
the choices with a strip and in mono, to keep the suite's time).  Run from the repository's root:

    python scripts/family_refusals.py [plain|header-and-serial|mono ...]

Prints, for each look, the refused plans in all and per grid.  A few minutes a look.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from sheetgen.errors import LayoutError  # noqa: E402
from sheetgen.runs.jobs import Job, layout_job  # noqa: E402

from grid_family import family  # noqa: E402
from test_sheet_family import CHOICES  # noqa: E402

LOOKS = ("plain", "header-and-serial", "mono")


def refusals(look: str) -> collections.Counter[str]:
    options = {"header": "Club night", "first_serial": 1} if look == "header-and-serial" else {}
    theme = "mono" if look == "mono" else "colour"
    counts: collections.Counter[str] = collections.Counter()
    for data, grid in family(200):
        for size, paper, lang in CHOICES:
            try:
                layout_job(Job(grid, sheets=1, size=size, paper=paper, lang=lang, theme=theme, **options))
            except LayoutError:
                counts[data["name"]] += 1
    return counts


def main() -> None:
    for look in sys.argv[1:] or LOOKS:
        counts = refusals(look)
        print(f"{look}: {sum(counts.values())} of {200 * len(CHOICES)} refused: {dict(counts)}")


if __name__ == "__main__":
    main()
