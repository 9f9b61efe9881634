"""The words and the look of a sheet, read from data files in ``sheetgen/data``.

``Labels`` are the printed words of one language (``lang-XX.yaml``); a
``Theme`` is a palette (``themes.yaml``).  Both are plain data so that adding
a language or a theme touches no code.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import InputError
from .geometry import RGB
from .model import Colour
from .validate import Node, one_of

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_LANG = "en"
DEFAULT_THEME = "colour"


def languages() -> list[str]:
    return sorted(p.stem.removeprefix("lang-") for p in DATA.glob("lang-*.yaml"))


@dataclass(frozen=True)
class Labels:
    lang: str
    words: tuple[tuple[str, str], ...]

    def __call__(self, key: str, n: int | str | None = None) -> str:
        text = dict(self.words)[key]
        return text.replace("{n}", str(n)) if n is not None else text


@lru_cache(maxsize=None)
def load_labels(lang: str = DEFAULT_LANG) -> Labels:
    from .yamlio import read_yaml

    if lang not in languages():
        raise InputError("--lang", "", f"unknown language {lang!r} (expected {one_of(languages())})")
    path = DATA / f"lang-{lang}.yaml"
    reference = read_yaml(DATA / f"lang-{DEFAULT_LANG}.yaml") if lang != DEFAULT_LANG else None
    node = Node(path.name, "", read_yaml(path))
    keys = list(reference or node.value)  # every language defines the English keys
    fields = node.mapping(required=keys)
    return Labels(lang, tuple((key, fields[key].text(160)) for key in keys))


@dataclass(frozen=True)
class Tint:
    strong: RGB
    pale: RGB
    ink: RGB


@dataclass(frozen=True)
class Theme:
    name: str
    palette: tuple[tuple[Colour, Tint], ...]
    ink: RGB
    muted: RGB
    line: RGB

    def tint(self, colour: Colour) -> Tint:
        return dict(self.palette)[colour]


def _rgb(node: Node) -> RGB:
    parts = node.sequence(3, 3, "components")
    values = []
    for part in parts:
        value = part.value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            part.expected("a number from 0 to 1")
        values.append(float(value))
    return (values[0], values[1], values[2])


@lru_cache(maxsize=None)
def load_theme(name: str = DEFAULT_THEME) -> Theme:
    from .yamlio import read_yaml

    themes = Node("themes.yaml", "", read_yaml(DATA / "themes.yaml"))
    if not isinstance(themes.value, dict) or name not in themes.value:
        raise InputError("--theme", "", f"unknown theme {name!r} (expected {one_of(sorted(themes.value))})")
    fields = themes.at(name).mapping(required=("palette", "ink", "muted", "line"))
    palette = fields["palette"].mapping(required=[c.value for c in Colour])
    tints = []
    for colour in Colour:
        tint = palette[colour.value].mapping(required=("strong", "pale", "ink"))
        tints.append((colour, Tint(*(_rgb(tint[k]) for k in ("strong", "pale", "ink")))))
    return Theme(name, tuple(tints), _rgb(fields["ink"]), _rgb(fields["muted"]), _rgb(fields["line"]))
