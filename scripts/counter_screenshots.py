"""Screenshots of the counter page for the README: docs/counter-GRID-WIDTH.png.

    .venv/bin/python scripts/counter_screenshots.py

Each grid's page, at 390 px wide (a phone in portrait) and 1280 px (a
desktop), in a game under way: the same taps on both, made as a player makes
them, through the page's buttons.  Needs Debian's chromium and chromedriver
and selenium (the test extra).
"""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from PIL import Image  # noqa: E402

from sheetgen.grid.load import load_grid  # noqa: E402
from sheetgen.play.counter import counter_html  # noqa: E402

from browser import open_page, start_chromium  # noqa: E402

# Labels of the buttons to press, in turn: a game under way.
GAMES = {
    "classic": ["Red 2", "Red 3", "Red 5", "Red 6", "Red 8", "Yellow 4", "Yellow 5", "Green 12", "Green 11", "Green 10",
                "Green 8", "Green 7", "Green 2", "Blue 11", "Penalty box 1"],
    "bonus": ["Red 2", "Red 3", "Cross Red 4", "Yellow 2", "Yellow 5", "Cross Yellow 6", "Blue 11", "Blue 10"],
    "powers": ["Red 3", "Yellow 3", "Yellow 7", "Green 5", "Blue 10", "Blue 7", "Cross Red 4", "Cross Yellow 8",
               "Cross Green 4", "Cross Blue 6"],
    "bis": ["Red 3", "Small box under Red 3", "Red 4", "Red 6", "Small box under Red 6", "Yellow 5", "Green 11",
            "Small box under Green 11", "Blue 12"],
    "disorder": ["Row 1: yellow 9", "Row 1: red 4", "Row 1: blue 5", "Row 2: yellow 8", "Row 2: blue 12",
                 "Row 3: red 8", "Row 3: green 5", "Row 3: red 6", "Row 4: green 11", "Penalty box 1"],
}
WIDTHS = (390, 1280)
SCRIPT = """
  for (const label of arguments[0]) {
    const button = [...document.querySelectorAll("button")].find((b) =>
      (b.getAttribute("aria-label") || "").split(",")[0] === label || b.textContent.trim() === label);
    if (!button || button.disabled) return label;
    button.click();
  }
  document.activeElement.blur();
  return "";
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        driver = start_chromium(Path(folder))
        try:
            for name, taps in GAMES.items():
                for width in WIDTHS:
                    open_page(driver, counter_html(load_grid(name)), Path(folder, f"{name}.html"), width, 900)
                    driver.execute_script("localStorage.clear(); location.reload();")
                    missing = driver.execute_script(SCRIPT, taps)
                    if missing:
                        raise SystemExit(f"{name}: no button {missing!r} to press")
                    height = driver.execute_script("return document.documentElement.scrollHeight")
                    driver.set_window_size(width, height + 120)  # the window's own bars
                    shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
                    target = ROOT / "docs" / f"counter-{name}-{width}.png"
                    # A palette of 128 colours: the page has few, and the README's images stay small.
                    shot.quantize(128, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)
                    print(f"wrote {target.relative_to(ROOT)} ({target.stat().st_size // 1024} KiB)")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
