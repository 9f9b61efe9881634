"""Slimmed font subsets keep every outline and metric, and lose the rest."""

from __future__ import annotations

import struct

from reportlab.pdfbase.ttfonts import TTFontFace

from sheetgen.pdf.truetype import slim_truetype


def tables(font: bytes) -> dict[bytes, bytes]:
    count = struct.unpack(">H", font[4:6])[0]
    found = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", font[12 + 16 * i : 28 + 16 * i])
        found[tag] = font[offset : offset + length]
    return found


def subset(text: str) -> bytes:
    return TTFontFace("VeraBd.ttf").makeSubset([ord(c) for c in text])


def test_hinting_and_names_are_dropped_outlines_kept():
    text = "Fehlwürfe coups manqués 0123456789"  # ü and é are composite glyphs in Vera
    full, slim = subset(text), slim_truetype(subset(text))
    before, after = tables(full), tables(slim)
    assert {b"fpgm", b"prep", b"cvt "} <= set(before)
    assert not {b"fpgm", b"prep", b"cvt "} & set(after)
    assert after[b"name"] == struct.pack(">HHH", 0, 0, 6)
    for tag in (b"cmap", b"hmtx", b"hhea", b"maxp"):
        assert after[tag] == before[tag]
    assert len(slim) < len(full) * 0.75


def glyphs(font: bytes) -> list[bytes]:
    found = tables(font)
    head, loca, glyf = found[b"head"], found[b"loca"], found[b"glyf"]
    if struct.unpack(">h", head[50:52])[0] == 1:
        offsets = struct.unpack(f">{len(loca) // 4}I", loca)
    else:
        offsets = [2 * o for o in struct.unpack(f">{len(loca) // 2}H", loca)]
    return [glyf[a:b] for a, b in zip(offsets, offsets[1:])]


def test_every_glyph_keeps_its_header_and_outline():
    text = "AÄé09"  # Ä and é are composite glyphs in Vera
    full, slim = glyphs(subset(text)), glyphs(slim_truetype(subset(text)))
    assert len(full) == len(slim)
    for before, after in zip(full, slim):
        assert bool(before) == bool(after)
        assert before[:10] == after[:10]  # contour count and bounding box
        contours = struct.unpack(">h", before[:2])[0] if before else 0
        if contours > 0:  # simple glyph: same end points; no instructions left; same point data
            at = 10 + 2 * contours
            assert after[:at] == before[:at]
            assert after[at : at + 2] == b"\0\0"
            skipped = struct.unpack(">H", before[at : at + 2])[0]
            assert after[at + 2 :].rstrip(b"\0") == before[at + 2 + skipped :].rstrip(b"\0")
