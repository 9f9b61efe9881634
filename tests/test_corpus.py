"""The bad-input corpus, through the real command line.

Every file in tests/corpus/ (grids, marks files, batch manifests) is broken or
hostile; tests/corpus/expected.yaml holds the one line the command line must
print for each.  Each runs in a fresh process (`python -m sheetgen ...`), as
a user would run it, and must give exactly that line on stderr, exit 1 (2 for
a wrong command line), no traceback, nothing on stdout, nothing written, in
under 2 seconds of CPU (a loaded machine stretches the wall time, not the work)
and 200 MiB.  Inputs too big or too odd to keep in the repository (50 MB, a
FIFO, a symbolic link loop ...) are made here.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
from pathlib import Path

import pytest

from sheetgen.grid.yamlio import MAX_FILE_BYTES, read_yaml

from cli_process import Run, run_sheetgen

pytestmark = pytest.mark.slow  # each hostile input in a process of its own: out of the quick tier

CORPUS = Path(__file__).resolve().parent / "corpus"
BUILTIN = Path(__file__).resolve().parent.parent / "grids"
EXPECTED = read_yaml(CORPUS / "expected.yaml")
DEFAULT_RUN = {"grids": "check FILE", "marks": "score classic FILE", "batches": "batch FILE"}
MAX_SECONDS = 2.0
MAX_MIB = 200


def corpus_files() -> list[str]:
    return sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.glob("*/*") if p.is_file())


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A copy of the corpus to run in, so that whatever a bug writes lands in
    a temporary folder and shows as an `out/` folder there."""
    copy = tmp_path_factory.mktemp("corpus")
    shutil.copytree(CORPUS, copy, dirs_exist_ok=True)
    return copy


def assert_refused(run: Run, line: str, code: int = 1) -> None:
    assert (run.code, run.stderr) == (code, line + "\n")
    assert run.stdout == ""
    assert run.cpu_seconds < MAX_SECONDS, f"took {run.cpu_seconds:.2f} s of CPU"
    assert run.peak_mib < MAX_MIB, f"took {run.peak_mib:.0f} MiB"


def test_every_file_has_its_expected_line_and_every_line_its_file():
    assert corpus_files() == sorted(EXPECTED["files"])


def test_the_corpus_covers_grids_marks_and_batches():
    folders = [name.split("/")[0] for name in corpus_files()]
    assert len(folders) >= 40
    assert {folder: folders.count(folder) >= 10 for folder in DEFAULT_RUN} == dict.fromkeys(DEFAULT_RUN, True)


@pytest.mark.parametrize("name", sorted(EXPECTED["files"]))
def test_a_bad_file_is_one_line_naming_it(corpus, name):
    case = EXPECTED["files"][name]
    command = case.get("run", DEFAULT_RUN[name.split("/")[0]]).replace("FILE", name)
    assert_refused(run_sheetgen(*shlex.split(command), cwd=corpus), case["stderr"])
    assert not (corpus / "out").exists(), "a refused run wrote something"


@pytest.mark.parametrize("case", EXPECTED["usage"], ids=lambda case: case["run"])
def test_a_wrong_command_line_is_one_line_and_exit_2(corpus, case):
    assert_refused(run_sheetgen(*shlex.split(case["run"]), cwd=corpus), case["stderr"], code=2)


# -- inputs made here -------------------------------------------------------------

CLASSIC_ROWS = "rows:\n" + "  - crossed: []\n" * 4


def huge(folder: Path) -> str:
    """50 MB: only the first 256 KiB + 1 byte are ever read."""
    with open(folder / "huge.yaml", "wb") as stream:
        stream.write(b"name: huge\n")
        stream.write(b"# " + b"x" * 1022 + b"\n")
        stream.seek(50 * 1000 * 1000)
        stream.write(b"\n")
    return "huge.yaml"


def blank_lines(folder: Path) -> str:
    """As long as allowed, of what YAML reads slowest: blank lines."""
    head = b"name: slow\n"
    (folder / "blank.yaml").write_bytes(head + b"\n" * (MAX_FILE_BYTES - len(head)))
    return "blank.yaml"


def long_list(folder: Path) -> str:
    (folder / "list.yaml").write_text("rows: [" + "1, " * (MAX_FILE_BYTES // 3 - 4) + "1]\n")
    return "list.yaml"


def fifo(folder: Path) -> str:
    os.mkfifo(folder / "fifo.yaml")  # opening it to read would wait for a writer for ever
    return "fifo.yaml"


def symlink_loop(folder: Path) -> str:
    (folder / "loop.yaml").symlink_to("loop2.yaml")
    (folder / "loop2.yaml").symlink_to("loop.yaml")
    return "loop.yaml"


def a_folder(folder: Path) -> str:
    (folder / "grid.yaml").mkdir()
    return "grid.yaml"


def missing(folder: Path) -> str:
    return "missing.yaml"


def undecodable_name(folder: Path) -> str:
    name = os.fsdecode(b"\xff.yaml")  # a name that is not UTF-8: it reaches Python as '\udcff.yaml'
    (folder / name).write_text("name: odd\n")
    return name


def manifest_of(folder: Path, *grids: str) -> str:
    (folder / "club.yaml").write_text("jobs:\n" + "".join(f"  - {{grid: '{grid}', sheets: 8}}\n" for grid in grids))
    return "club.yaml"


def grid_is_a_device(folder: Path) -> str:
    return manifest_of(folder, "classic", "/dev/zero")


def grid_is_a_folder(folder: Path) -> str:
    (folder / "grids").mkdir()
    return manifest_of(folder, "grids")


def grid_is_a_fifo(folder: Path) -> str:
    os.mkfifo(folder / "fifo.yaml")
    return manifest_of(folder, "fifo.yaml")


PASSWORDS = "root:$y$j9T$secret$hash:19000:0:99999:7:::\n"


def grid_is_not_a_grid_file(folder: Path) -> str:
    """A password file, named as a grid: refused unread, nothing of it shown."""
    (folder / "shadow").write_text(PASSWORDS)
    return manifest_of(folder, "shadow")


def grid_is_a_secret_named_yaml(folder: Path) -> str:
    """The same, named as a grid file: read, and still nothing of it shown."""
    (folder / "shadow.yaml").write_text(PASSWORDS)
    return manifest_of(folder, "shadow.yaml")


def fat_grid(folder: Path, name: str, broken: bool = False) -> str:
    """A valid grid padded with comments to the most a file may hold."""
    text = (BUILTIN / "classic.yaml").read_text().replace("name: classic", f"name: {name}")
    if broken:
        text = text.replace("colour: green", "colour: purple")
    comment = "# " + "x" * 77 + "\n"
    (folder / f"{name}.yaml").write_text(text + comment * ((MAX_FILE_BYTES - len(text)) // len(comment)))
    return f"{name}.yaml"


def many_fat_grids(folder: Path) -> str:
    """100 distinct grids of 256 KiB, the last broken: refused before any is read."""
    return manifest_of(folder, *[fat_grid(folder, f"g{i}", broken=i == 99) for i in range(100)])


def two_fat_grids(folder: Path) -> str:
    """As many of them as a batch may read, the last broken: both are read."""
    return manifest_of(folder, *[fat_grid(folder, f"g{i}", broken=i == 1) for i in range(2)])


MADE = [
    (huge, "check", "file larger than 256 KiB"),
    (huge, "render", "file larger than 256 KiB"),
    (huge, "score classic", "file larger than 256 KiB"),
    (huge, "batch", "file larger than 256 KiB"),
    (blank_lines, "check", "missing key 'title'"),
    (long_list, "check", "document too large (more than 10,000 values)"),
    (long_list, "score classic", "document too large (more than 10,000 values)"),
    (fifo, "check", "not a regular file (a pipe, socket or device)"),
    (fifo, "score classic", "not a regular file (a pipe, socket or device)"),
    (fifo, "batch", "not a regular file (a pipe, socket or device)"),
    (symlink_loop, "check", "cannot be read (Too many levels of symbolic links)"),
    (a_folder, "render", "is a folder, expected a file"),
    (missing, "score classic", "no such file"),
    (undecodable_name, "check", "missing key 'title'"),
    (grid_is_a_device, "batch", "not a regular file (a pipe, socket or device)"),
    (grid_is_a_folder, "batch", "is a folder, expected a file"),
    (grid_is_a_fifo, "batch", "not a regular file (a pipe, socket or device)"),
    (grid_is_not_a_grid_file, "batch", "jobs[0].grid: 'shadow' is not a grid file (expected a name ending in .yaml,"
                                       " .yml or .json, or one of bis, blocks, bonus, classic, disorder, doubles,"
                                       " longo, mixed, powers or rainbow)"),
    (grid_is_a_secret_named_yaml, "batch", "has none of the expected keys (name, title, dice_faces, close_after,"
                                           " penalties, rows, description, lucky, bis, max_crosses, bonus_bar or"
                                           " powers)"),
    (many_fat_grids, "batch", "jobs[2].grid: the batch's grid files would hold 768 KiB (expected at most"
                              " 512 KiB in one batch: split it into several manifests)"),
    (two_fat_grids, "batch", "rows[2].colour: unknown value 'purple' (expected red, yellow, green or blue)"),
]
# Whose name an error line starts with, where it is not the file the run was given.
NAMED = {grid_is_a_device: "/dev/zero", grid_is_a_folder: "grids", grid_is_a_fifo: "fifo.yaml",
         grid_is_a_secret_named_yaml: "shadow.yaml", two_fat_grids: "g1.yaml"}


@pytest.mark.parametrize(("make", "command", "message"), MADE, ids=[f"{m.__name__}-{c.split()[0]}" for m, c, _ in MADE])
def test_an_odd_input_is_one_line_naming_it(tmp_path, make, command, message):
    name = make(tmp_path)
    shown = os.fsencode(NAMED.get(make, name)).decode("utf-8", "backslashreplace")  # as stderr shows it: '\\xff.yaml'
    assert_refused(run_sheetgen(*command.split(), name, cwd=tmp_path, timeout=10), f"sheetgen: {shown}: {message}")
    assert not (tmp_path / "out").exists()


# -- what reaches the terminal ------------------------------------------------------

EVIL = "\x1b[2J\x1b[31mEVIL\a\b\u202eFDP.exe\u2028\u2066x\x85"
EVIL_SHOWN = "\\u001b[2J\\u001b[31mEVIL\\u0007\\u0008\\u202eFDP.exe\\u2028\\u2066x\\u0085"
RAW = set("\x1b\a\b\u202e\u2028\u2066\x85")


def test_a_player_name_reaches_the_terminal_escaped(tmp_path):
    (tmp_path / "m.yaml").write_text(f"player: {json.dumps(EVIL[:40])}\nrows: [{{}}, {{}}, {{}}, {{}}]\n")
    run = run_sheetgen("score", "classic", "m.yaml", cwd=tmp_path)
    assert (run.code, run.stderr) == (0, "")
    assert run.stdout.splitlines()[0] == f"{EVIL_SHOWN} (m.yaml): Qwixx"
    assert not RAW & set(run.stdout)


def test_a_file_name_reaches_the_terminal_escaped_on_one_line(tmp_path):
    good, bad = f"good{EVIL}\n.yaml", f"bad{EVIL}\n.yaml"
    (tmp_path / good).write_text((BUILTIN / "classic.yaml").read_text())
    run = run_sheetgen("check", good, bad, cwd=tmp_path)
    assert (run.code, run.stdout, run.stderr) == (
        1, f"good{EVIL_SHOWN}\\n.yaml: ok\n", f"sheetgen: bad{EVIL_SHOWN}\\n.yaml: no such file\n")
    run = run_sheetgen("render", good, "-o", f"{EVIL}.pdf", cwd=tmp_path)
    assert (run.code, run.stdout) == (0, f"wrote {EVIL_SHOWN}.pdf (1 page, 8 sheets)\n")


def test_an_error_line_echoes_little_of_a_long_value(tmp_path):
    """A key of 200,000 characters once made an error line of 200 KB."""
    key = "k" * 200_000
    (tmp_path / "long.yaml").write_text(f"name: x\n? {key}\n: 1\n")  # an explicit key: any length
    run = run_sheetgen("check", "long.yaml", cwd=tmp_path)
    assert (run.code, run.stderr) == (1, f"sheetgen: long.yaml: unknown key '{'k' * 55}...' (expected name, title,"
                                         " dice_faces, close_after, penalties, rows, description, lucky, bis,"
                                         " max_crosses, bonus_bar or powers)\n")
    name = "n" * 3000 + ".yaml"
    run = run_sheetgen("check", name, cwd=tmp_path)
    assert run.code == 1 and len(run.stderr) < 1100, len(run.stderr)
    assert run.stderr.startswith("sheetgen: nnnn") and run.stderr.endswith("nnnn.yaml: cannot be read (File name too long)\n")
