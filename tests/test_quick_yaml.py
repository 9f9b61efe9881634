"""The quick YAML path (libyaml, ``yamlio._quick_yaml``) reads what it reads
exactly as the pure-Python reader does, and leaves everything else to it:
every document either reader is given in the tests' data is read both ways
and compared, and a small marks file does take the quick path."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sheetgen.errors import InputError
from sheetgen.grid import yamlio

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted({*ROOT.glob("grids/*.yaml"), *ROOT.glob("sheetgen/data/*.yaml"), *ROOT.glob("tests/**/*.yaml")})
MARKS = "grid: classic\nplayer: Lea\nrows:\n  - crossed: [2, 3, 4]\n  - {crossed: []}\n  - crossed: []\n  - {}\npenalties: 1\n"


def slow(text: str) -> object:
    try:
        return yamlio.parse_yaml(text, "f.yaml")
    except InputError as error:
        return error


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml: every document takes the slow path")
def test_a_small_marks_file_takes_the_quick_path_and_reads_the_same():
    assert yamlio._quick_yaml(MARKS) == slow(MARKS) == {
        "grid": "classic", "player": "Lea", "rows": [{"crossed": [2, 3, 4]}, {"crossed": []}, {"crossed": []}, {}],
        "penalties": 1}


EDGES = [
    "a: 010\nb: 0x1F\nc: 1_000\nd: +5\ne: -0\nf: 1:20\n",  # YAML 1.1 numbers: octal, hex, sexagesimal
    "a: yes\nb: ~\nc: 1.5\nd: .inf\ne: 2026-01-01\nf: '3'\n",  # booleans, null, floats, a date kept as text
    "a: 1\na: 2\n",  # a key twice: the slow path says where
    "<<: {a: 1}\nb: 2\n",  # a merge key
    "? [a, b]\n: 1\n",  # a key that is not a scalar
    "- " * 70 + "x\n",  # nested past the limit
    "a: [" + "1, " * 11_000 + "1]\n",  # too many values (too long, too)
    "a: b: c\n",  # not YAML
    "a: 'x'\n---\nb: 1\n",  # two documents
    "",  # nothing
]


@pytest.mark.parametrize("text", EDGES, ids=range(len(EDGES)))
def test_edge_documents_read_the_same_or_go_to_the_slow_path(text):
    quick = yamlio._quick_yaml(text)
    assert quick is None or quick == slow(text) and not isinstance(slow(text), InputError)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_document_of_the_tests_reads_the_same_both_ways(path):
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        return  # refused before either reader sees it
    quick = yamlio._quick_yaml(text)
    if quick is not None:
        expected = slow(text)
        assert not isinstance(expected, InputError), f"the quick path read what the slow one refuses: {expected}"
        assert repr(quick) == repr(expected)
