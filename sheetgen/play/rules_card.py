"""The rules card: one page with a grid's rules, a picture of its sheet filled
in as a worked example, and what that sheet scores.  Pure geometry in mm,
origin at the top-left corner of the paper.

``layout_card`` places the heading, the picture (a ``Drawing`` put on the page
at a scale) with the example's score beside it, and the rules in two columns
below, at the largest type size from ``BODY_SIZES`` at which they fit inside
the margins.  Text widths come from ``measure(text, bold, size) -> width``
(mm), given by the caller, as for the sheet.  Which sheet the picture shows
is ``example.example_marks``; its score is ``scoring.score_sheet``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import LayoutError
from ..grid.model import Grid
from ..pdf.geometry import RGB, Box, Circle, Drawing, Item, Placed, Polygon, Text
from ..records import record
from ..sheet.draw import draw_sheet, personalise
from ..sheet.plan import Measure, SheetData, plan_sheet
from ..sheet.style import MINUS, Labels, Theme
from .lucky import DEFAULT_SEED, deal_lucky
from .marks import Marks
from .rules import Rules, glued, row_in_words
from .scoring import Score

PT = 25.4 / 72  # one point, mm
MARGIN = 10.0  # mm of blank paper at every edge (nothing is printed within 5 mm)
GUTTER = 6.0  # between the picture and the example, and between the columns
COLUMNS = 2
BODY_SIZES = tuple(pt * PT for pt in (10, 9.5, 9, 8.5, 8, 7.5, 7, 6.5))  # tried from the largest
LEADING = 1.25  # line height, in type sizes
ASCENT = 0.76  # baseline below the top of a line, in type sizes
PARAGRAPH_GAP = 0.4  # in type sizes
SECTION_GAP = 0.8
HEADING_SCALE = 1.9  # the card's heading, in body sizes
TITLE_SCALE = 1.1  # section titles
PICTURE_SHARE = 0.56  # of the content width: the sheet's picture
BULLET = 0.16  # radius of a list's bullet, in type sizes
INK: RGB = (0.0, 0.0, 0.0)
RULE: RGB = (0.6, 0.6, 0.6)


@record
class Example:
    """A worked example in words: (what, points) lines, then the total."""

    title: str
    intro: str
    lines: tuple[tuple[str, str], ...]
    total: tuple[str, str]


@record
class Card:
    page: Drawing  # the words and rules, in page coordinates
    picture: Placed  # the sheet of the example
    content: Box  # everything printed stays inside
    body_size: float  # the type size the rules fit at, mm


def _number(value: int) -> str:
    """A number as printed: a negative one with the minus sign, not a hyphen."""
    return str(value).replace("-", MINUS)


def compose_example(grid: Grid, score: Score, labels: Labels) -> Example:
    """What the example sheet scores, line by line, in ``labels``' language."""
    lines = []
    for index, row in enumerate(score.rows):
        key = "rules_example_row_locked" if row.locked else "rules_example_row"
        if row.counted != row.crosses:
            key = "rules_example_row_capped"
        what = labels.fill(key, row=row_in_words(grid, index, labels), crosses=row.crosses, counted=row.counted)
        lines.append((what, str(row.points)))
    if score.penalties:
        lines.append((labels.fill("rules_example_penalties", count=score.penalties), _number(score.penalty_points)))
    for power in score.powers:
        amount = next(p.amount for p in grid.powers if p.symbol is power.symbol)
        what = labels.fill("rules_example_power", symbol=labels(f"rules_symbol_{power.symbol.value}"),
                           effect=labels(f"power_{power.effect.value}", amount or None))
        lines.append((what, f"+{power.points}"))
    return Example(labels("rules_title_example"), labels("rules_example"), tuple(lines),
                   (labels("rules_example_total"), _number(score.total)))


def layout_card(rules: Rules, example: Example, picture: Drawing, paper: tuple[float, float],
                measure: Measure) -> Card:
    """The card on paper ``paper`` (width, height in mm) at the largest body
    size at which everything fits; ``LayoutError`` if none does."""
    width, height = paper
    content = Box(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)
    for size in BODY_SIZES:
        card = _card(rules, example, picture, paper, content, size, measure)
        if card is not None:
            return card
    raise LayoutError(f"the rules do not fit on one {width:g} x {height:g} mm page, even at"
                      f" {BODY_SIZES[-1] / PT:g} pt")


@record
class _Line:
    """A line of text to place: ``before`` is the space above it (dropped at
    the top of a column); ``keep`` lines after it stay in its column."""

    text: str
    size: float
    bold: bool = False
    indent: float = 0.0
    before: float = 0.0
    bullet: bool = False
    keep: int = 0

    @property
    def height(self) -> float:
        return self.size * LEADING


def _card(rules: Rules, example: Example, picture: Drawing, paper: tuple[float, float], content: Box, size: float,
          measure: Measure) -> Card | None:
    items: list[Item] = []
    heading = _Line(rules.heading, size * HEADING_SCALE, bold=True)
    y = content.y
    for text in _wrap(heading.text, content.w, heading.size, True, measure):
        items.append(_text(_Line(text, heading.size, True), content.x, y, content.w))
        y += heading.height
    items.append(Polygon(((content.x, y), (content.right, y)), stroke=RULE, line=0.3, closed=False))
    y += size * PARAGRAPH_GAP * 2

    placed = Placed(picture, content.x, y, content.w * PICTURE_SHARE / picture.width)
    side = Box(placed.box.right + GUTTER, y, content.right - placed.box.right - GUTTER, 0.0)
    bottom = _example(example, side, size, measure, items)
    top = max(placed.box.bottom, bottom) + size * SECTION_GAP * 2

    column_w = (content.w - GUTTER * (COLUMNS - 1)) / COLUMNS
    lines = list(_rules_lines(rules, column_w, size, measure))
    positions = _flow(lines, top, content.bottom)
    if positions is None:
        return None
    # Balanced columns: the lowest bottom that still holds everything, to the millimetre.
    low, high = top, content.bottom
    while high - low > 1.0:
        middle = (low + high) / 2
        flowed = _flow(lines, top, middle)
        low, high, positions = (low, middle, flowed) if flowed is not None else (middle, high, positions)
    for line, (column, line_top) in zip(lines, positions):
        x = content.x + column * (column_w + GUTTER)
        items.append(_text(line, x + line.indent, line_top, column_w - line.indent))
        if line.bullet:
            items.append(Circle(x + line.indent / 2, line_top + line.size * (ASCENT - 0.28), line.size * BULLET,
                                fill=INK))
    return Card(Drawing(paper[0], paper[1], tuple(items)), placed, content, size)


def _wrap(text: str, width: float, size: float, bold: bool, measure: Measure) -> list[str]:
    """``text`` in lines no wider than ``width`` (a word wider than that stands alone)."""
    lines: list[str] = []
    line = ""
    for word in glued(text).split(" "):
        if not word:
            continue
        candidate = f"{line} {word}" if line else word
        if line and measure(candidate, bold, size) > width:
            lines.append(line)
            candidate = word
        line = candidate
    return lines + [line] if line else lines


def _text(line: _Line, x: float, top: float, width: float, anchor: str = "start") -> Text:
    """``line`` with its top at ``top``, in a box ``width`` wide from ``x``."""
    box = Box(x, top, width, line.height)
    at = box.right if anchor == "end" else box.x
    return Text(at, top + line.size * ASCENT, line.text, line.size, INK, line.bold, anchor, box=box, role="card")


def _example(example: Example, area: Box, size: float, measure: Measure, items: list[Item]) -> float:
    """The worked example in ``area`` (its height is free): title, intro, then a
    line per score with its points right-aligned; the bottom reached."""
    y = area.y
    for text, line_size, bold in [(example.title, size * TITLE_SCALE, True), (example.intro, size, False)]:
        for part in _wrap(text, area.w, line_size, bold, measure):
            line = _Line(part, line_size, bold)
            items.append(_text(line, area.x, y, area.w))
            y += line.height
    y += size * PARAGRAPH_GAP
    scores = [(what, points, False) for what, points in example.lines] + [(*example.total, True)]
    for what, points, bold in scores:
        room = area.w - measure(points, bold, size) - size
        items.append(_text(_Line(points, size, bold), area.x, y, area.w, anchor="end"))
        for part in _wrap(what, room, size, bold, measure):
            items.append(_text(_Line(part, size, bold), area.x, y, room))
            y += size * LEADING
    return y


def _rules_lines(rules: Rules, width: float, size: float, measure: Measure) -> Iterable[_Line]:
    """Every section: its title, kept with the first lines after it; its
    paragraphs; its items, bulleted and indented."""
    title_size, indent = size * TITLE_SCALE, size * 1.1
    for section in rules.sections:
        for i, text in enumerate(_wrap(section.title, width, title_size, True, measure)):
            yield _Line(text, title_size, True, before=size * SECTION_GAP if i == 0 else 0.0, keep=2)
        for n, paragraph in enumerate(section.paragraphs):
            for i, text in enumerate(_wrap(paragraph, width, size, False, measure)):
                yield _Line(text, size, before=size * PARAGRAPH_GAP if i == 0 and n > 0 else 0.0)
        for item in section.items:
            for i, text in enumerate(_wrap(item, width - indent, size, False, measure)):
                yield _Line(text, size, indent=indent, before=size * PARAGRAPH_GAP / 2 if i == 0 else 0.0,
                            bullet=i == 0)


def _flow(lines: Sequence[_Line], top: float, bottom: float) -> list[tuple[int, float]] | None:
    """(column, top) of each line, filling the columns from ``top`` to
    ``bottom`` in turn; None if they do not hold them all."""
    positions: list[tuple[int, float]] = []
    column, y = 0, top
    for index, line in enumerate(lines):
        kept = lines[index: index + 1 + line.keep]
        needed = line.before + sum(other.height for other in kept) + sum(other.before for other in kept[1:])
        if y > top and y + needed > bottom:
            column, y = column + 1, top
        if column == COLUMNS or y + line.height > bottom:
            return None
        y += line.before if y > top else 0.0
        positions.append((column, y))
        y += line.height
    return positions


# -- the picture: the example sheet, filled in --------------------------------

PEN: RGB = (0.05, 0.2, 0.6)  # a blue ballpoint
PEN_LINE = 0.45  # mm, on the sheet
WRITING = 0.5  # a number written in a totals box: its size, as a share of the box's height


def example_picture(grid: Grid, marks: Marks, score: Score, labels: Labels, theme: Theme,
                    measure: Measure) -> Drawing:
    """The sheet of the example as its player left it: the sheet (with the
    first lucky numbers a print run deals), a cross in every crossed cell,
    small box, lock, bar box and penalty box, and the points written in the
    totals line."""
    plan = plan_sheet(grid, labels, theme, measure)
    lucky = next(deal_lucky(grid.lucky, DEFAULT_SEED))
    items = list(draw_sheet(plan, theme).items) + list(personalise(plan, SheetData(lucky), theme, measure))
    for cell in plan.cells:
        row = marks.rows[cell.row]
        if cell.number in row.crossed:
            items += cross(cell.box)
        if cell.bis_box is not None and cell.number in row.bis:
            items += cross(cell.bis_box)
    items += [part for lock in plan.locks if score.rows[lock.row].locked for part in cross(lock.box)]
    items += [part for box in plan.bar if box.index + 1 in marks.bonus_bar for part in cross(box.box)]
    items += [part for box in plan.penalties if box.index < marks.penalties for part in cross(box.box)]
    written = {"penalties": -score.penalty_points, "powers": sum(power.points for power in score.powers),
               "total": score.total}
    for total in plan.totals:
        value = score.rows[total.row].points if total.row is not None else written[total.kind]
        items.append(_written(_number(value), total.box, measure))
    return Drawing(plan.width, plan.height, tuple(items))


def cross(box: Box) -> tuple[Item, ...]:
    """A pen cross over ``box``."""
    inner = box.inset(min(box.w, box.h) * 0.18)
    return (
        Polygon(((inner.x, inner.y), (inner.right, inner.bottom)), stroke=PEN, line=PEN_LINE, closed=False),
        Polygon(((inner.right, inner.y), (inner.x, inner.bottom)), stroke=PEN, line=PEN_LINE, closed=False),
    )


def _written(text: str, box: Box, measure: Measure) -> Text:
    """A number written in the lower part of ``box`` (its caption is at the top), in pen."""
    size = box.h * WRITING
    size = min(size, size * box.w * 0.8 / measure(text, False, size))
    return Text(box.cx, box.bottom - box.h * 0.18, text, size, PEN, anchor="middle", box=box, role="written")
