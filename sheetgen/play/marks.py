"""Marks files: what one player crossed on one filled-in sheet.

A marks file (YAML or JSON, same structure; format in docs/scoring.md) is read
and checked for its *form* here: known keys, right types, one entry per row
of the grid, the grid it names.  Whether the sheet could come out of a game
(numbers in their rows, closing threshold, ...) is the scorer's question
(``scoring.score_sheet``), because only the game rules can answer it.

Lists keep the order of the file so that the scorer's errors can point at
the entry at fault (``rows[0].crossed[3]``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..grid.model import Grid
from ..grid.validate import Node


@dataclass(frozen=True)
class RowMarks:
    crossed: tuple[int, ...] = ()  # numbers crossed in the row, in file order
    lock: bool | None = None  # None when the file does not say (the last cell decides)
    bis: tuple[int, ...] = ()  # numbers whose small box (Bis) is crossed


@dataclass(frozen=True)
class Marks:
    source: str  # the file as the user named it; every error starts with it
    rows: tuple[RowMarks, ...]  # one per grid row, top to bottom
    penalties: int = 0
    bonus_bar: tuple[int, ...] = ()  # positions of crossed bar boxes, 1 = leftmost
    player: str | None = None


def load_marks(path: str | os.PathLike[str], grid: Grid) -> Marks:
    """Read the marks file at ``path`` for a sheet of ``grid``."""
    from ..grid.yamlio import read_yaml, source_name

    where = source_name(path)  # '-' is standard input
    return marks_from_data(read_yaml(path, where), where, grid)


def marks_from_data(data: object, where: str, grid: Grid) -> Marks:
    """Check the form of plain data (as read from YAML or JSON) into ``Marks``."""
    top = Node(where, "", data).mapping(
        required=("rows",), optional=("grid", "player", "penalties", "bonus_bar")
    )
    if "grid" in top:
        named = top["grid"].text(100)
        if named != grid.name:
            top["grid"].fail(f"this sheet is for grid {named!r}, not {grid.name!r} (the grid being scored)")
    rows = top["rows"].sequence()
    if len(rows) != len(grid.rows):
        top["rows"].fail(f"expected {len(grid.rows)} rows (one per row of grid {grid.name!r}), got {len(rows)}")
    return Marks(
        source=where,
        rows=tuple(_read_row(node) for node in rows),
        penalties=top["penalties"].integer(minimum=0) if "penalties" in top else 0,
        bonus_bar=_numbers(top.get("bonus_bar")),
        player=top["player"].text(40) if "player" in top else None,
    )


def _read_row(node: Node) -> RowMarks:
    fields = node.mapping(optional=("crossed", "lock", "bis"))
    return RowMarks(
        crossed=_numbers(fields.get("crossed")),
        lock=fields["lock"].boolean() if "lock" in fields else None,
        bis=_numbers(fields.get("bis")),
    )


def _numbers(node: Node | None) -> tuple[int, ...]:
    """A list of whole numbers; an absent key is an empty list."""
    return tuple(item.integer() for item in node.sequence()) if node is not None else ()
