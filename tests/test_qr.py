"""sheetgen's QR encoder against reportlab's, module for module: the same
smallest version at level M, mask 0, in both modes and every version 1-10.
(That the codes read back is tests/test_scan.py's: it reads the code of every
sheet it scans.)"""

from __future__ import annotations

import random
import string

import pytest
from reportlab.graphics.barcode import qrencoder

from sheetgen.pdf import qr
from sheetgen.sheet.machine import Identity, encode


def reportlab_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(text)
    code.version = code.calculate_version()
    code.makeImpl(False, qr.MASK)
    count = code.getModuleCount()
    return tuple(tuple(bool(code.isDark(r, c)) for c in range(count)) for r in range(count))


def texts() -> list[str]:
    """Payloads as sheetgen writes them, then random texts of every length up to version 10's, in the
    alphanumeric alphabet and in bytes (accents included); none all digits (reportlab would take the
    numeric mode, which sheetgen never needs: a payload always holds ':')."""
    found = [encode(Identity("classic", "en", "standard")),
             encode(Identity("#" + "0123456789abcdef", "nl", "large", "ink-saver", True, (3, 11), 41_999))]
    rng = random.Random(5)
    for length in range(1, 312, 3):  # version 10 holds 311 alphanumeric characters, 213 bytes
        alphabet = qr.ALPHANUMERIC if length % 2 or length > 190 else string.ascii_letters + string.digits + "#!? é"
        found.append(":" + "".join(rng.choice(alphabet) for _ in range(length - 1)))
    return found


def test_every_code_is_reportlabs_module_for_module():
    sizes = set()
    for text in texts():
        ours = tuple(tuple(m == "1" for m in row) for row in qr.modules(text))
        assert ours == reportlab_modules(text), text
        sizes.add(len(ours))
    assert sizes == {17 + 4 * version for version in range(1, qr.MAX_VERSION + 1)}


def test_a_text_longer_than_version_10_holds_is_refused():
    with pytest.raises(ValueError, match="do not fit a QR code of version 10"):
        qr.modules("A" * 312)
