"""Measure `sheetgen scan` on the synthetic corpus against the goals, as a markdown table.

    python scripts/scan_corpus.py --pictures 200 --seed 1

Each picture (scripts/scan_pictures.py) is one filled, degraded sheet; the reader is given its grid,
language, size and theme as `sheetgen scan --grid` would be.  It counts the boxes read right, the sheets
read exactly, of the sheets reported certain (no doubtful box, the rules accept them) how many are
exact, single strikes through skipped cells read as crosses, and the seconds per sheet (reading only).
"""

from __future__ import annotations

import argparse
import runpy
import sys
import time
from collections import Counter
from pathlib import Path

from sheetgen.errors import InputError
from sheetgen.scan import vision
from sheetgen.scan.layout import layouts
from sheetgen.scan.read import sheets_in
from sheetgen.scan.sheets import check
from sheetgen.sheet.machine import Identity

PICTURES = runpy.run_path(str(Path(__file__).with_name("scan_pictures.py")))


def measure(made, where: str = "picture") -> dict:
    """One picture read and compared with its truth."""
    started = time.perf_counter()
    picture = vision.decode(made.encoded)
    identity = Identity(made.grid.name, "en", "standard", made.theme)
    layout = layouts(made.grid, where)
    try:
        readings = sheets_in(picture, where, identity, layout)
    except InputError as error:
        return {"found": False, "seconds": time.perf_counter() - started, "error": str(error)}
    reading = readings[0]
    grid, plan, _ = layout(reading.identity)
    checked = check(reading, grid, plan)
    seconds = time.perf_counter() - started
    read = {(b.kind, b.row, b.index) for b in reading.boxes if b.crossed}
    wrong = [(b.kind, b.row, b.index) for b in reading.boxes if ((b.kind, b.row, b.index) in made.truth.crossed)
             != b.crossed]
    return {"found": True, "seconds": seconds, "boxes": len(reading.boxes), "wrong": wrong,
            "certain": checked.score is not None, "struck": len(made.truth.struck),
            "struck_read": len(made.truth.struck & read), "doubtful": len(reading.doubtful),
            "sheets": len(readings)}


def run(count: int, seed: int, progress=None) -> tuple[list[dict], list]:
    results, made_list = [], []
    for n in range(count):
        made = PICTURES["picture"](seed * 100_000 + n)
        result = measure(made, f"picture {n}")
        result["kinds"] = made.degradations
        result["pencil"] = made.truth.pencil
        results.append(result)
        made_list.append(made)
        if progress:
            progress(n, result)
    return results, made_list


def table(results: list[dict], seed: int) -> str:
    found = [r for r in results if r["found"]]
    boxes = sum(r["boxes"] for r in found)
    wrong = sum(len(r["wrong"]) for r in found)
    exact = sum(1 for r in found if not r["wrong"])
    certain = [r for r in found if r["certain"]]
    certain_exact = sum(1 for r in certain if not r["wrong"])
    struck = sum(r["struck"] for r in found)
    struck_read = sum(r["struck_read"] for r in found)
    seconds = sorted(r["seconds"] for r in found)

    def pc(a: int, b: int) -> str:
        return f"{100 * a / b:.2f} %" if b else "-"

    lines = [f"Corpus: {len(results)} pictures, seed {seed} (scripts/scan_corpus.py --pictures {len(results)}"
             f" --seed {seed})", "",
             "| measure | goal | measured |", "|---|---|---|",
             f"| sheets found | 100 % | {pc(len(found), len(results))} ({len(found)} of {len(results)}) |",
             f"| boxes right | >= 99.5 % | {pc(boxes - wrong, boxes)} ({wrong} wrong of {boxes}) |",
             f"| sheets exact | >= 97 % | {pc(exact, len(found))} ({exact} of {len(found)}) |",
             f"| certain sheets exact | >= 99.9 % | {pc(certain_exact, len(certain))} ({certain_exact} of"
             f" {len(certain)} reported certain) |",
             f"| strikes not read as crosses | >= 99.5 % | {pc(struck - struck_read, struck)} ({struck_read} of"
             f" {struck} read as crosses) |",
             f"| seconds per sheet (median, max) | <= 0.5 | {seconds[len(seconds) // 2]:.2f}, {seconds[-1]:.2f} |"
             if seconds else "| seconds per sheet | <= 0.5 | - |"]
    kinds: Counter = Counter()
    bad: Counter = Counter()
    for r in results:
        for kind in r["kinds"] or ("none",):
            kinds[kind] += 1
            bad[kind] += 0 if r["found"] and not r["wrong"] else 1
    lines += ["", "| degradation | pictures | not exact |", "|---|---|---|"]
    lines += [f"| {kind} | {kinds[kind]} | {bad[kind]} |" for kind in sorted(kinds)]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pictures", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true", help="a line per picture not read exactly")
    args = parser.parse_args()

    def report(n: int, result: dict) -> None:
        if args.verbose and (not result["found"] or result["wrong"]):
            print(n, result, file=sys.stderr)

    results, _ = run(args.pictures, args.seed, report)
    print(table(results, args.seed))


if __name__ == "__main__":
    main()
