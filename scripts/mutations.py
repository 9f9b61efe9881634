# ruff: noqa: E501  (the table quotes code lines exactly, whatever their length)
"""A repeatable mutation study of the rules engines and the sheet plan.

Each mutation is one exact text replacement in one file (the simulator's
rules in sheetgen/play/game.py, the proof in sheetgen/play/scoring.py, the
counter page's engine in sheetgen/data/counter.html, the layout in
sheetgen/sheet/plan.py) and the tests that should kill it.  The checkout is
copied once to a temporary folder; every mutation is applied there alone, its
tests run (stopping at the first failure) and the file put back.  A mutation
is *killed* when its tests fail, *alive* when they pass, *moved* when its old
text is no longer found exactly once (the code changed: update the table).

    python scripts/mutations.py            # the whole study, a table at the end
    python scripts/mutations.py J8 S10     # only these
    python scripts/mutations.py --check    # only that every old text is found once

Exit status 1 if any mutation is alive or moved.  Run it from the checkout
with its virtual environment active (the tests need Chromium, as the slow tests do).

The last whole study, ``nice -n 10 python scripts/mutations.py`` on a 2-core
machine: 36 of 36 killed in 405 s of tests.

| id | file | breaks | result |
| --- | --- | --- | --- |
| G1 | sheetgen/play/game.py | the game ends on a third closed row | killed |
| G2 | sheetgen/play/game.py | a forced cross needs one cross more to lock | killed |
| G3 | sheetgen/play/game.py | one penalty more before the game ends | killed |
| G4 | sheetgen/play/game.py | action 1 locks one cross early | killed |
| G5 | sheetgen/play/game.py | a bonus takes a struck bar box | killed |
| G6 | sheetgen/play/game.py | a closed row's bar boxes stay free | killed |
| G7 | sheetgen/play/game.py | a circle gives one cross too few | killed |
| G8 | sheetgen/play/game.py | a power's crosses go to the row with most crosses | killed |
| G9 | sheetgen/play/game.py | the diamond skips the top row | killed |
| G10 | sheetgen/play/game.py | a closed row's die stays in the game | killed |
| G11 | sheetgen/play/game.py | a framed last cell gives no bonus | killed |
| S6 | sheetgen/play/scoring.py | a state effect of two symbols applies twice | killed |
| S10 | sheetgen/play/scoring.py | the Bis box under the cell before the last counts towards a lost forced cross | killed |
| S11 | sheetgen/play/scoring.py | a forced cross may be lost at the threshold | killed |
| S12 | sheetgen/play/scoring.py | a forced cross may be lost anywhere | killed |
| J8 | sheetgen/data/counter.html | forced crosses taken breadth-first | killed |
| J12 | sheetgen/data/counter.html | the page's Bis-box boundary of a lost forced cross | killed |
| J1 | sheetgen/data/counter.html | the page ends on a third closed row | killed |
| J2 | sheetgen/data/counter.html | the page locks one cross early | killed |
| J3 | sheetgen/data/counter.html | one penalty more on the page | killed |
| J4 | sheetgen/data/counter.html | a closed row stays open for the first player | killed |
| J5 | sheetgen/data/counter.html | two crosses in one action | killed |
| J6 | sheetgen/data/counter.html | a bonus takes a struck bar box on the page | killed |
| J7 | sheetgen/data/counter.html | the page's circle gives one cross too few | killed |
| J9 | sheetgen/data/counter.html | the page's power crosses go to the row with most crosses | killed |
| J10 | sheetgen/data/counter.html | the page's diamond skips the top row | killed |
| J11 | sheetgen/data/counter.html | a framed last cell gives no bonus on the page | killed |
| J13 | sheetgen/data/counter.html | a small box crossed twice refused as impossible, not as crossed | killed |
| J14 | sheetgen/data/counter.html | a penalty due although action 1 crossed | killed |
| J15 | sheetgen/data/counter.html | the penalty box offered after a cross in action 1 | killed |
| J16 | sheetgen/data/counter.html | rows locked in action 1 close only after action 2 | killed |
| J17 | sheetgen/data/counter.html | the page: a forced cross may be lost at the threshold | killed |
| J18 | sheetgen/data/counter.html | the page: a state effect of two symbols applies twice | killed |
| P9 | sheetgen/sheet/plan.py | the rows-height guard loosened by 1 mm | killed |
| P12 | sheetgen/sheet/plan.py | the colour key lists the rows' colours and the bar's, not a cell of another colour | killed |
| P1 | sheetgen/sheet/plan.py | the key shares the title band however little is left | killed |
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME, SCORING, PAGE, PLAN = ("sheetgen/play/game.py", "sheetgen/play/scoring.py", "sheetgen/data/counter.html",
                             "sheetgen/sheet/plan.py")
LIVE = "tests/test_live_rules.py"
LIVE_FEATURES = [LIVE, "-k", "everything or bonus or bis or powers or cases"]  # the grids with chains and boxes
CONFORMANCE = ["tests/test_conformance.py"]
PAGE_CONFORMANCE = ["tests/test_conformance_browser.py", "-k", "agrees"]
PLAN_TESTS = ["tests/test_plan_limits.py"]


@dataclass(frozen=True)
class Mutation:
    id: str
    file: str
    old: str
    new: str
    breaks: str
    tests: tuple[str, ...]


def m(id: str, file: str, old: str, new: str, breaks: str, *tests: str | list[str]) -> Mutation:
    args: list[str] = []
    for test in tests:
        args += test if isinstance(test, list) else [test]
    return Mutation(id, file, old, new, breaks, tuple(args))


MUTATIONS = [
    # -- the simulator's forward rules (game.py) --
    m("G1", GAME, "ROWS_TO_END = 2", "ROWS_TO_END = 3", "the game ends on a third closed row", LIVE, "-k", "classic or cases"),
    m("G2", GAME, "return index < rules.last[row] or sheet.crosses[row] >= rules.close_after",
      "return index < rules.last[row] or sheet.crosses[row] > rules.close_after",
      "a forced cross needs one cross more to lock", LIVE_FEATURES),
    m("G3", GAME, "if sheet.penalties >= rules.penalty_boxes:", "if sheet.penalties > rules.penalty_boxes:",
      "one penalty more before the game ends", LIVE, "-k", "classic or cases"),
    m("G4", GAME, "                        if not closes or crosses[r] >= close_after:\n                            moves.append(cross)",
      "                        if not closes or crosses[r] >= close_after - 1:\n                            moves.append(cross)",
      "action 1 locks one cross early", LIVE, "-k", "cases"),
    m("G5", GAME, "            if state == FREE:\n                bar[box] = CROSSED",
      "            if state != CROSSED:\n                bar[box] = CROSSED", "a bonus takes a struck bar box", LIVE_FEATURES),
    m("G6", GAME, "if box_colour == colour and bar[box] == FREE:", "if box_colour == colour and bar[box] == FREE and False:",
      "a closed row's bar boxes stay free", LIVE_FEATURES),
    m("G7", GAME, "for _ in range(amount):", "for _ in range(amount - 1):", "a circle gives one cross too few",
      LIVE_FEATURES),
    m("G8", GAME, "fewest = min(sheet.crosses[r] for r in open_rows)", "fewest = max(sheet.crosses[r] for r in open_rows)",
      "a power's crosses go to the row with most crosses", LIVE_FEATURES),
    m("G9", GAME, "            for row in range(self.rules.rows):\n                self.forced(sheet, row, action)",
      "            for row in range(1, self.rules.rows):\n                self.forced(sheet, row, action)",
      "the diamond skips the top row", LIVE_FEATURES),
    m("G10", GAME, "                table.in_game.remove(rules.lock_colour[row])", "                pass",
      "a closed row's die stays in the game", LIVE, "-k", "mixed or rainbow or disorder"),  # cells of another row's colour
    m("G11", GAME, "            if rules.framed[row][index]:\n                self.bonus(sheet, action)",
      "            if rules.framed[row][index] and index != rules.last[row]:\n                self.bonus(sheet, action)",
      "a framed last cell gives no bonus", LIVE, "-k", "cases"),
    # -- the proof of a finished sheet (scoring.py) --
    m("S6", SCORING, "if power.effect in ONCE and power.effect in (p.effect for p in powers):",
      "if power.effect in ONCE and False:", "a state effect of two symbols applies twice", CONFORMANCE),
    m("S10", SCORING, "least += sum(1 for p in self.boxes[row] if p < before_last)",
      "least += sum(1 for p in self.boxes[row] if p <= before_last)",
      "the Bis box under the cell before the last counts towards a lost forced cross", CONFORMANCE),
    m("S11", SCORING, "return least < self.grid.close_after", "return least <= self.grid.close_after",
      "a forced cross may be lost at the threshold", CONFORMANCE),
    m("S12", SCORING, "if before_last not in cells:\n            return False",
      "if before_last not in cells:\n            return True", "a forced cross may be lost anywhere", CONFORMANCE),
    # -- the counter page's engine (counter.html) --
    m("J8", PAGE, "state.pending = forced.concat(state.pending);", "state.pending = state.pending.concat(forced);",
      "forced crosses taken breadth-first", LIVE, "-k", "everything"),
    m("J12", PAGE, "[...sheet.boxes[row]].filter((p) => p < beforeLast).length",
      "[...sheet.boxes[row]].filter((p) => p <= beforeLast).length",
      "the page's Bis-box boundary of a lost forced cross", PAGE_CONFORMANCE),
    m("J1", PAGE, "const ROWS_TO_END = 2;", "const ROWS_TO_END = 3;", "the page ends on a third closed row",
      LIVE, "-k", "classic or cases"),
    m("J2", PAGE, "return !isShut(state, r) && p > rightmost(state, r) && p <= last && (p < last || crossesOf(state, r) >= grid.close_after);",
      "return !isShut(state, r) && p > rightmost(state, r) && p <= last && (p < last || crossesOf(state, r) >= grid.close_after - 1);",
      "the page locks one cross early", LIVE, "-k", "page_plays_the_hand_made"),
    m("J3", PAGE, "if (sheet.penalties >= grid.penalty_boxes) game.over = { reason: \"penalties\", turn: game.turn, player: p };",
      "if (sheet.penalties > grid.penalty_boxes) game.over = { reason: \"penalties\", turn: game.turn, player: p };",
      "one penalty more on the page", LIVE, "-k", "classic or cases"),
    m("J4", PAGE, "game.players.forEach((sheet) => { sheet.closed[row] = true; });",
      "game.players.slice(1).forEach((sheet) => { sheet.closed[row] = true; });",
      "a closed row stays open for the first player", LIVE, "-k", "page_plays_the_hand_made"),
    m("J5", PAGE, "if (game.acted[p][game.action - 1]) refuse(\"acted\", { action: game.action });", "",
      "two crosses in one action", LIVE, "-k", "page_plays_the_hand_made"),
    m("J6", PAGE, "if (!state.bar.includes(b) && !struck.has(grid.bonus_bar[b - 1])) return b;",
      "if (!state.bar.includes(b)) return b;", "a bonus takes a struck bar box on the page", LIVE_FEATURES),
    m("J7", PAGE, "Array.from({ length: item.amount }, ", "Array.from({ length: item.amount - 1 }, ",
      "the page's circle gives one cross too few", LIVE_FEATURES),
    m("J9", PAGE, "const fewest = Math.min(...open.map((r) => crossesOf(state, r)));",
      "const fewest = Math.max(...open.map((r) => crossesOf(state, r)));",
      "the page's power crosses go to the row with most crosses", LIVE_FEATURES),
    m("J10", PAGE, "if (power.effect === \"cross_each_open_row\") ROWS.forEach((row, rr) => forced.push(",
      "if (power.effect === \"cross_each_open_row\") ROWS.forEach((row, rr) => rr && forced.push(",
      "the page's diamond skips the top row", LIVE_FEATURES),
    m("J11", PAGE, "if (cell.framed) {", "if (cell.framed && p !== ROWS[r].last) {",
      "a framed last cell gives no bonus on the page", LIVE, "-k", "page_plays_the_hand_made"),
    # (Offering a crossed small box again, "&& !state.bis[r].includes(top)" removed, changes nothing: the
    # scorer refuses a box listed twice, so legalAfter never offers it.  The refusal's reason does change.)
    m("J13", PAGE, "    if (sheet.bis[r].includes(q)) refuse(\"crossed\");\n", "",
      "a small box crossed twice refused as impossible, not as crossed", LIVE, "-k", "page_plays_the_hand_made"),
    m("J14", PAGE, "if (game.action === 2 && !game.acted[a][0] && !game.acted[a][1] && !game.penalty) refuse(\"penalty-due\", { player: a });",
      "if (game.action === 2 && !game.acted[a][1] && !game.penalty) refuse(\"penalty-due\", { player: a });",
      "a penalty due although action 1 crossed", LIVE, "-k", "classic"),
    m("J15", PAGE, "const penalty = p === game.active && !game.penalty && !game.acted[p][0] && !game.acted[p][1] && moves.penalty;",
      "const penalty = p === game.active && !game.penalty && !game.acted[p][1] && moves.penalty;",
      "the penalty box offered after a cross in action 1", LIVE, "-k", "classic"),
    m("J16", PAGE, "  closeRows(game, game.turn);\n  if (game.over) return;",
      "  if (game.action === 2) closeRows(game, game.turn);\n  if (game.over) return;",
      "rows locked in action 1 close only after action 2", LIVE, "-k", "classic or cases"),
    m("J17", PAGE, "  return least < grid.close_after;\n}", "  return least <= grid.close_after;\n}",
      "the page: a forced cross may be lost at the threshold", PAGE_CONFORMANCE),
    m("J18", PAGE, "if (ONCE.includes(power.effect) && powers.some((p) => p.effect === power.effect))",
      "if (false)", "the page: a state effect of two symbols applies twice", PAGE_CONFORMANCE),
    # -- the sheet plan (plan.py): located by short patterns, the plan is being rewritten --
    m("P9", PLAN, "if cell_h < tallest - 1e-9:", "if cell_h < tallest - s.mm(1) - 1e-9:",
      "the rows-height guard loosened by 1 mm", PLAN_TESTS),
    # (Dropping "| set(grid.bonus_bar)" alone changes nothing: a bar box feeds a row's lock, whose colour is its
    # last cell's, so every bar colour is a cell colour.  The key must list every colour printed, cells' and bar's.)
    m("P12", PLAN, "{cell.colour for row in grid.rows for cell in row.cells} | set(grid.bonus_bar)",
      "{row.cells[0].colour for row in grid.rows} | set(grid.bonus_bar)",
      "the colour key lists the rows' colours and the bar's, not a cell of another colour", PLAN_TESTS),
    m("P1", PLAN, "if end - key_w - s.mm(1.5) - start < s.mm(KEY_NAME_FIELD):",
      "if end - key_w - s.mm(1.5) - start < 0:", "the key shares the title band however little is left", PLAN_TESTS),
]


def copy_checkout(folder: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def found_once(mutation: Mutation, text: str) -> bool:
    return text.count(mutation.old) == 1


def run(mutation: Mutation, folder: Path) -> tuple[str, float]:
    path = folder / mutation.file
    original = path.read_text(encoding="utf-8")
    if not found_once(mutation, original):
        return "moved", 0.0
    path.write_text(original.replace(mutation.old, mutation.new), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(folder)}
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
                               *mutation.tests], cwd=folder, env=env, capture_output=True, text=True)
    finally:
        path.write_text(original, encoding="utf-8")
    seconds = time.monotonic() - start
    if done.returncode == 1:
        return "killed", seconds
    if done.returncode == 0:
        return "alive", seconds
    return f"error {done.returncode}", seconds  # no test selected, or the tests could not run


def main(argv: list[str]) -> int:
    check = "--check" in argv
    wanted = [a for a in argv if not a.startswith("--")]
    chosen = [mu for mu in MUTATIONS if not wanted or mu.id in wanted]
    if check:
        moved = [mu.id for mu in chosen if not found_once(mu, (ROOT / mu.file).read_text(encoding="utf-8"))]
        print(f"{len(chosen) - len(moved)} of {len(chosen)} found once" + (f"; moved: {', '.join(moved)}" if moved else ""))
        return 1 if moved else 0
    with tempfile.TemporaryDirectory(prefix="sheetgen-mutations-") as name:
        folder = Path(name)
        copy_checkout(folder)
        probe = subprocess.run([sys.executable, "-c", "import sheetgen; print(sheetgen.__file__)"], cwd=folder,
                               env={**os.environ, "PYTHONPATH": str(folder)}, capture_output=True, text=True)
        if not probe.stdout.startswith(str(folder)):
            print(f"the copy's sheetgen is not the one imported: {probe.stdout.strip()}", file=sys.stderr)
            return 2
        rows = []
        for mutation in chosen:
            outcome, seconds = run(mutation, folder)
            rows.append((mutation, outcome, seconds))
            print(f"{mutation.id:<4} {outcome:<7} {seconds:5.1f} s  {mutation.file}: {mutation.breaks}", flush=True)
    killed = sum(outcome == "killed" for _, outcome, _ in rows)
    print("\n| id | file | breaks | result |\n| --- | --- | --- | --- |")
    for mutation, outcome, _ in rows:
        print(f"| {mutation.id} | {mutation.file} | {mutation.breaks} | {outcome} |")
    print(f"\n{killed} of {len(rows)} killed in {sum(s for _, _, s in rows):.0f} s")
    return 0 if killed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
