"""The help topics of `sheetgen help`: the pages of docs/, shipped inside the
package (``sheetgen/manual`` when installed; pyproject maps the top-level
``docs/`` there), so that an installed copy carries its own manual.

A page is shown as it is written, in Markdown, which reads well as text, but
for what only makes sense in a repository: a link to another page becomes
that page's topic (``scoring.md`` -> `sheetgen help scoring`), a link to any
other file keeps its words only, and a picture its description.
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import InputError
from .words import did_you_mean

# The order of `sheetgen help`: from printing to the table to your own grids,
# then the reference pages and the house.  A page not named here comes last.
ORDER = ("printing", "sizes", "clubs", "rules", "scoring", "counter", "scan", "simulate", "authoring", "grid-format",
         "command-line", "limits", "performance", "architecture")
_PICTURE = re.compile(r"!\[([^\]]*)\]\([^)\s]+\)")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def manual_dir() -> Path:
    """The folder of the pages: ``sheetgen/manual`` in an installed package, or
    ``docs/`` itself when run from a source checkout."""
    here = Path(__file__).resolve().parent
    packaged = here / "manual"
    return packaged if packaged.is_dir() else here.parent / "docs"


def topics() -> dict[str, str]:
    """Each topic's name and title (its page's first heading), in the order of ``ORDER``."""
    pages = {path.stem: path for path in manual_dir().glob("*.md")}
    names = [name for name in ORDER if name in pages] + sorted(set(pages) - set(ORDER))
    return {name: _title(pages[name]) for name in names}


def _title(page: Path) -> str:
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page.stem


def topic_text(name: str) -> str:
    """The page of topic ``name``, as a terminal shows it."""
    known = topics()
    if name not in known:
        raise InputError("sheetgen help", "", f"no topic {name!r}{did_you_mean(name, known)} (expected one of"
                                              f" {', '.join(known)})")
    text = (manual_dir() / f"{name}.md").read_text(encoding="utf-8")
    return for_terminal(text)


def for_terminal(text: str) -> str:
    """A page's Markdown with its links and pictures made for a terminal."""
    text = _PICTURE.sub(lambda match: f"(picture: {match.group(1)})" if match.group(1) else "", text)

    def link(match: re.Match[str]) -> str:
        words, target = match.groups()
        if "://" in target:
            return f"{words} ({target})"
        page, _, _ = target.partition("#")
        if not page.endswith(".md") or "/" in page or page == "README.md":
            return words
        topic = f"`sheetgen help {page[:-3]}`"
        return topic if words.strip("`") == page else f"{words} ({topic})"

    return _LINK.sub(link, text)
