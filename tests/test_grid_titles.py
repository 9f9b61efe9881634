"""The built-in grids' titles and descriptions in every language: the rules
card, the terminal's rules and the counter page name a grid in their own
language; a grid of the user's keeps its own title."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.play.counter import counter_html
from sheetgen.play.rules import compose_rules
from sheetgen.sheet.style import languages, load_labels

OTHERS = [lang for lang in languages() if lang != "en"]
# Names that are the same in every edition (a name, not a word to translate).
SAME_EVERYWHERE = {"classic", "bis", "bonus", "longo"}
SAME_IN = {("doubles", "fr")}  # Doubles is French too


@pytest.mark.parametrize("lang", OTHERS)
def test_no_built_in_grid_keeps_its_english_title(lang):
    labels = load_labels(lang)
    for name in builtin_names():
        grid = load_grid(name)
        title = labels.grid_title(grid)
        heading = compose_rules(grid, labels).heading
        assert title in heading, (name, heading)
        if name not in SAME_EVERYWHERE and (name, lang) not in SAME_IN:
            assert grid.title not in heading, (lang, name, heading)
        assert labels.grid_about(grid) != grid.description, (lang, name)


def test_the_counter_page_is_titled_in_its_language():
    page = counter_html(load_grid("rainbow"), "de")
    assert "<title>Qwixx Regenbogen</title>" in page
    assert "Qwixx Rainbow" not in page


def test_a_grid_of_the_user_s_keeps_its_own_title():
    grid = replace(load_grid("blocks"), title="Club Night Blocks", description="Our own.")
    labels = load_labels("de")
    assert labels.grid_title(grid) == "Club Night Blocks"
    assert labels.grid_about(grid) == "Our own."
    assert compose_rules(grid, labels).heading.startswith("Club Night Blocks")



@pytest.mark.parametrize("lang", OTHERS)
def test_the_cards_pictured_sheet_is_titled_in_its_language_and_a_users_grid_keeps_its_own(lang):
    from sheetgen.pdf.render import measure_text
    from sheetgen.play.rules_card import picture_plan
    from sheetgen.sheet.style import load_theme

    labels, theme = load_labels(lang), load_theme("colour")
    grid = load_grid("powers")
    assert picture_plan(grid, labels, theme, measure_text).title.text == labels("rules_grid_title_powers")
    own = replace(grid, title="Powers of Ours")
    assert picture_plan(own, labels, theme, measure_text).title.text == "Powers of Ours"
