"""Checks every sheet must pass, shared by the plan's tests: what a plan
places (``planned_boxes``), and (``check_pdf``) what a rendered PDF shows when
it is read back."""

from __future__ import annotations

from collections.abc import Iterator

from sheetgen.pdf.geometry import Box
from sheetgen.sheet.boxes import SheetPlan


def planned_boxes(plan: SheetPlan) -> Iterator[tuple[str, Box]]:
    """Every box the plan prints something in, named."""
    yield "title", plan.title.box  # type: ignore[misc]
    yield "name", plan.name_label.box  # type: ignore[misc]
    yield "name line", plan.name_line
    for text in plan.texts():
        if text.box is not None:
            yield f"text {text.text!r}", text.box
    for i, box in enumerate(plan.lucky_boxes):
        yield f"lucky {i}", box
    for name, box in (("header", plan.header_box), ("serial", plan.serial_box)):
        if box is not None:
            yield name, box
    for cell in plan.cells:
        yield f"cell {cell.row},{cell.index}", cell.box
        if cell.bis_box is not None:
            yield f"bis {cell.row},{cell.index}", cell.bis_box
    for arrow in plan.arrows:
        yield f"arrow {arrow.row}", arrow.box
    for lock in plan.locks:
        yield f"lock {lock.row}", lock.box
    for i, entry in enumerate(plan.key + plan.legend):
        if entry.marker_box is not None:
            yield f"marker {i}", entry.marker_box
    for bar in plan.bar:
        yield f"bar {bar.index}", bar.box
    for column in plan.table:
        yield f"table {column.crosses}", column.box
    for penalty in plan.penalties:
        yield f"penalty {penalty.index}", penalty.box
    for total in plan.totals:
        yield f"total {total.kind} {total.row}", total.box


def near(box: Box, other: Box, clear: float) -> bool:
    """Whether ``other`` comes within ``clear`` mm of ``box``."""
    return box.inset(-clear).overlaps(other)
