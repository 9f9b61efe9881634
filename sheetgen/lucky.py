"""Lucky numbers: a personal set of distinct numbers per sheet, from a seed.

Every possible set is dealt once, in an order shuffled by the seed, before
any set repeats; so consecutive sheets (and so the sheets of one page) never
share a set while the grid's range has enough sets (longo: 105 pairs).
"""

from __future__ import annotations

import itertools
import random
from typing import Iterator

from .model import Lucky

DEFAULT_SEED = 1


def deal_lucky(lucky: Lucky | None, seed: int) -> Iterator[tuple[int, ...]]:
    """An endless stream of sorted number sets, one per sheet (empty when the grid has none)."""
    if lucky is None:
        yield from itertools.repeat(())
        return
    every = list(itertools.combinations(range(lucky.low, lucky.high + 1), lucky.count))
    rng = random.Random(seed)
    previous: tuple[int, ...] | None = None
    while True:
        deck = every[:]
        rng.shuffle(deck)
        if previous is not None and len(deck) > 1 and deck[0] == previous:
            deck.append(deck.pop(0))  # no repeat across the seam of two decks
        yield from deck
        previous = deck[-1]
