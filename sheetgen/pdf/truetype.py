"""Slimming of embedded TrueType subsets: bytes in, bytes out.

reportlab's subsets keep the font's hinting programs, the hinting
instructions of every glyph and the whole ``name`` table (for Bitstream Vera
mostly its licence text, in several encodings).  Printed sheets need none of
them: PDF readers take the font's name from the PDF, and hinting only helps
tiny text on low-resolution screens.  Dropping them makes a one-page PDF about
a third smaller and leaves every outline, metric and character map as it was.
"""

from __future__ import annotations

import struct

HINTING_TABLES = {b"fpgm", b"prep", b"cvt "}
EMPTY_NAME = struct.pack(">HHH", 0, 0, 6)  # format 0, no records

# Composite glyph flags (OpenType 'glyf' table).
ARG_WORDS, HAS_SCALE, MORE, XY_SCALE, TWO_BY_TWO, HAS_INSTRUCTIONS = 0x1, 0x8, 0x20, 0x40, 0x80, 0x100


def slim_truetype(font: bytes) -> bytes:
    """``font`` without hinting and with an empty ``name`` table."""
    count = struct.unpack(">H", font[4:6])[0]
    tables: dict[bytes, bytes] = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", font[12 + 16 * i : 28 + 16 * i])
        tables[tag] = font[offset : offset + length]
    for tag in HINTING_TABLES:
        tables.pop(tag, None)
    tables[b"name"] = EMPTY_NAME
    if b"glyf" in tables and b"loca" in tables:
        head = tables[b"head"]
        long_loca = struct.unpack(">h", head[50:52])[0] == 1
        tables[b"glyf"], tables[b"loca"] = _strip_instructions(tables[b"glyf"], tables[b"loca"], long_loca)
        # the rebuilt loca is in long format; the checksum adjustment is left at 0 (readers ignore it)
        tables[b"head"] = head[:8] + b"\0\0\0\0" + head[12:50] + struct.pack(">h", 1) + head[52:]
    return _write_sfnt(font[:4], tables)


def _strip_instructions(glyf: bytes, loca: bytes, long_loca: bool) -> tuple[bytes, bytes]:
    if long_loca:
        offsets = struct.unpack(f">{len(loca) // 4}I", loca)
    else:
        offsets = tuple(2 * o for o in struct.unpack(f">{len(loca) // 2}H", loca))
    out = bytearray()
    new_offsets = []
    for start, end in zip(offsets, offsets[1:]):
        new_offsets.append(len(out))
        glyph = glyf[start:end]
        if glyph:
            out += _glyph_without_instructions(glyph)
            out += b"\0" * (-len(out) % 4)
    new_offsets.append(len(out))
    return bytes(out), struct.pack(f">{len(new_offsets)}I", *new_offsets)


def _glyph_without_instructions(glyph: bytes) -> bytes:
    contours = struct.unpack(">h", glyph[:2])[0]
    if contours >= 0:  # simple glyph: header, end points, instruction length, instructions, points
        at = 10 + 2 * contours
        length = struct.unpack(">H", glyph[at : at + 2])[0]
        return glyph[:at] + b"\0\0" + glyph[at + 2 + length :]
    at = 10  # composite glyph: components, then optional instructions
    while True:
        flags = struct.unpack(">H", glyph[at : at + 2])[0]
        last_flags_at = at
        at += 4 + (4 if flags & ARG_WORDS else 2)
        at += 2 if flags & HAS_SCALE else 4 if flags & XY_SCALE else 8 if flags & TWO_BY_TWO else 0
        if not flags & MORE:
            break
    cleared = struct.pack(">H", flags & ~HAS_INSTRUCTIONS)
    return glyph[:last_flags_at] + cleared + glyph[last_flags_at + 2 : at]


def _checksum(data: bytes) -> int:
    padded = data + b"\0" * (-len(data) % 4)
    words: tuple[int, ...] = struct.unpack(f">{len(padded) // 4}I", padded)
    return sum(words) & 0xFFFFFFFF


def _write_sfnt(version: bytes, tables: dict[bytes, bytes]) -> bytes:
    count = len(tables)
    power = 1 << (count.bit_length() - 1)
    header = version + struct.pack(">HHHH", count, power * 16, power.bit_length() - 1, count * 16 - power * 16)
    directory, body = bytearray(), bytearray()
    offset = len(header) + 16 * count
    for tag in sorted(tables):
        data = tables[tag]
        directory += struct.pack(">4sIII", tag, _checksum(data), offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    return header + bytes(directory) + bytes(body)
