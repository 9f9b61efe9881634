"""The bad-input corpus, through the real command line.

Every file in tests/corpus/ (grids, marks files, batch manifests) is broken or
hostile; tests/corpus/expected.yaml holds the one line the command line must
print for each.  Each runs in a fresh process (`python -m sheetgen ...`), as
a user would run it, and must give exactly that line on stderr, exit 1 (2 for
a wrong command line), no traceback, nothing on stdout, nothing written, in
under 2 seconds and 200 MiB.  Inputs too big or too odd to keep in the
repository (50 MB, a FIFO, a symbolic link loop ...) are made here.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import pytest

from cli_process import Run, run_sheetgen
from sheetgen.grid.yamlio import MAX_FILE_BYTES, read_yaml

CORPUS = Path(__file__).resolve().parent / "corpus"
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
    assert run.seconds < MAX_SECONDS, f"took {run.seconds:.2f} s"
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
]


@pytest.mark.parametrize(("make", "command", "message"), MADE, ids=[f"{m.__name__}-{c.split()[0]}" for m, c, _ in MADE])
def test_an_odd_input_is_one_line_naming_it(tmp_path, make, command, message):
    name = make(tmp_path)
    shown = name.encode("utf-8", "backslashreplace").decode()  # as stderr shows it: '\\udcff.yaml'
    assert_refused(run_sheetgen(*command.split(), name, cwd=tmp_path, timeout=10), f"sheetgen: {shown}: {message}")
    assert not (tmp_path / "out").exists()
