"""Marks files: their form (keys, types, row count, grid), YAML and JSON
alike, one sheet or several players; the JSON reader's fast path."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen.checks import Node
from sheetgen.errors import InputError
from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.grid.yamlio import parse_document, parse_yaml, read_yaml
from sheetgen.play.marks import (
    SHEET_KEYS,
    Marks,
    RowMarks,
    _checked_sheet,
    _quick_sheet,
    load_marks,
    marks_from_data,
    sheets_from_data,
)

CLASSIC = load_grid("classic")

LEA_YAML = """\
grid: classic
player: Lea
rows:
  - crossed: [2, 3, 4, 5, 6, 12]
    lock: true
  - crossed: [9]
  - crossed: []
  - {}
penalties: 1
"""

LEA = Marks(
    source="lea.yaml",
    player="Lea",
    rows=(RowMarks(crossed=(2, 3, 4, 5, 6, 12), lock=True), RowMarks(crossed=(9,)), RowMarks(), RowMarks()),
    penalties=1,
)


def write(tmp_path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return str(tmp_path / name)


def test_yaml_file_loads_into_marks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "lea.yaml", LEA_YAML)
    assert load_marks("lea.yaml", CLASSIC) == LEA


def test_json_file_gives_the_same_marks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = {
        "grid": "classic",
        "player": "Lea",
        "rows": [{"crossed": [2, 3, 4, 5, 6, 12], "lock": True}, {"crossed": [9]}, {"crossed": []}, {}],
        "penalties": 1,
    }
    write(tmp_path, "lea.json", json.dumps(data, indent=2))
    assert load_marks("lea.json", CLASSIC) == replace(LEA, source="lea.json")


def test_everything_but_rows_is_optional(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "m.yaml", "rows: [{}, {}, {}, {}]\n")
    assert load_marks("m.yaml", CLASSIC) == Marks(source="m.yaml", rows=(RowMarks(),) * 4)


def test_bis_and_bonus_bar_lists_keep_file_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bis = load_grid("bis")
    write(tmp_path, "m.yaml", "rows: [{crossed: [4, 3], bis: [4, 3]}, {}, {}, {}]\nbonus_bar: [2, 1]\n")
    marks = load_marks("m.yaml", bis)
    assert marks.rows[0] == RowMarks(crossed=(4, 3), bis=(4, 3))
    assert marks.bonus_bar == (2, 1)


@pytest.mark.parametrize("name", builtin_names())
def test_rows_must_match_the_grid(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    grid = load_grid(name)
    write(tmp_path, "m.yaml", "rows: [{}]\n")
    with pytest.raises(InputError) as error:
        load_marks("m.yaml", grid)
    assert str(error.value) == (
        f"m.yaml: rows: expected {len(grid.rows)} rows (one per row of grid {name!r}), got 1"
    )


ROWS = "rows: [{}, {}, {}, {}]\n"

BAD_FILES = [
    ("- 1\n", "m.yaml: expected a mapping, got a list"),
    ("player: Lea\n", "m.yaml: missing key 'rows'"),
    (ROWS + "score: 3\n", "m.yaml: unknown key 'score' (expected rows, grid, player, penalties or bonus_bar)"),
    ("rows: {red: [2]}\n", "m.yaml: rows: expected a list, got a mapping"),
    ("rows: [{}, {}, {}, {}, {}]\n", "m.yaml: rows: expected 4 rows (one per row of grid 'classic'), got 5"),
    ("rows: [[2, 3], {}, {}, {}]\n", "m.yaml: rows[0]: expected a mapping, got a list"),
    ("rows: [{}, {locked: true}, {}, {}]\n", "m.yaml: rows[1]: unknown key 'locked', did you mean 'lock'? (expected crossed, lock or bis)"),
    ("rows: [{crossed: 5}, {}, {}, {}]\n", "m.yaml: rows[0].crossed: expected a list, got the number 5"),
    ("rows: [{crossed: [2, x]}, {}, {}, {}]\n", "m.yaml: rows[0].crossed[1]: expected a whole number, got the text 'x'"),
    ("rows: [{crossed: [2.5]}, {}, {}, {}]\n", "m.yaml: rows[0].crossed[0]: expected a whole number, got the number 2.5"),
    ("rows: [{}, {}, {lock: 1}, {}]\n", "m.yaml: rows[2].lock: expected true or false, got the number 1"),
    ("rows: [{}, {}, {}, {bis: [true]}]\n", "m.yaml: rows[3].bis[0]: expected a whole number, got true"),
    (ROWS + "penalties: -1\n", "m.yaml: penalties: expected a whole number of at least 0, got the number -1"),
    (ROWS + "penalties: two\n", "m.yaml: penalties: expected a whole number, got the text 'two'"),
    (ROWS + "bonus_bar: 3\n", "m.yaml: bonus_bar: expected a list, got the number 3"),
    (ROWS + "player: ''\n", "m.yaml: player: expected non-empty text, got the text ''"),
    (ROWS + "grid: longo\n", "m.yaml: grid: this sheet is for grid 'longo', not 'classic' (the grid being scored)"),
    (ROWS + "grid: 7\n", "m.yaml: grid: expected text, got the number 7"),
    ("rows: [{}\n", "m.yaml: line 2, column 1: expected ',' or ']', but got '<stream end>' (in the list that starts at line 1, column 7)"),
    ("", "m.yaml: file is empty (expected a YAML mapping)"),
]


@pytest.mark.parametrize("text, message", BAD_FILES)
def test_bad_marks_file_gives_one_line_naming_file_and_path(tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "m.yaml", text)
    with pytest.raises(InputError) as error:
        load_marks("m.yaml", CLASSIC)
    assert str(error.value) == message


def test_bad_json_file_names_its_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "m.json", json.dumps({"rows": [{}, {}, {"crossed": ["12"]}, {}]}))
    with pytest.raises(InputError) as error:
        load_marks("m.json", CLASSIC)
    assert str(error.value) == "m.json: rows[2].crossed[0]: expected a whole number, got the text '12'"


def test_missing_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as error:
        load_marks("nobody.yaml", CLASSIC)
    assert str(error.value) == "nobody.yaml: no such file"


# -- JSON documents: the json module reads them, the YAML reader judges the doubtful ----------

# Text of the Basic Multilingual Plane: beyond it YAML 1.1 reads JSON's escapes wrongly.
JSON_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFFFD, blacklist_categories=("Cs",)), max_size=8)
JSON_DATA = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | JSON_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(JSON_TEXT, inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(JSON_TEXT, JSON_DATA, max_size=5), st.booleans())
def test_a_json_document_reads_as_the_yaml_reader_reads_it(data, indent):
    text = json.dumps(data, indent=2 if indent else None)
    assert parse_document(text, "m.json") == parse_yaml(text, "m.json") == data


DOUBTFUL_JSON = [
    ('{"rows": [], "rows": []}', "m.json: line 1, column 14: duplicate key 'rows'"),
    ('{"n": ' + "1" * 101 + "}", "m.json: line 1, column 7: number longer than 100 digits"),
    ('{"a": ' + "[" * 70 + "]" * 70 + "}", "m.json: document nested too deeply (more than 64 levels)"),
    ('{"a": [' + ", ".join(["0"] * 10_001) + "]}", "m.json: document too large (more than 10,000 values)"),
    ('{"a": "\x7f"}', "m.json: line 1, column 8: character U+007F is not allowed (YAML is printable text)"),
    ('{"rows": [}', "m.json: line 1, column 11: expected the node content, but found '}'"),
]


@pytest.mark.parametrize("text, message", DOUBTFUL_JSON)
def test_json_the_yaml_reader_refuses_is_refused_with_its_words(text, message):
    with pytest.raises(InputError) as error:
        parse_document(text, "m.json")
    assert str(error.value) == message


@pytest.mark.parametrize("text, data", [
    ('{"a": NaN}', {"a": "NaN"}),  # not JSON: YAML reads a word
    ("{a: 1}", {"a": 1}),  # YAML flow style
    ('{"big": [' + ", ".join(["0"] * 3000) + "]}", {"big": [0] * 3000}),  # counted, not just guessed from commas
])
def test_what_json_does_not_read_as_plain_json_goes_to_yaml(text, data):
    assert parse_document(text, "m.json") == data


def test_a_file_read_in_pieces_as_it_grows(tmp_path, monkeypatch):
    # The reader asks for the size fstat gave, then for the rest up to the bound.
    path = tmp_path / "m.json"
    path.write_text('{"rows": []}', encoding="utf-8")
    real_fstat = os.fstat
    monkeypatch.setattr(os, "fstat", lambda fd: os.stat_result((*real_fstat(fd)[:6], 3, *real_fstat(fd)[7:])))
    assert read_yaml(path) == {"rows": []}


# -- several players in one file -------------------------------------------------------

TABLE = {
    "grid": "classic",
    "players": [
        {"player": "Lea", "rows": [{"crossed": [2, 3]}, {}, {}, {}], "penalties": 1},
        {"player": "Tom", "rows": [{}, {}, {}, {"crossed": [12]}]},
    ],
}


def test_a_file_of_several_players_gives_a_sheet_each():
    assert sheets_from_data(TABLE, "table.json", CLASSIC) == [
        Marks("table.json", (RowMarks(crossed=(2, 3)), RowMarks(), RowMarks(), RowMarks()), penalties=1,
              player="Lea", path="players[0]"),
        Marks("table.json", (RowMarks(), RowMarks(), RowMarks(), RowMarks(crossed=(12,))), player="Tom",
              path="players[1]"),
    ]


def test_a_file_of_one_sheet_gives_one():
    assert sheets_from_data({"rows": [{}, {}, {}, {}]}, "m.yaml", CLASSIC) == [Marks("m.yaml", (RowMarks(),) * 4)]


def test_a_bad_entry_is_that_players_result_and_the_others_are_read():
    data = {"players": [TABLE["players"][0], {"player": "Tom", "rows": [{}]}, TABLE["players"][1] | {"player": "Max"}]}
    lea, tom, max_ = sheets_from_data(data, "table.json", CLASSIC)
    assert (lea.player, max_.player) == ("Lea", "Max")
    assert str(tom) == "table.json: players[1].rows: expected 4 rows (one per row of grid 'classic'), got 1"


@pytest.mark.parametrize("entries, message", [
    ([{"rows": [{}, {}, {}, {}]}],
     "players[0]: missing key 'player' (every sheet of a file of several players has a name)"),
    ([TABLE["players"][0], TABLE["players"][0]], "players[1].player: 'Lea' twice in this file (also players[0])"),
    ([{"player": "Lea", "grid": "classic", "rows": [{}, {}, {}, {}]}],
     "players[0]: unknown key 'grid' (expected rows, player, penalties or bonus_bar)"),
])
def test_entries_of_several_players(entries, message):
    assert str(sheets_from_data({"players": entries}, "t.json", CLASSIC)[-1]) == f"t.json: {message}"


@pytest.mark.parametrize("data, message", [
    ({"players": []}, "players: expected at least one player, got an empty list"),
    ({"players": {"Lea": {}}}, "players: expected a list, got a mapping"),
    ({"players": [], "rows": []}, "unknown key 'rows' (expected players, grid or log)"),
    ({"grid": "bonus", "players": TABLE["players"]},
     "grid: this sheet is for grid 'bonus', not 'classic' (the grid being scored)"),
])
def test_a_file_of_several_players_that_is_wrong_as_a_whole(data, message):
    with pytest.raises(InputError) as error:
        sheets_from_data(data, "t.json", CLASSIC)
    assert str(error.value) == f"t.json: {message}"


def test_one_sheet_files_do_not_take_players():
    with pytest.raises(InputError, match="unknown key 'players'"):
        marks_from_data(TABLE, "t.json", CLASSIC)


# -- the plain type tests accept exactly what the walk that says where accepts ---------------

VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 13), st.text(max_size=3), st.just(""), st.just(" "),
                   st.just("a\tb"), st.just("x" * 41), st.just("longo"), st.lists(st.booleans(), min_size=1, max_size=2),
                   st.dictionaries(st.just("crossed"), st.integers()))
NUMBERS = st.lists(st.integers(-1, 13), max_size=3)
ROW = st.fixed_dictionaries({}, optional={"crossed": NUMBERS, "lock": st.booleans(), "bis": NUMBERS})
SHEET = st.fixed_dictionaries(
    {"rows": st.lists(ROW, min_size=4, max_size=4)},
    optional={"grid": st.just("classic"), "player": st.sampled_from(["Lea", "x" * 40]),
              "penalties": st.integers(0, 5), "bonus_bar": NUMBERS},
)


@st.composite
def sheets(draw):
    """A well-formed sheet, and half the time one fault put into it."""
    data = draw(SHEET)
    if draw(st.booleans()):
        where = draw(st.sampled_from(["top", "key", "rows", "row", "row key", "number"]))
        value = draw(VALUES)
        row = data["rows"][draw(st.integers(0, 3))]
        if where == "top":
            data[draw(st.sampled_from(["grid", "player", "penalties", "bonus_bar"]))] = value
        elif where == "key":
            data[draw(st.sampled_from(["score", "rows"]))] = value
        elif where == "rows":
            data["rows"] = data["rows"][: draw(st.integers(0, 3))] if draw(st.booleans()) else data["rows"] + [{}]
        elif where == "row":
            row[draw(st.sampled_from(["crossed", "lock", "bis", "locked"]))] = value
        else:
            row.setdefault("crossed", []).append(value)
    return data


@settings(max_examples=500, deadline=None)
@given(sheets())
def test_the_quick_form_check_agrees_with_the_walk(data):
    quick = _quick_sheet(data, "m.json", CLASSIC, "", SHEET_KEYS)
    try:
        walked = _checked_sheet(Node("m.json", "", data), CLASSIC, SHEET_KEYS)
    except InputError:
        assert quick is None
    else:
        assert quick == walked


def test_a_table_with_the_counter_pages_log_is_read_and_its_log_left_alone():
    grid = load_grid("classic")
    data = {"grid": "classic", "log": {"first": "Lea", "moves": [{"move": "end"}]},
            "players": [{"player": "Lea", "rows": [{"crossed": [2]}, {}, {}, {}]}]}
    (sheet,) = sheets_from_data(data, "table.json", grid)
    assert sheet.player == "Lea" and sheet.rows[0].crossed == (2,)
