"""The only module that imports OpenCV (cv2) and numpy: pictures in, plain numbers out.

Everything else in ``scan/`` works on what this module returns (marker corners,
code texts, per-box features as floats); pictures stay opaque ``Picture``
values.  It is imported only by a scan, so that printing never loads OpenCV.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from ..records import record


def _libraries() -> tuple[ModuleType, ModuleType]:
    """OpenCV and numpy, imported when a picture is first worked on: importing this module
    (as every module is imported by some checks) loads neither."""
    import cv2
    import numpy

    return cv2, numpy

Point = tuple[float, float]


@record
class Picture:
    """A grey picture, 0 (black) to 1 (white), as float32 rows; ``pixels`` is the numpy array."""

    pixels: Any
    width: int
    height: int


@record
class Marker:
    ident: int
    corners: tuple[Point, ...]  # the marker's own top-left, top-right, bottom-right, bottom-left, pixels


@record
class Features:
    """What a box holds, ink measured against the empty sheet's template, 0 to 1."""

    ink: float  # the share of the box's inner part darker than expected
    spread: float  # how far the ink spreads in its narrower direction, against its wider (0: a line, 1: round)
    reach: float  # the share of the inner part's four quarters that hold ink (an X and a fill reach all four)
    darkness: float  # mean darkness of the inked pixels
    line: float = 0.0  # the share of the ink on one straight stroke (a strike: near 1; an X: well under)
    faint: float = 0.0  # the share of the inner part half as much darker as ink is: pencil too light to be ink
    second: float = 0.0  # the share of the ink on a second straight stroke, across the first (an X: well over 0)
    # the mean darkness of the second stroke's ink against the first's: an X's strokes are one pen's (near 1 or
    # over); a printed number's edge that a strike leaves beside itself is lighter; 1 where there is no second
    second_darkness: float = 1.0


def decode(data: bytes) -> Picture | None:
    """The picture in ``data`` (JPEG, PNG, TIFF...), or None if OpenCV cannot decode it."""
    cv2, np = _libraries()
    buffer = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(buffer, cv2.IMREAD_GRAYSCALE)
    if image is None:
        return None
    return _picture(image)


def from_png(data: bytes) -> Picture:
    picture = decode(data)
    assert picture is not None, "a PNG this program made decodes"
    return picture


def _picture(grey: Any) -> Picture:
    cv2, np = _libraries()
    pixels = grey.astype(np.float32) / 255.0
    return Picture(pixels, int(pixels.shape[1]), int(pixels.shape[0]))


def find_markers(picture: Picture) -> list[Marker]:
    """The corner markers (DICT_4X4_50) found in ``picture``."""
    cv2, np = _libraries()
    grey = (picture.pixels * 255).astype(np.uint8)
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # the markers are 4 mm: a whole page at 100 dpi makes them 16 pixels, under the default's 3 % of
    # the picture's side; a photo's are smaller still against its size
    parameters.minMarkerPerimeterRate = 0.005
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), parameters)
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return []
    return [Marker(int(ident), tuple((float(x), float(y)) for x, y in quad.reshape(4, 2)))
            for quad, ident in zip(corners, ids.flatten())]


def read_code(picture: Picture) -> str | None:
    """The text of the QR code in ``picture`` (a small rectified part of a sheet), or None."""
    cv2, np = _libraries()
    grey = (np.clip(picture.pixels, 0.0, 1.0) * 255).astype(np.uint8)
    # OpenCV's two detectors miss different codes (its first missed a longo sheet's on a clean page):
    # the second, which finds the finder patterns as ArUco markers, when the first finds nothing.
    for detector in (cv2.QRCodeDetector, cv2.QRCodeDetectorAruco):
        text, _, _ = detector().detectAndDecode(grey)
        if text:
            return str(text)
    return None


def homography(source: list[Point], target: list[Point]) -> Any:
    cv2, np = _libraries()
    matrix, _ = cv2.findHomography(np.array(source, np.float64), np.array(target, np.float64), 0)
    return matrix


def project(matrix: Any, points: list[Point]) -> list[Point]:
    cv2, np = _libraries()
    moved = cv2.perspectiveTransform(np.array([points], np.float64), matrix)[0]
    return [(float(x), float(y)) for x, y in moved]


def invert(matrix: Any) -> Any:
    cv2, np = _libraries()
    return np.linalg.inv(matrix)


def warp(picture: Picture, matrix: Any, width: int, height: int) -> Picture:
    """``picture`` seen through ``matrix`` (picture pixels -> target pixels), ``width`` x ``height``."""
    cv2, np = _libraries()
    out = cv2.warpPerspective(picture.pixels, matrix, (width, height), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    return Picture(out, width, height)


def darkness(sheet: Picture, template: Picture, scale: float, boxes: Sequence[tuple[int, int, int, int]] = (),
             slack: int = 0, darkest: Picture | None = None) -> Picture:
    """How much darker each pixel of ``sheet`` is than the empty ``template``, 0 to 1, after the
    light is corrected: the sheet's brightness is divided by its large-scale ratio to the template's
    (uneven light, a shadow, grey paper), measured on the template's white paper only.  Around each
    of ``boxes`` (x, y, w, h pixels) the template is first moved by up to ``slack`` pixels each way
    to where it matches the sheet best (curl and a lens bend a sheet more than its four markers say),
    so that a frame or a hatching a pixel or eight out of place is not read as ink.  ``darkest``, where
    given, is the template as dark as the print may come out (hairlines printed bolder): the sheet is
    measured against it, aligned as ``template`` is."""
    cv2, np = _libraries()
    observed = sheet.pixels

    def sized(picture: Picture) -> Any:  # the raster's size rounds its own way
        pixels = picture.pixels
        if pixels.shape == observed.shape:
            return pixels
        return cv2.resize(pixels, (sheet.width, sheet.height), interpolation=cv2.INTER_AREA)

    expected = sized(template)
    paper = (expected > 0.9).astype(np.float32)
    size = int(scale * 12) | 1  # a 12 mm window: larger than a cross, smaller than a shadow's edge
    ratio = cv2.GaussianBlur(observed * paper, (size, size), 0) / np.maximum(
        cv2.GaussianBlur(expected * paper, (size, size), 0), 1e-3)
    corrected = np.ascontiguousarray(observed / np.maximum(ratio, 0.05), dtype=np.float32)
    # against the darkest expected pixel nearby: a printed edge a pixel or two off is not ink
    bold = expected if darkest is None or darkest is template else sized(darkest)
    nearby = cv2.erode(bold, np.ones((3, 3), np.uint8))
    dark = np.clip(nearby - corrected, 0.0, 1.0)
    margin = 2 * slack
    height, width = corrected.shape
    for x, y, w, h in boxes if slack else ():
        x0, y0, x1, y1 = x - margin, y - margin, x + w + margin, y + h + margin
        if x0 - slack < 0 or y0 - slack < 0 or x1 + slack > width or y1 + slack > height:
            continue
        frame = expected[y0:y1, x0:x1]
        if float(frame.std()) < 0.02:  # nothing printed to align with
            continue
        seen = corrected[y0 - slack:y1 + slack, x0 - slack:x1 + slack]
        score = cv2.matchTemplate(seen, np.ascontiguousarray(frame), cv2.TM_CCOEFF_NORMED)
        dy, dx = (int(v) - slack for v in np.unravel_index(int(np.argmax(score)), score.shape))
        if dx or dy:
            dark[y:y + h, x:x + w] = np.clip(nearby[y - dy:y + h - dy, x - dx:x + w - dx]
                                             - corrected[y:y + h, x:x + w], 0.0, 1.0)
    return Picture(dark, sheet.width, sheet.height)


def box_features(dark: Picture, boxes: list[tuple[int, int, int, int]], threshold: float,
                 band: float) -> list[Features]:
    """The features of each box (x, y, w, h pixels) of the darkness picture ``dark``; ``band`` is the
    width in pixels of the band a single stroke fills."""
    cv2, np = _libraries()
    result = []
    pixels = dark.pixels
    for x, y, w, h in boxes:
        part = pixels[max(y, 0):y + h, max(x, 0):x + w]
        inked = part > threshold
        count = int(inked.sum())
        faint = float((part > threshold / 2).mean()) if part.size else 0.0
        if count < 3:
            result.append(Features(count / max(part.size, 1), 0.0, 0.0, 0.0, 0.0, faint))
            continue
        ys, xs = np.nonzero(inked)
        # a stroke's band, narrower in a low box, where the widest pen's band would hold an X whole
        width = min(band, 0.45 * min(part.shape))
        values = part[inked]
        spread, line, second, second_darkness = _spread(xs.astype(np.float64), ys.astype(np.float64), width, band,
                                                        values)
        hh, ww = part.shape
        quarters = [inked[:hh // 2, :ww // 2], inked[:hh // 2, ww // 2:], inked[hh // 2:, :ww // 2],
                    inked[hh // 2:, ww // 2:]]
        reach = sum(1 for q in quarters if q.size and q.mean() > 0.04) / 4
        result.append(Features(count / part.size, spread, reach, float(values.mean()), line, faint, second,
                               second_darkness))
    return result


def corners(dark: Picture, box: tuple[int, int, int, int], threshold: float, part: float) -> tuple[float, ...]:
    """The share of each corner of ``box`` (x, y, w, h pixels of ``dark``), ``part`` of its width and height,
    darker than ``threshold``: top left, top right, bottom left, bottom right."""
    x, y, w, h = box
    inked = dark.pixels[max(y, 0):y + h, max(x, 0):x + w] > threshold
    cw, ch = max(1, round(inked.shape[1] * part)), max(1, round(inked.shape[0] * part))
    return tuple(float(q.mean()) if q.size else 0.0 for q in
                 (inked[:ch, :cw], inked[:ch, -cw:], inked[-ch:, :cw], inked[-ch:, -cw:]))


def quantiles(dark: Picture, boxes: list[tuple[int, int, int, int]], share: float) -> list[float]:
    """The value under which ``share`` of each box's pixels lie (x, y, w, h pixels of ``dark``, or of a
    template: its print's brightness)."""
    cv2, np = _libraries()
    pixels = dark.pixels
    return [float(np.quantile(part, share)) if (part := pixels[max(y, 0):y + h, max(x, 0):x + w]).size else 0.0
            for x, y, w, h in boxes]


def shares(dark: Picture, boxes: list[tuple[int, int, int, int]], threshold: float) -> list[float]:
    """The share of each box's pixels darker than ``threshold`` (x, y, w, h pixels of ``dark``)."""
    cv2, np = _libraries()
    pixels = dark.pixels
    return [float((part > threshold).mean()) if (part := pixels[max(y, 0):y + h, max(x, 0):x + w]).size else 0.0
            for x, y, w, h in boxes]


def _spread(xs: Any, ys: Any, band: float, widest: float | None = None,
            values: Any = None) -> tuple[float, float, float, float]:
    """The square root of the ratio of the ink's smaller to larger principal variance, the largest
    share of the ink in one straight band ``band`` pixels wide, over every direction, and the largest
    share in a second band at least 30 degrees across the first, of the ink outside it: a strike's
    ink lies nearly all in one band, an X's along two crossing ones.  Where ``band`` is narrower than
    ``widest`` (a low box) and the first band's ink is a stroke wider than ``band`` (its pixels over
    its length), the band is that stroke's width, up to ``widest``: a wide pen's strike through a low
    box spills out of a narrow band on both sides, which read as a second stroke.  Last, with the ink's
    darkness ``values``, the mean darkness of the second band's ink against the first band's (1 without
    ``values`` or a second band)."""
    cv2, np = _libraries()
    cov = np.cov(np.vstack((xs, ys)))
    low, high = np.linalg.eigvalsh(cov)
    if high <= 0:
        return 0.0, 0.0, 0.0, 1.0
    steps = 36
    angles = np.linspace(0, np.pi, steps, endpoint=False)
    offsets = np.outer(np.cos(angles), xs) + np.outer(np.sin(angles), ys)
    offsets = np.round(offsets - offsets.min(axis=1, keepdims=True)).astype(np.int64)
    width = max(int(round(band)), 1)
    if widest is not None and widest > band:
        counts = _bands(offsets, width).max(axis=1)
        along = int(offsets[(int(np.argmax(counts)) + steps // 2) % steps].max()) + 1
        thick = 1.15 * len(xs) / along
        if thick > band:
            width = max(int(round(min(thick, widest))), 1)

    def bands(rows: Any) -> Any:
        return _bands(rows, width)

    first = bands(offsets)
    most = first.max(axis=1)
    at = int(np.argmax(most))
    best, start = int(most[at]), int(np.argmax(first[at]))
    outside = (offsets[at] < start) | (offsets[at] >= start + width)
    second = 0
    darkness = 1.0
    across = [n for n in range(steps) if min((n - at) % steps, (at - n) % steps) >= steps // 6]
    if outside.any() and across:
        rest = offsets[across][:, outside]
        rest = rest - rest.min(axis=1, keepdims=True)
        counts = bands(rest)
        second = int(counts.max())
        if values is not None and second:
            direction, begin = np.unravel_index(int(np.argmax(counts)), counts.shape)
            within = (rest[direction] >= begin) & (rest[direction] < begin + width)
            first_mean = float(values[~outside].mean())
            darkness = float(values[outside][within].mean()) / first_mean if first_mean > 0 else 1.0
    return float(np.sqrt(max(low, 0.0) / high)), best / len(xs), second / len(xs), darkness


def _bands(rows: Any, width: int) -> Any:
    """The ink in each band ``width`` wide of each row's offsets, all directions at once: row n's
    band k holds its offsets k to k + width - 1 (a row's bands past its largest offset hold none)."""
    cv2, np = _libraries()
    size = max(int(rows.max()) + 1, width + 1)
    counts = np.bincount((np.arange(len(rows))[:, None] * size + rows).ravel(), minlength=len(rows) * size)
    total = np.cumsum(counts.reshape(len(rows), size), axis=1)
    total = np.concatenate((np.zeros((len(rows), 1), total.dtype), total), axis=1)
    return total[:, width:] - total[:, :-width]
