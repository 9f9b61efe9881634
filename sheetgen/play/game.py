"""The game engine: one game of any grid, played by the rules read from its model.

Owns the state of a game (``Table``: what every player sees) and of each
player's sheet (``Sheet``), the legal moves for a roll, and applying a move
with everything that follows from it at once: bonus chains, powers, locks,
dice leaving the game, the end of the game.  It knows nothing of strategies
beyond their signature (``Choose``) and nothing of statistics.

The rules, beyond what a sheet shows (docs/simulate.md says more):

- Each roll, action 1 is simultaneous: every player may cross the white sum in
  one row.  A row a player closes is closed for that player at once (also for
  the bonus and power crosses that follow from the same action) but stays open
  for the others until the action ends, so several players may close it.
- Action 2: the active player may cross a white die + a coloured die still in
  the game, in a cell of that die's colour.  Crossing nothing in both actions
  costs the active player a penalty box.
- When an action ends, the rows closed in it close for everybody: their dice
  leave the game and everybody strikes the bar boxes of their colours.  The game
  ends when a second row is closed (after action 1: action 2 is not played and
  nobody is penalised) or when a player crosses their last penalty box.
- One action, one cross: a small (Bis) box or a lucky-number cross replaces the
  action's cross; a bonus or power cross follows from it, depth first (a framed
  cell's bonus before the power its symbol completes).

Speed matters (thousands of games a second), so a grid is first compiled into
lookup tables (``Rulebook``), a sheet is lists of small integers, a move is a
``(kind, row, cell index)`` tuple, and the features a grid lacks (bonus bar,
powers, Bis, lucky numbers) cost one flag test per move, not a function call.
Cells and rows are counted from 0 everywhere here, top to bottom and left to
right; numbers are the printed cell numbers.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from operator import add, attrgetter
from typing import TYPE_CHECKING, NamedTuple

from ..grid.model import Colour, Effect, Grid, Power, Symbol, row_points

if TYPE_CHECKING:
    from .turns import Loop, Seats

COLOURS = tuple(Colour)  # a colour is its index in this tuple: red 0, yellow 1, green 2, blue 3
ROWS_TO_END = 2  # the game ends when this many rows are closed

# Kinds of move, the first item of a move tuple.
CELL = 0  # cross the cell: the action's white sum, or white + coloured die
BIS = 1  # cross the small box under the player's rightmost cross of the row
LUCKY = 2  # a lucky number: the first free cell of a row with fewest crosses
POWER = 3  # where a power's crosses go, when rows tie for fewest crosses

Move = tuple[int, int, int]  # (kind, row, cell index)
Place = tuple[int, int, bool, Move, Move]  # a cell a number may go to: row, index, is last, its CELL and BIS moves
Roll = tuple[int, int, tuple[int, ...]]  # (white die, white die, coloured dice in COLOURS order)

SHUT = 1 << 10  # Sheet.next of a row closed for its player: beyond any cell, so no cell is legal

# Bar box states.
FREE, CROSSED, STRUCK = 0, 1, 2


@dataclass(frozen=True)
class Rulebook:
    """A grid's rules compiled into tables the engine reads in its inner loop.

    Lists are indexed by row, then by cell index or by number (a sum of two
    dice, 2 to 2 x faces).  Built once per grid by ``rulebook(grid)``.
    """

    grid: Grid
    rows: int
    close_after: int
    max_crosses: int  # crosses of a row that score at most
    penalty_boxes: int
    penalty_points: int
    last: tuple[int, ...]  # per row: index of its last cell
    numbers: tuple[tuple[int, ...], ...]  # per row: the printed number of each cell
    weight: tuple[tuple[int, ...], ...]  # per row: crosses each cell gives (a double cell 2)
    colour: tuple[tuple[int, ...], ...]  # per row: colour of each cell
    lock_colour: tuple[int, ...]  # per row
    row_of_colour: tuple[int, ...]  # per colour: the row it locks, -1 for none
    # Where a number may go, as places (row, cell index, is the row's last cell, the CELL and BIS moves):
    by_sum: tuple[tuple[Place, ...], ...]  # per number: every cell that carries it
    by_colour: tuple[tuple[tuple[Place, ...], ...], ...]  # per colour, per number: the cells of that colour
    bis: bool
    lucky: bool
    bar: tuple[int, ...]  # colour of each bonus bar box, left to right
    framed: tuple[tuple[bool, ...], ...]
    symbol: tuple[tuple[int, ...], ...]  # per row: index in ``powers`` of each cell's symbol, -1 for none
    powers: tuple[Power, ...]
    symbol_cells: tuple[int, ...]  # per power: how many cells carry its symbol
    special: tuple[tuple[bool, ...], ...]  # per row: crossing the cell does more (framed, symbol)
    has_special: bool
    # Action 2's places per colour, per roll of the white dice and that colour's
    # die (``roll_index``): the places of white 1 + die, then of white 2 + die if it differs.
    by_roll: tuple[tuple[tuple[Place, ...], ...], ...]
    plain: tuple[tuple[bool, ...], ...]  # per row: crossing the cell does nothing more (not last, not special)
    doubles: tuple[int, ...]  # per row: bit set of its double cells
    points: tuple[int, ...]  # a row's points by its crosses plus its lock (past max_crosses as many as that)
    bar_boxes: tuple[tuple[int, ...], ...]  # per row: the bonus bar boxes of its lock's colour, struck when it shuts
    ranked: dict = field(default_factory=dict, compare=False, repr=False)  # Rank -> its Keys, built on first use
    loops: dict = field(default_factory=dict, compare=False, repr=False)  # Seats -> its written Loop, on first use

    def keys(self, rank: Rank) -> Keys:
        """The keys of a ``Ranked`` strategy's rank for this grid (see ``rank_table``)."""
        found = self.ranked.get(rank)
        if found is None:
            found = self.ranked[rank] = rank_table(rank, self)
        return found

    def loop(self, seats: Seats) -> Loop:
        """The turn loop written out for this grid and these seats (``turns``), compiled on first use."""
        found = self.loops.get(seats)
        if found is None:
            from .turns import make_loop

            found = self.loops[seats] = make_loop(self, seats)
        return found


@lru_cache(maxsize=32)
def rulebook(grid: Grid) -> Rulebook:
    """Compile ``grid`` (hashable: frozen) for the engine; cached per grid."""
    sums = range(2 * grid.dice_faces + 1)
    powers = tuple(grid.powers)
    symbol_index: dict[Symbol | None, int] = {power.symbol: n for n, power in enumerate(powers)}
    rows = grid.rows
    framed = tuple(tuple(cell.framed for cell in row.cells) for row in rows)
    symbol = tuple(tuple(symbol_index.get(cell.symbol, -1) for cell in row.cells) for row in rows)
    special = tuple(
        tuple(f or s >= 0 for f, s in zip(fr, sy)) for fr, sy in zip(framed, symbol)
    )
    colour = tuple(tuple(COLOURS.index(cell.colour) for cell in row.cells) for row in rows)
    lock_colour = tuple(COLOURS.index(row.lock_colour) for row in rows)
    numbers = {(r, i): cell.number for r, row in enumerate(rows) for i, cell in enumerate(row.cells)}
    # top row first, left to right
    places = [(r, i, i == len(rows[r].cells) - 1, (CELL, r, i), (BIS, r, i)) for r, i in numbers]
    by_colour = tuple(
        tuple(tuple(place for place in places if numbers[place[:2]] == n and colour[place[0]][place[1]] == c)
              for n in sums)
        for c in range(len(COLOURS))
    )
    return Rulebook(
        grid=grid,
        rows=len(rows),
        close_after=grid.close_after,
        max_crosses=grid.max_crosses,
        penalty_boxes=grid.penalty_boxes,
        penalty_points=grid.penalty_points,
        last=tuple(len(row.cells) - 1 for row in rows),
        numbers=tuple(row.numbers for row in rows),
        weight=tuple(tuple(cell.weight for cell in row.cells) for row in rows),
        colour=colour,
        lock_colour=lock_colour,
        row_of_colour=tuple(lock_colour.index(c) if c in lock_colour else -1 for c in range(len(COLOURS))),
        by_sum=tuple(tuple(place for place in places if numbers[place[:2]] == n) for n in sums),
        by_colour=by_colour,
        bis=grid.bis,
        lucky=grid.lucky is not None,
        bar=tuple(COLOURS.index(c) for c in grid.bonus_bar),
        framed=framed,
        symbol=symbol,
        powers=powers,
        symbol_cells=tuple(len(grid.symbol_cells(power.symbol)) for power in powers),
        special=special,
        has_special=any(any(row) for row in special),
        by_roll=_by_roll(by_colour, grid.dice_faces),
        plain=tuple(tuple(i < len(sp) - 1 and not x for i, x in enumerate(sp)) for sp in special),
        doubles=tuple(sum(1 << i for i, cell in enumerate(row.cells) if cell.weight == 2) for row in rows),
        points=tuple(row_points(min(n, grid.max_crosses))
                     for n in range(max(2 * len(row.cells) + sum(c.weight for c in row.cells) for row in rows) + 2)),
        bar_boxes=tuple(tuple(box for box, c in enumerate(grid.bonus_bar) if COLOURS.index(c) == lock)
                        for lock in lock_colour),
    )


def roll_index(faces: int, w1: int, w2: int, die: int) -> int:
    """Where ``Rulebook.by_roll`` keeps the places of white dice ``w1``, ``w2`` and a coloured ``die``."""
    return (w1 * (faces + 1) + w2) * (faces + 1) + die


Places = tuple[tuple[tuple[Place, ...], ...], ...]  # per colour, per number or roll


def _by_roll(by_colour: Places, faces: int) -> Places:
    sides = range(faces + 1)
    return tuple(
        tuple(cells[w1 + die] + cells[w2 + die] if w1 != w2 else cells[w1 + die]
              for w1 in sides for w2 in sides for die in sides)
        for cells in by_colour
    )


class Sheet:
    """One player's sheet during a game: what they crossed, as small integers.

    ``next[r]`` is the first cell a cross may still go to in row ``r`` (one
    right of the rightmost cross), or ``SHUT`` once the row is closed for the
    player; ``crosses[r]`` counts the row's crosses before its last cell (a
    double cell 2, a small box 1), which is what the closing threshold needs;
    ``cells[r]`` and ``boxes[r]`` are bit sets of crossed cells and small boxes.
    """

    __slots__ = ("seat", "lucky", "next", "crosses", "locked", "cells", "boxes", "penalties", "bar",
                 "symbols", "unlocked", "lucky_crosses", "lucky_rows", "bonus_rows")

    def __init__(self, rules: Rulebook, seat: int, lucky: tuple[int, ...] = ()):
        rows = [0] * rules.rows
        self.seat = seat  # 0 for the player who rolls first
        self.lucky = frozenset(lucky)
        self.next = rows
        self.crosses = rows[:]
        self.locked = [False] * rules.rows  # the player crossed the row's last cell and its lock
        self.cells = rows[:]
        self.boxes = rows[:]
        self.penalties = 0
        self.bar = [FREE] * len(rules.bar)
        self.symbols = [0] * len(rules.powers)  # crossed cells of each power's symbol
        self.unlocked: list[int] = []  # indexes of unlocked powers, in the order they were unlocked
        self.lucky_crosses = 0  # crosses made with a lucky number (for the statistics)
        # Per row, for the statistics: crosses (a double cell 2) made with a lucky number, and as a bar's bonus.
        self.lucky_rows = rows[:]
        self.bonus_rows = rows[:]


class Table:
    """What every player sees: the dice, whose turn it is, which rows are closed.

    Strategies read it and must not change it.  Other players' crosses in the
    current action 1 are not shown (they are simultaneous).
    """

    __slots__ = ("rules", "players", "rolls", "active", "action", "white", "dice", "in_game", "closed",
                 "active_crossed")

    def __init__(self, rules: Rulebook, players: int):
        self.rules = rules
        self.players = players
        self.rolls = 0  # rolls so far, this one included
        self.active = 0  # seat of the player whose turn it is
        self.action = 1  # 1 or 2
        self.white = (0, 0)
        self.dice: tuple[int, ...] = ()  # coloured dice, COLOURS order (those out of the game too)
        self.in_game = list(range(len(COLOURS)))  # the colours whose dice are still rolled
        self.closed = [False] * rules.rows  # per row: closed for everybody
        self.active_crossed = False  # the active player crossed something this turn


# A strategy: given the legal moves (never empty), the player's own sheet and
# the table, the move to make, or None to cross nothing.  For POWER moves
# (the rows tied for a power's crosses) None means the first.
Choose = Callable[[list[Move], Sheet, Table], "Move | None"]

# A ranking of one move, for ``Ranked``: (cells it loses, 0 for a small box;
# crosses of its row before it; it crosses the row's last cell; the active
# player's action 2 with nothing crossed yet, so a pass costs a penalty; the
# points of a penalty) -> a key, lower is better, or None: never this move.
Rank = Callable[[int, int, bool, bool, int], "int | None"]


class Ranked:
    """A strategy that ranks each legal move on its own (``Rank``) and takes a
    best one, equal keys broken by ``randrange`` over them in the order the
    moves are listed (with ``draw_single``, also a draw of 1 for a lone best).

    It is a ``Choose`` like any other; the turn loop also knows it and, instead
    of listing the moves and calling it, ranks each cell as it finds it legal
    from a table of keys built once per rank and grid: the same choice, and the
    same draws, with no list and no call.  ``tests/test_game.py`` plays games
    both ways and compares them.
    """

    __slots__ = ("rank", "randrange", "draw_single")

    def __init__(self, rank: Rank, randrange: Callable[[int], int], draw_single: bool = False):
        self.rank, self.randrange, self.draw_single = rank, randrange, draw_single

    def __call__(self, moves: list[Move], sheet: Sheet, table: Table) -> Move | None:
        rules = table.rules
        nxt, crosses, last, penalty = sheet.next, sheet.crosses, rules.last, rules.penalty_points
        threat = table.action == 2 and not table.active_crossed
        best, chosen, ties = None, None, None
        for move in moves:
            kind, row, index = move
            box = kind == BIS
            key = self.rank(0 if box else index - nxt[row], crosses[row], not box and index == last[row],
                            threat, penalty)
            if key is None:
                continue
            if best is None or key < best:
                best, chosen, ties = key, move, None
            elif key == best:
                ties = [chosen, move] if ties is None else ties + [move]
        if ties is not None:
            return ties[self.randrange(len(ties))]
        if chosen is not None and self.draw_single:
            self.randrange(1)
        return chosen


NEVER = (1 << 30) - 1  # a key no move has: a move its rank refuses (the largest one-digit int, which
# CPython compares as fast as small ones; 1 << 30 takes two digits and slows every comparison with it)


Keys = tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]


def rank_table(rank: Rank, rules: Rulebook) -> Keys:
    """``rank``'s keys for ``rules``, as ``table[threat][closes][skip][crosses]``
    (``NEVER`` for a refused move): every skip and count of crosses a row of
    the grid can have.  ``Rulebook.keys`` keeps them."""
    cells = max(last for last in rules.last) + 1
    most = max(sum(row) for row in rules.weight) + cells + 1  # every cell, double ones too, and every box

    def key(*args: int) -> int:
        found = rank(*args)  # type: ignore[arg-type]
        return NEVER if found is None else found

    return tuple(
        tuple(tuple(tuple(key(skip, crosses, closes, threat, rules.penalty_points) for crosses in range(most))
                    for skip in range(cells)) for closes in (False, True))
        for threat in (False, True)
    )


class Closing(NamedTuple):
    """A row closing: who crossed its lock, on which roll and in which action."""

    row: int
    seat: int
    roll: int
    action: int
    active: bool  # the closer was the active player


class GameResult(NamedTuple):
    rolls: int
    end: str | None  # "locks" (a second row closed), "penalties" (a player's last penalty box), None: no end
    closings: tuple[Closing, ...]
    sheets: tuple[Sheet, ...]  # seat order
    scores: tuple[SheetScore, ...]  # seat order


class SheetScore(NamedTuple):
    """The engine's own tally of a final sheet (``score_sheet`` must agree)."""

    rows: tuple[int, ...]  # points per row
    penalty_points: int  # signed
    power_points: int
    total: int


def _no_draw(n: int) -> int:
    raise AssertionError("only a Ranked strategy's draws are made in the turn loop")


class GameOver(Exception):
    """Raised inside ``Game.play`` when the game ends; carries why."""

    def __init__(self, end: str):
        self.end = end


_OWN_EFFECTS: dict[type, bool] = {}


def _own_effects(game: type) -> bool:
    """The written loop makes a framed cell's bonus, a symbol's count, a lock (its row shut for
    its player) and rows closing itself: not for a subclass of ``Game`` that watches them (found
    once per class)."""
    found = _OWN_EFFECTS.get(game)
    if found is None:
        names = ("effects", "bonus", "forced", "unlock", "shut", "close_rows")
        found = _OWN_EFFECTS[game] = all(getattr(game, name) is getattr(Game, name) for name in names)
    return found


_SEAT = attrgetter("rank", "draw_single")  # a Ranked seat as the written loop knows it (``Seats``)
_DRAW = attrgetter("randrange")


class Game:
    """One game: players' strategies in seat order, a source of dice, lucky numbers per seat.

    When every seat is ``Ranked`` the game is played by the turn loop written
    out for the grid and the seats (``turns``), unless ``written`` is False
    (the tests play both and compare)."""

    written = True

    def __init__(self, rules: Rulebook, strategies: Sequence[Choose], dice: Iterator[Roll],
                 lucky: Sequence[tuple[int, ...]] = ()):
        if not strategies:
            raise ValueError("a game needs at least one player")
        self.rules = rules
        self.strategies = tuple(strategies)
        self.dice = dice
        self.sheets = tuple([
            Sheet(rules, seat, lucky[seat] if seat < len(lucky) else ()) for seat in range(len(strategies))
        ])
        self.table = Table(rules, len(strategies))
        self.closing: list[Closing] = []  # closings of the current action, not yet in effect for all
        self.closings: list[Closing] = []

    # -- the turn loop -----------------------------------------------------

    def play(self) -> GameResult:
        """Roll until the game ends (or hand-made dice run out: ``end`` is None);
        the final sheets and their scores."""
        end = None
        try:
            self.run()
        except GameOver as over:
            end = over.end
        sheets = self.sheets  # (rolls, end, closings, sheets, scores)
        return GameResult(self.table.rolls, end, tuple(self.closings), sheets, scores(self.rules, sheets))

    def run(self) -> None:
        """The turn loop, until ``GameOver`` or the end of the dice.  Everything
        it reads on every roll is bound to a local name first: this loop is
        where the time goes.  Moves come ready-made from the rulebook's places
        (a CELL and a BIS move each), so making the legal moves allocates
        nothing but their list; a ``Ranked`` strategy is not called at all:
        its keys are read from its table as each legal move is found."""
        rules, table, sheets, strategies = self.rules, self.table, self.sheets, self.strategies
        # A cell that does nothing more is crossed here, unless a subclass watches ``cross``.
        inline = type(self).cross is Game.cross
        own = type(self) is Game or _own_effects(type(self))
        if inline and own and self.written and set(map(type, strategies)) == {Ranked}:
            ranked: list[Ranked] = strategies  # type: ignore[assignment]  # all Ranked, as checked
            loop = rules.loop(tuple(map(_SEAT, ranked)))
            loop(self, table, sheets, list(map(_DRAW, ranked)), self.dice)
            return
        close_after, bis, lucky = rules.close_after, rules.bis, rules.lucky
        by_sum, by_roll = rules.by_sum, rules.by_roll
        penalty_boxes, sides, plain, weight = rules.penalty_boxes, rules.grid.dice_faces + 1, rules.plain, rules.weight
        numbers, last = rules.numbers, rules.last
        players, cross, closing, in_game = table.players, self.cross, self.closing, table.in_game
        # Per seat: sheet, strategy, and for a Ranked one its keys and its draws.
        seated: tuple[tuple[Sheet, Choose, Keys | None, Callable[[int], int], bool], ...] = tuple(
            (sheet, choose, rules.keys(choose.rank), choose.randrange, choose.draw_single)
            if type(choose) is Ranked else (sheet, choose, None, _no_draw, False)
            for sheet, choose in zip(sheets, strategies)
        )
        never = NEVER
        for w1, w2, dice in self.dice:
            rolls = table.rolls = table.rolls + 1
            active = table.active = (rolls - 1) % players
            table.white, table.dice = (w1, w2), dice
            table.action, table.active_crossed = 1, False

            # Action 1, everybody, each from the state before it.
            total = w1 + w2
            places = by_sum[total]
            for sheet, choose, keys, randrange, draw_single in seated:
                nxt, crosses = sheet.next, sheet.crosses
                move: Move | None
                if keys is not None:
                    calm = keys[0]
                    best, move, ties = never, None, None
                    for r, i, closes, cell, box in places:
                        n = nxt[r]
                        if i >= n:
                            if closes and crosses[r] < close_after:
                                continue
                            key, found = calm[closes][i - n][crosses[r]], cell
                        elif bis and i == n - 1 and not sheet.boxes[r] >> i & 1:
                            key, found = calm[0][0][crosses[r]], box
                        else:
                            continue
                        if key < best:
                            best, move, ties = key, found, None
                        elif key == best and key != never:
                            ties = [move, found] if ties is None else ties + [found]
                    if lucky and total in sheet.lucky:  # the lucky crosses, after the cells (but not twice a cell)
                        for found in self.fewest_crosses_moves(sheet, LUCKY):
                            r, i = found[1], found[2]
                            if numbers[r][i] == total:
                                continue
                            key = calm[i == last[r]][0][crosses[r]]
                            if key < best:
                                best, move, ties = key, found, None
                            elif key == best and key != never:
                                ties = [move, found] if ties is None else ties + [found]
                    if ties is not None:
                        move = ties[randrange(len(ties))]
                    elif move is None:
                        continue
                    elif draw_single:
                        randrange(1)
                else:
                    moves = []
                    for r, i, closes, cell, box in places:
                        n = nxt[r]
                        if i >= n:
                            if not closes or crosses[r] >= close_after:
                                moves.append(cell)
                        elif bis and i == n - 1 and not sheet.boxes[r] >> i & 1:
                            moves.append(box)
                    if lucky and total in sheet.lucky:
                        moves += [m for m in self.fewest_crosses_moves(sheet, LUCKY) if (CELL, m[1], m[2]) not in moves]
                    if not moves:
                        continue
                    move = choose(moves, sheet, table)
                    if move is None:
                        continue
                kind, row, index = move  # type: ignore[misc]  # a move by now (ties hold moves only)
                if kind == BIS:
                    sheet.boxes[row] |= 1 << index
                    crosses[row] += 1
                else:
                    if kind == LUCKY:
                        sheet.lucky_crosses += 1
                        sheet.lucky_rows[row] += weight[row][index]
                    if inline and plain[row][index]:
                        sheet.cells[row] |= 1 << index
                        crosses[row] += weight[row][index]
                        nxt[row] = index + 1
                    else:
                        cross(sheet, row, index, 1)
                if sheet.seat == active:
                    table.active_crossed = True
            if closing:
                self.close_rows()

            # Action 2, the active player.
            table.action = 2
            sheet, choose, keys, randrange, draw_single = seated[active]
            if keys is not None:
                nxt, crosses = sheet.next, sheet.crosses
                now = keys[not table.active_crossed]
                best, move, ties = never, None, None
                whites = (w1 * sides + w2) * sides
                for c in in_game:
                    for r, i, closes, cell, box in by_roll[c][whites + dice[c]]:
                        n = nxt[r]
                        if i >= n:
                            if closes and crosses[r] < close_after:
                                continue
                            key, found = now[closes][i - n][crosses[r]], cell
                        elif bis and i == n - 1 and not sheet.boxes[r] >> i & 1:
                            key, found = now[0][0][crosses[r]], box
                        else:
                            continue
                        if key < best:
                            best, move, ties = key, found, None
                        elif key == best and key != never:
                            ties = [move, found] if ties is None else ties + [found]
                if ties is not None:
                    move = ties[randrange(len(ties))]
                elif move is not None and draw_single:
                    randrange(1)
            else:
                moves = self.coloured_moves(sheet, w1, w2, dice)
                move = choose(moves, sheet, table) if moves else None
            if move is not None:
                kind, row, index = move
                if kind == BIS:
                    sheet.boxes[row] |= 1 << index
                    sheet.crosses[row] += 1
                elif inline and plain[row][index]:
                    sheet.cells[row] |= 1 << index
                    sheet.crosses[row] += weight[row][index]
                    sheet.next[row] = index + 1
                else:
                    cross(sheet, row, index, 2)
                table.active_crossed = True
            if not table.active_crossed:
                sheet.penalties += 1
                if sheet.penalties >= penalty_boxes:
                    raise GameOver("penalties")
            if closing:
                self.close_rows()

    def coloured_moves(self, sheet: Sheet, w1: int, w2: int, dice: Sequence[int]) -> list[Move]:
        """Action 2's legal moves: a white die + a coloured die in the game, in a
        cell of that colour (or the small box under the rightmost cross there).
        No move comes twice: a cell has one colour and one number, and the two
        white dice give two numbers only when they differ."""
        rules = self.rules
        close_after, bis, by_roll = rules.close_after, rules.bis, rules.by_roll
        nxt, crosses, boxes = sheet.next, sheet.crosses, sheet.boxes
        moves: list[Move] = []
        append = moves.append
        whites = roll_index(rules.grid.dice_faces, w1, w2, 0)
        for c in self.table.in_game:
            for r, i, closes, cell, box in by_roll[c][whites + dice[c]]:
                n = nxt[r]
                if i >= n:
                    if not closes or crosses[r] >= close_after:
                        append(cell)
                elif bis and i == n - 1 and not boxes[r] >> i & 1:
                    append(box)
        return moves

    def fewest_crosses_moves(self, sheet: Sheet, kind: int) -> list[Move]:
        """The first free cell of each open row with fewest crosses, where it
        may be crossed (a last cell needs the closing threshold)."""
        rules = self.rules
        open_rows = [r for r in range(rules.rows) if sheet.next[r] != SHUT]
        if not open_rows:
            return []
        fewest = min(sheet.crosses[r] for r in open_rows)
        return [
            (kind, r, sheet.next[r])
            for r in open_rows
            if sheet.crosses[r] == fewest and self.may_cross(sheet, r, sheet.next[r])
        ]

    def may_cross(self, sheet: Sheet, row: int, index: int) -> bool:
        rules = self.rules
        return index < rules.last[row] or sheet.crosses[row] >= rules.close_after

    # -- applying moves ----------------------------------------------------

    def apply(self, sheet: Sheet, move: Move, action: int) -> None:
        """Make a player's move in ``action`` (1 or 2), with all that follows from it."""
        kind, row, index = move
        if kind == BIS:  # one more cross, the same position
            sheet.boxes[row] |= 1 << index
            sheet.crosses[row] += 1
        else:
            if kind == LUCKY:
                sheet.lucky_crosses += 1
                sheet.lucky_rows[row] += self.rules.weight[row][index]
            self.cross(sheet, row, index, action)

    def cross(self, sheet: Sheet, row: int, index: int, action: int) -> None:
        """Cross a cell, with its lock when it is the last, and what follows at once."""
        rules = self.rules
        sheet.cells[row] |= 1 << index
        sheet.crosses[row] += rules.weight[row][index]
        if index == rules.last[row]:
            sheet.locked[row] = True
            table = self.table
            self.closing.append(Closing(row, sheet.seat, table.rolls, action, sheet.seat == table.active))
            self.shut(sheet, row)  # closed for its closer at once
        else:
            sheet.next[row] = index + 1
        if rules.has_special and rules.special[row][index]:
            self.effects(sheet, row, index, action)

    def effects(self, sheet: Sheet, row: int, index: int, action: int) -> bool:
        """What crossing a framed cell or a symbol does beyond its cross: the bonus, then the
        symbol counted and the power it unlocks.  True when that may have crossed more."""
        rules, more = self.rules, False
        if rules.framed[row][index]:
            self.bonus(sheet, action)
            more = True
        power = rules.symbol[row][index]
        if power >= 0:
            sheet.symbols[power] += 1
            if sheet.symbols[power] == rules.symbol_cells[power]:
                self.unlock(sheet, power, action)
                more = True
        return more

    def forced(self, sheet: Sheet, row: int, action: int) -> int:
        """A bonus or power cross: the first free cell of ``row``, if it is legal; else lost.
        The crosses it made (a double cell 2), 0 when lost."""
        index, rules = sheet.next[row], self.rules
        if index < rules.last[row] or index == rules.last[row] and sheet.crosses[row] >= rules.close_after:
            self.cross(sheet, row, index, action)  # (a shut row's next cell is past its last)
            return rules.weight[row][index]
        return 0

    def bonus(self, sheet: Sheet, action: int) -> None:
        """A framed cell: cross the leftmost free bar box and its row's next legal cell."""
        bar = sheet.bar
        if FREE in bar:
            box = bar.index(FREE)
            bar[box] = CROSSED
            row = self.rules.row_of_colour[self.rules.bar[box]]
            gained = self.forced(sheet, row, action)  # first: a chain may come back to this row
            sheet.bonus_rows[row] += gained

    def unlock(self, sheet: Sheet, power: int, action: int) -> None:
        sheet.unlocked.append(power)
        effect, amount = self.rules.powers[power].effect, self.rules.powers[power].amount
        if effect is Effect.EXTRA_CROSSES:
            ties = self.fewest_crosses_moves(sheet, POWER)
            # fewest_crosses_moves leaves out a tied row whose next cell is not
            # legal; the crosses of such a row are lost, so only rows that can
            # take one are worth choosing.
            if ties:
                choice = self.strategies[sheet.seat](ties, sheet, self.table) if len(ties) > 1 else None
                row = (choice or ties[0])[1]
                for _ in range(amount):
                    self.forced(sheet, row, action)
        elif effect is Effect.CROSS_EACH_OPEN_ROW:
            for row in range(self.rules.rows):
                self.forced(sheet, row, action)  # a row closed by an earlier cross is skipped

    def shut(self, sheet: Sheet, row: int) -> None:
        """Close ``row`` for one player: no more crosses, its colour's free bar boxes struck."""
        sheet.next[row] = SHUT
        bar = sheet.bar
        for box in self.rules.bar_boxes[row]:
            if bar[box] == FREE:
                bar[box] = STRUCK

    def close_rows(self) -> None:
        """End of an action: its closed rows close for everybody, their dice leave."""
        table, rules = self.table, self.rules
        for closing in self.closing:
            row = closing.row
            if not table.closed[row]:
                table.closed[row] = True
                table.in_game.remove(rules.lock_colour[row])
                for sheet in self.sheets:
                    if sheet.next[row] != SHUT:
                        self.shut(sheet, row)
        self.closings.extend(self.closing)
        self.closing.clear()
        if sum(table.closed) >= ROWS_TO_END:
            raise GameOver("locks")


# -- the final sheet -------------------------------------------------------------


def score(rules: Rulebook, sheet: Sheet) -> SheetScore:
    """Tally a sheet by the grid's scoring rules (the scorer's, independently applied)."""
    return scores(rules, (sheet,))[0]


_sheet_score = partial(tuple.__new__, SheetScore)  # SheetScore(*fields) without its __new__ in Python


def scores(rules: Rulebook, sheets: Sequence[Sheet]) -> tuple[SheetScore, ...]:
    """``score`` of each sheet, in one call (every game ends with it)."""
    points, penalty = rules.points, rules.penalty_points
    found = []
    for sheet in sheets:
        rows = tuple(map(points.__getitem__, map(add, sheet.crosses, sheet.locked)))  # crosses, plus 1 for a lock
        penalty_points = -penalty * sheet.penalties
        power_points = _power_points(rules, sheet, rows, penalty_points) if sheet.unlocked else 0
        found.append(_sheet_score((rows, penalty_points, power_points, sum(rows) + penalty_points + power_points)))
    return tuple(found)


def _power_points(rules: Rulebook, sheet: Sheet, rows: tuple[int, ...], penalty_points: int) -> int:
    power_points = 0
    applied: set[Effect] = set()
    for power in sorted(sheet.unlocked):  # the grid's order, as the scorer lists them
        effect = rules.powers[power].effect
        if effect is Effect.BONUS_POINTS:
            power_points += rules.powers[power].amount
        elif effect not in applied:  # the end-of-game states count once
            if effect is Effect.DOUBLE_LOWEST_ROW:
                power_points += min(rows)
            elif effect is Effect.NO_PENALTIES:
                power_points -= penalty_points
        applied.add(effect)
    return power_points


def marks_document(rules: Rulebook, sheet: Sheet, player: str | None = None) -> dict:
    """The sheet as plain marks data, as ``sheetgen.play.marks.marks_from_data`` reads it."""
    rows = []
    for r in range(rules.rows):
        entry: dict = {"crossed": _numbers(rules, r, sheet.cells[r]), "lock": sheet.locked[r]}
        if rules.bis:
            entry["bis"] = _numbers(rules, r, sheet.boxes[r])
        rows.append(entry)
    document: dict = {"grid": rules.grid.name}
    if player is not None:
        document["player"] = player
    document["rows"] = rows
    document["penalties"] = sheet.penalties
    if rules.bar:
        document["bonus_bar"] = [box + 1 for box, state in enumerate(sheet.bar) if state == CROSSED]
    return document


def _numbers(rules: Rulebook, row: int, bits: int) -> list[int]:
    return [number for i, number in enumerate(rules.numbers[row]) if bits >> i & 1]


# -- dice ------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _faces_tables(faces: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    whites = tuple(itertools.product(range(1, faces + 1), repeat=2))
    colours = tuple(itertools.product(range(1, faces + 1), repeat=len(COLOURS)))
    return whites, colours


TABLED_OUTCOMES = 6 ** 6  # dice of up to six faces have every roll made once, in a table


@lru_cache(maxsize=8)
def _rolls_table(faces: int) -> tuple[Roll, ...]:
    whites, colours = _faces_tables(faces)
    return tuple((a, b, coloured) for a, b in whites for coloured in colours)


class RandomDice:
    """An endless stream of fair rolls of two white and four coloured dice.

    One draw per roll from ``rng`` picks one of the faces**6 outcomes, which
    tables turn into dice: a fifth of the time of six separate draws.  The
    draw takes random bits and rejects values past the last outcome (as
    ``random.randrange`` does, without its argument checks), so every outcome
    is exactly as likely.  Up to six faces every roll is made once and looked
    up; eight-sided dice (262,144 rolls) are taken apart per draw.  The turn
    loop written for a grid (``turns``) makes the same draws itself, from
    ``getrandbits``, with the same tables (``dice_tables``).
    """

    __slots__ = ("faces", "getrandbits", "_rolls")

    def __init__(self, faces: int, rng: random.Random):
        self.faces, self.getrandbits = faces, rng.getrandbits
        self._rolls: Iterator[Roll] | None = None

    def __iter__(self) -> Iterator[Roll]:
        if self._rolls is None:
            self._rolls = _rolls(self.faces, self.getrandbits)
        return self._rolls

    def __next__(self) -> Roll:
        return next(iter(self))


def dice_tables(faces: int) -> tuple[int, int, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...],
                                     tuple[Roll, ...] | None]:
    """A draw's bits and outcomes, the white pairs and coloured rolls, and every roll when they are tabled."""
    whites, colours = _faces_tables(faces)
    outcomes = len(whites) * len(colours)
    rolls = _rolls_table(faces) if outcomes <= TABLED_OUTCOMES else None
    return outcomes.bit_length(), outcomes, whites, colours, rolls


def _rolls(faces: int, getrandbits: Callable[[int], int]) -> Iterator[Roll]:
    bits, outcomes, whites, colours, rolls = dice_tables(faces)
    if rolls is not None:
        while True:
            outcome = getrandbits(bits)
            while outcome >= outcomes:
                outcome = getrandbits(bits)
            yield rolls[outcome]
    per_white = len(colours)
    while True:
        outcome = getrandbits(bits)
        while outcome >= outcomes:
            outcome = getrandbits(bits)
        white, coloured = divmod(outcome, per_white)
        a, b = whites[white]
        yield a, b, colours[coloured]


def random_dice(faces: int, rng: random.Random) -> RandomDice:
    """Fair rolls from ``rng`` (``RandomDice``)."""
    return RandomDice(faces, rng)


def hand_dice(rolls: Iterable[Roll]) -> Iterator[Roll]:
    """Dice from a list, for tests: ``(w1, w2, (red, yellow, green, blue))`` each."""
    for w1, w2, dice in rolls:
        yield w1, w2, tuple(dice)
