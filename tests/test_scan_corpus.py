"""sheetgen scan on the synthetic corpus (scripts/scan_pictures.py): a small fixed set made at test time.

The property tested on every picture is the issue's "no silent wrong total": a sheet the reader
reports certain (no doubtful box, the rules accept it) is read exactly.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

pytest.importorskip("cv2")

from sheetgen.grid.load import load_grid  # noqa: E402

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
CORPUS = runpy.run_path(str(SCRIPTS / "scan_corpus.py"))
PICTURES = CORPUS["PICTURES"]


def _measured(**kwargs):
    made = PICTURES["picture"](kwargs.pop("seed", 7), **kwargs)
    return made, CORPUS["measure"](made)


@pytest.mark.slow
def test_a_clean_300_dpi_sheet_of_crosses_is_found_and_never_certain_and_wrong():
    made, result = _measured(grid=load_grid("classic"), theme="colour", kinds=(), dpi=300, mark="x")
    assert result["found"] and result["sheets"] == 1
    assert made.truth.crossed, "the picture has crosses to read"
    assert not result["certain"] or not result["wrong"]
    assert len(result["wrong"]) <= 2


def test_the_truth_is_the_marks_file_the_sheet_was_filled_from():
    made = PICTURES["picture"](3, grid=load_grid("classic"), kinds=(), dpi=150)
    from sheetgen.runs.jobs import Job, layout_job

    plan, _ = layout_job(Job(load_grid("classic")))
    crossed = sum(len(row["crossed"]) + row["lock"] for row in made.marks["rows"]) + made.marks["penalties"]
    assert len(made.truth.crossed) == crossed == len(PICTURES["boxes_of"](made.marks, plan))
    assert not made.truth.struck & made.truth.crossed


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["perspective", "rotation", "blur", "noise", "jpeg", "light", "shadow", "curl",
                                  "moire", "cut"])
def test_each_degradation_is_read_or_reported_doubtful(kind):
    made, result = _measured(grid=load_grid("classic"), theme="colour", kinds=(kind,), dpi=200)
    assert result["found"], result.get("error")
    assert not result["certain"] or not result["wrong"], result["wrong"]


@pytest.mark.slow
@pytest.mark.parametrize("mark", ["x", "fill", "pencil"])
def test_each_mark_kind_is_read_or_reported_doubtful(mark):
    made, result = _measured(grid=load_grid("classic"), theme="colour", kinds=(), dpi=250, mark=mark)
    assert result["found"]
    assert not result["certain"] or not result["wrong"], result["wrong"]


def test_pencil_only_darkens_the_page_as_graphite_does():
    """Pencil over a mono sheet's hatching never comes out lighter than the hatching it crosses."""
    import random


    grid = load_grid("classic")
    clean, plan = PICTURES["_clean"](grid, "mono", 150)
    marks = PICTURES["legal_marks"](grid, 5)
    image = clean.copy()
    px = 150 * PICTURES["SUPER"] / 25.4
    PICTURES["fill"](image, plan, marks, random.Random(5), px, 6.0, "pencil")
    changed = image != clean
    assert changed.sum() > 1000, "the pencil drew"
    assert (image <= clean).all(), "pencil lightened the page somewhere"
    pen = clean.copy()
    PICTURES["fill"](pen, plan, marks, random.Random(5), px, 6.0, "x")
    assert (pen > clean).any(), "pen covers the page, lighter than the hatching it crosses where it is"


@pytest.mark.slow
def test_a_pencil_x_that_a_mono_sheets_hatching_cuts_into_pieces_is_read_as_a_cross():
    """A pencil X over a mono sheet's hatching and number shows only between them: at the ink threshold
    its pieces look like one stroke or a dot (read doubtful); read again at the sheet's own light
    threshold they are plainly an X."""
    made, result = _measured(theme="mono", kinds=("curl", "jpeg", "moire"), dpi=200, mark="pencil")
    assert made.grid.name == "doubles" and result["found"]
    doubtful = {ident for ident, *_ in result["listed"]}
    # before: five crosses read doubtful; since issue 21's layout (numbers centred, wider double cells) this
    # picture is read exactly, and the sheet certain: never certain and wrong
    assert len(result["wrong"]) <= 1 and (not result["certain"] or not result["wrong"]), result["wrong"]
    assert not doubtful & {"cell 4.4", "cell 4.7", "cell 4.8", "cell 4.9"}, doubtful
    assert len(doubtful) <= 2, doubtful


@pytest.mark.slow
def test_a_wide_pen_strike_over_a_low_boxs_number_is_not_read_as_a_cross():
    """Picture 2 of seed 2: a Bis sheet, curled, its skipped cells struck with a wide pen.  Through a low
    box a strike spills out of the narrow band an X is measured in, and the edges of the number it
    crosses, a pixel out, lie across it: both read as a short second stroke (three strikes were read as
    doubtful crosses)."""
    made = PICTURES["picture"](200_002)
    result = CORPUS["measure"](made)
    assert made.grid.name == "bis" and made.truth.struck
    assert result["struck_read"] == 0
    assert not result["certain"] or not result["wrong"]


@pytest.mark.slow
@pytest.mark.parametrize("seed, boxes, doubtful", [(400_062, {"cell 2.8"}, set()),
                                                   (500_022, {"cell 4.1"}, {"cell 3.1"}),
                                                   (600_053, {"cell 2.4", "cell 3.8"}, set())])
def test_a_wide_strike_through_a_bis_cell_is_never_a_sure_cross(seed, boxes, doubtful):
    """Seed 4 picture 62, seed 5 picture 22, seed 6 picture 53: Bis sheets whose skipped cells (6.2 x 3.6 mm)
    are struck with a wide pen.  The number hides the strike's middle and leaves its two ends, which in the
    cell's inner part read as an X's short second stroke (a sure cross, 1.00), or the strike fills half of
    the inner part (a sure fill, 0.80).  Seen over nearly all of the cell, each is one long stroke (``boxes``:
    not crossed), or at least not a sure cross (``doubtful``: picture 22 is an ink-saver sheet, whose light
    numbers leave the whole-cell look of cell 3.1 unsure, so it stays doubtful, guessed crossed)."""
    made = PICTURES["picture"](seed)
    result = CORPUS["measure"](made, features=True)
    struck = {("cell", int(b[5]) - 1, int(b[7:]) - 1) for b in boxes | doubtful}
    assert made.grid.name == "bis" and struck <= made.truth.struck
    read = {ident: (crossed, sure) for ident, _, crossed, sure, *_ in result["every"]}
    assert all(not read[box][0] for box in boxes), {box: read[box] for box in boxes}
    assert all(read[box][1] < 0.7 for box in doubtful), {box: read[box] for box in doubtful}
    assert result["struck_read"] <= len(doubtful)  # a doubtful strike guessed crossed is counted
    assert all(sure < 0.7 for ident, drawn, crossed, sure, *_ in result["every"] if (drawn == "crossed") != crossed)
