"""The download pack: every built-in grid, ready to print, and a page per language.

``pack_files`` makes every file of the pack in memory, by its path inside
the pack:

- the sheets, one page each as PDF: every grid in every language, on every
  paper its size prints on, in the looks ``PRINTS`` lists (every theme, and
  colour with colour marks, at the standard size; fewer in large print and
  on A6, so that the pack stays a sensible size);
- a PNG preview of one standard colour sheet of each grid in each language;
- the rules card of each grid in each language, on A4 and US Letter
  (``runs/rules_pdf.py``), its counter page in each language, to count the
  points on a phone (``play/counter.py``), and each grid's typical game,
  from a fixed-seed simulation (``play/simulate.typical_game``), shown on the pages;
- ``index.html`` (the default language) and ``index-XX.html``: one page per
  language, linked to each other, from the ``pack_`` words of the language
  files and the template ``sheetgen/data/pack.html`` (plain HTML and CSS,
  nothing fetched, so they work opened from disk);
- ``SHA256SUMS`` of all of them, and one zip of it all, whose pages (and
  checksums) are those without the button that downloads the zip.

``build_pack`` writes them, all or none.  Rebuilding gives the same bytes, zip included:
PDFs in invariant mode, fixed zip dates and permissions, sorted entries.
The caller learns of progress through ``progress(steps)``, one step per
file made (``Pack.steps`` in all).  Grids are listed as ``sheetgen list``
lists them, the base game first (``grid.load.in_list_order``).
"""

from __future__ import annotations

import hashlib
import html
import io
import os
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from string import Template

from ..errors import OutputError
from ..grid.load import builtin_names, in_list_order, load_grid, short_titles
from ..grid.model import Grid
from ..pdf.impose import PAPERS, impose
from ..play.counter import counter_html
from ..play.simulate import Typical, typical_game
from ..sheet.plan import A6, LARGE, STANDARD, SheetSize
from ..sheet.style import DATA, DEFAULT_LANG, DEFAULT_THEME, Labels, languages, load_labels, themes
from .jobs import LEAST_PDF_BYTES, Job, Progress, page_plan, render_job
from .output import Together, check_output
from .rules_pdf import CARD_PAPERS, rules_card_pdf

NAME = "sheetgen-pack"  # the folder inside the zip
ZIP = f"{NAME}.zip"
SUMS = "SHA256SUMS"
TEMPLATE = DATA / "pack.html"
PREVIEW_DPI = 150
PREVIEW_CSS_WIDTH = 384  # px: 96 mm at 4 px a mm
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can hold: no build time in the bytes


@dataclass(frozen=True)
class Look:
    """How a sheet prints: a theme, with or without the colour marks."""

    theme: str
    colour_marks: bool = False

    @property
    def name(self) -> str:
        """'colour', 'colour-marks', 'mono': in file names, and the key of its words."""
        return f"{self.theme}-marks" if self.colour_marks else self.theme


def every_look() -> tuple[Look, ...]:
    """Every theme, and the default theme with colour marks just after it."""
    looks = [Look(DEFAULT_THEME), Look(DEFAULT_THEME, True)]
    return tuple(looks + [Look(theme) for theme in themes() if theme != DEFAULT_THEME])


@dataclass(frozen=True)
class Print:
    """Sheets of one size in one look, on every paper the size prints on."""

    size: SheetSize
    look: Look


# What a club needs: every look at the standard size (the pads' own), large
# print in colour and in black and white (a colour printer or the other kind;
# the black and white look carries the colour marks, and ink-saver's thin lines
# are no help to weak eyes), and A6 in colour, for print shops.
PRINTS = (
    *(Print(STANDARD, look) for look in every_look()),
    Print(LARGE, Look(DEFAULT_THEME)),
    Print(LARGE, Look("mono")),
    Print(A6, Look(DEFAULT_THEME)),
)


@dataclass(frozen=True)
class Pack:
    """What goes in a pack (by default everything built in, and ``PRINTS``)."""

    grids: tuple[str, ...] = field(default_factory=lambda: tuple(builtin_names()))
    langs: tuple[str, ...] = field(default_factory=lambda: tuple(languages(default_first=True)))
    prints: tuple[Print, ...] = PRINTS
    papers: tuple[str, ...] = tuple(PAPERS)  # of those the sizes print on
    machine_marks: bool = True  # the corner markers `sheetgen scan` reads

    def papers_of(self, size: SheetSize) -> tuple[str, ...]:
        return tuple(paper for paper in size.papers if paper in self.papers)

    @property
    def card_papers(self) -> tuple[str, ...]:
        return tuple(paper for paper in CARD_PAPERS if paper in self.papers)

    @property
    def sheet_files(self) -> int:
        """PDFs of sheets for one grid in one language."""
        return sum(len(self.papers_of(p.size)) for p in self.prints)

    @property
    def least_bytes(self) -> int:
        """Fewer bytes than the pack will take: its sheets' PDFs, at the least a
        PDF can take, twice (in the folder and in the zip, which cannot
        compress them further)."""
        pdfs = len(self.grids) * len(self.langs) * (self.sheet_files + len(self.card_papers))
        return 2 * pdfs * LEAST_PDF_BYTES

    @property
    def steps(self) -> int:
        """Per grid its typical game, and per language its sheets, preview,
        rules cards and counter page; then the pages, the checksums and the zip."""
        per_lang = self.sheet_files + 1 + len(self.card_papers) + 1
        return len(self.grids) * (1 + len(self.langs) * per_lang) + len(self.langs) + 2


def sheet_job(grid: Grid, lang: str, kind: Print, paper: str, machine_marks: bool = True) -> Job:
    """One page of ``kind`` sheets of ``grid`` in ``lang`` on ``paper``."""
    job = Job(grid, lang=lang, size=kind.size, paper=paper, theme=kind.look.theme,
              colour_marks=kind.look.colour_marks, machine_marks=machine_marks)
    return replace(job, sheets=page_plan(job).per_page)


def pdf_path(grid: str, lang: str, kind: Print, paper: str) -> str:
    """pdf/classic-en-standard-colour-a4.pdf; a size that prints on one paper only: no paper."""
    end = f"-{paper}" if len(kind.size.papers) > 1 else ""
    return f"pdf/{grid}-{lang}-{kind.size.name}-{kind.look.name}{end}.pdf"


def preview_path(grid: str, lang: str) -> str:
    return f"preview/{grid}-{lang}.png"


def rules_path(grid: str, lang: str, paper: str) -> str:
    return f"rules/{grid}-{lang}-{paper}.pdf"


def counter_path(grid: str, lang: str) -> str:
    return f"counter/{grid}-{lang}.html"


def page_path(lang: str) -> str:
    return "index.html" if lang == DEFAULT_LANG else f"index-{lang}.html"


def pack_files(pack: Pack, progress: Progress | None = None) -> dict[str, bytes]:
    """Every file of ``pack`` by its path inside the pack, the zip last."""
    from ..pdf.raster import rasterise_png

    tick = progress or (lambda steps: None)
    files: dict[str, bytes] = {}
    grids = in_list_order(load_grid(name) for name in pack.grids)
    typical: dict[str, Typical] = {}
    for grid in grids:
        typical[grid.name] = typical_game(grid)
        tick(1)
        for lang in pack.langs:
            for kind in pack.prints:
                for paper in pack.papers_of(kind.size):
                    job = sheet_job(grid, lang, kind, paper, pack.machine_marks)
                    files[pdf_path(grid.name, lang, kind, paper)] = render_job(job)
                    tick(1)
            preview = Job(grid, sheets=1, lang=lang)  # the first sheet of a standard page in colour
            slot = impose(preview.paper, STANDARD.width, STANDARD.height).slots[0]
            files[preview_path(grid.name, lang)] = rasterise_png(render_job(preview), slot, PREVIEW_DPI)
            tick(1)
            for paper in pack.card_papers:
                files[rules_path(grid.name, lang, paper)] = rules_card_pdf(grid, lang, paper)
                tick(1)
            pack_page = "../" + page_path(lang)  # from counter/: the pack's page in the same language
            files[counter_path(grid.name, lang)] = counter_html(grid, lang, pack_page=pack_page).encode()
            tick(1)
    sizes = {path: len(data) for path, data in files.items()}
    # The zip holds the pages without the button to download it (it is not
    # inside itself), so the pages that show its size can be made after it.
    inside = files | {page_path(lang): index_html(pack, grids, lang, sizes, None, typical).encode()
                      for lang in pack.langs}
    archive = zip_files(inside | {SUMS: checksums(inside).encode()})
    pages = {page_path(lang): index_html(pack, grids, lang, sizes, len(archive), typical).encode()
             for lang in pack.langs}
    tick(len(pack.langs) + 1)
    everything = files | pages
    everything[SUMS] = checksums(everything).encode()
    tick(1)
    return everything | {ZIP: archive}


def build_pack(folder: str | os.PathLike[str], pack: Pack | None = None,
               progress: Progress | None = None) -> list[Path]:
    """Write the pack into ``folder``; the paths written.  Its target is
    checked before anything is made (the names, the folder, the free space
    the pack needs at the least), and it is written whole or not at all: a
    pack that fails leaves an earlier pack in ``folder`` as it was."""
    pack = pack or Pack()
    check_pack_target(Path(folder), pack)
    files = pack_files(pack, progress)
    together = Together()
    try:
        with together:
            for path, data in sorted(files.items()):
                together.add(Path(folder, path), data)
            return together.commit()
    except OutputError as error:
        written = f"{together.committed} of {len(files)} files written" if together.committed else "no file written"
        raise OutputError(f"{error}; pack stopped, {written}") from None


def check_pack_target(folder: Path, pack: Pack) -> None:
    """Refuse a folder the pack cannot be written in, before it is made."""
    longest = max((pdf_path(grid, lang, kind, paper) for grid in pack.grids for lang in pack.langs
                   for kind in pack.prints for paper in pack.papers_of(kind.size)), key=len)
    check_output(folder / longest, pack.least_bytes)


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
            compress = zipfile.ZIP_STORED if path.endswith(".png") else zipfile.ZIP_DEFLATED  # PNG is compressed
            archive.writestr(entry, data, compress_type=compress, compresslevel=9)
    return buffer.getvalue()


def rounded(size: int) -> tuple[str, float]:
    """A file's size as the pages show it: ("kb", whole kB) below a megabyte, else ("mb", to 0.1 MB)."""
    if size < 1_000_000:
        return "kb", max(1, round(size / 1000))
    return "mb", round(size / 1e6, 1)


# -- the grids, as the pages list them ------------------------------------------------


# -- the pages --------------------------------------------------------------------------


class Html(str):
    """Markup made from the template's parts: put into another part as it is."""


@lru_cache(maxsize=1)
def _parts() -> dict[str, Template]:
    """The parts of the template file, by name."""
    text = TEMPLATE.read_text(encoding="utf-8")
    pieces = re.split(r"^<!-- part (\w+) -->\n", text, flags=re.M)[1:]  # the file's own comment first
    return {name: Template(body) for name, body in zip(pieces[::2], pieces[1::2])}


def fill(part: str, **values: object) -> Html:
    """The template's ``part`` with ``values``: text escaped, ``Html`` as it is."""
    escaped = {key: value if isinstance(value, Html) else html.escape(str(value)) for key, value in values.items()}
    return Html(_parts()[part].substitute(escaped))


def joined(parts: Iterable[Html]) -> Html:
    return Html("\n".join(parts))


def index_html(pack: Pack, grids: list[Grid], lang: str, sizes: dict[str, int], zip_size: int | None,
               typical: dict[str, Typical]) -> str:
    """The pack's page in ``lang``: the grids, how to choose and print, then
    each grid's preview, typical game and files; the checksums at the bottom.
    ``sizes`` are the bytes of the files it links, ``zip_size`` the zip's (None
    for the page inside the zip: no button to download it), ``typical`` each
    grid's typical game."""
    words = load_labels(lang)
    short = short_titles(replace(grid, title=words.grid_title(grid)) for grid in grids)  # in the page's language
    kinds = _in_pack(pack)

    def amount(size: int) -> str:
        unit, figure = rounded(size)
        return words(f"pack_{unit}", f"{figure:g}".replace(".", words("pack_decimal")))

    def per_page(size: SheetSize) -> int:
        return impose(size.papers[0], size.width, size.height).per_page

    def named(name: str, text: str) -> Html:
        return fill("named_item", name=name, colon=words("pack_colon"), text=text)

    languages_list = joined(fill("current_language" if other == lang else "language", href=page_path(other),
                                 lang=other, name=load_labels(other)("language")) for other in pack.langs)
    papers = joined(named(words(f"pack_paper_{paper}"), words(f"pack_paper_{paper}_note"))
                    for paper in PAPERS if any(paper in pack.papers_of(k.size) for k in pack.prints))
    sizes_list = joined(named(words(f"pack_size_{size.name}"), words(f"pack_size_{size.name}_note", per_page(size)))
                        for size in kinds)
    looks = joined(named(_look_words(words, look), _look_words(words, look, "_note"))
                   for look in dict.fromkeys(k.look for k in pack.prints))

    sections = []
    for grid in grids:
        downloads = []
        for size, size_looks in kinds.items():
            rows = []
            for look in size_looks:
                kind = Print(size, look)
                buttons = []
                for paper in pack.papers_of(size):
                    path = pdf_path(grid.name, lang, kind, paper)
                    paper_name = words(f"pack_paper_{paper}")
                    label = (f"{short[grid.name]}, {words(f'pack_size_{size.name}')}, {_look_words(words, look)},"
                             f" {paper_name} (PDF, {amount(sizes[path])})")
                    buttons.append(fill("button", href=path, label=label, text=paper_name, size=amount(sizes[path])))
                rows.append(fill("look", name=_look_words(words, look), buttons=joined(buttons)))
            downloads.append(fill("size", name=words(f"pack_size_{size.name}"), looks=joined(rows)))
        cards = []
        for paper in pack.card_papers:
            path = rules_path(grid.name, lang, paper)
            paper_name = words(f"pack_paper_{paper}")
            label = f"{short[grid.name]}, {words('pack_rules')}, {paper_name} (PDF, {amount(sizes[path])})"
            cards.append(fill("button", href=path, label=label, text=paper_name, size=amount(sizes[path])))
        if cards:
            downloads.append(fill("files", name=words("pack_rules"), note=words("pack_rules_note"),
                                  buttons=joined(cards)))
        path, counter = counter_path(grid.name, lang), words("counter_heading")
        button = fill("button", href=path, label=f"{short[grid.name]}, {counter} (HTML, {amount(sizes[path])})",
                      text=words("pack_counter_open"), size=amount(sizes[path]))
        downloads.append(fill("files", name=counter, note=words("pack_counter_note"), buttons=button))
        game = typical[grid.name]
        description = words.grid_about(grid)
        about = [fill("about", text=description)] if description else []
        about.append(fill("about", text=words.fill("pack_typical", players=game.players, score=game.winning_score,
                                                   rolls=game.rolls, games=game.games)))
        sections.append(fill(
            "grid", id=grid.name, name=short[grid.name], about=joined(about), preview=preview_path(grid.name, lang),
            width=PREVIEW_CSS_WIDTH, height=round(PREVIEW_CSS_WIDTH * STANDARD.height / STANDARD.width),
            preview_alt=words("pack_preview_alt", short[grid.name]), downloads=joined(downloads)))

    contents = joined(fill("contents_entry", id=grid.name, name=short[grid.name]) for grid in grids)
    return fill(
        "page", lang=lang, title=words("pack_title"), languages_label=words("pack_languages"),
        languages=languages_list, intro=words("pack_intro"),
        everything=Html("") if zip_size is None else fill("everything", zip=ZIP, label=words("pack_everything"),
                                                         size=amount(zip_size)),
        paper_title=words("pack_paper_title"), papers=papers,
        size_title=words("pack_size_title"), sizes=sizes_list, look_title=words("pack_look_title"), looks=looks,
        print_title=words("pack_print_title"), print=words("pack_print"), cut_title=words("pack_cut_title"),
        cut=words("pack_cut"), games_title=words("pack_games_title"), contents=contents, grids=joined(sections),
        check_title=words("pack_check_title"), check=words("pack_check", SUMS), sums=SUMS, made=words("pack_made"),
        preview_width=PREVIEW_CSS_WIDTH,
    )


def _in_pack(pack: Pack) -> dict[SheetSize, list[Look]]:
    """The sizes of the pack, in the order of its prints, each with its looks."""
    kinds: dict[SheetSize, list[Look]] = {}
    for kind in pack.prints:
        if pack.papers_of(kind.size):
            kinds.setdefault(kind.size, []).append(kind.look)
    return kinds


def _look_words(words: Labels, look: Look, suffix: str = "") -> str:
    return words(f"pack_look_{look.name.replace('-', '_')}{suffix}")
