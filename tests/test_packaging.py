"""Packaging: the metadata a package index shows, and the files the package needs at run time."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def test_the_name_is_free_and_the_licence_is_a_field_every_pip_shows():
    """The name sheetgen on the package index is another project's (2016, EAN code
    sheets): ours is qwixx-sheets, the command and the import still sheetgen.  pip 23
    and 24 print `License:` from the License field only, not from an SPDX
    expression: setup.cfg gives that field (tests/test_install.py reads it in the
    wheel and in `pip show`)."""
    import configparser

    assert PROJECT["name"] == "qwixx-sheets"
    assert PROJECT["scripts"]["sheetgen"] == "sheetgen.__main__:main"
    assert "license" not in PROJECT and "license" in PROJECT["dynamic"]
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg")
    assert setup["metadata"]["license"] == "MIT"
    for name in PROJECT["license-files"]:
        assert (REPO / name).is_file(), name
    assert (REPO / "LICENSE").read_text().startswith("MIT License\n")
    assert PROJECT["authors"] == PROJECT["maintainers"] == [{"name": "the sheetgen authors"}]
    assert not [c for c in PROJECT["classifiers"] if c.startswith("License ::")]


def test_the_classifiers_say_what_the_project_is_for():
    classifiers = set(PROJECT["classifiers"])
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert f"Programming Language :: Python :: {PROJECT['requires-python'].removeprefix('>=')}" in classifiers


def test_every_data_file_ships_with_the_package():
    """Labels, themes and the example manifest are read from the installed package, not the repository."""
    from fnmatch import fnmatch

    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = setuptools["package-data"]["sheetgen.data"]
    files = [p.name for p in (REPO / "sheetgen" / "data").iterdir() if p.is_file() and p.suffix != ".py"]
    assert "example-batch.yaml" in files
    assert [name for name in files if not any(fnmatch(name, pattern) for pattern in patterns)] == []
