"""Screenshots of the counter page: the few that docs/counter.md and the README
show, or every grid at every size and state, to look at.

    .venv/bin/python scripts/counter_screenshots.py             # docs/counter-*.png
    .venv/bin/python scripts/counter_screenshots.py --all DIR   # DIR/GRID-VIEW-STATE.png, 90 of them

Views: a phone in portrait (390 x 844), the same phone on its side (844 x 390,
the viewport itself) and a desktop (1280 x 800); states: the start, a game
under way (two players, each crossing the first cell the page offers, turn
by turn) and the game over (then nobody crosses, until the penalties end it).
Every state is reached by tapping the page's own buttons.  Needs Debian's
chromium and chromedriver and selenium (the test extra).
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from PIL import Image  # noqa: E402

from sheetgen.grid.load import builtin_names, load_grid  # noqa: E402
from sheetgen.play.counter import counter_html  # noqa: E402

from browser import open_page, start_chromium  # noqa: E402

VIEWS = {"390": (390, 844), "landscape": (844, 390), "1280": (1280, 800)}
STATES = ("start", "mid", "over")
# (grid, view, state, name in docs/): what the documentation shows.
DOCS = [("classic", "390", "mid", "counter-classic-390.png"),
        ("bonus", "390", "pending", "counter-bonus-390.png"),
        ("longo", "390", "mid", "counter-longo-390.png"),
        ("classic", "landscape", "mid", "counter-classic-landscape.png"),
        ("powers", "1280", "mid", "counter-powers-1280.png"),
        ("classic", "390", "over", "counter-classic-over-390.png")]
PLAY = """
  const [state] = arguments, ask = document.getElementById("ask");
  const forced = () => document.querySelector("#proposal:not([hidden]) #proposal-buttons button.primary");
  const confirm = () => { for (let b; (b = forced());) b.click(); };
  document.querySelector("#players button:last-child").click();  // a second player
  for (let turn = 0; turn < 5; turn += 1) {
    for (const tab of [...document.querySelectorAll("#players button[aria-pressed]")]) {
      tab.click();
      const cells = [...document.querySelectorAll("#sheet .cell")]
        .filter((b) => b.getAttribute("aria-disabled") !== "true");
      if (cells.length) cells[(turn * 7) % Math.min(cells.length, 12)].click();
      confirm();
    }
    document.getElementById("next-turn").click();
    if (ask.open) document.getElementById("ask-yes").click();
  }
  if (state === "pending") {
    for (const cell of document.querySelectorAll("#sheet .cell.framed, #sheet .cell:has(.symbol)")) {
      if (cell.getAttribute("aria-disabled") === "true") continue;
      cell.click();
      if (!document.getElementById("proposal").hidden) break;
      document.getElementById("undo").click();
    }
  }
  while (state === "over" && !window.sheetgen.game().over) {
    confirm();
    document.getElementById("next-turn").click();
    if (ask.open) document.getElementById("ask-yes").click();
  }
  document.activeElement.blur();
  window.scrollTo(0, 0);
"""


def shoot(driver, folder: Path, grid: str, view: str, state: str, target: Path) -> None:
    width, height = VIEWS[view]
    open_page(driver, counter_html(load_grid(grid)), folder / f"{grid}.html", width, height)
    driver.execute_script("localStorage.clear(); location.reload();")
    if state != "start":
        driver.execute_script(PLAY, state)
    if view == "landscape":  # what a phone on its side shows: its viewport, no more
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    else:
        full = driver.execute_script("return document.documentElement.scrollHeight")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": full, "deviceScaleFactor": 1, "mobile": False})
    try:
        shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    # A palette of 64 colours: the page has few, and the documentation's images stay small.
    shot.quantize(64, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)
    print(f"wrote {target} ({target.stat().st_size // 1024} KiB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", metavar="DIR", type=Path, help="every grid, view and state into DIR")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        driver = start_chromium(Path(folder))
        try:
            if args.all:
                args.all.mkdir(parents=True, exist_ok=True)
                for grid in builtin_names():
                    for view in VIEWS:
                        for state in STATES:
                            shoot(driver, Path(folder), grid, view, state, args.all / f"{grid}-{view}-{state}.png")
            else:
                for grid, view, state, name in DOCS:
                    shoot(driver, Path(folder), grid, view, state, ROOT / "docs" / name)
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
