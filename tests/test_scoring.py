"""The scorer: the exact words of every refusal, every legal sheet of random
games accepted and scored as played (and presented: test_results.py has the
presentations), and what one action can close.

The worked examples of every grid, with their arithmetic, are the cases of
the conformance suite (tests/conformance/cases.json, run by
test_conformance.py), which the counter page's engine shares.  Row points are
triangular: 1 3 6 10 15 21 28 36 45 55 66 78 91 105 120 136 for 1..16 crosses.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen.errors import SheetgenError
from sheetgen.grid.load import builtin_names, grid_from_data, load_grid
from sheetgen.grid.model import Effect, Power, Symbol
from sheetgen.play.marks import load_marks, marks_from_data
from sheetgen.play.results import format_scores, scores_json_text
from sheetgen.play.scoring import (
    REASONS,
    Score,
    ScoreError,
    closings_per_action,
    score_sheet,
)

from legal_games import expected_total, marks_document, play

DOCS = Path(__file__).resolve().parent.parent / "docs" / "scoring.md"
CLASSIC_ROW, CLASSIC_DOWN = list(range(2, 13)), list(range(12, 1, -1))


@functools.cache
def named_grid(name: str):
    return load_grid(name)


def custom_grid(name: str, rows: list[dict], **extra):
    return grid_from_data({"name": name, "title": name, "dice_faces": 6, "close_after": 5,
                           "penalties": {"boxes": 4, "points": 5}, "rows": rows} | extra, f"{name}.yaml")


def four_rows(**by_row) -> list[dict]:
    """Classic rows red, yellow (2..12), green, blue (12..2), with extra keys per row: red={"framed": [12]}."""
    colours = [("red", CLASSIC_ROW), ("yellow", CLASSIC_ROW), ("green", CLASSIC_DOWN), ("blue", CLASSIC_DOWN)]
    return [{"colour": colour, "cells": cells, **by_row.get(colour, {})} for colour, cells in colours]


# Grids that stress what one action can do: framed last cells, powers on last
# cells, powers with a bar, two immediate powers; and small boxes with a bar.
CUSTOM = {
    "last-framed": custom_grid("last-framed", four_rows(red={"framed": [12, 5]}, yellow={"framed": [12]},
                                                         green={"framed": [2, 9]}, blue={"framed": [2]}),
                               bonus_bar=["yellow", "green", "blue", "red", "green", "yellow"]),
    "circle-bar": custom_grid("circle-bar", four_rows(red={"framed": [4, 5, 6], "symbols": {7: "circle"}},
                                                       yellow={"framed": [4, 5, 6], "symbols": {7: "circle"}},
                                                       green={"framed": [10, 9, 8]}, blue={"framed": [10, 9, 8]}),
                              bonus_bar=["green", "blue"] * 5,
                              powers={"circle": {"effect": "extra_crosses", "crosses": 3}}),
    "last-symbol": custom_grid("last-symbol", four_rows(red={"symbols": {12: "circle", 3: "square"}},
                                                         yellow={"symbols": {12: "circle", 3: "square"}},
                                                         green={"symbols": {2: "square"}}),
                               powers={"circle": {"effect": "extra_crosses", "crosses": 3},
                                       "square": {"effect": "extra_crosses", "crosses": 2}}),
    "bis-bar": custom_grid("bis-bar", four_rows(red={"framed": [3, 11]}, yellow={"framed": [6]}, blue={"framed": [3]}),
                           bis=True, close_after=7, bonus_bar=["yellow", "blue", "red", "yellow"]),
    "two-extra": custom_grid("two-extra", four_rows(red={"symbols": {3: "circle", 5: "star"}},
                                                     yellow={"symbols": {3: "circle", 5: "star"}}),
                             powers={"circle": {"effect": "extra_crosses", "crosses": 2},
                                     "star": {"effect": "extra_crosses", "crosses": 2}}),
}


def score(name: str, *rows, where: str = "lea.yaml", **extra) -> Score:
    """Score a sheet given as one entry per row: a list of crossed numbers or a
    row mapping; ``extra`` holds penalties, bonus_bar, player."""
    data = {"rows": [row if isinstance(row, dict) else {"crossed": list(row)} for row in rows], **extra}
    return score_sheet(named_grid(name), marks_from_data(data, where, named_grid(name)))


# -- every refusal, word for word ------------------------------------------------

CLOSED = [2, 3, 4, 5, 6, 12]  # a red or yellow row closed: 7 crosses
LOCKS = "before the game's last action at most one row is closed, and on this sheet one action closes at most 1 row"

REFUSALS = [
    ("classic", [[2, 13], [], [], []], {}, "unknown-number",
     "rows[0].crossed[1]: no cell 13 in this row (expected one of 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 or 12)"),
    ("classic", [[2, 3, 3], [], [], []], {}, "listed-twice", "rows[0].crossed[2]: 3 listed twice"),
    ("classic", [[2, 3, 4, 12], [], [], []], {}, "threshold",
     "rows[0].crossed: 12 crossed with only 3 crosses before it (the last cell needs at least 5)"),
    ("classic", [[], {"crossed": [2, 3], "lock": True}, [], []], {}, "lock-without-last",
     "rows[1].lock: locked but the last cell 12 is not crossed (the lock is crossed with it)"),
    ("classic", [[], [], {"crossed": [12, 11, 10, 9, 8, 2], "lock": False}, []], {}, "last-without-lock",
     "rows[2].lock: not locked but the last cell 2 is crossed (crossing it crosses the lock)"),
    ("classic", [[]] * 4, {"penalties": 5}, "too-many-penalties",
     "penalties: 5 crossed but the sheet has only 4 penalty boxes"),
    ("classic", [[], [], [], {"crossed": [12], "bis": [12]}], {}, "no-bis",
     "rows[3].bis: this grid has no small boxes under its cells"),
    ("bis", [{"crossed": [2, 3], "bis": [3, 4]}, [], [], []], {}, "bis-without-cell",
     "rows[0].bis[1]: small box under 4 crossed but 4 is not"),
    ("bis", [{"crossed": [2, 3, 4, 5, 12], "bis": [2, 3, 12]}, [], [], []], {}, "bis-under-last",
     "rows[0].bis[2]: the last cell 12 has no small box"),
    ("classic", [[]] * 4, {"bonus_bar": [1]}, "no-bonus-bar", "bonus_bar: this grid has no bonus bar"),
    ("bonus", [[3, 4, 6], [], [], []], {"bonus_bar": [1, 13]}, "unknown-box",
     "bonus_bar[1]: no box 13 (the bar has boxes 1 to 12)"),
    ("bonus", [[3, 4, 6], [], [], []], {"bonus_bar": [1, 1]}, "listed-twice", "bonus_bar[1]: box 1 listed twice"),
    ("bonus", [[3, 4], [2], [], []], {"bonus_bar": [1, 2]}, "boxes-without-framed",
     "bonus_bar: 2 boxes crossed but only 1 framed cell (each framed cell crosses one box)"),
    ("bonus", [[3, 4], [], [], []], {}, "framed-without-box",
     "bonus_bar: 1 framed cell crossed but no box: a framed cell takes no box only when every box left is struck,"
     " and those are blue, green, red and yellow, but at most one row can be closed then (the game ends when a"
     " second closes, and on this sheet nothing follows a closing in its action)"),
    ("bonus", [[3, 4], [2], [], []], {"bonus_bar": [6]}, "box-order",
     "bonus_bar[0]: box 6 crossed while box 1 of the same colour (red) is free (a box is passed over only when its"
     " colour is struck, which strikes all its boxes)"),
    ("bonus", [[3, 4, 6, 7], [], [], []], {"bonus_bar": [1, 6]}, "box-order",
     "bonus_bar[1]: box 6 crossed while boxes before it are free: a box is passed over only when it is struck, and"
     " those are blue, green and yellow, but at most one row can be closed then (the game ends when a second"
     " closes, and on this sheet nothing follows a closing in its action)"),
    ("bonus", [[3, 4], [2], [], []], {"bonus_bar": [2]}, "box-order",
     "bonus_bar[0]: box 2 crossed while boxes of red are free before it: they were struck, so their rows were"
     " closed then, and no framed cell crossed outside them can have taken it"),
    ("bonus", [[3], [], [], []], {"bonus_bar": [1]}, "bonus-cross-missing",
     "bonus_bar[0]: 1 red box crossed but rows[0] shows no cross they can have given (a box's cross is compulsory"
     " and takes the first free cell of its row: the row's first cell, or the cell just right of another cross)"),
    ("powers", [[2, 4, 6, 8], [3, 5, 7], [12, 10, 5], [12, 10, 7, 4]], {"penalties": 2}, "power-cross-missing",
     "rows[3]: the diamond (yellow 7, blue 7) is unlocked and crosses at once the first free cell of every open row,"
     " but rows[1] and rows[3] have no cross it can have made (right of its symbol, in the row's first cell or just"
     " right of another cross), and only one row can have been closed by another player"),
    ("classic", [CLOSED, CLOSED, [12, 11, 10, 9, 8, 2], []], {}, "too-many-locks",
     f"rows: 3 rows locked, but this sheet can hold at most 2 ({LOCKS})"),
    ("bonus", [[2, 3, 4, 5, 7, 12], [2, 3, 4, 6, 7, 12], [12, 10, 9, 8, 6, 2], []], {"bonus_bar": [1]},
     "too-many-locks", f"rows: 3 rows locked, but this sheet can hold at most 2 ({LOCKS})"),
    ("classic", [CLOSED, CLOSED, [], []], {"penalties": 4}, "penalty-after-game-end",
     "penalties: all 4 penalty boxes crossed with 2 rows locked: the last box and the second lock each end the"
     " game at once, and they cannot come in one turn (a penalised player crossed nothing in it)"),
]


@pytest.mark.parametrize("name, rows, extra, reason, message", REFUSALS)
def test_impossible_sheets_are_refused_with_one_line(name, rows, extra, reason, message):
    with pytest.raises(ScoreError) as error:
        score(name, *rows, **extra)
    assert str(error.value) == f"lea.yaml: {message}"
    assert error.value.reason == reason
    assert isinstance(error.value, SheetgenError)


def test_the_refusals_cover_every_reason():
    assert {reason for *_, reason, _ in REFUSALS} == set(REASONS)


def test_a_refusal_in_a_sheet_of_several_names_the_sheet():
    data = {"rows": [{"crossed": [2, 3, 4, 12]}, {}, {}, {}]}
    marks = marks_from_data(data, "table.json", named_grid("classic"))
    with pytest.raises(ScoreError) as error:
        score_sheet(named_grid("classic"), replace(marks, path="players[2]"))
    assert error.value.path == "players[2].rows[0].crossed"


# -- every sheet a game can leave is accepted, and scored as it was played --------


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(builtin_names() + sorted(CUSTOM)), st.integers(0, 2**32))
def test_any_sheet_of_a_random_game_scores_as_played(name, seed):
    grid = CUSTOM.get(name) or named_grid(name)
    sheet = play(grid, seed)
    result = score_sheet(grid, marks_from_data(marks_document(sheet), "any.json", grid))
    assert result.total == expected_total(sheet)
    format_scores([result])  # presents any sheet
    entry = json.loads(scores_json_text([result]))["sheets"][0]  # and written as JSON, the same numbers
    assert list(entry) == ["file", "player", "grid", "rows", "penalties", "powers", "total", "place"]
    assert [row["points"] for row in entry["rows"]] == [row.points for row in result.rows]
    assert (entry["total"], entry["penalties"]["crossed"], entry["place"]) == (result.total, sheet.penalties, 1)


def test_random_games_reach_what_the_rules_limit():
    """The property above sees sheets at the limits: locks beyond two where a
    grid allows them, every penalty box, bar boxes and unlocked powers."""
    seen = {"locks": set(), "penalties": set(), "bar": 0, "powers": 0}
    for name in ("classic", "bonus", "powers", "last-framed", "last-symbol"):
        grid = CUSTOM.get(name) or named_grid(name)
        for seed in range(300):
            sheet = play(grid, seed)
            seen["locks"].add((name, sum(sheet.locked)))
            seen["penalties"].add(sheet.penalties)
            seen["bar"] += bool(sheet.bar)
            seen["powers"] += bool(sheet.unlocked)
    assert {("classic", 2), ("bonus", 2), ("last-framed", 3), ("last-symbol", 3)} <= seen["locks"]
    assert 4 in seen["penalties"] and seen["bar"] > 100 and seen["powers"] > 100


# -- what one action can close ------------------------------------------------------

POWERS = {power.symbol: power for power in named_grid("powers").powers}


@pytest.mark.parametrize("name, unlocked, bar_used, closings", [
    ("classic", [], False, 1),
    ("bonus", [], True, 1),  # no last cell is framed: a chain ends at its closing
    ("powers", [Symbol.CIRCLE, Symbol.SQUARE, Symbol.OCTAGON, Symbol.STAR], False, 1),  # circle: both to one row
    ("powers", [Symbol.DIAMOND], False, 4),  # a cross in every open row
    ("last-framed", [], True, 4),  # 1 + four framed last cells, four rows at most
    ("last-framed", [], False, 1),  # no box was ever taken: framed cells caused nothing
    ("circle-bar", [Symbol.CIRCLE], True, 3),  # 1 + its 3 crosses may each take a box: 2 more branches
    ("circle-bar", [Symbol.CIRCLE], False, 1),
    ("last-symbol", [Symbol.CIRCLE], False, 3),  # 1 + red 12 and yellow 12 close and complete it
    ("last-symbol", [Symbol.CIRCLE, Symbol.SQUARE], False, 4),  # 1 + 3 last cells + 3 branches, 4 rows at most
    ("two-extra", [Symbol.CIRCLE], False, 1),  # its crosses cannot cause any
    ("two-extra", [Symbol.CIRCLE, Symbol.STAR], False, 3),  # each one's crosses may complete the other: 1 + 1 + 1
])
def test_closings_per_action(name, unlocked, bar_used, closings):
    grid = CUSTOM.get(name) or named_grid(name)
    powers = [power for power in grid.powers if power.symbol in unlocked]
    assert closings_per_action(grid, powers, bar_used) == closings


def test_an_immediate_power_of_one_cross_adds_no_branch():
    grid = named_grid("powers")
    one = [Power(Symbol.CIRCLE, Effect.EXTRA_CROSSES, 1), Power(Symbol.STAR, Effect.EXTRA_CROSSES, 1)]
    assert closings_per_action(grid, one, bar_used=False) == 1


# -- docs/scoring.md: its examples are true, its reasons complete ------------------------

EXAMPLE = re.compile(r"```yaml\n(grid: .*?)```", re.S)


def test_docs_examples_score_what_they_say(tmp_path):
    examples = EXAMPLE.findall(DOCS.read_text(encoding="utf-8"))
    assert len(examples) >= 8
    for n, text in enumerate(examples):
        name = re.match(r"grid: (\S+)", text).group(1)
        stated = int(re.search(r"# total: (-?\d+)", text).group(1))
        path = tmp_path / f"example{n}.yaml"
        path.write_text(text, encoding="utf-8")
        assert score_sheet(named_grid(name), load_marks(path, named_grid(name))).total == stated, text


def test_docs_name_every_reason():
    text = DOCS.read_text(encoding="utf-8")
    assert [reason for reason in REASONS if f"`{reason}`" not in text] == []
