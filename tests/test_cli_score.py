"""`sheetgen score`: exact output and one-line errors, through click's runner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli

LEA = """\
player: Lea
rows:
  - crossed: [2, 3, 4, 5, 6, 7]
  - crossed: [2, 3, 4, 5]
  - crossed: [12, 11, 10, 9, 8, 7, 2]
  - crossed: [12, 11, 10]
penalties: 1
"""  # 21 + 10 + 36 + 6 - 5 = 68

TOM = {"player": "Tom", "rows": [{"crossed": [2, 3, 4, 5, 6, 7]}, {"crossed": [2, 3, 4, 5]},
                                 {"crossed": [12, 11, 10, 9, 8, 7, 2]}, {"crossed": [12, 11, 10]}], "penalties": 1}
MAX = "rows: [{crossed: [2]}, {}, {}, {}]\n"  # 1


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lea.yaml").write_text(LEA)
    (tmp_path / "tom.json").write_text(json.dumps(TOM))
    (tmp_path / "max.yaml").write_text(MAX)

    def invoke(*args: str):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return invoke


def test_score_one_sheet(run):
    result = run("score", "classic", "lea.yaml")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "Lea (lea.yaml): Qwixx\n"
        "  red        6 crosses          21\n"
        "  yellow     4 crosses          10\n"
        "  green      8 crosses, locked  36\n"
        "  blue       3 crosses           6\n"
        "  penalties  1 crossed          -5\n"
        "  total                         68\n"
    )


def test_score_several_sheets_ranks_them_with_ties(run):
    result = run("score", "classic", "lea.yaml", "max.yaml", "tom.json")
    assert result.exit_code == 0
    assert result.stdout.endswith(
        "Ranking\n"
        "  1  Lea       68\n"
        "  1  Tom       68\n"
        "  3  max.yaml   1\n"
        "Winners (tie): Lea and Tom with 68\n"
    )


def test_score_json(run):
    result = run("score", "classic", "lea.yaml", "max.yaml", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["ranking"] == [{"place": 1, "name": "Lea", "total": 68}, {"place": 2, "name": "max.yaml", "total": 1}]
    assert data["winners"] == ["Lea"]


BAD_RUNS = [
    (("score", "classic", "nobody.yaml"), 1, "sheetgen: nobody.yaml: no such file"),
    (("score", "classic", "bad.yaml"), 1,
     "sheetgen: bad.yaml: rows[0].crossed: 12 crossed with only 3 crosses before it (the last cell needs at least 5)"),
    (("score", "classic", "short.yaml"), 1,
     "sheetgen: short.yaml: rows: expected 4 rows (one per row of grid 'classic'), got 1"),
    (("score", "bonus", "other.yaml"), 1,
     "sheetgen: other.yaml: grid: this sheet is for grid 'classic', not 'bonus' (the grid being scored)"),
    (("score", "classic"), 2, "sheetgen score: Missing argument 'MARKS...'. (see 'sheetgen score --help')"),
]


@pytest.mark.parametrize("args, code, message", BAD_RUNS)
def test_score_errors_are_one_line(run, tmp_path, args, code, message):
    (tmp_path / "bad.yaml").write_text("rows: [{crossed: [2, 3, 4, 12]}, {}, {}, {}]\n")
    (tmp_path / "short.yaml").write_text("rows: [{}]\n")
    (tmp_path / "other.yaml").write_text("grid: classic\n" + MAX)
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (code, "", message + "\n")
