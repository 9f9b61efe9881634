"""Faults: a run that fails or is killed at any point leaves the previous
output file as it was and no partial file beside it; a bug in sheetgen is one
line asking for a report (exit 3), never a traceback unless asked for.

Failures are injected three ways: by patching the library in this process
(every step of writing fails in turn), by patching it in a child process
(``prelude``) that is then killed, and by real file systems that are full or
read-only (tmpfs mounts; skipped with the reason when mounting is not allowed).
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli_process import run_sheetgen, sheetgen_command, sheetgen_env
from sheetgen.runs import output
from sheetgen.cli import cli
from sheetgen.errors import OutputError
from sheetgen.runs.pack import Pack, build_pack

PREVIOUS = b"%PDF-1.4 the previous run's sheets\n%%EOF\n"


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """An output folder holding the previous run's c.pdf."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "c.pdf").write_bytes(PREVIOUS)
    return folder


def has_unnamed_files(folder: Path) -> bool:
    """Whether write_atomic can write unnamed temporary files in ``folder``."""
    handle = output._open_unnamed(folder)
    if handle is not None:
        os.close(handle)
    return handle is not None


def assert_untouched(folder: Path) -> None:
    assert sorted(os.listdir(folder)) == ["c.pdf"], "a partial or temporary file was left behind"
    assert (folder / "c.pdf").read_bytes() == PREVIOUS


# -- bugs -----------------------------------------------------------------------

BUG = """
import sheetgen.runs.jobs
def bug(*args, **kwargs):
    raise RuntimeError('bug\\non two lines')
sheetgen.runs.jobs.render_job = bug
"""


def test_a_bug_is_one_line_asking_for_a_report_and_exit_3(tmp_path):
    run = run_sheetgen("render", "classic", cwd=tmp_path, prelude=BUG)
    assert (run.code, run.stderr) == (3, (
        "sheetgen: internal error, please report: RuntimeError: bug on two lines"
        " (SHEETGEN_DEBUG=1 shows the traceback)\n"))
    assert not (tmp_path / "out").exists()


def test_sheetgen_debug_shows_the_traceback_of_a_bug(tmp_path):
    run = run_sheetgen("render", "classic", cwd=tmp_path, prelude=BUG, env=sheetgen_env(SHEETGEN_DEBUG="1"))
    assert run.code == 3
    assert run.stderr.startswith("Traceback (most recent call last):")
    assert "in bug" in run.stderr
    assert run.stderr.endswith("\nsheetgen: internal error, please report: RuntimeError: bug on two lines\n")


def test_output_read_by_nobody_ends_quietly(tmp_path):
    """`sheetgen list | head -1`: the reader closes the pipe; no error, no traceback."""
    reader, writer = os.pipe()
    os.close(reader)
    with open(writer, "wb") as stdout:
        done = subprocess.run(sheetgen_command("list"), cwd=tmp_path, env=sheetgen_env(), stdout=stdout,
                              stderr=subprocess.PIPE, timeout=30)
    assert (done.returncode, done.stderr) == (1, b"")


# -- a write that fails at any step -----------------------------------------------

ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
# Each step of write_atomic, as the name it calls ("fdopen" fails on the first
# write), with an unnamed temporary file and with a named one (never linked).
STEPS = [(step, True) for step in ("fdopen", "fsync", "chmod", "link", "replace")] + [
    (step, False) for step in ("fdopen", "fsync", "chmod", "replace")]


class _FailingStream:
    def __init__(self, stream):
        self.stream = stream

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stream.close()

    def write(self, data):
        raise ENOSPC

    def __getattr__(self, name):
        return getattr(self.stream, name)


@pytest.mark.parametrize(("step", "unnamed"), STEPS, ids=[f"{s}-{'un' if u else ''}named" for s, u in STEPS])
def test_a_failing_write_step_leaves_the_previous_file(out, monkeypatch, step, unnamed):
    if unnamed and not has_unnamed_files(out):
        pytest.skip("no unnamed temporary files on this system (Linux O_TMPFILE)")
    if not unnamed:
        monkeypatch.setattr(output, "_open_unnamed", lambda folder: None)
    real = getattr(os, step)

    def failing(*args, **kwargs):
        if step == "fdopen":
            return _FailingStream(real(*args, **kwargs))
        raise ENOSPC

    monkeypatch.setattr(os, step, failing)
    target = out / "c.pdf"
    result = CliRunner().invoke(cli, ["render", "classic", "-o", str(target)])
    assert result.exit_code == 1
    assert result.stderr == f"sheetgen: {target}: cannot be written (No space left on device)\n"
    assert_untouched(out)


def test_while_writing_the_temporary_file_has_no_name(out, monkeypatch):
    if not has_unnamed_files(out):
        pytest.skip("no unnamed temporary files on this system (Linux O_TMPFILE)")
    seen = []
    real = os.fsync

    def looking(handle):
        seen.append(sorted(os.listdir(out)))
        return real(handle)

    monkeypatch.setattr(os, "fsync", looking)
    assert CliRunner().invoke(cli, ["render", "classic", "-o", str(out / "c.pdf")]).exit_code == 0
    assert seen[0] == ["c.pdf"]
    assert sorted(os.listdir(out)) == ["c.pdf"] and (out / "c.pdf").read_bytes() != PREVIOUS


# -- killed -----------------------------------------------------------------------

# In the child: announce the data is written, then wait to be killed before the rename.
PAUSE_BEFORE_RENAME = """
import os, sys, time
real = os.fsync
def pause(handle):
    real(handle)
    print("written", flush=True)
    time.sleep(60)
os.fsync = pause
"""


def test_killed_while_writing_leaves_the_previous_file(out):
    if not has_unnamed_files(out):
        pytest.skip("no unnamed temporary files on this system (Linux O_TMPFILE): a killed run leaves its .part")
    child = subprocess.Popen(sheetgen_command("render", "longo", "--pages", "200", "-o", str(out / "c.pdf"),
                                              prelude=PAUSE_BEFORE_RENAME),
                             cwd=out, env=sheetgen_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert child.stdout.readline() == b"written\n", child.stderr.read()
    finally:
        child.kill()
        child.communicate()
    assert child.returncode == -signal.SIGKILL
    assert_untouched(out)


@pytest.mark.parametrize("after", [0.05, 0.15, 0.3, 0.6])
def test_killed_at_any_moment_leaves_the_old_file_or_the_new_one(out, after):
    child = subprocess.Popen(sheetgen_command("render", "longo", "--pages", "3000", "-o", str(out / "c.pdf")),
                             cwd=out, env=sheetgen_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        child.wait(after)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGKILL)
        child.wait()
    data = (out / "c.pdf").read_bytes()
    assert data == PREVIOUS or (data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF"))
    leftovers = [name for name in os.listdir(out) if name != "c.pdf"]
    assert not leftovers or not has_unnamed_files(out), leftovers


# -- a batch or a pack that stops half way ----------------------------------------

MANIFEST = """jobs:
  - {grid: classic, sheets: 8, file: a.pdf}
  - {grid: longo, sheets: 8, file: b.pdf}
  - {grid: bis, sheets: 8, file: c.pdf}
"""


def test_a_batch_stopped_half_way_says_what_was_written(tmp_path):
    (tmp_path / "club.yaml").write_text(MANIFEST)
    (tmp_path / "out" / "b.pdf").mkdir(parents=True)  # in the way of the second job's file
    run = run_sheetgen("batch", "club.yaml", "-o", "out", "--quiet", cwd=tmp_path)
    assert (run.code, run.stderr) == (1, "sheetgen: out/b.pdf: is a folder, expected a file name;"
                                         " batch stopped, written: a.pdf; not written: b.pdf, c.pdf\n")
    assert sorted(os.listdir(tmp_path / "out")) == ["a.pdf", "b.pdf"]
    assert (tmp_path / "out" / "a.pdf").read_bytes().startswith(b"%PDF-")


def test_a_pack_stopped_half_way_says_how_much_was_written(tmp_path):
    (tmp_path / "pdf" / "classic-en-a4.pdf").mkdir(parents=True)  # in the way of the third file
    with pytest.raises(OutputError) as caught:
        build_pack(tmp_path, Pack(grids=("classic",), langs=("en",), papers=("a4",)))
    assert str(caught.value) == (
        f"{tmp_path}/pdf/classic-en-a4.pdf: is a folder, expected a file name;"
        " pack stopped: 2 of 5 files written, the other 3 missing or left from an earlier pack")
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["SHA256SUMS", "index.html"]


# -- real file systems: full, read-only -------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 64 KiB tmpfs holding the previous run's c.pdf; unmounted afterwards."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0755", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.strip() or 'mount failed'}): needs root")
    try:
        (folder / "c.pdf").write_bytes(PREVIOUS)
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def test_a_full_disk_leaves_the_previous_file(small_disk):
    target = small_disk / "c.pdf"
    run = run_sheetgen("render", "longo", "--pages", "100", "-o", str(target), cwd=small_disk.parent)
    assert (run.code, run.stderr) == (1, f"sheetgen: {target}: cannot be written (No space left on device)\n")
    assert_untouched(small_disk)
    free = os.statvfs(small_disk)
    assert free.f_bfree == free.f_blocks - 1, "the failed write still holds disk space"


def test_a_read_only_folder_leaves_the_previous_file(small_disk):
    remounted = subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], capture_output=True, text=True)
    if remounted.returncode != 0:
        pytest.skip(f"cannot remount read-only ({remounted.stderr.strip()})")
    run = run_sheetgen("render", "classic", "-o", str(small_disk / "c.pdf"), cwd=small_disk.parent)
    assert (run.code, run.stderr) == (1, f"sheetgen: {small_disk}: cannot write here (Read-only file system)\n")
    assert_untouched(small_disk)
