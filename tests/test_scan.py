"""sheetgen scan: the marks printed, the payload, reading crosses from a rendered page, and bad input refused."""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import replace
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from sheetgen.errors import InputError  # noqa: E402
from sheetgen.grid.load import load_grid  # noqa: E402
from sheetgen.pdf.geometry import Box  # noqa: E402
from sheetgen.pdf.impose import impose  # noqa: E402
from sheetgen.pdf.raster import rasterise_png  # noqa: E402
from sheetgen.runs.jobs import Job, layout_job, render_job  # noqa: E402
from sheetgen.scan import vision  # noqa: E402
from sheetgen.scan.layout import layouts  # noqa: E402
from sheetgen.scan.read import sheets_in  # noqa: E402
from sheetgen.scan.sheets import check  # noqa: E402
from sheetgen.sheet.machine import Identity, content_hash, decode, encode  # noqa: E402

GRIDS = Path(__file__).resolve().parent.parent / "grids"

DPI = 300
PX = DPI / 25.4


def test_the_payload_round_trips_and_a_newer_one_is_refused():
    identity = Identity("#0123456789ab", "de", "large", "mono", True, (3, 7), 42)
    assert decode(encode(identity), "x") == identity
    assert encode(identity) == "SG2:*0123456789AB:DE:LARGE:MONO:1:2:3-7:42"  # the QR code's alphanumeric alphabet
    assert decode(encode(Identity("classic", "en", "standard")), "x") == Identity("classic", "en", "standard")
    with pytest.raises(InputError, match="format 3"):
        decode(encode(identity).replace("SG2", "SG3"), "x")
    with pytest.raises(InputError, match="not a sheetgen code"):
        decode("hello", "x")


@pytest.fixture(scope="module")
def page():
    job = Job(load_grid("classic"))
    png = rasterise_png(render_job(job), Box(0, 0, 210, 297), DPI)
    return job, cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)


def _read(image, grid="classic"):
    picture = vision.decode(cv2.imencode(".png", image)[1].tobytes())
    layout = layouts(None, "page.png")
    readings = sheets_in(picture, "page.png", Identity(grid, "en", "standard"), layout)
    return [(r, check(r, *layout(r.identity)[:2])) for r in readings]


def test_a_clean_page_reads_eight_empty_sheets(page):
    _, image = page
    result = _read(image)
    assert len(result) == 8
    assert all(not box.crossed for reading, _ in result for box in reading.boxes)
    assert all(checked.score is not None and checked.score.total == 0 for _, checked in result)


def _cell_px(job, slot, row, index):
    plan, _ = layout_job(job)
    cell = next(c for c in plan.cells if c.row == row and c.index == index)
    at = impose(job.paper, plan.width, plan.height).slots[slot]
    box = cell.pale.shifted(at.x, at.y)
    return [(round(x * PX), round(y * PX)) for x, y in ((box.x, box.y), (box.right, box.bottom))]


def test_crosses_are_read_and_a_single_strike_is_not(page):
    job, clean = page
    image = clean.copy()
    crosses = [(0, 0), (0, 2), (1, 1), (3, 4)]
    for row, index in crosses:  # an X in pen, 0.5 mm
        (x0, y0), (x1, y1) = _cell_px(job, 0, row, index)
        cv2.line(image, (x0 + 5, y0 + 5), (x1 - 5, y1 - 5), 20, 6)
        cv2.line(image, (x1 - 5, y0 + 5), (x0 + 5, y1 - 5), 20, 6)
    (x0, y0), (x1, y1) = _cell_px(job, 0, 0, 1)  # skipped and struck through
    cv2.line(image, (x0 + 4, (y0 + y1) // 2), (x1 - 4, (y0 + y1) // 2 + 3), 20, 6)
    reading, checked = _read(image)[0]
    assert {(b.row, b.index) for b in reading.boxes if b.kind == "cell" and b.crossed} == set(crosses)
    assert not reading.doubtful
    assert checked.score is not None
    assert [row.crosses for row in checked.score.rows] == [2, 1, 0, 1]


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_a_sheet_the_rules_forbid_is_to_be_checked(page):
    job, clean = page
    image = clean.copy()
    plan, _ = layout_job(job)
    at = impose(job.paper, plan.width, plan.height).slots[0]
    lock = plan.locks[0].box.shifted(at.x, at.y)  # a lock crossed with nothing before it
    cx, cy, r = round(lock.cx * PX), round(lock.cy * PX), round(lock.w * PX / 3)
    cv2.line(image, (cx - r, cy - r), (cx + r, cy + r), 20, 6)
    cv2.line(image, (cx + r, cy - r), (cx - r, cy + r), 20, 6)
    reading, checked = _read(image)[0]
    assert checked.score is None and checked.problem.startswith("check this sheet")


@pytest.fixture(scope="module")
def coded_page():
    """A page of eight sheets with serial numbers, a strip and a custom grid, each with its code."""
    grid = replace(load_grid("classic"), name="club", title="Club Qwixx", source="club.yaml")
    job = Job(grid, lang="de", theme="mono", first_serial=41)
    png = rasterise_png(render_job(job), Box(0, 0, 210, 297), DPI)
    return grid, png


def _without_code(job, png, slot):
    """The page ``png`` of ``job`` with sheet ``slot``'s code painted over: a code a photo did not read."""
    plan, _ = layout_job(job)
    at = impose(job.paper, plan.width, plan.height).slots[slot]
    code = plan.machine.code.shifted(at.x, at.y)
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    image[round(code.y * PX):round(code.bottom * PX), round(code.x * PX):round(code.right * PX)] = 255
    return vision.decode(cv2.imencode(".png", image)[1].tobytes())


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_a_sheet_whose_code_is_not_read_is_read_as_its_pages_other_sheets(coded_page):
    grid, png = coded_page
    job = Job(grid, lang="de", theme="mono", first_serial=41)
    readings = sheets_in(_without_code(job, png, 2), "page.png", None, layouts(grid, "page.png"))
    assert [r.identity.serial for r in readings] == [41, 42, None, 44, 45, 46, 47, 48]  # its serial is unknown
    assert {(r.identity.grid, r.identity.lang, r.identity.theme, r.identity.strip) for r in readings} == {
        ("#" + content_hash(grid), "de", "mono", True)}
    assert [r.note for r in readings] == [""] * 2 + [
        "its code was not read: read with the grid, language, size and theme of the other sheets' codes on its"
        " page; its serial number unknown"] + [""] * 5
    assert not any(box.crossed for box in readings[2].boxes)


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_a_sheet_of_lucky_numbers_whose_code_is_not_read_says_they_are_unknown():
    job = Job(load_grid("longo"))
    png = rasterise_png(render_job(job), Box(0, 0, 210, 297), DPI)
    readings = sheets_in(_without_code(job, png, 0), "page.png", None, layouts(None, "page.png"))
    assert readings[0].identity.grid == "longo" and readings[0].identity.lucky == ()
    assert readings[1].identity.lucky != ()  # the others' codes say theirs
    assert readings[0].note.endswith("; its lucky numbers unknown")


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_scan_tells_which_sheet_was_read_by_its_pages_other_codes(tmp_path):
    job = Job(load_grid("longo"))
    plan, _ = layout_job(job)
    code = plan.machine.code.shifted(*(lambda at: (at.x, at.y))(impose(job.paper, plan.width, plan.height).slots[0]))
    image = cv2.imdecode(np.frombuffer(rasterise_png(render_job(job), Box(0, 0, 210, 297), DPI), np.uint8),
                         cv2.IMREAD_GRAYSCALE)
    image[round(code.y * PX):round(code.bottom * PX), round(code.x * PX):round(code.right * PX)] = 255
    picture = tmp_path / "page.png"
    picture.write_bytes(cv2.imencode(".png", image)[1].tobytes())
    result = _invoke(["scan", str(picture)])
    notes = [line for line in result.stderr.splitlines() if "its code was not read" in line]
    assert len(notes) == 1 and "sheet 1:" in notes[0] and notes[0].endswith("; its lucky numbers unknown"), \
        result.stderr


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_a_sheet_whose_code_is_not_read_is_refused_where_its_page_has_no_other_code(coded_page):
    grid, png = coded_page
    job = Job(grid, lang="de", theme="mono", first_serial=41)
    plan, _ = layout_job(job)
    picture = _without_code(job, png, 0)
    pixels = picture.pixels.copy()
    for slot in range(1, 8):  # every code painted over
        at = impose(job.paper, plan.width, plan.height).slots[slot]
        code = plan.machine.code.shifted(at.x, at.y)
        pixels[round(code.y * PX):round(code.bottom * PX), round(code.x * PX):round(code.right * PX)] = 1.0
    with pytest.raises(InputError, match="no code read on this sheet"):
        sheets_in(replace(picture, pixels=pixels), "page.png", None, layouts(grid, "page.png"))


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_each_sheets_code_names_its_grid_language_theme_and_serial(coded_page):
    grid, png = coded_page
    readings = sheets_in(vision.from_png(png), "page.png", None, layouts(grid, "page.png"))
    assert [r.identity.serial for r in readings] == list(range(41, 49))
    assert {(r.identity.grid, r.identity.lang, r.identity.theme, r.identity.strip) for r in readings} == {
        ("#" + content_hash(grid), "de", "mono", True)}


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_a_sheet_with_a_code_needs_no_grid_on_the_command_line(tmp_path, page):
    _, image = page
    picture = tmp_path / "page.png"
    picture.write_bytes(cv2.imencode(".png", image)[1].tobytes())
    result = _invoke(["scan", str(picture), "--json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["sheets"]) == 8


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_a_grid_file_that_is_not_the_sheets_is_refused(tmp_path, coded_page):
    grid, png = coded_page
    picture = tmp_path / "page.png"
    picture.write_bytes(png)
    other = tmp_path / "club.yaml"
    other.write_text((GRIDS / "classic.yaml").read_text().replace("name: classic", "name: club"))
    result = _invoke(["scan", str(picture), "--grid", str(other)])
    assert result.exit_code == 1
    assert f"not the grid the sheet was printed from ({picture}: the sheet's grid has hash {content_hash(grid)}," \
           f" this file is hash {content_hash(load_grid(str(other)))})" in result.output
    assert "Traceback" not in result.output
    builtin = _invoke(["scan", str(picture), "--grid", "classic"])
    assert builtin.exit_code == 1 and "this file is the built-in grid 'classic'" in builtin.output


# Sheets whose totals line takes the sheet's width (labelled boxes: "Rangée 1"..., "Kräfte"): their code's square
# is above the line's right end, beside the penalties and the scoring table, 22 mm above the sheet's corner
# (30 mm on A6).  A clean page read without a grid named: each code says the grid, language and size.
@pytest.mark.slow  # pages rendered, rasterised and read: out of the quick tier
@pytest.mark.parametrize(("name", "lang", "size"), [("powers", "de", "standard"), ("blocks", "fr", "standard"),
                                                    ("blocks", "fr", "a6")])
def test_a_code_above_the_totals_line_is_read(name, lang, size):
    from sheetgen.sheet.plan import SIZES

    job = Job(load_grid(name), lang=lang, size=SIZES[size])
    plan, _ = layout_job(job)
    assert plan.machine.code is not None and plan.machine.code.bottom < min(t.box.y for t in plan.totals)
    page = impose(job.paper, plan.width, plan.height)
    png = rasterise_png(render_job(job), Box(0, 0, page.width, page.height), DPI)
    readings = sheets_in(vision.from_png(png), "page.png", None, layouts(None, "page.png"))
    assert len(readings) == len(page.slots)
    assert {(r.identity.grid, r.identity.lang, r.identity.size, r.note) for r in readings} == {(name, lang, size, "")}
    assert not any(box.crossed for r in readings for box in r.boxes)


def _scan(tmp_path, data: bytes, name: str):
    from click.testing import CliRunner

    from sheetgen.cli import cli

    path = tmp_path / name
    path.write_bytes(data)
    return CliRunner().invoke(cli, ["scan", str(path), "--grid", "classic"])


def _png(width: int, height: int, rows: bytes = b"") -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


@pytest.mark.parametrize(("data", "name", "message"), [
    (b"hello, not a picture", "a.png", "not a picture sheetgen can read"),
    (_png(30_000, 30_000), "huge.png", "30000 x 30000 pixels, more than 100 MP: refused before decoding it"),
    (b"\xff\xd8\xff\xe0" + bytes(200), "cut.jpg", "a truncated JPEG"),
    (_png(200, 100, (b"\x00" + b"\xff" * 200) * 100), "white.png", "no sheetgen marks found"),
])
def test_bad_input_gets_one_line(tmp_path, data, name, message):
    result = _scan(tmp_path, data, name)
    assert result.exit_code == 1
    assert message in str(result.output) + str(result.exception or "")


def test_sheets_printed_without_marks_are_refused(tmp_path):
    job = Job(load_grid("classic"), machine_marks=False)
    png = rasterise_png(render_job(job), Box(0, 0, 210, 297), 150)
    result = _scan(tmp_path, png, "old.png")
    assert result.exit_code == 1
    assert "no sheetgen marks found" in str(result.output) + str(result.exception or "")


def _invoke(args):
    from click.testing import CliRunner

    from sheetgen.cli import cli

    return CliRunner().invoke(cli, args)


def test_without_the_scan_extra_scan_says_how_to_install_it_and_exits_1(tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "cv2" else real(name, *a))
    result = _invoke(["scan", str(tmp_path / "any.jpg"), "--grid", "classic"])
    assert result.exit_code == 1
    assert "sheetgen scan needs the scan extra: pip install 'qwixx-sheets[scan]'" in result.output


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_scan_adds_the_game_to_the_standings(tmp_path, page):
    _, image = page
    picture = tmp_path / "page.png"
    picture.write_bytes(cv2.imencode(".png", image)[1].tobytes())
    standings = tmp_path / "evening.csv"
    result = _invoke(["scan", str(picture), "--grid", "classic", "--standings", str(standings)])
    assert result.exit_code == 0, result.output
    assert "Standings" in result.output
    assert standings.read_text().count(",classic,") == 8
    again = _invoke(["scan", str(picture), "--grid", "classic", "--standings", str(standings), "-q"])
    assert again.exit_code == 1 and "not added again" in again.output


def _markers_in(pdf: bytes) -> int:
    png = rasterise_png(pdf, Box(0, 0, 210, 297), DPI)
    return len(vision.find_markers(vision.from_png(png)))


@pytest.mark.slow
def test_batch_and_pack_leave_the_marks_off_when_told(tmp_path):
    from sheetgen.runs.pack import PRINTS, sheet_job

    manifest = tmp_path / "night.yaml"
    manifest.write_text("jobs:\n  - grid: classic\n    sheets: 8\n")
    with_marks, without = tmp_path / "with", tmp_path / "without"
    assert _invoke(["batch", str(manifest), "-o", str(with_marks), "-q"]).exit_code == 0
    assert _invoke(["batch", str(manifest), "-o", str(without), "-q", "--no-machine-marks"]).exit_code == 0
    assert _markers_in(next(with_marks.glob("*.pdf")).read_bytes()) == 32
    assert _markers_in(next(without.glob("*.pdf")).read_bytes()) == 0
    grid = load_grid("classic")
    assert _markers_in(render_job(sheet_job(grid, "en", PRINTS[0], "a4", machine_marks=False))) == 0
    assert _markers_in(render_job(sheet_job(grid, "en", PRINTS[0], "a4"))) == 32


def test_a_strike_has_no_second_stroke_and_an_x_has_one():
    from sheetgen.scan.read import decide
    from sheetgen.scan.vision import Features

    strike = Features(ink=0.2, spread=0.25, reach=1.0, darkness=0.5, line=0.97, second=0.01)
    cross = Features(ink=0.2, spread=0.45, reach=1.0, darkness=0.5, line=0.92, second=0.2)
    assert decide(strike)[:1] == (False,) and decide(strike)[1] >= 0.7
    assert decide(cross)[0] and decide(cross)[1] >= 0.7
    wobbly = Features(ink=0.2, spread=0.3, reach=1.0, darkness=0.5, line=0.85, second=0.1)
    assert decide(wobbly)[:2] == (False, 0.5)  # doubtful, and never a guessed cross
    hidden = Features(ink=0.15, spread=0.34, reach=0.75, darkness=0.5, line=0.97, second=0.03)
    assert decide(hidden)[1] < 0.7  # an X whose second stroke runs under a bold number, seen only at its ends


def test_a_doubtful_lock_is_read_as_its_rows_last_cell():
    from sheetgen.scan.read import BoxReading, _locks_as_last_cells
    from sheetgen.scan.vision import Features

    boxes = (BoxReading("cell", 0, 10, True, 0.9, "cross"), BoxReading("cell", 0, 3, False, 1.0, "empty"),
             BoxReading("lock", 0, 0, False, 0.5, "dot"), BoxReading("cell", 1, 10, False, 0.9, "empty"),
             BoxReading("lock", 1, 0, True, 0.5, "dot"))
    inked, blank = Features(0.1, 0.5, 1.0, 0.5), Features(0.0, 0.0, 0.0, 0.0)
    features = [inked, blank, inked, blank, blank]
    locks = [box for box in _locks_as_last_cells(boxes, features) if box.kind == "lock"]
    # beside a surely crossed last cell, a lock with ink is crossed (no surer than 0.8); beside a surely
    # empty one, a doubtful lock without ink is empty
    assert [(lock.crossed, lock.confidence) for lock in locks] == [(True, 0.8), (False, 0.9)]
    features[4] = inked  # a lock with ink beside an empty last cell stays as read: doubtful
    assert [(b.crossed, b.confidence) for b in _locks_as_last_cells(boxes, features) if b.kind == "lock"][1] == (
        True, 0.5)
    features[2] = blank  # a blank lock beside a crossed last cell is the player's to check, never guessed
    assert [b.confidence for b in _locks_as_last_cells(boxes, features) if b.kind == "lock"][0] == 0.5
    # Seed 31, picture 39: an X on a mono lock's dark padlock, 0.016 of its inner part inked, beside an empty
    # last cell (an impossible sheet): doubtful, it stays so, and the sheet goes to be checked
    features[4] = Features(0.016, 0.5, 0.0, 0.37)
    assert [(b.crossed, b.confidence) for b in _locks_as_last_cells(boxes, features) if b.kind == "lock"][1] == (
        True, 0.5)


def test_a_strike_beside_a_pale_second_stroke_is_doubtful_not_a_sure_cross():
    from sheetgen.scan.read import decide
    from sheetgen.scan.vision import Features

    # Seed 2, picture 82 of the corpus: an ink-saver sheet, blurred; a strike over the number 7, whose grey
    # spreads past its print: its top bar, a third as dark as pen, lies across the strike, 0.176 of the ink.
    strike = Features(ink=0.215, spread=0.505, reach=0.75, darkness=0.49, line=0.824, faint=0.25, second=0.176,
                      second_darkness=0.70)
    assert decide(strike) == (True, 0.5, "stroke or cross")  # before: (True, 1.0, "cross"), certain and wrong
    x = replace(strike, second_darkness=0.95)  # the same shape, its second stroke as dark as its first: an X
    assert decide(x)[:1] == (True,) and decide(x)[1] >= 0.7
    assert decide(replace(strike, second=0.25))[1] >= 0.7  # a quarter of the ink across, however pale: an X


def test_a_second_stroke_far_paler_than_the_first_is_never_a_sure_cross():
    from sheetgen.scan.read import CONFIDENT, decide
    from sheetgen.scan.vision import Features

    # Seed 17, picture 11: a blurred ink-saver sheet at 300 dpi, "11" struck through with one vertical line.
    # The light number's edges beside the strike read as a second stroke, 0.45 as dark as the strike: read
    # as a sure cross (1.0), the one sheet reported certain and read wrong on seeds 14 to 20.  The X beside
    # it, one pen's, 0.81.
    strike = Features(ink=0.213, spread=0.615, reach=1.0, darkness=0.439, line=0.761, faint=0.384, second=0.151,
                      second_darkness=0.45)
    cross = Features(ink=0.407, spread=0.571, reach=1.0, darkness=0.602, line=0.8, faint=0.462, second=0.185,
                     second_darkness=0.81)
    assert decide(strike) == (False, 0.5, "stroke")
    assert decide(replace(strike, second_darkness=0.81))[:1] == (True,) and decide(cross)[1] >= CONFIDENT


def test_a_pale_second_stroke_that_does_not_grow_when_seen_lighter_is_a_strikes_neighbour():
    from sheetgen.scan.read import INK, SCALE, STROKE, _strikes, decide

    # A 60 x 60 box: a strike along its diagonal (0.9) and, off it, a short pale stroke across (0.3): as
    # picture 82 of seed 2 (line 0.82, second 0.18, a third as dark as the strike).  With ``grown``, that
    # stroke goes on fainter (0.15) beyond: an X's second stroke, lighter where the print was.
    def box(grown: bool):
        pixels = np.zeros((60, 60), np.float32)
        for t in range(2, 58):
            pixels[t - 2:t + 2, t] = 0.9
        for t in range(32 if grown else 40, 58 if grown else 52):
            pixels[t, 58 - t:62 - t] = np.maximum(pixels[t, 58 - t:62 - t], 0.3 if 40 <= t < 52 else 0.15)
        return vision.Picture(pixels, 60, 60)

    for grown, read in ((False, (False, 0.5, "strike")), (True, (True, 0.5, "stroke or cross"))):
        dark = box(grown)
        [f] = vision.box_features(dark, [(0, 0, 60, 60)], INK, STROKE * SCALE)
        assert 0.155 < f.second < 0.2 and f.second_darkness < 0.5 and decide(f) == (True, 0.5, "stroke or cross")
        assert _strikes(vision, dark, [(0, 0, 60, 60)], [decide(f)], [f]) == [read]


def test_the_second_strokes_darkness_is_measured_against_the_firsts():
    # A 40 x 40 box: a stroke along its diagonal at darkness 0.9, and across it a shorter stroke at 0.3
    # (pale) or 0.9 (one pen's); each 4 pixels wide.
    def box(across: float):
        pixels = np.zeros((40, 40), np.float32)
        for t in range(4, 36):
            pixels[t - 2:t + 2, t] = 0.9
        for t in range(10, 30):
            pixels[t, 38 - t:42 - t] = np.maximum(pixels[t, 38 - t:42 - t], across)
        return vision.box_features(vision.Picture(pixels, 40, 40), [(0, 0, 40, 40)], 0.2, 6.0)[0]

    pale, dark = box(0.3), box(0.9)
    assert pale.second > 0.2 and dark.second > 0.2
    assert pale.second_darkness == pytest.approx(0.3 / 0.9, abs=0.05)
    assert dark.second_darkness == pytest.approx(1.0, abs=0.05)


def test_doubtful_strokes_and_dots_are_guessed_as_the_corpus_shows_them():
    from sheetgen.scan.read import _guesses
    from sheetgen.scan.vision import Features

    square, low = (0, 0, 30, 30), (0, 0, 40, 18)
    # Seed 2, picture 94: an X read as one stroke, its other under a bold number: it misses a quarter,
    # with little faint ink about it.  Seed 1, picture 58: a strike through a low Bis box misses one too.
    x_arm = Features(ink=0.123, spread=0.36, reach=0.75, darkness=0.45, line=0.957, faint=0.143, second=0.043)
    haloed = replace(x_arm, faint=0.2)  # faint ink over 1.5 times the ink: a pencil stroke's halo, a strike
    full = replace(x_arm, reach=1.0)  # a strike through the box's middle reaches all four quarters
    # Seed 2, picture 44: an X askew, read as a "dot" in two quarters, with as much ink as a stroke
    askew = Features(ink=0.145, spread=0.48, reach=0.5, darkness=0.40, line=0.821, faint=0.174, second=0.179)
    dot = replace(askew, ink=0.065)
    decided = [(False, 0.5, "stroke")] * 4 + [(False, 0.5, "dot")] * 2 + [(False, 0.8, "stroke")]
    features = [x_arm, x_arm, haloed, full, askew, dot, x_arm]
    guessed = _guesses(decided, features, [square, low, square, square, square, square, square])
    assert [crossed for crossed, _, _ in guessed] == [True, False, False, False, True, False, False]
    assert all(sure == before for (_, sure, _), (_, before, _) in zip(guessed, decided))  # doubtful as before


def test_a_wide_strike_along_a_low_box_is_doubtful_not_a_sure_fill():
    from sheetgen.scan.read import decide
    from sheetgen.scan.vision import Features

    # Seed 6, picture 53: a clean Bis sheet at 200 dpi, a skipped cell (6.2 x 3.6 mm) struck along with a wide
    # pen: half of its inner part, all on one band.  Before: (True, 0.8, "fill"), a sure cross.
    strike = Features(ink=0.499, spread=0.30, reach=1.0, darkness=0.578, line=0.974, faint=0.52, second=0.026,
                      second_darkness=0.77)
    assert decide(strike) == (False, 0.5, "stroke")
    # fills of the same sheet stay sure: a Bis box's (2.5 mm high, one band holds it all) covers more of it,
    # and a cell's fill is not on one band (seed 6, pictures 13 and 8)
    low_fill = Features(ink=0.698, spread=0.414, reach=1.0, darkness=0.8, line=1.0, faint=0.7)
    cell_fill = Features(ink=0.596, spread=0.323, reach=1.0, darkness=0.8, line=0.809, faint=0.6, second=0.116)
    assert decide(low_fill)[:1] == decide(cell_fill)[:1] == (True,)
    assert decide(low_fill)[1] >= 0.7 and decide(cell_fill)[1] >= 0.7


def test_a_doubtful_cell_is_guessed_as_it_reads_over_nearly_all_of_it():
    from sheetgen.scan.read import INK, SCALE, STROKE, WIDE, _pixels, _wider, decide

    # A 6 x 6 mm cell (48 x 48 pixels): its inner part, 0.18 of its side in from each edge, and nearly all of
    # it, WIDE in.  An X over a bold number (seed 6, picture 41): the number hides its strokes but for their
    # middle, a small X as wide as one pen's band, and their four ends, outside the inner part.  A strike
    # of a wide pen across a narrow cell over its number (seed 5, picture 85): a piece in the inner part, and its
    # two ends.  In the inner part both are a round blob in its four quarters, a doubtful "dot".
    box = Box(0, 0, 6, 6)
    inner, wide = _pixels(box), _pixels(box, WIDE)
    x0, y0, w, h = inner

    def hidden(pixels):  # the number's print over the inner part but for its middle
        keep = pixels[y0 + h // 2 - 5:y0 + h // 2 + 5, x0 + w // 2 - 5:x0 + w // 2 + 5].copy()
        pixels[y0:y0 + h, x0:x0 + w] = 0
        pixels[y0 + h // 2 - 5:y0 + h // 2 + 5, x0 + w // 2 - 5:x0 + w // 2 + 5] = keep
        return vision.Picture(pixels, 48, 48)

    x = np.zeros((48, 48), np.float32)
    for t in range(4, 44):
        x[t, t - 2:t + 2] = x[t, 46 - t:50 - t] = 0.8
    strike = np.zeros((48, 48), np.float32)
    strike[19:29, 4:44] = 0.8
    for picture, truth in ((hidden(x), True), (hidden(strike), False)):
        [f] = vision.box_features(picture, [inner], INK, STROKE * SCALE)
        read = decide(f)
        assert read == (False, 0.5, "dot"), read  # the inner part alone: doubtful
        for kind, guess in (("cell", truth), ("lock", read[0])):  # a lock goes by its row's last cell instead
            assert _wider(vision, picture, [kind], [wide], [read], [f]) == [(guess, read[1], read[2])]
    sure = (True, 0.9, "cross")  # a sure cross not on one stroke stays as read
    assert _wider(vision, hidden(x), ["cell"], [wide], [sure], [replace(f, line=0.6)]) == [sure]
    # one with most of its ink on one stroke is seen so too (seed 5, picture 22: a struck Bis cell read as a
    # sure cross, line 0.79): surely one stroke so, it is doubtful, guessed not crossed; an X stays sure
    assert _wider(vision, hidden(strike), ["cell"], [wide], [sure], [replace(f, line=0.79)]) == [
        (False, 0.5, "stroke, seen wider")]
    assert _wider(vision, hidden(x), ["cell"], [wide], [sure], [replace(f, line=0.79)]) == [sure]


def test_a_cell_is_guessed_by_the_ends_in_its_corners_and_a_cross_without_them_is_doubtful():
    from sheetgen.scan.read import CORNERED, INK, _ends, _pixels
    from sheetgen.scan.vision import Features

    # A 6 x 6 mm cell and a low 6.2 x 3.6 mm one (a Bis cell), seen but for a rim clear of its frame.  An X
    # runs from corner to corner; a strike crosses the middle and leaves the corners clean.  Seed 9, picture
    # 33: a pen dot read as a doubtful "dot" guessed crossed; seed 1, picture 28: pencil X's on a mono
    # sheet, too light for the ink threshold (doubtful "faint"), whose ends show at half of it, and on the
    # sheet's grey cells (0.75) only at half of it times 0.75.
    cell, low = _pixels(Box(0, 0, 6, 6), CORNERED), _pixels(Box(0, 0, 6.2, 3.6), CORNERED)

    def drawn(darkness, x=True, strike=False, width=50, height=50):
        pixels = np.zeros((height, width), np.float32)
        for t in range(3, min(width, height) - 3):
            if x:
                pixels[t, t - 1:t + 2] = pixels[t, width - 2 - t:width + 1 - t] = darkness
        if strike:
            pixels[height // 2 - 2:height // 2 + 2, 6:width - 6] = darkness
        return vision.Picture(pixels, width, height)

    white, grey = (vision.Picture(np.full((50, 50), shade, np.float32), 50, 50) for shade in (1.0, 0.75))
    pen, pencil, struck = drawn(0.7), drawn(0.15), drawn(0.7, x=False, strike=True)
    ink, faint = Features(0.1, 0.5, 1.0, 0.6), Features(0.0, 0.0, 0.0, 0.0, faint=0.08)
    doubt_crossed, doubt_not, sure_not = (True, 0.5, "dot"), (False, 0.5, "faint"), (False, 0.9, "stroke")
    cases = [(pen, white, doubt_not, ink, True), (struck, white, doubt_crossed, ink, False),
             (pencil, white, doubt_not, faint, True), (pen, white, sure_not, ink, False),
             (drawn(0.09), white, doubt_not, faint, False), (drawn(0.09), grey, doubt_not, faint, True)]
    for picture, paper, read, f, guess in cases:
        assert _ends(vision, picture, paper, ["cell"], [cell], [read], [f]) == [(guess, read[1], read[2])], (
            read, guess)
    assert INK / 2 * 0.75 < 0.09 < INK / 2 < 0.15 < INK
    assert _ends(vision, drawn(0.7, width=50, height=29), white, ["cell"], [low], [doubt_not], [ink]) == [doubt_not]
    assert _ends(vision, pen, white, ["lock"], [cell], [doubt_not], [ink]) == [doubt_not]
    # Seed 22, picture 22: a wide pen's strike down a Bis cell's "11", a round blob in the inner part's four
    # quarters, read as a sure cross (1.0) on a sheet reported certain; its corners are clean.  A sure X stays.
    blob = np.zeros((29, 50), np.float32)
    blob[4:25, 21:29] = 0.8
    sure_cross = (True, 1.0, "cross")
    assert _ends(vision, vision.Picture(blob, 50, 29), white, ["cell"], [low], [sure_cross], [ink]) == [
        (False, 0.5, "cross without its ends")]
    assert _ends(vision, pen, white, ["cell"], [cell], [sure_cross], [ink]) == [sure_cross]


def test_a_low_cells_corners_and_a_square_cells_whole_guess_doubtful_readings():
    from sheetgen.scan.read import CORNERED, _ends, _pixels
    from sheetgen.scan.vision import Features

    # A low 6.2 x 3.6 mm cell (a Bis cell) seen but for a rim: 50 x 29 pixels.  Seed 25, picture 1: pen strikes
    # through Bis cells' numbers read as "stroke or cross", guessed crossed, their corners clean: no X.  An X
    # from corner to corner there, doubtful "faint" pencil, is guessed crossed; a strike along the cell that
    # touches three corners, read as a stroke, keeps its guess (seed 9, picture 28).
    low, cell = _pixels(Box(0, 0, 6.2, 3.6), CORNERED), _pixels(Box(0, 0, 6, 6), CORNERED)

    def lines(width, height, *strokes, darkness=0.7):
        pixels = np.zeros((height, width), np.float32)
        for (x0, y0), (x1, y1) in strokes:
            for t in np.linspace(0, 1, 200):
                x, y = round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t)
                pixels[max(y - 1, 0):y + 2, max(x - 1, 0):x + 2] = darkness
        return vision.Picture(pixels, width, height)

    white = vision.Picture(np.ones((50, 50), np.float32), 50, 50)
    ink = Features(0.1, 0.5, 1.0, 0.6)
    strike_middle = lines(50, 29, ((14, 14), (36, 14)), ((25, 10), (25, 18)))
    x = lines(50, 29, ((1, 1), (48, 27)), ((48, 1), (1, 27)))
    along = lines(50, 29, ((1, 2), (48, 2)), ((1, 3), (48, 26)))
    either, faint, stroke = (True, 0.5, "stroke or cross"), (False, 0.5, "faint"), (True, 0.5, "stroke")
    assert _ends(vision, strike_middle, white, ["cell"], [low], [either], [ink]) == [(False, 0.5, "stroke or cross")]
    assert _ends(vision, x, white, ["cell"], [low], [faint], [ink]) == [(True, 0.5, "faint")]
    assert _ends(vision, along, white, ["cell"], [low], [stroke], [ink]) == [stroke]
    # Seed 28, picture 93: a pen X on a mono cell whose inner part shows one stroke and a dot of the other,
    # doubtful "dot" guessed not crossed; over all of its cell its second stroke crosses the first.  A strike
    # seen so has none, and keeps its guess.
    big_x = lines(50, 50, ((2, 30), (30, 2)), ((8, 8), (46, 46)))
    one = lines(50, 50, ((8, 8), (46, 46)))
    dot = (False, 0.5, "dot")
    assert _ends(vision, big_x, white, ["cell"], [cell], [dot], [ink]) == [(True, 0.5, "dot")]
    assert _ends(vision, one, white, ["cell"], [cell], [dot], [ink]) == [dot]


def test_light_crossing_strokes_are_guessed_crossed_and_stay_doubtful():
    from sheetgen.scan.read import PENCIL_CROSS, _light
    from sheetgen.scan.vision import Features

    # A pencil X on a mono sheet's grey cell (seed 26, picture 4): at the ink threshold nothing, or one of
    # its strokes; at the sheet's own light threshold a long stroke and a short one across it.  A strike
    # (seed 16, picture 54: a pen's, through a Bis cell's number) shows one stroke, or, darker, crossings too.
    def drawn(darkness, second):
        pixels = np.zeros((40, 40), np.float32)
        for t in range(2, 38):
            pixels[t, t - 1:t + 1] = darkness
        for t in range(2, 2 + second):
            pixels[t, 39 - t:41 - t] = darkness
        return vision.Picture(pixels, 40, 40)

    box = [(0, 0, 40, 40)]
    unseen, pencil_stroke, pen = Features(0.0, 0.0, 0.0, 0.0, faint=0.1), Features(0.04, 0.1, 0.5, 0.22), \
        Features(0.04, 0.1, 0.5, 0.45)
    faint, sure_stroke = (False, 0.5, "faint"), (False, 1.0, "stroke")

    def light(picture, read, f):
        return _light(vision, picture, box, [read], [f], [0], 0.02)[0]

    short, whole, strike = drawn(0.12, 6), drawn(0.12, 36), drawn(0.12, 0)
    assert light(short, faint, unseen) == (True, 0.5, "faint")  # guessed crossed, still doubtful
    assert light(short, sure_stroke, pencil_stroke) == (True, 0.5, "stroke")  # a sure stroke made doubtful
    assert light(whole, faint, unseen) == (True, PENCIL_CROSS, "pencil cross")  # plainly an X: crossed
    assert light(whole, sure_stroke, pencil_stroke) == (True, 0.5, "stroke")  # doubtful, not decided
    assert light(strike, faint, unseen) == faint and light(strike, sure_stroke, pencil_stroke) == sure_stroke
    assert light(short, sure_stroke, pen) == sure_stroke  # pen-dark ink: not light pencil
    # Seed 39, picture 32: a pencil X on a shadowed mono cell, a sure stroke 0.35 dark; a doubtful box as
    # dark is a pen's strike through a Bis cell's number as often
    shadowed = replace(pencil_stroke, darkness=0.35)
    assert light(short, sure_stroke, shadowed) == (True, 0.5, "stroke")
    assert light(short, (False, 0.5, "stroke"), shadowed) == (False, 0.5, "stroke")


def test_a_broad_sure_stroke_in_a_cell_its_number_fills_is_doubtful():
    from sheetgen.scan.read import PRINTED, _printed
    from sheetgen.scan.vision import Features

    # Seed 3, picture 44: a powers sheet's bold "12" hides an X but for a broad piece of one stroke, read as
    # a sure stroke (0.8).  In a cell whose number covers under PRINTED of it, or for a thin stroke, it stays.
    def cell(printed):
        pixels = np.ones((40, 40), np.float32)
        pixels[:round(40 * printed)] = 0.1
        return vision.Picture(pixels, 40, 40)

    broad, thin = Features(0.06, 0.5, 0.75, 0.36, line=1.0), Features(0.06, 0.2, 0.75, 0.36, line=1.0)
    box, stroke, dot = [(0, 0, 40, 40)], (False, 0.8, "stroke"), (False, 0.8, "dot")
    bold, plain = cell(PRINTED + 0.05), cell(PRINTED - 0.05)
    assert _printed(vision, bold, ["cell"], box, [stroke], [broad]) == [(False, 0.5, "stroke under its number")]
    assert _printed(vision, bold, ["cell"], box, [dot], [broad]) == [(False, 0.5, "dot under its number")]
    assert _printed(vision, plain, ["cell"], box, [stroke], [broad]) == [stroke]
    assert _printed(vision, bold, ["cell"], box, [stroke], [thin]) == [stroke]
    assert _printed(vision, bold, ["lock"], box, [stroke], [broad]) == [stroke]


def test_ink_in_a_box_no_player_strikes_is_guessed_an_x():
    from sheetgen.scan.read import _never_struck
    from sheetgen.scan.vision import Features

    # Seed 6, picture 74: a lock's X under its padlock read surely as one stroke (0.8); seed 6, picture 3: a
    # pencil X on a mono sheet's bonus box, too light for ink (doubtful "faint").  The same in a cell is a
    # strike through a skipped cell, and stays as read.
    # Seed 31, picture 39: an X on a mono lock's dark padlock, a sure "dot" of 0.016 of ink (as light as a
    # speck in an empty box, seeds 37 and 38): doubtful, guessed not crossed.
    stroke, faint = Features(0.238, 0.78, 0.5, 0.67, line=1.0), Features(0.0, 0.0, 0.0, 0.0, faint=0.153)
    blank, speck = Features(0.0, 0.0, 0.0, 0.0, faint=0.01), Features(0.016, 0.51, 0.0, 0.37, faint=0.035)
    kinds = ["lock", "bar", "penalty", "cell", "lock", "bis", "lock"]
    decided = [(False, 0.8, "stroke"), (False, 0.5, "faint"), (True, 0.9, "cross"), (False, 0.8, "stroke"),
               (False, 1.0, "empty"), (False, 0.5, "faint"), (False, 0.75, "dot")]
    features = [stroke, faint, stroke, stroke, blank, blank, speck]
    assert _never_struck(kinds, decided, features) == [
        (True, 0.5, "stroke"), (True, 0.5, "faint"), (True, 0.9, "cross"), (False, 0.8, "stroke"),
        (False, 1.0, "empty"), (False, 0.5, "faint"), (False, 0.5, "dot")]


def test_a_cross_seen_wider_with_a_pale_second_stroke_is_not_taken():
    from sheetgen.scan.read import INK, SCALE, STROKE, WIDE, _pixels, _wider, decide

    # Seed 9, picture 28: struck Bis cells read as a doubtful stroke inside; seen wider, the edges of the
    # number the strike crosses, a pixel out, read as a second stroke, 0.63 to 0.82 as dark as the strike.
    # An X's second stroke is one pen's, as dark as its first.
    box = Box(0, 0, 6, 6)
    wide = _pixels(box, WIDE)

    def drawn(second):
        pixels = np.zeros((48, 48), np.float32)
        for t in range(4, 44):
            pixels[t, 46 - t:50 - t] = second
            pixels[t, t - 3:t + 3] = 0.8  # the wider of the two: the first stroke
        return vision.Picture(pixels, 48, 48)

    doubtful = (False, 0.5, "stroke")
    for second, pale_inside, guess in ((0.8, 0.55, True), (0.45, 0.55, False), (0.45, 0.9, True)):
        [seen] = vision.box_features(drawn(second), [wide], INK, STROKE * SCALE)
        assert decide(seen)[0] and decide(seen)[1] >= 0.7, decide(seen)  # seen wider: a sure cross
        f = replace(seen, second_darkness=pale_inside)  # the inner part's reading
        assert _wider(vision, drawn(second), ["cell"], [wide], [doubtful], [f]) == [(guess, 0.5, "stroke")], second


def test_a_lock_beside_a_doubtful_last_cell_takes_its_guess():
    from sheetgen.scan.read import BoxReading, _locks_as_last_cells
    from sheetgen.scan.vision import Features

    inked, blank = Features(0.15, 0.67, 0.5, 0.37), Features(0.0, 0.0, 0.0, 0.0)
    # Seed 3, picture 33: red 12 a doubtful pencil X (guessed crossed), the red lock read surely as a stroke
    boxes = (BoxReading("cell", 0, 10, True, 0.4, "faint"), BoxReading("lock", 0, 0, False, 0.8, "stroke"),
             BoxReading("cell", 1, 10, False, 0.5, "faint"), BoxReading("lock", 1, 0, True, 0.5, "stroke"),
             BoxReading("cell", 2, 10, False, 0.5, "faint"), BoxReading("lock", 2, 0, True, 1.0, "cross"))
    locks = [box for box in _locks_as_last_cells(boxes, [blank, inked, blank, inked, blank, inked])
             if box.kind == "lock"]
    # the first two take their cells' guesses, doubtful; a lock surely crossed stays so
    assert [(lock.crossed, lock.confidence) for lock in locks] == [(True, 0.5), (False, 0.5), (True, 1.0)]


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_review_writes_the_counter_page_on_the_sheets_read_with_those_to_check(tmp_path, page):
    import re

    job, clean = page
    image = clean.copy()
    (x0, y0), (x1, y1) = _cell_px(job, 1, 2, 3)  # sheet 2: an X in green's fourth cell
    cv2.line(image, (x0 + 5, y0 + 5), (x1 - 5, y1 - 5), 20, 6)
    cv2.line(image, (x1 - 5, y0 + 5), (x0 + 5, y1 - 5), 20, 6)
    plan, _ = layout_job(job)
    at = impose(job.paper, plan.width, plan.height).slots[4]
    lock = plan.locks[0].box.shifted(at.x, at.y)  # sheet 5: a lock crossed with nothing before it
    cx, cy, r = round(lock.cx * PX), round(lock.cy * PX), round(lock.w * PX / 3)
    cv2.line(image, (cx - r, cy - r), (cx + r, cy + r), 20, 6)
    cv2.line(image, (cx + r, cy - r), (cx - r, cy + r), 20, 6)
    picture = tmp_path / "page.png"
    picture.write_bytes(cv2.imencode(".png", image)[1].tobytes())
    review = tmp_path / "review.html"
    result = _invoke(["scan", str(picture), "--grid", "classic", "--review", str(review), "-q"])
    assert result.exit_code == 1  # a sheet to check
    data = json.loads(re.search(r'id="sheetgen-data">(.*?)</script>', review.read_text()).group(1))
    players = data["review"]["players"]
    assert [p["player"] for p in players] == [f"Sheet {n}" for n in range(1, 9)]
    assert [p["rows"][2]["crossed"] for p in players[:3]] == [[], [9], []]  # green counts down: 12, 11, 10, 9
    assert [c["player"] for c in data["review"]["check"]] == ["Sheet 5"]
    assert data["review"]["check"][0]["problem"].startswith("check this sheet")


def _faint_cross(image, job, slot, row, index, grey=232):
    """A light pencil X in a cell: too light for ink, too much for paper (on yellow, 12 grey levels darker
    than its tint: over the noise of the page's empty cells, too light to be plainly an X)."""
    (x0, y0), (x1, y1) = _cell_px(job, slot, row, index)
    cv2.line(image, (x0 + 8, y0 + 8), (x1 - 8, y1 - 8), grey, 3)
    cv2.line(image, (x1 - 8, y0 + 8), (x0 + 8, y1 - 8), grey, 3)


def test_the_review_data_holds_each_sheets_doubtful_boxes(tmp_path, page):
    import re

    job, clean = page
    image = clean.copy()
    _faint_cross(image, job, 2, 1, 4)  # sheet 3: yellow's fifth cell, a faint pencil cross
    picture = tmp_path / "page.png"
    picture.write_bytes(cv2.imencode(".png", image)[1].tobytes())
    review = tmp_path / "review.html"
    result = _invoke(["scan", str(picture), "--grid", "classic", "--review", str(review), "-q"])
    assert result.exit_code == 1
    data = json.loads(re.search(r'id="sheetgen-data">(.*?)</script>', review.read_text()).group(1))
    assert [p["player"] for p in data["review"]["players"]][:3] == ["Sheet 1", "Sheet 2", "Sheet 3"]
    [check] = data["review"]["check"]
    assert check["player"] == "Sheet 3"
    assert [(b["kind"], b["row"], b["index"]) for b in check["boxes"]] == [("cell", 1, 4)]
    assert check["boxes"][0]["crossed"] is False and check["boxes"][0]["seen"] == "faint"


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_a_box_the_rules_need_is_guessed_crossed_in_the_marks_and_on_the_review_page(tmp_path, page):
    import re

    job, clean = page
    image = clean.copy()
    for index in range(5):  # sheet 3: yellow 2 to 6 crossed in pen, and the yellow lock
        (x0, y0), (x1, y1) = _cell_px(job, 2, 1, index)
        cv2.line(image, (x0 + 5, y0 + 5), (x1 - 5, y1 - 5), 20, 6)
        cv2.line(image, (x1 - 5, y0 + 5), (x0 + 5, y1 - 5), 20, 6)
    plan, _ = layout_job(job)
    at = impose(job.paper, plan.width, plan.height).slots[2]
    lock = next(lock.box for lock in plan.locks if lock.row == 1).shifted(at.x, at.y)
    x0, y0, x1, y1 = (round(v * PX) for v in (lock.x, lock.y, lock.right, lock.bottom))
    cv2.line(image, (x0 + 4, y0 + 4), (x1 - 4, y1 - 4), 20, 5)
    cv2.line(image, (x1 - 4, y0 + 4), (x0 + 4, y1 - 4), 20, 5)
    _faint_cross(image, job, 2, 1, 10)  # yellow 12, the row's last cell: a faint pencil X, doubtful
    picture = tmp_path / "page.png"
    picture.write_bytes(cv2.imencode(".png", image)[1].tobytes())
    review, marks = tmp_path / "review.html", tmp_path / "marks"
    result = _invoke(["scan", str(picture), "--grid", "classic", "--review", str(review), "-o", str(marks), "-q"])
    assert result.exit_code == 1  # sheet 3 to check: yellow 12 is doubtful
    # the lock needs yellow 12: every legal reading crosses it, and that is the guess the marks hold
    assert json.loads((marks / "sheet-003.json").read_text())["rows"][1] == {"crossed": [2, 3, 4, 5, 6, 12],
                                                                           "lock": True}
    data = json.loads(re.search(r'id="sheetgen-data">(.*?)</script>', review.read_text()).group(1))
    [check] = data["review"]["check"]
    assert [(b["kind"], b["row"], b["index"], b["crossed"]) for b in check["boxes"]] == [("cell", 1, 10, True)]
    assert data["review"]["players"][2]["rows"][1]["crossed"] == [2, 3, 4, 5, 6, 12]  # the page and the marks agree


@pytest.mark.slow
def test_the_review_page_opens_on_the_sheets_read_and_says_which_to_check(chromium, tmp_path):
    from counter_page import counter_opener, tabs

    empty = {"crossed": [], "lock": False}
    review = {"players": [{"player": "sheet 1", "rows": [empty] * 4, "penalties": 1},
                          {"player": "sheet 2", "rows": [{"crossed": [2, 3, 5], "lock": False}] + [empty] * 3,
                           "penalties": 0}],
              "check": [{"player": "sheet 2", "problem": "check this sheet: doubtful cell 1.4, penalty 2",
                         "boxes": [{"kind": "cell", "row": 0, "index": 3}, {"kind": "penalty", "row": 1, "index": 0}]}]}
    # Red 2 3 4 and, in doubt, red 11 and 12: red 12 needs five crosses before it, so it is not crossed.
    review["players"].append({"player": "sheet 3", "rows": [{"crossed": [2, 3, 4], "lock": False}] + [empty] * 3,
                              "penalties": 0})
    review["check"].append({"player": "sheet 3", "problem": "check this sheet: doubtful cell 1.10, cell 1.11",
                            "boxes": [{"kind": "cell", "row": 0, "index": 9}, {"kind": "cell", "row": 0, "index": 10}]})
    # A lock read crossed without its row's last cell, which the page's sheet cannot show: it is in question.
    review["players"].append({"player": "sheet 4", "rows": [{"crossed": [], "lock": True}] + [empty] * 3, "penalties": 0})
    review["check"].append({"player": "sheet 4", "problem": "check this sheet: a lock without its row's last cell",
                            "boxes": []})
    driver = counter_opener(chromium, tmp_path)("classic", review=review)
    assert tabs(driver)[:3] == [("sheet 1", "\u22125"), ("sheet 2", "6"), ("sheet 3", "6")]  # 1 + 2 + 3 for 3 crosses
    assert _review_lines(driver) == ["sheet 2: check the 2 highlighted boxes", "sheet 3: check the 2 highlighted boxes",
                                     "sheet 4: check the highlighted box"]
    assert _doubtful(driver) == ["Red 5", "Penalty box 2"]  # opened on the first sheet to check
    legal = [item.text for item in driver.find_elements("css selector", "#review .legal li")]
    assert legal == ["Red 11 not crossed, Red 12 not crossed", "Red 11 crossed, Red 12 not crossed",
                     "Red 12 not crossed"]  # sheet 4: a lock is its row's last cell, red 12, which needs 5 crosses
    driver.find_elements("css selector", "#review > ul > li > button")[2].click()  # a line opens its sheet
    assert _doubtful(driver) == ["Red lock"]


def _review_lines(driver):
    return [item.text for item in driver.find_elements("css selector", "#review > ul > li > button")]


def _doubtful(driver):
    """The labels (to the first comma) of the boxes highlighted on the shown sheet, each with its "?"."""
    boxes = driver.find_elements("css selector", "#sheet .doubt")
    assert all(box.find_element("css selector", ".q").text == "?" for box in boxes)
    assert all(box.get_attribute("aria-label").endswith(", to check") for box in boxes)
    return [box.get_attribute("aria-label").split(",")[0] for box in boxes]


@pytest.mark.slow
def test_a_doubtful_box_is_highlighted_on_the_review_page_and_a_tap_corrects_it(chromium, tmp_path, page):
    from counter_page import button, exported, tabs

    job, clean = page
    image = clean.copy()
    _faint_cross(image, job, 2, 1, 4)  # sheet 3: a faint pencil cross on yellow 6, read as doubtful
    picture = tmp_path / "page.png"
    picture.write_bytes(cv2.imencode(".png", image)[1].tobytes())
    review = tmp_path / "review.html"
    assert _invoke(["scan", str(picture), "--grid", "classic", "--review", str(review), "-q"]).exit_code == 1
    chromium.set_window_size(390, 844)
    chromium.get(review.as_uri())
    chromium.execute_script("localStorage.clear(); location.reload();")
    assert _review_lines(chromium) == ["Sheet 3: check the highlighted box"]
    assert [name for name, _ in tabs(chromium)] == [f"Sheet {n}" for n in range(1, 9)]
    assert _doubtful(chromium) == ["Yellow 6"]
    button(chromium, "Yellow 6").click()  # the player did cross it
    assert _doubtful(chromium) == []
    assert _review_lines(chromium) == ["Sheet 3: checked"]
    assert tabs(chromium)[2] == ("Sheet 3", "1")
    chromium.refresh()  # the correction is kept in the browser
    assert _review_lines(chromium) == ["Sheet 3: checked"] and tabs(chromium)[2] == ("Sheet 3", "1")
    marks = exported(chromium)
    assert marks["players"][2]["rows"][1]["crossed"] == [6] and "log" not in marks
    result = _invoke(["score", "classic", marks["_path"], "--json"])
    assert result.exit_code == 0, result.output
    scored = json.loads(result.output)
    assert [sheet["total"] for sheet in scored["sheets"]] == [0, 0, 1, 0, 0, 0, 0, 0]


def _sheet(*changed):
    """A classic sheet's reading, every box read surely empty but ``changed``: (kind, row, index, crossed,
    confidence) each, a confidence under 0.7 doubtful."""
    from sheetgen.scan.read import BoxReading, SheetReading, plan_boxes

    plan, _ = layout_job(Job(load_grid("classic")))
    given = {(kind, row, index): (crossed, confidence) for kind, row, index, crossed, confidence in changed}
    boxes = tuple(BoxReading(kind, row, index, *given.get((kind, row, index), (False, 1.0)), "cross")
                  for kind, row, index, _ in plan_boxes(plan))
    assert set(given) <= {(b.kind, b.row, b.index) for b in boxes}
    return check(SheetReading(Identity("classic", "en", "standard"), boxes, "page.png: sheet 1"),
                 load_grid("classic"), plan)


def _red(*numbers, confidence=1.0):
    return [("cell", 0, number - 2, True, confidence) for number in numbers]


def test_a_sheet_to_check_lists_the_one_reading_of_its_doubtful_boxes_the_rules_allow():
    from sheetgen.scan.sheets import readings_data, readings_lines

    # Red 2, 3, 4 and 5 crossed and the red lock crossed, surely; red 11 and red 12 (the row's last
    # cell) in doubt, read not crossed.  The lock needs red 12, and red 12 five crosses before it: only
    # red 11 and 12 both crossed is legal, 6 crosses and the lock, 7 crosses: 1+2+...+7 = 28 points.
    checked = _sheet(*_red(2, 3, 4, 5), ("lock", 0, 0, True, 1.0),
                     ("cell", 0, 9, False, 0.5), ("cell", 0, 10, False, 0.5))
    assert checked.score is None and checked.problem == "check this sheet: doubtful cell 1.10, cell 1.11"
    assert checked.tried == 4
    assert [(reading_on(r), r.total) for r in checked.legal] == [((True, True), 28)]
    grid = load_grid("classic")
    assert readings_lines(checked, grid) == ["legal: Red 11 crossed, Red 12 crossed (total 28)"]
    assert readings_data(checked, grid) == {
        "readings": [{"boxes": {"cell 1.10": True, "cell 1.11": True}, "total": 28,
                      "text": "Red 11 crossed, Red 12 crossed"}], "readings_tried": 4}
    # that one reading is the guess the marks hold (the boxes stay doubtful, the sheet to check)
    assert checked.marks.rows[0].crossed == (2, 3, 4, 5, 11, 12)
    assert [(b.ident, b.crossed, b.confidence) for b in checked.reading.doubtful] == [("cell 1.10", True, 0.5),
                                                                                      ("cell 1.11", True, 0.5)]


def test_the_rules_cross_a_doubtful_box_every_legal_reading_crosses_and_never_empty_one():
    # Red 2, 3, 4, 5, 6 and the red lock crossed surely; red 12 in doubt, read not crossed, and green 4
    # in doubt too.  The lock needs red 12: both legal readings cross it (green 4 either way), so red 12
    # is guessed crossed; green 4 stays as read.  Both stay doubtful.
    checked = _sheet(*_red(2, 3, 4, 5, 6), ("lock", 0, 0, True, 1.0), ("cell", 0, 10, False, 0.5),
                     ("cell", 2, 8, False, 0.5))
    assert [reading_on(r) for r in checked.legal] == [(True, False), (True, True)]
    assert checked.marks.rows[0].crossed == (2, 3, 4, 5, 6, 12) and checked.marks.rows[2].crossed == ()
    assert len(checked.reading.doubtful) == 2 and checked.score is None
    # Red 2 and 3 crossed; the red lock a doubtful cross (its ink seen), red 12 surely empty: the one legal
    # reading has the lock empty, but a player may have crossed it by mistake (the corpus's sheets the rules
    # forbid): the guess stays as read, and the sheet is to check.
    checked = _sheet(*_red(2, 3), ("lock", 0, 0, True, 0.5))
    assert [reading_on(r) for r in checked.legal] == [(False,)]
    assert checked.marks.rows[0].lock and checked.score is None


def reading_on(reading):
    return tuple(on for _, on in reading.crossed)


def test_the_legal_readings_are_listed_as_the_review_page_lists_them():
    from sheetgen.scan.sheets import readings_lines

    # The review page's example: red 2, 3 and 4 crossed, red 11 and 12 in doubt, the lock not crossed.
    # Red 12 needs five crosses before it (and the lock with it): 3 crosses, 6 points, or with red 11
    # 4 crosses, 10 points.
    checked = _sheet(*_red(2, 3, 4), ("cell", 0, 9, True, 0.6), ("cell", 0, 10, False, 0.6))
    assert readings_lines(checked, load_grid("classic")) == [
        "legal: Red 11 not crossed, Red 12 not crossed (total 6)",
        "legal: Red 11 crossed, Red 12 not crossed (total 10)"]


def test_a_doubtful_lock_goes_with_its_rows_doubtful_last_cell():
    from sheetgen.scan.sheets import readings_lines

    # Red 2 and 3 crossed; red 12 and the red lock both in doubt.  They are crossed together or not at
    # all (2 readings, not 4), and red 12 needs five crosses before it: only neither, 2 crosses, 3 points.
    checked = _sheet(*_red(2, 3), ("cell", 0, 10, True, 0.5), ("lock", 0, 0, True, 0.5))
    assert checked.tried == 2
    assert readings_lines(checked, load_grid("classic")) == [
        "legal: Red 12 not crossed, Red lock not crossed (total 3)"]


def test_no_legal_reading_every_reading_legal_and_too_many_are_said_so():
    from sheetgen.scan.sheets import readings_data, readings_lines

    grid = load_grid("classic")
    # The red lock crossed surely without red 12: no reading of penalty box 1 helps.
    none = _sheet(("lock", 0, 0, True, 1.0), ("penalty", 0, 0, True, 0.5))
    assert readings_lines(none, grid) == ["no reading of the doubtful box is legal"]
    assert readings_data(none, grid) == {"readings": [], "readings_tried": 2}
    # Yellow 6 in doubt on an empty sheet: 0 points, or 1.
    every = _sheet(("cell", 1, 4, False, 0.5))
    assert readings_lines(every, grid) == ["every reading of the doubtful box is legal (2, totals 0 to 1)"]
    assert [r.total for r in every.legal] == [0, 1]
    seven = _sheet(*[("cell", 2, index, False, 0.5) for index in range(7)])
    assert seven.legal is None and readings_data(seven, grid) == {"readings": None, "readings_tried": 0}
    assert readings_lines(seven, grid) == ["too many doubtful boxes (7) to list the legal readings (at most 6)"]
    assert readings_lines(_sheet(("lock", 0, 0, True, 1.0)), grid) == []  # refused by the rules, no doubt
    # Two penalties (-10) and red 2 crossed, red 3 in doubt: 1 - 10 = -9, or 3 - 10 = -7, with true minus signs
    # as `sheetgen score` prints them.
    minus = _sheet(*_red(2), ("penalty", 0, 0, True, 1.0), ("penalty", 1, 0, True, 1.0), ("cell", 0, 1, False, 0.5))
    assert readings_lines(minus, grid) == ["every reading of the doubtful box is legal (2, totals \u22129 to \u22127)"]


def test_box_names_are_the_counter_pages():
    from sheetgen.scan.read import BoxReading
    from sheetgen.scan.sheets import box_name

    def name(kind, row, index, grid):
        return box_name(BoxReading(kind, row, index, True, 0.5, "dot"), load_grid(grid))

    assert [name("cell", 2, 0, "classic"), name("lock", 3, 0, "classic"), name("penalty", 1, 0, "classic"),
            name("bis", 0, 2, "bis"), name("bar", 2, 0, "bonus")] == [
        "Green 12", "Blue lock", "Penalty box 2", "Small box under Red 4", "Bonus box 3"]
    blocks = load_grid("blocks")
    row = next(r for r, facts in enumerate(blocks.rows) if len(facts.colours) > 1)
    cell = blocks.rows[row].cells[0]
    assert name("cell", row, 0, "blocks") == f"Row {row + 1}: {cell.colour.value} {cell.number}"
    assert name("lock", row, 0, "blocks") == f"Row {row + 1} lock"


@pytest.mark.slow  # a page rendered, rasterised and read: out of the quick tier
def test_scan_reports_the_legal_readings_on_standard_error_and_in_json(tmp_path, page):
    job, clean = page
    image = clean.copy()
    _faint_cross(image, job, 2, 1, 4)  # sheet 3: yellow 6, a faint pencil cross, doubtful
    picture = tmp_path / "page.png"
    picture.write_bytes(cv2.imencode(".png", image)[1].tobytes())
    result = _invoke(["scan", str(picture), "--grid", "classic", "--json"])
    assert result.exit_code == 1
    where = f"{picture}: sheet 3"
    assert result.stderr.splitlines() == [
        f"sheetgen: {where}: check this sheet: doubtful cell 2.5",
        f"sheetgen: {where}: every reading of the doubtful box is legal (2, totals 0 to 1)"]
    [refused] = json.loads(result.stdout)["refused"]
    assert refused["doubtful"] == ["cell 2.5"] and refused["readings_tried"] == 2
    assert refused["readings"] == [
        {"boxes": {"cell 2.5": False}, "total": 0, "text": "Yellow 6 not crossed"},
        {"boxes": {"cell 2.5": True}, "total": 1, "text": "Yellow 6 crossed"}]


def _sheet_crop(job, clean, slot):
    """Sheet ``slot`` of a rendered page cut out with a margin: a picture of that sheet alone."""
    plan, _ = layout_job(job)
    at = impose(job.paper, plan.width, plan.height).slots[slot]
    x0, y0 = max(round((at.x - 3) * PX), 0), max(round((at.y - 3) * PX), 0)
    x1, y1 = round((at.x + plan.width + 3) * PX), round((at.y + plan.height + 3) * PX)
    return clean[y0:y1, x0:x1], (x0, y0)


@pytest.fixture(scope="module")
def themed_pages():
    pages = {}
    for theme in ("colour", "mono", "ink-saver"):
        job = Job(load_grid("classic"), theme=theme)
        png = rasterise_png(render_job(job), Box(0, 0, 210, 297), DPI)
        pages[theme] = job, cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    return pages


def _faint_reading(job, clean, row, index, grey):
    """How a 3 px pencil X of ``grey`` in one cell of sheet 1 is read: "cross", "doubtful" or "empty"."""
    crop, (ox, oy) = _sheet_crop(job, clean, 0)
    mark = np.full_like(crop, 255)
    (x0, y0), (x1, y1) = ((x - ox, y - oy) for x, y in _cell_px(job, 0, row, index))
    cv2.line(mark, (x0 + 8, y0 + 8), (x1 - 8, y1 - 8), grey, 3)
    cv2.line(mark, (x1 - 8, y0 + 8), (x0 + 8, y1 - 8), grey, 3)
    image = np.minimum(crop, mark)  # graphite darkens the page, never lightens a printed line
    [(reading, _)] = _read(image)
    [box] = [b for b in reading.boxes if b.kind == "cell" and (b.row, b.index) == (row, index)]
    assert [b for b in reading.doubtful if b is not box] == []  # nothing else on the sheet is in doubt
    if box.confidence < 0.7:
        return "doubtful"
    return "cross" if box.crossed else "empty"


@pytest.mark.slow
@pytest.mark.parametrize("theme, row, index", [("colour", 1, 4), ("colour", 3, 0), ("mono", 0, 3),
                                               ("mono", 2, 6), ("ink-saver", 1, 8)])
def test_a_faint_cross_goes_doubtful_before_it_is_a_sure_empty(themed_pages, theme, row, index):
    """A pencil X lightened a grey level at a time, from darker than the cell to the cell's own grey:
    read crossed, then doubtful, then empty (nothing drawn at the cell's own grey), never straight from crossed to a sure empty."""
    job, clean = themed_pages[theme]
    (x0, y0), (x1, y1) = _cell_px(job, 0, row, index)
    paper = int(np.percentile(clean[y0 + 3:y1 - 3, x0 + 3:x1 - 3], 95))  # a tint, or a hatching's gaps
    greys = list(range(100, paper - 60, 15)) + list(range(paper - 60, paper + 1, 3))  # sure ink to nothing
    seen = [_faint_reading(job, clean, row, index, grey) for grey in greys]
    assert seen[0] == "cross" and seen[-1] == "empty", list(zip(greys, seen))
    order = {"cross": 0, "doubtful": 1, "empty": 2}
    assert all(order[a] <= order[b] for a, b in zip(seen, seen[1:])), list(zip(greys, seen))
    assert "doubtful" in seen, list(zip(greys, seen))
