"""Run the command line as a user does, `python -m sheetgen ...`, in a fresh
process, and measure what the run cost: wall time and peak memory.

Each run is its own process so that its peak memory (``ru_maxrss`` from
``wait4``) is its own.  Its address space is capped (``RLIMIT_AS``), so a run
that would need more memory fails at once instead of swapping the machine.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIB = 1024 * 1024
MEMORY_CAP = 200 * MIB  # address space of one run: a render needs about 40 MiB


@dataclass(frozen=True)
class Run:
    code: int  # exit code; -9 when killed by SIGKILL
    stdout: str
    stderr: str
    seconds: float  # wall time, start-up included
    peak_mib: float  # peak resident memory
    cpu_seconds: float = 0.0  # user and system time: unlike the wall time, not stretched by a loaded machine


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def sheetgen_command(*args: str, prelude: str = "") -> list[str]:
    """The command line of a run; ``prelude`` is Python run before the command
    line starts (to patch the library, as a fault-injection harness)."""
    if not prelude:
        return [sys.executable, "-m", "sheetgen", *args]
    return [sys.executable, "-c", f"{prelude}\nfrom sheetgen.__main__ import main\nmain()", *args]


def sheetgen_env(**extra: str) -> dict[str, str]:
    """The environment of a run: this checkout first on the path, no debug output."""
    env = {k: v for k, v in os.environ.items() if k != "SHEETGEN_DEBUG"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def run_sheetgen(*args: str, cwd: Path, env: dict[str, str] | None = None, prelude: str = "",
                 timeout: float = 30.0, wrapper: tuple[str, ...] = ()) -> Run:
    """Run ``sheetgen ARGS`` in ``cwd`` and wait for it (killed after ``timeout`` s);
    ``wrapper`` is a command to run it under (``faketime DATE``)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(
            [*wrapper, *sheetgen_command(*args, prelude=prelude)], cwd=cwd, env=env or sheetgen_env(),
            stdin=subprocess.DEVNULL, stdout=out, stderr=err, preexec_fn=_cap_memory,
        )
        timer = threading.Timer(timeout, process.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        return Run(process.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                   seconds, usage.ru_maxrss * 1024 / MIB, usage.ru_utime + usage.ru_stime)


def run_on_a_terminal(*args: str, cwd: Path) -> tuple[int, str, str]:
    """Run ``sheetgen ARGS`` with standard error on a pseudo-terminal, standard
    output on a pipe and the progress bar's delay set to 0: (exit code,
    standard output, what the terminal showed)."""
    import pty

    quick = "import sheetgen.cli; sheetgen.cli.SHOW_PROGRESS_AFTER = 0"
    main, child = pty.openpty()
    process = subprocess.Popen(sheetgen_command(*args, prelude=quick), cwd=cwd, env=sheetgen_env(),
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=child)
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
    process.stdout.close()
    code = process.wait(timeout=60)
    os.close(main)
    return code, stdout, terminal.decode()
