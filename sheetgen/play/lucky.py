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
from functools import lru_cache

from ..grid.model import Lucky

DEFAULT_SEED = 1
SHEETS_APART = 7  # a set comes back only after this many other sheets: one page


def deal_lucky(lucky: Lucky | None, seed: int) -> Iterator[tuple[int, ...]]:
    """An endless stream of sorted number sets, one per sheet (empty when the grid has none)."""
    if lucky is None:
        yield from itertools.repeat(())
        return
    every = _sets(lucky.low, lucky.high, lucky.count)
    rng = random.Random(seed)
    # The last sheets dealt: the next one differs from all of them, even where
    # one shuffled deck ends and the next begins, so a page never repeats a set.
    recent: deque[tuple[int, ...]] = deque(maxlen=min(SHEETS_APART, len(every) - 1))
    while True:
        deck = every[:]
        shuffle(deck, rng)
        while deck:
            pick = next((i for i, card in enumerate(deck) if card not in recent), 0)
            card = deck.pop(pick)
            recent.append(card)
            yield card


@lru_cache(maxsize=16)
def _sets(low: int, high: int, count: int) -> list[tuple[int, ...]]:
    """Every set of ``count`` numbers from ``low`` to ``high``, in order (the caller copies it)."""
    return list(itertools.combinations(range(low, high + 1), count))


def first_sets(lucky: Lucky | None, seed: int, count: int) -> list[tuple[int, ...]]:
    """The first ``count`` sets of ``deal_lucky(lucky, seed)``, as a game deals them to
    its seats: from one deck (no set repeats within one) without the stream."""
    if lucky is None:
        return [()] * count
    every = _sets(lucky.low, lucky.high, lucky.count)
    if count > len(every):
        stream = deal_lucky(lucky, seed)
        return [next(stream) for _ in range(count)]
    deck = every[:]
    shuffle(deck, random.Random(seed))
    return deck[:count]


@lru_cache(maxsize=16)
def _steps(cards: int) -> tuple[tuple[int, int, int], ...]:
    """A shuffle's steps for a deck of ``cards``: the card swapped, the number of cards
    its partner is drawn from, and the bits drawn for it."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(cards - 1, 0, -1))


def shuffle(deck: list, rng: random.Random) -> None:
    """Shuffle ``deck`` in place: Fisher and Yates' shuffle, from the last card
    down, each swap's partner drawn by rejection from just enough random bits.
    The same draws and the same order as ``random.Random.shuffle`` (CPython
    3.11 and 3.12), spelt out: a simulation deals sets for every game, and
    the method's calls per card cost more than the game's first rolls."""
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(deck)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]
