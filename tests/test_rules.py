"""The rules composed from a grid: every built-in grid in every language says
each feature it has with its values (and none it lacks), a custom grid gets
correct rules with no new text, `sheetgen rules` prints them wrapped, and
docs/rules.md is what the command prints.

The expected values below are transcribed by hand from the published game and
this project's rules (docs/rules.md, `sheetgen rules`), never read from the
grid files: a wrong file or a template that drops a value must show up here.
Numbers are checked in every language by the digits of a section's text, in
order; colours by the language's colour words, in order.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.grid.load import builtin_dir, builtin_grids, builtin_names, grid_from_data, load_grid
from sheetgen.grid.yamlio import read_yaml
from sheetgen.play.rules import Rules, Section, compose_rules, format_rules, rules_page
from sheetgen.sheet.style import languages, load_labels

from cli_process import sheetgen_command, sheetgen_env

ROOT = Path(__file__).resolve().parent.parent
LANGS = languages()
R, Y, G, B = "red", "yellow", "green", "blue"
TRIANGULAR = (1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120, 136)
UP, DOWN = [2, 12], [12, 2]  # a row's numbers as the rules give them: a run from first to last


@dataclass(frozen=True)
class Expected:
    features: tuple[str, ...] = ()  # the sections between closing a row and the end, in order
    close: int = 5
    faces: int = 6
    rows: tuple[list[int], ...] = (UP, UP, DOWN, DOWN)  # row 1 to 4: the numbers the rules list
    numbered_rows: bool = False  # rows named "row 1".. (cells of several colours), not by colour
    table: int = 12
    cap: int | None = None
    double: list[int] = field(default_factory=list)
    framed: list[int] = field(default_factory=list)
    bar: tuple[str, ...] = ()
    powers: tuple[tuple[str, list[int]], ...] = ()  # symbol, then its cells' numbers and its amount
    lucky: list[int] = field(default_factory=list)  # count, low, high
    last: list[int] = field(default_factory=list)  # the digits of the last cells' list, where numbers are shuffled


EXPECTED = {
    "classic": Expected(),
    "longo": Expected(("lucky",), close=6, faces=8, rows=([2, 16], [2, 16], [16, 2], [16, 2]), table=16,
                      lucky=[2, 2, 16]),
    "doubles": Expected(("double",), close=7, table=16, double=[3, 5, 9, 11, 3, 5, 9, 11, 11, 9, 5, 3, 11, 9, 5, 3]),
    "bis": Expected(("bis",), close=7, table=16, cap=16),
    "bonus": Expected(("bonus",), framed=[3, 6, 9, 5, 8, 11, 11, 7, 4, 10, 8, 5],
                      bar=(R, Y, G, B, G, R, B, Y, R, Y, B, G)),
    "powers": Expected(("powers",), powers=(
        ("circle", [11, 9, 2]), ("diamond", [7, 7, 1]), ("square", [8, 10]), ("octagon", [6, 4, 13]),
        ("star", [3, 5, 0]),
    )),
    "blocks": Expected(("colour_cells",), numbered_rows=True),
    "mixed": Expected(("shuffled",), rows=(
        [10, 6, 2, 8, 3, 4, 12, 5, 9, 7, 11], [9, 12, 4, 6, 7, 2, 5, 8, 11, 3, 10],
        [8, 2, 10, 12, 6, 9, 7, 4, 5, 11, 3], [5, 7, 11, 9, 12, 3, 8, 10, 2, 6, 4],
    ), last=[11, 10, 3, 4]),
    "rainbow": Expected(("colour_cells",), numbered_rows=True),
    "disorder": Expected(("colour_cells", "shuffled"), numbered_rows=True, rows=(
        [9, 4, 8, 7, 5, 10, 3, 12, 2, 6, 11], [7, 8, 12, 5, 6, 11, 2, 10, 4, 9, 3],
        [8, 5, 6, 2, 9, 12, 11, 3, 7, 4, 10], [11, 10, 2, 8, 7, 5, 9, 6, 12, 3, 4],
    ), last=[1, 11, 2, 3, 3, 10, 4, 4]),  # row 1: 11; row 2: 3; ...
}
BASE_AFTER = ("end", "scoring", "mistakes")


def base_before(expected: Expected) -> tuple[str, ...]:
    """The sections before the features: a variant's differences from the original game come second."""
    variant = ("variant",) if (expected.close, expected.faces) != (5, 6) else ()
    return ("material", *variant, "turn", "closing")
# A word every language's lucky-number section uses, and no other section.
LUCKY_WORD = {"en": "lucky", "fr": "porte-bonheur", "de": "Glück", "it": "fortunat", "nl": "geluks"}


def ints(text: str) -> list[int]:
    return [int(digits) for digits in re.findall(r"\d+", text)]


def in_order(wanted: list, found: list) -> bool:
    """Whether ``wanted`` occurs in ``found`` in the same order (other items between allowed)."""
    rest = iter(found)
    return all(any(item == other for other in rest) for item in wanted)


def text_of(section: Section) -> str:
    return " ".join(section.paragraphs + section.items)


def all_text(rules: Rules) -> str:
    """Heading, titles, paragraphs and items, a line each, no-break spaces as spaces (test_typography checks them)."""
    return "\n".join([rules.heading] + [line for s in rules.sections for line in (s.title, *s.paragraphs, *s.items)]).replace("\u00a0", " ")


class Composed:
    """The rules of one grid in one language, by section."""

    def __init__(self, name: str, lang: str):
        self.labels = load_labels(lang)
        self.rules = compose_rules(load_grid(name), self.labels)
        self.by_title = {section.title: section for section in self.rules.sections}

    def section(self, feature: str) -> Section:
        return self.by_title[self.labels(f"rules_title_{feature}")]

    def colours_in(self, text: str) -> list[str]:
        """The colour words of ``text``, in order, as colour names."""
        words = {self.labels(f"rules_colour_{c}"): c for c in (R, Y, G, B)}
        pattern = r"\b(" + "|".join(map(re.escape, words)) + r")\b"
        return [words[w] for w in re.findall(pattern, text)]


every_grid_and_language = pytest.mark.parametrize("name, lang", [(n, lang) for n in EXPECTED for lang in LANGS])


def test_the_expectations_cover_every_builtin_grid():
    assert set(EXPECTED) == set(builtin_names())


@every_grid_and_language
def test_sections_are_the_base_rules_and_the_grids_features(name, lang):
    composed = Composed(name, lang)
    titles = [section.title for section in composed.rules.sections]
    wanted = base_before(EXPECTED[name]) + EXPECTED[name].features + BASE_AFTER
    assert titles == [composed.labels(f"rules_title_{key}") for key in wanted]
    assert composed.rules.heading == composed.labels.fill("rules_heading", title=composed.labels.grid_title(load_grid(name)))


@every_grid_and_language
def test_base_rules_carry_the_grids_values(name, lang):
    composed, expected = Composed(name, lang), EXPECTED[name]
    material = composed.section("material")
    assert ints(material.paragraphs[0]) == [2, 5, 8, 15]  # players, their age, minutes
    assert in_order([expected.faces, 2, 2 * expected.faces], ints(material.paragraphs[1]))
    assert composed.colours_in(material.paragraphs[1]) == [R, Y, G, B]  # one coloured die each
    assert ints(material.paragraphs[2]) == [4]  # rows
    for index, (item, numbers) in enumerate(zip(material.items, expected.rows, strict=True)):
        assert ints(item) == ([index + 1] if expected.numbered_rows else []) + numbers, item
    assert ints(composed.section("turn").paragraphs[-1]) == [4, 5]  # penalty boxes, points each
    assert ints(text_of(composed.section("closing"))) == [expected.close, 1]  # ... in action 1
    table = [value for n, points in enumerate(TRIANGULAR[: expected.table], 1) for value in (n, points)]
    scoring = composed.section("scoring")
    assert ints(scoring.paragraphs[0]) == table
    if expected.cap:
        assert ints(scoring.paragraphs[1]) == [expected.cap]
    assert ints(scoring.paragraphs[-1]) == [5]
    assert len(scoring.paragraphs) == (3 if expected.cap else 2)


@every_grid_and_language
def test_each_feature_says_its_values(name, lang):
    composed, expected = Composed(name, lang), EXPECTED[name]
    for feature in expected.features:
        text = text_of(composed.section(feature))
        if feature == "double":
            assert in_order(expected.double + [2, 2], ints(text))
        elif feature == "bonus":
            assert in_order(expected.framed + [len(expected.bar), expected.close], ints(text))
            assert composed.colours_in(text) == [R, Y, G, B, *expected.bar]  # the framed rows, then the bar
        elif feature == "powers":
            items = composed.section(feature).items
            for item, (symbol, numbers) in zip(items, expected.powers, strict=True):
                assert item.startswith(composed.labels(f"rules_symbol_{symbol}")), item
                assert in_order(numbers, ints(item)), item
        elif feature == "lucky":
            assert in_order(expected.lucky, ints(text))
        elif feature == "colour_cells":
            assert ints(text) == [1, 2, 3, 4]  # the locks of rows 1 to 4 ...
            assert composed.colours_in(text) == [R, Y, G, B]  # ... and their colours
        elif feature == "shuffled":
            assert ints(text) == expected.last
        else:
            assert feature == "bis"
            assert ints(text) == []  # the small boxes have no values of their own


@every_grid_and_language
def test_lucky_numbers_only_where_the_grid_has_them(name, lang):
    text = format_rules(Composed(name, lang).rules, 100)
    assert (LUCKY_WORD[lang].lower() in text.lower()) == ("lucky" in EXPECTED[name].features)


@every_grid_and_language
def test_every_placeholder_is_filled(name, lang):
    text = format_rules(Composed(name, lang).rules, 100)
    assert not set("{}#") & set(text)


def test_english_reads_as_the_rules_say():
    """A few whole phrases, for people reading this test."""
    say = {name: all_text(compose_rules(load_grid(name), load_labels("en"))) for name in EXPECTED}
    assert "at least 7 crosses in that row" in say["doubles"]
    assert "Double cells (red: 3, 5, 9 and 11; yellow: 3, 5, 9 and 11; green: 11, 9, 5 and 3;" in say["doubles"]
    assert "all with 8 faces: the sum of two dice runs from 2 to 16" in say["longo"]
    assert "2 different lucky numbers of its own, printed on it and drawn from 2 to 16" in say["longo"]
    assert ("coloured from left to right: red, yellow, green, blue, green, red, blue, yellow, red, yellow, blue"
            " and green") in say["bonus"]
    assert "\nOctagon (red 6 and blue 4): at the end, +13 points.\n" in say["powers"]
    assert "\nCircle (yellow 11 and green 9): at once, 2 crosses in your open row with the fewest" in say["powers"]
    assert "At most 16 crosses of a row count" in say["bis"]
    assert "in a cell of the die’s colour, in any row" in say["blocks"]
    assert "in the row of the die’s colour." in say["classic"]
    assert "the lock takes that cell’s colour (row 1: red; row 2: yellow; row 3: green; row 4: blue)" in say["rainbow"]
    assert "the last cell closes the row (red: 11; yellow: 10; green: 3; blue: 4)" in say["mixed"]
    assert "The sheet has 4 penalty boxes, each worth −5 points." in say["classic"]


# -- grids that are not built in ---------------------------------------------


def custom(**changes) -> dict:
    """The classic grid file as data, with ``changes`` to its top-level keys."""
    data = read_yaml(builtin_dir() / "classic.yaml")
    data.update(changes)
    return data


def test_a_custom_grid_gets_its_threshold_and_double_cells_with_no_new_text():
    data = custom(close_after=6, name="mine")
    for row, doubles in zip(data["rows"], ([4, 8], [4, 8], [10, 6], [10, 6])):
        row["double"] = doubles
    grid = grid_from_data(data, "mine.yaml")
    for lang in LANGS:
        labels = load_labels(lang)
        rules = compose_rules(grid, labels)
        by_title = {section.title: section for section in rules.sections}
        assert ints(text_of(by_title[labels("rules_title_closing")])) == [6, 1]
        assert in_order([4, 8, 4, 8, 10, 6, 10, 6, 2, 2], ints(text_of(by_title[labels("rules_title_double")])))
        # 11 cells, two of them double, and the lock: 14 crosses at most.
        assert ints(by_title[labels("rules_title_scoring")].paragraphs[0])[-2:] == [14, 105]
    english = all_text(compose_rules(grid, load_labels("en")))
    assert "at least 6 crosses in that row" in english
    assert "Double cells (red: 4 and 8; yellow: 4 and 8; green: 10 and 6; blue: 10 and 6) are drawn doubled." in english


def test_one_of_a_kind_is_said_in_the_singular():
    data = custom(close_after=1, penalties={"boxes": 1, "points": 1}, lucky={"count": 1, "from": 3, "to": 9})
    text = all_text(compose_rules(grid_from_data(data, "one.yaml"), load_labels("en")))
    assert "at least 1 cross in that row" in text
    assert "The sheet has 1 penalty box, each worth −1 point." in text
    assert "Each sheet carries a lucky number of its own, printed on it and drawn from 3 to 9." in text
    assert "when the sum of the white dice is your lucky number," in text
    assert "(1 point each)" in text


def test_one_shuffled_row_and_one_two_coloured_row_are_enough():
    data = custom()
    data["rows"][0]["cells"] = [5, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12]
    data["rows"][1]["cells"][4] = {"number": 6, "colour": "green"}
    rules = compose_rules(grid_from_data(data, "odd.yaml"), load_labels("en"))
    assert [s.title for s in rules.sections][3:5] == ["Cells of every colour", "Shuffled numbers"]
    assert rules.sections[0].items == ("red: 5 2 3 4 6 7 8 9 10 11 12", "row 2: 2 to 12", "green: 12 to 2",
                                       "blue: 12 to 2")
    assert "in a cell of the die’s colour, in any row" in all_text(rules)
    assert "(red: 12; row 2: 12; green: 2; blue: 2)" in rules.sections[4].paragraphs[0]


def test_the_bonus_chain_says_the_grids_threshold():
    data = read_yaml(builtin_dir() / "bonus.yaml") | {"close_after": 6}
    text = all_text(compose_rules(grid_from_data(data, "bonus6.yaml"), load_labels("en")))
    assert "its last cell only with at least 6 crosses before it)" in text


def test_a_two_row_grid_names_only_its_dice():
    data = custom()
    data["rows"] = [data["rows"][0], data["rows"][3]]
    rules = compose_rules(grid_from_data(data, "two.yaml"), load_labels("en"))
    material = rules.sections[0]
    assert "one coloured die for each colour on the sheet (red and blue)" in material.paragraphs[1]
    assert material.paragraphs[2].startswith("The sheet has 2 rows")
    assert material.items == ("red: 2 to 12", "blue: 12 to 2")


# -- the command -----------------------------------------------------------------


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "72")

    def invoke(*args: str):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return invoke


@pytest.mark.parametrize("lang", LANGS)
def test_rules_prints_every_builtin_grid_in_every_language(run, lang):
    for name in builtin_names():
        result = run("rules", name, "--lang", lang)
        assert (result.exit_code, result.stderr) == (0, ""), name
        assert result.stdout == format_rules(compose_rules(load_grid(name), load_labels(lang)), 72)


def test_rules_wraps_to_the_terminal_width(run):
    result = run("rules", "powers")
    lines = result.stdout.replace("\u00a0", " ").splitlines()  # a number's no-break space to its unit, as shown
    assert max(map(len, lines)) <= 72
    assert max(map(len, lines)) >= 65  # filled, not wrapped short
    circle = lines.index("  - Circle (yellow 11 and green 9): at once, 2 crosses in your open row")
    assert lines[circle + 1 : circle + 3] == ["    with the fewest crosses (if rows tie, you choose one), all in that",
                                              "    one row."]


@pytest.mark.parametrize("width, kept", [(10, 30), (50, 50), (100, 100), (300, 100)])
def test_format_rules_keeps_lines_between_30_and_100_characters(width, kept):
    text = format_rules(compose_rules(load_grid("bonus"), load_labels("de")), width)
    assert kept - 10 <= max(map(len, text.splitlines())) <= kept


def test_rules_outside_a_terminal_wraps_at_80(tmp_path):
    env = {k: v for k, v in sheetgen_env().items() if k not in ("COLUMNS", "LINES")}
    result = subprocess.run(sheetgen_command("rules", "longo"), cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert 70 < max(map(len, result.stdout.splitlines())) <= 80


def test_rules_of_a_grid_file_and_bad_input(run, tmp_path):
    mine = tmp_path / "mine.yaml"
    mine.write_text((builtin_dir() / "doubles.yaml").read_text().replace("close_after: 7", "close_after: 6"))
    result = run("rules", str(mine))
    assert result.exit_code == 0
    assert "at least 6 crosses in that row" in " ".join(result.stdout.split())
    result = run("rules", "nope")
    assert (result.exit_code, result.stderr) == (1, "sheetgen: nope: unknown grid (expected a file or one of "
                                                    "bis, blocks, bonus, classic, disorder, doubles, longo, mixed, "
                                                    "powers or rainbow)\n")
    result = run("rules", "classic", "--lang", "es")
    assert result.exit_code == 2 and result.stdout == ""


def test_control_characters_in_a_title_never_reach_the_terminal(run, tmp_path):
    evil = tmp_path / "evil.yaml"
    evil.write_text((builtin_dir() / "classic.yaml").read_text().replace('title: "Qwixx"', 'title: "Qwixx\\e[2J"'))
    result = run("rules", str(evil))
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout
    assert result.stdout.startswith("Qwixx\\u001b[2J: the rules\n")


# -- the rules page --------------------------------------------------------------


def test_docs_rules_md_is_what_the_command_composes():
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    expected = rules_page(builtin_grids(), load_labels("en"))  # in the order of `sheetgen list`
    assert page == expected, "docs/rules.md is out of date: run `python scripts/rules_page.py`"


def test_the_rules_page_holds_every_paragraph_of_every_grid():
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for name in builtin_names():
        rules: Rules = compose_rules(load_grid(name), load_labels("en"))
        assert f'<a id="{name}"></a>\n\n## {rules.heading}\n' in page
        for section in rules.sections:
            for paragraph in section.paragraphs:
                assert f"\n{paragraph}\n" in page
            for item in section.items:
                assert f"\n- {item}\n" in page


def test_show_points_every_grid_at_its_rules(run):
    for name in builtin_names():
        head = run("show", name).stdout.splitlines()[:4]  # the rules page as a help topic: show's copy is the user's
        assert f"Rules: `sheetgen rules {name}` (`sheetgen help rules`)." in " ".join(head), name


SHIPPED = ("README.md", "pyproject.toml", ".ci", "docs", "grids", "scripts", "sheetgen", "tests")
TEXT = (".py", ".md", ".yaml", ".yml", ".json", ".toml", ".txt", ".html", ".csv", "")


def repository_text_files() -> list[Path]:
    """The project's own text files, as a checkout holds them (no virtual environment, no caches)."""
    found = []
    for top in SHIPPED:
        path = ROOT / top
        for file in [path] if path.is_file() else sorted(path.rglob("*")):
            if file.is_file() and file.suffix in TEXT and "__pycache__" not in file.parts:
                found.append(file)
    return found


def test_the_repository_stands_alone():
    """Nothing in the project points at a file outside it: its rules are its own."""
    outside = ("GRIDS" + ".md", "/wo" + "rk/", "../sha" + "red")  # spelt apart, so that this file passes too
    offenders = []
    for file in repository_text_files():
        text = file.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{file.relative_to(ROOT)}: {word}" for word in outside if word in text]
    assert offenders == []
    assert len(repository_text_files()) > 100
