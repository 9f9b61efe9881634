"""The words and the look of a sheet, read from data files in ``sheetgen/data``.

``Labels`` are the printed words of one language (``lang-XX.yaml``); a
``Theme`` is how a sheet prints (``themes.yaml``): a palette, whether cells
are framed or outlined, hatching, and the colour marks that keep colours
apart in greyscale.  Both are plain data so that adding a language or a theme
touches no code.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import cache, cached_property, lru_cache
from pathlib import Path

from ..checks import Node
from ..errors import InputError
from ..grid.model import Colour, Grid
from ..grid.shipped import shipped_data
from ..pdf.geometry import RGB
from ..records import record
from ..words import QUOTED_MAX, one_of

DATA = Path(__file__).resolve().parent.parent / "data"
DEFAULT_LANG = "en"
DEFAULT_THEME = "colour"
LONGEST_LABEL = 160  # characters of a word or line printed on a sheet
# Keys of the paragraphs the rules are composed from: longer, and with named placeholders.
TEMPLATE_PREFIX = "rules_"
# Keys of the web pages' words (sheetgen counter, the download pack's page): a
# language file of the user's is for printing and may leave them out too.
SCREEN_PREFIX = ("counter_", "pack_")
LONGEST_TEMPLATE = 700
# The language's one name for each concept of the game (row, cell, lock, ...) and
# the names it must not also use: a reference for translators and for the tests,
# never printed, so that a file of the user's may leave it out.
GLOSSARY = "glossary"
# {name} is a value the code fills in; {name:one|other} is the wording for 1
# and for any other number, with # standing for the number.
PLACEHOLDER = re.compile(r"\{(\w+)(?::([^{}|]*)\|([^{}|]*))?\}")


def languages(default_first: bool = False) -> list[str]:
    """The languages there are label files for, A to Z (the default first, if asked)."""
    found = sorted(p.stem.removeprefix("lang-") for p in DATA.glob("lang-*.yaml"))
    return sorted(found, key=lambda lang: lang != DEFAULT_LANG) if default_first else found


@record
class Labels:
    lang: str
    words: tuple[tuple[str, str], ...]

    @cached_property
    def _by_key(self) -> dict[str, str]:
        return dict(self.words)

    def grid_title(self, grid: Grid) -> str:
        """``grid``'s title in this language where it is a built-in grid's
        (its title the English one of that name), else its own."""
        return self._grid_words(grid, "title", grid.title)

    def grid_about(self, grid: Grid) -> str:
        """``grid``'s description in this language, as ``grid_title``."""
        return self._grid_words(grid, "about", grid.description)

    def _grid_words(self, grid: Grid, what: str, own: str) -> str:
        key = f"rules_grid_{what}_{grid.name}"
        if key not in self._by_key or _english().get(f"rules_grid_title_{grid.name}") != grid.title:
            return own
        return self._by_key[key]

    def __call__(self, key: str, n: int | str | None = None) -> str:
        text = self._by_key[key]
        return text.replace("{n}", str(n)) if n is not None else text

    def fill(self, key: str, **values: int | str) -> str:
        """The template ``key`` with its placeholders replaced by ``values``
        (in one pass: braces inside a value stay as they are)."""

        def value(match: re.Match[str]) -> str:
            name, one, other = match.groups()
            if one is None:
                return str(values[name])
            return (one if values[name] == 1 else other).replace("#", str(values[name]))

        return PLACEHOLDER.sub(value, self._by_key[key])


NO_BREAK = "\u00a0"  # the sheet's font has no narrow one: French gets the full no-break space
MINUS = "\u2212"
# Each language's house style: its quotation marks, and whether a percent sign is
# set apart from its number (by a no-break space) or set close.
QUOTES = {"en": ("\u201c", "\u201d"), "de": ("\u201e", "\u201c"), "fr": ("\u00ab" + NO_BREAK, NO_BREAK + "\u00bb"),
          "it": ("\u00ab", "\u00bb"), "nl": ("\u201c", "\u201d")}
SPACED_PERCENT = {"de", "fr"}
_UNIT_AFTER = re.compile(r"(\{(\w+)\}|\d) (?=\{\2:|(?:kB|MB|KiB|ko|Mo|Kio)\b)")


def typeset(lang: str, text: str) -> str:
    """``text`` in the typography of ``lang``: a minus sign for negatives, a
    typographer's apostrophe, the language's quotation marks and percent
    spacing, a no-break space between a number and its unit (a placeholder
    and the wording that follows it: "{count} {count:cross|crosses}") and, in
    French, before : ; ! ? and inside « »."""
    text = re.sub(r"(?<![\w.])-(?=\d|\{)", MINUS, text)
    text = text.replace("'", "\u2019")
    opening, closing = QUOTES.get(lang, QUOTES["en"])
    text = re.sub(r'"([^"]*)"', lambda m: opening + m.group(1) + closing, text)
    text = re.sub(r"(\d) ?%", r"\1" + (NO_BREAK if lang in SPACED_PERCENT else "") + "%", text)
    text = _UNIT_AFTER.sub(lambda m: m.group(1) + NO_BREAK, text)
    if lang == "fr":
        text = re.sub(r" ([:;!?])", NO_BREAK + r"\1", text)
        text = text.replace("\u00ab ", "\u00ab" + NO_BREAK).replace(" \u00bb", NO_BREAK + "\u00bb")
    return text


def placeholders(text: str) -> list[str]:
    """The names of the placeholders in ``text``, A to Z, each once."""
    return sorted({match.group(1) for match in PLACEHOLDER.finditer(text)})


@cache
def load_labels(lang: str = DEFAULT_LANG) -> Labels:
    if lang not in languages():
        raise InputError("--lang", "", f"unknown language {lang!r} (expected {one_of(languages())})")
    path = DATA / f"lang-{lang}.yaml"
    return _labels(lang, Node(path.name, "", shipped_data(path)))


def load_label_file(path: str) -> Labels:
    """The words of a language file of the user's (a new language, or a club's
    own wording), read as any input file is and checked as the shipped ones
    are, against the keys and placeholders of English; every word must also
    be in the sheet's font.  The rules templates and the web pages' words
    may be left out: those missing are the English ones."""
    from ..grid.yamlio import read_yaml
    from ..pdf.render import no_glyph, unprintable

    node = Node(path, "", read_yaml(path))
    labels = _labels(path, node, templates_optional=True)
    for key, text in labels.words:
        missing = unprintable(text)
        if missing:
            node.at(key).fail(no_glyph(missing))
    return labels


@lru_cache(maxsize=1)
def _english() -> dict[str, str]:
    words = shipped_data(DATA / f"lang-{DEFAULT_LANG}.yaml")
    assert isinstance(words, dict)
    return {key: text for key, text in words.items() if key != GLOSSARY}


def _labels(lang: str, node: Node, templates_optional: bool = False) -> Labels:
    """Every English key, each a line of text with the placeholders its English
    text has.  The sheet's words and the rules templates are checked apart, so
    that a file without templates hears only of the sheet's words."""
    english = _english()
    if not isinstance(node.value, dict):
        node.expected("a mapping")
    node = Node(node.source, node.path, {k: v for k, v in node.value.items() if k != GLOSSARY})
    words = [key for key in english if not _is_template(key)]
    screen = [key for key in words if templates_optional and key.startswith(SCREEN_PREFIX)]
    fields = _part(node, templates=False).mapping(required=[key for key in words if key not in screen], optional=screen)
    templates = [key for key in english if _is_template(key)]
    if templates_optional:
        fields |= _part(node, templates=True).mapping(optional=templates)
    else:
        fields |= _part(node, templates=True).mapping(required=templates)
    texts = []
    for key, model in english.items():
        if key not in fields:
            texts.append((key, typeset(lang, model)))
            continue
        text = fields[key].text(LONGEST_TEMPLATE if _is_template(key) else LONGEST_LABEL)
        _check_placeholders(fields[key], text, model)
        texts.append((key, typeset(lang, text)))
    return Labels(lang, tuple(texts))


def _is_template(key: object) -> bool:
    return isinstance(key, str) and key.startswith(TEMPLATE_PREFIX)


def _part(node: Node, templates: bool) -> Node:
    """The rules templates of a language file, or its other words."""
    assert isinstance(node.value, dict)  # as _labels has checked
    return Node(node.source, node.path, {k: v for k, v in node.value.items() if _is_template(k) == templates})


def _check_placeholders(node: Node, text: str, model: str) -> None:
    """Braces only around placeholders, and the same placeholders as the English ``model``."""
    outside = PLACEHOLDER.sub("", text)
    if "{" in outside or "}" in outside:
        node.fail("a '{' or '}' outside a placeholder (expected {name} or {name:one|other})")
    wanted, found = placeholders(model), placeholders(text)
    if found != wanted:
        which = f"the placeholder{'s' * (len(wanted) > 1)} {_named(wanted)}" if wanted else "no placeholder"
        if len(model) <= QUOTED_MAX:
            node.fail(f"expected {which}, as in English {model!r}, got {text!r}")
        node.fail(f"expected {which}, as in English, got {_named(found) or 'none'}")  # a paragraph: names only


def _named(names: list[str]) -> str:
    return " ".join(f"{{{name}}}" for name in names)


class Mark(str, Enum):
    """The shape that stands for a colour where colour alone is not enough;
    none is the shape of a power symbol."""

    TRIANGLE = "triangle"  # pointing up
    WEDGE = "wedge"  # a triangle pointing down
    BAR = "bar"
    BOWTIE = "bowtie"


@record
class Tint:
    """How one colour prints: frames and locks in ``strong``, backgrounds in
    ``pale``, numbers and marks in ``ink``; when ``hatch`` is not 0, horizontal
    lines ``hatch`` mm apart in ``hatch_ink`` over the background."""

    strong: RGB
    pale: RGB
    ink: RGB
    mark: Mark
    hatch: float = 0.0
    hatch_ink: RGB = (0.0, 0.0, 0.0)


@record
class Theme:
    name: str
    palette: tuple[tuple[Colour, Tint], ...]
    ink: RGB
    muted: RGB
    line: RGB
    outlined: bool = False  # cells outlined in their colour, instead of framed by a band of it
    outline: float = 0.45  # mm: the coloured line around outlined cells and locks, and around coloured boxes
    bold: bool = True  # False: what is usually bold (title, numbers, points) prints regular
    marks: bool = False  # a colour's mark in its cells, locks and boxes, and a key on the sheet
    frame: RGB | None = None  # the band around a framed (bonus) cell; None: the cell's strong colour, or ink
    boxes: RGB | None = None  # the frames of boxes to write in (lucky, penalties, totals); None: ink
    dash: tuple[float, ...] = ()  # mm on, off: an outlined cell's line dashed; () solid
    light: bool = False  # the cells' numbers in the light face (when not bold): strokes half as wide
    symbols: RGB | None = None  # the power symbols, in the cells and the legend; None: ink

    @property
    def symbol_ink(self) -> RGB:
        """The colour of the power symbols."""
        return self.symbols or self.ink

    @property
    def box_line(self) -> RGB:
        """The colour of a frame around a box to write in."""
        return self.boxes or self.ink

    @cached_property
    def _tints(self) -> dict[Colour, Tint]:
        return dict(self.palette)

    def tint(self, colour: Colour) -> Tint:
        return self._tints[colour]


def _rgb(node: Node) -> RGB:
    parts = node.sequence(3, 3, "components")
    values = []
    for part in parts:
        value = part.value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            part.expected("a number from 0 to 1")
        values.append(float(value))
    return (values[0], values[1], values[2])


def _mm(node: Node, low: float, high: float) -> float:
    value = node.value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        node.expected(f"a number of mm from {low} to {high}")
    return float(value)


def _dash(node: Node) -> tuple[float, float]:
    on, off = node.sequence(2, 2, "lengths")
    return _mm(on, 0.2, 5), _mm(off, 0.2, 5)


@cache
def _themes_file() -> dict[str, Node]:
    return Node("themes.yaml", "", shipped_data(DATA / "themes.yaml")).mapping(required=("marks", "themes"))


def themes() -> list[str]:
    node = _themes_file()["themes"]
    if not isinstance(node.value, dict):
        node.expected("a mapping of theme name to theme")
    return sorted(node.value)


@cache
def load_theme(name: str = DEFAULT_THEME, colour_marks: bool = False) -> Theme:
    """The theme ``name`` of ``themes.yaml``; ``colour_marks`` adds the colour
    marks to a theme that does not print them anyway."""
    top = _themes_file()
    if name not in themes():
        raise InputError("--theme", "", f"unknown theme {name!r} (expected {one_of(themes())})")
    marks_node = top["marks"]
    marks = marks_node.mapping(required=[c.value for c in Colour])
    shapes = {colour: marks[colour.value].choice({m.value: m for m in Mark}) for colour in Colour}
    if len(set(shapes.values())) < len(shapes):
        marks_node.fail("two colours share a mark (each colour needs its own)")
    fields = top["themes"].at(name).mapping(
        required=("cells", "outline", "bold", "marks", "palette", "ink", "muted", "line"),
        optional=("frame", "boxes", "dash", "light", "symbols"),
    )
    palette = fields["palette"].mapping(required=[c.value for c in Colour])
    tints = []
    for colour in Colour:
        tint = palette[colour.value].mapping(required=("strong", "pale", "ink"), optional=("hatch",))
        strong, pale, ink = (_rgb(tint[key]) for key in ("strong", "pale", "ink"))
        if "hatch" in tint:
            hatch = tint["hatch"].mapping(required=("every", "ink"))
            every, hatch_ink = _mm(hatch["every"], 0.5, 5), _rgb(hatch["ink"])
            tints.append((colour, Tint(strong, pale, ink, shapes[colour], every, hatch_ink)))
        else:
            tints.append((colour, Tint(strong, pale, ink, shapes[colour])))
    return Theme(
        name,
        tuple(tints),
        _rgb(fields["ink"]),
        _rgb(fields["muted"]),
        _rgb(fields["line"]),
        outlined=fields["cells"].choice({"filled": False, "outlined": True}),
        outline=_mm(fields["outline"], 0.1, 1),
        bold=fields["bold"].boolean(),
        marks=fields["marks"].boolean() or colour_marks,
        frame=_rgb(fields["frame"]) if "frame" in fields else None,
        boxes=_rgb(fields["boxes"]) if "boxes" in fields else None,
        dash=_dash(fields["dash"]) if "dash" in fields else (),
        light="light" in fields and fields["light"].boolean(),
        symbols=_rgb(fields["symbols"]) if "symbols" in fields else None,
    )
