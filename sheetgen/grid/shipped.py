"""The files sheetgen ships (built-in grids, language and theme files) as plain
data, through a cache of their parsed contents in the user's cache folder.

Every run reads a built-in grid, English words and the themes; parsing them
means importing PyYAML (its resolver compiles dozens of expressions) and, for
a grid, running the pure-Python reader: a good part of a short run's start.
So what the YAML readers made of each file is kept in
``$XDG_CACHE_HOME/sheetgen/`` (``~/.cache/sheetgen/`` without it), under the
SHA-256 of the file's bytes, in a file named for the readers' own code.  A
file is taken from the cache only while its bytes and the readers are those
the entry was made from; otherwise it is parsed from its YAML and the entry
added.  So the YAML files stay the single source of truth, editing one needs
no step of anyone's, and nothing of the cache is in the repository.

The cache only ever saves time.  It is written to a temporary file renamed
into place, so a reader finds the old file or the new one, never half of one,
and two runs that race each leave a whole file (the last one's).  A cache
folder that cannot be made, read or written, or a cache file that is broken,
means parsing, as without a cache, and no message.

JSON has no mapping with whole-number keys (a grid's ``symbols``): such a
mapping is kept as ``{"\\u0000int": [[key, value], ...]}``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"
READERS = (HERE / "yamlio.py", HERE / "shipped.py")  # the code whose output the cache holds
INT_KEYS = "\0int"  # a mapping whose keys are whole numbers, as a list of pairs
MAX_ENTRIES = 256  # past this (many versions of the files), the cache starts again


def shipped_grid(path: Path) -> object:
    """The plain data of the built-in grid file ``path`` (messages name it by its file name)."""
    return _read(path, "grid", _parse_grid)


def shipped_data(path: Path) -> object:
    """The plain data of the data file ``path`` shipped in ``sheetgen/data`` (labels, themes)."""
    return _read(path, "data", _parse_data)


def _parse_grid(path: Path) -> object:
    from .yamlio import read_yaml

    return read_yaml(path, path.name)


def _parse_data(path: Path) -> object:
    from .yamlio import read_package_data

    return read_package_data(path)


def _read(path: Path, kind: str, parse: Callable[[Path], object]) -> object:
    """The cached data of ``path``'s bytes, else ``parse(path)``, then cached.
    The data may be shared with other callers: they read it, never change it."""
    try:
        key = f"{kind}:{hashlib.sha256(path.read_bytes()).hexdigest()}"
    except OSError:
        return parse(path)  # parsing says what is wrong with the file
    entries = _entries()
    if key in entries:
        return entries[key]
    data = parse(path)
    if _same(_decoded(json.dumps(encode(data))), data):  # else a value JSON would not give back: never cached
        entries[key] = data
        _write(key, data)
    return data


@lru_cache(maxsize=1)
def cache_file() -> Path | None:
    """Where the cache is, for these readers; None without a home folder."""
    folder = os.environ.get("XDG_CACHE_HOME", "")
    try:
        base = Path(folder) if os.path.isabs(folder) else Path.home() / ".cache"
    except RuntimeError:  # no home folder to be found
        return None
    readers = hashlib.sha256(b"".join(path.read_bytes() for path in READERS)).hexdigest()
    return base / "sheetgen" / f"shipped-{readers[:16]}.json"


@lru_cache(maxsize=1)
def _entries() -> dict[str, object]:
    """The cache's entries (kind and SHA-256 -> data), read once a run; {} if there is none to read."""
    path = cache_file()
    if path is None:
        return {}
    try:
        found = _decoded(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # no cache yet, or a broken one
        return {}
    return found if isinstance(found, dict) else {}


def _write(key: str, data: object) -> None:
    """Add an entry to the cache file: the file as it is now (another run may
    have added to it), with the entry, written whole to a temporary file that
    then takes its place.  Nothing if the folder cannot be written."""
    path = cache_file()
    if path is None:
        return
    try:
        found = _decoded(path.read_text(encoding="utf-8"))
        entries = found if isinstance(found, dict) and len(found) < MAX_ENTRIES else {}
    except (OSError, ValueError):
        entries = {}
    entries[key] = data
    text = json.dumps(encode(entries), ensure_ascii=False, separators=(",", ":"))
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass


def _decoded(text: str) -> object:
    return json.loads(text, object_hook=_decode)


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


def _same(a: object, b: object) -> bool:
    """Equal and of the same types all the way down (1, 1.0 and True are equal in Python)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b
