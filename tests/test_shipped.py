"""The user's cache of the shipped YAML files' data: what it gives is what the
YAML gives, it is used only for the bytes and the readers it was made from, it
is written whole or not at all, and a cache that cannot be read or written, or
two runs writing it at once, change nothing but time.  Once it is warm, a run
over a built-in grid never imports the YAML reader."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest

from sheetgen.grid import shipped
from sheetgen.grid.load import builtin_dir, load_grid
from sheetgen.grid.shipped import DATA, cache_file, shipped_data, shipped_grid
from sheetgen.grid.yamlio import read_package_data, read_yaml

from cli_process import sheetgen_env

CLASSIC = builtin_dir() / "classic.yaml"
THEMES = DATA / "themes.yaml"


def forget() -> None:
    """A new run's view of the cache: where it is and what it holds, read again."""
    shipped.cache_file.cache_clear()
    shipped._entries.cache_clear()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The cache in a folder of the test's own; the path of its file."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    forget()
    yield cache_file()
    forget()


def entries(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def key(kind: str, path) -> str:
    return f"{kind}:{hashlib.sha256(path.read_bytes()).hexdigest()}"


def test_what_the_cache_gives_is_what_the_yaml_gives(cache):
    grids, data = sorted(builtin_dir().glob("*.yaml")), sorted(DATA.glob("*.yaml"))
    for _ in range(2):  # parsed and written, then read back by a new run
        forget()
        for path in grids:
            assert shipped_grid(path) == read_yaml(path, path.name), path.name  # powers: symbols by cell number
        for path in data:
            assert shipped_data(path) == read_package_data(path), path.name
    assert set(entries(cache)) == {key("grid", p) for p in grids} | {key("data", p) for p in data}
    assert cache.parent.parent.name == "cache" and cache.name.startswith("shipped-")


def test_an_entry_for_these_bytes_is_used_and_other_bytes_are_parsed(cache, tmp_path):
    cache.parent.mkdir(parents=True)
    cache.write_text(json.dumps({key("grid", CLASSIC): {"from": "the cache"}}))
    assert shipped_grid(CLASSIC) == {"from": "the cache"}
    edited = tmp_path / "classic.yaml"  # the grid file edited: other bytes, no entry yet
    edited.write_text(CLASSIC.read_text(encoding="utf-8").replace('"Qwixx"', '"Qwixx, edited"'))
    assert shipped_grid(edited)["title"] == "Qwixx, edited"
    assert key("grid", edited) in entries(cache) and key("grid", CLASSIC) in entries(cache)


def test_the_cache_of_other_readers_is_not_used(cache, monkeypatch, tmp_path):
    cache.parent.mkdir(parents=True)
    cache.write_text(json.dumps({key("data", THEMES): {"from": "the cache"}}))
    changed = tmp_path / "yamlio.py"
    changed.write_text("# the YAML reader as a later version writes it\n")
    monkeypatch.setattr(shipped, "READERS", (changed, shipped.READERS[1]))
    forget()
    assert cache_file() != cache
    assert shipped_data(THEMES) == read_package_data(THEMES)


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", ""])
def test_a_broken_cache_means_parsing_and_is_written_anew(cache, text):
    cache.parent.mkdir(parents=True)
    cache.write_text(text)
    assert shipped_data(THEMES) == read_package_data(THEMES)
    assert list(entries(cache)) == [key("data", THEMES)]


def test_a_cache_that_cannot_be_written_changes_nothing(monkeypatch, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # the cache folder cannot be made under it
    forget()
    try:
        assert shipped_data(THEMES) == read_package_data(THEMES)
        assert load_grid("classic") == load_grid(CLASSIC)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
    finally:
        forget()


def test_a_write_that_fails_leaves_the_old_cache_whole_and_no_temporary_file(cache, monkeypatch):
    cache.parent.mkdir(parents=True)
    cache.write_text(json.dumps({key("data", THEMES): {"from": "the cache"}}))

    def refuse(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(shipped.os, "replace", refuse)
    assert shipped_grid(CLASSIC) == read_yaml(CLASSIC, CLASSIC.name)
    assert entries(cache) == {key("data", THEMES): {"from": "the cache"}}
    assert [p.name for p in cache.parent.iterdir()] == [cache.name]


def test_data_json_would_not_give_back_is_never_cached(cache, monkeypatch):
    monkeypatch.setattr(shipped, "_parse_data", lambda path: {"when": (2026, 12)})  # a tuple comes back a list
    assert shipped_data(THEMES) == {"when": (2026, 12)}
    assert not cache.exists()


def test_past_its_size_the_cache_starts_again(cache, monkeypatch):
    monkeypatch.setattr(shipped, "MAX_ENTRIES", 2)
    for path in sorted(DATA.glob("lang-*.yaml"))[:3]:
        shipped_data(path)
    assert len(entries(cache)) == 1


RUN = """
import sys
from sheetgen.cli import cli
try:
    cli(["render", "classic", "-o", sys.argv[1], "-q"], prog_name="sheetgen")
except SystemExit as done:
    assert done.code == 0, done.code
print(sorted(name for name in sys.modules if name.split(".")[0] == "yaml"))
"""


def test_once_the_cache_is_warm_printing_a_built_in_grid_reads_no_yaml(tmp_path):
    env = sheetgen_env(XDG_CACHE_HOME=str(tmp_path / "cache"))
    outputs = []
    for n in range(2):
        done = subprocess.run([sys.executable, "-c", RUN, str(tmp_path / f"{n}.pdf")], capture_output=True,
                              text=True, env=env, timeout=60)
        outputs.append((done.returncode, done.stderr, done.stdout != "[]\n"))
    assert outputs == [(0, "", True), (0, "", False)]  # the first run parsed the YAML, the second did not
    assert (tmp_path / "0.pdf").read_bytes() == (tmp_path / "1.pdf").read_bytes()


@pytest.mark.slow
def test_runs_that_fill_the_cache_at_once_each_print_and_leave_one_whole_file(tmp_path):
    env = sheetgen_env(XDG_CACHE_HOME=str(tmp_path / "cache"))
    runs = [subprocess.Popen([sys.executable, "-m", "sheetgen", "render", name, "-q", "-o", str(tmp_path / f"{n}.pdf")],
                             env=env, stderr=subprocess.PIPE)
            for n, name in enumerate(["classic", "powers", "bonus", "classic", "longo", "bis"])]
    assert [(run.wait(timeout=120), run.stderr.read()) for run in runs] == [(0, b"")] * len(runs)
    [folder] = (tmp_path / "cache").iterdir()
    [written] = os.listdir(folder)  # no temporary file left
    assert written.startswith("shipped-") and json.loads((folder / written).read_text(encoding="utf-8"))
    assert (tmp_path / "0.pdf").read_bytes() == (tmp_path / "3.pdf").read_bytes()
