"""Scores presented: ranked, as a table for people, and as the JSON contract.

``rank`` and ``winners`` place several scores (equal totals share a place);
``format_scores`` writes the plain-text tables ``sheetgen score`` prints;
``scores_json_text`` writes the result as ``score --json`` prints it, the
contract every rules engine is held to (docs/scoring.md), and
``scores_as_json`` is that text read back as plain data.  Scoring itself, the proof and the count, is
``scoring.py``'s.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from json.encoder import encode_basestring_ascii

from ..errors import InputError
from ..words import plural, signed
from .scoring import PowerScore, RowScore, Score

# -- ranking -------------------------------------------------------------------


def rank(scores: Sequence[Score]) -> list[tuple[int, Score]]:
    """(place, score) from best to worst; equal totals share a place (1, 1, 3).
    One sort: O(n log n)."""
    ranked: list[tuple[int, Score]] = []
    for index, score in enumerate(sorted(scores, key=lambda s: -s.total)):
        tied = ranked and ranked[-1][1].total == score.total
        ranked.append((ranked[-1][0] if tied else index + 1, score))
    return ranked


def winners(ranked: list[tuple[int, Score]]) -> list[Score]:
    return [score for place, score in ranked if place == 1]


# -- text for people -------------------------------------------------------------


def format_scores(scores: Sequence[Score], ranked: bool = True) -> str:
    """A plain-text table per sheet and, for several sheets when ``ranked``, the ranking."""
    blocks = [_format_sheet(score) for score in scores]
    if ranked and len(scores) > 1:
        blocks.append(_format_ranking(rank(scores)))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _format_sheet(score: Score) -> str:
    head = f"{score.player} ({score.source})" if score.player and score.source else score.name
    lines = [(row.label, _crosses_text(row), signed(row.points)) for row in score.rows]
    lines.append(("penalties", f"{score.penalties} crossed" if score.penalties else "none",
                  signed(score.penalty_points)))
    lines += [(power.symbol.value, power.text, signed(f"{power.points:+d}")) for power in score.powers]
    lines.append(("total", "", signed(score.total)))
    return f"{head}: {score.title}\n" + _table(lines)


def _crosses_text(row: RowScore) -> str:
    text = plural(row.crosses, "cross", "crosses")
    if row.counted != row.crosses:
        text += f" ({row.counted} count)"
    return text + (", locked" if row.locked else "")


def _format_ranking(ranked: list[tuple[int, Score]]) -> str:
    lines = [(str(place), score.name, signed(score.total)) for place, score in ranked]
    best = winners(ranked)
    names = " and ".join(score.name for score in best)
    verdict = f"{'Winners (tie)' if len(best) > 1 else 'Winner'}: {names} with {signed(best[0].total)}"
    return "Ranking\n" + _table(lines) + "\n" + verdict


def _table(lines: list[tuple[str, str, str]]) -> str:
    """Left, left and right aligned columns, indented by two spaces."""
    widths = [max(len(line[i]) for line in lines) for i in range(3)]
    return "\n".join(
        f"  {a:<{widths[0]}}  {b:<{widths[1]}}  {c:>{widths[2]}}".rstrip() for a, b, c in lines
    )


# -- the contract: scores and refusals as plain data ------------------------------------------


def scores_as_json(scores: Sequence[Score], refused: Sequence[dict] = ()) -> dict[str, list]:
    """The result of scoring as plain data: every scored sheet, the ranking
    and the winners, and the refusals (``refusal_as_json``).  A ranking needs
    every sheet: with a refusal, ranking and winners are empty and no sheet
    has a place.  It is ``scores_json_text`` read back, so that the data and
    the text that ``--json`` prints cannot differ."""
    data: dict[str, list] = json.loads(scores_json_text(scores, refused))
    return data


def scores_json_text(scores: Sequence[Score], refused: Sequence[dict] = (), **more: list) -> str:
    """The result of scoring as the JSON text ``--json`` prints, with ``more``
    keys of lists after it: one line per sheet, ranking entry and refusal, so
    that it reads well.  It prints 10,000 sheets fast: a sheet's text is put
    together from its rows' texts, each encoded once (a game's sheets share
    most of their rows), where encoding every sheet as a whole (the json
    module's C encoder works only without indentation) would take three times
    as long."""
    ranked = rank(scores) if not refused else []
    places = {id(score): place for place, score in ranked}
    lines = {
        "sheets": [_sheet_text(score, places.get(id(score))) for score in scores],
        "ranking": [f'{{"place": {place}, "name": {_string(score.name)}, "total": {score.total}}}'
                    for place, score in ranked],
        "winners": [_string(score.name) for score in winners(ranked)],
        "refused": [json.dumps(refusal) for refusal in refused],
        **{key: [json.dumps(item) for item in items] for key, items in more.items()},
    }
    blocks = [f'  "{key}": [\n    ' + ",\n    ".join(items) + "\n  ]" if items else f'  "{key}": []'
              for key, items in lines.items()]
    return "{\n" + ",\n".join(blocks) + "\n}"


def _sheet_text(score: Score, place: int | None) -> str:
    """One sheet's entry: file, player, grid, rows, penalties, powers, total and place."""
    powers = json.dumps([_power_as_json(p) for p in score.powers]) if score.powers else "[]"
    return (f'{{"file": {_string(score.source)}, "player": {_string(score.player)},'
            f' "grid": {_string(score.grid)}, "rows": [{", ".join(map(_row_text, score.rows))}],'
            f' "penalties": {{"crossed": {score.penalties}, "points": {score.penalty_points}}},'
            f' "powers": {powers}, "total": {score.total}, "place": {"null" if place is None else place}}}')


def _string(text: str | None) -> str:
    return "null" if text is None else encode_basestring_ascii(text)  # what json.dumps gives, without its set-up


@lru_cache(maxsize=4096)
def _row_text(row: RowScore) -> str:
    return json.dumps(_row_as_json(row))


def _row_as_json(row: RowScore) -> dict:
    return {"row": row.label, "lock_colour": row.lock_colour.value, "crosses": row.crosses, "counted": row.counted,
            "locked": row.locked, "points": row.points}


def _power_as_json(power: PowerScore) -> dict:
    return {"symbol": power.symbol.value, "effect": power.effect.value, "text": power.text, "points": power.points}


def refusal_as_json(error: InputError, reason: str) -> dict:
    """A refused sheet: ``file``, ``path`` and ``reason`` are the contract, ``message`` is for people."""
    return {"file": error.where, "path": error.path, "reason": reason, "message": error.message}
