"""Scores presented: ranks that share places between equal totals, the
plain-text tables word for word, and the JSON contract, as data and as the
text `score --json` prints (one line per entry, the same data)."""

from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen.play.results import format_scores, rank, scores_as_json, scores_json_text

from test_scoring import score


def classic_68(where="lea.yaml", **extra):
    return score("classic", [2, 3, 4, 5, 6, 7], [2, 3, 4, 5], [12, 11, 10, 9, 8, 7, 2], [12, 11, 10],
                 penalties=1, where=where, **extra)


def test_rank_shares_places_between_equal_totals():
    lea, max_, tom = classic_68("lea.yaml"), score("classic", [2], [], [], [], where="max.yaml"), classic_68("tom.yaml")
    assert [(place, s.source) for place, s in rank([max_, lea, tom])] == [(1, "lea.yaml"), (1, "tom.yaml"), (3, "max.yaml")]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-20, 40), max_size=30))
def test_a_place_is_one_more_than_the_better_totals(totals):
    base = classic_68()
    scores = [replace(base, total=t, source=f"{n}.yaml") for n, t in enumerate(totals)]
    ranked = rank(scores)
    assert [s.total for _, s in ranked] == sorted(totals, reverse=True)
    assert all(place == 1 + sum(t > s.total for t in totals) for place, s in ranked)


def test_format_one_sheet():
    assert format_scores([classic_68(player="Lea")]) == (
        "Lea (lea.yaml): Qwixx\n"
        "  red        6 crosses          21\n"
        "  yellow     4 crosses          10\n"
        "  green      8 crosses, locked  36\n"
        "  blue       3 crosses           6\n"
        "  penalties  1 crossed          \u22125\n"
        "  total                         68\n"
    )


def test_format_shows_caps_and_powers():
    sheet = score("powers", [6], [3], [5], [4], penalties=1)
    assert format_scores([sheet]) == (
        "lea.yaml: Qwixx Powers\n"
        "  red        1 cross              1\n"
        "  yellow     1 cross              1\n"
        "  green      1 cross              1\n"
        "  blue       1 cross              1\n"
        "  penalties  1 crossed           \u22125\n"
        "  octagon    +13 points         +13\n"
        "  star       penalties score 0   +5\n"
        "  total                          17\n"
    )  # 1 + 1 + 1 + 1 - 5 + 13 + 5
    capped = score("bis", {"crossed": list(range(2, 12)), "bis": list(range(2, 9))}, [], [], [])
    assert "17 crosses (16 count)" in format_scores([capped])


def test_format_several_sheets_ranks_them_and_shows_ties():
    sheets = [classic_68("lea.yaml", player="Lea"), score("classic", [2], [], [], [], where="max.yaml"),
              classic_68("tom.yaml", player="Tom")]
    text = format_scores(sheets)
    assert text.count("total") == 3
    assert text.endswith(
        "Ranking\n"
        "  1  Lea       68\n"
        "  1  Tom       68\n"
        "  3  max.yaml   1\n"
        "Winners (tie): Lea and Tom with 68\n"
    )
    assert format_scores(sheets[:2]).endswith("Winner: Lea with 68\n")
    assert "Ranking" not in format_scores(sheets, ranked=False)


def test_a_negative_number_prints_with_a_minus_sign_never_a_hyphen():
    # Worked by hand: no cross on a classic sheet and its 4 penalty boxes crossed is 4 x -5 = -20.
    nothing = score("classic", [], [], [], [], penalties=4, where="tom.yaml", player="Tom")
    text = format_scores([nothing, score("classic", [], [], [], [], penalties=3, where="max.yaml", player="Max")])
    assert "  penalties  4 crossed  \u221220\n  total                 \u221220\n" in text
    assert text.endswith("  1  Max  \u221215\n  2  Tom  \u221220\nWinner: Max with \u221215\n")
    assert "-" not in text


def test_scores_as_json():
    data = scores_as_json([score("powers", [6], [], [], [4], where="max.yaml"), classic_68(player="Lea")])
    assert json.loads(json.dumps(data)) == data  # plain data only
    assert data["ranking"] == [{"place": 1, "name": "Lea", "total": 68}, {"place": 2, "name": "max.yaml", "total": 15}]
    assert (data["winners"], data["refused"]) == (["Lea"], [])
    first = data["sheets"][0]
    assert first["rows"][0] == {"row": "red", "lock_colour": "red", "crosses": 1, "counted": 1, "locked": False, "points": 1}
    assert first["powers"] == [{"symbol": "octagon", "effect": "bonus_points", "text": "+13 points", "points": 13}]
    assert (first["penalties"], first["total"], first["place"]) == ({"crossed": 0, "points": 0}, 15, 2)


def test_a_refusal_leaves_no_ranking():
    refusal = {"file": "tom.yaml", "path": "rows", "reason": "form", "message": "expected 4 rows"}
    data = scores_as_json([classic_68()], [refusal])
    assert (data["ranking"], data["winners"], data["refused"]) == ([], [], [refusal])
    assert data["sheets"][0]["place"] is None


def test_the_json_text_has_a_line_per_sheet_and_reads_back():
    scores = [classic_68("lea.yaml"), score("powers", [6], [3], [5], [4], penalties=1, where="max.yaml")]
    text = scores_json_text(scores)
    data = json.loads(text)
    assert data["ranking"] == [{"place": 1, "name": "lea.yaml", "total": 68}, {"place": 2, "name": "max.yaml", "total": 17}]
    assert ([s["total"] for s in data["sheets"]], data["winners"], data["refused"]) == ([68, 17], ["lea.yaml"], [])
    lines = text.splitlines()
    assert [line.strip()[:20] for line in lines[1:5]] == ['"sheets": [', '{"file": "lea.yaml",', '{"file": "max.yaml",', "],"]
    assert lines[-2:] == ['  "refused": []', "}"]
    refusal = {"file": "tom.yaml", "path": "rows", "reason": "form", "message": "expected 4 rows"}
    text = scores_json_text(scores, [refusal], standings=[{"player": "Lea"}])
    data = json.loads(text)
    assert list(data) == ["sheets", "ranking", "winners", "refused", "standings"]
    assert (data["ranking"], data["winners"], data["refused"], data["standings"]) == ([], [], [refusal], [{"player": "Lea"}])
    assert [json.loads(line.rstrip(","))["place"] for line in text.splitlines()[2:4]] == [None, None]


def test_names_of_any_characters_are_written_as_json_reads_them():
    name = 'Léa "la reine" \\ 名前'
    text = scores_json_text([classic_68("dé.yaml", player=name)])
    assert text.isascii()  # every other character escaped, as json.dumps does
    data = json.loads(text)
    assert (data["sheets"][0]["player"], data["sheets"][0]["file"], data["winners"]) == (name, "dé.yaml", [name])
