"""Determinism everywhere: the same inputs and seed give the same bytes from
render, batch (one PDF per job and combined) and pack, whatever the current
folder, the paths used, the clock, the time zone, the locale and Python's
hash seed.  Every run is a fresh process, as a user's would be.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sheetgen.grid.load import builtin_dir

from cli_process import run_sheetgen, sheetgen_env

pytestmark = pytest.mark.slow  # render, batch and pack in fresh processes under other clocks, zones and locales: out of the quick tier

MANIFEST = """seed: 2026
first_serial: 5
defaults: {header: "Club de Lyon, 30.11.2026", serial: true}
jobs:
  - {grid: longo, sheets: 16, lang: fr}
  - {grid: grids/mine.yaml, sheets: 8, paper: letter}
  - {grid: classic, sheets: 8, serial: false, lang: de}
"""
# The pack of two grids in two languages, to keep the test short.
SMALL_PACK = ("import sheetgen.runs.pack\n"
              "sheetgen.runs.pack.builtin_names = lambda: ['classic', 'longo']\n"
              "sheetgen.runs.pack.languages = lambda default_first=False: ['en', 'fr']")
# A clock 40 years fast, for what Python asks of it (faketime, when installed, fakes it for everything).
FAST_CLOCK = "import time\n_now = time.time\ntime.time = lambda: _now() + 40 * 365.25 * 86400"
BASE_ENV = {"TZ": "UTC", "LC_ALL": "C.UTF-8"}

VARIANTS = {
    "reference": {},
    "other folder, absolute paths": {"absolute": True},
    "time zone +14 h, C locale": {"env": {"TZ": "Pacific/Kiritimati", "LC_ALL": "C", "LANG": "C"}},
    "time zone -3.5 h, German locale": {"env": {"TZ": "America/St_Johns", "LC_ALL": "", "LANG": "de_DE.UTF-8"}},
    "build date, hash seed": {"env": {"SOURCE_DATE_EPOCH": "2000000000", "PYTHONHASHSEED": "12345"}},
    "clock 40 years fast": {"prelude": FAST_CLOCK},
    "faketime 2038": {"wrapper": ("faketime", "2038-01-19 03:14:07")},
}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """A custom grid and a manifest that uses it, in a folder of their own."""
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "grids").mkdir()
    mine = (builtin_dir() / "mixed.yaml").read_text().replace("name: mixed", "name: mine")
    (folder / "grids" / "mine.yaml").write_text(mine + "lucky: {count: 2, from: 2, to: 12}\n")
    (folder / "club.yaml").write_text(MANIFEST)
    return folder


def outputs(variant: dict, inputs: Path, here: Path) -> dict[str, bytes]:
    """Every file render, batch and pack write in one variant, by path."""
    if variant.get("absolute"):
        grid, manifest, out = inputs / "grids" / "mine.yaml", inputs / "club.yaml", here / "out"
    else:
        shutil.copytree(inputs, here, dirs_exist_ok=True)
        grid, manifest, out = Path("grids/mine.yaml"), Path("club.yaml"), Path("out")
    env = sheetgen_env(**{**BASE_ENV, **variant.get("env", {})})
    prelude = variant.get("prelude", "")
    commands = [
        (("render", "longo", "--seed", "7", "--pages", "2", "-o", str(out / "longo.pdf")), ""),
        (("render", str(grid), "--seed", "3", "--lang", "it", "--paper", "letter", "-o", str(out / "mine.pdf")), ""),
        (("batch", str(manifest), "-o", str(out / "batch"), "--quiet"), ""),
        (("batch", str(manifest), "-o", str(out / "combined"), "--combined", "--quiet"), ""),
        (("pack", "-o", str(out / "pack"), "--quiet"), SMALL_PACK),
    ]
    for args, extra in commands:
        run = run_sheetgen(*args, cwd=here, env=env, prelude="\n".join(filter(None, [prelude, extra])),
                           wrapper=variant.get("wrapper", ()), timeout=60)
        assert (run.code, run.stderr) == (0, ""), (args, run.stderr)
    written = here / "out"
    return {p.relative_to(written).as_posix(): p.read_bytes() for p in sorted(written.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def reference(inputs, tmp_path_factory) -> dict[str, bytes]:
    return outputs(VARIANTS["reference"], inputs, tmp_path_factory.mktemp("reference"))


def test_the_reference_run_writes_every_kind_of_output(reference):
    kinds = {path.split("/")[0] for path in reference}
    assert kinds == {"longo.pdf", "mine.pdf", "batch", "combined", "pack"}
    assert len(reference) > 10


@pytest.mark.parametrize("name", [name for name in VARIANTS if name != "reference"])
def test_the_same_inputs_give_the_same_bytes(name, inputs, reference, tmp_path):
    variant = VARIANTS[name]
    if variant.get("wrapper") and shutil.which(variant["wrapper"][0]) is None:
        pytest.skip(f"{variant['wrapper'][0]} is not installed (Debian: faketime)")
    here = tmp_path / "elsewhere" / "deeper"
    here.mkdir(parents=True)
    got = outputs(variant, inputs, here)
    assert got.keys() == reference.keys()
    assert [path for path in got if got[path] != reference[path]] == []
