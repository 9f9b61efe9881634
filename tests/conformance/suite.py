"""The conformance suite of sheetgen's rules engines: loading its cases and
comparing a result with what a case expects.

Every engine (the Python scorer; the counter page's JavaScript, run in a
browser) is given each case's grid and marks document and must return the
same result.  This module knows nothing of any engine: a runner scores a case
its own way and hands the result to ``differences``.  The format is described
in README.md beside this file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOT_COMPARED = ("message",)  # in refusals: for people, worded by each engine


@dataclass(frozen=True)
class Case:
    id: str
    description: str
    grid: str | dict  # a built-in grid's name, or a grid file's data
    marks: object  # the marks document, exactly as `sheetgen score` reads it
    file: str  # the name the document is scored under
    expect: dict  # the result: sheets, ranking, winners, refused
    source: str  # the case file it comes from


def grid_data(grid: dict) -> dict:
    """An inline grid as the grid format has it.  JSON keys are text, and the
    format's ``symbols`` maps cell numbers to symbols, so its keys ("12") are
    turned back into numbers; nothing else changes."""
    rows = [
        {**row, "symbols": {int(number): symbol for number, symbol in row["symbols"].items()}} if "symbols" in row else row
        for row in grid["rows"]
    ]
    return {**grid, "rows": rows}


def case_files(folder: Path = HERE) -> list[Path]:
    """cases.json and any other *.json here (generated cases go in files of their own),
    but the live-rules cases (live-*.json: games, read by tests/live_rules.py)."""
    return sorted(path for path in folder.glob("*.json") if not path.name.startswith("live-"))


def load_cases(folder: Path = HERE) -> list[Case]:
    cases: list[Case] = []
    for path in case_files(folder):
        document = json.loads(path.read_text(encoding="utf-8"))
        for entry in document["cases"]:
            cases.append(Case(entry["id"], entry["description"], entry["grid"], entry["marks"],
                              entry.get("file", document["file"]), entry["expect"], path.name))
    ids = [case.id for case in cases]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise ValueError(f"case ids used twice: {', '.join(repeated)}")
    return cases


def comparable(result: dict) -> dict:
    """A result with what engines need not agree on left out."""
    refused = [{k: v for k, v in refusal.items() if k not in NOT_COMPARED} for refusal in result.get("refused", [])]
    return {**result, "refused": refused}


def differences(result: dict, expect: dict) -> list[str]:
    """Where ``result`` differs from ``expect``, one line each as 'path: got X, expected Y'; [] if it agrees.

    ``expect`` is a whole result, or for generated cases ``{"points": [...]}``:
    each sheet's row points and total, in order, with nothing refused."""
    found: list[str] = []
    if "points" in expect:
        _compare(points_of(result), expect, "", found)
    else:
        _compare(comparable(result), comparable(expect), "", found)
    return found


def points_of(result: dict) -> dict:
    """What a generated case expects of a result: each sheet's row points and
    total, and the refusals (none, for a sheet a game left)."""
    return {
        "points": [{"rows": [row["points"] for row in sheet["rows"]], "total": sheet["total"]}
                   for sheet in result.get("sheets", [])],
        **({"refused": comparable(result)["refused"]} if result.get("refused") else {}),
    }


def _compare(got: object, want: object, path: str, found: list[str]) -> None:
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got)):
            where = f"{path}.{key}" if path else key
            if key not in got:
                found.append(f"{where}: missing, expected {json.dumps(want[key])}")
            elif key not in want:
                found.append(f"{where}: got {json.dumps(got[key])}, expected nothing")
            else:
                _compare(got[key], want[key], where, found)
    elif isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for index, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, f"{path}[{index}]", found)
    elif type(got) is not type(want) or got != want:
        found.append(f"{path}: got {json.dumps(got)}, expected {json.dumps(want)}")
