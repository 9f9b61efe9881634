"""Club batches: manifest validation, output paths, serial and lucky numbers
across the batch, combined output, and what a failed batch reports."""

from __future__ import annotations

import itertools
import os
import re
import textwrap
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from sheetgen import cli as cli_module
from sheetgen.cli import cli
from sheetgen.grid.load import builtin_dir, load_grid
from sheetgen.pdf.impose import impose
from sheetgen.pdf.render import measure_text
from sheetgen.runs.batch import EXAMPLE, load_batch, write_batch
from sheetgen.sheet.plan import plan_sheet
from sheetgen.sheet.style import load_labels, load_theme

from cli_process import run_on_a_terminal

REPO = Path(__file__).resolve().parent.parent
MM = 72 / 25.4


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Run sheetgen in a fresh folder holding the manifest club.yaml."""
    monkeypatch.chdir(tmp_path)

    def invoke(manifest: str, *args: str):
        Path("club.yaml").write_text(textwrap.dedent(manifest))
        return CliRunner().invoke(cli, ["batch", "club.yaml", *args], catch_exceptions=False)

    return invoke


def written(folder: str = "out") -> list[str]:
    return sorted(str(p) for p in Path(folder).rglob("*") if p.is_file()) if Path(folder).exists() else []


# -- the manifest -------------------------------------------------------------

ONE_JOB = "jobs: [{grid: classic, sheets: 8}]\n"
BAD_MANIFESTS = [
    ("seed: 1\n", "club.yaml: missing key 'jobs'"),
    ("- classic\n", "club.yaml: expected a mapping, got a list"),
    ("jobs: []\n", "club.yaml: jobs: expected 1 to 100 jobs, got 0"),
    ("colour: red\n" + ONE_JOB,
     "club.yaml: unknown key 'colour' (expected jobs, folder, seed, first_serial or defaults)"),
    ("jobs: [{grid: classic, sheets: 8, pages: 1}]\n",
     "club.yaml: jobs[0]: unknown key 'pages' (expected grid, sheets, file, lang, size, paper, theme, colour_marks,"
     " header, serial or serial_order)"),
    ("jobs: [{grid: classic}]\n", "club.yaml: jobs[0]: missing key 'sheets'"),
    ("jobs: [{grid: classic, sheets: 8, seed: 3}]\n",
     "club.yaml: jobs[0].seed: the seed belongs to the whole batch (one deck of lucky numbers for every job):"
     " set it at the top of the manifest"),
    ("jobs: [{grid: classic, sheets: 0}]\n",
     "club.yaml: jobs[0].sheets: expected a whole number from 1 to 80000, got the number 0"),
    ("jobs: [{grid: classic, sheets: 2 pages}]\n",
     "club.yaml: jobs[0].sheets: expected a whole number, got the text '2 pages'"),
    ("jobs: [{grid: classic, sheets: 50000}, {grid: longo, sheets: 40000}]\n",
     "club.yaml: jobs[1].sheets: the batch would have 90,000 sheets (expected at most 80,000:"
     " split it into several manifests)"),
    ("jobs: [{grid: nope, sheets: 8}]\n",
     "club.yaml: jobs[0].grid: unknown grid 'nope': no such file nope (expected a grid file or one of bis,"
     " blocks, bonus, classic, disorder, doubles, longo, mixed, powers or rainbow)"),
    ("jobs: [{grid: classic, sheets: 8, lang: es}]\n",
     "club.yaml: jobs[0].lang: unknown value 'es' (expected de, en, fr, it or nl)"),
    ("defaults: {paper: a3}\n" + ONE_JOB, "club.yaml: defaults.paper: unknown value 'a3' (expected a4 or letter)"),
    ("jobs: [{grid: classic, sheets: 8, size: huge}]\n",
     "club.yaml: jobs[0].size: unknown value 'huge' (expected standard, large or a6)"),
    ("defaults: {paper: a4}\njobs: [{grid: classic, sheets: 8, size: a6}]\n",
     "club.yaml: defaults.paper: a6 sheets print on A6 paper, not on A4 (expected a6)"),
    ("jobs: [{grid: classic, sheets: 8, size: large, paper: a6}]\n",
     "club.yaml: jobs[0].paper: large sheets print on A4 or US Letter paper, not on A6 (expected a4 or letter)"),
    ("defaults: {grid: classic}\n" + ONE_JOB,
     "club.yaml: defaults: unknown key 'grid' (expected lang, size, paper, theme, colour_marks, header, serial or"
     " serial_order)"),
    ("jobs: [{grid: classic, sheets: 8, theme: neon}]\n",
     "club.yaml: jobs[0].theme: unknown value 'neon' (expected colour, ink-saver or mono)"),
    ("jobs: [{grid: classic, sheets: 8, serial: yes please}]\n",
     "club.yaml: jobs[0].serial: expected true or false, got the text 'yes please'"),
    ("defaults: {serial: true, serial_order: cut}\n" + ONE_JOB,
     "club.yaml: defaults.serial_order: unknown value 'cut' (expected stack or page)"),
    ("first_serial: -1\n" + ONE_JOB,
     "club.yaml: first_serial: expected a whole number from 0 to 999999, got the number -1"),
    ("seed: random\n" + ONE_JOB, "club.yaml: seed: expected a whole number, got the text 'random'"),
    (f"defaults: {{header: '{'x' * 81}'}}\n" + ONE_JOB,
     "club.yaml: defaults.header: expected text of at most 80 characters, got 81"),
    ("jobs: [{grid: classic, sheets: 8, serial: true, header: '" + "W" * 70 + "'}]\n",
     f"club.yaml: jobs[0].header: text '{'W' * 70}' does not fit its box: needs 146.5 mm at the smallest size,"
     " has 57.5 mm"),
    ("defaults: {header: 'Łódź, 東京'}\n" + ONE_JOB,
     "club.yaml: defaults.header: the sheet's font has no '東' or '京'"  # Łódź prints
     " (expected European Latin letters, digits and punctuation)"),
    # output file names that try to leave the output folder, or are not plain names
    ("jobs: [{grid: classic, sheets: 8, file: ../x.pdf}]\n",
     "club.yaml: jobs[0].file: '../x.pdf' leads out of the output folder (expected a path inside it, without '..')"),
    ("jobs: [{grid: classic, sheets: 8, file: a/../../x.pdf}]\n",
     "club.yaml: jobs[0].file: 'a/../../x.pdf' leads out of the output folder"
     " (expected a path inside it, without '..')"),
    ("jobs: [{grid: classic, sheets: 8, file: /tmp/x.pdf}]\n",
     "club.yaml: jobs[0].file: '/tmp/x.pdf' is an absolute path (expected a path inside the output folder)"),
    ("jobs: [{grid: classic, sheets: 8, file: 'C:/x.pdf'}]\n",
     "club.yaml: jobs[0].file: 'C:/x.pdf' is an absolute path (expected a path inside the output folder)"),
    ("jobs: [{grid: classic, sheets: 8, file: 'a\\x.pdf'}]\n",
     "club.yaml: jobs[0].file: 'a\\\\x.pdf' is not a plain path (expected names joined by '/', none empty or"
     " starting with '.', without \\ : * ? \" < > |)"),
    ("jobs: [{grid: classic, sheets: 8, file: .hidden.pdf}]\n",
     "club.yaml: jobs[0].file: '.hidden.pdf' is not a plain path (expected names joined by '/', none empty or"
     " starting with '.', without \\ : * ? \" < > |)"),
    ("jobs: [{grid: classic, sheets: 8, file: a//x.pdf}]\n",
     "club.yaml: jobs[0].file: 'a//x.pdf' is not a plain path (expected names joined by '/', none empty or"
     " starting with '.', without \\ : * ? \" < > |)"),
    ("jobs: [{grid: classic, sheets: 8, file: x.txt}]\n",
     "club.yaml: jobs[0].file: expected a file name ending in .pdf, got 'x.txt'"),
    ("jobs: [{grid: classic, sheets: 8, file: A.pdf}, {grid: longo, sheets: 8, file: a.pdf}]\n",
     "club.yaml: jobs[1].file: 'a.pdf' is already the file of jobs[0]"),
    ("jobs: [{grid: classic, sheets: 8, file: 02-longo.pdf}, {grid: longo, sheets: 8}]\n",
     "club.yaml: jobs[1]: '02-longo.pdf' is already the file of jobs[0]"),
    ("folder: ../elsewhere\n" + ONE_JOB,
     "club.yaml: folder: '../elsewhere' leads out of out/ (expected a path inside it, without '..')"),
    ("folder: /srv/print\n" + ONE_JOB, "club.yaml: folder: '/srv/print' is an absolute path (expected a path inside out/)"),
]


@pytest.mark.parametrize("manifest, line", BAD_MANIFESTS, ids=[line.split(": ", 1)[1] for _, line in BAD_MANIFESTS])
def test_a_bad_manifest_is_one_line_and_writes_nothing(run, manifest, line):
    result = run(manifest)
    assert (result.exit_code, result.stderr, result.stdout) == (1, f"sheetgen: {line}\n", "")
    assert written() == []


def test_an_error_in_a_grid_file_names_the_grid_file(run):
    Path("grids").mkdir()
    Path("grids/mine.yaml").write_text((builtin_dir() / "classic.yaml").read_text().replace("colour: green", "colour: purple"))
    result = run("jobs: [{grid: grids/mine.yaml, sheets: 8}]\n")
    assert result.exit_code == 1
    assert result.stderr.startswith("sheetgen: grids/mine.yaml: rows[2].colour: unknown value 'purple'")


def test_the_example_manifest_is_valid_and_in_the_clubs_page():
    batch = load_batch(EXAMPLE)
    assert [(b.file, b.job.grid.name, b.job.lang, b.job.paper, b.job.theme, b.job.colour_marks)
            for b in batch.jobs] == [
        ("01-classic.pdf", "classic", "fr", "a4", "colour", False),
        ("longo-du-soir.pdf", "longo", "fr", "a4", "colour", False),
        ("03-classic.pdf", "classic", "de", "letter", "ink-saver", True),
        ("04-classic.pdf", "classic", "fr", "a4", "colour", False),
    ]
    assert [b.job.size.name for b in batch.jobs] == ["standard"] * 3 + ["large"]
    assert [b.pages for b in batch.jobs] == [5, 2, 1, 2]
    assert batch.folder == Path("out/club-night")
    assert EXAMPLE.read_text() in (REPO / "docs" / "clubs.md").read_text()


def test_batch_example_prints_the_example_manifest_that_then_prints(run):
    """The example ships inside the package; saved as the user is told to, it prints."""
    result = CliRunner().invoke(cli, ["batch", "--example"])
    assert (result.exit_code, result.stderr, result.stdout) == (0, "", EXAMPLE.read_text())
    result = run(result.stdout, "--quiet")
    assert (result.exit_code, result.output) == (0, "")
    assert written() == ["out/club-night/01-classic.pdf", "out/club-night/03-classic.pdf",
                         "out/club-night/04-classic.pdf", "out/club-night/longo-du-soir.pdf"]


# -- where files go -------------------------------------------------------------


def test_files_go_to_out_batch_manifest_by_default_or_the_named_folder(run):
    result = run("jobs: [{grid: classic, sheets: 8}, {grid: longo, sheets: 9, file: evening/longo.pdf}]\n")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "wrote out/batch-club/01-classic.pdf (1 page, 8 sheets)\n"
        "wrote out/batch-club/evening/longo.pdf (2 pages, 9 sheets)\n"
    )
    assert written() == ["out/batch-club/01-classic.pdf", "out/batch-club/evening/longo.pdf"]
    result = run("folder: club-night/2026\n" + ONE_JOB)
    assert result.stdout == "wrote out/club-night/2026/01-classic.pdf (1 page, 8 sheets)\n"
    result = run(ONE_JOB, "-o", "elsewhere", "--quiet")
    assert (result.exit_code, result.output) == (0, "")
    assert written("elsewhere") == ["elsewhere/01-classic.pdf"]


def test_a_symbolic_link_cannot_lead_a_file_out_of_the_output_folder(run, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.pdf").write_bytes(b"keep")
    Path("out/batch-club").mkdir(parents=True)
    os.symlink(outside, "out/batch-club/evil")
    result = run("jobs: [{grid: classic, sheets: 8}, {grid: classic, sheets: 8, file: evil/precious.pdf}]\n")
    assert (result.exit_code, result.stderr) == (1, (
        "sheetgen: club.yaml: jobs[1].file: 'evil/precious.pdf' leads out of out/batch-club/ through the"
        f" symbolic link out/batch-club/evil -> {outside}\n"
    ))
    os.symlink(outside / "precious.pdf", "out/batch-club/01-classic.pdf")
    result = run(ONE_JOB)
    assert result.stderr == (
        "sheetgen: club.yaml: jobs[0]: '01-classic.pdf' leads out of out/batch-club/ through the symbolic link"
        f" out/batch-club/01-classic.pdf -> {outside / 'precious.pdf'}\n"
    )
    os.symlink(outside, "out/club")
    result = run("folder: club\n" + ONE_JOB)
    assert result.stderr == f"sheetgen: club.yaml: folder: 'club' leads out of out/ through the symbolic link out/club -> {outside}\n"
    assert (outside / "precious.pdf").read_bytes() == b"keep" and sorted(os.listdir(outside)) == ["precious.pdf"]
    assert not Path("out/batch-club/evil/precious.pdf").is_file() or Path("out/batch-club/evil").is_symlink()


def test_a_file_in_the_way_of_a_folder_is_found_before_anything_is_written(run):
    Path("out/batch-club").mkdir(parents=True)
    Path("out/batch-club/sub").write_text("a file where a folder should be")
    result = run("jobs: [{grid: classic, sheets: 8}, {grid: longo, sheets: 8, file: sub/x.pdf},"
                 " {grid: mixed, sheets: 8}]\n")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "sheetgen: out/batch-club/sub: is a file, expected a folder to write" \
                            " out/batch-club/sub/x.pdf in\n"
    assert written() == ["out/batch-club/sub"]


def test_a_batch_that_fails_half_way_writes_none_of_its_files(run, monkeypatch):
    from sheetgen.errors import OutputError
    from sheetgen.runs import output

    real = output.Together.add

    def full_at_the_second(self, path, data):
        if Path(path).name == "x.pdf":
            raise OutputError(f"{path}: cannot be written (No space left on device)")
        return real(self, path, data)

    monkeypatch.setattr(output.Together, "add", full_at_the_second)
    result = run("jobs: [{grid: classic, sheets: 8}, {grid: longo, sheets: 8, file: sub/x.pdf},"
                 " {grid: mixed, sheets: 8}]\n")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "sheetgen: out/batch-club/sub/x.pdf: cannot be written (No space left on device); batch stopped,"
        " no file written\n"
    )
    assert written() == []


def test_a_batch_that_fails_while_its_files_get_their_names_says_which_did(run, monkeypatch):
    from sheetgen.runs import output

    real = output.os.replace

    def second_fails(source, target):
        if Path(target).name == "x.pdf":
            raise OSError(5, "Input/output error")
        return real(source, target)

    monkeypatch.setattr(output, "os", type("Os", (), {"__getattr__": lambda self, name: second_fails
                                                      if name == "replace" else getattr(os, name)})())
    result = run("jobs: [{grid: classic, sheets: 8}, {grid: longo, sheets: 8, file: sub/x.pdf},"
                 " {grid: mixed, sheets: 8}]\n")
    assert result.stderr == (
        "sheetgen: out/batch-club/sub/x.pdf: cannot be written (Input/output error); batch stopped,"
        " written: 01-classic.pdf; not written: sub/x.pdf, 03-mixed.pdf\n")
    assert written() == ["out/batch-club/01-classic.pdf"]  # and no hidden file left


# -- what differs from sheet to sheet ------------------------------------------


def page_texts(path: Path) -> list[str]:
    return [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(path.read_bytes())]


def test_serial_numbers_are_unique_and_in_order_across_the_batch(run):
    result = run("""\
        first_serial: 98
        defaults: {serial: true, header: "Club de Lyon"}
        jobs:
          - {grid: classic, sheets: 10}
          - {grid: longo, sheets: 5, serial: false}
          - {grid: longo, sheets: 12, lang: de, paper: letter, serial_order: page}
    """)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "wrote out/batch-club/01-classic.pdf (2 pages, 10 sheets, No. 000098 to 000107)",
        "wrote out/batch-club/02-longo.pdf (1 page, 5 sheets)",
        "wrote out/batch-club/03-longo.pdf (2 pages, 12 sheets, No. 000108 to 000119)",
    ]
    found = [[int(n) for n in re.findall(r"(?:No\.|Nr\.) (\d{6})", "".join(page_texts(Path(p))))] for p in written()]
    # Read page by page, slot by slot.  Stack order: 10 sheets on 2 pages make piles of
    # 2 (slots 1 and 2: 98-99, 100-101) and of 1 (slots 3 to 8, empty on page 2: 102...107).
    assert found == [[98, 100, 102, 103, 104, 105, 106, 107, 99, 101], [], list(range(108, 120))]


def lucky_pairs(path: Path, grid, paper: str, lang: str = "en", **strips) -> list[tuple[int, int]]:
    """The lucky numbers printed on each sheet of the PDF at ``path``, read back from its boxes
    (where they are depends on the language: a long label takes room from them)."""
    sheet = plan_sheet(grid, load_labels(lang), load_theme("colour"), measure_text, **strips)
    plan = impose(paper, sheet.width, sheet.height)
    pairs = []
    for page in pdfium.PdfDocument(path.read_bytes()):
        text = page.get_textpage()
        for slot in plan.slots:
            boxes = [box.shifted(slot.x, slot.y) for box in sheet.lucky_boxes]
            numbers = [text.get_text_bounded(left=b.x * MM, right=b.right * MM, top=(plan.height - b.y) * MM,
                                             bottom=(plan.height - b.bottom) * MM).strip() for b in boxes]
            if all(numbers):
                pairs.append(tuple(int(n) for n in numbers))
    return pairs


def test_lucky_pairs_differ_on_every_sheet_of_a_batch_while_the_range_allows(run):
    """105 longo sheets over three jobs (with a classic job between): 105 different pairs."""
    result = run("""\
        seed: 5
        jobs:
          - {grid: longo, sheets: 40}
          - {grid: classic, sheets: 8}
          - {grid: longo, sheets: 33, lang: fr, paper: letter}
          - {grid: longo, sheets: 32}
    """)
    assert result.exit_code == 0, result.output
    longo = load_grid("longo")
    pairs = (lucky_pairs(Path("out/batch-club/01-longo.pdf"), longo, "a4")
             + lucky_pairs(Path("out/batch-club/03-longo.pdf"), longo, "letter", "fr")
             + lucky_pairs(Path("out/batch-club/04-longo.pdf"), longo, "a4"))
    assert len(pairs) == 105
    assert sorted(pairs) == list(itertools.combinations(range(2, 17), 2))  # each possible pair once


def test_past_the_range_every_pair_comes_once_per_round_and_never_twice_on_a_page(tmp_path):
    """What holds beyond 105 longo sheets: each run of 105 (a round of the deck) has
    every pair once, and any 8 sheets in a row differ, across the jobs' seams too."""
    manifest = tmp_path / "big.yaml"
    manifest.write_text("jobs: [{grid: longo, sheets: 101}, {grid: longo, sheets: 3}, {grid: longo, sheets: 211}]\n")
    batch = load_batch(manifest)
    pairs = [d.lucky for b in batch.jobs for d in b.data]
    every = set(itertools.combinations(range(2, 17), 2))
    assert len(pairs) == 315
    for start in range(0, 315, 105):
        assert set(pairs[start:start + 105]) == every
    for start in range(len(pairs) - 7):
        assert len(set(pairs[start:start + 8])) == 8, start


def test_a_grid_with_another_lucky_range_deals_from_its_own_deck(tmp_path):
    """Grid files are relative to the manifest; a range of 6 numbers has 15 pairs."""
    (tmp_path / "grids").mkdir()
    small = (builtin_dir() / "longo.yaml").read_text().replace("name: longo", "name: small")
    small = re.sub(r"lucky:.*?\n(\s+\w+:.*\n)*", "lucky: {count: 2, from: 2, to: 7}\n", small, count=1)
    (tmp_path / "grids" / "small.yaml").write_text(small)
    manifest = tmp_path / "club.yaml"
    manifest.write_text("jobs: [{grid: longo, sheets: 20}, {grid: grids/small.yaml, sheets: 15}]\n")
    batch = load_batch(manifest)
    assert batch.jobs[1].job.grid.lucky.high == 7
    small_pairs = [d.lucky for d in batch.jobs[1].data]
    assert sorted(small_pairs) == list(itertools.combinations(range(2, 8), 2))
    assert len(set(d.lucky for d in batch.jobs[0].data)) == 20


def test_the_same_manifest_gives_the_same_bytes_and_another_seed_other_pairs(tmp_path):
    manifest = tmp_path / "club.yaml"
    manifest.write_text("jobs: [{grid: longo, sheets: 16}]\n")
    first = write_batch(load_batch(manifest), tmp_path / "a")[0].path.read_bytes()
    assert write_batch(load_batch(manifest), tmp_path / "b")[0].path.read_bytes() == first
    manifest.write_text("seed: 2\njobs: [{grid: longo, sheets: 16}]\n")
    assert write_batch(load_batch(manifest), tmp_path / "c")[0].path.read_bytes() != first


# -- one combined PDF and progress ----------------------------------------------


def test_combined_puts_every_job_in_one_pdf_on_its_own_paper(run):
    result = run("""\
        defaults: {serial: true}
        jobs:
          - {grid: classic, sheets: 9}
          - {grid: longo, sheets: 8, paper: letter, lang: nl}
    """, "--combined")
    assert result.exit_code == 0, result.output
    assert result.stdout == "wrote out/batch-club/club.pdf (2 jobs, 3 pages, 17 sheets, No. 000001 to 000017)\n"
    assert written() == ["out/batch-club/club.pdf"]
    pdf = pdfium.PdfDocument(Path("out/batch-club/club.pdf").read_bytes())
    assert [tuple(round(v) for v in page.get_size()) for page in pdf] == [(595, 842), (595, 842), (612, 792)]
    texts = [page.get_textpage().get_text_range() for page in pdf]
    assert "Penalties" in texts[0] and "Misworpen" in texts[2]
    # each job its own stack: 9 sheets on 2 pages pile 1-2 in slot 1, then one sheet a slot
    assert [int(n) for n in re.findall(r"\d{6}", "".join(texts))] == [1, 3, 4, 5, 6, 7, 8, 9, 2, *range(10, 18)]


def test_progress_reports_every_sheet(tmp_path):
    manifest = tmp_path / "club.yaml"
    manifest.write_text("jobs: [{grid: classic, sheets: 20}, {grid: longo, sheets: 5}]\n")
    steps = []
    write_batch(load_batch(manifest), tmp_path / "out", progress=steps.append)
    assert steps == [1] * 25
    write_batch(load_batch(manifest), tmp_path / "out", combined=True, progress=steps.append)
    assert len(steps) == 50


def test_no_progress_bar_unless_stderr_is_a_terminal(run, monkeypatch):
    monkeypatch.setattr(cli_module, "SHOW_PROGRESS_AFTER", 0.0)
    assert run(ONE_JOB).stderr == ""
    monkeypatch.setattr(cli_module, "_is_terminal", lambda: True)
    result = run(ONE_JOB)
    # click hides the bar itself off a terminal, and prints its label only
    assert (result.stderr, result.stdout) == ("Printing\n", "wrote out/batch-club/01-classic.pdf (1 page, 8 sheets)\n")
    assert run(ONE_JOB, "--quiet").output == ""
    assert run(ONE_JOB, "-q").output == ""


def test_a_long_batch_shows_a_progress_bar_on_a_terminal(tmp_path):
    """On standard error, in a real pseudo-terminal."""
    (tmp_path / "club.yaml").write_text("jobs: [{grid: classic, sheets: 80}]\n")
    code, stdout, terminal = run_on_a_terminal("batch", "club.yaml", cwd=tmp_path)
    assert (code, stdout) == (0, "wrote out/batch-club/01-classic.pdf (10 pages, 80 sheets)\n")
    assert "Printing  [" in terminal and "100%" in terminal
