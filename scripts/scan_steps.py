"""The pictures of docs/scan.md: one synthetic phone photo of a filled classic sheet, and what
`sheetgen scan` makes of it (the sheet found by its four corner markers, straightened to the
plan's millimetres, every box it read outlined: green crossed, grey empty, orange doubtful).

    python scripts/scan_steps.py

writes docs/scan-photo.png and docs/scan-read.png (each under 100 KB).
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scan_pictures import picture  # noqa: E402

from sheetgen.grid.load import load_grid  # noqa: E402
from sheetgen.scan import vision  # noqa: E402
from sheetgen.scan.layout import layouts  # noqa: E402
from sheetgen.scan.read import CONFIDENT, SCALE, _square, plan_boxes, sheets_in  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "docs"
SEED = 7  # a photo with a pen X, strikes through skipped cells and a tilt: a fair example
COLOURS = {"crossed": (40, 160, 40), "empty": (150, 150, 150), "doubtful": (0, 140, 255)}  # BGR
WIDTH = 760  # pixels of each picture: a page's width on a screen


def main() -> None:
    made = picture(SEED, grid=load_grid("classic"), theme="colour", kinds=("perspective", "light", "shadow"),
                   dpi=200, impossible=False)
    grey = vision.decode(made.encoded)
    assert grey is not None
    layout = layouts(None, "photo")
    reading = sheets_in(grey, "photo", None, layout)[0]
    grid, plan, _ = layout(reading.identity)
    photo = made.image.copy()
    markers = [m for m in vision.find_markers(grey) if m.ident < 4]
    for marker in markers:
        cv2.polylines(photo, [np.array(marker.corners, np.int32)], True, (0, 0, 230), 4)
    corners = np.array([c for m in markers for c in m.corners])
    (left, top), (right, bottom) = corners.min(axis=0), corners.max(axis=0)
    margin = 0.12 * (right - left)  # the photo around the sheet, not the whole table
    x0, y0 = max(0, int(left - margin)), max(0, int(top - margin))
    _write(DOCS / "scan-photo.png", photo[y0:int(bottom + margin), x0:int(right + margin)])

    assert plan.machine is not None
    squares = plan.machine.fiducials
    source = [c for m in markers for c in m.corners]
    target = [(x * SCALE - 0.5, y * SCALE - 0.5) for m in markers for x, y in _square(squares[m.ident])]
    matrix = cv2.findHomography(np.array(source, np.float32), np.array(target, np.float32))[0]
    width, height = round(plan.width * SCALE), round(plan.height * SCALE)
    sheet = cv2.warpPerspective(made.image, matrix, (width, height), borderValue=(255, 255, 255))
    read = {(b.kind, b.row, b.index): b for b in reading.boxes}
    for kind, row, index, box in plan_boxes(plan):
        box_read = read[(kind, row, index)]
        state = "doubtful" if box_read.confidence < CONFIDENT else "crossed" if box_read.crossed else "empty"
        top_left = (round(box.x * SCALE), round(box.y * SCALE))
        bottom_right = (round(box.right * SCALE), round(box.bottom * SCALE))
        cv2.rectangle(sheet, top_left, bottom_right, COLOURS[state], 3 if state != "empty" else 1)
    _write(DOCS / "scan-read.png", sheet)
    print(f"wrote docs/scan-photo.png and docs/scan-read.png ({len(reading.doubtful)} doubtful boxes)")


def _write(path: Path, image: np.ndarray) -> None:
    scale = WIDTH / image.shape[1]
    small = cv2.resize(image, (WIDTH, round(image.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    quantised = (small // 16 * 16 + 8).astype(np.uint8)  # fewer colours: a smaller PNG, the same picture
    ok, data = cv2.imencode(".png", quantised, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    assert ok
    path.write_bytes(data.tobytes())


if __name__ == "__main__":
    main()
