"""Club batches: a manifest of print jobs, printed into one output folder.

A manifest (YAML) lists jobs, each a grid and a number of sheets, with their
language, paper, print theme, header line and serial numbers (see
``EXAMPLE``, which ``sheetgen batch --example`` prints).
``load_batch`` validates it once, the way grid files are validated (every
error names the manifest, the path inside it and what was expected), loads
every grid, deals what differs per sheet across the whole batch, and lays
every job out, so that nothing is written unless the whole batch can print:

- serial numbers run on from ``first_serial`` through the numbered jobs in
  manifest order: unique across the batch, each job's a run of its own, in
  the job's ``serial_order`` (by default the order of its pages cut as one
  stack: each pile in sequence);
- lucky numbers come from one shuffled deck per lucky-number range, shared by
  every job whose grid has that range (``deal_lucky`` with the batch's seed):
  no set repeats in the batch before every set of the range has been dealt
  (longo: 105 pairs), and any 8 sheets in a row differ.  The seed belongs to
  the batch, not to a job: a seed per job would let two jobs deal one pair.

``write_batch`` writes one PDF per job, or one combined PDF, atomically and
only inside the output folder; if a write fails, the error says which files
were written and which were not.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from ..errors import BatchError, InputError, LayoutError, OutputError, SheetgenError
from ..grid.load import builtin_names, load_grid
from ..pdf.impose import PAPERS
from .jobs import (MAX_SHEETS, Job, Progress, SerialOrder, check_job, counted, job_section, page_count,
                   read_first_serial, read_header, read_serial_order, read_sheets, render_job, sheet_data)
from ..sheet.layout import SheetData
from ..play.lucky import DEFAULT_SEED, deal_lucky
from ..grid.model import Grid, Lucky
from .output import write_atomic
from ..sheet.style import DEFAULT_LANG, DEFAULT_THEME, Labels, languages, themes
from ..grid.validate import Node, one_of

MAX_JOBS = 100
DEFAULT_OUT = Path("out")
BAD_NAME_CHARS = set('\\:*?"<>|')  # not allowed in a file name on some systems
EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "example-batch.yaml"  # every key, commented

# in a job, or in `defaults`
STYLE_KEYS = ("lang", "paper", "theme", "colour_marks", "header", "serial", "serial_order")
JOB_KEYS = ("file",) + STYLE_KEYS  # besides grid and sheets
TOP_KEYS = ("folder", "seed", "first_serial", "defaults")



@dataclass(frozen=True)
class BatchJob:
    job: Job
    file: str  # where its PDF goes, '/'-separated, relative to the output folder
    where: str  # its place in the manifest, for errors: "jobs[2].file"
    data: tuple[SheetData, ...]  # one per sheet, dealt across the batch

    @property
    def pages(self) -> int:
        return page_count(self.job)


@dataclass(frozen=True)
class Batch:
    source: str  # the manifest, as the user named it
    name: str  # the manifest's file name without suffix: the combined PDF's name and title
    folder: Path  # where it is written unless the caller says otherwise
    folder_named: bool  # the manifest named `folder` (so it must stay inside out/)
    jobs: tuple[BatchJob, ...]

    @property
    def sheets(self) -> int:
        return sum(b.job.sheets for b in self.jobs)


@dataclass(frozen=True)
class Written:
    path: Path
    jobs: tuple[BatchJob, ...]  # the jobs in this file: one, or all when combined


def load_batch(path: str | os.PathLike[str], words: Labels | None = None) -> Batch:
    """Read and validate the manifest at ``path``, with every grid it names;
    ``words`` (a language file's) print on every job instead of its ``lang``."""
    from ..grid.yamlio import read_yaml

    source = os.fspath(path)
    top = Node(source, "", read_yaml(path, source)).mapping(required=("jobs",), optional=TOP_KEYS)
    name = Path(source).stem
    folder_named = "folder" in top
    folder = DEFAULT_OUT / (_relative_path(top["folder"], f"{DEFAULT_OUT}/") if folder_named else f"batch-{name}")
    seed = top["seed"].integer(0) if "seed" in top else DEFAULT_SEED
    serial = read_first_serial(top["first_serial"]) if "first_serial" in top else 1
    defaults = top["defaults"].mapping(optional=STYLE_KEYS) if "defaults" in top else {}

    job_nodes = top["jobs"].sequence(1, MAX_JOBS, "jobs")
    base = Path(source).parent
    grids: dict[str, Grid] = {}
    decks: dict[Lucky | None, Iterator[tuple[int, ...]]] = {}  # one deck per lucky-number range
    jobs: list[BatchJob] = []
    files: dict[str, str] = {}
    total = 0
    for index, node in enumerate(job_nodes):
        if isinstance(node.value, dict) and "seed" in node.value:
            node.at("seed").fail("the seed belongs to the whole batch (one deck of lucky numbers"
                                 " for every job): set it at the top of the manifest")
        fields = node.mapping(required=("grid", "sheets"), optional=JOB_KEYS)
        style = {**defaults, **{key: fields[key] for key in STYLE_KEYS if key in fields}}
        grid = _grid(fields["grid"], base, grids)
        sheets = read_sheets(fields["sheets"])
        total += sheets
        if total > MAX_SHEETS:
            fields["sheets"].fail(f"the batch would have {total:,} sheets (expected at most {MAX_SHEETS:,}:"
                                  " split it into several manifests)")
        numbered = style["serial"].boolean() if "serial" in style else False
        header = read_header(style["header"]) if "header" in style else ""
        job = Job(
            grid,
            sheets=sheets,
            seed=seed,
            lang=style["lang"].choice({lang: lang for lang in languages()}) if "lang" in style else DEFAULT_LANG,
            words=words,
            paper=style["paper"].choice({paper: paper for paper in PAPERS}) if "paper" in style else "a4",
            theme=style["theme"].choice({theme: theme for theme in themes()}) if "theme" in style else DEFAULT_THEME,
            colour_marks=style["colour_marks"].boolean() if "colour_marks" in style else False,
            header=header,
            first_serial=serial if numbered else None,
            serial_order=read_serial_order(style["serial_order"]) if "serial_order" in style else SerialOrder.STACK,
        )
        if "file" in fields:
            file, where = _relative_path(fields["file"], "the output folder", ".pdf"), fields["file"].path
        else:
            file, where = f"{index + 1:02d}-{grid.name}.pdf", node.path
        if file.casefold() in files:
            fields.get("file", node).fail(f"{file!r} is already the file of {files[file.casefold()]}")
        files[file.casefold()] = node.path

        _check_layout(job, fields["grid"], style.get("header"))
        if grid.lucky not in decks:
            decks[grid.lucky] = deal_lucky(grid.lucky, seed)
        data = tuple(sheet_data(job, decks[grid.lucky]))
        serial += sheets if numbered else 0
        jobs.append(BatchJob(job, file, where, data))
    return Batch(source, name, folder, folder_named, tuple(jobs))


def _grid(node: Node, base: Path, loaded: dict[str, Grid]) -> Grid:
    """A built-in grid by name, or a grid file relative to the manifest."""
    spec = node.text()
    if spec not in builtin_names():
        path = base / spec
        if not path.is_file():
            node.fail(f"unknown grid {spec!r}: no such file {path} (expected a grid file or one of"
                      f" {one_of(builtin_names())})")
        spec = os.fspath(path)
    if spec not in loaded:
        loaded[spec] = load_grid(spec)
    return loaded[spec]


def _relative_path(node: Node, inside: str, suffix: str = "") -> str:
    """A path that stays inside the folder ``inside`` names: plain names joined by '/'."""
    text = node.text(200)
    if text.startswith("/") or (len(text) > 1 and text[1] == ":"):
        node.fail(f"{text!r} is an absolute path (expected a path inside {inside})")
    parts = text.split("/")
    if ".." in parts:
        node.fail(f"{text!r} leads out of {inside} (expected a path inside it, without '..')")
    for part in parts:
        if not part or part.startswith(".") or BAD_NAME_CHARS & set(part) or not part.isprintable():
            node.fail(f"{text!r} is not a plain path (expected names joined by '/', none empty or starting"
                      " with '.', without \\ : * ? \" < > |)")
    if suffix and not text.lower().endswith(suffix):
        node.fail(f"expected a file name ending in {suffix}, got {text!r}")
    return text


def _check_layout(job: Job, grid_node: Node, header_node: Node | None) -> None:
    """Lay the job out now, so that what cannot print fails before anything is written."""
    try:
        check_job(job)
    except LayoutError as error:
        if error.path == "header" and header_node:
            header_node.fail(error.message)
        grid_node.fail(str(error))


def write_batch(
    batch: Batch,
    folder: Path | None = None,
    *,
    combined: bool = False,
    progress: Progress | None = None,
) -> list[Written]:
    """Write the batch into ``folder`` (default ``batch.folder``): one PDF per
    job, or one PDF of every job in turn, named after the manifest."""
    from ..pdf.render import render_sections

    root = folder if folder is not None else batch.folder
    tick = progress or (lambda sheets: None)
    if batch.folder_named and folder is None:
        _inside(DEFAULT_OUT, root, lambda message: InputError(batch.source, "folder", message))
    if combined:
        target = root / f"{batch.name}.pdf"
        _inside(root, target, OutputError)
        sections = [job_section(b.job, counted(b.data, tick)) for b in batch.jobs]
        write_atomic(target, render_sections(sections, title=batch.name))
        return [Written(target, batch.jobs)]

    targets = [root / b.file for b in batch.jobs]
    for b, target in zip(batch.jobs, targets):  # every target is checked before any is written
        _inside(root, target, lambda message, b=b: InputError(batch.source, b.where, message))
    written: list[Written] = []
    for b, target in zip(batch.jobs, targets):
        try:
            write_atomic(target, render_job(b.job, counted(b.data, tick)))
        except SheetgenError as error:
            done = len(written)
            raise BatchError(error, [j.file for j in batch.jobs[:done]], [j.file for j in batch.jobs[done:]]) from error
        written.append(Written(target, (b,)))
    return written


def _inside(root: Path, target: Path, error: Callable[[str], SheetgenError]) -> None:
    """Refuse ``target`` if a symbolic link on its way leads out of ``root``."""
    if target.resolve().is_relative_to(root.resolve()):
        return
    relative = target.relative_to(root)
    steps = [root / p for p in reversed(relative.parents) if p != Path(".")] + [target]
    link = next((step for step in steps if step.is_symlink()), None)
    via = f" through the symbolic link {link} -> {os.readlink(link)}" if link else ""
    raise error(f"{os.fspath(relative)!r} leads out of {root}/{via}")
