"""``stats``' report as typed figures: what ``stats --json`` says, read into frozen
dataclasses, so that a panel or a report reads attributes, never the JSON's keys.

:meth:`StatsSummary.from_json` is the one reading of that JSON (a report computed now
and read back, or one saved by ``stats --json`` or a Beam job); the JSON itself is
written by :meth:`.stats_data.Stats.to_json`. Floats are as the JSON has them: a number,
a non-finite one read from its text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Number = float | int


def _number(value: Any) -> Number | None:
    """A figure of the JSON: a non-finite float, which the JSON writes as its text,
    as that float again."""
    return float(value) if isinstance(value, str) else value


@dataclass(frozen=True)
class Histogram:
    """Equal-width bins: ``len(edges) == len(counts) + 1``; ``sampled`` when the
    counts were scaled from a sample."""

    edges: tuple[float, ...]
    counts: tuple[int, ...]
    sampled: bool

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Histogram:
        return cls(tuple(obj["edges"]), tuple(obj["counts"]), bool(obj["sampled"]))


@dataclass(frozen=True)
class NumericSummary:
    """Figures of numbers: ``min``, ``max``, ``mean`` and ``std`` are None when there
    are none (``count`` 0); ``nan`` and ``inf`` are counted apart."""

    count: int
    min: Number | None
    max: Number | None
    mean: Number | None
    std: Number | None
    zeros: int
    nan: int
    inf: int
    quantiles: tuple[tuple[str, Number | None], ...]
    histogram: Histogram

    @property
    def single(self) -> bool:
        """Every value is the same one."""
        return bool(self.count) and self.min == self.max

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> NumericSummary:
        return cls(
            count=int(obj["count"]),
            min=_number(obj["min"]),
            max=_number(obj["max"]),
            mean=_number(obj["mean"]),
            std=_number(obj["std"]),
            zeros=int(obj["zeros"]),
            nan=int(obj["nan"]),
            inf=int(obj["inf"]),
            quantiles=tuple((q, _number(v)) for q, v in obj["quantiles"].items()),
            histogram=Histogram.from_json(obj["histogram"]),
        )


@dataclass(frozen=True)
class ImageSummary:
    """The image values of a key: formats and modes by count, sizes from the headers,
    and how many did not decode."""

    count: int
    formats: tuple[tuple[str, int], ...]
    modes: tuple[tuple[str, int], ...]
    width: NumericSummary
    height: NumericSummary
    undecodable: int

    def side(self, name: str) -> NumericSummary:
        """``width`` or ``height``."""
        return self.width if name == "width" else self.height

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ImageSummary:
        return cls(
            count=int(obj["count"]),
            formats=tuple(obj["formats"].items()),
            modes=tuple(obj["modes"].items()),
            width=NumericSummary.from_json(obj["width"]),
            height=NumericSummary.from_json(obj["height"]),
            undecodable=int(obj["undecodable"]),
        )


@dataclass(frozen=True)
class BytesSummary:
    """The bytes values of a key: their sizes, an estimate of how many differ, the most
    frequent texts (``high_cardinality`` when too many differ to count them)."""

    count: int
    sizes: NumericSummary
    distinct: int
    top: tuple[tuple[str, int], ...]
    high_cardinality: bool

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> BytesSummary:
        return cls(
            count=int(obj["count"]),
            sizes=NumericSummary.from_json(obj["sizes"]),
            distinct=int(obj["distinct"]),
            top=tuple((str(t), int(n)) for t, n in obj["top"]),
            high_cardinality=bool(obj["high_cardinality"]),
        )


@dataclass(frozen=True)
class FeatureSummary:
    """One feature key: its kind, how often it is present, how many values a record
    holds (``per_record``: count of values → records), and the figures of its numbers,
    bytes or images where it has them (``values``: every integer with its count, while
    they are few)."""

    kind: str
    kinds: tuple[tuple[str, int], ...]
    present: int
    presence: float
    missing: int
    value_counts: NumericSummary
    per_record: tuple[tuple[int, int], ...]
    numeric: NumericSummary | None
    values: tuple[tuple[Number, int], ...]
    bytes: BytesSummary | None
    images: ImageSummary | None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> FeatureSummary:
        counts = obj["value_counts"]
        numeric = obj.get("numeric")
        return cls(
            kind=str(obj["kind"]),
            kinds=tuple(obj["kinds"].items()),
            present=int(obj["present"]),
            presence=float(obj["presence"]),
            missing=int(obj["missing"]),
            value_counts=NumericSummary.from_json(counts),
            per_record=tuple(sorted((int(k), int(n)) for k, n in counts["per_record"].items())),
            numeric=NumericSummary.from_json(numeric) if numeric else None,
            values=tuple((v, int(n)) for v, n in (numeric or {}).get("values") or ()),
            bytes=BytesSummary.from_json(obj["bytes"]) if "bytes" in obj else None,
            images=ImageSummary.from_json(obj["images"]) if "images" in obj else None,
        )


@dataclass(frozen=True)
class ClassCount:
    """One class: its id and text (either may be None) and how many it counts."""

    id: int | None
    text: str | None
    count: int


@dataclass(frozen=True)
class ClassCounts:
    """The classes of one key (``key``), by id then text."""

    key: str | None
    classes: tuple[ClassCount, ...]
    high_cardinality: bool

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ClassCounts:
        rows = tuple(ClassCount(c["id"], c["text"], int(c["count"])) for c in obj["classes"])
        return cls(obj["key"], rows, bool(obj["high_cardinality"]))


@dataclass(frozen=True)
class BoxSummary:
    """Boxes per image, their area and their aspect ratio."""

    per_image: NumericSummary
    area: NumericSummary
    aspect_ratio: NumericSummary

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> BoxSummary:
        return cls(
            *(NumericSummary.from_json(obj[k]) for k in ("per_image", "area", "aspect_ratio"))
        )


@dataclass(frozen=True)
class StatsSummary:
    """A whole ``stats`` report: the counts, every feature by key (sorted), the keys'
    roles, the classes per image and per box, and the boxes' figures; ``source``, the
    JSON they were read from."""

    records: int
    files: int
    damaged: int
    examples: int
    sequence_examples: int
    other_payloads: int
    features: tuple[tuple[str, FeatureSummary], ...]
    roles: tuple[tuple[str, Any], ...]
    classes: ClassCounts | None
    object_classes: ClassCounts | None
    boxes: BoxSummary | None
    source: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    message: str | None = None  # the user's message type the records were read as

    def to_json(self) -> dict[str, Any]:
        """The JSON these figures were read from."""
        return dict(self.source)

    @property
    def class_counts(self) -> ClassCounts | None:
        """The classes the dataset is about: those of its boxes, else of its images."""
        return self.object_classes or self.classes

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> StatsSummary:
        """The figures of ``stats --json``; KeyError or TypeError when ``obj`` is not one."""

        def classes(key: str) -> ClassCounts | None:
            return ClassCounts.from_json(obj[key]) if obj.get(key) else None

        return cls(
            records=int(obj["records"]),
            files=int(obj["files"]),
            damaged=int(obj["damaged"]),
            examples=int(obj["examples"]),
            sequence_examples=int(obj["sequence_examples"]),
            other_payloads=int(obj["other_payloads"]),
            features=tuple((k, FeatureSummary.from_json(f)) for k, f in obj["features"].items()),
            roles=tuple(obj["roles"].items()),
            classes=classes("classes"),
            object_classes=classes("object_classes"),
            boxes=BoxSummary.from_json(obj["boxes"]) if obj.get("boxes") else None,
            source=obj,
            message=obj.get("message"),
        )
