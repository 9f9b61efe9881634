"""The files sheetgen ships (built-in grids, label and theme files) as plain data,
through a cache of their parsed contents that cannot go stale.

Every run reads a built-in grid, English labels and the themes; parsing them
means importing PyYAML (its resolver compiles dozens of expressions) and, for
a grid, running the pure-Python reader: a good part of a short run's start.
``sheetgen/data/shipped.json`` holds what the YAML readers made of each file,
beside the SHA-256 of the file's bytes, for the grids in ``grids/`` and every
YAML file in ``sheetgen/data``.  A file is read from the cache only
when its bytes still have that hash; a file changed since, or not in the cache,
is parsed from its YAML as before.  So the YAML files stay the single source of
truth, and a stale cache costs time, never a wrong sheet.  ``scripts/shipped.py``
rewrites the cache, and tests/test_shipped.py fails while it is not current.

JSON has no mapping with whole-number keys (a grid's ``symbols``): such a
mapping is kept as ``{"\\u0000int": [[key, value], ...]}``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
CACHE = DATA / "shipped.json"
INT_KEYS = "\0int"  # a mapping whose keys are whole numbers, as a list of pairs


def shipped_grid(path: Path) -> object:
    """The plain data of the built-in grid file ``path`` (messages name it by its file name)."""
    return _read(path, _parse_grid)


def shipped_data(path: Path) -> object:
    """The plain data of the data file ``path`` shipped in ``sheetgen/data`` (labels, themes)."""
    return _read(path, _parse_data)


def _parse_grid(path: Path) -> object:
    from .yamlio import read_yaml

    return read_yaml(path, path.name)


def _parse_data(path: Path) -> object:
    from .yamlio import read_package_data

    return read_package_data(path)


def _read(path: Path, parse: Callable[[Path], object]) -> object:
    """The cache's data of ``path`` when it holds these very bytes, else ``parse(path)``.
    The data may be shared with other callers: they read it, never change it."""
    entry = _cache().get(cache_key(path))
    if entry is not None:
        try:
            if hashlib.sha256(path.read_bytes()).hexdigest() == entry[0]:
                return entry[1]
        except OSError:
            pass  # parsing says what is wrong with the file
    return parse(path)


def cache_key(path: Path) -> str:
    """A shipped file's name in the cache: its folder's and its own (``grids/classic.yaml``);
    the grids' folder is ``grids`` in a checkout and ``gridfiles`` once installed."""
    folder = "grids" if path.parent.name in ("grids", "gridfiles") else path.parent.name
    return f"{folder}/{path.name}"


@lru_cache(maxsize=1)
def _cache() -> dict[str, list]:
    try:
        with open(CACHE, encoding="utf-8") as handle:
            found: dict[str, list] = json.load(handle, object_hook=_decode)
            return found
    except (OSError, ValueError):  # no cache (a trimmed install) or a broken one: parse every file
        return {}


def _decode(mapping: dict) -> dict:
    if len(mapping) == 1 and INT_KEYS in mapping:
        return {key: value for key, value in mapping[INT_KEYS]}
    return mapping


def encode(data: object) -> object:
    """``data`` as JSON can hold it (the inverse of what reading the cache does)."""
    if isinstance(data, dict):
        if all(isinstance(key, str) for key in data):
            return {key: encode(value) for key, value in data.items()}
        return {INT_KEYS: [[key, encode(value)] for key, value in data.items()]}
    if isinstance(data, list):
        return [encode(value) for value in data]
    return data


def build_cache() -> str:
    """The text the cache should hold now: every YAML file of the built-in grids and of
    ``sheetgen/data``, parsed as sheetgen parses them.  ``ValueError`` if some file's data
    would not come back from the cache as it is (a type JSON does not keep)."""
    from .load import builtin_dir

    entries = {}
    for files, parse in ((builtin_dir().glob("*.yaml"), _parse_grid), (DATA.glob("*.yaml"), _parse_data)):
        for path in sorted(files):
            data = parse(path)
            if not _same(json.loads(json.dumps(encode(data)), object_hook=_decode), data):
                raise ValueError(f"{path.name}: its data does not survive JSON (a value JSON cannot hold)")
            entries[cache_key(path)] = [hashlib.sha256(path.read_bytes()).hexdigest(), encode(data)]
    lines = [f"{json.dumps(key)}:{json.dumps(entry, ensure_ascii=False, separators=(',', ':'))}"
             for key, entry in sorted(entries.items())]
    return "{\n" + ",\n".join(lines) + "\n}\n"  # a file per line, so that a diff shows which changed


def _same(a: object, b: object) -> bool:
    """Equal and of the same types all the way down (1, 1.0 and True are equal in Python)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b
