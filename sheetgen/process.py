"""The process around a command: standard streams, signals, exit codes and
the end of the run.  ``cli.py`` holds the commands; this module holds what
every run needs whatever its command, and imports no outside library.

Exit codes: 0 done; 1 bad input or output, and whatever the system refuses
(a full disk, a closed standard output, a missing permission, too little
memory); 2 wrong usage; 3 a bug in sheetgen (one line asking for a report;
``SHEETGEN_DEBUG=1`` shows its traceback); 130 interrupted (Ctrl-C); 141 the
reader of standard output went away (``sheetgen list | head -1``), quietly,
as a program killed by SIGPIPE reports in a shell.  Every failure is one
line on standard error, never a traceback.

The streams: a file descriptor 0, 1 or 2 closed when the run starts is
opened on /dev/null, so that no file the run opens can take its number (a
PDF written through "standard output" by mistake).  Python has then already
set that stream to None: writing what a command produces there fails the run
(``standard output: cannot be written``), while a command's report of what it
did (``wrote out/classic.pdf ...``) is no part of its work and is dropped when
standard output cannot take it (``report``).
"""

from __future__ import annotations

import errno
import io
import os
import signal
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any, NoReturn, TextIO, TypeVar

from .errors import OutputError, SheetgenError
from .words import shown

EXIT_DONE, EXIT_FAILED, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3
EXIT_INTERRUPTED = 128 + signal.SIGINT  # 130, as a shell reports Ctrl-C
EXIT_READER_GONE = 128 + signal.SIGPIPE  # 141, as a shell reports SIGPIPE
LINE_MAX = 1_000  # characters of one error line; what it echoes from input is cut to fit
PROGRAM = "sheetgen"
# Set (to anything) to end every run through the interpreter's own exit.
FULL_EXIT = "SHEETGEN_FULL_EXIT"
T = TypeVar("T")


class Refusal(SheetgenError):
    """A refusal of the command line's own (wrong usage, an abort), said as
    ``COMMAND: message`` and ended with its own exit code."""

    def __init__(self, message: str, exit_code: int, command: str = PROGRAM):
        super().__init__(message)
        self.exit_code, self.command = exit_code, command


class Interrupted(BaseException):
    """Ctrl-C, carried past the command line's parser (a BaseException: nothing on the way may catch it)."""


class ReaderGone(BaseException):
    """The reader of standard output went away, carried past the parser as ``Interrupted`` is."""


def start() -> None:
    """The first thing a run does, before it imports its commands: a Ctrl-C
    from now until the command starts ends the run at once (nothing is being
    written yet), and closed standard descriptors are opened on /dev/null."""
    _while_starting()
    for fd, flags in ((0, os.O_RDONLY), (1, os.O_WRONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            try:  # the lowest free number: this one, as those below it are open by now
                os.open(os.devnull, flags)
            except OSError:
                pass


def _while_starting() -> None:
    # A run whose Ctrl-C is ignored (started in the background by a shell) stays so.
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, _interrupted_while_starting)


def _interrupted_while_starting(signum: int, frame: FrameType | None) -> None:
    try:
        os.write(2, f"{PROGRAM}: interrupted\n".encode())
    except OSError:
        pass
    os._exit(EXIT_INTERRUPTED)


def outcome(command: Callable[[], object]) -> int:
    """Run ``command`` (the command line); its exit code.  Every failure
    becomes one line on standard error and its code."""
    try:
        os.getcwd()  # reportlab asks for it; relative paths need it
    except OSError as error:
        complain(f"the current folder cannot be used ({error.strerror}): change to another one")
        return EXIT_FAILED
    if not isinstance(sys.stdout, StandardOutput):
        sys.stdout = StandardOutput(sys.stdout)
    if signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # from now on Ctrl-C stops the work in order
    try:
        result = command()
        return result if isinstance(result, int) else EXIT_DONE
    except Refusal as error:
        complain(str(error), error.command)
        return error.exit_code
    except SheetgenError as error:
        complain(str(error))
        return error.exit_code
    except (Interrupted, KeyboardInterrupt):
        complain("interrupted")
        return EXIT_INTERRUPTED
    except (BrokenPipeError, ReaderGone):
        # Whoever read the output has gone: stop quietly, with standard output
        # on nothing so that the final flush cannot fail.
        silence_stdout()
        return EXIT_READER_GONE
    except OSError as error:  # the system refused something on a path not checked before
        reason = error.strerror or str(error)
        complain(f"{error.filename}: {reason}" if error.filename is not None else reason)
        return EXIT_FAILED
    except MemoryError:
        complain("out of memory (print fewer pages in one run, or free some memory)")
        return EXIT_FAILED
    except SystemExit as done:  # sys.exit() in a command
        if isinstance(done.code, str):  # sys.exit("message"), which the interpreter would print
            complain(done.code)
            return EXIT_FAILED
        return done.code if isinstance(done.code, int) else EXIT_DONE
    except Exception as error:
        return _bug(error)


def _bug(error: Exception) -> int:
    debug = bool(os.environ.get("SHEETGEN_DEBUG"))
    if debug:
        import traceback

        traceback.print_exc()
    detail = " ".join(f"{type(error).__name__}: {error}".split())
    hint = "" if debug else " (SHEETGEN_DEBUG=1 shows the traceback)"
    complain(f"internal error, please report: {detail}{hint}")
    return EXIT_BUG


def complain(message: str, command: str = PROGRAM) -> None:
    """One error line on standard error, safe for a terminal whatever it echoes."""
    line = shown(f"{command}: {message}")
    if len(line) > LINE_MAX:
        cut = len(line) - LINE_MAX
        line = f"{line[: LINE_MAX // 2]} [... {cut:,} characters ...] {line[-LINE_MAX // 2:]}"
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # standard error full, closed or gone: the exit code still tells
        pass


def report(text: str) -> None:
    """What a command says it did, on standard output.  No part of its work:
    if standard output cannot take it (closed, full, its reader gone), the
    run goes on and ends as it would have."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except (OSError, OutputError):
        silence_stdout()


class StandardOutput:
    """Standard output while sheetgen runs.  A write that fails (`sheetgen
    list >&-`, `sheetgen --help > /dev/full`) is the user's to fix, as for any
    program: an ``OutputError``, so one line and exit 1, whoever wrote (click
    prints help and versions itself).  A reader that has gone stays a
    ``BrokenPipeError``: a quiet exit."""

    def __init__(self, stream: TextIO | None):
        self.stream = stream  # None when the run was started with it closed

    @property
    def encoding(self) -> str:
        return getattr(self.stream, "encoding", "utf-8")

    @property
    def errors(self) -> str | None:
        return getattr(self.stream, "errors", "strict")

    def write(self, text: str) -> int:
        if text == "":  # click writes nothing to learn what a stream takes: no error to give yet
            return 0
        stream = self.stream
        return self._guarded(lambda: _open(stream).write(text))

    def write_bytes(self, data: bytes) -> None:
        self._guarded(lambda: self._write_all(memoryview(data)))

    def _write_all(self, view: memoryview) -> None:
        stream = _open(self.stream)
        stream.flush()
        binary = stream.buffer  # unbuffered (PYTHONUNBUFFERED) it may take part of the data at a time
        while view:
            view = view[binary.write(view) :]
        binary.flush()

    def flush(self) -> None:
        if self.stream is not None:
            self._guarded(self.stream.flush)

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

    def _guarded(self, call: Callable[[], T]) -> T:
        if self.stream is None:
            raise OutputError(f"standard output: cannot be written ({os.strerror(errno.EBADF)})")
        try:
            return call()
        except BrokenPipeError:
            raise
        except OSError as error:
            silence_stdout()
            raise OutputError(f"standard output: cannot be written ({error.strerror})") from None


def _open(stream: TextIO | None) -> TextIO:
    if stream is None:  # _guarded says so before a call gets here
        raise OutputError(f"standard output: cannot be written ({os.strerror(errno.EBADF)})")
    return stream


def write_binary(data: bytes) -> None:
    """Write ``data`` (a PDF, a page) to standard output, as it is."""
    output = sys.stdout
    if not isinstance(output, StandardOutput):  # a run not started by outcome (a test's own stream)
        output = StandardOutput(output)
    output.write_bytes(data)


def silence_stdout() -> None:
    """Point standard output at nothing, so that the flush at exit cannot fail."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass  # closed from the start, or not a real file (tests)


def end(code: int | str | None) -> NoReturn:
    """End the process with ``code`` once standard output and error are written out.

    Not through the interpreter's own exit where it can be helped: that clears
    every module, object by object (reportlab, click, the fonts), for a process
    that is about to go; a tenth of a short run's time.  Nothing is left to it:
    every file sheetgen writes is closed (and renamed into place) before a
    command returns, a process pool is shut down when its command ends, and the
    work registered for the exit (``atexit``: PIL's cache, or a coverage run's
    data) is done here before the process ends.  The interpreter's exit is
    taken instead when something watches the run (a trace or profile
    function, as coverage and debuggers set) or ``SHEETGEN_FULL_EXIT`` is set.
    Output that only this last flush finds it cannot write fails the run, as
    any other write to standard output does."""
    _while_starting()  # a Ctrl-C now has nothing left to stop: end at once
    if isinstance(code, str):  # sys.exit("message"), which the interpreter would print
        complain(code)
        code = EXIT_FAILED
    code = code if isinstance(code, int) else EXIT_DONE
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader has gone: quiet, as for a write that found it gone
            silence_stdout()
            code = code or EXIT_READER_GONE
        except OutputError as error:  # standard output full or closed: one line, as for any write to it
            complain(str(error))
            code = code or EXIT_FAILED
        except OSError:  # output that did not get out fails the run; a lost error line leaves its code
            code = code or (EXIT_FAILED if stream is sys.stdout else EXIT_DONE)
        except (ValueError, AttributeError):  # no stream, or one closed: nothing waits to be written
            pass
    if not quick_exit():
        sys.exit(code)
    import atexit

    atexit._run_exitfuncs()
    os._exit(code)


def quick_exit() -> bool:
    """Whether the run may end without the interpreter's teardown."""
    import atexit

    watched = sys.gettrace() is not None or sys.getprofile() is not None
    monitoring = getattr(sys, "monitoring", None)  # Python 3.12: coverage may watch through it
    if monitoring is not None:
        watched = watched or any(monitoring.get_tool(tool) for tool in range(6))
    return not (watched or os.environ.get(FULL_EXIT) or not hasattr(atexit, "_run_exitfuncs"))
