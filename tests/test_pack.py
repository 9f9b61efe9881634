"""The download pack: its files, checksums, zip, byte-identical rebuilds, its
pages in five languages, and those pages opened from disk in headless
Chromium at a phone's width and a desktop's."""

from __future__ import annotations

import functools
import hashlib
import html
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from sheetgen.cli import cli
from sheetgen.grid.load import builtin_names, grid_from_data, in_list_order, load_grid, short_titles
from sheetgen.pdf.raster import encode_png
from sheetgen.play.simulate import Typical, typical_game
from sheetgen.runs.pack import NAME, PREVIEW_DPI, SUMS, ZIP, Pack, build_pack, index_html
from sheetgen.sheet.style import load_labels

from conftest import need_tool

pytestmark = pytest.mark.slow  # the whole download pack, built once and read back: out of the quick tier

REPO = Path(__file__).resolve().parent.parent
LANGS = ("de", "en", "fr", "it", "nl")
PAGES = {"en": "index.html", **{lang: f"index-{lang}.html" for lang in LANGS if lang != "en"}}
# What the pack holds for each grid and language, as the brief and the pack's
# design say: every look on both papers at the standard size; large print in
# colour and black and white on both papers; an A6 card in colour.
SHEETS = ([f"standard-{look}-{paper}" for look in ("colour", "colour-marks", "ink-saver", "mono")
           for paper in ("a4", "letter")]
          + [f"large-{look}-{paper}" for look in ("colour", "mono") for paper in ("a4", "letter")]
          + ["a6-colour"])
PDFS = {f"pdf/{grid}-{lang}-{kind}.pdf" for grid in builtin_names() for lang in LANGS for kind in SHEETS}
CARDS = {f"rules/{grid}-{lang}-{paper}.pdf" for grid in builtin_names() for lang in LANGS for paper in ("a4", "letter")}
COUNTERS = {f"counter/{grid}-{lang}.html" for grid in builtin_names() for lang in LANGS}
POINTS = {"a4": (595, 842), "letter": (612, 792), "a6": (420, 298)}  # upright, but A6: landscape
PER_PAGE = {"standard": 8, "large": 4, "a6": 1}
grid_named = functools.cache(load_grid)


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    """The full pack, built once through the command line."""
    folder = tmp_path_factory.mktemp("pack") / "out" / "pack"
    result = CliRunner().invoke(cli, ["pack", "-o", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    size = (folder / ZIP).stat().st_size / 1e6
    count = len(PDFS) + 50 + len(CARDS) + len(COUNTERS) + 5 + 2
    assert result.output == (
        f"wrote {count} files to {folder}: open {folder}/index.html, or share {folder}/{ZIP} ({size:.1f} MB)\n"
    )
    return folder


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_pack_holds_every_grid_in_every_language_look_size_and_paper(pack):
    previews = {f"preview/{g}-{lang}.png" for g in builtin_names() for lang in LANGS}
    assert set(files_in(pack)) == PDFS | previews | CARDS | COUNTERS | set(PAGES.values()) | {SUMS, ZIP}
    assert len(PDFS) == 10 * 5 * 13 and len(CARDS) == 10 * 5 * 2


def test_the_rules_cards_are_those_sheetgen_rules_writes_on_their_paper(pack):
    for path in sorted(pack.glob("rules/*.pdf")):
        grid, lang, paper = path.stem.split("-")
        data = path.read_bytes()
        document = pdfium.PdfDocument(data)
        assert len(document) == 1 and tuple(round(v) for v in document[0].get_size()) == POINTS[paper], path.name
        if grid in ("classic", "powers"):  # the command line's card, byte for byte
            result = CliRunner().invoke(cli, ["rules", grid, "--pdf", "--lang", lang, "--paper", paper, "-o", "-"])
            assert result.stdout_bytes == data, path.name


def test_the_counter_pages_are_those_sheetgen_counter_writes(pack):
    for path in sorted(pack.glob("counter/*.html")):
        grid, lang = path.stem.split("-")
        if grid in ("classic", "bonus"):  # the same page, with a link back to the pack's page in its language
            result = CliRunner().invoke(cli, ["counter", grid, "--lang", lang, "-o", "-"])
            assert result.exit_code == 0 and b'"pack":null' in result.stdout_bytes, path.name
            back = "../" + ("index.html" if lang == "en" else f"index-{lang}.html")
            assert path.read_bytes() == result.stdout_bytes.replace(b'"pack":null', f'"pack":"{back}"'.encode()), path.name
        else:
            assert f'<html lang="{lang}"' in path.read_text(), path.name


def test_each_pdf_is_one_page_of_its_paper_size_language_and_look(pack):
    for path in sorted(pack.glob("pdf/*.pdf")):
        grid, lang, size, *look, paper = path.stem.split("-")
        if size == "a6":
            look, paper = look + [paper], "a6"
        look = "-".join(look)
        data = path.read_bytes()
        document = pdfium.PdfDocument(data)
        assert len(document) == 1, path.name
        width, height = POINTS[paper]
        expected = (height, width) if size == "large" else (width, height)  # large print: landscape
        assert tuple(round(v) for v in document[0].get_size()) == expected, path.name
        words = load_labels(lang)
        text = document[0].get_textpage().get_text_range()
        assert text.count(words.grid_title(grid_named(grid))) == PER_PAGE[size], path.name  # its sheets, titled in its language
        assert words("crosses") in text, path.name  # its language
        # the looks: colour marks come with their key (in every look where a row has cells of several
        # colours); ink-saver prints nothing bold
        key = re.search(rf"\b{words('colour_red')}\b", text)
        many = any(len(row.colours) > 1 for row in grid_named(grid).rows)
        assert bool(key) == (look in ("colour-marks", "mono") or many), path.name
        assert (b"DejaVuSansCondensed-Bold" in data) == (look != "ink-saver"), path.name


def test_black_and_white_sheets_print_in_greys_and_colour_sheets_do_not(pack):
    for path in sorted(pack.glob("pdf/classic-*-standard-*-a4.pdf")) + sorted(pack.glob("pdf/classic-*-large-*.pdf")):
        image = pdfium.PdfDocument(path.read_bytes())[0].render(scale=30 / 72).to_pil().convert("RGB")
        pixels = image.tobytes()
        saturated = sum(1 for i in range(0, len(pixels), 3) if max(pixels[i:i + 3]) - min(pixels[i:i + 3]) > 40)
        assert (saturated == 0) == ("-mono" in path.name), (path.name, saturated)


def test_previews_are_one_sheet_at_150_dpi_in_each_language(pack):
    for path in sorted(pack.glob("preview/*.png")):
        with Image.open(path) as image:
            assert image.format == "PNG" and image.mode == "RGB"
            assert image.size == (int(96 / 25.4 * PREVIEW_DPI), int(66 / 25.4 * PREVIEW_DPI))  # 566 x 389
            assert [round(v) for v in image.info["dpi"]] == [PREVIEW_DPI, PREVIEW_DPI]
            assert len(image.getcolors(1 << 16) or range(99)) > 20  # colours, not a blank page
    for grid in builtin_names():  # each language's words on it: no two alike
        assert len({(pack / f"preview/{grid}-{lang}.png").read_bytes() for lang in LANGS}) == len(LANGS)


def test_png_encoder_round_trips_through_pillow():
    rows = [bytes(c for x in range(4) for c in (x * 60, y * 100, 255 - x * 60)) for y in range(3)]
    with Image.open(io.BytesIO(encode_png(4, 3, rows, 96))) as image:
        assert image.size == (4, 3)
        assert [image.getpixel((x, y)) for y in range(3) for x in range(4)] == [
            (x * 60, y * 100, 255 - x * 60) for y in range(3) for x in range(4)]


def test_checksums_cover_every_file_but_themselves_and_the_zip(pack):
    files = files_in(pack)
    lines = files[SUMS].decode().splitlines()
    assert all(re.fullmatch(r"[0-9a-f]{64}  \S+", line) for line in lines)
    listed = dict(reversed(line.split("  ", 1)) for line in lines)
    assert sorted(listed) == sorted(set(files) - {SUMS, ZIP}) == [line.split("  ", 1)[1] for line in lines]
    for path, digest in listed.items():
        assert hashlib.sha256(files[path]).hexdigest() == digest, path
    tool = need_tool("sha256sum")
    check = subprocess.run([tool, "-c", "--quiet", SUMS], cwd=pack, capture_output=True, text=True)
    assert (check.returncode, check.stdout, check.stderr) == (0, "", "")


def test_the_zip_holds_every_other_file_with_fixed_dates_and_permissions(pack):
    """The same files, but the pages (and so the checksums) inside the zip,
    which have no button to download the zip they are in."""
    files = files_in(pack)
    with zipfile.ZipFile(pack / ZIP) as archive:
        assert archive.testzip() is None
        entries = archive.infolist()
        assert [e.filename for e in entries] == sorted(f"{NAME}/{p}" for p in files if p != ZIP)
        inside = {entry.filename.removeprefix(f"{NAME}/"): archive.read(entry) for entry in entries}
        for entry in entries:
            assert entry.date_time == (1980, 1, 1, 0, 0, 0)
            assert entry.external_attr >> 16 == 0o100644
    pages = set(PAGES.values())
    assert [path for path in files if path != ZIP and path not in pages | {SUMS}
            and inside[path] != files[path]] == []
    for page in pages:
        assert f'href="{ZIP}"'.encode() in files[page] and ZIP.encode() not in inside[page]
    listed = dict(reversed(line.split("  ", 1)) for line in inside[SUMS].decode().splitlines())
    assert sorted(listed) == sorted(set(inside) - {SUMS})
    assert all(hashlib.sha256(inside[path]).hexdigest() == digest for path, digest in listed.items())


def test_the_docs_give_the_zips_size_as_it_is(pack):
    megabytes = (pack / ZIP).stat().st_size / 1e6
    for page in ("printing.md", "sizes.md"):
        said = re.search(r"about (\d+) MB zipped", " ".join((REPO / "docs" / page).read_text().split()))
        assert said, page
        # "about": within one megabyte (the zip's size moves a little with zlib's version)
        assert abs(int(said[1]) - megabytes) < 1, (page, megabytes)


def test_the_pages_show_the_zips_own_size(pack):
    size = (pack / ZIP).stat().st_size
    assert size > 1_000_000
    english = f"{size / 1e6:.1f}".removesuffix(".0")
    assert f"Everything in one zip file <small>{english}\u00a0MB</small>" in (pack / "index.html").read_text()
    assert f"Tout dans un fichier zip <small>{english.replace('.', ',')}\u00a0Mo</small>" in (
        pack / "index-fr.html").read_text()


REBUILT = {"grids": ("powers", "bonus"), "langs": ("de", "fr")}  # the two grids with the most kinds of box


def test_a_rebuild_in_another_process_gives_the_same_bytes(tmp_path):
    """A smaller pack (every look, size and paper), built here and again in a process of its
    own with another hash seed: the same bytes.  (The whole pack is built once per run, by
    the fixture; test_determinism.py varies clocks, zones and locales.)"""
    build_pack(tmp_path / "here", Pack(**REBUILT))
    code = f"from sheetgen.runs.pack import Pack, build_pack; build_pack({str(tmp_path / 'again')!r}, Pack(**{REBUILT!r}))"
    subprocess.run([sys.executable, "-c", code], check=True,
                   env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": "12345"})
    first, second = files_in(tmp_path / "here"), files_in(tmp_path / "again")
    assert first.keys() == second.keys()
    assert [path for path in first if first[path] != second[path]] == []


def test_a_smaller_pack_through_the_library(tmp_path):
    contents = Pack(grids=("longo", "classic"), langs=("fr",), papers=("letter",))
    steps = []
    paths = build_pack(tmp_path, contents, steps.append)
    assert sum(steps) == contents.steps == len(paths) + 2  # and a typical game of each grid
    kinds = ["standard-colour", "standard-colour-marks", "standard-ink-saver", "standard-mono", "large-colour",
             "large-mono"]  # the A6 card prints on A6 only
    assert sorted(p.relative_to(tmp_path).as_posix() for p in paths) == sorted(
        [SUMS, "index-fr.html", "preview/classic-fr.png", "preview/longo-fr.png", ZIP,
         "rules/classic-fr-letter.pdf", "rules/longo-fr-letter.pdf", "counter/classic-fr.html",
         "counter/longo-fr.html"]
        + [f"pdf/{grid}-fr-{kind}-letter.pdf" for grid in ("classic", "longo") for kind in kinds])
    page = (tmp_path / "index-fr.html").read_text()
    assert '<html lang="fr">' in page and ">Français</a>" in page
    assert "A6" not in page and "A4" not in page  # neither paper, nor the card, is in this pack


# -- the pages -----------------------------------------------------------------------


class Page(HTMLParser):
    """A page's links, images, headings and the text between them."""

    def __init__(self, text: str):
        super().__init__()
        self.refs: list[str] = []
        self.tags: set[str] = set()
        self.headings: list[str] = []
        self.languages: list[tuple[str, str, bool]] = []  # href, hreflang, current
        self._heading = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        self.tags.add(tag)
        self.refs += [value for name, value in attrs if name in ("src", "href")]
        if tag == "a" and "hreflang" in values:
            self.languages.append((values["href"], values["hreflang"], "aria-current" in values))
        if tag in ("h1", "h2", "h3"):
            self._heading = ""

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append(self._heading.strip())
            self._heading = None

    def handle_data(self, data):
        if self._heading is not None:
            self._heading += data


def test_each_page_links_its_languages_files_and_needs_nothing_from_outside(pack):
    files = files_in(pack)
    linked: list[str] = []
    for lang, name in PAGES.items():
        text = (pack / name).read_text()
        page = Page(text)
        local = [ref for ref in page.refs if not ref.startswith("#")]
        assert all(ref in files for ref in local), [ref for ref in local if ref not in files]
        assert all(not urlsplit(ref).scheme and not ref.startswith("/") for ref in local)
        kinds = ("pdf/", "preview/", "rules/", "counter/")
        own = {p for p in files if p.startswith(kinds) and Path(p).stem.split("-")[1] == lang}
        assert {ref for ref in local if ref.startswith(kinds)} == own
        assert {ZIP, SUMS} <= set(local)
        assert not page.tags & {"script", "link", "iframe", "object", "embed"}
        assert "url(" not in text and "@import" not in text and "@font-face" not in text
        anchors = [ref[1:] for ref in page.refs if ref.startswith("#")]
        assert sorted(anchors) == sorted(builtin_names()) and all(f'id="{a}"' in text for a in anchors)
        assert page.languages == [(PAGES[other], other, other == lang) for other in ("en", "de", "fr", "it", "nl")]
        assert f'<html lang="{lang}">' in text
        linked += local
    assert {ref for ref in linked if ref.startswith("pdf/")} == PDFS  # every sheet has its button


def test_classic_comes_first_and_the_names_drop_the_shared_qwixx(pack):
    page = Page((pack / "index.html").read_text())
    games = page.headings[page.headings.index("How to cut") + 1:]  # the sections after the advice
    names = [h for h in games if h not in ("Standard", "Large print", "A6 card", "Rules card", "Score counter",
                                           "Checking the files")]
    assert names == ["Qwixx", "Bis", "Bonus", "Colour Blocks", "Disorder", "Doubles", "Longo", "Mixed", "Powers",
                     "Rainbow"]
    anchors = [ref[1:] for ref in page.refs if ref.startswith("#")]
    assert anchors[0] == "classic"


def test_the_page_speaks_to_players_first_and_checksums_come_last(pack):
    for lang, name in PAGES.items():
        words = load_labels(lang)
        headings = Page((pack / name).read_text()).headings
        grids_then_help = [words(key) for key in ("pack_games_title", "pack_paper_title", "pack_size_title",
                                                  "pack_look_title", "pack_print_title", "pack_cut_title")]
        assert headings[0] == words("pack_title")
        assert headings[1:7] == grids_then_help  # the list of grids first: on a phone it is on the first screen
        assert headings[-1] == words("pack_check_title")


def test_each_page_shows_the_previews_in_its_own_language(pack):
    for lang, name in PAGES.items():
        sources = [ref for ref in Page((pack / name).read_text()).refs if ref.startswith("preview/")]
        assert sources == [f"preview/{g.name}-{lang}.png" for g in in_list_order(load_grid(n) for n in builtin_names())]


def test_each_page_gives_each_grids_typical_game_from_the_simulation(pack):
    games = {name: typical_game(load_grid(name)) for name in builtin_names()}
    for lang, name in PAGES.items():
        text = html.unescape((pack / name).read_text())
        words = load_labels(lang)
        for grid, game in games.items():
            line = words.fill("pack_typical", players=4, score=game.winning_score, rolls=game.rolls, games=500)
            assert line in text, (lang, grid)


def test_short_titles_drop_the_words_every_title_begins_with():
    def grid(name, title):
        return grid_from_data({**CLASSIC, "name": name, "title": title}, f"{name}.yaml")

    base, bonus, two = grid("base", "Qwixx"), grid("bonus", "Qwixx Bonus"), grid("two", "Qwixx Two Tone")
    assert short_titles([bonus, base, two]) == {"base": "Qwixx", "bonus": "Bonus", "two": "Two Tone"}
    assert [g.name for g in in_list_order([two, bonus, base])] == ["base", "bonus", "two"]
    other = grid("other", "Mein Spiel")
    assert short_titles([bonus, other]) == {"bonus": "Qwixx Bonus", "other": "Mein Spiel"}  # nothing shared
    assert short_titles([bonus]) == {"bonus": "Qwixx Bonus"}  # alone, a grid keeps its title


CLASSIC = {"dice_faces": 6, "close_after": 5, "penalties": {"boxes": 4, "points": 5},
           "rows": [{"colour": c, "cells": list(range(2, 13)) if i < 2 else list(range(12, 1, -1))}
                    for i, c in enumerate(("red", "yellow", "green", "blue"))]}


def test_text_from_grid_files_is_escaped_on_the_page():
    mine = grid_from_data({**CLASSIC, "name": "mine", "title": "Qwixx <b>&amp;", "description": "A <script> & co"},
                          "mine.yaml")
    pack = Pack(grids=(), langs=("en",), papers=("a4",))
    sizes = {path: 1000 for path in pack_paths(pack, mine)}
    game = Typical(60, 30, 500, 4, "careful")
    page = index_html(pack, [mine, load_grid("classic")], "en", sizes, 2_000_000, {"mine": game, "classic": game})
    assert "<b>" not in page and "<script>" not in page
    assert "&lt;b&gt;&amp;amp;" in page and "A &lt;script&gt; &amp; co" in page


def test_each_language_writes_a_name_and_its_note_with_its_own_colon():
    classic = load_grid("classic")
    pack = Pack(grids=(), langs=("en", "fr"), papers=("a4",))
    sizes = {path: 1000 for path in pack_paths(pack, classic)}
    game = Typical(60, 30, 500, 4, "careful")
    english, french = (index_html(pack, [classic], lang, sizes, 2_000_000, {"classic": game}) for lang in pack.langs)
    assert "<strong>A4</strong>: " in english and "<strong>A4</strong>\u00a0: " in french  # French spaces its colon


def pack_paths(pack: Pack, grid) -> list[str]:
    from sheetgen.runs.pack import counter_path, pdf_path, rules_path

    names = (grid.name, "classic")
    return [pdf_path(g, lang, kind, paper) for g in names for lang in pack.langs
            for kind in pack.prints for paper in pack.papers_of(kind.size)] + [
        rules_path(g, lang, paper) for g in names for lang in pack.langs for paper in pack.card_papers] + [
        counter_path(g, lang) for g in names for lang in pack.langs]


# -- in a browser ----------------------------------------------------------------------

FRAME = """<!DOCTYPE html>
<html><body style="margin:0">
<iframe id="page" src="{page}" style="width:{width}px;height:900px;border:0"></iframe>
<script>
document.getElementById("page").addEventListener("load", () => {{
  const frame = document.getElementById("page").contentWindow, doc = frame.document;
  const size = e => {{ const r = e.getBoundingClientRect(); return [r.width, r.height]; }};
  const report = {{
    width: frame.innerWidth, scroll: doc.scrollingElement.scrollWidth, client: doc.scrollingElement.clientWidth,
    images: [...doc.images].map(i => ({{src: i.getAttribute("src"), loaded: i.complete && i.naturalWidth > 0,
                                        width: size(i)[0]}})),
    links: [...doc.links].map(a => ({{href: a.href, text: a.textContent.trim(), size: size(a)}})),
  }};
  const out = document.createElement("pre");
  out.id = "check";
  out.textContent = JSON.stringify(report);
  document.body.append(out);
}});
</script>
</body></html>"""


def in_chromium(pack: Path, page: str, width: int, profile: Path) -> dict:
    """What a page shows in a frame ``width`` CSS px wide (a phone's 390): Chromium
    loads it offline from file://, a script beside it measures, and prints the DOM."""
    chromium = need_tool("chromium")
    check = pack / f"check-{width}.html"
    check.write_text(FRAME.format(page=page, width=width))
    try:
        result = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--allow-file-access-from-files",  # the frame's page is read by the script beside it
             f"--user-data-dir={profile}", "--virtual-time-budget=10000", "--dump-dom", check.as_uri()],
            capture_output=True, text=True, timeout=120,
        )
    finally:
        check.unlink()
    found = re.search(r'<pre id="check">(.*?)</pre>', result.stdout, re.S)
    assert found, f"no report from the page (exit {result.returncode}): {result.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1)))


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
def test_in_chromium_every_target_is_44_px_every_link_a_file_and_nothing_too_wide(pack, tmp_path, lang, width):
    report = in_chromium(pack, PAGES[lang], width, tmp_path / "profile")
    assert report["width"] == width
    assert report["scroll"] <= report["client"]  # no sideways scrolling, on a phone either
    assert len(report["images"]) == len(builtin_names())
    assert [image["src"] for image in report["images"] if not image["loaded"]] == []
    assert all(image["width"] <= report["client"] for image in report["images"])
    small = [(link["text"], link["size"]) for link in report["links"] if min(link["size"]) < 44]
    assert small == []
    files = [link["href"] for link in report["links"] if not urlsplit(link["href"]).fragment]
    assert len(files) == (13 + 2 + 1) * 10 + len(LANGS) + 2  # sheets, cards, counter; pages, zip, checksums
    missing = [url for url in files if not Path(unquote(urlsplit(url).path)).is_file()]
    assert missing == []
