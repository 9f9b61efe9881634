"""Lucky numbers: distinct per sheet, in range, different across a page, seeded."""

from __future__ import annotations

import itertools

import pypdfium2 as pdfium
import pytest

from sheetgen.grid.load import load_grid
from sheetgen.grid.model import Lucky
from sheetgen.pdf.impose import impose
from sheetgen.play.lucky import deal_lucky, first_sets
from sheetgen.runs.jobs import Job, render_job, sheet_data
from sheetgen.sheet.plan import plan_sheet

LONGO = Lucky(count=2, low=2, high=16)


def test_every_sheet_gets_distinct_numbers_in_range():
    for numbers in itertools.islice(deal_lucky(LONGO, seed=1), 500):
        assert len(numbers) == 2 and len(set(numbers)) == 2
        assert all(2 <= n <= 16 for n in numbers)
        assert list(numbers) == sorted(numbers)


def test_no_pair_repeats_until_every_pair_is_dealt():
    pairs = list(itertools.islice(deal_lucky(LONGO, seed=5), 105))  # C(15, 2) = 105 pairs
    assert len(set(pairs)) == 105


@pytest.mark.parametrize("seed", range(20))
def test_sheets_of_a_page_never_share_a_pair_even_across_decks(seed):
    pairs = list(itertools.islice(deal_lucky(LONGO, seed=seed), 105 * 3))
    for start in range(0, len(pairs) - 8):  # any 8 consecutive sheets, seams between decks included
        window = pairs[start : start + 8]
        assert len(set(window)) == 8


def test_the_seed_decides_the_deal():
    first = list(itertools.islice(deal_lucky(LONGO, seed=1), 16))
    assert first == list(itertools.islice(deal_lucky(LONGO, seed=1), 16))
    assert first != list(itertools.islice(deal_lucky(LONGO, seed=2), 16))


def test_a_games_seats_get_the_first_sets_of_the_deal():
    # first_sets deals a game's seats without the stream: the same sets, also for more
    # seats than a small range has sets (then the stream's second deck and its page rule).
    tiny = Lucky(count=2, low=2, high=4)  # 3 sets
    for lucky in (LONGO, tiny):
        for seed in range(40):
            for count in (1, 4, 8):
                assert first_sets(lucky, seed, count) == list(itertools.islice(deal_lucky(lucky, seed), count))
    assert first_sets(None, 3, 2) == [(), ()]


def test_grids_without_lucky_numbers_get_none():
    data = list(sheet_data(Job(load_grid("classic"), sheets=3)))
    assert [d.lucky for d in data] == [(), (), ()]


def test_printed_lucky_numbers_are_the_dealt_ones(english, colour_theme, measure):
    grid = load_grid("longo")
    job = Job(grid, sheets=8, seed=3)
    page = pdfium.PdfDocument(render_job(job))[0].get_textpage()
    sheet = plan_sheet(grid, english, colour_theme, measure)
    plan = impose("a4", sheet.width, sheet.height)
    mm = 72 / 25.4
    printed = []
    for slot in plan.slots:
        numbers = []
        for box in sheet.lucky_boxes:
            left, top = slot.x + box.x, slot.y + box.y
            numbers.append(int(page.get_text_bounded(
                left=left * mm, right=(left + box.w) * mm,
                bottom=(plan.height - top - box.h) * mm, top=(plan.height - top) * mm).strip()))
        printed.append(tuple(numbers))
    assert printed == [d.lucky for d in sheet_data(job)]
