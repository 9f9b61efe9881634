"""The package as a stranger installs it: `python -m build` makes a wheel and
an sdist without a warning; the wheel, installed into a fresh virtual
environment outside the repository, works from another folder (render, score,
rules, counter, help, show and schema); pip shows its name, author and
licence; and the sdist's own tests run from the unpacked sdist.

Both tests take a minute or so: the build and the installs use pip's own
index (on this machine, a local one), nothing is fetched twice.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NAME = "qwixx-sheets"  # the distribution; the command and the import are sheetgen


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a user: nothing of this checkout on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV")
           and not k.startswith("SHEETGEN_")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The wheel and the sdist, built as a release would be."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], capture_output=True,
                          text=True, timeout=600, env=clean_env())
    if done.returncode != 0 and "No module named build" in done.stderr:
        pytest.skip("the build package is not installed (pip install build)")
    assert done.returncode == 0, done.stderr[-3000:]
    warnings = [line for line in (done.stdout + done.stderr).splitlines() if "warning" in line.lower()]
    assert warnings == [], "the build is not clean:\n" + "\n".join(warnings)
    return out


def test_the_wheel_installed_elsewhere_works_from_another_folder(dist, tmp_path):
    wheel = next(dist.glob("*.whl"))
    assert wheel.name.startswith("qwixx_sheets-")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "sheetgen/manual/scoring.md" in names and "sheetgen/pdf/fonts/DejaVuSans.ttf" in names
    assert "Author: the sheetgen authors" in metadata and "\nLicense: MIT\n" in metadata
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python, sheetgen = venv / "bin" / "python", venv / "bin" / "sheetgen"
    pip = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True,
                         timeout=600, env=clean_env())
    assert pip.returncode == 0, pip.stderr[-3000:]
    shown = subprocess.run([str(python), "-m", "pip", "show", NAME], capture_output=True, text=True, env=clean_env())
    assert "\nLicense: MIT\n" in shown.stdout and "\nAuthor: the sheetgen authors\n" in shown.stdout
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*args: str) -> str:
        done = subprocess.run([str(sheetgen), *args], cwd=elsewhere, capture_output=True, text=True, timeout=120,
                              env=clean_env())
        assert done.returncode == 0, (args, done.stderr)
        return done.stdout

    assert run("--version").startswith(f"sheetgen 0.1.0 (the {NAME} package)")
    assert run("render", "classic").startswith("wrote out/classic.pdf (1 page, 8 sheets")
    assert "Winner: Lea with 73" in run("score", "classic", "Lea: 6 3 9L 3 p1", "Tom: 5 5 2 0")
    assert run("rules", "longo", "--lang", "de").startswith("Qwixx Longo")
    run("counter", "classic", "--lang", "it")
    assert run("help", "scoring").startswith("# Scoring filled-in sheets")
    assert "clubs" in run("help")
    run("show", "classic", "-o", "mine.yaml")
    run("schema", "-o", "grid.schema.json")
    assert run("check", "mine.yaml") == "mine.yaml: ok\n"
    assert sorted(p.name for p in (elsewhere / "out").iterdir()) == ["classic.pdf", "counter-classic-it.html"]
    assert (elsewhere / "out" / "classic.pdf").read_bytes().startswith(b"%PDF-")
    assert str(ROOT) not in (elsewhere / "mine.yaml").read_text()


def test_the_sdists_own_tests_run_from_it(dist, tmp_path):
    """The sdist holds what its tests need (conftest, the conformance cases, the
    corpus, the docs they run, the scripts they load): a sample of them runs in
    the unpacked sdist, against the sdist's own sheetgen."""
    sdist = next(dist.glob("*.tar.gz"))
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    unpacked = tmp_path / sdist.name.removesuffix(".tar.gz")
    for needed in ("tests/conftest.py", "tests/conformance/cases.json", "tests/corpus/expected.yaml",
                   "docs/scoring.md", "scripts/rules_page.py", ".ci/run", "grids/classic.yaml", "setup.cfg"):
        assert (unpacked / needed).is_file(), needed
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-x",
                           "tests/test_architecture.py", "tests/test_conformance.py", "tests/test_rules.py",
                           "tests/test_corpus.py", "-k", "not slow and (architecture or conformance or rules_md or"
                           " grids/rows or marks/ or batches/jobs)"],
                          cwd=unpacked, capture_output=True, text=True, timeout=600,
                          env=clean_env(PYTHONPATH=str(unpacked)))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(r"\b\d{2,} passed\b", done.stdout), done.stdout[-500:]
    imported = subprocess.run([sys.executable, "-c", "import sheetgen; print(sheetgen.__file__)"], cwd=unpacked,
                              capture_output=True, text=True, env=clean_env(PYTHONPATH=str(unpacked)))
    assert imported.stdout.startswith(str(unpacked))


pytestmark = pytest.mark.slow
