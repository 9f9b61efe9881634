"""Writing files so that a failed or interrupted run never leaves a partial
file and never damages the file it would have replaced: write a temporary
file in the same folder, flush it to disk, then rename it over the target.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import OutputError


def write_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    target = Path(path)
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{folder}: cannot create the output folder ({error.strerror})") from None
    if target.is_dir():
        raise OutputError(f"{target}: is a folder, expected a file name")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as error:
        raise OutputError(f"{folder}: cannot write here ({error.strerror})") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise OutputError(f"{target}: cannot be written ({error.strerror})") from None
        raise
    return target
