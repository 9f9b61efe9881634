"""What a machine reads on a sheet: corner markers and a code, as plan boxes and a payload.

``machine_room`` says where a sheet's marks go: four ArUco markers (OpenCV's
DICT_4X4_50, ids 0 to 3: top-left, top-right, bottom-right, bottom-left, so
any one of them tells the sheet's orientation) in the blank border inside the
cut line, clear of everything printed, and the square of a QR code where the
sheet has room for one (``None`` where it has not: the reader is then told the
grid, language and size on its command line).  The markers' bit patterns are
data (``sheetgen/data/fiducials.json``, made by ``scripts/fiducials.py`` with
OpenCV), so printing draws them without OpenCV.

The code's payload (``encode``/``decode``) names what the reader must know to
read the sheet back: the grid (a built-in name, or ``#`` and a hash of a
custom grid's content, so that the reader refuses the wrong file), language,
size, theme, whether the sheet has a header or serial strip, the version of
the plan's geometry, the lucky numbers and the serial number.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from functools import cache
from pathlib import Path

from ..errors import InputError
from ..grid.model import Grid
from ..pdf.geometry import Box, Code, Item, Rect
from ..records import record
from .plan import PAD, SheetPlan

# The version of the plan's geometry that the reader assumes: raised whenever a
# change moves a box a reader looks at, so that old sheets are refused, not misread.
PLAN_VERSION = 1
PREFIX = "SG"  # every payload starts with this and its format's number: SG1;...
FORMAT = 1
MARKER = 2.4  # mm, the side of a corner marker (6 x 6 modules of 0.4 mm)
MARKER_OFFSET = 0.3  # mm from the sheet's edge: the marker ends 0.3 mm before the printed content
BLACK = (0.0, 0.0, 0.0)
DATA = Path(__file__).resolve().parent.parent / "data" / "fiducials.json"
HASH_DIGITS = 12  # hexadecimal digits of a custom grid's content hash


@record
class MachinePlan:
    fiducials: tuple[Box, ...]  # 4 squares TL, TR, BR, BL, sheet mm
    code: Box | None  # QR square incl. quiet zone


def machine_room(plan: SheetPlan) -> MachinePlan:
    """Where the machine marks of a sheet planned as ``plan`` go (provisional: the
    markers in the border, no code, until the plan makes room for one)."""
    assert MARKER_OFFSET + MARKER < PAD, "the markers stay inside the border"
    w, h, far = plan.width, plan.height, MARKER_OFFSET + MARKER
    corners = ((MARKER_OFFSET, MARKER_OFFSET), (w - far, MARKER_OFFSET), (w - far, h - far), (MARKER_OFFSET, h - far))
    return MachinePlan(tuple(Box(x, y, MARKER, MARKER) for x, y in corners), None)


@cache
def fiducial_bits() -> tuple[tuple[str, ...], ...]:
    """The four markers' rows of bits ("1" black), top-left's first."""
    document = json.loads(DATA.read_text(encoding="utf-8"))
    return tuple(tuple(document["markers"][str(marker)]) for marker in document["ids"])


def marker_items(box: Box, bits: tuple[str, ...]) -> list[Item]:
    """A marker as black rectangles, one per run of black modules in a row."""
    step = box.w / len(bits)
    items: list[Item] = []
    for r, row in enumerate(bits):
        c = 0
        while c < len(row):
            if row[c] == "1":
                end = c
                while end < len(row) and row[end] == "1":
                    end += 1
                items.append(Rect(Box(box.x + c * step, box.y + r * step, (end - c) * step, step), fill=BLACK))
                c = end
            else:
                c += 1
    return items


def fiducial_items(machine: MachinePlan) -> tuple[Item, ...]:
    """The corner markers of a sheet: the same on every sheet of a run."""
    return tuple(item for box, bits in zip(machine.fiducials, fiducial_bits()) for item in marker_items(box, bits))


def code_items(machine: MachinePlan, payload: str) -> tuple[Item, ...]:
    """The code of one sheet, where the sheet has room for one."""
    return () if machine.code is None else (Code(machine.code, payload),)


# -- the payload ---------------------------------------------------------------------


@record
class Identity:
    """What the reader must know of a sheet to read it."""

    grid: str  # a built-in grid's name, or "#" and the hash of a custom grid's content
    lang: str
    size: str
    theme: str = "colour"
    strip: bool = False  # a header or serial strip at the top
    lucky: tuple[int, ...] = ()
    serial: int | None = None
    version: int = PLAN_VERSION


def grid_key(grid: Grid, builtin: Grid | None) -> str:
    """How the payload names ``grid``: its name when it is the built-in grid
    ``builtin`` (the same content), else a hash of its content."""
    if builtin is not None and builtin == grid:
        return grid.name
    return "#" + content_hash(grid)


def content_hash(grid: Grid) -> str:
    """A hash of what ``grid`` holds (not of where it was read from)."""
    return hashlib.sha256(repr(replace(grid, source="")).encode()).hexdigest()[:HASH_DIGITS]


def encode(identity: Identity) -> str:
    """The payload: ``SG1;grid;lang;size;theme;strip;version;lucky;serial``."""
    lucky = "-".join(str(n) for n in identity.lucky)
    serial = "" if identity.serial is None else str(identity.serial)
    return ";".join((f"{PREFIX}{FORMAT}", identity.grid, identity.lang, identity.size, identity.theme,
                     "1" if identity.strip else "0", str(identity.version), lucky, serial))


def decode(text: str, where: str) -> Identity:
    """The identity in a payload read at ``where``; ``InputError`` for one that is not sheetgen's or is newer."""
    parts = text.split(";")
    if not parts or not parts[0].startswith(PREFIX):
        raise InputError(where, "", "the code on this sheet is not a sheetgen code")
    if parts[0] != f"{PREFIX}{FORMAT}" or len(parts) != 9:
        raise InputError(where, "", f"the sheet's code has format {parts[0][len(PREFIX):] or '?'}; this sheetgen"
                                    f" reads format {FORMAT} (a newer sheetgen made the sheet?)")
    _, grid, lang, size, theme, strip, version, lucky, serial = parts
    try:
        return Identity(grid, lang, size, theme, strip == "1", tuple(int(n) for n in lucky.split("-") if n),
                        int(serial) if serial else None, int(version))
    except ValueError:
        raise InputError(where, "", "the sheet's code is damaged (a number that is not one)") from None
