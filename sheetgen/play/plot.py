"""The score distribution of one or more runs as a picture (SVG): for a
designer, beside the heat map.

``score_plot(reports)`` lays the plot out as drawing items in mm (``pdf.geometry``):
per run, the share of sheets in each band of ``BIN`` points, as bars for one run
or as outlines over each other for several, with the axes, ticks and a key;
``score_svg`` writes it with ``pdf.svg``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..pdf.geometry import RGB, Box, Item, Rect, Text
from ..pdf.svg import svg_picture
from .simulate import Report, run_label

BIN = 5  # points per band
WIDTH, HEIGHT = 160.0, 90.0  # mm, the whole picture
LEFT, RIGHT, TOP, BOTTOM = 16.0, 6.0, 10.0, 16.0  # mm of margin around the plot area
TEXT = 2.8
INK, GREY = (0.0, 0.0, 0.0), (0.45, 0.45, 0.45)
SERIES: tuple[RGB, ...] = ((0.0, 0.45, 0.70), (0.84, 0.37, 0.0), (0.0, 0.62, 0.45), (0.8, 0.47, 0.65),
                           (0.34, 0.71, 0.91), (0.9, 0.62, 0.0))  # Okabe and Ito's colour-blind safe colours


def bands(report: Report) -> dict[int, float]:
    """Lowest score of each band of ``BIN`` points -> share of sheets in it."""
    sheets = report.tally.sheets
    found: dict[int, float] = {}
    for score, count in report.tally.scores.items():
        low = score // BIN * BIN
        found[low] = found.get(low, 0.0) + count / sheets
    return found


def score_plot(reports: Sequence[Report]) -> list[Item]:
    """The plot's items in a ``WIDTH`` x ``HEIGHT`` mm picture."""
    series = [bands(report) for report in reports]
    low = min(min(s) for s in series)
    high = max(max(s) for s in series) + BIN
    top = max(max(s.values()) for s in series)
    area = Box(LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM)

    def x(score: float) -> float:
        return area.x + (score - low) / (high - low) * area.w

    def y(share: float) -> float:
        return area.bottom - share / top * area.h

    items: list[Item] = [Rect(Box(0, 0, WIDTH, HEIGHT), fill=(1.0, 1.0, 1.0))]
    step = _nice_step(top / 4)
    tick = 0.0
    while tick <= top + 1e-12:
        items.append(Rect(Box(area.x, y(tick), area.w, 0.1), fill=(0.85, 0.85, 0.85)))
        items.append(Text(area.x - 1.0, y(tick) + TEXT / 3, f"{100 * tick:.0f}%", TEXT, GREY, anchor="end"))
        tick += step
    every = _nice_step((high - low) / 8)
    score = -(-low // every) * every
    while score <= high:
        items.append(Rect(Box(x(score) - 0.05, area.bottom, 0.1, 1.2), fill=GREY))
        items.append(Text(x(score), area.bottom + 1.5 + TEXT, f"{score or 0.0:g}", TEXT, GREY, anchor="middle"))
        score += every
    for k, (report, found) in enumerate(zip(reports, series)):
        colour = SERIES[k % len(SERIES)]
        for band, share in sorted(found.items()):
            box = Box(x(band), y(share), x(band + BIN) - x(band), area.bottom - y(share))
            if len(reports) == 1:
                items.append(Rect(box, fill=colour, stroke=(1.0, 1.0, 1.0), line=0.15))
            else:
                items.append(Rect(box, stroke=colour, line=0.35))
        key = area.x + 2 + k * area.w / len(reports)
        items.append(Rect(Box(key, TOP - 6.5, 3, 3), fill=colour))
        items.append(Text(key + 4, TOP - 4.0, f"{run_label(report)}, mean"
                          f" {report.scores.mean:.1f}", TEXT, INK))
    items.append(Rect(Box(area.x, area.bottom, area.w, 0.2), fill=INK))
    items.append(Text(area.cx, HEIGHT - 3.0, f"score per sheet (bands of {BIN} points); share of sheets", TEXT,
                      GREY, anchor="middle"))
    return items


def score_svg(reports: Sequence[Report]) -> bytes:
    return svg_picture(score_plot(reports), WIDTH, HEIGHT, "scores").encode()


def _nice_step(rough: float) -> float:
    """1, 2 or 5 times a power of ten, at least ``rough``."""
    power = 1.0
    while power * 10 <= rough:
        power *= 10
    while power > rough and power / 10 >= 1e-6 and power / 10 * 5 >= rough:
        power /= 10
    for factor in (1, 2, 5, 10):
        if factor * power >= rough:
            return factor * power
    return 10 * power
