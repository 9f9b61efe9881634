"""The turn loop written out for one grid and one table of ``Ranked`` strategies.

``Game.run`` plays any grid with any strategies by reading the rulebook's
tables in a loop.  When every seat is ``Ranked`` it plays with a loop made
here instead: the source of a function in which the grid's places for each
white sum are spelt out (each row, cell index and threshold a constant), each
seat's sheet is bound to local names, each strategy's keys are tables indexed
by the row's next cell and crosses, and nothing is looked up by attribute in
the hot path.  The source is compiled once per rulebook and table of
strategies (``Rulebook.loop``) and plays the same games as the generic loop,
draw for draw; ``tests/test_game.py`` plays both and compares them.

Only numbers go into the source, each written with ``repr`` of an ``int`` or
``bool`` from the rulebook (which the schema checked); tables and functions
are passed in as the function's default arguments, never written as text.
Rare events (a row's last cell, a framed cell or a symbol, lucky numbers,
rows closing) are handed to the generic engine's own methods, with the table
brought up to date first, so the rules are written once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game, Rank, Roll, Rulebook, Sheet, Table

# A written loop: (game, table, sheets, each seat's draws, dice) -> None, until GameOver or the end of the dice.
Loop = Callable[["Game", "Table", Sequence["Sheet"], Sequence[Callable[[int], int]], Iterator["Roll"]], None]
Seats = tuple[tuple["Rank", bool], ...]  # per seat: its rank and whether it draws for a lone best move


class _Source:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def indent(self) -> _Source:
        self.depth += 1
        return self

    def __enter__(self) -> None:
        pass

    def __exit__(self, *_: object) -> None:
        self.depth -= 1


def _int(value: int | bool) -> str:
    """A number of the rulebook as source: only ints (bools as 0 or 1) are ever written."""
    if not isinstance(value, int):
        raise TypeError(f"not a number: {value!r}")
    return repr(int(value))


def write_loop(rules: Rulebook, seats: Seats) -> tuple[str, dict]:
    """The source of the loop for ``rules`` and ``seats``, and the values its defaults name."""
    from .game import NEVER, GameOver

    ranks: list[Rank] = []
    for rank, _ in seats:
        if rank not in ranks:
            ranks.append(rank)
    env: dict = {"GameOver": GameOver, "NEVER": NEVER}
    defaults: list[str] = ["NEVER=NEVER", "GameOver=GameOver"]

    def bind(name: str, value: object) -> str:
        if name not in env:
            env[name] = value
            defaults.append(f"{name}={name}")
        return name

    keys = [rules.keys(rank) for rank in ranks]
    faces = rules.grid.dice_faces
    players = len(seats)
    bind("WEIGHT", rules.weight)
    bind("PLAIN", rules.plain)
    bind("BY_ROLL", rules.by_roll)
    if rules.lucky:
        bind("NUMBERS", rules.numbers)
        bind("LAST", rules.last)

    def cell_table(k: int, closes: bool, i: int) -> str:
        # keys when the row's next cell is n (0 to i): the move loses i - n cells
        calm = keys[k][0][closes]
        return bind(f"A{k}_{_int(closes)}_{_int(i)}", tuple(calm[i - n] for n in range(i + 1)))

    out = _Source()
    out("def play(game, table, sheets, draws, dice, {}):".format(", ".join(defaults)))
    out.depth += 1
    out(f"({''.join(f's{p}, ' for p in range(players))}) = sheets")
    out(f"({''.join(f'draw{p}, ' for p in range(players))}) = draws")
    for p in range(players):
        out(f"nx{p}, cr{p}, bx{p}, cl{p} = s{p}.next, s{p}.crosses, s{p}.boxes, s{p}.cells")
        if rules.lucky:
            out(f"L{p} = s{p}.lucky")
    out("cross, closing, close_rows, in_game = game.cross, game.closing, game.close_rows, table.in_game")
    out("fewest = game.fewest_crosses_moves")
    out("rolls = table.rolls; active, (w1, w2), d, ac = table.active, table.white, table.dice, table.active_crossed")
    out("for w1, w2, d in dice:")
    with out.indent():
        out("rolls += 1")
        out(f"active = (rolls - 1) % {_int(players)}")
        out("ac = False")
        out("t = w1 + w2")
        totals = [t for t in range(2, 2 * faces + 1)]
        _dispatch(out, "t", totals, lambda t: _action1(out, rules, seats, ranks, t, cell_table, bind))

        out("if closing:")
        with out.indent():
            _sync(out, 1)
            out("close_rows()")
        _dispatch(out, "active", list(range(players)), lambda p: _action2(out, rules, seats, ranks, p, bind))
    out("if rolls != table.rolls:")
    with out.indent():
        _sync(out, 2)
    return "\n".join(out.lines) + "\n", env


def _sync(out: _Source, action: int) -> None:
    """The table as the generic loop keeps it, before the engine's own methods read it."""
    out(f"table.rolls, table.active, table.white, table.dice, table.action, table.active_crossed = "
        f"rolls, active, (w1, w2), d, {_int(action)}, ac")


def _dispatch(out: _Source, name: str, values: list[int], emit: Callable[[int], None]) -> None:
    """``if name < m: ... else: ...`` down to one value each: a few comparisons, not one per value."""
    if len(values) == 1:
        emit(values[0])
        return
    middle = len(values) // 2
    out(f"if {name} < {_int(values[middle])}:")
    with out.indent():
        _dispatch(out, name, values[:middle], emit)
    out("else:")
    with out.indent():
        _dispatch(out, name, values[middle:], emit)


def _compare(out: _Source, move: str, first: bool) -> None:
    if first:  # nothing better yet, and no ties
        out("if key < NEVER:")
        with out.indent():
            out(f"best = key; move = {move}")
        return
    out("if key < best:")
    with out.indent():
        out(f"best = key; move = {move}; ties = None")
    out("elif key == best < NEVER:")
    with out.indent():
        out(f"ties = [move, {move}] if ties is None else ties + [{move}]")


def _apply(out: _Source, p: int, action: int) -> None:
    out("k, r, i = move")
    out("if k == 1:")
    with out.indent():
        out(f"bx{p}[r] |= 1 << i")
        out(f"cr{p}[r] += 1")
    out("else:")
    with out.indent():
        out("if k == 2:")
        with out.indent():
            out(f"s{p}.lucky_crosses += 1")
            out(f"s{p}.lucky_rows[r] += WEIGHT[r][i]")
        out("if PLAIN[r][i]:")
        with out.indent():
            out(f"cl{p}[r] |= 1 << i")
            out(f"cr{p}[r] += WEIGHT[r][i]")
            out(f"nx{p}[r] = i + 1")
        out("else:")
        with out.indent():
            _sync(out, action)
            out(f"cross(s{p}, r, i, {_int(action)})")


def _take(out: _Source, p: int, draw_single: bool, action: int, then: str) -> None:
    """Seat ``p``'s choice of the best move found (ties drawn as its strategy draws them) crossed, and ``then``."""
    out("if ties is not None:")
    with out.indent():
        out(f"move = ties[draw{p}(len(ties))]")
    if draw_single:
        out("elif move is not None:")
        with out.indent():
            out(f"draw{p}(1)")
    out("if move is not None:")
    with out.indent():
        _apply(out, p, action)
        out(then)


def _action1(out: _Source, rules: Rulebook, seats: Seats, ranks: list, t: int,
             cell_table: Callable[[int, bool, int], str], bind: Callable[[str, object], str]) -> None:
    close_after = _int(rules.close_after)
    for p, (rank, draw_single) in enumerate(seats):
        k = ranks.index(rank)
        out("best = NEVER; move = None; ties = None")
        first = True
        for r, i, closes, _, _ in rules.by_sum[t]:
            row, index = _int(r), _int(i)
            out(f"n = nx{p}[{row}]")
            out(f"if n <= {index}:")
            with out.indent():
                cells = cell_table(k, closes, i)
                if closes:
                    out(f"c = cr{p}[{row}]")
                    out(f"if c >= {close_after}:")
                    with out.indent():
                        out(f"key = {cells}[n][c]")
                        _compare(out, f"(0, {row}, {index})", first)
                else:
                    out(f"key = {cells}[n][cr{p}[{row}]]")
                    _compare(out, f"(0, {row}, {index})", first)
            if rules.bis:
                box = bind(f"B{k}", rules.keys(rank)[0][0][0])
                out(f"elif n == {_int(i + 1)} and not bx{p}[{row}] >> {index} & 1:")
                with out.indent():
                    out(f"key = {box}[cr{p}[{row}]]")
                    _compare(out, f"(1, {row}, {index})", first)
            first = False
        if rules.lucky:
            lucky = bind(f"Z{k}", (rules.keys(rank)[0][0][0], rules.keys(rank)[0][1][0]))
            out(f"if {_int(t)} in L{p}:")
            with out.indent():
                out(f"for found in fewest(s{p}, 2):")
                with out.indent():
                    out("r = found[1]; i = found[2]")
                    out(f"if NUMBERS[r][i] == {_int(t)}:")
                    with out.indent():
                        out("continue")
                    out(f"key = {lucky}[i == LAST[r]][cr{p}[r]]")
                    _compare(out, "found", False)
        _take(out, p, draw_single, 1, f"if active == {_int(p)}: ac = True")


def _action2(out: _Source, rules: Rulebook, seats: Seats, ranks: list, p: int,
             bind: Callable[[str, object], str]) -> None:
    rank, draw_single = seats[p]
    k = ranks.index(rank)
    keys = rules.keys(rank)
    now = bind(f"Q{k}", (keys[1], keys[0]))  # by whether the active player crossed in action 1: no threat then
    sides = _int(rules.grid.dice_faces + 1)
    out(f"now = {now}[ac]")
    out("best = NEVER; move = None; ties = None")
    out(f"wh = (w1 * {sides} + w2) * {sides}")
    out("for col in in_game:")
    with out.indent():
        out("for r, i, closes, cell, box in BY_ROLL[col][wh + d[col]]:")
        with out.indent():
            out(f"n = nx{p}[r]")
            out("if i >= n:")
            with out.indent():
                out(f"if closes and cr{p}[r] < {_int(rules.close_after)}:")
                with out.indent():
                    out("continue")
                out(f"key = now[closes][i - n][cr{p}[r]]; found = cell")
            if rules.bis:
                out(f"elif i == n - 1 and not bx{p}[r] >> i & 1:")
                with out.indent():
                    out(f"key = now[0][0][cr{p}[r]]; found = box")
            out("else:")
            with out.indent():
                out("continue")
            _compare(out, "found", False)
    _take(out, p, draw_single, 2, "ac = True")
    out("if not ac:")
    with out.indent():
        out(f"s{p}.penalties += 1")
        out(f"if s{p}.penalties >= {_int(rules.penalty_boxes)}:")
        with out.indent():
            _sync(out, 2)
            out("raise GameOver('penalties')")
    out("if closing:")
    with out.indent():
        _sync(out, 2)
        out("close_rows()")


def make_loop(rules: Rulebook, seats: Seats) -> Loop:
    """Compile the loop for ``rules`` and ``seats`` (``Rulebook.loop`` keeps it)."""
    source, env = write_loop(rules, seats)
    exec(compile(source, f"<turn loop of {rules.grid.name!r}>", "exec"), env)  # noqa: S102 - numbers only
    loop: Loop = env["play"]
    return loop
