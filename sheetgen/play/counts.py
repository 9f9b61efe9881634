"""Quick counts: a sheet typed at the table as crosses per row.

``Lea: 6 4 8L 3 p1`` is the player's name, then one count per row of the grid,
top to bottom: the crosses in that row, with ``L`` when the row is locked
(the count includes the lock), and ``p`` with the number of penalties (``p1``;
none if left out).  Counts are enough to score a grid whose points follow from
its rows' crosses; they are checked against what a row can hold and against
the closing rule, and the sheet against the locks and penalties a game can
leave.  A grid with powers needs the cells: which powers are unlocked depends
on which cells are crossed, so counts for it are refused.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import InputError
from ..grid.model import Grid, Row, row_name, row_points
from ..words import plural
from .marks import PLAYER_NAME
from .scoring import (
    Fail,
    RowScore,
    Score,
    ScoreError,
    check_game_end,
    check_penalties,
    closings_per_action,
    failer,
    score_from_rows,
)

# An argument of `sheetgen score` is a marks file when it ends like one, has a
# folder in it or is `-` (standard input); otherwise one with a colon is counts.
MARKS_SUFFIXES = (".yaml", ".yml", ".json")
# Reasons of refused counts, beside scoring.REASONS (threshold, too-many-locks...).
COUNT_REASONS = ("capacity", "counts-not-enough")

_COUNT = re.compile(r"([0-9]{1,3})([lL]?)")
_PENALTIES = re.compile(r"[pP]([0-9]{1,3})")


def is_counts(argument: str) -> bool:
    """Whether a command-line argument is quick counts rather than a marks file."""
    if argument == "-" or "/" in argument or argument.lower().endswith(MARKS_SUFFIXES):
        return False
    return ":" in argument


def missing_colon(argument: str) -> str:
    """A hint for an argument read as a marks file that is not one but looks
    like counts typed without their colon (``Lea 6 4 8L 3``), else ''."""
    name, _, counts = argument.strip().partition(" ")
    if name and counts and all(re.fullmatch(r"p?\d+L?", word, re.I) for word in counts.split()):
        return f" (counts are typed with a colon after the name: {name + ': ' + ' '.join(counts.split())!r})"
    return ""


def score_counts(grid: Grid, argument: str) -> Score:
    """Check and score quick counts; raise ``InputError`` (a ``ScoreError`` for
    a sheet no game can leave) naming the argument and the count at fault."""
    # Quoted, as typed; what the terminal would not print (an escape sequence,
    # a bidi control) is written as its escape.
    where = '"' + "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in argument) + '"'
    name, _, text = argument.partition(":")
    name = name.strip()
    if not name or len(name) > PLAYER_NAME or not name.isprintable():
        raise InputError(where, "", f"expected a player's name of 1 to {PLAYER_NAME} printable characters before ':'")
    if grid.powers:
        raise ScoreError(where, "", f"counts cannot score grid {grid.name!r}: which of its powers are unlocked"
                                    " depends on which cells are crossed (score a marks file instead, see"
                                    " 'sheetgen help scoring')",
                         "counts-not-enough")
    counts: list[tuple[int, bool]] = []
    penalties: int | None = None
    for token in text.split():
        count, penalty = _COUNT.fullmatch(token), _PENALTIES.fullmatch(token)
        if count:
            counts.append((int(count.group(1)), bool(count.group(2))))
        elif penalty and penalties is None:
            penalties, written = int(penalty.group(1)), token
        elif penalty:
            raise InputError(where, "penalties", f"penalties given twice ({written!r} and {token!r})")
        else:
            raise InputError(where, "", f"cannot read {token!r} (expected crosses per row such as 6, 8L for a locked"
                                        " row, and p1 for one penalty)")
    if len(counts) != len(grid.rows):
        raise InputError(where, "rows", f"expected {len(grid.rows)} counts (one per row of grid {grid.name!r}),"
                                        f" got {len(counts)}")
    fail = failer(where)
    rows = [_row_score(grid, index, row, count, locked, fail)
            for index, (row, (count, locked)) in enumerate(zip(grid.rows, counts))]
    penalties = penalties or 0
    check_penalties(grid, penalties, fail)
    # Counts do not show the bar: suppose it used, which can only allow more locks.
    check_game_end(grid, sum(r.locked for r in rows), penalties, lambda: closings_per_action(grid, (), True), fail)
    return score_from_rows(grid, None, name, rows, penalties, [])


def _row_score(grid: Grid, index: int, row: Row, count: int, locked: bool, fail: Fail) -> RowScore:
    path = f"rows[{index}]"
    possible = _crosses_before_last(grid, row)
    last, written = row.cells[-1], f"{count}{'L' if locked else ''}"
    before = count - last.weight - 1 if locked else count  # a locked row's count has its last cell and the lock
    if before > max(possible):
        most = max(possible) + last.weight + 1
        if locked:
            holds = "its cells, their small boxes and the lock" if grid.bis else "its cells and the lock"
            fail(path, "capacity", f"{written}: this row holds at most {most} crosses when locked ({holds})")
        holds = "the cells before its last and their small boxes" if grid.bis else "the cells before its last"
        fail(path, "capacity", f"{written}: a row not locked holds at most {max(possible)} crosses (in {holds});"
                               f" a locked row is written with L, up to {most}L")
    if locked and before < grid.close_after:
        fail(path, "threshold", f"{written} means {plural(max(before, 0), 'cross', 'crosses')} before the last cell"
                                " (the count includes the last cell and the lock), but the last cell needs at least"
                                f" {grid.close_after}")
    if before not in possible:
        fail(path, "capacity", f"{written}: no choice of this row's cells gives {plural(before, 'cross', 'crosses')}"
                               " before its last cell")
    counted = min(count, grid.max_crosses)
    return RowScore(row_name(grid, index), row.lock_colour, count, counted, locked, row_points(counted))


@lru_cache(maxsize=64)
def _crosses_before_last(grid: Grid, row: Row) -> frozenset[int]:
    """Every number of crosses the cells before the last can hold: any choice of
    cells (doubles give 2), each with its Bis box or not."""
    possible = {0}
    for cell in row.cells[:-1]:
        gains = (cell.weight, cell.weight + 1) if grid.bis else (cell.weight,)
        possible |= {p + g for p in possible for g in gains}
    return frozenset(possible)
