"""Print jobs: a grid, how many sheets, and how they look, to PDF bytes.

This is the library entry point the command line wraps:
``render_job(Job(grid, sheets=8, seed=1))`` returns the bytes of a PDF;
``job_section`` gives the pages of a job to render with others in one PDF.

Sheets are printed page by page, slot by slot ("print order").  Lucky numbers
are dealt in print order, so the sheets of one page never share a set.  Serial
numbers follow ``SerialOrder``: by default the order of a cut stack, so that
the pages of a job, cut as one stack, give one pile per slot, each pile in
sequence and the piles one after another (``serial_numbers``).

The ``read_*`` functions check a job's fields as a manifest or the command
line gives them, so that both accept the same values and say the same.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING

from ..checks import Node
from ..errors import LayoutError
from ..grid.model import Grid
from ..pdf.geometry import Drawing, Item
from ..pdf.impose import PAPER_NAMES, PAPERS, PagePlan, impose
from ..play.lucky import DEFAULT_SEED, deal_lucky
from ..records import record
from ..sheet.draw import draw_sheet, personalise
from ..sheet.machine import Identity, code_items, encode, fiducial_items, grid_key
from ..sheet.plan import SIZES, STANDARD, SheetData, SheetPlan, SheetSize, plan_sheet
from ..sheet.style import DEFAULT_LANG, DEFAULT_THEME, Labels, Theme, languages, load_labels, load_theme
from ..words import one_of

if TYPE_CHECKING:  # render imports reportlab: loaded only when a PDF is made
    from ..pdf.render import Section


Progress = Callable[[int], None]  # told how many steps (sheets, files) were just done

MAX_SHEETS = 80_000  # in one run or one batch: 10,000 pages of 8
MAX_HEADER = 80  # characters; whether they fit is measured too
MAX_FIRST_SERIAL = 999_999  # serials print with six digits
# The least a PDF of sheets takes, for the free-space check before a run: one
# page of any grid and size (about 11 KB, fonts included), and each page more
# (some 450 to 650 bytes); tests/test_output_checks.py holds every grid to both.
LEAST_PDF_BYTES = 8 * 1024
LEAST_PAGE_BYTES = 256


class SerialOrder(str, Enum):
    """The order serial numbers follow on the pages of a job."""

    STACK = "stack"  # cut the pages as one stack: each slot's pile in sequence, pile after pile
    PAGE = "page"  # page by page, slot by slot: the sheets of a page in sequence


def serial_numbers(sheets: int, per_page: int, first: int, order: SerialOrder) -> list[int]:
    """The serial number of each sheet, in print order, from ``first`` to
    ``first + sheets - 1``.  In stack order, slot s of page p (from 0, of
    ``pages``) gets ``first + p + s * pages``, as in a cut-stack imposition.
    A last page with fewer sheets leaves its last slots empty, so those
    slots' piles are a sheet shorter and the piles after them start earlier:
    the numbers stay a run without gaps."""
    if order is SerialOrder.PAGE:
        return list(range(first, first + sheets))
    pages = -(-sheets // per_page)
    on_last = sheets - (pages - 1) * per_page  # filled slots of the last page
    return [first + slot * pages - max(0, slot - on_last) + page
            for page in range(pages) for slot in range(per_page if page < pages - 1 else on_last)]


@record
class Job:
    grid: Grid
    sheets: int = 8
    seed: int = DEFAULT_SEED
    lang: str = DEFAULT_LANG
    words: Labels | None = None  # the user's own words (a language file), instead of those of `lang`
    theme: str = DEFAULT_THEME
    colour_marks: bool = False  # a mark per colour and its key, in a theme that has none (colour-blind players)
    size: SheetSize = STANDARD
    paper: str = ""  # one of the size's papers; "" for its first
    header: str = ""  # printed at the top of every sheet (club, event, date)
    first_serial: int | None = None  # serial number of the first sheet, None for none
    serial_order: SerialOrder = SerialOrder.STACK
    machine_marks: bool = True  # corner markers (and a code where there is room) for `sheetgen scan`

    def __post_init__(self) -> None:
        if not self.paper:
            object.__setattr__(self, "paper", self.size.papers[0])


def sheet_data(job: Job, lucky: Iterator[tuple[int, ...]] | None = None) -> Iterator[SheetData]:
    """What differs per sheet, in print order: lucky numbers (from ``lucky``,
    a deal shared by several jobs, or else the job's own), serial number,
    header line."""
    lucky = lucky or deal_lucky(job.grid.lucky, job.seed)
    if job.first_serial is None:
        serials: Iterable[int | None] = itertools.repeat(None, job.sheets)
    else:
        serials = serial_numbers(job.sheets, page_plan(job).per_page, job.first_serial, job.serial_order)
    for serial in serials:
        yield SheetData(next(lucky), serial, job.header)


def counted(data: Iterable[SheetData], progress: Progress) -> Iterator[SheetData]:
    """``data``, telling ``progress`` of each sheet as it is drawn."""
    for item in data:
        yield item
        progress(1)


def render_job(job: Job, data: Iterable[SheetData] | None = None) -> bytes:
    """The PDF of ``job``: its sheets as many to a page as its paper holds."""
    from ..pdf.render import render_sections

    return render_sections([job_section(job, data)], **document_info(job))


def document_info(job: Job) -> dict[str, str]:
    """What a job's PDF says of itself: the grid and language as its title,
    the header line (the club) as its author, what it holds as its subject."""
    words = job.words or load_labels(job.lang)
    return {"title": f"{job.grid.title} ({words('language')})", "author": job.header or "sheetgen",
            "subject": words("pack_title")}


def job_section(job: Job, data: Iterable[SheetData] | None = None) -> Section:
    """The pages of ``job``, to render alone or after other jobs' in one PDF;
    ``data`` (default ``sheet_data(job)``) is read as the pages are drawn."""
    from ..pdf.render import Section, measure_text

    sheet, theme, drawing = _layout(*_sheet_of(job))
    plan = page_plan(job)
    shared, code = _codes(job, sheet)
    drawing = replace(drawing, items=drawing.items + shared) if shared else drawing
    overlays = (personalise(sheet, d, theme, measure_text) + code(d) for d in (data or sheet_data(job)))
    pages = iter(lambda: list(itertools.islice(overlays, plan.per_page)), [])
    return Section(plan, drawing, pages)


def _codes(job: Job, sheet: SheetPlan) -> tuple[tuple[Item, ...], Callable[[SheetData], tuple[Item, ...]]]:
    """The machine code of ``job``'s sheets (what `sheetgen scan` must know to read one), if they have
    one: drawn once with the sheet's art when every sheet's is the same (no lucky numbers, no serials),
    else each sheet's own."""
    machine = sheet.machine
    if machine is None or machine.code is None:
        return (), lambda data: ()
    from ..grid.load import builtin_names, load_grid

    builtin = load_grid(job.grid.name) if job.grid.name in builtin_names() else None
    key, strip = grid_key(job.grid, builtin), bool(job.header) or job.first_serial is not None

    def code(lucky: tuple[int, ...], serial: int | None) -> tuple[Item, ...]:
        return code_items(machine, encode(Identity(key, job.lang, job.size.name, job.theme, strip, lucky, serial)))

    if job.grid.lucky is None and job.first_serial is None:
        return code((), None), lambda data: ()
    return (), lambda data: code(data.lucky, data.serial)


def page_plan(job: Job) -> PagePlan:
    """Where the sheets of ``job`` go on its paper."""
    sheet = layout_job(job)[0]
    return impose(job.paper, sheet.width, sheet.height)


def page_count(job: Job) -> int:
    return -(-job.sheets // page_plan(job).per_page)


def least_bytes(job: Job) -> int:
    """Fewer bytes than the PDF of ``job`` will take: what must be free to write it."""
    return LEAST_PDF_BYTES + LEAST_PAGE_BYTES * (page_count(job) - 1)


def layout_job(job: Job) -> tuple[SheetPlan, Theme]:
    """The plan of ``job``'s sheet as it prints, with the look it is drawn in."""
    sheet, theme, _ = _layout(*_sheet_of(job))
    return sheet, theme


def _sheet_of(job: Job) -> tuple:
    """What decides how a job's sheet looks (not its paper, count or seed)."""
    return (job.grid, job.words or load_labels(job.lang), job.theme, job.colour_marks, job.size, bool(job.header),
            job.first_serial is not None, job.machine_marks)


@lru_cache(maxsize=16)
def _layout(grid: Grid, labels: Labels, theme_name: str, colour_marks: bool, size: SheetSize, header: bool,
            serial: bool, machine_marks: bool = True) -> tuple[SheetPlan, Theme, Drawing]:
    """One plan and drawing for every job that prints the same sheet (the pack prints each on two papers)."""
    from ..pdf.render import measure_text

    theme = load_theme(theme_name, colour_marks)
    sheet = plan_sheet(grid, labels, theme, measure_text, size, header=header, serial=serial, machine=machine_marks)
    drawing = draw_sheet(sheet, theme)
    if sheet.machine is not None:
        drawing = replace(drawing, items=drawing.items + fiducial_items(sheet.machine))
    return sheet, theme, drawing


def check_printable(grid: Grid) -> None:
    """Lay ``grid`` out in every language and sheet size, with room for a header
    and serial number, as a print run would: ``LayoutError`` if some sheet cannot print."""
    for size in SIZES.values():  # the standard size first, then the default language: their error is the one to show
        for lang in languages(default_first=True):
            try:
                layout_job(Job(grid, lang=lang, size=size, header="header", first_serial=1))
            except LayoutError as error:
                if lang == DEFAULT_LANG and size is STANDARD:
                    raise
                options = " ".join(([f"--size {size.name}"] if size is not STANDARD else [])
                                   + ([f"--lang {lang}"] if lang != DEFAULT_LANG else []))
                raise LayoutError(f"{error.message} (with {options})", error.path, error.where) from None


def check_job(job: Job) -> None:
    """Lay ``job`` out, and a sheet of it with its header and its widest
    serial number, as printing it will: what cannot print fails now, before
    anything is written, with a ``LayoutError`` whose path is "header" when it
    is the header line that does not fit."""
    from ..pdf.render import measure_text

    sheet, theme = layout_job(job)
    lucky = next(deal_lucky(job.grid.lucky, job.seed))
    try:
        personalise(sheet, SheetData(lucky, None, job.header), theme, measure_text)
    except LayoutError as error:
        raise LayoutError(error.message, "header") from None
    if job.first_serial is not None:  # the last is the widest: 999999 + 1 has seven digits
        personalise(sheet, SheetData(lucky, job.first_serial + job.sheets - 1), theme, measure_text)


# -- a job's fields as a manifest or the command line gives them ----------------


def read_sheets(node: Node) -> int:
    return node.integer(1, MAX_SHEETS)


def read_header(node: Node) -> str:
    return node.text(MAX_HEADER)


def read_first_serial(node: Node) -> int:
    return node.integer(0, MAX_FIRST_SERIAL)


def read_serial_order(node: Node) -> SerialOrder:
    return node.choice({order.value: order for order in SerialOrder})


def read_size(node: Node) -> SheetSize:
    return node.choice(SIZES)


def read_paper(node: Node, size: SheetSize) -> str:
    """A paper the sheets of ``size`` print on."""
    if node.value in PAPERS and node.value not in size.papers:
        node.fail(f"{size.name} sheets print on {one_of([PAPER_NAMES[p] for p in size.papers])} paper, not on"
                  f" {PAPER_NAMES[node.value]} (expected {one_of(size.papers)})")
    return node.choice({paper: paper for paper in size.papers})
