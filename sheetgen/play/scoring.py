"""Scoring a filled-in sheet: the proof that a game could leave it, then its count.

``score_sheet(grid, marks)`` first proves the marks could be the paper left by
a real game and refuses anything else with a ``ScoreError`` naming the file,
the entry at fault, a stable reason code (``REASONS``) and why; then it counts
(``Score``).  Ranking and presenting scores (a table, JSON) is ``results.py``'s.
No I/O here; every rule is read from the grid's fields, never from its name.

The principle: refuse only what the paper proves impossible, accept everything
a real game can leave.  The paper shows what was crossed, not when, so every
refusal comes with its proof, here and in docs/scoring.md.  Two facts of the
game carry most of them:

- The game ends at once when a second row closes (a third may close in that
  same action), so before the last action at most one row is closed, by anyone.
- In one action a player crosses one cell (a lucky number or a Bis box
  replaces that cross), then only the crosses it forces at once: a bonus box's
  cross, a power's immediate crosses, and what those force in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple, NoReturn

from ..errors import InputError
from ..grid.model import Colour, Effect, Grid, Power, Symbol, row_name, row_points
from ..records import record
from ..words import one_of, plural
from .marks import Marks, RowMarks

# The reason codes of refusals: with the path, what two engines must agree on.
REASONS = (
    "unknown-number",  # a number that is not a cell of its row
    "listed-twice",  # a number, small box or bar box listed twice
    "threshold",  # the last cell crossed with too few crosses before it
    "lock-without-last",  # `lock: true` but the last cell is not crossed
    "last-without-lock",  # `lock: false` but the last cell is crossed
    "too-many-penalties",  # more penalties than boxes
    "no-bis",  # small boxes on a grid that has none
    "bis-under-last",  # a small box under the last cell, which has none
    "bis-without-cell",  # a small box under a cell that is not crossed
    "no-bonus-bar",  # bar boxes on a grid that has no bar
    "unknown-box",  # a bar box outside the bar
    "boxes-without-framed",  # more bar boxes than framed cells crossed
    "framed-without-box",  # a framed cell crossed without its bar box
    "box-order",  # a bar box crossed while an earlier box that cannot be struck is free
    "bonus-cross-missing",  # a bar box whose compulsory cross is not on the sheet
    "power-cross-missing",  # a power whose compulsory crosses are not on the sheet
    "too-many-locks",  # more locks than one action can make, plus one
    "penalty-after-game-end",  # every penalty box and two locks
)


class ScoreError(InputError):
    """A well-formed sheet that no game can leave behind; ``reason`` is one of
    ``REASONS`` (or of ``counts.COUNT_REASONS`` for counts that cannot score it)."""

    def __init__(self, where: str, path: str, message: str, reason: str):
        super().__init__(where, path, message)
        self.reason = reason


class RowScore(NamedTuple):  # not a dataclass: building a frozen one costs more than scoring its row
    label: str  # the lock colour, or "row 2" when the row's cells have several colours
    lock_colour: Colour
    crosses: int  # on the paper: cells (doubles twice), Bis boxes, the lock
    counted: int  # crosses that score: at most grid.max_crosses
    locked: bool
    points: int


@record
class PowerScore:
    symbol: Symbol
    effect: Effect
    text: str  # what the power did, for people
    points: int  # what it adds to the total (0 for crosses already on the paper)


@record
class Score:
    grid: str
    title: str
    source: str | None  # the marks file; None for a sheet typed as counts
    player: str | None
    rows: tuple[RowScore, ...]
    penalties: int
    penalty_points: int  # signed: -5 for one classic penalty
    powers: tuple[PowerScore, ...]  # the unlocked ones, in the grid's order
    total: int  # sum of row points + penalty_points + power points

    @property
    def name(self) -> str:
        return self.player or self.source or ""


# Effects that cross cells at once: with them one action can cross several cells.
IMMEDIATE = (Effect.EXTRA_CROSSES, Effect.CROSS_EACH_OPEN_ROW)
# Effects that are a state at the end of the game: having them twice is having them.
ONCE = (Effect.DOUBLE_LOWEST_ROW, Effect.NO_PENALTIES)

Fail = Callable[[str, str, str], NoReturn]  # fail(path inside the sheet, reason, message)


def failer(where: str, sheet_path: str = "") -> Fail:
    """A ``Fail`` that raises ``ScoreError`` for the sheet at ``sheet_path`` of the file ``where``."""

    def fail(path: str, reason: str, message: str) -> NoReturn:
        inside = f"{sheet_path}.{path}" if sheet_path and path else sheet_path or path
        raise ScoreError(where, inside, message, reason)

    return fail


# -- what a grid's rows are, worked out once per grid ---------------------------


@record
class _RowFacts:
    label: str
    lock_colour: Colour
    numbers: tuple[int, ...]
    position: dict[int, int]  # cell number -> position, 0 = leftmost
    weights: tuple[int, ...]  # crosses each cell gives
    doubles: frozenset[int]  # positions of the cells that give two
    last: int  # position of the last cell


@record
class _GridFacts:
    rows: tuple[_RowFacts, ...]
    max_crosses: int  # a property of Grid that walks every cell: once here
    powers: tuple[tuple[Power, tuple[tuple[int, int], ...]], ...]  # each power with its symbol's cells


_FACTS: dict[int, tuple[Grid, _GridFacts]] = {}  # by id(grid), with the grid kept alive


def _grid_facts(grid: Grid) -> _GridFacts:
    cached = _FACTS.get(id(grid))
    if cached is None or cached[0] is not grid:
        rows = tuple(
            _RowFacts(
                label=row_name(grid, index),
                lock_colour=row.lock_colour,
                numbers=row.numbers,
                position={number: p for p, number in enumerate(row.numbers)},
                weights=tuple(cell.weight for cell in row.cells),
                doubles=frozenset(p for p, cell in enumerate(row.cells) if cell.double),
                last=len(row.cells) - 1,
            )
            for index, row in enumerate(grid.rows)
        )
        powers = tuple((power, grid.symbol_cells(power.symbol)) for power in grid.powers)
        cached = _FACTS[id(grid)] = (grid, _GridFacts(rows, grid.max_crosses, powers))
    return cached[1]


# -- scoring one sheet ---------------------------------------------------------


def score_sheet(grid: Grid, marks: Marks) -> Score:
    """Score ``marks`` on ``grid``; raise ``ScoreError`` if no game can leave them.

    The checks run in a fixed order and the first that fails is the refusal
    (two engines must report the same one): each row top to bottom, the
    penalties, the bonus bar, the powers' crosses, the locks, penalties with locks.
    """
    if len(marks.rows) != len(grid.rows):
        raise ValueError(f"marks have {len(marks.rows)} rows, grid {grid.name!r} has {len(grid.rows)}")
    fail = failer(marks.source, marks.path)
    facts = _grid_facts(grid)
    crossed: list[set[int]] = []
    boxes: list[set[int]] = []
    rows: list[RowScore] = []
    for index, (row_facts, row_marks) in enumerate(zip(facts.rows, marks.rows)):
        cells, bis, crosses = _check_row(grid, row_facts, row_marks, index, fail)
        crossed.append(cells)
        boxes.append(bis)
        counted = min(crosses, facts.max_crosses)
        rows.append(RowScore(row_facts.label, row_facts.lock_colour, crosses, counted, row_facts.last in cells,
                             row_points(counted)))
    check_penalties(grid, marks.penalties, fail)
    unlocked = [power for power, cells in facts.powers if all(c in crossed[r] for r, c in cells)]
    locked = tuple(r.locked for r in rows)
    bar_used = bool(marks.bonus_bar)
    if bar_used or grid.bonus_bar or unlocked:
        sheet = _ProvenSheet(grid, facts.rows, crossed, boxes, locked, unlocked, bar_used)
        if bar_used or grid.bonus_bar:
            _check_bonus_bar(sheet, marks.bonus_bar, fail)
        for power in unlocked:
            if power.effect is Effect.CROSS_EACH_OPEN_ROW:
                _check_each_open_row(sheet, power, fail)
    check_game_end(grid, sum(locked), marks.penalties, lambda: closings_per_action(grid, unlocked, bar_used), fail)
    return score_from_rows(grid, marks.source, marks.player, rows, marks.penalties, unlocked)


def score_from_rows(grid: Grid, source: str | None, player: str | None, rows: list[RowScore], penalties: int,
                    unlocked: list[Power]) -> Score:
    """The Score of a proven sheet from its rows' scores, penalties and unlocked powers."""
    penalty_points = -grid.penalty_points * penalties
    powers: list[PowerScore] = []
    for power in unlocked:
        text, points = _power_effect(power.effect, power.amount, rows, penalty_points)
        # A grid may give one effect to two symbols.  Points add up, but a
        # row counts double once and penalties are cancelled once.
        if power.effect in ONCE and power.effect in (p.effect for p in powers):
            text, points = f"{text} (already applied)", 0
        powers.append(PowerScore(power.symbol, power.effect, text, points))
    total = sum(r.points for r in rows) + penalty_points + sum(p.points for p in powers)
    return Score(grid.name, grid.title, source, player, tuple(rows), penalties, penalty_points, tuple(powers), total)


def _check_row(grid: Grid, facts: _RowFacts, marks: RowMarks, index: int, fail: Fail) -> tuple[set[int], set[int], int]:
    """Prove row ``index`` possible; return the positions of its crossed cells
    and of its crossed Bis boxes, and its crosses."""
    position = facts.position
    path = f"rows[{index}]"

    def positions(key: str, entries: tuple[int, ...]) -> set[int]:
        found = {position.get(number) for number in entries}
        if None in found or len(found) < len(entries):  # find the entry at fault
            found = set()
            for n, number in enumerate(entries):
                p = position.get(number)
                if p is None:
                    fail(f"{path}.{key}[{n}]", "unknown-number",
                         f"no cell {number} in this row (expected one of {one_of([str(x) for x in facts.numbers])})")
                if p in found:
                    fail(f"{path}.{key}[{n}]", "listed-twice", f"{number} listed twice")
                found.add(p)
        return found  # type: ignore[return-value]

    # Any set of cells is reachable: cells are crossed left to right and the
    # skipped ones are simply lost.  So only the last cell has a condition.
    cells = positions("crossed", marks.crossed)
    last = facts.last
    boxes: set[int] = set()
    if marks.bis:
        if not grid.bis:
            fail(f"{path}.bis", "no-bis", "this grid has no small boxes under its cells")
        boxes = positions("bis", marks.bis)
        for n, number in enumerate(marks.bis):
            if position[number] == last:
                fail(f"{path}.bis[{n}]", "bis-under-last", f"the last cell {number} has no small box")
            # Every crossed cell was the rightmost cross once, so any of them
            # may have taken its box; an uncrossed one never was.
            if position[number] not in cells:
                fail(f"{path}.bis[{n}]", "bis-without-cell", f"small box under {number} crossed but {number} is not")
    crosses = len(cells) + len(cells & facts.doubles) + len(boxes)  # a double cell gives one more
    if last in cells:
        # Bis boxes all sit under earlier cells and were taken before the
        # last cell (after it the row is closed), so they all count here.
        before = crosses - facts.weights[last]
        if before < grid.close_after:
            fail(f"{path}.crossed", "threshold",
                 f"{facts.numbers[last]} crossed with only {plural(before, 'cross', 'crosses')} before it"
                 f" (the last cell needs at least {grid.close_after})")
        crosses += 1  # the lock
    if marks.lock is not None and marks.lock != (last in cells):
        if marks.lock:
            fail(f"{path}.lock", "lock-without-last",
                 f"locked but the last cell {facts.numbers[last]} is not crossed (the lock is crossed with it)")
        fail(f"{path}.lock", "last-without-lock",
             f"not locked but the last cell {facts.numbers[last]} is crossed (crossing it crosses the lock)")
    return cells, boxes, crosses


def check_penalties(grid: Grid, penalties: int, fail: Fail) -> None:
    if penalties > grid.penalty_boxes:
        fail("penalties", "too-many-penalties",
             f"{penalties} crossed but the sheet has only {plural(grid.penalty_boxes, 'penalty box', 'penalty boxes')}")


# -- what one action can do on a sheet -------------------------------------------


@dataclass
class _ProvenSheet:
    """What the later checks know of a sheet whose rows are proven: each row's
    crossed cells and Bis boxes, its lock, the powers unlocked, whether the bar is used."""

    grid: Grid
    facts: tuple[_RowFacts, ...]
    crossed: list[set[int]]  # positions of the crossed cells, per row
    boxes: list[set[int]]  # positions of the cells whose Bis box is crossed, per row
    locked: tuple[bool, ...]
    unlocked: list[Power]
    bar_used: bool  # some bar box is crossed

    @cached_property
    def closings_per_action(self) -> int:
        return closings_per_action(self.grid, self.unlocked, self.bar_used)

    def forced_cross_cells(self, row: int, after: int = -1) -> int:
        """How many crossed cells of ``row`` right of position ``after`` a forced
        cross can have made.  A forced cross (a bonus box's, a power's) takes the
        first free cell right of the row's last cross: on the paper, the row's
        first cell or a cell just right of another crossed cell."""
        cells = self.crossed[row]
        return sum(1 for p in cells if p > after and (p == 0 or p - 1 in cells))

    def may_lose_forced_cross(self, row: int) -> bool:
        """Whether a forced cross in ``row`` may have been lost: it is lost when
        the first free cell is the last cell and the threshold is not met.  Then
        the cell before the last was the row's last cross, and the crosses
        before it were at least the cells up to it and the Bis boxes under the
        cells before it (a box is taken while its cell is the rightmost cross)."""
        facts, cells = self.facts[row], self.crossed[row]
        before_last = facts.last - 1
        if before_last not in cells:
            return False
        least = sum(facts.weights[p] for p in cells if p <= before_last)
        least += sum(1 for p in self.boxes[row] if p < before_last)
        return least < self.grid.close_after


def closings_per_action(grid: Grid, unlocked: Sequence[Power], bar_used: bool) -> int:
    """The most rows one action can close on a sheet of ``grid`` with these
    powers unlocked (and, if ``bar_used``, bonus boxes taken).

    One action's crosses form a tree: its own cross is the root; a framed cell
    (while the bar is used) has one child, the bonus box's cross; the cell that
    completes an immediate power has that power's crosses as children.  A row
    closes once, on its last cell, so each closing is a distinct cell.  In a
    tree, marked nodes number at most 1 + the marked nodes with marked nodes
    below them + the extra branches (children beyond the first that lead to
    a mark).  Here:

    - a closing with more crosses below it is a last cell that is framed or
      bears the symbol of an immediate power: at most one per such row;
    - only a cell completing a power has several children.  The ``amount``
      crosses of ``extra_crosses`` go to one row and close it at most once, so
      they lead to several closings only if they can cause crosses themselves
      (a bar in use, or another immediate power to complete): ``amount - 1``
      extra branches; a framed symbol cell also takes a bonus box: one more.
    - ``cross_each_open_row`` crosses in every open row and can close them all.
    """
    rows = len(grid.rows)
    immediate = [p for p in unlocked if p.effect in IMMEDIATE]
    if any(p.effect is Effect.CROSS_EACH_OPEN_ROW for p in immediate):
        return rows
    symbols = {p.symbol for p in immediate}
    spawning_last = sum(1 for row in grid.rows
                        if (bar_used and row.cells[-1].framed) or row.cells[-1].symbol in symbols)
    branches = 0
    for power in immediate:
        if bar_used or len(immediate) > 1:
            branches += power.amount - 1
        if bar_used and any(grid.rows[r].cells[c].framed for r, c in grid.symbol_cells(power.symbol)):
            branches += 1
    return min(rows, 1 + spawning_last + branches)


def check_game_end(grid: Grid, locks: int, penalties: int, closings: Callable[[], int], fail: Fail) -> None:
    """Locks and penalties against the end of the game.

    Locks: before the last action at most one row is closed, so a sheet holds
    at most one lock from before it and ``closings()`` from it (asked only
    beyond two locks, which any sheet can hold).

    Every penalty box with two locks: crossing the last box ends the game at
    once, and so does the second closed row.  They cannot come in one turn:
    a second row closed in action 1 ends the game before anyone is penalised,
    and the active player who closes it in action 2 crossed something, which
    a penalised player did not.  So whichever came first ended the game.
    """
    most = closings() if locks > 2 else 1
    if locks > 1 + most:
        fail("rows", "too-many-locks",
             f"{locks} rows locked, but this sheet can hold at most {1 + most} (before the game's last action"
             f" at most one row is closed, and on this sheet one action closes at most {plural(most, 'row')})")
    if penalties == grid.penalty_boxes and locks >= 2:
        fail("penalties", "penalty-after-game-end",
             f"all {plural(penalties, 'penalty box', 'penalty boxes')} crossed with {locks} rows locked:"
             " the last box and the second lock each end the game at once, and they cannot come in one turn"
             " (a penalised player crossed nothing in it)")


# -- the bonus bar -----------------------------------------------------------------


def _check_bonus_bar(sheet: _ProvenSheet, bar: tuple[int, ...], fail: Fail) -> None:
    """The bar boxes against the framed cells and the crosses they force.

    A framed cell crosses the leftmost free bar box (one neither crossed nor
    struck), and a closing row strikes the free boxes of its colour for
    everybody.  So a box passed over, or left free while a framed cell took
    nothing, was struck: its colour's row was closed then (``_strikable``).
    A box's cross is compulsory: the first free cell of its colour's row, lost
    only when that is the last cell and the threshold is not met (the row is
    open, or the box would be struck).
    """
    grid = sheet.grid
    if not grid.bonus_bar:
        fail("bonus_bar", "no-bonus-bar", "this grid has no bonus bar")
    size = len(grid.bonus_bar)
    seen: set[int] = set()
    for n, box in enumerate(bar):
        if not 1 <= box <= size:
            fail(f"bonus_bar[{n}]", "unknown-box", f"no box {box} (the bar has boxes 1 to {size})")
        if box in seen:
            fail(f"bonus_bar[{n}]", "listed-twice", f"box {box} listed twice")
        seen.add(box)
    framed = sum(row.cells[p].framed for row, cells in zip(grid.rows, sheet.crossed) for p in cells)
    if len(seen) > framed:
        fail("bonus_bar", "boxes-without-framed",
             f"{plural(len(seen), 'box', 'boxes')} crossed but only {plural(framed, 'framed cell', 'framed cells')}"
             " (each framed cell crosses one box)")
    if len(seen) < framed:
        free = {grid.bonus_bar[b - 1] for b in range(1, size + 1) if b not in seen}
        why = _strikable(sheet, free)
        if why:
            fail("bonus_bar", "framed-without-box",
                 f"{plural(framed, 'framed cell')} crossed"
                 f" but {plural(len(seen), 'box', 'boxes') if seen else 'no box'}:"
                 f" a framed cell takes no box only when every box left is struck, {why}")
    for n, box in enumerate(bar):
        colour = grid.bonus_bar[box - 1]
        passed = [b for b in range(1, box) if b not in seen]
        same = [b for b in passed if grid.bonus_bar[b - 1] is colour]
        if same:
            fail(f"bonus_bar[{n}]", "box-order",
                 f"box {box} crossed while box {same[0]} of the same colour ({colour.value}) is free"
                 " (a box is passed over only when its colour is struck, which strikes all its boxes)")
        why = _strikable(sheet, {grid.bonus_bar[b - 1] for b in passed})
        if why:
            fail(f"bonus_bar[{n}]", "box-order",
                 f"box {box} crossed while boxes before it are free:"
                 f" a box is passed over only when it is struck, {why}")
    _check_framed_rows_open(sheet, bar, seen, framed, fail)
    taken: dict[Colour, int] = {}
    for n, box in enumerate(bar):
        colour = grid.bonus_bar[box - 1]
        taken[colour] = taken.get(colour, 0) + 1
        row = grid.row_of_colour(colour)
        assert row is not None  # every bar colour has its row (grid validation)
        possible = sheet.forced_cross_cells(row)
        if taken[colour] > possible and not sheet.may_lose_forced_cross(row):
            shows = f"only {plural(possible, 'cross', 'crosses')}" if possible else "no cross"
            fail(f"bonus_bar[{n}]", "bonus-cross-missing",
                 f"{plural(taken[colour], colour.value + ' box', colour.value + ' boxes')} crossed"
                 f" but rows[{row}] shows"
                 f" {shows} they can have given (a box's cross is compulsory and takes the first free cell of its row:"
                 " the row's first cell, or the cell just right of another cross)")


def _check_framed_rows_open(sheet: _ProvenSheet, bar: tuple[int, ...], seen: set[int], framed: int, fail: Fail) -> None:
    """Each framed cell took a box, or found none; either way it was crossed in
    an open row, so not in a row whose colour was struck then.  When box b is
    taken, the free boxes before it are struck; when a cell finds no box, every
    box left free is.  These struck sets grow box by box, so the framed cells
    can be matched to them (one each) exactly when, from each on, there are
    enough framed cells outside them (Hall's condition on nested sets).  A
    framed last cell closes its own row as it is crossed: it always counts.
    """
    grid = sheet.grid
    cells = [
        None if p == len(row.cells) - 1 else row.lock_colour
        for row, crossed in zip(grid.rows, sheet.crossed)
        for p in crossed
        if row.cells[p].framed
    ]
    free = [b for b in range(1, len(grid.bonus_bar) + 1) if b not in seen]
    demands: list[tuple[int | None, set[Colour]]] = [(box, {grid.bonus_bar[b - 1] for b in free if b < box})
                                                     for box in sorted(seen)]
    demands += [(None, {grid.bonus_bar[b - 1] for b in free})] * (framed - len(seen))
    for j, (box, struck) in enumerate(demands):
        outside = sum(1 for colour in cells if colour not in struck)
        if outside >= len(demands) - j:
            continue
        colours = _all_of(sorted(c.value for c in struck))
        elsewhere = (f"only {plural(outside, 'framed cell')} crossed outside them" if outside
                     else "no framed cell crossed outside them")
        if box is None:
            fail("bonus_bar", "framed-without-box",
                 f"a framed cell found no box, so the boxes left ({colours}) were struck and their rows closed then,"
                 f" and {elsewhere} can have been that cell")
        fail(f"bonus_bar[{bar.index(box)}]", "box-order",
             f"box {box} crossed while boxes of {colours} are free before it: they were struck, so their rows were"
             f" closed then, and {elsewhere} can have taken"
             f" {'it' if j == len(demands) - 1 else f'the {len(demands) - j} boxes from box {box} on'}")


def _strikable(sheet: _ProvenSheet, colours: set[Colour]) -> str:
    """Why the free boxes of ``colours`` cannot all have been struck at one
    moment, or "" if they can.

    Struck at a moment: the colour of the row closed before that action (one
    at most, by anyone) and of the rows this player closed earlier in the same
    action.  On a sheet whose actions close one row each, nothing follows a
    closing in its action, so only the one row counts.
    """
    if sheet.closings_per_action == 1:
        if len(colours) <= 1:
            return ""
        return (f"and those are {_all_of(sorted(c.value for c in colours))}, but at most one row can be closed"
                " then (the game ends when a second closes, and on this sheet nothing follows a closing in its action)")
    locked = {row.lock_colour for row, locked in zip(sheet.grid.rows, sheet.locked) if locked}
    others = colours - locked
    if len(others) <= 1:
        return ""
    return (f"and those are {_all_of(sorted(c.value for c in others))} besides this sheet's locks, but at most"
            " one other row can be closed then (the game ends when a second closes)")


# -- powers ------------------------------------------------------------------------


def _check_each_open_row(sheet: _ProvenSheet, power: Power, fail: Fail) -> None:
    """A power that crosses the first free cell of every open row at once
    (``cross_each_open_row``): when it is unlocked its symbol cells are crossed,
    so in each row its cross lies right of them.  A row may lack it only if it
    was closed then: locked on this sheet, or the one row closed by another
    player before that action (rows others close during an action stay open
    until it ends), or if the cross met the last cell before the threshold."""
    grid = sheet.grid
    reach = {r: -1 for r in range(len(grid.rows))}
    for r, c in grid.symbol_cells(power.symbol):
        reach[r] = max(reach[r], c)
    missing = [
        r for r in range(len(grid.rows))
        if not sheet.locked[r] and not sheet.forced_cross_cells(r, reach[r]) and not sheet.may_lose_forced_cross(r)
    ]
    if len(missing) > 1:
        cells = ", ".join(f"{grid.rows[r].cells[c].colour.value} {grid.rows[r].cells[c].number}"
                          for r, c in grid.symbol_cells(power.symbol))
        fail(f"rows[{missing[1]}]", "power-cross-missing",
             f"the {power.symbol.value} ({cells}) is unlocked"
             " and crosses at once the first free cell of every open row, but"
             f" {_all_of([f'rows[{r}]' for r in missing])} have no cross it can have made"
             " (right of its symbol, in the row's first cell or just right of another cross), and only one row"
             " can have been closed by another player")


def _all_of(items: list[str]) -> str:
    """'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _power_effect(effect: Effect, amount: int, rows: list[RowScore], penalty_points: int) -> tuple[str, int]:
    """What an unlocked power did, in words and in points added to the total."""
    if effect is Effect.EXTRA_CROSSES:
        return f"{amount} crosses in the row with fewest crosses (on the sheet)", 0
    if effect is Effect.CROSS_EACH_OPEN_ROW:
        return "1 cross in each open row (on the sheet)", 0
    if effect is Effect.DOUBLE_LOWEST_ROW:
        lowest = min(r.points for r in rows)
        tied = " or ".join(r.label for r in rows if r.points == lowest)
        return f"lowest row counts double ({tied}: {lowest})", lowest
    if effect is Effect.BONUS_POINTS:
        return f"+{amount} points", amount
    return "penalties score 0", -penalty_points
