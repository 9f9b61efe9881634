"""The shape of a data file, kept as data: one description both checks a file
(``check``, with the messages of ``checks.Node``) and is published as a JSON
Schema, draft 2020-12 (``json_schema``), for editors to check files as they
are typed.  Neither is written by hand from the other.

A shape states what each value is on its own: its type, its keys, its range,
its choices, its pattern.  Rules that relate two values (a cell number and
the dice, a lock colour and the other rows) are the loader's job, after the
shape is known to be right.  A few bounds are such rules in disguise: a
``Whole`` or ``ListOf`` marked ``narrowed`` states the widest range the format
allows, which the schema publishes and ``check`` leaves to the loader, because
the loader knows the grid's own, narrower range and says so in its message
("expected 2 to 12").  Likewise ``unique``: the schema says it, the loader
checks it and names the repeated item.
"""

from __future__ import annotations

import re

from ..checks import Node
from ..records import record

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
# One line of text with something besides spaces in it, as Node.text wants.
ONE_LINE = r"^[^\n\r\t\u0000]*\S[^\n\r\t\u0000]*$"


@record
class Whole:
    low: int
    high: int
    doc: str = ""
    narrowed: bool = False  # the loader checks a narrower range that depends on the file


@record
class Text:
    most: int  # characters
    doc: str = ""
    pattern: str = ""  # the whole text must match (Python and ECMA-262 alike)
    says: str = ""  # the pattern in words, for the message


@record
class Flag:
    doc: str = ""


@record
class Choice:
    options: tuple[str, ...]
    doc: str = ""


@record
class ListOf:
    item: Shape
    low: int
    high: int
    what: str  # the items, plural, for the message: "expected 2 to 4 rows"
    doc: str = ""
    narrowed: bool = False
    unique: bool = False  # stated in the schema; the loader checks it


@record
class Fields:
    """A mapping with known keys, in the order messages list them."""

    required: tuple[tuple[str, Shape], ...]
    optional: tuple[tuple[str, Shape], ...] = ()
    doc: str = ""
    what: str = "a mapping"


@record
class NumberOr:
    """A plain whole number, or a mapping that says more about it."""

    number: Whole
    fields: Fields
    doc: str = ""


@record
class NumberKeys:
    """A mapping from whole numbers to values of one shape."""

    key: Whole
    value: Shape
    doc: str = ""
    what: str = "a mapping"


@record
class Tagged:
    """A mapping whose other keys depend on the value of its ``tag`` key."""

    tag: str
    variants: tuple[tuple[str, tuple[tuple[str, Shape], ...]], ...]  # tag value -> its other keys
    doc: str = ""

    @property
    def extra_keys(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(key for _, fields in self.variants for key, _ in fields))


Shape = Whole | Text | Flag | Choice | ListOf | Fields | NumberOr | NumberKeys | Tagged


def check(shape: Shape, node: Node) -> None:
    """Raise ``InputError`` at the first place where ``node`` does not have ``shape``."""
    if isinstance(shape, Whole):
        if shape.narrowed:
            node.integer()
        else:
            node.integer(shape.low, shape.high)
    elif isinstance(shape, Text):
        value = node.text(shape.most)
        if shape.pattern and not re.fullmatch(shape.pattern, value):
            node.fail(f"expected {shape.says}, got {value!r}")
    elif isinstance(shape, Flag):
        node.boolean()
    elif isinstance(shape, Choice):
        node.choice(dict.fromkeys(shape.options))
    elif isinstance(shape, ListOf):
        bounds: tuple[int, int | None] = (0, None) if shape.narrowed else (shape.low, shape.high)
        for item in node.sequence(*bounds, shape.what):
            check(shape.item, item)
    elif isinstance(shape, Fields):
        if not isinstance(node.value, dict) and node.path:  # a whole document: mapping() says it, echoing none of it
            node.expected(shape.what)
        present = node.mapping([k for k, _ in shape.required], [k for k, _ in shape.optional])
        for key, inner in shape.required + shape.optional:
            if key in present:
                check(inner, present[key])
    elif isinstance(shape, NumberOr):
        check(shape.fields if isinstance(node.value, dict) else shape.number, node)
    elif isinstance(shape, NumberKeys):
        if not isinstance(node.value, dict):
            node.expected(shape.what)
        for key in node.value:
            check(shape.key, Node(node.source, f"{node.path}.{key}", key))
            check(shape.value, node.at(key))
    else:
        node.mapping([shape.tag], shape.extra_keys)
        variants = dict(shape.variants)
        node.at(shape.tag).choice(variants)
        fields = variants[node.value[shape.tag]]  # type: ignore[index]
        present = node.mapping([shape.tag, *(key for key, _ in fields)])
        for key, inner in fields:
            check(inner, present[key])


def json_schema(shape: Shape, title: str = "") -> dict:
    """``shape`` as a JSON Schema (draft 2020-12) document."""
    head = {"$schema": SCHEMA_DIALECT, "title": title} if title else {"$schema": SCHEMA_DIALECT}
    return head | _schema(shape)


def _schema(shape: Shape) -> dict:
    out: dict = {"description": shape.doc} if shape.doc else {}
    if isinstance(shape, Whole):
        out |= {"type": "integer", "minimum": shape.low, "maximum": shape.high}
    elif isinstance(shape, Text):
        pattern = f"^(?:{shape.pattern})$" if shape.pattern else ONE_LINE
        out |= {"type": "string", "minLength": 1, "maxLength": shape.most, "pattern": pattern}
    elif isinstance(shape, Flag):
        out["type"] = "boolean"
    elif isinstance(shape, Choice):
        out |= {"type": "string", "enum": list(shape.options)}
    elif isinstance(shape, ListOf):
        out |= {"type": "array", "items": _schema(shape.item), "minItems": shape.low, "maxItems": shape.high}
        if shape.unique:
            out["uniqueItems"] = True
    elif isinstance(shape, Fields):
        out |= _object(shape.required + shape.optional, [key for key, _ in shape.required])
    elif isinstance(shape, NumberOr):
        out["anyOf"] = [_schema(shape.number), _schema(shape.fields)]
    elif isinstance(shape, NumberKeys):
        out |= {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"},
                "additionalProperties": _schema(shape.value)}
    else:
        tag = Choice(tuple(value for value, _ in shape.variants))
        every = {key: inner for _, fields in shape.variants for key, inner in fields}
        out |= _object(((shape.tag, tag), *every.items()), [shape.tag])
        out["allOf"] = [
            {
                "if": {"properties": {shape.tag: {"const": value}}},
                "then": {
                    "required": [shape.tag, *(key for key, _ in fields)],
                    "properties": {key: False for key in shape.extra_keys if key not in dict(fields)},
                },
            }
            for value, fields in shape.variants
        ]
    return out


def _object(fields: tuple[tuple[str, Shape], ...], required: list[str]) -> dict:
    out: dict = {"type": "object", "properties": {key: _schema(inner) for key, inner in fields}}
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    return out
