"""The counter page as Python makes it: the template filled with data only,
self-contained and small, the sheet's pictograms as SVG, the command line.
How the page behaves is tested in a browser: test_counter_page.py, and the
engine against the scorer in test_conformance_browser.py."""

from __future__ import annotations

import json
import re

import pytest

from sheetgen.grid.load import builtin_names, grid_from_data, load_grid
from sheetgen.grid.model import Colour
from sheetgen.pdf.geometry import Box, Circle, Polygon, Rect, Text
from sheetgen.pdf.svg import colour, svg_picture
from sheetgen.play.counter import MAX_PAGE_BYTES, TEMPLATE, counter_html, fill_template, grid_as_data, pictures
from sheetgen.sheet.style import languages, load_labels, load_theme, themes

DATA_ISLAND = re.compile(r'<script type="application/json" id="sheetgen-data">(.*?)</script>', re.S)


def island(page: str) -> dict:
    return json.loads(DATA_ISLAND.search(page).group(1))


# -- the SVG writer --------------------------------------------------------------------------


def test_svg_writes_each_item_in_millimetres_as_user_units():
    items = (Rect(Box(1, 2, 3, 4), fill=(1, 0, 0), stroke=(0, 0, 1), line=0.25, radius=0.5),
             Circle(5, 5, 2, fill=None, stroke=(0, 0, 0), line=0.1),
             Polygon(((0, 0), (10, 0), (5, 8.6602)), fill=(0, 1, 0)),
             Polygon(((0, 0), (10, 10)), stroke=(0.5, 0.5, 0.5), line=1, closed=False, dash=(1, 0.5)),
             Text(5, 9, "A<b>&", 2.4, (0, 0, 0), bold=True, anchor="middle"))
    assert svg_picture(items, 10, 12) == (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 12" aria-hidden="true" focusable="false">'
        '<rect x="1" y="2" width="3" height="4" rx="0.5" fill="#ff0000" stroke="#0000ff" stroke-width="0.25"/>'
        '<circle cx="5" cy="5" r="2" fill="none" stroke="#000000" stroke-width="0.1"/>'
        '<polygon points="0,0 10,0 5,8.66" fill="#00ff00" stroke-linejoin="round"/>'
        '<polyline points="0,0 10,10" fill="none" stroke="#808080" stroke-width="1" stroke-dasharray="1 0.5"'
        ' stroke-linecap="round" stroke-linejoin="round"/>'
        '<text x="5" y="9" font-size="2.4" font-family="DejaVu Sans, sans-serif" text-anchor="middle" fill="#000000"'
        ' font-weight="bold">A&lt;b&gt;&amp;</text></svg>')


def test_hatching_is_clipped_to_its_box_under_a_name_of_its_own():
    hatched = Rect(Box(0, 0, 4, 2), fill=(1, 1, 1), stroke=(0.6, 0.6, 0.6), line=0.05, radius=1, hatch=1.0)
    text = svg_picture((hatched,), 4, 2, "lock-green")
    assert '<clipPath id="lock-green-0"><rect x="0" y="0" width="4" height="2" rx="1"/></clipPath>' in text
    assert text.count("M") == 6  # lines 1 mm apart from x = -2 to 3, as the PDF renderer draws them
    assert 'clip-path="url(#lock-green-0)" stroke="#999999" stroke-width="0.15"' in text


def test_colours_are_css_hex():
    assert colour((0.85, 0.16, 0.20)) == "#d92933"
    assert colour((0, 0, 0)) == "#000000" and colour((1, 1, 1)) == "#ffffff"


def test_the_pictures_are_the_sheets_pictograms_for_what_the_grid_uses():
    theme = load_theme("colour")
    drawn = pictures(load_grid("powers"), theme)
    assert set(drawn) == {f"{kind}-{c.value}" for kind in ("lock", "arrow") for c in Colour} | {
        f"symbol-{s}" for s in ("circle", "diamond", "square", "octagon", "star")} | {"cross"}
    red = theme.tint(Colour.RED)
    assert colour(red.strong) in drawn["lock-red"] and colour(red.strong) not in drawn["lock-blue"]
    assert set(pictures(load_grid("classic"), theme)) == {f"{kind}-{c.value}" for kind in ("lock", "arrow") for c in Colour} | {"cross"}
    mono = pictures(load_grid("classic"), load_theme("mono"))
    assert "mark-green" in mono and "clipPath" in mono["lock-green"]  # mono's hatched green


# -- the page ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", builtin_names())
def test_every_page_is_self_contained_and_small(name):
    for lang in languages():
        for theme in themes():
            page = counter_html(load_grid(name), lang, theme)
            size = len(page.encode())
            assert size < MAX_PAGE_BYTES, f"{name} {lang} {theme}: {size} bytes"
            assert re.findall(r"https?://[^\s\\\"'<>]*", page) == ["http://www.w3.org/2000/svg"] * page.count("xmlns=")
            assert not re.search(r"<(link|img|iframe|object|embed)\b|\bsrc=|@import|url\((?!#)|fetch\(|XMLHttpRequest", page)


def test_the_page_holds_the_grid_the_words_and_the_look_as_data(english):
    grid = load_grid("bonus")
    page = counter_html(grid, "de", "ink-saver")
    data = island(page)
    assert data["grid"] == grid_as_data(grid)
    assert data["grid"]["rows"][0]["cells"][1] == {"number": 3, "colour": "red", "double": False, "framed": True,
                                                   "symbol": None}
    assert data["grid"]["bonus_bar"][:3] == ["red", "yellow", "green"]
    assert data["words"]["counter_undo"] == "Rückgängig" and data["words"]["colour_red"] == "rot"
    assert data["look"]["outlined"] is True and data["look"]["colours"]["red"]["pale"] == "#ffffff"
    assert '<html lang="de">' in page and "<title>Qwixx Bonus</title>" in page
    assert "{{" not in page.split("<!--", 1)[1].split("-->", 1)[1]  # every place filled


def test_text_from_a_grid_cannot_break_out_of_the_page():
    grid = grid_from_data({"name": "evil", "title": "</script><b>&amp; <!--{{data}}", "dice_faces": 6, "close_after": 5,
                           "penalties": {"boxes": 4, "points": 5},
                           "rows": [{"colour": c, "cells": list(range(2, 13))} for c in ("red", "yellow")]}, "evil.yaml")
    page = counter_html(grid)
    assert "<title>&lt;/script&gt;&lt;b&gt;&amp;amp; &lt;!--{{data}}</title>" in page
    assert page.count("</script>") == 2 and "<b>&amp;" not in page  # the data island's and the program's, no more
    assert island(page)["grid"]["title"] == "</script><b>&amp; <!--{{data}}"


def test_the_engine_knows_no_grid_by_name():
    code = TEMPLATE.read_text(encoding="utf-8")
    # "bis" is also the marks files' key for small boxes, "bonus" the word for the bar and a forced cross's cause
    for name in set(builtin_names()) - {"bis", "bonus"}:
        assert not re.search(rf"[\"'`]{name}[\"'`]", code), name


def test_a_place_missing_from_the_template_is_a_clear_error():
    with pytest.raises(ValueError, match=r"expected \{\{data\}\} once, found it 0 times"):
        fill_template("{{lang}} {{title}}", "en", "x", {})


def test_the_same_grid_gives_the_same_page():
    assert counter_html(load_grid("longo"), "it") == counter_html(load_grid("longo"), "it")


# -- the command -------------------------------------------------------------------------


def test_counter_writes_out_counter_grid_lang_html_by_default(run, tmp_path):
    result = run("counter", "classic")
    assert result.exit_code == 0, result.output
    size = (tmp_path / "out" / "counter-classic-en.html").stat().st_size
    assert result.output == f"wrote out/counter-classic-en.html ({size / 1024:.0f} KiB)\n"
    result = run("counter", "longo", "--lang", "nl", "-o", "pages/", "-q")
    assert (result.exit_code, result.output) == (0, "")
    assert '<html lang="nl">' in (tmp_path / "pages" / "counter-longo-nl.html").read_text(encoding="utf-8")
    assert run("counter", "mixed", "-o", "table.html", "--theme", "mono").exit_code == 0
    assert island((tmp_path / "table.html").read_text(encoding="utf-8"))["look"]["marks"] is True
    result = run("counter", "bis", "--lang", "de", "-o", "-")
    assert result.exit_code == 0 and result.stdout_bytes == counter_html(load_grid("bis"), "de").encode()
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == [
        "counter-classic-en.html", "counter-longo-nl.html", "table.html"]


def test_counter_refuses_what_it_cannot_write_in_one_line(run, tmp_path):
    result = run("counter", "classic", "-o", "page.pdf")
    assert result.exit_code == 2
    assert result.stderr == ("sheetgen counter: Invalid value for '-o' / '--output': expected a file name ending in"
                             " .html or .htm, a folder (end it with '/') or '-' for standard output, got 'page.pdf'"
                             " (see 'sheetgen counter --help')\n")
    result = run("counter", "nosuch")
    assert result.exit_code == 1 and result.stderr.startswith("sheetgen: nosuch: unknown grid (expected a file or one of")
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_the_page_carries_the_words_it_looks_up_and_not_the_rules_cards():
    from sheetgen.play.counter import PAGE_WORDS

    words = island(counter_html(load_grid("classic"), "de"))["words"]
    named = set(re.findall(r'word\("([a-z_0-9]+)"', TEMPLATE.read_text(encoding="utf-8")))
    assert named - set(words) == set()  # "total", "penalties", "name"... and every counter_ word named
    everything = dict(load_labels("de").words)
    assert all(words[key] == everything[key] for key in everything if key.startswith(PAGE_WORDS))
    assert words["colour_red"] == "rot" and not any(key.startswith(("rules_", "pack_")) for key in words)
