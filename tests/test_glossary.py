"""One vocabulary per language: each concept of the game (row, cell, lock,
penalty, sheet...) has one name in a language, the glossary's ``term``, and
none of the names it lists under ``not`` appears in any of the language's
words: the sheet's labels, the rules, the counter page's and the pack
page's words (all of them come from the language file)."""

from __future__ import annotations

import re

import pytest

from sheetgen.grid.yamlio import read_yaml
from sheetgen.sheet.style import DATA, GLOSSARY, languages, load_labels


def glossary(lang: str) -> dict:
    return read_yaml(DATA / f"lang-{lang}.yaml")[GLOSSARY]


def texts(lang: str) -> list[tuple[str, str]]:
    """Every word of ``lang`` by its key, without the phrases where an avoided word means something else."""
    exceptions = glossary(lang)["except"]
    found = []
    for key, text in load_labels(lang).words:
        for phrase in exceptions:
            text = text.replace(phrase, "")
        found.append((key, text))
    return found


@pytest.mark.parametrize("lang", languages())
def test_no_concept_has_a_second_name(lang):
    clashes = [
        f"{concept}: {key} says {pattern!r}, the glossary's word is {entry['term']!r}"
        for concept, entry in glossary(lang).items() if concept != "except"
        for pattern in entry["not"]
        for key, text in texts(lang)
        if re.search(pattern, text, re.IGNORECASE)
    ]
    assert clashes == []


@pytest.mark.parametrize("lang", languages())
def test_every_term_of_the_glossary_is_used(lang):
    words = " ".join(text for _, text in texts(lang)).casefold()
    unused = [entry["term"] for concept, entry in glossary(lang).items()
              if concept != "except" and entry["term"].casefold() not in words]
    assert unused == []


def test_every_language_has_the_same_concepts():
    concepts = {lang: set(glossary(lang)) - {"address"} for lang in languages()}
    assert all(found >= concepts["en"] - {"strike", "unlock", "lowest"} for found in concepts.values()), concepts


def test_the_glossary_is_not_a_word_of_the_sheet():
    assert GLOSSARY not in dict(load_labels("de").words)


def test_a_second_name_is_found(monkeypatch):
    """The test above can fail: the German sheet's word put back into the counter page's words."""
    labels = load_labels("de")
    words = tuple((key, "Zettel von {n}" if key == "counter_sheet" else text) for key, text in labels.words)
    monkeypatch.setitem(globals(), "load_labels", lambda lang: type(labels)(lang, words))
    with pytest.raises(AssertionError, match="sheet: counter_sheet says 'Zettel'"):
        test_no_concept_has_a_second_name("de")
