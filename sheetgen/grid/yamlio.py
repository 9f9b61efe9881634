"""The only module that imports yaml: read one YAML (or JSON) document safely.

Files come from strangers, so reading is bounded before anything is built:
the file size, the number of values (counted while the document is read, and
again with aliases counted as the copies they stand for, which stops "billion
laughs" and aliases inside themselves), its nesting depth and the digits of
its numbers.  Only plain data is built (mappings, lists, text, numbers,
booleans, null); tags that would build Python objects are refused, and so are
duplicate keys, escapes beyond the last Unicode character (``"\\U00110000"``)
and half of a surrogate pair (``"\\ud800"``; a whole pair, as JSON writes
an emoji, is the one character it stands for).  Every refusal is an
``InputError`` of one line, with the line and column where there is one.
Standard input (a file given as '-', named ``<stdin>``) is read within the
same bounds.  docs/limits.md gives the numbers.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Hashable
from typing import Any

import yaml

from ..errors import InputError
from ..words import quoted

# A grid file is about 2 KiB.  Pure-Python YAML scans blank lines at about
# 1.2 MiB a second, its slowest; 256 KiB keeps any file well under a second.
MAX_FILE_BYTES = 256 * 1024
# Values in the document, counted as written while it is read and again with
# every alias expanded.  The largest grid holds under 1,000; pure-Python YAML
# reads some 50,000 values a second, so no file can keep a run waiting.
MAX_NODES = 10_000
MAX_DEPTH = 64  # nested mappings and lists
MAX_DIGITS = 100  # of a number as written; Python refuses to print ints of 4,300

STDIN = "<stdin>"  # how messages name standard input, read when a file is given as '-'
TOO_LARGE = f"document too large (more than {MAX_NODES:,} values)"
TOO_LARGE_EXPANDED = f"document too large once aliases are expanded (more than {MAX_NODES:,} values)"
TOO_DEEP = f"document nested too deeply (more than {MAX_DEPTH} levels)"
MERGE_TAG = "tag:yaml.org,2002:merge"
# What an error's context names, in plain words: an error found far below where
# a quote or bracket was opened is reported with where it was opened.
UNCLOSED = {
    "while scanning a quoted scalar": "quoted text",
    "while parsing a flow sequence": "list",
    "while parsing a flow mapping": "mapping",
}


class _Refused(Exception):
    """The document breaks a limit of the reader; the message says which."""


class _PlainData(yaml.constructor.SafeConstructor):
    """How both loaders build a document: plain data only, no duplicate keys,
    no number longer than ``MAX_DIGITS``, no half of a surrogate pair."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (ArithmeticError, LookupError, TypeError, ValueError):  # `!!int x`, `!!bool maybe`
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read this value as {_short_tag(node.tag)}", node.start_mark
            ) from None

    def construct_yaml_str(self, node: yaml.ScalarNode) -> str:
        text = super().construct_yaml_str(node)
        if not any("\ud800" <= ch <= "\udfff" for ch in text):
            return text
        try:  # "\ud83d\ude00", as JSON writes an emoji: one character in two escapes
            return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:
            raise yaml.constructor.ConstructorError(
                None, None, "text holds half of a surrogate pair (an escape such as \\ud800 is not a character)",
                node.start_mark,
            ) from None

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        digits = self.construct_scalar(node).lstrip("+-")
        if len(digits) > MAX_DIGITS:
            raise yaml.constructor.ConstructorError(
                None, None, f"number longer than {MAX_DIGITS} digits", node.start_mark
            )
        return super().construct_yaml_int(node)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Hashable, Any]:
        if isinstance(node, yaml.MappingNode):  # else SafeLoader says what it found
            self._refuse_duplicate_keys(node)
        return super().construct_mapping(node, deep=deep)

    def _refuse_duplicate_keys(self, node: yaml.MappingNode) -> None:
        seen = set()
        for key_node, _ in node.value:
            if key_node.tag == MERGE_TAG:  # `<<: *defaults`: the mapping's own keys may override those
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:  # an unhashable key: let SafeLoader report it
                break
            if duplicate:
                mark = key_node.start_mark
                raise yaml.MarkedYAMLError(
                    problem=f"duplicate key {quoted(key)}", problem_mark=mark
                )
            seen.add(key)


class _Loader(_PlainData, yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys, and stops reading as soon as the
    document holds too many values or is nested too deeply, before they cost
    time and memory."""

    def __init__(self, text: str):
        super().__init__(text)
        self.values = self.depth = 0


    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):  # no new value: _check_size counts what it stands for
            return super().compose_node(parent, index)
        self.values += 1
        if self.values > MAX_NODES:
            raise _Refused(TOO_LARGE)
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _Refused(TOO_DEEP)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def scan_flow_scalar_non_spaces(self, double: bool, start_mark: yaml.Mark) -> list[str]:
        try:
            return super().scan_flow_scalar_non_spaces(double, start_mark)
        except (ValueError, OverflowError):  # chr() of an escape such as "\U00110000": past the last character
            mark = self.get_mark()  # at the escape's digits, after its backslash and letter
            digits = self.prefix(8 if self.peek(-1) == "U" else 4)
            raise yaml.scanner.ScannerError(
                problem=f"escape \\{self.peek(-1)}{digits} is beyond Unicode (the last character is \\U0010FFFF)",
                problem_mark=yaml.Mark(mark.name, mark.index - 2, mark.line, mark.column - 2, None, 0),  # no snippet
            ) from None


if yaml.__with_libyaml__:
    class _QuickLoader(_PlainData, yaml.CSafeLoader):
        """libyaml's reader, some ten times quicker, for documents too small and
        plain to break a limit while it reads them (``_plain_enough``)."""
else:  # PyYAML without libyaml: every document goes to the pure-Python reader
    _QuickLoader = None  # type: ignore[assignment,misc]


_LOADERS = [loader for loader in (_Loader, _QuickLoader) if loader is not None]
for _loader in _LOADERS:
    # (the stubs type a constructor's first argument as a loader; these are the mixin's methods)
    _loader.add_constructor("tag:yaml.org,2002:int", _loader.construct_yaml_int)  # type: ignore[type-var]
    _loader.add_constructor("tag:yaml.org,2002:str", _loader.construct_yaml_str)  # type: ignore[type-var]
    # Only plain YAML types: no timestamps (they become datetime objects) and
    # nothing outside the core schema.
    _loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


def _short_tag(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")


def _refuse(loader: yaml.SafeLoader, node: yaml.Node) -> None:
    raise yaml.constructor.ConstructorError(
        None, None, f"tag {_short_tag(node.tag)!r} is not allowed (only plain data)", node.start_mark
    )


# Tags SafeLoader knows but that build more than plain data (bytes, sets, dates).
for _tag in ("binary", "set", "timestamp", "omap", "pairs"):
    for _loader in _LOADERS:
        _loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse)


def _check_size(node: yaml.Node, where: str) -> None:
    """Count the values of the expanded document and its depth, without expanding it."""
    sizes: dict[int, tuple[int, int]] = {}
    counting: set[int] = set()  # nodes whose children are being counted
    stack = [(node, False)]
    while stack:
        current, children_done = stack.pop()
        key = id(current)
        if key in sizes and not children_done:
            continue
        if key in counting and not children_done:  # met again inside itself: `&a [*a]`
            mark = current.start_mark
            raise InputError(where, f"line {mark.line + 1}, column {mark.column + 1}",
                             "this value contains an alias of itself (the document would never end)")
        if isinstance(current, yaml.ScalarNode):
            sizes[key] = (1, 1)
            continue
        children = (
            [n for pair in current.value for n in pair]
            if isinstance(current, yaml.MappingNode)
            else list(current.value)
        )
        if not children_done:
            counting.add(key)
            stack.append((current, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
            continue
        total, depth = 1, 1
        for child in children:
            child_size, child_depth = sizes.get(id(child), (1, 1))
            total += child_size
            depth = max(depth, child_depth + 1)
        if total > MAX_NODES:
            raise InputError(where, "", TOO_LARGE_EXPANDED)
        if depth > MAX_DEPTH:
            raise InputError(where, "", TOO_DEEP)
        sizes[key] = (total, depth)
        counting.discard(key)


def parse_yaml(text: str, where: str) -> object:
    """Parse ``text`` into plain data; errors name ``where`` and the line and column."""
    try:
        loader = _Loader(text)  # checks every character first
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        column = error.position - text.rfind("\n", 0, error.position)
        raise InputError(where, f"line {line}, column {column}",
                         f"character U+{error.character:04X} is not allowed (YAML is printable text)") from None
    try:
        node = loader.get_single_node()
        if node is None:
            raise InputError(where, "", "file is empty (expected a YAML mapping)")
        _check_size(node, where)
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "not valid YAML"
        if "could not determine a constructor" in str(error):
            problem = f"tag {_error_tag(error)} is not allowed (only plain data)"
        elif "another document" in str(problem):
            problem = "expected a single YAML document, found a second one"
        position = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "YAML"
        start = error.context_mark
        opened = UNCLOSED.get(error.context or "")
        if opened and start and mark and start.line != mark.line:  # say where the unclosed thing began
            problem = f"{problem} (in the {opened} that starts at line {start.line + 1}, column {start.column + 1})"
        raise InputError(where, position, f"{problem}") from None
    except _Refused as error:
        raise InputError(where, "", str(error)) from None
    except yaml.YAMLError as error:
        raise InputError(where, "", f"not valid YAML ({' '.join(str(error).split())})") from None
    except RecursionError:
        raise InputError(where, "", TOO_DEEP) from None
    finally:
        loader.dispose()


def _error_tag(error: yaml.MarkedYAMLError) -> str:
    """The quoted tag an unknown-constructor error names, written short."""
    text = str(error.problem or "")
    start = text.find("'")
    return _short_tag(text[start : text.rfind("'") + 1]) if start >= 0 else "this tag"


def source_name(path: str | os.PathLike[str]) -> str:
    """How messages name the file at ``path``: as given, or ``<stdin>`` for '-'."""
    return STDIN if os.fspath(path) == "-" else os.fspath(path)


def read_yaml(path: str | os.PathLike[str], where: str | None = None) -> object:
    """Read and parse the file at ``path`` (YAML or JSON), bounded and safe;
    '-' reads standard input, within the same bounds."""
    where = where or source_name(path)
    return parse_document(read_text(path, where), where)


def read_text(path: str | os.PathLike[str], where: str, limit: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file at ``path`` ('-': standard input): UTF-8
    (a byte-order mark allowed), at most ``limit`` bytes; errors name ``where``."""
    if os.fspath(path) == "-":
        return _decode(_read_stdin(where, limit), where, limit)
    try:
        # Not blocking: opening a FIFO would wait for a writer for ever.
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
            status = os.fstat(handle.fileno())
            kind = status.st_mode
            if stat.S_ISDIR(kind):
                raise IsADirectoryError
            if not stat.S_ISREG(kind):
                raise InputError(where, "", "not a regular file (a pipe, socket or device)")
            # Asking for the size it has: a 256 KiB buffer costs more than reading
            # a small file (marks files come by the thousand); then what it grew by.
            data = handle.read(min(status.st_size, limit) + 1)
            if len(data) > status.st_size:
                data += handle.read(limit + 1 - len(data))
    except FileNotFoundError:
        raise InputError(where, "", "no such file") from None
    except IsADirectoryError:
        raise InputError(where, "", "is a folder, expected a file") from None
    except OSError as error:
        raise InputError(where, "", f"cannot be read ({error.strerror})") from None
    return _decode(data, where, limit)


def _read_stdin(where: str, limit: int) -> bytes:
    """At most one byte more than ``limit``, from standard input."""
    if sys.stdin is None:  # started with it closed (`<&-`)
        raise InputError(where, "", "cannot be read (standard input is closed)")
    try:
        return sys.stdin.buffer.read(limit + 1)
    except OSError as error:
        raise InputError(where, "", f"cannot be read ({error.strerror})") from None


def _decode(data: bytes, where: str, limit: int) -> str:
    if len(data) > limit:
        raise InputError(where, "", f"file larger than {limit // 1024:,} KiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        message = f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})"
        raise InputError(where, "", message) from None


def parse_document(text: str, where: str) -> object:
    """Plain data from a YAML or JSON document, as ``parse_yaml`` reads it.

    A document that is a JSON object is read by the json module, some fifty
    times faster than the YAML reader (marks files come by the thousand), when
    it is plain data within the same bounds; anything the YAML reader could
    refuse (a duplicate key, too many values, a long number, a character YAML
    does not allow) goes to ``parse_yaml``, which says where.  So only
    ``parse_yaml`` writes errors, and both give the same data, except where
    YAML 1.1 reads JSON wrongly (``1e5`` is text to it, an escaped emoji comes
    apart in two halves): there the JSON reading is the right one.
    """
    if text.lstrip()[:1] == "{":
        data = _plain_json(text)
        if data is not None:
            return data
    data = _quick_yaml(text)
    return data if data is not None else parse_yaml(text, where)


# What only the pure-Python reader judges: anchors and aliases (`&`, `*`),
# tags (`!`), escapes (`\`), directives (`%`), and what _DOUBTFUL finds.
_NOT_QUICK = re.compile(r"[&*!\\%]")
QUICK_MAX_CHARS = 16 * 1024  # a marks file is a few hundred characters; a grid file about 2,000


def _quick_yaml(text: str) -> object | None:
    """``text`` read by libyaml (some ten times quicker: marks files come by the
    thousand), when it is small and plain enough, and reads without a fault;
    else None, and the pure-Python reader reads it and says where any fault
    is.  Plain enough: no anchor, alias, tag, escape or directive, nothing
    ``_DOUBTFUL``, and a tree within the limits (``_build``); the values of
    scalars are read by the same constructor as the other reader's."""
    if (_QuickLoader is None or len(text) > QUICK_MAX_CHARS or _NOT_QUICK.search(text)
            or _DOUBTFUL.search(text)):
        return None
    loader = _QuickLoader(text)
    try:
        node = loader.get_single_node()
        return None if node is None else _build(loader, node, [0], 1)
    except (yaml.YAMLError, _NotQuick, RecursionError):
        return None
    finally:
        loader.dispose()


class _NotQuick(Exception):
    """The document is one for the pure-Python reader to judge."""


_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")


def _build(loader: yaml.constructor.BaseConstructor, node: yaml.Node, values: list[int], depth: int) -> object:
    """The plain data of ``node``, counting its values (in ``values``) and
    depth as ``_check_size`` does; a mapping with a key twice, a key that is
    not a scalar or a merge key is left to the other reader."""
    values[0] += 1
    if values[0] > MAX_NODES or depth > MAX_DEPTH:
        raise _NotQuick
    kind = type(node)
    if kind is yaml.ScalarNode:
        if node.tag == _STR:
            return node.value
        if node.tag == _INT and _DECIMAL.fullmatch(node.value):  # YAML 1.1 reads 010 as octal: not this way
            return int(node.value)
        return loader.construct_object(node)
    if kind is yaml.SequenceNode:
        return [_build(loader, item, values, depth + 1) for item in node.value]
    mapping: dict = {}
    for key_node, value_node in node.value:
        if type(key_node) is not yaml.ScalarNode or key_node.tag == MERGE_TAG:
            raise _NotQuick
        key = _build(loader, key_node, values, depth + 1)
        if key in mapping:
            raise _NotQuick
        mapping[key] = _build(loader, value_node, values, depth + 1)
    return mapping


class _NotPlain(Exception):
    """The JSON reader met something the YAML reader should judge."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise _NotPlain
    return data


def _not_plain(constant: str) -> None:
    raise _NotPlain  # NaN and Infinity are not JSON, though the json module reads them


_JSON = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_not_plain)
# A character YAML does not allow, or a number longer than it reads.
_DOUBTFUL = re.compile(f"{yaml.reader.Reader.NON_PRINTABLE.pattern}|[0-9]{{{MAX_DIGITS + 1}}}")


def _plain_json(text: str) -> object | None:
    """``text`` as a JSON object within the reader's bounds, else None."""
    if _DOUBTFUL.search(text):
        return None
    try:
        data: object = _JSON.decode(text)
        if not _surely_small(text):
            values, depth = _json_size(data)
            if values > MAX_NODES or depth > MAX_DEPTH:
                return None
    except (_NotPlain, ValueError, RecursionError):
        return None
    return data


def _surely_small(text: str) -> bool:
    """Whether the text's punctuation alone bounds the document's values and depth
    (every value but the first of a list or mapping follows a ',' or a ':', and
    every level is a '[' or a '{'), so that small documents need no walk."""
    containers = text.count("[") + text.count("{")
    return 1 + text.count(",") + text.count(":") + containers <= MAX_NODES and containers < MAX_DEPTH


def _json_size(value: object) -> tuple[int, int]:
    """Values (keys included) and nesting depth, counted as ``_check_size`` counts YAML nodes."""
    if isinstance(value, dict):
        children: list = list(value.values())
        values = 1 + len(value)
    elif isinstance(value, list):
        children, values = value, 1
    else:
        return 1, 1
    depth = 1
    for item in children:
        size, inner = _json_size(item)
        values, depth = values + size, max(depth, inner + 1)
    return values, depth


def read_package_data(path: str | os.PathLike[str]) -> object:
    """A data file shipped inside sheetgen (labels, themes).  Trusted, so read
    with libyaml's loader where PyYAML has it: a few milliseconds off every run."""
    with open(path, encoding="utf-8") as handle:
        return yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
