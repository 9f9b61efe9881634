"""A club evening's standings: every game scored, kept in a CSV file, and
the table of games, wins and points per player.

The file (format in docs/clubs.md, kept stable) is one line per player and
game under the header ``game,grid,player,points,id``; games are numbered from 1
in the order they were added, and ``id`` is the game's identity, the same on
each of its lines.  ``read_standings`` reads it back, also as a spreadsheet
saves it (a byte-order mark, CRLF line ends, quoted names, blank lines and
empty cells, semicolons for commas), and as files without the ``id`` column
were written (and the counter page writes); anything else is one
``InputError`` naming the file and its line.
``add_game`` appends the scores of one game, refusing a game the file holds
already, and ``standings_csv`` writes the whole file again, always the same
way (the caller writes it atomically).

A game's identity is the name given to it (``score --game NAME``) or, by
default, made from its sheets (``game_identity``): every player's name,
crosses, locks, penalties and points.  A game without an identity (from a
file without the column) is the same game as another with the same grid,
players and points.

Wins: in each game every player with the most points wins, so a tie for
first is a win for each of the tied players (as ``score`` names them all
winners).  The table ranks by wins, then total points, then name.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
from collections.abc import Sequence
from typing import NoReturn

from ..errors import InputError
from ..records import record
from ..words import plural, signed
from .scoring import Score

HEADER = ("game", "grid", "player", "points")  # the columns files have always had
IDENTITY = "id"  # and the game's identity after them, where the file has it
MAX_BYTES = 1024 * 1024  # some 50,000 lines: years of club evenings
MAX_NAME = 40  # characters, as a marks file's player


@record
class Result:
    """One player's points in one game."""

    game: int
    grid: str
    player: str
    points: int
    identity: str = ""  # of its game: a name, or made from the sheets; "" from a file without the column


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
                names = [field.lower() for field in fields]
                if names not in (list(HEADER), [*HEADER, IDENTITY]):
                    _fail(where, lines.line_num, f"expected the header {','.join(HEADER)},{IDENTITY} (or without"
                                                 f" {IDENTITY}), got {','.join(row)!r}")
                header = True
                width = len(names)
                continue
            results.append(_result(fields, width, where, lines.line_num, players))
    except csv.Error as error:
        _fail(where, lines.line_num, f"not valid CSV ({error})")
    return results


def _result(fields: list[str], width: int, where: str, line: int, players: dict[tuple[int, str], int]) -> Result:
    if width > len(HEADER) and len(fields) == len(HEADER):
        fields.append("")  # a spreadsheet leaves an empty last cell out
    if len(fields) != width:
        names = ", ".join([*HEADER, IDENTITY][:width])
        _fail(where, line, f"expected {width} fields ({names}), got {len(fields)}")
    game, grid, player, points, *identity = fields
    number = _whole(game, "game", where, line)
    if number < 1:
        _fail(where, line, f"game: expected a whole number of at least 1, got {game!r}")
    for name, value in (("grid", grid), ("player", player)):
        if not value or len(value) > MAX_NAME or not value.isprintable():
            _fail(where, line, f"{name}: expected a name of 1 to {MAX_NAME} printable characters, got {value!r}")
    if (number, player) in players:
        _fail(where, line, f"player {player!r} is twice in game {number} (first on line {players[number, player]})")
    players[number, player] = line
    if identity and (len(identity[0]) > MAX_NAME or not identity[0].isprintable()):
        _fail(where, line, f"id: expected a name of at most {MAX_NAME} printable characters, got {identity[0]!r}")
    return Result(number, grid, player, _whole(points, "points", where, line), *identity)


def _whole(text: str, name: str, where: str, line: int) -> int:
    try:
        if len(text) > 9:
            raise ValueError
        return int(text)
    except ValueError:
        _fail(where, line, f"{name}: expected a whole number, got {text!r}")


def _fail(where: str, line: int, message: str) -> NoReturn:
    raise InputError(where, f"line {line}", message)


def add_game(results: Sequence[Result], scores: Sequence[Score], where: str, name: str | None = None,
             again: bool = False) -> list[Result]:
    """``results`` and, as the next game, ``scores`` (one per player), whose
    identity is ``name`` or else made from them.  The same game twice is
    refused (unless ``again``): ``InputError`` naming the game it would repeat."""
    game = max((r.game for r in results), default=0) + 1
    identity = name if name is not None else game_identity(scores)
    added: list[Result] = []
    for score in scores:
        player = score.name
        if not player.isprintable() or len(player) > MAX_NAME:
            raise InputError(score.source or where, "player", f"expected a name of 1 to {MAX_NAME} printable characters"
                                                     f" for the standings, got {player!r}")
        if any(r.player == player for r in added):
            raise InputError(where, "", f"player {player!r} is twice in this game (give each sheet its own player)")
        added.append(Result(game, score.grid, player, score.total, identity))
    same = _same_game(results, added)
    if same is not None and not again:
        what = f"the game named {name!r}" if name is not None else "the same sheets"
        raise InputError(where, "", f"game {same} is {what}: not added again (--force adds it all the same,"
                                    " --game NAME gives a different game a name of its own)")
    return [*results, *added]


def game_identity(scores: Sequence[Score]) -> str:
    """A game's identity made from its sheets: each player's name, crosses,
    locks, penalties and points, whatever the order of the sheets or the
    names of their files."""
    sheets = sorted(json.dumps([score.name, score.grid, [[row.crosses, row.locked] for row in score.rows],
                                score.penalties, score.total]) for score in scores)
    return hashlib.sha256("\n".join(sheets).encode()).hexdigest()[:12]


def _same_game(results: Sequence[Result], added: list[Result]) -> int | None:
    """The game of ``results`` that ``added`` repeats: the same identity, or for a
    game without one, the same grid, players and points; None if none."""
    games: dict[int, list[Result]] = {}
    for r in results:
        games.setdefault(r.game, []).append(r)
    points = {(r.grid, r.player, r.points) for r in added}
    for number, lines in games.items():
        known = lines[0].identity
        same = known == added[0].identity if known else {(r.grid, r.player, r.points) for r in lines} == points
        if same:
            return number
    return None


def standings_csv(results: Sequence[Result]) -> str:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*HEADER, IDENTITY])
    writer.writerows((r.game, r.grid, r.player, r.points, r.identity) for r in results)
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
    rows += [(s.player, str(s.games), str(s.wins), signed(s.total), signed(f"{s.mean:.1f}"))
             for s in standings(results)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [f"Standings ({where}, {plural(len({r.game for r in results}), 'game')})"]
    for name, *numbers in rows:
        lines.append(f"  {name:<{widths[0]}}" + "".join(f"  {n:>{w}}" for n, w in zip(numbers, widths[1:])))
    return "\n".join(lines) + "\n"


def standings_as_json(results: Sequence[Result]) -> list[dict]:
    return [{"player": s.player, "games": s.games, "wins": s.wins, "points": s.total, "mean": round(s.mean, 1)}
            for s in standings(results)]
