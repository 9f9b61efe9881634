"""The command line: exit codes and exact messages, through click's runner."""

from __future__ import annotations

import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from sheetgen.cli import cli
from sheetgen.grid.load import builtin_dir, builtin_names


def test_every_command_has_help(run):
    for name, command in cli.commands.items():
        assert command.help, f"{name} has no help text"
        result = run(name, "--help")
        assert result.exit_code == 0
        assert "Usage: " in result.output


def test_list_shows_one_line_per_builtin_grid(run):
    result = run("list")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    names = [line.split()[0] for line in lines]
    assert sorted(names) == builtin_names() and len(lines) == 10
    assert names[0] == "classic"  # the base game first, then the variants by title
    titles = [line.split(None, 1)[1] for line in lines[1:]]
    assert titles == sorted(titles, key=str.casefold)


def test_render_writes_out_grid_pdf_by_default(run, tmp_path):
    result = run("render", "classic")
    assert result.exit_code == 0, result.output
    assert result.output == "wrote out/classic.pdf (1 page, 8 sheets)\n"  # no lucky numbers: no seed
    assert (tmp_path / "out" / "classic.pdf").read_bytes().startswith(b"%PDF-")


def test_render_takes_a_grid_file_path_and_pages(run, tmp_path):
    source = tmp_path / "mine.yaml"
    source.write_text((builtin_dir() / "mixed.yaml").read_text())
    result = run("render", str(source), "-o", "sheets/m.pdf", "--pages", "3")
    assert result.exit_code == 0, result.output
    assert len(pdfium.PdfDocument(tmp_path / "sheets" / "m.pdf")) == 3
    assert "3 pages, 24 sheets" in result.output


def test_random_seed_is_printed(run):
    result = run("render", "longo", "--seed", "random")
    assert result.exit_code == 0
    assert "seed " in result.output and "seed random" not in result.output


def test_check_reports_ok_and_errors(run, tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text((builtin_dir() / "classic.yaml").read_text())
    bad = tmp_path / "bad.yaml"
    bad.write_text((builtin_dir() / "classic.yaml").read_text().replace("colour: green", "colour: purple"))
    result = run("check", str(good))
    assert (result.exit_code, result.output) == (0, f"{good}: ok\n")
    result = run("check", str(good), str(bad), "missing.yaml")
    assert result.exit_code == 1
    assert result.stdout == f"{good}: ok\n"
    assert result.stderr.splitlines() == [
        f"sheetgen: {bad}: rows[2].colour: unknown value 'purple' (expected red, yellow, green or blue)",
        "sheetgen: missing.yaml: no such file",
    ]


BAD_RUNS = [
    (("render", "nope"), 1,
     "sheetgen: nope: unknown grid (expected a file or one of bis, blocks, bonus, classic, disorder, doubles,"
     " longo, mixed, powers or rainbow)"),
    (("render", "missing.yaml"), 1, "sheetgen: missing.yaml: no such file"),
    (("render", "classic", "--pages", "0"), 2,
     "sheetgen render: Invalid value for '--pages': 0 is not in the range 1<=x<=10000."
     " (see 'sheetgen render --help')"),
    (("render", "classic", "--seed", "abc"), 2,
     "sheetgen render: Invalid value for '--seed': expected a whole number or 'random', got 'abc'"
     " (see 'sheetgen render --help')"),
    (("render",), 2, "sheetgen render: Missing argument 'GRID'. (see 'sheetgen render --help')"),
    (("frobnicate",), 2, "sheetgen: No such command 'frobnicate'. (see 'sheetgen --help')"),
]


@pytest.mark.parametrize("args, code, line", BAD_RUNS, ids=[" ".join(a) for a, _, _ in BAD_RUNS])
def test_bad_runs_give_one_line_and_an_exit_code(run, args, code, line):
    result = run(*args)
    assert (result.exit_code, result.stderr.splitlines()) == (code, [line])
    assert not Path("out").exists() or not any(Path("out").iterdir())


def test_yaml_syntax_error_names_line_and_column(run, tmp_path):
    (tmp_path / "broken.yaml").write_text("name: x\nrows: [1, 2\n")
    result = run("render", "broken.yaml")
    assert result.exit_code == 1
    assert result.stderr.startswith("sheetgen: broken.yaml: line 3, column 1: ")


def test_output_in_a_path_under_a_file_is_one_line(run, tmp_path):
    (tmp_path / "afile").write_text("x")
    result = run("render", "classic", "-o", "afile/c.pdf")
    assert result.exit_code == 1
    assert result.stderr == "sheetgen: afile: is a file, expected a folder to write afile/c.pdf in\n"


def test_failed_run_leaves_existing_output_untouched(run, tmp_path, monkeypatch):
    target = tmp_path / "keep.pdf"
    target.write_bytes(b"previous run")

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    result = run("render", "classic", "-o", str(target))
    assert result.exit_code == 1
    assert result.stderr == f"sheetgen: {target}: cannot be written (No space left on device)\n"
    assert target.read_bytes() == b"previous run"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.pdf"]


def test_check_refuses_a_valid_grid_that_cannot_print(run, tmp_path):
    text = (builtin_dir() / "longo.yaml").read_text()
    wide = tmp_path / "wide.yaml"  # 19 cells a row (they print), all double: valid, too narrow to read (one double
    # cell among them prints, made wider than the others)
    cells = "[17, 18, 19, 20, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]"
    wide.write_text(text.replace("dice_faces: 8", "dice_faces: 10").replace(
        "cells: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}", f"cells: {cells}, double: {cells}}}", 1))
    result = run("check", str(wide))
    assert result.exit_code == 1
    assert result.stderr == (
        f"sheetgen: {wide}: rows[0].cells[0]: the number 17 does not fit inside the frames of a double cell 3.8 mm"
        " wide: it needs 2.65 mm at 1.5 mm cap height, the frames leave 2.17 mm (use fewer cells in the row)\n"
    )


def test_output_that_is_not_a_regular_file_is_left_alone(run, tmp_path):
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    result = run("render", "classic", "-o", str(fifo))
    assert (result.exit_code, result.stderr) == (1, f"sheetgen: {fifo}: is not a regular file, expected a file name\n")
    assert fifo.is_fifo()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [("schema",), ("show", "classic"), ("list",)])
def test_a_full_standard_output_is_one_line_and_exit_1(args):
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "sheetgen", *args], stdout=full, stderr=subprocess.PIPE,
                                text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    assert (result.returncode, result.stderr) == (
        1, "sheetgen: standard output: cannot be written (No space left on device)\n")
