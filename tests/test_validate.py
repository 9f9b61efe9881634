"""Every way a grid file can be wrong gives one exact, one-line message that
says where (file, then the path inside it) and what was expected.

Each case starts from a valid classic grid and changes one thing.  A change
is written as ``{path: new value}`` with the path in the notation of the
messages themselves (``rows[2].cells[4]``); ``DROP`` removes the key.
"""

from __future__ import annotations

import copy
import re
import time
from pathlib import Path

import pytest

from sheetgen.errors import InputError
from sheetgen.grid.load import builtin_names, grid_from_data, load_grid
from sheetgen.grid.yamlio import MAX_FILE_BYTES, parse_yaml, read_yaml
from sheetgen.runs.jobs import check_printable

WHERE = "bad.yaml"
UP, DOWN = list(range(2, 13)), list(range(12, 1, -1))
CLASSIC = {
    "name": "classic",
    "title": "Qwixx",
    "dice_faces": 6,
    "close_after": 5,
    "penalties": {"boxes": 4, "points": 5},
    "rows": [
        {"colour": "red", "cells": UP},
        {"colour": "yellow", "cells": UP},
        {"colour": "green", "cells": DOWN},
        {"colour": "blue", "cells": DOWN},
    ],
}
DROP = object()
TOP_KEYS = "name, title, dice_faces, close_after, penalties, rows, description, lucky, bis, max_crosses, bonus_bar or powers"
NUMBERS = "2, 3, 4, 5, 6, 7, 8, 9, 10, 11 or 12"
COLOURS = "red, yellow, green or blue"
SYMBOLS = "circle, diamond, square, octagon or star"
EFFECTS = "extra_crosses, cross_each_open_row, double_lowest_row, bonus_points or no_penalties"
STAR = {"star": {"effect": "no_penalties"}}
FRAMED = {"rows[0].framed": [3], "bonus_bar": ["red"]}  # a valid bonus setup to break


def changed(changes: dict[str | int, object]) -> object:
    """A deep copy of CLASSIC with ``changes`` applied, in order; '' is the
    whole document, a number a top-level key that is a number."""
    data: object = copy.deepcopy(CLASSIC)
    for path, value in changes.items():
        if not path:
            data = value
            continue
        keys = re.findall(r"\[\d+\]|[^.\[\]]+", path) if isinstance(path, str) else [path]
        *parents, last = [int(k[1:-1]) if isinstance(k, str) and k.startswith("[") else k for k in keys]
        target = data
        for key in parents:
            target = target[key]
        if value is DROP:
            del target[last]
        else:
            target[last] = copy.deepcopy(value)
    return data


CASES = [
    # -- the document ----------------------------------------------------------
    ("top-list", {"": ["classic"]}, "expected a mapping, got a list"),
    # ... and nothing of a document that is not a grid file is shown (it may be any file of the user's)
    ("top-text", {"": "classic"}, "expected a mapping, got text"),
    ("top-number", {"": 42}, "expected a mapping, got a number"),
    ("top-other-keys", {"": {"password": "hunter2"}}, f"has none of the expected keys ({TOP_KEYS})"),
    ("top-null", {"": None}, "expected a mapping, got nothing"),
    ("top-missing", {"rows": DROP}, "missing key 'rows'"),
    ("top-unknown", {"colour": "red"}, f"unknown key 'colour' (expected {TOP_KEYS})"),
    ("top-number-key", {1: "x"}, f"unknown key 1 (expected {TOP_KEYS})"),
    # -- scalars at the top ----------------------------------------------------
    ("name-case", {"name": "Classic"}, "name: expected lower-case letters, digits and '-', starting with a letter or digit, got 'Classic'"),
    ("name-dash", {"name": "-x"}, "name: expected lower-case letters, digits and '-', starting with a letter or digit, got '-x'"),
    ("name-long", {"name": "a" * 33}, "name: expected text of at most 32 characters, got 33"),
    ("name-null", {"name": None}, "name: expected text, got nothing"),
    ("title-long", {"title": "x" * 41}, "title: expected text of at most 40 characters, got 41"),
    ("title-empty", {"title": " "}, "title: expected non-empty text, got the text ' '"),
    ("title-number", {"title": 5}, "title: expected text, got the number 5"),
    ("description-lines", {"description": "one\ntwo"}, "description: expected text on one line"),
    ("faces-bool", {"dice_faces": True}, "dice_faces: expected a whole number, got true"),
    ("faces-text", {"dice_faces": "six"}, "dice_faces: expected a whole number, got the text 'six'"),
    ("faces-high", {"dice_faces": 11}, "dice_faces: expected a whole number from 2 to 10, got the number 11"),
    ("faces-low", {"dice_faces": 1}, "dice_faces: expected a whole number from 2 to 10, got the number 1"),
    ("close-zero", {"close_after": 0}, "close_after: expected a whole number from 1 to 40, got the number 0"),
    ("close-unreachable", {"close_after": 11}, "close_after: 11 crosses can never be reached before the last cell of rows[0] (it holds at most 10)"),
    ("bis-text", {"bis": "yes"}, "bis: expected true or false, got the text 'yes'"),
    ("bis-number", {"bis": 1}, "bis: expected true or false, got the number 1"),
    # -- penalties -------------------------------------------------------------
    ("penalties-number", {"penalties": 4}, "penalties: expected a mapping, got the number 4"),
    ("penalties-missing", {"penalties.boxes": DROP}, "penalties: missing key 'boxes'"),
    ("penalties-unknown", {"penalties.box": 4}, "penalties: unknown key 'box' (expected boxes or points)"),
    ("penalties-boxes", {"penalties.boxes": 9}, "penalties.boxes: expected a whole number from 1 to 8, got the number 9"),
    ("penalties-points", {"penalties.points": 0}, "penalties.points: expected a whole number from 1 to 99, got the number 0"),
    ("penalties-float", {"penalties.points": 5.0}, "penalties.points: expected a whole number, got the number 5.0"),
    # -- rows ------------------------------------------------------------------
    ("rows-mapping", {"rows": {}}, "rows: expected a list, got a mapping"),
    ("rows-0", {"rows": []}, "rows: expected 2 to 4 rows, got 0"),
    ("rows-1", {"rows": CLASSIC["rows"][:1]}, "rows: expected 2 to 4 rows, got 1"),
    ("rows-5", {"rows": CLASSIC["rows"] * 2}, "rows: expected 2 to 4 rows, got 8"),
    ("rows-50", {"rows": [CLASSIC["rows"][0]] * 50}, "rows: expected 2 to 4 rows, got 50"),
    ("row-text", {"rows[1]": "yellow"}, "rows[1]: expected a mapping, got the text 'yellow'"),
    ("row-missing", {"rows[0].cells": DROP}, "rows[0]: missing key 'cells'"),
    ("row-unknown", {"rows[0].colours": "red"}, "rows[0]: unknown key 'colours', did you mean 'colour'? (expected cells, colour, double, framed or symbols)"),
    ("row-colour", {"rows[0].colour": "purple"}, f"rows[0].colour: unknown value 'purple' (expected {COLOURS})"),
    ("row-colour-number", {"rows[0].colour": 3}, f"rows[0].colour: expected {COLOURS}, got the number 3"),
    ("same-lock", {"rows[1].colour": "red"}, "rows[1].cells[10]: lock colour red is already the lock of rows[0] (the locks of all rows must differ)"),
    # -- cells -----------------------------------------------------------------
    ("cells-text", {"rows[0].cells": "2..12"}, "rows[0].cells: expected a list, got the text '2..12'"),
    ("cells-0", {"rows[0].cells": []}, "rows[0].cells: expected 2 to 11 cells, got 0"),
    ("cells-1", {"rows[0].cells": [2]}, "rows[0].cells: expected 2 to 11 cells, got 1"),
    ("cells-100", {"rows[0].cells": list(range(100))}, "rows[0].cells: expected 2 to 11 cells, got 100"),
    ("cell-1", {"rows[0].cells[0]": 1}, "rows[0].cells[0]: 1 is not a possible sum of two dice (expected 2 to 12)"),
    ("cell-13", {"rows[0].cells[10]": 13}, "rows[0].cells[10]: 13 is not a possible sum of two dice (expected 2 to 12)"),
    ("cell-text", {"rows[0].cells[0]": "2"}, "rows[0].cells[0]: expected a whole number, got the text '2'"),
    ("cell-bool", {"rows[0].cells[0]": True}, "rows[0].cells[0]: expected a whole number, got true"),
    ("cell-twice", {"rows[0].cells[5]": 3}, "rows[0].cells[5]: number 3 appears twice in this row (also at cells[1])"),
    ("cell-no-colour", {"rows[0].colour": DROP}, "rows[0].cells[0]: no colour (give the row a colour or the cell one)"),
    ("cell-missing", {"rows[0].cells[0]": {"colour": "red"}}, "rows[0].cells[0]: missing key 'number'"),
    ("cell-unknown", {"rows[2].cells[4]": {"number": 8, "color": "blue"}}, "rows[2].cells[4]: unknown key 'color', did you mean 'colour'? (expected number or colour)"),
    ("cell-colour", {"rows[2].cells[4]": {"number": 8, "colour": "purple"}}, f"rows[2].cells[4].colour: unknown value 'purple' (expected {COLOURS})"),
    ("cell-number-float", {"rows[2].cells[4]": {"number": 8.5}}, "rows[2].cells[4].number: expected a whole number, got the number 8.5"),
    # -- double and framed -----------------------------------------------------
    ("double-number", {"rows[0].double": 3}, "rows[0].double: expected a list, got the number 3"),
    ("double-text", {"rows[0].double": ["3"]}, "rows[0].double[0]: expected a whole number, got the text '3'"),
    ("double-no-cell", {"rows[0].double": [3, 13]}, f"rows[0].double[1]: no cell 13 in this row (expected one of {NUMBERS})"),
    ("double-twice", {"rows[0].double": [3, 3]}, "rows[0].double[1]: cell 3 listed twice"),
    ("framed-no-cell", {**FRAMED, "rows[0].framed": [1]}, f"rows[0].framed[0]: no cell 1 in this row (expected one of {NUMBERS})"),
    ("framed-no-bar", {"rows[0].framed": [3]}, "rows: framed cells need a bonus bar (add 'bonus_bar')"),
    ("bar-no-framed", {"bonus_bar": ["red"]}, "bonus_bar: a bonus bar needs framed cells (add 'framed' to a row)"),
    ("bar-text", {**FRAMED, "bonus_bar": "red"}, "bonus_bar: expected a list, got the text 'red'"),
    ("bar-empty", {**FRAMED, "bonus_bar": []}, "bonus_bar: expected 1 to 24 boxes, got 0"),
    ("bar-colour", {**FRAMED, "bonus_bar": ["red", "pink"]}, f"bonus_bar[1]: unknown value 'pink' (expected {COLOURS})"),
    ("bar-no-row", {"rows": CLASSIC["rows"][:2], **FRAMED, "bonus_bar": ["red", "blue"]}, "bonus_bar[1]: no row has a blue lock for this box to send a cross to"),
    # -- symbols and powers ----------------------------------------------------
    ("symbols-list", {"powers": STAR, "rows[0].symbols": [8]}, "rows[0].symbols: expected a mapping of cell number to symbol, got a list"),
    ("symbol-unknown", {"powers": STAR, "rows[0].symbols": {8: "hexagon"}}, f"rows[0].symbols.8: unknown value 'hexagon' (expected {SYMBOLS})"),
    ("symbol-no-power", {"rows[0].symbols": {8: "star"}}, "rows[0].symbols.8: symbol 'star' has no power (add it under 'powers')"),
    ("symbol-no-cell", {"powers": STAR, "rows[0].symbols": {13: "star"}}, f"rows[0].symbols.13: no cell 13 in this row (expected one of {NUMBERS})"),
    ("symbol-key-text", {"powers": STAR, "rows[0].symbols": {"eight": "star"}}, "rows[0].symbols.eight: expected a whole number, got the text 'eight'"),
    ("power-no-cell", {"powers": STAR}, "powers.star: symbol 'star' is on no cell"),
    ("powers-list", {"powers": ["star"]}, "powers: expected a mapping of symbol to power, got a list"),
    ("power-unknown", {"powers": {"hexagon": {"effect": "no_penalties"}}}, f"powers: unknown key 'hexagon' (expected {SYMBOLS})"),
    ("power-text", {"powers": {"star": "no_penalties"}}, "powers.star: expected a mapping, got the text 'no_penalties'"),
    ("power-no-effect", {"powers": {"star": {}}}, "powers.star: missing key 'effect'"),
    ("power-effect", {"powers": {"star": {"effect": "fly"}}}, f"powers.star.effect: unknown value 'fly' (expected {EFFECTS})"),
    ("power-key", {"powers": {"star": {"effect": "no_penalties", "power": 1}}}, "powers.star: unknown key 'power' (expected effect, crosses or points)"),
    ("power-no-amount", {"powers": {"circle": {"effect": "extra_crosses"}}}, "powers.circle: missing key 'crosses'"),
    ("power-wrong-amount", {"powers": {"circle": {"effect": "extra_crosses", "points": 2}}}, "powers.circle: unknown key 'points' (expected effect or crosses)"),
    ("power-extra-amount", {"powers": {"star": {"effect": "no_penalties", "crosses": 2}}}, "powers.star: unknown key 'crosses' (expected effect)"),
    ("power-amount", {"powers": {"octagon": {"effect": "bonus_points", "points": 0}}}, "powers.octagon.points: expected a whole number from 1 to 99, got the number 0"),
    # -- lucky -----------------------------------------------------------------
    ("lucky-list", {"lucky": [2, 12]}, "lucky: expected a mapping, got a list"),
    ("lucky-missing", {"lucky": {"count": 2, "from": 2}}, "lucky: missing key 'to'"),
    ("lucky-unknown", {"lucky": {"count": 2, "from": 2, "to": 12, "seed": 1}}, "lucky: unknown key 'seed' (expected count, from or to)"),
    ("lucky-from", {"lucky": {"count": 2, "from": 1, "to": 12}}, "lucky.from: expected a whole number from 2 to 12, got the number 1"),
    ("lucky-to", {"lucky": {"count": 2, "from": 5, "to": 3}}, "lucky.to: expected a whole number from 5 to 12, got the number 3"),
    ("lucky-count", {"lucky": {"count": 5, "from": 2, "to": 12}}, "lucky.count: expected a whole number from 1 to 4, got the number 5"),
    ("lucky-range", {"lucky": {"count": 3, "from": 2, "to": 3}}, "lucky.count: 3 different numbers cannot be drawn from 2 to 3"),
    # -- max_crosses -----------------------------------------------------------
    ("max-zero", {"max_crosses": 0}, "max_crosses: expected a whole number from 1 to 40, got the number 0"),
    ("max-high", {"max_crosses": 41}, "max_crosses: expected a whole number from 1 to 40, got the number 41"),
    ("max-capacity", {"max_crosses": 13}, "max_crosses: expected at most 12 (the most crosses a row can hold), got 13"),
    ("max-threshold", {"max_crosses": 5}, "max_crosses: expected more than close_after (5), got 5"),
]


def test_base_grid_is_valid():
    assert grid_from_data(changed({}), WHERE).name == "classic"


@pytest.mark.parametrize(("changes", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_grid(changes, message):
    with pytest.raises(InputError) as caught:
        grid_from_data(changed(changes), WHERE)
    assert str(caught.value) == f"{WHERE}: {message}"
    assert "\n" not in str(caught.value)


def test_case_ids_are_unique():
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids))


def test_load_grid_names_the_file_as_given(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\n")
    with pytest.raises(InputError, match=re.escape(f"{path}: missing key 'title'")):
        load_grid(str(path))


def test_a_path_without_suffix_is_named_as_given(tmp_path):
    path = tmp_path / "mine"
    path.write_text("name: mine\n")
    with pytest.raises(InputError, match=re.escape(f"{path}: missing key 'title'")):
        load_grid(str(path))


def test_unknown_grid_name_lists_the_builtins():
    with pytest.raises(InputError) as caught:
        load_grid("nosuch")
    names = builtin_names()
    assert str(caught.value) == f"nosuch: unknown grid (expected a file or one of {', '.join(names[:-1])} or {names[-1]})"


def test_examples_in_the_docs_are_valid_and_print():
    root = Path(__file__).parent.parent
    examples = [
        text
        for doc in (root / "docs" / "grid-format.md", root / "docs" / "authoring.md")
        for text in re.findall(r"```yaml\n(.*?)```", doc.read_text(), re.S)
        if "\nrows:" in text and "\njobs:" not in text and "crossed:" not in text  # whole grids only
    ]
    assert len(examples) == 3
    for text in examples:
        check_printable(grid_from_data(parse_yaml(text, "example.yaml"), "example.yaml"))


# -- yamlio: reading untrusted text -------------------------------------------


def parse_error(text: str) -> str:
    with pytest.raises(InputError) as caught:
        parse_yaml(text, "f.yaml")
    return str(caught.value)


def read_error(path) -> str:
    with pytest.raises(InputError) as caught:
        read_yaml(path, "f.yaml")
    return str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "file is empty (expected a YAML mapping)"),
        ("# only a comment\n", "file is empty (expected a YAML mapping)"),
        ("name: classic\n  title: x\n", "line 2, column 8: mapping values are not allowed here"),
        ("rows: [1, 2\nname: x\n", "line 2, column 5: expected ',' or ']', but got ':' (in the list that starts at line 1, column 7)"),
        ("name: a\ntitle: b\nname: c\n", "line 3, column 1: duplicate key 'name'"),
        ("{a: 1, a: 1}\n", "line 1, column 8: duplicate key 'a'"),
        ("!!python/object:os.system {}\n", "line 1, column 1: tag '!!python/object:os.system' is not allowed (only plain data)"),
        ("x: !!python/object/apply:os.system [ls]\n", "line 1, column 4: tag '!!python/object/apply:os.system' is not allowed (only plain data)"),
        ("x: !custom 1\n", "line 1, column 4: tag '!custom' is not allowed (only plain data)"),
        ("a: &x 1\nb: *y\n", "line 2, column 4: found undefined alias 'y'"),
    ],
    ids=["empty", "comment", "indent", "flow", "duplicate", "duplicate-flow", "python-object", "python-apply", "custom-tag", "alias"],
)
def test_parse_errors(text, message):
    assert parse_error(text) == f"f.yaml: {message}"


def test_merge_keys_merge_and_own_keys_override():
    text = "base: &base {boxes: 4, points: 5}\npenalties: {<<: *base, points: 10}\n"
    assert parse_yaml(text, "f.yaml")["penalties"] == {"boxes": 4, "points": 10}


def test_dates_stay_text():
    assert parse_yaml("a: 2001-01-01\n", "f.yaml") == {"a": "2001-01-01"}


def test_billion_laughs_refused_quickly():
    text = 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n'
    for previous, name in zip("abcdefgh", "bcdefghi"):
        text += f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]\n"  # 9**9 values in all
    start = time.perf_counter()
    assert parse_error(text) == "f.yaml: document too large once aliases are expanded (more than 10,000 values)"
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("depth", [65, 5000], ids=["just-over", "composer-recursion"])
def test_deep_nesting_refused(depth):
    assert parse_error("[" * depth + "]" * depth) == "f.yaml: document nested too deeply (more than 64 levels)"


def test_nesting_of_64_accepted():
    assert parse_yaml("[" * 64 + "]" * 64, "f.yaml") is not None


NON_PLAIN_TAGS = [
    ("a: !!binary aGVsbG8=\n", "f.yaml: line 1, column 4: tag '!!binary' is not allowed (only plain data)"),
    ("a: !!set {x}\n", "f.yaml: line 1, column 4: tag '!!set' is not allowed (only plain data)"),
    ("a: !!timestamp 2020-01-01\n", "f.yaml: line 1, column 4: tag '!!timestamp' is not allowed (only plain data)"),
]


@pytest.mark.parametrize("text, line", NON_PLAIN_TAGS, ids=["binary", "set", "timestamp"])
def test_non_plain_tags_refused(text, line):
    assert parse_error(text) == line


def test_second_document_message_says_what_was_expected():
    assert parse_error("a: 1\n---\nb: 2\n") == "f.yaml: line 2, column 1: expected a single YAML document, found a second one"


def test_non_utf8_bytes(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"name: caf\xe9\n")
    assert read_error(path) == "f.yaml: not UTF-8 text (byte 0xe9 at offset 9)"


def test_byte_order_mark_accepted(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes("\ufeffname: x\n".encode())
    assert read_yaml(path) == {"name": "x"}


def test_oversize_file(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * MAX_FILE_BYTES + b"\n")
    assert read_error(path) == "f.yaml: file larger than 256 KiB"


def test_file_of_exactly_the_limit_is_read(tmp_path):
    path = tmp_path / "limit.yaml"
    path.write_bytes(b"a: 1\n#" + b"x" * (MAX_FILE_BYTES - 7) + b"\n")
    assert read_yaml(path) == {"a": 1}


def test_empty_file(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_bytes(b"")
    assert read_error(path) == "f.yaml: file is empty (expected a YAML mapping)"


def test_missing_file(tmp_path):
    assert read_error(tmp_path / "missing.yaml") == "f.yaml: no such file"


def test_folder_instead_of_file(tmp_path):
    assert read_error(tmp_path) == "f.yaml: is a folder, expected a file"
