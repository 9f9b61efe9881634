"""A valid grid that cannot be printed legibly is refused with a message that
names the grid file, the key at fault, what does not fit and what would; and
what the message says would fit does fit.

(The exact messages, through the command line, are in tests/corpus/.)
"""

from __future__ import annotations

import re

import pytest

from sheetgen.errors import LayoutError
from sheetgen.grid.load import grid_from_data
from sheetgen.sheet.plan import plan_sheet


def a_grid(cells: int, **extra) -> dict:
    """Four rows of ``cells`` cells, with dice big enough for them."""
    up = list(range(2, cells + 2))
    rows = [{"colour": c, "cells": up if i < 2 else up[::-1]} for i, c in enumerate(["red", "yellow", "green", "blue"])]
    return {"name": "limits", "title": "Limits", "dice_faces": 10, "close_after": 5,
            "penalties": {"boxes": 4, "points": 5}, "rows": rows, **extra}


def lay_out(data: dict, english, colour_theme, measure):
    return plan_sheet(grid_from_data(data, "mine.yaml"), english, colour_theme, measure)


def refusal(data: dict, english, colour_theme, measure) -> str:
    with pytest.raises(LayoutError) as caught:
        lay_out(data, english, colour_theme, measure)
    return str(caught.value)


def test_the_longest_row_the_format_allows_prints(english, colour_theme, measure):
    """19 cells, two-digit numbers: the plan finds an arrangement (6 pt numbers, compact frames)."""
    plan = lay_out(a_grid(19), english, colour_theme, measure)
    assert len([cell for cell in plan.cells if cell.row == 0]) == 19


def test_a_double_cell_in_the_longest_row_is_refused_by_name(english, colour_theme, measure):
    data = a_grid(19)
    for row in data["rows"]:
        row["double"] = [10, 11]
    message = refusal(data, english, colour_theme, measure)
    assert re.match(r"mine\.yaml: rows\[0\]\.cells\[\d+\]: the number 1\d does not fit inside the frames of a double"
                    r" cell ", message), message
    assert message.endswith("(use fewer cells in the row)")


def test_a_long_scoring_table_takes_more_lines(english, colour_theme, measure):
    """30 columns do not fit one line of a standard sheet: the table takes
    lines of equal columns, each column wide enough for its widest entry."""
    plan = lay_out(a_grid(15, bis=True), english, colour_theme, measure)
    tops = sorted({column.box.y for column in plan.table})
    assert len(plan.table) == 30 and len(tops) >= 2
    assert len(plan.table_labels) == 2 * len(tops)
    for column in plan.table:
        for text in (column.header, column.value):
            assert measure(text.text, text.bold, text.size, text.condensed) <= column.box.w - 0.6 + 1e-9
    assert lay_out(a_grid(11), english, colour_theme, measure).table[0].box.y == \
        lay_out(a_grid(11), english, colour_theme, measure).table[-1].box.y  # a short table keeps one line


def test_a_title_too_wide_says_to_shorten_it(english, colour_theme, measure):
    message = refusal(a_grid(11, title="W" * 40), english, colour_theme, measure)
    assert message.startswith(f"mine.yaml: title: text '{'W' * 40}' does not fit its box: needs ")
    assert message.endswith(" (shorten the title)")


def test_rows_too_low_say_what_takes_the_height(english, colour_theme, measure):
    crowded = a_grid(11, bis=True, bonus_bar=["red"] * 24, penalties={"boxes": 8, "points": 5})
    for row in crowded["rows"]:
        row.update(double=row["cells"][1:3], framed=row["cells"][3:5])
    message = refusal(crowded, english, colour_theme, measure)
    assert re.fullmatch(r"mine\.yaml: rows: the rows do not fit: each of the 4 rows gets \d+\.\d mm of height,"
                        r" needs at least \d+\.\d mm; the bonus bar, 3 legend lines, the scoring table,"
                        r" the penalty boxes and the totals take \d+\.\d mm below them", message), message


def test_the_name_field_squeezed_by_title_and_lucky_numbers(english, colour_theme, measure):
    data = a_grid(11, title="Qwixx Grand Tournament", lucky={"count": 4, "from": 2, "to": 12})
    assert re.fullmatch(r"mine\.yaml: title: the title and 4 lucky numbers leave \d+\.\d mm for the name field,"
                        r" which needs 10 mm \(shorten the title or draw fewer lucky numbers\)",
                        refusal(data, english, colour_theme, measure))
    data["lucky"]["count"] = 2
    lay_out(data, english, colour_theme, measure)
