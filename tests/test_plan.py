"""The sheet plan, checked as meaning: no PDF needed.

Every built-in grid in every look (theme, with or without colour marks),
every language and every sheet size, with the header and serial strip: each
text inside its box with its clearance, nothing overlapping what the plan
does not put on it, the lock of a row in its last cell's colour, the totals
boxes in row order and colour, arrows pointing the reading direction, the
penalty boxes showing the grid's penalty with a real minus, the operators
reading + + + − =, every size at least 6 pt (times the size's scale) and
every text at least 60 % black; at a larger size, every text at least its
standard size times the scale.  Then the drawing: the items draw what the
plan means (lock and totals colours, arrow tips, cell fills for a heat map).
Papers are checked in test_paper.py, with the imposition (slots and cut marks).
"""

from __future__ import annotations

import functools

import pytest

from sheetgen.errors import LayoutError
from sheetgen.grid.load import grid_from_data, load_grid
from sheetgen.grid.model import Colour, Effect, Symbol
from sheetgen.pdf.geometry import Box, Circle, Polygon, Rect, Text, bounds
from sheetgen.pdf.render import measure_text
from sheetgen.sheet.draw import draw_sheet, personalise
from sheetgen.sheet.plan import (
    BOX_LINE,
    CAP,
    CLEAR,
    DESCENT,
    LABEL_CLEAR,
    LEAST_NUMBER_CAP,
    MIN_NUMBER_CAP,
    MIN_STRETCH,
    PT,
    SIZES,
    STANDARD,
    TABLE_CLEAR,
    TABLE_RULE,
    TOTAL_LINE,
    SheetData,
    SheetPlan,
    SheetSize,
    inside_frame,
    plan_sheet,
)
from sheetgen.sheet.style import languages, load_labels, load_theme

from conftest import GRID_NAMES

LOOKS = {"colour": ("colour", False), "colour+marks": ("colour", True), "ink-saver": ("ink-saver", False),
         "ink-saver+marks": ("ink-saver", True), "mono": ("mono", False)}
LANGS = languages()
SIX_POINTS = 6 * PT  # mm
MINUS = "\u2212"
TOLERANCE = 1e-6


grid_named = functools.cache(load_grid)


@functools.cache
def plan_of(name: str, lang: str = "en", look: str = "colour", strips: bool = True,
            size: SheetSize = STANDARD) -> SheetPlan:
    return plan_sheet(grid_named(name), load_labels(lang), load_theme(*LOOKS[look]), measure_text, size,
                      header=strips, serial=strips)


MATRIX = [(name, lang, look, size) for name in GRID_NAMES for lang in LANGS for look in LOOKS for size in SIZES]
# The quick tier's third of the matrix: a diagonal, so that every grid, language, look and size (and
# nearly every pair of them) comes up; the slow tier checks the other two thirds.
SAMPLE = {case for case in MATRIX
          if (GRID_NAMES.index(case[0]) + LANGS.index(case[1]) + list(LOOKS).index(case[2])
              + list(SIZES).index(case[3])) % 3 == 0}


# Checks of words (texts fit, labels clear) run over every language; the word-free
# ones over every grid, look and size in English: a language changes no colour or order.
WORD_FREE = [case for case in MATRIX if case[1] == "en"]


def assert_each(cases: list[tuple[str, str, str, str]], check) -> None:
    """``check(case)`` on every case; every failing case is reported in one assertion (cases
    stay apart: one failing case does not hide the next)."""
    failures = []
    for case in cases:
        try:
            check(*case)
        except AssertionError as error:
            failures.append(f"{'-'.join(case)}: {str(error).splitlines()[0] if str(error) else 'failed'}")
    assert not failures, f"{len(failures)} of {len(cases)} cases fail:\n" + "\n".join(failures[:40])


def over(cases: list[tuple[str, str, str, str]]):
    """Make ``check(grid, plan, theme)`` two pytest items over ``cases``: the quick one over the
    cases in ``SAMPLE``, the slow one over the rest."""
    parts = {"sample": [c for c in cases if c in SAMPLE], "rest": [c for c in cases if c not in SAMPLE]}

    def make(check):
        @pytest.mark.parametrize("part", ["sample", pytest.param("rest", marks=pytest.mark.slow)])
        def test(part: str) -> None:
            assert_each(parts[part], lambda name, lang, look, size: check(
                grid_named(name), plan_of(name, lang, look, True, SIZES[size]), load_theme(*LOOKS[look])))

        test.__name__, test.__qualname__, test.__doc__ = check.__name__, check.__qualname__, check.__doc__
        return test  # (not functools.wraps: pytest would read the check's arguments as fixtures)

    return make


def extent(text: Text) -> tuple[float, float]:
    """Where the text's advance runs from and to, mm."""
    width = measure_text(text.text, text.bold, text.size, text.condensed) * text.stretch
    start = {"start": text.x, "middle": text.x - width / 2, "end": text.x - width}[text.anchor]
    return start, start + width


def grey(rgb) -> float:
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


# -- text ---------------------------------------------------------------------------


def assert_texts_fit(plan: SheetPlan, extra: tuple[Text, ...] = (), number_cap: float = LEAST_NUMBER_CAP) -> None:
    """Every text fits its box at 6 pt or more; cell numbers keep ``number_cap`` (standard mm)."""
    scale = plan.size.scale
    texts = list(plan.texts()) + list(extra)
    assert texts
    for text in texts:
        left, right = extent(text)
        assert text.box.x - TOLERANCE <= left and right <= text.box.right + TOLERANCE, text
        assert text.size * CAP <= text.box.h + TOLERANCE, text
        assert text.size >= SIX_POINTS * scale - TOLERANCE, text  # nothing printed below 6 pt
        assert text.stretch >= MIN_STRETCH - TOLERANCE, text
        assert plan.content.contains(text.box), text
        if text.role in ("number", "points", "lucky"):
            assert text.stretch == 1.0 and text.condensed, text  # numbers are never squeezed
        if text.role == "number":
            assert text.size * CAP >= number_cap * scale - TOLERANCE, text


# Numbers keep 2 mm capitals on every built-in grid in the looks printed most (colour and ink-saver
# without marks); a crowded grid may go down to 6 pt type where the marks' corner strip or mono's hatching
# takes the rows' height (bis: four rows of Bis boxes), as docs/limits.md says.
@over(MATRIX)
def test_every_text_fits_its_box_at_6_pt_or_more(grid, plan, theme):
    roomy = theme.name in ("colour", "ink-saver") and not plan.marks
    assert_texts_fit(plan, personalise(plan, SheetData((9, 13), 999999, "Club de Lyon, 30.11.2026"), theme,
                                       measure_text) if plan.lucky_boxes else (),
                     MIN_NUMBER_CAP if roomy else LEAST_NUMBER_CAP)


@over(MATRIX)
def test_every_text_is_at_least_60_percent_black(grid, plan, theme):
    for text in plan.texts():
        assert grey(text.colour) <= 0.40 + TOLERANCE, text


@over(MATRIX)
def test_numbers_keep_clear_of_their_frames_and_share_one_size(grid, plan, theme):
    clear = CLEAR * plan.size.scale
    for cell in plan.cells:
        # inside a double cell's second frame (where the arrangement puts it: compact ones put it closer in)
        inner = cell.second.inset(cell.second_line) if cell.second is not None else cell.pale
        assert (cell.second is not None) == cell.double
        left, right = extent(cell.text)
        assert left >= inner.x + clear - TOLERANCE and right <= inner.right - clear + TOLERANCE, cell
        assert cell.text.text == str(cell.number)
    assert len({cell.text.size for cell in plan.cells}) == 1


@pytest.mark.parametrize("name", ["bonus", "doubles"])
@pytest.mark.parametrize("look, least", [("colour", 0.83), ("ink-saver", 0.83), ("mono", 0.79)])
def test_special_cells_cost_the_sheets_numbers_little(name, look, least):
    """A framed or double cell keeps a thin colour band inside its own frames, so that its two-digit
    number needs little less room than a plain cell's: the sheet's one number size stays near classic's
    (with the colour band as wide as a plain cell's: 0.71 to 0.80 of it)."""
    def number_size(grid: str) -> float:
        return min(cell.text.size for cell in plan_of(grid, "en", look, False).cells)

    assert number_size(name) >= least * number_size("classic")


@over(MATRIX)
def test_values_keep_clear_of_the_boxes_they_are_written_in(grid, plan, theme):
    clear = CLEAR * plan.size.scale
    for box in plan.penalties:
        assert inside_frame(box.box, plan.size).contains(box.text.box)
    table_clear = TABLE_CLEAR * plan.size.scale  # a table's lines are not a frame to write in
    for column in plan.table:
        for text in (column.header, column.value):
            left, right = extent(text)
            assert left >= column.box.x + table_clear - TOLERANCE
            assert right <= column.box.right - table_clear + TOLERANCE
    for total in plan.totals:
        if total.caption is not None:
            assert total.box.inset(clear).contains(total.caption.box)
    boxes = [total.box for total in plan.totals]
    for operator, (before, after) in zip(plan.operators, zip(boxes, boxes[1:]), strict=True):
        left, right = extent(operator)
        assert left >= before.right + clear - TOLERANCE and right <= after.x - clear + TOLERANCE, operator


WRITE_H = 5.0  # mm free to write a total in, under a totals box's label (issue: "at least 5 mm")


@over(MATRIX)
def test_every_labelled_totals_box_leaves_5_mm_to_write_under_its_label(grid, plan, theme):
    """Below the label's descenders and above the frame's inner edge: the penalties, the total, powers, rows."""
    for total in plan.totals:
        if total.caption is not None:
            line = (TOTAL_LINE if total.kind == "total" else BOX_LINE) * plan.size.scale
            free = total.box.bottom - line - (total.caption.y + DESCENT * total.caption.size)
            assert free >= WRITE_H * plan.size.scale - TOLERANCE, (total.kind, round(free, 2))


DESCENDER_CLEAR = 0.4  # mm between the legend's descenders and the scoring table's top rule


@over(MATRIX)
def test_the_legends_descenders_keep_clear_of_the_scoring_table(grid, plan, theme):
    rule_top = plan.table_box.y - TABLE_RULE * plan.size.scale / 2
    above = [entry.text for entry in plan.legend if entry.text.box.bottom <= plan.table_box.y + TOLERANCE]
    for text in above:
        clear = rule_top - (text.y + DESCENT * text.size)
        assert clear >= DESCENDER_CLEAR * plan.size.scale - TOLERANCE, (text.text, round(clear, 2))


def test_the_descent_is_the_fonts():
    from reportlab.pdfbase import pdfmetrics

    from sheetgen.pdf.render import _font

    for bold, condensed in ((False, False), (True, True), (False, True)):
        assert -pdfmetrics.getFont(_font(bold, condensed)).face.descent / 1000 <= DESCENT + 1e-4


@over(MATRIX)
def test_labels_keep_clear_of_what_they_name(grid, plan, theme):
    gap = 2 * LABEL_CLEAR * plan.size.scale - TOLERANCE
    pairs = [(plan.name_label, plan.name_line.x), (plan.penalties_label, plan.penalties[0].box.x)]
    if plan.lucky_label is not None:
        pairs.append((plan.lucky_label, plan.lucky_boxes[0].x))
    if plan.bar_label is not None:
        pairs.append((plan.bar_label, plan.bar[0].box.x))
    for label, start in pairs:
        assert extent(label)[1] + gap <= start, label


# -- nothing overlaps ---------------------------------------------------------------


def top_level_boxes(plan: SheetPlan) -> list[tuple[str, Box]]:
    """Everything the plan places side by side (a cell's parts sit on the cell)."""
    boxes = [("title", plan.title.box), ("name", plan.name_label.box), ("name line", plan.name_line)]
    boxes += [(f"lucky {i}", box) for i, box in enumerate(plan.lucky_boxes)]
    for optional in ("lucky_label", "bar_label", "penalties_label"):
        text = getattr(plan, optional)
        if text is not None:
            boxes.append((optional, text.box))
    boxes += [(f"strip {i}", box) for i, box in enumerate((plan.header_box, plan.serial_box)) if box is not None]
    for cell in plan.cells:
        boxes.append((f"cell {cell.row},{cell.index}", cell.box))
        if cell.bis_box is not None:
            boxes.append((f"bis {cell.row},{cell.index}", cell.bis_box))
    boxes += [(f"arrow {a.row}", a.box) for a in plan.arrows]
    boxes += [(f"lock {lock.row}", lock.box) for lock in plan.locks]
    boxes += [(f"hint {lock.row}", lock.hint.box) for lock in plan.locks if lock.hint]
    for i, entry in enumerate(plan.key + plan.legend):
        boxes.append((f"legend {i} {entry.text.text!r}", entry.text.box))
        if entry.marker_box is not None:
            boxes.append((f"marker {i}", entry.marker_box))
    boxes += [(f"bar {b.index}", b.box) for b in plan.bar]
    boxes += [(f"table label {i}", t.box) for i, t in enumerate(plan.table_labels)]
    boxes.append(("table", plan.table_box))
    boxes += [(f"penalty {b.index}", b.box) for b in plan.penalties]
    boxes += [(f"total {t.kind} {t.row}", t.box) for t in plan.totals]
    boxes += [(f"operator {i}", t.box) for i, t in enumerate(plan.operators)]
    return boxes


def overlapping(boxes: list[tuple[str, Box]]) -> list[tuple[str, str]]:
    """Pairs of boxes that overlap, by a sweep from left to right."""
    found = []
    ordered = sorted(boxes, key=lambda named: named[1].x)
    for i, (name, box) in enumerate(ordered):
        for other_name, other in ordered[i + 1:]:
            if other.x >= box.right - TOLERANCE:
                break
            if box.overlaps(other):
                found.append((name, other_name))
    return found


def assert_nothing_overlaps(plan: SheetPlan) -> None:
    boxes = top_level_boxes(plan)
    for name, box in boxes:
        assert plan.content.contains(box), name
    assert overlapping(boxes) == []
    for cell in plan.cells:  # a cell's number, mark and symbol sit on its background, apart
        parts = [("number", cell.text.box)] + [(n, b) for n, b in (("mark", cell.mark_box),
                                                                  ("symbol", cell.symbol_box)) if b]
        for _, part in parts:
            assert cell.pale.contains(part), cell
        assert overlapping(parts) == [], cell


@over(MATRIX)
def test_nothing_overlaps_what_the_plan_does_not_put_on_it(grid, plan, theme):
    assert_nothing_overlaps(plan)


def test_the_overlap_check_sees_an_overlap():
    plan = plan_of("classic")
    boxes = top_level_boxes(plan) + [("stray", plan.cells[3].box.shifted(1.0, 0.0))]
    assert ("cell 0,3", "stray") in overlapping(boxes)


# -- meaning ------------------------------------------------------------------------


@over(WORD_FREE)
def test_one_cell_per_model_cell_in_reading_order(grid, plan, theme):
    assert [(c.row, c.index) for c in plan.cells] == [(r, i) for r, row in enumerate(grid.rows)
                                                       for i in range(len(row.cells))]
    for cell in plan.cells:
        model = grid.rows[cell.row].cells[cell.index]
        assert (cell.number, cell.colour, cell.double, cell.framed, cell.symbol) == (
            model.number, model.colour, model.double, model.framed, model.symbol)
        assert (cell.symbol_box is not None) == (model.symbol is not None)
        last = cell.index == len(grid.rows[cell.row].cells) - 1
        assert (cell.bis_box is not None) == (grid.bis and not last)
        if cell.bis_box is not None:  # under its own cell
            assert cell.bis_box.y >= cell.box.bottom and cell.box.x <= cell.bis_box.x <= cell.bis_box.right <= cell.box.right
    for row in {c.row for c in plan.cells}:
        xs = [c.box.x for c in plan.cells if c.row == row]
        assert xs == sorted(xs)


@over(WORD_FREE)
def test_the_lock_takes_its_rows_last_cell_colour(grid, plan, theme):
    assert [lock.colour for lock in plan.locks] == [row.cells[-1].colour for row in grid.rows]
    for lock in plan.locks:  # right of the last cell, on its line
        last = [c for c in plan.cells if c.row == lock.row][-1]
        assert lock.box.x >= last.box.right and last.box.y <= lock.box.cy <= last.box.bottom


@over(WORD_FREE)
def test_totals_boxes_follow_the_rows_in_order_and_colour(grid, plan, theme):
    rows = len(grid.rows)
    # The powers' points get a box after the rows' (issue 21: the line adds up).
    assert [t.kind for t in plan.totals] == ["row"] * rows + ["powers"] * bool(grid.powers) + ["penalties", "total"]
    assert [t.row for t in plan.totals[:rows]] == list(range(rows))
    # A row of several colours totals in a neutral box captioned by the row (issue 21: not a colour's box).
    assert [t.colour for t in plan.totals[:rows]] == [
        row.cells[-1].colour if len(row.colours) == 1 else None for row in grid.rows]
    assert all((t.caption is None) == (t.colour is not None) for t in plan.totals[:rows])
    xs = [t.box.x for t in plan.totals]
    assert xs == sorted(xs)


@over(WORD_FREE)
def test_the_operators_read_plus_plus_plus_minus_equals(grid, plan, theme):
    # The powers' points have their own box in the line (issue 21): one "+" more where the grid has powers.
    assert [o.text for o in plan.operators] == ["+"] * (len(grid.rows) - 1 + bool(grid.powers)) + [MINUS, "="]
    assert len({o.size for o in plan.operators}) == 1  # the minus the same size as + and =


@over(WORD_FREE)
def test_arrows_point_the_reading_direction(grid, plan, theme):
    assert [(a.row, a.direction) for a in plan.arrows] == [(r, "right") for r in range(len(grid.rows))]
    for arrow in plan.arrows:
        first = [c for c in plan.cells if c.row == arrow.row][0]
        assert arrow.box.right <= first.box.x and first.box.y <= arrow.box.cy <= first.box.bottom


@over(WORD_FREE)
def test_penalty_boxes_show_the_grids_penalty_with_a_real_minus(grid, plan, theme):
    assert [(b.index, b.points, b.text.text) for b in plan.penalties] == [
        (i, grid.penalty_points, f"{MINUS}{grid.penalty_points}") for i in range(grid.penalty_boxes)]


@over(WORD_FREE)
def test_the_scoring_table_is_as_long_as_the_grid_allows(grid, plan, theme):
    assert [c.header.text for c in plan.table] == [f"{n}x" for n in range(1, grid.max_crosses + 1)]
    triangular = [sum(range(1, n + 1)) for n in range(1, grid.max_crosses + 1)]
    assert [c.value.text for c in plan.table] == [str(n) for n in triangular]


def hints(plan: SheetPlan) -> list[str]:
    return [lock.hint.text for lock in plan.locks if lock.hint is not None]


@over(WORD_FREE)
def test_a_threshold_hint_by_every_lock_and_its_key_where_it_is_not_five(grid, plan, theme):
    expected = [f"{grid.close_after}x"] * len(grid.rows) if grid.close_after != 5 else []
    assert hints(plan) == expected
    assert [e.hint.text for e in plan.legend if e.hint] == expected[:1]


@pytest.mark.parametrize("close_after", [2, 3, 4, 5, 6, 9])
def test_the_threshold_hint_shows_below_five_too(close_after):
    data = {"name": "low", "title": "Low", "dice_faces": 6, "close_after": close_after,
            "penalties": {"boxes": 4, "points": 5},
            "rows": [{"colour": c, "cells": list(range(2, 13))} for c in ("red", "yellow", "green", "blue")]}
    plan = plan_sheet(grid_from_data(data, "low.yaml"), load_labels(), load_theme(), measure_text)
    assert hints(plan) == ([f"{close_after}x"] * 4 if close_after != 5 else [])
    key = [e.text.text for e in plan.legend if e.marker == "threshold"]
    assert key == ([f"at least {close_after} crosses in a row before its last number"] if close_after != 5 else [])


def legend_text(plan: SheetPlan) -> str:
    # A long entry wraps onto more lines instead of being narrowed (issue 21): the legend is read as one text.
    return " ".join(e.text.text for e in plan.key + plan.legend)


@pytest.mark.parametrize("lang", LANGS)
def test_the_sheet_explains_its_own_rules(grid, lang):
    plan, labels = plan_of(grid.name, lang), load_labels(lang)
    text = legend_text(plan)
    many_colours = any(len(row.colours) > 1 for row in grid.rows)
    assert (labels("legend_any_row") in text) == many_colours
    assert (labels("legend_lucky") in text) == (grid.lucky is not None)
    assert (labels("legend_double") in text) == grid.has_double
    assert (labels("legend_bis") in text) == grid.bis
    assert (labels("legend_bonus") in text) == bool(grid.bonus_bar)
    assert (labels("legend_powers_both") in text) == bool(grid.powers)


# Which powers act when (the rules): at once, the crosses; at the end, the points.
AT_ONCE = {Effect.EXTRA_CROSSES, Effect.CROSS_EACH_OPEN_ROW}
AT_END = {Effect.DOUBLE_LOWEST_ROW, Effect.BONUS_POINTS, Effect.NO_PENALTIES}


@pytest.mark.parametrize("lang", LANGS)
def test_the_powers_legend_says_both_cells_and_when_each_power_acts(lang):
    grid, labels = load_grid("powers"), load_labels(lang)
    plan = plan_of("powers", lang)
    assert labels("legend_powers_both") in legend_text(plan)
    heading = None
    timing = {}
    for entry in plan.legend:
        if entry.marker == "" and entry.text.text in (labels("power_at_once"), labels("power_at_end")):
            heading = entry.text.text
        elif isinstance(entry.marker, Symbol):
            timing[entry.marker] = heading
    effects = {p.symbol: p.effect for p in grid.powers}
    assert timing == {symbol: labels("power_at_once") if effect in AT_ONCE else labels("power_at_end")
                      for symbol, effect in effects.items()}
    assert AT_ONCE | AT_END == set(Effect)
    # the heading column: every power's marker starts at the same x on its line
    firsts = [entry.marker_box.x for entry, before in zip(plan.legend[1:], plan.legend)
              if isinstance(entry.marker, Symbol) and not isinstance(before.marker, Symbol)]
    assert len(firsts) >= 2 and len(set(round(x, 6) for x in firsts)) == 1


@over(WORD_FREE)
def test_symbols_sit_inside_their_own_cells_and_marks_in_the_other_corner(grid, plan, theme):
    for cell in plan.cells:
        if cell.symbol_box is not None:
            assert cell.pale.contains(cell.symbol_box)
            assert cell.symbol_box.cx > cell.box.cx  # top right
        # Marks are on by default where a row has cells of several colours (issue 21): the plan says.
        if plan.marks:
            assert cell.mark_box is not None and cell.pale.contains(cell.mark_box)
            if cell.symbol_box is not None and cell.mark_box.cy > cell.box.cy:
                # under the symbol, at the bottom right, where the cell is high enough: the number beside both
                assert cell.mark_box.cx > cell.box.cx and cell.mark_box.y >= cell.symbol_box.bottom, cell
                assert cell.mark_box.x >= cell.text.box.right - TOLERANCE, cell
            else:
                assert cell.mark_box.cx < cell.box.cx and cell.mark_box.cy < cell.box.cy  # top left
                # the number below it (and as far above the bottom: centred), or beside it
                assert (cell.mark_box.bottom <= cell.text.box.y + TOLERANCE
                        or cell.mark_box.right <= cell.text.box.x + TOLERANCE), cell
        else:
            assert cell.mark_box is None


@over(WORD_FREE)
def test_the_key_to_the_colour_marks_lists_the_colours_the_grid_uses(grid, plan, theme):
    used = {cell.colour for row in grid.rows for cell in row.cells} | set(grid.bonus_bar)
    key = [e.marker for e in plan.key + plan.legend if isinstance(e.marker, Colour)]
    # Marks (and so their key) are on by default where a row has cells of several colours (issue 21).
    assert plan.marks == (theme.marks or any(len(row.colours) > 1 for row in grid.rows))
    assert key == ([c for c in Colour if c in used] if plan.marks else [])


def test_lucky_boxes_fit_the_widest_lucky_number():
    grid = load_grid("longo")
    plan = plan_of("longo")
    assert len(plan.lucky_boxes) == grid.lucky.count
    for number in range(grid.lucky.low, grid.lucky.high + 1):
        (text, _) = personalise(plan, SheetData((number, 2)), load_theme(), measure_text)
        assert inside_frame(plan.lucky_boxes[0], plan.size).contains(text.box)
        left, right = extent(text)
        assert text.box.x - TOLERANCE <= left and right <= text.box.right + TOLERANCE, number


def test_personal_items_fill_their_boxes():
    plan = plan_of("longo")
    items = personalise(plan, SheetData((3, 14), 42, "Club de Lyon, 30.11.2026"), load_theme(), measure_text)
    by_role = {t.role: t for t in items if t.role != "lucky"}
    assert [t.text for t in items if t.role == "lucky"] == ["3", "14"]
    assert by_role["serial"].text == "No. 000042"
    assert by_role["serial"].anchor == "end" and by_role["serial"].x == pytest.approx(plan.serial_box.right)
    assert by_role["header"].text == "Club de Lyon, 30.11.2026"
    for item in items:
        assert plan.content.contains(item.box)


# -- other sizes ------------------------------------------------------------------------


LARGER = [case for case in MATRIX if case[3] != STANDARD.name]
PROMISED = {"large": 1.4, "a6": 1.45}  # how much larger everything prints, as docs/sizes.md says


@pytest.mark.parametrize("part", ["sample", pytest.param("rest", marks=pytest.mark.slow)])
def test_at_a_larger_size_every_text_is_larger_by_the_scale(part):
    assert_each([case for case in LARGER if (case in SAMPLE) == (part == "sample")], larger_by_the_scale)


def larger_by_the_scale(name: str, lang: str, look: str, size: str) -> None:
    standard, plan = plan_of(name, lang, look), plan_of(name, lang, look, True, SIZES[size])
    assert (plan.width, plan.height) == (SIZES[size].width, SIZES[size].height)

    def in_order(p: SheetPlan) -> list[Text]:  # the same texts of both plans side by side
        return sorted(p.texts(), key=lambda t: (t.role, t.text, round(t.y / p.height, 2), round(t.x / p.width, 2)))

    pairs = list(zip(in_order(standard), in_order(plan), strict=True))
    assert [a.text for a, _ in pairs] == [b.text for _, b in pairs]
    for small, large in pairs:
        assert large.size >= small.size * PROMISED[size] - TOLERANCE, (small, large)


# -- the drawing ------------------------------------------------------------------------


@functools.cache
def drawing(name: str, look: str = "colour", size: str = STANDARD.name):
    plan = plan_of(name, "en", look, True, SIZES[size])
    return plan, draw_sheet(plan, load_theme(*LOOKS[look])).items


def items_in(items, box: Box) -> list:
    return [item for item in items if not isinstance(item, Text) and box.contains(bounds(item), 0.05)]


@pytest.mark.parametrize("size", PROMISED)
@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("name", GRID_NAMES)
def test_at_a_larger_size_every_line_is_heavier_by_the_scale(name, look, size):
    (_, small), (_, large) = drawing(name, look), drawing(name, look, size)
    assert [type(item) for item in small] == [type(item) for item in large]
    for a, b in zip(small, large):
        # (a hatched background's hairline lies under its outline: the hatching is a texture, as dense at any size)
        if not isinstance(a, Text) and a.stroke is not None and not (isinstance(a, Rect) and a.hatch):
            assert b.line >= a.line * PROMISED[size] - TOLERANCE, (a, b)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("name", GRID_NAMES)
def test_every_drawn_item_stays_inside_the_sheet_content(name, look, size):
    plan, items = drawing(name, look, size)
    for item in items:
        assert plan.content.contains(bounds(item)), item


@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("name", GRID_NAMES)
def test_locks_and_totals_are_drawn_in_the_colours_the_plan_gives(name, look):
    plan, items = drawing(name, look)
    theme = load_theme(*LOOKS[look])
    for lock in plan.locks:
        disc, *rest = items_in(items, lock.box)
        tint = theme.tint(lock.colour)
        if theme.outlined:  # the colour's background, hatched as its cells are, in a ring of its strong colour
            assert isinstance(disc, Rect) and disc.radius == pytest.approx(disc.box.w / 2)
            assert (disc.fill, disc.hatch) == (tint.pale, tint.hatch)
            assert any(i.stroke == tint.strong for i in [disc] + rest if isinstance(i, Rect) and i.box == disc.box)
        else:
            assert isinstance(disc, Circle) and disc.fill == tint.strong
    for total in plan.totals[:-2]:
        if total.colour is None:
            continue  # a neutral box (a row of several colours, the powers): drawn as a box to write in
        drawn = items_in(items, total.box)
        tint = theme.tint(total.colour)
        # White to write in where cells are outlined (a mono grey or hatching is not), else the pale tint.
        assert drawn[0].fill == ((1.0, 1.0, 1.0) if theme.outlined else tint.pale)
        assert any(isinstance(i, Rect) and i.stroke == tint.strong and i.line == theme.outline for i in drawn)


def test_in_mono_every_colour_has_its_own_lock_disc_and_a_light_background():
    theme = load_theme("mono")
    plan, items = drawing("classic", "mono")
    discs = set()
    for lock in plan.locks:
        disc = items_in(items, lock.box)[0]
        discs.add((disc.fill, disc.hatch))
    assert len(discs) == 4  # the discs differ by more than their keyhole
    for colour in Colour:
        tint = theme.tint(colour)
        # Horizontal lines 0.15 mm wide, ``hatch`` mm apart, over the background.
        lines = (grey(tint.pale) - grey(tint.hatch_ink)) * 0.15 / tint.hatch if tint.hatch else 0.0
        # A pencil cross shows on it: a quarter grey at most, and the few lines that tell
        # a lined colour from a plain one of the same grey.
        assert 1 - grey(tint.pale) + lines <= 0.27, colour


@pytest.mark.parametrize("name", GRID_NAMES)
def test_arrows_are_drawn_pointing_right(name):
    plan, items = drawing(name)
    for arrow in plan.arrows:
        (shape,) = [i for i in items_in(items, arrow.box) if isinstance(i, Polygon)]
        tip = max(shape.points)
        assert tip[0] == pytest.approx(arrow.box.right)
        assert sum(1 for p in shape.points if p[0] == pytest.approx(tip[0])) == 1  # one point: the tip


def test_cell_fills_replace_the_background_of_the_cells_named():
    plan = plan_of("classic")
    theme = load_theme()
    heat = {(0, 0): (1.0, 0.0, 0.0), (3, 10): (0.0, 0.0, 1.0)}
    plain = draw_sheet(plan, theme).items
    filled = draw_sheet(plan, theme, cell_fills=heat).items
    assert len(plain) == len(filled)
    changed = [(a, b) for a, b in zip(plain, filled) if a != b]
    assert len(changed) == 2
    for cell in plan.cells:
        backgrounds = [i for i in items_in(filled, cell.pale) if isinstance(i, Rect) and i.box == cell.pale]
        assert [b.fill for b in backgrounds] == [heat.get((cell.row, cell.index), theme.tint(cell.colour).pale)]


def test_framed_and_double_cells_look_different_in_every_theme():
    for look in LOOKS:
        plan, items = drawing("bonus", look)
        framed = next(c for c in plan.cells if c.framed)
        # one heavy line (0.6 mm, 0.5 in a compact arrangement), not two thin ones
        heavy = [i for i in items_in(items, framed.box) if isinstance(i, Rect) and i.fill is None and i.line >= 0.5]
        assert len(heavy) == 1, look
        plan, items = drawing("doubles", look)
        double = next(c for c in plan.cells if c.double)
        inner = [i for i in items_in(items, double.pale) if isinstance(i, Rect) and i.fill is None]
        assert len(inner) == 1 and inner[0].line < 0.5, look


# -- errors say where ---------------------------------------------------------------------


def test_the_whole_message_chain_of_a_layout_error():
    # 19 cells a row (15 print now, issue 21: the plan finds them room), a two-digit double among them.
    rows = [{"colour": c, "cells": list(range(2, 21))} for c in ("red", "yellow")]
    rows[0]["double"] = list(range(2, 21))  # every cell: none can be made wider than the others
    data = {"name": "narrow", "title": "Narrow", "dice_faces": 10, "close_after": 6,
            "penalties": {"boxes": 4, "points": 5}, "rows": rows}
    with pytest.raises(LayoutError) as caught:
        plan_sheet(grid_from_data(data, "narrow.yaml"), load_labels(), load_theme(), measure_text)
    error = caught.value
    assert (error.where, error.path) == ("narrow.yaml", "rows[0].cells[8]")
    assert str(error) == f"narrow.yaml: rows[0].cells[8]: {error.message}"
    assert error.message.startswith("the number 10 does not fit inside the frames of a double cell ")
    assert error.message.endswith(" (use fewer cells in the row)")


def test_within_adds_only_what_an_error_does_not_say_yet():
    inner = LayoutError("too wide", "rows[0]").within("rows", "a.yaml").within("title", "b.yaml")
    assert (inner.message, inner.path, inner.where) == ("too wide", "rows[0]", "a.yaml")
    assert str(LayoutError("too wide").within("", "a.yaml")) == "a.yaml: too wide"


@pytest.mark.parametrize("special, kind", [("double", "double"), ("framed", "framed")])
def test_a_two_digit_special_cell_of_a_long_row_is_made_wider(special, kind, english, colour_theme, measure):
    # 19 cells a row, a two-digit special cell among them: refused before issue 21 (its frames left its number
    # too little room), now wider than the row's plain cells, which are a little narrower; one number size.
    rows = [{"colour": c, "cells": list(range(2, 21))} for c in ("red", "yellow")]
    rows[0][special] = [11]
    data = {"name": "narrow", "title": "Narrow", "dice_faces": 10, "close_after": 6,
            "penalties": {"boxes": 4, "points": 5}, "rows": rows}
    if special == "framed":
        data["bonus_bar"] = ["red"]
    plan = plan_sheet(grid_from_data(data, "narrow.yaml"), english, colour_theme, measure)
    first = [cell for cell in plan.cells if cell.row == 0]
    second = [cell for cell in plan.cells if cell.row == 1]
    assert first[9].box.w > first[8].box.w == first[10].box.w
    assert first[8].box.w < second[8].box.w  # the other cells of its row give it the room
    assert abs(first[-1].box.right - second[-1].box.right) < 1e-9  # the row as long
    assert len({cell.text.size for cell in plan.cells}) == 1
    rows[0][special] = list(range(2, 21))  # every cell special: none can be wider, the first two-digit one is named
    with pytest.raises(LayoutError) as caught:
        plan_sheet(grid_from_data(data, "narrow.yaml"), english, colour_theme, measure)
    assert str(caught.value).startswith(
        f"narrow.yaml: rows[0].cells[8]: the number 10 does not fit inside the frames of a {kind} cell")


def test_the_widest_grid_the_schema_allows_prints(english, colour_theme, measure):
    wide = {
        "name": "wide", "title": "Wide", "dice_faces": 10, "close_after": 5,
        "penalties": {"boxes": 4, "points": 5},
        "rows": [{"colour": c, "cells": list(range(2, 21)) if i < 2 else list(range(20, 1, -1))}
                 for i, c in enumerate(["red", "yellow", "green", "blue"])],
    }
    # Refused before issue 21; 19 cells a row (ten-sided dice) is what the schema allows, and a person can print it.
    plan = plan_sheet(grid_from_data(wide, "wide.yaml"), english, colour_theme, measure)
    assert len(plan.cells) == 4 * 19
