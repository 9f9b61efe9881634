"""The live-rules contract, recorded from the simulator (our perft).

A game of ``sheetgen.play.game`` is played with every decision recorded: for
each player asked, the legal moves and the move taken; every cross the engine
makes, in the order it makes it (so the forced crosses of a bonus or a power
and their order); the rows closed, the game's end and the final sheets.  The
record is turned into *ops* for the counter page's live engine
(``window.sheetgen.engine``): its moves ("cross", "bis", "lucky", "confirm",
"choose", "penalty", "end") and looks at what it offers a player, each with
what the simulator says it must be.  ``compare`` reads what the page answered
and lists every difference.

Every call into ``sheetgen.play.game`` (and the simulator's seeding) is in this
file, so that a change of the engine's insides is followed here only.

Numbers, not positions, name cells on the page side: ``("cell", row, number)``,
rows counted from 0.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sheetgen.grid.load import grid_from_data, load_grid
from sheetgen.grid.model import Grid
from sheetgen.play import game as engine
from sheetgen.play.lucky import deal_lucky
from sheetgen.play.strategies import STRATEGIES

CASES = Path(__file__).parent / "conformance" / "live-cases.json"
KINDS = {engine.CELL: "cell", engine.BIS: "bis", engine.LUCKY: "lucky", engine.POWER: "power"}
END = {"locks": "rows", "penalties": "penalties"}  # the simulator's end -> the page's game.over.reason


# -- recording a game of the simulator --------------------------------------------------


@dataclass
class Record:
    """What one game of the simulator did, in the page's terms."""

    grid: Grid
    players: int
    lucky: list[tuple[int, ...]]
    events: list[tuple] = field(default_factory=list)
    # ("roll", w1, w2, dice); ("ask", seat, roll, action, [moves], chosen or None) (moves as
    # (kind, row, number)); ("power", seat, [rows], chosen row); ("x", seat, row, number)
    end: str | None = None
    closings: list[tuple[int, int, int]] = field(default_factory=list)  # (row, roll, action)
    sheets: list[dict] = field(default_factory=list)  # final sheets, normalised (``normal``)
    probes: list[dict] = field(default_factory=list)  # a hand-made case's moves the page must refuse


def _number(grid: Grid, row: int, index: int) -> int:
    return grid.rows[row].cells[index].number


def _named(grid: Grid, move) -> tuple[str, int, int]:
    kind, row, index = move
    return KINDS[kind], row, _number(grid, row, index)


def record(grid: Grid, strategies: Sequence, dice: Iterator, lucky: Sequence[tuple[int, ...]] = ()) -> Record:
    """Play one game of ``grid``: ``strategies`` (engine ``Choose`` functions, seat
    order), ``dice`` (rolls), ``lucky`` (numbers per seat), recording everything."""
    rec = Record(grid, len(strategies), [tuple(lucky[s]) if s < len(lucky) else () for s in range(len(strategies))])
    events = rec.events

    def rolled():
        for roll in dice:
            events.append(("roll", roll[0], roll[1], tuple(roll[2])))
            yield roll

    def asked(seat, choose):
        def ask(moves, sheet, table):
            move = choose(moves, sheet, table)
            if moves and moves[0][0] == engine.POWER:
                row = (move or moves[0])[1]
                events.append(("power", seat, sorted(m[1] for m in moves), row))
            else:
                events.append(("ask", seat, table.rolls, table.action, [_named(grid, m) for m in moves],
                               None if move is None else _named(grid, move)))
            return move
        return ask

    class Recorded(engine.Game):
        def cross(self, sheet, row, index, action):
            events.append(("x", sheet.seat, row, _number(grid, row, index)))
            super().cross(sheet, row, index, action)

    game = Recorded(engine.rulebook(grid), [asked(s, c) for s, c in enumerate(strategies)], rolled(), rec.lucky)
    result = game.play()
    rec.end = result.end
    rec.closings = [(c.row, c.roll, c.action) for c in result.closings]
    rec.sheets = [normal(engine.marks_document(game.rules, sheet)) for sheet in result.sheets]
    return rec


def simulated(grid: Grid, seed: int, players: int, strategies: Sequence[str]) -> Record:
    """A seeded game of the simulator's own strategies (seat k plays ``strategies[k % len]``)."""
    dice = engine.random_dice(grid.dice_faces, random.Random(seed << 1))
    choices = random.Random(seed << 1 | 1)
    lucky = deal_lucky(grid.lucky, seed)
    names = [strategies[s % len(strategies)] for s in range(players)]
    return record(grid, [STRATEGIES[name].make(choices) for name in names], dice, [next(lucky) for _ in names])


def scripted(grid: Grid, case: dict) -> Record:
    """A hand-made game of ``live-cases.json``: its rolls, and the move of each
    decision by key ``"roll.seat.action"`` (``[kind, row, number]``; no key: cross
    nothing), a power's row by ``"roll.seat.power"`` (no key: the first row)."""
    choices = case.get("choices", {})

    def player(seat):
        def choose(moves, sheet, table):
            if moves[0][0] == engine.POWER:
                row = choices.get(f"{table.rolls}.{seat}.power")
                return next(m for m in moves if m[1] == row) if row is not None else None
            wanted = choices.get(f"{table.rolls}.{seat}.{table.action}")
            if wanted is None:
                return None
            found = [m for m in moves if list(_named(grid, m)) == wanted]
            if not found:
                raise AssertionError(f"{case['id']}: {wanted} is not legal at roll {table.rolls}, "
                                     f"seat {seat}: {[_named(grid, m) for m in moves]}")
            return found[0]
        return choose

    rec = record(grid, [player(s) for s in range(case["players"])], engine.hand_dice(case["rolls"]),
                 [tuple(n) for n in case.get("lucky", [])])
    rec.probes = case.get("probes", [])
    return rec


def case_grid(case: dict) -> Grid:
    grid = case["grid"]
    return load_grid(grid) if isinstance(grid, str) else grid_from_data(grid, f"{case['id']}.yaml")


def load_live_cases() -> list[dict]:
    return json.loads(CASES.read_text(encoding="utf-8"))["cases"]


def normal(marks: dict) -> dict:
    """A sheet as both engines can write it: per row the crossed numbers and small
    boxes (sorted), the lock; the penalties; the crossed bar boxes."""
    return {
        "rows": [{"crossed": sorted(row.get("crossed", [])), "bis": sorted(row.get("bis", [])),
                  "lock": bool(row.get("lock", False))} for row in marks["rows"]],
        "penalties": marks.get("penalties", 0),
        "bonus_bar": sorted(marks.get("bonus_bar", [])),
    }


# -- the same game as the page's ops ----------------------------------------------------


def page_move(kind: str, player: int, row: int, number: int) -> dict:
    """The page's move for a simulator's move named ``(kind, row, number)``."""
    move = {"cell": "cross", "bis": "bis", "lucky": "lucky"}[kind]
    return {"move": move, "player": player, "row": row, "number": number}


def ops(rec: Record) -> list[dict]:
    """The page's moves for the recorded game, with what each must find.

    An op is ``{"m": move}`` (played with ``engine.play``) or ``{"look": player}``
    (``engine.moves`` and the player's first pending item); ``want`` says what the
    simulator expects there: ``legal`` (the moves of a decision, the dice, the
    colours still in the game), ``head`` (the forced cross or choice pending),
    ``none_pending``.  A probe (``"probe": true``, a hand-made case's) is a move
    the page must refuse for ``want["refused"]``, tried on a copy of the game
    just before (``"before": true``) or after the decision ``"at"`` (its move
    and what that forced)."""
    grid = rec.grid
    out: list[dict] = []
    events = rec.events
    closed_after = {(roll, action): [row for row, r, a in rec.closings if (r, a) == (roll, action)]
                    for _, roll, action in rec.closings}
    colours = {c.value for c in engine.COLOURS}
    roll_no, roll = 0, None
    crossed_this_turn = False
    i = 0

    def probe(seat: int, action: int, before: bool) -> None:
        for p in rec.probes:
            if p["at"] == f"{roll_no}.{seat}.{action}" and bool(p.get("before")) == before:
                out.append({"m": p["move"], "probe": True, "want": {"refused": p["refused"]}})

    def forced(seat: int) -> None:
        """The crosses and choices the last move forced, in the simulator's order."""
        nonlocal i
        while i < len(events) and events[i][0] in ("x", "power") and events[i][1] == seat:
            event = events[i]
            if event[0] == "x":
                out.append({"m": {"move": "confirm", "player": seat}, "want": {"head": ["cross", event[2], event[3]]}})
            else:
                out.append({"m": {"move": "choose", "player": seat, "row": event[3]},
                            "want": {"head": ["choose"], "rows": event[2]}})
            i += 1
        out.append({"look": seat, "want": {"none_pending": True}})

    def end_action(action: int) -> None:
        out.append({"m": {"move": "end"}, "want": {}})
        for row in closed_after.get((roll_no, action), []):
            colours.discard(grid.rows[row].lock_colour.value)  # its die leaves the game

    while i < len(events):
        event = events[i]
        if event[0] == "roll":
            if roll_no:  # the previous roll's action 2 ends
                end_action(2)
            roll_no, roll = roll_no + 1, event[1:]
            crossed_this_turn = False
            active = (roll_no - 1) % rec.players
            i += 1
            # Action 1: every seat, in order (not asked: no legal move).
            for seat in range(rec.players):
                if i < len(events) and events[i][0] == "ask" and events[i][3] == 1 and events[i][1] == seat:
                    _, _, _, _, moves, chosen = events[i]
                    i += 1
                else:
                    moves, chosen = [], None
                out.append({"look": seat, "want": {"legal": moves, "action": 1, "roll": roll, "seat": seat,
                                                   "lucky": list(rec.lucky[seat])}})
                probe(seat, 1, before=True)
                if chosen is not None:
                    kind, row, number = chosen
                    out.append({"m": page_move(kind, seat, row, number), "want": {}})
                    if seat == active:
                        crossed_this_turn = True
                    if i < len(events) and events[i][0] == "x" and events[i][1] == seat and kind != "bis":
                        i += 1  # the move's own cross
                    forced(seat)
                probe(seat, 1, before=False)
            end_action(1)
            if (roll_no, 1) in closed_after and len({r for r, ro, a in rec.closings
                                                     if (ro, a) <= (roll_no, 1)}) >= engine.ROWS_TO_END:
                break  # the game ends after action 1
            # Action 2: the active player.
            if i < len(events) and events[i][0] == "ask" and events[i][3] == 2:
                _, _, _, _, moves, chosen = events[i]
                i += 1
            else:
                moves, chosen = [], None
            out.append({"look": active, "want": {"legal": moves, "action": 2, "roll": roll, "seat": active,
                                                 "colours": sorted(colours), "penalty": not crossed_this_turn}})
            probe(active, 2, before=True)
            if chosen is not None:
                kind, row, number = chosen
                out.append({"m": page_move(kind, active, row, number), "want": {}})
                crossed_this_turn = True
                if i < len(events) and events[i][0] == "x" and events[i][1] == active and kind != "bis":
                    i += 1
                forced(active)
            probe(active, 2, before=False)
            if not crossed_this_turn:
                out.append({"m": {"move": "penalty", "player": active}, "want": {}})
        else:
            raise AssertionError(f"event out of place: {event}")
    else:
        if rec.end != "penalties" and roll_no:
            end_action(2)
    return out


# -- what the page answered ----------------------------------------------------------------


def page_offer(grid: Grid, want: dict, moves: dict) -> tuple[set, bool | None]:
    """The page's moves (``engine.moves``) that the decision's dice allow, as the simulator names them."""
    w1, w2, dice = want["roll"]
    found: set = set()
    if want["action"] == 1:
        total = w1 + w2

        def allowed(row: int, number: int) -> bool:
            return number == total
    else:
        colour_order = [c.value for c in engine.COLOURS]

        def allowed(row: int, number: int) -> bool:
            cell = next(c for c in grid.rows[row].cells if c.number == number)
            colour = cell.colour.value
            if colour not in want["colours"]:
                return False
            die = dice[colour_order.index(colour)]
            return number in (w1 + die, w2 + die)
    for cell in moves["cells"]:
        if allowed(cell["row"], cell["number"]):
            found.add(("cell", cell["row"], cell["number"]))
    for box in moves["bis"]:
        if allowed(box["row"], box["number"]):
            found.add(("bis", box["row"], box["number"]))
    if want["action"] == 1 and (w1 + w2) in want["lucky"]:
        found |= {("cell", m["row"], m["number"]) for m in moves["lucky"]}
    return found, moves["penalty"] if want["action"] == 2 else None


def compare(rec: Record, sent: list[dict], answer: dict) -> list[str]:
    """Every difference between the simulator's record and the page's answer
    (``answer["out"][k]`` for ``sent[k]``; ``over``; ``marks``), first first."""
    grid, problems = rec.grid, []
    for k, (op, got) in enumerate(zip(sent, answer["out"])):
        want, where = op["want"], f"op {k} {json.dumps(op.get('m', op.get('look')))}"
        if op.get("probe"):
            if got.get("probe") != want["refused"]:
                problems.append(f"{where}: the page must refuse it ({want['refused']}), "
                                f"{'refused it: ' + got['probe'] if got.get('probe') else 'it took it'}")
                break
            continue
        if got.get("refused"):
            problems.append(f"{where}: the page refused it ({got['refused']})")
            break
        if "legal" in want:
            mine = {tuple(m) if m[0] != "lucky" else ("cell",) + tuple(m[1:]) for m in want["legal"]}
            theirs, penalty = page_offer(grid, want, got["moves"])
            if mine != theirs:
                problems.append(f"{where}: legal moves differ: simulator {sorted(mine)}, page {sorted(theirs)}")
            if want["action"] == 2 and penalty != want["penalty"]:
                problems.append(f"{where}: penalty box offered {penalty}, simulator {want['penalty']}")
        if "head" in want:
            head = got.get("head")
            expected = want["head"]
            if head is None or head[:len(expected)] != expected:
                problems.append(f"{where}: forced {expected} next in the simulator, page has {head}")
            elif expected[0] == "choose" and head[1] != want["rows"]:
                problems.append(f"{where}: rows to choose: simulator {want['rows']}, page {head[1]}")
        if want.get("none_pending") and got.get("head") is not None:
            problems.append(f"{where}: the page still has {got['head']} pending; the simulator forced nothing more")
        if problems:
            break
    if len(answer["out"]) < len(sent) and not problems:
        problems.append(f"the page answered {len(answer['out'])} of {len(sent)} ops")
    over = (answer.get("over") or {}).get("reason")
    if not problems and over != END.get(rec.end):
        problems.append(f"game end: simulator {rec.end}, page {over}")
    page_closed = sorted(c["row"] for c in answer.get("closed", []))
    if not problems and page_closed != sorted(row for row, _, _ in rec.closings) and rec.end is not None:
        sim = sorted({row for row, _, _ in rec.closings})
        if page_closed != sim:
            problems.append(f"rows closed: simulator {sim}, page {page_closed}")
    if not problems:
        for seat, (mine, theirs) in enumerate(zip(rec.sheets, answer["marks"])):
            if normal(theirs) != mine:
                problems.append(f"player {seat + 1}'s final sheet: simulator {mine}, page {normal(theirs)}")
    return problems


# The page's side, run in the browser: arguments[0] is a list of games, each
# {players, ops}; returns per game {out, over, closed, marks}.
PAGE_RUNNER = """
const E = window.sheetgen.engine;
function head(sheet) {
  const item = sheet.pending[0];
  if (!item) return null;
  if (item.kind === "choose") {
    const open = sheet.crossed.map((c, r) => r).filter((r) => !sheet.closed[r] && !sheet.crossed[r].includes(window.sheetgen.grid.rows[r].cells.length - 1));
    const count = (r) => sheet.crossed[r].reduce((a, p) => a + (window.sheetgen.grid.rows[r].cells[p].double ? 2 : 1), 0) + sheet.bis[r].length;
    const fewest = Math.min(...open.map(count));
    return ["choose", open.filter((r) => count(r) === fewest)];
  }
  const p = sheet.crossed[item.row].length ? Math.max(...sheet.crossed[item.row]) + 1 : 0;
  return [item.kind, item.row, window.sheetgen.grid.rows[item.row].cells[p].number];
}
return arguments[0].map(({players, ops}) => {
  let game = E.newGame(players);
  const out = [];
  for (const op of ops) {
    const got = {};
    if (op.probe) {  // tried on a copy: the game goes on as it was
      try { E.play(game, op.m); got.probe = null; } catch (error) { if (error instanceof E.Refused) got.probe = error.reason; else throw error; }
      out.push(got);
      continue;
    }
    if (op.look !== undefined) { got.moves = E.moves(game, op.look); got.head = head(game.players[op.look]); }
    if (op.m) {
      if (op.m.player !== undefined) got.head = head(game.players[op.m.player]);
      try { game = E.play(game, op.m); } catch (error) { if (error instanceof E.Refused) got.refused = error.reason; else throw error; }
    }
    out.push(got);
    if (got.refused) break;
  }
  return {out, over: game.over, closed: game.closed, marks: game.players.map((sheet) => E.marks(sheet))};
});
"""
