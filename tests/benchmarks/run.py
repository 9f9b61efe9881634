"""Speed, size and memory of sheetgen against reportlab's floor, in one run.

    .venv/bin/python tests/benchmarks/run.py            # full run, a few minutes
    .venv/bin/python tests/benchmarks/run.py --quick    # 10 and 100 pages only
    .venv/bin/python tests/benchmarks/run.py --pack     # the download pack alone
    .venv/bin/python tests/benchmarks/run.py --simulate # the simulator's table alone
    .venv/bin/python tests/benchmarks/run.py --startup  # `sheetgen render classic` as a whole process alone
    .venv/bin/python tests/benchmarks/run.py --suite    # the test suite's wall and CPU time, whole and quick tier

Every case runs in a fresh child process (so peak memory is its own) and
reports CPU and wall time, PDF size and peak RSS. Machines are noisy, so
results are read as ratios to a floor measured in the same run, in CPU time
(a shared machine's load moves wall time far more than work):

- floor: a bare reportlab canvas that places one prebuilt form 8 times a page;
- floor+text: the same, and 16 drawString a page in the sheet's TrueType face
  (embedded, as sheetgen's are): the least a unique sheet can cost;
- identical: sheetgen, classic, the same sheet 8 times a page (against floor);
- unique: sheetgen, longo, every sheet with its own lucky numbers and serial
  (against floor+text; it draws 24 texts a page, the floor 16).

Each case first makes one page untimed (imports, fonts: start-up, which the
whole-process table measures).  "Marginal" is the cost of one more page:
(cost at the largest size - cost at the smallest) / (page difference).

The simulator (`sheetgen simulate`) gets a table of its own: games per second
for every grid, four default players, on one core and with --jobs 2, against
a floor of bare dice (six random.randrange(6) a roll, as many rolls as the
games took).  ``--simulate`` runs that table alone.

Scoring is measured against merely reading the same marks files with the json
module, in the same child process: 1,000 and 10,000 files, the library path of
`sheetgen score --json` (read, check, score, rank, JSON text) and the whole
command as a process.
The counter page (`--counter`): its size per grid and its time to first render
in headless Chromium, against a page of the same size holding only text;
`--pages` adds the download pack's index.html to that.
Not collected by pytest (no test_ prefix): timing belongs here, not in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))  # this checkout, not an installed copy, here as in the children (ENV)


# -- cases, each run in its own process -------------------------------------------


def case_floor(pages: int) -> bytes:
    import io

    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(210 * mm, 297 * mm), invariant=1, pageCompression=1)
    canvas.beginForm("sheet", 0, 0, 96 * mm, 66 * mm)
    for row in range(4):  # a sheet's worth of drawing: 44 framed numbers
        for col in range(11):
            canvas.rect((5 + col * 7.5) * mm, (50 - row * 10) * mm, 7 * mm, 7 * mm)
            canvas.drawString((6 + col * 7.5) * mm, (52 - row * 10) * mm, str(col + 2))
    canvas.endForm()
    for _ in range(pages):
        for slot in range(8):
            canvas.saveState()
            canvas.translate((9 + slot % 2 * 96) * mm, (16.5 + slot // 2 * 66) * mm)
            canvas.doForm("sheet")
            canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def case_floor_text(pages: int) -> bytes:
    import io

    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(TTFont("Face", str(ROOT / "sheetgen" / "pdf" / "fonts" / "DejaVuSans.ttf")))
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(210 * mm, 297 * mm), invariant=1, pageCompression=1)
    canvas.beginForm("sheet", 0, 0, 96 * mm, 66 * mm)
    canvas.setFont("Face", 10)
    for row in range(4):
        for col in range(11):
            canvas.rect((5 + col * 7.5) * mm, (50 - row * 10) * mm, 7 * mm, 7 * mm)
            canvas.drawString((6 + col * 7.5) * mm, (52 - row * 10) * mm, str(col + 2))
    canvas.endForm()
    sheet = 0
    for _ in range(pages):
        canvas.setFont("Face", 10)
        for slot in range(8):
            canvas.saveState()
            canvas.translate((9 + slot % 2 * 96) * mm, (16.5 + slot // 2 * 66) * mm)
            canvas.doForm("sheet")
            sheet += 1
            canvas.drawString(70 * mm, 60 * mm, str(2 + sheet % 15))  # two per sheet, as two lucky numbers
            canvas.drawString(80 * mm, 60 * mm, str(2 + sheet * 7 % 15))
            canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def case_identical(pages: int) -> bytes:
    from sheetgen.grid.load import load_grid
    from sheetgen.runs.jobs import Job, render_job

    return render_job(Job(load_grid("classic"), sheets=8 * pages))


def case_unique(pages: int) -> bytes:
    from sheetgen.grid.load import load_grid
    from sheetgen.runs.jobs import Job, render_job

    return render_job(Job(load_grid("longo"), sheets=8 * pages, first_serial=1))


def case_unique_unmarked(pages: int) -> bytes:
    """Unique sheets without the machine marks (``--no-machine-marks``): no code of its own on each sheet."""
    from sheetgen.grid.load import load_grid
    from sheetgen.runs.jobs import Job, render_job

    return render_job(Job(load_grid("longo"), sheets=8 * pages, first_serial=1, machine_marks=False))


def case_batch(pages: int) -> bytes:
    """A club batch through the manifest reader and the file writer: longo with serials."""
    import tempfile

    from sheetgen.runs.batch import load_batch, write_batch

    with tempfile.TemporaryDirectory() as folder:
        manifest = Path(folder) / "tournament.yaml"
        manifest.write_text(f"first_serial: 1\njobs:\n  - {{grid: longo, sheets: {8 * pages}, serial: true}}\n")
        written = write_batch(load_batch(manifest), Path(folder) / "out")
        return b"".join(f.path.read_bytes() for f in written)


def case_pack(pages: int) -> bytes:
    """The whole download pack (``pages`` is ignored): its sheets, previews, pages, checksums and zip."""
    from sheetgen.runs.pack import Pack, pack_files

    return pack_files(Pack())["sheetgen-pack.zip"]


def case_pack_sheets(pages: int) -> bytes:
    """The reference for the pack: only its sheet PDFs, rendered one after another (``pages`` is ignored)."""
    from sheetgen.grid.load import load_grid
    from sheetgen.runs.jobs import render_job
    from sheetgen.runs.pack import sheet_job

    pack = _pack()
    total = b""
    for name in pack.grids:
        grid = load_grid(name)
        for lang in pack.langs:
            for kind in pack.prints:
                for paper in pack.papers_of(kind.size):
                    total += render_job(sheet_job(grid, lang, kind, paper))[:1]
    return total


def _cpu() -> str:
    """The processor's model name, where the system says it."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return "processor unknown"
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), "processor unknown")


def _pack():
    from sheetgen.runs.pack import Pack

    return Pack()


def case_simulate(grid: str, jobs: int, games: int) -> dict:
    """``games`` four-player games of ``grid`` in ``jobs`` processes, and the bare dice of as many rolls.

    Times are wall seconds and, for this process, CPU seconds: on a shared
    machine the CPU time of one core is the steadier measure (with --jobs 2
    the work is in the children, so only wall time says anything)."""
    import random

    from sheetgen.grid.load import load_grid
    from sheetgen.play.simulate import Setup, simulate

    setup = Setup(load_grid(grid), games=games)
    start, cpu = time.perf_counter(), time.process_time()
    report = simulate(setup, jobs=jobs)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    rolls = sum(length * count for length, count in report.tally.rolls.items())
    draw = random.Random(1).randrange
    cpu = time.process_time()
    for _ in range(rolls):
        draw(6), draw(6), draw(6), draw(6), draw(6), draw(6)
    return {"seconds": seconds, "cpu_seconds": cpu_seconds, "rolls": rolls, "dice_cpu_seconds": time.process_time() - cpu}


CASES = {"floor": case_floor, "floor+text": case_floor_text, "identical": case_identical, "unique": case_unique,
         "unique, no marks": case_unique_unmarked}
FLOOR = {"floor": "floor", "floor+text": "floor+text", "identical": "floor", "unique": "floor+text",
         "unique, no marks": "floor+text"}
EXTRA = {"batch": case_batch, "pack": case_pack, "pack_sheets": case_pack_sheets}


ENGINE_BATCH = 200  # games the two engines take turns at: a disturbance of the machine hits a batch, not a round


def case_engine(grid: str, games: int, repeat: int) -> dict:
    """``games`` four-player games of ``grid`` (the default strategy) with the
    frozen engine of before the speed work and with today's, taking turns every
    ENGINE_BATCH games in one process; each engine's CPU seconds are the sum over
    the batches of its least of ``repeat`` rounds (the machine's noise, +-0.2 on
    the ratio between whole rounds, mostly falls within a batch or two)."""
    sys.path.insert(0, str(ROOT))
    from sheetgen.grid.load import load_grid
    from sheetgen.play.game import rulebook
    from sheetgen.play.simulate import Setup, play_game
    from tests.benchmarks.frozen import play_game as frozen_game

    loaded = load_grid(grid)
    setup = Setup(loaded, games=games)
    rules, seats = rulebook(loaded), setup.seats
    batches = [range(start, min(start + ENGINE_BATCH, games)) for start in range(0, games, ENGINE_BATCH)]
    before = [float("inf")] * len(batches)
    after = [float("inf")] * len(batches)
    for _ in range(repeat):
        for n, batch in enumerate(batches):
            cpu = time.process_time()
            for index in batch:
                frozen_game(loaded, seats, 1, index)
            before[n] = min(before[n], time.process_time() - cpu)
            cpu = time.process_time()
            for index in batch:
                play_game(setup, index, rules)
            after[n] = min(after[n], time.process_time() - cpu)
    return {"before": sum(before), "after": sum(after)}


def child(case: str, pages: int) -> None:
    if case.startswith("engine:"):
        _, grid, repeat = case.split(":")
        print(json.dumps(case_engine(grid, pages, int(repeat))))
        return
    if case.startswith("simulate:"):
        _, grid, jobs = case.split(":")
        print(json.dumps(case_simulate(grid, int(jobs), pages)))
        return
    if case in CASES:  # one page first: imports and fonts are start-up, which the whole-process table measures
        CASES[case](1)
    start, cpu = time.perf_counter(), time.process_time()
    data = {**CASES, **EXTRA}[case](pages)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "cpu": cpu, "bytes": len(data), "peak_mib": peak_kib / 1024}))


# Children may write bytecode (an installed package has it from pip; a source
# checkout gets it on its first run), so that no run pays for compiling.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(ROOT)}


def measure(case: str, pages: int, repeat: int) -> dict:
    """The least CPU time of ``repeat`` runs (the least disturbed by the machine), with its wall time."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, str(HERE), "--child", case, str(pages)],
            check=True, capture_output=True, text=True, env=ENV,
        )
        runs.append(json.loads(out.stdout))
    best = min(runs, key=lambda r: r["cpu"])
    return {**best, "peak_mib": max(r["peak_mib"] for r in runs)}


def process_costs(commands: dict[str, list[str]], rounds: int) -> dict[str, dict]:
    """Median wall and CPU time (user + system), seconds, of each command run
    ``rounds`` times, the commands taking turns, so that the machine's load
    falls on all alike."""
    for command in commands.values():  # warm-up: bytecode, disk cache
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=ENV)
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            start = time.perf_counter()
            child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=ENV)
            _, status, usage = os.wait4(child.pid, 0)
            assert status == 0, command
            runs[name].append((time.perf_counter() - start, usage.ru_utime + usage.ru_stime))
    return {name: {"wall": statistics.median(r[0] for r in times), "cpu": statistics.median(r[1] for r in times)}
            for name, times in runs.items()}


def write_marks(folder: Path, files: int, suffix: str = ".json") -> list[str]:
    """``files`` classic marks files of varied legal sheets, named 0.json, 1.json ..."""
    import json

    names = []
    for n in range(files):
        red = list(range(2, 3 + n % 10))  # 1 to 10 crosses
        green = [12, 11, 10, 9, 8, 7, 2] if n % 3 == 0 else [12, 11][: n % 3]  # closed every third sheet
        sheet = {"player": f"player {n}", "rows": [{"crossed": red}, {"crossed": [2, 4, 6][: n % 4]},
                                                     {"crossed": green}, {"crossed": [12, 10]}], "penalties": n % 3}
        name = f"{n}{suffix}"
        (folder / name).write_text(json.dumps(sheet) if suffix == ".json" else _as_yaml(sheet), encoding="utf-8")
        names.append(name)
    return names


def _as_yaml(sheet: dict) -> str:
    rows = "".join(f"  - crossed: {row['crossed']}\n" for row in sheet["rows"])
    return f"player: {sheet['player']}\nrows:\n{rows}penalties: {sheet['penalties']}\n"


def score_child(files: int, suffix: str) -> None:
    """In a fresh process: read ``files`` marks files with the json module,
    then score them as `sheetgen score --json` does (the check for a file given
    twice included); each the best of five, in turn, in CPU time (a shared
    machine's load moves wall time more than work); then the whole command,
    wall time."""
    import json
    import tempfile

    from sheetgen.grid.load import load_grid
    from sheetgen.play.results import scores_json_text
    from sheetgen.play.tally import repeated_input, tally

    grid = load_grid("classic")
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        names = write_marks(Path(folder), files, suffix)
        reading, scoring = [], []
        for _ in range(5):
            start = time.process_time()
            for name in names:
                with open(name, encoding="utf-8") as handle:
                    json.load(handle) if suffix == ".json" else handle.read()
            reading.append(time.process_time() - start)
            start = time.process_time()
            assert repeated_input(names) is None
            result = tally(grid, names, lambda error: None)
            text = scores_json_text(result.scores, result.refused)
            scoring.append(time.process_time() - start)
        assert len(result.scores) == files and not result.refused and text
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sheetgen", "score", "classic", *names, "--json"], check=True,
                       stdout=subprocess.DEVNULL, env=ENV)
        process = time.perf_counter() - start
    print(json.dumps({"reading": min(reading), "scoring": min(scoring), "process": process}))


def measure_scoring(files: int, suffix: str = ".json") -> dict:
    out = subprocess.run([sys.executable, str(HERE), "--score-child", str(files), suffix],
                         check=True, capture_output=True, text=True, env=ENV)
    return json.loads(out.stdout)


def simulate_table(quick: bool) -> None:
    """Games per second of every grid, one core and --jobs 2, best of a few runs each."""
    from sheetgen.grid.load import builtin_names

    games, repeat = (1000, 1) if quick else (4000, 3)
    rounds = 1 if quick else 5  # the ratio's two engines: their least of more rounds, the machine's noise is +-0.2
    print(f"\nSimulation, {games:,} four-player games of the default strategy, best of {repeat}"
          " (one core: per CPU second of the process; --jobs 2: per wall second):\n")
    print("| grid | rolls/game | games/s, 1 core | games/s, --jobs 2 | µs/roll | µs/roll ÷ dice floor |")
    print("|---|---:|---:|---:|---:|---:|")
    for grid in builtin_names():
        one = min((_run_child(f"simulate:{grid}:1", games) for _ in range(repeat)), key=lambda r: r["cpu_seconds"])
        two = min((_run_child(f"simulate:{grid}:2", games) for _ in range(repeat)), key=lambda r: r["seconds"])
        print(f"| {grid} | {one['rolls'] / games:.1f} | {games / one['cpu_seconds']:,.0f} | {games / two['seconds']:,.0f} |"
              f" {1e6 * one['cpu_seconds'] / one['rolls']:.1f} | {one['cpu_seconds'] / one['dice_cpu_seconds']:.1f} |")
    print("\nTarget: classic at least 2,000 games/s on one core (aim: 10,000).")
    print(f"\nThe engine before and after the speed work (tests/benchmarks/frozen), {games:,} four-player games"
          f" of the default strategy, games per CPU second, taking turns every {ENGINE_BATCH} games, each batch's"
          f" least of {rounds} rounds:\n")
    print("| grid | before | after | after ÷ before |")
    print("|---|---:|---:|---:|")
    for grid in builtin_names():
        r = _run_child(f"engine:{grid}:{rounds}", games)
        print(f"| {grid} | {games / r['before']:,.0f} | {games / r['after']:,.0f} | {r['before'] / r['after']:.2f} |")
    print("\nTarget: after ÷ before at least 2 on every grid.")


def _run_child(case: str, size: int) -> dict:
    out = subprocess.run([sys.executable, str(HERE), "--child", case, str(size)],
                         check=True, capture_output=True, text=True, env=ENV)
    return json.loads(out.stdout)


def print_scoring() -> None:
    runs = {n: measure_scoring(n) for n in (1000, 10_000)}
    print("\nScoring marks files (classic, JSON) against reading them with the json module,"
          " CPU time in one process:\n")
    print("| files | json.load s | score s | score ÷ json.load | whole `sheetgen score --json`, wall s | target |")
    print("|---:|---:|---:|---:|---:|---|")
    for n, r in runs.items():
        print(f"| {n:,} | {r['reading']:.3f} | {r['scoring']:.3f} | {r['scoring'] / r['reading']:.2f} | "
              f"{r['process']:.2f} | ≤ 5 |")
    growth = runs[10_000]["scoring"] / runs[1000]["scoring"]
    print(f"\n10× the files: {growth:.1f}× the time (target ≤ 11: linear)")
    yaml = measure_scoring(1000, ".yaml")
    print(f"1,000 small YAML marks files: score {yaml['scoring']:.2f} s ({yaml['scoring']:.2f} ms a file, read by"
          f" libyaml), {yaml['scoring'] / runs[1000]['scoring']:.2f}× the same in JSON (target ≤ 2); whole process"
          f" {yaml['process']:.2f} s")


# -- web pages: size and time to first render in headless Chromium -----------------------

PAINT = ("return performance.getEntriesByName('first-contentful-paint').map((e) => e.startTime)[0]"
         " || performance.now();")


def first_render_ms(driver, path: Path, repeat: int = 5) -> float:
    """The median time, ms, from navigation start to the first contentful paint
    of ``path`` opened from disk in ``driver``'s headless Chromium."""
    times = []
    for _ in range(repeat):
        driver.get("about:blank")
        driver.get(path.as_uri())
        times.append(driver.execute_script(PAINT))
    return statistics.median(times)


def chromium(folder: Path):
    """Headless Chromium through selenium, as the counter page's tests start it."""
    sys.path.insert(0, str(ROOT / "tests"))
    from browser import start_chromium

    return start_chromium(folder)


def print_pages(repeat: int = 5) -> None:
    """The download pack's index.html: its size and time to first render."""
    from sheetgen.runs.pack import Pack, build_pack

    with tempfile.TemporaryDirectory() as folder:
        build_pack(Path(folder), Pack(grids=("classic",), langs=("en",)))
        index = Path(folder) / "index.html"
        index_bytes = index.stat().st_size
        driver = chromium(Path(folder))
        try:
            driver.set_window_size(390, 844)
            paint = first_render_ms(driver, index, repeat)
        finally:
            driver.quit()
    print(f"\nWeb pages in headless Chromium (390 x 844, median of {repeat} loads):\n")
    print("| page | KiB | first contentful paint, ms |")
    print("|---|---:|---:|")
    print(f"| pack index.html (one grid, one language) | {index_bytes / 1024:.1f} | {paint:.0f} |")


def print_counter(repeat: int = 5) -> None:
    """The counter page of each grid: its size, and its time to first render in
    headless Chromium against a page of the same size that holds only text,
    loaded the same way (median of ``repeat`` loads)."""
    from sheetgen.grid.load import builtin_names, load_grid
    from sheetgen.play.counter import MAX_PAGE_BYTES, counter_html

    with tempfile.TemporaryDirectory() as folder:
        driver = chromium(Path(folder))
        try:
            print("\nCounter page: size and time to first render (first contentful paint) in headless Chromium,"
                  f" median of {repeat} loads, against a page of the same size holding only text:\n")
            print("| grid | KiB | first render ms | reference ms | ratio | target |")
            print("|---|---:|---:|---:|---:|---|")
            for name in builtin_names():
                page = counter_html(load_grid(name)).encode()
                counter, reference = Path(folder, f"{name}.html"), Path(folder, f"{name}-text.html")
                counter.write_bytes(page)
                filler = b"<!doctype html><title>x</title><p>x</p><!--" + b"x" * len(page) + b"-->"
                reference.write_bytes(filler[: len(page) - 3] + b"-->")
                ours, theirs = first_render_ms(driver, counter, repeat), first_render_ms(driver, reference, repeat)
                print(f"| {name} | {len(page) / 1024:.0f} | {ours:.0f} | {theirs:.0f} | {ours / theirs:.2f} |"
                      f" < {MAX_PAGE_BYTES // 1024} KiB, ratio ≤ 3 |")
        finally:
            driver.quit()


def print_suite() -> None:
    """The test suite as a developer runs it (every core), whole and quick tier: wall time (what
    the 6- and 1-minute goals of docs/architecture.md are about) and the CPU it took, which says
    how much of the wall time a loaded machine added."""
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {_cpu()}\n")
    print("| tier | command | wall s | CPU s (all workers) | exit |")
    print("|---|---|---:|---:|---:|")
    for tier, extra in (("quick", ["-m", "not slow"]), ("whole", [])):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        code = subprocess.run([sys.executable, "-m", "pytest", "-q", *extra], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        shown = "python -m pytest" + "".join(f" {a!r}" if " " in a else f" {a}" for a in extra)
        print(f"| {tier} | `{shown}` | {wall:.0f} | {cpu:.0f} | {code} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 and 100 pages only, fewer repeats")
    parser.add_argument("--simulate", action="store_true", help="only the simulator's table")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "PAGES"), help=argparse.SUPPRESS)
    parser.add_argument("--score-child", nargs=2, metavar=("FILES", "SUFFIX"), help=argparse.SUPPRESS)
    parser.add_argument("--scoring", action="store_true", help="only the scoring rows")
    parser.add_argument("--pages", action="store_true", help="only the web pages' rows (pack index, counter page)")
    parser.add_argument("--pack", action="store_true", help="only the download pack's row")
    parser.add_argument("--counter", action="store_true", help="only the counter page's size and first render")
    parser.add_argument("--startup", action="store_true", help="only the whole-process rows (render classic's start-up)")
    parser.add_argument("--sheets", action="store_true", help="only the pages' tables and the 10,000-sheet batch")
    parser.add_argument("--suite", action="store_true", help="only the test suite's times (whole and quick tier)")
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    if args.simulate:
        simulate_table(args.quick)
        return
    if args.score_child:
        score_child(int(args.score_child[0]), args.score_child[1])
        return
    if args.scoring:
        print_scoring()
        return
    if args.pages:
        print_pages()
        print_counter()
        return
    if args.pack:
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {_cpu()}")
        print_pack(2)
        return
    if args.counter:
        print_counter()
        return
    if args.suite:
        print_suite()
        return
    if args.startup:
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {_cpu()}")
        print_startup(15)
        return

    sizes = [10, 100] if args.quick else [10, 100, 1000]
    repeat = 2 if args.quick else 3
    results = {(case, n): measure(case, n, repeat) for case in CASES for n in sizes}
    small, large = sizes[0], sizes[-1]

    def marginal(case: str, key: str) -> float:
        return (results[case, large][key] - results[case, small][key]) / (large - small)

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {_cpu()};"
          f" least CPU time of {repeat} runs per cell\n")
    print("| case | pages | CPU ms/page | wall ms/page | KiB/page | peak MiB | CPU ÷ its floor |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for case in CASES:
        for n in sizes:
            r, f = results[case, n], results[FLOOR[case], n]
            print(f"| {case} | {n} | {1000 * r['cpu'] / n:.2f} | {1000 * r['seconds'] / n:.2f} |"
                  f" {r['bytes'] / 1024 / n:.2f} | {r['peak_mib']:.0f} | {r['cpu'] / f['cpu']:.2f} |")
    print(f"\nMarginal cost of one more page ({small} to {large} pages), CPU time:\n")
    print("| case | ms/page | KiB/page | time ÷ its floor | bytes ÷ its floor | target |")
    print("|---|---:|---:|---:|---:|---|")
    targets = {"identical": "time ≤ 1.5, bytes ≤ 1.5", "unique": "≤ 2.5 KiB/page",
               "unique, no marks": "time ≤ 1.3 (of floor+text)"}
    for case in CASES:
        t, b = marginal(case, "cpu"), marginal(case, "bytes")
        floor_t, floor_b = marginal(FLOOR[case], "cpu"), marginal(FLOOR[case], "bytes")
        print(f"| {case} | {1000 * t:.3f} | {b / 1024:.2f} | {t / floor_t:.2f} | {b / floor_b:.2f} |"
              f" {targets.get(case, '')} |")

    if args.sheets:
        print_batch()
        return
    print_startup(7 if args.quick else 15)
    if not args.quick:
        print_batch()
    print_pack(repeat)
    simulate_table(args.quick)
    print_scoring()
    print_pages()
    print_counter()


def print_batch() -> None:
    big = measure("batch", 1250, 1)
    print(f"\n10,000 unique sheets (1,250 pages) in one batch: {big['cpu']:.1f} s CPU ({big['seconds']:.1f} s wall), "
          f"{big['bytes'] / 2**20:.1f} MiB PDF, peak {big['peak_mib']:.0f} MiB (target < 150 MiB)")


def print_startup(rounds: int) -> None:
    pdf = Path(tempfile.gettempdir()) / "sheetgen-bench-classic.pdf"
    commands = {"python -c 'import reportlab.pdfgen.canvas'": [sys.executable, "-c", "import reportlab.pdfgen.canvas"],
                "sheetgen render classic": [sys.executable, "-m", "sheetgen", "render", "classic", "-o", str(pdf)]}
    costs = process_costs(commands, rounds)
    bare = costs["python -c 'import reportlab.pdfgen.canvas'"]
    print(f"\nWhole process, median of {rounds} runs each, the two taking turns:\n")
    print("| command | CPU ms | CPU ratio | wall ms | wall ratio | target |")
    print("|---|---:|---:|---:|---:|---|")
    for name, cost in costs.items():
        target = "CPU ≤ 1.5" if name.startswith("sheetgen") else ""
        print(f"| {name} | {1000 * cost['cpu']:.0f} | {cost['cpu'] / bare['cpu']:.2f} | {1000 * cost['wall']:.0f} |"
              f" {cost['wall'] / bare['wall']:.2f} | {target} |")
    print(f"\nOne-page classic PDF: {pdf.stat().st_size / 1024:.1f} KiB (target ≤ 12 KiB)")


def print_pack(repeat: int) -> None:
    pack, sheets = measure("pack", 0, repeat), measure("pack_sheets", 0, repeat)
    contents = _pack()
    pdfs = len(contents.grids) * len(contents.langs) * contents.sheet_files
    print(f"Download pack ({pdfs} one-page sheet PDFs: every grid x language x paper x look at the standard size,"
          f" large print in colour and mono, A6 in colour; and previews, rules cards, typical games, 5 pages, zip):"
          f" {pack['seconds']:.1f} s wall, {pack['cpu']:.1f} s CPU, {pack['cpu'] / sheets['cpu']:.2f} x the CPU time"
          f" of its sheet PDFs alone (target ≤ 2); zip {pack['bytes'] / 2**20:.2f} MiB, peak {pack['peak_mib']:.0f} MiB")


if __name__ == "__main__":
    main()
