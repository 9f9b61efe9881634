"""Standings of a club evening: the CSV file, as sheetgen and spreadsheets
write it, the table by hand-worked examples, and `score --standings`."""

from __future__ import annotations

import pytest

from sheetgen.errors import InputError
from sheetgen.play.standings import Result, Standing, parse_standings, standings, standings_csv

EVENING = [  # game 1: Lea and Tom tie for first with 68; game 2: Max wins with 30
    Result(1, "classic", "Lea", 68), Result(1, "classic", "Tom", 68), Result(1, "classic", "Max", 1),
    Result(2, "longo", "Lea", 20), Result(2, "longo", "Max", 30),
]


def test_a_tie_for_first_is_a_win_for_each_and_the_table_ranks_wins_then_points():
    assert standings(EVENING) == [
        Standing("Lea", games=2, wins=1, total=88),  # 68 + 20
        Standing("Tom", games=1, wins=1, total=68),
        Standing("Max", games=2, wins=1, total=31),  # 1 + 30
    ]
    assert [s.mean for s in standings(EVENING)] == [44.0, 68.0, 15.5]


def test_negative_points_can_still_win():
    results = [Result(1, "classic", "Ann", -10), Result(1, "classic", "Bob", -5)]
    assert [(s.player, s.wins) for s in standings(results)] == [("Bob", 1), ("Ann", 0)]


def test_the_file_sheetgen_writes_reads_back_the_same():
    text = standings_csv(EVENING)
    assert text.splitlines()[:2] == ["game,grid,player,points,id", "1,classic,Lea,68,"]
    assert parse_standings(text, "evening.csv") == EVENING
    named = [Result(1, "classic", "Lea", 68, "final"), Result(1, "classic", "Tom", 3, "final")]
    assert standings_csv(named).splitlines()[1:] == ["1,classic,Lea,68,final", "1,classic,Tom,3,final"]
    assert parse_standings(standings_csv(named), "evening.csv") == named


SPREADSHEET = [  # the same two lines, as spreadsheets save them
    "\ufeffgame,grid,player,points\r\n1,classic,\"Lea, the \"\"ace\"\"\",68\r\n\r\n,,,\r\n",
    "game;grid;player;points\r\n1;classic;\"Lea, the \"\"ace\"\"\";68\r\n;;;\r\n",
    "Game,Grid,Player,Points,,\n1,classic,\"Lea, the \"\"ace\"\"\",68,,\n",
]


@pytest.mark.parametrize("text", SPREADSHEET, ids=["bom-crlf", "semicolons", "empty-columns"])
def test_a_file_saved_by_a_spreadsheet_reads_back(text):
    assert parse_standings(text, "evening.csv") == [Result(1, "classic", 'Lea, the "ace"', 68)]


BAD_FILES = [
    ("player,points\nLea,3\n",
     "line 1: expected the header game,grid,player,points,id (or without id), got 'player,points'"),
    ("game,grid,player,points,id\n1,classic,Lea,3,a,b\n",
     "line 2: expected 5 fields (game, grid, player, points, id), got 6"),
    ("game,grid,player,points\n1,classic,Lea\n", "line 2: expected 4 fields (game, grid, player, points), got 3"),
    ("game,grid,player,points\n1,classic,Lea,lots\n", "line 2: points: expected a whole number, got 'lots'"),
    ("game,grid,player,points\n0,classic,Lea,3\n", "line 2: game: expected a whole number of at least 1, got '0'"),
    ("game,grid,player,points\n1,classic,,3\n",
     "line 2: player: expected a name of 1 to 40 printable characters, got ''"),
    ("game,grid,player,points\n1,classic,\"Lea\x1b[31m\",3\n",
     "line 2: player: expected a name of 1 to 40 printable characters, got 'Lea\\x1b[31m'"),
    ("game,grid,player,points\n1,classic,Lea,3\n\n1,classic,Lea,4\n",
     "line 4: player 'Lea' is twice in game 1 (first on line 2)"),
    ("game,grid,player,points\n1,classic,\"Lea,3\n", "line 2: not valid CSV (unexpected end of data)"),
    ("game,grid,player,points\n1,classic,Lea,99999999999999999999\n",
     "line 2: points: expected a whole number, got '99999999999999999999'"),
]


@pytest.mark.parametrize("text, message", BAD_FILES, ids=[m.split(": ", 1)[1][:40] for _, m in BAD_FILES])
def test_a_malformed_file_is_one_error_naming_the_file_and_line(text, message):
    with pytest.raises(InputError) as caught:
        parse_standings(text, "evening.csv")
    assert str(caught.value) == f"evening.csv: {message}"


# -- through the command line --------------------------------------------------------

LEA = "player: Lea\nrows: [{crossed: [2, 3, 4, 5, 6, 7]}, {crossed: [2, 3, 4, 5]}, {}, {}]\n"  # 21 + 10 = 31
# 6 + 21 - 5 = 22
TOM = "player: Tom\nrows: [{crossed: [2, 3, 4]}, {crossed: [2, 3, 4, 5, 6, 7]}, {}, {}]\npenalties: 1\n"
MAX = "player: Max\nrows: [{crossed: [2, 3, 4, 5, 6, 7, 8]}, {crossed: [2]}, {}, {}]\npenalties: 1\n"  # 28 + 1 - 5 = 24


@pytest.fixture
def marks(tmp_path):
    for name, text in (("lea.yaml", LEA), ("tom.yaml", TOM), ("max.yaml", MAX)):
        (tmp_path / name).write_text(text)


def test_score_adds_each_game_to_the_standings_and_prints_the_table(run, marks, tmp_path):
    result = run("score", "classic", "lea.yaml", "tom.yaml", "--standings", "evening.csv")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.endswith(
        "Winner: Lea with 31\n"
        "\n"
        "Standings (evening.csv, 1 game)\n"
        "  player  games  wins  points  mean\n"
        "  Lea         1     1      31  31.0\n"
        "  Tom         1     0      22  22.0\n"
    )
    result = run("score", "classic", "max.yaml", "tom.yaml", "--standings", "evening.csv")
    assert result.stdout.endswith(
        "Standings (evening.csv, 2 games)\n"
        "  player  games  wins  points  mean\n"
        "  Lea         1     1      31  31.0\n"
        "  Max         1     1      24  24.0\n"
        "  Tom         2     0      44  22.0\n"
    )
    lines = (tmp_path / "evening.csv").read_text().splitlines()
    assert [line.rsplit(",", 1)[0] for line in lines] == [
        "game,grid,player,points", "1,classic,Lea,31", "1,classic,Tom,22", "2,classic,Max,24", "2,classic,Tom,22"]
    ids = [line.rsplit(",", 1)[1] for line in lines[1:]]
    assert ids[0] == ids[1] != ids[2] == ids[3], "one identity per game, made from its sheets"
    assert all(len(i) == 12 and int(i, 16) >= 0 for i in ids)


def test_score_json_carries_the_standings(run, marks):
    import json

    data = json.loads(run("score", "classic", "lea.yaml", "--json", "--standings", "evening.csv").stdout)
    assert data["standings"] == [{"player": "Lea", "games": 1, "wins": 1, "points": 31, "mean": 31.0}]


def test_a_bad_standings_file_is_left_as_it_was_and_nothing_is_printed(run, marks, tmp_path):
    bad = "game,grid,player,points\n1,classic,Lea\n"
    (tmp_path / "evening.csv").write_text(bad)
    result = run("score", "classic", "lea.yaml", "--standings", "evening.csv")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", "sheetgen: evening.csv: line 2: expected 4 fields (game, grid, player, points), got 3\n")
    assert (tmp_path / "evening.csv").read_text() == bad
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evening.csv", "lea.yaml", "max.yaml", "tom.yaml"]


def test_the_same_player_twice_in_one_game_is_refused(run, marks, tmp_path):
    (tmp_path / "lea2.yaml").write_text(LEA)
    result = run("score", "classic", "lea.yaml", "lea2.yaml", "--standings", "evening.csv")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == ("sheetgen: evening.csv: player 'Lea' is twice in this game"
                             " (give each sheet its own player)\n")
    assert not (tmp_path / "evening.csv").exists()


# -- a game cannot be counted twice ---------------------------------------------------


def test_the_same_game_again_is_refused_and_the_file_left_as_it_was(run, marks, tmp_path):
    """Up-arrow, Enter: the same command twice."""
    assert run("score", "classic", "lea.yaml", "tom.yaml", "--standings", "evening.csv").exit_code == 0
    before = (tmp_path / "evening.csv").read_text()
    (tmp_path / "copy.yaml").write_text(LEA)  # the same sheets, another file and order: the same game
    result = run("score", "classic", "tom.yaml", "copy.yaml", "--standings", "evening.csv")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == ("sheetgen: evening.csv: game 1 is the same sheets: not added again (--force adds it all"
                             " the same, --game NAME gives a different game a name of its own)\n")
    assert (tmp_path / "evening.csv").read_text() == before
    forced = run("score", "classic", "lea.yaml", "tom.yaml", "--standings", "evening.csv", "--force")
    assert forced.exit_code == 0 and "Standings (evening.csv, 2 games)" in forced.stdout


def test_a_game_named_is_its_name(run, marks, tmp_path):
    for name in ("first", "second"):
        result = run("score", "classic", "lea.yaml", "tom.yaml", "--standings", "evening.csv", "--game", name)
        assert result.exit_code == 0, result.stderr
    again = run("score", "classic", "max.yaml", "--standings", "evening.csv", "--game", "first")
    assert again.stderr.startswith("sheetgen: evening.csv: game 1 is the game named 'first': not added again")
    assert [line.split(",")[4] for line in (tmp_path / "evening.csv").read_text().splitlines()[1:]] == [
        "first", "first", "second", "second"]
    assert run("score", "classic", "lea.yaml", "--game", "x").exit_code == 2  # --game goes with --standings


def test_a_file_without_identities_still_reads_and_still_refuses_a_game_twice(run, marks, tmp_path):
    """As older sheetgens and the counter page write it: a game there is the
    same as another with the same grid, players and points."""
    (tmp_path / "evening.csv").write_text("game,grid,player,points\n1,classic,Lea,31\n1,classic,Tom,22\n")
    result = run("score", "classic", "lea.yaml", "tom.yaml", "--standings", "evening.csv")
    assert result.stderr.startswith("sheetgen: evening.csv: game 1 is the same sheets: not added again")
    assert run("score", "classic", "max.yaml", "tom.yaml", "--standings", "evening.csv").exit_code == 0
    lines = (tmp_path / "evening.csv").read_text().splitlines()
    assert lines[:3] == ["game,grid,player,points,id", "1,classic,Lea,31,", "1,classic,Tom,22,"]
    assert lines[3].startswith("2,classic,Max,24,") and len(lines) == 5


def test_the_standings_show_without_adding_a_game(run, marks, tmp_path):
    assert run("score", "classic", "lea.yaml", "tom.yaml", "--standings", "evening.csv", "-q").output == ""
    table = ("Standings (evening.csv, 1 game)\n"
             "  player  games  wins  points  mean\n"
             "  Lea         1     1      31  31.0\n"
             "  Tom         1     0      22  22.0\n")
    assert run("standings", "evening.csv").output == table
    assert run("score", "classic", "--standings", "evening.csv").output == table
    assert '"player": "Lea"' in run("standings", "evening.csv", "--json").output
    missing = run("standings", "nope.csv")
    assert (missing.exit_code, missing.stderr) == (1, "sheetgen: nope.csv: no such file\n")
    assert run("score", "classic").exit_code == 2  # no marks and no standings: nothing asked
