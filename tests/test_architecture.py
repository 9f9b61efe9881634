"""The shape of the package: imports flow one way between its folders, and
each outside library is imported by one boundary module only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "sheetgen"
# Top to bottom: a layer may import the layers below it, never one above.
# play and sheet serve the table and the paper; play may use sheet (a rules
# card shows a sheet), sheet never needs the game.  Under the folders, the
# modules every layer uses: checks (a value read from a file and its place in
# it), errors (the exception family), words (plurals, lists of choices, text
# from input escaped), and records (the frozen data classes' shared methods).
# process (the streams, signals and end of a run) and topics (the manual)
# serve the command line alone.
LAYERS = ["cli", "topics", "process", "runs", "scan", "play", "sheet", "pdf", "grid", "checks", "errors", "words", "records"]
BOUNDARIES = {
    "reportlab": {"pdf/render.py"},
    "pypdfium2": {"pdf/raster.py"},
    "yaml": {"grid/yamlio.py"},
    "click": {"cli.py"},
    "cv2": {"scan/vision.py"},
    "numpy": {"scan/vision.py"},
}


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py"))


def layer(relative: str) -> str:
    """The layer of a module path inside the package (``play/scoring.py`` -> play)."""
    head = relative.split("/")[0].removesuffix(".py")
    return head if head in LAYERS else "top"


def imported(path: Path) -> list[tuple[str, int]]:
    """(what is imported, as a path inside the package or an outside module, line)."""
    found = []
    here = path.relative_to(PACKAGE).parent.parts
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(here[: len(here) - node.level + 1])
                parts = base + (node.module.split(".") if node.module else [])
                found.append(("/".join(parts) or ".", node.lineno))
            elif node.module:
                found.append((node.module, node.lineno))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
    return found


def test_the_layer_list_names_every_folder():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders - {"data", "gridfiles"} <= set(LAYERS)


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_imports_flow_down_the_layers(path):
    own = layer(path.relative_to(PACKAGE).as_posix())
    if own == "top":
        return
    for target, line in imported(path):
        if "." in target and not target.startswith("sheetgen") and "/" not in target:
            continue  # an outside module (os.path, reportlab.lib...)
        inside = target.removeprefix("sheetgen").lstrip("./").replace(".", "/")
        other = layer(inside) if inside else "top"
        if other in LAYERS and other != own:
            assert LAYERS.index(other) > LAYERS.index(own), f"{path.name}:{line} imports {target} ({own} -> {other})"


@pytest.mark.parametrize("library", sorted(BOUNDARIES))
def test_each_library_has_one_boundary_module(library):
    users = {
        path.relative_to(PACKAGE).as_posix()
        for path in modules()
        for target, _ in imported(path)
        if target == library or target.startswith(library + ".")
    }
    assert users == BOUNDARIES[library]
