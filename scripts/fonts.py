"""Make the fonts shipped in sheetgen/pdf/fonts/ from Debian's DejaVu files.

    .venv/bin/pip install '.[test]'      # fontTools comes with the test extra
    .venv/bin/python scripts/fonts.py    # rewrites sheetgen/pdf/fonts/*.ttf

fontTools makes the files here and is no runtime dependency: sheetgen reads
them with reportlab (the test extra has fontTools for tests/test_printable.py,
which reads the fonts with a second reader).  The input is Debian's
fonts-dejavu-core and fonts-dejavu-extra (version 2.37); the same input gives
the same bytes.

Each face keeps only what a sheet can print (``CHARACTERS``: Latin letters
for the Western, Central and Eastern European languages a club or player
name may be in, and the punctuation and symbols the sheets print), and only
the characters that every face has, so that what one face prints the others
print too.  Hinting is dropped (it helps small text on screens, not print);
outlines, metrics, kerning-free widths and the names (with the copyright
notice, which the licence asks to keep) stay.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

DEBIAN = Path("/usr/share/fonts/truetype/dejavu")
OUT = Path(__file__).resolve().parent.parent / "sheetgen" / "pdf" / "fonts"
FACES = ("DejaVuSans.ttf", "DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf")  # bold is condensed bold
# The light face of the cell numbers (the ink-saver look): DejaVu Sans ExtraLight condensed here
# as DejaVu condenses its faces, to 90 % of the width, each digit as wide as in DejaVu Sans
# Condensed, so that a number measures the same in either; digits only.
LIGHT, LIGHT_SOURCE, LIGHT_NAME = "DejaVuSansCondensed-ExtraLight.ttf", "DejaVuSans-ExtraLight.ttf", "ExtraLight"
NUMERALS = "0123456789"
CONDENSED = 0.9

SYMBOLS = (
    "\u2212"  # − minus sign: totals line and penalty boxes
    "\u2013\u2014"  # – — dashes
    "\u2018\u2019\u201a\u201c\u201d\u201e\u2039\u203a"  # ‘ ’ ‚ “ ” „ ‹ › (« » are Latin-1)
    "\u2026\u2022\u2116\u20ac"  # … • № €  (× and · are Latin-1)
)
CHARACTERS = (
    [chr(c) for c in range(0x20, 0x7F)]  # Basic Latin
    + [chr(c) for c in range(0xA0, 0x100)]  # Latin-1 Supplement
    + [chr(c) for c in range(0x100, 0x250)]  # Latin Extended-A and Extended-B
    + list(SYMBOLS)
)


def shared_characters(paths: list[Path]) -> list[str]:
    """The characters of ``CHARACTERS`` that every font in ``paths`` has a glyph for."""
    maps = [TTFont(path).getBestCmap() for path in paths]
    return [ch for ch in CHARACTERS if all(ord(ch) in cmap for cmap in maps)]


def subset_font(source: Path, target: Path, characters: list[str]) -> None:
    options = subset.Options()
    options.hinting = False
    options.layout_features = []  # reportlab draws glyph by glyph: no GSUB/GPOS
    options.name_IDs = ["*"]  # keep the copyright and licence notices
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.drop_tables += ["FFTM", "GDEF", "GSUB", "GPOS", "kern", "DSIG", "LTSH", "VDMX", "hdmx"]
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(ch) for ch in characters])
    subsetter.subset(font)
    font["head"].modified = font["head"].created  # no build date in the bytes
    subset.save_font(font, str(target), options)


def condense(target: Path, widths_from: Path) -> None:
    """The font ``target`` narrowed to ``CONDENSED`` of its width, its glyphs the advance widths of
    ``widths_from``'s, each centred in its advance; named a condensed face of its family."""
    font, model = TTFont(target), TTFont(widths_from)
    glyf, metrics, advances = font["glyf"], font["hmtx"].metrics, model["hmtx"].metrics
    names = {glyph: model.getBestCmap()[code] for code, glyph in font.getBestCmap().items()}
    for name in font.getGlyphOrder():
        glyph = glyf[name]
        advance = advances[names[name]][0] if name in names else round(metrics[name][0] * CONDENSED)
        if glyph.numberOfContours > 0:
            coordinates = glyph.coordinates
            narrowed = [x * CONDENSED for x, _ in coordinates]
            shift = (advance - metrics[name][0] * CONDENSED) / 2
            for i, (x, (_, y)) in enumerate(zip(narrowed, list(coordinates))):
                coordinates[i] = (round(x + shift), y)
            glyph.recalcBounds(glyf)
        metrics[name] = (advance, glyph.xMin if glyph.numberOfContours > 0 else 0)
    table = font["name"]
    for record in table.names:
        text = record.toUnicode()
        if record.nameID in (1, 3, 4, 6, 16):  # the family, full and PostScript names
            record.string = text.replace("DejaVu Sans", "DejaVu Sans Condensed").replace(
                "DejaVuSans", "DejaVuSansCondensed")
    font["head"].modified = font["head"].created
    font.save(str(target))


def main() -> int:
    paths = [DEBIAN / face for face in FACES]
    missing = [str(p) for p in paths + [DEBIAN / LIGHT_SOURCE] if not p.exists()]
    if missing:
        print(f"missing {', '.join(missing)} (Debian: apt-get install fonts-dejavu-core fonts-dejavu-extra)",
              file=sys.stderr)
        return 1
    characters = shared_characters(paths)
    lacking = [f"U+{ord(ch):04X}" for ch in CHARACTERS if ch not in characters]
    OUT.mkdir(parents=True, exist_ok=True)
    for path in paths:
        subset_font(path, OUT / path.name, characters)
        print(f"{OUT / path.name}: {len(characters)} characters, {(OUT / path.name).stat().st_size:,} bytes")
    light = OUT / LIGHT
    subset_font(DEBIAN / LIGHT_SOURCE, light, list(NUMERALS))
    condense(light, OUT / "DejaVuSansCondensed.ttf")
    print(f"{light}: {len(NUMERALS)} characters, {light.stat().st_size:,} bytes")
    if lacking:
        print(f"not in every face, left out: {' '.join(lacking)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
