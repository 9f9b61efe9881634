"""The sheet a code (or the command line) names: its grid, plan and drawing, as printing made them."""

from __future__ import annotations

from functools import lru_cache

from ..errors import InputError
from ..grid.load import builtin_names, load_grid
from ..grid.model import Grid
from ..pdf.geometry import Drawing
from ..sheet.draw import draw_sheet
from ..sheet.machine import PLAN_VERSION, Identity, content_hash, fiducial_items, machine_room
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


def _grid(key: str, custom: Grid | None, where: str) -> Grid:
    if key.startswith("#"):
        if custom is None:
            raise InputError(where, "", "the sheet is of a custom grid: give its file with --grid")
        if content_hash(custom) != key[1:]:
            raise InputError(custom.source or "--grid", "", f"not the grid the sheet was printed from (the sheet's"
                                                            f" grid has hash {key[1:]}, this file"
                                                            f" {content_hash(custom)})")
        return custom
    if custom is not None and custom.name == key:
        return custom
    if key not in builtin_names():
        raise InputError(where, "", f"the sheet names grid {key!r}, which this sheetgen does not have")
    return load_grid(key)


@lru_cache(maxsize=16)
def _layout(grid: Grid, lang: str, size: str, theme_name: str, strip: bool) -> tuple[SheetPlan, Drawing]:
    from ..pdf.render import measure_text

    theme = load_theme(theme_name)
    plan = plan_sheet(grid, load_labels(lang), theme, measure_text, SIZES[size], header=strip, serial=strip)
    drawing = draw_sheet(plan, theme)
    return plan, Drawing(drawing.width, drawing.height, drawing.items + fiducial_items(machine_room(plan)))
