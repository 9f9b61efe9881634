"""`sheetgen score`: exact output and one-line errors, through click's runner:
marks files, files of several players and counts; every bad sheet reported."""

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


LEA_TABLE = (
    "  red        6 crosses          21\n"
    "  yellow     4 crosses          10\n"
    "  green      8 crosses, locked  36\n"
    "  blue       3 crosses           6\n"
    "  penalties  1 crossed          \u22125\n"
    "  total                         68\n"
)


def test_score_one_sheet(run):
    result = run("score", "classic", "lea.yaml")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "Lea (lea.yaml): Qwixx\n" + LEA_TABLE


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


def test_score_counts_typed_at_the_table(run):
    result = run("score", "classic", "Lea: 6 4 8L 3 p1", "Tom: 4 3 7 8L p2")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "Lea: Qwixx\n" + LEA_TABLE + (
        "\n"
        "Tom: Qwixx\n"
        "  red        4 crosses           10\n"
        "  yellow     3 crosses            6\n"
        "  green      7 crosses           28\n"
        "  blue       8 crosses, locked   36\n"
        "  penalties  2 crossed          \u221210\n"
        "  total                          70\n"
        "\n"
        "Ranking\n"
        "  1  Tom  70\n"
        "  2  Lea  68\n"
        "Winner: Tom with 70\n"
    )  # 21 + 10 + 36 + 6 - 5 = 68; 10 + 6 + 28 + 36 - 10 = 70


def test_score_a_file_of_several_players_with_files_and_counts(run, tmp_path):
    (tmp_path / "table.yaml").write_text("players:\n  - {player: Ann, rows: [{crossed: [2, 3]}, {}, {}, {}]}\n"
                                         "  - {player: Bo, rows: [{}, {}, {}, {crossed: [12]}]}\n")
    result = run("score", "classic", "table.yaml", "lea.yaml", "Cy: 2 0 0 0")
    assert result.exit_code == 0
    assert result.stdout.endswith(
        "Ranking\n"
        "  1  Lea  68\n"
        "  2  Ann   3\n"
        "  2  Cy    3\n"
        "  4  Bo    1\n"
        "Winner: Lea with 68\n"
    )


def test_every_bad_sheet_gets_a_line_and_the_others_are_still_scored(run, tmp_path):
    (tmp_path / "bad.yaml").write_text("rows: [{crossed: [2, 3, 4, 12]}, {}, {}, {}]\n")
    result = run("score", "classic", "bad.yaml", "max.yaml", "nobody.yaml", "Ann: 6L 0 0 0")
    assert result.exit_code == 1
    assert result.stderr == (
        "sheetgen: nobody.yaml: no such file\n"
        "sheetgen: \"Ann: 6L 0 0 0\": rows[0]: 6L means 4 crosses before the last cell (the count includes the last"
        " cell and the lock), but the last cell needs at least 5\n"
        "sheetgen: bad.yaml: rows[0].crossed: 12 crossed with only 3 crosses before it (the last cell needs at least 5)\n"
    )
    assert result.stdout.startswith("max.yaml: Qwixx\n")
    assert "Ranking" not in result.stdout  # a ranking needs every sheet


def test_score_json_gives_the_refusals_too(run, tmp_path):
    (tmp_path / "bad.yaml").write_text("rows: [{crossed: [2, 3, 4, 12]}, {}, {}, {}]\n")
    result = run("score", "classic", "lea.yaml", "bad.yaml", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [s["player"] for s in data["sheets"]] == ["Lea"]
    assert (data["ranking"], data["winners"], data["sheets"][0]["place"]) == ([], [], None)
    assert data["refused"] == [{"file": "bad.yaml", "path": "rows[0].crossed", "reason": "threshold",
                                "message": "12 crossed with only 3 crosses before it (the last cell needs at least 5)"}]


def test_the_same_file_twice_is_a_command_line_error(run):
    result = run("score", "classic", "lea.yaml", "max.yaml", "./lea.yaml")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "sheetgen score: './lea.yaml' is given twice (MARKS 1 and 3) (see 'sheetgen score --help')\n"
    )


def test_a_game_with_a_refused_sheet_is_not_added_to_the_standings(run, tmp_path):
    result = run("score", "classic", "lea.yaml", "Ann: 6L 0 0 0", "--standings", "evening.csv")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "sheetgen: evening.csv: not updated (a game is added only when all its sheets are scored)")
    assert not (tmp_path / "evening.csv").exists()
    result = run("score", "classic", "lea.yaml", "Ann: 7L 0 0 0", "--standings", "evening.csv", "--json")
    assert result.exit_code == 0
    assert [row["player"] for row in json.loads(result.stdout)["standings"]] == ["Lea", "Ann"]
