"""The ``best`` strategy: each decision by the expected value of the sheet after it.

A sheet's value is the points it is expected to hold at the end of the game:
per row, the crosses it has plus the crosses still to come, scored as the row
scores (triangular), minus the penalties.  The crosses to come in an open row
are its free cells, each weighted by how likely its number is to be rolled
(a 7 six times as likely as a 2 on two dice), times the share of them a player
gets before the game ends, which falls as rows close.  A row's lock is one
more cross, so its last cell counts twice.  Closed rows, and every row once a
move ends the game, are worth exactly their points.

Decisions look ahead over the dice the player already sees:

- action 1, a player who is not rolling: the move (or none) whose sheet is worth most;
- action 1, the active player: every pair of a white move (or none) and a
  coloured move the same dice then allow (or none), crossing nothing in both
  costing a penalty; the white move of the best pair;
- action 2: the move worth most, or none if that is worth more (a penalty
  counted when the player crossed nothing this turn).

Nothing is special-cased by grid: the weights come from the grid's numbers,
dice faces, thresholds and lengths (``Rulebook``).  The shares were tuned by
self-play on the built-in grids (docs/simulate.md gives the averages).
"""

from __future__ import annotations

import random

from .game import BIS, CELL, LUCKY, POWER, SHUT, Choose, Move, Rulebook, Sheet, Table

# The share of a row's (weighted) free cells a player still gets, by how many
# rows are closed: none, one (the next closing ends the game).
SHARE_OPEN = 0.95
SHARE_ONE_CLOSED = 0.8
# With others at the table rows close sooner (theirs race mine): these shares instead.
SHARE_OPEN_TABLE = 0.6
SHARE_ONE_CLOSED_TABLE = 0.5
SPECIAL_CROSS = 3.0  # points a framed or symbol cell brings beyond its own cross
LOCK_SLACK = 1.0  # crosses short of the threshold at which a row's lock starts to count
PENALTY_LIFE = 0.1  # the share lost as the penalty boxes fill (all of them: this much)
TIE = 1e-9


class _Tables:
    """Per grid: each row's weighted free cells from each position."""

    def __init__(self, rules: Rulebook):
        faces = rules.grid.dice_faces
        ways = [0.0] * (2 * faces + 1)
        for a in range(1, faces + 1):
            for b in range(1, faces + 1):
                ways[a + b] += 1
        top = max(ways)
        weight = [w / top for w in ways]  # the likeliest number 1
        self.future = []  # per row, per position: the weighted free cells before the last
        self.lock = []  # per row: the last cell's weight, twice (its cross and the lock's)
        for r in range(rules.rows):
            numbers, last = rules.numbers[r], rules.last[r]
            tail = [0.0] * (last + 1)
            for i in range(last - 1, -1, -1):
                tail[i] = tail[i + 1] + weight[numbers[i]] * rules.weight[r][i]
            self.future.append(tail)
            self.lock.append(2 * weight[numbers[last]])


_TABLES: dict[int, tuple[Rulebook, _Tables]] = {}


def _tables(rules: Rulebook) -> _Tables:
    entry = _TABLES.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _TABLES[id(rules)] = (rules, _Tables(rules))
    return entry[1]


def _life(rules: Rulebook, penalties: int) -> float:
    """How much of the game's crosses a player still expects, by the penalty boxes crossed."""
    return 1.0 - PENALTY_LIFE * penalties / rules.penalty_boxes


def _tri(x: float) -> float:
    return x * (x + 1) / 2


def make_best(rng: random.Random) -> Choose:
    random_ = rng.random

    def row_value(rules: Rulebook, tables: _Tables, r: int, crosses: int, nxt: int, locked: bool,
                  share: float) -> float:
        most = rules.max_crosses
        if nxt == SHUT or share == 0.0:
            return _tri(min(crosses + locked, most))
        x = crosses + share * tables.future[r][nxt]
        # The lock counts as far as the row is expected to reach the threshold.
        reach = x - rules.close_after + LOCK_SLACK
        if reach > 0:
            x += share * tables.lock[r] * (reach if reach < 1 else 1)
        return _tri(min(x, most))

    def after(rules: Rulebook, tables: _Tables, sheet: Sheet, solo: bool, closed: int,
              moves: list[Move], penalty: bool) -> float:
        """The sheet's value after ``moves`` (each one cross), with a penalty if ``penalty``."""
        crosses, nxt, locked = list(sheet.crosses), list(sheet.next), list(sheet.locked)
        extra, closes = 0.0, 0
        for move in moves:
            kind, r, i = move
            if kind == BIS:
                crosses[r] += 1
                continue
            crosses[r] += rules.weight[r][i]
            if rules.special[r][i]:
                extra += SPECIAL_CROSS
            if i == rules.last[r]:
                locked[r], nxt[r] = True, SHUT
                closes += 1
            else:
                nxt[r] = i + 1
        points = -rules.penalty_points * (sheet.penalties + penalty)
        ends = closed + closes >= 2 or (penalty and sheet.penalties + 1 >= rules.penalty_boxes)
        if ends:
            return points + extra + sum(_tri(min(crosses[r] + locked[r], rules.max_crosses))
                                        for r in range(rules.rows))
        if solo:
            share = SHARE_OPEN if closed + closes == 0 else SHARE_ONE_CLOSED
        else:
            share = SHARE_OPEN_TABLE if closed + closes == 0 else SHARE_ONE_CLOSED_TABLE
        share *= _life(rules, sheet.penalties + penalty)
        return points + extra + sum(row_value(rules, tables, r, crosses[r], nxt[r], locked[r], share)
                                    for r in range(rules.rows))

    def coloured(rules: Rulebook, table: Table, sheet: Sheet, first: Move | None) -> list[Move]:
        """Action 2's moves the dice allow after ``first`` in action 1 (its row's lock counted)."""
        w1, w2 = table.white
        dice = table.dice
        row, index = (first[1], first[2]) if first else (-1, -1)
        moves: list[Move] = []
        for c in table.in_game:
            die = dice[c]
            cells = rules.by_colour[c]
            for r, i, closes, move, box in cells[w1 + die] + cells[w2 + die] if w1 != w2 else cells[w1 + die]:
                n, k = sheet.next[r], sheet.crosses[r]
                has_box = sheet.boxes[r] >> i & 1
                if r == row and first is not None:
                    if first[0] == BIS:
                        k += 1
                        has_box = has_box or i == index
                    elif index == rules.last[r]:
                        continue  # closed at the end of action 1
                    else:
                        k += rules.weight[r][index]
                        n = index + 1
                if n == SHUT or table.closed[r]:
                    continue
                if i >= n:
                    if not closes or k >= rules.close_after:
                        moves.append(move)
                elif rules.bis and i == n - 1 and not has_box:
                    moves.append(box)
        return moves

    def choose(moves: list[Move], sheet: Sheet, table: Table) -> Move | None:
        rules = table.rules
        tables = _tables(rules)
        closed = sum(table.closed)
        solo = table.players == 1
        if moves[0][0] == POWER:
            # POWER: rows tied for a power's crosses; one of them is taken.
            return max(moves, key=lambda m: after(rules, tables, sheet, solo, closed, [(CELL, m[1], m[2])], False)
                       + random_() * TIE)
        active = sheet.seat == table.active
        best_move, best_value = None, -1e18
        if table.action == 1 and active:
            for first in [None, *moves]:
                as_cross = None if first is None else (first if first[0] != LUCKY else (CELL, first[1], first[2]))
                done = [as_cross] if as_cross else []
                value = after(rules, tables, sheet, solo, closed, done, as_cross is None)
                for second in coloured(rules, table, sheet, as_cross):
                    value = max(value, after(rules, tables, sheet, solo, closed, [*done, second], False))
                value += random_() * TIE
                if value > best_value:
                    best_move, best_value = first, value
            return best_move
        penalty = table.action == 2 and not table.active_crossed
        best_value = after(rules, tables, sheet, solo, closed, [], penalty) + random_() * TIE
        for move in moves:
            cross = move if move[0] != LUCKY else (CELL, move[1], move[2])
            value = after(rules, tables, sheet, solo, closed, [cross], False) + random_() * TIE
            if value > best_value:
                best_move, best_value = move, value
        return best_move

    return choose
