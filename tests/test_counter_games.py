"""Whole games of every built-in grid on its counter page, by tapping the
page's buttons as a table does (in the page, one script a step, to stay
quick): two players; Lea fills and locks her first row while Tom has a cross
in it, and Tom's cells of that row are refused once the action ends; Tom
then locks his second row and the game ends on two rows; nothing accepts a
tap after.  A second game of the evening ends on the last penalty box.  The
sheets the page leaves are scored by `sheetgen score` to the page's totals.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.play.tally import score_document

from browser import run_json
from counter_page import rename, tap, wait_for_dialog

pytestmark = pytest.mark.slow

# A turn, tapped in the page: for each action (player, row, lock), show the
# player's sheet, tap the leftmost cell of the row that the page offers (its
# lock only if `lock`) and confirm whatever the cross forces; then Next turn
# (and the penalty box, if the page asks for one).  Returns the game's state.
TURN = """
  for (const [player, row, lock] of arguments[0]) {
    if (window.sheetgen.game().over) break;
    const tab = document.querySelectorAll("#players button[aria-pressed]")[player];
    if (tab.getAttribute("aria-pressed") !== "true") tab.click();
    const line = document.querySelectorAll("#sheet [role=group]")[row], cells = [...line.querySelectorAll(".cell")];
    const offered = [...line.querySelectorAll(".cell, .lock")].filter((b) => b.getAttribute("aria-disabled") !== "true");
    const lockButton = offered.find((b) => b.classList.contains("lock"));
    const target = lockButton && lock ? lockButton : offered.find((b) => b !== lockButton && b !== cells[cells.length - 1]);
    if (!target) continue;
    target.click();
    for (let guard = 0; guard < 30; guard += 1) {
      const forced = document.querySelector("#proposal:not([hidden]) #proposal-buttons button.primary");
      if (!forced) break;
      forced.click();
    }
  }
  if (!window.sheetgen.game().over) document.getElementById("next-turn").click();
  if (document.getElementById("ask").open) document.getElementById("ask-yes").click();
  return window.sheetgen.game();
"""
# Every button of the sheet and the turn that a tap could change, offered or not.
OFFERED = """
  return [...document.querySelectorAll("#sheet button, #next-turn")].filter((b) => b.getAttribute("aria-disabled") !== "true")
    .map((b) => b.getAttribute("aria-label") || b.textContent);
"""


@pytest.mark.parametrize("name", builtin_names())
def test_a_whole_game_ends_on_two_rows_then_one_ends_on_the_last_penalty(page, name):
    grid = load_grid(name)
    driver = page(name, players=2)
    rename(driver, "Lea")
    tap(driver, "Player 2 0")
    rename(driver, "Tom")
    lea, tom = 0, 1
    refused_checked = False
    state = run_json(driver, "return window.sheetgen.game();")
    for _ in range(60):
        closed = [c["row"] for c in state["closed"]]
        lea_done = 0 in closed
        actions = [(lea, 0, True), (tom, 0 if not state["players"][tom]["rows"][0]["crossed"] else 1, lea_done)]
        active = [lea, tom].index(state["active"] == "Tom")
        actions.append(actions[active])  # the active player's action 2
        state = run_json(driver, TURN, actions)
        if state["over"]:
            break
        if lea_done is False and 0 in [c["row"] for c in state["closed"]] and not refused_checked:
            # Red (or row 1) is closed for Tom now: his next cell of it is refused, and says why.
            tap(driver, "Tom " + driver.find_element(By.CSS_SELECTOR, "#players button:nth-child(2) .total").text)
            line = driver.find_elements(By.CSS_SELECTOR, "#sheet [role=group]")[0]
            cells = line.find_elements(By.CSS_SELECTOR, ".cell")
            free = [c for c in cells if "crossed" not in c.get_attribute("aria-label")][0]
            assert free.get_attribute("aria-disabled") == "true"
            free.click()
            assert driver.find_element(By.ID, "message").text == "This row was closed by Lea."
            refused_checked = True
    assert refused_checked, state
    assert state["over"]["reason"] == "rows" and {c["row"] for c in state["closed"]} >= {0, 1}, state
    assert {tuple(c["by"]) for c in state["closed"] if c["row"] == 0} == {("Lea",)}
    assert run_json(driver, OFFERED) == []  # nothing accepts a tap
    driver.find_elements(By.CSS_SELECTOR, "#sheet .cell")[-1].click()
    assert driver.find_element(By.ID, "message").text == "The game is over."
    assert driver.find_element(By.ID, "over-title").text.startswith("Game over: ")
    assert driver.find_element(By.ID, "winner").text.startswith(("Winner: ", "Winners (tie): "))
    # The sheets as `sheetgen score` scores them, and the page's totals.
    result = score_document(grid, run_json(driver, "return window.sheetgen.marks();"), "page.json")
    assert result["refused"] == []
    tabs = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#players button[aria-pressed] .total")]
    assert tabs == [str(s["total"]).replace("-", "\u2212") for s in result["sheets"]]

    # A second game of the evening, the next player beginning: nobody crosses, and the 4th penalty box ends it.
    tap(driver, "New game")
    assert wait_for_dialog(driver).startswith("Keep this game in the evening’s standings")
    tap(driver, "Start")
    state = run_json(driver, "return window.sheetgen.game();")
    assert state["active"] == "Tom" and state["turn"] == 1
    for _ in range(2 * grid.penalty_boxes):
        state = run_json(driver, TURN, [])
        if state["over"]:
            break
    assert state["over"] == {"reason": "penalties", "turn": 2 * grid.penalty_boxes - 1, "player": "Tom"}
    assert driver.find_element(By.ID, "over-title").text == "Game over: Tom crossed their last penalty box."
    assert run_json(driver, OFFERED) == []
    assert driver.find_element(By.ID, "evening-title").text == "This evening (games: 2)"
