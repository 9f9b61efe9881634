"""The only module that imports pypdfium2: part of a PDF page as PNG bytes.

PDFium draws the page (the PDF a user will print, not a second drawing of
it); the PNG is encoded here with zlib, in a few lines that give smaller
files than Pillow's optimised output and keep this module to one library
(Pillow is installed anyway, as a dependency of reportlab, but not used).
The same PDF, box and resolution give the same bytes.
"""

from __future__ import annotations

import struct
import zlib

import pypdfium2 as pdfium

from .geometry import Box

MM_PER_INCH = 25.4
POINTS_PER_MM = 72 / MM_PER_INCH


def rasterise_png(pdf: bytes, box: Box, dpi: float, page: int = 0) -> bytes:
    """The area ``box`` (mm, from the top-left corner) of a page of ``pdf`` as an RGB PNG."""
    document = pdfium.PdfDocument(pdf)
    try:
        sheet = document[page]
        width, height = sheet.get_size()  # points
        crop = (  # points cut off the left, bottom, right and top edges
            box.x * POINTS_PER_MM,
            height - box.bottom * POINTS_PER_MM,
            width - box.right * POINTS_PER_MM,
            box.y * POINTS_PER_MM,
        )
        bitmap = sheet.render(scale=dpi / 72, crop=crop, rev_byteorder=True)  # RGB, row by row
        pixels = bytes(bitmap.buffer)
        rows = [pixels[y * bitmap.stride : y * bitmap.stride + bitmap.width * 3] for y in range(bitmap.height)]
        return encode_png(bitmap.width, bitmap.height, rows, dpi)
    finally:
        document.close()


def encode_png(width: int, height: int, rows: list[bytes], dpi: float) -> bytes:
    """An 8-bit RGB PNG of ``rows`` (3 bytes a pixel), marked with its resolution."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    per_metre = round(dpi / MM_PER_INCH * 1000)
    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
        chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
        chunk(b"IDAT", zlib.compress(raw, 6)),  # level 9 takes 5 times as long for 5 % fewer bytes
        chunk(b"IEND", b""),
    ))


def page_pngs(pdf: bytes, dpi: float, most: int) -> list[bytes]:
    """Each page of ``pdf`` (at most ``most``) as an RGB PNG at ``dpi``; [] for a file PDFium cannot open."""
    try:
        document = pdfium.PdfDocument(pdf)
    except pdfium.PdfiumError:
        return []
    try:
        sizes = [document[index].get_size() for index in range(min(len(document), most))]
    finally:
        document.close()
    return [rasterise_png(pdf, Box(0, 0, w / POINTS_PER_MM, h / POINTS_PER_MM), dpi, index)
            for index, (w, h) in enumerate(sizes)]
