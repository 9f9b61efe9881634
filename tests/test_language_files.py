"""The language files as data: the same keys and placeholders in every one,
nothing left in English, and a loader that refuses a template whose
placeholders differ from the English ones."""

from __future__ import annotations

import shutil

import pytest

from sheetgen.errors import InputError
from sheetgen.grid.yamlio import read_yaml
from sheetgen.sheet import style
from sheetgen.sheet.style import DATA, GLOSSARY, Labels, languages, load_label_file, load_labels, placeholders

OTHERS = [lang for lang in languages() if lang != "en"]
ENGLISH = read_yaml(DATA / "lang-en.yaml")

# Values that may read as in English: placeholders and punctuation only, whose
# order happens to suit the language ...
FORMULAS = {"penalty_box", "table_crosses", "threshold", "rules_row_item", "rules_separator", "rules_cell",
            "rules_table_item", "rules_power_item", "rules_example_power", "pack_kb", "pack_mb", "pack_colon"}
# ... and words that are spelt the same in that language.
SAME_WORD = {
    ("bonus", "de"), ("bonus", "fr"), ("bonus", "it"), ("bonus", "nl"),  # Bonus, on every published pad
    ("name", "de"),  # Name
    ("points", "fr"), ("total", "fr"), ("power_bonus_points", "fr"),  # Points, Total, +{n} points
    ("rules_example_total", "fr"),  # Total
    *((f"pack_paper_{paper}", lang) for paper in ("a4", "letter", "a6") for lang in OTHERS),  # names of papers
    ("pack_size_standard", "de"), ("pack_size_standard", "fr"), ("pack_size_standard", "it"),  # Standard
    ("counter_cell_double", "fr"),  # double (a double cell, read out by screen readers)
    ("counter_log_action", "fr"),  # action {n}, in the game log
}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_the_english_keys_and_placeholders(lang):
    words = read_yaml(DATA / f"lang-{lang}.yaml")
    assert list(words) == list(ENGLISH)
    for key, text in ENGLISH.items():
        if key == GLOSSARY:
            continue
        assert placeholders(words[key]) == placeholders(text), f"{lang}: {key}"


def test_nothing_is_left_untranslated():
    same = {
        (key, lang)
        for lang in OTHERS
        for key, text in read_yaml(DATA / f"lang-{lang}.yaml").items()
        if text == ENGLISH[key] and key not in FORMULAS
    }
    assert same == SAME_WORD


def test_rules_templates_sit_in_one_block_of_every_file():
    for lang in languages():
        keys = list(read_yaml(DATA / f"lang-{lang}.yaml"))
        where = [i for i, key in enumerate(keys) if key.startswith("rules_")]
        assert where == list(range(where[0], where[-1] + 1)), lang
        text = (DATA / f"lang-{lang}.yaml").read_text(encoding="utf-8")
        assert text.index("# -- rules --\n") < text.index(f"\n{keys[where[0]]}:"), lang


# -- filling templates -------------------------------------------------------------


def test_fill_puts_values_and_the_wording_for_one_or_more():
    labels = Labels("en", (("t", "{count} {count:cross|crosses}, {count:a box|# boxes} in {title}"),))
    assert labels.fill("t", count=1, title="X") == "1 cross, a box in X"
    assert labels.fill("t", count=3, title="X") == "3 crosses, 3 boxes in X"
    # One pass: a value's braces and hashes are left as they are.
    assert labels.fill("t", count=2, title="{count} #") == "2 crosses, 2 boxes in {count} #"


def test_placeholders_are_named_once_each_a_to_z():
    assert placeholders("{b} {a:x|y} {b:one|#} {n}x") == ["a", "b", "n"]
    assert placeholders("no values") == []


# -- the loader refuses a template that does not match -------------------------


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A copy of the data folder that load_labels reads instead of the real one."""
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    monkeypatch.setattr(style, "DATA", copy)
    load_labels.cache_clear()
    yield copy
    load_labels.cache_clear()


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_renamed_placeholder_is_refused(data_copy):
    edit(data_copy / "lang-fr.yaml", "tirés} de {low} à {high}", "tirés} de {lo} à {high}")
    with pytest.raises(InputError) as error:
        load_labels("fr")
    assert str(error.value) == ("lang-fr.yaml: rules_lucky: expected the placeholders {count} {high} {low},"
                                " as in English, got {count} {high} {lo}")


def test_a_dropped_placeholder_is_refused(data_copy):
    edit(data_copy / "lang-nl.yaml", 'rules_row_number: "rij {n}"', 'rules_row_number: "rij"')
    with pytest.raises(InputError, match=r"^lang-nl.yaml: rules_row_number: expected the placeholder \{n\},"
                                         r" as in English 'row \{n\}', got 'rij'$"):
        load_labels("nl")


def test_a_brace_outside_a_placeholder_is_refused(data_copy):
    edit(data_copy / "lang-de.yaml", "zählt −{points} {points:Punkt|Punkte}", "zählt −{points} {points:Punkt}")
    with pytest.raises(InputError, match=r"^lang-de.yaml: rules_penalty: a '\{' or '\}' outside a placeholder"
                                         r" \(expected \{name\} or \{name:one\|other\}\)$"):
        load_labels("de")


def test_a_template_may_be_a_paragraph_but_a_label_stays_short(data_copy):
    edit(data_copy / "lang-it.yaml", 'name: "Nome"', f'name: "{"N" * 161}"')
    with pytest.raises(InputError, match=r"^lang-it.yaml: name: expected text of at most 160 characters, got 161$"):
        load_labels("it")
    assert max(len(text) for key, text in load_labels("en").words if key.startswith("rules_")) > 160


def test_a_users_language_file_may_leave_the_rules_out(tmp_path):
    german = (DATA / "lang-de.yaml").read_text(encoding="utf-8")
    club = tmp_path / "club.yaml"
    club.write_text(german[: german.index("# -- rules --")].replace("Fehlwürfe", "Patzer"), encoding="utf-8")
    labels = load_label_file(str(club))
    assert labels("penalties") == "Patzer"
    assert labels("rules_heading") == load_labels("en")("rules_heading")
    assert labels("counter_undo") == "Undo"  # the counter page's words too
    club.write_text(german.replace("rules_row_number: \"Reihe {n}\"", "rules_row_number: \"Reihe\""), encoding="utf-8")
    with pytest.raises(InputError, match=r"club.yaml: rules_row_number: expected the placeholder \{n\}"):
        load_label_file(str(club))
    club.write_text(german + "rules_extra: \"x\"\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"club.yaml: unknown key 'rules_extra' \(expected rules_heading, "):
        load_label_file(str(club))
