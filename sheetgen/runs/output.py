"""Writing files so that a failed or interrupted run never leaves a partial
file and never damages the file it would have replaced: write a temporary
file in the same folder, flush it to disk, then rename it over the target.

Where the system allows it (Linux), the temporary file has no name while it
is written, so that even a run killed while writing (SIGKILL, power cut)
leaves nothing behind; it gets a hidden name (``.NAME.XXXX.part``) only once
complete, for the instant before the rename.  Elsewhere it is named from
the start and removed on any error.
"""

from __future__ import annotations

import errno
import os
import secrets
import tempfile
from pathlib import Path

from ..errors import OutputError


def write_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    target = Path(path)
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{folder}: cannot create the output folder ({error.strerror})") from None
    if target.is_dir():
        raise OutputError(f"{target}: is a folder, expected a file name")
    if target.exists() and not target.is_file():  # a device or a pipe: renaming over it would replace it
        raise OutputError(f"{target}: is not a regular file, expected a file name")
    temporary = _write_temporary(target, data)
    try:
        os.replace(temporary, target)
    except BaseException as error:
        _remove(temporary)
        if isinstance(error, OSError):
            raise OutputError(f"{target}: cannot be written ({error.strerror})") from None
        raise
    _sync_folder(folder)
    return target


def _write_temporary(target: Path, data: bytes) -> str:
    """A complete copy of ``data``, flushed to disk, under a hidden name beside ``target``."""
    folder = target.parent
    try:
        handle, name = _open_unnamed(folder), None
        if handle is None:
            handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as error:
        raise OutputError(f"{folder}: cannot write here ({error.strerror})") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
            os.chmod(name or stream.fileno(), 0o644)
            return name or _link_unnamed(stream.fileno(), target)
    except BaseException as error:
        if name is not None:
            _remove(name)
        if isinstance(error, OSError):
            raise OutputError(f"{target}: cannot be written ({error.strerror})") from None
        raise


def _open_unnamed(folder: Path) -> int | None:
    """An unnamed file in ``folder`` (Linux O_TMPFILE), or None where there are none."""
    if not hasattr(os, "O_TMPFILE") or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(folder, os.O_TMPFILE | os.O_WRONLY, 0o600)
    except OSError as error:
        if error.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):  # not on this file system
            return None
        raise


def _link_unnamed(handle: int, target: Path) -> str:
    """Give the unnamed file open as ``handle`` a fresh hidden name beside ``target``."""
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        while True:
            name = f".{target.name}.{secrets.token_hex(4)}.part"
            try:
                # With a folder fd Python calls linkat(AT_SYMLINK_FOLLOW), which
                # links the file /proc names; plain link() would link the symlink.
                os.link(f"/proc/self/fd/{handle}", name, dst_dir_fd=folder, follow_symlinks=True)
                return str(target.parent / name)
            except FileExistsError:
                continue
    finally:
        os.close(folder)


def _remove(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable; not every system can open a folder."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
