"""An installed copy stands alone: `sheetgen help` prints the manual's pages
(shipped as package data), every command's help ends with examples that
parse, nothing sheetgen prints points at a file of the repository, and the
grid `show` writes is checked by the schema `schema -o` writes beside it."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.topics import for_terminal, manual_dir, topics

ROOT = Path(__file__).resolve().parent.parent
REPOSITORY_PATH = re.compile(r"docs/|\.md\b|sheetgen/grid/|\.\./")


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_every_page_of_the_manual_is_a_topic_and_help_lists_them():
    assert sorted(topics()) == sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    assert manual_dir().samefile(ROOT / "docs")  # a checkout reads docs/ itself; an installed copy its package data
    listed = invoke("help")
    assert listed.exit_code == 0
    lines = listed.output.splitlines()
    assert lines[0] == "Topics of the manual ('sheetgen help TOPIC' prints one):"
    assert [line.split()[0] for line in lines[1:]] == list(topics())
    assert "  scoring       Scoring filled-in sheets" in lines


def test_a_topic_is_its_page_with_links_made_for_a_terminal():
    page = invoke("help", "scoring").output
    assert page.startswith("# Scoring filled-in sheets\n")
    assert "grid-format.md" not in page and "`sheetgen help grid-format`" in page
    assert for_terminal("See [the limits](limits.md#a-score-run), [LICENSE](../LICENSE) and ![a page](p.png).") == (
        "See the limits (`sheetgen help limits`), LICENSE and (picture: a page).")


def test_an_unknown_topic_is_one_line_with_the_nearest():
    result = CliRunner().invoke(cli, ["help", "scorng"])
    assert result.exit_code == 1
    assert result.stderr.startswith("sheetgen: sheetgen help: no topic 'scorng', did you mean 'scoring'? (expected one"
                                    " of printing, sizes,")


def commands() -> list[tuple[str, click.Command]]:
    return sorted(cli.commands.items())


@pytest.mark.parametrize("name, command", commands(), ids=[name for name, _ in commands()])
def test_every_commands_help_ends_with_examples_that_parse(name, command):
    result = invoke(name, "--help")
    assert result.exit_code == 0
    assert "\nExamples:\n" in result.output, f"{name}: no examples"
    examples = result.output.split("\nExamples:\n", 1)[1].split("\n\n")[0].splitlines()
    assert examples and all(line.startswith("  sheetgen ") for line in examples)
    for example in examples:
        words = shlex.split(re.split(r" [|>] ", example)[0])
        assert words[1] in cli.commands, example
        sub = cli.commands[words[1]]
        sub.make_context(words[1], words[2:], resilient_parsing=True)  # an unknown option fails here


def test_every_command_takes_quiet():
    for name, command in commands():
        assert {"-q", "--quiet"} <= {opt for param in command.params for opt in param.opts}, name


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_no_help_points_at_a_file_of_the_repository(name):
    text = invoke(name, "--help").output
    assert not REPOSITORY_PATH.search(text), REPOSITORY_PATH.search(text).group()


def test_messages_point_at_help_topics_not_repository_files(run):
    from sheetgen.grid.load import GRID_FORMAT, grid_schema

    result = run("score", "powers", "Lea: 3 2 1 0")  # counts cannot tell which powers are unlocked
    assert result.exit_code == 1
    assert "'sheetgen help scoring'" in result.stderr and not REPOSITORY_PATH.search(result.stderr)
    assert not REPOSITORY_PATH.search(grid_schema()) and "sheetgen help grid-format" in GRID_FORMAT.doc
    assert not REPOSITORY_PATH.search(invoke("--help").output)


def test_show_writes_a_grid_that_the_schema_beside_it_checks(run, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    assert run("show", "classic", "-o", "mine.yaml").exit_code == 0
    assert run("schema", "-o", "grid.schema.json").exit_code == 0
    text = (tmp_path / "mine.yaml").read_text()
    first = text.splitlines()[0]
    assert first == "# yaml-language-server: $schema=grid.schema.json"
    assert not REPOSITORY_PATH.search(text)
    schema = json.loads((tmp_path / first.split("$schema=")[1]).read_text())  # as an editor finds it
    jsonschema.validate(yaml.safe_load(text), schema)
    broken = yaml.safe_load(text) | {"color": "red"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_show_and_schema_write_to_standard_output_by_default(run):
    from sheetgen.grid.load import builtin_text, grid_schema

    assert run("show", "longo").output == builtin_text("longo")
    assert run("schema").output == grid_schema()
    assert run("show", "longo", "-o", "-").output == builtin_text("longo")


def test_lang_lists_the_languages_and_starts_a_file_of_ones_own(run, tmp_path):
    listed = run("lang").output.splitlines()
    assert listed[0] == "en  English" and "de  Deutsch" in listed
    example = run("lang", "--example", "de").output
    assert example.startswith("# Your own words for sheetgen's --lang-file, from the 'de' file")
    (tmp_path / "club.yaml").write_text(example.replace('"Fehlwürfe"', '"Patzer"'))
    for command in (("render", "classic"), ("rules", "classic", "--pdf"), ("counter", "classic"), ("rules", "classic")):
        result = run(*command, "--lang-file", "club.yaml")
        assert result.exit_code == 0, (command, result.output)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "classic-club-rules.pdf", "classic-club.pdf", "counter-classic-club.html"]
    assert "Patzer" in (tmp_path / "out" / "counter-classic-club.html").read_text()
