"""Synthetic photos and scans of filled sheets, with their ground truth, for `sheetgen scan`'s corpus.

A sheet is rendered as it prints, filled as a hand fills it (an X of two jittered strokes 0.3-1.2 mm
wide, a fill, a single strike through a skipped cell, a dot, overshoot into the neighbour; blue or
black pen, pencil greys), then degraded as cameras and copiers do (perspective up to 30 degrees,
rotation, blur, noise, JPEG 40-90, 100-300 dpi, uneven light, a shadow, curl, moire, a cut corner).
The filling comes from a marks document: legal sheets from the project's simulator, or impossible ones.

    python scripts/scan_pictures.py --pictures 20 --seed 1 -o out/scan-corpus/

writes NNN.jpg (or .png) and NNN.json (the marks file, with what was drawn) per picture.  The tests
and scripts/scan_corpus.py import ``picture`` from here.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.grid.model import Grid
from sheetgen.pdf.geometry import Box
from sheetgen.pdf.impose import impose
from sheetgen.pdf.raster import rasterise_png
from sheetgen.play.simulate import Setup, game_marks
from sheetgen.runs.jobs import Job, layout_job, render_job
from sheetgen.scan.read import plan_boxes
from sheetgen.sheet.plan import SheetPlan

DEGRADATIONS = ("perspective", "rotation", "blur", "noise", "jpeg", "light", "shadow", "curl", "moire", "cut")
PENS = {"black": (25, 25, 30), "blue": (150, 60, 20)}  # BGR, as OpenCV draws
PENCILS = (95, 120, 145)  # grey levels of a pencil's stroke (0 black, 255 white)
SUPER = 2  # filled at this many times the picture's resolution, then averaged down as a sensor does


@dataclass
class Truth:
    """What was drawn on a sheet: the boxes crossed, the cells struck once (skipped), the dots."""

    crossed: set[tuple[str, int, int]] = field(default_factory=set)
    struck: set[tuple[str, int, int]] = field(default_factory=set)
    dotted: set[tuple[str, int, int]] = field(default_factory=set)
    pencil: bool = False


@dataclass
class Picture:
    image: np.ndarray  # BGR
    grid: Grid
    theme: str
    marks: dict
    truth: Truth
    dpi: int
    degradations: tuple[str, ...]
    encoded: bytes = b""  # the file as a camera writes it (JPEG) or a scanner (PNG)


def legal_marks(grid: Grid, seed: int) -> dict:
    """A legal sheet of ``grid``: a player's from a simulated game."""
    sheets = game_marks(Setup(grid, games=1, players=3, seed=seed))
    return sheets[seed % len(sheets)]


def impossible_marks(grid: Grid, rng: random.Random) -> dict:
    """A sheet the rules forbid: a lock crossed without its row's last cell, or a cross after a lock."""
    rows = [{"crossed": sorted(rng.sample(list(row.numbers[:-1]), rng.randint(0, 3)), key=list(row.numbers).index),
             "lock": False} for row in grid.rows]
    rows[rng.randrange(len(rows))]["lock"] = True
    return {"grid": grid.name, "rows": rows, "penalties": rng.randint(0, 2)}


def boxes_of(marks: dict, plan: SheetPlan) -> set[tuple[str, int, int]]:
    """The boxes ``marks`` crosses, named as the reader names them."""
    numbers = {(cell.row, cell.number): cell.index for cell in plan.cells}
    boxes = set()
    for r, row in enumerate(marks["rows"]):
        boxes |= {("cell", r, numbers[r, n]) for n in row["crossed"]}
        boxes |= {("bis", r, numbers[r, n]) for n in row.get("bis", ())}
        if row["lock"]:
            boxes.add(("lock", r, 0))
    boxes |= {("penalty", i, 0) for i in range(marks["penalties"])}
    boxes |= {("bar", n - 1, 0) for n in marks.get("bonus_bar", ())}
    return boxes


def _clean(grid: Grid, theme: str, dpi: int) -> tuple[np.ndarray, SheetPlan]:
    job = Job(grid, sheets=1, theme=theme)
    plan, _ = layout_job(job)
    slot = impose(job.paper, plan.width, plan.height).slots[0]
    margin = 6.0  # mm of paper around the sheet, as a photo of a cut sheet shows some table
    box = Box(slot.x - margin, slot.y - margin, plan.width + 2 * margin, plan.height + 2 * margin)
    png = rasterise_png(render_job(job), box, dpi * SUPER)
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), plan


def _stroke(image: np.ndarray, a: tuple[float, float], b: tuple[float, float], width: float, colour, rng) -> None:
    """A hand's stroke from ``a`` to ``b`` (pixels): a slight bow, a wobbling width, antialiased."""
    bow = rng.uniform(-0.08, 0.08)
    steps = 8
    points = []
    for k in range(steps + 1):
        t = k / steps
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        off = bow * math.sin(math.pi * t) * math.dist(a, b)
        nx, ny = -(b[1] - a[1]), b[0] - a[0]
        norm = math.hypot(nx, ny) or 1
        points.append((x + nx / norm * off, y + ny / norm * off))
    for p, q in zip(points, points[1:]):
        w = max(1, round(width * rng.uniform(0.85, 1.15)))
        cv2.line(image, (round(p[0] * 16), round(p[1] * 16)), (round(q[0] * 16), round(q[1] * 16)), colour, w,
                 cv2.LINE_AA, shift=4)


def fill(image: np.ndarray, plan: SheetPlan, marks: dict, rng: random.Random, px: float, origin: float,
         kind: str = "") -> Truth:
    """Draw ``marks`` on ``image`` (``px`` pixels per mm, the sheet at ``origin`` mm) as one hand would;
    strike some skipped cells, dot an empty one.  ``kind`` forces the marks' kind ("x", "fill", "pencil").
    Pen covers the page; pencil is graphite, which only darkens it: drawn on a blank layer laid over the
    page darkest-wins, it never comes out lighter than the hatching or a tint it crosses."""
    truth = Truth(crossed=boxes_of(marks, plan))
    pencil = kind == "pencil" or (not kind and rng.random() < 0.12)
    truth.pencil = pencil
    if pencil:
        layer = np.full_like(image, 255)
        truth = _fill(layer, plan, marks, rng, px, origin, kind, truth)
        np.minimum(image, layer, out=image)
        return truth
    return _fill(image, plan, marks, rng, px, origin, kind, truth)


def _fill(image: np.ndarray, plan: SheetPlan, marks: dict, rng: random.Random, px: float, origin: float,
          kind: str, truth: Truth) -> Truth:
    pencil = truth.pencil
    colour = (rng.choice(PENCILS),) * 3 if pencil else PENS[rng.choice(sorted(PENS))]
    width = rng.uniform(0.3, 0.7 if pencil else 1.2) * px
    fills = kind == "fill" or (not kind and rng.random() < 0.1)
    where = {(k, r, i): box for k, r, i, box in plan_boxes(plan)}

    def corners(box: Box) -> tuple[float, float, float, float]:
        return ((box.x + origin) * px, (box.y + origin) * px, (box.right + origin) * px, (box.bottom + origin) * px)

    for name in sorted(truth.crossed):
        x0, y0, x1, y1 = corners(where[name])
        size = min(x1 - x0, y1 - y0)
        def j(size: float = size) -> float:
            return rng.uniform(-0.12, 0.12) * size

        reach = rng.uniform(0.05, 0.22) * size  # how far in from the corners a stroke starts
        over = rng.random() < 0.15  # overshoot into the neighbour
        if fills and name[0] == "cell":
            pts = np.array([[x0 + reach, y0 + reach], [x1 - reach, y0 + reach], [x1 - reach, y1 - reach],
                            [x0 + reach, y1 - reach]]) + np.array([[j(), j()] for _ in range(4)])
            cv2.fillPoly(image, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)
            continue
        extra = size * 0.35 if over else 0.0
        _stroke(image, (x0 + reach + j(), y0 + reach + j()), (x1 - reach + j() + extra, y1 - reach + j() + extra),
                width, colour, rng)
        _stroke(image, (x1 - reach + j(), y0 + reach + j()), (x0 + reach + j(), y1 - reach + j()), width, colour, rng)
    for r in range(len(marks["rows"])):
        crossed = [i for k, rr, i in truth.crossed if k == "cell" and rr == r]
        for i in range(max(crossed, default=-1)):
            name = ("cell", r, i)
            if name in truth.crossed or rng.random() > 0.35:
                continue
            x0, y0, x1, y1 = corners(where[name])
            size = min(x1 - x0, y1 - y0)
            angle = rng.uniform(-0.35, 0.35) + (math.pi / 2 if rng.random() < 0.3 else 0)
            cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, size * rng.uniform(0.3, 0.45)
            dx, dy = math.cos(angle) * half, math.sin(angle) * half
            _stroke(image, (cx - dx, cy - dy), (cx + dx, cy + dy), width, colour, rng)
            truth.struck.add(name)
    empty = [name for name in where if name[0] == "cell" and name not in truth.crossed and name not in truth.struck]
    for name in rng.sample(empty, min(len(empty), rng.randint(0, 2))):
        x0, y0, x1, y1 = corners(where[name])
        cx, cy = (x0 + x1) / 2 + rng.uniform(-2, 2) * px, (y0 + y1) / 2 + rng.uniform(-1, 1) * px
        cv2.circle(image, (round(cx * 16), round(cy * 16)), max(1, round(width * 0.6 * 16)), colour, -1, cv2.LINE_AA,
                   shift=4)
        truth.dotted.add(name)
    return truth


# -- degradations ----------------------------------------------------------------------


def degrade(image: np.ndarray, kinds: tuple[str, ...], rng: random.Random, dpi: int) -> tuple[np.ndarray, bytes]:
    """``image`` as a camera or copier gives it back, and the file it writes."""
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    if "light" in kinds:  # a lamp to one side: brightness falls off across the sheet
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle = rng.uniform(0, 2 * math.pi)
        ramp = (np.cos(angle) * xx / w + np.sin(angle) * yy / h)
        out *= (1 - rng.uniform(0.2, 0.45) * (ramp - ramp.min()) / (np.ptp(ramp) or 1))[..., None]
    if "shadow" in kinds:  # a hand's or phone's shadow: a soft-edged dark band
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle, at = rng.uniform(0, math.pi), rng.uniform(0.3, 0.7)
        side = np.cos(angle) * (xx / w - at) + np.sin(angle) * (yy / h - 0.5)
        out *= (1 - rng.uniform(0.3, 0.5) / (1 + np.exp(side * 40)))[..., None]
    if "moire" in kinds:  # a copier's screen beating with the sampling
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(3.0, 6.0)
        out *= (1 - 0.06 * (1 + np.sin((xx + yy * 0.3) * 2 * math.pi / period)) / 2)[..., None]
    if "curl" in kinds:  # paper curling: rows bent along a smooth sine
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        amount = rng.uniform(0.004, 0.012) * h
        mapy = yy + amount * np.sin(xx / w * math.pi)
        out = cv2.remap(out, xx, mapy.astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    table = np.full((h + h // 2, w + w // 2, 3), rng.uniform(60, 130), np.float32)  # the table around the sheet
    oy, ox = h // 4, w // 4
    table[oy:oy + h, ox:ox + w] = out
    src = np.float32([[ox, oy], [ox + w, oy], [ox + w, oy + h], [ox, oy + h]])
    dst = src.copy()
    if "rotation" in kinds:
        turn = rng.uniform(0, 360) if rng.random() < 0.5 else rng.uniform(-15, 15)
        centre = (ox + w / 2, oy + h / 2)
        matrix = cv2.getRotationMatrix2D(centre, turn, 1.0)
        dst = cv2.transform(dst[None], matrix)[0]
    if "perspective" in kinds:  # tilt up to 30 degrees: the far edge shrinks by up to 1 - cos 30
        tilt = math.radians(rng.uniform(10, 30))
        shrink = (1 - math.cos(tilt)) * w * 0.5 + math.sin(tilt) * 0.08 * w
        edge = rng.randrange(4)
        a, b = edge, (edge + 1) % 4
        mid = (dst[a] + dst[b]) / 2
        dst[a] += (mid - dst[a]) * shrink / (w / 2)
        dst[b] += (mid - dst[b]) * shrink / (w / 2)
    size = (table.shape[1] * 2, table.shape[0] * 2)
    dst += np.float32([w // 2, h // 2])
    matrix = cv2.getPerspectiveTransform(src, np.float32(dst))
    out = cv2.warpPerspective(table, matrix, size, flags=cv2.INTER_LINEAR, borderValue=(90, 90, 90))
    out = cv2.resize(out, None, fx=1 / SUPER, fy=1 / SUPER, interpolation=cv2.INTER_AREA)
    if "cut" in kinds:  # the crop misses a corner of the sheet (and its marker)
        cx, cy = dst[rng.randrange(4)] / SUPER
        r = 9.5 * dpi / 25.4  # 6 mm of table, 3 mm of border, the 4 mm marker, no more
        out[max(0, int(cy - r)):int(cy + r), max(0, int(cx - r)):int(cx + r)] = 90
    if "blur" in kinds:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.6, 1.4) * dpi / 300)
    if "noise" in kinds:
        out += np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(3, 9), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if "jpeg" in kinds:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(40, 90)])
    else:
        ok, data = cv2.imencode(".png", out)
    assert ok
    data = bytes(data.tobytes())
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), data


def picture(seed: int, grid: Grid | None = None, theme: str | None = None, kinds: tuple[str, ...] | None = None,
            dpi: int | None = None, mark: str = "", impossible: bool | None = None) -> Picture:
    """Picture ``seed`` of the corpus; each argument given fixes what the seed would choose."""
    rng = random.Random(seed)
    grid = grid or load_grid(rng.choice(builtin_names()))
    theme = theme or rng.choice(("colour", "colour", "ink-saver", "mono"))
    if kinds is None:
        kinds = tuple(sorted(rng.sample(DEGRADATIONS, rng.randint(0, 4))))
    dpi = dpi or rng.choice((150, 200, 250, 300))
    impossible = rng.random() < 0.05 if impossible is None else impossible
    marks = impossible_marks(grid, rng) if impossible else legal_marks(grid, seed)
    image, plan = _clean(grid, theme, dpi)
    truth = fill(image, plan, marks, rng, dpi * SUPER / 25.4, 6.0, mark)
    degraded, data = degrade(image, kinds, rng, dpi)
    return Picture(degraded, grid, theme, marks, truth, dpi, kinds, data)


@dataclass
class Page:
    """A photographed page of eight sheets: the file, and each sheet's grid, marks and truth in print order."""

    encoded: bytes
    grid: Grid
    theme: str
    truths: list[Truth]
    dpi: int


def page_picture(seed: int, grid: Grid | None = None, theme: str | None = None, dpi: int = 220) -> Page:
    """A whole uncut page of sheets as a phone photographs it: a 12 MP photo of an A4 page is about
    220 dpi; some tilt (up to 20 degrees), light falling off to one side, JPEG 60-90.  Drawn once at
    ``dpi`` (a page's super-sampled float copies would take gigabytes)."""
    rng = random.Random(seed)
    grid = grid or load_grid(rng.choice(builtin_names()))
    theme = theme or rng.choice(("colour", "colour", "ink-saver", "mono"))
    job = Job(grid, theme=theme)
    plan, _ = layout_job(job)
    page = impose(job.paper, plan.width, plan.height)
    png = rasterise_png(render_job(job), Box(0, 0, page.width, page.height), dpi)
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    px = dpi / 25.4
    truths = []
    for n, slot in enumerate(page.slots[:job.sheets]):
        marks = legal_marks(grid, seed + n)
        sheet = np.ascontiguousarray(image[round(slot.y * px):round(slot.bottom * px),
                                           round(slot.x * px):round(slot.right * px)])
        truths.append(fill(sheet, plan, marks, rng, px, 0.0))
        image[round(slot.y * px):round(slot.bottom * px), round(slot.x * px):round(slot.right * px)] = sheet
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = np.cos(angle) * xx / w + np.sin(angle) * yy / h
    lit = image.astype(np.float32) * (1 - rng.uniform(0.1, 0.3) * (ramp - ramp.min()) / (np.ptp(ramp) or 1))[..., None]
    del yy, xx, ramp
    margin = round(0.08 * w)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + margin
    shrink = (1 - math.cos(math.radians(rng.uniform(5, 20)))) * w * 0.5 + 0.02 * w
    edge = rng.randrange(4)
    for corner, other in ((edge, (edge + 1) % 4), ((edge + 1) % 4, edge)):
        dst[corner] += (dst[other] - dst[corner]) * shrink / w
    matrix = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(lit, matrix, (w + 2 * margin, h + 2 * margin), flags=cv2.INTER_LINEAR,
                              borderValue=(90, 90, 90))
    ok, data = cv2.imencode(".jpg", np.clip(out, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, rng.randint(60, 90)])
    assert ok
    return Page(bytes(data.tobytes()), grid, theme, truths, dpi)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pictures", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", default="out/scan-corpus")
    args = parser.parse_args()
    folder = Path(args.output)
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(args.pictures):
        made = picture(args.seed * 100_000 + n)
        suffix = ".jpg" if "jpeg" in made.degradations else ".png"
        (folder / f"{n:03d}{suffix}").write_bytes(made.encoded)
        about = {**made.marks, "theme": made.theme, "dpi": made.dpi, "degradations": list(made.degradations),
                 "struck": sorted(made.truth.struck), "pencil": made.truth.pencil}
        (folder / f"{n:03d}.json").write_text(json.dumps(about, indent=1) + "\n")
    print(f"wrote {args.pictures} pictures and their marks files in {folder}")


if __name__ == "__main__":
    main()
