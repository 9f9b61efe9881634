"""The cache of the shipped YAML files: current, used only for the bytes it was made
from, and what spares a run over a built-in grid the YAML reader."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from sheetgen.grid import shipped
from sheetgen.grid.load import builtin_dir, load_grid
from sheetgen.grid.shipped import CACHE, DATA, build_cache, cache_key, shipped_data, shipped_grid
from sheetgen.grid.yamlio import read_package_data, read_yaml

from cli_process import sheetgen_env


def test_the_cache_is_current():
    assert CACHE.read_text(encoding="utf-8") == build_cache(), (
        "sheetgen/data/shipped.json is stale: run `.venv/bin/python scripts/shipped.py`")


@pytest.mark.parametrize("name", sorted(p.stem for p in builtin_dir().glob("*.yaml")))
def test_a_grid_from_the_cache_is_the_grid_from_its_yaml(name):
    path = builtin_dir() / f"{name}.yaml"
    assert shipped_grid(path) == read_yaml(path, path.name)  # powers: symbols keyed by cell number


def test_data_files_from_the_cache_are_their_yaml():
    for path in sorted(DATA.glob("*.yaml")):
        assert shipped_data(path) == read_package_data(path), path.name


@pytest.fixture
def cache_of(monkeypatch):
    """Replace the cache with ``entries``: cache key -> [sha256, data]."""
    def use(entries: dict) -> None:
        monkeypatch.setattr(shipped, "_cache", lambda: entries)

    return use


def test_an_entry_for_these_bytes_is_used(cache_of):
    path = builtin_dir() / "classic.yaml"
    cache_of({cache_key(path): [hashlib.sha256(path.read_bytes()).hexdigest(), {"from": "the cache"}]})
    assert shipped_grid(path) == {"from": "the cache"}


def test_an_entry_for_other_bytes_is_not_used(cache_of):
    path = builtin_dir() / "classic.yaml"
    cache_of({cache_key(path): [hashlib.sha256(b"classic.yaml as it was").hexdigest(), {"from": "the cache"}]})
    assert shipped_grid(path) == read_yaml(path, path.name)
    cache_of({})
    assert load_grid("classic") == load_grid(path)


def test_a_missing_or_broken_cache_means_parsing_every_file(monkeypatch, tmp_path):
    shipped._cache.cache_clear()
    try:
        for text in (None, "{not json"):
            where = tmp_path / "shipped.json"
            if text is not None:
                where.write_text(text)
            monkeypatch.setattr(shipped, "CACHE", where)
            shipped._cache.cache_clear()
            assert shipped_data(DATA / "themes.yaml") == read_package_data(DATA / "themes.yaml")
    finally:
        shipped._cache.cache_clear()


def test_data_json_cannot_hold_is_refused(monkeypatch):
    monkeypatch.setattr(shipped, "_parse_data", lambda path: {"when": (2026, 12)})  # a tuple comes back a list
    with pytest.raises(ValueError, match="does not survive JSON"):
        build_cache()


RUN = """
import sys
from sheetgen.cli import cli
try:
    cli(["render", "classic", "-o", sys.argv[1], "-q"], prog_name="sheetgen")
except SystemExit as done:
    assert done.code == 0, done.code
print(sorted(name for name in sys.modules if name.split(".")[0] == "yaml"))
"""


def test_printing_a_built_in_grid_reads_no_yaml(tmp_path):
    done = subprocess.run([sys.executable, "-c", RUN, str(tmp_path / "classic.pdf")], capture_output=True,
                          text=True, env=sheetgen_env(), timeout=60)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "[]\n")
    assert (tmp_path / "classic.pdf").read_bytes()[:5] == b"%PDF-"
