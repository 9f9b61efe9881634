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
from sheetgen.grid.model import Colour
from sheetgen.sheet.plan import SIZES, plan_sheet
from sheetgen.sheet.style import load_labels, load_theme

from sheet_checks import plan_problems


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


def test_a_double_cell_in_the_longest_row_prints_wider_than_its_neighbours(english, colour_theme, measure):
    """Issue 21: a double cell's two frames leave its number less room; in a row of 19 cells it is made
    wider, the row's plain cells a little narrower (the row as long), one number size on the sheet."""
    data = a_grid(19)
    for row in data["rows"]:
        row["double"] = [10, 11]
    plan = lay_out(data, english, colour_theme, measure)
    for r in range(4):
        row = [cell for cell in plan.cells if cell.row == r]
        doubles = {round(cell.box.w, 6) for cell in row if cell.double}
        plains = {round(cell.box.w, 6) for cell in row if not cell.double}
        assert len(doubles) == len(plains) == 1 and min(doubles) > max(plains), r
        assert abs(row[-1].box.right - row[0].box.x - (19 * row[0].box.w + 18 * 0.8 + 2 * (min(doubles) - max(plains)))) \
            < 1e-6
    assert len({cell.text.size for cell in plan.cells}) == 1


def test_a_row_of_double_cells_too_narrow_is_refused_by_name(english, colour_theme, measure):
    """Where every cell of a row is double, none can be made wider: its two-digit numbers do not fit."""
    data = a_grid(19)
    data["rows"][0]["double"] = list(data["rows"][0]["cells"])
    message = refusal(data, english, colour_theme, measure)
    assert re.match(r"mine\.yaml: rows\[0\]\.cells\[8\]: the number 10 does not fit inside the frames of a double"
                    r" cell ", message), message
    assert message.endswith("(use fewer cells in the row)")


def test_a_double_cell_in_a_row_of_17_prints_in_every_size(measure):
    """Two-digit doubles in a row of 17 (the family's grid 209): in the last
    arrangement (6 pt numbers, compact frames) the second frame is 0.15 mm, not
    0.2, which leaves the number its 0.3 mm on either side in the large size too."""
    data = {"name": "doubles17", "title": "Doubles 17", "dice_faces": 9, "close_after": 5,
            "penalties": {"boxes": 5, "points": 10},
            "rows": [{"colour": "red", "cells": list(range(6, 15)), "double": [6, 10]},
                     {"colour": "yellow", "cells": list(range(18, 1, -1)), "double": [3, 15]}]}
    grid = grid_from_data(data, "mine.yaml")
    for size in SIZES.values():
        plan = plan_sheet(grid, load_labels("en"), load_theme("colour"), measure, size)
        doubles = [cell for cell in plan.cells if cell.double]
        assert len(doubles) == 4 and plan_problems(plan, measure) == [], size.name
        assert {round(cell.second_line / size.scale, 6) for cell in doubles} == {0.15}, size.name


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


def test_a_table_too_long_is_refused_for_the_table_not_for_the_rows_a_longer_table_squeezes(
        english, colour_theme, measure):
    """38 columns: on two lines they do not fit even each as narrow as its own
    entries, on three or four the rows lose the height they need.  The
    refusal is the two-line arrangement's, which came nearest (its rows fit):
    it names the table and the largest max_crosses that fits, and that fits."""
    data = a_grid(19, bis=True)
    message = refusal(data, english, colour_theme, measure)
    assert re.fullmatch(r"mine\.yaml: the scoring table does not fit on 2 lines: 38 columns \(1x to 38x\) need"
                        r" \d+\.\d mm, 2 lines of \d\d\.\d mm hold 36 of them \(a max_crosses of at most 36 would fit\)",
                        message), message
    assert len(lay_out({**data, "max_crosses": 36}, english, colour_theme, measure).table) == 36


def test_a_table_of_34_columns_takes_two_lines_of_columns_as_wide_as_their_entries(english, colour_theme, measure):
    """34 columns (four rows of 17 with Bis boxes, the family's grid 111) are
    too many for two lines of equal columns ('595' needs 4.97 mm, 17 a line
    get 4.76) and three lines leave the rows too low: each column is as wide
    as its own entries, the short ones on the first line, and every entry
    stays 0.3 mm from its column's rules."""
    plan = lay_out(a_grid(17, bis=True), english, colour_theme, measure)
    tops = sorted({column.box.y for column in plan.table})
    assert len(plan.table) == 34 and len(tops) == 2
    first = [column for column in plan.table if column.box.y == tops[0]]
    assert len(first) > 17 and first[0].box.w < first[-1].box.w
    for top in tops:
        line = [column.box for column in plan.table if column.box.y == top]
        assert all(abs(a.right - b.x) < 1e-9 for a, b in zip(line, line[1:]))
        assert abs(line[-1].right - plan.content.right) < 1e-9
    for column in plan.table:
        for text in (column.header, column.value):
            width = measure(text.text, text.bold, text.size, text.condensed)
            assert width <= column.box.w - 2 * (0.3 + 0.075) + 1e-9, (column.crosses, text.text)


def test_a_table_of_36_columns_prints_on_two_lines_in_italian_too(measure):
    """Italian labels ("Crocette") are the widest: 36 columns (four rows of 18
    with Bis boxes, the family's grid 171) fit two lines only with the compact
    clearances, the labels 0.4 mm from the table and every entry 0.3 mm from its
    rules' ink."""
    plan = plan_sheet(grid_from_data(a_grid(18, bis=True), "mine.yaml"), load_labels("it"), load_theme("colour"),
                      measure)
    assert len(plan.table) == 36 and len({column.box.y for column in plan.table}) == 2
    label = max(plan.table_labels, key=lambda text: measure(text.text, text.bold, text.size, text.condensed))
    assert label.text == "Crocette"
    gap = plan.table_box.x - label.x - measure(label.text, label.bold, label.size, label.condensed)
    assert gap >= 0.4 - 1e-9
    for column in plan.table:
        for text in (column.header, column.value):
            width = measure(text.text, text.bold, text.size, text.condensed)
            assert width <= column.box.w - 2 * (0.3 + 0.075) + 1e-9, (column.crosses, text.text)


def test_a_figure_that_fails_in_every_arrangement_is_the_one_named(english, colour_theme, measure):
    """A row of 19 double cells is too narrow for its numbers however the
    sheet is arranged: the refusal names its first cell, whatever the last
    arrangement tried failed on; with fewer cells, as it says, it prints."""
    data = a_grid(19)
    data["rows"][2]["double"] = list(data["rows"][2]["cells"])
    message = refusal(data, english, colour_theme, measure)
    assert re.fullmatch(r"mine\.yaml: rows\[2\]\.cells\[0\]: the number 20 does not fit inside the frames of a"
                        r" double cell \d\.\d mm wide: it needs \d\.\d\d mm at \d\.\d mm cap height, the frames leave"
                        r" \d\.\d\d mm \(use fewer cells in the row\)", message), message
    fewer = a_grid(16)
    fewer["rows"][2]["double"] = list(fewer["rows"][2]["cells"])
    assert lay_out(fewer, english, colour_theme, measure).cells


def test_a_title_too_wide_says_to_shorten_it(english, colour_theme, measure):
    message = refusal(a_grid(11, title="W" * 40), english, colour_theme, measure)
    assert message.startswith(f"mine.yaml: title: text '{'W' * 40}' does not fit its box: needs ")
    assert message.endswith(" (shorten the title)")


def test_rows_too_low_say_what_takes_the_height(english, colour_theme, measure):
    crowded = a_grid(11, bis=True, bonus_bar=["red"] * 24, penalties={"boxes": 8, "points": 5})
    for row in crowded["rows"]:
        row.update(double=row["cells"][1:3], framed=row["cells"][3:5])
    message = refusal(crowded, english, colour_theme, measure)
    # 4 lines: a wrapped legend entry keeps its lines together (none of them moves beside the penalties).
    assert re.fullmatch(r"mine\.yaml: rows: the rows do not fit: each of the 4 rows gets \d+\.\d mm of height,"
                        r" needs at least \d+\.\d mm; the bonus bar, 4 legend lines, the scoring table,"
                        r" the penalty boxes and the totals take \d+\.\d mm below them", message), message


def test_the_name_field_squeezed_by_title_and_lucky_numbers(english, colour_theme, measure):
    data = a_grid(11, title="Qwixx Grand Tournament", lucky={"count": 4, "from": 2, "to": 12})
    assert re.fullmatch(r"mine\.yaml: title: the title and 4 lucky numbers leave \d+\.\d mm for the name field,"
                        r" which needs 10 mm \(shorten the title or draw fewer lucky numbers\)",
                        refusal(data, english, colour_theme, measure))
    data["lucky"]["count"] = 2
    lay_out(data, english, colour_theme, measure)


def test_a_title_beside_three_lucky_numbers_takes_a_smaller_size_for_the_name_field(measure):
    """French words for lucky numbers are long: beside three of them, a title
    of 10 characters (the family's grid 150) leaves the name field 8.2 mm at
    its own size.  The title takes a smaller size, never under 6 pt, and the
    name field keeps its 10 mm."""
    data = {"name": "lucky3", "title": "Family 150", "dice_faces": 10, "close_after": 8,
            "penalties": {"boxes": 2, "points": 5}, "lucky": {"count": 3, "from": 2, "to": 20},
            "rows": [{"colour": "red", "cells": list(range(5, 17))}, {"colour": "yellow", "cells": list(range(18, 6, -1))}]}
    plan = plan_sheet(grid_from_data(data, "mine.yaml"), load_labels("fr"), load_theme("colour"), measure)
    assert 6 * 25.4 / 72 - 1e-9 <= plan.title.size < 3.6
    assert plan.name_line.w >= 10.0 - 1e-9 and len(plan.lucky_boxes) == 3


def test_a_header_strip_in_the_last_arrangement_takes_6_pt_to_leave_the_rows_their_height(measure):
    """Four rows with Bis boxes and a 20-column table (the family's grid 30, with two penalty boxes, not
    three, since rows keep 0.8 mm between them): with a header and serial strip, as `sheetgen check` lays
    grids out, the rows of the last arrangement (6 pt numbers, compact frames) were short in German;
    there the strip prints 6 pt in a band 0.46 mm lower."""
    data = {"name": "strip", "title": "Family 30", "dice_faces": 6, "close_after": 8, "bis": True,
            "penalties": {"boxes": 2, "points": 3},
            "rows": [{"colour": "red", "cells": [3, 4, 5, 6, 7]}, {"colour": "yellow", "cells": list(range(11, 1, -1))},
                     {"colour": "green", "cells": list(range(5, 12))}, {"colour": "blue", "cells": list(range(10, 4, -1))}]}
    plan = plan_sheet(grid_from_data(data, "mine.yaml"), load_labels("de"), load_theme("colour"), measure,
                      header=True, serial=True)
    assert abs(plan.strip_size - 6 * 25.4 / 72) < 1e-9 and plan_problems(plan, measure) == []
    assert plan.header_box is not None and abs(plan.header_box.h - (6 * 25.4 / 72 * 0.729 + 0.6)) < 1e-9


def rows_shortfall(message: str) -> float | None:
    """How much height each row lacks, by a refusal's message (None: refused for something else)."""
    found = re.search(r"rows gets (\d+\.\d) mm of height, needs at least (\d+\.\d) mm", message)
    return float(found.group(2)) - float(found.group(1)) if found else None


@pytest.mark.slow  # 10 s: a search over crowded grids
def test_the_rows_height_guard_refuses_rows_a_fraction_of_a_millimetre_too_low(english, colour_theme, measure):
    """The guard sits exactly at its boundary: among crowded grids (more cells
    make narrower cells, whose frames leave less height for the number), the
    tightest one refused lacks less than a millimetre (with and without double cells: their legend line
    and frames take a step of height)."""
    shortfalls = []
    for cells in range(8, 19):
        for bar in (0, 12, 24):
            for doubles in (True, False):
                data = a_grid(cells, bis=True, **({"bonus_bar": ["red"] * bar} if bar else {}))
                for row in data["rows"]:
                    row.update(double=row["cells"][1:3] if doubles else [], framed=row["cells"][3:5] if bar else [])
                try:
                    lay_out(data, english, colour_theme, measure)
                except LayoutError as error:
                    short = rows_shortfall(str(error))
                    if short is not None:
                        shortfalls.append((short, cells, bar))
    assert shortfalls, "no grid of the family is too crowded: crowd it more"
    assert min(shortfalls)[0] < 1.0, f"the tightest refusal lacks {min(shortfalls)} mm"


def test_the_colour_key_lists_every_colour_printed(english, measure):
    """With colour marks, the key (in the title band, or legend lines below the
    rows) explains every colour on the sheet: the rows' and a cell of another
    colour inside a row (blue here, in no row of its own), and the bar's."""
    data = a_grid(11, bonus_bar=["green", "red"])
    data["rows"] = data["rows"][:3]
    data["rows"][0]["cells"] = [2, 3, 4, {"number": 5, "colour": "blue"}, 6, 7, 8, 9, 10, 11, 12]
    data["rows"][0]["framed"] = [3]
    plan = plan_sheet(grid_from_data(data, "mine.yaml"), english, load_theme("mono"), measure)
    keyed = [entry.marker for entry in plan.key + plan.legend if isinstance(entry.marker, Colour)]
    assert keyed == [Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE]


def test_the_colour_key_leaves_the_title_band_before_the_name_field_gets_short(english, measure):
    """The key shares the title band only while the name field keeps 25 mm (at
    the standard size); a longer title sends it to the legend, whole."""
    mono, seen = load_theme("mono"), set()
    for length in range(1, 40):
        data = a_grid(11, title="Q" + "w" * length)
        try:
            plan = plan_sheet(grid_from_data(data, "mine.yaml"), english, mono, measure)
        except LayoutError:
            break  # the title itself no longer fits
        in_title = bool(plan.key)
        seen.add(in_title)
        if in_title:
            assert plan.name_line.w >= 25.0 * plan.size.scale - 1e-6, length
        else:
            assert [e.marker for e in plan.legend if isinstance(e.marker, Colour)] == list(Colour)[:4], length
    assert seen == {True, False}, "the titles never moved the key"
