"""The only module that imports yaml: read one YAML (or JSON) document safely.

Files come from strangers, so reading is bounded before anything is built:
the file size, the expanded size of the document (aliases counted as the
copies they stand for, which stops "billion laughs"), and its nesting depth.
Only plain data is built (mappings, lists, text, numbers, booleans, null);
tags that would build Python objects are refused, and so are duplicate keys.
"""

from __future__ import annotations

import os

import yaml

from .errors import InputError

MAX_FILE_BYTES = 1024 * 1024  # 1 MiB: a grid file is about 2 KiB
MAX_NODES = 100_000  # values in the document once every alias is expanded
MAX_DEPTH = 64  # nested mappings and lists


class _Loader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:  # an unhashable key: let SafeLoader report it
                break
            if duplicate:
                mark = key_node.start_mark
                raise yaml.MarkedYAMLError(
                    problem=f"duplicate key {key!r}", problem_mark=mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


# Only plain YAML types: no timestamps (they become datetime objects) and
# nothing outside the core schema.
_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _refuse(loader: yaml.SafeLoader, node: yaml.Node) -> None:
    raise yaml.constructor.ConstructorError(
        None, None, f"tag {node.tag.replace('tag:yaml.org,2002:', '!!')!r} is not allowed (only plain data)",
        node.start_mark,
    )


# Tags SafeLoader knows but that build more than plain data (bytes, sets, dates).
for _tag in ("binary", "set", "timestamp", "omap", "pairs"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse)


def _check_size(node: yaml.Node, where: str) -> None:
    """Count the values of the expanded document and its depth, without expanding it."""
    sizes: dict[int, tuple[int, int]] = {}
    stack = [(node, False)]
    while stack:
        current, children_done = stack.pop()
        key = id(current)
        if key in sizes and not children_done:
            continue
        if isinstance(current, yaml.ScalarNode):
            sizes[key] = (1, 1)
            continue
        children = (
            [n for pair in current.value for n in pair]
            if isinstance(current, yaml.MappingNode)
            else list(current.value)
        )
        if not children_done:
            stack.append((current, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
            continue
        total, depth = 1, 1
        for child in children:
            child_size, child_depth = sizes.get(id(child), (1, 1))
            total += child_size
            depth = max(depth, child_depth + 1)
        if total > MAX_NODES:
            raise InputError(where, "", f"document too large once aliases are expanded (more than {MAX_NODES:,} values)")
        if depth > MAX_DEPTH:
            raise InputError(where, "", f"document nested too deeply (more than {MAX_DEPTH} levels)")
        sizes[key] = (total, depth)


def parse_yaml(text: str, where: str) -> object:
    """Parse ``text`` into plain data; errors name ``where`` and the line and column."""
    loader = _Loader(text)
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
            problem = f"tag {node_tag(error)} is not allowed (only plain data)"
        elif "another document" in str(problem):
            problem = "expected a single YAML document, found a second one"
        position = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "YAML"
        raise InputError(where, position, f"{problem}") from None
    except yaml.YAMLError as error:
        raise InputError(where, "", f"not valid YAML ({error})") from None
    except RecursionError:
        raise InputError(where, "", f"document nested too deeply (more than {MAX_DEPTH} levels)") from None
    finally:
        loader.dispose()


def node_tag(error: yaml.MarkedYAMLError) -> str:
    text = str(error.problem or "")
    start = text.find("'")
    tag = text[start : text.rfind("'") + 1] if start >= 0 else "this tag"
    return tag.replace("tag:yaml.org,2002:", "!!")


def read_yaml(path: str | os.PathLike[str], where: str | None = None) -> object:
    """Read and parse the file at ``path`` (YAML or JSON), bounded and safe."""
    where = where or os.fspath(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError(where, "", "no such file") from None
    except IsADirectoryError:
        raise InputError(where, "", "is a folder, expected a file") from None
    except OSError as error:
        raise InputError(where, "", f"cannot be read ({error.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(where, "", f"file larger than {MAX_FILE_BYTES // 1024} KiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(where, "", f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})") from None
    return parse_yaml(text, where)
