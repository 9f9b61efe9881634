"""The download pack: every built-in grid in every language on both papers.

``pack_files`` makes every file of the pack in memory, by its path inside
the pack: one page of 8 sheets per grid, language and paper as PDF, a PNG
preview of one sheet of each grid, an ``index.html`` that shows the
previews and links every PDF (plain HTML and CSS, nothing fetched, so it
works opened from disk), a ``SHA256SUMS`` of all of them and one zip of it
all.  ``build_pack`` writes them.  Rebuilding gives the same bytes, zip
included: PDFs in invariant mode, fixed zip dates and permissions, sorted
entries.  The caller learns of progress through ``progress(steps)``, one
step per file made (``Pack.steps`` in all).
"""

from __future__ import annotations

import hashlib
import html
import io
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import OutputError
from ..grid.load import builtin_names, load_grid
from ..pdf.impose import PAPERS, impose
from .jobs import Job, Progress, render_job
from ..sheet.plan import STANDARD
from ..grid.model import Grid
from .output import write_atomic
from ..sheet.style import DEFAULT_LANG, languages, load_labels

NAME = "sheetgen-pack"  # the folder inside the zip
ZIP = f"{NAME}.zip"
PREVIEW_DPI = 150
PREVIEW_CSS_WIDTH = 384  # px: 96 mm at 4 px a mm
PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can hold: no build time in the bytes
SUMS = "SHA256SUMS"


@dataclass(frozen=True)
class Pack:
    """What goes in a pack (by default everything built in)."""

    grids: tuple[str, ...] = field(default_factory=lambda: tuple(builtin_names()))
    langs: tuple[str, ...] = field(default_factory=lambda: tuple(languages(default_first=True)))
    papers: tuple[str, ...] = tuple(PAPERS)

    @property
    def steps(self) -> int:
        """PDFs, previews, then the index, the checksums and the zip."""
        return len(self.grids) * (len(self.langs) * len(self.papers) + 1) + 3


def pdf_path(grid: str, lang: str, paper: str) -> str:
    return f"pdf/{grid}-{lang}-{paper}.pdf"


def preview_path(grid: str) -> str:
    return f"preview/{grid}.png"


def pack_files(pack: Pack, progress: Progress | None = None) -> dict[str, bytes]:
    """Every file of ``pack`` by its path inside the pack, the zip last."""
    from ..pdf.raster import rasterise_png

    tick = progress or (lambda steps: None)
    files: dict[str, bytes] = {}
    grids = [load_grid(name) for name in pack.grids]
    for grid in grids:
        for lang in pack.langs:
            for paper in pack.papers:
                files[pdf_path(grid.name, lang, paper)] = render_job(Job(grid, lang=lang, paper=paper))
                tick(1)
        # the preview is the first sheet of the grid's first PDF (English on A4 in the full pack)
        first = files[pdf_path(grid.name, pack.langs[0], pack.papers[0])]
        slot = impose(pack.papers[0], STANDARD.width, STANDARD.height).slots[0]
        files[preview_path(grid.name)] = rasterise_png(first, slot, PREVIEW_DPI)
        tick(1)
    files["index.html"] = index_html(pack, grids, files).encode()
    tick(1)
    files[SUMS] = checksums(files).encode()
    tick(1)
    files[ZIP] = zip_files(files)
    tick(1)
    return files


def build_pack(folder: str | os.PathLike[str], pack: Pack | None = None, progress: Progress | None = None) -> list[Path]:
    """Write the pack into ``folder`` (each file atomically); the paths written.
    A write that fails stops the pack, and the error says how much was written."""
    files = pack_files(pack or Pack(), progress)
    written: list[Path] = []
    for path, data in sorted(files.items()):
        try:
            written.append(write_atomic(Path(folder, path), data))
        except OutputError as error:
            missing = len(files) - len(written)
            raise OutputError(f"{error}; pack stopped: {len(written)} of {len(files)} files written, the other"
                              f" {missing} missing or left from an earlier pack") from None
    return written


def checksums(files: dict[str, bytes]) -> str:
    """``sha256sum -c`` input for ``files``, sorted by path."""
    return "".join(f"{hashlib.sha256(data).hexdigest()}  {path}\n" for path, data in sorted(files.items()))


def zip_files(files: dict[str, bytes]) -> bytes:
    """A zip of ``files`` under one folder, the same bytes for the same files."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path, data in sorted(files.items()):
            entry = zipfile.ZipInfo(f"{NAME}/{path}", date_time=ZIP_DATE)
            entry.create_system = 3  # Unix, so that the permissions below are read
            entry.external_attr = 0o100644 << 16  # a regular file, rw-r--r--
            compress = zipfile.ZIP_STORED if path.endswith(".png") else zipfile.ZIP_DEFLATED
            archive.writestr(entry, data, compress_type=compress, compresslevel=9)
    return buffer.getvalue()


def index_html(pack: Pack, grids: list[Grid], files: dict[str, bytes]) -> str:
    """The pack's front page: a preview of each grid and a link to every PDF."""
    esc = html.escape
    names = {lang: load_labels(lang)("language") for lang in pack.langs}
    width = PREVIEW_CSS_WIDTH
    height = round(width * STANDARD.height / STANDARD.width)
    toc = "".join(f'<li><a href="#{esc(g.name)}">{esc(g.title)}</a></li>' for g in grids)
    papers = {paper: PAPER_NAMES.get(paper, paper) for paper in pack.papers}

    def cell(grid: Grid, lang: str, paper: str) -> str:
        path = pdf_path(grid.name, lang, paper)
        label = esc(f"{grid.title}, {names[lang]}, {papers[paper]} (PDF)")
        return f'<td><a href="{esc(path)}" aria-label="{label}">PDF</a> <small>{len(files[path]) // 1000} kB</small></td>'

    sections = []
    for grid in grids:
        head = "".join(f"<th>{esc(name)}</th>" for name in papers.values())
        rows = "".join(
            f'<tr><th lang="{esc(lang)}">{esc(names[lang])}</th>'
            + "".join(cell(grid, lang, paper) for paper in pack.papers)
            + "</tr>"
            for lang in pack.langs
        )
        sections.append(
            f'<section id="{esc(grid.name)}">\n<h2>{esc(grid.title)}</h2>\n'
            + (f"<p>{esc(grid.description)}</p>\n" if grid.description else "")
            + f'<img src="{esc(preview_path(grid.name))}" width="{width}" height="{height}"'
            f' alt="One sheet of {esc(grid.title)}">\n'
            f"<table><thead><tr><th></th>{head}</tr></thead>\n<tbody>{rows}</tbody></table>\n</section>"
        )
    body = "\n".join(sections)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Qwixx score sheets to print</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 52rem; padding: 0 1rem; color: #222; }}
section {{ border-top: 1px solid #ccc; padding: 1rem 0; display: grid; grid-template-columns: {width}px 1fr;
  gap: 0 1.5rem; align-items: start; }}
section h2, section p {{ grid-column: 1 / -1; margin: 0.3rem 0; }}
img {{ border: 1px solid #ddd; max-width: 100%; height: auto; }}
table {{ border-collapse: collapse; }}
th, td {{ text-align: left; padding: 0.2rem 0.8rem 0.2rem 0; }}
thead th {{ font-weight: normal; color: #666; }}
small {{ color: #666; }}
ul.toc {{ columns: 2; padding-left: 1.2rem; }}
@media (max-width: 40rem) {{ section {{ grid-template-columns: 1fr; }} }}
</style>
</head>
<body>
<h1>Qwixx score sheets to print</h1>
<p>Every grid in every language, on A4 and US Letter paper: eight sheets of
96 &times; 66 mm to a page. Print at actual size (100 %, no &ldquo;fit to page&rdquo;)
and cut along the dashed lines. The file <a href="{SUMS}">{SUMS}</a> holds the
SHA-256 checksum of every file here: <code>sha256sum -c {SUMS}</code> checks them.</p>
<ul class="toc">{toc}</ul>
{body}
<p>Made with sheetgen.</p>
</body>
</html>
"""
