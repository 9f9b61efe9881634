"""Many games of one grid: what they add up to, what looks wrong, the report.

``simulate(Setup(grid, games=10_000))`` plays the games (``game`` plays
each, ``strategies`` chooses the moves) and returns a ``Report``: scores,
winning scores and game lengths (mean, spread, percentiles), how games end,
how often each row closes and who closes it, penalties per seat, each row's
share of the points, how often each cell is crossed, and warnings for a grid
that plays badly.  ``report_text`` and ``report_json`` present it.

Determinism: game ``i`` of a run with seed ``s`` has three random streams
(dice, strategies' choices, lucky numbers), each seeded from ``(s, i, purpose)``
alone, and every tally is made of integers (sums, counts, histograms), which
add up exactly in any order; so a report depends on the seed, never on
``jobs`` or on how the games are split between processes.  Scores are points,
game lengths are rolls (one roll: both actions of one player's turn).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ..grid.model import Grid, row_name
from ..words import one_of, plural, signed
from .game import CROSSED, STRUCK, Game, GameResult, RandomDice, Rulebook, Sheet, rulebook
from .lucky import first_sets
from .strategies import DEFAULT_STRATEGY, STRATEGIES

MAX_PLAYERS = 8  # WIN_SHARES splits a win evenly between up to this many
CHUNK = 250  # games a worker plays per task; any size gives the same report
WIN_SHARES = 840  # a win shared by k tied players counts 840 / k: whole for every k up to 8

# Warnings: a grid "plays badly" when ...
RARE_CLOSING = 0.05  # ... a row closes in fewer than this share of games,
RARE_CELL = 0.02  # ... a cell is crossed on fewer than this share of sheets,
CLOSING_RATIO = 2.0  # ... a row closes this many times as often as another,
NOISE_Z = 3.0  # ... beyond this many standard errors of noise (for the ratio and the first seat).
MIN_SAMPLE = 100  # fewer games than this give no warnings: too few to tell

TYPICAL_GAMES = 500  # games behind the download pack's typical figures: medians to within about 2 points
TYPICAL_SEED = 1
TYPICAL_PLAYERS = 4

Progress = Callable[[int], None]  # told how many games were just played


@dataclass(frozen=True)
class Setup:
    """What a run plays: ``games`` games of ``players`` on ``grid``; seat ``k``
    plays ``strategies[k % len(strategies)]``."""

    grid: Grid
    games: int = 10_000
    players: int = 4
    strategies: tuple[str, ...] = (DEFAULT_STRATEGY,)
    seed: int = 1

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"games must be at least 1, got {self.games}")
        if not 1 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be 1 to {MAX_PLAYERS}, got {self.players}")
        unknown = [name for name in self.strategies if name not in STRATEGIES]
        if unknown or not self.strategies:
            name = unknown[0] if unknown else ""
            raise ValueError(f"unknown strategy {name!r} (expected {one_of(list(STRATEGIES))})")
        if len(self.strategies) > self.players:
            raise ValueError(f"{len(self.strategies)} strategies for {plural(self.players, 'player')}")

    @cached_property
    def seats(self) -> tuple[str, ...]:
        """The strategy of each seat; seat 0 rolls first (worked out once: every game reads it)."""
        return tuple([self.strategies[seat % len(self.strategies)] for seat in range(self.players)])


# A game's random streams, one per purpose: (seed, game index, purpose) -> its own seed.
DICE, CHOICES, LUCKY_NUMBERS = 0, 1, 2
PURPOSES = 4  # room for one more


def stream_seed(seed: int, index: int, purpose: int) -> int:
    """The seed of one purpose's stream in game ``index`` of a run seeded ``seed``:
    ``(seed * 2**32 + index) * 4 + purpose``.  Distinct for every (seed, index,
    purpose) with 0 <= index < 2**32, so no two streams of any runs share a seed
    (game 2k's lucky numbers and game k's dice used to, with seed 0)."""
    return ((seed << 32 | index) << 2) + purpose


def play_game(setup: Setup, index: int, rules: Rulebook | None = None) -> GameResult:
    """Game ``index`` of the run ``setup``: the same game whatever else is played.
    (``rules``: ``rulebook(setup.grid)``, passed by callers that play many games,
    since hashing a grid to find its cached rulebook costs more than a roll.)"""
    grid, seats, streams = setup.grid, setup.seats, stream_seed(setup.seed, index, 0)
    dice = RandomDice(grid.dice_faces, random.Random(streams + DICE))
    choices = random.Random(streams + CHOICES)  # the dice never depend on them
    lucky = first_sets(grid.lucky, streams + LUCKY_NUMBERS, len(seats))
    return Game(rules or rulebook(grid), [STRATEGIES[name].make(choices) for name in seats], dice, lucky).play()


def game_marks(setup: Setup, index: int = 0) -> list[dict]:
    """Every player's final sheet of one game, as marks documents (``marks_from_data``
    reads them; ``score_sheet`` must score them as ``result.scores`` says)."""
    from .game import marks_document

    result = play_game(setup, index)
    rules = rulebook(setup.grid)
    return [marks_document(rules, sheet, f"player {sheet.seat + 1}") for sheet in result.sheets]


# -- tallies -----------------------------------------------------------------------


@dataclass
class Tally:
    """Integer sums of many games; ``merge`` adds another run's exactly."""

    rows: int
    players: int
    powers: int
    cells_per_row: int  # the longest row's
    bar: int = 0  # boxes of the bonus bar
    games: int = 0
    scores: Counter = field(default_factory=Counter)  # total -> sheets
    winning: Counter = field(default_factory=Counter)  # winning total -> games
    rolls: Counter = field(default_factory=Counter)  # rolls -> games
    ends: Counter = field(default_factory=Counter)  # "locks" / "penalties" -> games
    seat_points: list[int] = field(default_factory=list)  # per seat: sum of totals
    seat_wins: list[int] = field(default_factory=list)  # per seat: wins in 1/WIN_SHARES
    penalties: list[Counter] = field(default_factory=list)  # per seat: penalties -> sheets
    row_closed: list[int] = field(default_factory=list)  # per row: games in which it closed
    row_close_roll: list[int] = field(default_factory=list)  # per row: sum of the rolls it closed on
    row_locks: list[list[int]] = field(default_factory=list)  # per row, per seat: locks crossed
    row_active_locks: list[int] = field(default_factory=list)  # per row: locks crossed by the active player
    row_points: list[int] = field(default_factory=list)  # per row: sum of its points over all sheets
    cells: list[list[int]] = field(default_factory=list)  # per row, per cell: sheets on which it was crossed
    boxes: list[list[int]] = field(default_factory=list)  # per row, per cell: sheets with its small box crossed
    unlocked: list[int] = field(default_factory=list)  # per power: sheets that unlocked it
    seat_squares: list[int] = field(default_factory=list)  # per seat: sum of squared totals (for intervals)
    rows_closed: Counter = field(default_factory=Counter)  # rows closed when the game ended -> games
    power_points: int = 0  # sum over sheets of the points powers brought
    bar_crossed: int = 0  # sum over sheets of bonus bar boxes crossed
    bar_struck: int = 0  # ... and struck (their bonus lost)
    bar_boxes: list[int] = field(default_factory=list)  # per bonus bar box: sheets on which it was crossed
    # Per feature (FEATURE_POINTS): the sum over sheets of what its crosses scored, and of its square.
    feature_points: Counter = field(default_factory=Counter)
    feature_squares: Counter = field(default_factory=Counter)
    lucky_crosses: int = 0  # sum over sheets of crosses made with a lucky number
    # (row, bit set of crossed cells or boxes) -> sheets, not yet counted into
    # cells and boxes: counting a row's bits per sheet would cost more than the game.
    _cell_sets: Counter = field(default_factory=Counter, compare=False, repr=False)
    _box_sets: Counter = field(default_factory=Counter, compare=False, repr=False)

    def __post_init__(self) -> None:
        r, p = self.rows, self.players
        self.seat_points = self.seat_points or [0] * p
        self.seat_wins = self.seat_wins or [0] * p
        self.seat_squares = self.seat_squares or [0] * p
        self.penalties = self.penalties or [Counter() for _ in range(p)]
        self.row_closed = self.row_closed or [0] * r
        self.row_close_roll = self.row_close_roll or [0] * r
        self.row_locks = self.row_locks or [[0] * p for _ in range(r)]
        self.row_active_locks = self.row_active_locks or [0] * r
        self.row_points = self.row_points or [0] * r
        self.cells = self.cells or [[0] * self.cells_per_row for _ in range(r)]
        self.boxes = self.boxes or [[0] * self.cells_per_row for _ in range(r)]
        self.unlocked = self.unlocked or [0] * self.powers
        self.bar_boxes = self.bar_boxes or [0] * self.bar

    @property
    def sheets(self) -> int:
        return self.games * self.players

    def add(self, result: GameResult, rules: Rulebook | None = None) -> None:
        """Count one game in (with ``rules``, its grid's rulebook, also what each feature's crosses scored)."""
        self.games += 1
        self.rolls[result.rolls] += 1
        self.ends[result.end] += 1
        totals = [s.total for s in result.scores]
        best = max(totals)
        self.winning[best] += 1
        winners = [seat for seat, total in enumerate(totals) if total == best]
        for seat in winners:
            self.seat_wins[seat] += WIN_SHARES // len(winners)
        for seat, (sheet, score) in enumerate(zip(result.sheets, result.scores)):
            self.scores[score.total] += 1
            self.seat_points[seat] += score.total
            self.seat_squares[seat] += score.total * score.total
            self.power_points += score.power_points
            self.lucky_crosses += sheet.lucky_crosses
            if sheet.bar:
                self.bar_crossed += sheet.bar.count(CROSSED)
                self.bar_struck += sheet.bar.count(STRUCK)
                for box, state in enumerate(sheet.bar):
                    if state == CROSSED:
                        self.bar_boxes[box] += 1
            self.penalties[seat][sheet.penalties] += 1
            for row, points in enumerate(score.rows):
                self.row_points[row] += points
                self._cell_sets[row, sheet.cells[row]] += 1
                if sheet.boxes[row]:
                    self._box_sets[row, sheet.boxes[row]] += 1
            for power in sheet.unlocked:
                self.unlocked[power] += 1
            if rules is not None:
                for feature, points in feature_points(rules, sheet):
                    self.feature_points[feature] += points
                    self.feature_squares[feature] += points * points
        closed: set[int] = set()
        self.rows_closed[len({closing.row for closing in result.closings})] += 1
        for closing in result.closings:
            self.row_locks[closing.row][closing.seat] += 1
            self.row_active_locks[closing.row] += closing.active
            if closing.row not in closed:
                closed.add(closing.row)
                self.row_closed[closing.row] += 1
                self.row_close_roll[closing.row] += closing.roll

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.power_points += other.power_points
        self.bar_crossed += other.bar_crossed
        self.bar_struck += other.bar_struck
        self.lucky_crosses += other.lucky_crosses
        for mine, theirs in ((self.scores, other.scores), (self.winning, other.winning), (self.rolls, other.rolls),
                             (self.ends, other.ends), (self.rows_closed, other.rows_closed),
                             (self.feature_points, other.feature_points),
                             (self.feature_squares, other.feature_squares)):
            mine.update(theirs)
        for mine_list, their_list in ((self.seat_points, other.seat_points), (self.seat_wins, other.seat_wins),
                                      (self.seat_squares, other.seat_squares),
                                      (self.row_closed, other.row_closed), (self.row_close_roll, other.row_close_roll),
                                      (self.row_active_locks, other.row_active_locks),
                                      (self.row_points, other.row_points), (self.unlocked, other.unlocked),
                                      (self.bar_boxes, other.bar_boxes)):
            for k, value in enumerate(their_list):
                mine_list[k] += value
        for mine_counter, their_counter in zip(self.penalties, other.penalties):
            mine_counter.update(their_counter)
        self._cell_sets.update(other._cell_sets)
        self._box_sets.update(other._box_sets)
        for mine_rows, their_rows in ((self.row_locks, other.row_locks), (self.cells, other.cells),
                                      (self.boxes, other.boxes)):
            for mine_row, their_row in zip(mine_rows, their_rows):
                for k, value in enumerate(their_row):
                    mine_row[k] += value

    def settle(self) -> Tally:
        """Count the bit sets gathered by ``add`` into ``cells`` and ``boxes``."""
        for sets, counts in ((self._cell_sets, self.cells), (self._box_sets, self.boxes)):
            for (row, bits), sheets in sets.items():
                index = 0
                while bits:
                    if bits & 1:
                        counts[row][index] += sheets
                    bits >>= 1
                    index += 1
            sets.clear()
        return self


# What a feature's crosses scored on a final sheet: the sheet's row points less
# the same rows' points without those crosses (the lock kept), everything else
# as it was.  A static measure: it does not replay the game without the feature.
FEATURE_POINTS = ("bar", "bis", "lucky", "doubles")


def feature_points(rules: Rulebook, sheet: Sheet) -> list[tuple[str, int]]:
    """Per feature the grid has (in ``FEATURE_POINTS`` order), the points its crosses scored on ``sheet``:
    bonus bar crosses, small boxes, lucky-number crosses, double cells' second cross."""
    found = []
    for feature, extra in (("bar", sheet.bonus_rows if rules.bar else None),
                           ("bis", [box.bit_count() for box in sheet.boxes] if rules.bis else None),
                           ("lucky", sheet.lucky_rows if rules.lucky else None),
                           ("doubles", [(cells & mask).bit_count() for cells, mask in zip(sheet.cells, rules.doubles)]
                            if any(rules.doubles) else None)):
        if extra is not None:
            points, crosses, locked = rules.points, sheet.crosses, sheet.locked
            found.append((feature, sum(points[crosses[r] + locked[r]]
                                       - points[max(0, crosses[r] - extra[r]) + locked[r]] for r in range(rules.rows))))
    return found


def empty_tally(setup: Setup) -> Tally:
    grid = setup.grid
    return Tally(rows=len(grid.rows), players=setup.players, powers=len(grid.powers),
                 cells_per_row=max(len(row.cells) for row in grid.rows), bar=len(grid.bonus_bar))


def play_games(setup: Setup, start: int, stop: int) -> Tally:
    """Games ``start`` to ``stop - 1`` of the run, tallied (one worker's task)."""
    tally, rules = empty_tally(setup), rulebook(setup.grid)
    for index in range(start, stop):
        tally.add(play_game(setup, index, rules), rules)
    return tally.settle()


def _play_chunk(task: tuple[Setup, int, int]) -> Tally:
    return play_games(*task)


def simulate(setup: Setup, jobs: int = 1, progress: Progress | None = None) -> Report:
    """Play every game of ``setup`` in ``jobs`` processes; the same report for any ``jobs``."""
    chunks = [(setup, start, min(start + CHUNK, setup.games)) for start in range(0, setup.games, CHUNK)]
    tally = empty_tally(setup)
    if jobs > 1 and len(chunks) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=min(jobs, len(chunks))) as pool:
            parts: Iterable[Tally] = pool.map(_play_chunk, chunks)
            _merge_all(tally, parts, progress)
    else:
        _merge_all(tally, map(_play_chunk, chunks), progress)
    return Report(setup, tally.settle())


def _merge_all(tally: Tally, parts: Iterable[Tally], progress: Progress | None) -> None:
    for part in parts:
        tally.merge(part)
        if progress:
            progress(part.games)


# -- figures -----------------------------------------------------------------------

Z95 = 1.959964  # standard errors either side of a mean for 95 % confidence


def mean_interval(n: int, total: float, squares: float) -> tuple[float, float]:
    """95 % confidence interval of a mean of ``n`` values, from their sum and sum of squares."""
    mean = total / n
    if n < 2:
        return mean, mean
    variance = max((squares - total * total / n) / (n - 1), 0.0)
    half = Z95 * math.sqrt(variance / n)
    return mean - half, mean + half


def share_interval(count: float, n: int) -> tuple[float, float]:
    """95 % confidence interval of a share ``count / n`` (Wilson's score interval:
    right near 0 and 1 too, where the normal one leaves [0, 1])."""
    if n == 0:
        return 0.0, 1.0
    share, z2 = count / n, Z95 * Z95
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)



@dataclass(frozen=True)
class Spread:
    """Mean, standard deviation (of a sample) and percentiles of a whole-number
    quantity, from ``n`` values.  The q-th percentile is the value at position
    q x (n - 1) of the sorted values, rounded down (so the median of an even
    number of values is the lower middle one)."""

    n: int
    mean: float
    sd: float
    low: int  # 10th percentile
    median: int
    high: int  # 90th percentile
    least: int
    most: int

    @property
    def ci95(self) -> tuple[float, float]:
        """The mean's 95 % confidence interval (normal: 1.96 standard errors)."""
        half = Z95 * self.sd / math.sqrt(self.n) if self.n > 1 else 0.0
        return self.mean - half, self.mean + half

    @classmethod
    def of(cls, histogram: Counter[int]) -> Spread:
        n = sum(histogram.values())
        total = sum(value * count for value, count in histogram.items())
        squares = sum(value * value * count for value, count in histogram.items())
        mean = total / n
        variance = (squares - total * total / n) / (n - 1) if n > 1 else 0.0
        values = sorted(histogram)

        def percentile(share: float) -> int:
            rank, seen = share * (n - 1), 0
            for value in values:
                seen += histogram[value]
                if seen > rank:
                    return value
            return values[-1]

        return cls(n, mean, math.sqrt(max(variance, 0.0)), percentile(0.1), percentile(0.5), percentile(0.9),
                   values[0], values[-1])


@dataclass(frozen=True)
class Report:
    setup: Setup
    tally: Tally

    @property
    def scores(self) -> Spread:
        return Spread.of(self.tally.scores)

    @property
    def winning(self) -> Spread:
        return Spread.of(self.tally.winning)

    @property
    def rolls(self) -> Spread:
        return Spread.of(self.tally.rolls)

    def close_rate(self, row: int) -> float:
        return self.tally.row_closed[row] / self.tally.games

    def cell_rates(self) -> dict[tuple[int, int], float]:
        """(row, cell index) -> share of sheets on which the cell was crossed: the heat map."""
        sheets = self.tally.sheets
        return {
            (r, i): count / sheets
            for r, row in enumerate(self.setup.grid.rows)
            for i, count in enumerate(self.tally.cells[r][: len(row.cells)])
        }

    def win_share(self, seat: int) -> float:
        return self.tally.seat_wins[seat] / WIN_SHARES / self.tally.games

    def seat_score_ci(self, seat: int) -> tuple[float, float]:
        tally = self.tally
        return mean_interval(tally.games, tally.seat_points[seat], tally.seat_squares[seat])

    def win_share_ci(self, seat: int) -> tuple[float, float]:
        return share_interval(self.tally.seat_wins[seat] / WIN_SHARES, self.tally.games)

    def features(self) -> dict[str, float]:
        """Per sheet, what each of the grid's features brought: points from
        powers, bonus bar crosses (and boxes struck, their bonus lost), small
        boxes crossed, lucky-number crosses, double cells crossed."""
        tally, grid, sheets = self.tally, self.setup.grid, self.tally.sheets
        found: dict[str, float] = {}
        if grid.powers:
            found["power_points"] = tally.power_points / sheets
        if grid.bonus_bar:
            found["bar_crosses"] = tally.bar_crossed / sheets
            found["bar_struck"] = tally.bar_struck / sheets
        if grid.bis:
            found["bis_boxes"] = sum(map(sum, tally.boxes)) / sheets
        if grid.lucky is not None:
            found["lucky_crosses"] = tally.lucky_crosses / sheets
        doubles = sum(count for r, row in enumerate(grid.rows) for cell, count in zip(row.cells, tally.cells[r])
                      if cell.weight == 2)
        if any(cell.weight == 2 for row in grid.rows for cell in row.cells):
            found["double_cells"] = doubles / sheets
        return found

    def feature_points(self) -> dict[str, tuple[float, tuple[float, float]]]:
        """Per feature the grid has (bar, bis, lucky, doubles): the mean points per
        sheet its crosses scored (``feature_points``) and that mean's 95 % interval."""
        tally, sheets = self.tally, self.tally.sheets
        return {feature: (tally.feature_points[feature] / sheets,
                          mean_interval(sheets, tally.feature_points[feature], tally.feature_squares[feature]))
                for feature in FEATURE_POINTS if feature in tally.feature_squares}

    def warnings(self) -> list[str]:
        return _warnings(self)


def _warnings(report: Report) -> list[str]:
    """What a grid designer should look at, each with the sample behind it."""
    tally, grid, setup = report.tally, report.setup.grid, report.setup
    games = tally.games
    if games < MIN_SAMPLE:
        return []
    found = []
    rates = [report.close_rate(r) for r in range(len(grid.rows))]
    for row, rate in enumerate(rates):
        if rate < RARE_CLOSING:
            found.append(f"{row_name(grid, row)} almost never closes: in {_percent(rate)} of {games:,} games")
    most, least = max(range(len(rates)), key=rates.__getitem__), min(range(len(rates)), key=rates.__getitem__)
    high, low = rates[most], rates[least]
    if low > 0 and high >= CLOSING_RATIO * low and _beyond_noise(high, low, games):
        found.append(f"{row_name(grid, most)} closes {high / low:.1f} times as often as {row_name(grid, least)}"
                     f" ({_percent(high)} against {_percent(low)} of {games:,} games)")
    rare = [(r, i, share) for (r, i), share in report.cell_rates().items() if share < RARE_CELL]
    if rare:
        cells = ", ".join(f"{row_name(grid, r)} {grid.rows[r].cells[i].number} ({_percent(share)})"
                          for r, i, share in rare)
        found.append(f"{plural(len(rare), 'cell is', 'cells are')} almost never crossed, of {tally.sheets:,} sheets:"
                     f" {cells}")
    if setup.players > 1 and len(set(setup.seats)) == 1:
        share, fair = report.win_share(0), 1 / setup.players
        error = math.sqrt(fair * (1 - fair) / games)
        if abs(share - fair) > NOISE_Z * error:
            found.append(f"the first player wins {_percent(share)} of {games:,} games, against {_percent(fair)} for"
                         f" a fair seat (noise: ±{_percent(NOISE_Z * error)})")
    return found


def _beyond_noise(high: float, low: float, n: int) -> bool:
    error = math.sqrt(high * (1 - high) / n + low * (1 - low) / n)
    return high - low > NOISE_Z * error


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


# -- presenting a report ----------------------------------------------------------


def report_json(report: Report) -> dict:
    """Every figure of the report as plain data, with the sample size behind it."""
    tally, setup, grid = report.tally, report.setup, report.setup.grid
    games, sheets = tally.games, tally.sheets
    rows = []
    for r, row in enumerate(grid.rows):
        closed = tally.row_closed[r]
        locks = sum(tally.row_locks[r])
        rows.append({
            "row": row_name(grid, r),
            "closed_games": closed,
            "closed_share": closed / games,
            "mean_closing_roll": tally.row_close_roll[r] / closed if closed else None,
            "locks": locks,
            "locks_by_seat": tally.row_locks[r],
            "locks_by_active_player": tally.row_active_locks[r],
            "points_share": tally.row_points[r] / max(1, sum(tally.row_points)),
            "mean_points": tally.row_points[r] / sheets,
            "cells_crossed_share": {str(cell.number): count / sheets
                                    for cell, count in zip(row.cells, tally.cells[r])},
        })
        if grid.bis:
            rows[-1]["boxes_crossed_share"] = {str(cell.number): count / sheets
                                               for cell, count in zip(row.cells[:-1], tally.boxes[r])}
    return {
        "grid": grid.name,
        "games": games,
        "players": setup.players,
        "strategies": list(setup.seats),
        "seed": setup.seed,
        "sheets": sheets,
        "score": _spread_json(report.scores),
        "winning_score": _spread_json(report.winning),
        "rolls": _spread_json(report.rolls),
        "ends": {end: {"games": count, "share": count / games, "share_ci95": list(share_interval(count, games))}
                 for end, count in sorted(tally.ends.items())},
        "rows_closed_at_end": {str(k): {"games": count, "share": count / games}
                               for k, count in sorted(tally.rows_closed.items())},
        "features": report.features(),
        "feature_points": {feature: {"mean": mean, "mean_ci95": list(ci)}
                           for feature, (mean, ci) in report.feature_points().items()},
        "rows": rows,
        "seats": [
            {
                "seat": seat + 1,
                "strategy": name,
                "mean_score": tally.seat_points[seat] / games,
                "mean_score_ci95": list(report.seat_score_ci(seat)),
                "win_share": report.win_share(seat),
                "win_share_ci95": list(report.win_share_ci(seat)),
                "mean_penalties": _mean(tally.penalties[seat]),
                "penalties": {str(k): v for k, v in sorted(tally.penalties[seat].items())},
            }
            for seat, name in enumerate(setup.seats)
        ],
        "powers": [
            {"symbol": power.symbol.value, "effect": power.effect.value, "unlocked_sheets": count,
             "unlocked_share": count / sheets}
            for power, count in zip(grid.powers, tally.unlocked)
        ],
        "warnings": report.warnings(),
    }


def _spread_json(spread: Spread) -> dict:
    return {"n": spread.n, "mean": spread.mean, "mean_ci95": list(spread.ci95), "sd": spread.sd, "p10": spread.low,
            "median": spread.median,
            "p90": spread.high, "min": spread.least, "max": spread.most}


def _mean(histogram: Counter[int]) -> float:
    return sum(k * v for k, v in histogram.items()) / sum(histogram.values())


def report_text(report: Report) -> str:
    """The report as a page of plain text."""
    tally, setup, grid = report.tally, report.setup, report.setup.grid
    games, sheets = tally.games, tally.sheets
    seats = Counter(setup.seats)
    who = ", ".join(f"{name} x{count}" for name, count in seats.items())
    lines = [
        f"{grid.title} ({grid.name}): {plural(games, 'game')} of {plural(setup.players, 'player')} ({who}),"
        f" seed {setup.seed}",
        "",
        _table(
            ("", "n", "mean", "± (95%)", "sd", "p10", "median", "p90"),
            [(label, f"{spread.n:,}", signed(f"{spread.mean:.1f}"), f"{(spread.ci95[1] - spread.ci95[0]) / 2:.1f}",
              f"{spread.sd:.1f}", signed(spread.low), signed(spread.median), signed(spread.high))
             for label, spread in (("score per sheet", report.scores), ("winning score", report.winning),
                                   ("game length (rolls)", report.rolls))],
        ),
        "",
        f"How games end ({games:,} games): "
        + ", ".join(f"{_END_NAMES.get(end, end)} {_percent(count / games)}"
                    for end, count in sorted(tally.ends.items())),
        "Rows closed at the end: " + ", ".join(f"{k} in {_percent(count / games)}"
                                                for k, count in sorted(tally.rows_closed.items())),
        "",
        f"Rows ({games:,} games, {sheets:,} sheets):",
        _table(
            ("row", "closes in", "mean roll", "locks", "by active", "points share", "mean points"),
            [
                (row_name(grid, r), _percent(report.close_rate(r)),
                 f"{tally.row_close_roll[r] / tally.row_closed[r]:.1f}" if tally.row_closed[r] else "-",
                 f"{sum(tally.row_locks[r]):,}",
                 _percent(tally.row_active_locks[r] / sum(tally.row_locks[r])) if sum(tally.row_locks[r]) else "-",
                 _percent(tally.row_points[r] / max(1, sum(tally.row_points))),
                 f"{tally.row_points[r] / sheets:.1f}")
                for r in range(len(grid.rows))
            ],
        ),
        "",
        f"Seats ({games:,} games each):",
        _table(
            ("seat", "strategy", "mean score", "95% interval", "wins", "95% interval", "penalties", "locks"),
            [
                (str(seat + 1), name, signed(f"{tally.seat_points[seat] / games:.1f}"),
                 _interval(report.seat_score_ci(seat)),
                 _percent(report.win_share(seat)), _share_range(report.win_share_ci(seat)),
                 f"{_mean(tally.penalties[seat]):.2f}", f"{sum(locks[seat] for locks in tally.row_locks):,}")
                for seat, name in enumerate(setup.seats)
            ],
        ),
    ]
    features = report.features()
    if features:
        lines += ["", "Features, per sheet: " + ", ".join(f"{_FEATURE_NAMES[key]} {value:.2f}"
                                                         for key, value in features.items())]
    valued = report.feature_points()
    if valued:
        lines += ["Points per sheet from each feature's crosses (the final sheet scored with and without them): "
                  + ", ".join(f"{_FEATURE_POINT_NAMES[feature]} {mean:.1f} ({_interval(ci)})"
                              for feature, (mean, ci) in valued.items())]
    if grid.powers:
        lines += [f"Powers unlocked ({sheets:,} sheets): " + ", ".join(
            f"{power.symbol.value} {_percent(count / sheets)}" for power, count in zip(grid.powers, tally.unlocked))]
    found = report.warnings()
    lines += ["", "Warnings:" if found else "Warnings: none (thresholds: sheetgen help simulate)"]
    lines += [f"  - {warning}" for warning in found]
    return "\n".join(lines) + "\n"


_FEATURE_POINT_NAMES = {"bar": "bonus bar", "bis": "small boxes", "lucky": "lucky numbers", "doubles": "double cells"}
_FEATURE_NAMES = {"power_points": "points from powers", "bar_crosses": "bonus bar crosses",
                  "bar_struck": "bar boxes struck", "bis_boxes": "small boxes", "lucky_crosses": "lucky crosses",
                  "double_cells": "double cells"}


def _interval(bounds: tuple[float, float]) -> str:
    return f"{signed(f'{bounds[0]:.1f}')} to {signed(f'{bounds[1]:.1f}')}"


def _share_range(bounds: tuple[float, float]) -> str:
    return f"{100 * bounds[0]:.1f} to {100 * bounds[1]:.1f}%"


_END_NAMES = {"locks": "a second row closed", "penalties": "a last penalty box crossed"}


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The first column left-aligned, the others right-aligned, indented by two spaces."""
    lines = [tuple(head), *map(tuple, rows)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    return "\n".join(
        "  " + "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
        .rstrip()
        for line in lines
    )


# -- comparing grids -------------------------------------------------------------------

BALANCE_HEAD = ("grid", "mean score", "winning score", "rolls", "ends on penalties", "rows close", "first seat wins",
                "warnings")


def balance_row(report: Report) -> tuple[str, ...]:
    """One grid's line of a table comparing grids (``BALANCE_HEAD`` names the
    columns): mean score per sheet, median winning score, median game length,
    share of games ended by a last penalty box, the least and most often closed
    rows' shares of games, the first seat's share of wins, how many warnings."""
    tally = report.tally
    rates = [report.close_rate(r) for r in range(len(report.setup.grid.rows))]
    return (
        report.setup.grid.name,
        f"{report.scores.mean:.1f}",
        str(report.winning.median),
        str(report.rolls.median),
        _percent(tally.ends["penalties"] / tally.games),
        f"{_percent(min(rates))} to {_percent(max(rates))}",
        _percent(report.win_share(0)),
        str(len(report.warnings())),
    )


def markdown_table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A Markdown table, numbers right-aligned (every column but the first)."""
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# -- side by side --------------------------------------------------------------------


def run_label(report: Report) -> str:
    """A run's name in a comparison: its grid and its seats' strategies."""
    seats = Counter(report.setup.seats)
    return f"{report.setup.grid.name} ({', '.join(f'{name} x{count}' for name, count in seats.items())})"


@dataclass(frozen=True)
class Difference:
    """B's figure minus A's, with the difference's standard error; significant
    when it lies beyond 1.96 standard errors (95 %)."""

    figure: str
    a: float
    b: float
    error: float

    @property
    def difference(self) -> float:
        return self.b - self.a

    @property
    def z(self) -> float:
        return self.difference / self.error if self.error else math.inf * (self.difference != 0)

    @property
    def significant(self) -> bool:
        return abs(self.z) > Z95


def differences(a: Report, b: Report) -> list[Difference]:
    """Run B against run A: mean score, mean winning score, mean game length
    (independent samples: the errors add in squares), share of games ended by
    penalties and the first seat's share of wins (two proportions)."""
    found = []
    for figure, sa, sb in (("mean score", a.scores, b.scores), ("mean winning score", a.winning, b.winning),
                           ("mean game length", a.rolls, b.rolls)):
        found.append(Difference(figure, sa.mean, sb.mean, math.hypot(sa.sd / math.sqrt(sa.n), sb.sd / math.sqrt(sb.n))))
    for figure, pa, pb in (("ends on penalties", a.tally.ends["penalties"] / a.tally.games,
                            b.tally.ends["penalties"] / b.tally.games),
                           ("first seat wins", a.win_share(0), b.win_share(0))):
        found.append(Difference(figure, pa, pb, math.sqrt(pa * (1 - pa) / a.tally.games
                                                          + pb * (1 - pb) / b.tally.games)))
    return found


COMPARE_HEAD = ("run", "mean score", "winning score", "rolls", "ends on penalties", "first seat wins")


def compare_text(reports: Sequence[Report]) -> str:
    """Runs side by side, every mean and share with its 95 % interval; for two
    runs, the second against the first and whether each difference is more
    than noise."""
    rows = []
    for report in reports:
        tally = report.tally
        penalties = tally.ends["penalties"]
        rows.append((run_label(report), _mean_pm(report.scores), _mean_pm(report.winning), _mean_pm(report.rolls),
                     _share_pm(penalties, tally.games), _share_pm(tally.seat_wins[0] / WIN_SHARES, tally.games)))
    games = ", ".join(sorted({f"{report.tally.games:,}" for report in reports}))
    lines = [f"{len(reports)} runs of {games} games, seed {reports[0].setup.seed}; ± is a 95% interval", "",
             _table(COMPARE_HEAD, rows)]
    if len(reports) == 2:
        lines += ["", f"{run_label(reports[1])} against {run_label(reports[0])} (shares in percentage points):",
                  _table(("", "difference", "± (95%)", "z", ""), [
                      (d.figure, signed(_signed(d)), f"{_scaled(d, Z95 * d.error)}", signed(f"{d.z:.1f}"),
                       "significant" if d.significant else "within noise")
                      for d in differences(*reports)])]
    return "\n".join(lines) + "\n"


def compare_json(reports: Sequence[Report]) -> dict:
    """Every run's report, and for two runs the differences (B minus A)."""
    data: dict = {"runs": [report_json(report) for report in reports]}
    if len(reports) == 2:
        data["differences"] = [
            {"figure": d.figure, "a": d.a, "b": d.b, "difference": d.difference, "standard_error": d.error,
             "ci95": [d.difference - Z95 * d.error, d.difference + Z95 * d.error], "z": d.z,
             "significant": d.significant}
            for d in differences(*reports)
        ]
    return data


def _mean_pm(spread: Spread) -> str:
    return f"{signed(f'{spread.mean:.1f}')} ± {(spread.ci95[1] - spread.ci95[0]) / 2:.1f}"


def _share_pm(count: float, n: int) -> str:
    low, high = share_interval(count, n)
    return f"{_percent(count / n)} ({100 * low:.1f} to {100 * high:.1f})"


def _is_share(d: Difference) -> bool:
    return d.figure in ("ends on penalties", "first seat wins")


def _scaled(d: Difference, value: float) -> str:
    return f"{100 * value:.1f}%" if _is_share(d) else f"{value:.1f}"


def _signed(d: Difference) -> str:
    return f"{100 * d.difference:+.1f}%" if _is_share(d) else f"{d.difference:+.1f}"


# -- for the download pack ----------------------------------------------------------


@dataclass(frozen=True)
class Typical:
    """A grid's typical game, from a fixed-seed run: for people choosing a grid."""

    winning_score: int  # median
    rolls: int  # median game length
    games: int
    players: int
    strategy: str


def typical_game(grid: Grid, jobs: int = 1) -> Typical:
    """The median winning score and game length of ``TYPICAL_GAMES`` games of
    ``TYPICAL_PLAYERS`` default players, seed ``TYPICAL_SEED`` (about 0.2 s
    on one core); the same figures for any ``jobs``."""
    report = simulate(Setup(grid, games=TYPICAL_GAMES, players=TYPICAL_PLAYERS, seed=TYPICAL_SEED), jobs=jobs)
    return Typical(report.winning.median, report.rolls.median, TYPICAL_GAMES, TYPICAL_PLAYERS, DEFAULT_STRATEGY)
