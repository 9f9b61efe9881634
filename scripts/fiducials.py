"""Write sheetgen/data/fiducials.json: the bit patterns of the corner markers.

The sheets carry ArUco markers of OpenCV's DICT_4X4_50, ids 0 to 3, one per
corner (top-left, top-right, bottom-right, bottom-left), so that the reader
knows a sheet's orientation from any one of them.  Printing draws them from
this file, without OpenCV; run this script (with the scan extra installed)
only to make the file again:

    python scripts/fiducials.py
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2

IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
TARGET = Path(__file__).resolve().parent.parent / "sheetgen" / "data" / "fiducials.json"


def main() -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    markers = {}
    for marker in IDS:
        image = cv2.aruco.generateImageMarker(dictionary, marker, 6)  # 4 x 4 bits and a black border, a pixel each
        markers[str(marker)] = ["".join("1" if pixel < 128 else "0" for pixel in row) for row in image]
    document = {"dictionary": "DICT_4X4_50", "corners": ["top-left", "top-right", "bottom-right", "bottom-left"],
                "ids": list(IDS), "black": "1", "markers": markers}
    TARGET.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {TARGET.relative_to(Path.cwd()) if TARGET.is_relative_to(Path.cwd()) else TARGET}")


if __name__ == "__main__":
    main()
