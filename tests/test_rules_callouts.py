"""The callouts beside the rules card's picture: on every built-in grid and
two custom ones, on A4 and Letter, each callout's text lies on the page,
outside the sheet's cells and off the other callouts, its leader ends on the
box it names without crossing a cell, a text or another leader on the way,
and it names what the grid has (a threshold hint only where
the grid closes after another number than 5, a double cell only where it has
them...), in the card's language."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.pdf.geometry import Box, Polygon, Text
from sheetgen.pdf.impose import PAPERS
from sheetgen.pdf.render import measure_text
from sheetgen.play.example import example_marks
from sheetgen.play.leaders import route
from sheetgen.play.rules import compose_rules
from sheetgen.play.rules_card import (
    Card,
    compose_example,
    example_picture,
    layout_card,
    picture_plan,
    picture_targets,
)
from sheetgen.play.scoring import score_sheet
from sheetgen.runs.rules_pdf import CARD_PAPERS
from sheetgen.sheet.style import languages, load_labels, load_theme

from test_rules_stated import custom_grids

GRIDS = {name: load_grid(name) for name in builtin_names()} | custom_grids()
THEME = load_theme("colour")


def card(name: str, lang: str, paper: str) -> Card:
    grid, labels = GRIDS[name], load_labels(lang)
    marks = example_marks(grid)
    score = score_sheet(grid, marks)
    picture = example_picture(grid, marks, score, labels, THEME, measure_text)
    return layout_card(compose_rules(grid, labels), compose_example(grid, marks, score, labels), picture,
                       PAPERS[paper], measure_text, picture_targets(grid, labels, THEME, measure_text))


def on_page(card: Card, box: Box) -> Box:
    return card.picture.on_page(box)


def on_edge(point: tuple[float, float], box: Box) -> bool:
    x, y = point
    inside = box.x - 1e-6 <= x <= box.right + 1e-6 and box.y - 1e-6 <= y <= box.bottom + 1e-6
    return inside and min(abs(x - box.x), abs(x - box.right), abs(y - box.y), abs(y - box.bottom)) < 1e-6


@pytest.mark.parametrize("paper", CARD_PAPERS)
@pytest.mark.parametrize("name", list(GRIDS))
def test_callouts_stay_off_the_cells_and_each_other_and_point_at_their_box(name, paper):
    grid, labels = GRIDS[name], load_labels("en")
    made = card(name, "en", paper)
    width, height = PAPERS[paper]
    page = Box(0, 0, width, height)
    plan = picture_plan(grid, labels, THEME, measure_text)
    cells = [on_page(made, cell.box) for cell in plan.cells]
    assert made.callouts, name
    for callout in made.callouts:
        assert page.contains(callout.box), (name, callout.kind)
        assert made.content.contains(callout.box), (name, callout.kind)
        assert not callout.box.overlaps(made.picture.box), (name, callout.kind)
        assert not any(callout.box.overlaps(cell) for cell in cells), (name, callout.kind)
        assert on_edge(callout.end, callout.target), (name, callout.kind)
        for line in callout.lines:
            assert measure_text(line.text, line.bold, line.size) <= callout.box.w + 1e-6
            assert line in made.page.items
    for a in made.callouts:
        for b in made.callouts:
            assert a is b or not a.box.overlaps(b.box), (name, a.kind, b.kind)


def test_each_callout_points_at_the_box_of_its_kind_in_the_plan():
    grid, labels = GRIDS["powers"], load_labels("en")
    made = card("powers", "en", "a4")
    plan = picture_plan(grid, labels, THEME, measure_text)
    ends = {c.kind: c.target for c in made.callouts}
    assert ends["direction"] == on_page(made, plan.arrows[0].box)
    assert ends["lock"] == on_page(made, plan.locks[0].box)
    label, first = plan.penalties_label.box, plan.penalties[0].box  # the band: the label, then the boxes
    assert ends["penalty"] == on_page(made, Box(label.x, min(label.y, first.y), first.right - label.x,
                                                max(label.bottom, first.bottom) - min(label.y, first.y)))
    symbols = {on_page(made, c.symbol_box) for c in plan.cells if c.symbol_box is not None}
    assert ends["symbol"] in symbols


def kinds(name: str) -> set[str]:
    grid, labels = GRIDS[name], load_labels("en")
    return {t.kind for t in picture_targets(grid, labels, THEME, measure_text)}


def test_the_callouts_name_what_the_grid_has():
    base = {"direction", "lock", "penalty"}
    assert kinds("classic") == base
    assert kinds("doubles") == base | {"double", "threshold"}
    assert kinds("bis") >= base | {"bis"}
    assert kinds("bonus") >= base | {"framed"}
    assert kinds("powers") == base | {"symbol"}
    assert kinds("lucky6") >= base | {"lucky", "threshold"}
    several = [name for name, grid in GRIDS.items() if any(len(row.colours) > 1 for row in grid.rows)]
    assert several and all("colour" in kinds(name) for name in several)
    assert all("colour" not in kinds(name) for name in set(GRIDS) - set(several))


@pytest.mark.parametrize("lang", languages())
def test_the_callouts_speak_the_cards_language(lang):
    labels = load_labels(lang)
    made = card("doubles", lang, "a4")
    texts = {c.kind: " ".join(line.text for line in c.lines) for c in made.callouts}
    assert texts["lock"].replace("\u00a0", " ") == labels("rules_callout_lock").replace("\u00a0", " ")
    assert str(GRIDS["doubles"].close_after) in texts["threshold"]
    one, two = (" ".join(line.text for c in card(name, lang, "a4").callouts if c.kind == "lucky" for line in c.lines)
                for name in ("lucky6", "longo"))
    assert (one, two) == (labels.fill("rules_callout_lucky", count=1), labels.fill("rules_callout_lucky", count=2))
    assert one != two
    assert all(isinstance(line, Text) for c in made.callouts for line in c.lines)


def _inside(point: tuple[float, float], box: Box) -> bool:
    x, y = point
    return box.x + 1e-3 < x < box.right - 1e-3 and box.y + 1e-3 < y < box.bottom - 1e-3


def _points(a: tuple[float, float], b: tuple[float, float], step: float = 0.05):
    """Points along the segment a-b, every ``step`` mm, its ends included."""
    n = max(1, int(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5 / step))
    return [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n + 1)]


def _meet(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
    """Whether the segments p-q and r-s cross or touch."""
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2, d3, d4 = side(r, s, p), side(r, s, q), side(p, q, r), side(p, q, s)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return any(min(abs(x - u) + abs(y - v) for u, v in _points(r, s)) < 0.05 for x, y in (p, q))


def leaders_in_the_way(made: Card, grid, labels) -> list[str]:
    """What each leader of ``made`` runs across: a cell of the picture, a text
    (of the picture, a callout's, the card's) or another leader; the box it
    names, what that box holds and the cell that holds it excepted."""
    plan = picture_plan(grid, labels, THEME, measure_text)
    k, at = made.picture.scale, made.picture
    cells = [on_page(made, cell.box) for cell in plan.cells]
    texts = [on_page(made, item.box) for item in made.picture.drawing.items if isinstance(item, Text) and item.box]
    texts += [item.box for item in made.page.items if isinstance(item, Text) and item.box is not None]
    assert k > 0 and at is not None
    found = []
    for callout in made.callouts:
        target = callout.target
        walls = [box for box in cells + texts if not target.contains(box) and not box.contains(target)
                 and box != target]
        assert len(callout.path) >= 2 and callout.path[0] == callout.start and callout.path[-1] == callout.end
        drawn = Polygon(callout.path, stroke=(0.35, 0.35, 0.35), line=0.25, closed=False)
        assert drawn in made.page.items, callout.kind
        for a, b in zip(callout.path, callout.path[1:]):
            points = _points(a, b)
            found += [f"{callout.kind} across {box}" for box in walls if any(_inside(p, box) for p in points)]
            found += [f"{callout.kind} into its own box" for p in points[:-1] if _inside(p, target)]
            for other in made.callouts:
                if other is not callout:
                    found += [f"{callout.kind} across the leader of {other.kind}"
                              for c, d in zip(other.path, other.path[1:]) if _meet(a, b, c, d)]
    return found


# Each grid and paper in two languages, turn by turn, so that every language is on every grid once or more.
SAMPLED = [(name, paper, (languages()[n % 5], languages()[(n + 2) % 5]))
           for n, (name, paper) in enumerate((name, paper) for name in GRIDS for paper in CARD_PAPERS)]


@pytest.mark.parametrize(("name", "paper", "langs"), SAMPLED)
def test_no_leader_crosses_a_cell_a_text_or_another_leader(name, paper, langs):
    grid = GRIDS[name]
    for lang in langs:
        assert leaders_in_the_way(card(name, lang, paper), grid, load_labels(lang)) == [], (name, lang)


def test_a_leader_across_a_cell_is_seen():
    """The check above can fail: the doubles card's leaders drawn straight,
    as they were, run across a cell and the threshold hint."""
    grid, labels = GRIDS["doubles"], load_labels("en")
    made = card("doubles", "en", "a4")
    straight = tuple(replace(c, path=(c.start, (c.target.x, c.target.cy) if c.start[0] < c.target.x
                                      else (c.target.right, c.target.cy))) for c in made.callouts)
    items = made.page.items + tuple(Polygon(c.path, stroke=(0.35, 0.35, 0.35), line=0.25, closed=False)
                                    for c in straight)
    unrouted = replace(made, callouts=tuple(replace(c, end=c.path[-1]) for c in straight),
                       page=replace(made.page, items=items))
    assert any("across Box" in found for found in leaders_in_the_way(unrouted, grid, labels))


def test_a_leader_is_straight_where_it_can_be_and_bends_round_what_is_in_the_way():
    region, target = Box(0, 0, 100, 60), Box(60, 20, 10, 10)
    assert route((10, 25), target, [], [], region) == ((10, 25), (60, 25))  # straight to the near edge
    wall = Box(30, 10, 5, 40)  # between the start and the box, open above and below
    path = route((10, 25), target, [wall], [], region)
    assert path is not None and len(path) > 2
    assert all(a[0] == b[0] or a[1] == b[1] for a, b in zip(path[1:], path[2:]))  # its runs are square
    assert not any(_inside(p, wall.inset(-0.5)) for a, b in zip(path, path[1:]) for p in _points(a, b))
    assert on_edge(path[-1], target)
    # Boxed in on every side, with no gap a leader fits through: no path.
    ring = [Box(50, 10, 30, 8), Box(50, 32, 30, 8), Box(50, 18, 8, 14), Box(72, 18, 8, 14)]
    assert route((10, 25), target, ring, [], region) is None


def test_a_leader_keeps_off_the_leaders_drawn_before_it():
    region, target = Box(0, 0, 100, 60), Box(60, 20, 10, 10)
    earlier = ((40, 0.5), (40, 59.5))  # a leader across the whole way
    assert route((10, 25), target, [], [earlier], region) is None
    path = route((10, 25), target, [], [((40, 5), (40, 59.5))], region)  # one that leaves a way over its top
    assert path is not None and all(not _meet(a, b, (40, 5), (40, 59.5)) for a, b in zip(path, path[1:]))
