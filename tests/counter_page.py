"""What the tests of the counter page share: opening a grid's page on a
fresh table in the session's Chromium (the ``page`` fixture) and the gestures of a
person at the table, each finding a button by its visible text or its label
for screen readers (up to its first comma), never by the page's structure."""

from __future__ import annotations

import json

from selenium.common.exceptions import NoSuchElementException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from sheetgen.grid.load import load_grid
from sheetgen.play.counter import counter_html

from browser import open_page


def counter_opener(chromium, tmp_path):
    """The ``page`` fixture of conftest.py: open the counter page of a grid (a
    name, or a Grid) on a fresh table, ``page("classic", players=2)``, the first
    player's sheet shown."""

    def open_counter(grid, width: int = 390, lang: str = "en", height: int = 844, players: int = 1, **options):
        model = load_grid(grid) if isinstance(grid, str) else grid
        open_page(chromium, counter_html(model, lang, **options), tmp_path / f"counter-{model.name}-{lang}.html", width, height)
        chromium.execute_script("localStorage.clear(); location.reload();")
        for _ in range(players - 1):
            chromium.find_element(By.XPATH, "//nav[@id='players']/button[last()]").click()
        if players > 1:
            chromium.find_element(By.XPATH, "//nav[@id='players']/button[1]").click()
        return chromium

    return open_counter


def button(driver, label: str):
    """The shown button whose label (to the first comma) or visible text is ``label``;
    a player's tab by the player's name and total ("Lea 12")."""
    path = (f"//button[@aria-label={quoted(label)} or starts-with(@aria-label, {quoted(label + ',')})"
            f" or normalize-space(.)={quoted(label)}"
            f" or (parent::nav and concat(normalize-space(span[@class='who']), ' ', normalize-space(span[@class='total']))={quoted(label)})]")
    found = [b for b in driver.find_elements(By.XPATH, path) if b.is_displayed()]
    if not found:
        raise NoSuchElementException(label)
    return found[0]


def quoted(text: str) -> str:
    """``text`` as an XPath string literal."""
    if "'" not in text:
        return f"'{text}'"
    return "concat(" + ", \"'\", ".join(f"'{part}'" for part in text.split("'")) + ")"


def tappable(target) -> bool:
    """Whether a button offers itself: the page leaves refused ones tappable, to say why, and marks them aria-disabled."""
    return target.get_attribute("aria-disabled") != "true" and target.is_enabled()


def tap(driver, *labels: str) -> None:
    for label in labels:
        target = button(driver, label)
        assert tappable(target), f"{label} cannot be tapped: {driver.find_element(By.ID, 'message').text}"
        target.click()


def message(driver, label: str | None = None) -> str:
    """The page's message line, after tapping ``label`` if one is given (a tap the page refuses)."""
    if label is not None:
        button(driver, label).click()
    return driver.find_element(By.ID, "message").text


def next_turn(driver) -> None:
    driver.find_element(By.ID, "next-turn").click()


def tabs(driver) -> list[tuple[str, str]]:
    """The players' tabs: each name and total, as shown."""
    return [(b.find_element(By.CLASS_NAME, "who").text, b.find_element(By.CLASS_NAME, "total").text)
            for b in driver.find_elements(By.CSS_SELECTOR, "#players button[aria-pressed]")]


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


def open_log(driver) -> list[str]:
    """Open the log and return its entries, once drawn: the page draws them on the
    details' toggle event, which fires after the click has returned."""
    driver.find_element(By.ID, "log-title").click()
    entries = WebDriverWait(driver, 10).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#log button"), "the log drew no entries")
    return [entry.text for entry in entries]


def wait_for_dialog(driver):
    """The question the page asks, once its dialog is open (an import reads its file first)."""
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.getElementById('ask').open"))
    return driver.find_element(By.ID, "ask-text").text


def downloaded(driver, label: str, suffix: str) -> tuple[str, str]:
    """Press ``label`` and read the file the browser saved: (its path, its text)."""
    folder = driver.downloads
    for old in folder.iterdir():
        old.unlink()
    tap(driver, label)
    saved = WebDriverWait(driver, 10).until(lambda _: [f for f in folder.iterdir() if f.suffix == suffix],
                                            "nothing downloaded")
    return str(saved[0]), saved[0].read_text(encoding="utf-8")


def exported(driver) -> dict:
    """Press Export and read the marks file the browser saved (its path under ``_path``)."""
    path, text = downloaded(driver, "Export marks file", ".json")
    return json.loads(text) | {"_path": path}
