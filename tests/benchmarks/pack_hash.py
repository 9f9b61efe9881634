"""Hashes of every file of the download pack, to prove a speed change makes the same bytes.

    .venv/bin/python tests/benchmarks/pack_hash.py > before.txt   # before the change
    .venv/bin/python tests/benchmarks/pack_hash.py > after.txt    # after it
    diff before.txt after.txt                                      # nothing: the same pack

One line a file (its sha256 and name), then the whole pack's digest and the
CPU seconds it took.  Not collected by pytest (no test_ prefix).
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sheetgen.runs.pack import Pack, pack_files  # noqa: E402


def main() -> None:
    start = time.process_time()
    files = pack_files(Pack())
    seconds = time.process_time() - start
    whole = hashlib.sha256()
    for name in sorted(files):
        digest = hashlib.sha256(files[name]).hexdigest()
        whole.update(f"{digest} {name}\n".encode())
        print(digest, name)
    print("pack", whole.hexdigest(), len(files), "files")
    print(f"cpu {seconds:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
