"""Random legal sheets: one player's sheet played through a random game by the
rules, written here from the rules alone (never from the scorer), with the
score it must get.

The other players are not played; what they can do to this sheet is: close a
row (at most one before the game's last action; the game ends when a second
closes) and end the game (their 4th penalty).  Dice are not rolled either:
a cross goes to any cell a roll could give (any cell right of the row's last
cross, the last cell once the threshold is met), which covers every roll.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from sheetgen.grid.model import Effect, Grid, Symbol, row_points


@dataclass
class Play:
    """The state of one player's sheet during a game."""

    grid: Grid
    rng: random.Random
    crossed: list[list[int]] = field(default_factory=list)  # positions, in the order crossed
    bis: list[set[int]] = field(default_factory=list)  # positions whose small box is crossed
    closed: list[bool] = field(default_factory=list)  # closed for this player, by anyone
    locked: list[bool] = field(default_factory=list)  # closed by this player
    bar: set[int] = field(default_factory=set)  # crossed bar boxes, 1 = leftmost
    struck: set = field(default_factory=set)  # colours whose bar boxes are struck
    unlocked: list[Symbol] = field(default_factory=list)
    penalties: int = 0
    rows_closed: int = 0  # in the whole game

    def __post_init__(self):
        n = len(self.grid.rows)
        self.crossed, self.bis = [[] for _ in range(n)], [set() for _ in range(n)]
        self.closed, self.locked = [False] * n, [False] * n

    # -- the rules -------------------------------------------------------------
    def count(self, r: int) -> int:
        cells = self.grid.rows[r].cells
        return sum(cells[p].weight for p in self.crossed[r]) + len(self.bis[r])

    def rightmost(self, r: int) -> int:
        return self.crossed[r][-1] if self.crossed[r] else -1

    def legal(self, r: int, p: int) -> bool:
        last = len(self.grid.rows[r].cells) - 1
        return not self.closed[r] and self.rightmost(r) < p <= last and (p < last or self.count(r) >= self.grid.close_after)

    def cross(self, r: int, p: int) -> None:
        """Cross cell ``p`` of row ``r`` and everything it forces at once."""
        row = self.grid.rows[r]
        self.crossed[r].append(p)
        if p == len(row.cells) - 1:  # the lock; the row closes for this player at once
            self.locked[r] = True
            self.close(r)
        cell = row.cells[p]
        if cell.framed:
            self.take_box()
        if cell.symbol and cell.symbol not in self.unlocked and all(
            c in self.crossed[rr] for rr, c in self.grid.symbol_cells(cell.symbol)
        ):
            self.unlocked.append(cell.symbol)
            self.power(next(pw for pw in self.grid.powers if pw.symbol is cell.symbol))

    def close(self, r: int) -> None:
        self.closed[r] = True
        self.rows_closed += 1
        self.struck.add(self.grid.rows[r].lock_colour)

    def take_box(self) -> None:
        free = [b for b, colour in enumerate(self.grid.bonus_bar, 1) if b not in self.bar and colour not in self.struck]
        if free:
            self.bar.add(free[0])
            self.forced(self.grid.row_of_colour(self.grid.bonus_bar[free[0] - 1]))

    def forced(self, r: int) -> None:
        """A compulsory cross: the first free cell right of the last cross, if legal; else lost."""
        if self.legal(r, self.rightmost(r) + 1):
            self.cross(r, self.rightmost(r) + 1)

    def power(self, power) -> None:
        rows = range(len(self.grid.rows))
        if power.effect is Effect.EXTRA_CROSSES:
            open_rows = [r for r in rows if not self.closed[r]]
            if open_rows:
                fewest = min(self.count(r) for r in open_rows)
                target = self.rng.choice([r for r in open_rows if self.count(r) == fewest])
                for _ in range(power.amount):
                    self.forced(target)
        elif power.effect is Effect.CROSS_EACH_OPEN_ROW:
            for r in rows:
                if not self.closed[r]:
                    self.forced(r)

    # -- one action --------------------------------------------------------------
    def act(self) -> bool:
        """One action: a cell, a small box or nothing; whether something was crossed."""
        choice = self.rng.random()
        if choice < 0.15:
            return False
        if self.grid.bis and choice < 0.3:
            open_boxes = [r for r in range(len(self.grid.rows)) if not self.closed[r] and self.crossed[r]
                          and self.rightmost(r) not in self.bis[r]]
            if open_boxes:
                r = self.rng.choice(open_boxes)
                self.bis[r].add(self.rightmost(r))
                return True
        options = [(r, p) for r in range(len(self.grid.rows)) for p in range(self.rightmost(r) + 1, self.rightmost(r) + 4)
                   if self.legal(r, p)]
        if not options:
            return False
        self.cross(*self.rng.choice(options))
        return True


def play(grid: Grid, seed: int) -> Play:
    """One player's sheet at the end of a random legal game."""
    rng = random.Random(seed)
    sheet = Play(grid, rng)
    players = rng.randint(2, 5)
    while True:
        if sheet.rows_closed < 2 and rng.random() < 0.03:  # another player closes a row
            r = rng.randrange(len(grid.rows))
            if not sheet.closed[r]:
                sheet.close(r)
        if sheet.rows_closed >= 2 or rng.random() < 0.01:  # ... or crosses a 4th penalty
            return sheet
        active = rng.random() < 1 / players
        crossed = False
        for _ in range(2 if active else 1):
            crossed = sheet.act() or crossed
            if sheet.rows_closed >= 2:  # the game ends at once, no action 2, no penalty
                return sheet
        if active and not crossed:
            sheet.penalties += 1
            if sheet.penalties == grid.penalty_boxes:
                return sheet


def marks_document(sheet: Play) -> dict:
    """The sheet as a marks file writes it, numbers in a shuffled order."""
    rows = []
    for r, row in enumerate(sheet.grid.rows):
        numbers = [row.cells[p].number for p in sheet.crossed[r]]
        sheet.rng.shuffle(numbers)
        entry: dict = {"crossed": numbers}
        if sheet.bis[r]:
            entry["bis"] = [row.cells[p].number for p in sorted(sheet.bis[r])]
        if sheet.locked[r] and sheet.rng.random() < 0.5:
            entry["lock"] = True
        rows.append(entry)
    document: dict = {"rows": rows, "penalties": sheet.penalties}
    if sheet.bar:
        document["bonus_bar"] = sorted(sheet.bar)
    return document


def crosses(sheet: Play, r: int) -> int:
    """The row's crosses on the paper: cells, small boxes and the lock."""
    return sheet.count(r) + sheet.locked[r]


def expected_total(sheet: Play) -> int:
    grid = sheet.grid
    points = [row_points(min(crosses(sheet, r), grid.max_crosses)) for r in range(len(grid.rows))]
    total = sum(points) - grid.penalty_points * sheet.penalties
    applied = set()
    for power in grid.powers:
        if power.symbol not in sheet.unlocked:
            continue
        if power.effect is Effect.BONUS_POINTS:
            total += power.amount
        elif power.effect is Effect.DOUBLE_LOWEST_ROW and power.effect not in applied:
            total += min(points)
        elif power.effect is Effect.NO_PENALTIES and power.effect not in applied:
            total += grid.penalty_points * sheet.penalties
        applied.add(power.effect)
    return total
