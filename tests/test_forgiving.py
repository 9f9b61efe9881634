"""Forgiving choices: options in any case and in the American spelling, and
"did you mean" for every choice, command, grid name and key of a file; counts
typed without their colon get a hint instead of "no such file"."""

from __future__ import annotations

import pytest

from sheetgen.words import did_you_mean, forgiven


@pytest.mark.parametrize("value, options, meant", [
    ("A4", ["a4", "letter"], "a4"),
    ("DE", ["de", "en"], "de"),
    ("color", ["colour", "mono"], "colour"),
    ("Color-Marks", ["colour-marks"], "colour-marks"),
    ("gray", ["grey"], "grey"),
    ("LARGE", ["standard", "large", "a6"], "large"),
    ("neon", ["colour", "mono"], None),
])
def test_another_case_or_spelling_is_forgiven_and_nothing_else(value, options, meant):
    assert forgiven(value, options) == meant


@pytest.mark.parametrize("value, options, hint", [
    ("clasic", ["bis", "classic", "longo"], ", did you mean 'classic'?"),
    ("locked", ["crossed", "lock", "bis"], ", did you mean 'lock'?"),
    ("inksaver", ["colour", "ink-saver", "mono"], ", did you mean 'ink-saver'?"),
    ("color", ["cells", "colour", "double"], ", did you mean 'colour'?"),
    ("Classic", ["classic"], ", did you mean 'classic'?"),
    ("neon", ["colour", "ink-saver", "mono"], ""),
    ("colour", ["colour"], ""),
    (3, ["a"], ""),
])
def test_did_you_mean_names_the_nearest_choice_only_when_there_is_one(value, options, hint):
    assert did_you_mean(value, options) == hint


def test_options_take_any_case_and_the_american_spelling(run, tmp_path):
    result = run("render", "longo", "--paper", "A4", "--lang", "DE", "--theme", "color", "--size", "Standard",
                 "--serial-order", "PAGE", "--serial")
    assert (result.exit_code, result.stderr) == (0, "")
    assert (tmp_path / "out" / "longo-de.pdf").is_file()
    assert run("rules", "classic", "--lang", "Fr").exit_code == 0
    assert run("counter", "classic", "--theme", "Mono", "-q").exit_code == 0
    assert (tmp_path / "out" / "counter-classic-en-mono.html").is_file()


@pytest.mark.parametrize("args, message", [
    (("render", "classic", "--theme", "inksaver"),
     "sheetgen render: Invalid value for '--theme': 'inksaver' is not one of 'colour', 'ink-saver', 'mono', did you"
     " mean 'ink-saver'? (see 'sheetgen render --help')"),
    (("render", "classic", "--lang", "fre"),
     "sheetgen render: Invalid value for '--lang': 'fre' is not one of 'de', 'en', 'fr', 'it', 'nl', did you mean"
     " 'fr'? (see 'sheetgen render --help')"),
    (("render", "classic", "--paper", "leter"),
     "sheetgen render: Invalid value for '--paper': 'leter' is not one of 'a4', 'letter', 'a6', did you mean"
     " 'letter'? (see 'sheetgen render --help')"),
    (("simulate", "classic", "--strategy", "carefull"),
     "sheetgen simulate: Invalid value for '--strategy': 'carefull' is not one of"),
    (("render", "clasic"),
     "sheetgen: clasic: unknown grid, did you mean 'classic'? (expected a file or one of bis, blocks, bonus,"
     " classic, disorder, doubles, longo, mixed, powers or rainbow)"),
    (("rendr", "classic"), "sheetgen: no such command 'rendr', did you mean 'render'? (see 'sheetgen --help')"),
    (("render", "classic", "--color-marks"), "Did you mean '--colour-marks'?"),
])
def test_a_choice_that_is_not_one_names_the_nearest(run, args, message):
    result = run(*args)
    assert result.exit_code in (1, 2)
    assert result.stderr.startswith(message) or message in result.stderr, result.stderr


def test_a_key_of_a_grid_file_gets_the_nearest_key(run, tmp_path):
    from sheetgen.grid.load import builtin_text

    (tmp_path / "mine.yaml").write_text(builtin_text("classic").replace("colour: red", "color: red", 1))
    result = run("check", "mine.yaml")
    assert result.stderr == ("sheetgen: mine.yaml: rows[0]: unknown key 'color', did you mean 'colour'? (expected"
                             " cells, colour, double, framed or symbols)\n")


def test_strategies_take_any_case(run):
    result = run("simulate", "classic", "--games", "20", "--strategy", "Careful", "-q")
    assert (result.exit_code, result.output) == (0, "")


def test_counts_without_their_colon_get_a_hint(run):
    result = run("score", "classic", "Lea 6 4 8L 3 p1")
    assert result.exit_code == 1
    assert result.stderr == ("sheetgen: Lea 6 4 8L 3 p1: no such file (counts are typed with a colon after the"
                             " name: 'Lea: 6 4 8L 3 p1')\n")
    assert run("score", "classic", "lea.yaml").stderr == "sheetgen: lea.yaml: no such file\n"
