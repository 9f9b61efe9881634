"""The game engine, by hand-made dice and scripted players whose outcome is
worked out from the rules of the game (as docs/simulate.md states them, with
the decisions a paper sheet leaves open), not taken from the engine.

A roll is ``(white, white, (red, yellow, green, blue))``.  A script says what
a player crosses on which roll and action; a scripted player asserts that the
move is legal, and every test checks that every scripted move was made.
Row points are triangular: 1 3 6 10 15 21 28 36 45 55 66 78 for 1..12 crosses.
"""

from __future__ import annotations

import collections
import functools
import random

import pytest

from sheetgen.grid.load import load_grid
from sheetgen.play.game import (
    BIS,
    CELL,
    CROSSED,
    FREE,
    LUCKY,
    POWER,
    STRUCK,
    Game,
    hand_dice,
    marks_document,
    random_dice,
    rulebook,
)
from sheetgen.play.marks import marks_from_data
from sheetgen.play.scoring import score_sheet

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3  # rows of the one-colour grids, and dice


@functools.cache
def rules(name: str):
    return rulebook(load_grid(name))


class Script:
    """Players who cross what ``plan[seat][(roll, action)]`` says: ("cell", row,
    number), ("bis", row, number) or ("lucky", row, number); (roll, "power") is
    the row chosen for a power's crosses.  Nothing else."""

    KINDS = {"cell": CELL, "bis": BIS, "lucky": LUCKY, "power": POWER}

    def __init__(self, grid: str, plan: list[dict]):
        self.rules = rules(grid)
        self.plan = plan
        self.made: set[tuple[int, object]] = set()
        self.calls: list[tuple[int, int, int]] = []  # (seat, roll, action) of every decision asked for

    def player(self, seat: int):
        def choose(moves, sheet, table):
            self.calls.append((seat, table.rolls, table.action))
            key = (table.rolls, "power" if moves[0][0] == POWER else table.action)
            want = self.plan[seat].get(key)
            if want is None:
                return None
            kind, row, number = want
            move = (self.KINDS[kind], row, self.rules.numbers[row].index(number))
            assert move in moves, f"seat {seat}, {key}: {want} is not legal; legal: {moves}"
            self.made.add((seat, key))
            return move

        return choose

    def game(self, rolls, lucky=()) -> Game:
        return Game(self.rules, [self.player(seat) for seat in range(len(self.plan))], hand_dice(rolls), lucky)

    def check_all_made(self) -> None:
        planned = {(seat, key) for seat, entries in enumerate(self.plan) for key in entries}
        assert planned == self.made, f"never made: {sorted(planned - self.made, key=str)}"


def prefill(game: Game, seat: int, row: int, numbers) -> None:
    """Cross cells before the first roll, through the engine (so a lock or a
    bonus follows as in play)."""
    for number in numbers:
        game.cross(game.sheets[seat], row, game.rules.numbers[row].index(number), 1)
    game.close_rows()


def crossed(game: Game, seat: int) -> list[list[int]]:
    """The numbers crossed in each row of a player's sheet."""
    sheet, numbers = game.sheets[seat], game.rules.numbers
    return [[n for i, n in enumerate(numbers[r]) if sheet.cells[r] >> i & 1] for r in range(len(numbers))]


def play(script: Script, rolls, lucky=(), setup=None):
    game = script.game(rolls, lucky)
    if setup:
        setup(game)
    result = game.play()
    script.check_all_made()
    return game, result


def scored_by_scorer(grid: str, game: Game, seat: int) -> int:
    """The total ``score_sheet`` gives the sheet (it must accept it)."""
    document = marks_document(game.rules, game.sheets[seat])
    return score_sheet(load_grid(grid), marks_from_data(document, "game", load_grid(grid))).total


# -- classic: both actions, penalties, closing ------------------------------------


def test_both_actions_and_a_penalty_for_the_active_player_only():
    script = Script("classic", [
        {(1, 1): ("cell", RED, 2), (1, 2): ("cell", RED, 3)},  # white 1+1; white 1 + red 2
        {(1, 1): ("cell", YELLOW, 2)},  # roll 2: passes, as active player
    ])
    game, result = play(script, [(1, 1, (2, 1, 6, 6)), (6, 5, (1, 1, 1, 1))])
    assert result.end is None and result.rolls == 2
    assert crossed(game, 0) == [[2, 3], [], [], []]
    assert crossed(game, 1) == [[], [2], [], []]
    # Seat 0 crossed nothing on roll 2 but was not active: no penalty.
    assert [s.penalties for s in game.sheets] == [0, 1]
    assert [s.total for s in result.scores] == [3, 1 - 5]  # 2 crosses: 3; 1 cross - a penalty
    # Seat 1 was asked in both actions of its roll 2 and passed.
    assert (1, 2, 1) in script.calls and (1, 2, 2) in script.calls


def test_the_fourth_penalty_ends_the_game_at_once():
    script = Script("classic", [{}, {}])  # two players who never cross
    rolls = [(3, 4, (1, 2, 3, 4))] * 10
    game, result = play(script, rolls)
    # Seat 0 is active on rolls 1, 3, 5, 7: its 4th penalty on roll 7 ends the game.
    assert (result.end, result.rolls) == ("penalties", 7)
    assert [s.penalties for s in game.sheets] == [4, 3]
    assert [s.total for s in result.scores] == [-20, -15]


def test_a_cross_in_action_1_spares_the_active_player_a_penalty():
    script = Script("classic", [{(1, 1): ("cell", BLUE, 7)}])
    game, result = play(script, [(3, 4, (1, 1, 1, 1))])
    assert game.sheets[0].penalties == 0


def test_the_last_cell_needs_five_crosses_and_crosses_the_lock():
    script = Script("classic", [{(1, 1): ("cell", RED, 12)}])
    game = script.game([(6, 6, (1, 1, 1, 1))])
    prefill(game, 0, RED, [2, 3, 4, 5])
    # 4 crosses: 12 is not a legal move in red (it is in green and blue: their first cells).
    moves = []
    game.strategies = (lambda m, s, t: moves.extend(m),)
    game.play()
    assert (CELL, RED, 10) not in moves and (CELL, GREEN, 0) in moves

    game = script.game([(6, 6, (1, 1, 1, 1))])
    prefill(game, 0, RED, [2, 3, 4, 5, 6])
    result = game.play()
    script.check_all_made()
    assert game.sheets[0].locked[RED] and game.table.closed[RED]
    assert result.scores[0].rows[RED] == 28  # 5 + 12 + the lock = 7 crosses
    assert RED not in game.table.in_game  # the red die left the game


def test_second_row_closed_in_action_1_ends_the_game_before_action_2_without_penalty():
    script = Script("classic", [
        {},  # active, crosses nothing: action 2 would be its last chance
        {(1, 1): ("cell", RED, 12)},
        {(1, 1): ("cell", YELLOW, 12)},
    ])
    game = script.game([(6, 6, (1, 1, 1, 1)), (1, 1, (1, 1, 1, 1))])
    prefill(game, 1, RED, [2, 3, 4, 5, 6])
    prefill(game, 2, YELLOW, [2, 3, 4, 5, 6])
    result = game.play()
    script.check_all_made()
    assert (result.end, result.rolls) == ("locks", 1)
    assert (0, 1, 2) not in script.calls  # no action 2
    assert [s.penalties for s in game.sheets] == [0, 0, 0]
    assert [s.total for s in result.scores] == [0, 28, 28]
    assert [(c.row, c.seat, c.roll, c.action, c.active) for c in result.closings] == [
        (RED, 1, 1, 1, False), (YELLOW, 2, 1, 1, False)]


def test_several_players_close_the_same_row_in_one_action_1():
    script = Script("classic", [
        {(1, 1): ("cell", RED, 12), (1, 2): ("cell", YELLOW, 7)},  # white 6 + yellow 1
        {(1, 1): ("cell", RED, 12)},
    ])
    game = script.game([(6, 6, (6, 1, 1, 1))])
    for seat in (0, 1):
        prefill(game, seat, RED, [2, 3, 4, 5, 6])
    result = game.play()
    script.check_all_made()
    assert result.end is None  # one row closed, however many locked it
    assert [s.locked[RED] for s in game.sheets] == [True, True]
    # Action 2 after red closed: no red move, even though white 6 + red 6 = 12.
    assert [s.total for s in result.scores] == [28 + 1, 28]


def test_a_row_closed_in_action_1_is_closed_in_action_2_and_its_die_gone():
    # Seat 1 closes red in action 1; seat 0 (active) then has no red move in action 2.
    seen = []
    script = Script("classic", [{}, {(1, 1): ("cell", RED, 12)}])
    game = script.game([(6, 6, (1, 2, 3, 4))])
    prefill(game, 1, RED, [2, 3, 4, 5, 6])
    prefill(game, 0, RED, [2])
    inner = game.strategies[0]
    game.strategies = (lambda m, s, t: seen.append((t.action, m)) or inner(m, s, t), game.strategies[1])
    game.play()
    action_2 = [moves for action, moves in seen if action == 2][0]
    assert all(row != RED for _, row, _ in action_2)
    # Seat 0 could have crossed red 7 (white 6 + red 1) had red still been open.
    assert (CELL, YELLOW, 6) in action_2  # white 6 + yellow 2 = 8


# -- longo: lucky numbers ------------------------------------------------------------


def test_a_lucky_number_crosses_the_row_with_fewest_crosses_and_may_close_it():
    script = Script("longo", [{(1, 1): ("lucky", RED, 16)}])

    def setup(game):
        prefill(game, 0, RED, [2, 3, 4, 5, 6, 7, 15])  # 7 crosses, next free cell 16 (the last)
        for row in (YELLOW, GREEN, BLUE):
            numbers = game.rules.numbers[row]
            prefill(game, 0, row, numbers[:8])  # 8 crosses each: red has fewest

    game, result = play(script, [(4, 5, (8, 8, 8, 8))], lucky=[(3, 9)], setup=setup)
    assert game.sheets[0].locked[RED] and game.table.closed[RED]
    # 2..7, 15, 16 and the lock: 9 crosses, 45 points; no penalty (action 1 crossed).
    assert result.scores[0].rows[RED] == 45 and game.sheets[0].penalties == 0


def test_no_lucky_cross_where_the_first_free_cell_is_the_last_and_the_threshold_is_not_met():
    moves_seen = []
    script = Script("longo", [{}])
    game = script.game([(4, 5, (8, 8, 8, 8))], lucky=[(3, 9)])
    prefill(game, 0, RED, [2, 3, 4, 5, 15])  # 5 crosses < 6: 16 may not be crossed
    for row in (YELLOW, GREEN, BLUE):
        prefill(game, 0, row, game.rules.numbers[row][:8])
    game.strategies = (lambda m, s, t: moves_seen.extend(m),)
    game.play()
    assert not [m for m in moves_seen if m[0] == LUCKY]


def test_lucky_ties_are_the_players_choice_among_open_rows():
    moves_seen = []
    script = Script("longo", [{}])
    game = script.game([(4, 5, (1, 1, 1, 1))], lucky=[(9, 12)])
    prefill(game, 0, RED, [2])  # red 1 cross; the others none: yellow, green, blue tie
    game.strategies = (lambda m, s, t: moves_seen.extend(m) if t.action == 1 else None,)
    game.play()
    assert sorted(m for m in moves_seen if m[0] == LUCKY) == [(LUCKY, YELLOW, 0), (LUCKY, GREEN, 0), (LUCKY, BLUE, 0)]


# -- bis: small boxes ------------------------------------------------------------------


def test_a_small_box_replaces_the_cross_and_counts_towards_closing():
    script = Script("bis", [{(1, 1): ("bis", RED, 7), (2, 1): ("cell", RED, 12)}])
    game = script.game([(3, 4, (1, 1, 1, 1)), (6, 6, (1, 1, 1, 1))])
    prefill(game, 0, RED, [2, 3, 4, 5, 6, 7])  # 6 crosses: 12 needs 7
    result = game.play()
    script.check_all_made()
    # 6 cells + the box + 12 + the lock = 9 crosses: 45; the box spared the penalty of roll 1.
    assert result.scores[0].rows[RED] == 45 and game.sheets[0].penalties == 0
    assert marks_document(game.rules, game.sheets[0])["rows"][RED] == {
        "crossed": [2, 3, 4, 5, 6, 7, 12], "lock": True, "bis": [7]}


def test_only_the_rightmost_cross_takes_its_small_box():
    seen = []
    script = Script("bis", [{}])
    game = script.game([(1, 2, (1, 1, 1, 1)), (2, 3, (1, 1, 1, 1))])
    prefill(game, 0, RED, [3, 5])
    game.strategies = (lambda m, s, t: seen.append((t.rolls, t.action, m)),)
    game.play()
    white_sum = {roll: moves for roll, action, moves in seen if action == 1}
    assert (BIS, RED, 1) not in white_sum[1]  # 3 is crossed, but 5 is the rightmost cross
    assert (BIS, RED, 3) in white_sum[2]


# -- bonus: the bar and its chains --------------------------------------------------------


def test_a_chain_of_bonus_crosses():
    # Bar: red, yellow, green, blue, ...; framed: red 3 6 9, yellow 5 8 11, green 11 7 4, blue 10 8 5.
    script = Script("bonus", [{
        (1, 1): ("cell", RED, 2), (1, 2): ("cell", YELLOW, 2),  # white 1 + yellow 1
        (2, 1): ("cell", YELLOW, 3), (2, 2): ("cell", YELLOW, 4),  # white 1 + yellow 3
        (3, 1): ("cell", GREEN, 12), (3, 2): ("cell", BLUE, 10),  # white 6 + blue 4
    }])
    game, result = play(script, [(1, 1, (6, 1, 6, 6)), (1, 2, (6, 3, 6, 6)), (6, 6, (6, 6, 6, 4))])
    # Blue 10 is framed: box 1 (red) -> red's next cell 3, framed: box 2 (yellow) -> yellow 5,
    # framed: box 3 (green) -> green 11, framed: box 4 (blue) -> blue 9, not framed: the end.
    assert crossed(game, 0) == [[2, 3], [2, 3, 4, 5], [12, 11], [10, 9]]
    assert game.sheets[0].bar[:5] == [CROSSED] * 4 + [FREE]
    assert result.scores[0].total == 3 + 10 + 3 + 3
    assert scored_by_scorer("bonus", game, 0) == 19


def test_a_chain_that_comes_back_to_its_row_counts_both_bonus_crosses():
    # Bar: red, yellow, green, blue, green, red, ...; red's framed cells are 3, 6, 9.  With red 2 crossed
    # and bar boxes 2 to 5 struck, a bonus takes box 1 (red) to red 3, framed: box 6 (red) to red 4.
    # Both are the bar's crosses in the red row (the feature's points count them): 2, not 1.
    from sheetgen.play.strategies import STRATEGIES

    game = Game(rules("bonus"), [STRATEGIES["careful"].make(random.Random(1))], random_dice(6, random.Random(1)), ())
    sheet = game.sheets[0]
    game.cross(sheet, RED, 0, 1)
    sheet.bar[1:5] = [CROSSED] * 4
    game.bonus(sheet, 1)
    assert crossed(game, 0)[RED] == [2, 3, 4]
    assert sheet.bar[:6] == [CROSSED] * 6
    assert sheet.bonus_rows[RED] == 2


def test_a_bar_box_is_crossed_even_when_its_bonus_finds_no_legal_cell():
    script = Script("bonus", [{(1, 1): ("cell", YELLOW, 5)}])
    game = script.game([(2, 3, (1, 1, 1, 1))])
    prefill(game, 0, RED, [11])  # red's next cell is 12, its last, with 1 cross: not legal
    game.play()
    script.check_all_made()
    assert game.sheets[0].bar[0] == CROSSED
    assert crossed(game, 0)[RED] == [11]


def test_a_closing_row_strikes_its_colour_in_every_bar():
    script = Script("bonus", [{}, {(1, 1): ("cell", RED, 12)}])
    game = script.game([(6, 6, (1, 1, 1, 1))])
    prefill(game, 1, RED, [2, 4, 5, 7, 8])  # no framed cell
    game.play()
    red_boxes = [box for box, colour in enumerate(game.rules.bar) if colour == RED]
    for sheet in game.sheets:
        assert [sheet.bar[box] for box in red_boxes] == [STRUCK] * 3


# -- powers ----------------------------------------------------------------------------------


def test_the_circle_puts_two_crosses_in_the_chosen_row_of_fewest_crosses():
    # Circle on yellow 11 and green 9; red and blue tie with no cross: the player picks blue.
    script = Script("powers", [{(1, 1): ("cell", YELLOW, 11), (1, 2): ("cell", GREEN, 9), (1, "power"): ("power", BLUE, 12)}])
    game, result = play(script, [(5, 6, (1, 1, 4, 1))])  # white 5 + green 4 = 9
    assert crossed(game, 0) == [[], [11], [9], [12, 11]]
    assert scored_by_scorer("powers", game, 0) == result.scores[0].total == 1 + 1 + 3


def test_the_circle_without_a_choice_takes_the_first_tied_row():
    script = Script("powers", [{(1, 1): ("cell", YELLOW, 11), (1, 2): ("cell", GREEN, 9)}])
    game, _ = play(script, [(5, 6, (1, 1, 4, 1))])
    assert crossed(game, 0) == [[2, 3], [11], [9], []]


def test_the_diamond_crosses_each_open_row_and_closes_two_rows_which_ends_the_game():
    # Diamond on yellow 7 and blue 7.  Red and yellow are crossed up to 11: their next cell is the last.
    script = Script("powers", [{(1, 1): ("cell", BLUE, 7)}])

    def setup(game):
        prefill(game, 0, RED, range(2, 12))
        prefill(game, 0, YELLOW, range(2, 12))

    game, result = play(script, [(3, 4, (1, 1, 1, 1)), (1, 1, (1, 1, 1, 1))], setup=setup)
    # Blue 7 unlocks the diamond: red 12 and yellow 12 (closing both), green 12, blue 6.
    assert crossed(game, 0) == [list(range(2, 13)), list(range(2, 13)), [12], [7, 6]]
    assert (result.end, result.rolls) == ("locks", 1)
    assert result.scores[0].total == 78 + 78 + 1 + 3
    assert scored_by_scorer("powers", game, 0) == 160


def test_end_of_game_powers_count_at_the_end():
    # Square (red 8, blue 10): the lowest row counts double; octagon (red 6, blue 4): +13.
    script = Script("powers", [{}])
    game = script.game([])
    prefill(game, 0, RED, [6, 8])
    prefill(game, 0, YELLOW, [2])
    prefill(game, 0, GREEN, [12])
    prefill(game, 0, BLUE, [10, 4])
    result = game.play()
    # Rows 3, 1, 1, 3; the lowest (1) counts twice: +1; the octagon +13.
    assert result.scores[0].total == 3 + 1 + 1 + 3 + 1 + 13
    assert scored_by_scorer("powers", game, 0) == 22


# -- colour blocks: dice of a colour, cells of a colour ---------------------------------------


def test_white_and_coloured_die_go_in_a_cell_of_that_colour_in_any_row():
    # blocks, by row: 2Y 3Y 4Y 5B 6B 7B 8G 9G 10G 11R 12R | 2R 3R 4G 5G 6G 7G 8B 9B 10Y 11Y 12Y
    #                 12B 11B 10B 9Y 8Y 7Y 6R 5R 4R 3G 2G | 12G 11G 10R 9R 8R 7R 6Y 5Y 4B 3B 2B
    game = Script("blocks", [{}]).game([])
    moves = game.coloured_moves(game.sheets[0], 1, 2, (6, 1, 3, 2))
    # red 7, 8; yellow 2, 3; green 4, 5; blue 3, 4 (the last cells, 2B and 12Y, need 5 crosses first)
    assert {(row, game.rules.numbers[row][index]) for _, row, index in moves} == {
        (3, 7), (3, 8), (0, 2), (0, 3), (1, 4), (1, 5), (3, 4), (3, 3)}
    assert len(moves) == 8


def test_a_lock_takes_its_last_cells_colour_and_that_die_leaves_the_game():
    # blocks row 1 ends in red 12: closing it takes the red die out, though red cells remain elsewhere.
    script = Script("blocks", [{(1, 1): ("cell", 0, 12)}])
    game = script.game([(6, 6, (1, 6, 6, 6)), (1, 2, (1, 1, 1, 1))])
    prefill(game, 0, 0, [2, 3, 4, 5, 6])
    seen = []
    inner = game.strategies[0]
    game.strategies = (lambda m, s, t: seen.append((t.rolls, t.action, list(m))) or inner(m, s, t),)
    game.play()
    script.check_all_made()
    assert game.table.in_game == [1, 2, 3]  # yellow, green, blue
    action_2 = [m for roll, action, m in seen if (roll, action) == (1, 2)][0]
    # White 6 + red 1 = 7 would be row 4's red 7: the red die is gone.  Green 6 + white 6 = 12: row 4's first cell.
    assert (CELL, 3, game.rules.numbers[3].index(7)) not in action_2
    assert (CELL, 3, 0) in action_2
    # The white sum 3 still goes in row 2's red cell 3 on roll 2.
    action_1 = [m for roll, action, m in seen if (roll, action) == (2, 1)][0]
    assert (CELL, 1, 1) in action_1 and game.rules.colour[1][1] == RED


# -- dice -------------------------------------------------------------------------------------


def test_random_dice_are_fair_and_repeatable():
    rolls = list(zip(range(60_000), random_dice(6, random.Random(5))))
    again = list(zip(range(100), random_dice(6, random.Random(5))))
    assert [r for _, r in rolls[:100]] == [r for _, r in again]
    faces = collections.Counter()
    for _, (w1, w2, dice) in rolls:
        faces.update((("w1", w1), ("w2", w2)) + tuple((c, d) for c, d in enumerate(dice)))
    for (die, face), count in faces.items():
        assert 1 <= face <= 6
        assert abs(count / 60_000 - 1 / 6) < 0.01, (die, face, count)
    assert len(faces) == 6 * 6  # six dice, six faces each


def test_eight_sided_dice_reach_eight():
    faces = {w1 for _, (w1, _, _) in zip(range(2000), random_dice(8, random.Random(1)))}
    assert faces == set(range(1, 9))


# -- the turn loop's own ranking of Ranked strategies --------------------------------


def _outcome(result):
    return (result.rolls, result.end, result.closings,
            [(s.cells, s.boxes, s.bar, s.penalties, s.lucky_crosses, s.lucky_rows, s.bonus_rows, s.symbols,
              s.unlocked) for s in result.sheets], result.scores)


def test_a_ranked_strategy_ranked_in_the_loop_plays_as_when_it_is_called():
    # The turn loop does not call a Ranked strategy: it ranks each legal move as it
    # finds it.  Wrapped in a plain function the same strategy is called with the
    # listed moves.  Same dice, same draws: the same games, move for move, on the
    # grids with small boxes, lucky numbers, powers and a bonus bar, each seat
    # another strategy (random draws even for one move, careful and greedy only on
    # ties), the active player's action 2 with and without a penalty at stake.
    from sheetgen.play.strategies import STRATEGIES

    names = ("careful", "greedy", "random")
    for grid in ("bis", "longo", "powers", "bonus", "doubles"):
        for index in range(40):
            outcomes = []
            for wrap in (False, True):
                choices = random.Random(index)
                seats = [STRATEGIES[names[(seat + index) % 3]].make(choices) for seat in range(3)]
                if wrap:
                    seats = [lambda m, s, t, choose=choose: choose(m, s, t) for choose in seats]
                lucky = [(3 + seat, 9 + seat) for seat in range(3)] if grid == "longo" else ()
                game = Game(rules(grid), seats, random_dice(rules(grid).grid.dice_faces, random.Random(~index)), lucky)
                outcomes.append(_outcome(game.play()))
            assert outcomes[0] == outcomes[1], f"{grid}, game {index}"


@pytest.mark.parametrize("games", [range(4), pytest.param(range(4, 12), marks=pytest.mark.slow)])  # 1 to 4 seats each
def test_the_written_turn_loop_plays_the_generic_loops_games_on_every_grid(games):
    # play/turns writes a turn loop per grid and table of Ranked seats; with
    # Game.written off the generic loop plays.  Same dice, same draws: the same games.
    from sheetgen.grid.load import builtin_names
    from sheetgen.play.strategies import STRATEGIES

    names = ("careful", "greedy", "random")
    # gaps.yaml: white sums that no row holds (an empty branch of the written loop once failed to compile)
    grids = [rules(name) for name in builtin_names()] + [rulebook(load_grid(f"tests/grids/{name}.yaml"))
                                                         for name in ("eight", "gaps")]
    for book in grids:
        for index in games:
            outcomes = []
            for written in (True, False):
                choices = random.Random(index)
                seats = [STRATEGIES[names[(seat + index) % 3]].make(choices) for seat in range(1 + index % 4)]
                lucky = [(3 + seat, 9 + seat) for seat in range(len(seats))] if book.lucky else ()
                game = Game(book, seats, random_dice(book.grid.dice_faces, random.Random(~index)), lucky)
                game.written = written
                outcomes.append(_outcome(game.play()))
            assert outcomes[0] == outcomes[1], f"{book.grid.name}, game {index}"


def test_the_written_loop_draws_its_dice_as_it_reads_them_from_a_list():
    # The written loop draws RandomDice's rolls itself (and their view indexes from a
    # table, up to six faces); dice from anything else it iterates.  The same rolls
    # as a list: the same games, on six- and eight-sided grids.
    from sheetgen.play.strategies import STRATEGIES

    for grid in ("classic", "rainbow", "longo"):
        book = rules(grid)
        for index in range(8):
            outcomes = []
            for listed in (False, True):
                choices = random.Random(index)
                seats = [STRATEGIES[("careful", "greedy", "random")[seat % 3]].make(choices) for seat in range(4)]
                dice = random_dice(book.grid.dice_faces, random.Random(index))
                if listed:
                    dice = hand_dice([roll for roll, _ in zip(dice, range(200))])
                lucky = [(3 + seat, 9 + seat) for seat in range(4)] if book.lucky else ()
                outcomes.append(_outcome(Game(book, seats, dice, lucky).play()))
            assert outcomes[0] == outcomes[1], f"{grid}, game {index}"


def test_a_game_that_watches_the_bonus_the_powers_or_the_locks_is_played_by_the_generic_loop():
    # The written loop makes a framed cell's bonus chain, a symbol's count, a lock and rows
    # closing itself, so a subclass of Game that watches them gets the generic loop, which calls them.
    from sheetgen.play.strategies import STRATEGIES

    for grid, name in (("bonus", "bonus"), ("powers", "unlock"), ("classic", "shut"), ("classic", "close_rows")):
        calls = []

        class Watched(Game):
            pass

        def watch(self, *args, name=name, calls=calls):
            calls.append(args)
            return getattr(Game, name)(self, *args)

        setattr(Watched, name, watch)
        book = rules(grid)
        for index in range(5):
            seats = [STRATEGIES["careful"].make(random.Random(index)) for _ in range(2)]
            Watched(book, seats, random_dice(book.grid.dice_faces, random.Random(index))).play()
        assert calls, grid
