"""Print themes: the colours stay apart where colour alone does not reach the player.

Every grid is planned in every theme by test_plan.py (marks and symbols in
their corners included).  Here: themes as data, then pixels: a disorder page
is rasterised and each cell sampled where the plan says it is (cell boxes in
mm, shifted into the first slot of the page), to show that
in greyscale (mono) the four colours differ by background and by mark, and
that to a deuteranope (colour theme with colour marks, simulated) red and
green cells differ by their marks, which their colours no longer do.
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageStat

from sheetgen.cli import cli
from sheetgen.errors import InputError
from sheetgen.grid.load import builtin_names, load_grid
from sheetgen.grid.model import Colour, Symbol
from sheetgen.pdf.geometry import Box, Drawing, Text
from sheetgen.pdf.impose import impose
from sheetgen.pdf.render import LIGHT_FACE, measure_text, render_page
from sheetgen.runs.jobs import Job, layout_job, render_job
from sheetgen.sheet.draw import draw_sheet
from sheetgen.sheet.plan import SheetPlan, plan_sheet
from sheetgen.sheet.style import Mark, languages, load_labels, load_theme, themes

DPI = 300
R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


# -- themes as data -------------------------------------------------------------


def test_the_three_themes_exist_and_colour_is_the_default():
    assert {"colour", "ink-saver", "mono"} <= set(themes())
    assert load_theme() == load_theme("colour")
    assert not load_theme("colour").marks and load_theme("mono").marks


def test_every_colour_has_its_own_mark_the_same_in_every_theme():
    for name in themes():
        marks = [load_theme(name).tint(colour).mark for colour in Colour]
        assert len(set(marks)) == len(marks)
        assert marks == [load_theme("colour").tint(colour).mark for colour in Colour]


def test_unknown_theme_is_one_line():
    with pytest.raises(InputError) as caught:
        load_theme("sepia")
    assert str(caught.value) == f"--theme: unknown theme 'sepia' (expected {', '.join(themes()[:-1])} or {themes()[-1]})"


@pytest.mark.parametrize("lang", languages())
def test_every_language_names_the_colours_of_the_key(lang, measure):
    labels = load_labels(lang)
    words = [labels(f"colour_{colour.value}") for colour in Colour]
    assert len(set(words)) == 4
    plan = plan_sheet(load_grid("disorder"), labels, load_theme("mono"), measure)
    assert [entry.text.text for entry in plan.key + plan.legend][:4] == words


def test_no_colour_mark_has_the_shape_of_a_power_symbol():
    assert not {mark.value for mark in Mark} & {symbol.value for symbol in Symbol}
    assert {load_theme("mono").tint(colour).mark for colour in Colour} == set(Mark)


# -- pixels -------------------------------------------------------------------------


def page(name: str, theme: str, colour_marks: bool = False) -> tuple[Image.Image, Box, SheetPlan]:
    """The first page of ``name`` in ``theme`` as RGB pixels, its first slot, and the sheet's plan."""
    grid = load_grid(name)
    pdf = render_job(Job(grid, theme=theme, colour_marks=colour_marks))
    image = pdfium.PdfDocument(pdf)[0].render(scale=DPI / 72).to_pil().convert("RGB")
    plan = plan_sheet(grid, load_labels(), load_theme(theme, colour_marks), measure_text)
    return image, impose("a4", plan.width, plan.height).slots[0], plan


def crop(image: Image.Image, box: Box, slot: Box, size: tuple[int, int] | None = None) -> Image.Image:
    """The pixels of ``box`` (mm, on the sheet in ``slot``), resampled to ``size``."""
    k = DPI / 25.4
    x, y = (slot.x + box.x) * k, (slot.y + box.y) * k
    size = size or (max(1, round(box.w * k)), max(1, round(box.h * k)))
    return image.transform(size, Image.Transform.EXTENT, (x, y, x + box.w * k, y + box.h * k),
                           Image.Resampling.BILINEAR)


def background_box(cell) -> Box:
    """Plain background of a cell: right of its mark, above its number."""
    mark, number = cell.mark_box, cell.text.box
    left = mark.right + 0.4
    return Box(left, mark.y + 0.1, number.right - 0.3 - left, mark.h - 0.2)


def mark_shape(patch: Image.Image, threshold: int) -> list[float]:
    """The mark alone, whatever its background: the share of each of 12 x 12
    squares of ``patch`` covered by pixels darker than ``threshold``."""
    dark = patch.convert("L").point(lambda v: 255 if v < threshold else 0)
    return [v / 255 for v in dark.resize((12, 12), Image.Resampling.BOX).tobytes()]


def separation(features: dict[Colour, list[list[float]]]) -> float:
    """How far apart the colours' features are: the smallest, over every sample,
    of (distance to the nearest other colour's centroid) / (distance to its own),
    so above 1 means every sample is nearest its own colour."""
    centroids = {c: [sum(v) / len(v) for v in zip(*vectors)] for c, vectors in features.items()}
    worst = math.inf
    for colour, vectors in features.items():
        for vector in vectors:
            own = math.dist(vector, centroids[colour])
            other = min(math.dist(vector, centroids[c]) for c in centroids if c is not colour)
            worst = min(worst, other / max(own, 1e-9))
    return worst


def by_colour(plan: SheetPlan) -> dict[Colour, list]:
    """The cells of ``plan`` by their colour."""
    cells: dict[Colour, list] = {}
    for cell in plan.cells:
        cells.setdefault(cell.colour, []).append(cell)
    return cells


def test_mono_colours_differ_by_a_quarter_of_grey_or_by_their_lines():
    mono = load_theme("mono")
    for one, other in [(R, Y), (R, G), (R, B), (Y, G), (Y, B), (G, B)]:
        a, b = mono.tint(one), mono.tint(other)
        assert abs(grey(a.pale) - grey(b.pale)) >= 0.25 - 1e-9 or bool(a.hatch) != bool(b.hatch), (one, other)
    for colour in Colour:  # light enough for a pencil cross, and for black numbers
        assert grey(mono.tint(colour).pale) >= 0.75


def line_profile(patch: Image.Image) -> tuple[float, float]:
    """How much the grey of ``patch`` changes along its pixel rows (diagonal
    lines change it) and from row to row (horizontal lines do): the mean
    standard deviation within a row, and the standard deviation of the rows' means."""
    width, height = patch.size
    rows = [patch.crop((0, y, width, y + 1)) for y in range(height)]
    means = [ImageStat.Stat(row).mean[0] for row in rows]
    within = sum(ImageStat.Stat(row).stddev[0] for row in rows) / height
    return within, ImageStat.Stat(Image.frombytes("L", (1, height), bytes(round(m) for m in means))).stddev[0]


def test_mono_disorder_in_greyscale_tells_the_four_colours_apart():
    image, slot, plan = page("disorder", "mono")
    grey_image = image.convert("L")
    cells = by_colour(plan)
    assert {c: len(v) for c, v in cells.items()} == {R: 11, Y: 11, G: 11, B: 11}

    # 1. The background alone: its mean grey and whether it is lined; colours
    # of one kind (plain or lined) a quarter of the grey scale apart.
    backgrounds = {c: [crop(grey_image, background_box(cell), slot) for cell in v] for c, v in cells.items()}
    means = {c: [ImageStat.Stat(patch).mean[0] for patch in v] for c, v in backgrounds.items()}
    profiles = {c: [line_profile(patch) for patch in v] for c, v in backgrounds.items()}
    lined = {c: all(across > 5 for _, across in v) for c, v in profiles.items()}
    assert lined == {R: False, Y: False, G: True, B: True}, profiles
    assert all(within < 8 for v in profiles.values() for within, _ in v), "hatching that is not horizontal"
    for kind in (False, True):
        ranges = sorted((min(means[c]), max(means[c]), c) for c in Colour if lined[c] == kind)
        gaps = [upper[0] - lower[1] for lower, upper in zip(ranges, ranges[1:])]
        assert min(gaps) >= 0.2 * 255, f"grey ranges too close: {ranges}"

    # 2. The mark alone: pixels darker than any background or line (the darkest is 128),
    # each cell's nearer its own colour's mean mark than any other's by half again.
    shapes = {c: [mark_shape(crop(grey_image, cell.mark_box, slot), 90) for cell in v] for c, v in cells.items()}
    assert separation(shapes) >= 1.5, separation(shapes)


@pytest.mark.parametrize("name", ["classic", "disorder"])
def test_mono_total_boxes_are_white_to_write_in(name):
    image, slot, plan = page(name, "mono")
    grey_image = image.convert("L")
    boxes = [total.box for total in plan.totals]
    assert len(boxes) >= 6
    for box in boxes:  # the lower right half: no mark, no caption
        inside = Box(box.cx, box.cy, box.w / 2 - 0.6, box.h / 2 - 0.6)
        assert ImageStat.Stat(crop(grey_image, inside, slot)).extrema[0][0] >= 250, box


def test_mono_frames_a_bonus_cell_in_grey_not_black():
    assert 0.3 <= grey(load_theme("mono").frame) <= 0.6


# Machado, Oliveira and Fernandes (2009), deuteranopia at severity 1.0, on linear RGB.
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))
LINEAR = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in range(256)]


def deuteranope(image: Image.Image) -> Image.Image:
    """``image`` as a deuteranope sees it."""

    def encode(v: float) -> int:
        v = min(1.0, max(0.0, v))
        return round(255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055))

    data = image.tobytes()
    pixels = (data[i : i + 3] for i in range(0, len(data), 3))
    seen = bytes(encode(sum(m * LINEAR[c] for m, c in zip(row, pixel))) for pixel in pixels for row in DEUTERANOPIA)
    return Image.frombytes("RGB", image.size, seen)


def test_red_and_green_stay_apart_for_a_deuteranope_with_colour_marks():
    image, slot, plan = page("disorder", "colour", colour_marks=True)
    cells = {c: v for c, v in by_colour(plan).items() if c in (R, G)}

    def mean_colour(cell, seen=lambda im: im) -> list[float]:
        return ImageStat.Stat(seen(crop(image, background_box(cell), slot))).mean

    # Without marks, colour is all there is, and it nearly vanishes: red and
    # green backgrounds are much closer for a deuteranope than for most players.
    apart = math.dist(*(mean_colour(v[0]) for v in cells.values()))
    apart_seen = math.dist(*(mean_colour(v[0], deuteranope) for v in cells.values()))
    assert apart_seen < apart / 3, (apart, apart_seen)

    # With marks, their shape tells them apart (dark pixels only, the way the greyscale test does).
    shapes = {c: [mark_shape(deuteranope(crop(image, cell.mark_box, slot)), 128) for cell in v]
              for c, v in cells.items()}
    assert separation(shapes) >= 1.5, separation(shapes)


# -- ink ------------------------------------------------------------------------------


def load_ink_script():
    path = Path(__file__).resolve().parent.parent / "scripts" / "ink.py"
    spec = importlib.util.spec_from_file_location("ink", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def grey(rgb) -> float:
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


@pytest.mark.parametrize("name", builtin_names())
def test_ink_saver_saves_the_ink_of_fills_and_frames_on_every_grid(name):
    # Grey coverage at 150 dpi, the machine marks left off: they are the same
    # black squares in every theme.  What ink-saver can save is bounded by what
    # it keeps: black words and points, and numbers at least 60 % black (in the
    # light face); powers saves least, 62 % (its colour sheet has compact frames,
    # less ink to save, and the legend of its symbols is nearly a third of its
    # ink-saver ink), longo 65 %, bis 67 %, classic and mixed 78 %
    # (`scripts/ink.py --no-machine-marks`).
    ink = load_ink_script()
    grid = load_grid(name)
    colour = ink.ink_coverage(render_job(Job(grid, machine_marks=False)), 150)[0]
    saver = ink.ink_coverage(render_job(Job(grid, theme="ink-saver", machine_marks=False)), 150)[0]
    assert saver <= 0.40 * colour, f"{saver:.2%} against {colour:.2%}"


def dark_columns(text: Text, dpi: int = 600) -> tuple[float, int, int]:
    """The ink of ``text`` alone on a page (1 - mean grey, summed over its pixels) and the first and
    last pixel column it darkens."""
    pdf = render_page(Drawing(40, 20, (text,)))
    image = pdfium.PdfDocument(pdf)[0].render(scale=dpi / 72).to_pil().convert("L")
    ink = (1 - ImageStat.Stat(image).mean[0] / 255) * image.width * image.height
    bbox = Image.eval(image, lambda v: 255 - v).point(lambda v: 255 if v > 64 else 0).getbbox()
    return ink, bbox[0], bbox[2]


def test_the_light_face_takes_half_the_ink_of_the_regular_one_in_the_same_width():
    regular = Text(20, 14, "1234567890", 6.0, (0.0, 0.0, 0.0), anchor="middle", condensed=True)
    light = dark_columns(Text(**{**regular.__dict__, "light": True}))
    plain = dark_columns(regular)
    assert 0.45 <= light[0] / plain[0] <= 0.7, light[0] / plain[0]  # its stems: 0.043 of the size, not 0.079
    near = 0.04 * regular.size * 600 / 25.4  # pixels: within half a regular stem, the same advances
    assert abs(light[1] - plain[1]) <= near and abs(light[2] - plain[2]) <= near, (light, plain)
    # Not digits, or bold: the face the text prints in anyway (the light face has the digits alone).
    for other in (Text(**{**regular.__dict__, "text": "\u22125 Ab", "light": True}),
                  Text(**{**regular.__dict__, "bold": True, "light": True})):
        assert dark_columns(other)[0] == dark_columns(Text(**{**other.__dict__, "light": False}))[0]


def test_ink_saver_prints_the_cell_numbers_alone_in_the_light_face():
    grid = load_grid("powers")
    assert f"+{LIGHT_FACE}".encode() in render_job(Job(grid, theme="ink-saver"))
    assert f"+{LIGHT_FACE}".encode() not in render_job(Job(grid))
    plan, theme = layout_job(Job(grid, theme="ink-saver"))
    texts = [item for item in draw_sheet(plan, theme).items if isinstance(item, Text)]
    assert {text.role for text in texts if text.light} == {"number"}
    assert len([text for text in texts if text.light]) == sum(len(row.cells) for row in grid.rows)


def test_ink_saver_power_symbols_are_60_percent_black_and_the_octagon_stays_filled():
    theme = load_theme("ink-saver")
    assert theme.symbols is not None and grey(theme.symbols) <= 0.40
    plan, _ = layout_job(Job(load_grid("powers"), theme="ink-saver"))
    drawn = draw_sheet(plan, theme).items
    symbols = [item for item in drawn if getattr(item, "stroke", None) == theme.symbols]
    grid = load_grid("powers")
    shapes = [cell.symbol for row in grid.rows for cell in row.cells if cell.symbol is not None]
    assert len(symbols) == len(shapes) + len(set(shapes))  # in the cells, and once each in the legend
    octagons = [item for item in symbols if getattr(item, "fill", None) == theme.symbols]  # solid, the only ones
    assert len(octagons) == shapes.count(Symbol.OCTAGON) + 1


@pytest.mark.parametrize("name", builtin_names())
def test_ink_saver_prints_the_words_and_points_as_black_as_colour_does(name):
    grid, labels = load_grid(name), load_labels()
    colour, saver = load_theme("colour"), load_theme("ink-saver")
    plain = list(plan_sheet(grid, labels, colour, measure_text).texts())
    saved = list(plan_sheet(grid, labels, saver, measure_text).texts())
    assert [t.text for t in plain] == [t.text for t in saved]
    black = [(a.text, b.colour) for a, b in zip(plain, saved) if a.colour == colour.ink]
    assert len(black) > 20  # title, labels, points, penalties, operators
    assert all(grey(rgb) <= 0.10 for _, rgb in black), black
    # The cells' numbers stay in their colours, at least 60 % black.
    assert all(grey(cell.text.colour) <= 0.40 for cell in plan_sheet(grid, labels, saver, measure_text).cells)


# -- command line -----------------------------------------------------------------------


@pytest.mark.parametrize("args", [["--theme", "mono"], ["--theme", "ink-saver"], ["--colour-marks"]])
def test_render_takes_a_theme_and_colour_marks(args, tmp_path):
    target = tmp_path / "d.pdf"  # classic: rows of one colour, no marks unless asked for
    result = CliRunner().invoke(cli, ["render", "classic", "-o", str(target), *args])
    assert result.exit_code == 0, result.output
    assert target.read_bytes() != render_job(Job(load_grid("classic")))


def test_render_refuses_an_unknown_theme():
    result = CliRunner().invoke(cli, ["render", "disorder", "--theme", "sepia"])
    assert result.exit_code == 2
    assert "Invalid value for '--theme': 'sepia' is not one of" in result.stderr
