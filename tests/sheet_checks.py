"""Checks every sheet must pass, shared by the plan's tests: what a plan
places (``planned_boxes``), what a rendered PDF shows when it is read back
(``pdf_problems``), and what three PDF readers say of it (``reader_problems``)."""

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
    yield from pen_boxes(plan)
    for arrow in plan.arrows:
        yield f"arrow {arrow.row}", arrow.box
    for i, entry in enumerate(plan.key + plan.legend):
        if entry.marker_box is not None:
            yield f"marker {i}", entry.marker_box
    for column in plan.table:
        yield f"table {column.crosses}", column.box
    for total in plan.totals:
        yield f"total {total.kind} {total.row}", total.box


def near(box: Box, other: Box, clear: float) -> bool:
    """Whether ``other`` comes within ``clear`` mm of ``box``."""
    return box.inset(-clear).overlaps(other)


MM = 72 / 25.4  # PDF points in a mm
SIX_POINTS = 6.0
EDGE = 5.0  # nothing printed this close to the paper's edge, mm
NUMBER_CLEAR = 0.3  # a cell's number keeps this far inside its innermost frame, mm
CELLS_APART = 0.8  # any two boxes a pen crosses or writes in, mm
NUMBER_CENTRED = 0.2  # a number's ink centre from its cell's background's centre, vertically, mm
TOLERANCE = 1e-6


def pen_boxes(plan: SheetPlan) -> Iterator[tuple[str, Box]]:
    """Every box a player crosses or writes in that a pen stroke could stray from into
    another: cells, Bis boxes, locks, the bonus bar's boxes, penalty boxes."""
    for cell in plan.cells:
        yield f"cell {cell.row},{cell.index}", cell.box
        if cell.bis_box is not None:
            yield f"bis {cell.row},{cell.index}", cell.bis_box
    for lock in plan.locks:
        yield f"lock {lock.row}", lock.box
    for bar in plan.bar:
        yield f"bar {bar.index}", bar.box
    for penalty in plan.penalties:
        yield f"penalty {penalty.index}", penalty.box


def apart(box: Box, other: Box) -> float:
    """How far apart two boxes are, mm: the larger of their horizontal and vertical gaps (negative: they
    overlap), so that boxes a row apart count by their vertical gap however far apart across."""
    return max(other.x - box.right, box.x - other.right, other.y - box.bottom, box.y - other.bottom)


def plan_problems(plan: SheetPlan, measure) -> list[str]:
    """What breaks the rules every sheet keeps, read from its plan: each
    number's ink (its width, its cap height) >= 0.3 mm inside its innermost
    frame and its ink centred on the cell's background (within 0.2 mm
    vertically); every two boxes a pen crosses or writes in >= 0.8 mm apart
    in every direction (cells of a row and of the next, Bis boxes, locks,
    the bonus bar's boxes, penalty boxes), but for a cell and its own Bis box."""
    from sheetgen.sheet.plan import CAP

    found = []
    for cell in plan.cells:
        text = cell.text
        width = measure(text.text, text.bold, text.size, text.condensed)
        left = text.x - {"start": 0.0, "middle": width / 2, "end": width}[text.anchor]
        ink = Box(left, text.y - text.size * CAP, width, text.size * CAP)
        frame = cell.second.inset(cell.second_line) if cell.second is not None else cell.pale
        if not frame.inset(NUMBER_CLEAR - TOLERANCE).contains(ink):
            found.append(f"number {text.text} of cell {cell.row},{cell.index} within {NUMBER_CLEAR} mm of its frame")
        if abs(ink.cy - cell.pale.cy) > NUMBER_CENTRED + TOLERANCE:
            found.append(f"number {text.text} of cell {cell.row},{cell.index}: its ink's centre"
                         f" {ink.cy - cell.pale.cy:+.2f} mm from its cell's")
    boxes = list(pen_boxes(plan))
    for i, (name, box) in enumerate(boxes):
        for other_name, other in boxes[i + 1:]:
            if name.startswith("cell ") and other_name == "bis " + name[5:]:
                continue  # a Bis box belongs to the cell above it: the same number's second cross
            gap = apart(box, other)
            if gap < CELLS_APART - TOLERANCE:
                found.append(f"{name} and {other_name} {gap:.2f} mm apart")
    return found


def pdf_problems(pdf: bytes) -> list[str]:
    """What breaks the rules every printed page keeps, read back from the PDF:
    text of 6 pt or more, no horizontal scaling (no Tz), nothing printed
    within 5 mm of the paper's edge."""
    import re
    import zlib

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    found = []
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", pdf, re.DOTALL):
        try:
            content = zlib.decompress(stream)
        except zlib.error:
            continue
        if b" Tj" in content and re.search(rb"[\d.]+ Tz", content):
            found.append("text scaled horizontally (Tz)")
    document = pdfium.PdfDocument(pdf)
    for number in range(len(document)):
        page = document[number]
        text = page.get_textpage()
        sizes = [raw.FPDFText_GetFontSize(text.raw, i) for i in range(text.count_chars())
                 if not text.get_text_range(i, 1).isspace()]
        if sizes and min(sizes) < SIX_POINTS - 0.01:
            found.append(f"page {number + 1}: text of {min(sizes):.2f} pt")
        scale = 2.0  # pixels a point: 144 dpi
        image = page.render(scale=scale, grayscale=True).to_pil()
        edge = int(EDGE * MM * scale) - 1
        w, h = image.size
        for name, area in (("top", (0, 0, w, edge)), ("bottom", (0, h - edge, w, h)),
                           ("left", (0, 0, edge, h)), ("right", (w - edge, 0, w, h))):
            if image.crop(area).getextrema()[0] < 250:
                found.append(f"page {number + 1}: ink within {EDGE} mm of the {name} edge")
    return found


def reader_problems(pdf: bytes, folder) -> list[str]:
    """What qpdf (--check), poppler (pdftotext) and MuPDF (mutool draw) say
    against the PDF ``pdf``, every page read; ``folder`` is a scratch directory."""
    import subprocess

    path = folder / "check.pdf"
    path.write_bytes(pdf)
    found = []
    for command in (["qpdf", "--check", str(path)], ["pdftotext", str(path), "-"],
                    ["mutool", "draw", "-q", "-F", "stext", "-o", "/dev/null", str(path)]):
        done = subprocess.run(command, capture_output=True, text=True)
        lines = done.stderr.splitlines() + [line for line in done.stdout.splitlines()
                                            if command[0] == "qpdf" and "WARNING" in line]
        said = "\n".join(line for line in lines if line.strip() and "ICC support is not available" not in line)
        if done.returncode != 0 or said:
            found.append(f"{command[0]}: exit {done.returncode}: {said[:200]}")
    return found
