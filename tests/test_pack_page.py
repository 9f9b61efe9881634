"""The pack's page as a person meets it: on a phone the list of grids comes
first, before the advice on paper, size and look; inside the zip the page has
no button to download the zip it is in."""

from __future__ import annotations

import pytest

from sheetgen.grid.load import builtin_grids
from sheetgen.play.simulate import Typical
from sheetgen.runs.pack import ZIP, Pack, counter_path, index_html, pdf_path, preview_path, rules_path

PACK = Pack()


def page(zip_size: int | None, lang: str = "en") -> str:
    """The page of the whole pack in ``lang``, with made-up sizes (nothing is built)."""
    grids = builtin_grids()
    sizes = {path: 12_345 for grid in grids for lang in PACK.langs
             for path in [pdf_path(grid.name, lang, kind, paper) for kind in PACK.prints
                          for paper in PACK.papers_of(kind.size)]
             + [rules_path(grid.name, lang, paper) for paper in PACK.card_papers]
             + [counter_path(grid.name, lang), preview_path(grid.name, lang)]}
    typical = {grid.name: Typical(60, 30, 1000, 4, "careful") for grid in grids}
    return index_html(PACK, grids, lang, sizes, zip_size, typical)


def test_the_page_inside_the_zip_has_no_button_for_the_zip():
    assert f'href="{ZIP}"' in page(13_000_000) and "13\u00a0MB" in page(13_000_000)
    assert ZIP not in page(None)


@pytest.mark.slow
def test_on_a_phone_the_grids_come_first(chromium, tmp_path):
    from browser import open_page, run_json

    open_page(chromium, page(13_000_000), tmp_path / "index.html", width=390, height=844)
    where = run_json(chromium, """
        const top = (element) => element.getBoundingClientRect().top + window.scrollY;
        const games = document.querySelector('nav .games');
        const advice = document.querySelector('.help');
        return {games: top(games), advice: top(advice), first: top(games.querySelector('a')),
                screen: window.innerHeight};""")
    assert where["games"] < where["advice"], where
    assert where["first"] < where["screen"], f"the first grid is {where['first']} px down, below the first screen"
