"""The rules card: one page with a grid's rules, a picture of its sheet filled
in as a worked example, and what that sheet scores.  Pure geometry in mm,
origin at the top-left corner of the paper.

``layout_card`` places the heading, the picture (a ``Drawing`` put on the page
at a scale) with the example's score beside it, and the rules in two columns
below, at the largest type size from ``BODY_SIZES`` at which they fit inside
the margins.  Text widths come from ``measure(text, bold, size) -> width``
(mm), given by the caller, as for the sheet.  Which sheet the picture shows
is ``example.example_sheet``'s (a final sheet of the simulator's); its score is ``scoring.score_sheet``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..errors import LayoutError
from ..grid.model import Effect, Grid
from ..pdf.geometry import RGB, Box, Circle, Drawing, Item, Placed, Polygon, Text, bounds
from ..records import record
from ..sheet.boxes import CellPlan
from ..sheet.draw import draw_sheet, personalise
from ..sheet.plan import Measure, SheetData, SheetPlan, plan_sheet
from ..sheet.style import MINUS, NO_BREAK, Labels, Theme
from .leaders import Path, length, route
from .lucky import DEFAULT_SEED, deal_lucky
from .marks import Marks, RowMarks
from .rules import Rules, glued, row_in_words
from .scoring import Score

PT = 25.4 / 72  # one point, mm
MARGIN = 8.0  # mm of blank paper at every edge (nothing is printed within 5 mm)
GUTTER = 6.0  # between the picture and the example, and between the columns
COLUMNS = 2
BODY_SIZES = tuple(pt * PT for pt in (10, 9.5, 9, 8.5, 8, 7.5, 7, 6.5))  # tried from the largest
LEADING = 1.2  # line height, in type sizes
ASCENT = 0.76  # baseline below the top of a line, in type sizes
PARAGRAPH_GAP = 0.3  # in type sizes
SECTION_GAP = 0.6
HEADING_SCALE = 1.9  # the card's heading, in body sizes
TITLE_SCALE = 1.1  # section titles
PICTURE_SHARE = 0.45  # of the content width: the least the sheet's picture takes (it grows into what the rules leave)
PICTURE_LEAST = (0.4, 0.35, 0.3)  # and the smaller shares it gives up, before the body type goes under BODY_FLOOR
BODY_FLOOR = 8 * PT  # the least body type a card's rules are set in, while a smaller picture leaves them room
BULLET = 0.16  # radius of a list's bullet, in type sizes
IMMEDIATE = (Effect.EXTRA_CROSSES, Effect.CROSS_EACH_OPEN_ROW)  # powers that cross cells instead of scoring
INK: RGB = (0.0, 0.0, 0.0)
RULE: RGB = (0.6, 0.6, 0.6)
CALLOUT_W = 30.0  # the least width of the callouts' column on either side of the picture, mm
CALLOUT_MOST = 40.0  # and the most
CALLOUT_GAP = 3.0  # between a callout's text and the picture
CALLOUT_SCALE = 0.85  # a callout's type, in body sizes
CALLOUT_SPACE = 0.5  # between two callouts, in their type size
LEADER: RGB = (0.35, 0.35, 0.35)
LEADER_LINE = 0.25
LEADER_DOT = 0.45  # the dot where a leader meets its box, radius in mm


@record
class Example:
    """A worked example in words: (what, points) lines with each row's
    arithmetic, then the total; the goal line under the card's heading; a
    turn played out with names and dice, and a row closed."""

    title: str
    intro: str
    lines: tuple[tuple[str, str], ...]
    total: tuple[str, str]
    goal: str = ""
    turn_title: str = ""
    turn: tuple[str, ...] = ()


@record
class Target:
    """A box of the pictured sheet that a callout names, in the sheet's mm."""

    kind: str  # "direction", "lock", "threshold", "penalty", "double", "framed", "symbol", "bis", "colour", "lucky"
    text: str
    box: Box
    others: tuple[Box, ...] = ()  # boxes of the same kind, nearest the rows' outline first, if no leader reaches box


@record
class Callout:
    """A callout placed on the card: its lines of text, the box they fill,
    and the leader line from ``start`` (beside the text) to ``end`` (on the
    edge of the target's box) through the points of ``path``, all in page
    coordinates."""

    kind: str
    lines: tuple[Text, ...]
    box: Box
    start: tuple[float, float]
    end: tuple[float, float]
    target: Box
    path: tuple[tuple[float, float], ...] = ()
    others: tuple[Box, ...] = ()  # the target's stand-ins, in page coordinates


@record
class Card:
    page: Drawing  # the words and rules, in page coordinates
    picture: Placed  # the sheet of the example
    content: Box  # everything printed stays inside
    body_size: float  # the type size the rules fit at, mm
    callouts: tuple[Callout, ...] = ()


def _number(value: int) -> str:
    """A number as printed: a negative one with the minus sign, not a hyphen."""
    return str(value).replace("-", MINUS)


def compose_example(grid: Grid, marks: Marks, score: Score, labels: Labels) -> Example:
    """What the example sheet ``marks`` scores, line by line with each row's
    arithmetic (cells, the extra cross of double cells, small boxes, the lock),
    in ``labels``' language; and a turn played out on ``grid``."""
    lines = []
    for index, (row, marked) in enumerate(zip(score.rows, marks.rows)):
        added = " + ".join(row_sum(grid, index, marked, row.locked, labels))
        what = labels.fill("rules_example_row_capped" if row.counted != row.crosses else "rules_example_row",
                           row=row_in_words(grid, index, labels), sum=added,
                           crosses=row.crosses, counted=row.counted)
        lines.append((what, str(row.points)))
    if score.penalties:
        lines.append((labels.fill("rules_example_penalties", count=score.penalties), _number(score.penalty_points)))
    for power in score.powers:
        amount = next(p.amount for p in grid.powers if p.symbol is power.symbol)
        at_once = power.effect in IMMEDIATE  # its crosses are counted in the rows: no points of its own
        what = labels.fill("rules_example_power_rows" if at_once else "rules_example_power",
                           symbol=labels(f"rules_symbol_{power.symbol.value}"),
                           effect=labels(f"power_{power.effect.value}", amount or None))
        lines.append((what, "" if at_once else f"+{power.points}"))
    return Example(labels("rules_title_example"), labels("rules_example"), tuple(lines),
                   (labels("rules_example_total"), _number(score.total)), labels("rules_goal"),
                   labels("rules_title_example_turn"), tuple(played_turn(grid, labels)))


def row_sum(grid: Grid, index: int, marked: RowMarks, locked: bool, labels: Labels) -> list[str]:
    """The parts of a row's crosses, as the card adds them up: '6 cells', '1 for a double cell', 'lock'."""
    row = grid.rows[index]
    weights = {cell.number: cell.weight for cell in row.cells}
    extra = sum(weights[number] - 1 for number in marked.crossed)
    parts = [labels.fill("rules_sum_cells", count=len(marked.crossed))]
    if extra:
        parts.append(labels.fill("rules_sum_double", count=extra))
    if marked.bis:
        parts.append(labels.fill("rules_sum_small", count=len(marked.bis)))
    if locked:
        parts.append(labels("rules_sum_lock"))
    return parts


def played_turn(grid: Grid, labels: Labels) -> Iterable[str]:
    """A first turn on ``grid`` with the dice it uses: the white sum announced
    and crossed by another player in a row that has it, a white and a coloured
    die added for the second cell of the top row; then the top row closed.
    Each sentence only where the grid's numbers allow it."""
    faces = grid.dice_faces
    white_1, white_2 = min(4, faces), 1
    total = white_1 + white_2
    rows_with = [r for r, row in enumerate(grid.rows) if total in row.numbers]
    if rows_with:
        r = next((r for r in rows_with if r != 0), rows_with[0])
        yield labels.fill("rules_example_turn", dice=f"{white_1}{NO_BREAK}+{NO_BREAK}{white_2}", sum=total,
                          row=row_in_words(grid, r, labels))
        top = grid.rows[0]
        if len(top.cells) > 1:
            cell = top.cells[1]
            white = next((w for w in (white_1, white_2) if 1 <= cell.number - w <= faces), None)
            if white is not None:
                yield labels.fill("rules_example_turn_2", white=white, die=cell.number - white,
                                  colour=labels(f"rules_colour_{cell.colour.value}"), total=cell.number,
                                  row=row_in_words(grid, 0, labels))
    top = grid.rows[0]
    yield labels.fill("rules_example_lock", count=grid.close_after, row=row_in_words(grid, 0, labels),
                      last=top.numbers[-1], colour=labels(f"rules_colour_{top.lock_colour.value}"))


def layout_card(rules: Rules, example: Example, picture: Drawing, paper: tuple[float, float],
                measure: Measure, targets: Sequence[Target] = ()) -> Card:
    """The card on paper ``paper`` (width, height in mm) at the largest body
    size at which everything fits, the picture (with a callout beside it for
    each of ``targets``) then made as large as the page leaves room for;
    ``LayoutError`` if nothing fits."""
    width, height = paper
    content = Box(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)
    for size in BODY_SIZES:
        # At the floor, the picture gives up width before the type goes under it.
        shares = (PICTURE_SHARE, *PICTURE_LEAST) if abs(size - BODY_FLOOR) < 1e-9 else (PICTURE_SHARE,)
        fitted, smallest = None, content.w * PICTURE_SHARE
        for share in shares:
            smallest = content.w * share
            fitted = _card(rules, example, picture, targets, paper, content, size, smallest, measure)
            if fitted is not None:
                break
        if fitted is None:
            continue
        card, used = fitted
        largest = content.w - 2 * (CALLOUT_W + CALLOUT_GAP)
        room = content.bottom - used  # what the page leaves: the picture grows into it
        grown = min(largest, smallest * (1 + room / (picture.height * smallest / picture.width)))
        for wide in (grown, (grown + smallest) / 2):  # the columns may fall differently: try a little smaller
            bigger = _card(rules, example, picture, targets, paper, content, size, wide, measure)
            if bigger is not None:
                return _led(bigger[0])
        return _led(card)
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
    points: str = ""  # a score line's points, right-aligned in its column

    @property
    def height(self) -> float:
        return self.size * LEADING


def _card(rules: Rules, example: Example, picture: Drawing, targets: Sequence[Target], paper: tuple[float, float],
          content: Box, size: float, picture_w: float, measure: Measure) -> tuple[Card, float] | None:
    """The card at body size ``size`` with the picture ``picture_w`` wide, and
    the bottom its rules reach; None if they do not fit."""
    items: list[Item] = []
    heading = _Line(rules.heading, size * HEADING_SCALE, bold=True)
    y = content.y
    for text in _wrap(heading.text, content.w, heading.size, True, measure):
        items.append(_text(_Line(text, heading.size, True), content.x, y, content.w))
        y += heading.height
    for text in _wrap(example.goal, content.w, size * TITLE_SCALE, True, measure):
        items.append(_text(_Line(text, size * TITLE_SCALE, True), content.x, y, content.w))
        y += size * TITLE_SCALE * LEADING
    y += size * PARAGRAPH_GAP
    items.append(Polygon(((content.x, y), (content.right, y)), stroke=RULE, line=0.3, closed=False))
    y += size * PARAGRAPH_GAP * 2

    placed = Placed(picture, content.cx - picture_w / 2, y, picture_w / picture.width)
    callouts = _callouts(targets, placed, content, size * CALLOUT_SCALE, measure)
    if callouts is None:
        return None
    for callout in callouts:
        items += callout.lines
    below = max([placed.box.bottom] + [c.box.bottom for c in callouts]) + size * SECTION_GAP * 2

    column_w = (content.w - GUTTER * (COLUMNS - 1)) / COLUMNS
    top = below
    lines = list(_example_lines(example, column_w, size, measure)) + list(_rules_lines(rules, column_w, size, measure))
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
        room = column_w - line.indent
        if line.points:
            items.append(_text(_Line(line.points, line.size, line.bold), x, line_top, column_w, anchor="end"))
            room -= measure(line.points, line.bold, line.size) + line.size
        items.append(_text(line, x + line.indent, line_top, room))
        if line.bullet:
            items.append(Circle(x + line.indent / 2, line_top + line.size * (ASCENT - 0.28), line.size * BULLET,
                                fill=INK))
    used = max(line_top + line.height for line, (_, line_top) in zip(lines, positions))
    return Card(Drawing(paper[0], paper[1], tuple(items)), placed, content, size, tuple(callouts)), used


def _led(card: Card) -> Card:
    """``card`` with the leader of each callout drawn: routed around the
    picture's cells and texts, the callouts' texts and the leaders drawn
    before it (``leaders.route``), from the picture's top to its bottom and
    across the callouts' columns."""
    placed = card.picture
    whole = placed.drawing.width * placed.drawing.height
    drawn = [bounds(item) for item in placed.drawing.items if not isinstance(item, Text) or item.box is not None]
    obstacles = [placed.on_page(b) for b in drawn
                 if b.w * b.h < whole / 2]  # not a frame or a background around everything
    obstacles += [callout.box for callout in card.callouts]
    # and each of its lines' boxes, as wide as its column: a leader keeps off them as off the picture's texts
    obstacles += [line.box for callout in card.callouts for line in callout.lines if line.box is not None]
    region = Box(card.content.x, placed.box.y, card.content.w,
                 max([placed.box.bottom] + [c.box.bottom for c in card.callouts]) - placed.box.y)
    routed = _routes(card.callouts, obstacles, region)
    stuck = [i for i, (_, _, free) in enumerate(routed) if not free]
    if stuck:  # a leader that found no way: route those first, the others round them
        first = stuck + [i for i in range(len(routed)) if i not in stuck]
        again = _routes([card.callouts[i] for i in first], obstacles, region)
        if sum(not free for _, _, free in again) < len(stuck):
            routed = [again[first.index(i)] for i in range(len(routed))]
    callouts, items = [], list(card.page.items)
    for callout, (path, target, _) in zip(card.callouts, routed):
        callouts.append(replace(callout, end=path[-1], path=path, target=target))
        items.append(Polygon(path, stroke=LEADER, line=LEADER_LINE, closed=False))
        items.append(Circle(*path[-1], LEADER_DOT, fill=LEADER))
    return replace(card, page=replace(card.page, items=tuple(items)), callouts=tuple(callouts))


def _routes(callouts: Sequence[Callout], obstacles: list[Box], region: Box) -> list[tuple[Path, Box, bool]]:
    """Each callout's leader in turn, round those before it: its path, the box it names, and whether it
    found a free way (else it is the straight line to its first box, which the card's tests refuse)."""
    paths: list[Path] = []
    found = []
    for callout in callouts:
        path, target = None, callout.target
        # A box of the kind that a leader reaches in the open, else the first reached through a gap between cells.
        for tight, target in [(tight, box) for tight in (False, True) for box in (callout.target, *callout.others)]:
            # What the target holds, or what holds it (the cell of a symbol), is not in the way.
            near = [box for box in obstacles if not target.contains(box) and not box.contains(target)]
            # A leader stays on its callout's side of the box it names: it never runs round the picture.
            left = callout.start[0] <= target.x
            side = Box(region.x, region.y, target.right + GUTTER - region.x, region.h) if left else \
                Box(target.x - GUTTER, region.y, region.right - target.x + GUTTER, region.h)
            path = _leader(callout.start, target, near, paths, side, tight)
            if path is not None:
                break
        free = path is not None
        if path is None:
            target, path = callout.target, (callout.start, callout.end)
        paths.append(path)
        found.append((path, target, free))
    return found


DETOUR = 2.0  # a leader runs at most this many times the way straight to its end (plus DETOUR_SLACK)
DETOUR_SLACK = 10.0  # mm


def _leader(start: tuple[float, float], target: Box, obstacles: list[Box], paths: list[Path], region: Box,
            tight: bool) -> Path | None:
    """A leader that does not go too far round (``_detour``), looked for only where such a leader can run:
    among the few boxes there, a quick search."""
    within = _within_reach(start, target, region)
    path = route(start, target, [box for box in obstacles if box.overlaps(within)], paths, within, tight)
    return path if path is not None and not _detour(path) else None


def _within_reach(start: tuple[float, float], target: Box, region: Box) -> Box:
    """The part of ``region`` that a leader from ``start`` to ``target`` can pass through without a
    detour (``_detour``): the search for its lanes looks there only, among far fewer boxes."""
    x, y = start
    direct = abs(target.cx - x) + abs(target.cy - y) + (target.w + target.h) / 2
    reach = (DETOUR - 1) * direct / 2 + DETOUR_SLACK
    left, top = max(region.x, min(x, target.x) - reach), max(region.y, min(y, target.y) - reach)
    right, bottom = min(region.right, max(x, target.right) + reach), min(region.bottom, max(y, target.bottom) + reach)
    return Box(left, top, max(right - left, 0.0), max(bottom - top, 0.0))


def _detour(path: Path) -> bool:
    """Whether ``path`` goes too far round (under the picture to a box on its other side, say)."""
    return length(path) > DETOUR * length((path[0], path[-1])) + DETOUR_SLACK


def _callouts(targets: Sequence[Target], placed: Placed, content: Box, size: float,
              measure: Measure) -> list[Callout] | None:
    """A callout for each target, beside the picture on the side nearer to
    its box, stacked down from the box's height without overlapping; the
    leader runs from the text to the middle of the box's near edge.  None if
    there is no room for the callouts' column."""
    picture = placed.box
    left_w = min(CALLOUT_MOST, picture.x - CALLOUT_GAP - content.x)
    right_w = min(CALLOUT_MOST, content.right - picture.right - CALLOUT_GAP)
    if targets and min(left_w, right_w) < CALLOUT_W - 0.01:
        return None
    on_page = [(t, placed.on_page(t.box)) for t in targets]
    callouts: list[Callout] = []
    for left in (True, False):
        side = sorted(((t, box) for t, box in on_page if (box.cx < picture.cx) == left), key=lambda tb: tb[1].cy)
        width = left_w if left else right_w
        x = picture.x - CALLOUT_GAP - width if left else picture.right + CALLOUT_GAP
        floor = picture.y
        for target, box in side:
            parts = _wrap(target.text, width, size, False, measure)
            height = len(parts) * size * LEADING
            top = max(floor, box.cy - height / 2)
            floor = top + height + size * CALLOUT_SPACE
            lines = tuple(_text(_Line(part, size), x, top + n * size * LEADING, width,
                                anchor="end" if left else "start") for n, part in enumerate(parts))
            widest = max(measure(part, False, size) for part in parts)
            text_box = Box(x + width - widest if left else x, top, widest, height)
            start = (x + width + 0.8, top + height / 2) if left else (x - 0.8, top + height / 2)
            end = (box.x, box.cy) if left else (box.right, box.cy)
            others = tuple(on for on in map(placed.on_page, target.others)
                           if (on.cx < picture.cx) == left)  # on this side
            callouts.append(Callout(target.kind, lines, text_box, start, end, box, others=others))
    return callouts


def picture_targets(grid: Grid, labels: Labels, theme: Theme, measure: Measure) -> tuple[Target, ...]:
    """What the card's callouts name on the pictured sheet, found in the
    sheet's plan: the first row's direction and lock, the threshold hint, the
    penalty boxes, the lucky numbers, and one cell of each special kind the
    grid has (the one nearest an edge of the sheet)."""
    plan = picture_plan(grid, labels, theme, measure)
    targets: list[Target] = []
    if plan.arrows:
        targets.append(Target("direction", labels("rules_callout_direction"), plan.arrows[0].box))
    if plan.locks:
        targets.append(Target("lock", labels("rules_callout_lock"), plan.locks[0].box))
    # The last row's hint: the first row's sits beside the lock that the lock's callout names.
    hinted = next((lock.hint for lock in reversed(plan.locks) if lock.hint is not None and lock.hint.box is not None),
                  None)
    if hinted is not None and hinted.box is not None:
        targets.append(Target("threshold", labels.fill("rules_callout_threshold", count=grid.close_after), hinted.box))
    if plan.penalties:
        first, label = plan.penalties[0], plan.penalties_label.box
        # The band of penalty boxes with its label, so that the leader ends before the label, not across it.
        band = _around([first.box] + ([label] if label is not None and label.right <= first.box.x else []))
        targets.append(Target("penalty", labels.fill("rules_callout_penalty", points=_number(-abs(first.points))),
                              band))
    if plan.lucky_boxes:
        targets.append(Target("lucky", labels.fill("rules_callout_lucky", count=len(plan.lucky_boxes)),
                              plan.lucky_boxes[0]))
    boxes = [box for cell in plan.cells for box in (cell.box, cell.bis_box, cell.symbol_box) if box is not None]
    rows = _around(boxes) if boxes else plan.content  # the outline of the rows, their small boxes included
    several = {r for r, row in enumerate(grid.rows) if len(row.colours) > 1}

    def named(kind: str, cell: CellPlan) -> Box:
        """The box of ``cell`` that the callout of ``kind`` names."""
        return cell.symbol_box if kind == "symbol" and cell.symbol_box else \
            cell.bis_box if kind == "bis" and cell.bis_box else cell.box

    def nearest(kind: str, cells: Iterable[CellPlan]) -> list[Box]:
        """The named boxes of ``cells``, nearest the outline of the rows first
        (a leader reaches them without passing between cells), then nearest a side."""
        def apart(box: Box) -> tuple[float, float]:
            side = min(box.x - rows.x, rows.right - box.right)
            return round(min(side, box.y - rows.y, rows.bottom - box.bottom), 3), side
        return sorted((named(kind, c) for c in cells), key=apart)

    for kind, boxes in [
        ("double", nearest("double", (c for c in plan.cells if c.double))),
        ("framed", nearest("framed", (c for c in plan.cells if c.framed))),
        ("symbol", nearest("symbol", (c for c in plan.cells if c.symbol is not None))),
        ("bis", nearest("bis", (c for c in plan.cells if c.bis_box is not None))),
        ("colour", nearest("colour", (c for c in plan.cells if c.row in several))),
    ]:
        if boxes:
            targets.append(Target(kind, labels(f"rules_callout_{kind}"), boxes[0], tuple(boxes[1:8])))
    return tuple(targets)


def _around(boxes: Sequence[Box]) -> Box:
    """The smallest box holding ``boxes``."""
    x, y = min(b.x for b in boxes), min(b.y for b in boxes)
    return Box(x, y, max(b.right for b in boxes) - x, max(b.bottom for b in boxes) - y)


def _wrap(text: str, width: float, size: float, bold: bool, measure: Measure) -> list[str]:
    """``text`` in lines no wider than ``width`` (a word wider than that stands alone)."""
    # The fonts have no kerning, so a line is as wide as its words and spaces: each word is measured once
    # (the measure is cached) and the whole line only where the sum comes within a rounding of the width.
    lines: list[str] = []
    line, line_width = "", 0.0
    space = measure(" ", bold, size)
    for word in glued(text).split(" "):
        if not word:
            continue
        word_width = measure(word, bold, size)
        if not line:
            line, line_width = word, word_width
            continue
        wide = line_width + space + word_width
        if abs(wide - width) < 1e-6:
            wide = measure(f"{line} {word}", bold, size)
        if wide > width:
            lines.append(line)
            line, line_width = word, word_width
        else:
            line, line_width = f"{line} {word}", wide
    return lines + [line] if line else lines


def _text(line: _Line, x: float, top: float, width: float, anchor: str = "start") -> Text:
    """``line`` with its top at ``top``, in a box ``width`` wide from ``x``."""
    box = Box(x, top, width, line.height)
    at = box.right if anchor == "end" else box.x
    return Text(at, top + line.size * ASCENT, line.text, line.size, INK, line.bold, anchor, box=box, role="card")


def _example_lines(example: Example, width: float, size: float, measure: Measure) -> Iterable[_Line]:
    """The worked example as the first lines of the columns: its title and
    intro, a line per score with its points right-aligned (a score's words
    kept together), the total; then the turn played out."""
    title_size = size * TITLE_SCALE
    for text in _wrap(example.title, width, title_size, True, measure):
        yield _Line(text, title_size, True, keep=2)
    yield from (_Line(text, size) for text in _wrap(example.intro, width, size, False, measure))
    scores = [(what, points, False) for what, points in example.lines] + [(*example.total, True)]
    for n, (what, points, bold) in enumerate(scores):
        parts = _wrap(what, width - measure(points, bold, size) - size, size, bold, measure)
        for i, part in enumerate(parts):
            yield _Line(part, size, bold, before=size * PARAGRAPH_GAP if n == 0 and i == 0 else 0.0,
                        keep=len(parts) - 1 - i, points=points if i == 0 else "")
    if not example.turn:
        return
    for i, text in enumerate(_wrap(example.turn_title, width, title_size, True, measure)):
        yield _Line(text, title_size, True, before=size * SECTION_GAP if i == 0 else 0.0, keep=2)
    for n, paragraph in enumerate(example.turn):
        for i, text in enumerate(_wrap(paragraph, width, size, False, measure)):
            yield _Line(text, size, before=size * PARAGRAPH_GAP if i == 0 and n > 0 else 0.0)


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
                    measure: Measure, lucky: tuple[int, ...] = ()) -> Drawing:
    """The sheet of the example as its player left it: the sheet (with the
    player's ``lucky`` numbers, else the first a print run deals), a cross in every crossed cell,
    small box, lock, bar box and penalty box, and the points written in the
    totals line."""
    plan = picture_plan(grid, labels, theme, measure)
    numbers = lucky if lucky and grid.lucky else next(deal_lucky(grid.lucky, DEFAULT_SEED))
    items = list(draw_sheet(plan, theme).items) + list(personalise(plan, SheetData(numbers), theme, measure))
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


def picture_plan(grid: Grid, labels: Labels, theme: Theme, measure: Measure) -> SheetPlan:
    """The plan of the pictured sheet: ``grid``'s as it prints, titled in ``labels``'
    language where it is a built-in grid (as the card's heading is; a custom
    grid keeps its own title)."""
    return plan_sheet(grid, labels, theme, measure)


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
