"""Grid files: find the built-in ones, read and validate any one into a ``Grid``.

Validation happens here, once, and every error names the file, the path
inside it and what was expected.  The rule checks at the end are the
properties every grid must have (GRIDS.md), stated on the data, never on a
grid's name.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .errors import InputError
from .model import Cell, Colour, Effect, Grid, Lucky, Power, Row, Symbol
from .validate import Node, one_of

# Bounds of the format (documented in docs/grid-format.md).
MAX_ROWS = 4  # lock colours must differ and there are four coloured dice
MIN_ROWS = 2  # the game ends when a second row closes
DICE_FACES = (2, 10)
MAX_PENALTY_BOXES = 8
NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")

COLOURS = {c.value: c for c in Colour}
SYMBOLS = {s.value: s for s in Symbol}
EFFECTS = {e.value: e for e in Effect}
# The parameter each effect takes, if any.
EFFECT_AMOUNT = {Effect.EXTRA_CROSSES: "crosses", Effect.BONUS_POINTS: "points"}


def builtin_dir() -> Path:
    """The folder of built-in grid files: ``sheetgen/gridfiles`` in an installed
    package (pyproject maps the top-level ``grids/`` there), or ``grids/`` itself
    when run from a source checkout."""
    here = Path(__file__).resolve().parent
    packaged = here / "gridfiles"
    return packaged if packaged.is_dir() else here.parent / "grids"


def builtin_names() -> list[str]:
    return sorted(p.stem for p in builtin_dir().glob("*.yaml"))


def resolve_grid(spec: str) -> Path:
    """A built-in grid name or a path to a YAML file -> the file to read."""
    if spec in builtin_names():
        return builtin_dir() / f"{spec}.yaml"
    if spec.endswith((".yaml", ".yml", ".json")) or os.sep in spec or Path(spec).exists():
        return Path(spec)
    raise InputError(spec, "", f"unknown grid (expected a file or one of {one_of(builtin_names())})")


def load_grid(spec: str | os.PathLike[str]) -> Grid:
    """Read, validate and build the grid named by ``spec`` (name or path)."""
    from .yamlio import read_yaml

    path = resolve_grid(os.fspath(spec))
    where = os.fspath(spec) if Path(os.fspath(spec)).suffix else f"{path.name}"
    return grid_from_data(read_yaml(path, where), where)


def grid_from_data(data: object, where: str) -> Grid:
    """Validate plain data (as read from YAML) into a ``Grid``."""
    top = Node(where, "", data).mapping(
        required=("name", "title", "dice_faces", "close_after", "penalties", "rows"),
        optional=("description", "lucky", "bis", "max_crosses", "bonus_bar", "powers"),
    )
    name = top["name"].text(32)
    if not NAME_PATTERN.fullmatch(name):
        top["name"].fail(f"expected lower-case letters, digits and '-', starting with a letter or digit, got {name!r}")
    faces = top["dice_faces"].integer(*DICE_FACES)
    low, high = 2, 2 * faces  # white die + coloured die
    penalties = top["penalties"].mapping(required=("boxes", "points"))

    powers = _read_powers(top["powers"]) if "powers" in top else ()
    rows_node = top["rows"]
    rows = tuple(
        _read_row(node, low, high, {p.symbol for p in powers})
        for node in rows_node.sequence(MIN_ROWS, MAX_ROWS, "rows")
    )
    grid = Grid(
        name=name,
        title=top["title"].text(40),
        description=top["description"].text(120) if "description" in top else "",
        dice_faces=faces,
        close_after=top["close_after"].integer(1, 40),
        penalty_boxes=penalties["boxes"].integer(1, MAX_PENALTY_BOXES),
        penalty_points=penalties["points"].integer(1, 99),
        rows=rows,
        lucky=_read_lucky(top["lucky"], low, high) if "lucky" in top else None,
        bis=top["bis"].boolean() if "bis" in top else False,
        bonus_bar=tuple(n.choice(COLOURS) for n in top["bonus_bar"].sequence(1, 24, "boxes"))
        if "bonus_bar" in top
        else (),
        powers=powers,
        cross_cap=top["max_crosses"].integer(1, 40) if "max_crosses" in top else None,
    )
    _check_rules(grid, top)
    return grid


def _read_row(node: Node, low: int, high: int, powered: set[Symbol]) -> Row:
    fields = node.mapping(required=("cells",), optional=("colour", "double", "framed", "symbols"))
    row_colour = fields["colour"].choice(COLOURS) if "colour" in fields else None
    cells_node = fields["cells"]
    cell_nodes = cells_node.sequence(2, high - low + 1, "cells")
    cells: list[Cell] = []
    for cell_node in cell_nodes:
        if isinstance(cell_node.value, dict):
            parts = cell_node.mapping(required=("number",), optional=("colour",))
            number_node = parts["number"]
            colour = parts["colour"].choice(COLOURS) if "colour" in parts else row_colour
        else:
            number_node, colour = cell_node, row_colour
        number = number_node.integer()
        if not low <= number <= high:
            number_node.fail(f"{number} is not a possible sum of two dice (expected {low} to {high})")
        if colour is None:
            cell_node.fail("no colour (give the row a colour or the cell one)")
        earlier = [c.number for c in cells]
        if number in earlier:
            number_node.fail(f"number {number} appears twice in this row (also at cells[{earlier.index(number)}])")
        cells.append(Cell(number, colour))

    numbers = [c.number for c in cells]

    def cell_index(ref: Node) -> int:
        number = ref.integer()
        if number not in numbers:
            ref.fail(f"no cell {number} in this row (expected one of {one_of([str(n) for n in numbers])})")
        return numbers.index(number)

    def marked(key: str) -> set[int]:
        if key not in fields:
            return set()
        found = set()
        for ref in fields[key].sequence(0, len(cells), "cells"):
            index = cell_index(ref)
            if index in found:
                ref.fail(f"cell {numbers[index]} listed twice")
            found.add(index)
        return found

    doubles, framed = marked("double"), marked("framed")
    symbols: dict[int, Symbol] = {}
    if "symbols" in fields:
        table = fields["symbols"]
        if not isinstance(table.value, dict):
            table.expected("a mapping of cell number to symbol")
        for key in table.value:
            ref = Node(table.source, f"{table.path}.{key}", key)
            symbol_node = table.at(key)
            symbol = symbol_node.choice(SYMBOLS)
            if symbol not in powered:
                symbol_node.fail(f"symbol {symbol.value!r} has no power (add it under 'powers')")
            symbols[cell_index(ref)] = symbol
    return Row(
        tuple(
            Cell(c.number, c.colour, i in doubles, i in framed, symbols.get(i))
            for i, c in enumerate(cells)
        )
    )


def _read_lucky(node: Node, low: int, high: int) -> Lucky:
    fields = node.mapping(required=("count", "from", "to"))
    first = fields["from"].integer(low, high)
    last = fields["to"].integer(first, high)
    count = fields["count"].integer(1, 4)
    if count > last - first + 1:
        fields["count"].fail(f"{count} different numbers cannot be drawn from {first} to {last}")
    return Lucky(count, first, last)


def _read_powers(node: Node) -> tuple[Power, ...]:
    if not isinstance(node.value, dict):
        node.expected("a mapping of symbol to power")
    powers = []
    node.mapping(optional=tuple(SYMBOLS))  # an unknown symbol fails as an unknown key
    for key in node.value:  # file order: the legend lists powers as written
        symbol, entry = SYMBOLS[key], node.at(key)
        effect = entry.mapping(required=("effect",), optional=("crosses", "points"))["effect"].choice(EFFECTS)
        wanted = EFFECT_AMOUNT.get(effect)
        fields = entry.mapping(required=("effect",) + ((wanted,) if wanted else ()))
        amount = fields[wanted].integer(1, 99) if wanted else 0
        powers.append(Power(symbol, effect, amount))
    return tuple(powers)


def _check_rules(grid: Grid, top: dict[str, Node]) -> None:
    """The properties every grid must have, beyond the shape of its file."""
    rows = top["rows"]
    seen: dict[Colour, int] = {}
    for index, row in enumerate(grid.rows):
        where = rows.at(index)
        if row.lock_colour in seen:
            where.at("cells").at(len(row.cells) - 1).fail(
                f"lock colour {row.lock_colour.value} is already the lock of rows[{seen[row.lock_colour]}]"
                " (the locks of all rows must differ)"
            )
        seen[row.lock_colour] = index
        before_last = sum(c.weight for c in row.cells[:-1]) + (len(row.cells) - 1 if grid.bis else 0)
        if before_last < grid.close_after:
            top["close_after"].fail(
                f"{grid.close_after} crosses can never be reached before the last cell of rows[{index}]"
                f" (it holds at most {before_last})"
            )
    if grid.bonus_bar and not grid.has_framed:
        top["bonus_bar"].fail("a bonus bar needs framed cells (add 'framed' to a row)")
    if grid.has_framed and not grid.bonus_bar:
        top["rows"].fail("framed cells need a bonus bar (add 'bonus_bar')")
    for index, colour in enumerate(grid.bonus_bar):
        if grid.row_of_colour(colour) is None:
            top["bonus_bar"].at(index).fail(f"no row has a {colour.value} lock for this box to send a cross to")
    for power in grid.powers:
        if not grid.symbol_cells(power.symbol):
            top["powers"].at(power.symbol.value).fail(f"symbol {power.symbol.value!r} is on no cell")
    if grid.cross_cap is not None:
        most = max(grid.row_capacity(row) for row in grid.rows)
        if grid.cross_cap > most:
            top["max_crosses"].fail(f"expected at most {most} (the most crosses a row can hold), got {grid.cross_cap}")
        if grid.cross_cap <= grid.close_after:
            top["max_crosses"].fail(f"expected more than close_after ({grid.close_after}), got {grid.cross_cap}")
