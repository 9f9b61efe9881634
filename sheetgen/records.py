"""Frozen records: the package's small immutable data classes, without the cost
of making them.

``@dataclass(frozen=True)`` writes the source of six methods for every class
(constructor, repr, equality, hash and the two that refuse changes) and
compiles it each time the module is imported: some 4 million instructions a
class, in every process; the forty classes a print run imports took a fifth
of its start.  ``@record`` makes the same class from methods written once,
here: the fields, positional and keyword construction with defaults,
equality and hash over the compared fields, the repr, ``__post_init__``
(without init-only fields) and ``FrozenInstanceError`` on any change.  A
record is still a dataclass (``dataclasses.fields``, ``replace`` and
``is_dataclass`` work on it), whose methods are shared instead of generated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from operator import itemgetter
from typing import Any, TypeVar, dataclass_transform

C = TypeVar("C", bound=type)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: C) -> C:
    """``cls`` as ``@dataclass(frozen=True)`` would make it.  Type checkers see
    it as that dataclass (``dataclass_transform``): its fields, its constructor,
    and no assignment to a field."""
    if cls.__doc__ is None:  # dataclass would otherwise ask inspect for a signature to write one
        cls.__doc__ = f"{cls.__name__}({', '.join(cls.__dict__.get('__annotations__', {}))})"
    made: Any = dataclass(init=False, repr=False, eq=False)(cls)  # its methods are set here, past the type checker
    found = fields(made)
    compared = tuple(f.name for f in found if f.compare)
    made._record_fields = found
    made._record_names = tuple(f.name for f in found)
    made._record_shown = tuple(f.name for f in found if f.repr)
    made._record_key = staticmethod(_key(compared))  # a lambda for one field: not to be bound
    made._record_defaults = _trailing_defaults(found)
    made._record_defaults_by_name = {f.name: f.default for f in found if f.default is not MISSING}
    made._record_name_set = frozenset(made._record_names)
    made.__init__ = _init_then_post_init if hasattr(made, "__post_init__") else _init
    made.__repr__ = _repr
    made.__eq__ = _eq
    made.__hash__ = _hash
    made.__setattr__ = _refuse_change
    made.__delattr__ = _refuse_deletion
    made.__signature__ = _SIGNATURE
    return made  # type: ignore[no-any-return]


class _Signature:
    """A record's constructor signature, as ``inspect.signature`` and ``help`` show
    it (the shared ``__init__`` takes any arguments); made only when asked for."""

    def __get__(self, instance: object, owner: Any) -> object:
        import inspect

        def default(f: Any) -> object:
            if f.default is not MISSING:
                return f.default
            return inspect.Parameter.empty if f.default_factory is MISSING else _FACTORY

        return inspect.Signature([inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default(f))
                                  for f in owner._record_fields])


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"  # what dataclass shows for a default made by a factory


_FACTORY = _Factory()
_SIGNATURE = _Signature()


def _key(names: tuple[str, ...]) -> Callable[[dict], Any]:
    """What equality and hashing compare: the values of ``names``, from an instance's ``__dict__``."""
    if not names:
        return lambda values: ()
    if len(names) == 1:
        name = names[0]
        return lambda values: (values[name],)
    return itemgetter(*names)


def _trailing_defaults(found: tuple) -> tuple:
    """The plain defaults of the last fields, up to the last field without one."""
    defaults: list = []
    for f in reversed(found):
        if f.default is MISSING:
            break
        defaults.insert(0, f.default)
    return tuple(defaults)


def _init(self: Any, *args: object, **kwargs: object) -> None:
    names = self._record_names
    if kwargs:  # the usual calls with keywords, made quick; any other goes to _bound, which says what is wrong
        values = {**self._record_defaults_by_name, **dict(zip(names, args)), **kwargs}
        if values.keys() == self._record_name_set and kwargs.keys().isdisjoint(names[:len(args)]):
            self.__dict__.update(values)  # past __setattr__, which refuses every change
            return
        args = _bound(type(self), args, kwargs)
    elif len(args) != len(names):
        missing = len(names) - len(args)
        if 0 < missing <= len(self._record_defaults):  # the usual short call, made quick
            args += self._record_defaults[len(self._record_defaults) - missing:]
        else:
            args = _bound(type(self), args, kwargs)
    self.__dict__.update(zip(names, args))


def _init_then_post_init(self: Any, *args: object, **kwargs: object) -> None:
    """The constructor of a record with ``__post_init__``, which runs last, as in a dataclass."""
    _init(self, *args, **kwargs)
    self.__post_init__()


def _bound(cls: Any, args: tuple, kwargs: dict) -> tuple:
    """Every field's value, from positional and keyword arguments and the defaults."""
    names = cls._record_names
    if len(args) > len(names):
        raise TypeError(f"{cls.__name__}() takes {len(names)} arguments, {len(args)} were given")
    given = dict(zip(names, args))
    for name in kwargs:
        if name in given:
            raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}")
        if name not in names:
            raise TypeError(f"{cls.__name__}() got an unexpected keyword argument {name!r}")
    given.update(kwargs)
    values = []
    for f in cls._record_fields:
        if f.name in given:
            values.append(given[f.name])
        elif f.default is not MISSING:
            values.append(f.default)
        elif f.default_factory is not MISSING:
            values.append(f.default_factory())
        else:
            raise TypeError(f"{cls.__name__}() missing required argument {f.name!r}")
    return tuple(values)


def _repr(self: Any) -> str:
    values = self.__dict__
    return f"{type(self).__qualname__}({', '.join(f'{name}={values[name]!r}' for name in self._record_shown)})"


def _eq(self: Any, other: Any) -> Any:  # a bool, or NotImplemented for another class
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = self._record_key
    return key(self.__dict__) == key(other.__dict__)


def _hash(self: Any) -> int:
    return hash(self._record_key(self.__dict__))


def _refuse_change(self: Any, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_deletion(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")
