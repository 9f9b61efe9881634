"""Rewrite docs/rules.md: the English rules of every built-in grid, composed
from the grid files exactly as `sheetgen rules GRID` prints them, in the
order of `sheetgen list`.

    .venv/bin/python scripts/rules_page.py      # docs/rules.md

tests/test_rules.py fails when the page and the grid files or language files
part ways; run this script then.
"""

from __future__ import annotations

from pathlib import Path

from sheetgen.grid.load import builtin_grids
from sheetgen.play.rules import rules_page
from sheetgen.sheet.style import load_labels

PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def main() -> None:
    PAGE.write_text(rules_page(builtin_grids(), load_labels("en")), encoding="utf-8")
    print(PAGE)


if __name__ == "__main__":
    main()
