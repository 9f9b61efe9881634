"""What a machine reads on a sheet: corner markers and a code, as plan boxes and a payload.

The plan says where a sheet's marks go (``SheetPlan.machine``): four
fiducial squares at the corners of the sheet's content, where this module
draws ArUco markers (OpenCV's DICT_4X4_50, ids 0 to 3: top-left, top-right,
bottom-right, bottom-left, so any one of them tells the sheet's orientation),
and the square of a QR code where the sheet has room for one (``None`` where
it has not: the reader is then told the grid, language and size on its command
line).  The markers' bit patterns are data (``sheetgen/data/fiducials.json``,
made by ``scripts/fiducials.py`` with OpenCV), so printing draws them without
OpenCV.

The code's payload (``encode``/``decode``) is written in the QR code's
alphanumeric alphabet (capitals, digits, ``:``, ``-``, ``*``), which takes
fewer modules than bytes, so that the modules of a 10 mm code stay large
enough for a phone to read.  It names what the reader must know to
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
from .plan import FIDUCIAL, PAD, STANDARD, MachinePlan
from .style import DEFAULT_THEME

# The version of the plan's geometry that the reader assumes: raised whenever a
# change moves a box a reader looks at, so that old sheets are refused, not misread.
PLAN_VERSION = 2
PREFIX = "SG"  # every payload starts with this and its format's number: SG2:...
FORMAT = 2
SEPARATOR = ":"
BLACK = (0.0, 0.0, 0.0)
DATA = Path(__file__).resolve().parent.parent / "data" / "fiducials.json"
DEFAULT_SIZE = STANDARD.name  # this size and DEFAULT_THEME are left empty in a payload
HASH_DIGITS = 12  # hexadecimal digits of a custom grid's content hash


def corner_squares(width: float, height: float) -> tuple[Box, ...]:
    """Where the plan puts the fiducials of a ``width`` x ``height`` sheet: at its
    content's corners, the same at every size (for grouping markers before a
    sheet's plan is known; reading uses the plan's own ``machine.fiducials``)."""
    far_x, far_y = width - PAD - FIDUCIAL, height - PAD - FIDUCIAL
    corners = ((PAD, PAD), (far_x, PAD), (far_x, far_y), (PAD, far_y))
    return tuple(Box(x, y, FIDUCIAL, FIDUCIAL) for x, y in corners)


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
    theme: str = DEFAULT_THEME
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
    """The payload: ``SG2:grid:lang:size:theme:strip:version:lucky:serial`` in capitals,
    a custom grid's ``#`` written ``*`` (the QR code's alphanumeric alphabet has no ``#``), the
    standard size and the colour theme left empty: most payloads fit a 25-module code."""
    lucky = "-".join(str(n) for n in identity.lucky)
    serial = "" if identity.serial is None else str(identity.serial)
    size = "" if identity.size == DEFAULT_SIZE else identity.size
    theme = "" if identity.theme == DEFAULT_THEME else identity.theme
    fields = (f"{PREFIX}{FORMAT}", identity.grid.replace("#", "*"), identity.lang, size, theme,
              "1" if identity.strip else "0", str(identity.version), lucky, serial)
    return SEPARATOR.join(fields).upper()


def decode(text: str, where: str) -> Identity:
    """The identity in a payload read at ``where``; ``InputError`` for one that is not sheetgen's or is newer."""
    parts = text.lower().split(SEPARATOR)
    if not parts or not parts[0].upper().startswith(PREFIX):
        raise InputError(where, "", "the code on this sheet is not a sheetgen code")
    if parts[0].upper() != f"{PREFIX}{FORMAT}" or len(parts) != 9:
        raise InputError(where, "", f"the sheet's code has format {parts[0][len(PREFIX):] or '?'}; this sheetgen"
                                    f" reads format {FORMAT} (a newer sheetgen made the sheet?)")
    _, grid, lang, size, theme, strip, version, lucky, serial = parts
    grid = grid.replace("*", "#")
    size, theme = size or DEFAULT_SIZE, theme or DEFAULT_THEME
    try:
        return Identity(grid, lang, size, theme, strip == "1", tuple(int(n) for n in lucky.split("-") if n),
                        int(serial) if serial else None, int(version))
    except ValueError:
        raise InputError(where, "", "the sheet's code is damaged (a number that is not one)") from None
