"""Default output names say what is in a file (``runs/names.py``): no two
variants of a grid share one, a rerun writes its own again, and the table of
docs/command-line.md is what the commands write."""

from __future__ import annotations

import itertools
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.pdf.impose import PAPERS
from sheetgen.runs.names import counter_name, rules_name, sheets_name
from sheetgen.sheet.plan import SIZES
from sheetgen.sheet.style import Labels, languages, themes

ROOT = Path(__file__).resolve().parent.parent


def test_sheet_names_name_what_is_not_the_default():
    large, a6 = SIZES["large"], SIZES["a6"]
    assert sheets_name("classic") == "classic.pdf"
    assert sheets_name("longo", "fr") == "longo-fr.pdf"
    assert sheets_name("classic", size=large, theme="ink-saver") == "classic-large-ink-saver.pdf"
    assert sheets_name("classic", theme="colour", colour_marks=True, paper="letter") == "classic-colour-marks-letter.pdf"
    assert sheets_name("classic", size=a6, paper="a6") == "classic-a6.pdf"
    assert sheets_name("longo", "fr", None, large, "mono", True, "letter") == "longo-fr-large-mono-marks-letter.pdf"  # A6 sheets print on A6: no paper named
    assert sheets_name("classic", "de", Labels("files/club.yaml", ())) == "classic-club.pdf"
    assert rules_name("longo", "de") == "longo-de-rules.pdf"
    assert rules_name("longo", paper="letter") == "longo-letter-rules.pdf"
    assert counter_name("classic") == "counter-classic-en.html"
    assert counter_name("classic", "it", theme="mono") == "counter-classic-it-mono.html"


def test_no_two_variants_of_a_grid_share_a_name():
    names: dict[str, tuple] = {}
    for lang, size, theme, marks, paper in itertools.product(languages(), SIZES.values(), themes(), (False, True),
                                                             PAPERS):
        if paper not in size.papers:
            continue
        variant = (lang, size.name, theme, marks, paper)
        name = sheets_name("classic", lang, None, size, theme, marks, paper)
        assert names.setdefault(name, variant) == variant, f"{name}: {variant} and {names[name]}"
    cards = {rules_name("classic", lang, None, paper): (lang, paper) for lang in languages() for paper in ("a4", "letter")}
    assert len(cards) == 2 * len(languages())
    pages = {counter_name("classic", lang, None, theme) for lang in languages() for theme in themes()}
    assert len(pages) == len(languages()) * len(themes())


def table_rows() -> list[tuple[str, str]]:
    """The commands and the files they write, as docs/command-line.md's table gives them."""
    page = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
    section = page.split("## Output names", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(sheetgen [^`]+)` \| `([^`]+)` \|", section, re.M)
    assert len(rows) >= 8, "the table of output names is missing from docs/command-line.md"
    return rows


@pytest.mark.parametrize("command, written", [row for row in table_rows() if not row[1].endswith("/")],
                         ids=lambda value: value[:40])  # the pack's folder: tests/test_pack.py
def test_the_documented_table_is_what_the_commands_write(tmp_path, monkeypatch, command, written):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, shlex.split(command)[1:], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert Path(written).is_file(), sorted(str(p) for p in Path(".").rglob("*"))


def test_variants_in_one_folder_do_not_overwrite_each_other_and_reruns_replace_their_own(run, tmp_path):
    commands = [("render", "longo", "--lang", "fr"), ("render", "longo", "--lang", "de", "--theme", "mono"),
                ("rules", "longo", "--pdf", "--lang", "de"), ("rules", "longo", "--pdf", "--lang", "fr"),
                ("render", "classic"), ("render", "classic", "--size", "large", "--theme", "ink-saver")]
    for command in commands + commands:
        assert run(*command).exit_code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "classic-large-ink-saver.pdf", "classic.pdf", "longo-de-mono.pdf", "longo-de-rules.pdf", "longo-fr-rules.pdf",
        "longo-fr.pdf"]
