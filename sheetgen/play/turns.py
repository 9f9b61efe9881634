"""The turn loop written out for one grid and one table of ``Ranked`` strategies.

``Game.run`` plays any grid with any strategies by reading the rulebook's
tables in a loop.  When every seat is ``Ranked`` it plays with a loop made
here instead: the source of a function that plays the same games as the
generic loop, draw for draw (``tests/test_game.py`` plays both and compares
them), compiled once per rulebook and table of strategies (``Rulebook.loop``).

What it keeps: per seat and row, the row's *view*: a tuple of the keys its
strategy gives each move in that row, indexed by the move's colour and
number (``colour * step + number``; ``NEVER`` where the row has no such cell,
the cell is not legal, or the strategy refuses it), once for a calm action
and once with a penalty at stake; at index 0 the key of its next cell as a
lucky cross, at index 1 the numbers it has a key for, as bits (no cell is
number 0 or 1).  A view depends only on the row's next cell, its crosses and
(with small boxes) whether the box under its rightmost cross is crossed, so
all views are made once per rank and grid (``views``) and a cross replaces
the row's two views and its mask by one look-up (``V`` tables of the three).
A decision is then one subscript per place:

- action 1: per white sum, each seat's places are constants, the cross
  written out for each place (row, cell, its bit and weight as constants); a
  seat whose rows have no key for the sum (the union of their masks, ``M``)
  is passed in one test;
- action 2: every place of white 1 and white 2 with each colour's die read
  at once from the active seat's views (where a colour is spread over rows,
  through a tuple of the seat's views made at its turn, the row of each
  colour and number coming with the roll; its keys read without a test per
  colour while every colour is in the game);
- a decision (``decide``) finds the first least key in order, compares only
  the keys after it with it, and on a tie draws as the strategy draws (a tie
  of two in the loop, more by ``PICK``);
- the dice of a ``RandomDice`` are drawn in the loop, the same draws; a
  tabled roll brings its white sum and action 2's view indexes and rows
  (``_indexed``).

Only numbers go into the source, each written with ``repr`` of an ``int`` or
``bool`` from the rulebook (which the schema checked); tables and functions
are passed in as the function's default arguments, never written as text.
A framed cell's bonus chain (``Game.bonus``, ``Game.forced``), a symbol's
count, a row's last cell with its lock (``Game.shut``) and rows closing at the
end of an action (``Game.close_rows``) are written out too (``chain``,
``symbol``, ``lock``, ``close``); rare events (a power that crosses when
unlocked, a cell both framed and with a symbol, a last cell framed or with a
symbol) are handed to the generic engine's own methods, with the table brought
up to date first, so those rules are written once; the views of the sheets
they touched are read again after them.  A subclass of ``Game`` that watches
any of those methods is played by the generic loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache, partial
from operator import add
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game, Rank, Roll, Rulebook, Sheet, Table

# A written loop: (game, table, sheets, each seat's draws, dice) -> None, until GameOver or the end of the dice.
Loop = Callable[["Game", "Table", Sequence["Sheet"], Sequence[Callable[[int], int]], Iterator["Roll"]], None]
Seats = tuple[tuple["Rank", bool], ...]  # per seat: its rank and whether it draws for a lone best move
View = tuple[int, ...]  # a row's keys by colour * step + number
# Per small box state (0: the box under the rightmost cross free, 1: crossed), per row, next cell and crosses.
Views = tuple[tuple[tuple[tuple[View, ...], ...], ...], ...]


class _Source:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0
        self.starts: list[int] = []  # where each open ``with indent()`` block began

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def indent(self) -> _Source:
        self.depth += 1
        self.starts.append(len(self.lines))
        return self

    def __enter__(self) -> None:
        pass

    def __exit__(self, *_: object) -> None:
        if self.starts.pop() == len(self.lines):  # nothing to do there (a white sum no row holds, say)
            self("pass")
        self.depth -= 1


def _int(value: int | bool) -> str:
    """A number of the rulebook as source: only ints (bools as 0 or 1) are ever written."""
    if not isinstance(value, int):
        raise TypeError(f"not a number: {value!r}")
    return repr(int(value))


def sums(rules: Rulebook) -> int:
    """Numbers a view holds per colour: 0 to 2 x faces."""
    return 2 * rules.grid.dice_faces + 1


def step(rules: Rulebook) -> int:
    """How far apart a view keeps the colours: 0 when each row is of one colour and each colour
    in one row (a number is then a cell of the colour's row), else ``sums``."""
    alone = len({colours[0] for colours in rules.colour}) == rules.rows
    return 0 if alone and all(len(set(colours)) == 1 for colours in rules.colour) else sums(rules)


def width(rules: Rulebook) -> int:
    """The length of a view."""
    from .game import COLOURS

    return (len(COLOURS) - 1) * step(rules) + sums(rules)


def view_index(rules: Rulebook, row: int, index: int) -> int:
    """Where a row's view keeps the key of its cell ``index``."""
    return rules.colour[row][index] * step(rules) + rules.numbers[row][index]


def views(rules: Rulebook, rank: Rank, threat: bool) -> Views:
    """Every view a row can have with ``rank``, calm or with a penalty at stake:
    ``[box][row][next cell][crosses]`` (equal views are one tuple)."""
    from .game import NEVER

    keys = rules.keys(rank)[threat]
    size = width(rules)
    most = len(keys[0][0])
    made: dict[View, View] = {}
    boxes = (0, 1) if rules.bis else (0,)
    out = []
    for box in boxes:
        per_row = []
        for r in range(rules.rows):
            last = rules.last[r]
            at = [view_index(rules, r, i) for i in range(last + 1)]
            per_next = []
            for n in range(last + 1):
                per_crosses = []
                for c in range(most):
                    view = [NEVER] * size
                    for i in range(n, last + 1):
                        closes = i == last
                        if not closes or c >= rules.close_after:
                            view[at[i]] = keys[closes][i - n][c]
                    if rules.bis and n > 0 and not box:
                        view[at[n - 1]] = keys[0][0][c]
                    if rules.lucky and (n < last or c >= rules.close_after):  # its next cell as a lucky cross
                        view[0] = keys[n == last][0][c]
                    # at index 1: the numbers whose cell in this row has a key, as bits (no cell is number 1)
                    view[1] = sum(1 << rules.numbers[r][i] for i in range(last + 1) if view[at[i]] < NEVER)
                    found = tuple(view)
                    per_crosses.append(made.setdefault(found, found))
                per_next.append(tuple(per_crosses))
            per_row.append(tuple(per_next))
        out.append(tuple(per_row))
    return tuple(out)


class _Writer:
    """The source of one loop: its lines, and the tables its defaults name."""

    def __init__(self, rules: Rulebook, seats: Seats):
        from .game import NEVER, Closing, GameOver

        self.rules, self.seats = rules, seats
        self.ranks: list[Rank] = []
        for rank, _ in seats:
            if rank not in self.ranks:
                self.ranks.append(rank)
        self.env: dict = {}
        self.defaults: list[str] = []
        self.out = _Source()
        self.players = len(seats)
        self.rows = rules.rows
        self.sums, self.step, self.width = sums(rules), step(rules), width(rules)
        for name, value in (("NEVER", NEVER), ("GameOver", GameOver), ("PICK", _pick), ("Closing", Closing)):
            self.bind(name, value)
        for r in range(self.rows):
            self.bind(f"PLAIN_{r}", rules.plain[r])
            self.bind(f"WEIGHT_{r}", rules.weight[r])
            index = [-1] * self.width
            for i in range(rules.last[r] + 1):
                index[view_index(rules, r, i)] = i
            self.bind(f"IX_{r}", tuple(index))
        self.made: list[tuple[Views, Views]] = []  # per rank: its calm views and its views under threat
        for k, rank in enumerate(self.ranks):
            calm, threat = views(rules, rank, False), views(rules, rank, True)
            self.made.append((calm, threat))
            for box in range(len(calm)):
                for r in range(self.rows):  # per next cell and crosses: the calm view, under threat, its mask
                    self.bind(f"V{k}_{box}_{r}", tuple(tuple((a, h, a[1]) for a, h in zip(calm_n, threat_n))
                                                       for calm_n, threat_n in zip(calm[box][r], threat[box][r])))
        self.bind("SHUTV", (NEVER, 0, *(NEVER,) * (self.width - 2)))
        # Colours spread over rows, each colour and number in one row at most: action 2 reads its
        # keys through a tuple of the active seat's views (A), the row of each colour and number
        # (RW) coming with the roll (``y01``, ...).
        rows_of: dict[int, list[int]] = {}
        for r in range(rules.rows):
            for i in range(rules.last[r] + 1):
                rows_of.setdefault(view_index(rules, r, i), []).append(r)
        self.spread = any(len({r for r in range(rules.rows) if c in rules.colour[r]}) > 1 for c in range(4))
        self.listed = self.spread and all(len(found) == 1 for found in rows_of.values())
        if self.listed:
            self.bind("RW", tuple(rows_of[v][0] if v in rows_of else rules.rows for v in range(self.width)))
        self.colours = [c for c in range(4) if any(c in row for row in rules.colour)]
        # the colours whose row action 2 finds by the number (RW): spread over rows
        self.found = [c for c in self.colours if self.listed and sum(c in row for row in rules.colour) > 1]
        if rules.bar:  # per bonus bar box: the row it sends a cross to
            self.bind("BR", tuple(rules.row_of_colour[c] for c in rules.bar))
        if rules.powers:  # per power: its symbol's cells, and whether it crosses when unlocked
            from ..grid.model import Effect

            self.bind("SC", rules.symbol_cells)
            self.bind("UC", tuple(power.effect in (Effect.EXTRA_CROSSES, Effect.CROSS_EACH_OPEN_ROW)
                                  for power in rules.powers))

    def bind(self, name: str, value: object) -> str:
        if name not in self.env:
            self.env[name] = value
            self.defaults.append(f"{name}={name}")
        return name

    def rank(self, p: int) -> int:
        return self.ranks.index(self.seats[p][0])

    # -- pieces ------------------------------------------------------------------

    def sync(self, action: int) -> None:
        """The table as the generic loop keeps it, before the engine's own methods read it."""
        self.out(f"table.rolls, table.active, table.white, table.dice, table.action, table.active_crossed = "
                 f"rolls, active, (w1, w2), d, {_int(action)}, ac")

    def names(self, p: int) -> str:
        """Seat ``p``'s views and masks as a target list."""
        return "".join(f"{kind}{p}_{r}, " for kind in "ahm" for r in range(self.rows))

    def refresh(self, p: int) -> None:
        self.out(f"{self.names(p)}= VIEW{self.rank(p)}(s{p})")
        self.mask(p)

    def view(self, p: int, r: int, box: int, n: str, c: str = "c") -> None:
        """Row ``r`` of seat ``p`` with next cell ``n`` and ``c`` crosses (and the small box under
        its rightmost cross crossed: ``box``): its calm view, its view under threat and its mask."""
        self.out(f"a{p}_{r}, h{p}_{r}, m{p}_{r} = V{self.rank(p)}_{box}_{r}[{n}][{c}]")

    def shut_views(self, p: int, r: int) -> None:
        """Row ``r`` of seat ``p`` shut: no key, no number in its mask."""
        self.out(f"a{p}_{r} = h{p}_{r} = SHUTV; m{p}_{r} = 0")

    def keep(self, p: int, r: int, seat_mask: bool = True) -> None:
        """Row ``r``'s views and mask of seat ``p`` changed: the seat's mask too (not with
        ``seat_mask`` False: the caller works out ``M{p}`` later)."""
        if seat_mask:
            self.mask(p)

    def mask(self, p: int) -> None:
        """``M{p}``: the white sums for which some row of seat ``p`` has a key in action 1, as bits
        (the union of each row's, ``m{p}_{r}``: index 1 of its calm view)."""
        self.out(f"M{p} = {' | '.join(f'm{p}_{r}' for r in range(self.rows))}")

    def touched(self, p: int) -> None:
        """After ``Game.effects``: the views of seat ``p``'s rows whose crosses it changed (from ``y``)
        read again.  It only crosses cells, so a changed row's next small box is free, or the row shut."""
        from .game import SHUT

        out = self.out
        for r in range(self.rows):
            out(f"if cr{p}[{_int(r)}] != y[{_int(r)}]:")
            with out.indent():
                out(f"n = nx{p}[{_int(r)}]; c = cr{p}[{_int(r)}]")
                out(f"if n == {_int(SHUT)}:")
                with out.indent():
                    self.shut_views(p, r)
                out("else:")
                with out.indent():
                    self.view(p, r, 0, "n")
                self.keep(p, r)

    def refresh_all(self) -> None:
        for p in range(self.players):
            self.refresh(p)
        self.out("; ".join(f"g{c} = {_int(c)} in in_game" for c in self.colours))
        if self.found:  # every colour still in the game: action 2 reads its keys without asking
            self.out(f"ga = {' and '.join(f'g{c}' for c in self.colours)}")

    def close(self, action: int) -> None:
        """The end of an action with rows closed in it (``Game.close_rows`` written out): each row
        closed for everybody, its die out of the game, shut in every sheet that has it open
        (``Game.shut``) and in every seat's views; the game over when enough rows are closed."""
        from .game import FREE, ROWS_TO_END, SHUT, STRUCK

        rules, out = self.rules, self.out
        out("for cz in closing:")
        with out.indent():
            out("r = cz[0]")
            out("if not closed[r]:")
            with out.indent():
                out("closed[r] = True")

                def shut(r: int) -> None:
                    c = rules.lock_colour[r]
                    out(f"in_game.remove({_int(c)}); g{c} = False")
                    if self.found:
                        out("ga = False")
                    for p in range(self.players):
                        out(f"if nx{p}[{_int(r)}] != {_int(SHUT)}:")
                        with out.indent():
                            out(f"nx{p}[{_int(r)}] = {_int(SHUT)}")
                            for box in rules.bar_boxes[r]:
                                out(f"if bar{p}[{_int(box)}] == {_int(FREE)}: bar{p}[{_int(box)}] = {_int(STRUCK)}")
                            self.shut_views(p, r)

                self.dispatch("r", list(range(self.rows)), shut)
        out("closings.extend(closing); closing.clear()")
        out(f"if sum(closed) >= {_int(ROWS_TO_END)}:")
        with out.indent():
            self.sync(action)
            out("raise GameOver('locks')")
        for p in range(self.players):
            out(f"M{p} = {' | '.join(f'm{p}_{r}' for r in range(self.rows))}")

    def cell(self, p: int, r: int, i: int, action: int) -> None:
        """Seat ``p`` crosses cell ``i`` (a constant) of row ``r``: a small box when it is left of the next cell."""
        rules, out = self.rules, self.out
        if rules.bis:
            out(f"if nx{p}[{_int(r)}] <= {_int(i)}:")
            out.depth += 1
        if i < rules.last[r]:  # not the last: the cross here, a framed cell's or a symbol's effects by the engine
            out(f"cl{p}[{_int(r)}] |= {_int(1 << i)}")
            out(f"c = cr{p}[{_int(r)}] + {_int(rules.weight[r][i])}")
            out(f"cr{p}[{_int(r)}] = c")
            out(f"nx{p}[{_int(r)}] = {_int(i + 1)}")
            self.view(p, r, 0, _int(i + 1))
            self.keep(p, r)
            if not rules.plain[r][i]:
                self.effects(p, r, _int(i), action, self.kind(r, i))
        else:
            self.lock(p, r, action)
        if rules.bis:
            out.depth -= 1
            out("else:")
            with out.indent():
                self.box(p, r, str(i), i + 1)

    def lock(self, p: int, r: int, action: int, seat_mask: bool = True) -> None:
        """Seat ``p`` crosses the last cell of row ``r`` (it may: the caller checked) and its lock,
        as ``Game.cross`` does: the row closed for the seat at once (``Game.shut``: its colour's free
        bar boxes struck), for everybody when the action ends (``closing``).  A last cell framed or
        with a symbol is crossed by the engine, which makes its effects too."""
        from .game import FREE, SHUT, STRUCK

        rules, out, i = self.rules, self.out, self.rules.last[r]
        if rules.special[r][i]:
            self.sync(action)
            out(f"cross(s{p}, {_int(r)}, {_int(i)}, {_int(action)})")
            self.refresh(p)
            return
        row = _int(r)
        out(f"cl{p}[{row}] |= {_int(1 << i)}; cr{p}[{row}] += {_int(rules.weight[r][i])}; lk{p}[{row}] = True")
        out(f"closing.append(Closing({_int(r)}, {_int(p)}, rolls, {_int(action)}, active == {_int(p)}))")
        out(f"nx{p}[{_int(r)}] = {_int(SHUT)}")
        for box in rules.bar_boxes[r]:
            out(f"if bar{p}[{_int(box)}] == {_int(FREE)}: bar{p}[{_int(box)}] = {_int(STRUCK)}")
        self.shut_views(p, r)
        self.keep(p, r, seat_mask)

    def kind(self, r: int, i: int) -> int:
        """What crossing cell ``i`` of row ``r`` does beyond its cross (not its lock): 0 nothing,
        1 a bonus (framed), 2 a symbol counted, 3 both."""
        rules = self.rules
        return (1 if rules.framed[r][i] else 0) | (2 if rules.symbol[r][i] >= 0 else 0)

    def engine_effects(self, p: int, r: int, i: str, action: int) -> None:
        """The engine's ``Game.effects`` for cell ``i`` of row ``r``, the views read again after it."""
        out = self.out
        self.sync(action)
        out(f"y = cr{p}[:]")
        out(f"if effects(s{p}, {_int(r)}, {i}, {_int(action)}):")
        with out.indent():
            self.touched(p)

    def effects(self, p: int, r: int, i: str, action: int, kind: int) -> None:
        """Seat ``p`` crossed cell ``i`` of row ``r`` (not its last), which does ``kind`` (see ``kind``):
        a framed cell's bonus chain and a symbol's count written here, a power's crosses and a
        cell with both by the engine."""
        if kind == 1:
            self.chain(p, action)
        elif kind == 2:
            self.symbol(p, i if not i.isdigit() else _int(self.rules.symbol[r][int(i)]), r, i, action)
        elif kind == 3:
            self.engine_effects(p, r, i, action)

    def effects_at(self, p: int, r: int, i: str, action: int) -> None:
        """``effects`` for a cell named ``i``, its kind read from ``FX_{r}``."""
        rules, out = self.rules, self.out
        kinds = sorted({self.kind(r, j) for j in range(rules.last[r])} - {0})
        if len(kinds) == 1:
            self.effects(p, r, i, action, kinds[0])
            return
        self.bind(f"FX_{r}", tuple(self.kind(r, j) for j in range(rules.last[r] + 1)))
        out(f"ff = FX_{r}[{i}]")
        for j, kind in enumerate(kinds):
            out("else:" if j == len(kinds) - 1 else f"{'elif' if j else 'if'} ff == {_int(kind)}:")
            with out.indent():
                self.effects(p, r, i, action, kind)

    def symbol(self, p: int, power: str, r: int, i: str, action: int) -> None:
        """A symbol of ``power`` crossed: counted; its power unlocked when every cell of it is,
        a power that crosses by the engine's ``Game.unlock``."""
        out = self.out
        if not power.isdigit():
            self.bind(f"SY_{r}", self.rules.symbol[r])
            out(f"pw = SY_{r}[{i}]")
            power = "pw"
        out(f"sy{p}[{power}] += 1")
        out(f"if sy{p}[{power}] == SC[{power}]:")
        with out.indent():
            out(f"if UC[{power}]:")
            with out.indent():
                self.sync(action)
                out(f"y = cr{p}[:]")
                out(f"unlock(s{p}, {power}, {_int(action)})")
                self.touched(p)
            out(f"else: s{p}.unlocked.append({power})")

    def chain(self, p: int, action: int) -> None:
        """A framed cell crossed by seat ``p``: the leftmost free bar box crossed and its row's next
        cell, if legal (``Game.bonus``, ``Game.forced``), as long as that is a framed cell too; a
        last cell, or a cell with a symbol, by the engine, which goes on from there."""
        from .game import CROSSED, FREE

        rules, out = self.rules, self.out
        out(f"while {_int(FREE)} in bar{p}:")
        with out.indent():
            out(f"bb = bar{p}.index({_int(FREE)}); bar{p}[bb] = {_int(CROSSED)}")
            out("r = BR[bb]")

            def forced(r: int) -> None:
                out(f"nn = nx{p}[{_int(r)}]")
                out(f"if nn < {_int(rules.last[r])}:")
                with out.indent():
                    out(f"cl{p}[{_int(r)}] |= 1 << nn")
                    out(f"ww = WEIGHT_{r}[nn]; c = cr{p}[{_int(r)}] + ww")
                    out(f"cr{p}[{_int(r)}] = c")
                    out(f"br{p}[{_int(r)}] += ww")
                    out(f"nx{p}[{_int(r)}] = nn + 1")
                    self.view(p, r, 0, "nn + 1")  # M{p} once the chain ends
                    kinds = {self.kind(r, j) for j in range(rules.last[r])}
                    if kinds <= {0, 1}:
                        if 1 in kinds:
                            out(f"if PLAIN_{r}[nn]: break")
                        else:
                            out("break")
                    else:
                        self.bind(f"FX_{r}", tuple(self.kind(r, j) for j in range(rules.last[r] + 1)))
                        out(f"ff = FX_{r}[nn]")
                        out("if ff != 1:")
                        with out.indent():
                            out("if ff:")
                            with out.indent():
                                self.engine_effects(p, r, "nn", action)
                            out("break")
                out(f"elif nn == {_int(rules.last[r])} and cr{p}[{_int(r)}] >= {_int(rules.close_after)}:")
                with out.indent():
                    out(f"br{p}[{_int(r)}] += {_int(rules.weight[r][rules.last[r]])}")
                    self.lock(p, r, action, seat_mask=False)  # M{p} once the chain ends
                    out("break")
                out("else: break")

            self.dispatch("r", sorted(set(self.env["BR"])), forced)
        out(f"M{p} = {' | '.join(f'm{p}_{r}' for r in range(self.rows))}")

    def box(self, p: int, r: int, i: str, n: int | str) -> None:
        out = self.out
        bit = _int(1 << int(i)) if i.isdigit() else f"1 << {i}"
        nxt = _int(n) if isinstance(n, int) else n
        out(f"bx{p}[{_int(r)}] |= {bit}")
        out(f"c = cr{p}[{_int(r)}] + 1")
        out(f"cr{p}[{_int(r)}] = c")
        self.view(p, r, 1, nxt)
        self.keep(p, r)

    def cell_at(self, p: int, r: int, action: int) -> None:
        """Seat ``p`` crosses cell ``i`` (a name) of row ``r``."""
        rules, out = self.rules, self.out
        if rules.bis:
            out(f"if nx{p}[{_int(r)}] <= i:")
            out.depth += 1
        out(f"if i < {_int(rules.last[r])}:")
        with out.indent():
            out(f"cl{p}[{_int(r)}] |= 1 << i")
            out(f"c = cr{p}[{_int(r)}] + WEIGHT_{r}[i]")
            out(f"cr{p}[{_int(r)}] = c")
            out(f"nx{p}[{_int(r)}] = n = i + 1")
            self.view(p, r, 0, "n")
            self.keep(p, r)
            if rules.has_special and not all(rules.plain[r][:-1]):
                out(f"if not PLAIN_{r}[i]:")
                with out.indent():
                    self.effects_at(p, r, "i", action)
        out("else:")
        with out.indent():
            self.lock(p, r, action)
        if rules.bis:
            out.depth -= 1
            out("else:")
            with out.indent():
                self.box(p, r, "i", "i + 1")

    def compare(self, move: str) -> None:
        out = self.out
        out("if key < best:")
        with out.indent():
            out(f"best = key; move = {move}; ties = None")
        out("elif key < NEVER and key == best:")
        with out.indent():
            out(f"ties = [move, {move}] if ties is None else ties + [{move}]")

    def choose(self, p: int) -> None:
        """Seat ``p``'s choice among ties, drawn as its strategy draws."""
        out = self.out
        out("if ties is not None:")
        with out.indent():
            out(f"move = ties[draw{p}(len(ties))]")
        if self.seats[p][1]:
            out("elif move is not None:")
            with out.indent():
                out(f"draw{p}(1)")

    # -- action 1 ----------------------------------------------------------------

    def action1(self, t: int) -> None:
        rules, out = self.rules, self.out
        places = rules.by_sum[t]
        for p in range(self.players):
            if rules.lucky:
                out(f"if {_int(t)} in L{p}:")
                with out.indent():
                    self.lucky_action1(p, t)
                if not places:
                    continue
                out("else:")
                out.depth += 1
            elif not places:
                continue
            out(f"if M{p} & {_int(1 << t)}:")
            with out.indent():
                keys = []
                for j, (r, i, _, _, _) in enumerate(places):
                    keys.append(f"k{j}")
                    out(f"k{j} = a{p}_{r}[{_int(view_index(rules, r, i))}]")
                # the seat's mask says a row has a key for t
                self.decide(p, keys, [partial(self.cell, p, r, i, 1) for r, i, _, _, _ in places], some=True)
            if rules.lucky:
                out.depth -= 1

    def decide(self, p: int, keys: list[str], crosses: Sequence[Callable[[], None]],
               then: str | Callable[[], None] = "", some: bool = False) -> None:
        """Seat ``p`` takes a move of least key (ties drawn as its strategy draws them), crossed by ``crosses``,
        then ``then`` (a line, or what writes the lines; by default: the active seat crossed).

        The first key at the least is found in order; only then are the keys after it
        compared with it: a tie (rare) is drawn, leaving the chosen key alone at the
        least, and the search runs once more.  Two at the least (most ties) are drawn
        here, more by ``PICK``.  ``some``: a key is known to be below NEVER."""
        out, single = self.out, self.seats[p][1]
        after = then if callable(then) else partial(out, then or f"if active == {_int(p)}: ac = True")
        out(f"m = {keys[0]}")
        for key in keys[1:]:
            out(f"if {key} < m: m = {key}")
        out("if True:" if some else "if m < NEVER:")
        with out.indent():
            if len(keys) == 1:
                if single:
                    out(f"draw{p}(1)")
                crosses[0]()
                after()
                return
            if single:
                out("tied = False")
            out("while True:")
            with out.indent():
                for j, cross in enumerate(crosses):
                    out("else:" if j == len(keys) - 1 else f"{'elif' if j else 'if'} {keys[j]} == m:")
                    with out.indent():
                        if j < len(keys) - 1:
                            later = keys[j + 1:]
                            out(f"if {' or '.join(f'{key} == m' for key in later)}:")
                            with out.indent():
                                if single:
                                    out("tied = True")
                                if len(later) > 1:
                                    out(f"if {' + '.join(f'({key} == m)' for key in later)} > 1:")
                                    with out.indent():
                                        out(f"{', '.join(keys)}, = PICK(draw{p}, m, {', '.join(keys)})")
                                        out("continue")
                                out(f"if draw{p}(2): {keys[j]} = NEVER; continue  # the other")
                        if single:
                            out(f"if not tied: draw{p}(1)")
                        cross()
                out("break")
            after()

    def lucky_action1(self, p: int, t: int) -> None:
        """Seat ``p``'s action 1 when ``t`` is one of its lucky numbers: after the cells of ``t``,
        the first free cell of each open row with fewest crosses (not the cell of ``t`` again)."""
        from .game import SHUT

        rules, out = self.rules, self.out
        places = rules.by_sum[t]
        keys = []
        for j, (r, i, _, _, _) in enumerate(places):
            keys.append(f"k{j}")
            out(f"k{j} = a{p}_{r}[{_int(view_index(rules, r, i))}]")
        out("f = NEVER")
        for r in range(self.rows):
            out(f"if nx{p}[{_int(r)}] != {_int(SHUT)} and cr{p}[{_int(r)}] < f: f = cr{p}[{_int(r)}]")
        index_of_t = {r: i for r, i, _, _, _ in places}
        for r in range(self.rows):
            again = f" and nx{p}[{_int(r)}] != {_int(index_of_t[r])}" if r in index_of_t else ""
            out(f"z{r} = a{p}_{r}[0] if cr{p}[{_int(r)}] == f{again} else NEVER")
            keys.append(f"z{r}")
        crosses: list[Callable[[], None]] = [partial(self.cell, p, r, i, 1) for r, i, _, _, _ in places]
        crosses += [partial(self.lucky_cross, p, r) for r in range(self.rows)]
        self.decide(p, keys, crosses)

    def lucky_cross(self, p: int, r: int) -> None:
        out = self.out
        out(f"i = nx{p}[{_int(r)}]")
        out(f"s{p}.lucky_crosses += 1")
        out(f"s{p}.lucky_rows[{_int(r)}] += WEIGHT_{r}[i]")
        self.cell_at(p, r, 1)

    # -- action 2 ----------------------------------------------------------------

    def action2(self, p: int) -> None:
        rules, out = self.rules, self.out
        # Each colour in one row: its places are white 1 + die and white 2 + die in that row, every
        # key read at once and the least taken as in action 1; else compared place by place.
        row_of = {c: {r for r in range(self.rows) if c in rules.colour[r]} for c in self.colours}
        if all(len(rows) == 1 for rows in row_of.values()) or self.listed:
            rows = {c: min(found) if len(found) == 1 else -1 for c, found in row_of.items()}
            out("if w1 != w2:")
            with out.indent():
                self.coloured_keys(p, rows, ("w1", "w2"))
            out("else:")
            with out.indent():
                self.coloured_keys(p, rows, ("w1",))
        else:
            out("best = NEVER; move = None; ties = None")
            out("if ac:")
            with out.indent():
                self.coloured(p, "a")
            out("else:")
            with out.indent():
                self.coloured(p, "h")
            self.choose(p)
            out("if move is not None:")
            with out.indent():
                out("r, v = move")
                self.dispatch("r", list(range(self.rows)), lambda r: self.coloured_cross(p, r))
                out("ac = True")
        out("if not ac:")
        with out.indent():
            out(f"s{p}.penalties += 1")
            out(f"if s{p}.penalties >= {_int(rules.penalty_boxes)}:")
            with out.indent():
                self.sync(2)
                out("raise GameOver('penalties')")

    def coloured_keys(self, p: int, row_of: dict[int, int], whites: tuple[str, ...]) -> None:
        """Action 2 of seat ``p`` where colour ``c`` is in row ``row_of[c]`` alone: a key per colour and white."""
        out = self.out
        places = [(c, r, white) for c, r in row_of.items() for white in whites]
        keys = [f"q{j}" for j in range(len(places))]
        for kind in ("a", "h"):
            out("if ac:" if kind == "a" else "else:")
            with out.indent():
                if min(row_of.values()) < 0:  # the seat's views by row, and SHUTV for a number no row has
                    out(f"A = ({', '.join(f'{kind}{p}_{r}' for r in range(self.rows))}, SHUTV)")
                    # until a colour leaves the game (as a row of another colour closes) its keys need no test
                    out("if ga:")
                    with out.indent():
                        self.coloured_key_reads(p, kind, keys, places, tested=False)
                    out("else:")
                    with out.indent():
                        self.coloured_key_reads(p, kind, keys, places, tested=True)
                else:
                    self.coloured_key_reads(p, kind, keys, places, tested=True)
        if self.found:  # each place names its row and view index, one cross for all after the choice
            moves = [f"r = {f'y{c}{white[1]}' if r < 0 else _int(r)}; v = x{c}{white[1]}" for c, r, white in places]
            self.decide(p, keys, [partial(out, move) for move in moves], partial(self.spread_cell, p))
            return
        self.decide(p, keys, [partial(self.coloured_cell, p, r, f"x{c}{white[1]}") for c, r, white in places],
                    "ac = True")

    def coloured_key_reads(self, p: int, kind: str, keys: list[str], places: list[tuple[int, int, str]],
                           tested: bool) -> None:
        """The keys of action 2's places (colour, row or -1 for a colour found by number, white) read
        from seat ``p``'s views ``kind``; ``tested``: NEVER for a colour out of the game."""
        for key, (c, r, white) in zip(keys, places):
            x, test = f"x{c}{white[1]}", f" if g{c} else NEVER" if tested else ""  # the roll's view index (see write)
            if r < 0:  # a colour spread over rows: the row of its number from RW, with the roll
                self.out(f"{key} = A[y{c}{white[1]}][{x}]{test}")
                continue
            if self.rules.lock_colour[r] == c:  # it leaves with its own row's lock: shut in every view by then
                test = ""
            self.out(f"{key} = {kind}{p}_{r}[{x}]{test}")

    def indexes(self) -> None:
        """The roll's white sum and view indexes of white + die per colour (and their rows, for
        the colours found by number), worked out."""
        self.out("t = w1 + w2")
        for c in self.colours:
            die = f"(d[{_int(c)}] + {_int(c * self.step)})"
            self.out(f"x{c}1 = w1 + {die}; x{c}2 = w2 + {die}")
        for c in self.found:
            self.out(f"y{c}1 = RW[x{c}1]; y{c}2 = RW[x{c}2]")

    def spread_cell(self, p: int) -> None:
        """Seat ``p``'s action 2 in row ``r`` at view index ``v``."""
        self.dispatch("r", list(range(self.rows)), lambda r: self.coloured_cross(p, r))
        self.out("ac = True")

    def coloured_cell(self, p: int, r: int, index: str) -> None:
        self.out(f"i = IX_{r}[{index}]")
        self.cell_at(p, r, 2)

    def coloured_cross(self, p: int, r: int) -> None:
        self.out(f"i = IX_{r}[v]")
        self.cell_at(p, r, 2)

    def coloured(self, p: int, kind: str) -> None:
        """Action 2's places of seat ``p``, read from its views ``kind`` (a: calm, h: a penalty at stake)."""
        rules, out = self.rules, self.out
        for c in self.colours:
            # per number, the rows with a cell of that colour and number, top row first
            rows_of = {v: [r for r in range(self.rows) for i in range(rules.last[r] + 1)
                           if rules.colour[r][i] == c and rules.numbers[r][i] == v] for v in range(self.sums)}
            spread = sorted({r for found in rows_of.values() for r in found})
            out(f"if g{c}:")
            with out.indent():
                out(f"e = d[{_int(c)}] + {_int(c * self.step)}")
                for white in ("w1", "w2"):
                    if white == "w2":
                        out("if w1 != w2:")
                        out.depth += 1
                    out(f"v = {white} + e")
                    if len(spread) == 1:
                        r = spread[0]
                        out(f"key = {kind}{p}_{r}[v]")
                        self.compare(f"({_int(r)}, v)")
                    else:  # runs of numbers whose cells of this colour are in the same rows (a number without one
                        # joins any run: every view holds NEVER for it)
                        runs: list[tuple[int, list[int]]] = []
                        for v in range(2, self.sums):
                            if not runs or rows_of[v] and runs[-1][1] and rows_of[v] != runs[-1][1]:
                                runs.append((c * self.step + v, rows_of[v]))
                            elif rows_of[v]:
                                runs[-1] = (runs[-1][0], rows_of[v])
                        at = dict(runs)

                        def emit(v: int, at: dict[int, list[int]] = at) -> None:
                            self.coloured_rows(p, kind, at[v])

                        self.dispatch("v", sorted(at), emit)
                    if white == "w2":
                        out.depth -= 1

    def coloured_rows(self, p: int, kind: str, rows: list[int]) -> None:
        for r in rows:
            self.out(f"key = {kind}{p}_{r}[v]")
            self.compare(f"({_int(r)}, v)")

    def dispatch(self, name: str, values: list[int], emit: Callable[[int], None]) -> None:
        """``if name < m: ... else: ...`` down to one value each: a few comparisons, not one per value."""
        out = self.out
        if len(values) == 1:
            emit(values[0])
            return
        middle = len(values) // 2
        out(f"if {name} < {_int(values[middle])}:")
        with out.indent():
            self.dispatch(name, values[:middle], emit)
        out("else:")
        with out.indent():
            self.dispatch(name, values[middle:], emit)

    # -- the whole loop ------------------------------------------------------------

    def write(self) -> str:
        from .game import RandomDice, dice_tables

        rules, out, players = self.rules, self.out, self.players
        self.bind("RandomDice", RandomDice)
        out.depth = 1
        out(f"({''.join(f's{p}, ' for p in range(players))}) = sheets")
        out(f"({''.join(f'draw{p}, ' for p in range(players))}) = draws")
        for p in range(players):
            out(f"nx{p}, cr{p}, bx{p}, cl{p}, lk{p} = s{p}.next, s{p}.crosses, s{p}.boxes, s{p}.cells, s{p}.locked")
            if rules.lucky:
                out(f"L{p} = s{p}.lucky")
        out("cross, closing, closings, in_game, closed = game.cross, game.closing, game.closings, table.in_game,"
            " table.closed")
        out("effects, unlock = game.effects, game.unlock")
        for p in range(players):
            if rules.bar:
                out(f"bar{p}, br{p} = s{p}.bar, s{p}.bonus_rows")
            if rules.powers:
                out(f"sy{p} = s{p}.symbols")
        self.refresh_all()
        out("rolls, active, (w1, w2), d = table.rolls, table.active, table.white, table.dice")
        out("ac = table.active_crossed")
        # Dice from the engine's RandomDice are drawn here, as it draws them; any others are iterated.
        # Each roll also gives action 2's view index of white 1 and of white 2 with each colour's die
        # (x01, x02, x11, ...): from a table per outcome where the rolls are tabled.
        bits, outcomes, whites, colours, tabled = dice_tables(rules.grid.dice_faces)
        out("rb = dice.getrandbits if type(dice) is RandomDice else None")
        out("if rb is None: it = iter(dice)")
        out("while True:")
        with out.indent():
            out("if rb is not None:")
            with out.indent():
                out(f"o = rb({_int(bits)})")
                out(f"while o >= {_int(outcomes)}: o = rb({_int(bits)})")
                if tabled is not None:
                    rows = self.env["RW"] if self.found else ()
                    indexed = self.bind("ROLLS", _indexed(tabled, tuple(self.colours), self.step, tuple(self.found),
                                                          rows))
                    names = [f"x{c}1, x{c}2, " for c in self.colours] + [f"y{c}1, y{c}2, " for c in self.found]
                    out(f"w1, w2, d, t, {''.join(names)}= {indexed}[o]")
                else:
                    out(f"o, x = divmod(o, {_int(len(colours))})")
                    out(f"w1, w2 = {self.bind('WHITES', whites)}[o]; d = {self.bind('COLOURED', colours)}[x]")
                    self.indexes()
            out("else:")
            with out.indent():
                out("for w1, w2, d in it: break")
                out("else: break")
                self.indexes()
            out(f"active = rolls % {_int(players)}")
            out("rolls += 1")
            out("ac = False")
            self.dispatch("t", list(range(2, self.sums)), self.action1)
            out("if closing:")
            with out.indent():
                self.close(1)
            self.dispatch("active", list(range(players)), self.action2)
            out("if closing:")
            with out.indent():
                self.close(2)
        out("if rolls != table.rolls:")
        with out.indent():
            self.sync(2)
        head = f"def play(game, table, sheets, draws, dice, {', '.join(self.defaults)}):"
        return "\n".join([*self.viewers(), head, *out.lines]) + "\n"

    def viewers(self) -> list[str]:
        """``VIEW{k}(sheet)``: a sheet's views for rank ``k``, every row's calm view then every row's
        view under threat (read again after the engine's own methods crossed or closed rows)."""
        from .game import SHUT

        out = _Source()
        for k in range(len(self.ranks)):
            calm, threat = self.made[k]
            fresh = self.bind(f"FRESH{k}", (*(calm[0][r][0][0] for r in range(self.rows)),
                                            *(threat[0][r][0][0] for r in range(self.rows)),
                                            *(calm[0][r][0][0][1] for r in range(self.rows))))
            zeros = self.bind("ZEROS", [0] * self.rows)
            out(f"def VIEW{k}(s):")
            with out.indent():
                out("nx, cr, bx = s.next, s.crosses, s.boxes")
                out(f"if cr == {zeros} and nx == {zeros}: return {fresh}  # nothing crossed, no row shut")
                for r in range(self.rows):
                    out(f"n = nx[{_int(r)}]")
                    out(f"if n == {_int(SHUT)}:")
                    with out.indent():
                        out(f"a{r} = h{r} = SHUTV; m{r} = 0")
                    if self.rules.bis:  # the small box under the rightmost cross crossed
                        out(f"elif n and bx[{_int(r)}] >> (n - 1) & 1:")
                        with out.indent():
                            out(f"a{r}, h{r}, m{r} = V{k}_1_{r}[n][cr[{_int(r)}]]")
                    out("else:")
                    with out.indent():
                        out(f"a{r}, h{r}, m{r} = V{k}_0_{r}[n][cr[{_int(r)}]]")
                out(f"return {''.join(f'{kind}{r}, ' for kind in 'ahm' for r in range(self.rows))}")
        return out.lines


@lru_cache(maxsize=4)
def _indexed(rolls: tuple[Roll, ...], colours: tuple[int, ...], step: int, found: tuple[int, ...] = (),
             rows: tuple[int, ...] = ()) -> tuple[tuple, ...]:
    """Per tabled roll: its dice, the white sum, for each colour the view index of white 1
    and of white 2 with its die, then for each colour of ``found`` the rows of those two
    indexes (``rows``, RW) (``indexes``), made once per process."""
    columns: list[list] = [[roll[0] for roll in rolls], [roll[1] for roll in rolls], [roll[2] for roll in rolls]]
    columns.append(list(map(add, columns[0], columns[1])))
    at = {}
    for c in colours:
        die = [roll[2][c] + c * step for roll in rolls]
        at[c] = len(columns)
        columns += [list(map(add, columns[0], die)), list(map(add, columns[1], die))]
    for c in found:
        columns += [[rows[x] for x in columns[at[c]]], [rows[x] for x in columns[at[c] + 1]]]
    return tuple(zip(*columns))


def _pick(draw: Callable[[int], int], best: int, *keys: int) -> list[int]:
    """Ties for ``best`` broken by ``draw`` in the places' order: the keys with only the chosen one left at best."""
    chosen = keys.index(best)
    for _ in range(draw(keys.count(best))):  # the chosen tie's place: past that many others
        chosen = keys.index(best, chosen + 1)
    found = [best + 1] * len(keys)  # any key above best
    found[chosen] = best
    return found


def write_loop(rules: Rulebook, seats: Seats) -> tuple[str, dict]:
    """The source of the loop for ``rules`` and ``seats``, and the values its defaults name."""
    for numbers in rules.numbers:
        if len(set(numbers)) != len(numbers):  # the loader refuses it; a view has one place per number
            raise ValueError("a number twice in one row")
    writer = _Writer(rules, seats)
    return writer.write(), writer.env


def make_loop(rules: Rulebook, seats: Seats) -> Loop:
    """Compile the loop for ``rules`` and ``seats`` (``Rulebook.loop`` keeps it)."""
    source, env = write_loop(rules, seats)
    exec(compile(source, f"<turn loop of {rules.grid.name!r}>", "exec"), env)  # noqa: S102 - numbers only
    loop: Loop = env["play"]
    return loop
