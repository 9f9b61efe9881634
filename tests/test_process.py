"""The process around a command (``sheetgen.process``): a Ctrl-C while the
program is still starting, standard streams closed from the start, and the
end of a run, which skips the interpreter's teardown but never the work
registered for the exit (atexit), and takes the interpreter's own exit when
something watches the run (coverage) or SHEETGEN_FULL_EXIT is set."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sheetgen.grid.load import load_grid
from sheetgen.runs.jobs import Job, render_job

from cli_process import ROOT, sheetgen_command, sheetgen_env

CLASSIC = render_job(Job(load_grid("classic")))

# In the child: stop while the commands are being imported (at click, the
# first outside library they load), until a line comes on standard input.
PAUSE_WHILE_STARTING = """
import sys
class Pause:
    def find_spec(self, name, path=None, target=None):
        if name == "click":
            print("starting", flush=True)
            sys.stdin.readline()
        return None
sys.meta_path.insert(0, Pause())
"""


@pytest.mark.slow
def test_ctrl_c_while_the_program_starts_is_one_line_and_exit_130(tmp_path):
    child = subprocess.Popen(sheetgen_command("render", "classic", prelude=PAUSE_WHILE_STARTING), cwd=tmp_path,
                             env=sheetgen_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "starting\n", child.stderr.read()
        child.send_signal(signal.SIGINT)
        child.wait(30)  # stdin stays open: the child may only go on by being interrupted
        stdout, stderr = child.stdout.read(), child.stderr.read()
    finally:
        child.kill()
        child.communicate()
    assert (child.returncode, stderr, stdout) == (130, "sheetgen: interrupted\n", "")
    assert os.listdir(tmp_path) == []


def run_with_closed(tmp_path: Path, closed: tuple[int, ...], *args: str, stdout=None) -> subprocess.CompletedProcess:
    """``sheetgen ARGS`` started with the descriptors ``closed`` closed (``<&- >&- 2>&-``)."""
    def close() -> None:
        for fd in closed:
            os.close(fd)

    return subprocess.run(sheetgen_command(*args), cwd=tmp_path, env=sheetgen_env(), preexec_fn=close,
                          stdout=stdout if stdout is not None else subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, timeout=60)


@pytest.mark.slow
@pytest.mark.parametrize("closed", [(0, 1, 2), (1,), (1, 2)], ids=["all", "stdout", "stdout-stderr"])
def test_with_standard_streams_closed_a_file_is_written_whole_and_the_run_succeeds(tmp_path, closed):
    """The summary line is what the run says it did, not its work: with nowhere
    to go it is dropped.  Nothing the run opens takes the number of a closed
    stream, so nothing meant for it lands in the PDF."""
    done = run_with_closed(tmp_path, closed, "render", "classic", "-o", "c.pdf")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "c.pdf").read_bytes() == CLASSIC
    assert os.listdir(tmp_path) == ["c.pdf"]


def test_no_file_a_run_opens_takes_the_number_of_a_closed_stream(tmp_path):
    """Else what is meant for that stream (a child's output, a library's
    message) would land in the file."""
    child = ("import os\nfrom sheetgen import process\nprocess.start()\n"
             "fd = os.open('opened', os.O_WRONLY | os.O_CREAT)\nos.write(fd, str(fd).encode())\n")
    done = subprocess.run([sys.executable, "-c", child], cwd=tmp_path, env=sheetgen_env(), timeout=60,
                          preexec_fn=lambda: (os.close(1), os.close(2)))
    assert done.returncode == 0
    assert int((tmp_path / "opened").read_text()) > 2


@pytest.mark.slow
def test_a_summary_that_a_full_output_cannot_take_is_dropped(tmp_path):
    with open("/dev/full", "w") as full:
        done = run_with_closed(tmp_path, (), "render", "classic", "-o", "c.pdf", stdout=full)
    assert (done.returncode, done.stderr) == (0, b"")
    assert (tmp_path / "c.pdf").read_bytes() == CLASSIC


def test_what_a_command_produces_still_fails_the_run_on_a_closed_output(tmp_path):
    done = run_with_closed(tmp_path, (1,), "list")
    assert (done.returncode, done.stderr) == (1, b"sheetgen: standard output: cannot be written (Bad file descriptor)\n")


# -- the end of a run ------------------------------------------------------------

# In the child: an object that leaves a file when the interpreter tears the
# program down, and (with AT_EXIT) work registered for the exit.
TEARDOWN_MARK = """
class Mark:
    def __del__(self, open=open):  # the builtins may be gone by then
        open("torn-down", "w").close()
mark = Mark()
"""
AT_EXIT = """
import atexit
atexit.register(lambda: open("at-exit", "w").close())
"""
TRACED = "import sys\nsys.settrace(lambda *args: None)\n"


@pytest.mark.parametrize(("prelude", "env", "left"), [
    (TEARDOWN_MARK + AT_EXIT, {}, ["at-exit"]),  # the quick end: no teardown, but what is registered for the exit
    pytest.param(TEARDOWN_MARK, {"SHEETGEN_FULL_EXIT": "1"}, ["torn-down"], marks=pytest.mark.slow),
    pytest.param(TEARDOWN_MARK + TRACED, {}, ["torn-down"], marks=pytest.mark.slow),  # watched: the interpreter's exit
], ids=["quick", "asked-for", "traced"])
def test_a_run_ends_quickly_unless_asked_or_watched_and_never_drops_exit_work(tmp_path, prelude, env, left):
    done = subprocess.run(sheetgen_command("list", prelude=prelude), cwd=tmp_path, env=sheetgen_env(**env),
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("classic ")
    assert sorted(os.listdir(tmp_path)) == left


@pytest.mark.slow
def test_coverage_run_writes_its_data(tmp_path):
    """`coverage run -m sheetgen list`: coverage saves its data at the exit."""
    pytest.importorskip("coverage")
    done = subprocess.run([sys.executable, "-m", "coverage", "run", f"--source={ROOT / 'sheetgen'}", "-m", "sheetgen",
                           "list"], cwd=tmp_path, env=sheetgen_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / ".coverage").stat().st_size > 0
    report = subprocess.run([sys.executable, "-m", "coverage", "report", "--include=*/sheetgen/cli.py"], cwd=tmp_path,
                            env=sheetgen_env(), capture_output=True, text=True, timeout=120)
    assert "cli.py" in report.stdout, report.stdout + report.stderr


def test_the_program_is_started_by_a_module_that_imports_nothing_heavy():
    """`sheetgen` starts at sheetgen.__main__, which imports the commands only
    once a Ctrl-C can no longer print a traceback."""
    done = subprocess.run([sys.executable, "-c", "import sys, sheetgen.__main__; print(sorted(m for m in sys.modules"
                           " if m.startswith(('click', 'sheetgen', 'yaml', 'reportlab'))))"],
                          env=sheetgen_env(), capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "['sheetgen', 'sheetgen.__main__', 'sheetgen.errors', 'sheetgen.process', 'sheetgen.words']"
    assert shutil.which("sheetgen") is None or "sheetgen.__main__" in Path(shutil.which("sheetgen")).read_text()
