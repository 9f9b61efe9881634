"""The command line's own options: a numbered run without a manifest, quiet
runs and progress bars on standard error, through click's runner and a real
terminal."""

from __future__ import annotations

import functools
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.grid.yamlio import read_yaml
from sheetgen.process import LINE_MAX
from sheetgen.sheet.style import GLOSSARY, TEMPLATE_PREFIX

from cli_process import run_on_a_terminal

REPO = Path(__file__).resolve().parent.parent


def test_render_prints_a_numbered_run_with_a_header_without_a_manifest(run, tmp_path):
    result = run("render", "classic", "--sheets", "20", "--first-serial", "41", "--header", "Club de Lyon")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "wrote out/classic.pdf (3 pages, 20 sheets, No. 000041 to 000060)\n"
    pdf = pdfium.PdfDocument((tmp_path / "out" / "classic.pdf").read_bytes())
    texts = [page.get_textpage().get_text_range() for page in pdf]
    assert [text.count("Club de Lyon") for text in texts] == [8, 8, 4]
    assert [text.count("No. 0000") for text in texts] == [8, 8, 4]


def test_serial_alone_numbers_from_1_and_the_order_can_be_the_pages(run):
    result = run("render", "classic", "--sheets", "9", "--serial", "--serial-order", "page", "-q")
    assert (result.exit_code, result.output) == (0, "")
    text = "".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(Path("out/classic.pdf")))
    assert text.count("No. 0000") == 9 and text.index("No. 000002") < text.index("No. 000003")


def manifest_error(tmp_path: Path, manifest: str) -> str:
    """What a manifest says is wrong, after the place."""
    (tmp_path / "m.yaml").write_text(manifest)
    result = CliRunner().invoke(cli, ["batch", str(tmp_path / "m.yaml")])
    assert result.exit_code == 1
    return result.stderr.split(": ", 3)[-1].rstrip("\n")


# (render's arguments, a manifest that gives the same value)
SAME_CHECKS = [
    (("--sheets", "0"), "jobs: [{grid: classic, sheets: 0}]"),
    (("--sheets", "80001"), "jobs: [{grid: classic, sheets: 80001}]"),
    (("--sheets", "2 pages"), "jobs: [{grid: classic, sheets: 2 pages}]"),
    (("--header", "x" * 81), f"jobs: [{{grid: classic, sheets: 8, header: {'x' * 81}}}]"),
    (("--header", " "), "jobs: [{grid: classic, sheets: 8, header: ' '}]"),
    (("--header", "Łódź 東京"), "jobs: [{grid: classic, sheets: 8, header: Łódź 東京}]"),
    (("--header", "W" * 70, "--serial"), f"jobs: [{{grid: classic, sheets: 8, serial: true, header: {'W' * 70}}}]"),
    (("--first-serial", "1000000"), "first_serial: 1000000\njobs: [{grid: classic, sheets: 8, serial: true}]"),
    (("--first-serial", "-1"), "first_serial: -1\njobs: [{grid: classic, sheets: 8, serial: true}]"),
    (("--paper", "a4", "--size", "a6"), "jobs: [{grid: classic, sheets: 8, size: a6, paper: a4}]"),
    (("--paper", "a6"), "jobs: [{grid: classic, sheets: 8, paper: a6}]"),
]


@pytest.mark.parametrize("args, manifest", SAME_CHECKS, ids=[" ".join(a)[:30] for a, _ in SAME_CHECKS])
def test_render_checks_its_job_options_as_a_manifest_does(run, tmp_path, args, manifest):
    expected = manifest_error(tmp_path, manifest)
    result = run("render", "classic", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"sheetgen render: Invalid value for '{args[0]}': {expected}"
                             " (see 'sheetgen render --help')\n")
    assert not Path("out").exists()


@pytest.mark.parametrize("size, pages, sheets, points", [
    ("large", 2, 8, (842, 595)),  # 4 to a landscape A4 page
    ("a6", 3, 3, (420, 298)),  # one to a landscape A6 page
])
def test_pages_of_another_size_hold_as_many_sheets_as_it_has_to_a_page(run, size, pages, sheets, points):
    result = run("render", "longo", "--size", size, "--pages", str(pages))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"wrote out/longo-{size}.pdf ({pages} pages, {sheets} sheets, seed 1)\n"
    pdf = pdfium.PdfDocument(Path(f"out/longo-{size}.pdf"))
    assert [tuple(round(v) for v in page.get_size()) for page in pdf] == [points] * pages


def test_pages_and_sheets_do_not_go_together(run):
    result = run("render", "classic", "--pages", "2", "--sheets", "3")
    assert (result.exit_code, result.stderr) == (
        2, "sheetgen render: give --pages or --sheets, not both (see 'sheetgen render --help')\n")


@pytest.mark.parametrize("args", [("render", "classic"), ("check", str(REPO / "grids" / "classic.yaml")),
                                  ("pack", "-o", "pack")])
def test_quiet_prints_nothing_but_errors(run, args, monkeypatch):
    import sheetgen.runs.pack

    small = functools.partial(sheetgen.runs.pack.Pack, grids=("classic",), langs=("en",))
    monkeypatch.setattr(sheetgen.runs.pack, "Pack", small)  # what pack prints is the same for one grid as for ten
    assert run(*args).output != ""
    for quiet in ("-q", "--quiet"):
        result = run(*args, quiet)
        assert (result.exit_code, result.output) == (0, "")


def test_a_long_render_shows_its_progress_bar_on_standard_error(tmp_path):
    code, stdout, terminal = run_on_a_terminal("render", "longo", "--pages", "40", cwd=tmp_path)
    assert (code, stdout) == (0, "wrote out/longo.pdf (40 pages, 320 sheets, seed 1)\n")
    assert "Printing  [" in terminal and "100%" in terminal and "wrote" not in terminal
    code, stdout, terminal = run_on_a_terminal("render", "longo", "--pages", "40", "-q", cwd=tmp_path)
    assert (code, stdout, terminal) == (0, "", "")


# -- help ------------------------------------------------------------------------


def test_a_bare_sheetgen_prints_the_short_help_and_exits_0(run):
    result = run()
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == run("--help").stdout
    assert result.stdout.startswith("Usage: sheetgen [OPTIONS] [COMMAND] [ARGS]...\n")
    assert "\nCommands:\n" in result.stdout


def test_every_option_says_what_it_does_and_its_default():
    import click

    for name, command in cli.commands.items():
        assert command.help, f"{name} has no help text"
        context = click.Context(command, info_name=name)
        for param in command.params:
            if not isinstance(param, click.Option) or param.name == "help":
                continue
            opts, text = param.get_help_record(context)
            assert text.strip(), f"{name} {opts}: no help"
            if not param.is_flag:  # a flag is off unless given
                assert "[default: " in text, f"{name} {opts}: the help does not say the default"


# -- shell completion --------------------------------------------------------------


def complete(*words: str, cwd: Path) -> list[str]:
    """What `sheetgen WORDS<TAB>` offers in bash, as click's completion protocol answers it."""
    env = {"_SHEETGEN_COMPLETE": "bash_complete", "COMP_WORDS": " ".join(("sheetgen",) + words),
           "COMP_CWORD": str(len(words))}
    result = CliRunner().invoke(cli, [], env=env, prog_name="sheetgen")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line]
    assert all(line.startswith("plain,") for line in lines), lines
    return [line.removeprefix("plain,") for line in lines]


def test_grid_arguments_complete_builtin_names_then_grid_files(run, tmp_path):
    (tmp_path / "grids").mkdir()
    for name in ("club.yaml", "big.yml", "notes.txt", ".hidden.yaml"):
        (tmp_path / "grids" / name).write_text("")
    (tmp_path / "classic-club.yaml").write_text("")
    assert complete("render", "c", cwd=tmp_path) == ["classic", "classic-club.yaml"]
    assert complete("render", "", cwd=tmp_path)[:10] == ["bis", "blocks", "bonus", "classic", "disorder", "doubles",
                                                        "longo", "mixed", "powers", "rainbow"]
    assert complete("render", "", cwd=tmp_path)[10:] == ["classic-club.yaml", "grids/"]
    assert complete("score", "grids/", cwd=tmp_path) == ["grids/big.yml", "grids/club.yaml"]
    assert complete("show", "grids/c", cwd=tmp_path) == ["grids/club.yaml"]
    assert complete("render", "nowhere/x", cwd=tmp_path) == []


def test_languages_themes_papers_and_serial_orders_complete(run, tmp_path):
    assert complete("render", "classic", "--lang", "", cwd=tmp_path) == ["de", "en", "fr", "it", "nl"]
    assert complete("render", "classic", "--theme", "", cwd=tmp_path) == ["colour", "ink-saver", "mono"]
    assert complete("render", "classic", "--paper", "l", cwd=tmp_path) == ["letter"]
    assert complete("render", "classic", "--serial-order", "", cwd=tmp_path) == ["stack", "page"]
    assert "render" in complete("", cwd=tmp_path) and "batch" in complete("b", cwd=tmp_path)


@pytest.mark.parametrize("shell, line", [
    ("bash", "complete -o nosort -F _sheetgen_completion sheetgen"),
    ("zsh", "compdef _sheetgen_completion sheetgen"),
    ("fish", "complete --no-files --command sheetgen"),
])
def test_the_completion_scripts_the_docs_name(shell, line):
    """docs/command-line.md tells users to run these to turn completion on."""
    result = CliRunner().invoke(cli, [], env={"_SHEETGEN_COMPLETE": f"{shell}_source"}, prog_name="sheetgen")
    assert result.exit_code == 0
    assert line in result.stdout
    docs = (REPO / "docs" / "command-line.md").read_text()
    assert f"_SHEETGEN_COMPLETE={shell}_source sheetgen" in docs


# -- a language file of the user's ---------------------------------------------------

GERMAN = (REPO / "sheetgen" / "data" / "lang-de.yaml").read_text()
CLUB = GERMAN.replace('"Fehlwürfe"', '"Patzer"')  # a club's own word for a penalty
# The words that follow the sheet's in lang-en.yaml (the counter page's, ...; not the rules
# templates, which a message about words does not list), as the message lists them.
_KEYS = list(read_yaml(REPO / "sheetgen" / "data" / "lang-en.yaml"))
_LATER = [key for key in _KEYS[_KEYS.index("power_at_end") + 1:]
          if not key.startswith(TEMPLATE_PREFIX) and key != GLOSSARY]  # the glossary is for editors, not a word
ENGLISH_KEYS_AFTER_THE_SHEETS = ", ".join(_LATER[:-1]) + " or " + _LATER[-1]


def pdf_words(path: Path) -> str:
    return "".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(path.read_bytes()))


def test_render_prints_a_clubs_own_words_from_a_file(run, tmp_path):
    assert CLUB.count('"Patzer"') == 2  # penalties and penalties_short
    (tmp_path / "club.yaml").write_text(CLUB)
    result = run("render", "classic", "--lang-file", "club.yaml", "--serial")
    assert (result.exit_code, result.stderr) == (0, "")
    words = pdf_words(tmp_path / "out" / "classic-club.pdf")  # named after the language file
    assert "Patzer" in words and "Fehlwürfe" not in words and "Kreuze" in words and "Nr. 000001" in words


def test_batch_prints_every_job_in_the_files_words(run, tmp_path):
    (tmp_path / "club.yaml").write_text(CLUB)
    (tmp_path / "evening.yaml").write_text("jobs: [{grid: classic, sheets: 8, lang: fr}, {grid: longo, sheets: 8}]\n")
    result = run("batch", "evening.yaml", "--lang-file", "club.yaml", "-q")
    assert (result.exit_code, result.output) == (0, "")
    for name in ("01-classic.pdf", "02-longo.pdf"):
        assert "Patzer" in pdf_words(tmp_path / "out" / "batch-evening" / name)


BAD_LANG_FILES = [
    (CLUB.replace('serial: "Nr. {n}"', 'serial: "Nr."'),
     "club.yaml: serial: expected the placeholder {n}, as in English 'No. {n}', got 'Nr.'"),
    (CLUB.replace('total: "Gesamt"', 'total: "Gesamt {n}"'),
     "club.yaml: total: expected no placeholder, as in English 'Total', got 'Gesamt {n}'"),
    ("\n".join(line for line in CLUB.splitlines() if not line.startswith("lucky:")), "club.yaml: missing key 'lucky'"),
    (CLUB.replace("\nbonus:", "\nbonsu:"), "club.yaml: unknown key 'bonsu', did you mean 'bonus'? (expected language, name, lucky, penalties,"
     " penalties_short, penalty_box, crosses, table_crosses, points, total, powers_short, total_row, threshold, bonus, legend_double,"
     " legend_bis, legend_bonus, serial, power_extra_crosses, power_cross_each_open_row, power_double_lowest_row,"
     " power_bonus_points, power_no_penalties, colour_red, colour_yellow, colour_green, colour_blue,"
     " legend_threshold, legend_any_row, legend_lucky, legend_powers_both, legend_powers, power_at_once, power_at_end,"
     f" {ENGLISH_KEYS_AFTER_THE_SHEETS})"),
    (CLUB.replace('name: "Name"', 'name: "Imię 名前"'),
     "club.yaml: name: the sheet's font has no '名' or '前' (expected European Latin letters, digits and punctuation)"),
    (CLUB.replace('name: "Name"', 'name: ""'), "club.yaml: name: expected non-empty text, got the text ''"),
    ("- a list\n", "club.yaml: expected a mapping, got a list"),
    ("name: !!python/object:os.system x\n",
     "club.yaml: line 1, column 7: tag '!!python/object:os.system' is not allowed (only plain data)"),
]


@pytest.mark.parametrize("text, line", BAD_LANG_FILES, ids=[line.split(": ", 1)[1][:40] for _, line in BAD_LANG_FILES])
def test_a_bad_language_file_is_one_line_naming_the_key(run, tmp_path, text, line):
    (tmp_path / "club.yaml").write_text(text)
    result = run("render", "classic", "--lang-file", "club.yaml")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", cut_to_fit(f"sheetgen: {line}") + "\n")
    assert not (tmp_path / "out").exists()


def cut_to_fit(line: str) -> str:
    """An error line as printed: at most LINE_MAX characters, its middle left out (docs/limits.md)."""
    if len(line) <= LINE_MAX:
        return line
    return f"{line[: LINE_MAX // 2]} [... {len(line) - LINE_MAX:,} characters ...] {line[-LINE_MAX // 2:]}"


def test_lang_and_lang_file_do_not_go_together(run, tmp_path):
    (tmp_path / "club.yaml").write_text(CLUB)
    result = run("render", "classic", "--lang", "fr", "--lang-file", "club.yaml")
    assert (result.exit_code, result.stderr) == (
        2, "sheetgen render: give --lang or --lang-file, not both (see 'sheetgen render --help')\n")


def test_the_widest_serial_number_of_a_run_is_checked_before_anything_is_written(run, tmp_path):
    """'Sheet of the 999999' fits its box, 'Sheet of the 1000006' (the last of 8 sheets) does not."""
    english = (REPO / "sheetgen" / "data" / "lang-en.yaml").read_text()
    (tmp_path / "long.yaml").write_text(english.replace('serial: "No. {n}"', 'serial: "Sheet of the {n}"'))
    assert run("render", "classic", "--lang-file", "long.yaml", "--first-serial", "999992", "-q").exit_code == 0
    result = run("render", "classic", "--lang-file", "long.yaml", "--first-serial", "999999", "-o", "late.pdf")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith("sheetgen: text 'Sheet of the 1000006' does not fit its box: ")
    assert not (tmp_path / "late.pdf").exists()
