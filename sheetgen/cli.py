"""The command line: thin click commands over the library.

The only module that imports click.  Every user error (a ``SheetgenError``
or a usage error) ends as one line on stderr and a non-zero exit: 1 for bad
input or output, and for what the system refuses (a full disk, a closed
standard output, a missing permission, too little memory); 2 for wrong usage;
130 for Ctrl-C; never a traceback.  Any other exception is a bug: one line
asking for a report and exit 3, with the traceback only when the environment
variable SHEETGEN_DEBUG is set.  Every line printed passes through
``words.shown``, so what it echoes from input cannot drive the terminal.
"""

from __future__ import annotations

import errno
import io
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path

import click

from .checks import Node
from .errors import InputError, OutputError, SheetgenError
from .pdf.impose import PAPERS
from .runs.jobs import SerialOrder, read_first_serial, read_header, read_sheets
from .sheet.plan import SIZES, STANDARD
from .sheet.style import DEFAULT_LANG, DEFAULT_THEME, Labels, languages, themes
from .words import plural, quoted, shown

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
            reason = error.strerror or str(error)
            _complain(f"{error.filename}: {reason}" if error.filename is not None else reason)
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


class JobField(click.ParamType):
    """A field of a print job, checked by the same function as in a manifest
    (``read`` from runs/jobs.py), so that both accept the same and say the same;
    ``whole``: the text is read as a whole number first, where it is one."""

    name = "value"

    def __init__(self, read: Callable[[Node], object], whole: bool = False):
        self.read, self.whole = read, whole

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        given: object = value
        if self.whole:
            try:
                given = int(value)
            except ValueError:
                pass  # the check says what it expected, as in a manifest
        try:
            return self.read(Node(param.opts[-1] if param else self.name, "", given))
        except InputError as error:
            self.fail(error.message, param, ctx)


def _quiet_option(what: str) -> Callable:
    return click.option("-q", "--quiet", is_flag=True, help=f"Print nothing but errors: {what}.")


def _one_of(*options: tuple[str, object]) -> None:
    """Refuse options that say the same thing twice (--pages and --sheets)."""
    context = click.get_current_context()
    given = [name for name, value in options
             if value is not None and context.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT]
    if len(given) > 1:
        raise click.UsageError(f"give {' or '.join('--' + name.replace('_', '-') for name in given)}, not both")


def _words(lang_file: str | None) -> Labels | None:
    """The words of the user's language file, if one is given."""
    from .sheet.style import load_label_file

    return load_label_file(lang_file) if lang_file else None


def _pick_seed(seed: int | str) -> int:
    if seed != "random":
        return int(seed)
    import secrets

    return secrets.randbelow(2**31)


def _complete_grid(ctx: click.Context, param: click.Parameter, incomplete: str) -> list:
    """Shell completion of a GRID: the built-in names, then grid files (*.yaml,
    *.yml) and folders in the folder being typed."""
    from click.shell_completion import CompletionItem

    from .grid.load import builtin_names

    found = [name for name in builtin_names() if name.startswith(incomplete)]
    folder, _, start = incomplete.rpartition("/")
    prefix = f"{folder}/" if folder else ""
    try:
        entries = sorted(Path(folder or ".").iterdir())
    except OSError:  # a folder that is not there (yet) or cannot be read: names only
        entries = []
    for entry in entries:
        if not entry.name.startswith(start) or (entry.name.startswith(".") and not start.startswith(".")):
            continue
        if entry.is_dir():
            found.append(f"{prefix}{entry.name}/")
        elif entry.suffix in (".yaml", ".yml"):
            found.append(f"{prefix}{entry.name}")
    return [CompletionItem(value) for value in found]


@click.group(name="sheetgen", cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.version_option(package_name="sheetgen")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Printable score sheets for Qwixx and its variants, eight to a page.

    'sheetgen COMMAND --help' tells more about each command."""
    if ctx.invoked_subcommand is None:  # a bare `sheetgen` is a question, not a mistake
        _say(ctx.get_help())


@cli.command("list")
def list_grids() -> None:
    """List the built-in grids, one line each."""
    from .grid.load import builtin_names, load_grid

    for name in builtin_names():
        grid = load_grid(name)
        _say(f"{name:<10} {grid.title:<20} {grid.description}")


@cli.command()
@click.argument("files", nargs=-1, required=True)
@_quiet_option("no 'FILE: ok' lines")
def check(files: tuple[str, ...], quiet: bool) -> None:
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
            if not quiet:
                _say(f"{shown(source_name(file))}: ok")
    if failed:
        sys.exit(1)


def _stdin_once(inputs: tuple[str, ...]) -> None:
    if inputs.count("-") > 1:
        raise click.UsageError("'-' (standard input) is given more than once: it can be read only once")


@cli.command()
@click.argument("grid", shell_complete=_complete_grid)
def show(grid: str) -> None:
    """Print the file of a built-in GRID, to start a grid of your own from."""
    from .errors import InputError
    from .grid.load import builtin_dir, builtin_names
    from .words import one_of

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
@click.argument("grid", shell_complete=_complete_grid)
@click.option("-o", "--output", type=PdfTarget(),
              help="PDF to write, a folder to write GRID.pdf in, or '-' for standard output [default: out/GRID.pdf].")
@click.option("--pages", type=click.IntRange(1, PAGES_MAX), default=1, show_default=True,
              help="Pages to print: 8 sheets each, 4 in large print, 1 on A6.")
@click.option("--sheets", type=JobField(read_sheets, whole=True), metavar="N",
              help="Sheets to print, instead of --pages; the last page may be part filled.  [default: a page's]")
@click.option("--seed", type=Seed(), default="1", show_default=True,
              help="Seed of the lucky numbers; the same seed prints the same sheets. 'random' for a fresh one.")
@click.option("--lang", type=click.Choice(languages()), default=DEFAULT_LANG, show_default=True,
              help="Language of the printed words.")
@click.option("--lang-file", type=click.Path(path_type=str), metavar="FILE",
              help="A language file of your own (the keys of English, your words) instead of --lang."
                   "  [default: none]")
@click.option("--size", type=click.Choice(list(SIZES)), default=STANDARD.name, show_default=True,
              help="Sheet size: 'standard' 96 x 66 mm, 8 to a page; 'large' print 132 x 92 mm, 4 to a landscape"
                   " page; 'a6', one to an A6 page.")
@click.option("--paper", type=click.Choice(list(PAPERS)),
              help="Paper: a4 or letter (the sheets keep their size), a6 for --size a6.  [default: a4, a6 for"
                   " --size a6]")
@click.option("--theme", type=click.Choice(themes()), default=DEFAULT_THEME, show_default=True,
              help="How the sheet prints: 'ink-saver' outlines instead of filling; 'mono' is for black-and-white"
                   " printers.")
@click.option("--colour-marks", is_flag=True,
              help="A shape per colour in every cell, with a key, for colour-blind players (always on in 'mono').")
@click.option("--header", type=JobField(read_header), metavar="TEXT",
              help="A line printed at the top of every sheet: club, event, date.  [default: none]")
@click.option("--serial", is_flag=True, help="Number the sheets: No. 000001, No. 000002...")
@click.option("--first-serial", type=JobField(read_first_serial, whole=True), metavar="N",
              help="The first serial number; implies --serial.  [default: 1]")
@click.option("--serial-order", type=click.Choice([order.value for order in SerialOrder]),
              default=SerialOrder.STACK.value, show_default=True,
              help="'stack': the pages cut as one stack give piles in sequence, pile after pile;"
                   " 'page': the sheets of each page in sequence.")
@_quiet_option("no progress bar, no summary")
def render(grid: str, output: str | None, pages: int, sheets: int | None, seed: int | str, lang: str,
           lang_file: str | None, size: str, paper: str | None, theme: str, colour_marks: bool, header: str | None,
           serial: bool, first_serial: int | None, serial_order: str, quiet: bool) -> None:
    """Print GRID (a built-in name or a YAML file, '-' for standard input) as a
    PDF, 8 sheets per page (4 in large print, 1 on A6)."""
    from .errors import LayoutError
    from .grid.load import load_grid
    from .runs.jobs import Job, check_job, counted, page_count, page_plan, read_paper, render_job, sheet_data

    _refuse_pdf_on_terminal(output)
    _one_of(("pages", pages), ("sheets", sheets))
    _one_of(("lang", lang), ("lang_file", lang_file))
    sheet_size = SIZES[size]
    try:
        paper = read_paper(Node("--paper", "", paper), sheet_size) if paper else sheet_size.papers[0]
    except InputError as error:
        raise click.BadParameter(error.message, param_hint="'--paper'") from None
    model = load_grid(grid)
    seed = _pick_seed(seed)
    if serial and first_serial is None:
        first_serial = 1
    job = Job(model, seed=seed, lang=lang, words=_words(lang_file), size=sheet_size, paper=paper,
              theme=theme, colour_marks=colour_marks, header=header or "", first_serial=first_serial,
              serial_order=SerialOrder(serial_order))
    job = replace(job, sheets=sheets or pages * page_plan(job).per_page)
    try:
        check_job(job)
    except LayoutError as error:
        if error.path != "header":
            raise
        raise click.BadParameter(error.message, param_hint="'--header'") from None
    with _progress(job.sheets, "Printing", quiet) as progress:
        data = render_job(job, counted(sheet_data(job), progress))
    numbers = "" if first_serial is None else f", No. {first_serial:06d} to {first_serial + job.sheets - 1:06d}"
    summary = f"({plural(page_count(job), 'page')}, {plural(job.sheets, 'sheet')}{numbers}, seed {seed})"
    _write_pdf(data, output, f"{model.name}.pdf", summary, quiet)


def _refuse_pdf_on_terminal(output: str | None) -> None:
    if output == "-" and sys.stdout.isatty():
        raise click.UsageError("a PDF is not for the terminal: send it to a file or a program (-o - | lp)")


def _write_pdf(data: bytes, output: str | None, name: str, summary: str, quiet: bool) -> None:
    """Write ``data`` where -o says (a file, a folder to write ``name`` in,
    default out/; '-' for standard output) and, unless ``quiet``, say so."""
    from .runs.output import write_atomic

    if output == "-":
        sys.stdout.write_bytes(data)  # type: ignore[union-attr]  # a _StandardOutput while a command runs
        if not quiet:
            click.echo(f"wrote standard output {summary}", err=True)  # stdout holds the PDF
        return
    where = output or "out/"
    target = Path(where, name) if _is_folder(where) else Path(where)
    write_atomic(target, data)
    if not quiet:
        _say(f"wrote {shown(os.fspath(target))} {summary}")


@cli.command()
@click.argument("grid", shell_complete=_complete_grid)
@click.argument("marks", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the scores and refusals as JSON instead of tables.")
@click.option("--standings", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.csv",
              help="Add the game to this CSV file of the evening's games (made if missing) and print the"
                   " standings.  [default: none]")
def score(grid: str, marks: tuple[str, ...], as_json: bool, standings: Path | None) -> None:
    """Score filled-in sheets of GRID and rank them.  Each MARKS is a marks file
    (YAML or JSON: one sheet, or several players), '-' for one read from standard
    input, or a player's counts typed as one argument, "Lea: 6 4 8L 3 p1":
    crosses per row, L for a locked row, p for penalties.  Every refused sheet
    gets a line (exit 1); see docs/scoring.md."""
    from .grid.load import load_grid
    from .play.results import format_scores, scores_json_text
    from .play.standings import format_standings, standings_as_json
    from .play.tally import repeated_input, tally

    _stdin_once((grid, *marks))
    repeated = repeated_input(marks)
    if repeated:
        first, second = repeated
        raise click.UsageError(f"{marks[second]!r} is given twice (MARKS {first + 1} and {second + 1})",
                               ctx=click.get_current_context())
    result = tally(load_grid(grid), marks, report=lambda error: _complain(str(error)))
    evening = None
    if standings and result.refused:
        _complain(f"{standings}: not updated (a game is added only when all its sheets are scored)")
    elif standings:
        evening = _add_to_standings(standings, result.scores)  # before any output: it can fail
    if as_json:
        more = {"standings": standings_as_json(evening)} if evening is not None else {}
        _say(scores_json_text(result.scores, result.refused, **more))
    else:
        _say(format_scores(result.scores, ranked=not result.refused), nl=False)
        if evening is not None and standings is not None:
            _say("\n" + format_standings(evening, os.fspath(standings)), nl=False)
    if result.refused:
        sys.exit(1)


def _add_to_standings(path: Path, scores: list) -> list:
    """Add a game to the standings file at ``path``: every result in it."""
    from .play.standings import add_game, read_standings, standings_csv
    from .runs.output import write_atomic

    results = add_game(read_standings(path), scores, os.fspath(path))
    write_atomic(path, standings_csv(results).encode())
    return results


SHOW_PROGRESS_AFTER = 2.0  # seconds: runs shorter than this show no bar


def _is_terminal() -> bool:
    return sys.stderr.isatty()


@contextmanager
def _progress(total: int, label: str, quiet: bool) -> Iterator[Callable[[int], None]]:
    """The callback a long run reports its steps to: a bar on standard error,
    when that is a terminal, once the run has taken SHOW_PROGRESS_AFTER
    seconds, else nothing.  Standard output stays for what a run prints."""
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
                bar = stack.enter_context(click.progressbar(length=total, label=label, file=sys.stderr))
                bar.update(done)

        yield advance


def _print_example(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from .runs.batch import EXAMPLE

    _say(EXAMPLE.read_text(encoding="utf-8"), nl=False)
    ctx.exit()


@cli.command()
@click.argument("manifest")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write to [default: out/ and the manifest's 'folder', else out/batch-MANIFEST/].")
@click.option("--combined", is_flag=True, help="One PDF of every job in turn, named after the manifest.")
@_quiet_option("no progress bar, no list of files")
@click.option("--lang-file", type=click.Path(path_type=str), metavar="FILE",
              help="A language file of your own (the keys of English, your words), for every job instead of its"
                   " 'lang'.  [default: none]")
@click.option("--example", is_flag=True, is_eager=True, expose_value=False, callback=_print_example,
              help="Print an example manifest that uses every key, with comments, and exit.")
def batch(manifest: str, output: Path | None, combined: bool, quiet: bool, lang_file: str | None) -> None:
    """Print a club's MANIFEST of print jobs (YAML): one PDF per job, in one folder.

    Serial numbers run on across the whole batch; no lucky-number set repeats
    in it until the grid's range is used up.  'sheetgen batch --example'
    prints a manifest that shows every key."""
    from .runs.batch import load_batch, write_batch

    if manifest == "-":
        raise click.BadParameter("a manifest is read from a file: its grid paths are relative to its folder",
                                 param_hint="'MANIFEST'")
    plan = load_batch(manifest, _words(lang_file))
    with _progress(plan.sheets, "Printing", quiet) as progress:
        written = write_batch(plan, output, combined=combined, progress=progress)
    if quiet:
        return
    for file in written:
        sheets = [d for b in file.jobs for d in b.data]
        serials = [d.serial for d in sheets if d.serial is not None]
        numbers = f", No. {min(serials):06d} to {max(serials):06d}" if serials else ""
        jobs = f"{plural(len(file.jobs), 'job')}, " if combined else ""
        pages = sum(b.pages for b in file.jobs)
        _say(f"wrote {shown(os.fspath(file.path))}"
             f" ({jobs}{plural(pages, 'page')}, {plural(len(sheets), 'sheet')}{numbers})")


@cli.command("pack")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=Path("out/pack"),
              show_default=True, help="Folder to build the pack in.")
@_quiet_option("no progress bar, no summary")
def pack_command(output: Path, quiet: bool) -> None:
    """Build the download pack: every built-in grid in every language, look and
    paper as one-page PDFs (large print and A6 too), a preview of each grid,
    a page per language (index.html) linking them, SHA256SUMS and one zip of
    it all.  Rebuilding gives the same bytes."""
    from .runs.pack import ZIP, Pack, build_pack

    contents = Pack()
    with _progress(contents.steps, "Building the pack", quiet) as progress:
        written = build_pack(output, contents, progress)
    if not quiet:
        archive = output / ZIP
        _say(shown(f"wrote {plural(len(written), 'file')} to {output}: open {output / 'index.html'},"
                   f" or share {archive} ({archive.stat().st_size / 1e6:.1f} MB)"))


@cli.command("rules")
@click.argument("grid", shell_complete=_complete_grid)
@click.option("--lang", type=click.Choice(languages()), default=DEFAULT_LANG, show_default=True,
              help="Language of the rules.")
@click.option("--pdf", "as_pdf", is_flag=True,
              help="Write the rules card instead: one page with the rules, the sheet filled in as a worked example,"
                   " and what it scores.")
@click.option("-o", "--output", type=PdfTarget(),
              help="With --pdf: the PDF to write, a folder to write GRID-rules.pdf in, or '-' for standard output"
                   " [default: out/GRID-rules.pdf].")
@click.option("--paper", type=click.Choice(STANDARD.papers), help="With --pdf: the paper of the card [default: a4].")
@_quiet_option("with --pdf, no summary")
def rules_command(grid: str, lang: str, as_pdf: bool, output: str | None, paper: str | None, quiet: bool) -> None:
    """Print the rules of GRID (a built-in name or a YAML file), composed from
    the grid file: the base rules, then what the grid adds, with its values.
    docs/rules.md has those of every built-in grid."""
    from .grid.load import load_grid

    if not as_pdf and (output or paper or quiet):
        raise click.UsageError("-o, --paper and --quiet go with --pdf")
    _refuse_pdf_on_terminal(output)
    model = load_grid(grid)
    if as_pdf:
        from .runs.rules_pdf import rules_card_pdf

        paper = paper or "a4"
        _write_pdf(rules_card_pdf(model, lang, paper), output, f"{model.name}-rules.pdf",
                   f"(rules card, {lang}, {paper})", quiet)
        return
    import shutil

    from .play.rules import compose_rules, format_rules
    from .sheet.style import load_labels

    width = shutil.get_terminal_size().columns  # 80 when not a terminal
    _say(format_rules(compose_rules(model, load_labels(lang)), width), nl=False)


GAMES_MAX = 1_000_000  # about five minutes on one core
PLAYERS_MAX = 8  # play/simulate.py's MAX_PLAYERS, and
STRATEGY_DEFAULT = "careful"  # play/strategies.py's DEFAULT_STRATEGY (a test checks both)


class StrategyName(click.ParamType):
    """A strategy's name, checked against play/strategies.py only when one is
    given or help is shown, so that starting sheetgen does not load the game."""

    name = "strategy"

    @staticmethod
    def names() -> list[str]:
        from .play.strategies import STRATEGIES

        return list(STRATEGIES)

    def get_metavar(self, param, ctx=None):
        return "[" + "|".join(self.names()) + "]"

    def convert(self, value, param, ctx):
        if value in self.names():
            return value
        self.fail(f"{quoted(value)} is not one of {', '.join(repr(name) for name in self.names())}.", param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in self.names() if name.startswith(incomplete)]


class _SimulateCommand(click.Command):
    """The simulate command, whose help ends with what each strategy does."""

    def format_epilog(self, ctx, formatter):
        from .play.strategies import DEFAULT_STRATEGY, STRATEGIES

        with formatter.section("Strategies"):
            formatter.write_dl([(name + (" (default)" if name == DEFAULT_STRATEGY else ""), strategy.summary)
                                for name, strategy in STRATEGIES.items()])


@cli.command(cls=_SimulateCommand)
@click.argument("grid", shell_complete=_complete_grid)
@click.option("--games", type=click.IntRange(1, GAMES_MAX), default=10_000, show_default=True,
              help="Games to play.")
@click.option("--players", type=click.IntRange(1, PLAYERS_MAX), default=4, show_default=True,
              help="Players in each game.")
@click.option("--strategy", "strategies", type=StrategyName(), multiple=True, default=(STRATEGY_DEFAULT,),
              show_default=True,
              help="A player's strategy (listed below); repeat it for the next seats, which take the strategies"
                   " in turn.")
@click.option("--seed", type=Seed(), default="1", show_default=True,
              help="Seed of the dice; the same seed gives the same report, whatever --jobs. 'random' for a fresh one.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes to play the games in.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of text.")
@click.option("--heatmap", type=click.Path(dir_okay=False, path_type=Path),
              help="Also draw the sheet with each cell tinted by how often it was crossed, as FILE.pdf or FILE.png"
                   " [default: none].")
def simulate(grid: str, games: int, players: int, strategies: tuple[str, ...], seed: int | str, jobs: int,
             as_json: bool, heatmap: Path | None) -> None:
    """Play GRID many times and report how it plays: scores, game length, how
    games end, how often each row closes and each cell is crossed, and warnings
    for a grid that plays badly; --heatmap draws the sheet tinted by how often
    each cell was crossed."""
    from .grid.load import load_grid
    from .play.simulate import Setup, report_json, report_text
    from .play.simulate import simulate as run

    if len(strategies) > players:
        raise click.BadParameter(f"{len(strategies)} strategies for {plural(players, 'player')}",
                                 param_hint="'--strategy'")
    kind = heatmap.suffix.lower().lstrip(".") if heatmap is not None else None
    if kind not in (None, "pdf", "png"):
        raise click.BadParameter(f"expected a file name ending in .pdf or .png, got {quoted(str(heatmap))}",
                                 param_hint="'--heatmap'")
    model = load_grid(grid)
    if kind is not None:
        from .play.heatmap import draw_heatmap, heatmap_sheet

        sheet = heatmap_sheet(model)  # a grid that cannot be drawn fails before the games are played
    setup = Setup(model, games=games, players=players, strategies=strategies, seed=_pick_seed(seed))
    with _progress(games, "Playing", False) as progress:
        report = run(setup, jobs=jobs, progress=progress)
    if heatmap is not None and kind is not None:
        from .runs.output import write_atomic

        write_atomic(heatmap, draw_heatmap(report, kind, sheet))
    if as_json:
        import json

        _say(json.dumps(report_json(report), indent=2))
    else:
        _say(report_text(report), nl=False)
        if heatmap is not None:
            _say(f"wrote {shown(os.fspath(heatmap))}")


class HtmlTarget(click.ParamType):
    """Where counter writes: an HTML file (.html), a folder (ending in '/', or
    existing), or '-' for standard output."""

    name = "html"

    def convert(self, value, param, ctx):
        if value != "-" and not _is_folder(value) and not value.lower().endswith((".html", ".htm")):
            self.fail(f"expected a file name ending in .html or a folder (end it with '/'), got {quoted(value)}",
                      param, ctx)
        return value


@cli.command()
@click.argument("grid", shell_complete=_complete_grid)
@click.option("-o", "--output", type=HtmlTarget(),
              help="HTML file to write, a folder to write counter-GRID-LANG.html in, or '-' for standard"
                   " output  [default: out/counter-GRID-LANG.html].")
@click.option("--lang", type=click.Choice(languages()), default=DEFAULT_LANG, show_default=True,
              help="Language of the page.")
@click.option("--theme", type=click.Choice(themes()), default=DEFAULT_THEME, show_default=True,
              help="The sheet's look on the page, as printed.")
@_quiet_option("no summary")
def counter(grid: str, output: str | None, lang: str, theme: str, quiet: bool) -> None:
    """Write the counter page of GRID (a built-in name or a YAML file, '-' for
    standard input): one HTML file, offline, to tap the crossed cells of every
    player's sheet in, with totals, ranking and marks files.  See docs/counter.md."""
    from .grid.load import load_grid
    from .play.counter import counter_html, default_output
    from .runs.output import write_atomic

    model = load_grid(grid)
    page = counter_html(model, lang, theme).encode()
    if output == "-":
        sys.stdout.write_bytes(page)  # type: ignore[union-attr]  # a _StandardOutput while a command runs
        return
    default = default_output(model, lang)
    target = Path(output, Path(default).name) if output and _is_folder(output) else Path(output or default)
    write_atomic(target, page)
    if not quiet:
        _say(f"wrote {shown(os.fspath(target))} ({len(page) / 1024:.0f} KiB)")


def main() -> None:
    """The `sheetgen` program: the command line, then the end of the process."""
    try:
        cli(prog_name="sheetgen")
    except SystemExit as done:
        _end(done.code)
    _end(0)


def _end(code: int | str | None) -> None:
    """End the process with ``code`` once standard output and error are written out.

    Not through the interpreter's own exit: that clears every module, object
    by object (reportlab, click, the fonts), for a process that is about to
    go; a tenth of a short run's time.  Nothing is left to it: every file
    sheetgen writes is closed (and renamed into place) before a command
    returns, a process pool is shut down when its command ends, and what else
    registers work for the exit (PIL's and pypdfium2's caches, logging, which
    sheetgen does not use) only frees memory.  A run stopped before the command
    line is read (Ctrl-C while importing) still ends through the interpreter.
    Output that only this last flush finds it cannot write fails the run, as
    any other write to standard output does."""
    if isinstance(code, str):  # sys.exit("message"), which the interpreter would print
        _complain(code)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader has gone: quiet, as for a write that found it gone
            code = code or 1
        except OutputError as error:  # standard output full or closed: one line, as for any write to it
            _complain(str(error))
            code = code or 1
        except OSError:  # output that did not get out fails the run; a lost error line leaves its code
            code = code or (1 if stream is sys.stdout else 0)
        except (ValueError, AttributeError):  # no stream, or one closed: nothing waits to be written
            pass
    os._exit(code if isinstance(code, int) else 0)
