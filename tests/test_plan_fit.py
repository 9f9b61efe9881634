"""The plan fits any grid the schema accepts: it chooses another arrangement
where the first does not fit, keeps the room for the machine marks, and
spaces cells and rows so that a pen stroke lands in one cell."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.pdf.render import measure_text
from sheetgen.scan.read import CODE_AREA
from sheetgen.sheet.plan import CELL_GAP, FIDUCIAL, MACHINE_CLEAR, SIZES, plan_sheet
from sheetgen.sheet.style import languages, load_labels, load_theme

from sheet_checks import near, plan_problems, planned_boxes

EIGHT = Path(__file__).parent / "grids" / "eight.yaml"


def plan(grid, size="standard", lang="en", theme="colour", **options):
    return plan_sheet(grid, load_labels(lang), load_theme(theme), measure_text, SIZES[size], **options)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", languages())
def test_the_eight_sided_grid_prints_in_every_size_and_language(size, lang):
    grid = load_grid(str(EIGHT))
    assert len(grid.table) == 18
    sheet = plan(grid, size, lang)
    assert [len([c for c in sheet.cells if c.row == r]) for r in range(3)] == [15, 15, 15]
    assert len(sheet.table) == 18


@pytest.mark.parametrize("name", builtin_names())
@pytest.mark.parametrize("size", SIZES)
def test_no_planned_box_comes_near_a_machine_mark(name, size):
    sheet = plan(load_grid(name), size, serial=True) if size == "standard" else plan(load_grid(name), size)
    machine = sheet.machine
    assert machine is not None
    marks = list(machine.fiducials) + ([machine.code] if machine.code else [])
    for mark in marks:
        assert sheet.content.contains(mark)
        for what, box in planned_boxes(sheet):
            assert not near(mark, box, MACHINE_CLEAR - 1e-6), (what, box, mark)


@pytest.mark.parametrize("name", builtin_names())
def test_every_built_in_grid_keeps_a_code_square_and_four_corner_fiducials(name):
    machine = plan(load_grid(name)).machine
    assert machine is not None and machine.code is not None
    assert machine.code.w >= 10.0 and machine.code.w == machine.code.h
    c = plan(load_grid(name)).content
    corners = [(c.x, c.y), (c.right, c.y), (c.right, c.bottom), (c.x, c.bottom)]
    for box, (x, y) in zip(machine.fiducials, corners):
        assert box.w == box.h == FIDUCIAL >= 3.5
        assert min(abs(box.x - x), abs(box.right - x)) < 1e-9 and min(abs(box.y - y), abs(box.bottom - y)) < 1e-9


# Every built-in sheet keeps its machine code's square, in every size and language, colour marks or not:
# where the totals line's labelled boxes ("Rangée 1" ... in French, "Reihe 1" ... in German, the powers'
# box) need more than the room left of the square, the line takes the sheet's width and the square goes
# above its right end, beside the penalty boxes and the scoring table.
ABOVE = {name: {("standard", "de"), ("standard", "fr"), ("large", "fr"), ("a6", "fr")}
         for name in ("blocks", "disorder", "rainbow")}
ABOVE["powers"] = {("standard", "de"), ("standard", "fr"), ("standard", "nl")}


@pytest.mark.parametrize("marks", [False, True], ids=["plain", "colour-marks"])
@pytest.mark.parametrize("name", builtin_names())
def test_every_built_in_sheet_has_its_code_above_the_totals_where_they_take_the_width(name, marks):
    theme = load_theme("colour", marks)
    above = set()
    for size in SIZES:
        for lang in languages():
            sheet = plan_sheet(load_grid(name), load_labels(lang), theme, measure_text, SIZES[size])
            code = sheet.machine.code
            assert code is not None, (size, lang)
            # in the window the reader looks in, left of and above the sheet's bottom-right corner
            assert code.x >= SIZES[size].width - CODE_AREA[0] and code.y >= SIZES[size].height - CODE_AREA[1]
            line = min(total.box.y for total in sheet.totals)
            if code.bottom <= line:
                above.add((size, lang))
                assert code.bottom == pytest.approx(line - MACHINE_CLEAR)
                assert max(total.box.right for total in sheet.totals) == pytest.approx(
                    sheet.content.right - FIDUCIAL - MACHINE_CLEAR)  # the line takes the width
            else:
                assert code.y == pytest.approx(sheet.content.bottom - code.h)  # beside the line, at the bottom
    assert above == ABOVE.get(name, set())


def _long_total(lang: str):
    """The words of ``lang`` with a grand total's label too long for the totals line beside the code."""
    words = load_labels(lang)
    return replace(words, words=tuple((key, "Grand total of points" if key == "total" else text)
                                      for key, text in words.words))


@pytest.mark.parametrize("case", ["blocks-standard-fr", "powers-standard-de", "rainbow-a6-fr", "classic-standard-long",
                                  "bonus-standard-long", "longo-large-long", "bis-standard-long"])
def test_the_bands_beside_a_code_above_the_totals_keep_clear_of_it(case):
    name, size, lang = case.split("-")
    words = _long_total("en") if lang == "long" else load_labels(lang)
    sheet = plan_sheet(load_grid(name), words, load_theme("colour"), measure_text, SIZES[size])
    code = sheet.machine.code
    assert code.bottom < min(total.box.y for total in sheet.totals)  # above the totals line
    beside = [(what, box) for what, box in planned_boxes(sheet) if box.bottom > code.y - MACHINE_CLEAR]
    assert beside and all(box.right <= code.x - MACHINE_CLEAR + 1e-9 or box.y >= code.bottom + MACHINE_CLEAR - 1e-9
                          for _, box in beside), [what for what, box in beside if box.right > code.x - MACHINE_CLEAR]
    assert sheet.table_box.right <= code.x - MACHINE_CLEAR + 1e-9  # the scoring table takes the width left of it
    assert all(cell.box.bottom <= code.y - MACHINE_CLEAR + 1e-9 for cell in sheet.cells)
    assert plan_problems(sheet, measure_text) == []


def test_the_marks_switched_off_leave_no_machine_plan():
    assert plan(load_grid("classic"), machine=False).machine is None


@pytest.mark.parametrize("grid", [load_grid(name) for name in builtin_names()] + [load_grid(str(EIGHT))],
                         ids=[*builtin_names(), "eight"])
def test_cells_stay_apart_and_rows_evenly_spaced(grid):
    sheet = plan(grid)
    for r in range(len(grid.rows)):
        row = [cell.box for cell in sheet.cells if cell.row == r]
        gaps = [b.x - a.right for a, b in zip(row, row[1:])]
        assert min(gaps) >= CELL_GAP - 1e-9 >= 0.8 - 1e-9
    tops = sorted({cell.box.y for cell in sheet.cells})
    pitches = [b - a for a, b in zip(tops, tops[1:])]
    assert max(pitches) - min(pitches) < 1e-6


def test_a_larger_sheet_is_never_tighter_than_the_standard():
    grid = load_grid(str(EIGHT))
    standard = min(cell.text.size for cell in plan(grid).cells)
    for size in ("large", "a6"):
        assert min(cell.text.size for cell in plan(grid, size).cells) >= standard * SIZES[size].scale - 1e-9


# -- the totals line -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", languages())
def test_powers_get_a_box_of_their_own_in_the_totals_line(lang):
    sheet = plan(load_grid("powers"), lang=lang)
    kinds = [total.kind for total in sheet.totals]
    assert kinds == ["row"] * 4 + ["powers", "penalties", "total"]
    powers = sheet.totals[4]
    assert powers.caption is not None and powers.caption.text == load_labels(lang)("powers_short")
    assert [op.text for op in sheet.operators] == ["+"] * 4 + ["\u2212", "="]
    assert "powers" not in [total.kind for total in plan(load_grid("classic"), lang=lang).totals]


@pytest.mark.parametrize("name", builtin_names())
def test_a_row_of_several_colours_totals_in_a_white_box_named_by_its_number(name):
    grid = load_grid(name)
    sheet = plan(grid)
    for total in sheet.totals:
        if total.kind != "row":
            continue
        several = len(grid.rows[total.row].colours) > 1
        assert (total.colour is None) == several
        assert (total.caption is not None and total.caption.text == f"Row {total.row + 1}") == several


@pytest.mark.parametrize("name", ["classic", "powers", "blocks", "bonus"])
@pytest.mark.parametrize("size", SIZES)
def test_a_labelled_total_box_leaves_5_mm_to_write_under_its_label(name, size):
    for total in plan(load_grid(name), size).totals:
        if total.caption is not None:
            assert total.box.bottom - total.caption.box.bottom >= 5.0 - 1e-9


# -- power symbols ----------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_power_symbols_are_2_mm_or_more(size):
    boxes = [cell.symbol_box for cell in plan(load_grid("powers"), size).cells if cell.symbol_box]
    assert boxes and min(box.w for box in boxes) >= 2.0


def test_the_octagon_is_the_one_solid_symbol():
    from sheetgen.grid.model import Symbol
    from sheetgen.pdf.geometry import Box
    from sheetgen.sheet.pictograms import symbol

    ink, paper = (0.1, 0.1, 0.1), (1.0, 1.0, 1.0)
    fills = {shape: {item.fill for item in symbol(Box(0, 0, 2, 2), shape, ink, 0.2, paper)} for shape in Symbol}
    assert [shape for shape, found in fills.items() if ink in found] == [Symbol.OCTAGON]


@pytest.mark.parametrize("name", builtin_names())
def test_colour_marks_print_by_default_where_a_row_has_several_colours(name):
    grid = load_grid(name)
    sheet = plan(grid)
    several = any(len(row.colours) > 1 for row in grid.rows)
    assert sheet.marks == several
    assert all((cell.mark_box is not None) == several for cell in sheet.cells)


# -- the rules every sheet keeps (tests/sheet_checks.py), over every built-in sheet --------------


LOOKS = (("colour", False), ("colour", True), ("ink-saver", False), ("ink-saver", True), ("mono", False))


@pytest.mark.parametrize("size, lang", [  # 1.5 to 3 s each: the quick tier plans the two longest languages' standard sheets
    (size, lang) if size == "standard" and lang in ("de", "fr") else pytest.param(size, lang, marks=pytest.mark.slow)
    for size in SIZES for lang in languages()])
def test_every_built_in_sheet_keeps_its_boxes_apart_and_its_numbers_centred(size, lang):
    """Every two boxes a pen crosses or writes in >= 0.8 mm apart (cells of adjacent rows, Bis boxes,
    locks, the bonus bar, penalties), every number inside its frames and centred in its cell: every
    built-in grid and the eight-sided one, in every look, with the machine marks and without."""
    found = []
    for grid in [load_grid(name) for name in builtin_names()] + [load_grid(str(EIGHT))]:
        for theme, marks in LOOKS:
            for machine in (True, False):
                sheet = plan_sheet(grid, load_labels(lang), load_theme(theme, marks), measure_text, SIZES[size],
                                   machine=machine)
                found += [f"{grid.name} {theme}{'+marks' * marks} machine={machine}: {problem}"
                          for problem in plan_problems(sheet, measure_text)]
    assert found == [], f"{len(found)} problems:\n" + "\n".join(found[:30])


# -- the tight arrangements: the last resort ------------------------------------------------


def _family(name):
    from grid_family import family

    return next(grid for data, grid in family(200) if data["name"] == name)


def test_a_sheet_only_the_tight_arrangements_print_has_their_table_rows_and_keeps_the_checks():
    from sheetgen.sheet.plan import TABLE_ROW_H, TIGHT_TABLE_ROW_H

    grid = _family("family-30")  # four rows of Bis boxes and a table of 20 columns
    loose = plan(grid, "large", "de")
    assert {round(column.box.h, 9) for column in loose.table} == {round(2 * TABLE_ROW_H * 1.4, 9)}
    tight = plan(grid, "large", "de", header=True, serial=True)  # with a strip in German, only a tight one fits
    assert {round(column.box.h, 9) for column in tight.table} == {round(2 * TIGHT_TABLE_ROW_H * 1.4, 9)}
    assert TIGHT_TABLE_ROW_H == pytest.approx(6 * 25.4 / 72 * 0.729 + 0.6 + 0.15)  # 6 pt capitals, 0.3 mm from the rules' ink
    assert plan_problems(tight, measure_text) == []
    assert {round(penalty.box.h, 9) for penalty in tight.penalties} == {round(3.6 * 1.4, 9)}  # 4.2 mm elsewhere
    assert {round(penalty.box.h, 9) for penalty in loose.penalties} == {round(4.2 * 1.4, 9)}
    # its last row's Bis boxes keep no 0.8 mm under them: the legend follows, not a pen box
    last = max(cell.bis_box.bottom for cell in tight.cells if cell.bis_box is not None)
    legend = min(entry.text.box.y for entry in tight.legend)
    assert legend - last < CELL_GAP


def test_the_tight_arrangements_keep_the_gap_under_the_last_row_where_the_bonus_bar_follows():
    from dataclasses import replace as change

    from sheetgen.sheet.plan import ARRANGEMENTS, _plan, _Sheet

    grid = load_grid("bonus")
    fit = next(fit for fit in ARRANGEMENTS if fit.tight and not fit.arrow and fit.table_lines == 1)
    sheet = _plan(_Sheet(grid, load_labels("en"), load_theme("colour"), measure_text, SIZES["standard"], fit, True,
                         True), False, False)
    last = max(cell.box.bottom for cell in sheet.cells)
    assert min(box.box.y for box in sheet.bar) - last >= CELL_GAP - 1e-9
    assert plan_problems(sheet, measure_text) == []
    assert change(fit, tight=False) in ARRANGEMENTS  # the same arrangement but tight comes before it
