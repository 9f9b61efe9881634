"""One run of `sheetgen score`: every sheet of every input, cheap checks first,
every bad sheet reported, the whole run bounded.

An input is a marks file (one sheet, or several under ``players``) or quick
counts (``counts.is_counts`` tells them apart).  The order of work puts what
costs least first, so that a bad input among thousands is reported at once:
the run's size (inputs, then bytes from the files' sizes), then the files
that cannot be read (a missing file, a folder, one too large: found by
``stat``), then the counts, then every other file in turn.  A bad sheet is
reported when found and the run goes on; the scores keep the inputs' order.
docs/limits.md gives the bounds and what they cost.
"""

from __future__ import annotations

import gc
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial

from ..errors import InputError, SheetgenError
from ..grid.model import Grid
from ..grid.yamlio import MAX_FILE_BYTES, source_name
from ..words import plural
from .counts import is_counts, missing_colon, score_counts
from .marks import read_marks, sheets_from_data
from .results import refusal_as_json, scores_as_json
from .scoring import Score, ScoreError, score_sheet

MAX_INPUTS = 10_000  # marks files and counts on one command line
MAX_SHEETS = 10_000  # sheets in one run, players of several-player files included
MAX_RUN_BYTES = 4 * 1024 * 1024  # of marks files in one run, from their sizes before any is read

Report = Callable[[InputError], None]  # told of each refusal as it is found


@dataclass
class Tally:
    scores: list[Score] = field(default_factory=list)  # in the inputs' order
    refused: list[dict] = field(default_factory=list)  # ``refusal_as_json``, in the order found


def repeated_input(inputs: Sequence[str]) -> tuple[int, int] | None:
    """The positions (from 0) of the first input given twice: the same file by
    any path, or `-` twice; None if there is none.  Counts may repeat (two
    players may type the same)."""
    seen: dict[object, int] = {}
    for index, spec in enumerate(inputs):
        if is_counts(spec):
            continue
        key = _identity(spec)
        if key in seen:
            return seen[key], index
        seen[key] = index
    return None


def _identity(spec: str) -> object:
    if spec == "-":
        return spec
    try:
        status = os.stat(spec)
    except (OSError, ValueError):
        return os.path.normpath(os.path.abspath(spec))
    return status.st_dev, status.st_ino


def tally(grid: Grid, inputs: Sequence[str], report: Report) -> Tally:
    """Score every sheet of ``inputs``; report each refusal as it is found.
    Raises ``SheetgenError`` if the run is larger than its bounds."""
    if len(inputs) > MAX_INPUTS:
        raise SheetgenError(f"{plural(len(inputs), 'input')} given; one run scores at most {MAX_INPUTS:,}")
    counts = [is_counts(spec) for spec in inputs]
    files = [index for index, is_count in enumerate(counts) if not is_count]
    unreadable, size = _sizes(inputs, files)
    if size > MAX_RUN_BYTES:
        raise SheetgenError(f"the marks files hold {size / 2**20:.1f} MiB in all; one run reads at most"
                            f" {MAX_RUN_BYTES // 2**20} MiB (score them in several runs)")
    first = set(unreadable)
    order = unreadable + [i for i, is_count in enumerate(counts) if is_count] + [i for i in files if i not in first]
    run = _Run(grid, report, Tally())
    results: list[list[Score]] = [[] for _ in inputs]
    with _no_cycle_collection():
        for index in order:
            results[index] = run.score_counts(inputs[index]) if counts[index] else run.score_file(inputs[index])
    run.tally.scores = [score for scores in results for score in scores]
    return run.tally


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """A run builds only data without cycles (documents, sheets, scores), and
    keeps its scores; the cycle collector would walk the growing pile again
    and again for nothing (a tenth of a run of 10,000 files).  Reference
    counting still frees everything."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def score_document(grid: Grid, data: object, where: str) -> dict:
    """The rules engine contract: the result of scoring one marks document
    (plain data, as read from the file ``where``) on ``grid``, as
    ``scores_as_json`` gives it.  tests/conformance/ holds the cases any
    engine must agree on."""
    run = _Run(grid, lambda error: None, Tally())
    scores = run.score_data(data, where)
    return scores_as_json(scores, run.tally.refused)


def _sizes(inputs: Sequence[str], files: list[int]) -> tuple[list[int], int]:
    """The files that ``stat`` shows cannot be read (to read first: the reader
    then says why, at once), and the bytes of the others."""
    unreadable, total = [], 0
    for index in files:
        if inputs[index] == "-":
            continue
        try:
            status = os.stat(inputs[index])
        except (OSError, ValueError):
            unreadable.append(index)
            continue
        if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_FILE_BYTES:
            unreadable.append(index)
        else:
            total += status.st_size
    return unreadable, total


@dataclass
class _Run:
    grid: Grid
    report: Report
    tally: Tally
    sheets: int = 0

    def score_counts(self, spec: str) -> list[Score]:
        return self._scored(lambda: score_counts(self.grid, spec), "form", file=spec)

    def score_file(self, spec: str) -> list[Score]:
        try:
            data = read_marks(spec)
        except InputError as error:
            hint = missing_colon(spec) if error.message == "no such file" else ""
            self.refuse(InputError(error.where, error.path, error.message + hint) if hint else error, "read")
            return []
        return self.score_data(data, source_name(spec))

    def score_data(self, data: object, where: str) -> list[Score]:
        try:
            sheets = sheets_from_data(data, where, self.grid)
        except InputError as error:
            self.refuse(error, "form")
            return []
        scores = []
        for sheet in sheets:
            if isinstance(sheet, InputError):
                self.refuse(sheet, "form")
            else:
                scores += self._scored(partial(score_sheet, self.grid, sheet), "form")
        return scores

    def _scored(self, score: Callable[[], Score], reason: str, file: str | None = None) -> list[Score]:
        self.sheets += 1
        if self.sheets > MAX_SHEETS:
            raise SheetgenError(f"more than {MAX_SHEETS:,} sheets in one run (score them in several runs)")
        try:
            return [score()]
        except InputError as error:
            self.refuse(error, error.reason if isinstance(error, ScoreError) else reason, file)
            return []

    def refuse(self, error: InputError, reason: str, file: str | None = None) -> None:
        """Record and report a refusal; ``file`` names counts as typed (their errors quote them)."""
        refusal = refusal_as_json(error, reason)
        if file is not None:
            refusal["file"] = file
        self.tally.refused.append(refusal)
        self.report(error)
