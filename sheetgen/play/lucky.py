"""Lucky numbers: a personal set of distinct numbers per sheet, from a seed.

Every possible set is dealt once, in an order shuffled by the seed, before
any set repeats (longo: 105 pairs), and any 8 consecutive sheets (so the
sheets of a page) never share a set while the range holds 8 sets or more.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Iterator

from ..grid.model import Lucky

DEFAULT_SEED = 1
SHEETS_APART = 7  # a set comes back only after this many other sheets: one page


def deal_lucky(lucky: Lucky | None, seed: int) -> Iterator[tuple[int, ...]]:
    """An endless stream of sorted number sets, one per sheet (empty when the grid has none)."""
    if lucky is None:
        yield from itertools.repeat(())
        return
    every = list(itertools.combinations(range(lucky.low, lucky.high + 1), lucky.count))
    rng = random.Random(seed)
    # The last sheets dealt: the next one differs from all of them, even where
    # one shuffled deck ends and the next begins, so a page never repeats a set.
    recent: deque[tuple[int, ...]] = deque(maxlen=min(SHEETS_APART, len(every) - 1))
    while True:
        deck = every[:]
        rng.shuffle(deck)
        while deck:
            pick = next((i for i, card in enumerate(deck) if card not in recent), 0)
            card = deck.pop(pick)
            recent.append(card)
            yield card
