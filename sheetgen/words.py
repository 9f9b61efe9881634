"""How the package writes words into its messages and reports: counts with
their nouns (``plural``), negative numbers with a minus sign (``signed``),
lists of choices (``one_of``), text taken from input, escaped (``shown``)
and quoted (``quoted``), and the choice a user meant (``forgiven``: another
case, the American spelling) or may have meant (``did_you_mean``).

Whatever a message echoes from input (a file name, a key, a player's name)
may hold anything, so everything printed passes through ``shown``, which
writes control, bidi and other invisible characters as escapes, and values
are quoted with ``quoted``, which also shortens them.  Every layer uses these;
this module uses none of the package.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

# What must not reach a terminal raw: C0 and C1 controls (escape sequences
# clear the screen, BEL rings, BS overwrites), the bidi controls that reorder
# what follows (U+202E shows 'fdp.exe' as 'exe.pdf'), line and paragraph
# separators, surrogates (from file names that are not UTF-8) and noncharacters.
_NONCHARACTERS = "\ufdd0-\ufdef" + "".join(
    f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17))
_INVISIBLE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff" + _NONCHARACTERS
_NAMED = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}
QUOTED_MAX = 60  # characters of a value echoed in a message


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code in _NAMED:
        return _NAMED[code]
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, as Python decodes file names
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def shown(text: str, lines: bool = False) -> str:
    """``text`` safe to print: invisible and reordering characters become
    escapes (``\\u001b``, ``\\u202e``, ``\\xff`` for a byte of a file name that
    is not UTF-8).  Line breaks and tabs are escaped too unless ``lines``."""
    if text.isascii() and text.isprintable():  # no control, tab or line break: the usual line, as it is
        return text
    return _unsafe(lines).sub(_escape, text)


@lru_cache(maxsize=2)
def _unsafe(lines: bool) -> re.Pattern[str]:
    """What ``shown`` escapes; compiled when first needed (some ten million
    instructions, which a run that prints plain lines need not spend)."""
    return re.compile(f"[{_INVISIBLE}]" if lines else f"[\t\n{_INVISIBLE}]")


def quoted(value: object, limit: int = QUOTED_MAX) -> str:
    """``value`` quoted for a message, as Python writes it (``'red'``), cut to
    ``limit`` characters."""
    text = repr(value)
    if len(text) <= limit:
        return text
    end = text[-1] if isinstance(value, str) else ""  # the closing quote
    return f"{text[: limit - 3 - len(end)]}...{end}"


MINUS = "\u2212"


def signed(number: int | float | str) -> str:
    """``number`` as people read it: a minus sign (U+2212) for a negative one,
    never the hyphen ("\u22125", "\u22128.6"); a text of digits is taken as written."""
    text = str(number)
    return MINUS + text[1:] if text.startswith("-") else text


def plural(n: int, one: str, many: str | None = None) -> str:
    """'1 cell', '3 cells', '1,250 pages': ``many`` defaults to ``one`` + 's'."""
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def one_of(options: Sequence[str]) -> str:
    """'a, b or c'."""
    names = [str(o) for o in options]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


# British and American spellings of the words that name things in sheetgen:
# the British one is sheetgen's, the American one is understood.
SPELLINGS = (("colour", "color"), ("grey", "gray"), ("centre", "center"))


def forgiven(value: str, options: Iterable[str]) -> str | None:
    """The one of ``options`` that ``value`` names in another case or in the
    American spelling (``Colour``, ``color-marks``), else None."""
    options = list(options)
    for candidate in _spellings(value.casefold()):
        found = [option for option in options if option.casefold() == candidate]
        if len(found) == 1:
            return found[0]
    return None


def _spellings(text: str) -> list[str]:
    found = [text]
    for british, american in SPELLINGS:
        found += [t.replace(american, british) for t in found if american in t]
    return found


def did_you_mean(value: object, options: Iterable[str]) -> str:
    """', did you mean 'colour'?' when one of ``options`` is close to ``value``
    (another case, the other spelling, a typing slip), else ''."""
    if not isinstance(value, str) or not value:
        return ""
    options = [option for option in options if isinstance(option, str)]
    close = forgiven(value, options) or next(iter(
        _close_matches(value.casefold(), {option.casefold(): option for option in options})), None)
    return f", did you mean {close!r}?" if close is not None and close != value else ""


def _close_matches(text: str, options: dict[str, str]) -> list[str]:
    from difflib import get_close_matches  # loaded only for a message

    return [options[match] for match in get_close_matches(text, list(options), n=1, cutoff=0.8)]
