"""Print the balance table of docs/simulate.md: every built-in grid, the same
run each (tests/test_simulate.py checks that the docs show what this prints).

    .venv/bin/python scripts/balance.py
"""

from __future__ import annotations

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.play.simulate import BALANCE_HEAD, Setup, balance_row, markdown_table, simulate

GAMES = 2000
SEED = 1


def balance_table() -> str:
    reports = [simulate(Setup(load_grid(name), games=GAMES, seed=SEED)) for name in builtin_names()]
    return markdown_table(BALANCE_HEAD, [balance_row(report) for report in reports])


if __name__ == "__main__":
    print(balance_table(), end="")
