"""One score run: every sheet of every input, the cheap checks first, every
refusal reported as it is found, the run bounded, an input given twice."""

from __future__ import annotations

import json
import os

import pytest

from sheetgen.errors import SheetgenError
from sheetgen.grid.load import load_grid
from sheetgen.play import tally as tally_module
from sheetgen.play.tally import repeated_input, score_document, tally

CLASSIC = load_grid("classic")
LEA = {"player": "Lea", "rows": [{"crossed": [2, 3, 4, 5, 6, 7]}, {"crossed": [2, 3, 4, 5]},
                                 {"crossed": [12, 11, 10, 9, 8, 7, 2]}, {"crossed": [12, 11, 10]}], "penalties": 1}
BAD = {"rows": [{"crossed": [2, 3, 4, 12]}, {}, {}, {}]}  # red 12 after 3 crosses


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lea.json").write_text(json.dumps(LEA))
    (tmp_path / "bad.json").write_text(json.dumps(BAD))
    (tmp_path / "table.yaml").write_text(
        "players:\n  - {player: Tom, rows: [{crossed: [2]}, {}, {}, {}]}\n"
        "  - {player: Max, rows: [{}, {}, {}, {}], penalties: 9}\n  - {player: Ida, rows: [{}]}\n")
    return tmp_path


def run(*inputs: str):
    reported: list[str] = []
    result = tally(CLASSIC, inputs, reported.append)
    return result, [str(error) for error in reported]


def test_every_sheet_is_scored_in_the_order_of_the_inputs(folder):
    result, reported = run("lea.json", "Ann: 1 0 0 0", "table.yaml")
    assert [(s.name, s.total) for s in result.scores] == [("Lea", 68), ("Ann", 1), ("Tom", 1)]
    assert reported == [
        "table.yaml: players[1].penalties: 9 crossed but the sheet has only 4 penalty boxes",
        "table.yaml: players[2].rows: expected 4 rows (one per row of grid 'classic'), got 1",
    ]


def test_every_refusal_is_reported_with_its_reason(folder):
    result, reported = run("bad.json", "nobody.json", "Ann: 13 0 0 0", "lea.json", "Bo: 1 2")
    assert [(r["file"], r["path"], r["reason"]) for r in result.refused] == [
        ("nobody.json", "", "read"),  # found by stat, before any file is read
        ("Ann: 13 0 0 0", "rows[0]", "capacity"),  # counts next: they cost no reading
        ("Bo: 1 2", "rows", "form"),
        ("bad.json", "rows[0].crossed", "threshold"),
    ]
    assert reported[0] == "nobody.json: no such file"
    assert [s.name for s in result.scores] == ["Lea"]


def test_a_file_that_is_no_marks_file(folder):
    (folder / "list.yaml").write_text("- 1\n")
    (folder / "broken.yaml").write_text("rows: [\n")
    result, _ = run("list.yaml", "broken.yaml", "table.yaml")
    assert [(r["file"], r["path"], r["reason"]) for r in result.refused][:2] == [
        ("list.yaml", "", "form"), ("broken.yaml", "line 2, column 1", "read")]


@pytest.mark.parametrize("inputs, repeated", [
    (("lea.json", "bad.json", "lea.json"), (0, 2)),
    (("lea.json", "./lea.json"), (0, 1)),
    (("lea.json", "hard.json"), (0, 1)),  # the same file under another name
    (("gone.json", "./gone.json"), (0, 1)),  # missing files compare by path
    (("-", "lea.json", "-"), (0, 2)),
    (("Ann: 1 0 0 0", "Ann: 1 0 0 0"), None),  # two players may type the same
    (("lea.json", "bad.json"), None),
])
def test_an_input_given_twice(folder, inputs, repeated):
    os.link(folder / "lea.json", folder / "hard.json")
    assert repeated_input(inputs) == repeated


def test_a_run_is_bounded_before_anything_is_read(folder, monkeypatch):
    monkeypatch.setattr(tally_module, "MAX_INPUTS", 2)
    with pytest.raises(SheetgenError, match="^3 inputs given; one run scores at most 2$"):
        run("lea.json", "bad.json", "Ann: 0 0 0 0")
    monkeypatch.setattr(tally_module, "MAX_INPUTS", 10)
    monkeypatch.setattr(tally_module, "MAX_RUN_BYTES", 2**20)
    for n in range(6):  # each under the 256 KiB of one file
        (folder / f"big{n}.yaml").write_text("rows: [{}, {}, {}, {}]\n" + "#" * 200 * 1024)
    with pytest.raises(SheetgenError) as error:
        run("lea.json", *(f"big{n}.yaml" for n in range(6)))
    assert str(error.value) == "the marks files hold 1.2 MiB in all; one run reads at most 1 MiB (score them in several runs)"


def test_a_run_scores_a_bounded_number_of_sheets(folder, monkeypatch):
    monkeypatch.setattr(tally_module, "MAX_SHEETS", 3)
    assert len(run("lea.json", "table.yaml")[0].scores) == 2  # Lea, Tom, Max (refused): 3 sheets
    with pytest.raises(SheetgenError, match=r"^more than 3 sheets in one run \(score them in several runs\)$"):
        run("lea.json", "table.yaml", "Ann: 0 0 0 0")


def test_the_contract_result_of_one_document():
    result = score_document(CLASSIC, {"players": [LEA, {**BAD, "player": "Tom"}]}, "table.json")
    assert [s["player"] for s in result["sheets"]] == ["Lea"]
    assert result["refused"] == [{"file": "table.json", "path": "players[1].rows[0].crossed", "reason": "threshold",
                                  "message": "12 crossed with only 3 crosses before it (the last cell needs at least 5)"}]
    assert (result["ranking"], result["winners"]) == ([], [])
