"""Quick counts ("Lea: 6 4 8L 3 p1"): read, checked and scored like the sheet
they count; worked examples by hand, every refusal word for word, and the
counts of random legal games scoring as their marks files do."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen.errors import InputError
from sheetgen.grid.load import builtin_names, grid_from_data, load_grid
from sheetgen.play.counts import COUNT_REASONS, is_counts, score_counts
from sheetgen.play.scoring import ScoreError

from legal_games import crosses, expected_total, play


@functools.cache
def grid(name: str):
    return load_grid(name)


@pytest.mark.parametrize("name, counts, rows, total", [
    ("classic", "Lea: 6 4 8L 3 p1", [21, 10, 36, 6], 68),  # 21 + 10 + 36 + 6 - 5
    ("classic", "Tom: 4 3 7 8L p2", [10, 6, 28, 36], 70),  # 10 + 6 + 28 + 36 - 10
    ("classic", "lea :6 4 8l 3 P1", [21, 10, 36, 6], 68),  # any case, spaces around the colon
    ("classic", "Lea: p1 6 4 8L 3", [21, 10, 36, 6], 68),  # penalties anywhere
    ("classic", "Lea: 0 0 0 0", [0, 0, 0, 0], 0),
    ("longo", "Max: 8L 4 2 0 p2", [36, 10, 3, 0], 39),  # 8 = 6 before 16, 16, lock: 36 + 10 + 3 - 10
    ("doubles", "Ann: 9L 8 4 0", [45, 36, 10, 0], 91),  # 9L: 7 before 12 (doubles count 2)
    ("doubles", "Ann: 0 0 16L 0", [0, 0, 136, 0], 136),  # the fullest row: 11 + 4 doubles + lock
    ("bis", "Bo: 9L 17 1 0 p1", [45, 136, 1, 0], 177),  # 17 crosses, 16 count: 45 + 136 + 1 - 5
    ("bis", "Bo: 22L 0 0 0", [136, 0, 0, 0], 136),  # 11 cells + 10 boxes + lock, 16 count
    ("bonus", "Cy: 3 3 3 1", [6, 6, 6, 1], 19),  # the bar scores nothing
    ("mixed", "Di: 7L 1 0 7L", [28, 1, 0, 28], 57),
])
def test_counts_score_like_their_sheet(name, counts, rows, total):
    result = score_counts(grid(name), counts)
    assert [row.points for row in result.rows] == rows
    assert result.total == total
    assert (result.source, result.player) == (None, counts.partition(":")[0].strip())


def test_a_locked_count_is_a_locked_row():
    result = score_counts(grid("rainbow"), "Ed: 7L 0 0 7L")
    assert [(row.crosses, row.locked, row.lock_colour.value) for row in result.rows] == [
        (7, True, "red"), (0, False, "yellow"), (0, False, "green"), (7, True, "blue")]


ALL_DOUBLE = grid_from_data({
    "name": "all-double", "title": "All double", "dice_faces": 6, "close_after": 5,
    "penalties": {"boxes": 4, "points": 5},
    "rows": [{"colour": "red", "cells": list(range(2, 13)), "double": list(range(2, 12))},
             {"colour": "blue", "cells": list(range(12, 1, -1))}],
}, "all-double.yaml")

REFUSED = [
    ("classic", "Lea: 6 4 13 3", "rows[2]", "capacity",
     "13: a row not locked holds at most 10 crosses (in the cells before its last); a locked row is written with L,"
     " up to 12L"),
    ("classic", "Lea: 6 4 13L 3", "rows[2]", "capacity",
     "13L: this row holds at most 12 crosses when locked (its cells and the lock)"),
    ("bis", "Bo: 23L 0 0 0", "rows[0]", "capacity",
     "23L: this row holds at most 22 crosses when locked (its cells, their small boxes and the lock)"),
    ("classic", "Lea: 6 4 6L 3", "rows[2]", "threshold",
     "6L means 4 crosses before the last cell (the count includes the last cell and the lock), but the last cell"
     " needs at least 5"),
    ("doubles", "Ann: 8L 0 0 0", "rows[0]", "threshold",
     "8L means 6 crosses before the last cell (the count includes the last cell and the lock), but the last cell"
     " needs at least 7"),
    ("all-double", "Al: 7 0", "rows[0]", "capacity",
     "7: no choice of this row's cells gives 7 crosses before its last cell"),
    ("classic", "Lea: 7L 7L 7L 0", "rows", "too-many-locks",
     "3 rows locked, but this sheet can hold at most 2 (before the game's last action at most one row is closed,"
     " and on this sheet one action closes at most 1 row)"),
    ("classic", "Lea: 7L 7L 0 0 p4", "penalties", "penalty-after-game-end",
     "all 4 penalty boxes crossed with 2 rows locked: the last box and the second lock each end the game at once,"
     " and they cannot come in one turn (a penalised player crossed nothing in it)"),
    ("classic", "Lea: 0 0 0 0 p5", "penalties", "too-many-penalties",
     "5 crossed but the sheet has only 4 penalty boxes"),
]
CANNOT_COUNT = ("powers", "Ann: 3 3 2 1", "", "counts-not-enough",
                "counts cannot score grid 'powers': which of its powers are unlocked depends on which cells are crossed"
                " (score a marks file instead, see 'sheetgen help scoring')")


@pytest.mark.parametrize("name, counts, path, reason, message", REFUSED + [CANNOT_COUNT])
def test_counts_no_game_can_leave_are_refused(name, counts, path, reason, message):
    with pytest.raises(ScoreError) as error:
        score_counts(ALL_DOUBLE if name == "all-double" else grid(name), counts)
    assert str(error.value) == ": ".join(part for part in (f'"{counts}"', path, message) if part)
    assert error.value.reason == reason


def test_every_reason_of_counts_is_met():
    assert {reason for *_, reason, _ in REFUSED + [CANNOT_COUNT]} >= set(COUNT_REASONS)


@pytest.mark.parametrize("name, counts, message", [
    ("classic", "Lea: 1 2 3", "rows: expected 4 counts (one per row of grid 'classic'), got 3"),
    ("classic", "Lea: 1 2 x 3",
     "cannot read 'x' (expected crosses per row such as 6, 8L for a locked row, and p1 for one penalty)"),
    ("classic", "Lea: 1 2 3 4 p1 p2", "penalties: penalties given twice ('p1' and 'p2')"),
    ("classic", ": 1 2 3 4", "expected a player's name of 1 to 40 printable characters before ':'"),
    ("classic", "x" * 41 + ": 1 2 3 4", "expected a player's name of 1 to 40 printable characters before ':'"),
])
def test_counts_that_cannot_be_read(name, counts, message):
    with pytest.raises(InputError) as error:
        score_counts(grid(name), counts)
    assert str(error.value) == f'"{counts}": {message}'
    assert not isinstance(error.value, ScoreError)


def test_what_the_terminal_would_not_print_is_escaped():
    with pytest.raises(InputError) as error:
        score_counts(grid("classic"), "Le\x1b[2Ja\u202e: 1 2 3 4")
    assert str(error.value) == (
        "\"Le\\x1b[2Ja\\u202e: 1 2 3 4\": expected a player's name of 1 to 40 printable characters before ':'")


@pytest.mark.parametrize("argument, counts", [
    ("Lea: 6 4 8L 3 p1", True),
    ("Lea:6", True),
    ("lea.yaml", False),
    ("Lea: final.yaml", False),  # a marks file by its ending
    ("Lea: FINAL.JSON", False),
    ("./Lea: 6 4", False),  # a folder in it: a file
    ("marks/lea", False),
    ("-", False),  # standard input
    ("lea", False),  # no colon: a file without an extension
])
def test_an_argument_is_counts_or_a_file(argument, counts):
    assert is_counts(argument) is counts


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([n for n in builtin_names() if not load_grid(n).powers]), st.integers(0, 2**32))
def test_the_counts_of_any_legal_sheet_score_as_it_was_played(name, seed):
    sheet = play(grid(name), seed)
    counts = " ".join(f"{crosses(sheet, r)}{'L' if sheet.locked[r] else ''}" for r in range(len(grid(name).rows)))
    assert score_counts(grid(name), f"Pat: {counts} p{sheet.penalties}").total == expected_total(sheet)
