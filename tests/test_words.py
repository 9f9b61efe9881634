"""The words every message is made of: counts with their nouns, lists of
choices, and text from input escaped and quoted, written out by hand."""

from __future__ import annotations

import pytest

from sheetgen.words import QUOTED_MAX, one_of, plural, quoted, shown


@pytest.mark.parametrize("n, one, many, expected", [
    (0, "cell", None, "0 cells"),
    (1, "cell", None, "1 cell"),
    (2, "cross", "crosses", "2 crosses"),
    (1, "penalty box", "penalty boxes", "1 penalty box"),
    (1250, "page", None, "1,250 pages"),
])
def test_plural_counts_with_the_noun(n, one, many, expected):
    assert plural(n, one, many) == expected


def test_one_of_lists_choices_with_or():
    assert one_of(["red"]) == "red"
    assert one_of(["red", "blue"]) == "red or blue"
    assert one_of(["a4", "letter", "a6"]) == "a4, letter or a6"


def test_shown_escapes_what_would_act_on_a_terminal_and_keeps_the_rest():
    assert shown("Léa's sheet") == "Léa's sheet"
    assert shown("a\x1b[2Jb") == "a\\u001b[2Jb"  # an escape sequence that would clear the screen
    assert shown("fdp.\u202eexe") == "fdp.\\u202eexe"  # reorders what follows
    assert shown("caf\udce9") == "caf\\xe9"  # a byte of a file name that is not UTF-8
    assert shown("one\ttwo\nthree") == "one\\ttwo\\nthree"
    assert shown("one\ttwo\nthree", lines=True) == "one\ttwo\nthree"
    assert shown("\U0010ffff") == "\\U0010ffff"  # a noncharacter


def test_quoted_writes_a_value_as_python_does_and_cuts_long_text():
    assert quoted("red") == "'red'"
    assert quoted(12) == "12"
    long = quoted("x" * 100)
    assert len(long) == QUOTED_MAX and long == "'" + "x" * (QUOTED_MAX - 5) + "...'"
