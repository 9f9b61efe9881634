"""The Python scorer against the conformance suite (tests/conformance/): every
case's marks document scored on its grid gives exactly the expected result."""

from __future__ import annotations

import pytest
from conformance.suite import differences, grid_data, load_cases

from sheetgen.grid.load import grid_from_data, load_grid
from sheetgen.play.scoring import REASONS
from sheetgen.play.tally import score_document

CASES = load_cases()


def engine_result(case) -> dict:
    grid = load_grid(case.grid) if isinstance(case.grid, str) else grid_from_data(grid_data(case.grid), f"{case.id}.yaml")
    return score_document(grid, case.marks, case.file)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_the_python_scorer_agrees(case):
    assert differences(engine_result(case), case.expect) == [], case.description


def test_every_reason_has_a_case():
    reasons = {refusal["reason"] for case in CASES for refusal in case.expect["refused"]}
    assert set(REASONS) | {"form"} <= reasons


def test_the_comparison_finds_what_differs():
    case = next(c for c in CASES if c.id == "classic-68")
    result = engine_result(case)
    result["sheets"][0]["rows"][2]["points"] = 28
    result["refused"].append({"file": "marks.json", "path": "", "reason": "read", "message": "x"})
    assert differences(result, case.expect) == [
        "refused: got [{\"file\": \"marks.json\", \"path\": \"\", \"reason\": \"read\"}], expected []",
        "sheets[0].rows[2].points: got 28, expected 36",
    ]
    assert differences({**result, "refused": [{"message": "other words", **r} for r in case.expect["refused"]]},
                       {**case.expect, "sheets": result["sheets"]}) == []


def test_a_generated_case_compares_points_only():
    case = next(c for c in CASES if c.id == "classic-68")
    result = engine_result(case)
    assert differences(result, {"points": [{"rows": [21, 10, 36, 6], "total": 68}]}) == []
    assert differences(result, {"points": [{"rows": [21, 10, 36, 6], "total": 69}]}) == [
        "points[0].total: got 68, expected 69"]
    refused = engine_result(next(c for c in CASES if c.id == "classic-threshold"))
    assert differences(refused, {"points": []}) == [
        'refused: got [{"file": "marks.json", "path": "rows[0].crossed", "reason": "threshold"}], expected nothing']
