"""The pictures in a file: refused, in one line, before anything is decoded that should not be."""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from ..errors import InputError

if TYPE_CHECKING:
    from .vision import Picture

MAX_PIXELS = 100_000_000  # 100 MP: a phone's photo has 12 to 50, a page at 600 dpi 35
MAX_BYTES = 200 * 1024 * 1024
MAX_PAGES = 200
PDF_DPI = 300  # a copier's PDF is read at this resolution (0.4 mm marker modules: 4.7 pixels)


def pictures(path: str) -> list[tuple[str, Picture]]:
    """(where, picture) for each picture in the file at ``path``: one, or one per page of a PDF."""
    from . import vision

    try:
        with open(path, "rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        raise InputError(path, "", f"cannot read it ({error.strerror or error})") from None
    if len(data) > MAX_BYTES:
        raise InputError(path, "", f"larger than {MAX_BYTES // 2**20} MB: not a photo or scan of sheets")
    if data.startswith(b"%PDF"):
        from ..pdf.raster import page_pngs

        pages = page_pngs(data, PDF_DPI, MAX_PAGES)
        if not pages:
            raise InputError(path, "", "a PDF that cannot be read")
        return [(f"{path}: page {n}", vision.from_png(png)) for n, png in enumerate(pages, 1)]
    size = header_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise InputError(path, "", f"a picture of {size[0]} x {size[1]} pixels, more than {MAX_PIXELS // 10**6}"
                                   f" MP: refused before decoding it (a photo or a 300 dpi scan has far fewer)")
    if data.startswith(b"\xff\xd8") and not data.rstrip(b"\0").endswith(b"\xff\xd9"):
        raise InputError(path, "", "a truncated JPEG (its end is missing): copy the photo again")
    picture = vision.decode(data)
    if picture is None:
        raise InputError(path, "", "not a picture sheetgen can read (expected a JPEG, PNG or TIFF photo or scan, or"
                                   " a PDF)")
    return [(path, picture)]


def header_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's or JPEG's header, without decoding it; None for another file."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data.startswith(b"\xff\xd8"):
        at = 2
        while at + 9 < len(data):
            if data[at] != 0xFF:
                return None
            kind = data[at + 1]
            length = struct.unpack(">H", data[at + 2:at + 4])[0]
            if 0xC0 <= kind <= 0xCF and kind not in (0xC4, 0xC8, 0xCC):
                height, width = struct.unpack(">HH", data[at + 5:at + 9])
                return int(width), int(height)
            at += 2 + length
    return None
