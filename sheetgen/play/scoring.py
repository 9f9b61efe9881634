"""Scoring filled-in sheets: pure functions from (Grid, Marks) to Score.

``score_sheet`` first proves the marks could be the paper left by a real game
(GRIDS.md) and refuses anything else with a ``ScoreError`` naming the file, the
entry at fault and why; then it counts.  ``rank``, ``format_scores`` and
``scores_as_json`` present several scores.  No I/O here; every rule is read
from the grid's fields, never from its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NoReturn, Sequence

from ..errors import InputError
from .marks import Marks, RowMarks
from ..grid.model import Colour, Effect, Grid, Power, Row, Symbol, row_points
from ..grid.validate import one_of, plural


class ScoreError(InputError):
    """A well-formed marks file describing a sheet no game can leave behind."""


@dataclass(frozen=True)
class RowScore:
    label: str  # the lock colour, or "row 2" when the row's cells have several colours
    lock_colour: Colour
    crosses: int  # on the paper: cells (doubles twice), Bis boxes, the lock
    counted: int  # crosses that score: at most grid.max_crosses
    locked: bool
    points: int


@dataclass(frozen=True)
class PowerScore:
    symbol: Symbol
    effect: Effect
    text: str  # what the power did, for people
    points: int  # what it adds to the total (0 for crosses already on the paper)


@dataclass(frozen=True)
class Score:
    grid: str
    title: str
    source: str
    player: str | None
    rows: tuple[RowScore, ...]
    penalties: int
    penalty_points: int  # signed: -5 for one classic penalty
    powers: tuple[PowerScore, ...]  # the unlocked ones, in the grid's order
    total: int  # sum of row points + penalty_points + power points

    @property
    def name(self) -> str:
        return self.player or self.source


# Effects that cross cells at once: with them one action can cross several cells.
IMMEDIATE = (Effect.EXTRA_CROSSES, Effect.CROSS_EACH_OPEN_ROW)
# Effects that are a state at the end of the game: having them twice is having them.
ONCE = (Effect.DOUBLE_LOWEST_ROW, Effect.NO_PENALTIES)


# -- scoring one sheet ---------------------------------------------------------


def score_sheet(grid: Grid, marks: Marks) -> Score:
    """Score ``marks`` on ``grid``; raise ``ScoreError`` if no game can leave them."""
    if len(marks.rows) != len(grid.rows):
        raise ValueError(f"marks have {len(marks.rows)} rows, grid {grid.name!r} has {len(grid.rows)}")
    fail = _failer(marks.source)
    crossed: list[frozenset[int]] = []
    rows: list[RowScore] = []
    for index, (row, row_marks) in enumerate(zip(grid.rows, marks.rows)):
        cells, crosses = _check_row(grid, row, row_marks, f"rows[{index}]", fail)
        crossed.append(cells)
        counted = min(crosses, grid.max_crosses)
        locked = len(row.cells) - 1 in cells
        rows.append(RowScore(_row_label(index, row), row.lock_colour, crosses, counted, locked, row_points(counted)))
    if marks.penalties > grid.penalty_boxes:
        fail("penalties", f"{marks.penalties} crossed but the sheet has only {plural(grid.penalty_boxes, 'penalty box', 'penalty boxes')}")
    _check_bonus_bar(grid, marks, crossed, fail)
    unlocked = [
        power
        for power in grid.powers
        if all(c in crossed[r] for r, c in grid.symbol_cells(power.symbol))
    ]
    _check_locks(marks, rows, unlocked, fail)

    penalty_points = -grid.penalty_points * marks.penalties
    powers: list[PowerScore] = []
    for power in unlocked:
        text, points = _power_effect(power.effect, power.amount, rows, penalty_points)
        # A grid may give one effect to two symbols.  Points add up, but a
        # row counts double once and penalties are cancelled once.
        if power.effect in ONCE and power.effect in (p.effect for p in powers):
            text, points = f"{text} (already applied)", 0
        powers.append(PowerScore(power.symbol, power.effect, text, points))
    total = sum(r.points for r in rows) + penalty_points + sum(p.points for p in powers)
    return Score(
        grid=grid.name,
        title=grid.title,
        source=marks.source,
        player=marks.player,
        rows=tuple(rows),
        penalties=marks.penalties,
        penalty_points=penalty_points,
        powers=tuple(powers),
        total=total,
    )


Fail = Callable[[str, str], NoReturn]  # fail(path inside the file, message)


def _failer(source: str) -> Fail:
    def fail(path: str, message: str) -> NoReturn:
        raise ScoreError(source, path, message)

    return fail


def _row_label(index: int, row: Row) -> str:
    if len(row.colours) == 1:
        return row.lock_colour.value
    return f"row {index + 1}"


def _check_row(grid: Grid, row: Row, marks: RowMarks, path: str, fail: Fail) -> tuple[frozenset[int], int]:
    """Prove one row possible; return the positions of its crossed cells and its crosses."""
    numbers = row.numbers
    last = len(numbers) - 1

    def positions(key: str, entries: tuple[int, ...]) -> list[int]:
        found: list[int] = []
        for n, number in enumerate(entries):
            if number not in numbers:
                fail(f"{path}.{key}[{n}]", f"no cell {number} in this row (expected one of {one_of([str(x) for x in numbers])})")
            if number in entries[:n]:
                fail(f"{path}.{key}[{n}]", f"{number} listed twice")
            found.append(numbers.index(number))
        return found

    # Any set of cells is reachable: cells are crossed left to right and the
    # skipped ones are simply lost.  So only the last cell has a condition.
    cells = frozenset(positions("crossed", marks.crossed))
    if marks.bis and not grid.bis:
        fail(f"{path}.bis", "this grid has no small boxes under its cells")
    boxes = positions("bis", marks.bis)
    for n, position in enumerate(boxes):
        number = numbers[position]
        if position == last:
            fail(f"{path}.bis[{n}]", f"the last cell {number} has no small box")
        # Every crossed cell was the rightmost cross once, so any of them may
        # have taken its box; an uncrossed one never was.
        if position not in cells:
            fail(f"{path}.bis[{n}]", f"small box under {number} crossed but {number} is not")

    last_number = numbers[last]
    if last in cells:
        # Bis boxes all sit under earlier cells and were taken before the
        # last cell (after it the row is closed), so they all count here.
        before = sum(row.cells[p].weight for p in cells if p != last) + len(boxes)
        if before < grid.close_after:
            fail(
                f"{path}.crossed",
                f"{last_number} crossed with only {plural(before, 'cross', 'crosses')} before it"
                f" (the last cell needs at least {grid.close_after})",
            )
    if marks.lock is True and last not in cells:
        fail(f"{path}.lock", f"locked but the last cell {last_number} is not crossed (the lock is crossed with it)")
    if marks.lock is False and last in cells:
        fail(f"{path}.lock", f"not locked but the last cell {last_number} is crossed (crossing it crosses the lock)")
    crosses = sum(row.cells[p].weight for p in cells) + len(boxes) + (1 if last in cells else 0)
    return cells, crosses


def _check_bonus_bar(grid: Grid, marks: Marks, crossed: list[frozenset[int]], fail: Fail) -> None:
    if not marks.bonus_bar:
        return
    if not grid.bonus_bar:
        fail("bonus_bar", "this grid has no bonus bar")
    size = len(grid.bonus_bar)
    seen: set[int] = set()
    for n, position in enumerate(marks.bonus_bar):
        if not 1 <= position <= size:
            fail(f"bonus_bar[{n}]", f"no box {position} (the bar has boxes 1 to {size})")
        if position in seen:
            fail(f"bonus_bar[{n}]", f"box {position} listed twice")
        seen.add(position)
    framed = sum(row.cells[p].framed for row, cells in zip(grid.rows, crossed) for p in cells)
    if len(seen) > framed:
        fail(
            "bonus_bar",
            f"{plural(len(seen), 'box', 'boxes')} crossed but only {plural(framed, 'framed cell', 'framed cells')}"
            " (each framed cell crosses one box)",
        )
    # Boxes are taken leftmost free first.  A free box is passed over only once
    # it is struck, and a closing row strikes every free box of its colour, so
    # the crossed boxes of each colour are that colour's leftmost ones.
    for n, position in enumerate(marks.bonus_bar):
        colour = grid.bonus_bar[position - 1]
        for earlier in range(1, position):
            if grid.bonus_bar[earlier - 1] is colour and earlier not in seen:
                fail(
                    f"bonus_bar[{n}]",
                    f"box {position} crossed while box {earlier} of the same colour ({colour.value}) is free"
                    " (a box is passed over only when its colour is struck, which strikes all its boxes)",
                )
        # The cross a box gives is compulsory, and in an empty row the first
        # cell is always legal (it is never the last), so that row has a cross.
        row = grid.row_of_colour(colour)
        if row is not None and not crossed[row]:
            fail(
                f"bonus_bar[{n}]",
                f"box {position} ({colour.value}) crossed but rows[{row}] has no cross"
                " (a bonus box gives a compulsory cross in its colour's row)",
            )


def _check_locks(marks: Marks, rows: list[RowScore], unlocked: list[Power], fail: Fail) -> None:
    """One sheet holds at most two locks unless it shows a way to cross several
    cells in one action.

    Why this is provable from the paper: the 2nd closed row ends the game at
    once, so before the last action at most one row is closed, and in one
    action a player crosses one cell (action 1: one row; action 2: one cell;
    a lucky number or a Bis box replaces that cross).  So a player ends with
    at most 2 locks.  GRIDS.md's "a 3rd can close in the same action" is about
    several players closing different rows in one action 1: each sheet still
    gets one lock from it.  Only immediate crosses (a power, visible as its
    unlocked symbol cells) or a bonus chain (visible as crossed bar boxes)
    cross several cells in one action and may close several rows at once; then
    any number of locks is accepted.
    """
    locks = sum(r.locked for r in rows)
    several = marks.bonus_bar or any(p.effect in IMMEDIATE for p in unlocked)
    if locks > 2 and not several:
        fail(
            "rows",
            f"{locks} rows locked, but a player can lock at most 2 (the 2nd closed row ends the game,"
            " and this sheet shows no power or bonus that crosses several cells in one action)",
        )


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



# -- several sheets ------------------------------------------------------------


def rank(scores: Sequence[Score]) -> list[tuple[int, Score]]:
    """(place, score) from best to worst; equal totals share a place (1, 1, 3)."""
    return [(_place(score, scores), score) for score in sorted(scores, key=lambda s: -s.total)]


def _place(score: Score, scores: Sequence[Score]) -> int:
    return 1 + sum(other.total > score.total for other in scores)


def winners(scores: Sequence[Score]) -> list[Score]:
    return [score for place, score in rank(scores) if place == 1]


def format_scores(scores: Sequence[Score]) -> str:
    """A plain-text table per sheet and, for several sheets, the ranking."""
    blocks = [_format_sheet(score) for score in scores]
    if len(scores) > 1:
        blocks.append(_format_ranking(scores))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _format_sheet(score: Score) -> str:
    head = f"{score.player} ({score.source})" if score.player else score.source
    lines = [(row.label, _crosses_text(row), str(row.points)) for row in score.rows]
    lines.append(("penalties", f"{score.penalties} crossed" if score.penalties else "none", str(score.penalty_points)))
    lines += [(power.symbol.value, power.text, f"{power.points:+d}") for power in score.powers]
    lines.append(("total", "", str(score.total)))
    return f"{head}: {score.title}\n" + _table(lines)


def _crosses_text(row: RowScore) -> str:
    text = plural(row.crosses, "cross", "crosses")
    if row.counted != row.crosses:
        text += f" ({row.counted} count)"
    return text + (", locked" if row.locked else "")


def _format_ranking(scores: Sequence[Score]) -> str:
    lines = [(str(place), score.name, str(score.total)) for place, score in rank(scores)]
    best = winners(scores)
    names = " and ".join(score.name for score in best)
    verdict = f"Winners (tie): {names} with {best[0].total}" if len(best) > 1 else f"Winner: {names} with {best[0].total}"
    return "Ranking\n" + _table(lines) + "\n" + verdict


def _table(lines: list[tuple[str, str, str]]) -> str:
    """Left, left and right aligned columns, indented by two spaces."""
    widths = [max(len(line[i]) for line in lines) for i in range(3)]
    return "\n".join(
        f"  {a:<{widths[0]}}  {b:<{widths[1]}}  {c:>{widths[2]}}".rstrip() for a, b, c in lines
    )


def scores_as_json(scores: Sequence[Score]) -> dict:
    """The scores as plain data for ``--json``: every sheet, the ranking, the winners."""
    return {
        "sheets": [_sheet_as_json(score, _place(score, scores)) for score in scores],
        "ranking": [{"place": place, "name": score.name, "total": score.total} for place, score in rank(scores)],
        "winners": [score.name for score in winners(scores)],
    }


def _sheet_as_json(score: Score, place: int) -> dict:
    return {
        "file": score.source,
        "player": score.player,
        "grid": score.grid,
        "rows": [
            {
                "row": row.label,
                "lock_colour": row.lock_colour.value,
                "crosses": row.crosses,
                "counted": row.counted,
                "locked": row.locked,
                "points": row.points,
            }
            for row in score.rows
        ],
        "penalties": {"crossed": score.penalties, "points": score.penalty_points},
        "powers": [
            {"symbol": p.symbol.value, "effect": p.effect.value, "text": p.text, "points": p.points}
            for p in score.powers
        ],
        "total": score.total,
        "place": place,
    }
