"""Shared fixtures: every built-in grid is a test case, loaded once."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.pdf.render import measure_text
from sheetgen.sheet.style import load_labels, load_theme

GRID_NAMES = builtin_names()


@pytest.fixture(params=GRID_NAMES)
def grid(request):
    return load_grid(request.param)


@pytest.fixture
def measure():
    return measure_text


@pytest.fixture
def english():
    return load_labels("en")


@pytest.fixture
def colour_theme():
    return load_theme("colour")


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Run the command line through click's runner in a fresh folder: ``run("render", "classic")``."""
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return invoke


def need_tool(name: str) -> str:
    """The path of a command-line tool, or skip the test with the reason."""
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (Debian: see .ci/run)")
    return path


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    """One headless Chromium for the whole run (tests/browser.py); its downloads go to ``chromium.downloads``."""
    from browser import start_chromium

    downloads = tmp_path_factory.mktemp("downloads")
    driver = start_chromium(downloads)
    driver.downloads = downloads
    yield driver
    driver.quit()


@pytest.fixture
def page(chromium, tmp_path):
    """Open a grid's counter page on a fresh table: ``page("classic", players=2)`` (tests/counter_page.py)."""
    from counter_page import counter_opener

    return counter_opener(chromium, tmp_path)
