"""Outputs are checked before any work (``output.check_output``): a name or
path too long, a symbolic link loop, a folder that cannot be written or made,
too little free space; and files written together (a batch, the pack) are
written whole or not at all (``output.Together``): a run that fails leaves
the files of an earlier run as they were.

"Before any work" is shown, not timed: in the child the work itself is
replaced by a bug (exit 3), so a refusal that came after it would not be the
one line and exit 1 the tests expect.  The cases a user without root's rights
meets run as the user nobody; those of real file systems on a tmpfs mounted
for the test (both need root, which CI has).
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from sheetgen.errors import OutputError
from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.runs import output
from sheetgen.runs.jobs import LEAST_PAGE_BYTES, LEAST_PDF_BYTES, Job, least_bytes, page_plan, render_job
from sheetgen.runs.output import Together, check_output
from sheetgen.runs.pack import Pack, build_pack
from sheetgen.sheet.plan import SIZES

from cli_process import run_sheetgen
from test_faults import AS_NOBODY, disk  # noqa: F401  (disk: the tmpfs fixture)

WORK_IS_A_BUG = """
import sheetgen.runs.jobs, sheetgen.runs.pack, sheetgen.runs.batch
def work(*args, **kwargs):
    raise RuntimeError("the work started before the output was checked")
sheetgen.runs.jobs.render_job = sheetgen.runs.batch.render_job = sheetgen.runs.pack.pack_files = work
"""
MANIFEST = "jobs:\n  - {grid: classic, sheets: 8, file: a.pdf}\n  - {grid: longo, sheets: 400, file: b.pdf}\n"
TOO_LONG = "a" * 300
# What each command is given to write into FOLDER, and what it then writes there.
COMMANDS = {
    "render": (("render", "longo", "--pages", "1000", "-o", "FOLDER/c.pdf"), "FOLDER/c.pdf"),
    "batch": (("batch", "club.yaml", "-o", "FOLDER/"), "FOLDER/a.pdf"),
    "pack": (("pack", "-o", "FOLDER"), "FOLDER/pdf/disorder-en-standard-colour-marks-letter.pdf"),
}


def refused_before_the_work(cwd: Path, command: str, folder: str, prelude: str = "") -> str:
    """The one line ``command`` writing into ``folder`` fails with (exit 1), before any work."""
    (cwd / "club.yaml").write_text(MANIFEST)
    args = [arg.replace("FOLDER", folder) for arg in COMMANDS[command][0]]
    run = run_sheetgen(*args, cwd=cwd, prelude=prelude + WORK_IS_A_BUG)
    assert run.code == 1, run.stderr
    return run.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_a_name_too_long_is_refused_before_the_work(tmp_path, command):
    target = COMMANDS[command][1].replace("FOLDER", TOO_LONG)
    assert refused_before_the_work(tmp_path, command, TOO_LONG) == (
        f"sheetgen: {target}: cannot be written (File name too long)\n")
    assert sorted(os.listdir(tmp_path)) == ["club.yaml"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_symbolic_link_loop_is_refused_before_the_work(tmp_path, command):
    (tmp_path / "loop").symlink_to("loop")
    target = COMMANDS[command][1].replace("FOLDER", "loop")
    assert refused_before_the_work(tmp_path, command, "loop") == (
        f"sheetgen: {target}: cannot be written (Too many levels of symbolic links)\n")


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_folders_a_user_may_not_write_to_are_refused_before_the_work(tmp_path, command):
    """As the user nobody: a folder that cannot be searched, and one that is root's."""
    tmp_path.chmod(0o777)
    (tmp_path / "closed").mkdir(mode=0o700)
    (tmp_path / "closed").chmod(0o700)  # root's, and nobody may not even look inside
    (tmp_path / "roots").mkdir(mode=0o755)
    (tmp_path / "roots").chmod(0o755)  # nobody may look, not write
    as_nobody = "import encodings.utf_8_sig\n" + AS_NOBODY  # a manifest is read in it; Python's library may be root's
    target = Path(COMMANDS[command][1].replace("FOLDER", "closed"))
    assert refused_before_the_work(tmp_path, command, "closed", as_nobody) == (
        f"sheetgen: {target}: cannot be written (Permission denied)\n")
    first = Path(COMMANDS[command][1].replace("FOLDER", "roots/new")).relative_to("roots").parts[0]
    assert refused_before_the_work(tmp_path, command, "roots/new", as_nobody) == (
        f"sheetgen: roots/{first}: cannot create the output folder (Permission denied)\n")
    assert os.listdir(tmp_path / "roots") == []


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_a_read_only_or_full_disk_is_refused_before_the_work(tmp_path, disk, command):  # noqa: F811
    read_only = disk(1024)
    assert subprocess.run(["mount", "-o", "remount,ro", str(read_only)]).returncode == 0
    where = f"{read_only}: cannot write here" if command != "pack" else f"{read_only}/new: cannot create the output folder"
    folder = str(read_only) if command != "pack" else f"{read_only}/new"
    assert refused_before_the_work(tmp_path, command, folder) == f"sheetgen: {where} (Read-only file system)\n"
    tiny = disk(16)  # KiB: less than any of them needs at the least
    stderr = refused_before_the_work(tmp_path, command, str(tiny))
    assert stderr.startswith(f"sheetgen: {tiny}: not enough free space (needs at least ") and "has 16 KiB" in stderr
    assert os.listdir(tiny) == []


def test_the_least_a_run_needs_is_less_than_any_pdf_takes():
    """The free-space check must never refuse what would fit: every grid and
    size takes more than LEAST_PDF_BYTES for a page and LEAST_PAGE_BYTES for
    each page more."""
    for name in builtin_names():
        grid = load_grid(name)
        for size in SIZES.values():
            job = Job(grid, size=size)
            per_page = page_plan(job).per_page
            one, three = (len(render_job(Job(grid, size=size, sheets=n * per_page))) for n in (1, 3))
            assert one > LEAST_PDF_BYTES, (name, size.name)
            assert three - one > 2 * LEAST_PAGE_BYTES, (name, size.name)
            assert least_bytes(Job(grid, size=size, sheets=3 * per_page)) < three


def test_the_least_the_pack_needs_is_less_than_it_takes(tmp_path):
    pack = Pack(grids=("classic", "bis"), langs=("en", "fr"))
    written = build_pack(tmp_path, pack)
    assert pack.least_bytes < sum(path.stat().st_size for path in written)


# -- written together: all or none ---------------------------------------------------


def test_files_written_together_appear_only_when_all_are_written(tmp_path):
    (tmp_path / "b.pdf").write_bytes(b"earlier b")
    together = Together()
    together.add(tmp_path / "a.pdf", b"new a")
    together.add(tmp_path / "sub" / "c.pdf", b"new c")
    together.add(tmp_path / "b.pdf", b"new b")
    assert not (tmp_path / "a.pdf").exists() and (tmp_path / "b.pdf").read_bytes() == b"earlier b"
    assert together.commit() == [tmp_path / "a.pdf", tmp_path / "sub" / "c.pdf", tmp_path / "b.pdf"]
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.pdf", "b.pdf", "c.pdf", "sub"]
    assert (tmp_path / "b.pdf").read_bytes() == b"new b"


def test_a_file_that_fails_discards_them_all_and_the_folders_made(tmp_path, monkeypatch):
    (tmp_path / "b.pdf").write_bytes(b"earlier b")
    real = os.write
    calls = []

    def third_fails(fd, data):
        calls.append(fd)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(output, "os", type("Os", (), {"__getattr__": lambda self, name: third_fails if name == "write"
                                                      else getattr(os, name)})())
    with pytest.raises(OutputError, match="cannot be written \\(No space left on device\\)"):
        with Together() as together:
            for name in ("a.pdf", "new/c.pdf", "b.pdf"):
                together.add(tmp_path / name, b"new")
    assert sorted(os.listdir(tmp_path)) == ["b.pdf"]
    assert (tmp_path / "b.pdf").read_bytes() == b"earlier b"


def test_a_ctrl_c_while_files_get_their_names_waits_until_all_have_them(tmp_path, monkeypatch):
    real = os.replace

    def interrupted_first(*args):
        if not (tmp_path / "a.pdf").exists():
            # held back until the last name is given; sent to this thread, as a terminal's Ctrl-C reaches
            # a one-thread sheetgen (os.kill could wake another thread of the test runner, which holds nothing)
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        return real(*args)

    together = Together()
    for name in ("a.pdf", "b.pdf", "c.pdf"):
        together.add(tmp_path / name, b"data")
    monkeypatch.setattr(output, "os", type("Os", (), {"__getattr__": lambda self, name: interrupted_first
                                                      if name == "replace" else getattr(os, name)})())
    with pytest.raises(KeyboardInterrupt):
        together.commit()
    assert sorted(os.listdir(tmp_path)) == ["a.pdf", "b.pdf", "c.pdf"]


def test_what_a_killed_run_left_waiting_is_removed_by_the_next_write(tmp_path):
    together = Together()
    together.add(tmp_path / "a.pdf", b"data")  # and never committed: as if killed here
    assert len(os.listdir(tmp_path)) == 1 and not (tmp_path / "a.pdf").exists()
    output.write_atomic(tmp_path / "next.pdf", b"next")
    assert os.listdir(tmp_path) == ["next.pdf"]


@pytest.mark.slow
def test_a_batch_that_runs_out_of_space_leaves_the_earlier_files_as_they_were(tmp_path, disk):  # noqa: F811
    folder = disk(48)  # KiB: room for a.pdf (11 KiB) beside the earlier one, not for b.pdf (44 KiB) too
    (folder / "a.pdf").write_bytes(b"%PDF- the earlier a")
    (tmp_path / "club.yaml").write_text(MANIFEST)
    run = run_sheetgen("batch", "club.yaml", "-o", str(folder), cwd=tmp_path)
    assert (run.code, run.stderr) == (1, f"sheetgen: {folder}/b.pdf: cannot be written (No space left on device);"
                                         " batch stopped, no file written\n")
    assert os.listdir(folder) == ["a.pdf"]
    assert (folder / "a.pdf").read_bytes() == b"%PDF- the earlier a"


def test_check_output_says_what_the_write_would_say(tmp_path):
    (tmp_path / "file").write_text("")
    cases = {
        tmp_path / "file" / "c.pdf": f"{tmp_path / 'file'}: is a file, expected a folder to write",
        tmp_path / ("n" * 256 + ".pdf"): "cannot be written (File name too long)",
        tmp_path / "new" / ("n" * 256) / "c.pdf": "cannot be written (File name too long)",
    }
    for target, message in cases.items():
        with pytest.raises(OutputError, match=message.replace("(", "\\(").replace(")", "\\)")):
            check_output(target)
    assert check_output(tmp_path / "new" / "deeper" / "c.pdf", 1024) is False
    assert not (tmp_path / "new").exists()  # checking makes nothing
