"""Strategies: small, named policies that choose a player's moves.

A strategy is made per game by ``make(rng)`` and is then a ``Choose``
function (see ``game``; the simple ones here are ``Ranked``: a key per move,
which the turn loop reads from a table without calling them): it gets the legal moves (never empty), its own
``Sheet`` and the ``Table`` (the dice, whose turn, closed rows), and returns
one of the moves or None to cross nothing.  It sees nothing else: not the
other players' choices in the same action 1, not the dice to come.  Its
randomness, if any, comes from ``rng``, which the simulation seeds per game.

A power's crosses (POWER moves, rows tied for fewest crosses) lose no cell, so
every strategy takes one of them.  Ties between equally good moves are broken
at random: a rule like "the first listed" would favour the top row, and a
simulation would then report the strategy's bias as the grid's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .best import make_best
from .game import Choose, Ranked

GREEDY_MAX_SKIP = 1  # greedy crosses a cell only if it loses at most this many cells
CAREFUL_YOUNG_ROW = 1  # careful loses a cell without need only in a row with at most this many crosses
CAREFUL_SKIP_POINTS = 2  # careful's price of a lost cell, against a penalty's points


@dataclass(frozen=True)
class Strategy:
    name: str
    summary: str  # one line, for --help
    make: Callable[[random.Random], Choose]


def below(rng: random.Random) -> Callable[[int], int]:
    """``rng.randrange`` for one argument ``n >= 1``: the same draws from the same
    bits (``getrandbits`` of ``n``'s bit length, again while past ``n``), without
    its checks of its arguments, which cost more than the draw (a tie is broken
    several times a game)."""
    getrandbits = rng.getrandbits

    def draw(n: int) -> int:
        k = n.bit_length()
        found = getrandbits(k)
        while found >= n:
            found = getrandbits(k)
        return found

    return draw


def _random(rng: random.Random) -> Choose:
    return Ranked(_any, below(rng), draw_single=True)  # a draw even for one move, as it always made


def _any(skip: int, crosses: int, closes: bool, threat: bool, penalty_points: int) -> int:
    return 0


def _greedy(rng: random.Random) -> Choose:
    return Ranked(_fewest_lost, below(rng))


def _fewest_lost(skip: int, crosses: int, closes: bool, threat: bool, penalty_points: int) -> int | None:
    return skip if skip <= GREEDY_MAX_SKIP else None


def _careful(rng: random.Random) -> Choose:
    return Ranked(_careful_rank, below(rng))


def _careful_rank(skip: int, crosses: int, closes: bool, threat: bool, penalty_points: int) -> int | None:
    # The lower the key the better: three tiers, then the detail within one.
    if skip == 0:
        return 100 - crosses  # no loss: build the row nearest to closing
    if closes or (skip == 1 and crosses <= CAREFUL_YOUNG_ROW):
        return 1000 + skip
    if threat and skip * CAREFUL_SKIP_POINTS < penalty_points:  # a pass would cost a penalty
        return 2000 + skip
    return None


STRATEGIES = {
    s.name: s
    for s in (
        Strategy("random", "crosses any legal move at random; passes only when there is none", _random),
        Strategy("greedy", f"crosses the move that loses fewest cells if it loses at most {GREEDY_MAX_SKIP}",
                 _greedy),
        Strategy("careful", "crosses a cell that loses none (in the row with most crosses), else closes a row"
                 f" or loses one cell of a row with at most {CAREFUL_YOUNG_ROW} cross; against a penalty, loses"
                 f" cells worth less than it ({CAREFUL_SKIP_POINTS} points each)", _careful),
        Strategy("best", "crosses what leaves the sheet worth most: its crosses and the likely crosses to come"
                 " per row, penalties counted; the rolling player weighs both actions together", make_best),
    )
}
DEFAULT_STRATEGY = "careful"
