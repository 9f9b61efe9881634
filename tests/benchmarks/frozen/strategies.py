"""Strategies: small, named policies that choose a player's moves.

A strategy is made per game by ``make(rng)`` and is then a ``Choose``
function (see ``game``): it gets the legal moves (never empty), its own
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

from .game import BIS, Choose, Move, Sheet, Table

GREEDY_MAX_SKIP = 1  # greedy crosses a cell only if it loses at most this many cells
CAREFUL_YOUNG_ROW = 1  # careful loses a cell without need only in a row with at most this many crosses
CAREFUL_SKIP_POINTS = 2  # careful's price of a lost cell, against a penalty's points


@dataclass(frozen=True)
class Strategy:
    name: str
    summary: str  # one line, for --help
    make: Callable[[random.Random], Choose]


def _random(rng: random.Random) -> Choose:
    randrange = rng.randrange

    def choose(moves: list[Move], sheet: Sheet, table: Table) -> Move | None:
        return moves[randrange(len(moves))]

    return choose


def _greedy(rng: random.Random) -> Choose:
    randrange = rng.randrange

    def choose(moves: list[Move], sheet: Sheet, table: Table) -> Move | None:
        nxt = sheet.next
        fewest = GREEDY_MAX_SKIP
        ties: list[Move] = []
        for move in moves:
            kind, row, index = move
            skip = 0 if kind == BIS else index - nxt[row]
            if skip < fewest or not ties and skip == fewest:
                fewest, ties = skip, [move]
            elif skip == fewest:
                ties.append(move)
        if not ties:
            return None
        return ties[0] if len(ties) == 1 else ties[randrange(len(ties))]

    return choose


def _careful(rng: random.Random) -> Choose:
    randrange = rng.randrange

    def choose(moves: list[Move], sheet: Sheet, table: Table) -> Move | None:
        nxt, crosses, last = sheet.next, sheet.crosses, table.rules.last
        best, ties = 1 << 30, []
        for move in moves:
            kind, row, index = move
            skip = 0 if kind == BIS else index - nxt[row]
            # The lower the key the better: three tiers, then the detail within one.
            if skip == 0:
                key = 100 - crosses[row]  # no loss: build the row nearest to closing
            elif index == last[row] or (skip == 1 and crosses[row] <= CAREFUL_YOUNG_ROW):
                key = 1000 + skip
            elif (table.action == 2 and not table.active_crossed  # a penalty threatens
                  and skip * CAREFUL_SKIP_POINTS < table.rules.penalty_points):
                key = 2000 + skip
            else:
                continue
            if key < best:
                best, ties = key, [move]
            elif key == best:
                ties.append(move)
        if not ties:
            return None
        return ties[0] if len(ties) == 1 else ties[randrange(len(ties))]

    return choose


STRATEGIES = {
    s.name: s
    for s in (
        Strategy("random", "crosses any legal move at random; passes only when there is none", _random),
        Strategy("greedy", f"crosses the move that loses fewest cells if it loses at most {GREEDY_MAX_SKIP}",
                 _greedy),
        Strategy("careful", "crosses a cell that loses none (in the row with most crosses), else closes a row"
                 f" or loses one cell of a row with at most {CAREFUL_YOUNG_ROW} cross; against a penalty, loses"
                 f" cells worth less than it ({CAREFUL_SKIP_POINTS} points each)", _careful),
    )
}
DEFAULT_STRATEGY = "careful"
