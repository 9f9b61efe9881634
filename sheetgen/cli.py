"""The command line: thin click commands over the library.

The only module that imports click.  Every user error (a ``SheetgenError``
or a usage error) ends as one line on stderr and a non-zero exit: 1 for bad
input or output, and for what the system refuses (a full disk, a closed
standard output, a missing permission, too little memory); 2 for wrong usage;
130 for Ctrl-C; never a traceback.  Any other exception is a bug: one line
asking for a report and exit 3, with the traceback only when the environment
variable SHEETGEN_DEBUG is set.  Every line printed passes through
``errors.shown``, so what it echoes from input cannot drive the terminal.
"""

from __future__ import annotations

import errno
import io
import os
import sys
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Callable, Iterator

import click

from .errors import OutputError, SheetgenError, quoted, shown
from .pdf.impose import PAPERS
from .grid.validate import plural
from .sheet.style import DEFAULT_LANG, DEFAULT_THEME, languages, themes

PAGES_MAX = 10_000


class _Cli(click.Group):
    """A group whose errors are one line each, however they arise."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            os.getcwd()  # reportlab asks for it; relative paths need it
        except OSError as error:
            _complain(f"the current folder cannot be used ({error.strerror}): change to another one")
            sys.exit(1)
        if not isinstance(sys.stdout, _StandardOutput):
            sys.stdout = _StandardOutput(sys.stdout)
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except SheetgenError as error:
            _complain(str(error))
            sys.exit(error.exit_code)
        except click.UsageError as error:
            command = error.ctx.command_path if error.ctx else "sheetgen"
            _complain(f"{error.format_message()} (see '{command} --help')", command)
            sys.exit(error.exit_code)
        except click.ClickException as error:
            _complain(error.format_message())
            sys.exit(error.exit_code)
        except (_Interrupted, KeyboardInterrupt):
            _complain("interrupted")
            sys.exit(130)
        except click.Abort as error:  # Ctrl-C while click itself was reading the command line
            _complain("interrupted" if isinstance(error.__cause__, KeyboardInterrupt) else "aborted")
            sys.exit(130 if isinstance(error.__cause__, KeyboardInterrupt) else 1)
        except BrokenPipeError:
            # Whoever read the output has gone (`sheetgen list | head -1`): stop
            # quietly, with stdout on nothing so that the final flush cannot fail.
            _silence_stdout()
            sys.exit(1)
        except OSError as error:  # the system refused something on a path not checked before
            _complain(f"{error.filename}: {error.strerror}" if error.filename is not None else error.strerror)
            sys.exit(1)
        except MemoryError:
            _complain("out of memory (print fewer pages in one run, or free some memory)")
            sys.exit(1)
        except Exception as error:
            debug = bool(os.environ.get("SHEETGEN_DEBUG"))
            if debug:
                import traceback

                traceback.print_exc()
            detail = " ".join(f"{type(error).__name__}: {error}".split())
            hint = "" if debug else " (SHEETGEN_DEBUG=1 shows the traceback)"
            _complain(f"internal error, please report: {detail}{hint}")
            sys.exit(3)
        sys.exit(result if isinstance(result, int) else 0)

    def invoke(self, ctx):
        # click answers Ctrl-C with a blank line and "Aborted!"; sheetgen says
        # it was interrupted, on one line, and exits 130 as shells expect.
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Interrupted from None


class _Interrupted(BaseException):
    """Ctrl-C, carried past click (a BaseException: nothing on the way may catch it)."""


LINE_MAX = 1_000  # characters of one error line; what it echoes from input is cut to fit


def _complain(message: str, command: str = "sheetgen") -> None:
    """One error line on stderr, safe for a terminal whatever it echoes."""
    line = shown(f"{command}: {message}")
    if len(line) > LINE_MAX:
        cut = len(line) - LINE_MAX
        line = f"{line[: LINE_MAX // 2]} [... {cut:,} characters ...] {line[-LINE_MAX // 2:]}"
    try:
        click.echo(line, err=True)
    except OSError:  # stderr itself is full or gone: the exit code still tells
        pass


class _StandardOutput:
    """Standard output while sheetgen runs.  A write that fails (`sheetgen
    list >&-`, `sheetgen --help > /dev/full`) is the user's to fix, as for any
    program: an ``OutputError``, so one line and exit 1, whoever wrote (click
    prints help and versions itself).  A reader that has gone stays a
    ``BrokenPipeError``: a quiet exit."""

    def __init__(self, stream):
        self.stream = stream  # None when the run was started with it closed

    encoding = property(lambda self: getattr(self.stream, "encoding", "utf-8"))
    errors = property(lambda self: getattr(self.stream, "errors", "strict"))

    def write(self, text: str) -> int:
        if text == "":  # click writes nothing to learn what a stream takes: no error to give yet
            return 0
        return self._guarded(lambda: self.stream.write(text))

    def write_bytes(self, data: bytes) -> None:
        self._guarded(lambda: self._write_all(memoryview(data)))

    def _write_all(self, view: memoryview) -> None:
        self.stream.flush()
        binary = self.stream.buffer  # unbuffered (PYTHONUNBUFFERED) it may take part of the data at a time
        while view:
            view = view[binary.write(view) :]
        binary.flush()

    def flush(self) -> None:
        if self.stream is not None:
            self._guarded(self.stream.flush)

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def __getattr__(self, name):
        return getattr(self.stream, name)

    def _guarded(self, call):
        if self.stream is None:
            raise OutputError(f"standard output: cannot be written ({os.strerror(errno.EBADF)})")
        try:
            return call()
        except BrokenPipeError:
            raise
        except OSError as error:
            _silence_stdout()
            raise OutputError(f"standard output: cannot be written ({error.strerror})") from None


def _silence_stdout() -> None:
    """Point standard output at nothing, so that the flush at exit cannot fail."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass  # closed from the start, or not a real file (tests)


def _say(text: str, nl: bool = True) -> None:
    """Print to standard output, safe for a terminal whatever it echoes."""
    click.echo(shown(text, lines=True), nl=nl)


class Seed(click.ParamType):
    """A whole number, or 'random' for a fresh one (printed so it can be reused)."""

    name = "seed"

    def convert(self, value, param, ctx):
        if isinstance(value, int) or value == "random":
            return value
        try:
            seed = int(value)
        except ValueError:
            self.fail(f"expected a whole number or 'random', got {value!r}", param, ctx)
        if seed < 0:
            self.fail(f"expected a whole number of at least 0, got {seed}", param, ctx)
        return seed


def _pick_seed(seed: int | str) -> int:
    if seed != "random":
        return int(seed)
    import secrets

    return secrets.randbelow(2**31)


@click.group(name="sheetgen", cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sheetgen")
def cli() -> None:
    """Printable score sheets for Qwixx and its variants, eight to a page."""


@cli.command("list")
def list_grids() -> None:
    """List the built-in grids, one line each."""
    from .grid.load import builtin_names, load_grid

    for name in builtin_names():
        grid = load_grid(name)
        _say(f"{name:<10} {grid.title:<20} {grid.description}")


@cli.command()
@click.argument("files", nargs=-1, required=True)
def check(files: tuple[str, ...]) -> None:
    """Validate grid files and lay them out in every language: 'FILE: ok', or
    one error line per bad or unprintable file (exit 1).  '-' reads a grid
    from standard input."""
    from .grid.load import load_grid
    from .grid.yamlio import source_name
    from .runs.jobs import check_printable

    _stdin_once(files)
    failed = False
    for file in files:
        try:
            check_printable(load_grid(file))
        except SheetgenError as error:
            _complain(str(error))
            failed = True
        else:
            _say(f"{shown(source_name(file))}: ok")
    if failed:
        sys.exit(1)


def _stdin_once(inputs: tuple[str, ...]) -> None:
    if inputs.count("-") > 1:
        raise click.UsageError("'-' (standard input) is given more than once: it can be read only once")


@cli.command()
@click.argument("grid")
def show(grid: str) -> None:
    """Print the file of a built-in GRID, to start a grid of your own from."""
    from .errors import InputError
    from .grid.load import builtin_dir, builtin_names
    from .grid.validate import one_of

    if grid not in builtin_names():
        raise InputError(grid, "", f"not a built-in grid (expected {one_of(builtin_names())})")
    _say((builtin_dir() / f"{grid}.yaml").read_text(encoding="utf-8"), nl=False)


@cli.command()
def schema() -> None:
    """Print the JSON Schema of grid files, for editors (sheetgen/grid/grid.schema.json)."""
    from .grid.load import grid_schema

    _say(grid_schema(), nl=False)


class PdfTarget(click.ParamType):
    """Where render writes: a PDF file (.pdf), a folder (ending in '/', or
    existing) to write GRID.pdf in, or '-' for standard output."""

    name = "pdf"

    def convert(self, value, param, ctx):
        if value != "-" and not _is_folder(value) and not value.lower().endswith(".pdf"):
            self.fail(f"expected a file name ending in .pdf, a folder (end it with '/') or '-' for standard output,"
                      f" got {quoted(value)}", param, ctx)
        return value


def _is_folder(path: str) -> bool:
    return path.endswith(("/", os.sep)) or os.path.isdir(path)


@cli.command()
@click.argument("grid")
@click.option("-o", "--output", type=PdfTarget(),
              help="PDF to write, a folder to write GRID.pdf in, or '-' for standard output [default: out/GRID.pdf].")
@click.option("--pages", type=click.IntRange(1, PAGES_MAX), default=1, show_default=True,
              help="Pages to print, 8 sheets each.")
@click.option("--seed", type=Seed(), default="1", show_default=True,
              help="Seed of the lucky numbers; the same seed prints the same sheets. 'random' for a fresh one.")
@click.option("--lang", type=click.Choice(languages()), default=DEFAULT_LANG, show_default=True,
              help="Language of the printed words.")
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True,
              help="Paper size; the sheets keep their size.")
@click.option("--theme", type=click.Choice(themes()), default=DEFAULT_THEME, show_default=True,
              help="How the sheet prints: 'ink-saver' outlines instead of filling; 'mono' is for black-and-white"
                   " printers.")
@click.option("--colour-marks", is_flag=True,
              help="A shape per colour in every cell, with a key, for colour-blind players (always on in 'mono').")
def render(grid: str, output: str | None, pages: int, seed: int | str, lang: str, paper: str, theme: str,
           colour_marks: bool) -> None:
    """Print GRID (a built-in name or a YAML file, '-' for standard input) as a
    PDF, 8 sheets per page."""
    from .grid.load import load_grid
    from .runs.jobs import Job, render_job
    from .runs.output import write_atomic

    if output == "-" and _is_terminal():
        raise click.UsageError("a PDF is not for the terminal: send it to a file or a program (-o - | lp)")
    model = load_grid(grid)
    seed = _pick_seed(seed)
    data = render_job(Job(model, sheets=pages * 8, seed=seed, lang=lang, paper=paper, theme=theme,
                          colour_marks=colour_marks))
    summary = f"({pages} page{'s' if pages > 1 else ''}, {pages * 8} sheets, seed {seed})"
    if output == "-":
        sys.stdout.write_bytes(data)
        click.echo(f"wrote standard output {summary}", err=True)  # stdout holds the PDF
        return
    where = output or "out/"
    target = Path(where, f"{model.name}.pdf") if _is_folder(where) else Path(where)
    write_atomic(target, data)
    _say(f"wrote {shown(os.fspath(target))} {summary}")


@cli.command()
@click.argument("grid")
@click.argument("marks", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON instead of tables.")
def score(grid: str, marks: tuple[str, ...], as_json: bool) -> None:
    """Score filled-in sheets of GRID: one MARKS file (YAML or JSON) per player,
    ranked.  '-' reads the grid or one marks file from standard input."""
    from .grid.load import load_grid
    from .play.marks import load_marks
    from .play.scoring import format_scores, score_sheet, scores_as_json

    _stdin_once((grid, *marks))
    model = load_grid(grid)
    scores = [score_sheet(model, load_marks(path, model)) for path in marks]
    if as_json:
        import json

        _say(json.dumps(scores_as_json(scores), indent=2))
    else:
        _say(format_scores(scores), nl=False)


SHOW_PROGRESS_AFTER = 2.0  # seconds: runs shorter than this show no bar


def _is_terminal() -> bool:
    return sys.stdout.isatty()


@contextmanager
def _progress(total: int, label: str, quiet: bool) -> Iterator[Callable[[int], None]]:
    """The callback a long run reports its steps to: a bar on a terminal once
    the run has taken SHOW_PROGRESS_AFTER seconds, else nothing."""
    if quiet or not _is_terminal():
        yield lambda steps: None
        return
    start, done = time.monotonic(), 0
    with ExitStack() as stack:
        bar = None

        def advance(steps: int) -> None:
            nonlocal bar, done
            done += steps
            if bar is not None:
                bar.update(steps)
            elif time.monotonic() - start >= SHOW_PROGRESS_AFTER:
                bar = stack.enter_context(click.progressbar(length=total, label=label))
                bar.update(done)

        yield advance


@cli.command()
@click.argument("manifest")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write to [default: out/ and the manifest's 'folder', else out/batch-MANIFEST/].")
@click.option("--combined", is_flag=True, help="One PDF of every job in turn, named after the manifest.")
@click.option("--quiet", is_flag=True, help="Print nothing but errors: no progress bar, no list of files.")
def batch(manifest: str, output: Path | None, combined: bool, quiet: bool) -> None:
    """Print a club's MANIFEST of print jobs (YAML): one PDF per job, in one folder.

    Serial numbers run on across the whole batch; no lucky-number set repeats
    in it until the grid's range is used up.  docs/example-batch.yaml shows
    every key of a manifest."""
    from .runs.batch import load_batch, write_batch

    if manifest == "-":
        raise click.BadParameter("a manifest is read from a file: its grid paths are relative to its folder",
                                 param_hint="'MANIFEST'")
    plan = load_batch(manifest)
    with _progress(plan.sheets, "Printing", quiet) as progress:
        written = write_batch(plan, output, combined=combined, progress=progress)
    if quiet:
        return
    for file in written:
        sheets = [d for b in file.jobs for d in b.data]
        serials = [d.serial for d in sheets if d.serial is not None]
        numbers = f", No. {serials[0]:06d} to {serials[-1]:06d}" if serials else ""
        jobs = f"{plural(len(file.jobs), 'job')}, " if combined else ""
        pages = sum(b.pages for b in file.jobs)
        _say(f"wrote {shown(os.fspath(file.path))} ({jobs}{plural(pages, 'page')}, {plural(len(sheets), 'sheet')}{numbers})")


@cli.command("pack")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=Path("out/pack"),
              show_default=True, help="Folder to build the pack in.")
@click.option("--quiet", is_flag=True, help="Print nothing but errors: no progress bar, no summary.")
def pack_command(output: Path, quiet: bool) -> None:
    """Build the download pack: every built-in grid in every language on A4 and
    US Letter as PDF, a PNG preview of each grid, an index.html linking them,
    SHA256SUMS and one zip of it all.  Rebuilding gives the same bytes."""
    from .runs.pack import ZIP, Pack, build_pack

    contents = Pack()
    with _progress(contents.steps, "Building the pack", quiet) as progress:
        written = build_pack(output, contents, progress)
    if not quiet:
        archive = output / ZIP
        _say(shown(f"wrote {plural(len(written), 'file')} to {output}: open {output / 'index.html'},"
                   f" or share {archive} ({archive.stat().st_size / 1e6:.1f} MB)"))


def main() -> None:
    cli(prog_name="sheetgen")
