"""Marks files: what players crossed on their filled-in sheets.

A marks file (YAML or JSON, same structure; format in docs/scoring.md) holds
one sheet, or several under ``players``.  Its *form* is checked here: known
keys, right types, one entry per row of the grid, the grid it names.  Whether
a sheet could come out of a game (numbers in their rows, closing threshold,
...) is the scorer's question (``scoring.score_sheet``), because only the game
rules can answer it.

Lists keep the order of the file so that the scorer's errors can point at
the entry at fault (``rows[0].crossed[3]``, ``players[1].rows[0].crossed[3]``).
Files come by the thousand, so a well-formed document is checked by plain
type tests first; only a document that fails them is walked again with
``Node``, which says where and why.
"""

from __future__ import annotations

import os

from ..checks import Node
from ..errors import InputError
from ..grid.model import Grid
from ..records import record

SHEET_KEYS = ("rows", "grid", "player", "penalties", "bonus_bar")
PLAYER_KEYS = ("rows", "player", "penalties", "bonus_bar")  # an entry of `players`
ROW_KEYS = ("crossed", "lock", "bis")
_KEYS: dict[tuple[str, ...], frozenset[str]] = {keys: frozenset(keys) for keys in (SHEET_KEYS, PLAYER_KEYS, ROW_KEYS)}
_WHOLE = {int}  # the type of every entry of a list of numbers (bool is a type of its own)
PLAYER_NAME = 40  # characters
GRID_NAME = 100  # characters of a `grid` key (grid names have 32 at most)


@record
class RowMarks:
    crossed: tuple[int, ...] = ()  # numbers crossed in the row, in file order
    lock: bool | None = None  # None when the file does not say (the last cell decides)
    bis: tuple[int, ...] = ()  # numbers whose small box (Bis) is crossed


@record
class Marks:
    source: str  # the file as the user named it; every error starts with it
    rows: tuple[RowMarks, ...]  # one per grid row, top to bottom
    penalties: int = 0
    bonus_bar: tuple[int, ...] = ()  # positions of crossed bar boxes, 1 = leftmost
    player: str | None = None
    path: str = ""  # where the sheet is in its file: "players[1]", or "" for a file of one sheet


def read_marks(spec: str) -> object:
    """The plain data of the marks file ``spec`` names: the one place marks are read."""
    from ..grid.yamlio import read_yaml, source_name

    return read_yaml(spec, source_name(spec))


def load_marks(path: str | os.PathLike[str], grid: Grid) -> Marks:
    """Read the marks file at ``path`` ('-': standard input), holding one sheet of ``grid``."""
    from ..grid.yamlio import source_name

    where = source_name(path)
    return marks_from_data(read_marks(os.fspath(path)), where, grid)


def marks_from_data(data: object, where: str, grid: Grid) -> Marks:
    """Check the form of one sheet's plain data (as read from YAML or JSON) into ``Marks``."""
    return _quick_sheet(data, where, grid, "", SHEET_KEYS) or _checked_sheet(Node(where, "", data), grid, SHEET_KEYS)


def sheets_from_data(data: object, where: str, grid: Grid) -> list[Marks | InputError]:
    """The sheets of a marks document: one, or one per entry of ``players``.

    A fault in the document as a whole raises ``InputError``; a fault in one
    player's entry is that entry's result, so that the others are still scored.
    """
    if not (isinstance(data, dict) and "players" in data):
        return [marks_from_data(data, where, grid)]
    top = Node(where, "", data).mapping(required=("players",), optional=("grid",))
    if "grid" in top:
        _check_grid_name(top["grid"], grid)
    entries = top["players"].sequence()
    if not entries:
        top["players"].fail("expected at least one player, got an empty list")
    sheets: list[Marks | InputError] = []
    names: dict[str, int] = {}
    for index, entry in enumerate(entries):
        try:
            sheet = _quick_sheet(entry.value, where, grid, entry.path, PLAYER_KEYS) or _checked_sheet(
                entry, grid, PLAYER_KEYS
            )
            if sheet.player is None:
                entry.fail("missing key 'player' (every sheet of a file of several players has a name)")
            if sheet.player in names:
                entry.at("player").fail(f"{sheet.player!r} twice in this file (also players[{names[sheet.player]}])")
        except InputError as error:
            sheets.append(error)
            continue
        names[sheet.player] = index
        sheets.append(sheet)
    return sheets


# -- the plain type tests: a well-formed sheet passes, anything else returns None ----------


_ABSENT = object()  # a key the document does not have (a key with no value, null, is something else)


def _quick_sheet(data: object, where: str, grid: Grid, path: str, keys: tuple[str, ...]) -> Marks | None:
    if type(data) is not dict or not data.keys() <= _KEYS[keys]:
        return None
    rows = data.get("rows")
    if type(rows) is not list or len(rows) != len(grid.rows):
        return None
    read = [_quick_row(row) for row in rows]
    penalties = data.get("penalties", 0)
    bonus_bar = _quick_numbers(data.get("bonus_bar", _ABSENT))
    player = data.get("player", _ABSENT)
    if (
        None in read
        or type(penalties) is not int
        or penalties < 0
        or bonus_bar is None
        or not (player is _ABSENT or _plain_text(player, PLAYER_NAME))
        or data.get("grid", grid.name) != grid.name
    ):
        return None
    return Marks(where, tuple(read), penalties, bonus_bar, None if player is _ABSENT else player, path)  # type: ignore[arg-type]


def _quick_row(row: object) -> RowMarks | None:
    if type(row) is not dict or not row.keys() <= _KEYS[ROW_KEYS]:
        return None
    crossed, bis = _quick_numbers(row.get("crossed", _ABSENT)), _quick_numbers(row.get("bis", _ABSENT))
    lock = row.get("lock", _ABSENT)
    if crossed is None or bis is None or not (lock is _ABSENT or type(lock) is bool):
        return None
    return RowMarks(crossed, None if lock is _ABSENT else lock, bis)  # type: ignore[arg-type]


def _quick_numbers(value: object) -> tuple[int, ...] | None:
    if value is _ABSENT:
        return ()
    if type(value) is not list or not set(map(type, value)) <= _WHOLE:
        return None
    return tuple(value)


def _plain_text(value: object, maximum: int) -> bool:
    """What ``Node.text`` accepts, tested without building nodes."""
    return (
        type(value) is str
        and len(value) <= maximum
        and bool(value.strip())
        and not any(ch in value for ch in "\n\r\t\x00")
    )


# -- the walk that says where: run only on a document the plain tests refused --------------


def _checked_sheet(node: Node, grid: Grid, keys: tuple[str, ...]) -> Marks:
    top = node.mapping(required=("rows",), optional=keys[1:])
    if "grid" in top:
        _check_grid_name(top["grid"], grid)
    rows = top["rows"].sequence()
    if len(rows) != len(grid.rows):
        top["rows"].fail(f"expected {len(grid.rows)} rows (one per row of grid {grid.name!r}), got {len(rows)}")
    return Marks(
        source=node.source,
        rows=tuple(_checked_row(row) for row in rows),
        penalties=top["penalties"].integer(minimum=0) if "penalties" in top else 0,
        bonus_bar=_checked_numbers(top.get("bonus_bar")),
        player=top["player"].text(PLAYER_NAME) if "player" in top else None,
        path=node.path,
    )


def _check_grid_name(node: Node, grid: Grid) -> None:
    named = node.text(GRID_NAME)
    if named != grid.name:
        node.fail(f"this sheet is for grid {named!r}, not {grid.name!r} (the grid being scored)")


def _checked_row(node: Node) -> RowMarks:
    fields = node.mapping(optional=ROW_KEYS)
    return RowMarks(
        crossed=_checked_numbers(fields.get("crossed")),
        lock=fields["lock"].boolean() if "lock" in fields else None,
        bis=_checked_numbers(fields.get("bis")),
    )


def _checked_numbers(node: Node | None) -> tuple[int, ...]:
    """A list of whole numbers; an absent key is an empty list."""
    return tuple(item.integer() for item in node.sequence()) if node is not None else ()
