"""Regenerate what docs/simulate.md shows from runs of the simulator: the
balance table of the ten grids, the ``best`` strategy's averages and the
first player's share of wins per strategy and table size on classic (printed,
to paste into the page) and the heat maps of classic and disorder (written to
docs/).  tests/test_simulate.py checks that the page still shows what this
prints (the averages in a slow test: they take about a minute).

    .venv/bin/python scripts/simulate_docs.py            # the tables
    .venv/bin/python scripts/simulate_docs.py --pictures # and docs/heatmap-classic.png, docs/heatmap-disorder.png
"""

from __future__ import annotations

import sys
from pathlib import Path

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.play.simulate import BALANCE_HEAD, Setup, balance_row, markdown_table, simulate

DOCS = Path(__file__).resolve().parent.parent / "docs"
GAMES = 1000  # a grid, for the balance table: a small run, so that its test is quick
BEST_GAMES = 200  # a grid and a table size, for the best strategy's averages (solo: 5 times as many)
PICTURE_GAMES = 10_000
FIRST_GAMES = 500  # a strategy and a table size, for the first player's advantage on classic
SEED = 1


def balance_table() -> str:
    reports = [simulate(Setup(load_grid(name), games=GAMES, seed=SEED)) for name in builtin_names()]
    return markdown_table(BALANCE_HEAD, [balance_row(report) for report in reports])


def best_table() -> str:
    """Per grid, the mean score per sheet of ``best`` players, alone and at
    tables of 2 to 4, each with its 95 % interval."""
    return markdown_table(("grid", "alone", "2 players", "3 players", "4 players"),
                          [best_row(name) for name in builtin_names()])


def best_row(name: str) -> list[str]:
    """``best_table``'s row of the grid ``name``."""
    cells = [name]
    for players in range(1, 5):
        games = BEST_GAMES * (5 if players == 1 else 1)
        report = simulate(Setup(load_grid(name), games=games, players=players, strategies=("best",), seed=SEED))
        low, high = report.scores.ci95
        cells.append(f"{report.scores.mean:.1f} ± {(high - low) / 2:.1f}")
    return cells


def first_player_table(grid: str = "classic") -> str:
    """Per strategy (every seat playing it) and table size, seat 1's share of
    the wins on ``grid``, its 95 % interval, and the fair share 1 / players."""
    from sheetgen.play.strategies import STRATEGIES

    rows = []
    for strategy in STRATEGIES:
        cells = [strategy]
        for players in range(2, 6):
            report = simulate(Setup(load_grid(grid), games=FIRST_GAMES, players=players, strategies=(strategy,),
                                    seed=SEED))
            low, high = report.win_share_ci(0)
            cells.append(f"{100 * report.win_share(0):.0f} % ({100 * low:.0f}–{100 * high:.0f})")
        rows.append(cells)
    fair = ["fair share"] + [f"{100 / players:.0f} %" for players in range(2, 6)]
    return markdown_table(("strategy", "2 players", "3 players", "4 players", "5 players"), rows + [fair])


def write_pictures() -> None:
    from sheetgen.play.heatmap import draw_heatmap

    for name in ("classic", "disorder"):
        report = simulate(Setup(load_grid(name), games=PICTURE_GAMES, seed=SEED), jobs=2)
        path = DOCS / f"heatmap-{name}.png"
        path.write_bytes(draw_heatmap(report, "png"))
        print(path)


if __name__ == "__main__":
    print(balance_table(), end="")
    print()
    print(best_table(), end="")
    print()
    print(first_player_table(), end="")
    if "--pictures" in sys.argv[1:]:
        write_pictures()
