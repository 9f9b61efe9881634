"""Writing files so that a failed, interrupted or killed run never leaves a
partial file and never damages the file it would have replaced.

The data goes to a temporary file in the target's folder and is flushed to
disk before the file gets the target's name; then the folder is flushed, so
the new name survives a power cut too.

- On Linux the temporary file has no name while it is written (O_TMPFILE).
  A new target is made by linking that file straight to its name: no other
  name ever appears.  An existing target can only be replaced by a rename,
  and a file without a name cannot be renamed, so the complete file is
  first linked to a hidden name, ``.NAME.XXXXXXXX.part``, and renamed over
  the target at once.
- Elsewhere (or on a file system without O_TMPFILE) the temporary file has
  that hidden name from the start, and is removed on any error.

A run killed (SIGKILL, power cut) while a hidden name exists leaves it.
Its writer holds a lock on the file until it has been renamed, so the next
write into that folder can tell a stale part from one being written, and
removes every stale part of this naming (``remove_stale_parts``).

Refused rather than written over: a folder, a device or a pipe, a symbolic
link (the rename would replace the link, not what it points to), a file the
user may not write, and an existing file in an append-only folder (it could
be renamed over, but no name made on the way could be removed).  New files
get the permissions the umask allows, as any new file does.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import secrets
import signal
import stat
import struct
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from ..errors import OutputError

PART = ".part"
# A part of our own making: a dot, the target's name (shortened if need be), 8 hex digits.
STALE_PART = re.compile(r"\..*\.[0-9a-f]{8}\.part", re.DOTALL)
NAME_MAX = 255  # bytes of one name, where the system does not say
PATH_MAX = 4096  # bytes of a path the system takes at once, where it does not say
# Linux inode flags (FS_IOC_GETFLAGS): an append-only folder lets names be
# added but never removed or replaced.
_GET_FLAGS = (2 << 30) | (struct.calcsize("l") << 16) | (ord("f") << 8) | 1
_APPEND_ONLY = 0x20


def write_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` completely or not at all; the path written.
    Missing folders are made (and removed again if the write fails)."""
    target = Path(path)
    replacing = check_target(target)
    made = _make_folders(target.parent)
    try:
        _write(target, data, replacing)
    except BaseException:
        _remove_folders(made)
        raise
    return target


def check_target(target: Path) -> bool:
    """Refuse a target that cannot or must not be written; whether it exists.
    Cheap (no writing), so a batch checks every target before writing any."""
    for folder in reversed(target.parents):
        try:
            if not stat.S_ISDIR(os.stat(folder).st_mode):
                raise OutputError(f"{folder}: is a file, expected a folder to write {target} in")
        except FileNotFoundError:
            break  # made when written
        except OSError as error:
            raise OutputError(f"{target}: cannot be written ({error.strerror})") from None
    try:
        found = os.lstat(target)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise OutputError(f"{target}: cannot be written ({error.strerror})") from None
    if stat.S_ISLNK(found.st_mode):
        raise OutputError(f"{target}: is a symbolic link (to {os.readlink(target)}), not replaced:"
                          " name the file it points to")
    if stat.S_ISDIR(found.st_mode):
        raise OutputError(f"{target}: is a folder, expected a file name")
    if not stat.S_ISREG(found.st_mode):  # a device or a pipe: renaming over it would replace it
        raise OutputError(f"{target}: is not a regular file, expected a file name")
    if not found.st_mode & 0o222 or not os.access(target, os.W_OK):
        if os.statvfs(target.parent).f_flag & os.ST_RDONLY:
            raise OutputError(f"{target.parent}: cannot write here ({os.strerror(errno.EROFS)})")
        raise OutputError(f"{target}: is read-only, not replaced (make it writable, or choose another name)")
    return True


def check_output(target: Path, size: int = 0) -> bool:
    """What can be known of ``target`` before any work, so that a run that
    cannot write fails at once rather than after its work: ``check_target``,
    then every name's length, the folder it goes in (or the first one to make)
    being writable, and ``size`` bytes (an estimate that errs low) fitting in
    the free space there; whether the target exists."""
    replacing = check_target(target)
    if len(os.fsencode(target.parent)) >= _limit(None, "PC_PATH_MAX", PATH_MAX):
        raise OutputError(f"{target}: cannot be written ({os.strerror(errno.ENAMETOOLONG)})")
    existing = next(folder for folder in target.parents if os.path.lexists(folder))
    longest = _limit(existing, "PC_NAME_MAX", NAME_MAX)
    if any(len(os.fsencode(part)) > longest for part in target.relative_to(existing).parts):
        raise OutputError(f"{target}: cannot be written ({os.strerror(errno.ENAMETOOLONG)})")
    made = target.parent != existing
    where = f"{existing / target.relative_to(existing).parts[0]}: cannot create the output folder" if made else \
        f"{existing}: cannot write here"
    if os.statvfs(existing).f_flag & os.ST_RDONLY:
        raise OutputError(f"{where} ({os.strerror(errno.EROFS)})")
    if not os.access(existing, os.W_OK | os.X_OK, effective_ids=os.access in os.supports_effective_ids):
        raise OutputError(f"{where} ({os.strerror(errno.EACCES)})")
    check_space(existing, size)
    return replacing


def check_space(folder: Path, size: int) -> None:
    """Refuse ``size`` bytes to write in ``folder`` (existing) when its file system has less free."""
    status = os.statvfs(folder)
    free = (status.f_bfree if os.geteuid() == 0 else status.f_bavail) * status.f_frsize
    if size > free:
        raise OutputError(f"{folder}: not enough free space (needs at least {_amount(size)}, has {_amount(free)})")


def _amount(size: int) -> str:
    return f"{size / 2**20:,.1f} MiB" if size >= 2**20 else f"{-(-size // 1024):,} KiB"


def _limit(folder: Path | None, name: str, default: int) -> int:
    try:
        return os.pathconf(folder or "/", name)
    except (OSError, ValueError):
        return default


def _write(target: Path, data: bytes, replacing: bool) -> None:
    folder, name = target.parent, target.name
    here = _open_folder(folder)
    try:
        remove_stale_parts(here)
        # A new target gets its name at once: no other name ever exists.
        _write_hidden(here, folder, target, data, link_new=not replacing,
                      append_only=f"{target}: is in an append-only folder, so it cannot be replaced"
                                  " (new files can be written there)",
                      then=lambda part: os.replace(part, name, src_dir_fd=here, dst_dir_fd=here))
        _sync(here)
    finally:
        os.close(here)


def _open_folder(folder: Path) -> int:
    try:
        return os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as error:
        raise OutputError(f"{folder}: cannot write here ({error.strerror})") from None


def _write_hidden(here: int, folder: Path, target: Path, data: bytes, *, link_new: bool, append_only: str,
                  then: Callable[[str], None] = lambda part: None) -> str | None:
    """Write ``data`` in full, flushed to disk, to a temporary file in the folder
    open as ``here``, locked while it is written; then, ``link_new``, give it the
    target's name at once if it can, else a hidden name (``append_only``: the
    refusal where no hidden name could go) and call ``then`` with it while the
    lock still marks it as being written.  The hidden name, None if linked."""
    handle, part = _open_temporary(here, folder, target.name)
    try:
        _write_all(handle, data)
        os.fsync(handle)
        if part is None and link_new and _link(handle, target.name, here):
            return None
        if part is None:
            _refuse_append_only(here, append_only)
            part = _part_name(here, target.name)  # named before linking, so that an interrupt finds it
            while not _link(handle, part, here):
                part = _part_name(here, target.name)
        then(part)
        named, part = part, None
        return named
    except BaseException as error:
        if part is not None and _same_file(handle, part, here):
            _remove(part, here)
        if isinstance(error, OSError):
            raise OutputError(f"{target}: cannot be written ({error.strerror})") from None
        raise
    finally:
        os.close(handle)  # releases the lock that marks the part as being written


class Together:
    """Files that are written as one: all of them, or none.

    ``add`` writes each file in full as it comes, flushed to disk, under a
    hidden name in its target's folder (``.NAME.XXXXXXXX.part``, as
    ``write_atomic`` names what it replaces), so that a run holds no more than
    one file in memory at a time; ``commit`` then gives each its name (a
    rename, with the signals that would stop it held back until it is done);
    ``discard`` removes every hidden file and the folders made for them.  A
    file that fails to be written, or an interrupt, discards them all: the
    files of an earlier run stay as they were.  A run killed before its commit
    leaves hidden files that the next write into their folders removes.  An
    append-only folder is refused: its hidden names could never go."""

    def __init__(self) -> None:
        self.parts: list[tuple[Path, str]] = []  # each target, with the hidden name its data waits under
        self.made: list[Path] = []
        self.committed = 0  # files given their names

    def __enter__(self) -> Together:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is not None:
            self.discard()

    def add(self, target: Path, data: bytes) -> None:
        check_target(target)
        self.made += _make_folders(target.parent)
        folder = target.parent
        here = _open_folder(folder)
        try:
            _refuse_append_only(here, f"{folder}: is an append-only folder, where files written together cannot"
                                      " be put in place (write them one by one)")
            remove_stale_parts(here, frozenset(part for other, part in self.parts if other.parent == folder))
            part = _write_hidden(here, folder, target, data, link_new=False, append_only="")
            assert part is not None  # never linked to its name: it waits for the commit
            self.parts.append((target, part))
        finally:
            os.close(here)

    def commit(self) -> list[Path]:
        """Give every file its name, in the order added; the paths.  If one
        cannot be renamed, the error says how many were (``committed``)."""
        self.committed = 0
        with _signals_held():
            try:
                for target, part in self.parts:
                    try:
                        os.replace(target.parent / part, target)
                    except OSError as error:
                        raise OutputError(f"{target}: cannot be written ({error.strerror})") from None
                    self.committed += 1
            except BaseException:
                self.parts = self.parts[self.committed:]
                self.discard()
                raise
        for folder in dict.fromkeys(target.parent for target, _ in self.parts):
            _sync_folder(folder)
        return [target for target, _ in self.parts]

    def discard(self) -> None:
        for target, part in self.parts:
            try:
                os.unlink(target.parent / part)
            except OSError:
                pass
        self.parts = []
        _remove_folders(self.made)
        self.made = []


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold back Ctrl-C and the other signals that end a run while files get their
    names, so that a run is stopped before or after, not half way."""
    held = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _sync_folder(folder: Path) -> None:
    try:
        here = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        _sync(here)
    finally:
        os.close(here)


def _open_temporary(here: int, folder: Path, name: str) -> tuple[int, str | None]:
    """An open, locked temporary file in the folder open as ``here``, and its
    name: None for an unnamed file (Linux O_TMPFILE)."""
    try:
        handle = _open_unnamed(here)
        if handle is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
            return handle, None
        _refuse_append_only(here, f"{folder}: is an append-only folder: without unnamed files"
                                  " (O_TMPFILE) sheetgen cannot write there")
        while True:
            part = _part_name(here, name)
            try:
                handle = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666, dir_fd=here)
            except FileExistsError:
                continue
            fcntl.flock(handle, fcntl.LOCK_EX)
            if _same_file(handle, part, here):  # else a stale-part cleaner took it before the lock
                return handle, part
            os.close(handle)
    except OSError as error:
        raise OutputError(f"{folder}: cannot write here ({error.strerror})") from None


def _open_unnamed(here: int) -> int | None:
    """An unnamed file in the folder open as ``here``, or None where there are none."""
    if not hasattr(os, "O_TMPFILE") or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(".", os.O_TMPFILE | os.O_WRONLY, 0o666, dir_fd=here)
    except OSError as error:
        if error.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):  # not on this file system
            return None
        raise


def _write_all(handle: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(handle, view):]


def _link(handle: int, name: str, here: int) -> bool:
    """Give the unnamed file open as ``handle`` the name ``name``; False if
    that name was taken meanwhile."""
    try:
        # With a folder fd Python calls linkat(AT_SYMLINK_FOLLOW), which links
        # the file /proc names; plain link() would link the symbolic link.
        os.link(f"/proc/self/fd/{handle}", name, dst_dir_fd=here, follow_symlinks=True)
        return True
    except FileExistsError:
        return False


def _part_name(here: int, name: str) -> str:
    """``.NAME.XXXXXXXX.part``, NAME shortened so that the whole fits the system's
    limit on a name (a legal 255-byte target name must not fail for its part)."""
    try:
        limit = os.fpathconf(here, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = NAME_MAX
    tail = f".{secrets.token_hex(4)}{PART}"
    return "." + os.fsdecode(os.fsencode(name)[: limit - 1 - len(tail)]) + tail


def _refuse_append_only(here: int, message: str) -> None:
    """An append-only folder takes new names but never lets one go: a hidden
    name could neither be renamed nor removed.  Refuse before making one."""
    try:
        flags = struct.unpack("i", fcntl.ioctl(here, _GET_FLAGS, b"\0\0\0\0"))[0]
    except OSError:  # not Linux, or a file system without these flags
        return
    if flags & _APPEND_ONLY:
        raise OutputError(message)


def remove_stale_parts(here: int, keep: frozenset[str] = frozenset()) -> None:
    """Remove the parts left by killed writers in the folder open as ``here``:
    files of our naming, of this user, whose writer no longer holds its lock
    (but for those named in ``keep``: this run's own, waiting to be committed)."""
    for entry in os.scandir(here):
        if not STALE_PART.fullmatch(entry.name) or entry.name in keep:
            continue
        try:
            handle = os.open(entry.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=here)
        except OSError:
            continue
        try:
            found = os.fstat(handle)
            if not stat.S_ISREG(found.st_mode) or found.st_uid != os.geteuid():
                continue
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # fails while its writer lives
            if _same_file(handle, entry.name, here):
                os.unlink(entry.name, dir_fd=here)
        except OSError:
            pass
        finally:
            os.close(handle)


def _same_file(handle: int, name: str, here: int) -> bool:
    """Whether ``name`` in the folder ``here`` still names the file open as ``handle``."""
    try:
        now = os.stat(name, dir_fd=here, follow_symlinks=False)
    except OSError:
        return False
    found = os.fstat(handle)
    return (now.st_dev, now.st_ino) == (found.st_dev, found.st_ino)


def _make_folders(folder: Path) -> list[Path]:
    """Make ``folder`` and any missing folder above it; the ones made, deepest last."""
    missing = [f for f in [folder, *folder.parents] if not os.path.lexists(f)]
    made: list[Path] = []
    for step in reversed(missing):
        try:
            os.mkdir(step)
        except FileExistsError:
            continue  # made meanwhile by another run
        except OSError as error:
            _remove_folders(made)
            raise OutputError(f"{step}: cannot create the output folder ({error.strerror})") from None
        made.append(step)
    return made


def _remove_folders(made: list[Path]) -> None:
    for folder in reversed(made):
        try:
            os.rmdir(folder)
        except OSError:
            pass


def _remove(name: str, here: int) -> None:
    try:
        os.unlink(name, dir_fd=here)
    except OSError:
        pass


def _sync(here: int) -> None:
    """Make the new name itself durable; not every system can flush a folder."""
    try:
        os.fsync(here)
    except OSError:
        pass
