"""A record behaves as the frozen dataclass it stands for: the same class
declared both ways gives the same construction, repr, equality, hash and
refusals."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, dataclass, field, fields, is_dataclass, replace
from functools import cached_property

import pytest

from sheetgen.pdf.geometry import Box
from sheetgen.records import record


def declare(decorator):
    @decorator
    class Point:
        x: float
        y: float
        label: str = ""
        tags: tuple = field(default_factory=tuple)
        source: str = field(default="nowhere", compare=False)
        secret: str = field(default="hidden", repr=False)

        @cached_property
        def norm(self) -> float:
            return (self.x ** 2 + self.y ** 2) ** 0.5

    return Point


Record, Frozen = declare(record), declare(dataclass(frozen=True))
CALLS = [  # (args, kwargs)
    ((1, 2), {}),
    ((1, 2, "a"), {}),
    ((1, 2, "a", ("t",), "file", "s"), {}),
    ((1, 2, "a", ("t",), "file"), {}),  # the last default only
    ((1,), {"y": 2}),
    ((), {"x": 1, "y": 2, "source": "file"}),
    ((1, 2), {"tags": ("t",), "secret": "s"}),
]


@pytest.mark.parametrize("args, kwargs", CALLS)
def test_construction_and_repr_are_the_dataclass_ones(args, kwargs):
    mine, theirs = Record(*args, **kwargs), Frozen(*args, **kwargs)
    assert repr(mine).replace("Record", "") == repr(theirs).replace("Frozen", "")
    assert [getattr(mine, f.name) for f in fields(mine)] == [getattr(theirs, f.name) for f in fields(theirs)]


def test_equality_and_hash_follow_the_compared_fields():
    assert Record(1, 2, source="a") == Record(1, 2, source="b")
    assert hash(Record(1, 2, source="a")) == hash(Record(1, 2, source="b"))
    assert Record(1, 2) != Record(1, 3)
    assert Record(1, 2) != Record(1, 2, "other label")
    assert Record(1, 2) != Frozen(1, 2)  # another class, however alike
    assert len({Record(1, 2), Record(1, 2), Record(2, 1)}) == 2


@pytest.mark.parametrize("args, kwargs", [((), {}), ((1,), {}), ((1, 2, 3, 4, 5, 6, 7), {}),
                                          ((1, 2), {"z": 3}), ((1, 2), {"x": 3})])
def test_bad_calls_are_refused_as_dataclasses_refuse_them(args, kwargs):
    with pytest.raises(TypeError):
        Frozen(*args, **kwargs)
    with pytest.raises(TypeError):
        Record(*args, **kwargs)


def test_a_field_given_twice_is_refused_where_no_field_is_left_to_a_default():
    with pytest.raises(TypeError, match="multiple values"):
        Box(1.0, 2.0, 3.0, 4.0, x=5.0)
    with pytest.raises(TypeError, match="multiple values"):
        Box(1.0, 2.0, 3.0, w=4.0)
    assert Box(1.0, 2.0, 3.0, h=4.0) == Box(1.0, 2.0, 3.0, 4.0)


def test_a_record_cannot_change():
    point = Record(1, 2)
    with pytest.raises(FrozenInstanceError):
        point.x = 3
    with pytest.raises(FrozenInstanceError):
        del point.y
    assert point == Record(1, 2)


def test_dataclass_tools_cached_properties_copies_and_pickles_work():
    point = Record(3, 4, "p", source="file")
    assert is_dataclass(point) and [f.name for f in fields(point)][:2] == ["x", "y"]
    assert replace(point, y=0) == Record(3, 0, "p") and replace(point, y=0).source == "file"
    assert point.norm == 5.0 and point == Record(3, 4, "p")  # a cached value is no field
    assert copy.deepcopy(point) == point
    box = Box(1.0, 2.0, 3.0, 4.0)  # pickled as a simulation's worker processes get their data
    assert pickle.loads(pickle.dumps(box)) == box and pickle.loads(pickle.dumps(box)).right == 4.0
    assert Record(1, 2).tags == () and Record.__match_args__ == Frozen.__match_args__


def test_the_signature_is_the_dataclass_one_without_annotations():
    import inspect

    def shown(cls) -> list[tuple[str, str]]:
        return [(p.name, repr(p.default)) for p in inspect.signature(cls).parameters.values()]

    assert shown(Record) == shown(Frozen) == [
        ("x", "<class 'inspect._empty'>"), ("y", "<class 'inspect._empty'>"), ("label", "''"),
        ("tags", "<factory>"), ("source", "'nowhere'"), ("secret", "'hidden'")]


@pytest.mark.parametrize("decorator", [record, dataclass(frozen=True)], ids=["record", "dataclass"])
def test_post_init_runs_last_at_every_construction(decorator):
    @decorator
    class Sized:
        name: str
        paper: str = ""  # "" for the size's first paper

        def __post_init__(self) -> None:
            if not self.paper:
                object.__setattr__(self, "paper", f"{self.name}-first")

    assert Sized("a").paper == Sized("a", "").paper == Sized(name="a").paper == "a-first"
    assert Sized("a", "letter").paper == "letter"
    assert replace(Sized("a", "letter"), paper="").paper == "a-first"
    assert replace(Sized("a"), name="b").paper == "a-first"  # a field it set is passed on, as given
