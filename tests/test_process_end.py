"""How a finished run ends: ``sheetgen.process.end`` flushes standard output and
error and ends the process at once, without the interpreter's teardown.  What
the teardown would have done must not be missed: output down a pipe arrives
whole, exit codes stay, no temporary file is left, and output that only the
last flush finds it cannot write still fails the run."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.grid.load import load_grid
from sheetgen.runs.jobs import Job, render_job

from cli_process import sheetgen_command, sheetgen_env

pytestmark = pytest.mark.slow  # whole processes and how they end: out of the quick tier


def shell(pipeline: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    """``pipeline`` in bash, SHEETGEN standing for the command line; the exit
    code is the first that failed (pipefail)."""
    command = " ".join(shlex.quote(part) for part in sheetgen_command())
    return subprocess.run(["bash", "-c", f"set -o pipefail; SHEETGEN() {{ {command} \"$@\"; }}; {pipeline}"],
                          cwd=cwd, env=sheetgen_env(**env), capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "unbuffered"])
def test_a_pdf_down_a_pipe_is_the_file(tmp_path, unbuffered):
    """`sheetgen render classic -o - | cmp - classic.pdf`; and a PDF many times
    a pipe's buffer, so that the run waits on its reader before it ends."""
    assert shell("SHEETGEN render classic -o classic.pdf -q", tmp_path).returncode == 0
    done = shell("SHEETGEN render classic -o - | cmp - classic.pdf", tmp_path, PYTHONUNBUFFERED=unbuffered)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "wrote standard output (1 page, 8 sheets)\n")
    (tmp_path / "longo.pdf").write_bytes(render_job(Job(load_grid("longo"), sheets=8 * 400, first_serial=1)))
    assert (tmp_path / "longo.pdf").stat().st_size > 4 * 65536
    done = shell("SHEETGEN render longo --pages 400 --serial -o - | (sleep 0.5; cmp - longo.pdf)", tmp_path,
                 PYTHONUNBUFFERED=unbuffered)
    assert (done.returncode, done.stdout) == (0, ""), done.stderr
    assert done.stderr.startswith("wrote standard output (400 pages, 3,200 sheets, No. 000001 to 003200")


@pytest.mark.parametrize("args", [("schema",), ("show", "longo"), ("list",)], ids=" ".join)
def test_text_down_a_pipe_arrives_whole(tmp_path, args):
    expected = CliRunner().invoke(cli, list(args)).output
    done = shell(f"SHEETGEN {shlex.join(args)} | (sleep 0.2; cat)", tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")


@pytest.mark.parametrize(("pipeline", "code"), [
    ("SHEETGEN render nosuch -o - | cat", 1),
    ("SHEETGEN render classic --pages 0 -o - | cat", 2),
    ("SHEETGEN check classic longo | cat", 0),
])
def test_exit_codes_come_through_a_pipe(tmp_path, pipeline, code):
    assert shell(pipeline, tmp_path).returncode == code


def test_a_finished_run_leaves_no_temporary_file(tmp_path):
    """Files written, a PDF down a pipe, a simulation in two processes with a heatmap:
    nothing in the temporary folder, nothing but the outputs in the current one."""
    temporary = tmp_path / "tmp"
    work = tmp_path / "work"
    temporary.mkdir()
    work.mkdir()
    for pipeline in ("SHEETGEN render longo --serial -o sheets.pdf -q",
                     "SHEETGEN render classic -o - -q | cat > piped.pdf",
                     "SHEETGEN counter classic -o counter.html -q",
                     "SHEETGEN simulate classic --games 2000 --jobs 2 --heatmap heat.png > report.txt"):
        done = shell(pipeline, work, TMPDIR=str(temporary))
        assert done.returncode == 0, (pipeline, done.stderr)
    assert sorted(p.name for p in temporary.iterdir()) == []
    assert sorted(p.name for p in work.iterdir()) == ["counter.html", "heat.png", "piped.pdf", "report.txt",
                                                       "sheets.pdf"]


END_WITH_FULL_OUTPUT = """
import errno, io, sys
from sheetgen.process import StandardOutput, end

class Full(io.RawIOBase):
    def writable(self):
        return True
    def write(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

sys.stdout = StandardOutput(io.TextIOWrapper(io.BufferedWriter(Full(), 1 << 16)))
sys.stdout.write("held in the buffer until the end")
end(0)
"""


def test_output_that_only_the_last_flush_cannot_write_fails_the_run(tmp_path):
    done = subprocess.run([sys.executable, "-c", END_WITH_FULL_OUTPUT], cwd=tmp_path, env=sheetgen_env(),
                          capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stderr) == (1, "sheetgen: standard output: cannot be written (No space left on device)\n")


def test_a_message_as_exit_code_is_one_line_and_exit_1(tmp_path):
    done = subprocess.run([sys.executable, "-c", "from sheetgen.process import end; end('stopped: <why>')"],
                          cwd=tmp_path, env=sheetgen_env(), capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "sheetgen: stopped: <why>\n")
