"""Sheet geometry, checked as data: no PDF needed."""

from __future__ import annotations

import itertools

import pytest

from sheetgen.errors import LayoutError
from sheetgen.pdf.geometry import Box, Circle, Polygon, Rect, Text, bounds
from sheetgen.grid.load import grid_from_data, load_grid
from sheetgen.pdf.impose import EDGE, PAPERS, impose
from sheetgen.sheet.layout import CAP, MIN_NUMBER_CAP, MIN_STRETCH, MIN_TEXT, PAD, SheetData, layout_sheet, personalise


@pytest.fixture
def layout(grid, english, colour_theme, measure):
    return layout_sheet(grid, english, colour_theme, measure, header=True, serial=True)


def test_one_cell_geometry_per_model_cell_in_order(grid, layout):
    assert [len(row.cells) for row in grid.rows] == [
        len([c for c in layout.cells if c.row == r]) for r in range(len(grid.rows))
    ]
    for geometry in layout.cells:
        cell = grid.rows[geometry.row].cells[geometry.index]
        assert geometry.number.text == str(cell.number)
        assert geometry.box.contains(geometry.number.box)
    assert len(layout.locks) == len(grid.rows)


def test_cells_run_left_to_right_and_never_overlap(layout):
    boxes = [c.box for c in layout.cells] + [c.bis_box for c in layout.cells if c.bis_box] + list(layout.locks)
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)
    for row in {c.row for c in layout.cells}:
        xs = [c.box.x for c in sorted((c for c in layout.cells if c.row == row), key=lambda c: c.index)]
        assert xs == sorted(xs)


def test_every_item_inside_the_sheet_content(layout):
    content = layout.content
    for item in layout.items:
        assert content.contains(bounds(item)), item
    for box in (*layout.lucky_boxes, layout.header_box, layout.serial_box):
        if box is not None:
            assert content.contains(box)


def test_text_fits_its_box_and_is_big_enough(layout, measure):
    texts = [i for i in layout.items if isinstance(i, Text)]
    assert texts
    for text in texts:
        width = measure(text.text, text.bold, text.size) * text.stretch
        assert width <= text.box.w + 1e-6, f"{text.text!r} is {width:.2f} mm in {text.box.w:.2f} mm"
        assert text.size * CAP <= text.box.h + 1e-6, text
        assert text.stretch >= MIN_STRETCH - 1e-9
        if text.role == "number":
            assert text.size * CAP >= MIN_NUMBER_CAP - 1e-9, text
        else:
            assert text.size >= MIN_TEXT - 1e-9, text


def test_scoring_table_is_as_long_as_the_grid_allows(grid, layout):
    cells = [t.text for t in layout.items if isinstance(t, Text) and t.role == "table"]
    headers, points = cells[0::2], cells[1::2]
    assert headers == [f"{n}x" for n in range(1, grid.max_crosses + 1)]
    assert points == [str(n * (n + 1) // 2) for n in range(1, grid.max_crosses + 1)]


def test_special_markers_sit_on_the_cells_the_model_names(grid, layout):
    rects = [i for i in layout.items if isinstance(i, Rect)]
    for geometry in layout.cells:
        cell = grid.rows[geometry.row].cells[geometry.index]
        inside = [r for r in rects if geometry.box.contains(r.box) and r.box != geometry.box]
        doubled = any(r.fill is None and r.stroke is not None for r in inside)
        assert doubled == cell.double, (geometry.row, cell)
        framed = any(r.box == geometry.box and r.fill == (0.1, 0.1, 0.1) for r in rects)
        assert framed == cell.framed, (geometry.row, cell)
        last = geometry.index == len(grid.rows[geometry.row].cells) - 1
        assert (geometry.bis_box is not None) == (grid.bis and not last)
        if geometry.bis_box is not None:
            assert geometry.bis_box.y >= geometry.box.bottom
            assert geometry.box.x <= geometry.bis_box.cx <= geometry.box.right
    symbols = [i for i in layout.items if isinstance(i, (Circle, Polygon, Rect)) and _is_badge(i, layout)]
    expected = sum(1 for row in grid.rows for cell in row.cells if cell.symbol)
    assert len(symbols) == expected
    for badge in symbols:
        centre = bounds(badge)
        owner = [c for c in layout.cells if c.box.x <= centre.cx <= c.box.right and abs(centre.cy - c.box.y) < 1.5]
        assert len(owner) == 1 and grid.rows[owner[0].row].cells[owner[0].index].symbol is not None


def _is_badge(item, layout) -> bool:
    """A white shape straddling the top edge of a cell: a power symbol."""
    if getattr(item, "fill", None) != (1, 1, 1) or getattr(item, "stroke", None) is None:
        return False
    box = bounds(item)
    return any(c.box.x <= box.cx <= c.box.right and box.y < c.box.y < box.bottom for c in layout.cells)


def test_threshold_hint_only_where_it_is_not_five(grid, layout):
    hints = [t.text for t in layout.items if isinstance(t, Text) and t.role == "hint"]
    assert hints == ([f"{grid.close_after}x"] * len(grid.rows) if grid.close_after != 5 else [])


def test_personal_items_fill_their_boxes(english, colour_theme, measure):
    longo = load_grid("longo")
    layout = layout_sheet(longo, english, colour_theme, measure, header=True, serial=True)
    items = personalise(layout, SheetData((3, 14), 42, "Club de Lyon, 30.11.2026"), english, colour_theme, measure)
    by_role = {t.role: t for t in items if t.role != "lucky"}
    assert [t.text for t in items if t.role == "lucky"] == ["3", "14"]
    assert by_role["serial"].text == "No. 000042"
    assert by_role["header"].text == "Club de Lyon, 30.11.2026"
    for item in items:
        assert layout.content.contains(item.box)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_eight_slots_tile_the_page_inside_the_margins(paper):
    plan = impose(paper, 96.0, 66.0)
    width, height = PAPERS[paper]
    page = Box(EDGE, EDGE, width - 2 * EDGE, height - 2 * EDGE)
    assert len(plan.slots) == 8
    for slot in plan.slots:
        assert page.contains(slot)
    for a, b in itertools.combinations(plan.slots, 2):
        assert not a.overlaps(b)
    area = sum(s.w * s.h for s in plan.slots)
    block = Box(plan.slots[0].x, plan.slots[0].y, plan.slots[-1].right - plan.slots[0].x,
                plan.slots[-1].bottom - plan.slots[0].y)
    assert area == pytest.approx(block.w * block.h)  # no gaps: one cut serves two sheets
    for item in plan.items:
        assert page.contains(bounds(item)), item
    marks = [i for i in plan.items if not i.dash]
    assert len(marks) >= 4


def test_a_grid_too_wide_to_read_is_refused(english, colour_theme, measure):
    wide = {
        "name": "wide", "title": "Wide", "dice_faces": 10, "close_after": 5,
        "penalties": {"boxes": 4, "points": 5},
        "rows": [{"colour": c, "cells": list(range(2, 21)) if i < 2 else list(range(20, 1, -1))}
                 for i, c in enumerate(["red", "yellow", "green", "blue"])],
    }
    grid = grid_from_data(wide, "wide.yaml")
    with pytest.raises(LayoutError, match=r"19 cells do not fit in a row"):
        layout_sheet(grid, english, colour_theme, measure)


@pytest.mark.parametrize("special, kind", [("double", "double"), ("framed", "framed")])
def test_a_two_digit_special_cell_too_narrow_for_its_frames_is_named(special, kind, english, colour_theme, measure):
    rows = [{"colour": c, "cells": list(range(2, 17))} for c in ("red", "yellow")]
    rows[0][special] = [11]
    data = {"name": "narrow", "title": "Narrow", "dice_faces": 8, "close_after": 6,
            "penalties": {"boxes": 4, "points": 5}, "rows": rows}
    if special == "framed":
        data["bonus_bar"] = ["red"]
    with pytest.raises(LayoutError) as caught:
        layout_sheet(grid_from_data(data, "narrow.yaml"), english, colour_theme, measure)
    assert str(caught.value).startswith(
        f"narrow.yaml: rows[0].cells[9]: the number 11 does not fit inside the frames of a {kind} cell")
    rows[0][special] = [9]  # one digit fits in the same cell
    layout_sheet(grid_from_data(data, "narrow.yaml"), english, colour_theme, measure)
