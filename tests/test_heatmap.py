"""Heat maps: the colour scale, each cell's colour, and the page around the sheet."""

from __future__ import annotations

import pytest

from sheetgen.grid.load import load_grid
from sheetgen.grid.model import Colour
from sheetgen.pdf.geometry import Box, Rect, Text, bounds
from sheetgen.pdf.impose import EDGE
from sheetgen.pdf.render import measure_text
from sheetgen.play.heatmap import HEAT_STOPS, heat_colour, heat_fills, heatmap_page
from sheetgen.play.simulate import Report, Setup, empty_tally
from sheetgen.sheet.style import load_theme

from conftest import GRID_NAMES


def luminance(rgb) -> float:
    """Relative luminance (WCAG 2): sRGB channels linearised, weighted."""
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_scale_runs_from_white_to_its_last_stop_and_clamps():
    assert heat_colour(0.0) == (1.0, 1.0, 1.0) == heat_colour(-0.5)
    assert heat_colour(1.0) == HEAT_STOPS[-1][1] == heat_colour(3.0)
    middle = heat_colour(0.375)  # half way between the stops at 1/4 and 1/2
    assert middle == pytest.approx(tuple((a + b) / 2 for a, b in zip(HEAT_STOPS[1][1], HEAT_STOPS[2][1])))
    assert [share for share, _ in HEAT_STOPS] == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_the_scale_darkens_steadily_so_it_reads_in_grey():
    levels = [luminance(heat_colour(k / 50)) for k in range(51)]
    assert all(later < earlier for earlier, later in zip(levels, levels[1:]))
    assert levels[0] - levels[-1] > 0.4  # enough range to tell 10% from 90%


def test_every_cell_number_keeps_a_large_text_contrast_on_the_darkest_heat():
    theme = load_theme("colour")
    darkest = heat_colour(1.0)
    for colour in Colour:
        assert contrast(theme.tint(colour).ink, darkest) >= 3.0, colour


def _report(grid_name: str, shares_of_row_0: list[float]) -> Report:
    setup = Setup(load_grid(grid_name), games=100, players=4)
    tally = empty_tally(setup)
    tally.games = 100
    tally.cells[0] = [round(share * 400) for share in shares_of_row_0]
    return Report(setup, tally)


def test_each_cell_gets_the_colour_of_its_share_of_sheets():
    shares = [k / 10 for k in range(11)]
    fills = heat_fills(_report("classic", shares))
    assert len(fills) == 44  # every cell of every row
    assert [fills[(0, i)] for i in range(11)] == [heat_colour(share) for share in shares]
    assert fills[(3, 0)] == heat_colour(0.0)


@pytest.mark.parametrize("name", ["classic", "longo", "disorder"])
def test_the_page_keeps_everything_inside_its_margins_and_apart(name):
    report = _report(name, [0.5] * len(load_grid(name).rows[0].cells))
    page = heatmap_page(report, 96.0, 66.0, measure_text)
    inside = Box(EDGE, EDGE, page.width - 2 * EDGE, page.height - 2 * EDGE)
    assert inside.contains(page.sheet_slot)
    for item in page.items:
        if isinstance(item, Text):
            width = measure_text(item.text, item.bold, item.size)
            left = {"start": item.x, "middle": item.x - width / 2, "end": item.x - width}[item.anchor]
            area = Box(left, item.y - item.size, width, item.size)
        else:
            area = bounds(item)
        assert inside.contains(area), item
        assert not area.overlaps(page.sheet_slot), item
    legend = [item.text for item in page.items if isinstance(item, Text) and item.role == "legend"]
    assert legend[:5] == ["0%", "25%", "50%", "75%", "100%"]
    bar = [item for item in page.items if isinstance(item, Rect) and item.fill is not None and item.box.h == 4.0]
    assert bar[0].fill == heat_colour(0.5 / len(bar)) and len(bar) == 40


def test_a_long_title_is_made_smaller_to_fit_the_sheet_width():
    report = _report("classic", [0.5] * 11)
    page = heatmap_page(report, 40.0, 66.0, measure_text)
    for item in page.items:
        if isinstance(item, Text) and item.role == "title":
            assert measure_text(item.text, item.bold, item.size) <= 40.0 + 1e-6


# -- the drawing -------------------------------------------------------------------------------

import pypdfium2 as pdfium  # noqa: E402  (the tests' own reader of what was drawn)

from sheetgen.play.heatmap import PNG_DPI, draw_heatmap, heatmap_sheet  # noqa: E402


def _pixels(pdf: bytes, dpi: float = 100):
    page = pdfium.PdfDocument(pdf)[0]
    return page.render(scale=dpi / 72).to_pil().convert("RGB"), page.get_size()


def test_the_drawn_sheet_carries_each_cells_heat_colour():
    report = _report("classic", [0.0, 1.0] + [0.5] * 9)
    pdf = draw_heatmap(report, "pdf")
    plan, _ = heatmap_sheet(report.setup.grid)
    page = heatmap_page(report, plan.width, plan.height, measure_text)
    image, _ = _pixels(pdf, 200)
    scale = 200 / 25.4
    for index, share in ((0, 0.0), (1, 1.0), (2, 0.5)):
        cell = next(c for c in plan.cells if (c.row, c.index) == (0, index))
        # a point of the cell's background clear of its number: a tenth in from its top-left corner
        x = page.sheet_slot.x + cell.pale.x + cell.pale.w * 0.12
        y = page.sheet_slot.y + cell.pale.y + cell.pale.h * 0.12
        drawn = image.getpixel((round(x * scale), round(y * scale)))
        expected = tuple(round(255 * c) for c in heat_colour(share))
        assert max(abs(a - b) for a, b in zip(drawn, expected)) <= 3, (index, drawn, expected)


def test_nothing_is_drawn_within_5_mm_of_the_page_edge_and_the_bytes_repeat():
    report = _report("disorder", [0.3] * 11)
    pdf = draw_heatmap(report, "pdf")
    assert pdf == draw_heatmap(report, "pdf")
    image, (width_pt, height_pt) = _pixels(pdf)
    strip = round(EDGE * 100 / 25.4)
    w, h = image.size
    edge = [image.getpixel((x, y)) for x in range(w) for y in range(h)
            if x < strip or y < strip or x >= w - strip or y >= h - strip]
    assert set(edge) == {(255, 255, 255)}
    assert len(pdfium.PdfDocument(pdf)) == 1


def test_a_png_heat_map_is_the_page_at_150_dpi():
    report = _report("classic", [0.5] * 11)
    png = draw_heatmap(report, "png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    plan, _ = heatmap_sheet(report.setup.grid)
    page = heatmap_page(report, plan.width, plan.height, measure_text)
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (round(page.width * PNG_DPI / 25.4), round(page.height * PNG_DPI / 25.4))


def test_the_overlay_prints_each_cells_share_and_tints_small_boxes_and_penalties():
    from collections import Counter

    from sheetgen.play.heatmap import GREY, heat_overlay, heatmap_sheet

    grid = load_grid("bis")
    report = Report(Setup(grid, games=10, players=2), empty_tally(Setup(grid, games=10, players=2)))
    tally = report.tally
    tally.games = 10  # 20 sheets
    tally.cells[0][1], tally.boxes[0][1], tally.cells[2][0] = 13, 5, 0  # red 3 on 65%, its box 25%; green 12 never
    tally.penalties = [Counter({0: 6, 2: 4}), Counter({1: 8, 4: 2})]  # 14 sheets with 1+, 6 with 2+, 2 with 3+ and 4
    plan, _ = heatmap_sheet(grid)
    items = heat_overlay(report, plan)
    texts = {(t.box.x, t.box.y): t.text for t in items if isinstance(t, Text) and t.role == "heat"}
    red3 = next(c for c in plan.cells if (c.row, c.index) == (0, 1))
    green12 = next(c for c in plan.cells if (c.row, c.index) == (2, 0))
    assert texts[red3.pale.x, red3.pale.y] == "65" and texts[green12.pale.x, green12.pale.y] == "0"
    assert len(texts) == len(plan.cells) + len(plan.locks)  # every cell and every lock prints its share
    fills = {r.box: r.fill for r in items if isinstance(r, Rect) and r.stroke == GREY}
    assert fills[red3.bis_box] == heat_colour(0.25)
    assert [fills[p.box] for p in plan.penalties] == [heat_colour(s) for s in (0.7, 0.3, 0.1, 0.1)]


def test_locks_and_bonus_bar_boxes_are_tinted_by_their_share_and_print_it():
    from sheetgen.play.heatmap import heat_overlay, heatmap_sheet

    grid = load_grid("bonus")
    setup = Setup(grid, games=10, players=2)
    report = Report(setup, empty_tally(setup))
    tally = report.tally
    tally.games = 10  # 20 sheets
    tally.row_locks[1] = [3, 2]  # yellow's lock crossed on 5 sheets: 25 %
    tally.bar_boxes[0], tally.bar_boxes[2] = 18, 1  # the first bar box on 90 %, the third on 5 %
    plan, _ = heatmap_sheet(grid)
    items = heat_overlay(report, plan)
    yellow_lock = next(lock for lock in plan.locks if lock.row == 1).box
    texts = [t for t in items if isinstance(t, Text) and t.role == "heat"]
    # The lock's badge sits over the lock's lower right corner, tinted, its share in it.
    badge = [t for t in texts if t.box.x < yellow_lock.right < t.box.right and t.box.y < yellow_lock.bottom < t.box.bottom]
    assert [t.text for t in badge] == ["25"]
    assert [r.fill for r in items if isinstance(r, Rect) and r.box == badge[0].box] == [heat_colour(0.25)]
    for bar_box, share, label in ((plan.bar[0].box, 0.9, "90"), (plan.bar[2].box, 0.05, "5")):
        inside = [r.fill for r in items if isinstance(r, Rect) and bar_box.x < r.box.x and r.box.right < bar_box.right
                  and bar_box.y < r.box.y and r.box.bottom < bar_box.bottom]
        assert inside == [heat_colour(share)]
        assert [t.text for t in texts if bar_box.x < t.x < bar_box.right and bar_box.y < t.y < bar_box.bottom] == [label]


def test_a_grid_whose_sheet_cannot_print_gets_a_heat_map_on_a_larger_sheet_of_its_own():
    from sheetgen.errors import LayoutError
    from sheetgen.grid.load import grid_from_data
    from sheetgen.play.heatmap import heatmap_sheet
    from sheetgen.sheet.plan import STANDARD, plan_sheet
    from sheetgen.sheet.style import load_labels

    wide = grid_from_data({  # 19 double cells a row: too many for the standard sheet (one double among them prints)
        "name": "wide", "title": "Wide", "dice_faces": 10, "close_after": 5, "penalties": {"boxes": 4, "points": 5},
        "rows": [{"colour": c, "cells": list(range(2, 21)) if i < 2 else list(range(20, 1, -1)),
                  "double": list(range(2, 21))} for i, c in enumerate(["red", "yellow", "green", "blue"])]}, "wide.yaml")
    with pytest.raises(LayoutError):
        plan_sheet(wide, load_labels(), load_theme(), measure_text)
    plan, _ = heatmap_sheet(wide)
    assert plan.width > STANDARD.width and plan.height > STANDARD.height
    assert len(plan.cells) == 4 * 19
    assert heatmap_sheet(load_grid("classic"))[0].size == STANDARD  # a grid that prints keeps its sheet


@pytest.mark.parametrize("name", GRID_NAMES)
def test_a_cells_share_never_touches_its_number(name):
    """The widest share ("100") in every cell, two-digit numbers included: the share's ink (its advance
    from baseline to capitals) and the number's lie apart, side by side or one above the other."""
    from sheetgen.play.heatmap import MIN_SHARE, heat_overlay, heatmap_sheet
    from sheetgen.sheet.plan import CAP

    grid = load_grid(name)
    setup = Setup(grid, games=10, players=2)
    report = Report(setup, empty_tally(setup))
    report.tally.games = 10  # 20 sheets, every cell crossed on all of them
    for r, row in enumerate(grid.rows):
        report.tally.cells[r][: len(row.cells)] = [20] * len(row.cells)
    plan, _ = heatmap_sheet(grid)
    shares = {t.box: t for t in heat_overlay(report, plan) if isinstance(t, Text) and t.role == "heat"}

    def ink(text: Text) -> Box:
        width = measure_text(text.text, text.bold, text.size, text.condensed) * text.stretch
        start = {"start": text.x, "middle": text.x - width / 2, "end": text.x - width}[text.anchor]
        return Box(start, text.y - text.size * CAP, width, text.size * CAP)

    for cell in plan.cells:
        share = shares[cell.pale]
        assert share.text == "100"
        assert not ink(share).overlaps(ink(cell.text)), (cell.row, cell.index, cell.number)
        assert cell.pale.contains(ink(share)), (cell.row, cell.index)
        assert share.size >= MIN_SHARE - 1e-9, (cell.row, cell.index)  # still readable (bis, bonus: a larger sheet)
