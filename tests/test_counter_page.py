"""The counter page in a real headless Chromium, used as a table uses it:
buttons found by their visible label or their label for screen readers,
turns passed with "Next turn", totals read off the page, reloaded, exported
and scored by `sheetgen score`.

Every expected total is worked out by hand from the rules (the worked
examples of docs/scoring.md where there are some).  The whole games of every
built-in grid are in test_counter_games.py, accessibility in
test_counter_access.py."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from sheetgen.cli import cli
from sheetgen.grid.load import load_grid
from sheetgen.play.tally import score_document
from sheetgen.sheet.style import languages, load_labels

from browser import run_json
from counter_page import (
    button,
    downloaded,
    exported,
    labelled,
    message,
    next_turn,
    open_log,
    proposal,
    rename,
    tabs,
    tap,
    tappable,
    total,
    wait_for_dialog,
)

pytestmark = pytest.mark.slow


def solo(driver, *turns: tuple[str, ...]) -> None:
    """One player's turns: each the labels tapped in it (action 1, then action 2), then Next turn."""
    for labels in turns:
        tap(driver, *labels)
        next_turn(driver)


# -- one sheet, turn by turn ---------------------------------------------------------------


def test_a_classic_sheet_played_alone_scores_68_survives_a_reload_and_exports(page, tmp_path):
    driver = page("classic")
    tap(driver, "Red 2", "Red 3")  # action 1, then action 2 (one player: always the active one)
    assert not tappable(button(driver, "Red 4"))  # one cross per action
    assert message(driver, "Red 4") == "One cross per action: this player has already crossed in this action."
    next_turn(driver)
    tap(driver, "Red 5")
    assert "struck" in labelled(driver, "Red 4") and not tappable(button(driver, "Red 4"))  # skipped: lost
    assert message(driver, "Red 4") == "Left of your last cross in this row: it can no longer be crossed."
    tap(driver, "Undo")
    assert tappable(button(driver, "Red 4")) and "crossed" not in labelled(driver, "Red 5")
    solo(driver, ("Red 4", "Red 5"), ("Red 6", "Red 7"), ("Yellow 2", "Yellow 3"), ("Yellow 4", "Yellow 5"),
         ("Green 12", "Green 11"), ("Green 10", "Green 9"))
    assert message(driver, "Green 2") == "The last cell needs 5 crosses in this row first."  # 4 crosses
    solo(driver, ("Green 8", "Green 7"))
    assert tappable(button(driver, "Green lock"))  # the lock crosses the last cell, as on paper
    solo(driver, ("Green lock", "Blue 12"), ("Blue 11", "Blue 10"))
    next_turn(driver)  # nothing crossed: the page asks for the penalty
    wait_for_dialog(driver)
    assert driver.find_element(By.ID, "ask-text").text == "Player 1 crossed nothing in this turn and crosses a penalty box."
    tap(driver, "Cross penalty box 1")
    assert labelled(driver, "Green lock") == "Green lock, crossed" and labelled(driver, "Green 2") == "Green 2, crossed"
    assert "struck" in labelled(driver, "Green 3")
    # The rules' classic example: 6, 4, 8 (lock included), 3 crosses and 1 penalty = 21 + 10 + 36 + 6 - 5 = 68.
    assert total(driver) == "Total: 68"
    boxes = [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, "#totals .total-box")]
    assert boxes[:5] == ["Red: 6x, 21 Points", "Yellow: 4x, 10 Points", "Green: 8x, 36 Points", "Blue: 3x, 6 Points",
                         "Penalties: 5"]
    driver.refresh()
    assert total(driver) == "Total: 68" and labelled(driver, "Red 7") == "Red 7, crossed"
    assert driver.find_element(By.ID, "turn-text").text.startswith("Turn 12 · Active player: Player 1")
    document = exported(driver)
    assert document["grid"] == "classic" and [p["player"] for p in document["players"]] == ["Player 1"]
    assert document["log"]["moves"][:3] == [{"move": "cross", "player": "Player 1", "row": 0, "number": 2},
                                            {"move": "end"}, {"move": "cross", "player": "Player 1", "row": 0, "number": 3}]
    result = CliRunner().invoke(cli, ["score", "classic", document["_path"], "--json"])
    assert result.exit_code == 0, result.output
    assert [sheet["total"] for sheet in json.loads(result.output)["sheets"]] == [68]


def test_two_players_a_lock_closes_the_row_for_the_other_when_the_action_ends(page):
    driver = page("classic", players=2)
    rename(driver, "Lea")
    tap(driver, "Player 2 0")
    rename(driver, "Tom")
    assert message(driver, "Penalty box 1") == "Only the active player (Lea) takes a penalty."
    tap(driver, "Lea 0")
    tap(driver, "Red 2", "Red 3")  # Lea, the active player: action 1, then action 2
    tap(driver, "Tom 0")
    tap(driver, "Red 2")  # Tom's late cross goes back into action 1
    assert message(driver, "Red 3") == "One cross per action: this player has already crossed in this action."
    next_turn(driver)  # Tom's turn
    tap(driver, "Red 3", "Red 4")
    tap(driver, "Lea 3")
    tap(driver, "Red 4")
    next_turn(driver)
    tap(driver, "Red 5", "Red 6")  # Lea: 2 3 4 5 6, five crosses
    tap(driver, "Tom 6")
    tap(driver, "Red 5")
    next_turn(driver)  # Tom's turn, action 1: Lea locks red; Tom may still cross red in the same action
    tap(driver, "Lea 15")
    tap(driver, "Red lock")  # her own lock, as on paper: the last cell and the lock
    assert labelled(driver, "Red lock") == "Red lock, crossed" and labelled(driver, "Red 12") == "Red 12, crossed"
    assert "struck" in labelled(driver, "Red 7")
    tap(driver, "Tom 10")
    assert tappable(button(driver, "Red 6"))  # simultaneous: red stays open for Tom until action 1 ends
    tap(driver, "Red 6", "Yellow 2")  # his second cross ends action 1: red is closed for him now
    assert labelled(driver, "Red lock") == "Red lock, closed by Lea"
    assert "struck" in labelled(driver, "Red 7")
    assert message(driver, "Red 7") == "This row was closed by Lea."
    # Lea 2 3 4 5 6 12 and the lock: 7 crosses, 28; Tom red 2 to 6 and yellow 2: 15 + 1.
    assert driver.find_element(By.ID, "ranking").text.splitlines() == ["1 Lea 28", "2 Tom 16"]
    assert driver.find_element(By.ID, "winner").text == "Leading: Lea"  # the game goes on: never "Winner"
    next_turn(driver)
    assert driver.find_element(By.ID, "turn-text").text.startswith("Turn 5 · Active player: Lea")
    state = run_json(driver, "return window.sheetgen.game();")
    assert state["closed"] == [{"row": 0, "by": ["Lea"], "turn": 4}] and state["over"] is None


def test_players_take_turns_in_seat_order_from_the_one_chosen_to_begin(page):
    driver = page("classic", players=3)
    tap(driver, "New game")
    wait_for_dialog(driver)
    Select(driver.find_element(By.ID, "ask-select")).select_by_visible_text("Player 2")
    tap(driver, "Start")
    assert driver.find_element(By.ID, "turn-text").text.startswith("Turn 1 · Active player: Player 2 · Action 1")
    for active, crosses in (("Player 2", "Red 2"), ("Player 3", "Red 3"), ("Player 1", "Red 4"), ("Player 2", "Red 5")):
        assert f"Active player: {active}" in driver.find_element(By.ID, "turn-text").text
        driver.find_elements(By.CSS_SELECTOR, "#players button[aria-pressed]")[int(active[-1]) - 1].click()
        tap(driver, crosses)
        next_turn(driver)
    assert message(driver, "+ Add player") == "Players join or leave between games: start a new game first."


def test_a_turn_without_a_cross_asks_for_the_penalty_and_back_goes_back(page):
    driver = page("classic", players=2)
    next_turn(driver)
    assert wait_for_dialog(driver) == "Player 1 crossed nothing in this turn and crosses a penalty box."
    driver.find_element(By.ID, "ask").send_keys(Keys.ESCAPE)  # Escape closes the question, nothing crossed
    assert not driver.find_element(By.ID, "ask").is_displayed()
    assert labelled(driver, "Penalty box 1") == "Penalty box 1, −5" and driver.find_element(By.ID, "turn-text").text.startswith("Turn 1")
    tap(driver, "Player 1 0", "Penalty box 1")  # tapped on the sheet: the same penalty
    assert message(driver, "Red 2") == "A penalty box was crossed in this turn: undo it to cross a cell."
    assert message(driver, "Penalty box 2") == "One penalty box per turn."
    next_turn(driver)
    assert total(driver) == "Total: −5" and driver.find_element(By.ID, "turn-text").text.startswith("Turn 2")
    tap(driver, "Red 2")  # not the active player now
    assert message(driver, "Penalty box 2") == "Only the active player (Player 2) takes a penalty."


# -- what a cross forces ------------------------------------------------------------------


def test_a_bonus_chain_is_proposed_and_confirmed(page):
    driver = page("bonus")
    tap(driver, "Red 3")  # framed: takes box 1 (red), whose cross is red 4 at once
    assert proposal(driver) == ("Bonus box 1 crossed: now cross the next free cell of its row.", ["Cross Red 4", "Undo"])
    assert message(driver, "Red 7") == "First cross the cell that is proposed, or undo the move that forced it."
    next_turn(driver)
    assert message(driver) == "Player 1 has a proposed cross to make first."
    tap(driver, "Cross Red 4")
    assert labelled(driver, "Red 4") == "Red 4, crossed"
    tap(driver, "Red 6")  # framed, action 2: box 2 (yellow) -> yellow 2
    tap(driver, "Cross Yellow 2")
    next_turn(driver)
    tap(driver, "Yellow 5")  # framed: box 3 (green) -> green 12
    assert proposal(driver)[1] == ["Cross Green 12", "Undo"]
    tap(driver, "Undo")  # takes back yellow 5 and its box
    assert proposal(driver) == ("", []) and "crossed" not in labelled(driver, "Yellow 5")
    assert "crossed" not in driver.find_elements(By.CSS_SELECTOR, ".bar-box")[2].get_attribute("aria-label")
    assert total(driver) == "Total: 7"  # red 3 crosses (6), yellow 1 (1): the bar scores nothing
    assert run_json(driver, "return window.sheetgen.marks();")["players"][0]["bonus_bar"] == [1, 2]


def test_a_row_another_player_closes_strikes_its_bar_boxes_when_the_action_ends(page):
    driver = page("bonus", players=2)
    tap(driver, "Red 2", "Red 3", "Cross Red 4")  # red 3 is framed: box 1 (red), whose cross is red 4
    next_turn(driver)
    tap(driver, "Red 5")
    tap(driver, "Player 2 0", "Blue 12")
    next_turn(driver)
    tap(driver, "Player 1 10", "Red 6", "Cross Yellow 2", "Red 7")  # red 6: box 2 (yellow); red 2 to 7: six crosses
    next_turn(driver)
    tap(driver, "Red lock")  # in Player 2's action 1
    tap(driver, "Player 2 1")
    bar = [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, ".bar-box")]
    assert bar[0] == "Bonus box 1, red"  # red is open for Player 2 until this action ends
    tap(driver, "Blue 11")  # his action 1: the page shows his sheet for action 2, red closed
    next_turn(driver)  # the action ends: red closes for Player 2, its free bar boxes are struck
    bar = [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, ".bar-box")]
    assert [bar[k] for k in (0, 5, 8)] == ["Bonus box 1, red, struck", "Bonus box 6, red, struck", "Bonus box 9, red, struck"]
    assert bar[1] == "Bonus box 2, yellow" and labelled(driver, "Red lock") == "Red lock, closed by Player 1"
    tap(driver, "Yellow 5")  # framed: boxes 1 (struck) passed over, box 2 (yellow): yellow 6
    assert proposal(driver)[0].startswith("Bonus box 2 crossed")


def test_the_diamond_crosses_the_first_free_cell_of_every_open_row(page):
    driver = page("powers")
    tap(driver, "Yellow 7", "Blue 7")  # the diamond: the first free cell of each open row, top to bottom
    for cell in ("Red 2", "Yellow 8", "Green 12", "Blue 6"):
        assert proposal(driver) == ("Diamond unlocked: now cross the next free cell of this row.", [f"Cross {cell}", "Undo"])
        tap(driver, f"Cross {cell}")
    assert proposal(driver) == ("", [])
    # red 2: 1; yellow 7 8: 3; green 12: 1; blue 7 6: 3; the diamond adds no points
    assert total(driver) == "Total: 8"


def test_the_circle_asks_which_row_when_rows_tie_for_fewest(page):
    driver = page("powers")
    tap(driver, "Green 9", "Yellow 11")  # the circle: 2 crosses in the row with fewest, red and blue have none
    assert proposal(driver) == ("Circle unlocked: choose your row with fewest crosses.", ["Red", "Blue", "Undo"])
    tap(driver, "Blue")
    tap(driver, "Cross Blue 12", "Cross Blue 11")
    assert total(driver) == "Total: 5"  # yellow 1, green 1, blue 3
    tap(driver, "Undo")  # one step back: the circle's second cross is proposed again
    assert proposal(driver)[1] == ["Cross Blue 11", "Undo"]


def test_bis_boxes_only_under_the_rightmost_cross(page):
    driver = page("bis")
    tap(driver, "Red 5", "Red 7")
    assert message(driver, "Small box under Red 5") == "A small box can be crossed only under your rightmost cross of its row."
    next_turn(driver)
    tap(driver, "Small box under Red 7")
    assert labelled(driver, "Small box under Red 7") == "Small box under Red 7, crossed"
    assert total(driver) == "Total: 6"  # 2 cells + 1 small box = 3 crosses


def test_doubles_count_two_towards_the_lock(page):
    driver = page("doubles")
    solo(driver, ("Red 2", "Red 3"), ("Red 4", "Red 5"))  # 1 + 2 + 1 + 2 = 6 of the 7 needed
    assert "double" in labelled(driver, "Red 3")
    assert message(driver, "Red 12") == "The last cell needs 7 crosses in this row first."
    tap(driver, "Red 6", "Red 12")
    assert total(driver) == "Total: 45"  # 7 + the last cell + the lock = 9 crosses


def test_lucky_numbers_are_asked_for_and_propose_the_row_with_fewest(page):
    driver = page("longo")
    assert message(driver, "Lucky number").startswith("Lucky number: choose your lucky numbers first")
    selects = driver.find_elements(By.CSS_SELECTOR, ".lucky select")
    Select(selects[0]).select_by_visible_text("3")
    assert not Select(selects[1]).options[2].is_enabled()  # 3 is taken: two different numbers
    Select(selects[1]).select_by_visible_text("14")
    solo(driver, ("Red 2", "Yellow 2"), ("Blue 16",))  # green has fewest crosses
    tap(driver, "Lucky number")
    assert proposal(driver)[1] == ["Cross Green 16", "Cancel"]
    tap(driver, "Cross Green 16")  # action 1
    assert not tappable(button(driver, "Lucky number"))  # a lucky number counts in action 1 only
    tap(driver, "Red 3")
    next_turn(driver)
    tap(driver, "Lucky number")  # yellow, green and blue tie at one cross
    assert proposal(driver)[1] == ["Cross Yellow 3", "Cross Green 15", "Cross Blue 15", "Cancel"]
    tap(driver, "Cancel")
    assert total(driver) == "Total: 6"  # red 3, yellow 1, green 1, blue 1
    driver.refresh()
    assert [Select(s).first_selected_option.text for s in driver.find_elements(By.CSS_SELECTOR, ".lucky select")] == ["3", "14"]


# -- the log, files, the evening -----------------------------------------------------------


def test_an_earlier_cross_is_changed_in_the_log_and_an_impossible_change_refused(page):
    driver = page("classic")
    solo(driver, ("Red 2", "Red 3"), ("Red 5", "Yellow 2"))
    assert open_log(driver) == ["Player 1: Red 2", "Player 1: Red 3 (action 2)", "Player 1: Red 5", "Player 1: Yellow 2 (action 2)"]
    tap(driver, "Player 1: Red 3 (action 2): change or remove")
    assert wait_for_dialog(driver) == "Player 1: Red 3"
    Select(driver.find_element(By.ID, "ask-select")).select_by_visible_text("Red 4")
    tap(driver, "Change")
    assert labelled(driver, "Red 4") == "Red 4, crossed" and "struck" in labelled(driver, "Red 3")
    assert total(driver) == "Total: 7"  # red 2 4 5: 6, yellow 2: 1
    tap(driver, "Player 1: Red 4 (action 2): change or remove")
    wait_for_dialog(driver)
    Select(driver.find_element(By.ID, "ask-select")).select_by_visible_text("Red 6")  # then red 5 comes after red 6
    tap(driver, "Change")
    assert message(driver) == ("Not changed: That would make a later move impossible: Player 1: Red 5:"
                               " Left of your last cross in this row: it can no longer be crossed.")
    assert total(driver) == "Total: 7"
    tap(driver, "Player 1: Red 4 (action 2): change or remove")
    wait_for_dialog(driver)
    tap(driver, "Remove")
    assert "crossed" not in labelled(driver, "Red 4") and total(driver) == "Total: 4"  # red 2 5: 3, yellow 2: 1


def test_the_marks_file_carries_the_log_and_comes_back_whole(page, tmp_path):
    driver = page("classic", players=2)
    tap(driver, "Red 2", "Red 3")
    tap(driver, "Player 2 0", "Blue 12")
    next_turn(driver)
    tap(driver, "Blue 11")
    document = exported(driver)
    before = run_json(driver, "return window.sheetgen.game();")
    tap(driver, "New game")
    wait_for_dialog(driver)
    tap(driver, "Start")
    assert total(driver) == "Total: 0"
    driver.find_element(By.ID, "import").send_keys(document["_path"])
    assert wait_for_dialog(driver) == "Replace the players with those of classic-marks.json?"
    tap(driver, "Replace")
    after = run_json(driver, "return window.sheetgen.game();")
    assert {k: after[k] for k in ("players", "turn", "action", "active", "log")} == {
        k: before[k] for k in ("players", "turn", "action", "active", "log")}
    tap(driver, "Undo")  # the history came back with the file
    assert "crossed" not in labelled(driver, "Blue 11")
    # Without its log, a marks file still imports: the sheets as they are, a game from there.
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({k: v for k, v in document.items() if k not in ("log", "_path")}))
    driver.find_element(By.ID, "import").send_keys(str(bare))
    wait_for_dialog(driver)
    tap(driver, "Replace")
    assert run_json(driver, "return window.sheetgen.game();")["players"] == before["players"]
    assert message(driver, "Undo") == ""  # nothing to undo below an imported sheet


def test_import_refuses_a_file_too_large_too_many_players_or_a_log_that_does_not_fit(page, tmp_path):
    driver = page("classic")
    table = {"grid": "classic", "players": [
        {"player": "Ann", "rows": [{"crossed": [2, 3, 4, 5, 6, 12], "lock": True}, {}, {}, {"crossed": [12]}]},
        {"player": "Bob", "rows": [{"crossed": [7]}, {}, {}, {}], "penalties": 2}]}

    def imported(name: str, content: str) -> str:
        path = tmp_path / name
        path.write_text(content)
        driver.find_element(By.ID, "import").send_keys(str(path))
        return message(driver)

    big = json.dumps(table) + " " * (256 * 1024)
    assert imported("big.json", big) == "Not imported: big.json: larger than 256 KiB"
    nine = {"grid": "classic", "players": [{"player": f"P{k}", "rows": [{}, {}, {}, {}]} for k in range(9)]}
    assert imported("nine.json", json.dumps(nine)) == "Not imported: nine.json: more than 8 players"
    bad_log = {**table, "log": {"first": "Ann", "moves": [{"move": "cross", "player": "Ann", "row": 0, "number": 2}]}}
    assert imported("log.json", json.dumps(bad_log)) == "Not imported: log.json: players[0]: the log does not lead to this sheet"
    wrong = {**table, "log": {"first": "Zoe", "moves": []}}
    assert imported("zoe.json", json.dumps(wrong)).startswith('Not imported: zoe.json: log.first: expected a player of this file')
    assert imported("bad.json", json.dumps({"rows": [{"crossed": [2, 3, 12]}, {}, {}, {}]})).startswith(
        "Not imported: bad.json: rows[0].crossed: 12 crossed")
    assert "reads JSON marks files" in imported("lea.yaml", "rows: []\n")
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table))
    driver.find_element(By.ID, "import").send_keys(str(path))
    wait_for_dialog(driver)
    tap(driver, "Replace")
    # Ann: 6 cells + lock = 7 crosses, 28, and blue 1: 29.  Bob: 1 - 10 = -9.
    assert tabs(driver) == [("Ann", "29"), ("Bob", "−9")]
    assert driver.find_element(By.ID, "winner").text == "Leading: Ann"


def test_the_evenings_standings_are_the_csv_that_sheetgen_score_reads(page, tmp_path):
    driver = page("classic", players=2)
    tap(driver, "Red 2", "Red 3")  # Player 1: 3 points
    while not run_json(driver, "return window.sheetgen.game().over;"):  # then nobody crosses anything
        next_turn(driver)
        if driver.find_element(By.ID, "ask").is_displayed():
            tap(driver, driver.find_element(By.ID, "ask-yes").text)
    # Player 2 is penalised on turns 2, 4, 6, 8, and the 4th box ends the game; Player 1 on turns 3, 5, 7.
    assert driver.find_element(By.ID, "evening").text.splitlines() == ["Player 1 1 1 −12", "Player 2 1 0 −20"]
    path, text = downloaded(driver, "Export standings (CSV)", ".csv")
    assert text == "game,grid,player,points\n1,classic,Player 1,-12\n1,classic,Player 2,-20\n"
    marks = tmp_path / "next.json"  # the evening's second game, scored at the command line
    marks.write_text(json.dumps({"players": [{"player": "Player 1", "rows": [{"crossed": [2]}, {}, {}, {}]},
                                             {"player": "Player 2", "rows": [{}, {}, {}, {}]}]}))
    result = CliRunner().invoke(cli, ["score", "classic", str(marks), "--standings", path])
    assert result.exit_code == 0, result.output
    rows = {line.split()[1]: line.split()[2:] for line in result.output.splitlines() if line.startswith("  Player ")}
    assert rows == {"1": ["2", "2", "\u221211", "\u22125.5"], "2": ["2", "0", "\u221220", "\u221210.0"]}  # games,
    # wins, points, mean, the table's negatives with a minus sign (the CSV keeps ASCII for spreadsheets)


def test_two_tabs_never_lose_a_tap(page, chromium):
    driver = page("classic", players=2)
    first = driver.current_window_handle
    url = driver.current_url
    driver.switch_to.new_window("tab")
    driver.get(url)
    second = driver.current_window_handle
    try:
        driver.switch_to.window(first)
        tap(driver, "Player 2 0", "Yellow 5")  # tab 1: Player 2's yellow 5
        driver.switch_to.window(second)  # tab 2, not reloaded: it hears of it (a storage event)
        WebDriverWait(driver, 10).until(lambda d: tabs(d)[1] == ("Player 2", "1"))
        tap(driver, "Player 2 1")
        assert labelled(driver, "Yellow 5") == "Yellow 5, crossed"
        tap(driver, "Player 1 0", "Blue 11")
        driver.switch_to.window(first)
        WebDriverWait(driver, 10).until(lambda d: tabs(d)[0] == ("Player 1", "1"))
        driver.refresh()
        tap(driver, "Player 2 1")
        assert labelled(driver, "Yellow 5") == "Yellow 5, crossed"
        tap(driver, "Player 1 1")
        assert labelled(driver, "Blue 11") == "Blue 11, crossed"
        # A tap made on a table that another tab has changed behind it is not kept, and the page says so.
        driver.execute_script("""const key = Object.keys(localStorage).find((k) => k.startsWith('sheetgen-counter:classic'));
          const t = JSON.parse(localStorage.getItem(key)); t.names[0] = 'Changed'; t.rev += 1;
          Object.defineProperty(window, '__sheetgen_write', {value: () => localStorage.setItem(key, JSON.stringify(t))});
          window.__sheetgen_write();""")  # a write this tab's own storage event does not hear
        tap(driver, "Red 2")
        assert message(driver) == ("This table was changed in another tab: it is shown as it is now,"
                                   " and your last tap was not kept. Tap again.")
        assert "crossed" not in labelled(driver, "Red 2") and button(driver, "Changed 1").is_displayed()
    finally:
        driver.switch_to.window(second)
        driver.close()
        driver.switch_to.window(first)


def test_a_damaged_saved_table_is_reported_and_kept(page):
    driver = page("classic")
    tap(driver, "Red 2")
    driver.execute_script("""const key = Object.keys(localStorage).find((k) => k.startsWith('sheetgen-counter:classic'));
      localStorage.setItem(key, '{"v": 2, "names": ["A"], "log": [{"m": {"move": "cross"}}]');""")
    driver.refresh()
    assert message(driver) == ("The table saved in this browser could not be read, so a new one was started"
                               " (the damaged copy is kept).")
    assert total(driver) == "Total: 0"
    kept = driver.execute_script("return Object.keys(localStorage).filter((k) => k.endsWith(':damaged')).length")
    assert kept == 1


# -- random play through the page: it never makes a sheet the scorer refuses --------------


@pytest.mark.parametrize("name", ["classic", "bonus", "powers", "bis", "longo"])
def test_random_taps_never_make_a_sheet_the_scorer_refuses(page, name):
    driver = page(name, players=3)
    seed = random.Random(name).randrange(10**6)
    snapshots = run_json(driver, """
      let seed = arguments[0];
      const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
      const snapshots = [];
      for (let step = 0; step < 150 && !window.sheetgen.game().over; step += 1) {
        if (document.getElementById("ask").open) { document.getElementById("ask-yes").click(); continue; }
        const proposal = [...document.querySelectorAll("#proposal-buttons button.primary")];
        const tabs = [...document.querySelectorAll("#players button[aria-pressed]")];
        const taps = proposal.length ? proposal : [...document.querySelectorAll(
          ".cell, .bis, .penalty, #lucky-button, .lock")].filter((b) => b.getAttribute("aria-disabled") !== "true");
        const r = next();
        if (!proposal.length && r < 0.25) tabs[Math.floor(next() * tabs.length)].click();
        else if (!proposal.length && (r < 0.4 || !taps.length)) document.getElementById("next-turn").click();
        else if (taps.length) taps[Math.floor(next() * taps.length)].click();
        if (!document.querySelector("#proposal-buttons button")) snapshots.push(window.sheetgen.marks());
      }
      return snapshots;""", seed)
    grid = load_grid(name)
    assert len(snapshots) > 10
    for document in snapshots:
        assert score_document(grid, document, "page.json")["refused"] == [], json.dumps(document)


@pytest.mark.parametrize("lang", languages())
def test_the_page_speaks_every_language(page, lang):
    words = load_labels(lang)
    driver = page("rainbow", lang=lang)
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
    assert words("counter_heading") in driver.find_element(By.ID, "heading").text
    assert button(driver, words("counter_export")).is_displayed()
    assert button(driver, words("counter_next_turn")).is_displayed()
    # rainbow's rows have cells of several colours: rows are named by number, cells by colour
    first = words("counter_row", 1) + ": " + words("colour_yellow") + " 2"
    assert labelled(driver, first) == first


def test_a_page_in_the_pack_links_back_to_the_pack_page(page):
    driver = page("classic", lang="de", pack_page="../index-de.html")
    link = driver.find_element(By.ID, "pack-link")
    assert link.text == "← Alle Spiele und Blöcke" and link.get_attribute("href").endswith("/index-de.html")
    assert not page("classic").find_element(By.ID, "pack-link").is_displayed()


# -- the engine's other half: what may be crossed next ----------------------------------


def test_legal_moves_follow_the_rules_and_the_scorer(page):
    driver = page("classic")
    moves = run_json(driver, "return window.sheetgen.legalMoves(arguments[0]);",
                     {"rows": [{"crossed": [2, 3, 4, 5]}, {"crossed": [2, 3, 4, 5, 6, 12]}, {"crossed": [12, 11, 10, 9, 8, 2]}, {}],
                      "penalties": 3})
    red = [m["number"] for m in moves["cells"] if m["row"] == 0]
    assert red == list(range(6, 12))  # 4 crosses: not 12 yet
    assert not any(m["row"] in (1, 2) for m in moves["cells"])  # locked rows
    assert moves["penalty"] is False  # the 4th penalty box with two locks: no game leaves it
    assert moves["bis"] == [] and moves["lucky"] == []
    closed = run_json(driver, "return window.sheetgen.legalMoves(arguments[0], [3]);",
                      {"rows": [{"crossed": [2, 3, 4, 5, 6]}, {}, {}, {}]})
    assert {"row": 0, "number": 12, "closes": True} in closed["cells"]
    assert not any(m["row"] == 3 for m in closed["cells"])  # closed by another player
    refused = run_json(driver, "return window.sheetgen.legalMoves(arguments[0]);", {"rows": [{"crossed": [2, 12]}, {}, {}, {}]})
    assert refused["refused"]["reason"] == "threshold" and refused["cells"] == []


def test_the_engine_plays_a_turn_as_pure_functions_with_reasons(page):
    """window.sheetgen.engine, as a program replaying a game calls it: state in, state or reason out."""
    driver = page("classic")
    outcome = run_json(driver, """
      const e = window.sheetgen.engine, out = {};
      const why = (g, m) => { try { e.play(g, m); return null; } catch (r) { if (r instanceof e.Refused) return r.reason; throw r; } };
      const cross = (player, row, number) => ({move: "cross", player, row, number}), end = {move: "end"};
      let g = e.play(e.newGame(2, 0), cross(0, 0, 2));
      const kept = JSON.stringify(g);
      out.acted = why(g, cross(0, 0, 3));
      e.play(g, cross(1, 0, 3));
      out.pure = JSON.stringify(g) === kept;
      g = e.newGame(2, 0);
      for (const n of [2, 3, 4, 5, 6]) g = [cross(0, 0, n), cross(1, 1, n), end, end].reduce(e.play, g);
      g = e.play(g, cross(0, 0, 12));  // player 0 locks red in action 1 of player 1's turn
      out.simultaneous = why(g, cross(1, 0, 7));
      g = e.play(g, end);
      out.closed = g.closed;
      out.afterEnd = why(g, cross(0, 1, 7));
      out.closedForOther = why(g, cross(1, 0, 7));
      out.due = why(g, end);
      out.moves = e.moves(g, 1).cells.filter((m) => m.row === 0).length;
      return out;""")
    assert outcome["acted"] == "acted" and outcome["pure"] is True
    assert outcome["simultaneous"] is None  # red stays open for player 1 in this action 1
    assert outcome["closed"] == [{"row": 0, "by": [0], "turn": 6}]
    assert outcome["afterEnd"] == "active-only" and outcome["closedForOther"] == "row-closed"
    assert outcome["due"] == "penalty-due" and outcome["moves"] == 0
