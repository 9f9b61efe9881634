"""Club batches: a manifest of print jobs, printed into one output folder.

A manifest (YAML) lists jobs, each a grid and a number of sheets, with their
language, paper, print theme, header line and serial numbers (see
``EXAMPLE``, which ``sheetgen batch --example`` prints).
``load_batch`` validates it once, the way grid files are validated (every
error names the manifest, the path inside it and what was expected), cheap
things first: every job's fields, its file and the size of its grid file,
within ``MAX_GRID_BYTES`` for the batch, before any grid is read.  Then it
loads every grid, deals what differs per sheet across the whole batch, and
lays every job out, so that nothing is written unless the whole batch can print:

- serial numbers run on from ``first_serial`` through the numbered jobs in
  manifest order: unique across the batch, each job's a run of its own, in
  the job's ``serial_order`` (by default the order of its pages cut as one
  stack: each pile in sequence);
- lucky numbers come from one shuffled deck per lucky-number range, shared by
  every job whose grid has that range (``deal_lucky`` with the batch's seed):
  no set repeats in the batch before every set of the range has been dealt
  (longo: 105 pairs), and any 8 sheets in a row differ.  The seed belongs to
  the batch, not to a job: a seed per job would let two jobs deal one pair.

``write_batch`` checks every target first (``output.check_output``: the
names, the folders, the free space the PDFs need at the least), then writes
one PDF per job, or one combined PDF, only inside the output folder, and all
of them or none: a batch that fails leaves the files of an earlier run as
they were (``output.Together``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

from ..checks import Node
from ..errors import BatchError, InputError, LayoutError, OutputError, SheetgenError
from ..grid.load import builtin_names, load_grid
from ..grid.model import Grid, Lucky
from ..play.lucky import DEFAULT_SEED, deal_lucky
from ..records import record
from ..sheet.plan import STANDARD, SheetData
from ..sheet.style import DEFAULT_LANG, DEFAULT_THEME, Labels, languages, themes
from ..words import one_of, quoted
from .jobs import (
    MAX_SHEETS,
    Job,
    Progress,
    SerialOrder,
    check_job,
    counted,
    document_info,
    job_section,
    least_bytes,
    page_count,
    read_first_serial,
    read_header,
    read_paper,
    read_serial_order,
    read_sheets,
    read_size,
    render_job,
    sheet_data,
)
from .output import Together, check_output, check_space, write_atomic

MAX_JOBS = 100
# Of the grid files one batch reads, all told: some 200 grid files of the
# usual 2-3 KiB, or two of 256 KiB (the most one file may hold), which take
# about 0.2 s each to read, so that the grids of a batch cost under a second.
MAX_GRID_BYTES = 512 * 1024
GRID_SUFFIXES = (".yaml", ".yml", ".json")
DEFAULT_OUT = Path("out")
BAD_NAME_CHARS = set('\\:*?"<>|')  # not allowed in a file name on some systems
EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "example-batch.yaml"  # every key, commented

# in a job, or in `defaults`
STYLE_KEYS = ("lang", "size", "paper", "theme", "colour_marks", "header", "serial", "serial_order")
JOB_KEYS = ("file",) + STYLE_KEYS  # besides grid and sheets
TOP_KEYS = ("folder", "seed", "first_serial", "defaults")



@record
class BatchJob:
    job: Job
    file: str  # where its PDF goes, '/'-separated, relative to the output folder
    where: str  # its place in the manifest, for errors: "jobs[2].file"
    data: tuple[SheetData, ...]  # one per sheet, dealt across the batch

    @property
    def pages(self) -> int:
        return page_count(self.job)


@record
class Batch:
    source: str  # the manifest, as the user named it
    name: str  # the manifest's file name without suffix: the combined PDF's name and title
    folder: Path  # where it is written unless the caller says otherwise
    folder_named: bool  # the manifest named `folder` (so it must stay inside out/)
    jobs: tuple[BatchJob, ...]

    @property
    def sheets(self) -> int:
        return sum(b.job.sheets for b in self.jobs)


@record
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
    # What costs nothing first, for every job: its fields, its file and where
    # its grid is, with the size of every grid file, before any grid is read.
    entries = [_read_job(node, defaults, base) for node in job_nodes]
    total = 0
    for entry in entries:
        total += entry.options["sheets"]
        if total > MAX_SHEETS:
            entry.fields["sheets"].fail(f"the batch would have {total:,} sheets (expected at most {MAX_SHEETS:,}:"
                                        " split it into several manifests)")
    _check_grid_bytes(entries)

    grids: dict[str, Grid] = {}
    decks: dict[Lucky | None, Iterator[tuple[int, ...]]] = {}  # one deck per lucky-number range
    jobs: list[BatchJob] = []
    files: dict[str, tuple[str, str]] = {}  # casefolded file -> the file and the job that writes it
    for index, entry in enumerate(entries):
        if entry.grid not in grids:
            grids[entry.grid] = load_grid(entry.grid)
        grid = grids[entry.grid]
        job = Job(grid, seed=seed, words=words, first_serial=serial if entry.numbered else None, **entry.options)
        node = entry.fields.get("file", entry.node)
        file = entry.file or f"{index + 1:02d}-{grid.name}.pdf"
        _check_file_is_its_own(node, file, files)
        files[file.casefold()] = file, entry.node.path

        _check_layout(job, entry.fields["grid"], entry.style.get("header"))
        if grid.lucky not in decks:
            decks[grid.lucky] = deal_lucky(grid.lucky, seed)
        data = tuple(sheet_data(job, decks[grid.lucky]))
        serial += job.sheets if entry.numbered else 0
        jobs.append(BatchJob(job, file, node.path, data))
    return Batch(source, name, folder, folder_named, tuple(jobs))


@record
class _Entry:
    """A job as its manifest entry gives it, checked, before its grid is read."""

    node: Node
    fields: dict[str, Node]
    style: dict[str, Node]  # the job's own style keys over the manifest's defaults
    grid: str  # a built-in grid's name, or the path of a grid file
    grid_bytes: int  # the size of that file; 0 for a built-in grid
    options: dict  # the Job's fields but its grid, seed, words and first serial
    numbered: bool
    file: str | None  # the file it names, None for the default


def _read_job(node: Node, defaults: dict[str, Node], base: Path) -> _Entry:
    if isinstance(node.value, dict) and "seed" in node.value:
        node.at("seed").fail("the seed belongs to the whole batch (one deck of lucky numbers"
                             " for every job): set it at the top of the manifest")
    fields = node.mapping(required=("grid", "sheets"), optional=JOB_KEYS)
    style = {**defaults, **{key: fields[key] for key in STYLE_KEYS if key in fields}}
    size = read_size(style["size"]) if "size" in style else STANDARD
    options = dict(
        sheets=read_sheets(fields["sheets"]),
        lang=style["lang"].choice({lang: lang for lang in languages()}) if "lang" in style else DEFAULT_LANG,
        size=size,
        paper=read_paper(style["paper"], size) if "paper" in style else size.papers[0],
        theme=style["theme"].choice({theme: theme for theme in themes()}) if "theme" in style else DEFAULT_THEME,
        colour_marks=style["colour_marks"].boolean() if "colour_marks" in style else False,
        header=read_header(style["header"]) if "header" in style else "",
        serial_order=read_serial_order(style["serial_order"]) if "serial_order" in style else SerialOrder.STACK,
    )
    numbered = style["serial"].boolean() if "serial" in style else False
    file = _relative_path(fields["file"], "the output folder", ".pdf") if "file" in fields else None
    grid, grid_bytes = _grid_source(fields["grid"], base)
    return _Entry(node, fields, style, grid, grid_bytes, options, numbered, file)


def _grid_source(node: Node, base: Path) -> tuple[str, int]:
    """A built-in grid's name, or the path of a grid file relative to the
    manifest, with its size.  A grid path may name any file of the user's, so
    only a grid file (.yaml, .yml, .json) is read, and a refusal shows no
    content of a file that is not one."""
    spec = node.text()
    if spec in builtin_names():
        return spec, 0
    path = base / spec
    try:
        found = os.stat(path)
    except FileNotFoundError:
        node.fail(f"unknown grid {quoted(spec)}: no such file {path} (expected a grid file or one of"
                  f" {one_of(builtin_names())})")
    except OSError as error:
        raise InputError(os.fspath(path), "", f"cannot be read ({error.strerror})") from None
    if not path.name.lower().endswith(GRID_SUFFIXES) and stat.S_ISREG(found.st_mode):
        node.fail(f"{quoted(spec)} is not a grid file (expected a name ending in {one_of(GRID_SUFFIXES)},"
                  f" or one of {one_of(builtin_names())})")
    return os.fspath(path), found.st_size if stat.S_ISREG(found.st_mode) else 0


def _check_grid_bytes(entries: list[_Entry]) -> None:
    """Bound what the batch reads as a whole, before reading any of it."""
    seen: set[str] = set()
    total = 0
    for entry in entries:
        if entry.grid in seen:
            continue
        seen.add(entry.grid)
        total += entry.grid_bytes
        if total > MAX_GRID_BYTES:
            entry.fields["grid"].fail(
                f"the batch's grid files would hold {total / 1024:,.0f} KiB (expected at most"
                f" {MAX_GRID_BYTES // 1024:,} KiB in one batch: split it into several manifests)")


def _check_file_is_its_own(node: Node, file: str, files: dict[str, tuple[str, str]]) -> None:
    """Refuse a job's file that another job writes, or that would be a folder
    of another's file or inside one: a.pdf and a.pdf/b.pdf cannot both be."""
    key = file.casefold()
    if key in files:
        node.fail(f"{quoted(file)} is already the file of {files[key][1]}")
    for other, (name, job) in files.items():
        if key.startswith(other + "/"):
            node.fail(f"{quoted(file)} would be inside {quoted(name)}, the file of {job} (a name cannot be both a"
                      " file and a folder)")
        if other.startswith(key + "/"):
            node.fail(f"{quoted(file)} would be the folder of {quoted(name)}, the file of {job} (a name cannot be"
                      " both a file and a folder)")


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
    root = folder if folder is not None else batch.folder
    tick = progress or (lambda sheets: None)
    if batch.folder_named and folder is None:
        _inside(DEFAULT_OUT, root, lambda message: InputError(batch.source, "folder", message))
    if combined:
        target = root / f"{batch.name}.pdf"
        _inside(root, target, OutputError)
        check_output(target, sum(least_bytes(b.job) for b in batch.jobs))
        write_atomic(target, combined_pdf(batch, tick))
        return [Written(target, batch.jobs)]

    targets = [root / b.file for b in batch.jobs]
    for b, target in zip(batch.jobs, targets):  # every target is checked before any is written
        _inside(root, target, partial(InputError, batch.source, b.where))
        check_output(target, least_bytes(b.job))
    check_space(next(f for f in [root, *root.parents] if f.is_dir()), sum(least_bytes(b.job) for b in batch.jobs))
    files = [b.file for b in batch.jobs]
    with Together() as together:
        for b, target in zip(batch.jobs, targets):
            try:
                together.add(target, render_job(b.job, counted(b.data, tick)))
            except SheetgenError as error:
                raise BatchError(error, [], files) from error
        try:
            together.commit()
        except SheetgenError as error:
            raise BatchError(error, files[: together.committed], files[together.committed:]) from error
    return [Written(target, (b,)) for b, target in zip(batch.jobs, targets)]


def combined_pdf(batch: Batch, progress: Progress | None = None) -> bytes:
    """One PDF of every job of ``batch`` in turn, titled after the manifest."""
    from ..pdf.render import render_sections

    tick = progress or (lambda sheets: None)
    sections = [job_section(b.job, counted(b.data, tick)) for b in batch.jobs]
    # the manifest's name as text, even when it is not UTF-8 (it reaches Python as surrogates)
    title = os.fsencode(batch.name).decode("utf-8", "replace")
    return render_sections(sections, **(document_info(batch.jobs[0].job) | {"title": title}))


def _inside(root: Path, target: Path, error: Callable[[str], SheetgenError]) -> None:
    """Refuse ``target`` if a symbolic link on its way leads out of ``root``."""
    # os.path.realpath, not Path.resolve: a symbolic link loop is for the write to report
    if Path(os.path.realpath(target)).is_relative_to(os.path.realpath(root)):
        return
    relative = target.relative_to(root)
    steps = [root / p for p in reversed(relative.parents) if p != Path(".")] + [target]
    link = next((step for step in steps if step.is_symlink()), None)
    via = f" through the symbolic link {link} -> {os.readlink(link)}" if link else ""
    raise error(f"{os.fspath(relative)!r} leads out of {root}/{via}")
