"""A real headless Chromium for the tests of the counter page: Debian's
chromium driven through its chromedriver by selenium, which downloads nothing.

``start_chromium`` starts one browser (the session fixture ``chromium`` in
conftest.py keeps it for the whole run); ``open_page`` writes a page to a file
and loads it from file://, as a person opens a downloaded page.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars")


def start_chromium(downloads: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + (f"--user-data-dir={tempfile.mkdtemp(prefix='sheetgen-chromium-')}",):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.set_script_timeout(120)
    return driver


def open_page(driver, page: str, path: Path, width: int = 390, height: int = 844) -> None:
    """Write ``page`` at ``path`` and open it from disk in a window ``width`` x ``height`` px."""
    path.write_text(page, encoding="utf-8")
    driver.set_window_size(width, height)
    driver.get(path.as_uri())


def run_json(driver, script: str, *args) -> object:
    """Run ``script`` in the page (its arguments in ``arguments``) and read what
    it returns as JSON text: numbers stay whole numbers, -0 is 0, as Python's json writes."""
    return json.loads(driver.execute_script(f"return JSON.stringify((function () {{ {script} }}).apply(null, arguments));", *args))
