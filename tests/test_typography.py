"""Each language's typography in what players read: the sheet's words, the
rules card's PDF text, the counter page's words, the pack page's text and the rules printed
in the terminal (`sheetgen rules`).  A minus sign for
negatives (never a hyphen), a typographer's apostrophe, the language's
quotation marks, its percent spacing ("60 %" with a no-break space in French
and German, "60%" in English, Italian and Dutch), a no-break space between a
number and its unit, and in French a no-break space before : ; ! ? and
inside « »."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.grid.load import builtin_grids, load_grid
from sheetgen.pdf.geometry import Text
from sheetgen.pdf.impose import PAPERS
from sheetgen.pdf.render import measure_text
from sheetgen.play.counter import counter_html
from sheetgen.play.example import example_marks
from sheetgen.play.rules import compose_rules
from sheetgen.play.rules_card import compose_example, example_picture, layout_card
from sheetgen.play.scoring import score_sheet
from sheetgen.runs.rules_pdf import rules_card_pdf
from sheetgen.sheet.draw import draw_sheet
from sheetgen.sheet.plan import plan_sheet
from sheetgen.sheet.style import languages, load_labels, load_theme, typeset

from test_pack_page import page

NBSP = "\u00a0"
LANGS = languages()
# Each language's marks and the unit a card must glue to its number.
QUOTES = {"en": "\u201c\u201d", "de": "\u201e\u201c", "fr": "\u00ab\u00bb", "it": "\u00ab\u00bb", "nl": "\u201c\u201d"}
PENALTY = {"en": "\u22125\u00a0points", "de": "\u22125\u00a0Punkte", "fr": "\u22125\u00a0points",
           "it": "\u22125\u00a0punti", "nl": "\u22125\u00a0punten"}


def card_lines(lang: str) -> list[str]:
    """The lines the card prints, as laid out (a PDF reader gives a no-break space back as a space)."""
    grid, labels = load_grid("powers"), load_labels(lang)
    marks = example_marks(grid)
    score = score_sheet(grid, marks)
    picture = example_picture(grid, marks, score, labels, load_theme("colour"), measure_text)
    card = layout_card(compose_rules(grid, labels), compose_example(grid, marks, score, labels), picture, PAPERS["a4"],
                       measure_text)
    return [item.text for item in card.page.items if isinstance(item, Text)]


def counter_words(lang: str) -> str:
    page = counter_html(load_grid("bonus"), lang)
    data = re.search(r'<script type="application/json"[^>]*>(.*?)</script>', page, re.S)
    assert data, "the counter page carries its data as JSON"
    return "\n".join(json.loads(data.group(1))["words"].values())


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("script", "style")
        self.parts += [value for name, value in attrs if name in ("alt", "title", "aria-label") and value]

    def handle_endtag(self, tag):
        self.skip -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def pack_text(lang: str) -> str:
    parser = _Text()
    parser.feed(page(13_000_000, lang))  # the pack page of test_pack_page.py, in this language
    return "\n".join(parser.parts)


def problems(lang: str, text: str) -> list[str]:
    found = []
    found += [f"hyphen for a minus: {m.group(0)!r}" for m in re.finditer(r"(?<![\w.\-])-\d+", text)]
    found += [f"straight apostrophe: {m.group(0)!r}" for m in re.finditer(r"\w'\w", text)]
    found += [f"straight quote: {m.group(0)!r}" for m in re.finditer(r'"\w[^"\n]*"', text)]
    spaced = lang in ("fr", "de")
    found += [f"percent: {m.group(0)!r}" for m in re.finditer(r"\d[ \u00a0]?%", text)
              if m.group(0)[1:-1] != (NBSP if spaced else "")]
    if lang == "fr":
        found += [f"breakable space before {m.group(1)}" for m in re.finditer(r"\w ([:;!?])", text)]
        found += ["breakable space inside « »" for _ in re.finditer(r"« | »", text)]
    return found


def sheet_words(grid_name: str, lang: str) -> list[str]:
    """The words and numbers one sheet of ``grid_name`` prints, as drawn."""
    theme = load_theme("colour")
    drawing = draw_sheet(plan_sheet(load_grid(grid_name), load_labels(lang), theme, measure_text), theme)
    return [item.text for item in drawing.items if isinstance(item, Text)]


@pytest.mark.parametrize("lang", LANGS)
def test_every_sheet_is_set_in_the_languages_typography(lang):
    for grid in builtin_grids():  # the legends of all ten: apostrophes (fr, it), colons, the penalty's minus
        words = sheet_words(grid.name, lang)
        assert problems(lang, "\n".join(words)) == [], grid.name
        assert "\u22125" in words and "-5" not in words, grid.name  # the penalty boxes
    if lang == "fr":
        legend = " ".join(sheet_words("blocks", lang))
        assert "couleur\u00a0:" in legend and "n\u2019importe" in legend


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_card_is_set_in_the_languages_typography(lang):
    lines = card_lines(lang)
    assert problems(lang, "\n".join(lines)) == []
    assert any(PENALTY[lang] in line for line in lines)  # a minus sign, and the unit on the number's line
    page = pdfium.PdfDocument(rules_card_pdf(load_grid("powers"), lang))[0]
    printed = page.get_textpage().get_text_range()
    assert "\u22125" in printed and not re.search(r"(?<![\w.\-])-\d", printed)  # the PDF itself


@pytest.mark.parametrize("lang", LANGS)
def test_the_counter_page_is_set_in_the_languages_typography(lang):
    assert problems(lang, counter_words(lang)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_pack_page_is_set_in_the_languages_typography(lang):
    text = pack_text(lang)
    assert problems(lang, text) == []
    assert f"100{NBSP if lang in ('fr', 'de') else ''}%" in text  # print at actual size
    assert any(mark in text for mark in QUOTES[lang])  # "fit to page", quoted as the language quotes


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_in_the_terminal_are_set_in_the_languages_typography(lang):
    result = CliRunner().invoke(cli, ["rules", "powers", "--lang", lang], terminal_width=72)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert problems(lang, text) == []
    assert PENALTY[lang] in text  # a minus sign, glued to its unit (a line never breaks between them)
    assert "-5" not in text and "\u2212" in text
    if lang == "fr":
        assert re.search("\\w\u00a0:", text) and "\u2019" in text  # « Total : », « l’action »


def test_typeset_does_each_languages_house_style():
    assert typeset("en", "it's -5 {n} kB, 60 % \"fit\"") == "it\u2019s \u22125 {n}\u00a0kB, 60% \u201cfit\u201d"
    assert typeset("de", "60% \"so\"") == "60\u00a0% \u201eso\u201c"
    assert typeset("fr", "Total : 5 ; « ok » ?") == "Total\u00a0: 5\u00a0; «\u00a0ok\u00a0»\u00a0?"
    assert typeset("nl", "pagina's -{points} {points:punt|punten}") == "pagina\u2019s \u2212{points}\u00a0{points:punt|punten}"
    assert typeset("it", "SHA-256 2-16") == "SHA-256 2-16"  # a hyphen inside a word or a range stays
