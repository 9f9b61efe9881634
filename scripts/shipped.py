"""Rewrite sheetgen/data/shipped.json, the cache of the shipped YAML files' data.

    .venv/bin/python scripts/shipped.py

Run it after changing a built-in grid, a label file or the themes
(tests/test_shipped.py fails until then).  A stale cache gives no wrong
output: sheetgen parses every file whose bytes the cache does not know.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheetgen.grid.shipped import CACHE, build_cache  # noqa: E402

if __name__ == "__main__":
    text = build_cache()
    changed = not CACHE.exists() or CACHE.read_text(encoding="utf-8") != text
    CACHE.write_text(text, encoding="utf-8")
    print(f"{CACHE.name}: {'rewritten' if changed else 'already current'}")
