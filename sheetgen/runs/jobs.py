"""Print jobs: a grid, how many sheets, and how they look, to PDF bytes.

This is the library entry point the command line wraps:
``render_job(Job(grid, sheets=8, seed=1))`` returns the bytes of a PDF;
``job_section`` gives the pages of a job to render with others in one PDF.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from ..pdf.impose import impose
from ..sheet.draw import draw_sheet, personalise
from ..sheet.plan import SheetData, SheetPlan, plan_sheet
from ..play.lucky import DEFAULT_SEED, deal_lucky
from ..grid.model import Grid
from ..errors import LayoutError
from ..sheet.style import DEFAULT_LANG, DEFAULT_THEME, Theme, languages, load_labels, load_theme

if TYPE_CHECKING:  # render imports reportlab: loaded only when a PDF is made
    from ..pdf.render import Section


Progress = Callable[[int], None]  # told how many steps (sheets, files) were just done


@dataclass(frozen=True)
class Job:
    grid: Grid
    sheets: int = 8
    seed: int = DEFAULT_SEED
    lang: str = DEFAULT_LANG
    theme: str = DEFAULT_THEME
    colour_marks: bool = False  # a mark per colour and its key, in a theme that has none (colour-blind players)
    paper: str = "a4"
    header: str = ""  # printed at the top of every sheet (club, event, date)
    first_serial: int | None = None  # serial number of the first sheet, None for none


def sheet_data(job: Job, lucky: Iterator[tuple[int, ...]] | None = None) -> Iterator[SheetData]:
    """What differs per sheet: lucky numbers (from ``lucky``, a deal shared
    by several jobs, or else the job's own), serial number, header line."""
    lucky = lucky or deal_lucky(job.grid.lucky, job.seed)
    for index in range(job.sheets):
        serial = None if job.first_serial is None else job.first_serial + index
        yield SheetData(next(lucky), serial, job.header)


def render_job(job: Job, data: Iterable[SheetData] | None = None) -> bytes:
    """The PDF of ``job``: its sheets 8 to a page."""
    from ..pdf.render import render_sections

    return render_sections([job_section(job, data)], title=job.grid.title)


def job_section(job: Job, data: Iterable[SheetData] | None = None) -> Section:
    """The pages of ``job``, to render alone or after other jobs' in one PDF;
    ``data`` (default ``sheet_data(job)``) is read as the pages are drawn."""
    from ..pdf.render import Section, measure_text

    sheet, theme, drawing = _layout(*_sheet_of(job))
    plan = impose(job.paper, sheet.width, sheet.height)
    overlays = (personalise(sheet, d, theme, measure_text) for d in (data or sheet_data(job)))
    pages = iter(lambda: list(itertools.islice(overlays, plan.per_page)), [])
    return Section(plan, drawing, pages)


def layout_job(job: Job) -> tuple[SheetPlan, Theme]:
    """The plan of ``job``'s sheet as it prints, with the look it is drawn in."""
    sheet, theme, _ = _layout(*_sheet_of(job))
    return sheet, theme


def _sheet_of(job: Job) -> tuple:
    """What decides how a job's sheet looks (not its paper, count or seed)."""
    return job.grid, job.lang, job.theme, job.colour_marks, bool(job.header), job.first_serial is not None


@lru_cache(maxsize=16)
def _layout(grid: Grid, lang: str, theme_name: str, colour_marks: bool, header: bool, serial: bool):
    """One plan and drawing for every job that prints the same sheet (the pack prints each on two papers)."""
    from ..pdf.render import measure_text

    labels, theme = load_labels(lang), load_theme(theme_name, colour_marks)
    sheet = plan_sheet(grid, labels, theme, measure_text, header=header, serial=serial)
    return sheet, theme, draw_sheet(sheet, theme)


def check_printable(grid: Grid) -> None:
    """Lay ``grid`` out in every language, with room for a header and serial
    number, as a print run would: ``LayoutError`` if some sheet cannot print."""
    for lang in languages(default_first=True):  # the default's error is the one to show
        try:
            layout_job(Job(grid, lang=lang, header="header", first_serial=1))
        except LayoutError as error:
            if lang == DEFAULT_LANG:
                raise
            raise LayoutError(f"{error.message} (with --lang {lang})", error.path, error.where) from None
