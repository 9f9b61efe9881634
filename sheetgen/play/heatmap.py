"""Heat maps: a grid's sheet with each cell tinted by how often it was crossed.

``heat_colour(share)`` is the colour scale (a share of sheets, 0 to 1, to an
RGB colour from 0 to 1); ``heat_fills(report)`` gives every cell its colour;
``heatmap_page(report)`` lays out one page in mm: the sheet, a title line and a
legend of the scale; ``draw_heatmap(report, "pdf" | "png")`` draws the sheet
with the normal renderer (``sheet.draw.draw_sheet`` and its ``cell_fills``) on
that page and makes its bytes (a PNG through ``pdf.raster``).

The scale runs from white (a cell nobody crossed) through pale yellow and
yellow-green to teal (every sheet crossed it), the light half of ColorBrewer's
YlGnBu, a sequential scale made for perception: ordered by lightness, so that
it reads in black and white and to colour-blind eyes, and turning in hue as
well, so that neighbouring shares (50 % and 60 %) differ at a glance; light
enough at its darkest for the sheet's coloured numbers to keep a contrast of
3:1 (large text); linear in the share, so that two grids' maps compare.  Each
cell, small box, lock, bar box and penalty box also prints its share.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..grid.model import Grid
from ..pdf.geometry import RGB, Box, Item, Rect, Text
from ..sheet.draw import draw_sheet
from ..sheet.plan import CAP, STANDARD, CellPlan, Measure, SheetPlan, SheetSize, plan_sheet
from ..sheet.style import Theme, load_labels, load_theme
from ..words import plural
from .simulate import Report

HEAT_STOPS: tuple[tuple[float, RGB], ...] = (  # white, then ColorBrewer's YlGnBu as far as the text allows
    (0.0, (1.0, 1.0, 1.0)),
    (0.25, (0xFB / 255, 0xF5 / 255, 0xB8 / 255)),
    (0.5, (0xD4 / 255, 0xEC / 255, 0xAD / 255)),
    (0.75, (0xA6 / 255, 0xDC / 255, 0xB5 / 255)),
    (1.0, (0x7F / 255, 0xCD / 255, 0xBB / 255)),
)
MARGIN = 10.0  # mm of blank paper around everything: more than the 5 mm nothing may print within
TITLE_SIZE = 3.2  # mm, the grid's title line
TEXT_SIZE = 2.4  # mm, the line under it and the legend's words
LINE_GAP = 1.2
GAP = 3.0  # between the title, the sheet and the legend
LEGEND_BAR_H = 4.0
LEGEND_STEPS = 40  # the bar is drawn as this many flat steps
LEGEND_TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)
INK = (0.0, 0.0, 0.0)
GREY = (0.35, 0.35, 0.35)
PNG_DPI = 150  # as the download pack's previews


def heat_colour(share: float) -> RGB:
    """The scale's colour for ``share`` (clamped to 0..1), between its two nearest stops."""
    share = min(1.0, max(0.0, share))
    for (low, a), (high, b) in zip(HEAT_STOPS, HEAT_STOPS[1:]):
        if share <= high:
            t = (share - low) / (high - low)
            return tuple(x + (y - x) * t for x, y in zip(a, b))  # type: ignore[return-value]
    return HEAT_STOPS[-1][1]


SHARE_SIZE = 0.3  # the share printed in a cell, as a part of the cell's height
SHARE_INK = (0.25, 0.25, 0.25)
SHARE_GAP = 0.3  # mm between a cell's share and its number
MIN_SHARE = 1.0  # mm, a share's least size: where the normal sheet's cells leave less, the heat map's is larger
BADGE = 0.5  # a lock's heat badge, as a part of the lock's height
INSET = 0.16  # a bar box's colour frame left round its heat, as a part of its height


def _share_label(share: float) -> str:
    """A share as whole percent, "<1" for a few sheets, "0" for none."""
    percent = 100 * share
    return "0" if share == 0 else "<1" if percent < 0.5 else f"{percent:.0f}"


def heat_overlay(report: Report, plan: SheetPlan) -> list[Item]:
    """What a heat map adds on top of the sheet (in the sheet's mm): each
    cell's share of sheets as a percentage in its lower right corner, each
    small box (Bis) tinted by its own share, and each penalty box by the share
    of sheets on which it was crossed, its points drawn again on top."""
    tally, sheets = report.tally, report.tally.sheets
    items: list[Item] = []
    rates = report.cell_rates()
    for cell in plan.cells:
        items.append(_share_text(cell, rates.get((cell.row, cell.index), 0.0)))
        if cell.bis_box is not None:
            boxes = tally.boxes[cell.row][cell.index] / sheets
            items.append(Rect(cell.bis_box, fill=heat_colour(boxes), stroke=GREY, line=0.2))
    for lock in plan.locks:  # a lock is crossed on the sheets whose player closed its row
        items += _badge(lock.box, sum(tally.row_locks[lock.row]) / sheets)
    for bar_box in plan.bar:
        items += _inset(bar_box.box, tally.bar_boxes[bar_box.index] / sheets)
    crossed = 0
    penalties: Counter[int] = Counter()
    for histogram in tally.penalties:
        penalties.update(histogram)
    for penalty in plan.penalties:  # box k is crossed on the sheets with more than k penalties
        crossed = sum(count for k, count in penalties.items() if k > penalty.index)
        items.append(Rect(penalty.box, fill=heat_colour(crossed / sheets), stroke=GREY, line=0.2))
        items.append(penalty.text)
    return items


def _share_text(cell: CellPlan, share: float) -> Text:
    """A cell's share, as large as ``SHARE_SIZE`` allows and never touching its number (``SHARE_GAP`` mm
    from it): in the lower right corner, below or beside the number, else left of it or above it."""
    from ..pdf.render import measure_text

    box, number, label = cell.pale, cell.text, _share_label(share)
    right, bottom = box.right - 0.06 * box.w, box.bottom - 0.08 * box.h  # where it ends, its baseline
    per_mm = measure_text(label, False, 1.0)  # its width at a 1 mm size
    number_w = measure_text(number.text, number.bold, number.size, number.condensed) * number.stretch
    number_right = {"start": number.x + number_w, "middle": number.x + number_w / 2, "end": number.x}[number.anchor]
    left, top = box.x + 0.06 * box.w, box.y + 0.08 * box.h
    number_left, number_top = number_right - number_w, number.y - number.size * CAP
    most = min(SHARE_SIZE * box.h, (right - left) / per_mm)
    # Where it may go, each (size that fits there, x, baseline, anchor), the largest taken: under the number
    # (digits have no descenders), right or left of it, or above it between the corner mark and symbol.
    above_left = cell.mark_box.right + SHARE_GAP if cell.mark_box is not None else left
    above_right = cell.symbol_box.x - SHARE_GAP if cell.symbol_box is not None else right
    places = [((bottom - number.y - SHARE_GAP) / CAP, right, bottom, "end"),
              ((right - number_right - SHARE_GAP) / per_mm, right, bottom, "end"),
              ((number_left - SHARE_GAP - left) / per_mm, left, bottom, "start"),
              (min((number_top - SHARE_GAP - top) / CAP, (above_right - above_left) / per_mm), above_right,
               number_top - SHARE_GAP, "end")]
    # The first place within 0.01 mm of the largest: a number centred in its cell leaves as much above as
    # below, and rounding must not send one row's shares above and the next one's below.
    largest = max(place[0] for place in places)
    fits, x, y, anchor = next(place for place in places if place[0] >= largest - 0.01)
    return Text(x, y, label, max(0.0, min(most, fits)), SHARE_INK, anchor=anchor, box=box, role="heat")


def _badge(box: Box, share: float) -> list[Item]:
    """A lock's heat: a square badge of its colour over the lock's lower right
    corner, its share printed in it (the lock's drawing stays in view)."""
    side = BADGE * box.h
    badge = Box(box.right - side * 0.8, box.bottom - side * 0.8, side, side)
    return [Rect(badge, fill=heat_colour(share), stroke=GREY, line=0.2, radius=0.15 * side),
            Text(badge.cx, badge.bottom - 0.3 * side, _share_label(share), 0.45 * side, INK, anchor="middle",
                 box=badge, role="heat")]


def _inset(box: Box, share: float) -> list[Item]:
    """A bonus bar box's heat: its inside tinted, its colour frame kept, its share printed in it."""
    frame = INSET * box.h
    inside = Box(box.x + frame, box.y + frame, box.w - 2 * frame, box.h - 2 * frame)
    size = 0.5 * inside.h
    return [Rect(inside, fill=heat_colour(share)),
            Text(inside.cx, inside.bottom - 0.3 * inside.h, _share_label(share), size, SHARE_INK, anchor="middle",
                 box=inside, role="heat")]


def heat_fills(report: Report) -> dict[tuple[int, int], RGB]:
    """(row, cell index) -> the colour of the share of sheets that crossed the cell."""
    return {cell: heat_colour(share) for cell, share in report.cell_rates().items()}


@dataclass(frozen=True)
class HeatmapPage:
    width: float
    height: float
    sheet_slot: Box  # where the sheet goes
    items: tuple[Item, ...]  # the title and the legend


def heatmap_page(report: Report, sheet_width: float, sheet_height: float, measure: Measure) -> HeatmapPage:
    """The page around a sheet of ``sheet_width`` x ``sheet_height`` mm: two
    lines above it (what it shows; the run behind it), the legend below,
    ``MARGIN`` all round.  Text too long for the sheet's width is made smaller."""
    setup, tally = report.setup, report.tally
    strategies = ", ".join(dict.fromkeys(setup.seats))
    lines = (
        (f"{setup.grid.title}: how often each cell was crossed", TITLE_SIZE, True, INK),
        (f"{tally.sheets:,} sheets: {plural(tally.games, 'game')} of {plural(setup.players, 'player')}"
         f" ({strategies}), seed {setup.seed}",
         TEXT_SIZE, False, GREY),
    )
    items: list[Item] = []
    y = MARGIN
    for text, size, bold, colour in lines:
        size = min(size, size * sheet_width / measure(text, bold, size))
        y += size
        items.append(Text(MARGIN, y, text, size, colour, bold=bold, box=Box(MARGIN, y - size, sheet_width, size),
                          role="title"))
        y += LINE_GAP
    slot = Box(MARGIN, y - LINE_GAP + GAP, sheet_width, sheet_height)

    bar = Box(MARGIN, slot.bottom + GAP, sheet_width, LEGEND_BAR_H)
    step = bar.w / LEGEND_STEPS
    for k in range(LEGEND_STEPS):  # each step a hair wider than its place, so no white seam shows between them
        items.append(Rect(Box(bar.x + k * step, bar.y, step + 0.05 if k < LEGEND_STEPS - 1 else step, bar.h),
                          fill=heat_colour((k + 0.5) / LEGEND_STEPS)))
    items.append(Rect(bar, stroke=GREY, line=0.2))
    ticks_y = bar.bottom + 1.0 + TEXT_SIZE
    for tick in LEGEND_TICKS:
        x = bar.x + tick * bar.w
        anchor = "start" if tick == 0 else "end" if tick == 1 else "middle"
        items.append(Rect(Box(x - 0.1 if 0 < tick < 1 else x - 0.2 * tick, bar.bottom, 0.2, 0.8), fill=GREY))
        items.append(Text(x, ticks_y, f"{tick:.0%}", TEXT_SIZE, INK, anchor=anchor, role="legend"))
    caption_y = ticks_y + LINE_GAP + TEXT_SIZE
    items.append(Text(bar.cx, caption_y, "share of sheets on which the cell or box was crossed (in each cell: percent)",
                      TEXT_SIZE, GREY, anchor="middle", role="legend"))
    return HeatmapPage(sheet_width + 2 * MARGIN, caption_y + MARGIN, slot, tuple(items))


HEATMAP_GROWTH = (1.5, 2.0, 3.0)  # a sheet too small for a grid is tried again this much wider and taller


def heatmap_sheet(grid: Grid) -> tuple[SheetPlan, Theme]:
    """The sheet a heat map of ``grid`` is drawn on: the normal one, in the
    default language and theme; for a grid whose sheet cannot print (cells too
    narrow, a row too long), a sheet of the heat map's own, wider and taller by
    ``HEATMAP_GROWTH`` with type of the same size, the first one that fits (and, where the normal
    sheet's cells leave its share less than ``MIN_SHARE``, the first that leaves it that).  A
    heat map is looked at on a screen, not printed and cut, so its sheet need
    not be one the pack prints.  ``LayoutError`` (the normal sheet's) when none fits."""
    from ..errors import LayoutError
    from ..pdf.render import measure_text

    theme, labels = load_theme(), load_labels()
    refused: LayoutError | None = None
    try:
        plan = plan_sheet(grid, labels, theme, measure_text)
        if _shares_fit(plan):
            return plan, theme
    except LayoutError as error:
        refused = error
    for growth in HEATMAP_GROWTH:
        size = SheetSize("heat map", STANDARD.width * growth, STANDARD.height * growth, STANDARD.scale, ())
        try:
            larger = plan_sheet(grid, labels, theme, measure_text, size)
        except LayoutError:
            continue
        if _shares_fit(larger) or growth == HEATMAP_GROWTH[-1]:
            return larger, theme
    if refused is not None:
        raise refused
    return plan, theme


def _shares_fit(plan: SheetPlan) -> bool:
    """Whether every cell of ``plan`` has room for its widest share ("100") at ``MIN_SHARE`` mm or more."""
    return all(_share_text(cell, 1.0).size >= MIN_SHARE - 1e-9 for cell in plan.cells)


def draw_heatmap(report: Report, kind: str, sheet: tuple[SheetPlan, Theme] | None = None) -> bytes:
    """The heat map as a one-page PDF (``kind`` "pdf") or a PNG of that page
    ("png"), drawn on ``sheet`` (default: ``heatmap_sheet`` of the report's grid)
    by the normal renderer, each cell's background its heat colour."""
    from ..pdf.impose import PagePlan
    from ..pdf.render import Section, measure_text, render_sections

    plan, theme = sheet or heatmap_sheet(report.setup.grid)
    drawing = draw_sheet(plan, theme, cell_fills=heat_fills(report))
    page = heatmap_page(report, drawing.width, drawing.height, measure_text)
    paper = PagePlan(page.width, page.height, (page.sheet_slot,), page.items)
    overlay = tuple(heat_overlay(report, plan))
    pdf = render_sections([Section(paper, drawing, [[overlay]])], title=f"{report.setup.grid.title}: heat map")
    if kind == "pdf":
        return pdf
    from ..pdf.raster import rasterise_png

    return rasterise_png(pdf, Box(0, 0, page.width, page.height), PNG_DPI)
