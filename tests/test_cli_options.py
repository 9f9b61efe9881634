"""The command line's own options: a numbered run without a manifest, quiet
runs and progress bars on standard error, through click's runner and a real
terminal."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from sheetgen.cli import cli

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return invoke


def test_render_prints_a_numbered_run_with_a_header_without_a_manifest(run, tmp_path):
    result = run("render", "classic", "--sheets", "20", "--first-serial", "41", "--header", "Club de Lyon")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "wrote out/classic.pdf (3 pages, 20 sheets, No. 000041 to 000060, seed 1)\n"
    pdf = pdfium.PdfDocument((tmp_path / "out" / "classic.pdf").read_bytes())
    texts = [page.get_textpage().get_text_range() for page in pdf]
    assert [text.count("Club de Lyon") for text in texts] == [8, 8, 4]
    assert [text.count("No. 0000") for text in texts] == [8, 8, 4]


def test_serial_alone_numbers_from_1_and_the_order_can_be_the_pages(run):
    result = run("render", "classic", "--sheets", "9", "--serial", "--serial-order", "page", "-q")
    assert (result.exit_code, result.output) == (0, "")
    text = "".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(Path("out/classic.pdf")))
    assert text.count("No. 0000") == 9 and text.index("No. 000002") < text.index("No. 000003")


def manifest_error(tmp_path: Path, manifest: str) -> str:
    """What a manifest says is wrong, after the place."""
    (tmp_path / "m.yaml").write_text(manifest)
    result = CliRunner().invoke(cli, ["batch", str(tmp_path / "m.yaml")])
    assert result.exit_code == 1
    return result.stderr.split(": ", 3)[-1].rstrip("\n")


# (render's arguments, a manifest that gives the same value)
SAME_CHECKS = [
    (("--sheets", "0"), "jobs: [{grid: classic, sheets: 0}]"),
    (("--sheets", "80001"), "jobs: [{grid: classic, sheets: 80001}]"),
    (("--sheets", "2 pages"), "jobs: [{grid: classic, sheets: 2 pages}]"),
    (("--header", "x" * 81), f"jobs: [{{grid: classic, sheets: 8, header: {'x' * 81}}}]"),
    (("--header", " "), "jobs: [{grid: classic, sheets: 8, header: ' '}]"),
    (("--header", "Łódź"), "jobs: [{grid: classic, sheets: 8, header: Łódź}]"),
    (("--header", "W" * 70, "--serial"), f"jobs: [{{grid: classic, sheets: 8, serial: true, header: {'W' * 70}}}]"),
    (("--first-serial", "1000000"), "first_serial: 1000000\njobs: [{grid: classic, sheets: 8, serial: true}]"),
    (("--first-serial", "-1"), "first_serial: -1\njobs: [{grid: classic, sheets: 8, serial: true}]"),
]


@pytest.mark.parametrize("args, manifest", SAME_CHECKS, ids=[" ".join(a)[:30] for a, _ in SAME_CHECKS])
def test_render_checks_its_job_options_as_a_manifest_does(run, tmp_path, args, manifest):
    expected = manifest_error(tmp_path, manifest)
    result = run("render", "classic", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"sheetgen render: Invalid value for '{args[0]}': {expected} (see 'sheetgen render --help')\n"
    assert not Path("out").exists()


def test_pages_and_sheets_do_not_go_together(run):
    result = run("render", "classic", "--pages", "2", "--sheets", "3")
    assert (result.exit_code, result.stderr) == (
        2, "sheetgen render: give --pages or --sheets, not both (see 'sheetgen render --help')\n")


@pytest.mark.parametrize("args", [("render", "classic"), ("check", str(REPO / "grids" / "classic.yaml")),
                                  ("pack", "-o", "pack")])
def test_quiet_prints_nothing_but_errors(run, args):
    assert run(*args).output != ""
    for quiet in ("-q", "--quiet"):
        result = run(*args, quiet)
        assert (result.exit_code, result.output) == (0, "")


def run_on_a_terminal(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    """Run sheetgen with standard error on a pseudo-terminal and standard
    output on a pipe, the progress bar's delay set to 0: (exit code, stdout, terminal)."""
    pty = pytest.importorskip("pty")
    script = "import sys, sheetgen.cli as c; c.SHOW_PROGRESS_AFTER = 0; sys.argv[0] = 'sheetgen'; c.main()"
    main, child = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", script, *args], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=child, env={**os.environ, "PYTHONPATH": str(REPO)})
    os.close(child)
    terminal = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        terminal += chunk
    stdout = process.stdout.read().decode()
    code = process.wait(timeout=60)
    process.stdout.close()
    os.close(main)
    return code, stdout, terminal.decode()


def test_a_long_render_shows_its_progress_bar_on_standard_error(tmp_path):
    code, stdout, terminal = run_on_a_terminal(tmp_path, "render", "longo", "--pages", "40")
    assert (code, stdout) == (0, "wrote out/longo.pdf (40 pages, 320 sheets, seed 1)\n")
    assert "Printing  [" in terminal and "100%" in terminal and "wrote" not in terminal
    code, stdout, terminal = run_on_a_terminal(tmp_path, "render", "longo", "--pages", "40", "-q")
    assert (code, stdout, terminal) == (0, "", "")
