"""Pipes and paths on the command line: '-' reads a grid or a marks file from
standard input (within the bounds of a file, named <stdin> in messages),
`-o -` writes the PDF to standard output (never to a terminal), `-o DIR/`
writes GRID.pdf in a folder, and an output that is not a .pdf is refused."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.grid.load import builtin_dir, load_grid
from sheetgen.grid.yamlio import MAX_FILE_BYTES
from sheetgen.runs.jobs import Job, render_job

from cli_process import sheetgen_command, sheetgen_env

pytestmark = pytest.mark.slow  # whole processes writing into pipes that close: out of the quick tier

CLASSIC_FILE = (builtin_dir() / "classic.yaml").read_text(encoding="utf-8")
CLASSIC = render_job(Job(load_grid("classic")))
MARKS = "player: Lea\nrows: [{crossed: [2, 3]}, {}, {}, {}]\n"


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str, stdin: str | bytes | None = None):
        return CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)

    return invoke


def files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


# -- '-' reads standard input ------------------------------------------------------


def test_check_reads_a_grid_from_standard_input(run):
    assert (run("check", "-", stdin=CLASSIC_FILE).output) == "<stdin>: ok\n"
    result = run("check", "-", stdin=CLASSIC_FILE.replace("colour: green", "colour: purple"))
    assert (result.exit_code, result.stderr) == (
        1, "sheetgen: <stdin>: rows[2].colour: unknown value 'purple' (expected red, yellow, green or blue)\n")


def test_render_reads_a_grid_from_standard_input(run, tmp_path):
    result = run("render", "-", "-o", "c.pdf", stdin=CLASSIC_FILE)
    assert (result.exit_code, result.stdout) == (0, "wrote c.pdf (1 page, 8 sheets)\n")
    assert (tmp_path / "c.pdf").read_bytes() == CLASSIC


def test_score_reads_marks_or_the_grid_from_standard_input(run, tmp_path):
    (tmp_path / "m.yaml").write_text(MARKS)
    from_file = run("score", "classic", "m.yaml")
    from_stdin = run("score", "classic", "-", stdin=MARKS)
    assert from_stdin.exit_code == 0
    assert from_stdin.stdout == from_file.stdout.replace("(m.yaml)", "(<stdin>)")
    grid_from_stdin = run("score", "-", "m.yaml", stdin=CLASSIC_FILE)
    assert grid_from_stdin.stdout == from_file.stdout
    result = run("score", "classic", "-", stdin="rows: [{}]\n")
    assert (result.exit_code, result.stderr) == (
        1, "sheetgen: <stdin>: rows: expected 4 rows (one per row of grid 'classic'), got 1\n")


BAD_STDIN = [
    (b"", "file is empty (expected a YAML mapping)"),
    (b"#" * (MAX_FILE_BYTES + 1), "file larger than 256 KiB"),
    (b"name: \xe9t\xe9\n", "not UTF-8 text (byte 0xe9 at offset 6)"),
    (b'title: "\\U00110000"\n', "line 1, column 9: escape \\U00110000 is beyond Unicode (the last character is"
                                " \\U0010FFFF)"),
]


@pytest.mark.parametrize(("data", "message"), BAD_STDIN, ids=[m.split(" (")[0] for _, m in BAD_STDIN])
def test_standard_input_has_the_bounds_of_a_file(run, data, message):
    for args in (("check", "-"), ("render", "-"), ("score", "classic", "-")):
        result = run(*args, stdin=data)
        assert (result.exit_code, result.stderr) == (1, f"sheetgen: <stdin>: {message}\n"), args
    assert not Path("out").exists()


def test_a_closed_standard_input_is_one_line(tmp_path):
    done = subprocess.run(sheetgen_command("check", "-"), cwd=tmp_path, env=sheetgen_env(), capture_output=True,
                          text=True, timeout=30, preexec_fn=lambda: os.close(0))
    assert (done.returncode, done.stderr) == (1, "sheetgen: <stdin>: cannot be read (standard input is closed)\n")


@pytest.mark.parametrize("args", [("check", "-", "-"), ("score", "-", "-"), ("score", "classic", "m.yaml", "-", "-")])
def test_standard_input_is_read_once(run, args):
    result = run(*args, stdin=CLASSIC_FILE)
    assert (result.exit_code, result.stderr) == (2, (
        f"sheetgen {args[0]}: '-' (standard input) is given more than once: it can be read only once"
        f" (see 'sheetgen {args[0]} --help')\n"))


def test_a_manifest_is_not_read_from_standard_input(run):
    result = run("batch", "-", stdin="jobs: [{grid: classic, sheets: 8}]\n")
    assert (result.exit_code, result.stderr) == (2, (
        "sheetgen batch: Invalid value for 'MANIFEST': a manifest is read from a file: its grid paths are"
        " relative to its folder (see 'sheetgen batch --help')\n"))
    assert not Path("out").exists()


# -- '-o -' writes standard output -------------------------------------------------


def test_render_writes_the_pdf_to_standard_output(run, tmp_path):
    result = run("render", "classic", "-o", "-")
    assert (result.exit_code, result.stdout_bytes, result.stderr) == (
        0, CLASSIC, "wrote standard output (1 page, 8 sheets)\n")
    assert files(tmp_path) == []


def test_render_sends_a_pdf_down_a_pipe(tmp_path):
    """`sheetgen render classic -o - | lp`, with a reader that takes it all."""
    reader = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    done = subprocess.run(sheetgen_command("render", "classic", "-o", "-"), cwd=tmp_path, env=sheetgen_env(),
                          stdout=reader.stdin, stderr=subprocess.PIPE, timeout=30)
    reader.stdin.close()
    assert (done.returncode, reader.stdout.read()) == (0, CLASSIC)
    reader.wait()


def test_a_reader_that_stops_early_is_not_told_it_got_everything(tmp_path):
    """Unbuffered (PYTHONUNBUFFERED), a write to a pipe may take only part of
    the PDF; a reader that then goes away must not leave a run that says it
    wrote standard output."""
    reader = subprocess.Popen([sys.executable, "-c", "import os; os.read(0, 10)"], stdin=subprocess.PIPE)
    done = subprocess.run(sheetgen_command("render", "longo", "--pages", "3000", "-o", "-"), cwd=tmp_path,
                          env=sheetgen_env(PYTHONUNBUFFERED="1"), stdout=reader.stdin, stderr=subprocess.PIPE,
                          text=True, timeout=60)
    reader.stdin.close()
    reader.wait()
    assert (done.returncode, done.stderr) == (141, "")  # 128 + SIGPIPE, as a shell reports a reader gone


def test_render_refuses_to_write_a_pdf_to_a_terminal(tmp_path):
    main, terminal = pty.openpty()
    try:
        done = subprocess.run(sheetgen_command("render", "classic", "-o", "-"), cwd=tmp_path, env=sheetgen_env(),
                              stdout=terminal, stderr=subprocess.PIPE, text=True, timeout=30)
    finally:
        os.close(terminal)
        os.close(main)
    assert (done.returncode, done.stderr) == (2, (
        "sheetgen render: a PDF is not for the terminal: send it to a file or a program (-o - | lp)"
        " (see 'sheetgen render --help')\n"))
    assert files(tmp_path) == []


# -- '-o' names a file or a folder -------------------------------------------------


def test_an_output_ending_in_a_slash_or_naming_a_folder_is_a_folder(run, tmp_path):
    result = run("render", "classic", "-o", "new/")
    assert (result.exit_code, result.stdout) == (0, "wrote new/classic.pdf (1 page, 8 sheets)\n")
    (tmp_path / "old").mkdir()
    result = run("render", "longo", "-o", "old")
    assert (result.exit_code, result.stdout) == (0, "wrote old/longo.pdf (1 page, 8 sheets, seed 1)\n")
    assert files(tmp_path) == ["new/classic.pdf", "old/longo.pdf"]


@pytest.mark.parametrize("output", ["sheets.png", "sheets", "newdir", "sheets.pdf.txt"])
def test_an_output_that_is_not_a_pdf_is_refused(run, tmp_path, output):
    result = run("render", "classic", "-o", output)
    assert (result.exit_code, result.stderr) == (2, (
        "sheetgen render: Invalid value for '-o' / '--output': expected a file name ending in .pdf, a folder"
        f" (end it with '/') or '-' for standard output, got '{output}' (see 'sheetgen render --help')\n"))
    assert files(tmp_path) == []


def test_an_output_suffix_in_capitals_is_a_pdf(run, tmp_path):
    assert run("render", "classic", "-o", "SHEETS.PDF").exit_code == 0
    assert files(tmp_path) == ["SHEETS.PDF"]


def test_a_run_from_stdin_to_stdout(tmp_path):
    """`sheetgen render - -o - < grid.yaml | cat`: no file anywhere."""
    done = subprocess.run(sheetgen_command("render", "-", "-o", "-"), cwd=tmp_path, env=sheetgen_env(),
                          input=CLASSIC_FILE.encode(), capture_output=True, timeout=30)
    assert (done.returncode, done.stdout) == (0, CLASSIC)
    assert files(tmp_path) == []

