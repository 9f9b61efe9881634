"""Regenerate what docs/simulate.md shows from runs of the simulator: the
balance table of the ten grids (printed, to paste into the page) and the heat
maps of classic and disorder (written to docs/).  tests/test_simulate.py
checks that the page still shows what this prints.

    .venv/bin/python scripts/simulate_docs.py            # the table
    .venv/bin/python scripts/simulate_docs.py --pictures # and docs/heatmap-classic.png, docs/heatmap-disorder.png
"""

from __future__ import annotations

import sys
from pathlib import Path

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.play.simulate import BALANCE_HEAD, Setup, balance_row, markdown_table, simulate

DOCS = Path(__file__).resolve().parent.parent / "docs"
GAMES = 2000  # a grid, for the table
PICTURE_GAMES = 10_000
SEED = 1


def balance_table() -> str:
    reports = [simulate(Setup(load_grid(name), games=GAMES, seed=SEED)) for name in builtin_names()]
    return markdown_table(BALANCE_HEAD, [balance_row(report) for report in reports])


def write_pictures() -> None:
    from sheetgen.play.heatmap import draw_heatmap

    for name in ("classic", "disorder"):
        report = simulate(Setup(load_grid(name), games=PICTURE_GAMES, seed=SEED), jobs=2)
        path = DOCS / f"heatmap-{name}.png"
        path.write_bytes(draw_heatmap(report, "png"))
        print(path)


if __name__ == "__main__":
    print(balance_table(), end="")
    if "--pictures" in sys.argv[1:]:
        write_pictures()
