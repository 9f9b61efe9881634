"""A frozen copy of the game engine and strategies as they were before the
speed work (issue 25), imported only by the benchmark, so that one run measures
the engine before and after on the same machine under the same load.

``play_game`` plays one game the way the simulator did then (a game's dice and
its strategies' choices seeded from the run's seed and the game's index)."""

from __future__ import annotations

import random

from sheetgen.play.lucky import deal_lucky

from .game import Game, GameResult, random_dice, rulebook
from .strategies import STRATEGIES


def play_game(grid, seats: tuple[str, ...], seed: int, index: int) -> GameResult:
    game_seed = seed << 32 | index
    dice = random_dice(grid.dice_faces, random.Random(game_seed << 1))
    choices = random.Random(game_seed << 1 | 1)
    lucky = deal_lucky(grid.lucky, game_seed)
    return Game(rulebook(grid), [STRATEGIES[name].make(choices) for name in seats], dice,
                [next(lucky) for _ in seats]).play()
