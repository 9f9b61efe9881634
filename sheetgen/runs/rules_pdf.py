"""Rules cards as PDF: ``rules_card_pdf(grid, lang, paper)`` returns the bytes
of the one-page card that the command line writes and the pack links."""

from __future__ import annotations

from ..errors import LayoutError
from ..grid.model import Grid
from ..pdf.impose import PAPERS
from ..play.example import example_sheet
from ..play.rules import compose_rules
from ..play.rules_card import compose_example, example_picture, layout_card, picture_targets
from ..play.scoring import score_sheet
from ..sheet.plan import STANDARD
from ..sheet.style import DEFAULT_LANG, DEFAULT_THEME, Labels, load_labels, load_theme

CARD_PAPERS = STANDARD.papers  # those of the standard sheets: A6 is too small for a page of rules and a picture


def rules_card_pdf(grid: Grid, lang: str = DEFAULT_LANG, paper: str = "a4", words: Labels | None = None) -> bytes:
    """The rules card of ``grid`` in ``lang`` (or in the ``words`` of a
    language file of the user's) on ``paper`` (a4 or letter)."""
    from ..pdf.render import measure_text, render_page

    labels, theme = words or load_labels(lang), load_theme(DEFAULT_THEME)
    shown = example_sheet(grid)
    marks = shown.marks
    score = score_sheet(grid, marks)
    picture = example_picture(grid, marks, score, labels, theme, measure_text, shown.lucky)
    rules = compose_rules(grid, labels)
    try:
        card = layout_card(rules, compose_example(grid, marks, score, labels), picture, PAPERS[paper], measure_text,
                           picture_targets(grid, labels, theme, measure_text))
    except LayoutError as error:
        raise error.within(where=grid.source) from None
    return render_page(card.page, [card.picture], title=f"{rules.heading} ({labels('language')})",
                       subject=labels("pack_rules"))
