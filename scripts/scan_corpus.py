"""Measure `sheetgen scan` on the synthetic corpus against the goals, as a markdown table.

    python scripts/scan_corpus.py --pictures 200 --seed 1

Each picture (scripts/scan_pictures.py) is one filled, degraded sheet; the reader is given its grid,
language, size and theme as `sheetgen scan --grid` would be.  It counts the boxes read right (as the
marks scan writes have them: a doubtful box as guessed), the sheets read exactly, of the sheets reported
certain (no doubtful box, the rules accept them) how many are exact, single strikes through skipped cells
read as crosses, and the seconds per sheet (reading only).
"""

from __future__ import annotations

import argparse
import json
import runpy
import sys
import time
from collections import Counter
from pathlib import Path

from sheetgen.errors import InputError
from sheetgen.scan import read as reader
from sheetgen.scan import vision
from sheetgen.scan.layout import layouts
from sheetgen.scan.read import sheets_in
from sheetgen.scan.sheets import check
from sheetgen.sheet.machine import Identity

PICTURES = runpy.run_path(str(Path(__file__).with_name("scan_pictures.py")))


def measure(made, where: str = "picture", features: bool = False) -> dict:
    """One picture read and compared with its truth; with ``features``, each wrong or doubtful box's
    features too (for --list)."""
    seen: list = []
    if features:
        decide = reader.decide

        def keeping(f):  # the reader's decisions, in the order of its boxes, with what they were made from
            seen.append(f)
            return decide(f)

        reader.decide = keeping
    try:
        return _measure(made, where, seen)
    finally:
        if features:
            reader.decide = decide


def _measure(made, where: str, seen: list) -> dict:
    started = time.perf_counter()
    picture = vision.decode(made.encoded)
    identity = Identity(made.grid.name, "en", "standard", made.theme)
    layout = layouts(made.grid, where)
    code = False
    try:  # first as a player scans, without --grid: the sheet's own code must say what it is
        readings = sheets_in(picture, where, None, layouts(None, where))
        said = readings[0].identity
        code = (said.grid, said.lang, said.size, said.theme) == (made.grid.name, "en", "standard", made.theme)
    except InputError:
        readings = []
    try:
        if not code:  # then as `--grid` and the others give it
            readings = sheets_in(picture, where, identity, layout)
    except InputError as error:
        return {"found": False, "seconds": time.perf_counter() - started, "error": str(error), "code": False}
    grid, plan, _ = layout(readings[0].identity)
    checked = check(readings[0], grid, plan)
    reading = checked.reading  # the marks scan writes: a doubtful box crossed where every legal reading crosses it
    seconds = time.perf_counter() - started
    read = {(b.kind, b.row, b.index) for b in reading.boxes if b.crossed}
    wrong = [(b.kind, b.row, b.index) for b in reading.boxes if ((b.kind, b.row, b.index) in made.truth.crossed)
             != b.crossed]
    truth = made.truth
    listed = [(b.ident, "crossed" if (b.kind, b.row, b.index) in truth.crossed else
               "struck" if (b.kind, b.row, b.index) in truth.struck else
               "dotted" if (b.kind, b.row, b.index) in truth.dotted else "empty",
               b.crossed, round(b.confidence, 2), b.what, seen[n] if n < len(seen) else None)
              for n, b in enumerate(reading.boxes)
              if ((b.kind, b.row, b.index) in truth.crossed) != b.crossed or b.confidence < reader.CONFIDENT]
    every = [(b.ident, "crossed" if (b.kind, b.row, b.index) in truth.crossed else
              "struck" if (b.kind, b.row, b.index) in truth.struck else
              "dotted" if (b.kind, b.row, b.index) in truth.dotted else "empty", b.crossed, b.confidence, b.what,
              {name: getattr(seen[n], name) for name in type(seen[n])._record_names})
             for n, b in enumerate(reading.boxes)
             if n < len(seen)]
    return {"found": True, "seconds": seconds, "boxes": len(reading.boxes), "wrong": wrong, "listed": listed,
            "every": every,
            "problem": checked.problem, "code": code,
            "certain": checked.score is not None, "struck": len(made.truth.struck),
            "struck_read": len(made.truth.struck & read), "doubtful": len(reading.doubtful),
            "sheets": len(readings)}


def run(count: int, seed: int, progress=None, features: bool = False) -> tuple[list[dict], list]:
    results, made_list = [], []
    for n in range(count):
        made = PICTURES["picture"](seed * 100_000 + n)
        result = measure(made, f"picture {n}", features)
        result["grid"], result["theme"], result["dpi"] = made.grid.name, made.theme, made.dpi
        result["kinds"] = made.degradations
        result["pencil"] = made.truth.pencil
        results.append(result)
        made_list.append(made)
        if progress:
            progress(n, result)
    return results, made_list


def pages(count: int, seed: int) -> list[dict]:
    """Photographed pages of eight (scan_pictures.page_picture) read as a player scans them, without
    --grid: the seconds for the whole page, the sheets found, their codes read and the sheets exact
    (each reading matched to the sheet it reads closest: the order sheets are reported in is not
    measured here)."""
    out = []
    for n in range(count):
        page = PICTURES["page_picture"](seed * 100_000 + n)
        started = time.perf_counter()
        try:
            readings = sheets_in(vision.decode(page.encoded), f"page {n}", None, layouts(None, f"page {n}"))
        except InputError as error:
            out.append({"seconds": time.perf_counter() - started, "found": 0, "exact": 0, "error": str(error)})
            continue
        seconds = time.perf_counter() - started
        exact = 0
        for reading in readings:
            read = {(b.kind, b.row, b.index) for b in reading.boxes if b.crossed}
            exact += min(len(read ^ truth.crossed) for truth in page.truths) == 0
        out.append({"seconds": seconds, "found": len(readings), "exact": exact, "sheets": len(page.truths),
                    "grid": page.grid.name, "theme": page.theme})
    return out


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
    doubtful = sum(1 for r in found if not r["certain"])  # "check this sheet": doubtful boxes, or refused
    doubtful_exact = sum(1 for r in found if not r["certain"] and not r["wrong"])
    codes = sum(1 for r in results if r.get("code"))

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
             f"| sheets reported \"check this sheet\" | - | {pc(doubtful, len(found))} ({doubtful} of {len(found)},"
             f" {doubtful_exact} of them read exactly) |",
             f"| codes read (no --grid given) | - | {pc(codes, len(results))} ({codes} of {len(results)}) |",
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
    parser.add_argument("--pages", type=int, default=0,
                        help="also read this many photographed pages of eight, without --grid")
    parser.add_argument("--list", action="store_true",
                        help="a line per picture with a wrong or doubtful box, and a line per such box: what was"
                             " drawn, what was read, how sure, and the box's features")
    parser.add_argument("--features", metavar="FILE",
                        help="write every box's features, what was drawn and what was read, a JSON line a box")
    args = parser.parse_args()
    out = open(args.features, "w") if args.features else None  # noqa: SIM115 (closed at the end)

    def report(n: int, result: dict) -> None:
        if out is not None:
            for ident, drawn, crossed, confidence, what, f in result.get("every", []):
                out.write(json.dumps({"picture": n, "grid": result["grid"], "theme": result["theme"],
                                      "pencil": result["pencil"], "kinds": result["kinds"], "box": ident,
                                      "drawn": drawn, "crossed": crossed, "confidence": confidence, "what": what,
                                      **f}) + "\n")
        if args.verbose and (not result["found"] or result["wrong"]):
            print(n, result, file=sys.stderr)
        if args.list and (not result["found"] or result["listed"]):
            print(f"picture {n}: {result['grid']} {result['theme']} {result['dpi']} dpi"
                  f" {'pencil' if result['pencil'] else 'pen'} {','.join(result['kinds']) or 'clean'}:"
                  f" {len(result.get('wrong', []))} wrong, {result.get('doubtful', 0)} doubtful"
                  f" {result.get('error', '')}", file=sys.stderr)
            for ident, drawn, crossed, confidence, what, f in result.get("listed", []):
                mark = "WRONG" if (drawn == "crossed") != crossed else "     "
                numbers = "" if f is None else " ".join(f"{k}={getattr(f, k):.3f}" for k in (
                    "ink", "faint", "darkness", "spread", "reach", "line", "second"))
                print(f"  {mark} {ident:12} drawn {drawn:7} read {'crossed' if crossed else 'not':7}"
                      f" {confidence:.2f} {what:10} {numbers}", file=sys.stderr)

    results, _ = run(args.pictures, args.seed, report, args.list or out is not None)
    if out is not None:
        out.close()
    print(table(results, args.seed))
    if args.pages:
        made = pages(args.pages, args.seed)
        found = sum(p["found"] for p in made)
        sheets = sum(p.get("sheets", 8) for p in made)
        seconds = sorted(p["seconds"] for p in made)
        print(f"\nPages of eight photographed (220 dpi, tilt, light, JPEG), {len(made)} pages: {found} of {sheets}"
              f" sheets found with their codes, {sum(p['exact'] for p in made)} read exactly; seconds per page"
              f" (median, max; the first reads its grid's template first): {seconds[len(seconds) // 2]:.2f},"
              f" {seconds[-1]:.2f}")


if __name__ == "__main__":
    main()
