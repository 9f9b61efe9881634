"""The one exception family for problems a user can fix.

The command line prints ``str(error)`` as a single line on stderr and exits
with ``error.exit_code``; nothing else about an error reaches the user.  Text
from input in a message is escaped and quoted by ``words.shown`` and
``words.quoted`` where the message is written.
"""

from __future__ import annotations


class SheetgenError(Exception):
    """Base class of every user-facing error."""

    exit_code = 1


class InputError(SheetgenError):
    """A file (grid, marks, manifest) is unreadable or invalid.

    ``where`` is the file as the user named it, ``path`` the place inside it
    (``rows[2].cells[4]``), empty for the file as a whole.
    """

    def __init__(self, where: str, path: str, message: str):
        self.where, self.path, self.message = where, path, message
        place = f"{where}: {path}" if path else where
        super().__init__(f"{place}: {message}")


class LayoutError(SheetgenError):
    """A valid grid that cannot be drawn legibly on the sheet.

    ``message`` says what does not fit and, where it can, what would; ``path``
    is the place in the grid file that causes it (``title``), if one does;
    ``where`` is the grid file, added by ``plan_sheet`` through ``within``
    (the code that finds the problem knows the grid, not its file).
    """

    def __init__(self, message: str, path: str = "", where: str = ""):
        self.message, self.path, self.where = message, path, where
        super().__init__(": ".join(part for part in (where, path, message) if part))

    def within(self, path: str = "", where: str = "") -> LayoutError:
        """The same error, naming ``path`` and the grid file ``where`` unless it names them already."""
        return LayoutError(self.message, self.path or path, self.where or where)


class OutputError(SheetgenError):
    """An output file or folder cannot be written."""


class BatchError(SheetgenError):
    """A batch stopped: the cause, then which files were written and which were
    not (a batch writes all its files or none, unless it fails while they are
    being put in place)."""

    def __init__(self, cause: SheetgenError, written: list[str], not_written: list[str]):
        self.cause, self.written, self.not_written = cause, written, not_written
        self.exit_code = cause.exit_code
        if not written:
            super().__init__(f"{cause}; batch stopped, no file written")
        else:
            super().__init__(f"{cause}; batch stopped, written: {', '.join(written)};"
                             f" not written: {', '.join(not_written)}")
