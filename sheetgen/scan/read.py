"""From a picture to readings: find each sheet by its corner markers, warp it
to the plan's millimetres, and decide every box, crossed or not, with a confidence.

Plain Python over what ``vision`` returns; ``vision`` is imported here, the
first time a picture is read, so that importing this module costs nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..grid.model import Grid
from ..pdf.geometry import Box, Drawing, Text
from ..records import record
from ..sheet.machine import Identity, corner_squares, decode
from ..sheet.plan import SIZES, SheetPlan

if TYPE_CHECKING:
    from .vision import Features, Marker, Picture

SCALE = 8.0  # pixels per mm of the warped sheet
INK = 0.2  # a pixel this much darker than the template's is ink
CONFIDENT = 0.7  # decisions below this confidence are doubtful
FAINT = 0.03  # an empty box has less than this share of its inner part even half as dark as ink
ALIGN = 1.0  # mm: each box's template is moved up to this far to where it matches the sheet
SECOND = 0.06  # a strike has next to no ink on a second stroke across its own; an X's second is over this
SURE_STRIKE = 0.025  # ink across a strike that leaves it sure: more may be an X's second stroke under a number
LIGHT = 0.06  # the lowest ink threshold a sheet's own light pass uses (_light)
TRACE_FLOOR = 0.02  # the least darkness a trace in a box is measured at, on a sheet with no noise at all
PLAIN = 2.5  # times the sheet's noise: a light X this dark is plainly one; between a trace and this, doubtful
PENCIL_CROSS = 0.75  # a light pencil X, plain at the sheet's own threshold: counted, not sent to check
PENCIL_TRACE = 0.015  # on a sheet of pencil the print hides, an "empty" box this faint is unsure
AMBIGUOUS = 0.155  # under this share on a second stroke, with most of it on one, a box may be either
PALE_SECOND = 0.75  # a second stroke under this share of the first's darkness is pale: perhaps a number's edge
PALEST = 0.55  # a second stroke this much paler than the first is no pen's, however much ink it holds
PALE_SHARE = 0.2  # ... when it holds under this share of the ink (an X's is one pen's, as dark as its first)
LIGHT_INK = 0.3  # the mean darkness of a box's ink under which it may be light pencil, read again lighter
LIGHT_STROKE = 0.4  # ... and of a sure stroke's: pencil on a tint or in a shadow comes out a little darker
STROKE = 1.6  # mm: the band a single stroke of the widest pen (1.2 mm) fills, with its wobble
GUESS_FAINT = 1.5  # a doubtful stroke with less than this times its ink as faint ink around it is one pen's, no halo
GUESS_DOT = 0.1  # a doubtful "dot" with this much ink is more than a dot: an X askew, guessed crossed
LOW = 0.7  # a box lower than this share of its width (a Bis box): a strike along it may miss a quarter
WIDE = 0.06  # a doubtful cell seen again over all of it but this share of its side: an X's ends, a strike's length
STRIKE_LINE = 0.75  # a sure cross with this share of its ink on one stroke is seen again over all of its cell
ENDS = 0.3  # the share of a cell's side, at each of its corners, where an X's four ends lie
END = 0.05  # a corner this much inked holds a stroke's end
CROSSED_WIDE = 0.15  # seen over its cell, a doubtful dot or stroke with this share of its ink across its first stroke
CORNERED = 0.1  # the corners are looked at this share of the cell's shorter side in: clear of its rounded frame
WIDE_PALE = 0.85  # seen wider, an X's second stroke is as dark as its first: a strike's "second" is paler than this
UNSTRUCK = 0.06  # faint ink over this share of a box no player strikes: pencil its print hides
EMPTY = 0.015  # an empty box has less than this share of its inner part inked
HOLDS_INK = 0.03  # a lock or other box with this share of its inner part inked holds a mark: an X its print hides
CROSSING_LINE = 0.95  # at a sheet's light threshold, under this share on one stroke ...
CROSSING = 0.05  # ... and this on a second across it: two strokes crossing, a light X more often than not
PRINTED = 0.35  # a cell with this share of its inner part printed (its number) hides much of an X
BROAD = 0.4  # ... where a stroke this broad across its length may be an X's pieces
FILL = 0.6  # a fill covers more of a box than this; a wide pen's strike along a low box covers half of it


@record
class BoxReading:
    kind: str  # "cell", "bis", "lock", "penalty", "bar"
    row: int  # the row (cells, Bis boxes, locks); the box's index for penalties and the bar
    index: int  # the cell's index in its row; 0 for the others
    crossed: bool
    confidence: float
    what: str  # "cross", "fill", "empty", "stroke", "strike" (a stroke seen again: no X), "dot", "faint"...

    @property
    def ident(self) -> str:
        """The box's name in reports and on the review page: "cell 1.5", "lock 2", "penalty 3", "bar 4"."""
        if self.kind in ("cell", "bis"):
            return f"{self.kind} {self.row + 1}.{self.index + 1}"
        return f"{self.kind} {self.row + 1}"


@record
class SheetReading:
    identity: Identity
    boxes: tuple[BoxReading, ...]
    where: str  # the file and the sheet's place in it: "page 1, sheet 3"
    note: str = ""  # what the player should know of how it was read (a code taken from its page's others)

    @property
    def doubtful(self) -> tuple[BoxReading, ...]:
        return tuple(box for box in self.boxes if box.confidence < CONFIDENT)


Layout = Callable[[Identity], tuple[Grid, SheetPlan, Drawing]]


def plan_boxes(plan: SheetPlan) -> list[tuple[str, int, int, Box]]:
    """Every box a player may cross, with what it is: (kind, row or index, index, box in mm)."""
    boxes = [("cell", cell.row, cell.index, cell.pale) for cell in plan.cells]
    boxes += [("bis", cell.row, cell.index, cell.bis_box) for cell in plan.cells if cell.bis_box is not None]
    boxes += [("lock", lock.row, 0, lock.box) for lock in plan.locks]
    boxes += [("penalty", box.index, 0, box.box) for box in plan.penalties]
    boxes += [("bar", box.index, 0, box.box) for box in plan.bar]
    return boxes


def sheets_in(picture: Picture, where: str, given: Identity | None, layout: Layout) -> list[SheetReading]:
    """Every sheet found in ``picture``: its markers grouped, its code read (or ``given``, or, where its
    code is not read, its page's other sheets' codes), its boxes decided."""
    from . import vision

    markers = [m for m in vision.find_markers(picture) if m.ident < 4]
    if not markers:
        raise InputError(where, "", "no sheetgen marks found: no corner markers (a sheet printed before sheetgen"
                                    " printed them, with --no-machine-marks, or not a sheetgen sheet)")
    sizes = [SIZES[given.size]] if given is not None else list(SIZES.values())
    found = [(group, size, f"{where}: sheet {number}")
             for number, (group, size) in enumerate(_groups(markers, sizes, where), 1)]
    codes = [_code(picture, group, size, at) for group, size, at in found]
    readings = []
    for (group, _, at), identity in zip(found, codes):
        note = ""
        if identity is None and given is None:
            identity, note = _from_siblings(codes, layout)
        identity = identity or given
        if identity is None:
            raise InputError(at, "", "no code read on this sheet to say its grid: give --grid (and --lang,"
                                     " --size, --theme as printed)")
        grid, plan, drawing = layout(identity)
        readings.append(replace(read_sheet(picture, group, plan, drawing, identity, at), note=note))
    return readings


def _from_siblings(codes: list[Identity | None], layout: Layout) -> tuple[Identity | None, str]:
    """A sheet whose code is not read, read as its page's other sheets: the grid, language, size, theme
    and strip their codes agree on (none where they do not), with a note of what stays unknown (its
    serial number, and its lucky numbers where the grid has them: the reading needs neither)."""
    read = [code for code in codes if code is not None]
    if not read or len({(c.grid, c.lang, c.size, c.theme, c.strip, c.version) for c in read}) > 1:
        return None, ""
    sibling = read[0]
    grid = layout(sibling)[0]
    unknown = (["serial number"] if sibling.serial is not None else []) + (["lucky numbers"] if grid.lucky else [])
    note = ("its code was not read: read with the grid, language, size and theme of the other sheets' codes on"
            " its page")
    if unknown:
        note += f"; its {' and '.join(unknown)} unknown"
    return replace(sibling, serial=None, lucky=()), note


def _groups(markers: list[Marker], sizes: list[Any], where: str) -> list[tuple[list[Marker], Any]]:
    """The markers of each sheet, with its size: each sheet's markers grouped as the size that
    groups the most of them (a code, read next, then says the size it was printed at)."""
    best: list[tuple[list[Marker], Any]] = []
    for size in sizes:
        found = [(group, size) for group in _group(markers, size)]
        if sum(len(g) for g, _ in found) > sum(len(g) for g, _ in best):
            best = found
    if not best:
        raise InputError(where, "", "no sheetgen marks found: fewer than three corner markers of one sheet")
    return sorted(best, key=lambda item: (min(c[1] for m in item[0] for c in m.corners),
                                          min(c[0] for m in item[0] for c in m.corners)))


def _group(markers: list[Marker], size: Any) -> list[list[Marker]]:
    """Markers of one sheet together: each marker predicts its sheet's centre; markers of different
    corners whose predictions meet belong together."""
    width, height = size.width, size.height
    plan_corners = corner_squares(width, height)
    predicted = [_predicted_centre(marker, plan_corners[marker.ident], width, height) for marker in markers]
    groups: list[list[int]] = []
    for i, (centre, side) in enumerate(predicted):
        near = [(math.dist(centre, predicted[group[0]][0]), n) for n, group in enumerate(groups)
                if all(markers[j].ident != markers[i].ident for j in group)]
        distance, best = min(near, default=(math.inf, -1))
        if distance < side * 8:
            groups[best].append(i)
        else:
            groups.append([i])
    return [[markers[i] for i in group] for group in groups if len(group) >= 3]


# Pixels per mm where the code is looked for, in turn: at 12 a 0.35 mm module takes 4 pixels; OpenCV's
# detectors miss a few codes at one scale that they read at another (a longo sheet's, on a clean page).
CODE_SCALES = (12.0, 16.0, 9.0)
# The part of a sheet, mm left of and above its bottom-right corner, that holds its code at any size: left of
# the bottom-right marker, or above the totals line where that line takes the sheet's width (the highest: on
# an A6 sheet, 30.2 mm above the corner).
CODE_AREA = (30.0, 32.0)


def _code(picture: Picture, markers: list[Marker], size: Any, where: str) -> Identity | None:
    """The identity in the code of the sheet of ``markers``, if one is read: the sheet's bottom-right
    part warped straight at a scale that makes the code's modules a few pixels each."""
    from . import vision

    squares = corner_squares(size.width, size.height)
    left, top = size.width - CODE_AREA[0], size.height - CODE_AREA[1]
    source = [corner for marker in markers for corner in marker.corners]
    for scale in CODE_SCALES:
        target = [((x - left) * scale - 0.5, (y - top) * scale - 0.5) for marker in markers
                  for x, y in _square(squares[marker.ident])]
        area = vision.warp(picture, vision.homography(source, target), round(CODE_AREA[0] * scale),
                           round(CODE_AREA[1] * scale))
        text = vision.read_code(area)
        if text is not None:
            return decode(text, where)
    return None


def _predicted_centre(marker: Marker, square: Box, width: float, height: float) -> tuple[tuple[float, float], float]:
    """Where the centre of the sheet of ``marker`` is in the picture, and the marker's side in pixels.

    The marker's own edges give the sheet's axes (pixels per mm, across and down); extrapolating them
    keeps an error of a pixel in a corner to a few pixels at the centre, where a homography from one
    small marker would swing its perspective terms by a sheet's width.
    """
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = marker.corners
    across = ((x1 - x0 + x2 - x3) / (2 * square.w), (y1 - y0 + y2 - y3) / (2 * square.w))
    down = ((x3 - x0 + x2 - x1) / (2 * square.h), (y3 - y0 + y2 - y1) / (2 * square.h))
    cx, cy = (x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4
    dx, dy = width / 2 - square.cx, height / 2 - square.cy
    side = math.dist(marker.corners[0], marker.corners[1])
    return (cx + across[0] * dx + down[0] * dy, cy + across[1] * dx + down[1] * dy), side


def _square(box: Box) -> list[tuple[float, float]]:
    return [(box.x, box.y), (box.right, box.y), (box.right, box.bottom), (box.x, box.bottom)]


def read_sheet(picture: Picture, markers: list[Marker], plan: SheetPlan, drawing: Drawing, identity: Identity,
               where: str) -> SheetReading:
    """Warp the sheet of ``markers`` to the plan's frame and decide each of its boxes."""
    from . import vision

    assert plan.machine is not None, "the reader's plans keep the marks' room"
    squares = plan.machine.fiducials
    source = [corner for marker in markers for corner in marker.corners]
    target = [(x * SCALE - 0.5, y * SCALE - 0.5) for marker in markers for x, y in _square(squares[marker.ident])]
    matrix = vision.homography(source, target)
    width, height = round(plan.width * SCALE), round(plan.height * SCALE)
    sheet = vision.warp(picture, matrix, width, height)
    template, darkest = _template(drawing), _template(_regular(drawing))
    boxes = plan_boxes(plan)
    pixels = [_pixels(box) for *_, box in boxes]
    dark = vision.darkness(sheet, template, SCALE, pixels, round(ALIGN * SCALE), darkest)
    features = vision.box_features(dark, pixels, INK, STROKE * SCALE)
    decided = _strikes(vision, dark, pixels, [decide(f) for f in features], features)
    decided = _pencil(vision, dark, pixels, decided, features)
    kinds = [kind for kind, *_ in boxes]
    decided = _printed(vision, template, kinds, pixels, decided, features)
    decided = _guesses(decided, features, pixels)
    wide = [_pixels(box, WIDE) for *_, box in boxes]
    decided = _wider(vision, dark, kinds, wide, decided, features)
    decided = _ends(vision, dark, template, kinds, [_pixels(box, CORNERED) for *_, box in boxes], decided, features)
    decided = _never_struck(kinds, decided, features)
    readings = tuple(BoxReading(kind, row, index, *d) for (kind, row, index, _), d in zip(boxes, decided))
    return SheetReading(identity, _locks_as_last_cells(readings, features), where)


def _strikes(vision: Any, dark: Picture, pixels: list[tuple[int, int, int, int]],
             decided: list[tuple[bool, float, str]], features: list[Features]) -> list[tuple[bool, float, str]]:
    """A box with most of its ink on one stroke and a little across ("stroke or cross") seen again at
    half the ink threshold: an X's short second stroke is ink and grows with the first, while what lies
    across a strike at the ink threshold is the edge of a number or frame the strike crosses (a curl or a
    lens leaves them a pixel out), lost in the strike's own grey edges at half of it.  A box that is then
    all one straight stroke is a strike, not crossed, still doubtful (a player checks it).  So is one in
    doubt only for its pale second stroke (over AMBIGUOUS, under PALE_SECOND of the first's darkness) whose
    second stroke does not then grow to PALE_SHARE: a number's grey edge, not a pen's."""
    unsure = [n for n, (crossed, _, what) in enumerate(decided) if crossed and what == "stroke or cross"]
    if not unsure:
        return decided
    out = list(decided)
    for n, f in zip(unsure, vision.box_features(dark, [pixels[n] for n in unsure], INK / 2, STROKE * SCALE)):
        if (f.line >= 0.95 and f.second < SECOND) or (features[n].second >= AMBIGUOUS and f.second < PALE_SHARE):
            out[n] = (False, 0.5, "strike")
    return out


def _pencil(vision: Any, dark: Picture, pixels: list[tuple[int, int, int, int]],
            decided: list[tuple[bool, float, str]], features: list[Features]) -> list[tuple[bool, float, str]]:
    """The sheet's own noise learnt from its sure empty boxes; a "sure empty" box with a trace over that
    noise made doubtful (a faint mark that cannot be told from an empty box is never guessed empty);
    the faint boxes (too light for ink, too dark for paper) read again at this sheet's own threshold;
    and on a sheet where three or more stay faint (pencil its print hides: pencil as grey as a mono
    sheet's hatching), a box with a trace of grey is unsure, not empty."""
    noise = _noise(vision, dark, pixels, decided)
    if noise is None:
        return decided
    decided = _traces(vision, dark, pixels, decided, noise)
    faint = [n for n, (_, _, what) in enumerate(decided) if what == "faint"]
    # light strokes and dots too, doubtful or sure: a pencil X crossing a mono sheet's hatching and its
    # number shows only between them, in pieces that at the ink threshold look like one stroke or a dot
    hidden = [n for n, ((crossed, sure, what), f) in enumerate(zip(decided, features))
              if not crossed and what in ("stroke", "strike", "dot") and _light_ink(sure, f)]
    if not faint and not hidden:
        return decided
    decided = _light(vision, dark, pixels, decided, features, sorted(faint + hidden), noise)
    if sum(1 for _, sure, what in decided if what == "faint" and sure < CONFIDENT) < 3:
        return decided
    return [(False, 0.5, "faint") if not crossed and sure >= CONFIDENT and f.faint >= PENCIL_TRACE and f.ink < 0.03
            else (crossed, sure, what) for (crossed, sure, what), f in zip(decided, features)]


def _noise(vision: Any, dark: Picture, pixels: list[tuple[int, int, int, int]],
           decided: list[tuple[bool, float, str]]) -> float | None:
    """How dark this sheet's sure empty boxes get: their 99th percentiles' upper tenth (the sheet's own
    paper, noise, moire and hatching left over), or None on a sheet with fewer than five of them."""
    empty = [pixels[n] for n, (crossed, sure, what) in enumerate(decided) if what == "empty" and sure >= CONFIDENT]
    if len(empty) < 5:
        return None
    levels = sorted(vision.quantiles(dark, empty, 0.99))
    return float(levels[len(levels) * 9 // 10])


def _traces(vision: Any, dark: Picture, pixels: list[tuple[int, int, int, int]],
            decided: list[tuple[bool, float, str]], noise: float) -> list[tuple[bool, float, str]]:
    """A sure empty box is sure only where it is within the noise of this sheet's empty boxes: one with
    more than a speck over that noise (a faint pencil X too light for the ink threshold) is doubtful.
    So is a sure dot that, seen at the sheet's own light threshold, reaches the box's four quarters
    along two crossing strokes: the specks of an X just as dark as the ink threshold."""
    threshold = max(TRACE_FLOOR, noise * 1.5)
    sure = [n for n, (crossed, certain, what) in enumerate(decided) if what == "empty" and certain >= CONFIDENT]
    shares = vision.shares(dark, [pixels[n] for n in sure], threshold)
    out = list(decided)
    for n, share in zip(sure, shares):
        if share >= FAINT:
            out[n] = (False, 0.5, "faint")
    dots = [n for n, (crossed, certain, what) in enumerate(decided) if what == "dot" and certain >= CONFIDENT]
    light = max(LIGHT, noise * PLAIN)
    for n, f in zip(dots, vision.box_features(dark, [pixels[n] for n in dots], light, STROKE * SCALE)):
        if f.reach >= 0.75 and f.second >= 0.2:
            out[n] = (False, 0.5, "faint")
    return out


def _light(vision: Any, dark: Picture, pixels: list[tuple[int, int, int, int]], decided: list[tuple[bool, float, str]],
           features: list[Features], faint: list[int], noise: float) -> list[tuple[bool, float, str]]:
    """The faint boxes and light strokes and dots read again at this sheet's own threshold, for light pencil:
    well over the darkest that this sheet's sure empty boxes reach (``noise`` times ``PLAIN``).  A doubtful
    box that is then plainly an X (two strokes that reach its four quarters) is crossed.  One of light ink
    (``_light_ink`` at the ink threshold) that shows two strokes crossing (under CROSSING_LINE on one, over
    CROSSING on the other) is doubtful, guessed crossed: a pencil X on a mono sheet's grey cell, most of it
    lighter than the ink threshold (seeds 1 to 30 of the corpus: 42 such X's to 1 strike; a sure "stroke"
    so was an X's one stroke the print left, seed 14 picture 14).  Pen strikes through a Bis cell's number
    show such crossings too, darker (seeds 16, 19, 21 and 26).  Any other stays as it was: light pencil
    that cannot be told from an empty cell is never decided."""
    threshold = max(LIGHT, noise * PLAIN)
    if threshold >= INK:  # the sheet is too noisy to see lighter ink than INK does
        return decided
    again = vision.box_features(dark, [pixels[n] for n in faint], threshold, STROKE * SCALE)
    out = list(decided)
    for n, f in zip(faint, again):
        crossed, sure, what = decided[n]
        if sure < CONFIDENT and f.reach >= 0.75 and f.ink >= 0.08 and f.second >= 0.2 and f.line + f.second >= 0.8:
            out[n] = (True, PENCIL_CROSS, "pencil cross")
        elif (not crossed and _light_ink(sure, features[n]) and f.line < CROSSING_LINE
              and f.second >= CROSSING and f.reach >= 0.5 and f.ink >= 0.04):
            out[n] = (True, min(sure, 0.5), what)
    return out


def _light_ink(sure: float, f: Features) -> bool:
    """Ink light enough to be pencil read again lighter: under LIGHT_INK, or LIGHT_STROKE for a sure stroke
    or dot.  On seeds 1 to 40, of the sure ones between the two that _light saw crossing, 4 were X's and none
    a strike or dot (3 strikes over LIGHT_STROKE); doubtful boxes between them held pen strikes through Bis
    cells' numbers that it saw crossing."""
    return f.darkness < (LIGHT_STROKE if sure >= CONFIDENT else LIGHT_INK)


def _printed(vision: Any, template: Picture, kinds: list[str], pixels: list[tuple[int, int, int, int]],
             decided: list[tuple[bool, float, str]], features: list[Features]) -> list[tuple[bool, float, str]]:
    """A cell whose number's print covers much of its inner part (over PRINTED: a bold "10" or "12") hides most
    of an X's strokes: a sure stroke or dot there that is not a thin line (spread over ``BROAD``) is doubtful,
    guessed not crossed until its corners say otherwise (_ends; the stroke guess of _guesses is not for it:
    there it crossed struck and dotted cells, seeds 2, 5 and 26).  On seeds 1 to 30, 14 such readings were
    X's and 85 strikes or dots."""
    broad = [n for n, (kind, (crossed, sure, what), f) in enumerate(zip(kinds, decided, features)) if kind == "cell"
             and not crossed and sure >= CONFIDENT and what in ("stroke", "dot") and f.spread >= BROAD]
    if not broad:
        return decided
    out = list(decided)
    for n, level in zip(broad, vision.quantiles(template, [pixels[n] for n in broad], PRINTED)):
        if level < 0.5:  # over PRINTED of the inner part printed darker than mid grey
            out[n] = (False, 0.5, f"{decided[n][2]} under its number")
    return out


def _guesses(decided: list[tuple[bool, float, str]], features: list[Features],
             pixels: list[tuple[int, int, int, int]]) -> list[tuple[bool, float, str]]:
    """The guess for boxes already doubtful (they stay doubtful, for the player to check; the guess is
    what the marks say until then).  A doubtful stroke that misses one of the box's quarters, with
    little fainter ink about it, is an X with one stroke hidden under a number or the box's print (a
    strike through a box's middle reaches its four quarters; in a low box, a strike along it may miss
    one, so not there); a doubtful "dot" with as much ink as a stroke is an X askew.  Both guessed
    crossed; a box read surely is left as read."""
    out = list(decided)
    for n, ((crossed, sure, what), f, box) in enumerate(zip(decided, features, pixels)):
        if crossed or sure >= CONFIDENT:
            continue
        if what == "stroke" and f.reach < 1 and f.faint < GUESS_FAINT * f.ink and not _low(box):
            out[n] = (True, sure, what)
        elif what == "dot" and f.ink >= GUESS_DOT:
            out[n] = (True, sure, what)
    return out


def _wider(vision: Any, dark: Picture, kinds: list[str], wide: list[tuple[int, int, int, int]],
           decided: list[tuple[bool, float, str]], features: list[Features]) -> list[tuple[bool, float, str]]:
    """Cells seen again over nearly all of each (``wide``), not its inner part only: where a bold number
    hides an X's middle, the X's four ends lie outside the inner part, and a strike across a narrow cell
    reaches past it on two sides as one long stroke.  A doubtful cell read surely so takes that reading as
    its guess, and stays doubtful.  So is seen a sure cross with most of its ink on one stroke (STRIKE_LINE):
    a strike through a low Bis cell, a wide pen's, whose number's edges or ends read as a short second
    stroke in the inner part; one that is surely not crossed when seen so is doubtful, guessed not crossed.
    (Sure strokes that miss a quarter are not seen so: a strike's wider part holds its neighbours' edges
    and overshoot, and seeds 1 and 2 of the corpus read four of them as crosses so, and no X.)  Locks go by
    their rows' last cells, and the other boxes are too small for a wider part clear of their frames.  A
    cross seen wider whose second stroke is paler than its first there (under WIDE_PALE) and in the inner part
    (under PALE_SECOND) is not taken: an X's two strokes are one pen's, while the edges of the number a
    strike crosses, a pixel out, are grey (seed 9 picture 28, seed 12 picture 69: struck Bis cells, 0.63 to
    0.82 seen wider, 0.37 to 0.56 inside; their X's 0.87 or more seen wider)."""
    unsure = [n for n, (kind, (_, sure, what), f) in enumerate(zip(kinds, decided, features)) if kind == "cell"
              and (sure < CONFIDENT or (what == "cross" and f.line >= STRIKE_LINE))]
    if not unsure:
        return decided
    out = list(decided)
    for n, f in zip(unsure, vision.box_features(dark, [wide[n] for n in unsure], INK, STROKE * SCALE)):
        crossed, sure, what = decide(f)
        if sure < CONFIDENT or (crossed and f.second_darkness < WIDE_PALE
                                and features[n].second_darkness < PALE_SECOND):
            continue  # unsure seen wider too, or a "cross" whose second stroke is pale there and in the inner part
        if decided[n][1] < CONFIDENT:
            out[n] = (crossed, decided[n][1], decided[n][2])
        elif crossed != decided[n][0]:
            out[n] = (crossed, 0.5, f"{what}, seen wider")
    return out


def _ends(vision: Any, dark: Picture, template: Picture, kinds: list[str], cells: list[tuple[int, int, int, int]],
          decided: list[tuple[bool, float, str]], features: list[Features]) -> list[tuple[bool, float, str]]:
    """Doubtful cells guessed by their corners, each cell seen but for a rim (``cells``: clear of its rounded
    frame, which a pixel out reads as ink in every corner of a cell): an X's strokes run
    from corner to corner, so its ends lie in three or four of the cell's corners whatever number hides its
    middle, while a strike through the middle, a dot or a number's edge leaves every corner clean.  A
    doubtful cell with ink in three corners or more is guessed crossed; one with none, not crossed; it stays
    doubtful.  Light ink (a faint box, pencil) is looked for at half the ink threshold, times the cell's own
    paper (its print's median, from ``template``): graphite darkens a grey cell less than white paper, a
    mid grey pencil 0.18 at most on a mono sheet's 0.75 grey against 0.43 on white.  In a low cell (a Bis
    cell) a strike along it reaches its corners too, so there three corners guess crossed only ink that is
    not read as a stroke; no corner is no X there either (seeds 1 to 30 of the corpus: 9 strikes through Bis
    cells' numbers guessed crossed as "stroke or cross" before, none of their X's without an end).  A doubtful
    dot or stroke in a square cell that, seen so over all of its cell, shows a second stroke across its first
    (CROSSED_WIDE of its ink) is an X whose arms lie outside the inner part, guessed crossed (seeds 1 to 30:
    4 X's, no strike).  And a sure cross, in any cell, with ink in one corner or none is doubtful (guessed
    crossed with one, not with none): a wide pen's strike across a low cell's number reads as a round blob in
    its four quarters, an X in the inner part (seed 22 picture 22, a certain sheet read wrong; seeds 10, 16,
    17), while no sure cross of seeds 1 to 9 had no end at all and 4 of 12,389 had one."""
    unsure = [n for n, (kind, (_, sure, what)) in enumerate(zip(kinds, decided))
              if kind == "cell" and (sure < CONFIDENT or what == "cross")]
    if not unsure:
        return decided
    light = [n for n in unsure if decided[n][2] == "faint" or features[n].darkness < LIGHT_INK]
    paper = dict(zip(light, vision.quantiles(template, [cells[n] for n in light], 0.5)))  # light ink's cells only
    low = {n for n in unsure if _low(cells[n])}
    square = [n for n in unsure if decided[n][1] < CONFIDENT and decided[n][2] in ("dot", "stroke") and n not in low]
    across = dict(zip(square, vision.box_features(dark, [cells[n] for n in square], INK, STROKE * SCALE)))
    out = list(decided)
    for n in unsure:
        _, sure, what = decided[n]
        threshold = INK / 2 * min(paper[n], 1.0) if n in paper else INK
        ends = sum(share >= END for share in vision.corners(dark, cells[n], threshold, ENDS))
        if sure >= CONFIDENT:
            if ends <= 1:  # a sure cross with its ends in no corner, or one: a strike's blob, doubtful
                out[n] = (ends == 1, 0.5, "cross without its ends")
        elif ends == 0 or (ends >= 3 and not (n in low and what.startswith("stroke"))):
            out[n] = (ends >= 3, sure, what)
        if n in across and across[n].second >= CROSSED_WIDE and across[n].ink >= HOLDS_INK:
            out[n] = (True, sure, what)
    return out


def _never_struck(kinds: list[str], decided: list[tuple[bool, float, str]],
                  features: list[Features]) -> list[tuple[bool, float, str]]:
    """Players strike the cells they skip, never a lock, a penalty box, a small box or a bonus box: in those,
    ink read as one stroke, a dot or faint pencil is an X whose strokes their print (a padlock, a "-5", a
    frame) hides.  Such a box read not crossed, with ink over ``HOLDS_INK`` or faint ink over ``UNSTRUCK``, is
    guessed crossed, doubtful: a stray mark there is for the player to check (and a lock goes on by its row's
    last cell, next).  On the corpus's 1,300 sheets no box but a cell held ink that was not an X.  One with
    less ink, but some (what ``decide`` does not call empty), is doubtful, guessed not crossed: seed 31
    picture 39, an impossible sheet, has an X on a mono lock's dark padlock read as a sure dot of 0.016 of
    ink, and the sheet was certain and wrong; seeds 37 and 38 have specks as light in empty boxes."""
    def read(kind: str, crossed: bool, sure: float, what: str, f: Features) -> tuple[bool, float, str]:
        if kind == "cell" or crossed:
            return crossed, sure, what
        if f.ink >= HOLDS_INK or f.faint >= UNSTRUCK:
            return True, min(sure, 0.5), what
        return (False, min(sure, 0.5), what) if f.ink >= EMPTY else (crossed, sure, what)

    return [read(kind, crossed, sure, what, f) for kind, (crossed, sure, what), f in zip(kinds, decided, features)]


def _locks_as_last_cells(readings: tuple[BoxReading, ...], features: list[Features]) -> tuple[BoxReading, ...]:
    """Locks checked against their rows' last cells: the rules cross the lock exactly when the last cell
    is crossed, and a lock is small, its printed padlock hiding ink.  Beside a surely crossed last cell, a
    lock not surely crossed is crossed when it holds ink (an X whose strokes the padlock hides, read as a
    stroke or a dot), doubtful when it holds none (a lock left blank is for the player to check, never
    guessed).  Beside a surely empty last cell, a doubtful lock without ink (under EMPTY) is empty; one with
    any stays doubtful as read (a misread, or a lock crossed without its last cell, which the rules refuse:
    such a sheet is never made certain by the rule it breaks).  Beside a doubtful last cell, a lock in doubt, or
    read not crossed but with ink, takes the cell's guess and is doubtful: the rules cross them together."""
    last: dict[int, BoxReading] = {}
    for box in readings:
        if box.kind == "cell" and (box.row not in last or box.index > last[box.row].index):
            last[box.row] = box
    out = []
    for box, f in zip(readings, features):
        cell = last.get(box.row)
        if box.kind == "lock" and cell is not None and cell.confidence >= CONFIDENT:
            if cell.crossed and (not box.crossed or box.confidence < CONFIDENT):
                box = (BoxReading(box.kind, box.row, box.index, True, min(cell.confidence, 0.8), "as its row's last"
                                  " cell") if f.ink >= HOLDS_INK else
                       BoxReading(box.kind, box.row, box.index, True, 0.5, "empty, its row's last cell crossed"))
            elif not cell.crossed and box.confidence < CONFIDENT and f.ink < EMPTY:
                box = BoxReading(box.kind, box.row, box.index, False, cell.confidence, "as its row's last cell")
            # a lock with ink beside a surely empty last cell stays as read: a misread, or a sheet the rules refuse
        elif box.kind == "lock" and cell is not None and (box.confidence < CONFIDENT
                                                          or (not box.crossed and f.ink >= HOLDS_INK)):
            # beside a doubtful last cell the lock goes with the cell's guess, doubtful too (the sheet's legal
            # readings try them together): a lock in doubt, or one with ink the reader saw as no X; a lock
            # surely crossed stays so
            if box.crossed != cell.crossed:
                box = BoxReading(box.kind, box.row, box.index, cell.crossed, min(box.confidence, 0.5),
                                 "as its row's last cell")
        out.append(box)
    return tuple(out)


def _low(pixels: tuple[int, int, int, int]) -> bool:
    """A box in warped pixels lower than LOW of its width: a Bis box, along which a strike may miss a quarter
    or reach its corners."""
    return pixels[3] < LOW * pixels[2]


def _pixels(box: Box, inset: float = 0.18) -> tuple[int, int, int, int]:
    """The inner part of ``box`` in warped pixels: a fifth off each side (``inset`` of its shorter side),
    clear of its frame and of a neighbour's overshoot."""
    inner = box.inset(min(box.w, box.h) * inset)
    return (round(inner.x * SCALE), round(inner.y * SCALE), max(round(inner.w * SCALE), 1),
            max(round(inner.h * SCALE), 1))


def decide(f: Features) -> tuple[bool, float, str]:
    """Crossed or not, how sure, and what the box seems to hold."""
    if f.ink < EMPTY:
        if f.faint >= FAINT:  # too light for ink, too much for paper: pencil, perhaps, on a dark cell
            return False, 0.5, "faint"
        return False, min(1.0, 0.7 + (EMPTY - f.ink) * 20), "empty"
    if f.ink > 0.45:
        if f.line >= 0.95 and f.ink < FILL:  # half the box, all of it on one band: a wide strike, or a fill?
            return False, 0.5, "stroke"
        return True, min(1.0, 0.7 + (f.ink - 0.45) * 2), "fill"
    if f.line >= 0.9 and f.ink < 0.45 and f.second < SECOND:  # its ink on one straight band: a strike
        if f.faint > 3 * f.ink and f.faint > 0.1:  # much lighter ink around it: one stroke of a light X?
            return False, 0.5, "faint"
        if f.ink < 0.03:
            return False, 0.75, "stroke"
        if f.spread > 0.6 and f.ink < 0.15:  # round, and all of it within a stroke's width: a dot
            # but one in all four quarters is centred on the number: an X's middle, its arms under a bold
            # number, or a strike's piece between its digits, more often than a dot (seeds 1 to 13 of the corpus:
            # 11 X's, 5 strikes and 5 dots read so before), so doubtful
            return False, 0.5 if f.reach >= 1 else 0.8, "dot"
        if f.line >= 0.95 and f.second < SURE_STRIKE:  # all on one band, next to nothing across: not an X
            return False, min(1.0, 0.8 + max(0.0, 0.4 - f.spread)), "stroke"
        return False, 0.5, "stroke"  # or an X with one short stroke: to be checked
    if f.reach < 0.75:
        return False, 0.75 if f.ink < 0.05 and f.reach <= 0.25 else 0.5, "dot"  # ink in two quarters: an X askew?
    if f.darkness < 0.3:  # light ink: pencil, or a tint the light correction left
        if f.reach >= 0.75 and f.ink >= 0.1 and f.second >= 0.2 and f.spread >= 0.25:
            return True, 0.8, "cross"  # light, but plainly two strokes across the whole box: a pencil X
        return f.ink > 0.08, 0.4, "faint"
    if f.spread < 0.4 and f.second < 0.15:  # long and thin, a little ink across: a wobbly strike or a thin X
        return False, 0.5, "stroke"
    if f.line >= 0.8 and (f.second < AMBIGUOUS or (f.second < PALE_SHARE and f.second_darkness < PALE_SECOND)):
        # most on one stroke, a little across: a strike over a number, or an X with a short second stroke (the
        # sheet's player checks); so is a second stroke much paler than the first: a blurred number's grey
        # edge beside a strike reads as ink, paler than any pen's
        return True, 0.5, "stroke or cross"
    if f.second_darkness < PALEST:  # a strike beside a number's grey edge, blurred (no X on seeds 1 to 9 so pale)
        return False, 0.5, "stroke"
    sure = min(1.0, 0.6 + (f.ink - 0.04) * 4 + (f.spread - 0.25))
    return True, max(0.0, sure), "cross"


@lru_cache(maxsize=16)
def _template(drawing: Drawing) -> Picture:
    """The empty sheet, marks included, at the reading scale: what each pixel should look like unfilled."""
    from ..pdf.raster import rasterise_png
    from ..pdf.render import render_page
    from . import vision

    pdf = render_page(Drawing(drawing.width, drawing.height, ()), [_placed(drawing)])
    return vision.from_png(rasterise_png(pdf, Box(0, 0, drawing.width, drawing.height), SCALE * 25.4))


def _regular(drawing: Drawing) -> Drawing:
    """``drawing`` with the numbers of the light face in the regular one, as wide and a little bolder: the
    darkest a printed hairline may look once warped (a pixel off, it is darker than the template's own
    antialiased grey there; read against the light template alone, ink-saver sheets' empty boxes showed
    0.086 of darkness, not 0.0008, and light pencil hid under that noise).  The same drawing if it has none."""
    if not any(isinstance(item, Text) and item.light for item in drawing.items):
        return drawing
    return Drawing(drawing.width, drawing.height, tuple(
        replace(item, light=False) if isinstance(item, Text) and item.light else item for item in drawing.items))


def _placed(drawing: Drawing) -> Any:
    from ..pdf.geometry import Placed

    return Placed(drawing, 0.0, 0.0)


