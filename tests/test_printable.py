"""What prints: `check`, a batch's headers and `render` refuse exactly the
characters the sheet's fonts cannot draw, whatever those fonts are.

The truth is read from the font files themselves with fontTools, a reader
independent of reportlab's: a character prints when the character map of
every face sends it to a real glyph (not glyph 0, the empty box of a missing
one) with an outline, or to any glyph if it is a space; controls, surrogates
and noncharacters never print.  ``unprintable`` must agree for every code
point, and the command line must refuse what it refuses.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from fontTools.ttLib import TTFont as FontFile
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from sheetgen.cli import cli
from sheetgen.grid.load import builtin_dir, load_grid
from sheetgen.pdf.render import FONT_DIR, LIGHT_CHARACTERS, LIGHT_FACE, unprintable
from sheetgen.runs.jobs import Job, render_job

EVERY_CHARACTER = "".join(map(chr, range(sys.maxunicode + 1)))
# Polish, Hungarian, Romanian, Turkish and Czech names: Latin Extended-A and B.
CLUB_NAMES = ["Klub Kraków – środa", "Győr", "Iași", "Dvůr Králové", "İstanbul"]


@cache
def sheet_font_files() -> tuple[str, ...]:
    """The TrueType files a sheet's text is drawn with, as registered once a sheet is made (not the
    light face, registered once a sheet has printed in it: it prints the digits of cell numbers alone)."""
    render_job(Job(load_grid("classic")))
    fonts = [pdfmetrics.getFont(name) for name in pdfmetrics.getRegisteredFontNames() if name != LIGHT_FACE]
    files = tuple(sorted({font.face.filename for font in fonts if isinstance(font, TTFont)}))
    assert files, "no TrueType font is registered after a render"
    return files


@cache
def printable_by_the_fonts() -> frozenset[str]:
    """Every character every face of the sheet draws, from the font files."""
    drawn = None
    for path in sheet_font_files():
        font = FontFile(path)
        cmap, glyf = font.getBestCmap(), font["glyf"]
        order = font.getGlyphOrder()
        here = {chr(code) for code, glyph in cmap.items()
                if glyph != order[0] and (glyf[glyph].numberOfContours != 0
                                          or unicodedata.category(chr(code)) == "Zs")}
        drawn = here if drawn is None else drawn & here
    return frozenset(ch for ch in drawn if unicodedata.category(ch) not in ("Cc", "Cs", "Co", "Cn"))


def test_unprintable_agrees_with_the_fonts_on_every_code_point():
    """A font may map characters to glyph 0, the empty box (Bitstream Vera did
    so for 27, Ď ď Đ ― ‖ ‥ ∅ ≡ ..., and U+FFFF): refused here."""
    refused = set(unprintable(EVERY_CHARACTER))
    printable = printable_by_the_fonts()
    assert set(EVERY_CHARACTER) - refused == printable
    assert len(printable) > 200  # Latin-1 at least: the fonts were read


def test_the_light_face_has_every_digit_as_wide_as_the_condensed_face_and_nothing_else():
    """Cell numbers measure the same in the light face as in the condensed one, which the plan measures."""
    light, condensed = (FontFile(Path(FONT_DIR) / name) for name in (f"{LIGHT_FACE}.ttf", "DejaVuSansCondensed.ttf"))
    light_map, condensed_map = light.getBestCmap(), condensed.getBestCmap()
    assert {chr(code) for code in light_map} == LIGHT_CHARACTERS == set("0123456789")
    for digit in LIGHT_CHARACTERS:
        glyph = light_map[ord(digit)]
        assert light["glyf"][glyph].numberOfContours > 0, digit
        assert light["hmtx"][glyph][0] == condensed["hmtx"][condensed_map[ord(digit)]][0], digit


def test_noncharacters_controls_and_surrogates_never_print():
    never = "\uffff\ufffe\ufdd0\U0010ffff\x00\x1b\x7f\x85\ud800\udcff\ue000"
    assert unprintable(never) == never


def test_a_font_that_maps_controls_or_noncharacters_still_does_not_print_them(monkeypatch):
    """Some fonts give controls or U+FFFF a glyph; they are still no text."""
    from sheetgen.pdf import render

    class Face:
        charToGlyph = {ord(ch): 1 for ch in "A\x1b\x85\uffff\ue000"}
        glyphPos = [0, 10, 20]  # glyph 1 has an outline

    monkeypatch.setattr(render.pdfmetrics, "getFont", lambda name: type("Font", (), {"face": Face})())
    render._printable.cache_clear()
    try:
        assert unprintable("A\x1b\x85\uffff\ue000") == "\x1b\x85\uffff\ue000"
    finally:
        render._printable.cache_clear()


# -- through the command line ----------------------------------------------------


def grid_titled(folder: Path, title: str) -> Path:
    text = (builtin_dir() / "classic.yaml").read_text(encoding="utf-8")
    start = text.index("\ntitle:") + 1
    end = text.index("\n", start)
    path = folder / "mine.yaml"
    path.write_text(text[:start] + f"title: {json.dumps(title)}" + text[end:], encoding="utf-8")
    return path


def samples() -> tuple[list[str], list[str]]:
    """A few characters the fonts draw and a few they do not, font-agnostic."""
    printable = sorted(printable_by_the_fonts() - set(" \xa0'\\\"#:&*!|>%@`{}[],?-"))
    drawn = [printable[0], printable[len(printable) // 2], printable[-1]]
    missing = [ch for ch in "\uffff木😀ĎŁ\u0378" if ch not in printable_by_the_fonts()]
    return drawn, missing


def test_check_accepts_what_prints_and_refuses_what_does_not(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    drawn, missing = samples()
    assert len(missing) >= 2
    for ch in drawn:
        result = CliRunner().invoke(cli, ["check", str(grid_titled(tmp_path, f"Q {ch}"))])
        assert (result.exit_code, result.stderr) == (0, ""), repr(ch)
    for ch in missing:
        path = grid_titled(tmp_path, f"Q {ch}")
        for command in (["check", str(path)], ["render", str(path), "-o", "x.pdf"]):
            result = CliRunner().invoke(cli, command)
            assert result.exit_code == 1, (command, repr(ch))
            assert result.stderr.startswith(f"sheetgen: {path}: title: the sheet's font has no "), result.stderr
        assert not (tmp_path / "x.pdf").exists()


def test_a_batch_header_is_refused_for_what_does_not_print(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    drawn, missing = samples()
    for ch, code in [(drawn[1], 0)] + [(ch, 1) for ch in missing]:
        Path("club.yaml").write_text(f"jobs: [{{grid: classic, sheets: 8, header: {json.dumps('Club ' + ch)}}}]\n")
        result = CliRunner().invoke(cli, ["batch", "club.yaml", "--quiet"])
        assert result.exit_code == code, (repr(ch), result.stderr)
        if code:
            assert result.stderr.startswith("sheetgen: club.yaml: jobs[0].header: the sheet's font has no ")


@pytest.mark.parametrize("name", CLUB_NAMES)
def test_club_names_of_central_and_eastern_europe_print(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    assert unprintable(name) == ""
    result = CliRunner().invoke(cli, ["check", str(grid_titled(tmp_path, name))])
    assert (result.exit_code, result.stderr) == (0, "")
    Path("club.yaml").write_text(f"jobs: [{{grid: classic, sheets: 8, header: {json.dumps(name)}}}]\n")
    result = CliRunner().invoke(cli, ["batch", "club.yaml", "--quiet"])
    assert (result.exit_code, result.stderr) == (0, "")
