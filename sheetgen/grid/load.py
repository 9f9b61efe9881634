"""Grid files: find the built-in ones, read and validate any one into a ``Grid``.

Validation happens here, once, and every error names the file, the path
inside it and what was expected.  It takes two steps.  First the shape:
``GRID_FORMAT`` describes, as data, the types, keys, ranges and choices of a
grid file (see ``schema.py``); the same description is what ``sheetgen schema``
publishes as JSON Schema, so the two cannot drift apart.  Then the rules: the
properties every grid must have for the game to work (docs/grid-format.md lists
them), which relate values to each other, stated on the data, never on a
grid's name.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from ..checks import Node
from ..errors import InputError
from ..words import did_you_mean, one_of
from .model import Cell, Colour, Effect, Grid, Lucky, Power, Row, Symbol
from .schema import Choice, Fields, Flag, ListOf, NumberKeys, NumberOr, Tagged, Text, Whole, check, json_schema
from .shipped import shipped_grid

# Bounds of the format (documented in docs/grid-format.md).
MAX_ROWS = 4  # lock colours must differ and there are four coloured dice
MIN_ROWS = 2  # the game ends when a second row closes
DICE_FACES = (2, 10)
MAX_PENALTY_BOXES = 8
SUMS = (2, 2 * DICE_FACES[1])  # white + coloured die: the widest range of sums any grid can have
MOST_CELLS = SUMS[1] - SUMS[0] + 1

COLOURS = {c.value: c for c in Colour}
SYMBOLS = {s.value: s for s in Symbol}
EFFECTS = {e.value: e for e in Effect}
# The parameter each effect takes, if any.
EFFECT_AMOUNT = {Effect.EXTRA_CROSSES: "crosses", Effect.BONUS_POINTS: "points"}

# -- the shape of a grid file -------------------------------------------------
# Descriptions are what an editor shows beside a key; docs/grid-format.md says more.

NUMBER = Whole(*SUMS, "A cell number: a possible sum of a white and a coloured die, 2 to twice dice_faces.",
               narrowed=True)
COLOUR = Choice(tuple(COLOURS), "One of the coloured dice.")


def _cell_numbers(doc: str) -> ListOf:
    return ListOf(NUMBER, 0, MOST_CELLS, "cells", doc, narrowed=True, unique=True)


CELL = NumberOr(
    NUMBER,
    Fields((("number", NUMBER),), (("colour", replace(COLOUR, doc="This cell's colour, instead of the row's.")),)),
    "A cell: its number, or {number, colour} to give it a colour of its own.",
)
ROW = Fields(
    required=(("cells", ListOf(CELL, 2, MOST_CELLS, "cells", "The row's cells, left to right.", narrowed=True)),),
    optional=(
        ("colour", replace(COLOUR, doc="The colour of every cell of the row that does not give its own.")),
        ("double", _cell_numbers("Cells, by number, that take two crosses at once.")),
        ("framed", _cell_numbers("Cells, by number, that take the next bonus-bar box when crossed.")),
        ("symbols", NumberKeys(NUMBER, Choice(tuple(SYMBOLS)), "Power symbols printed on cells: cell number: symbol.",
                               what="a mapping of cell number to symbol")),
    ),
    doc="A row of cells; the colour of its last cell is the colour of its lock.",
)
POWER = Tagged(
    "effect",
    tuple(
        (effect.value, ((EFFECT_AMOUNT[effect], Whole(1, 99, f"The {EFFECT_AMOUNT[effect]} it gives.")),)
         if effect in EFFECT_AMOUNT else ())
        for effect in Effect
    ),
    "What crossing every cell with this symbol unlocks.",
)
GRID_FORMAT = Fields(
    required=(
        ("name", Text(32, "The grid's identifier, used for out/<name>.pdf.", pattern="[a-z0-9][a-z0-9-]*",
                      says="lower-case letters, digits and '-', starting with a letter or digit")),
        ("title", Text(40, "Printed at the top of every sheet.")),
        ("dice_faces", Whole(*DICE_FACES, "Faces of every die; sums run from 2 to twice this.")),
        ("close_after", Whole(1, 40, "Crosses a row needs before its last cell may be crossed.")),
        ("penalties", Fields(
            (("boxes", Whole(1, MAX_PENALTY_BOXES, "Penalty boxes printed on the sheet.")),
             ("points", Whole(1, 99, "Points each crossed box takes off the total."))),
            doc="The penalty boxes.",
        )),
        ("rows", ListOf(ROW, MIN_ROWS, MAX_ROWS, "rows", "The rows, top to bottom.")),
    ),
    optional=(
        ("description", Text(120, "A short summary, for listings.")),
        ("lucky", Fields(
            (("count", Whole(1, 4, "How many different lucky numbers each sheet gets.")),
             ("from", replace(NUMBER, doc="Lowest number that can be drawn.")),
             ("to", replace(NUMBER, doc="Highest number that can be drawn."))),
            doc="Personal lucky numbers drawn for each sheet.",
        )),
        ("bis", Flag("A small box under every cell but the last, for a second cross.")),
        ("max_crosses", Whole(1, 40, "At most this many crosses of a row score; the scoring table stops there.")),
        ("bonus_bar", ListOf(COLOUR, 1, 24, "boxes", "The bonus bar, left to right: the row each box feeds.")),
        ("powers", Fields((), tuple((symbol, POWER) for symbol in SYMBOLS), "What each power symbol unlocks.",
                          what="a mapping of symbol to power")),
    ),
    doc="A sheetgen grid file: one Qwixx score sheet. `sheetgen help grid-format` describes it.",
)


SCHEMA_FILE = "grid.schema.json"


def grid_schema() -> str:
    """``GRID_FORMAT`` as a JSON Schema document, the text of ``sheetgen/grid/grid.schema.json``."""
    return json.dumps(json_schema(GRID_FORMAT, "sheetgen grid file"), indent=2, ensure_ascii=False) + "\n"


# -- finding and reading grid files ---------------------------------------------


def builtin_dir() -> Path:
    """The folder of built-in grid files: ``sheetgen/gridfiles`` in an installed
    package (pyproject maps the top-level ``grids/`` there), or ``grids/`` itself
    when run from a source checkout."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "gridfiles"
    return packaged if packaged.is_dir() else here.parent / "grids"


def builtin_names() -> list[str]:
    return sorted(p.stem for p in builtin_dir().glob("*.yaml"))


def builtin_grids() -> list[Grid]:
    """Every built-in grid, as ``sheetgen list``, the pack and docs/rules.md list them."""
    return in_list_order(load_grid(name) for name in builtin_names())


def short_titles(grids: Iterable[Grid]) -> dict[str, str]:
    """Each grid's title without the words every title begins with ("Qwixx"),
    by grid name; the title itself where nothing would be left (the base game)."""
    grids = list(grids)
    words = [grid.title.split() for grid in grids]
    shared = 0
    while all(len(w) > shared for w in words) and len({w[shared] for w in words}) == 1:
        shared += 1
    return {grid.name: " ".join(w[shared:]) or grid.title for grid, w in zip(grids, words)}


def in_list_order(grids: Iterable[Grid]) -> list[Grid]:
    """The base game first (the grid whose title is the words all titles begin
    with), then the others by their short titles."""
    grids = list(grids)
    short = short_titles(grids)
    return sorted(grids, key=lambda g: (short[g.name] != g.title, short[g.name].casefold(), g.name))


def builtin_text(name: str) -> str:
    """The file of the built-in grid ``name`` as a copy of the user's own
    begins: its first line points editors at a grid.schema.json beside the
    copy (``sheetgen schema -o grid.schema.json`` writes it), and where the
    repository's file names a page of docs/ it names the help topic."""
    if name not in builtin_names():
        raise InputError(name, "", f"not a built-in grid{did_you_mean(name, builtin_names())} (expected"
                                   f" {one_of(builtin_names())})")
    lines = (builtin_dir() / f"{name}.yaml").read_text(encoding="utf-8").splitlines(keepends=True)
    head = []
    if lines and lines[0].startswith("# yaml-language-server: $schema="):
        lines.pop(0)
        head = [f"# yaml-language-server: $schema={SCHEMA_FILE}\n",
                f"# Editors check this file with {SCHEMA_FILE} beside it:"
                f" `sheetgen schema -o {SCHEMA_FILE}` writes it.\n"]
    text = "".join(head + lines)
    text = re.sub(r"\(docs/([a-z-]+)\.md\)", r"(`sheetgen help \1`)", text)
    return re.sub(r"docs/([a-z-]+)\.md", r"`sheetgen help \1`", text)


def resolve_grid(spec: str) -> Path:
    """A built-in grid name or a path to a YAML file -> the file to read."""
    if spec in builtin_names():
        return builtin_dir() / f"{spec}.yaml"
    # os.path.exists, not Path.exists: a name too long or a folder that cannot
    # be searched is no grid name either, and reading the file says which.
    if spec.endswith((".yaml", ".yml", ".json")) or os.sep in spec or os.path.exists(spec):
        return Path(spec)
    raise InputError(spec, "", f"unknown grid{did_you_mean(spec, builtin_names())} (expected a file or one of"
                               f" {one_of(builtin_names())})")


def load_grid(spec: str | os.PathLike[str]) -> Grid:
    """Read, validate and build the grid named by ``spec`` (name or path, '-'
    for standard input)."""
    spec = os.fspath(spec)
    if spec == "-":
        from .yamlio import STDIN, read_yaml

        return grid_from_data(read_yaml(spec), STDIN)
    path = resolve_grid(spec)
    if path != Path(spec):  # a built-in grid, shown as classic.yaml
        return grid_from_data(shipped_grid(path), path.name)
    from .yamlio import read_yaml

    return grid_from_data(read_yaml(path, spec), spec)


def grid_from_data(data: object, where: str) -> Grid:
    """Validate plain data (as read from YAML) into a ``Grid``."""
    root = Node(where, "", data)
    check(GRID_FORMAT, root)
    fields: dict = root.value  # type: ignore[assignment]  # its shape is checked
    top = {key: root.at(key) for key in fields}
    faces = fields["dice_faces"]
    low, high = 2, 2 * faces  # white die + coloured die
    # File order: the legend lists the powers as written.
    powers = tuple(_power(symbol, entry) for symbol, entry in fields.get("powers", {}).items())
    rows = tuple(_read_row(node, low, high, {p.symbol for p in powers}) for node in top["rows"].sequence())
    grid = Grid(
        name=fields["name"],
        title=fields["title"],
        description=fields.get("description", ""),
        dice_faces=faces,
        close_after=fields["close_after"],
        penalty_boxes=fields["penalties"]["boxes"],
        penalty_points=fields["penalties"]["points"],
        rows=rows,
        lucky=_read_lucky(top["lucky"], low, high) if "lucky" in top else None,
        bis=fields.get("bis", False),
        bonus_bar=tuple(COLOURS[colour] for colour in fields.get("bonus_bar", ())),
        powers=powers,
        cross_cap=fields.get("max_crosses"),
        source=where,
    )
    _check_rules(grid, top)
    return grid


def _read_row(node: Node, low: int, high: int, powered: set[Symbol]) -> Row:
    """A row whose shape is checked: its cells, with the rules on their numbers."""
    fields: dict = node.value  # type: ignore[assignment]
    row_colour = COLOURS.get(fields.get("colour", ""))  # None for a row without a colour of its own
    cells: list[Cell] = []
    for cell_node in node.at("cells").sequence(2, high - low + 1, "cells"):
        if isinstance(cell_node.value, dict):
            number_node = cell_node.at("number")
            colour = COLOURS[cell_node.value["colour"]] if "colour" in cell_node.value else row_colour
        else:
            number_node, colour = cell_node, row_colour
        number: int = number_node.value  # type: ignore[assignment]
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
        if ref.value not in numbers:
            ref.fail(f"no cell {ref.value} in this row (expected one of {one_of([str(n) for n in numbers])})")
        return numbers.index(ref.value)

    def marked(key: str) -> set[int]:
        if key not in fields:
            return set()
        found = set()
        for ref in node.at(key).sequence(0, len(cells), "cells"):
            index = cell_index(ref)
            if index in found:
                ref.fail(f"cell {numbers[index]} listed twice")
            found.add(index)
        return found

    doubles, framed = marked("double"), marked("framed")
    symbols: dict[int, Symbol] = {}
    if "symbols" in fields:
        table = node.at("symbols")
        for key in fields["symbols"]:
            symbol = SYMBOLS[fields["symbols"][key]]
            if symbol not in powered:
                table.at(key).fail(f"symbol {symbol.value!r} has no power (add it under 'powers')")
            symbols[cell_index(Node(table.source, f"{table.path}.{key}", key))] = symbol
    return Row(
        tuple(
            Cell(c.number, c.colour, i in doubles, i in framed, symbols.get(i))
            for i, c in enumerate(cells)
        )
    )


def _power(symbol: str, entry: dict) -> Power:
    effect = EFFECTS[entry["effect"]]
    return Power(SYMBOLS[symbol], effect, entry[EFFECT_AMOUNT[effect]] if effect in EFFECT_AMOUNT else 0)


def _read_lucky(node: Node, low: int, high: int) -> Lucky:
    first = node.at("from").integer(low, high)
    last = node.at("to").integer(first, high)
    count: int = node.value["count"]  # type: ignore[index]
    if count > last - first + 1:
        node.at("count").fail(f"{count} different numbers cannot be drawn from {first} to {last}")
    return Lucky(count, first, last)


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
