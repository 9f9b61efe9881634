"""The ``best`` strategy: near the solo optimum on classic, and stronger than
``careful`` at a table on every built-in grid, by margins luck cannot make."""

from __future__ import annotations

import math
import random

import pytest

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.play.game import CELL, Game, hand_dice, rulebook
from sheetgen.play.simulate import Setup, play_game
from sheetgen.play.strategies import STRATEGIES

Z = 4.0  # a margin of this many standard errors: luck makes one in about 30,000 such runs


def test_solo_classic_averages_at_least_105():
    # The optimal solo strategy averages about 115.5; careful 80, greedy 46.
    setup = Setup(load_grid("classic"), games=1000, players=1, strategies=("best",), seed=1)
    rules = rulebook(setup.grid)
    mean = sum(play_game(setup, index, rules).scores[0].total for index in range(setup.games)) / setup.games
    assert mean >= 105, mean


def head_to_head(name: str, players: int, games: int) -> tuple[float, float, float]:
    """``best`` in one seat (every seat in turn), careful in the others: best's
    share of the wins, and the mean of best's points minus the careful players'
    mean in the same game, with that mean's standard error."""
    grid = load_grid(name)
    rules = rulebook(grid)
    wins, differences = 0.0, []
    for index in range(games):
        seat = index % players
        seats = tuple("best" if k == seat else "careful" for k in range(players))
        totals = [s.total for s in play_game(Setup(grid, players=players, strategies=seats, seed=4), index,
                                             rules).scores]
        top = max(totals)
        if totals[seat] == top:
            wins += 1 / totals.count(top)
        others = (sum(totals) - totals[seat]) / (players - 1)
        differences.append(totals[seat] - others)
    mean = sum(differences) / games
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (games - 1))
    return wins / games, mean, sd / math.sqrt(games)


def assert_best_wins(name: str, players: int, games: int) -> None:
    share, difference, error = head_to_head(name, players, games)
    fair = 1 / players
    # Were best no stronger than careful, its seat would win a fair share of the
    # games (a binomial count) and score as much: both margins are Z standard errors.
    assert share > fair + Z * math.sqrt(fair * (1 - fair) / games), (name, players, share)
    assert difference > Z * error, (name, players, difference, error)


def test_best_beats_careful_two_players_classic():
    assert_best_wins("classic", 2, 200)


@pytest.mark.slow
@pytest.mark.parametrize("name", builtin_names())
def test_best_beats_careful_on_every_grid_at_two_to_five_players(name):
    for players in range(2, 6):
        assert_best_wins(name, players, 100 * players)


def _choose(moves, dice, *, crosses=(0, 0, 0, 0), next_cells=(0, 0, 0, 0), action=1, players=1):
    rules = rulebook(load_grid("classic"))
    game = Game(rules, [STRATEGIES["best"].make(random.Random(1))] * players, hand_dice([]))
    sheet, table = game.sheets[0], game.table
    sheet.crosses[:], sheet.next[:] = list(crosses), list(next_cells)
    table.white, table.dice, table.action = dice[:2], dice[2], action
    return STRATEGIES["best"].make(random.Random(1))(list(moves), sheet, table)


def test_best_takes_a_cell_that_loses_nothing_over_one_that_skips():
    # White 2 + 3 = 5: red 5 (index 3, skipping 2, 3, 4) or yellow 5 (index 7 of 12..2: skipping 7 cells).
    assert _choose([(CELL, 0, 3), (CELL, 1, 7)], (2, 3, (1, 1, 1, 1)), next_cells=(3, 0, 0, 0)) == (CELL, 0, 3)


def test_the_rolling_player_plans_both_actions():
    # White 1 + 1 = 2 in red (index 0) or, passing it, nothing; the coloured
    # dice then give red 1 + 2 = 3 (index 1): taking the 2 first keeps both.
    move = _choose([(CELL, 0, 0)], (1, 1, (2, 6, 6, 6)))
    assert move == (CELL, 0, 0)
