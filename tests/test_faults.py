"""Faults: a run that fails, is interrupted or is killed at any point leaves
the previous output file as it was and, once the next run has written into
the same folder, nothing beside it; every ordinary condition of the system
(a full disk, a read-only or append-only folder, a closed output, a missing
permission, a name too long) is one line and exit 1; a bug in sheetgen is
one line asking for a report (exit 3), never a traceback unless asked for.

Failures are injected four ways: by patching the library in this process
(every step of writing fails in turn), by patching it in a child process
(``prelude``) that then kills itself at that step, by strace's fault
injection in the system calls themselves, and by real file systems that are
full, read-only or append-only (a tmpfs mount, chattr; as root, as CI runs).
Cases about permissions run as the user nobody (uid 65534) in a child that
drops root's rights after loading what it needs.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.errors import OutputError
from sheetgen.grid.load import load_grid
from sheetgen.runs import output
from sheetgen.runs.jobs import Job, render_job
from sheetgen.runs.pack import Pack, build_pack

from cli_process import run_sheetgen, sheetgen_command, sheetgen_env
from conftest import need_tool

pytestmark = pytest.mark.slow  # fault tests: processes killed, disks filled, users without rights: out of the quick tier

PREVIOUS = b"%PDF-1.4 the previous run's sheets\n%%EOF\n"
CLASSIC = render_job(Job(load_grid("classic")))  # what `sheetgen render classic` writes


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """An output folder holding the previous run's c.pdf."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "c.pdf").write_bytes(PREVIOUS)
    return folder


def has_unnamed_files(folder: Path) -> bool:
    """Whether write_atomic can write unnamed temporary files in ``folder``."""
    here = os.open(folder, os.O_RDONLY)
    try:
        handle = output._open_unnamed(here)
    finally:
        os.close(here)
    if handle is not None:
        os.close(handle)
    return handle is not None


def others(folder: Path, *keep: str) -> list[str]:
    return sorted(set(os.listdir(folder)) - {"c.pdf", *keep})


def assert_untouched(folder: Path) -> None:
    assert others(folder) == [], "a partial or temporary file was left behind"
    assert (folder / "c.pdf").read_bytes() == PREVIOUS


def write_again(folder: Path) -> None:
    """The next run into ``folder``: it removes what killed runs left."""
    output.write_atomic(folder / "next.pdf", b"%PDF-next")
    os.unlink(folder / "next.pdf")


class PatchedOs:
    """The os module as ``sheetgen.runs.output`` sees it, with some calls replaced."""

    def __init__(self, **calls):
        self.calls = calls

    def __getattr__(self, name):
        return self.calls.get(name) or getattr(os, name)


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


# -- standard output: read by nobody, closed, full --------------------------------


def test_output_read_by_nobody_ends_quietly(tmp_path):
    """`sheetgen list | head -1`: the reader closes the pipe; no error, no traceback."""
    reader, writer = os.pipe()
    os.close(reader)
    with open(writer, "wb") as stdout:
        done = subprocess.run(sheetgen_command("list"), cwd=tmp_path, env=sheetgen_env(), stdout=stdout,
                              stderr=subprocess.PIPE, timeout=30)
    assert (done.returncode, done.stderr) == (141, b"")  # 128 + SIGPIPE, as a shell reports a reader gone


MARKS = "rows: [{crossed: [2, 3]}, {}, {}, {}]\n"
PRINTING = [("list",), ("schema",), ("show", "classic"), ("score", "classic", "m.yaml"), ("--help",),
            ("--version",), ("render", "classic", "-o", "-")]


def run_with_stdout(tmp_path: Path, args: tuple[str, ...], stdout) -> tuple[int, str]:
    (tmp_path / "m.yaml").write_text(MARKS)
    done = subprocess.run(sheetgen_command(*args), cwd=tmp_path, env=sheetgen_env(), stdout=stdout,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, timeout=30,
                          **({"preexec_fn": lambda: os.close(1)} if stdout is None else {}))
    return done.returncode, done.stderr


@pytest.mark.parametrize("args", PRINTING, ids=" ".join)
def test_a_closed_standard_output_is_one_line_and_exit_1(tmp_path, args):
    """`sheetgen list >&-`: as for ls, writing to a closed output is an error."""
    assert run_with_stdout(tmp_path, args, None) == (
        1, "sheetgen: standard output: cannot be written (Bad file descriptor)\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args", PRINTING, ids=" ".join)
def test_a_full_standard_output_is_one_line_and_exit_1(tmp_path, args):
    """`sheetgen --help > /dev/full`"""
    with open("/dev/full", "w") as full:
        assert run_with_stdout(tmp_path, args, full) == (
            1, "sheetgen: standard output: cannot be written (No space left on device)\n")


# -- interrupted ------------------------------------------------------------------

# In the child: stop just after write_atomic's call STEP until a line comes on stdin.
PAUSE_AT = """
import os, sys
import sheetgen.runs.output as output
STEP = sys.argv.pop(1)
real = getattr(os, STEP)
def pause(*args, **kwargs):
    result = real(*args, **kwargs)
    print("paused", flush=True)
    sys.stdin.readline()
    return result
output.os = type("PatchedOs", (), {"__getattr__": lambda self, name: pause if name == STEP else getattr(os, name)})()
"""


@pytest.mark.parametrize("step", ["fsync", "link"])
def test_ctrl_c_is_one_line_exit_130_and_leaves_the_previous_file(out, step):
    """Interrupted with the data written (fsync), or with its hidden name made (link)."""
    child = subprocess.Popen(sheetgen_command(step, "render", "classic", "-o", "c.pdf", prelude=PAUSE_AT), cwd=out,
                             env=sheetgen_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "paused\n", child.stderr.read()
        if step == "link":
            assert len(others(out)) == 1  # the complete file under its hidden name
        child.send_signal(signal.SIGINT)
        child.wait(30)  # stdin stays open: the child may only go on by being interrupted
        stdout, stderr = child.stdout.read(), child.stderr.read()
    finally:
        child.kill()
        child.communicate()
    assert (child.returncode, stderr, stdout) == (130, "sheetgen: interrupted\n", "")
    assert_untouched(out)


# -- a write that fails at any step -----------------------------------------------

ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
# Each step of write_atomic, as the os function it calls, with an unnamed
# temporary file and with a named one (never linked), replacing c.pdf or new.
STEPS = [(step, unnamed, target) for unnamed, steps in ((True, ("write", "fsync", "link", "replace")),
                                                         (False, ("write", "fsync", "replace")))
         for step in steps for target in ("c.pdf", "new.pdf")
         if not (unnamed and step == "replace" and target == "new.pdf")]  # a new file is linked, not renamed


@pytest.mark.parametrize(("step", "unnamed", "name"), STEPS,
                         ids=[f"{s}-{'un' if u else ''}named-{n}" for s, u, n in STEPS])
def test_a_failing_write_step_leaves_the_previous_file(out, monkeypatch, step, unnamed, name):
    if unnamed and not has_unnamed_files(out):
        pytest.skip("no unnamed temporary files on this system (Linux O_TMPFILE)")
    if not unnamed:
        monkeypatch.setattr(output, "_open_unnamed", lambda here: None)

    def failing(*args, **kwargs):
        raise ENOSPC

    monkeypatch.setattr(output, "os", PatchedOs(**{step: failing}))
    target = out / name
    result = CliRunner().invoke(cli, ["render", "classic", "-o", str(target)])
    assert (result.exit_code, result.stderr) == (1, f"sheetgen: {target}: cannot be written (No space left on device)\n")
    assert_untouched(out)


def test_while_writing_the_temporary_file_has_no_name(out, monkeypatch):
    if not has_unnamed_files(out):
        pytest.skip("no unnamed temporary files on this system (Linux O_TMPFILE)")
    seen = []

    def looking(handle):
        seen.append(sorted(os.listdir(out)))
        return os.fsync(handle)

    monkeypatch.setattr(output, "os", PatchedOs(fsync=looking))
    assert CliRunner().invoke(cli, ["render", "classic", "-o", str(out / "c.pdf")]).exit_code == 0
    assert seen[0] == ["c.pdf"]
    assert sorted(os.listdir(out)) == ["c.pdf"] and (out / "c.pdf").read_bytes() == CLASSIC


# -- killed at every step ---------------------------------------------------------

# In the child: kill itself with SIGKILL just after write_atomic's call STEP
# ("open": the temporary file, "write": half the data, "fsync": the data).
KILL_AT = """
import os, signal, sys
import sheetgen.runs.output as output
STEP, UNNAMED = sys.argv.pop(1), sys.argv.pop(1) == "unnamed"
def kill_after(name, real):
    def call(*args, **kwargs):
        if name == "open" and not (args[1] & os.O_CREAT or args[1] & os.O_TMPFILE == os.O_TMPFILE):
            return real(*args, **kwargs)  # a folder, or a part being looked at
        if name == "write":
            args = (args[0], args[1][: len(args[1]) // 2])
        real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)
    return call
output.os = type("PatchedOs", (), {"__getattr__": lambda self, name:
                                   kill_after(name, getattr(os, name)) if name == STEP else getattr(os, name)})()
if not UNNAMED:
    output._open_unnamed = lambda here: None
"""
KILLS = [(step, unnamed, replacing) for unnamed in (True, False)
         for step in ("open", "write", "fsync") + (("link",) if unnamed else ()) + ("replace",)
         for replacing in (True, False) if not (unnamed and step == "replace" and not replacing)]


def killed_run(folder: Path, step: str, unnamed: bool) -> int:
    child = subprocess.run(sheetgen_command(step, "unnamed" if unnamed else "named", "render", "classic", "-o",
                                            "c.pdf", prelude=KILL_AT),
                           cwd=folder, env=sheetgen_env(), stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    return child.returncode


@pytest.mark.parametrize(("step", "unnamed", "replacing"), KILLS,
                         ids=[f"{s}-{'un' if u else ''}named-{'replacing' if r else 'new'}" for s, u, r in KILLS])
def test_killed_at_any_write_step_leaves_the_old_file_or_the_new_one_and_nothing_else(out, step, unnamed, replacing):
    if unnamed and not has_unnamed_files(out):
        pytest.skip("no unnamed temporary files on this system (Linux O_TMPFILE)")
    if not replacing:
        os.unlink(out / "c.pdf")
    assert killed_run(out, step, unnamed) == -signal.SIGKILL
    done = step == "replace" or (step == "link" and not replacing)
    if done:
        assert (out / "c.pdf").read_bytes() == CLASSIC
    elif replacing:
        assert (out / "c.pdf").read_bytes() == PREVIOUS
    else:
        assert not (out / "c.pdf").exists()
    # What a kill can leave: a named part (no O_TMPFILE), or the complete file
    # under its hidden name between link and rename.  Never anything else.
    left = others(out)
    if done or (unnamed and step != "link"):
        assert left == []
    else:
        assert len(left) == 1 and output.STALE_PART.fullmatch(left[0]), left
        assert left[0].startswith(".c.pdf.")
    write_again(out)
    assert others(out) == [], "the next run into the folder did not remove what the killed one left"
    assert (out / "c.pdf").exists() == (replacing or done)


@pytest.mark.parametrize("syscall", ["rename", "link"])
def test_killed_by_the_system_between_link_and_rename(out, syscall):
    """The system call itself, not Python, is where the kill lands (strace's
    fault injection): the rename that would replace c.pdf, or the link that
    would name a new file."""
    strace = need_tool("strace")
    if syscall == "link":
        os.unlink(out / "c.pdf")
    calls = {"rename": "rename,renameat,renameat2", "link": "link,linkat"}[syscall]
    killed = subprocess.run([strace, "-f", "-qq", "-o", "/dev/null", "-e", f"trace={calls}",
                             "-e", f"inject={calls}:signal=SIGKILL:when=1", *sheetgen_command("render", "classic", "-o", "c.pdf")],
                            cwd=out, env=sheetgen_env(), stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    assert killed.returncode in (-signal.SIGKILL, 128 + signal.SIGKILL), killed.stderr
    if syscall == "rename":
        assert (out / "c.pdf").read_bytes() == PREVIOUS
        [left] = others(out)
        assert (out / left).read_bytes() == CLASSIC  # complete, under its hidden name
    else:
        assert os.listdir(out) == []
    run = run_sheetgen("render", "classic", "-o", "c.pdf", cwd=out)
    assert (run.code, others(out)) == (0, [])
    assert (out / "c.pdf").read_bytes() == CLASSIC


def test_what_a_killed_run_leaves_is_removed_only_when_its_writer_is_gone(out):
    """A part whose writer still runs (it holds its lock) is left alone; a
    file of another naming is never touched."""
    import fcntl

    live, dead, mine = out / ".c.pdf.0123abcd.part", out / ".c.pdf.89abcdef.part", out / ".c.pdf.part"
    for path in (live, dead, mine):
        path.write_bytes(b"%PDF-")
    with open(live, "rb") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        write_again(out)
        assert others(out) == [live.name, mine.name]
    write_again(out)
    assert others(out) == [mine.name]


# -- two writers at once ----------------------------------------------------------



@pytest.mark.parametrize("replacing", [True, False], ids=["replacing", "new"])
def test_a_second_writer_in_the_same_folder(out, replacing):
    """A writes classic and stops: after its link (its part is named, the
    rename to come) or, for a new file, before its link.  B writes longo to
    the same name meanwhile.  Then A goes on: both succeed, A's file is the one
    left, and nothing else."""
    if not replacing:
        os.unlink(out / "c.pdf")
    step = "link" if replacing else "fsync"
    first = subprocess.Popen(sheetgen_command(step, "render", "classic", "-o", "c.pdf", prelude=PAUSE_AT), cwd=out,
                             env=sheetgen_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert first.stdout.readline() == "paused\n", first.stderr.read()
        second = run_sheetgen("render", "longo", "-o", "c.pdf", cwd=out)
        assert (second.code, second.stderr) == (0, "")
        assert (out / "c.pdf").read_bytes().startswith(b"%PDF-") and (out / "c.pdf").read_bytes() != CLASSIC
        assert len(others(out)) == (1 if replacing else 0)  # A's part, left alone while A runs
        stdout, stderr = first.communicate("go\n", timeout=30)
    finally:
        first.kill()
    assert (first.returncode, stderr) == (0, "")
    assert (out / "c.pdf").read_bytes() == CLASSIC
    assert others(out) == []


# -- a batch or a pack that stops half way ----------------------------------------

MANIFEST = """jobs:
  - {grid: classic, sheets: 8, file: a.pdf}
  - {grid: longo, sheets: 400, file: b.pdf}
  - {grid: bis, sheets: 8, file: c.pdf}
"""


def test_a_batch_stopped_half_way_by_a_full_disk_writes_none_of_its_files(tmp_path, disk):
    folder = disk(40)  # KiB: room for a.pdf (11 KiB), not for b.pdf (44 KiB)
    (tmp_path / "club.yaml").write_text(MANIFEST)
    run = run_sheetgen("batch", "club.yaml", "-o", str(folder), "--quiet", cwd=tmp_path)
    assert (run.code, run.stderr) == (1, f"sheetgen: {folder}/b.pdf: cannot be written (No space left on device);"
                                         " batch stopped, no file written\n")
    assert os.listdir(folder) == []


def test_a_pack_stopped_half_way_writes_none_of_its_files(tmp_path):
    (tmp_path / "pdf" / "classic-en-large-colour-a4.pdf").mkdir(parents=True)  # in the way of the third file
    with pytest.raises(OutputError) as caught:
        build_pack(tmp_path, Pack(grids=("classic",), langs=("en",), papers=("a4",)))
    assert str(caught.value) == (
        f"{tmp_path}/pdf/classic-en-large-colour-a4.pdf: is a folder, expected a file name;"
        " pack stopped, no file written")
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "pdf", "pdf/classic-en-large-colour-a4.pdf"]


# -- real file systems: full, read-only, append-only ------------------------------


@pytest.fixture
def disk(tmp_path: Path):
    """Makes tmpfs folders of a given size in KiB; unmounted afterwards.  Needs
    root, which CI has; skipped with the reason for a developer without it."""
    mounted: list[Path] = []

    def make(kib: int) -> Path:
        folder = tmp_path / f"disk{len(mounted)}"
        folder.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kib}k,mode=0755", "tmpfs", str(folder)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            if os.geteuid() == 0:
                pytest.fail(f"root cannot mount a tmpfs: {done.stderr.strip()}")
            pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or 'mount failed'}): needs root")
        mounted.append(folder)
        return folder

    try:
        yield make
    finally:
        for folder in mounted:
            subprocess.run(["umount", "-l", str(folder)], check=True)


@pytest.fixture
def small_disk(disk) -> Path:
    """A 64 KiB tmpfs holding the previous run's c.pdf."""
    folder = disk(64)
    (folder / "c.pdf").write_bytes(PREVIOUS)
    return folder


def test_a_full_disk_leaves_the_previous_file(small_disk):
    target = small_disk / "c.pdf"
    run = run_sheetgen("render", "longo", "--pages", "100", "-o", str(target), cwd=small_disk.parent)
    assert (run.code, run.stderr) == (1, f"sheetgen: {target}: cannot be written (No space left on device)\n")
    assert_untouched(small_disk)
    free = os.statvfs(small_disk)
    assert free.f_bfree == free.f_blocks - 1, "the failed write still holds disk space"


def test_a_full_disk_leaves_no_folder_it_made(small_disk):
    target = small_disk / "new" / "deeper" / "c.pdf"
    run = run_sheetgen("render", "longo", "--pages", "100", "-o", str(target), cwd=small_disk.parent)
    assert (run.code, run.stderr) == (1, f"sheetgen: {target}: cannot be written (No space left on device)\n")
    assert_untouched(small_disk)


def test_a_read_only_folder_leaves_the_previous_file(small_disk):
    remounted = subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], capture_output=True, text=True)
    assert remounted.returncode == 0, remounted.stderr
    for name in ("c.pdf", "new.pdf"):
        run = run_sheetgen("render", "classic", "-o", str(small_disk / name), cwd=small_disk.parent)
        assert (run.code, run.stderr) == (1, f"sheetgen: {small_disk}: cannot write here (Read-only file system)\n")
    assert_untouched(small_disk)


@pytest.fixture
def append_only(out: Path):
    """The output folder, append-only (chattr +a): names can be added, never
    removed or replaced."""
    chattr = need_tool("chattr")
    done = subprocess.run([chattr, "+a", str(out)], capture_output=True, text=True)
    if done.returncode != 0:
        if os.geteuid() == 0:
            pytest.fail(f"root cannot make a folder append-only here: {done.stderr.strip()}")
        pytest.skip(f"cannot make a folder append-only ({done.stderr.strip()}): needs root")
    try:
        yield out
    finally:
        subprocess.run([chattr, "-a", str(out)], check=True)


def test_an_append_only_folder_takes_new_files_and_keeps_old_ones(append_only):
    run = run_sheetgen("render", "classic", "-o", "c.pdf", cwd=append_only)
    assert (run.code, run.stderr) == (1, "sheetgen: c.pdf: is in an append-only folder, so it cannot be replaced"
                                         " (new files can be written there)\n")
    assert_untouched(append_only)
    run = run_sheetgen("render", "classic", "-o", "new.pdf", cwd=append_only)
    assert (run.code, run.stderr) == (0, "")
    assert (append_only / "new.pdf").read_bytes() == CLASSIC
    assert others(append_only, "new.pdf") == [] and (append_only / "c.pdf").read_bytes() == PREVIOUS


def test_without_unnamed_files_an_append_only_folder_is_refused(append_only):
    """A named part could not be renamed to its name there, nor removed."""
    for name in ("c.pdf", "new.pdf"):
        run = run_sheetgen("render", "classic", "-o", name, cwd=append_only,
                           prelude="import sheetgen.runs.output as o\no._open_unnamed = lambda here: None")
        assert (run.code, run.stderr) == (1, "sheetgen: .: is an append-only folder: without unnamed files"
                                             " (O_TMPFILE) sheetgen cannot write there\n")
    assert_untouched(append_only)


# -- what is never replaced: links, read-only files --------------------------------


def test_an_output_that_is_a_symbolic_link_is_refused_and_left_as_it_is(out, tmp_path):
    """`-o /dev/stdout` as root once replaced the system's link with a PDF."""
    (out / "stdout.pdf").symlink_to("/proc/self/fd/1")
    (out / "link.pdf").symlink_to("c.pdf")
    (out / "dangling.pdf").symlink_to("nowhere.pdf")
    (out / "loop.pdf").symlink_to("loop.pdf")
    for name, to in [("stdout.pdf", "/proc/self/fd/1"), ("link.pdf", "c.pdf"), ("dangling.pdf", "nowhere.pdf"),
                     ("loop.pdf", "loop.pdf")]:
        run = run_sheetgen("render", "classic", "-o", name, cwd=out)
        assert (run.code, run.stderr) == (1, f"sheetgen: {name}: is a symbolic link (to {to}), not replaced:"
                                             " name the file it points to\n")
        assert os.readlink(out / name) == to
    assert (out / "c.pdf").read_bytes() == PREVIOUS and not (out / "nowhere.pdf").exists()


def test_a_read_only_output_is_refused_and_left_as_it_is(out):
    (out / "c.pdf").chmod(0o444)
    run = run_sheetgen("render", "classic", "-o", "c.pdf", cwd=out)
    assert (run.code, run.stderr) == (1, "sheetgen: c.pdf: is read-only, not replaced (make it writable, or choose"
                                         " another name)\n")
    assert_untouched(out)


@pytest.mark.parametrize("umask", [0o002, 0o022, 0o027, 0o077])
def test_new_files_get_the_permissions_the_umask_allows(tmp_path, umask):
    run = run_sheetgen("render", "classic", "-o", "c.pdf", cwd=tmp_path, prelude=f"import os\nos.umask({umask:#o})")
    assert run.code == 0
    assert oct((tmp_path / "c.pdf").stat().st_mode & 0o777) == oct(0o666 & ~umask)


# -- names: long, too long ----------------------------------------------------------


@pytest.mark.parametrize("length", [241, 255])
def test_a_legal_long_output_name_is_written(tmp_path, length):
    """The hidden name is shortened to fit; the file gets its own name."""
    name = "a" * (length - 4) + ".pdf"
    for _ in range(2):  # new, then replacing (through a hidden name)
        run = run_sheetgen("render", "classic", "-o", name, cwd=tmp_path)
        assert (run.code, run.stderr) == (0, "")
    assert os.listdir(tmp_path) == [name]


def test_names_too_long_are_one_line_and_exit_1(tmp_path):
    long_name = "a" * 252 + ".pdf"
    run = run_sheetgen("render", "classic", "-o", long_name, cwd=tmp_path)
    assert (run.code, run.stderr) == (1, f"sheetgen: {long_name}: cannot be written (File name too long)\n")
    grid = "g" * 300
    run = run_sheetgen("render", grid, cwd=tmp_path)
    assert (run.code, run.stderr) == (1, f"sheetgen: {grid}: unknown grid (expected a file or one of bis, blocks,"
                                         " bonus, classic, disorder, doubles, longo, mixed, powers or rainbow)\n")
    run = run_sheetgen("check", grid + ".yaml", cwd=tmp_path)
    assert (run.code, run.stderr) == (1, f"sheetgen: {grid}.yaml: cannot be read (File name too long)\n")
    assert os.listdir(tmp_path) == []


# -- odd places: symbolic link loops, a deleted folder ------------------------------


def test_a_symbolic_link_loop_on_the_way_out_is_one_line(tmp_path):
    (tmp_path / "loop").symlink_to("loop")
    run = run_sheetgen("render", "classic", "-o", "loop/c.pdf", cwd=tmp_path)
    assert (run.code, run.stderr) == (1, "sheetgen: loop/c.pdf: cannot be written (Too many levels of symbolic"
                                         " links)\n")
    (tmp_path / "club.yaml").write_text("jobs: [{grid: classic, sheets: 8, file: loop/c.pdf}]\n")
    run = run_sheetgen("batch", "club.yaml", "-o", ".", cwd=tmp_path)
    assert (run.code, run.stderr) == (1, "sheetgen: loop/c.pdf: cannot be written (Too many levels of symbolic"
                                         " links)\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "club").symlink_to("club")
    (tmp_path / "club.yaml").write_text("folder: club\njobs: [{grid: classic, sheets: 8}]\n")
    run = run_sheetgen("batch", "club.yaml", cwd=tmp_path)
    assert (run.code, run.stderr) == (1, "sheetgen: out/club/01-classic.pdf: cannot be written (Too many levels of"
                                         " symbolic links)\n")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["club", "club.yaml", "loop", "out"]


def test_a_deleted_working_folder_is_one_line(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    child = subprocess.run(["sh", "-c", 'cd "$1" && rmdir "$1" && shift && exec "$@"', "sh", str(gone),
                            *sheetgen_command("render", "classic")],
                           env=sheetgen_env(), capture_output=True, text=True, timeout=30)
    assert (child.returncode, child.stderr) == (
        1, "sheetgen: the current folder cannot be used (No such file or directory): change to another one\n")


# -- the environment ---------------------------------------------------------------


@pytest.mark.parametrize("variable", ["RL_invariant=abc", "RL_defaultPageSize=xx", "RL_pdfComments=1",
                                      "RL_verbose=1", "RL_shapeChecking=0"])
def test_reportlab_settings_in_the_environment_change_nothing(tmp_path, variable):
    name, value = variable.split("=")
    run = run_sheetgen("render", "classic", "-o", "c.pdf", cwd=tmp_path, env=sheetgen_env(**{name: value}))
    assert (run.code, run.stderr) == (0, "")
    assert (tmp_path / "c.pdf").read_bytes() == CLASSIC


# -- memory ------------------------------------------------------------------------

# In the child: everything loaded, then the address space capped a little
# above what is in use, as `ulimit -v` would.
CAP_MEMORY = """
import resource
import sheetgen.cli, sheetgen.runs.jobs, sheetgen.pdf.render, json, secrets
from sheetgen.grid.load import load_grid
from sheetgen.runs.jobs import Job, render_job
render_job(Job(load_grid("longo")))
with open("/proc/self/status") as status:
    used = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (used + 24 * 2**20, resource.getrlimit(resource.RLIMIT_AS)[1]))
"""


def test_running_out_of_memory_is_one_line_and_exit_1(tmp_path):
    run = run_sheetgen("render", "longo", "--pages", "10000", "-o", "c.pdf", cwd=tmp_path, prelude=CAP_MEMORY,
                       timeout=60)
    assert (run.code, run.stderr) == (1, "sheetgen: out of memory (print fewer pages in one run, or free some"
                                         " memory)\n")
    assert os.listdir(tmp_path) == []


# -- as a user without root's rights --------------------------------------------------

# In the child: load what the run needs while root may still read it all
# (Python's own library may be in a folder only root can enter), then drop
# to uid and gid 65534 (nobody), if root.
AS_NOBODY = """
import difflib, importlib, json, os, pkgutil, secrets, traceback
import sheetgen
for module in pkgutil.walk_packages(sheetgen.__path__, "sheetgen."):
    if module.name != "sheetgen.__main__":  # that one would run the command line
        importlib.import_module(module.name)
from sheetgen.grid.load import load_grid
from sheetgen.play.marks import load_marks
from sheetgen.play.results import format_scores
from sheetgen.play.scoring import score_sheet
from sheetgen.runs.jobs import Job, check_printable, render_job
render_job(Job(load_grid("classic")))
check_printable(load_grid("classic"))
if os.geteuid() == 0:
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)
"""


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """A folder nobody may use, with a readable grid and marks file."""
    tmp_path.chmod(0o777)
    (tmp_path / "m.yaml").write_text(MARKS)
    return tmp_path


def run_as_nobody(folder: Path, *args: str):
    return run_sheetgen(*args, cwd=folder, prelude=AS_NOBODY)


def test_a_folder_the_user_cannot_write_to_is_one_line(shared):
    (shared / "locked").mkdir(mode=0o555)
    (shared / "locked").chmod(0o555)
    for name in ("c.pdf", "sub/c.pdf"):
        run = run_as_nobody(shared, "render", "classic", "-o", f"locked/{name}")
        folder = "locked" if name == "c.pdf" else "locked/sub"
        what = "cannot write here" if name == "c.pdf" else "cannot create the output folder"
        assert (run.code, run.stderr) == (1, f"sheetgen: {folder}: {what} (Permission denied)\n"), run.stderr
    assert os.listdir(shared / "locked") == []


def test_files_and_folders_the_user_cannot_read_are_one_line_and_exit_1(shared):
    (shared / "secret.yaml").write_text("name: x\n")
    (shared / "secret.yaml").chmod(0o000)
    (shared / "closed").mkdir()
    (shared / "closed" / "g.yaml").write_text("name: x\n")
    (shared / "closed").chmod(0o700)
    denied = "cannot be read (Permission denied)"
    for args, name in [(("check", "secret.yaml"), "secret.yaml"), (("render", "closed/g.yaml"), "closed/g.yaml"),
                       (("score", "classic", "secret.yaml"), "secret.yaml"),
                       (("score", "closed/g.yaml", "m.yaml"), "closed/g.yaml"),
                       (("batch", "secret.yaml"), "secret.yaml")]:
        run = run_as_nobody(shared, *args)
        assert (run.code, run.stderr) == (1, f"sheetgen: {name}: {denied}\n"), args
    run = run_as_nobody(shared, "render", "classic", "-o", "closed/c.pdf")
    assert (run.code, run.stderr) == (1, "sheetgen: closed/c.pdf: cannot be written (Permission denied)\n")
    assert not (shared / "out").exists()
