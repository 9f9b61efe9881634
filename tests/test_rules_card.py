"""The rules card: for every built-in grid, language and paper one page whose
text stays inside its margins and its boxes, never over the picture or over
other text; the worked example's total is the one computed by hand; the PDF
is the same bytes every time and reads without a warning in qpdf, poppler and
MuPDF; `sheetgen rules --pdf` writes it."""

from __future__ import annotations

import re
import subprocess

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from sheetgen.cli import cli
from sheetgen.errors import LayoutError
from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.pdf.geometry import Box, Polygon, Text, bounds
from sheetgen.pdf.impose import EDGE, PAPERS
from sheetgen.pdf.render import measure_text
from sheetgen.play.example import example_marks, example_sheet
from sheetgen.play.rules import compose_rules
from sheetgen.play.rules_card import (
    BODY_FLOOR,
    LEADING,
    PEN,
    PICTURE_LEAST,
    PT,
    Card,
    compose_example,
    example_picture,
    layout_card,
    picture_plan,
    picture_targets,
)
from sheetgen.play.scoring import score_sheet
from sheetgen.runs.rules_pdf import CARD_PAPERS, rules_card_pdf
from sheetgen.sheet.style import languages, load_labels, load_theme

from conftest import need_tool
from test_example import SHOWN

LANGS = languages()
DPI = 100


def card_of(name: str, lang: str, paper: str) -> Card:
    grid, labels = load_grid(name), load_labels(lang)
    shown = example_sheet(grid)
    marks = shown.marks
    score = score_sheet(grid, marks)
    theme = load_theme("colour")
    picture = example_picture(grid, marks, score, labels, theme, measure_text, shown.lucky)
    return layout_card(compose_rules(grid, labels), compose_example(grid, marks, score, labels), picture, PAPERS[paper],
                       measure_text, picture_targets(grid, labels, theme, measure_text))


@pytest.mark.parametrize("paper", CARD_PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_card_keeps_its_text_inside_the_margins_its_boxes_and_off_the_picture(lang, paper):
    width, height = PAPERS[paper]
    for name in builtin_names():
        card = card_of(name, lang, paper)
        assert Box(EDGE, EDGE, width - 2 * EDGE, height - 2 * EDGE).contains(card.content)
        assert card.content.contains(card.picture.box), name
        texts = [item for item in card.page.items if isinstance(item, Text)]
        for item in card.page.items:
            assert card.content.contains(bounds(item)), (name, item)
        for text in texts:
            assert measure_text(text.text, text.bold, text.size) <= text.box.w + 1e-6, (name, text.text)
            assert not text.box.overlaps(card.picture.box), (name, text.text)
        assert not [t.text for t in texts if t.text[:1] in (":", ";", "!", "?", "%", "\u00bb")], name
        boxes = sorted((t.box for t in texts if t.anchor == "start"), key=lambda box: (box.y, box.x))
        for a, b in zip(boxes, boxes[1:]):
            assert not a.overlaps(b), (name, a, b)


def rules_columns(card: Card) -> list[list[Text]]:
    """The lines of the rules, below the picture, by column, top to bottom."""
    below = [t for t in card.page.items if isinstance(t, Text) and t.box.y >= card.picture.box.bottom]
    return [sorted((t for t in below if (t.box.x < card.content.cx) == left), key=lambda t: t.box.y)
            for left in (True, False)]


# The densest cards (the longest rules, on the shorter Letter page, in the longest languages), and
# the sparsest, whose type must stay above the floor while its picture keeps the old least width.
DENSEST = [("powers", "de", "letter"), ("powers", "fr", "letter"), ("longo", "fr", "letter"),
           ("bonus", "de", "letter"), ("bis", "fr", "letter"), ("powers", "nl", "a4"), ("disorder", "it", "letter")]


@pytest.mark.parametrize(("name", "lang", "paper"), DENSEST)
def test_the_body_type_stays_at_8_pt_or_more_a_smaller_picture_giving_it_room(name, lang, paper):
    card = card_of(name, lang, paper)
    assert card.body_size >= BODY_FLOOR - 1e-9 and BODY_FLOOR == pytest.approx(8 * PT), (name, lang, paper)
    assert card.picture.box.w >= card.content.w * min(PICTURE_LEAST) - 1e-6


def test_a_card_with_room_keeps_its_larger_type_and_picture():
    card = card_of("classic", "en", "a4")
    assert card.body_size >= 9 * PT - 1e-9
    assert card.picture.box.w >= card.content.w * 0.45


@pytest.mark.parametrize("lang", LANGS)
def test_titles_stay_with_their_text_and_the_columns_are_balanced(lang):
    for name in builtin_names():
        card = card_of(name, lang, "a4")
        columns = rules_columns(card)
        line = card.body_size * LEADING
        assert columns[0][0].bold, f"{name}: the rules start with a title"
        for column in columns:
            assert not column[-1].bold, f"{name}: a title ends a column"
        bottoms = [column[-1].box.bottom for column in columns]
        assert abs(bottoms[0] - bottoms[1]) <= 4 * line, f"{name}: columns end {bottoms}"


def test_the_rules_and_the_example_are_all_on_the_card():
    card = card_of("bonus", "fr", "letter")
    printed = " ".join(item.text for item in card.page.items if isinstance(item, Text))
    grid, labels = load_grid("bonus"), load_labels("fr")
    for section in compose_rules(grid, labels).sections:
        for paragraph in section.paragraphs + section.items:
            assert re.sub(" +", " ", paragraph) in printed  # no-break spaces kept
    assert "Exemple de décompte" in printed and "Total" in printed


def page_text(data: bytes) -> str:
    page = pdfium.PdfDocument(data)[0]
    return " ".join(page.get_textpage().get_text_range().split())


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_the_printed_total_is_the_hand_computed_one(name):
    total = SHOWN[name][-1]
    text = page_text(rules_card_pdf(load_grid(name)))
    assert re.search(rf"\bTotal {total}\b", text), text
    assert f"{load_grid(name).title}: the rules" in text


def test_the_example_lines_add_up_to_the_total():
    grid = load_grid("powers")
    example = compose_example(grid, example_marks(grid), score_sheet(grid, example_marks(grid)), load_labels("en"))
    # red 3 5 6 7 8; yellow 3 5 6 7 8 9 10 12 and its lock; green 11; blue 11 10 9 8 7 6; two
    # penalties; the diamond's crosses are in the rows, the square doubles green's 1 point.
    assert example.lines == (
        ("red: 5\u00a0cells = 5\u00a0crosses", "15"),
        ("yellow: 8\u00a0cells + lock = 9\u00a0crosses", "45"),
        ("green: 1\u00a0cell = 1\u00a0cross", "1"),
        ("blue: 6\u00a0cells = 6\u00a0crosses", "21"),
        ("2\u00a0penalties", "\u221210"),
        ("Diamond: 1 cross in each open row (its crosses are already in the rows)", ""),
        ("Square: your lowest-scoring row counts double", "+1"),
    )
    assert example.total == ("Total", "73")


def test_each_row_shows_its_arithmetic():
    # doubles: red 2 4 5 6 8 9 10 11 crossed, 5 9 11 double cells: 8 + 3 = 11 crosses, 11x = 66.
    # bis: red 3 to 10 and 12 crossed, the small boxes under 7 and 9, the lock: 9 + 2 + 1 = 12, 12x = 78.
    doubles, bis = (example(name) for name in ("doubles", "bis"))
    assert doubles.lines[0] == ("red: 8\u00a0cells + 3 for double cells = 11\u00a0crosses", "66")
    assert bis.lines[0] == ("red: 9\u00a0cells + 2\u00a0small boxes + lock = 12\u00a0crosses", "78")


@pytest.mark.parametrize("name", builtin_names())
def test_the_card_adds_up_what_the_scorer_counts(name):
    """Each row's parts (cells, extra crosses of double cells, small boxes, the lock) add
    up to the scorer's crosses, and the printed points are the scorer's."""
    grid = load_grid(name)
    score = score_sheet(grid, example_marks(grid))
    for (what, points), row in zip(example(name).lines, score.rows):
        parts = what.split(": ", 1)[1].split(" = ")[0].split(" + ")
        added = sum(int(part.split("\u00a0")[0].split(" ")[0]) if part != "lock" else 1 for part in parts)
        assert added == row.crosses, what
        assert points == str(row.points), what


def test_a_turn_is_played_out_with_the_grid_s_dice():
    turn = example("classic").turn
    assert "rolls 4\u00a0+\u00a01 on the white dice: Chris announces 5" in turn[0]
    assert "crosses 5 in yellow" in turn[0]
    assert "adds the white 1 to the red 2 and crosses 3 in red" in turn[1]
    assert "Tony has 5 crosses in red and crosses its last number, 12" in turn[2]
    assert "Tony has 7 crosses in red" in example("doubles").turn[-1]


def example(name, lang="en"):
    grid = load_grid(name)
    marks = example_marks(grid)
    return compose_example(grid, marks, score_sheet(grid, marks), load_labels(lang))


def test_a_card_is_the_same_bytes_every_time():
    first = rules_card_pdf(load_grid("longo"), "de", "letter")
    assert rules_card_pdf(load_grid("longo"), "de", "letter") == first
    assert first != rules_card_pdf(load_grid("longo"), "de", "a4")


def test_rules_that_cannot_fit_say_so():
    grid, labels = load_grid("powers"), load_labels("en")
    marks = example_marks(grid)
    score = score_sheet(grid, marks)
    picture = example_picture(grid, marks, score, labels, load_theme("colour"), measure_text)
    with pytest.raises(LayoutError, match=r"^the rules do not fit on one 150 x 150 mm page, even at 6.5 pt$"):
        layout_card(compose_rules(grid, labels), compose_example(grid, marks, score, labels), picture, (150, 150),
                    measure_text)


# -- readers -------------------------------------------------------------------


def run(*command: str) -> subprocess.CompletedProcess:
    need_tool(command[0])
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


CARDS = [(name, "en", "a4") for name in builtin_names()] + [("powers", lang, "letter") for lang in LANGS]


QUICK_CARDS = {("classic", "en", "a4"), ("bonus", "en", "a4"), ("powers", "fr", "letter")}  # the rest: slow tier


@pytest.mark.parametrize("name, lang, paper", [card if card in QUICK_CARDS else pytest.param(*card, marks=pytest.mark.slow)
                                               for card in CARDS])
def test_readers_take_the_card_without_a_word(tmp_path, name, lang, paper):
    pdf = tmp_path / "card.pdf"
    pdf.write_bytes(rules_card_pdf(load_grid(name), lang, paper))
    done = run("qpdf", "--check", str(pdf))
    assert (done.returncode, done.stderr) == (0, "") and "No syntax or stream encoding errors found" in done.stdout
    done = run("pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(pdf), str(tmp_path / "poppler"))
    assert (done.returncode, done.stderr) == (0, "")
    done = run("mutool", "draw", "-q", "-N", "-r", str(DPI), "-o", str(tmp_path / "mupdf.png"), str(pdf), "1")
    assert (done.returncode, done.stderr) == (0, "")
    image = Image.open(tmp_path / "poppler.png").convert("L")
    edge = round(EDGE / 25.4 * DPI)
    w, h = image.size
    for strip in ((0, 0, w, edge), (0, h - edge, w, h), (0, 0, edge, h), (w - edge, 0, w, h)):
        assert image.crop(strip).getextrema() == (255, 255), f"something printed within {EDGE} mm of the edge"


# -- the command -----------------------------------------------------------------


@pytest.fixture
def invoke(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return lambda *args: CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_rules_pdf_writes_the_card(invoke, tmp_path):
    result = invoke("rules", "doubles", "--pdf")
    assert (result.exit_code, result.output) == (0, "wrote out/doubles-rules.pdf (rules card, en, a4)\n")
    assert (tmp_path / "out" / "doubles-rules.pdf").read_bytes() == rules_card_pdf(load_grid("doubles"))
    result = invoke("rules", "doubles", "--pdf", "-o", "cards/d.pdf", "--paper", "letter", "--lang", "nl")
    assert (result.exit_code, result.output) == (0, "wrote cards/d.pdf (rules card, nl, letter)\n")
    assert pdfium.PdfDocument(str(tmp_path / "cards" / "d.pdf"))[0].get_size() == pytest.approx((612, 792), abs=0.1)
    assert invoke("rules", "doubles", "--pdf", "-q", "-o", "q.pdf").output == ""


def test_rules_pdf_options_need_pdf_and_bad_input_writes_nothing(invoke, tmp_path):
    result = invoke("rules", "classic", "-o", "x.pdf")
    assert (result.exit_code, result.stderr) == (
        2, "sheetgen rules: -o and --paper go with --pdf (see 'sheetgen rules --help')\n")
    result = invoke("rules", "nope", "--pdf")
    assert result.exit_code == 1 and result.stderr.startswith("sheetgen: nope: unknown grid")
    assert list(tmp_path.iterdir()) == []


def test_rules_pdf_goes_to_a_folder_or_standard_output(invoke, tmp_path):
    (tmp_path / "cards").mkdir()
    result = invoke("rules", "mixed", "--pdf", "-o", "cards")
    assert (result.exit_code, result.output) == (0, "wrote cards/mixed-rules.pdf (rules card, en, a4)\n")
    result = invoke("rules", "mixed", "--pdf", "-o", "-")
    assert result.exit_code == 0
    assert result.stdout_bytes == rules_card_pdf(load_grid("mixed"))
    assert result.stderr == "wrote standard output (rules card, en, a4)\n"
    result = invoke("rules", "mixed", "--pdf", "-o", "card.png")
    assert result.exit_code == 2 and "expected a file name ending in .pdf" in result.stderr


# -- the picture -------------------------------------------------------------------


def crosses_in(picture, box: Box) -> int:
    """Pen crosses (two strokes each) drawn inside ``box``."""
    strokes = [item for item in picture.items if isinstance(item, Polygon) and item.stroke == PEN]
    return sum(box.contains(bounds(stroke)) for stroke in strokes) // 2


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_the_picture_shows_the_crosses_of_the_example_and_its_points(name):
    grid, labels, theme = load_grid(name), load_labels("en"), load_theme("colour")
    marks = example_marks(grid)
    score = score_sheet(grid, marks)
    picture = example_picture(grid, marks, score, labels, theme, measure_text)
    plan = picture_plan(grid, labels, theme, measure_text)
    for cell in plan.cells:
        row = marks.rows[cell.row]
        assert crosses_in(picture, cell.box) == (cell.number in row.crossed), cell
        if cell.bis_box is not None:
            assert crosses_in(picture, cell.bis_box) == (cell.number in row.bis), cell
    _, _, locked, penalties, bar, _, total = SHOWN[name]
    assert [crosses_in(picture, lock.box) for lock in plan.locks] == [r in locked for r in range(len(plan.locks))]
    assert [crosses_in(picture, box.box) for box in plan.bar] == [i < bar for i in range(len(plan.bar))]
    assert [crosses_in(picture, box.box) for box in plan.penalties] == [i < penalties for i in range(4)]
    written = [item.text for item in picture.items if isinstance(item, Text) and item.role == "written"]
    points = [str(row.points) for row in score.rows]
    powers = [str(sum(power.points for power in score.powers))] if grid.powers else []
    assert written == points + powers + [str(5 * penalties), str(total)]
    assert sum(map(int, written[:-2])) - 5 * penalties == score.total  # the line adds up, the powers' included


def test_a_card_that_does_not_fit_is_a_layout_error_naming_the_grid_and_writes_nothing(invoke, tmp_path, monkeypatch):
    monkeypatch.setitem(PAPERS, "a4", (150, 150))  # a page too small for the rules of powers
    result = invoke("rules", "powers", "--pdf")
    assert (result.exit_code, result.stderr) == (
        1, "sheetgen: powers.yaml: the rules do not fit on one 150 x 150 mm page, even at 6.5 pt\n")
    assert list(tmp_path.iterdir()) == []


def test_a_custom_grids_card_prints_the_scorers_numbers():
    from test_rules_stated import custom_grids

    for name, grid in custom_grids().items():
        shown = example_sheet(grid)
        score = score_sheet(grid, shown.marks)
        example = compose_example(grid, shown.marks, score, load_labels("en"))
        assert [points for _, points in example.lines[: len(score.rows)]] == [str(r.points) for r in score.rows], name
        assert example.total == ("Total", str(score.total).replace("-", "\u2212")), name
        text = page_text(rules_card_pdf(grid))
        assert re.search(rf"\bTotal {score.total}\b", text), name
