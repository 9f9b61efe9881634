"""Why the counter page refuses a move is said from one table:
``sheetgen.play.counter.REFUSALS`` (each reason the page's live engine throws
-> the words of the language files that say it, and what fills their ``{n}``),
sent to the page as data.  Every reason the engine can throw is in it, and
every language has its words, with a ``{n}`` exactly where the table gives one."""

from __future__ import annotations

import re

import pytest

from sheetgen.grid.load import load_grid
from sheetgen.play.counter import REFUSALS, TEMPLATE, page_data
from sheetgen.sheet.style import languages, load_labels, load_theme

PAGE = TEMPLATE.read_text(encoding="utf-8")


def test_every_reason_the_engine_throws_is_in_the_table():
    thrown = set(re.findall(r'\brefuse\("([a-z-]+)"', PAGE))
    assert len(thrown) >= 20  # the pattern still finds the engine's refusals
    assert thrown == set(REFUSALS)


@pytest.mark.parametrize("lang", languages())
def test_every_reason_has_its_words_in_every_language(lang):
    words = dict(load_labels(lang).words)
    for reason, (key, value) in REFUSALS.items():
        assert key in words, (lang, reason, key)
        assert ("{n}" in words[key]) == (value is not None), (lang, reason, words[key])


def test_the_page_gets_the_table_and_no_words_are_left_over():
    data = page_data(load_grid("classic"), load_labels("en"), load_theme("colour"))
    assert data["refusals"] == {reason: {"words": key, "value": value} for reason, (key, value) in REFUSALS.items()}
    english = {key for key, _ in load_labels("en").words if key.startswith("counter_why_")}
    named = set(re.findall(r'"(counter_why_[a-z_]+)"', PAGE))  # the page's own, not a refusal's
    assert english == {key for key, _ in REFUSALS.values()} | named  # no words left over
