"""A seeded family of custom grids, as the grid format allows: 2 to 4 rows,
4- to 10-sided dice, rows of 5 to 19 cells, thresholds 3 to 8, 1 to 6
penalty boxes, with and without doubles, Bis boxes, bonus bars, lucky numbers
and powers.  ``family(n)`` gives the first ``n`` that load (the loader's own
checks decide what a grid may be)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from sheetgen.errors import SheetgenError
from sheetgen.grid.load import grid_from_data
from sheetgen.grid.model import Grid

COLOURS = ["red", "yellow", "green", "blue"]
SYMBOLS = ["circle", "diamond", "square", "octagon", "star"]
EFFECTS = [{"effect": "extra_crosses", "crosses": 2}, {"effect": "cross_each_open_row"},
           {"effect": "double_lowest_row"}, {"effect": "bonus_points", "points": 13}, {"effect": "no_penalties"}]


def a_grid(rng: random.Random, index: int) -> dict:
    faces = rng.randint(4, 10)
    numbers = list(range(2, 2 * faces + 1))
    rows = []
    for r in range(rng.randint(2, 4)):
        count = rng.randint(min(5, len(numbers)), min(19, len(numbers)))
        start = rng.randint(0, len(numbers) - count)
        cells = numbers[start:start + count]
        rows.append({"colour": COLOURS[r], "cells": cells if r % 2 == 0 else cells[::-1]})
    data: dict = {"name": f"family-{index}", "title": f"Family {index}", "dice_faces": faces,
                  "close_after": rng.randint(3, 8),
                  "penalties": {"boxes": rng.randint(1, 6), "points": rng.choice([3, 5, 10])}, "rows": rows}
    feature = rng.choice(["plain", "doubles", "bis", "bonus", "lucky", "powers"])
    if feature == "doubles":
        for row in rows:
            row["double"] = rng.sample(row["cells"][:-1], k=min(2, len(row["cells"]) - 1))
    elif feature == "bis":
        data["bis"] = True
    elif feature == "bonus":
        for row in rows:
            row["framed"] = rng.sample(row["cells"][:-1], k=2)
        data["bonus_bar"] = [rng.choice(COLOURS[:len(rows)]) for _ in range(rng.randint(4, 12))]
    elif feature == "lucky":
        data["lucky"] = {"count": rng.randint(1, 3), "from": 2, "to": 2 * faces}
    elif feature == "powers":
        chosen = rng.sample(range(5), k=rng.randint(1, min(5, len(rows))))
        data["powers"] = {SYMBOLS[i]: EFFECTS[i] for i in chosen}
        for i in chosen:  # each symbol on two cells of different rows
            for row in rng.sample(rows, k=2):
                free = [n for n in row["cells"][:-1] if n not in row.get("symbols", {})]
                row.setdefault("symbols", {})[rng.choice(free)] = SYMBOLS[i]
    return data


def family(count: int, seed: int = 21) -> Iterator[tuple[dict, Grid]]:
    rng = random.Random(seed)
    made = tried = 0
    while made < count:
        data = a_grid(rng, tried)
        tried += 1
        try:
            grid = grid_from_data(data, f"family-{tried}.yaml")
        except SheetgenError:
            continue
        made += 1
        yield data, grid
