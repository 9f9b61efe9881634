"""The download pack: its files, checksums, zip, byte-identical rebuilds, and
its index page opened from disk in headless Chromium."""

from __future__ import annotations

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
from urllib.parse import urlsplit
from urllib.request import url2pathname

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from conftest import need_tool
from sheetgen.cli import cli
from sheetgen.grid.load import builtin_names
from sheetgen.runs.pack import NAME, PREVIEW_DPI, SUMS, ZIP, Pack, build_pack
from sheetgen.pdf.raster import encode_png
from sheetgen.sheet.style import load_labels

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    """The full pack, built once through the command line."""
    folder = tmp_path_factory.mktemp("pack") / "out" / "pack"
    result = CliRunner().invoke(cli, ["pack", "-o", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    size = (folder / ZIP).stat().st_size / 1e6
    assert result.output == (
        f"wrote 113 files to {folder}: open {folder}/index.html, or share {folder}/{ZIP} ({size:.1f} MB)\n"
    )
    return folder


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_pack_holds_every_grid_in_every_language_on_both_papers(pack):
    pdfs = {f"pdf/{g}-{lang}-{paper}.pdf" for g in builtin_names() for lang in ("de", "en", "fr", "it", "nl")
            for paper in ("a4", "letter")}
    previews = {f"preview/{g}.png" for g in builtin_names()}
    assert set(files_in(pack)) == pdfs | previews | {"index.html", SUMS, ZIP}
    assert len(pdfs) == 100


def test_each_pdf_is_one_page_of_its_paper_in_its_language(pack):
    sizes = {"a4": (595, 842), "letter": (612, 792)}
    for path in sorted(pack.glob("pdf/*.pdf")):
        grid, lang, paper = path.stem.rsplit("-", 2)
        document = pdfium.PdfDocument(path.read_bytes())
        assert len(document) == 1
        assert tuple(round(v) for v in document[0].get_size()) == sizes[paper], path.name
        assert load_labels(lang)("penalties") in document[0].get_textpage().get_text_range(), path.name


def test_previews_are_one_sheet_at_150_dpi(pack):
    for path in sorted(pack.glob("preview/*.png")):
        with Image.open(path) as image:
            assert image.format == "PNG" and image.mode == "RGB"
            assert image.size == (int(96 / 25.4 * PREVIEW_DPI), int(66 / 25.4 * PREVIEW_DPI))  # 566 x 389
            assert [round(v) for v in image.info["dpi"]] == [PREVIEW_DPI, PREVIEW_DPI]
            assert len(image.getcolors(1 << 16) or range(99)) > 20  # colours, not a blank page


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
    files = files_in(pack)
    with zipfile.ZipFile(pack / ZIP) as archive:
        assert archive.testzip() is None
        entries = archive.infolist()
        assert [e.filename for e in entries] == sorted(f"{NAME}/{p}" for p in files if p != ZIP)
        for entry in entries:
            assert entry.date_time == (1980, 1, 1, 0, 0, 0)
            assert entry.external_attr >> 16 == 0o100644
            assert archive.read(entry) == files[entry.filename.removeprefix(f"{NAME}/")]


def test_a_rebuild_in_another_process_gives_the_same_bytes(pack, tmp_path):
    again = tmp_path / "again"
    subprocess.run([sys.executable, "-m", "sheetgen", "pack", "-o", str(again), "--quiet"], check=True,
                   env={**os.environ, "PYTHONPATH": str(REPO)})
    first, second = files_in(pack), files_in(again)
    assert first.keys() == second.keys()
    assert [path for path in first if first[path] != second[path]] == []


def test_a_smaller_pack_through_the_library(tmp_path):
    contents = Pack(grids=("classic", "longo"), langs=("fr",), papers=("letter",))
    steps = []
    paths = build_pack(tmp_path, contents, steps.append)
    assert sum(steps) == contents.steps == len(paths) == 2 * 2 + 3
    assert sorted(p.relative_to(tmp_path).as_posix() for p in paths) == [
        SUMS, "index.html", "pdf/classic-fr-letter.pdf", "pdf/longo-fr-letter.pdf",
        "preview/classic.png", "preview/longo.png", ZIP]
    assert ">Français<" in (tmp_path / "index.html").read_text()


class Links(HTMLParser):
    """Every src and href, and every tag, of a page."""

    def __init__(self):
        super().__init__()
        self.refs: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.refs += [value for name, value in attrs if name in ("src", "href")]


def test_index_links_every_pdf_and_preview_and_needs_nothing_from_outside(pack):
    page = (pack / "index.html").read_text()
    links = Links()
    links.feed(page)
    files = {p for p in files_in(pack) if p.endswith((".pdf", ".png"))}
    local = [ref for ref in links.refs if not ref.startswith("#")]
    assert sorted(local) == sorted(files | {SUMS})
    assert all(not urlsplit(ref).scheme and not ref.startswith("/") for ref in local)
    assert not links.tags & {"script", "link", "iframe", "object", "embed"}
    assert "url(" not in page and "@import" not in page and "@font-face" not in page
    anchors = [ref[1:] for ref in links.refs if ref.startswith("#")]
    assert anchors == builtin_names() and all(f'id="{a}"' in page for a in anchors)


CHECK_SCRIPT = """<script>
window.addEventListener("load", () => {
  const report = {
    images: [...document.images].map(i => ({src: i.getAttribute("src"), loaded: i.complete && i.naturalWidth > 0})),
    links: [...document.links].map(a => a.href),
  };
  const out = document.createElement("pre");
  out.id = "check";
  out.textContent = JSON.stringify(report);
  document.body.append(out);
});
</script>"""


def test_index_opened_from_disk_in_chromium_loads_every_preview_and_links_real_files(pack, tmp_path):
    """A copy of the page with a checking script, next to the real one; Chromium
    loads it offline from file://, runs the script and prints the DOM."""
    chromium = need_tool("chromium")
    check = pack / "check.html"
    check.write_text((pack / "index.html").read_text().replace("</body>", CHECK_SCRIPT + "\n</body>"))
    try:
        result = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=10000", "--dump-dom",
             check.as_uri()],
            capture_output=True, text=True, timeout=120,
        )
    finally:
        check.unlink()
    found = re.search(r'<pre id="check">(.*?)</pre>', result.stdout, re.S)
    assert found, f"no report from the page (exit {result.returncode}): {result.stderr[-2000:]}"
    report = json.loads(html.unescape(found.group(1)))
    assert len(report["images"]) == len(builtin_names())
    assert [image["src"] for image in report["images"] if not image["loaded"]] == []
    files = [url for url in report["links"] if urlsplit(url).scheme == "file" and not urlsplit(url).fragment]
    assert len(files) == 100 + 1  # every PDF, and the checksums
    missing = [url for url in files if not Path(url2pathname(urlsplit(url).path)).is_file()]
    assert missing == []
