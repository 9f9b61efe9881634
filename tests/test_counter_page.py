"""The counter page in a real headless Chromium, used as a person uses it:
buttons found by their visible label or their label for screen readers,
totals read off the page, reloaded, exported and scored by `sheetgen score`.

Every expected total is worked out by hand from the rules (the worked
examples of docs/scoring.md where there are some)."""

from __future__ import annotations

import json
import random
import time

import pytest
from click.testing import CliRunner
from selenium.common.exceptions import NoSuchElementException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from sheetgen.cli import cli
from sheetgen.grid.load import builtin_names, grid_from_data, load_grid
from sheetgen.play.counter import counter_html
from sheetgen.play.tally import score_document
from sheetgen.sheet.style import languages, load_labels

from browser import open_page, run_json


@pytest.fixture
def page(chromium, tmp_path):
    """Open the counter page of a grid (a name, or a Grid) on a fresh table: ``page("classic")``."""

    def open_counter(grid, width: int = 390, lang: str = "en", height: int = 844):
        model = load_grid(grid) if isinstance(grid, str) else grid
        open_page(chromium, counter_html(model, lang), tmp_path / f"counter-{model.name}-{lang}.html", width, height)
        chromium.execute_script("localStorage.clear(); location.reload();")
        return chromium

    return open_counter


def button(driver, label: str):
    """The button whose label (to the first comma) or visible text is ``label``."""
    path = (f"//button[@aria-label='{label}' or starts-with(@aria-label, '{label},')"
            f" or normalize-space(.)='{label}']")
    found = [b for b in driver.find_elements(By.XPATH, path) if b.is_displayed()]
    if not found:
        raise NoSuchElementException(label)
    return found[0]


def tap(driver, *labels: str) -> None:
    for label in labels:
        target = button(driver, label)
        assert target.is_enabled(), f"{label} cannot be tapped"
        target.click()


def total(driver) -> str:
    return driver.find_element(By.ID, "total").get_attribute("aria-label")


def labelled(driver, label: str) -> str:
    return button(driver, label).get_attribute("aria-label")


def proposal(driver) -> tuple[str, list[str]]:
    box = driver.find_element(By.ID, "proposal")
    if not box.is_displayed():
        return "", []
    return (driver.find_element(By.ID, "proposal-text").text,
            [b.text for b in box.find_elements(By.CSS_SELECTOR, "#proposal-buttons button")])


def rename(driver, name: str) -> None:
    field = driver.find_element(By.CSS_SELECTOR, ".name input")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(name, Keys.TAB)


def exported(driver) -> dict:
    """Press Export and read the file the browser saved."""
    folder = driver.downloads
    for old in folder.iterdir():
        old.unlink()
    tap(driver, "Export marks file")
    for _ in range(100):
        files = [f for f in folder.iterdir() if f.suffix == ".json"]
        if files:
            return json.loads(files[0].read_text(encoding="utf-8")) | {"_path": str(files[0])}
        time.sleep(0.05)
    raise AssertionError("nothing downloaded")


# -- a whole game ------------------------------------------------------------------------


def test_a_classic_sheet_tapped_in_scores_68_survives_a_reload_and_exports(page, tmp_path):
    driver = page("classic")
    tap(driver, "Red 2", "Red 3", "Red 4", "Red 5")
    assert not button(driver, "Red 3").is_enabled() and "struck" not in labelled(driver, "Red 3")  # crossed, not struck
    tap(driver, "Yellow 3")
    assert "struck" in labelled(driver, "Yellow 2") and not button(driver, "Yellow 2").is_enabled()
    tap(driver, "Undo")
    assert button(driver, "Yellow 2").is_enabled() and "crossed" not in labelled(driver, "Yellow 3")
    tap(driver, "Red 6", "Red 7", "Yellow 2", "Yellow 3", "Yellow 4", "Yellow 5")
    tap(driver, "Green 12", "Green 11", "Green 10", "Green 9")
    assert not button(driver, "Green 2").is_enabled()  # 4 crosses: the last cell needs 5
    tap(driver, "Green 8")
    assert button(driver, "Green 2").is_enabled()
    tap(driver, "Green 7", "Green 2", "Blue 12", "Blue 11", "Blue 10", "Penalty box 1")
    assert labelled(driver, "Green lock") == "Green lock, crossed"
    assert "struck" in labelled(driver, "Green 3")
    # The rules' classic example: 6, 4, 8 (lock included), 3 crosses and 1 penalty = 21 + 10 + 36 + 6 - 5 = 68.
    assert total(driver) == "Total: 68"
    boxes = [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, "#totals .total-box")]
    assert boxes[:5] == ["Red: 6x, 21 Points", "Yellow: 4x, 10 Points", "Green: 8x, 36 Points", "Blue: 3x, 6 Points",
                         "Penalties: 5"]
    driver.refresh()
    assert total(driver) == "Total: 68" and labelled(driver, "Red 7") == "Red 7, crossed"
    document = exported(driver)
    assert document["grid"] == "classic" and [p["player"] for p in document["players"]] == ["Player 1"]
    result = CliRunner().invoke(cli, ["score", "classic", document["_path"], "--json"])
    assert result.exit_code == 0, result.output
    assert [sheet["total"] for sheet in json.loads(result.output)["sheets"]] == [68]


def test_players_by_name_a_ranking_and_the_winners(page):
    driver = page("classic")
    rename(driver, "Lea")
    tap(driver, "Red 2", "Red 3", "Red 4")  # 6
    tap(driver, "+ Add player")
    rename(driver, "Lea")  # taken: refused, the name stays
    assert "each player has their own" in driver.find_element(By.ID, "message").text
    assert driver.find_element(By.CSS_SELECTOR, ".name input").get_attribute("value") == "Player 2"
    rename(driver, "Tom")
    tap(driver, "Blue 12", "Blue 10")  # 3
    ranking = driver.find_element(By.ID, "ranking").text.splitlines()
    assert ranking == ["1 Lea 6", "2 Tom 3"]
    assert driver.find_element(By.ID, "winner").text == "Winner: Lea"
    tap(driver, "Blue 9", "Blue 8")  # 4 crosses: 10
    assert driver.find_element(By.ID, "winner").text == "Winner: Tom"
    tap(driver, "+ Add player", "Yellow 2", "Yellow 3", "Yellow 4", "Yellow 5")  # Player 3: 10, as Tom
    assert driver.find_element(By.ID, "ranking").text.splitlines() == ["1 Tom 10", "1 Player 3 10", "3 Lea 6"]
    assert driver.find_element(By.ID, "winner").text == "Winners (tie): Tom and Player 3"
    tap(driver, "Lea 6")  # the players' tabs show their totals
    assert labelled(driver, "Red 4") == "Red 4, crossed"
    document = exported(driver)
    assert [(p["player"], p["rows"][0]["crossed"]) for p in document["players"]] == [
        ("Lea", [2, 3, 4]), ("Tom", []), ("Player 3", [])]


# -- what a cross forces ------------------------------------------------------------------


def test_a_bonus_chain_is_proposed_and_confirmed(page):
    driver = page("bonus")
    tap(driver, "Red 3")  # framed: takes box 1 (red), whose cross is red 4 at once
    assert proposal(driver) == ("Bonus box 1 crossed: now cross the next free cell of its row.", ["Cross Red 4", "Undo"])
    assert not button(driver, "Red 7").is_enabled()  # nothing else until it is done
    tap(driver, "Cross Red 4")
    assert labelled(driver, "Red 4") == "Red 4, crossed"
    tap(driver, "Red 6")  # framed: box 2 (yellow) -> yellow 2
    tap(driver, "Cross Yellow 2")
    tap(driver, "Yellow 5")  # framed: box 3 (green) -> green 12
    assert proposal(driver)[1] == ["Cross Green 12", "Undo"]
    tap(driver, "Undo")  # takes back yellow 5 and its box
    assert proposal(driver) == ("", []) and "crossed" not in labelled(driver, "Yellow 5")
    assert "crossed" not in driver.find_elements(By.CSS_SELECTOR, ".bar-box")[2].get_attribute("aria-label")
    # red 3 crosses (6), yellow 1 (1): the bar scores nothing
    assert total(driver) == "Total: 7"
    marks = run_json(driver, "return window.sheetgen.marks();")
    assert marks["players"][0]["bonus_bar"] == [1, 2]


def test_a_row_closed_by_another_player_strikes_its_bar_boxes(page):
    driver = page("bonus")
    tap(driver, "Red: closed by another player")
    assert button(driver, "Red: closed by another player").get_attribute("aria-pressed") == "true"
    assert not button(driver, "Red 2").is_enabled()
    bar = [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, ".bar-box")]
    assert bar[0] == "Bonus box 1, red, struck" and bar[5] == "Bonus box 6, red, struck"
    tap(driver, "Yellow 5")  # framed: box 1 is struck, so box 2 (yellow): yellow 6
    assert proposal(driver)[0].startswith("Bonus box 2 crossed")
    tap(driver, "Cross Yellow 6")
    assert total(driver) == "Total: 3"


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
    tap(driver, "Red 2", "Undo", "Undo")  # back to the second of the circle's crosses
    assert proposal(driver)[1] == ["Cross Blue 11", "Undo"]


def test_bis_boxes_only_under_the_rightmost_cross(page):
    driver = page("bis")
    tap(driver, "Red 5")
    assert button(driver, "Small box under Red 5").is_enabled()
    tap(driver, "Red 7")
    assert not button(driver, "Small box under Red 5").is_enabled()
    tap(driver, "Small box under Red 7")
    assert labelled(driver, "Small box under Red 7") == "Small box under Red 7, crossed"
    assert not button(driver, "Small box under Red 7").is_enabled()
    assert total(driver) == "Total: 6"  # 2 cells + 1 small box = 3 crosses


def test_doubles_count_two_towards_the_lock(page):
    driver = page("doubles")
    tap(driver, "Red 2", "Red 3", "Red 4", "Red 5")  # 1 + 2 + 1 + 2 = 6 of the 7 needed
    assert "double" in labelled(driver, "Red 3")
    assert not button(driver, "Red 12").is_enabled()
    tap(driver, "Red 6", "Red 12")
    assert total(driver) == "Total: 45"  # 7 + the last cell + the lock = 9 crosses


def test_lucky_numbers_are_asked_for_and_propose_the_row_with_fewest(page):
    driver = page("longo")
    assert not button(driver, "Lucky number").is_enabled()
    selects = driver.find_elements(By.CSS_SELECTOR, ".lucky select")
    Select(selects[0]).select_by_visible_text("3")
    assert not Select(selects[1]).options[2].is_enabled()  # 3 is taken: two different numbers
    Select(selects[1]).select_by_visible_text("14")
    tap(driver, "Red 2", "Yellow 2", "Blue 16")  # green has fewest crosses
    tap(driver, "Lucky number")
    assert proposal(driver)[1] == ["Cross Green 16", "Cancel"]
    tap(driver, "Cross Green 16")
    tap(driver, "Lucky number")  # all rows tie now: any of them
    assert proposal(driver)[1] == ["Cross Red 3", "Cross Yellow 3", "Cross Green 15", "Cross Blue 15", "Cancel"]
    tap(driver, "Cancel")
    assert total(driver) == "Total: 4"
    driver.refresh()
    assert [Select(s).first_selected_option.text for s in driver.find_elements(By.CSS_SELECTOR, ".lucky select")] == ["3", "14"]


# -- files ---------------------------------------------------------------------------------


def test_a_marks_file_is_imported_and_a_refused_one_is_not(page, tmp_path):
    driver = page("classic")
    table = {"grid": "classic", "players": [
        {"player": "Ann", "rows": [{"crossed": [2, 3, 4, 5, 6, 12], "lock": True}, {}, {}, {"crossed": [12]}]},
        {"player": "Bob", "rows": [{"crossed": [7]}, {}, {}, {}], "penalties": 2}]}
    good = tmp_path / "table.json"
    good.write_text(json.dumps(table))
    driver.find_element(By.ID, "import").send_keys(str(good))
    tap(driver, "Replace")
    # Ann: 6 cells + lock = 7 crosses, 28, and blue 1: 29.  Bob: 1 - 10 = -9.
    assert [b.text.split("\n") for b in driver.find_elements(By.CSS_SELECTOR, "#players button")][:2] == [
        ["Ann", "29"], ["Bob", "-9"]]
    assert driver.find_element(By.ID, "winner").text == "Winner: Ann"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rows": [{"crossed": [2, 3, 12]}, {}, {}, {}]}))
    driver.find_element(By.ID, "import").send_keys(str(bad))
    assert driver.find_element(By.ID, "message").text.startswith("Not imported: bad.json: rows[0].crossed: 12 crossed")
    yaml = tmp_path / "lea.yaml"
    yaml.write_text("rows: []\n")
    driver.find_element(By.ID, "import").send_keys(str(yaml))
    assert "reads JSON marks files" in driver.find_element(By.ID, "message").text
    assert total(driver) == "Total: 29"  # the table stays


# -- random play through the page: it never makes a sheet the scorer refuses --------------


@pytest.mark.parametrize("name", builtin_names())
def test_random_taps_never_make_a_sheet_the_scorer_refuses(page, name):
    driver = page(name)
    seed = random.Random(name).randrange(10**6)
    snapshots = run_json(driver, """
      let seed = arguments[0];
      const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
      const snapshots = [];
      for (let step = 0; step < 120; step += 1) {
        const proposal = [...document.querySelectorAll("#proposal-buttons button.primary")];
        const taps = proposal.length ? proposal : [...document.querySelectorAll(
          ".cell:enabled, .bis:enabled, .penalty:enabled, #lucky-button:enabled, .lock:enabled")]
          .filter((b) => !b.classList.contains("lock") || next() < 0.05);
        if (!taps.length) break;
        taps[Math.floor(next() * taps.length)].click();
        if (!document.querySelector("#proposal-buttons button")) snapshots.push(window.sheetgen.marks());
      }
      return snapshots;""", seed)
    grid = load_grid(name)
    assert len(snapshots) > 10
    for document in snapshots:
        assert score_document(grid, document, "page.json")["refused"] == [], json.dumps(document)


# -- phone first -------------------------------------------------------------------------


def wide_grid():
    """A grid of 16 cells a row (nine-sided dice: 2 to 17), the most a row of the issue holds."""
    cells = list(range(2, 18))
    return grid_from_data({
        "name": "wide", "title": "Wide", "dice_faces": 9, "close_after": 5, "penalties": {"boxes": 4, "points": 5},
        "rows": [{"colour": c, "cells": cells if c in ("red", "yellow") else cells[::-1]}
                 for c in ("red", "yellow", "green", "blue")]}, "wide.yaml")


LAYOUT = """
  const rows = [...document.querySelectorAll(".cells:not(.bis-line)")].map((line) => {
    const items = [...line.querySelectorAll(".cell, .lock")].map((b) => b.getBoundingClientRect());
    return {tops: items.map((r) => Math.round(r.top)), heights: items.map((r) => r.height), widths: items.map((r) => r.width),
            right: Math.max(...items.map((r) => r.right))};
  });
  const small = [...document.querySelectorAll("button, select, .button")].filter((b) => b.offsetParent !== null
    && !b.matches(".cell, .lock, .bis")).map((b) => b.getBoundingClientRect()).filter((r) => r.height < 44 || r.width < 44);
  return {rows, small: small.length, scroll: document.documentElement.scrollWidth, width: window.innerWidth};
"""


@pytest.mark.parametrize("name", ["classic", "longo", "bis", "wide"])
def test_at_390_px_a_row_fits_on_one_line_with_cells_44_px_tall(page, name):
    driver = page(wide_grid() if name == "wide" else name, width=390)
    layout = run_json(driver, LAYOUT)
    assert layout["scroll"] <= layout["width"]  # no horizontal scrolling
    assert layout["small"] == 0  # every other button at least 44 x 44 px
    for row in layout["rows"]:
        assert len(set(row["tops"])) == 1  # cells and lock on one line
        assert min(row["heights"]) >= 44
        cell_widths = row["widths"][:-1]
        assert max(cell_widths) - min(cell_widths) < 1 and row["right"] <= layout["width"]
    wide = run_json(page(wide_grid() if name == "wide" else name, width=1280), LAYOUT)
    assert min(wide["rows"][0]["widths"]) > 1.5 * max(layout["rows"][0]["widths"][:-1])  # desktop: room
    assert wide["scroll"] <= wide["width"]


def test_the_keyboard_crosses_a_cell_and_undoes_it(page):
    driver = page("classic")
    button(driver, "Red 4").send_keys(Keys.SPACE)
    assert labelled(driver, "Red 4") == "Red 4, crossed"
    driver.find_element(By.ID, "undo").send_keys(Keys.ENTER)
    assert labelled(driver, "Red 4") == "Red 4"


@pytest.mark.parametrize("lang", languages())
def test_the_page_speaks_every_language(page, lang):
    words = load_labels(lang)
    driver = page("rainbow", lang=lang)
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
    assert words("counter_heading") in driver.find_element(By.ID, "heading").text
    assert button(driver, words("counter_export")).is_displayed()
    # rainbow's rows have cells of several colours: rows are named by number, cells by colour
    first = words("counter_row", 1) + ": " + words("colour_yellow") + " 2"
    assert labelled(driver, first) == first


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
