"""The published JSON Schema of grid files stays in step with the validator.

Both come from one description, ``grids.GRID_FORMAT``; these tests check the
outcome rather than trust it: the committed file is what ``sheetgen schema``
prints, every grid the validator accepts passes the schema, every shape error
of the validator's table fails it, and both accept the same keys everywhere.
Files are checked as an editor sees them: YAML turned into JSON.
"""

from __future__ import annotations

import fnmatch
import json
import operator
import re
import tomllib
from functools import reduce
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from sheetgen.cli import cli
from sheetgen.errors import InputError
from sheetgen.grid.load import builtin_dir, builtin_names, grid_from_data, grid_schema
from sheetgen.grid.yamlio import parse_yaml, read_yaml

from test_validate import CASES, changed

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FILE = ROOT / "sheetgen" / "grid" / "grid.schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text())
VALIDATOR = Draft202012Validator(SCHEMA)

# Cases of the validator's table that a schema of one file's shape cannot see,
# because they relate two values; the schema accepts exactly these.
CROSS_FIELD = {
    "close-unreachable",  # close_after against the row's cells
    "same-lock",  # one row's lock colour against the others
    "cell-13",  # a cell number against dice_faces (the schema allows the widest: 2 to 20)
    "cell-twice",  # a number against the row's other numbers
    "cell-no-colour",  # a cell without colour against its row's colour
    "double-no-cell",  # a cell reference against the row's numbers
    "symbol-no-cell",
    "framed-no-bar",  # framed cells and the bonus bar go together
    "bar-no-framed",
    "bar-no-row",  # a bonus-bar colour against the lock colours
    "symbol-no-power",  # symbols and powers go together
    "power-no-cell",
    "lucky-to",  # lucky.to against lucky.from
    "lucky-range",  # lucky.count against from..to
    "max-capacity",  # max_crosses against what a row holds
    "max-threshold",  # max_crosses against close_after
}
# JSON has one kind of number, so 5.0 is a whole number to JSON Schema; YAML
# tells them apart and the validator refuses 5.0 (write 5).
JSON_CANNOT_SAY = {"penalties-float"}


def as_json(data: object) -> object:
    """What an editor's schema checker sees: keys become text, as in JSON."""
    return json.loads(json.dumps(data))


def schema_errors(data: object) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(as_json(data))]


def test_committed_schema_is_what_sheetgen_schema_prints():
    result = CliRunner().invoke(cli, ["schema"])
    assert result.exit_code == 0
    assert result.output == grid_schema()
    assert SCHEMA_FILE.read_text() == grid_schema(), (
        "sheetgen/grid/grid.schema.json is stale: regenerate it with 'sheetgen schema > sheetgen/grid/grid.schema.json'"
    )


def test_schema_is_valid_draft_2020_12():
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("name", builtin_names())
def test_builtin_grid_passes_the_schema_its_modeline_names(name):
    path = builtin_dir() / f"{name}.yaml"
    first = path.read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    assert (path.parent / first.split("=", 1)[1]).resolve() == SCHEMA_FILE.resolve()
    assert schema_errors(read_yaml(path)) == []


def test_examples_in_the_format_doc_pass_the_schema():  # the authoring guide's: test_authoring
    for text in re.findall(r"```yaml\n(.*?)```", (ROOT / "docs" / "grid-format.md").read_text(), re.S):
        data = parse_yaml(text, "grid-format.md")
        grid_from_data(data, "grid-format.md")
        assert schema_errors(data) == [], text[:60]


def test_every_case_is_classified_once():
    ids = {case[0] for case in CASES}
    assert CROSS_FIELD | JSON_CANNOT_SAY <= ids
    assert not CROSS_FIELD & JSON_CANNOT_SAY


@pytest.mark.parametrize(("name", "changes"), [c[:2] for c in CASES], ids=[c[0] for c in CASES])
def test_shape_errors_fail_the_schema_and_only_those(name, changes):
    data = changed(changes)
    with pytest.raises(InputError):
        grid_from_data(data, "bad.yaml")  # the validator refuses every case
    if name in CROSS_FIELD or name in JSON_CANNOT_SAY:
        assert schema_errors(data) == []
    else:
        assert schema_errors(data), f"the schema accepts {name}, which the validator refuses"


# A mapping of a valid grid: where it is in the schema, and a change that
# puts an unknown key 'zz' into it.
MAPPINGS = [
    ("top", (), {"zz": 1}),
    ("penalties", ("properties", "penalties"), {"penalties.zz": 1}),
    ("row", ("properties", "rows", "items"), {"rows[0].zz": 1}),
    ("cell", ("properties", "rows", "items", "properties", "cells", "items", "anyOf", 1),
     {"rows[0].cells[0]": {"number": 2, "zz": 1}}),
    ("lucky", ("properties", "lucky"), {"lucky": {"count": 2, "from": 2, "to": 12, "zz": 1}}),
    ("powers", ("properties", "powers"), {"powers": {"zz": {"effect": "no_penalties"}}}),
    ("power", ("properties", "powers", "properties", "star"), {"powers": {"star": {"effect": "no_penalties", "zz": 1}}}),
]


@pytest.mark.parametrize(("where", "route", "changes"), MAPPINGS, ids=[m[0] for m in MAPPINGS])
def test_schema_and_validator_accept_the_same_keys(where, route, changes):
    with pytest.raises(InputError) as caught:
        grid_from_data(changed(changes), "bad.yaml")
    listed = re.search(r"unknown key 'zz' \(expected (.*)\)$", str(caught.value)).group(1)
    node = reduce(operator.getitem, route, SCHEMA)
    assert set(node["properties"]) == set(re.split(r", | or ", listed))
    assert node["additionalProperties"] is False


def test_the_package_ships_the_schema():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert any(fnmatch.fnmatch(SCHEMA_FILE.name, pattern) for pattern in data["sheetgen.grid"])
