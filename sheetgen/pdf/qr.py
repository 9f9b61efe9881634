"""QR codes as modules: ``modules(text)`` is the smallest QR code of ``text``
at error correction level M with mask pattern 0, rows of "0" and "1" (dark).

Every sheet of a batch carries its own code, so encoding one is on the path
of every unique sheet. reportlab's encoder builds each code from polynomial
objects (1.6 ms a code, ten times the rest of a unique sheet); this one
(0.04 ms) keeps per version what does not depend on the text (the function
patterns, where each data bit goes, the mask), divides for the Reed-Solomon
codewords with a table of the generator's multiples, one integer operation a
data byte, and places and masks every bit in one call. ``tests/test_qr.py``
holds it to reportlab's encoder module for module.

The text is written in alphanumeric mode when it can be (sheetgen's
payloads are: capitals, digits and ``:*-``), else as UTF-8 bytes. Versions 1
to 10 (57 modules: 311 alphanumeric characters) are enough for any payload.
"""

from __future__ import annotations

from functools import cache, lru_cache
from operator import itemgetter

ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_ALPHANUMERIC_VALUE = {ch: i for i, ch in enumerate(ALPHANUMERIC)}
MASK = 0  # (row + column) even is inverted; any of 0-7 is valid, choosing the best costs eight encodings
_LEVEL_M = 0b00  # error correction level M in the format information

# Level M, versions 1-10: error correction codewords per block, and (blocks, data codewords each).
_BLOCKS = {
    1: (10, ((1, 16),)), 2: (16, ((1, 28),)), 3: (26, ((1, 44),)), 4: (18, ((2, 32),)), 5: (24, ((2, 43),)),
    6: (16, ((4, 27),)), 7: (18, ((4, 31),)), 8: (22, ((2, 38), (2, 39))), 9: (22, ((3, 36), (2, 37))),
    10: (26, ((4, 43), (1, 44))),
}
_ALIGNMENT = {1: (), 2: (6, 18), 3: (6, 22), 4: (6, 26), 5: (6, 30), 6: (6, 34), 7: (6, 22, 38), 8: (6, 24, 42),
              9: (6, 26, 46), 10: (6, 28, 50)}
MAX_VERSION = max(_BLOCKS)

# GF(256) with the QR code's polynomial x^8 + x^4 + x^3 + x^2 + 1.
_EXP = [0] * 512
_LOG = [0] * 256
_value = 1
for _i in range(255):
    _EXP[_i] = _value
    _LOG[_value] = _i
    _value <<= 1
    if _value & 0x100:
        _value ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


@lru_cache(maxsize=256)  # identical sheets share their code
def modules(text: str) -> tuple[str, ...]:
    """The smallest level-M QR code of ``text``; ``ValueError`` if none up to version 10 holds it."""
    mode, count, bits = _segment(text)
    for version in range(1, MAX_VERSION + 1):
        capacity = 8 * _data_codewords(version)
        length = 4 + _count_bits(mode, version) + len(bits)
        if length <= capacity:
            stream = _mode_bits(mode) + format(count, f"0{_count_bits(mode, version)}b") + bits
            return _template(version).place(_codewords(stream, version))
    raise ValueError(f"{len(text)} characters do not fit a QR code of version {MAX_VERSION}")


def _segment(text: str) -> tuple[str, int, str]:
    """The mode, the character count and the data bits of ``text``."""
    if text and all(ch in _ALPHANUMERIC_VALUE for ch in text):
        values = [_ALPHANUMERIC_VALUE[ch] for ch in text]
        pairs = [format(values[i] * 45 + values[i + 1], "011b") for i in range(0, len(values) - 1, 2)]
        if len(values) % 2:
            pairs.append(format(values[-1], "06b"))
        return "alphanumeric", len(text), "".join(pairs)
    data = text.encode("utf-8")
    return "byte", len(data), "".join(format(b, "08b") for b in data)


def _mode_bits(mode: str) -> str:
    return "0010" if mode == "alphanumeric" else "0100"


def _count_bits(mode: str, version: int) -> int:
    if mode == "alphanumeric":
        return 9 if version < 10 else 11
    return 8 if version < 10 else 16


def _data_codewords(version: int) -> int:
    return sum(blocks * size for blocks, size in _BLOCKS[version][1])


def _codewords(stream: str, version: int) -> list[int]:
    """The final sequence of codewords: the data padded, cut into blocks,
    each block's error correction, interleaved."""
    capacity = 8 * _data_codewords(version)
    stream += "0" * min(4, capacity - len(stream))  # the terminator
    stream += "0" * (-len(stream) % 8)
    data = [int(stream[i:i + 8], 2) for i in range(0, len(stream), 8)]
    data += [(0xEC, 0x11)[i % 2] for i in range(capacity // 8 - len(data))]
    ec_count, groups = _BLOCKS[version]
    blocks, start = [], 0
    for count, size in groups:
        for _ in range(count):
            blocks.append(data[start:start + size])
            start += size
    corrections = [_error_correction(block, ec_count) for block in blocks]
    out = [block[i] for i in range(max(len(b) for b in blocks)) for block in blocks if i < len(block)]
    out += [ec[i] for i in range(ec_count) for ec in corrections]
    return out


@cache
def _multiples(degree: int) -> tuple[int, ...]:
    """For each leading byte v, v times the Reed-Solomon generator of ``degree`` (whose leading
    coefficient is 1), as one integer of degree + 1 bytes: XORed into the remainder, it clears the
    leading byte. Division then takes one integer operation a data byte."""
    poly = [1]
    for i in range(degree):  # times (x - a^i)
        poly = [a ^ (_EXP[_LOG[b] + i] if b else 0) for a, b in zip(poly + [0], [0] + poly)]
    logs = [_LOG[c] for c in poly]
    return (0,) + tuple(int.from_bytes(bytes(_EXP[_LOG[v] + g] for g in logs), "big") for v in range(1, 256))


def _error_correction(block: list[int], degree: int) -> list[int]:
    """The remainder of the block times x^degree divided by the generator."""
    multiples = _multiples(degree)
    rest = int.from_bytes(bytes(block), "big") << 8 * degree
    for shift in range(8 * (len(block) - 1), -8, -8):
        rest ^= multiples[rest >> (shift + 8 * degree) & 0xFF] << shift
    return list(rest.to_bytes(degree, "big"))


def _bch(value: int, generator: int, bits: int) -> int:
    """``value`` followed by its BCH check bits for ``generator`` (of ``bits`` check bits)."""
    rest = value << bits
    for shift in range(rest.bit_length() - generator.bit_length(), -1, -1):
        if rest >> (shift + generator.bit_length() - 1) & 1:
            rest ^= generator << shift
    return value << bits | rest


@cache
def _template(version: int) -> _Template:
    return _Template(version)


class _Template:
    """A version's fixed modules (finders, timing, alignment, format and
    version information, the dark module) and the places of its data bits in
    placing order, each with the mask's inversion."""

    def __init__(self, version: int) -> None:
        size = 17 + 4 * version
        self.size = size
        grid: list[list[bool | None]] = [[None] * size for _ in range(size)]
        for top, left in ((0, 0), (0, size - 7), (size - 7, 0)):
            for r in range(-1, 8):
                for c in range(-1, 8):
                    if 0 <= top + r < size and 0 <= left + c < size:
                        ring = max(abs(r - 3), abs(c - 3))
                        grid[top + r][left + c] = ring in (0, 1, 3)
        centres = _ALIGNMENT[version]
        for r in centres:
            for c in centres:
                if grid[r][c] is None:  # not on a finder (those on the timing lines are drawn)
                    for dr in range(-2, 3):
                        for dc in range(-2, 3):
                            grid[r + dr][c + dc] = max(abs(dr), abs(dc)) != 1
        for i in range(8, size - 8):
            for r, c in ((6, i), (i, 6)):
                if grid[r][c] is None:
                    grid[r][c] = i % 2 == 0
        info = _bch(_LEVEL_M << 3 | MASK, 0x537, 10) ^ 0x5412
        for i in range(15):
            dark = bool(info >> i & 1)
            # around the top left finder
            if i < 6:
                grid[i][8] = dark
            elif i < 8:
                grid[i + 1][8] = dark
            else:
                grid[size - 15 + i][8] = dark
            # beside the other two finders
            if i < 8:
                grid[8][size - i - 1] = dark
            elif i < 9:
                grid[8][15 - i - 1 + 1] = dark
            else:
                grid[8][15 - i - 1] = dark
        grid[size - 8][8] = True
        if version >= 7:
            number = _bch(version, 0x1F25, 12)
            for i in range(18):
                dark = bool(number >> i & 1)
                grid[i // 3][i % 3 + size - 11] = grid[i % 3 + size - 11][i // 3] = dark
        places = []  # the data bits' places in placing order, each with the mask's inversion
        row, step = size - 1, -1
        col = size - 1
        while col > 0:
            if col == 6:
                col -= 1
            while 0 <= row < size:
                for c in (col, col - 1):
                    if grid[row][c] is None:
                        places.append((row, c, (row + c) % 2 == 0))
                row += step
            row -= step
            step = -step
            col -= 2
        self.bits = len(places)
        # Every module picks its character from the data bits, the bits inverted, then "0" and "1": one
        # itemgetter call places and masks the whole code.
        source: list[list[int]] = [[2 * self.bits + bool(m) for m in line] for line in grid]
        for i, (r, c, invert) in enumerate(places):
            source[r][c] = i + self.bits * invert
        self.pick = itemgetter(*(i for line in source for i in line))

    def place(self, codewords: list[int]) -> tuple[str, ...]:
        """The code's modules, rows of "0" and "1", with ``codewords`` placed and masked (remainder
        bits light, then masked)."""
        bits = format(int.from_bytes(bytes(codewords), "big"), f"0{8 * len(codewords)}b")
        bits += "0" * (self.bits - len(bits))
        flat = "".join(self.pick(bits + bits.translate(_INVERT) + "01"))
        return tuple(flat[i:i + self.size] for i in range(0, len(flat), self.size))


_INVERT = str.maketrans("01", "10")
