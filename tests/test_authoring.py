"""docs/authoring.md tells the truth: its commands print what it says, and
every error line it shows is what sheetgen prints for the mistake it shows.

Each mistake below is made in the guide's own Two-Tone file and checked
with the command line, in a folder where the file is called two-tone.yaml,
as in the guide.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from sheetgen.cli import cli
from sheetgen.grid.load import builtin_dir
from sheetgen.grid.yamlio import parse_yaml

GUIDE = (Path(__file__).resolve().parent.parent / "docs" / "authoring.md").read_text()
TWO_TONE = next(block for block in re.findall(r"```yaml\n(.*?)```", GUIDE, re.S) if block.startswith("# yaml-"))
SHOWN_LINES = {line for block in re.findall(r"```text\n(.*?)```", GUIDE, re.S) for line in block.splitlines()}

# (what the guide calls it, the change to the Two-Tone file, the command)
MISTAKES = [
    ("purple", [("{number: 5, colour: yellow}", "{number: 5, colour: purple}")], "check"),
    ("color", [("  - colour: green", "  - color: green")], "check"),
    ("13", [("{number: 5, colour: yellow}", "{number: 13, colour: yellow}")], "check"),
    ("twice", [("{number: 6, colour: yellow}", "{number: 5, colour: yellow}")], "check"),
    ("same-lock", [("colour: red}, 6, 5, 4, 3, 2]", "colour: red}, 6, 5, 4, 3, {number: 2, colour: red}]")], "check"),
    ("no-colour", [("  - colour: red\n    cells", "  - cells")], "check"),
    ("close-after", [("close_after: 5", "close_after: 11")], "check"),
    ("name", [("name: two-tone", "name: Two Tone")], "check"),
    ("float", [("points: 5}", "points: 5.0}")], "check"),
    ("colon", [('title: "Qwixx Two-Tone"', "title: Qwixx: Two-Tone")], "check"),
    ("indent", [("\ndescription:", "\n  description:")], "check"),
    ("wide", [("dice_faces: 6", "dice_faces: 10"), ("cells: [2, 3, 4, {number: 5, colour: yellow}",
                                                     "cells: [13, 14, 15, 16, 17, 18, 19, 20, 2, 3, 4, {number: 5, colour: yellow}"),
              ("{number: 7, colour: yellow}, 8, 9, 10, 11, 12]\n", "{number: 7, colour: yellow}, 8, 9, 10, 11, 12]\n    double: [13]\n")],
     "check"),
]


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str):
        return CliRunner().invoke(cli, list(args))

    return invoke


def mistaken(changes: list[tuple[str, str]]) -> str:
    text = TWO_TONE
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def test_show_prints_the_builtin_file(run):
    """The file as it is, but for what only makes sense in the repository: the
    schema is beside the copy, the docs are help topics."""
    result = run("show", "classic")
    original = (builtin_dir() / "classic.yaml").read_text().splitlines()
    shown = result.output.splitlines()
    assert result.exit_code == 0
    assert shown[0] == "# yaml-language-server: $schema=grid.schema.json" != original[0]
    assert shown[1].endswith("`sheetgen schema -o grid.schema.json` writes it.")
    assert shown[3:] == original[2:] and "docs/" not in result.output
    result = run("show", "two-tone")
    assert result.exit_code == 1
    assert result.stderr.startswith("sheetgen: two-tone: not a built-in grid (expected bis, blocks, ")


def test_the_walk_through_prints_what_the_guide_says(run, tmp_path):
    schema = json.loads(run("schema").output)
    assert list(Draft202012Validator(schema).iter_errors(parse_yaml(TWO_TONE, "two-tone.yaml"))) == []
    (tmp_path / "two-tone.yaml").write_text(TWO_TONE)
    result = run("check", "two-tone.yaml")
    assert result.exit_code == 0 and result.output.strip() in SHOWN_LINES
    result = run("render", "two-tone.yaml")
    assert result.exit_code == 0 and result.output.strip() in SHOWN_LINES
    assert (tmp_path / "out" / "two-tone.pdf").exists()


@pytest.mark.parametrize(("name", "changes", "command"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_each_mistake_prints_the_line_the_guide_shows(run, tmp_path, name, changes, command):
    (tmp_path / "two-tone.yaml").write_text(mistaken(changes))
    result = run(command, "two-tone.yaml")
    assert result.exit_code == 1
    assert result.stderr.strip() in SHOWN_LINES, result.stderr


def test_every_error_line_in_the_guide_is_one_a_mistake_makes(run, tmp_path):
    produced = set()
    for _, changes, command in MISTAKES:
        (tmp_path / "two-tone.yaml").write_text(mistaken(changes))
        produced.add(run(command, "two-tone.yaml").stderr.strip())
    assert {line for line in SHOWN_LINES if line.startswith("sheetgen: ")} == produced
