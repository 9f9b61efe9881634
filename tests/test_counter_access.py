"""The counter page for everybody at the table: axe-core's checks on every
built-in grid at the start, mid-game, with a proposal or a question pending,
and at game over (no serious or critical violation), the high-contrast look
at AAA, every target 44 x 44 px on a phone without sideways scrolling (long
rows wrap), 8 players with long names, a landscape phone, and the keyboard.

axe-core is vendored as a test fixture (tests/vendor/axe-core, its licence
beside it) and injected into the page under test only."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from sheetgen.grid.load import builtin_names, grid_from_data, load_grid
from sheetgen.play.counter import contrast, theme_as_data
from sheetgen.sheet.style import load_theme, themes

from browser import run_json
from counter_page import (
    button,
    labelled,
    open_log,
    rename,
    tap,
    tappable,
    wait_for_dialog,
)

pytestmark = pytest.mark.slow

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
RUN_AXE = """
  const done = arguments[arguments.length - 1], [tags, only] = arguments;
  if (!window.axe) { const script = document.createElement("script"); script.textContent = arguments[2]; document.head.append(script); }
  const options = only ? {runOnly: {type: "rule", values: only}} : {runOnly: {type: "tag", values: tags},
    rules: {"target-size": {enabled: true}, "label-content-name-mismatch": {enabled: true}}};
  axe.run(document, {...options, resultTypes: ["violations"]}).then((r) => done(JSON.stringify(r.violations.map((v) =>
    ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + ": " + n.failureSummary)})))));
"""


def violations(driver, only: list[str] | None = None) -> list[dict]:
    import json

    found = json.loads(driver.execute_async_script(RUN_AXE, TAGS, only, AXE))
    return [v for v in found if v["impact"] in ("serious", "critical")]


def wide_grid(cells: int = 18):
    """A grid of `cells` cells a row (ten-sided dice: 2 to 20), more than any built-in grid."""
    numbers = list(range(2, 2 + cells))
    return grid_from_data({
        "name": "wide", "title": "Wide", "dice_faces": 10, "close_after": 5, "penalties": {"boxes": 4, "points": 5},
        "rows": [{"colour": c, "cells": numbers if c in ("red", "yellow") else numbers[::-1]}
                 for c in ("red", "yellow", "green", "blue")]}, "wide.yaml")


# A few moves of a game in the page: each player crosses the first cell the page offers, then Next turn.
MID_GAME = """
  for (let turn = 0; turn < arguments[0]; turn += 1) {
    for (const tab of [...document.querySelectorAll("#players button[aria-pressed]")]) {
      tab.click();
      const cell = [...document.querySelectorAll("#sheet .cell")].find((b) => b.getAttribute("aria-disabled") !== "true");
      if (cell) cell.click();
      for (let b; (b = document.querySelector("#proposal:not([hidden]) #proposal-buttons button.primary"));) b.click();
    }
    document.getElementById("next-turn").click();
    if (document.getElementById("ask").open) document.getElementById("ask-yes").click();
  }
  return window.sheetgen.game().turn;
"""
# The first tap that leaves a proposal pending (a framed cell, a power), else the penalty's question.
PENDING = """
  for (const cell of document.querySelectorAll("#sheet .cell")) {
    if (cell.getAttribute("aria-disabled") === "true") continue;
    cell.click();
    if (!document.getElementById("proposal").hidden) return "proposal";
    document.getElementById("undo").click();
  }
  document.getElementById("players").querySelector("button[aria-pressed]").click();
  document.getElementById("next-turn").click();
  return document.getElementById("ask").open ? "question" : "nothing";
"""
GAME_OVER = """
  const ask = document.getElementById("ask");
  if (ask.open) ask.close();
  for (let k = 0; k < 40 && !window.sheetgen.game().over; k += 1) {
    for (let b; (b = document.querySelector("#proposal:not([hidden]) #proposal-buttons button.primary"));) b.click();
    document.getElementById("next-turn").click();
    if (ask.open) document.getElementById("ask-yes").click();
  }
  return window.sheetgen.game().over;
"""


@pytest.mark.parametrize("name", builtin_names())
def test_axe_finds_nothing_serious_at_start_mid_game_pending_and_game_over(page, name):
    driver = page(name, players=2)
    assert violations(driver) == [], "start"
    run_json(driver, MID_GAME, 3)
    assert open_log(driver)  # the log open, with its buttons
    assert violations(driver) == [], "mid-game"
    if name in ("classic", "mixed"):  # the colours are the theme's, the same on every grid: two suffice
        driver.find_element(By.ID, "contrast").click()
        assert violations(driver, ["color-contrast-enhanced"]) == [], "high contrast, AAA"
        driver.find_element(By.ID, "contrast").click()
    assert run_json(driver, PENDING) in ("proposal", "question")
    assert violations(driver) == [], "pending"
    assert run_json(driver, GAME_OVER)
    assert violations(driver) == [], "game over"


def test_every_colour_of_every_theme_has_the_contrast_a_screen_needs():
    white = (1.0, 1.0, 1.0)
    for theme in themes():
        for name, colour in theme_as_data(load_theme(theme))["colours"].items():
            rgb = {key: tuple(int(value[i:i + 2], 16) / 255 for i in (1, 3, 5)) for key, value in colour.items() if value}
            for back in (white, rgb["pale"]):
                assert contrast(rgb["edge"], back) >= 3 - 0.01, (theme, name)
                assert contrast(rgb["text"], back) >= 4.5 - 0.01, (theme, name)
                assert contrast(rgb["strong_text"], back) >= 7 - 0.01, (theme, name)
    assert contrast((0.0, 0.0, 0.0), white) == pytest.approx(21)
    assert contrast((0.96, 0.77, 0.06), white) < 3  # the print theme's yellow alone would not do on a screen


LAYOUT = """
  const targets = [...document.querySelectorAll("button, select, input, a, summary")].filter((b) => b.offsetParent !== null
    && !b.closest(".visually-hidden") && !b.matches(".skip, .import input"));
  const small = targets.map((b) => [b.getAttribute("aria-label") || b.textContent.trim(), b.getBoundingClientRect()])
    .filter(([, r]) => r.width < 44 || r.height < 44).map(([label, r]) => `${label}: ${Math.round(r.width)}x${Math.round(r.height)}`);
  const outside = targets.filter((b) => b.getBoundingClientRect().right > window.innerWidth + 0.5).map((b) => b.textContent.trim());
  const rows = [...document.querySelectorAll("#sheet .row")].map((row) => row.getBoundingClientRect().bottom);
  return {small, outside, scroll: document.documentElement.scrollWidth, width: window.innerWidth, height: window.innerHeight, rows};
"""


@pytest.mark.parametrize("name", [*builtin_names(), "wide"])
def test_every_target_is_44_px_on_a_phone_and_at_200_percent_zoom_without_sideways_scrolling(page, name):
    driver = page(wide_grid() if name == "wide" else name, players=2)
    for width, height in ((390, 844), (640, 400)):  # a phone; a 1280 x 800 window at 200 % zoom (the page refits)
        driver.set_window_size(width, height)
        layout = run_json(driver, LAYOUT)
        assert layout["width"] == width and layout["small"] == [] and layout["outside"] == [], (width, layout)
        assert layout["scroll"] <= layout["width"], width


def test_classic_on_a_phone_on_its_side_shows_every_row_without_scrolling(page):
    driver = page("classic", players=2)
    # The viewport itself, 844 x 390 as a phone has it (a window's size would include its bars).
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 844, "height": 390, "deviceScaleFactor": 1, "mobile": True})
    try:
        driver.refresh()
        layout = run_json(driver, LAYOUT)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert (layout["width"], layout["height"]) == (844, 390)
    assert len(layout["rows"]) == 4 and max(layout["rows"]) <= layout["height"], layout
    assert layout["small"] == [] and layout["scroll"] <= layout["width"]


def test_eight_players_with_long_names_fit_and_the_ranking_shows_them_whole(page):
    driver = page("classic", players=8)
    long = "W" * 40
    rename(driver, long)
    assert button(driver, "+ Add player").get_attribute("aria-disabled") == "true"  # 8: the most a table seats
    tab = driver.find_element(By.CSS_SELECTOR, "#players button[aria-pressed='true'] .who")
    assert driver.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", tab)  # cut, with an ellipsis
    assert driver.find_element(By.CSS_SELECTOR, "#players button[aria-pressed='true']").get_attribute("title") == long
    tap(driver, "Red 2")
    layout = run_json(driver, LAYOUT)
    assert layout["outside"] == [] and layout["scroll"] <= layout["width"]
    ranking = driver.find_element(By.ID, "ranking")
    assert long in ranking.text and ranking.rect["x"] + ranking.rect["width"] <= 390


def test_the_keyboard_crosses_keeps_its_place_moves_by_arrows_and_closes_dialogs(page):
    driver = page("classic", players=2)
    driver.refresh()  # nothing focused yet
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    skip = driver.switch_to.active_element
    assert skip.text == "Skip to Undo and Next turn"
    skip.send_keys(Keys.ENTER)
    assert driver.switch_to.active_element.get_attribute("id") == "next-turn"
    red4 = button(driver, "Red 4")
    red4.send_keys(Keys.ENTER)
    assert labelled(driver, "Red 4") == "Red 4, crossed"
    assert driver.switch_to.active_element.get_attribute("aria-label").startswith("Red 4")  # focus stays put
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert driver.switch_to.active_element.get_attribute("aria-label") == "Red 5"
    driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    assert driver.switch_to.active_element.get_attribute("aria-label").startswith("Yellow 5")
    # One tab stop per row: from red to yellow in one Tab.
    button(driver, "Red 5").send_keys(Keys.TAB)
    assert driver.switch_to.active_element.get_attribute("aria-label").startswith("Yellow")
    tab = button(driver, "Player 2 0")
    tab.send_keys(Keys.ENTER)  # another player's sheet: focus stays on the tab
    assert driver.switch_to.active_element.text.startswith("Player 2")
    tap(driver, "New game")
    wait_for_dialog(driver)
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    assert not driver.find_element(By.ID, "ask").is_displayed()
    driver.find_element(By.ID, "undo").send_keys(Keys.ENTER)
    assert labelled(driver, "Red 4") in ("Red 4", "Red 4, crossed") and tappable(button(driver, "Next turn"))


def test_power_symbols_are_at_least_16_px_on_a_phone(page):
    driver = page("powers")
    sizes = run_json(driver, "return [...document.querySelectorAll('.symbol')].map((s) => s.getBoundingClientRect().width);")
    assert len(sizes) == 10 and min(sizes) >= 16  # five symbols, each on two cells
    drawn = run_json(driver, "return [...document.querySelectorAll('.symbol')].map((s) => s.innerHTML);")
    assert len(set(drawn)) == len(load_grid("powers").powers)  # five pictures, one per power
