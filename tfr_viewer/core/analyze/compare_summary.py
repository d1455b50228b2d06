"""``compare``'s report as typed figures: what ``compare --json`` says, read into frozen
dataclasses, so that the window reads attributes, never the JSON's keys.

:meth:`CompareSummary.from_json` is the one reading of that JSON; the JSON itself is
written by :func:`.compare.compare`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Distribution:
    """One feature's values in A and in B: counts per value (``values``) or per bin
    between ``edges``."""

    a: tuple[int, ...]
    b: tuple[int, ...]
    values: tuple[Any, ...] = ()
    edges: tuple[float, ...] = ()

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Distribution:
        return cls(
            tuple(obj["a"]),
            tuple(obj["b"]),
            tuple(obj.get("values") or ()),
            tuple(obj.get("edges") or ()),
        )


@dataclass(frozen=True)
class FeatureDrift:
    """A feature in both datasets: its kind, drift type (``categorical``, ``numeric``
    or ``other``), the L∞ distance and Jensen-Shannon divergence of its distributions
    (None where they do not apply), its presence in each."""

    key: str
    kind: str
    type: str
    linf: float | None
    js: float | None
    drift: float | None
    presence_a: float
    presence_b: float
    distribution: Distribution | None

    @classmethod
    def from_json(cls, key: str, obj: Mapping[str, Any]) -> FeatureDrift:
        dist = obj.get("distribution")
        return cls(
            key=key,
            kind=str(obj["kind"]),
            type=str(obj["type"]),
            linf=obj["linf"],
            js=obj["js"],
            drift=obj["drift"],
            presence_a=float(obj["presence_a"]),
            presence_b=float(obj["presence_b"]),
            distribution=Distribution.from_json(dist) if dist else None,
        )


@dataclass(frozen=True)
class Place:
    """Where an image is: its record, file, byte offset and feature key."""

    record: int
    file: str
    offset: int
    feature: str

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Place:
        return cls(int(obj["record"]), str(obj["file"]), int(obj["offset"]), str(obj["feature"]))


@dataclass(frozen=True)
class Leak:
    """An image in both datasets: the same bytes (``distance`` None) or one a few
    bits of perceptual hash apart."""

    a: Place
    b: Place
    distance: int | None = None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Leak:
        distance = obj.get("distance")
        return cls(Place.from_json(obj["a"]), Place.from_json(obj["b"]), distance)


@dataclass(frozen=True)
class ClassShift:
    """One class's count in A and in B."""

    id: int | None
    text: str | None
    a: int
    b: int


@dataclass(frozen=True)
class Side:
    """One dataset compared: its files and records."""

    files: tuple[str, ...]
    records: int

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Side:
        return cls(tuple(obj["files"]), int(obj["records"]))


@dataclass(frozen=True)
class CompareSummary:
    """A whole ``compare`` report: both sides, the drift of every shared feature, the
    keys in one only, the classes' counts, the images in both, and the verdict
    (``failed`` with its ``reasons``)."""

    a: Side
    b: Side
    threshold: float
    features: tuple[FeatureDrift, ...]
    only_in_a: tuple[str, ...]
    only_in_b: tuple[str, ...]
    classes: tuple[ClassShift, ...]
    exact: tuple[Leak, ...]
    near: tuple[Leak, ...]
    exceeded: frozenset[str]
    reasons: tuple[str, ...]
    failed: bool

    def feature(self, key: str) -> FeatureDrift | None:
        return next((f for f in self.features if f.key == key), None)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> CompareSummary:
        """The figures of ``compare --json``; KeyError or TypeError when ``obj`` is not
        one."""
        classes = obj.get("classes") or {}
        leaks = obj["leaks"]
        return cls(
            a=Side.from_json(obj["a"]),
            b=Side.from_json(obj["b"]),
            threshold=float(obj["threshold"]),
            features=tuple(FeatureDrift.from_json(k, f) for k, f in obj["features"].items()),
            only_in_a=tuple(obj["only_in_a"]),
            only_in_b=tuple(obj["only_in_b"]),
            classes=tuple(
                ClassShift(c["id"], c["text"], int(c["a"]), int(c["b"]))
                for c in classes.get("rows", ())
            ),
            exact=tuple(Leak.from_json(x) for x in leaks["exact"]),
            near=tuple(Leak.from_json(x) for x in leaks["near"]),
            exceeded=frozenset(obj["exceeded"]),
            reasons=tuple(obj["reasons"]),
            failed=bool(obj["failed"]),
        )
