"""The rules of a grid, composed from its data: ``compose_rules(grid, labels)``.

Every grid gets the base rules (the dice, a turn, closing a row, the end, the
scoring), then a section for each feature it has: double cells, small boxes,
a bonus chain, powers, lucky numbers, cells with colours of their own,
shuffled numbers.  Each is filled in with the grid's own values (its closing
threshold, dice, cells, bar, table...), so a grid written tomorrow gets
correct rules with no new text, and no grid is known here by its name.  The
words are the ``rules_*`` templates of the language files.

Pure: ``Rules`` is titled sections of paragraphs, laid out differently by
``format_rules`` (plain text for a terminal, wrapped), ``rules_page``
(Markdown, docs/rules.md) and the rules card.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence

from ..grid.model import Colour, Grid, Row
from ..records import record
from ..sheet.style import Labels
from ..words import shown


@record
class Section:
    title: str
    paragraphs: tuple[str, ...]
    items: tuple[str, ...] = ()  # a list after the paragraphs: the rows, the powers


@record
class Rules:
    heading: str
    sections: tuple[Section, ...]


def compose_rules(grid: Grid, labels: Labels) -> Rules:
    """The base rules, then a section per feature ``grid`` has, in ``labels``' language."""
    words = _Words(grid, labels)
    sections = [
        words.material(),
        *words.variant(),
        words.turn(),
        Section(labels("rules_title_closing"), (labels.fill("rules_closing", count=grid.close_after),)),
        *words.features(),
        Section(labels("rules_title_end"), (labels("rules_end"),)),
        words.scoring(),
        words.mistakes(),
    ]
    return Rules(labels.fill("rules_heading", title=labels.grid_title(grid)), tuple(sections))


# The original game, whose players a variant's differences are set apart for
# (the rules_variant_* templates name these values in words).
BASE_CLOSE_AFTER, BASE_DICE_FACES, BASE_PENALTY_BOXES, BASE_PENALTY_POINTS = 5, 6, 4, 5


def has_colour_cells(grid: Grid) -> bool:
    """Whether some row holds cells of several colours (a coloured die then goes to its colour in any row)."""
    return any(len(row.colours) > 1 for row in grid.rows)


def row_in_words(grid: Grid, index: int, labels: Labels) -> str:
    """A row of one colour by its colour, any other by its place from the top: 'red', 'row 2'."""
    row = grid.rows[index]
    if len(row.colours) == 1:
        return labels(f"rules_colour_{row.lock_colour.value}")
    return labels.fill("rules_row_number", n=index + 1)


def is_shuffled(row: Row) -> bool:
    """Whether a row's numbers are neither rising nor falling from left to right."""
    steps = [b - a for a, b in zip(row.numbers, row.numbers[1:])]
    return not (all(step > 0 for step in steps) or all(step < 0 for step in steps))


class _Words:
    """The grid's values put into words: rows, cells and lists, then the sections."""

    def __init__(self, grid: Grid, labels: Labels):
        self.grid, self.labels = grid, labels

    # -- pieces --------------------------------------------------------------

    def listed(self, items: Sequence[str]) -> str:
        """'a, b and c' in the language."""
        if len(items) == 1:
            return items[0]
        return self.labels.fill("rules_and", most=", ".join(items[:-1]), last=items[-1])

    def colour(self, colour: Colour) -> str:
        return self.labels(f"rules_colour_{colour.value}")

    def row_in_words(self, index: int) -> str:
        return row_in_words(self.grid, index, self.labels)

    def row_item(self, index: int, values: str) -> str:
        return self.labels.fill("rules_row_item", row=self.row_in_words(index), values=values)

    def per_row(self, values: Iterable[tuple[int, str]]) -> str:
        """'red: 3, 6 and 9; yellow: 5...': (row index, its values) for the rows that have any."""
        return self.labels("rules_separator").join(self.row_item(r, v) for r, v in values)

    def numbers_where(self, flag: str) -> str:
        """The numbers of the cells whose ``flag`` is set, row by row."""
        return self.per_row(
            (r, self.listed([str(cell.number) for cell in row.cells if getattr(cell, flag)]))
            for r, row in enumerate(self.grid.rows)
            if any(getattr(cell, flag) for cell in row.cells)
        )

    def cell(self, r: int, c: int) -> str:
        return self.labels.fill("rules_cell", row=self.row_in_words(r), number=self.grid.rows[r].cells[c].number)

    def row_numbers(self, row: Row) -> str:
        """A row's numbers as a run ('2 to 12'), or one by one where they are shuffled."""
        if is_shuffled(row):
            return " ".join(str(n) for n in row.numbers)
        return self.labels.fill("rules_run", first=row.numbers[0], last=row.numbers[-1])

    # -- sections ------------------------------------------------------------

    def material(self) -> Section:
        grid, labels = self.grid, self.labels
        used = [colour for colour in Colour if any(colour in row.colours for row in grid.rows)]
        return Section(
            labels("rules_title_material"),
            (
                labels("rules_players"),
                labels.fill("rules_dice", colours=self.listed([self.colour(c) for c in used]),
                            faces=grid.dice_faces, high=2 * grid.dice_faces),
                labels.fill("rules_rows", count=len(grid.rows)),
            ),
            tuple(self.row_item(r, self.row_numbers(row)) for r, row in enumerate(grid.rows)),
        )

    def variant(self) -> Iterable[Section]:
        """What a player of the original game would otherwise miss, in a section of its own."""
        grid, labels = self.grid, self.labels
        differences = []
        if grid.close_after != BASE_CLOSE_AFTER:
            differences.append(labels.fill("rules_variant_closing", count=grid.close_after))
        if grid.dice_faces != BASE_DICE_FACES:
            differences.append(labels.fill("rules_variant_dice", faces=grid.dice_faces, high=2 * grid.dice_faces))
        if (grid.penalty_boxes, grid.penalty_points) != (BASE_PENALTY_BOXES, BASE_PENALTY_POINTS):
            differences.append(labels.fill("rules_variant_penalty", count=grid.penalty_boxes,
                                           points=grid.penalty_points))
        if differences:
            yield Section(labels("rules_title_variant"), tuple(differences))

    def turn(self) -> Section:
        labels = self.labels
        action_2 = "rules_action_2_any_row" if has_colour_cells(self.grid) else "rules_action_2"
        return Section(
            labels("rules_title_turn"),
            (
                labels("rules_turn"),
                labels("rules_action_1"),
                labels(action_2),
                labels("rules_left_to_right"),
                labels.fill("rules_penalty", count=self.grid.penalty_boxes, points=self.grid.penalty_points),
            ),
        )

    def features(self) -> Iterable[Section]:
        """A section for each feature of the grid, in the order of the sheet's legend."""
        grid, labels = self.grid, self.labels
        if grid.has_double:
            double = labels.fill("rules_double", cells=self.numbers_where("double"))
            yield Section(labels("rules_title_double"), (double,))
        if grid.bis:
            yield Section(labels("rules_title_bis"), (labels("rules_bis"),))
        if grid.bonus_bar:
            bar = self.listed([self.colour(colour) for colour in grid.bonus_bar])
            yield Section(
                labels("rules_title_bonus"),
                (
                    labels.fill("rules_bonus", cells=self.numbers_where("framed"), count=len(grid.bonus_bar),
                                colours=bar, close=grid.close_after),
                    labels("rules_bonus_end"),
                ),
            )
        if grid.powers:
            yield Section(labels("rules_title_powers"), (labels("rules_powers"),), tuple(self.power_items()))
        if grid.lucky:
            lucky = grid.lucky
            yield Section(labels("rules_title_lucky"),
                          (labels.fill("rules_lucky", count=lucky.count, low=lucky.low, high=lucky.high),))
        if has_colour_cells(grid):
            locks = self.per_row((r, self.colour(row.lock_colour)) for r, row in enumerate(grid.rows))
            yield Section(labels("rules_title_colour_cells"), (labels.fill("rules_colour_cells", locks=locks),))
        if any(is_shuffled(row) for row in grid.rows):
            last = self.per_row((r, str(row.numbers[-1])) for r, row in enumerate(grid.rows))
            yield Section(labels("rules_title_shuffled"), (labels.fill("rules_shuffled", last=last),))

    def power_items(self) -> Iterable[str]:
        for power in self.grid.powers:
            cells = self.listed([self.cell(r, c) for r, c in self.grid.symbol_cells(power.symbol)])
            yield self.labels.fill(
                "rules_power_item",
                symbol=self.labels(f"rules_symbol_{power.symbol.value}"),
                cells=cells,
                effect=self.labels.fill(f"rules_power_{power.effect.value}", amount=power.amount),
            )

    def mistakes(self) -> Section:
        """What new players get wrong most, as a list: the base game's, then the grid's features'."""
        labels = self.labels
        items = [labels("rules_mistake_lock"), labels("rules_mistake_penalty"),
                 labels.fill("rules_mistake_threshold", count=self.grid.close_after), labels("rules_mistake_end")]
        if self.grid.lucky:
            items.append(labels("rules_mistake_lucky"))
        return Section(labels("rules_title_mistakes"), (), tuple(items))

    def scoring(self) -> Section:
        grid, labels = self.grid, self.labels
        table = ", ".join(
            labels.fill("rules_table_item", crosses=n, points=points) for n, points in enumerate(grid.table, 1)
        )
        paragraphs = [labels.fill("rules_scoring", table=table)]
        if grid.cross_cap:
            paragraphs.append(labels.fill("rules_cap", count=grid.cross_cap))
        paragraphs.append(labels.fill("rules_total", points=grid.penalty_points))
        return Section(labels("rules_title_scoring"), tuple(paragraphs))


# -- layouts -------------------------------------------------------------------

WIDEST = 100  # characters: longer lines are hard to read, however wide the terminal
NARROWEST = 30


def format_rules(rules: Rules, width: int) -> str:
    """Plain text wrapped to ``width`` characters (kept within 30 to 100), for a terminal."""
    width = max(NARROWEST, min(width, WIDEST))
    blocks = [_underlined(rules.heading, "=")]
    for section in rules.sections:
        texts = [_wrap(paragraph, width) for paragraph in section.paragraphs]
        if section.items:
            texts.append("\n".join(_wrap(item, width, "  - ", "    ") for item in section.items))
        blocks.append(_underlined(section.title, "-") + "\n" + "\n\n".join(texts))
    return shown("\n\n".join(blocks) + "\n", lines=True)  # a grid's title may hold control characters


def _underlined(title: str, rule: str) -> str:
    return f"{title}\n{rule * len(title)}"


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> str:
    # The no-break spaces stay in the text: a terminal shows them as spaces, and the text copied from it keeps
    # the language's typography (a number with its unit, French : ; ! ? with the word before them).
    return textwrap.fill(glued(text), width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


NO_BREAK = "\u00a0"  # textwrap breaks lines at ASCII white space only
_BEFORE_PUNCTUATION = re.compile(r" (?=[:;!?](?: |$))")


def glued(text: str) -> str:
    """``text`` with the spaces that French puts before : ; ! ? made
    unbreakable, so that no line starts with the punctuation."""
    return _BEFORE_PUNCTUATION.sub(NO_BREAK, text)


PAGE_HEAD = """\
# The rules of the built-in grids

<!-- Written by `python scripts/rules_page.py` from the grid files and
sheetgen/data/lang-en.yaml; a test keeps it up to date. Do not edit by hand. -->

The rules of every built-in grid, composed from its grid file: the base
rules, then what the grid adds, with its own values. `sheetgen rules GRID`
prints the same text in a terminal, for any grid file and in any of the five
languages (`--lang fr`, `de`, `it`, `nl`); `sheetgen rules GRID --pdf` prints
it on a one-page card, with a sheet filled in as a worked example.
"""


def rules_page(grids: Sequence[Grid], labels: Labels) -> str:
    """A Markdown page of the rules of ``grids``: docs/rules.md."""
    contents = "\n".join(f"- [{grid.title}](#{grid.name}) (`{grid.name}`)" for grid in grids)
    parts = [PAGE_HEAD.rstrip(), contents]
    for grid in grids:
        rules = compose_rules(grid, labels)
        parts.append(f'<a id="{grid.name}"></a>\n\n## {rules.heading}\n\n`sheetgen rules {grid.name}`')
        for section in rules.sections:
            parts.append(f"### {section.title}")
            parts += section.paragraphs
            if section.items:
                parts.append("\n".join(f"- {item}" for item in section.items))
    return "\n\n".join(parts) + "\n"
