"""Languages: every grid lays out in every language, every word it prints is
defined in every language file, and accented words read back from the PDF."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.errors import InputError
from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.grid.yamlio import read_yaml
from sheetgen.pdf.render import unprintable
from sheetgen.runs.jobs import Job, render_job
from sheetgen.sheet.draw import personalise
from sheetgen.sheet.plan import LEAST_NUMBER_CAP, MIN_NUMBER_CAP, SheetData, plan_sheet
from sheetgen.sheet.style import DATA, GLOSSARY, languages, load_labels

from test_plan import assert_nothing_overlaps, assert_texts_fit

LANGS = languages()
SHEET = SheetData((3, 14), 123, "Club de Lyon, 30.11.2026")  # every per-sheet item


class Recording:
    """Labels that remember which keys were asked for, with which number."""

    def __init__(self, labels):
        self.labels, self.calls, self.titles = labels, set(), set()

    def __call__(self, key, n=None):
        self.calls.add((key, n))
        return self.labels(key, n)

    def grid_title(self, grid):  # the sheet's title, in its language
        self.titles.add(self.labels.grid_title(grid))
        return self.labels.grid_title(grid)


def printed_labels(grid, labels, theme, measure) -> Recording:
    recording = Recording(labels)
    plan_sheet(grid, recording, theme, measure, header=True, serial=True)
    return recording


def test_the_languages_shipped():
    assert LANGS == ["de", "en", "fr", "it", "nl"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_file_has_the_english_keys_and_placeholders(lang):
    english = read_yaml(DATA / "lang-en.yaml")
    words = read_yaml(DATA / f"lang-{lang}.yaml")
    assert list(words) == list(english)  # same keys, same order: easy to compare side by side
    for key, text in english.items():
        if key == GLOSSARY:
            continue
        assert ("{n}" in words[key]) == ("{n}" in text), f"{lang}: {key}: the number placeholder {{n}}"
        assert unprintable(words[key]) == "", f"{lang}: {key}: the font has no glyph for these"


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_defines_every_label_every_grid_prints(lang, colour_theme, measure):
    used = set()
    for name in builtin_names():
        used |= {key for key, _ in printed_labels(load_grid(name), load_labels("en"), colour_theme, measure).calls}
    words = dict(load_labels(lang).words)
    assert used <= set(words)
    assert all(words[key].strip() for key in used)


@pytest.mark.parametrize("lang", LANGS)
def test_every_grid_lays_out_legibly_in_every_language(grid, lang, colour_theme, measure):
    labels = load_labels(lang)  # with the strips: test_plan.py's matrix; here without them
    plan = plan_sheet(grid, labels, colour_theme, measure)
    assert_texts_fit(plan, personalise(plan, SHEET, colour_theme, measure),
                     LEAST_NUMBER_CAP if plan.marks else MIN_NUMBER_CAP)  # as test_plan.py's first test
    assert_nothing_overlaps(plan)


def pdf_text(data: bytes) -> str:
    """The text of the first page, with runs of white space made single spaces."""
    page = pdfium.PdfDocument(data)[0]
    return re.sub(r"\s+", " ", page.get_textpage().get_text_range())


@pytest.mark.parametrize("lang", LANGS)
def test_every_printed_word_reads_back_from_the_pdf(grid, lang, colour_theme, measure):
    labels = load_labels(lang)
    recording = printed_labels(grid, labels, colour_theme, measure)
    # A PDF reader gives a no-break space back as a space.
    expected = {labels(key, n).replace("{n}", f"{SHEET.serial:06d}").replace("\u00a0", " ")
                for key, n in recording.calls} | recording.titles
    text = pdf_text(render_job(Job(grid, sheets=1, lang=lang, header=SHEET.header, first_serial=SHEET.serial)))
    assert labels("serial", f"{SHEET.serial:06d}") in text
    missing = [word for word in expected if word not in text]
    assert not missing, text


@pytest.mark.parametrize(
    "lang, grid_name, words",
    [
        ("fr", "longo", ["Coups manqués", "Nombres porte-bonheur", "Croix", "N° 000001", "Dés blancs"]),
        ("de", "bis", ["Fehlwürfe", "Kreuze", "Punkte", "Kästchen", "äußersten", "fällt", "Nr. 000001"]),
        ("it", "powers", ["Tiri a vuoto", "Crocette", "Punti", "Subito:", "N. 000001"]),
        ("nl", "doubles", ["Misworpen", "Kruisjes", "Punten", "één", "Nr. 000001"]),
    ],
)
def test_accented_words_are_embedded_and_extract_as_written(lang, grid_name, words):
    data = render_job(Job(load_grid(grid_name), sheets=1, lang=lang, first_serial=1))
    text = pdf_text(data)
    for word in words:
        assert word in text
    assert data.count(b"/FontFile2") >= 1 and b"Helvetica" not in data


def test_an_unknown_language_names_the_choices():
    with pytest.raises(InputError, match=r"unknown language 'xx' \(expected de, en, fr, it or nl\)"):
        load_labels("xx")


def test_render_takes_a_language_and_a_paper(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["render", "longo", "--lang", "fr", "--paper", "letter"])
    assert (result.exit_code, result.output) == (0, "wrote out/longo-fr-letter.pdf (1 page, 8 sheets, seed 1)\n")
    page = pdfium.PdfDocument((tmp_path / "out" / "longo-fr-letter.pdf").read_bytes())[0]
    assert tuple(round(v) for v in page.get_size()) == (612, 792)
    assert "Nombres porte-bonheur" in page.get_textpage().get_text_range()


def test_render_refuses_an_unknown_language_as_wrong_usage():
    result = CliRunner().invoke(cli, ["render", "classic", "--lang", "xx"])
    assert result.exit_code == 2
    assert result.stderr == (
        "sheetgen render: Invalid value for '--lang': 'xx' is not one of 'de', 'en', 'fr', 'it', 'nl'."
        " (see 'sheetgen render --help')\n"
    )


# The counter's messages name a power by its symbol; a word after the name must not agree with it, since a custom
# grid may give any symbol any effect (French and Italian: the star is feminine, the other four masculine).
AGREEING = {"fr": ("débloqué", "débloquée"), "it": ("sbloccato", "sbloccata")}


@pytest.mark.parametrize("lang", sorted(AGREEING))
def test_the_counters_power_messages_suit_every_symbols_gender(lang):
    labels = load_labels(lang)
    for key in ("counter_forced_power", "counter_choose_row"):
        for symbol in ("circle", "star"):
            name = labels(f"counter_symbol_{symbol}").capitalize()
            message = labels(key, name)
            assert not any(f"{name} {word}" in message for word in AGREEING[lang]), message
