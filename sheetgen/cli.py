"""The command line: thin click commands over the library.

The only module that imports click.  What every run needs whatever its
command (the streams, signals, exit codes and the end of the process) is in
``process.py``: every user error (a ``SheetgenError`` or a usage error) ends
there as one line on stderr and a non-zero exit, never a traceback.  Every
line printed passes through ``words.shown``, so what it echoes from input
cannot drive the terminal.

What a command produces (a list, a PDF to standard output, the rules, the
scores) goes to standard output and fails the run if it cannot be written;
what it says it did (``wrote out/classic.pdf ...``) is a report
(``process.report``), which a closed output does not make a failure.  Each
file a command writes when not told where is named after what is in it
(``runs/names.py``), in out/; every output is checked before any work.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from . import process
from .checks import Node
from .errors import InputError, SheetgenError
from .pdf.impose import PAPERS
from .runs.jobs import SerialOrder, read_first_serial, read_header, read_sheets
from .runs.names import OUT
from .sheet.plan import SIZES, STANDARD
from .sheet.style import DEFAULT_LANG, DEFAULT_THEME, Labels, languages, themes
from .words import did_you_mean, forgiven, plural, quoted, shown

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

    from .scan.read import BoxReading

PAGES_MAX = 10_000
PACKAGE = "qwixx-sheets"  # the distribution's name on a package index; the program and the import are sheetgen


class _Command(click.Command):
    """A command whose help ends with examples of its use."""

    def __init__(self, *args: Any, examples: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.examples = examples

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        if self.examples:
            with formatter.section("Examples"):
                for example in self.examples:
                    formatter.write(f"{' ' * formatter.current_indent}{example}\n")


class _Cli(click.Group):
    """A group whose errors are one line each, however they arise (``process.outcome``)."""

    command_class = _Command

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> NoReturn:
        sys.exit(process.outcome(lambda: self._parse_and_run(args, prog_name, complete_var, **extra)))

    def _parse_and_run(self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None,
                       **extra: Any) -> Any:
        try:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as error:
            command = error.ctx.command_path if error.ctx else "sheetgen"
            raise process.Refusal(f"{error.format_message()} (see '{command} --help')", error.exit_code,
                                  command) from None
        except click.ClickException as error:
            raise process.Refusal(error.format_message(), error.exit_code) from None
        except click.Abort as error:  # Ctrl-C while click itself was reading the command line
            if isinstance(error.__cause__, KeyboardInterrupt):
                raise process.Interrupted from None
            raise process.Refusal("aborted", 1) from None

    def invoke(self, ctx: click.Context) -> Any:
        # click answers Ctrl-C with a blank line and "Aborted!"; sheetgen says
        # it was interrupted, on one line, and exits 130 as shells expect.
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise process.Interrupted from None
        except BrokenPipeError:  # which click would end as exit 1
            raise process.ReaderGone from None

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        # "Did you mean" for a command, as for an option: 'sheetgen rendr'.
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            hint = did_you_mean(args[0], self.list_commands(ctx)) if args else ""
            if not hint:
                raise
            raise click.UsageError(f"no such command {args[0]!r}{hint}", ctx) from None


_complain = process.complain


def _say(text: str, nl: bool = True) -> None:
    """What a command produces, on standard output, safe for a terminal whatever it echoes."""
    click.echo(shown(text, lines=True), nl=nl)


def _report(text: str, quiet: bool = False) -> None:
    """What a command did, on standard output, unless ``quiet`` (``process.report``)."""
    if not quiet:
        process.report(shown(text, lines=True) + "\n")


def _note(text: str, quiet: bool = False) -> None:
    """What a command did, on standard error: standard output holds what it made."""
    if not quiet:
        click.echo(shown(text, lines=True), err=True)


class Choice(click.Choice):
    """One of ``choices``, forgiving: any case, British or American spelling
    (``--paper A4``, ``--theme color``); anything else is refused with the
    choices and the one it is closest to."""

    def __init__(self, choices: Iterable[str]) -> None:
        super().__init__(list(choices))

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value in self.choices:
            return value
        found = forgiven(value, self.choices) if isinstance(value, str) else None
        if found is not None:
            return found
        self.fail(_not_one_of(value, self.choices), param, ctx)


def _not_one_of(value: object, choices: Sequence[str]) -> str:
    """As click says it, with the choice nearest to ``value`` if one is near."""
    return f"{quoted(value)} is not one of {', '.join(map(repr, choices))}{did_you_mean(value, choices) or '.'}"


class Seed(click.ParamType):
    """A whole number, or 'random' for a fresh one (printed so it can be reused)."""

    name = "seed"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
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

    def __init__(self, read: Callable[[Node], object], whole: bool = False) -> None:
        self.read, self.whole = read, whole

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
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


class Target(click.ParamType):
    """Where a command writes: a file with one of ``suffixes``, a folder (ending
    in '/', or existing) to write its default name in, or '-' for standard
    output (where ``stdout`` says it may go)."""

    name = "file"

    def __init__(self, suffixes: tuple[str, ...], stdout: bool = True) -> None:
        self.suffixes, self.stdout = suffixes, stdout

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value == "-" and self.stdout or _is_folder(value) or value.lower().endswith(self.suffixes):
            return value
        dash = " or '-' for standard output" if self.stdout else ""
        self.fail(f"expected a file name ending in {' or '.join(self.suffixes)}, a folder (end it with '/'){dash},"
                  f" got {quoted(value)}", param, ctx)


def _is_folder(path: str) -> bool:
    return path.endswith(("/", os.sep)) or os.path.isdir(path)


def _target(output: str | None, name: str) -> Path | None:
    """The file a command writes: ``name`` in out/ or in the folder -o names,
    or the file it names; None for standard output ('-')."""
    if output == "-":
        return None
    if output is None:
        return OUT / name
    return Path(output, name) if _is_folder(output) else Path(output)


def _check_target(target: Path | None, least: int = 0, binary: bool = False) -> None:
    """Everything about where a command writes that can be known before its work:
    ``runs.output.check_output`` for a file (``least`` bytes must be free);
    standard output must not be a terminal for a ``binary`` file."""
    if target is None:
        if binary and sys.stdout.isatty():
            raise click.UsageError("a PDF is not for the terminal: send it to a file or a program (-o - | lp)")
        return
    from .runs.output import check_output

    check_output(target, least)


def _write(data: bytes, target: Path | None, summary: str, quiet: bool) -> None:
    """Write ``data`` to ``target`` (None: standard output) and, unless ``quiet``, say so."""
    if target is None:
        process.write_binary(data)
        _note(f"wrote standard output {summary}", quiet)
        return
    from .runs.output import write_atomic

    write_atomic(target, data)
    _report(f"wrote {shown(os.fspath(target))} {summary}", quiet)


def _quiet_option(what: str = "") -> Callable:
    return click.option("-q", "--quiet", is_flag=True,
                        help=f"Print nothing but errors{': ' + what if what else ''}.")


def _standings_options(what: str) -> Callable:
    """--standings, --game and --force, for the commands that score a game (score, scan); ``what``
    ends the sentence of --standings."""
    options = (
        click.option("--standings", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.csv",
                     help="Add the game to this CSV file of the evening's games (made if missing) and print the"
                          f" standings{what}.  [default: none]"),
        click.option("--game", metavar="NAME",
                     help="With --standings: the game's name, to tell it from another with the same sheets."
                          "  [default: made from the sheets]"),
        click.option("--force", is_flag=True,
                     help="With --standings: add the game even if the file holds it already."),
    )

    def decorate(command: Callable) -> Callable:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def _lang_file_option(what: str) -> Callable:
    return click.option("--lang-file", type=click.Path(path_type=str), metavar="FILE",
                        help=f"A language file of your own (the keys of English, your words: 'sheetgen lang --example"
                             f" de' starts one), {what}.  [default: none]")


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


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version(PACKAGE)
    except PackageNotFoundError:  # run from a checkout that was never installed
        number = "(not installed)"
    _say(f"sheetgen {number} (the {PACKAGE} package)")
    ctx.exit()


@click.group(name="sheetgen", cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.option("-V", "--version", is_flag=True, is_eager=True, expose_value=False, callback=_print_version,
              help="Show the version and exit.")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Printable score sheets for Qwixx and its variants, eight to a page.

    'sheetgen COMMAND --help' tells more about each command, 'sheetgen help'
    lists the manual's topics."""
    if ctx.invoked_subcommand is None:  # a bare `sheetgen` is a question, not a mistake
        _say(ctx.get_help())


@cli.command("list", examples=("sheetgen list",))
@_quiet_option("the list is all it prints")
def list_grids(quiet: bool) -> None:
    """List the built-in grids, one line each, the base game first."""
    from .grid.load import builtin_grids

    for grid in builtin_grids():
        _say(f"{grid.name:<10} {grid.title:<20} {grid.description}")


@cli.command(examples=("sheetgen check mine.yaml", "sheetgen check -q grids/*.yaml"))
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


@cli.command(examples=("sheetgen show classic > out/mine.yaml", "sheetgen show classic -o out/mine.yaml"))
@click.argument("grid", shell_complete=_complete_grid)
@click.option("-o", "--output", type=Target((".yaml", ".yml")),
              help="The file to write, a folder to write GRID.yaml in, or '-' for standard output  [default: -]")
@_quiet_option("no summary")
def show(grid: str, output: str | None, quiet: bool) -> None:
    """Print the file of a built-in GRID, to start a grid of your own from.
    Its first line points editors at grid.schema.json beside it: 'sheetgen
    schema -o grid.schema.json' writes that file."""
    from .grid.load import builtin_text

    text = builtin_text(grid)
    target = _target(output or "-", f"{grid}.yaml")
    if target is None:
        _say(text, nl=False)
        return
    _check_target(target)
    _write(text.encode(), target, f"(grid {grid})", quiet)


@cli.command(examples=("sheetgen schema -o grid.schema.json", "sheetgen schema > out/grid.schema.json"))
@click.option("-o", "--output", type=Target((".json",)),
              help="The file to write, a folder to write grid.schema.json in, or '-' for standard output"
                   "  [default: -]")
@_quiet_option("no summary")
def schema(output: str | None, quiet: bool) -> None:
    """Print the JSON Schema of grid files, for editors that check a grid file
    as it is typed (the first line of 'sheetgen show GRID' names it)."""
    from .grid.load import grid_schema

    target = _target(output or "-", "grid.schema.json")
    if target is None:
        _say(grid_schema(), nl=False)
        return
    _check_target(target)
    _write(grid_schema().encode(), target, "(JSON Schema of grid files)", quiet)


@cli.command(examples=("sheetgen render classic", "sheetgen render longo --lang fr --paper letter",
                       "sheetgen render classic --size large --theme ink-saver",
                       "sheetgen render classic --sheets 20 --header 'Club de Lyon' --serial",
                       "sheetgen render classic -o - | lp"))
@click.argument("grid", shell_complete=_complete_grid)
@click.option("-o", "--output", type=Target((".pdf",)),
              help="PDF to write, a folder to write the default name in, or '-' for standard output"
                   "  [default: out/GRID[-LANG][-SIZE][-LOOK][-PAPER].pdf, each part if not the default]")
@click.option("--pages", type=click.IntRange(1, PAGES_MAX), default=1, show_default=True,
              help="Pages to print: 8 sheets each, 4 in large print, 1 on A6.")
@click.option("--sheets", type=JobField(read_sheets, whole=True), metavar="N",
              help="Sheets to print, instead of --pages; the last page may be part filled.  [default: a page's]")
@click.option("--seed", type=Seed(), default="1", show_default=True,
              help="Seed of the lucky numbers (grids that have them); the same seed prints the same sheets."
                   " 'random' for a fresh one.")
@click.option("--lang", type=Choice(languages()), default=DEFAULT_LANG, show_default=True,
              help="Language of the printed words.")
@_lang_file_option("instead of --lang")
@click.option("--size", type=Choice(SIZES), default=STANDARD.name, show_default=True,
              help="Sheet size: 'standard' 96 x 66 mm, 8 to a page; 'large' print 132 x 92 mm, 4 to a landscape"
                   " page; 'a6', one to an A6 page.")
@click.option("--paper", type=Choice(PAPERS),
              help="Paper: a4 or letter (the sheets keep their size), a6 for --size a6.  [default: a4, a6 for"
                   " --size a6]")
@click.option("--theme", type=Choice(themes()), default=DEFAULT_THEME, show_default=True,
              help="How the sheet prints: 'ink-saver' outlines instead of filling; 'mono' is for black-and-white"
                   " printers.")
@click.option("--colour-marks", is_flag=True,
              help="A shape per colour in every cell, with a key, for colour-blind players (always on in 'mono').")
@click.option("--header", type=JobField(read_header), metavar="TEXT",
              help="A line printed at the top of every sheet: club, event, date.  [default: none]")
@click.option("--serial", is_flag=True, help="Number the sheets: No. 000001, No. 000002...")
@click.option("--first-serial", type=JobField(read_first_serial, whole=True), metavar="N",
              help="The first serial number; implies --serial.  [default: 1]")
@click.option("--serial-order", type=Choice(order.value for order in SerialOrder),
              default=SerialOrder.STACK.value, show_default=True,
              help="'stack': the pages cut as one stack give piles in sequence, pile after pile;"
                   " 'page': the sheets of each page in sequence.")
@click.option("--no-machine-marks", "no_machine_marks", is_flag=True,
              help="Leave off the corner markers that `sheetgen scan` reads.")
@_quiet_option("no progress bar, no summary")
def render(grid: str, output: str | None, pages: int, sheets: int | None, seed: int | str, lang: str,
           lang_file: str | None, size: str, paper: str | None, theme: str, colour_marks: bool, header: str | None,
           serial: bool, first_serial: int | None, serial_order: str, quiet: bool, no_machine_marks: bool) -> None:
    """Print GRID (a built-in name or a YAML file, '-' for standard input) as a
    PDF, 8 sheets per page (4 in large print, 1 on A6)."""
    from .errors import LayoutError
    from .grid.load import load_grid
    from .runs.jobs import (
        Job,
        check_job,
        counted,
        least_bytes,
        page_count,
        page_plan,
        read_paper,
        render_job,
        sheet_data,
    )
    from .runs.names import sheets_name

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
              serial_order=SerialOrder(serial_order), machine_marks=not no_machine_marks)
    job = replace(job, sheets=sheets or pages * page_plan(job).per_page)
    try:
        check_job(job)
    except LayoutError as error:
        if error.path != "header":
            raise
        raise click.BadParameter(error.message, param_hint="'--header'") from None
    target = _target(output, sheets_name(model.name, lang, job.words, sheet_size, theme, colour_marks, paper))
    _check_target(target, least_bytes(job), binary=True)
    with _progress(job.sheets, "Printing", quiet) as progress:
        data = render_job(job, counted(sheet_data(job), progress))
    numbers = "" if first_serial is None else f", No. {first_serial:06d} to {first_serial + job.sheets - 1:06d}"
    lucky = f", seed {seed}" if model.lucky is not None else ""  # the seed deals the lucky numbers only
    _write(data, target, f"({plural(page_count(job), 'page')}, {plural(job.sheets, 'sheet')}{numbers}{lucky})",
           quiet)


@cli.command(examples=('sheetgen score classic "Lea: 6 4 8L 3 p1" "Tom: 5 5 2 0"',
                       "sheetgen score classic lea.yaml tom.json",
                       'sheetgen score classic "Lea: 6 3 2 1" "Tom: 5 3 1 0" --standings out/evening.csv',
                       "sheetgen score classic --standings out/evening.csv"))
@click.argument("grid", shell_complete=_complete_grid)
@click.argument("marks", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the scores and refusals as JSON instead of tables.")
@_standings_options("; without MARKS, print them only")
@_quiet_option("no tables (the exit code says whether every sheet scored)")
def score(grid: str, marks: tuple[str, ...], as_json: bool, standings: Path | None, game: str | None, force: bool,
          quiet: bool) -> None:
    """Score filled-in sheets of GRID and rank them.  Each MARKS is a marks file
    (YAML or JSON: one sheet, or several players), '-' for one read from standard
    input, or a player's counts typed as one argument, "Lea: 6 4 8L 3 p1":
    crosses per row, L for a locked row, p for penalties.  Every refused sheet
    gets a line (exit 1); 'sheetgen help scoring' tells more."""
    from .grid.load import load_grid
    from .play.tally import repeated_input, tally

    if (game is not None or force) and standings is None:
        raise click.UsageError("--game and --force go with --standings")  # before the bare standings below
    if not marks:
        if standings is None:
            raise click.UsageError("Missing argument 'MARKS...'.")
        load_grid(grid)  # a grid that is not one is refused, as with marks
        _show_standings(standings, as_json, quiet)
        return
    _stdin_once((grid, *marks))
    repeated = repeated_input(marks)
    if repeated:
        first, second = repeated
        raise click.UsageError(f"{marks[second]!r} is given twice (MARKS {first + 1} and {second + 1})",
                               ctx=click.get_current_context())
    _check_standings(standings, game, force)
    result = tally(load_grid(grid), marks, report=lambda error: _complain(str(error)))
    _print_game(result.scores, result.refused, standings, game, force, as_json, quiet)
    if result.refused:
        sys.exit(1)


SCAN_EXTRA = f"sheetgen scan needs the scan extra: pip install '{PACKAGE}[scan]'"


@cli.command(examples=("sheetgen scan photo.jpg", "sheetgen scan scans.pdf --json --standings evening.csv",
                       "sheetgen scan photo.jpg --grid classic -o out/marks/"))
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--grid", "grid_spec", metavar="GRID",
              help="The grid the sheets were printed from (a built-in name or a YAML file), for sheets whose code"
                   " does not say it or a custom grid.  [default: from each sheet's code]")
@click.option("--lang", type=Choice(languages()), default=DEFAULT_LANG, show_default=True,
              help="With --grid: the language the sheets were printed in.")
@click.option("--size", type=Choice(SIZES), default=STANDARD.name, show_default=True,
              help="With --grid: the size the sheets were printed at.")
@click.option("--theme", type=Choice(themes()), default=DEFAULT_THEME, show_default=True,
              help="With --grid: the theme the sheets were printed in.")
@click.option("--strip", is_flag=True, help="With --grid: the sheets were printed with a header or serial numbers.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores and the sheets to check as JSON.")
@click.option("-o", "--output", metavar="FOLDER",
              help="Write one marks file per sheet read in FOLDER.  [default: none, the scores only]")
@_standings_options(", as `sheetgen score --standings` does")
@click.option("--review", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.html",
              help="Write the counter page opened on the sheets read (of the first sheet's grid), the doubtful"
                   " boxes highlighted, to confirm or correct them with a tap and export their marks."
                   "  [default: none]")
@_quiet_option("no tables (the exit code says whether every sheet scored)")
def scan(files: tuple[str, ...], grid_spec: str | None, lang: str, size: str, theme: str, strip: bool,
         as_json: bool, output: str | None, standings: Path | None, game: str | None, force: bool,
         review: Path | None, quiet: bool) -> None:
    """Read photos and scans of filled sheets (JPEG, PNG, TIFF, PDF), then
    score and rank them as `sheetgen score` does.  A sheet with a doubtful box,
    or one the rules forbid, is reported as "check this sheet" (exit 1)."""
    import importlib.util
    import json

    if importlib.util.find_spec("cv2") is None or importlib.util.find_spec("numpy") is None:
        raise SheetgenError(SCAN_EXTRA)  # the user's install, not the command line, is what to fix: exit 1
    _check_standings(standings, game, force)
    if review is not None:
        _check_target(review)
    from .grid.load import load_grid
    from .runs.output import write_atomic
    from .scan.files import pictures
    from .scan.layout import key_of, layouts
    from .scan.read import sheets_in
    from .scan.sheets import check, marks_data, readings_data, readings_lines
    from .sheet.machine import Identity

    custom = load_grid(grid_spec) if grid_spec else None
    given = None if custom is None else Identity(key_of(custom), lang, size, theme, strip)
    scores: list = []
    refused: list = []
    written: list[Path] = []
    reviewed: list = []  # (identity, grid, marks data, problem) of each sheet, for --review
    for path in files:
        for where, picture in pictures(path):
            layout = layouts(custom, where)
            for reading in sheets_in(picture, where, given, layout):
                if reading.note:  # read by its page's other codes: what its own code held is not known
                    _note(f"{reading.where}: {reading.note}", quiet)
                grid, plan, _ = layout(reading.identity)
                checked = check(reading, grid, plan)
                if output:
                    target = Path(output) / f"sheet-{len(written) + 1:03d}.json"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    write_atomic(target, (json.dumps(marks_data(checked, grid), indent=1) + "\n").encode())
                    written.append(target)
                if review:  # the doubtful boxes as guessed in the marks (crossed where the rules need them)
                    reviewed.append((reading.identity, grid, marks_data(checked, grid), checked.problem,
                                     checked.reading.doubtful))
                if checked.score is None:
                    _complain(f"{reading.where}: {checked.problem}")
                    for line in readings_lines(checked, grid):
                        _complain(f"{reading.where}: {line}")
                    refused.append({"source": reading.where, "reason": "check", "message": checked.problem,
                                    "doubtful": [box.ident for box in reading.doubtful],
                                    **readings_data(checked, grid)})
                else:
                    player = _scanned_name(path, reading.where)
                    scores.append(replace(checked.score, source=reading.where, player=player))
    _print_game(scores, refused, standings, game, force, as_json, quiet)
    if written and not quiet:
        _report(f"wrote {plural(len(written), 'marks file')} in {output}")
    if review and reviewed:
        _write_review(Path(review), reviewed, quiet)
    if refused:
        sys.exit(1)


def _write_review(path: Path, reviewed: list, quiet: bool) -> None:
    """The counter page opened on the sheets read (those of the first sheet's grid, as printed), named
    "Sheet 1", "Sheet 2"... in the page's language in the order read, with the sheets to check: why, and
    the doubtful boxes the page highlights until they are tapped."""
    from .play.counter import counter_html
    from .runs.output import write_atomic
    from .sheet.style import load_labels

    identity, grid = reviewed[0][0], reviewed[0][1]
    words = load_labels(identity.lang)
    same = [entry for entry in reviewed if entry[0].grid == identity.grid]
    players, check = [], []
    for number, (_, _, marks, problem, doubtful) in enumerate(same, 1):
        name = words("counter_review_sheet", number)
        players.append({"player": name, **{k: v for k, v in marks.items() if k != "grid"}})
        if problem:
            check.append({"player": name, "problem": problem, "boxes": [_review_box(box) for box in doubtful]})
    page = counter_html(grid, identity.lang, identity.theme, review={"players": players, "check": check})
    write_atomic(path, page.encode("utf-8"))
    if not quiet:
        _report(f"wrote {path} ({plural(len(same), 'sheet')} to review, {len(check)} to check)")


def _review_box(box: BoxReading) -> dict:
    """A doubtful box as the review page finds it on its sheet: its kind, its row (cells, small boxes,
    locks) or its index (penalty and bar boxes, from 0), its cell's index in the row, and what the
    reader saw there and decided."""
    return {"kind": box.kind, "row": box.row, "index": box.index, "seen": box.what, "crossed": box.crossed}


def _scanned_name(path: str, where: str) -> str:
    """A scanned sheet's player in the results and standings: its file's name and place, "page.png: sheet 3"
    (the reader does not read the name written on it), its end kept when too long for the standings."""
    from .play.standings import MAX_NAME

    name = Path(path).name + where[len(path):]
    return name if len(name) <= MAX_NAME else name[-MAX_NAME:]


def _check_game_name(game: str | None) -> None:
    from .play.standings import MAX_NAME

    if game is not None and (not game.strip() or len(game) > MAX_NAME or not game.isprintable()):
        raise click.BadParameter(f"expected a name of 1 to {MAX_NAME} printable characters, got {quoted(game)}",
                                 param_hint="'--game'")


def _check_standings(standings: Path | None, game: str | None, force: bool) -> None:
    """--game and --force only with --standings, whose file is checked before the work."""
    if (game is not None or force) and standings is None:
        raise click.UsageError("--game and --force go with --standings")
    if standings is not None:
        _check_target(standings)
        _check_game_name(game)


def _print_game(scores: list, refused: list, standings: Path | None, game: str | None, force: bool,
                as_json: bool, quiet: bool) -> None:
    """A scored game: added to the standings when every sheet scored (before any output: adding can
    fail), then printed as tables or JSON, the standings after the scores."""
    from .play.results import format_scores, scores_json_text
    from .play.standings import format_standings, standings_as_json

    evening = None
    if standings and refused:
        _complain(f"{standings}: not updated (a game is added only when all its sheets are scored)")
    elif standings:
        evening = _add_to_standings(standings, scores, game, force)
    if quiet:
        return
    if as_json:
        more = {"standings": standings_as_json(evening)} if evening is not None else {}
        _say(scores_json_text(scores, refused, **more))
        return
    _say(format_scores(scores, ranked=not refused), nl=False)
    if evening is not None and standings is not None:
        _say("\n" + format_standings(evening, os.fspath(standings)), nl=False)


def _add_to_standings(path: Path, scores: list, game: str | None, force: bool) -> list:
    """Add a game to the standings file at ``path``: every result in it."""
    from .play.standings import add_game, read_standings, standings_csv
    from .runs.output import write_atomic

    results = add_game(read_standings(path), scores, os.fspath(path), game, force)
    write_atomic(path, standings_csv(results).encode())
    return results


def _show_standings(path: Path, as_json: bool, quiet: bool) -> None:
    import json

    from .grid.yamlio import read_text
    from .play.standings import MAX_BYTES, format_standings, parse_standings, standings_as_json

    results = parse_standings(read_text(path, os.fspath(path), MAX_BYTES), os.fspath(path))
    if not quiet:
        _say(json.dumps({"standings": standings_as_json(results)}, indent=2) if as_json
             else format_standings(results, os.fspath(path)), nl=as_json)


@cli.command("standings", examples=("sheetgen standings out/evening.csv", "sheetgen standings out/evening.csv --json"))
@click.argument("file", metavar="FILE.csv", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON instead of text.")
@_quiet_option("no table (only whether the file reads)")
def standings_command(file: Path, as_json: bool, quiet: bool) -> None:
    """Show the standings of a club's evening: the games that 'sheetgen score
    --standings FILE.csv' added, as a table of games, wins and points per player."""
    _show_standings(file, as_json, quiet)


SHOW_PROGRESS_AFTER = 2.0  # seconds: runs shorter than this show no bar


def _is_terminal() -> bool:
    return sys.stderr is not None and sys.stderr.isatty()  # None: started with it closed


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


@cli.command(examples=("sheetgen batch --example > out/club-night.yaml", "sheetgen batch out/club-night.yaml",
                       "sheetgen batch out/club-night.yaml --combined -o - | lp"))
@click.argument("manifest")
@click.option("-o", "--output", metavar="FOLDER",
              help="Folder to write to, or '-' with --combined for standard output  [default: out/ and the"
                   " manifest's 'folder', else out/batch-MANIFEST/]")
@click.option("--combined", is_flag=True, help="One PDF of every job in turn, named after the manifest.")
@_quiet_option("no progress bar, no list of files")
@_lang_file_option("for every job instead of its 'lang'")
@click.option("--example", is_flag=True, is_eager=True, expose_value=False, callback=_print_example,
              help="Print an example manifest that uses every key, with comments, and exit.")
@click.option("--no-machine-marks", "no_machine_marks", is_flag=True,
              help="Leave off the corner markers that `sheetgen scan` reads.")
def batch(manifest: str, output: str | None, combined: bool, quiet: bool, lang_file: str | None,
          no_machine_marks: bool) -> None:
    """Print a club's MANIFEST of print jobs (YAML): one PDF per job, in one folder,
    all of them or none.

    Serial numbers run on across the whole batch; no lucky-number set repeats
    in it until the grid's range is used up.  'sheetgen batch --example'
    prints a manifest that shows every key."""
    from .runs.batch import Written, combined_pdf, load_batch, write_batch

    if manifest == "-":
        raise click.BadParameter("a manifest is read from a file: its grid paths are relative to its folder",
                                 param_hint="'MANIFEST'")
    if output == "-" and not combined:
        raise click.BadParameter("a batch writes a file per job: name a folder, or give --combined to send one PDF"
                                 " to standard output", param_hint="'-o'")
    if output == "-":
        _check_target(None, binary=True)
    plan = load_batch(manifest, _words(lang_file))
    if no_machine_marks:
        plan = replace(plan, jobs=tuple(replace(b, job=replace(b.job, machine_marks=False)) for b in plan.jobs))
    with _progress(plan.sheets, "Printing", quiet) as progress:
        if output == "-":
            process.write_binary(combined_pdf(plan, progress))
            written = [Written(Path("-"), plan.jobs)]
        else:
            written = write_batch(plan, Path(output) if output else None, combined=combined, progress=progress)
    for file in written:
        sheets = [d for b in file.jobs for d in b.data]
        serials = [d.serial for d in sheets if d.serial is not None]
        numbers = f", No. {min(serials):06d} to {max(serials):06d}" if serials else ""
        jobs = f"{plural(len(file.jobs), 'job')}, " if combined else ""
        what = f"({jobs}{plural(sum(b.pages for b in file.jobs), 'page')}, {plural(len(sheets), 'sheet')}{numbers})"
        if output == "-":
            _note(f"wrote standard output {what}", quiet)
        else:
            _report(f"wrote {shown(os.fspath(file.path))} {what}", quiet)


@cli.command("pack", examples=("sheetgen pack", "sheetgen pack -o out/club-pack/"))
@click.option("-o", "--output", metavar="FOLDER", default=os.fspath(OUT / "pack"), show_default=True,
              help="Folder to build the pack in.")
@click.option("--no-machine-marks", "no_machine_marks", is_flag=True,
              help="Leave off the corner markers that `sheetgen scan` reads.")
@_quiet_option("no progress bar, no summary")
def pack_command(output: str, quiet: bool, no_machine_marks: bool) -> None:
    """Build the download pack: every built-in grid in every language, look and
    paper as one-page PDFs (large print and A6 too), a preview of each grid,
    a page per language (index.html) linking them, SHA256SUMS and one zip of
    it all.  Rebuilding gives the same bytes; a pack that fails leaves the
    folder as it was."""
    from .runs.pack import ZIP, Pack, build_pack, check_pack_target

    if output == "-":
        raise click.BadParameter("the pack is a folder of files: name a folder (the zip inside it is the pack in"
                                 " one file)", param_hint="'-o'")
    folder = Path(output)
    contents = Pack(machine_marks=not no_machine_marks)
    check_pack_target(folder, contents)  # before the minutes of work
    with _progress(contents.steps, "Building the pack", quiet) as progress:
        written = build_pack(folder, contents, progress)
    archive = folder / ZIP
    _report(f"wrote {plural(len(written), 'file')} to {shown(output)}: open {shown(os.fspath(folder / 'index.html'))},"
            f" or share {shown(os.fspath(archive))} ({archive.stat().st_size / 1e6:.1f} MB)", quiet)


@cli.command("rules", examples=("sheetgen rules bonus --lang de", "sheetgen rules powers --pdf",
                                "sheetgen rules classic --pdf --paper letter -o out/"))
@click.argument("grid", shell_complete=_complete_grid)
@click.option("--lang", type=Choice(languages()), default=DEFAULT_LANG, show_default=True,
              help="Language of the rules.")
@_lang_file_option("instead of --lang (its rules_ keys, English where it has none)")
@click.option("--pdf", "as_pdf", is_flag=True,
              help="Write the rules card instead: one page with the rules, the sheet filled in as a worked example,"
                   " and what it scores.")
@click.option("-o", "--output", type=Target((".pdf",)),
              help="With --pdf: the PDF to write, a folder to write the default name in, or '-' for standard output"
                   "  [default: out/GRID[-LANG][-PAPER]-rules.pdf]")
@click.option("--paper", type=Choice(STANDARD.papers), help="With --pdf: the paper of the card [default: a4].")
@_quiet_option("with --pdf, no summary")
def rules_command(grid: str, lang: str, lang_file: str | None, as_pdf: bool, output: str | None,
                  paper: str | None, quiet: bool) -> None:
    """Print the rules of GRID (a built-in name or a YAML file), composed from
    the grid file: the base rules, then what the grid adds, with its values.
    'sheetgen help rules' has those of every built-in grid."""
    from .grid.load import load_grid

    if not as_pdf and (output or paper):
        raise click.UsageError("-o and --paper go with --pdf")
    _one_of(("lang", lang), ("lang_file", lang_file))
    model = load_grid(grid)
    words = _words(lang_file)
    if as_pdf:
        from .runs.names import language_part, rules_name
        from .runs.rules_pdf import rules_card_pdf

        paper = paper or "a4"
        target = _target(output, rules_name(model.name, lang, words, paper))
        _check_target(target, binary=True)
        _write(rules_card_pdf(model, lang, paper, words), target,
               f"(rules card, {language_part(lang, words)}, {paper})", quiet)
        return
    import shutil

    from .play.rules import compose_rules, format_rules
    from .sheet.style import load_labels

    width = shutil.get_terminal_size().columns  # 80 when not a terminal
    _say(format_rules(compose_rules(model, words or load_labels(lang)), width), nl=False)


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

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join(self.names()) + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        names = self.names()
        if value == "all":
            return ",".join(names)
        if "," in value:
            return ",".join(self.convert(part.strip(), param, ctx) for part in value.split(","))
        found = value if value in names else forgiven(value, names)
        if found is not None:
            return found
        self.fail(_not_one_of(value, names), param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter,
                       incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in self.names() if name.startswith(incomplete)]


class _SimulateCommand(_Command):
    """The simulate command, whose help ends with what each strategy does."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from .play.strategies import DEFAULT_STRATEGY, STRATEGIES

        with formatter.section("Strategies"):
            formatter.write_dl([(name + (" (default)" if name == DEFAULT_STRATEGY else ""), strategy.summary)
                                for name, strategy in STRATEGIES.items()])
        super().format_epilog(ctx, formatter)


@cli.command(cls=_SimulateCommand, examples=("sheetgen simulate classic", "sheetgen simulate disorder --games 2000"
                                                                           " --heatmap out/disorder.png",
                                              "sheetgen simulate longo --strategy bold --strategy careful --json",
                                              "sheetgen simulate classic bis --games 1000",
                                              "sheetgen simulate classic --strategy all --games 500"))
@click.argument("grids", metavar="GRID...", nargs=-1, required=True, shell_complete=_complete_grid)
@click.option("--games", type=click.IntRange(1, GAMES_MAX), default=10_000, show_default=True,
              help="Games to play (per run).")
@click.option("--players", type=click.IntRange(1, PLAYERS_MAX), default=4, show_default=True,
              help="Players in each game.")
@click.option("--strategy", "strategies", type=StrategyName(), multiple=True, default=(STRATEGY_DEFAULT,),
              show_default=True,
              help="A player's strategy (listed below); repeat it for the next seats, which take the strategies"
                   " in turn.  'all', or names with commas (best,careful): one run per strategy, every seat"
                   " playing it, side by side.")
@click.option("--seed", type=Seed(), default="1", show_default=True,
              help="Seed of the dice; the same seed gives the same report, whatever --jobs. 'random' for a fresh one.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes to play the games in.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of text.")
@click.option("--heatmap", type=click.Path(dir_okay=False, path_type=Path),
              help="Also draw the sheet with each cell tinted by how often it was crossed, as FILE.pdf or FILE.png"
                   " (one run only) [default: none].")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path),
              help="Also draw the score distribution of every run, as FILE.svg [default: none].")
@_quiet_option("no progress bar, no report (only the heat map)")
def simulate(grids: tuple[str, ...], games: int, players: int, strategies: tuple[str, ...], seed: int | str,
             jobs: int, as_json: bool, heatmap: Path | None, plot: Path | None, quiet: bool) -> None:
    """Play GRID many times and report how it plays: scores, game length, how
    games end, how often each row closes and each cell is crossed, what each
    feature brings, with 95 % intervals, and warnings for a grid that plays
    badly; --heatmap draws the sheet tinted by how often each cell was crossed.
    Two or more grids (or strategies: --strategy all) are played side by side,
    and two runs are compared: their differences and whether they are more
    than noise."""
    from .grid.load import load_grid
    from .play.simulate import Setup, compare_json, compare_text, report_json, report_text
    from .play.simulate import simulate as run

    each = [name for name in strategies if "," in name]
    if each and len(strategies) > 1:
        raise click.BadParameter("'all' or a list with commas is the only --strategy of a run",
                                 param_hint="'--strategy'")
    if not each and len(strategies) > players:
        raise click.BadParameter(f"{len(strategies)} strategies for {plural(players, 'player')}",
                                 param_hint="'--strategy'")
    seatings = [(name,) for name in each[0].split(",")] if each else [strategies]
    kind = heatmap.suffix.lower().lstrip(".") if heatmap is not None else None
    if kind not in (None, "pdf", "png"):
        raise click.BadParameter(f"expected a file name ending in .pdf or .png, got {quoted(str(heatmap))}",
                                 param_hint="'--heatmap'")
    if kind is not None and len(grids) * len(seatings) > 1:
        raise click.BadParameter("a heat map is drawn of one run: one grid, one --strategy list",
                                 param_hint="'--heatmap'")
    if plot is not None:
        if plot.suffix.lower() != ".svg":
            raise click.BadParameter(f"expected a file name ending in .svg, got {quoted(str(plot))}",
                                     param_hint="'--plot'")
        _check_target(plot)
    models = [load_grid(grid) for grid in grids]
    if kind is not None:
        from .play.heatmap import draw_heatmap, heatmap_sheet

        _check_target(heatmap)
        sheet = heatmap_sheet(models[0])  # a grid that cannot be drawn fails before the games are played
    picked = _pick_seed(seed)
    setups = [Setup(model, games=games, players=players, strategies=seats, seed=picked)
              for model in models for seats in seatings]
    reports = []
    with _progress(games * len(setups), "Playing", quiet) as progress:
        for setup in setups:
            reports.append(run(setup, jobs=jobs, progress=progress))
    if heatmap is not None and kind is not None:
        from .runs.output import write_atomic

        write_atomic(heatmap, draw_heatmap(reports[0], kind, sheet))
    if plot is not None:
        from .play.plot import score_svg
        from .runs.output import write_atomic

        write_atomic(plot, score_svg(reports))
    if quiet:
        return
    if as_json:
        import json

        _say(json.dumps(report_json(reports[0]) if len(reports) == 1 else compare_json(reports), indent=2))
    else:
        _say(report_text(reports[0]) if len(reports) == 1 else compare_text(reports), nl=False)
        for written in (heatmap, plot):
            if written is not None:
                _report(f"wrote {shown(os.fspath(written))}")


@cli.command(examples=("sheetgen counter classic --lang it", "sheetgen counter longo -o out/longo.html",
                       "sheetgen counter classic --lang-file club.yaml"))
@click.argument("grid", shell_complete=_complete_grid)
@click.option("-o", "--output", type=Target((".html", ".htm")),
              help="HTML file to write, a folder to write the default name in, or '-' for standard output"
                   "  [default: out/counter-GRID-LANG[-LOOK].html]")
@click.option("--lang", type=Choice(languages()), default=DEFAULT_LANG, show_default=True,
              help="Language of the page.")
@_lang_file_option("instead of --lang (its counter_ keys, English where it has none)")
@click.option("--theme", type=Choice(themes()), default=DEFAULT_THEME, show_default=True,
              help="The sheet's look on the page, as printed.")
@_quiet_option("no summary")
def counter(grid: str, output: str | None, lang: str, lang_file: str | None, theme: str, quiet: bool) -> None:
    """Write the counter page of GRID (a built-in name or a YAML file, '-' for
    standard input): one HTML file, offline, to tap the crossed cells of every
    player's sheet in, with totals, ranking and marks files.  'sheetgen help
    counter' tells more."""
    from .grid.load import load_grid
    from .play.counter import counter_html
    from .runs.names import counter_name

    _one_of(("lang", lang), ("lang_file", lang_file))
    model = load_grid(grid)
    words = _words(lang_file)
    target = _target(output, counter_name(model.name, lang, words, theme))
    _check_target(target)
    page = counter_html(model, lang, theme, words).encode()
    _write(page, target, f"({len(page) / 1024:.0f} KiB)", quiet)


@cli.command("help", examples=("sheetgen help", "sheetgen help scoring", "sheetgen help clubs | less"))
@click.argument("topic", required=False)
@_quiet_option("the page is all it prints")
def help_command(topic: str | None, quiet: bool) -> None:
    """The manual: with no TOPIC, the list of topics; with one, its page.
    'sheetgen COMMAND --help' tells about a command."""
    from .topics import topic_text, topics

    if topic is None:
        found = topics()
        width = max(map(len, found))
        _say("Topics of the manual ('sheetgen help TOPIC' prints one):\n"
             + "".join(f"  {name:<{width}}  {title}\n" for name, title in found.items()), nl=False)
        return
    _say(topic_text(topic), nl=False)


@cli.command("lang", examples=("sheetgen lang", "sheetgen lang --example de > club.yaml",
                               "sheetgen render classic --lang-file club.yaml"))
@click.option("--example", type=Choice(languages()), metavar="LANG",
              help="Print the language file of LANG, to start a file of your own words from.  [default: list the"
                   " languages]")
@_quiet_option("the list or the file is all it prints")
def lang_command(example: str | None, quiet: bool) -> None:
    """List the languages sheets print in, or (--example LANG) print one's file
    to start a language file of your own, for --lang-file."""
    from .sheet.style import DATA, load_labels

    if example is None:
        for code in languages(default_first=True):
            _say(f"{code}  {load_labels(code)('language')}")
        return
    text = (DATA / f"lang-{example}.yaml").read_text(encoding="utf-8")
    _say(f"# Your own words for sheetgen's --lang-file, from the {example!r} file: change the words, keep the\n"
         "# keys and the {placeholders}.  Keys starting rules_, counter_ or pack_ may go (English stands in).\n"
         + text, nl=False)
