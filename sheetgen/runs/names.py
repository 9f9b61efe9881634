"""The names of the files a command writes when it is not told where: each
says what is in it, so that no two variants of a grid share a name.

A sheet's PDF is named after its grid, then what differs from the defaults,
in this order: language (or the stem of a language file of the user's),
size, look and paper (``longo-fr.pdf``, ``classic-large-ink-saver.pdf``,
``classic-colour-marks-letter.pdf``); a rules card the same way, ending in
``-rules`` (``longo-de-rules.pdf``); a counter page ``counter-GRID-LANG``,
with its look if it is not the default (``counter-classic-en-mono.html``).
Running the same command again writes the same name: reruns replace their
own file.  docs/command-line.md has the table.
"""

from __future__ import annotations

from pathlib import Path

from ..sheet.plan import STANDARD, SheetSize
from ..sheet.style import DEFAULT_LANG, DEFAULT_THEME, Labels

OUT = Path("out")  # where files go when no folder is named


def look_name(theme: str, colour_marks: bool) -> str:
    """'colour', 'colour-marks', 'mono': a look as file names spell it."""
    return f"{theme}-marks" if colour_marks else theme


def language_part(lang: str, words: Labels | None) -> str:
    """The language as a name says it: its code, or the stem of the user's language file."""
    return Path(words.lang).stem if words is not None else lang


def _joined(grid: str, parts: list[str], suffix: str) -> str:
    return "-".join([grid, *(part for part in parts if part)]) + suffix


def sheets_name(grid: str, lang: str = DEFAULT_LANG, words: Labels | None = None, size: SheetSize = STANDARD,
                theme: str = DEFAULT_THEME, colour_marks: bool = False, paper: str = "") -> str:
    """``GRID[-LANG][-SIZE][-LOOK][-PAPER].pdf``, each part only where it is not the default."""
    spoken = language_part(lang, words)
    look = look_name(theme, colour_marks)
    return _joined(grid, [spoken if spoken != DEFAULT_LANG or words is not None else "",
                          size.name if size != STANDARD else "",
                          look if look != DEFAULT_THEME else "",
                          paper if paper and paper != size.papers[0] else ""], ".pdf")


def rules_name(grid: str, lang: str = DEFAULT_LANG, words: Labels | None = None, paper: str = "a4") -> str:
    """``GRID[-LANG][-PAPER]-rules.pdf``."""
    spoken = language_part(lang, words)
    return _joined(grid, [spoken if spoken != DEFAULT_LANG or words is not None else "",
                          paper if paper != STANDARD.papers[0] else "", "rules"], ".pdf")


def counter_name(grid: str, lang: str = DEFAULT_LANG, words: Labels | None = None,
                 theme: str = DEFAULT_THEME) -> str:
    """``counter-GRID-LANG[-LOOK].html``: the language always, as the page has always been named."""
    return _joined(f"counter-{grid}", [language_part(lang, words), theme if theme != DEFAULT_THEME else ""], ".html")
