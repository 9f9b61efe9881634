"""A club evening's standings: every game scored, kept in a CSV file, and
the table of games, wins and points per player.

The file (format in docs/clubs.md, kept stable) is one line per player and
game under the header ``game,grid,player,points``; games are numbered from 1
in the order they were added.  ``read_standings`` reads it back, also as a
spreadsheet saves it (a byte-order mark, CRLF line ends, quoted names, blank
lines and empty cells, semicolons for commas); anything else is one
``InputError`` naming the file and its line.
``add_game`` appends the scores of one game and ``standings_csv`` writes the
whole file again, always the same way (the caller writes it atomically).

Wins: in each game every player with the most points wins, so a tie for
first is a win for each of the tied players (as ``score`` names them all
winners).  The table ranks by wins, then total points, then name.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from typing import NoReturn

from ..errors import InputError
from ..records import record
from ..words import plural
from .scoring import Score

HEADER = ("game", "grid", "player", "points")
MAX_BYTES = 1024 * 1024  # some 50,000 lines: years of club evenings
MAX_NAME = 40  # characters, as a marks file's player


@record
class Result:
    """One player's points in one game."""

    game: int
    grid: str
    player: str
    points: int


@record
class Standing:
    player: str
    games: int
    wins: int
    total: int  # points over every game

    @property
    def mean(self) -> float:
        return self.total / self.games


def read_standings(path: str | os.PathLike[str]) -> list[Result]:
    """The results in the standings file at ``path``, in file order; none if
    there is no such file yet."""
    from ..grid.yamlio import read_text

    where = os.fspath(path)
    if not os.path.lexists(path):
        return []
    return parse_standings(read_text(path, where, MAX_BYTES), where)


def parse_standings(text: str, where: str) -> list[Result]:
    results: list[Result] = []
    players: dict[tuple[int, str], int] = {}  # (game, player): its line, to refuse a player twice in a game
    header = False
    text = text.removeprefix("\ufeff")  # a byte-order mark, if the text was not read with utf-8-sig
    first = next((line for line in text.splitlines() if line.strip()), "")
    # Spreadsheets set to a language that writes decimal commas save with semicolons.
    delimiter = ";" if ";" in first and "," not in first else ","
    lines = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        for row in lines:
            fields = [field.strip() for field in row]
            while len(fields) > len(HEADER) and not fields[-1]:
                fields.pop()  # the empty cells a spreadsheet adds right of the table
            if not any(fields):
                continue  # a blank line, or a spreadsheet's empty row (",,,")
            if not header:
                if [field.lower() for field in fields] != list(HEADER):
                    _fail(where, lines.line_num, f"expected the header {','.join(HEADER)}, got {','.join(row)!r}")
                header = True
                continue
            results.append(_result(fields, where, lines.line_num, players))
    except csv.Error as error:
        _fail(where, lines.line_num, f"not valid CSV ({error})")
    return results


def _result(fields: list[str], where: str, line: int, players: dict[tuple[int, str], int]) -> Result:
    if len(fields) != len(HEADER):
        _fail(where, line, f"expected {len(HEADER)} fields ({', '.join(HEADER)}), got {len(fields)}")
    game, grid, player, points = fields
    number = _whole(game, "game", where, line)
    if number < 1:
        _fail(where, line, f"game: expected a whole number of at least 1, got {game!r}")
    for name, value in (("grid", grid), ("player", player)):
        if not value or len(value) > MAX_NAME or not value.isprintable():
            _fail(where, line, f"{name}: expected a name of 1 to {MAX_NAME} printable characters, got {value!r}")
    if (number, player) in players:
        _fail(where, line, f"player {player!r} is twice in game {number} (first on line {players[number, player]})")
    players[number, player] = line
    return Result(number, grid, player, _whole(points, "points", where, line))


def _whole(text: str, name: str, where: str, line: int) -> int:
    try:
        if len(text) > 9:
            raise ValueError
        return int(text)
    except ValueError:
        _fail(where, line, f"{name}: expected a whole number, got {text!r}")


def _fail(where: str, line: int, message: str) -> NoReturn:
    raise InputError(where, f"line {line}", message)


def add_game(results: Sequence[Result], scores: Sequence[Score], where: str) -> list[Result]:
    """``results`` and, as the next game, ``scores`` (one per player)."""
    game = max((r.game for r in results), default=0) + 1
    added: list[Result] = []
    for score in scores:
        name = score.name
        if not name.isprintable() or len(name) > MAX_NAME:
            raise InputError(score.source or where, "player", f"expected a name of 1 to {MAX_NAME} printable characters"
                                                     f" for the standings, got {name!r}")
        if any(r.player == name for r in added):
            raise InputError(where, "", f"player {name!r} is twice in this game (give each sheet its own player)")
        added.append(Result(game, score.grid, name, score.total))
    return [*results, *added]


def standings_csv(results: Sequence[Result]) -> str:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows((r.game, r.grid, r.player, r.points) for r in results)
    return buffer.getvalue()


def standings(results: Sequence[Result]) -> list[Standing]:
    """Per player: games, wins and total points, best first."""
    best: dict[int, int] = {}
    for r in results:
        best[r.game] = max(best.get(r.game, r.points), r.points)
    games: dict[str, list[Result]] = {}
    for r in results:
        games.setdefault(r.player, []).append(r)
    table = [Standing(player, len(played), sum(r.points == best[r.game] for r in played),
                      sum(r.points for r in played)) for player, played in games.items()]
    return sorted(table, key=lambda s: (-s.wins, -s.total, s.player))


def format_standings(results: Sequence[Result], where: str) -> str:
    """The evening's table, in plain text: names left, numbers right."""
    rows = [("player", "games", "wins", "points", "mean")]
    rows += [(s.player, str(s.games), str(s.wins), str(s.total), f"{s.mean:.1f}") for s in standings(results)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [f"Standings ({where}, {plural(len({r.game for r in results}), 'game')})"]
    for name, *numbers in rows:
        lines.append(f"  {name:<{widths[0]}}" + "".join(f"  {n:>{w}}" for n, w in zip(numbers, widths[1:])))
    return "\n".join(lines) + "\n"


def standings_as_json(results: Sequence[Result]) -> list[dict]:
    return [{"player": s.player, "games": s.games, "wins": s.wins, "points": s.total, "mean": round(s.mean, 1)}
            for s in standings(results)]
