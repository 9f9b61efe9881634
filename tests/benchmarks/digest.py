"""A digest of the simulator's games, to prove that a speed change plays the same games.

    .venv/bin/python tests/benchmarks/digest.py

Plays games of every built-in grid with every strategy but ``best`` (and
``best`` on a few), at 1, 2 and 4 players, mixed tables too, and hashes every
final sheet (cells, small boxes, locks, bar, penalties, powers, lucky crosses),
the game's length, end and closings.  Run it before and after a change: the
same digest, the same games.  Not collected by pytest (no test_ prefix).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sheetgen.grid.load import builtin_grids  # noqa: E402
from sheetgen.play.game import rulebook  # noqa: E402
from sheetgen.play.simulate import Setup, play_game  # noqa: E402

TABLES = ((1, ("careful",)), (2, ("greedy",)), (4, ("careful",)), (4, ("random",)), (3, ("careful", "greedy", "random")),
          (4, ("greedy", "careful")))


def digest(games: int = 150, best_games: int = 4) -> str:
    sha = hashlib.sha256()
    for grid in builtin_grids():
        rules = rulebook(grid)
        tables = [(players, seats, games) for players, seats in TABLES] + [(2, ("best", "careful"), best_games)]
        for players, seats, count in tables:
            setup = Setup(grid, games=count, players=players, strategies=seats, seed=7)
            for index in range(count):
                result = play_game(setup, index, rules)
                parts = [grid.name, result.rolls, result.end, tuple(result.closings)]
                for sheet in result.sheets:
                    parts.append((sheet.cells, sheet.boxes, sheet.locked, sheet.penalties, sheet.bar, sheet.unlocked,
                                  sheet.lucky_crosses, sheet.lucky_rows, sheet.bonus_rows, sheet.crosses))
                parts.append(result.scores)
                sha.update(repr(parts).encode())
    return sha.hexdigest()


if __name__ == "__main__":
    print(digest())
