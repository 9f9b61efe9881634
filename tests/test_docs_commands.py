"""Every command of the README and of docs/, run as written, as a reader follows
the page: top to bottom, in a folder of its own per page.

How a page is read:

- a fenced block whose info string names a file (```` ```yaml file=lea.yaml ````)
  is that file, as the reader saves it: the page's files are written into the
  folder first, wherever the page shows them;
- each line of a ```` ```sh ```` block is a command, run by bash in the folder
  (its comments are bash's own); it must succeed;
- in a ```` ```console ```` block a line starting with ``$ `` is a command and the
  lines under it are what it prints: each of them must appear, in that order,
  where ``...`` stands for any lines;
- a ```` ```python ```` block is a program, run by the venv's Python in the folder.

The folder is a user's after the README's first command: ``sheetgen`` and
``.venv/bin/python`` are this checkout's, as an activated venv gives them, and
``lp`` is a stand-in printer that keeps what it is sent.  The two install
commands are those ``.ci/run`` runs on a fresh machine (checked here to be the
same).  Commands that run a program under ``scripts/`` or ``tests/`` are a
developer's, from a checkout with the test tools: they regenerate files of the
repository or take minutes, so the program is loaded (everything it imports
and defines) without being run.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every command of the docs, each a process, the pack among them: out of the quick tier

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\S*)([^\n]*)\n(.*?)^```$", re.M | re.S)
INSTALL = "python3 -m venv .venv"  # how the README's two commands begin
DEVELOPER = ("scripts/", "tests/")
LOAD = "import runpy, sys; runpy.run_path(sys.argv[1], run_name='loaded')"  # all but its __main__ part


@dataclass(frozen=True)
class Step:
    line: int  # in the page, for the failure's message
    command: str = ""
    shown: tuple[str, ...] = ()  # the output the page shows, for a console block
    file: str = ""  # a file to write, and its text in ``command``


def steps(page: str) -> list[Step]:
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for block in FENCE.finditer(text):
        kind, info, body = block.group(1), dict(_options(block.group(2))), block.group(3)
        line = text.count("\n", 0, block.start()) + 2
        if "file" in info:
            found.append(Step(line, body, file=info["file"]))
        elif kind == "python":
            found.append(Step(line, f"python - <<'PYTHON'\n{body}PYTHON"))
        elif kind == "sh":
            found += [Step(line + n, command) for n, command in enumerate(body.splitlines())
                      if command.strip() and not command.lstrip().startswith("#")]
        elif kind == "console":
            for n, chunk in _console(body):
                found.append(Step(line + n, chunk[0], tuple(chunk[1:])))
    return found


def _options(info: str) -> list[tuple[str, str]]:
    return [tuple(word.split("=", 1)) for word in shlex.split(info) if "=" in word]


def _console(body: str):
    chunk, start = None, 0
    for n, line in enumerate(body.splitlines()):
        if line.startswith("$ "):
            if chunk:
                yield start, chunk
            chunk, start = [line[2:]], n
        elif chunk is not None:
            chunk.append(line)
    if chunk:
        yield start, chunk


def shows(output: str, shown: tuple[str, ...]) -> bool:
    """Whether ``output`` has the ``shown`` lines in order; '...' is any lines."""
    pattern = "".join(r"(?:.*\n)*?" if line == "..." else re.escape(line.rstrip()) + r"\n" for line in shown)
    return re.match(pattern, _trimmed(output)) is not None if shown else True


def _trimmed(output: str) -> str:
    return "".join(line.rstrip() + "\n" for line in output.splitlines())


def user_folder(folder: Path) -> dict[str, str]:
    """A folder as the README's first command leaves it: an activated venv of
    this checkout, and a printer that keeps what it is sent."""
    bin_ = folder / ".venv" / "bin"
    bin_.mkdir(parents=True)
    tools = {"python": f'exec "{sys.executable}" "$@"', "sheetgen": f'exec "{sys.executable}" -m sheetgen "$@"',
             "lp": 'cat > "printed-$$.pdf"'}
    for name, script in tools.items():
        (bin_ / name).write_text(f"#!/bin/sh\n{script}\n")
        (bin_ / name).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHEETGEN_", "COLUMNS"))}
    env.update(PATH=f"{bin_}{os.pathsep}{env['PATH']}", PYTHONPATH=str(ROOT), VIRTUAL_ENV=str(folder / ".venv"),
               COLUMNS="80")
    return env


@pytest.mark.parametrize("page", PAGES)
def test_every_command_of_the_page_works_as_written(page, tmp_path):
    env = user_folder(tmp_path)
    ran = 0
    for step in steps(page):
        if step.file:
            (tmp_path / step.file).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / step.file).write_text(step.command, encoding="utf-8")
    for step in steps(page):
        where = f"{page}:{step.line}: {step.command}"
        if step.file:
            continue
        words = step.command.split()
        if step.command.startswith(INSTALL):
            continue  # tested below against .ci/run
        programs = [word for word in words if word.startswith(DEVELOPER) and word.endswith(".py")]
        if programs:
            for program in programs:
                load = subprocess.run([sys.executable, "-c", LOAD, str(ROOT / program)], cwd=ROOT, env=env,
                                      capture_output=True, text=True, timeout=120)
                assert load.returncode == 0, f"{where}\n{load.stderr}"
            continue
        run = subprocess.run(["bash", "-o", "pipefail", "-c", step.command], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
        assert run.returncode == 0, f"{where}\n{run.stderr}"
        assert shows(run.stdout + run.stderr, step.shown), f"{where}\n{run.stdout}{run.stderr}"
        ran += 1
    assert ran or page not in ("README.md", "docs/clubs.md"), "the page's commands were not found"


def test_the_readme_gives_the_two_commands_and_ci_runs_its_test_command():
    install = [step.command for step in steps("README.md") if step.command.startswith(INSTALL)]
    assert len(install) == 2, install
    main, tests = install
    assert "sheetgen render" in main and "pytest" in tests
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert tests in ci and main in ci
    copy = ci.index('cd "$work"')  # the copy of the checkout: a developer's .venv is not the one made
    assert copy < ci.index(main) < ci.index("ruff check") < ci.index("mypy") < ci.index(tests)


def test_output_is_matched_in_order_with_dots_for_any_lines():
    output = "Lea  73\nTom  40\nWinner: Lea with 73\n"
    assert shows(output, ("Lea  73", "...", "Winner: Lea with 73"))
    assert not shows(output, ("Winner: Lea with 73", "...", "Lea  73"))
    assert not shows(output, ("Lea  74", "..."))
    assert not shows(output, ("Lea  73", "Winner: Lea with 73"))  # a line left out needs its dots


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES)
def test_every_link_of_the_page_is_a_file_of_the_repository(page):
    text = FENCE.sub("", (ROOT / page).read_text(encoding="utf-8"))
    local = [target.split("#")[0] for target in LINK.findall(text) if "://" not in target and target[0] != "#"]
    base = (ROOT / page).parent
    assert [target for target in local if not (base / target).exists()] == []
