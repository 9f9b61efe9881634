"""The sheet a code (or the command line) names: its grid, plan and drawing, as printing made them."""

from __future__ import annotations

from functools import lru_cache

from ..errors import InputError
from ..grid.load import builtin_names, load_grid
from ..grid.model import Grid
from ..pdf.geometry import Drawing
from ..sheet.draw import draw_sheet
from ..sheet.machine import PLAN_VERSION, Identity, fiducial_items, grid_key
from ..sheet.plan import SIZES, SheetPlan, plan_sheet
from ..sheet.style import languages, load_labels, load_theme, themes
from .read import Layout


def layouts(custom: Grid | None, where: str) -> Layout:
    """A function from an identity to (grid, plan, drawing); ``custom`` is the --grid file's grid, if given."""

    def layout(identity: Identity) -> tuple[Grid, SheetPlan, Drawing]:
        if identity.version != PLAN_VERSION:
            raise InputError(where, "", f"the sheet was printed with plan version {identity.version}; this sheetgen"
                                        f" reads version {PLAN_VERSION}")
        grid = _grid(identity.grid, custom, where)
        if identity.lang not in languages() or identity.size not in SIZES or identity.theme not in themes():
            raise InputError(where, "", f"the sheet's code names a language, size or theme this sheetgen does not"
                                        f" know ({identity.lang}, {identity.size}, {identity.theme})")
        plan, drawing = _layout(grid, identity.lang, identity.size, identity.theme, identity.strip)
        return grid, plan, drawing

    return layout


def key_of(grid: Grid) -> str:
    """How a sheet's code names ``grid``: as printing names it (``runs/jobs.py``)."""
    return grid_key(grid, load_grid(grid.name) if grid.name in builtin_names() else None)


def _grid(key: str, custom: Grid | None, where: str) -> Grid:
    if custom is not None:
        own = key_of(custom)
        if own == key:
            return custom
        sheet = f"has hash {key[1:]}" if key.startswith("#") else f"is the built-in grid {key!r}"
        this = f"hash {own[1:]}" if own.startswith("#") else f"the built-in grid {own!r}"
        raise InputError(custom.source or "--grid", "", f"not the grid the sheet was printed from ({where}: the"
                                                        f" sheet's grid {sheet}, this file is {this})")
    if key.startswith("#"):
        raise InputError(where, "", "the sheet is of a custom grid: give its file with --grid")
    if key not in builtin_names():
        raise InputError(where, "", f"the sheet names grid {key!r}, which this sheetgen does not have")
    return load_grid(key)


@lru_cache(maxsize=16)
def _layout(grid: Grid, lang: str, size: str, theme_name: str, strip: bool) -> tuple[SheetPlan, Drawing]:
    from ..pdf.render import measure_text

    theme = load_theme(theme_name)
    plan = plan_sheet(grid, load_labels(lang), theme, measure_text, SIZES[size], header=strip, serial=strip)
    drawing = draw_sheet(plan, theme)
    assert plan.machine is not None, "a plan made with machine=True has its marks"
    return plan, Drawing(drawing.width, drawing.height, drawing.items + fiducial_items(plan.machine))
