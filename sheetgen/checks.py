"""Checks on plain data read from a file (dicts, lists, scalars), cfgv style.

A ``Node`` is a value together with where it came from: the file and the path
inside it.  Every check either returns a clean Python value or raises
``InputError`` naming that place, what was expected and what was found.
The readers of grids, marks files, manifests, language files and themes are
written with these few methods, so every error in every file reads the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NoReturn, TypeVar

from .errors import InputError
from .records import record
from .words import did_you_mean, one_of, quoted

T = TypeVar("T")


def describe(value: object, content: bool = True) -> str:
    """A short, user-facing name for the type of ``value``, with its text or
    number unless not ``content``."""
    if not content and isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return "text" if isinstance(value, str) else "a number"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'}"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return f"the number {value!r}"  # 2.0, not 2: the user must see why it is not whole
    if isinstance(value, str):
        shown = value if len(value) <= 30 else value[:27] + "..."
        return f"the text {shown!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"


@record
class Node:
    source: str
    path: str
    value: object

    # -- navigation -------------------------------------------------------
    def at(self, key: str | int) -> Node:
        # [i] only for list positions: a mapping key that is a number (a cell
        # number under `symbols`) reads `symbols.8`, as it is written in the file.
        if isinstance(self.value, list):
            path = f"{self.path}[{key}]"
        else:
            path = f"{self.path}.{key}" if self.path else str(key)
        value = self.value[key]  # type: ignore[index]
        return Node(self.source, path, value)

    def fail(self, message: str) -> NoReturn:
        raise InputError(self.source, self.path, message)

    def expected(self, what: str) -> NoReturn:
        self.fail(f"expected {what}, got {describe(self.value)}")

    # -- shapes -----------------------------------------------------------
    def mapping(self, required: Sequence[str] = (), optional: Sequence[str] = ()) -> dict[str, Node]:
        """The present keys as child nodes; unknown keys and missing required keys fail."""
        # A whole document that is not a mapping, or has none of the keys, is no
        # file of this kind at all, and may be any of the user's (a password
        # file): none of it is echoed.
        document = not self.path
        if not isinstance(self.value, dict):
            self.fail(f"expected a mapping, got {describe(self.value, content=not document)}")
        known = list(required) + list(optional)
        if document and self.value and not any(key in known for key in self.value if isinstance(key, str)):
            self.fail(f"has none of the expected keys ({one_of(known)})")
        for key in self.value:
            if not isinstance(key, str) or key not in known:
                self.fail(f"unknown key {quoted(key)}{did_you_mean(key, known)} (expected {one_of(known)})")
        for key in required:
            if key not in self.value:
                self.fail(f"missing key {key!r}")
        return {key: self.at(key) for key in known if key in self.value}

    def sequence(self, minimum: int = 0, maximum: int | None = None, what: str = "items") -> list[Node]:
        if not isinstance(self.value, list):
            self.expected("a list")
        count = len(self.value)
        if count < minimum or (maximum is not None and count > maximum):
            bound = f"{minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
            self.fail(f"expected {bound} {what}, got {count}")
        return [self.at(i) for i in range(count)]

    # -- scalars ----------------------------------------------------------
    def integer(self, minimum: int | None = None, maximum: int | None = None) -> int:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int):
            self.expected("a whole number")
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            if minimum is not None and maximum is not None:
                self.expected(f"a whole number from {minimum} to {maximum}")
            if minimum is not None:
                self.expected(f"a whole number of at least {minimum}")
            self.expected(f"a whole number of at most {maximum}")
        return value

    def text(self, maximum: int = 200) -> str:
        value = self.value
        if not isinstance(value, str):
            self.expected("text")
        if not value.strip():
            self.expected("non-empty text")
        if len(value) > maximum:
            self.fail(f"expected text of at most {maximum} characters, got {len(value)}")
        if any(ch in value for ch in "\n\r\t\x00"):
            self.fail("expected text on one line")
        return value

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            self.expected("true or false")
        return self.value

    def choice(self, options: Mapping[str, T]) -> T:
        value = self.value
        if isinstance(value, str) and value in options:
            return options[value]
        if isinstance(value, str):
            self.fail(f"unknown value {quoted(value)}{did_you_mean(value, options)} (expected {one_of(list(options))})")
        self.expected(one_of(list(options)))
