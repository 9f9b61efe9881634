"""The scorer: worked examples computed by hand from GRIDS.md, impossible
sheets with their exact messages, a property over random legal sheets of
every built-in grid, and the text and JSON presentations.

Every expected total has its arithmetic in a comment, from the rules, not
from the code.  Row points are triangular: 1 3 6 10 15 21 28 36 45 55 66 78
91 105 120 136 for 1..16 crosses.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen.errors import SheetgenError
from sheetgen.grid.load import builtin_names, grid_from_data, load_grid
from sheetgen.play.marks import load_marks, marks_from_data
from sheetgen.grid.model import Effect, Symbol, row_points
from sheetgen.play.scoring import (
    Score,
    ScoreError,
    format_scores,
    rank,
    score_sheet,
    scores_as_json,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "scoring.md"


@functools.cache
def named_grid(name: str):
    return load_grid(name)


def score(name: str, *rows, where: str = "lea.yaml", **extra) -> Score:
    """Score a sheet given as one entry per row: a list of crossed numbers or a
    row mapping; ``extra`` holds penalties, bonus_bar, player."""
    data = {"rows": [row if isinstance(row, dict) else {"crossed": list(row)} for row in rows], **extra}
    return score_sheet(named_grid(name), marks_from_data(data, where, named_grid(name)))


def points(result: Score) -> list[int]:
    return [row.points for row in result.rows]


# -- classic -------------------------------------------------------------------


def test_classic_first_worked_example():
    result = score(
        "classic",
        [2, 3, 4, 5, 6, 7],  # 6 crosses: 21
        [2, 3, 4, 5],  # 4 crosses: 10
        [12, 11, 10, 9, 8, 7, 2],  # 7 numbers + lock = 8 crosses: 36
        [12, 11, 10],  # 3 crosses: 6
        penalties=1,  # -5
    )
    assert [row.crosses for row in result.rows] == [6, 4, 8, 3]
    assert points(result) == [21, 10, 36, 6]
    assert result.penalty_points == -5
    assert result.total == 68  # 21 + 10 + 36 + 6 - 5


def test_classic_second_worked_example():
    result = score(
        "classic",
        [2, 3, 4, 5],  # 4 crosses: 10
        [2, 3, 4],  # 3 crosses: 6
        [12, 11, 10, 9, 8, 7, 6],  # 7 crosses: 28
        [12, 11, 10, 9, 8, 7, 2],  # 7 numbers + lock = 8 crosses: 36
        penalties=2,  # -10
    )
    assert points(result) == [10, 6, 28, 36]
    assert result.total == 70  # 10 + 6 + 28 + 36 - 10


def test_a_row_closed_with_six_numbers_scores_28_not_21():
    result = score("classic", [2, 3, 4, 5, 6, 12], [], [], [])
    assert result.rows[0].crosses == 7  # 6 numbers + the lock
    assert result.rows[0].locked
    assert result.total == 28  # T(7), not T(6) = 21


def test_lock_true_is_the_same_as_leaving_it_implied():
    implied = score("classic", [2, 3, 4, 5, 6, 12], [], [], [])
    stated = score("classic", {"crossed": [12, 6, 5, 4, 3, 2], "lock": True}, [], [], [])
    assert stated == implied  # order of the numbers does not matter either


def test_the_last_cell_needs_five_before_it_not_counting_itself():
    assert score("classic", [], [], [12, 11, 10, 9, 8, 2], []).total == 28  # 5 + 1 + lock = 7: 28
    with pytest.raises(ScoreError, match=r"2 crossed with only 4 crosses before it"):
        score("classic", [], [], [12, 11, 10, 9, 2], [])


def test_two_locks_are_fine():
    closed = [2, 3, 4, 5, 6, 12]  # 7 crosses: 28
    assert score("classic", closed, closed, [], []).total == 56  # 28 + 28


@pytest.mark.parametrize("name", builtin_names())
def test_empty_sheet_scores_zero(name):
    result = score(name, *[[]] * len(named_grid(name).rows))
    assert result.total == 0
    assert result.powers == ()


@pytest.mark.parametrize("name", builtin_names())
def test_a_sheet_with_only_penalties(name):
    g = named_grid(name)
    for count in range(g.penalty_boxes + 1):
        result = score(name, *[[]] * len(g.rows), penalties=count)
        assert result.total == -g.penalty_points * count  # e.g. 4 x -5 = -20


@pytest.mark.parametrize("name", builtin_names())
def test_more_penalties_than_boxes_is_impossible(name):
    g = named_grid(name)
    with pytest.raises(ScoreError) as error:
        score(name, *[[]] * len(g.rows), penalties=g.penalty_boxes + 1)
    assert str(error.value) == (
        f"lea.yaml: penalties: {g.penalty_boxes + 1} crossed but the sheet has only {g.penalty_boxes} penalty boxes"
    )


# -- longo: 15 cells, N = 6, lucky numbers need nothing --------------------------


def test_longo_closes_after_six_crosses():
    result = score("longo", [2, 3, 4, 5, 6, 7, 16], [], [], [])
    assert result.rows[0].crosses == 8  # 6 + 16 + lock
    assert result.total == 36  # T(8)


def test_longo_five_crosses_are_not_enough():
    with pytest.raises(ScoreError) as error:
        score("longo", [], [], [16, 15, 14, 13, 12, 2], [])
    assert str(error.value) == (
        "lea.yaml: rows[2].crossed: 2 crossed with only 5 crosses before it (the last cell needs at least 6)"
    )


def test_longo_full_row_is_16_crosses():
    result = score("longo", list(range(2, 17)), [13, 14, 15], [], [])
    # red: 15 numbers + lock = 16: 136; yellow: 3 crosses (13..15 exist on longo): 6
    assert points(result) == [136, 6, 0, 0]
    assert result.total == 142  # 136 + 6


def test_a_lucky_cross_is_just_a_crossed_cell():
    # A lucky number crossed the first free cell of the emptiest row: on paper
    # it is an ordinary cross, here blue 16 among otherwise-empty rows.
    assert score("longo", [2], [2], [16], [16]).total == 4  # 1 + 1 + 1 + 1


# -- doubles: doubles count 2, also towards N = 7 --------------------------------


def test_a_double_cell_counts_two_crosses():
    result = score("doubles", [3], [2], [], [])
    assert [row.crosses for row in result.rows] == [2, 1, 0, 0]
    assert result.total == 4  # T(2) + T(1) = 3 + 1


def test_doubles_threshold_of_seven_counts_doubles_twice():
    # red 2, 3d, 4, 5d = 1 + 2 + 1 + 2 = 6 crosses plus 6 = 7: enough for 12.
    result = score("doubles", [2, 3, 4, 5, 6, 12], [], [], [])
    assert result.rows[0].crosses == 9  # 7 + 12 + lock
    assert result.total == 45  # T(9)


def test_doubles_six_crosses_do_not_close():
    with pytest.raises(ScoreError) as error:
        score("doubles", [3, 5, 9, 12], [], [], [])  # 2 + 2 + 2 = 6 before 12
    assert str(error.value) == (
        "lea.yaml: rows[0].crossed: 12 crossed with only 6 crosses before it (the last cell needs at least 7)"
    )


def test_doubles_full_row_scores_16_crosses():
    full_green = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
    result = score("doubles", [], [], full_green, [11, 9, 5, 3])
    # green: 11 numbers + 4 doubles + lock = 16: 136; blue: 4 doubles = 8 crosses: 36
    assert points(result) == [0, 0, 136, 36]
    assert result.total == 172


# -- bis: small boxes count, also towards N = 7; at most 16 count ----------------


def test_bis_boxes_count_towards_the_threshold():
    result = score("bis", {"crossed": [2, 3, 4, 5, 12], "bis": [2, 3, 4]}, [], [], [])
    assert result.rows[0].crosses == 9  # 4 cells + 3 boxes = 7 before 12, + 12 + lock
    assert result.total == 45  # T(9)


def test_bis_without_boxes_four_crosses_do_not_close():
    with pytest.raises(ScoreError) as error:
        score("bis", [2, 3, 4, 5, 12], [], [], [])
    assert str(error.value) == (
        "lea.yaml: rows[0].crossed: 12 crossed with only 4 crosses before it (the last cell needs at least 7)"
    )


def test_bis_counts_at_most_16_crosses():
    numbers = list(range(2, 13))
    result = score(
        "bis",
        {"crossed": numbers, "bis": numbers[:-1]},  # 11 cells + 10 boxes + lock = 22, 16 count: 136
        {"crossed": numbers[:-1], "bis": numbers[:6]},  # 10 cells + 6 boxes = 16: 136
        {"crossed": [12, 11, 10, 9, 8, 7, 6, 5, 4, 3], "bis": [12, 11, 10, 9, 8, 7, 6]},  # 17, 16 count: 136
        [12],  # 1
    )
    assert [(row.crosses, row.counted) for row in result.rows] == [(22, 16), (16, 16), (17, 16), (1, 1)]
    assert result.total == 409  # 136 * 3 + 1


# -- bonus: the bar scores nothing, but must be possible ---------------------------


def test_bonus_bar_scores_nothing():
    result = score("bonus", [3, 6, 9], [5], [], [12], bonus_bar=[1, 2, 4])
    # 4 framed cells crossed, 3 boxes; box 3 (green) passed over: green was struck.
    # Box 4 (blue) gave the compulsory cross on blue 12.
    assert result.total == 8  # T(3) + T(1) + T(1) = 6 + 1 + 1


def test_bonus_chain_can_close_more_than_two_rows():
    closed = [[2, 3, 4, 5, 6, 12], [2, 3, 4, 5, 6, 12], [12, 11, 10, 9, 8, 2]]
    result = score("bonus", *closed, [], bonus_bar=[1, 2])
    # red 3, 6 and yellow 5 are framed: 3 framed, 2 boxes; 7 + 7 + 7 crosses
    assert result.total == 84  # 28 * 3


def test_bonus_boxes_of_one_colour_are_taken_left_to_right():
    assert score("bonus", [3, 6], [], [], [], bonus_bar=[1, 6]).total == 3  # boxes 1 and 6 are red: T(2)
    # a full green row crosses its 3 framed cells (11, 7, 4): 3 boxes, whose
    # compulsory crosses went to red 2, yellow 2 and the green row itself
    result = score("bonus", [2], [2], [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2], [], bonus_bar=[1, 2, 3])
    assert result.total == 80  # T(1) + T(1) + T(12) (11 + lock) = 1 + 1 + 78


# -- powers ----------------------------------------------------------------------


def test_square_doubles_the_lowest_row_with_a_tie():
    result = score(
        "powers",
        [2, 3, 8],  # 3: 6 (square on red 8)
        [2, 3, 4],  # 3: 6
        [12, 11, 10, 9],  # 4: 10
        [12, 11, 10, 9],  # 4: 10 (square on blue 10)
    )
    assert [(p.symbol, p.points) for p in result.powers] == [(Symbol.SQUARE, 6)]
    assert result.powers[0].text == "lowest row counts double (red or yellow: 6)"
    assert result.total == 38  # 6 + 6 + 10 + 10 + 6


def test_square_with_an_empty_row_doubles_nothing():
    result = score("powers", [8], [], [], [10])
    assert result.total == 2  # 1 + 0 + 0 + 1, lowest row scores 0


def test_octagon_gives_13_points():
    result = score("powers", [6], [], [], [4])
    assert [(p.effect, p.points) for p in result.powers] == [(Effect.BONUS_POINTS, 13)]
    assert result.total == 15  # 1 + 1 + 13


def test_star_cancels_penalties():
    result = score("powers", [], [3], [5], [], penalties=3)
    assert result.penalty_points == -15
    assert [(p.symbol, p.points) for p in result.powers] == [(Symbol.STAR, 15)]
    assert result.total == 2  # 1 + 1 - 15 + 15


def test_immediate_powers_add_no_points():
    # circle (yellow 11, green 9) and diamond (yellow 7, blue 7): their crosses
    # are already on the paper.
    result = score("powers", [], [7, 11], [9], [7])
    assert {p.symbol for p in result.powers} == {Symbol.CIRCLE, Symbol.DIAMOND}
    assert all(p.points == 0 for p in result.powers)
    assert result.total == 5  # 3 + 1 + 1


def test_one_of_two_symbol_cells_unlocks_nothing():
    result = score("powers", [6, 8], [3], [], [])
    assert result.powers == ()
    assert result.total == 4  # 3 + 1


def test_every_power_at_once():
    full = list(range(2, 13))
    result = score("powers", full, full, full[::-1], full[::-1], penalties=2)
    # each row 11 + lock = 12: 78, four rows 312; square +78 (all tie);
    # octagon +13; star cancels -10; four locks are possible: diamond.
    assert result.total == 403  # 312 + 78 + 13 - 10 + 10


def test_a_custom_grid_with_one_effect_on_two_symbols():
    custom = grid_from_data(
        {
            "name": "twice",
            "title": "Twice",
            "dice_faces": 6,
            "close_after": 5,
            "penalties": {"boxes": 4, "points": 5},
            "powers": {
                "star": {"effect": "no_penalties"},
                "circle": {"effect": "no_penalties"},
                "octagon": {"effect": "bonus_points", "points": 13},
                "diamond": {"effect": "bonus_points", "points": 2},
            },
            "rows": [
                {"colour": "red", "cells": list(range(2, 13)), "symbols": {2: "star", 3: "circle", 4: "octagon", 5: "diamond"}},
                {"colour": "blue", "cells": list(range(12, 1, -1))},
            ],
        },
        "twice.yaml",
    )
    marks = marks_from_data({"rows": [{"crossed": [2, 3, 4, 5]}, {}], "penalties": 2}, "lea.yaml", custom)
    result = score_sheet(custom, marks)
    assert [(p.symbol.value, p.points) for p in result.powers] == [
        ("star", 10), ("circle", 0), ("octagon", 13), ("diamond", 2)
    ]
    assert result.powers[1].text == "penalties score 0 (already applied)"
    assert result.total == 25  # 10 - 10 + 10 (cancelled once) + 13 + 2 (bonus points add up)


# -- mixed: closing by position ----------------------------------------------------


def test_mixed_closes_on_its_last_cells():
    result = score(
        "mixed",
        [10, 6, 2, 8, 3, 11],  # 5 + 11 + lock = 7: 28
        [9],  # 1
        [],
        [5, 7, 11, 9, 12, 4],  # 5 + 4 + lock = 7: 28
    )
    assert [row.locked for row in result.rows] == [True, False, False, True]
    assert result.total == 57  # 28 + 1 + 0 + 28


def test_mixed_twelve_is_not_a_last_cell():
    result = score("mixed", [12], [12], [12], [12])
    assert not any(row.locked for row in result.rows)
    assert result.total == 4  # 1 each


def test_mixed_threshold_by_position():
    with pytest.raises(ScoreError) as error:
        score("mixed", [], [], [8, 2, 10, 3], [])
    assert str(error.value) == (
        "lea.yaml: rows[2].crossed: 3 crossed with only 3 crosses before it (the last cell needs at least 5)"
    )


# -- colour grids: rows score per row, whatever the cell colours -------------------


def test_blocks_rows_score_like_classic():
    result = score("blocks", [2, 3, 4, 5, 6, 12], [2], [12, 11], [])
    assert [row.label for row in result.rows] == ["row 1", "row 2", "row 3", "row 4"]
    assert result.total == 32  # 28 + 1 + 3


def test_rainbow_locks_follow_the_last_cell():
    result = score("rainbow", [2, 3, 4, 5, 6, 12], [], [], [12, 11, 10, 9, 8, 2])
    assert [r.lock_colour.value for r in result.rows if r.locked] == ["red", "blue"]
    assert result.total == 56  # 28 + 28


def test_disorder_closes_on_shuffled_last_cells():
    result = score(
        "disorder",
        [9, 4, 8, 7, 5, 11],  # row 1 ends in 11: 5 + 11 + lock = 7: 28
        [12],  # row 2: 12 is its third cell: 1
        [8, 5, 6, 2, 9, 10],  # row 3 ends in 10: 28
        [11, 10],  # 3
    )
    assert result.total == 60  # 28 + 1 + 28 + 3


# -- impossible sheets -------------------------------------------------------------

C = [[], [], [], []]  # an empty classic sheet to vary

IMPOSSIBLE = [
    ("classic", [[2, 13], [], [], []], {},
     "lea.yaml: rows[0].crossed[1]: no cell 13 in this row (expected one of 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 or 12)"),
    ("classic", [[2, 3, 3], [], [], []], {}, "lea.yaml: rows[0].crossed[2]: 3 listed twice"),
    ("classic", [[2, 3, 4, 12], [], [], []], {},
     "lea.yaml: rows[0].crossed: 12 crossed with only 3 crosses before it (the last cell needs at least 5)"),
    ("classic", [[], {"crossed": [2, 3], "lock": True}, [], []], {},
     "lea.yaml: rows[1].lock: locked but the last cell 12 is not crossed (the lock is crossed with it)"),
    ("classic", [[], [], {"crossed": [12, 11, 10, 9, 8, 2], "lock": False}, []], {},
     "lea.yaml: rows[2].lock: not locked but the last cell 2 is crossed (crossing it crosses the lock)"),
    ("classic", C, {"penalties": 5}, "lea.yaml: penalties: 5 crossed but the sheet has only 4 penalty boxes"),
    ("classic", [[2, 3, 4, 5, 6, 12]] * 2 + [[12, 11, 10, 9, 8, 2], []], {},
     "lea.yaml: rows: 3 rows locked, but a player can lock at most 2 (the 2nd closed row ends the game,"
     " and this sheet shows no power or bonus that crosses several cells in one action)"),
    ("classic", [[], [], [], {"crossed": [12], "bis": [12]}], {},
     "lea.yaml: rows[3].bis: this grid has no small boxes under its cells"),
    ("bis", [{"crossed": [2, 3], "bis": [3, 4]}, [], [], []], {},
     "lea.yaml: rows[0].bis[1]: small box under 4 crossed but 4 is not"),
    ("bis", [{"crossed": [2, 3, 4, 5, 12], "bis": [2, 3, 12]}, [], [], []], {},
     "lea.yaml: rows[0].bis[2]: the last cell 12 has no small box"),
    ("bis", [{"crossed": [2], "bis": [2, 2]}, [], [], []], {}, "lea.yaml: rows[0].bis[1]: 2 listed twice"),
    ("bis", [{"crossed": [2], "bis": [1]}, [], [], []], {},
     "lea.yaml: rows[0].bis[0]: no cell 1 in this row (expected one of 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 or 12)"),
    ("classic", C, {"bonus_bar": [1]}, "lea.yaml: bonus_bar: this grid has no bonus bar"),
    ("bonus", [[3, 6], [], [], []], {"bonus_bar": [1, 13]}, "lea.yaml: bonus_bar[1]: no box 13 (the bar has boxes 1 to 12)"),
    ("bonus", [[3], [], [], []], {"bonus_bar": [0]}, "lea.yaml: bonus_bar[0]: no box 0 (the bar has boxes 1 to 12)"),
    ("bonus", [[3, 6], [], [], []], {"bonus_bar": [1, 1]}, "lea.yaml: bonus_bar[1]: box 1 listed twice"),
    ("bonus", [[3, 4], [], [], []], {"bonus_bar": [1, 2]},
     "lea.yaml: bonus_bar: 2 boxes crossed but only 1 framed cell (each framed cell crosses one box)"),
    ("bonus", [[3, 6], [], [], []], {"bonus_bar": [1, 2]},
     "lea.yaml: bonus_bar[1]: box 2 (yellow) crossed but rows[1] has no cross"
     " (a bonus box gives a compulsory cross in its colour's row)"),
    ("bonus", [[3, 6], [2], [], []], {"bonus_bar": [2, 6]},
     "lea.yaml: bonus_bar[1]: box 6 crossed while box 1 of the same colour (red) is free"
     " (a box is passed over only when its colour is struck, which strikes all its boxes)"),
    ("doubles", [[2, 3, 4, 5, 12], [], [], []], {},  # 1 + 2 + 1 + 2 = 6 < 7
     "lea.yaml: rows[0].crossed: 12 crossed with only 6 crosses before it (the last cell needs at least 7)"),
    ("mixed", [[10, 6, 2, 8, 12], [], [], [12, 4]], {},
     "lea.yaml: rows[3].crossed: 4 crossed with only 1 cross before it (the last cell needs at least 5)"),
    ("powers", [[2, 3, 4, 5, 6, 12]] * 2 + [[12, 11, 10, 9, 8, 2], []], {},  # octagon/square/star half done only
     "lea.yaml: rows: 3 rows locked, but a player can lock at most 2 (the 2nd closed row ends the game,"
     " and this sheet shows no power or bonus that crosses several cells in one action)"),
]


@pytest.mark.parametrize("name, rows, extra, message", IMPOSSIBLE)
def test_impossible_sheets_are_refused_with_one_line(name, rows, extra, message):
    with pytest.raises(ScoreError) as error:
        score(name, *rows, **extra)
    assert str(error.value) == message
    assert isinstance(error.value, SheetgenError)


def test_three_locks_with_an_immediate_power_are_possible():
    # diamond (yellow 7, blue 7) crosses one cell in each open row at once:
    # it can close two rows in the action that ends the game.
    result = score("powers", [2, 3, 4, 5, 6, 12], [2, 3, 4, 5, 6, 7, 12], [12, 11, 10, 9, 8, 2], [7])
    # 28 + 8 crosses 36 + 28 + 1
    assert result.total == 93


# -- any legal sheet of any grid -------------------------------------------------


@st.composite
def legal_sheets(draw):
    """(grid, marks data, expected total) for a random legal sheet with no power unlocked."""
    g = named_grid(draw(st.sampled_from(builtin_names())))
    chosen = [set(draw(st.sets(st.integers(0, len(row.cells) - 2)))) for row in g.rows]
    for power in g.powers:  # leave one cell of every symbol uncrossed
        r, c = draw(st.sampled_from(g.symbol_cells(power.symbol)))
        chosen[r].discard(c)
    rows, closing = [], []
    for row, cells in zip(g.rows, chosen):
        boxes = draw(st.sets(st.sampled_from(sorted(cells)))) if g.bis and cells else set()
        before = sum(row.cells[p].weight for p in cells) + len(boxes)
        closes = before >= g.close_after and draw(st.booleans())
        closing.append(closes)
        rows.append((cells, boxes, before))
    framed = sum(
        row.cells[p].framed for row, (cells, _, _), closes in zip(g.rows, rows, closing)
        for p in cells | ({len(row.cells) - 1} if closes else set())
    )
    bar = draw(st.integers(0, min(framed, len(g.bonus_bar))))
    # each box gives a compulsory cross in its colour's row: that row is not empty
    empty = [not cells for cells, _, _ in rows]
    bar = next((i for i, colour in enumerate(g.bonus_bar[:bar]) if empty[g.row_of_colour(colour)]), bar)
    if not bar:  # a third lock needs a way to cross several cells in one action
        for index in [i for i, closes in enumerate(closing) if closes][2:]:
            closing[index] = False
    penalties = draw(st.integers(0, g.penalty_boxes))
    data, expected = {"rows": [], "penalties": penalties}, -g.penalty_points * penalties
    for row, (cells, boxes, before), closes in zip(g.rows, rows, closing):
        last = len(row.cells) - 1
        crossed = [row.cells[p].number for p in cells | ({last} if closes else set())]
        entry = {"crossed": draw(st.permutations(crossed))}
        if boxes:
            entry["bis"] = [row.cells[p].number for p in boxes]
        if closes and draw(st.booleans()):
            entry["lock"] = True
        data["rows"].append(entry)
        crosses = before + (row.cells[last].weight + 1 if closes else 0)  # last cell + lock
        expected += row_points(min(crosses, g.max_crosses))
    if bar:
        data["bonus_bar"] = list(range(1, bar + 1))
    return g, data, expected


@settings(max_examples=300, deadline=None)
@given(legal_sheets())
def test_any_legal_sheet_scores_its_rows_minus_penalties(sheet):
    g, data, expected = sheet
    result = score_sheet(g, marks_from_data(data, "any.yaml", g))
    assert result.powers == ()
    assert result.total == expected
    assert result.total == sum(points(result)) + result.penalty_points
    format_scores([result])  # presents any sheet
    json.dumps(scores_as_json([result]))


# -- ranking and presentation ------------------------------------------------------


def classic_68(where="lea.yaml", **extra):
    return score("classic", [2, 3, 4, 5, 6, 7], [2, 3, 4, 5], [12, 11, 10, 9, 8, 7, 2], [12, 11, 10],
                 penalties=1, where=where, **extra)


def test_rank_shares_places_between_equal_totals():
    lea, max_, tom = classic_68("lea.yaml"), score("classic", [2], [], [], [], where="max.yaml"), classic_68("tom.yaml")
    assert [(place, s.source) for place, s in rank([max_, lea, tom])] == [(1, "lea.yaml"), (1, "tom.yaml"), (3, "max.yaml")]


def test_format_one_sheet():
    assert format_scores([classic_68(player="Lea")]) == (
        "Lea (lea.yaml): Qwixx\n"
        "  red        6 crosses          21\n"
        "  yellow     4 crosses          10\n"
        "  green      8 crosses, locked  36\n"
        "  blue       3 crosses           6\n"
        "  penalties  1 crossed          -5\n"
        "  total                         68\n"
    )


def test_format_shows_caps_and_powers():
    sheet = score("powers", [6], [3], [5], [4], penalties=1)
    assert format_scores([sheet]) == (
        "lea.yaml: Qwixx Powers\n"
        "  red        1 cross              1\n"
        "  yellow     1 cross              1\n"
        "  green      1 cross              1\n"
        "  blue       1 cross              1\n"
        "  penalties  1 crossed           -5\n"
        "  octagon    +13 points         +13\n"
        "  star       penalties score 0   +5\n"
        "  total                          17\n"
    )  # 1 + 1 + 1 + 1 - 5 + 13 + 5
    capped = score("bis", {"crossed": list(range(2, 12)), "bis": list(range(2, 9))}, [], [], [])
    assert "17 crosses (16 count)" in format_scores([capped])


def test_format_several_sheets_ranks_them_and_shows_ties():
    sheets = [classic_68("lea.yaml", player="Lea"), score("classic", [2], [], [], [], where="max.yaml"),
              classic_68("tom.yaml", player="Tom")]
    text = format_scores(sheets)
    assert text.count("total") == 3
    assert text.endswith(
        "Ranking\n"
        "  1  Lea       68\n"
        "  1  Tom       68\n"
        "  3  max.yaml   1\n"
        "Winners (tie): Lea and Tom with 68\n"
    )
    assert format_scores(sheets[:2]).endswith("Winner: Lea with 68\n")


def test_scores_as_json():
    data = scores_as_json([score("powers", [6], [], [], [4], where="max.yaml"), classic_68(player="Lea")])
    assert json.loads(json.dumps(data)) == data  # plain data only
    assert data["ranking"] == [{"place": 1, "name": "Lea", "total": 68}, {"place": 2, "name": "max.yaml", "total": 15}]
    assert data["winners"] == ["Lea"]
    first = data["sheets"][0]
    assert first["rows"][0] == {"row": "red", "lock_colour": "red", "crosses": 1, "counted": 1, "locked": False, "points": 1}
    assert first["powers"] == [{"symbol": "octagon", "effect": "bonus_points", "text": "+13 points", "points": 13}]
    assert (first["penalties"], first["total"], first["place"]) == ({"crossed": 0, "points": 0}, 15, 2)


# -- the examples in docs/scoring.md are true ----------------------------------------

EXAMPLE = re.compile(r"```yaml\n(grid: .*?)```", re.S)


def test_docs_examples_score_what_they_say(tmp_path):
    examples = EXAMPLE.findall(DOCS.read_text(encoding="utf-8"))
    assert len(examples) >= 7
    for n, text in enumerate(examples):
        name = re.match(r"grid: (\S+)", text).group(1)
        stated = int(re.search(r"# total: (-?\d+)", text).group(1))
        path = tmp_path / f"example{n}.yaml"
        path.write_text(text, encoding="utf-8")
        assert score_sheet(named_grid(name), load_marks(path, named_grid(name))).total == stated, text
