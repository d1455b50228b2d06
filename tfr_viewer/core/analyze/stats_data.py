"""The mergeable statistics of a dataset or of one file: plain data with ``merge`` and
``to_json`` (the pass that fills them is :mod:`.stats`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .roles import Roles, find_roles
from .schema import Schema
from .sketch import Categories, Distinct, Numeric


@dataclass
class ImageStats:
    """Figures of the image values of one key: size, format and mode from the headers
    of those that decode; ``undecodable`` counts those that do not, and ``others`` the
    key's values that are no image at all (undecodable too, where the key holds images)."""

    formats: Categories = field(default_factory=Categories)
    modes: Categories = field(default_factory=Categories)
    width: Numeric = field(default_factory=Numeric)
    height: Numeric = field(default_factory=Numeric)
    undecodable: int = 0
    others: int = 0

    def merge(self, other: ImageStats) -> None:
        self.formats.merge(other.formats)
        self.modes.merge(other.modes)
        self.width.merge(other.width)
        self.height.merge(other.height)
        self.undecodable += other.undecodable
        self.others += other.others

    def to_json(self) -> dict[str, Any]:
        return {
            "count": self.width.count + self.undecodable + self.others,
            "formats": dict(self.formats.top(50)),
            "modes": dict(self.modes.top(50)),
            "width": self.width.to_json(),
            "height": self.height.to_json(),
            "undecodable": self.undecodable + self.others,
        }


@dataclass
class FeatureStats:
    """Figures of one feature key."""

    present: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    value_counts: Numeric = field(default_factory=Numeric)
    count_histogram: Categories = field(default_factory=Categories)
    numbers: Numeric = field(default_factory=Numeric)
    sizes: Numeric = field(default_factory=Numeric)
    distinct: Distinct = field(default_factory=Distinct)
    texts: Categories = field(default_factory=Categories)
    ints: Categories = field(default_factory=Categories)  # int64 values, while few
    images: ImageStats = field(default_factory=ImageStats)

    def merge(self, other: FeatureStats) -> None:
        self.present += other.present
        self.kinds.update(other.kinds)
        for name in ("value_counts", "count_histogram", "numbers", "sizes", "distinct"):
            getattr(self, name).merge(getattr(other, name))
        self.texts.merge(other.texts)
        self.ints.merge(other.ints)
        self.images.merge(other.images)

    def to_json(self, parsed: int) -> dict[str, Any]:
        kind = self.kinds.most_common(1)[0][0] if self.kinds else "bytes"
        out: dict[str, Any] = {
            "kind": kind,
            "kinds": dict(sorted(self.kinds.items())),
            "present": self.present,
            "presence": self.present / parsed if parsed else 0.0,
            "missing": parsed - self.present,
            "value_counts": {
                **self.value_counts.to_json(),
                "per_record": {str(k): v for k, v in sorted(self.count_histogram.counts.items())},
            },
        }
        if self.numbers.count or self.numbers.nan or self.numbers.inf:
            out["numeric"] = self.numbers.to_json()
            if self.ints.counts and not self.ints.overflow and len(self.ints.counts) <= 50:
                out["numeric"]["values"] = [[v, n] for v, n in sorted(self.ints.counts.items())]
        if self.sizes.count:
            out["bytes"] = {
                "count": self.sizes.count,
                "sizes": self.sizes.to_json(),
                "distinct": self.distinct.estimate(),
                "top": [[t, n] for t, n in self.texts.top()],
                "high_cardinality": self.texts.overflow,
            }
        if self.images.width.count or self.images.undecodable:
            out["images"] = self.images.to_json()
        return out


@dataclass
class Stats:
    """The mergeable statistics of a dataset (or of one file of it)."""

    files: int = 0
    records: int = 0
    damaged: int = 0
    schema: Schema = field(default_factory=Schema)
    features: dict[str, FeatureStats] = field(default_factory=dict)
    image_keys: set[str] = field(default_factory=set)
    classes: Categories = field(default_factory=Categories)  # (id, text) per image
    object_classes: Categories = field(default_factory=Categories)  # (id, text) per box
    boxes_per_image: Numeric = field(default_factory=Numeric)
    box_area: Numeric = field(default_factory=Numeric)
    box_aspect: Numeric = field(default_factory=Numeric)
    # class names by key, where the dataset describes them (a TFDS folder's ClassLabel
    # files): given to ids that carry no text of their own (see :func:`named`)
    class_names: dict[str, list[str]] = field(default_factory=dict)
    # records read as the user's message type: those the type parsed, and its name
    messages: int = 0
    message: str | None = None

    def roles(self) -> Roles:
        """The layout the keys follow (none for paths of the user's message type)."""
        if self.message is not None:
            return find_roles({}, set())
        kinds = {k: s.kinds.most_common(1)[0][0] for k, s in self.features.items() if s.kinds}
        return find_roles(kinds, self.image_keys)

    def merge(self, other: Stats) -> Stats:
        self.files += other.files
        self.records += other.records
        self.damaged += other.damaged
        s, o = self.schema, other.schema
        s.records += o.records
        s.examples += o.examples
        s.sequence_examples += o.sequence_examples
        s.others += o.others
        self.messages += other.messages
        self.message = self.message or other.message
        for key, fs in other.features.items():
            self.features.setdefault(key, FeatureStats()).merge(fs)
        self.image_keys |= other.image_keys
        for name in ("classes", "object_classes", "boxes_per_image", "box_area", "box_aspect"):
            getattr(self, name).merge(getattr(other, name))
        return self

    def to_json(self) -> dict[str, Any]:
        parsed = self.schema.examples + self.schema.sequence_examples + self.messages
        roles = self.roles()
        out: dict[str, Any] = {
            "records": self.records,
            "files": self.files,
            "damaged": self.damaged,
            "examples": self.schema.examples,
            "sequence_examples": self.schema.sequence_examples,
            "other_payloads": self.schema.others,
            "features": {k: self.features[k].to_json(parsed) for k in sorted(self.features)},
            "roles": {k: v for k, v in roles.__dict__.items() if v},
        }
        if self.message is not None:
            out["message"], out["messages"] = self.message, self.messages
        if self.classes.counts or self.classes.overflow:
            out["classes"] = _classes_json(self.classes, roles.label, self.class_names)
        if self.object_classes.counts or self.object_classes.overflow:
            out["object_classes"] = _classes_json(
                self.object_classes, roles.object_label, self.class_names
            )
        if roles.detection:
            out["boxes"] = {
                "per_image": self.boxes_per_image.to_json(),
                "area": self.box_area.to_json(),
                "aspect_ratio": self.box_aspect.to_json(),
            }
        return out


def _classes_json(
    classes: Categories, key: str | None, names: dict[str, list[str]]
) -> dict[str, Any]:
    rows = sorted(classes.counts.items(), key=lambda kv: (kv[0][0] is None, kv[0]))
    known = names.get(key or "", [])

    def text(i: int | None, t: str | None) -> str | None:
        if t is None and isinstance(i, int) and 0 <= i < len(known):
            return known[i]
        return t

    return {
        "key": key,
        "classes": [{"id": i, "text": text(i, t), "count": n} for (i, t), n in rows],
        "high_cardinality": classes.overflow,
    }


def named(stats: Stats, paths: list[str]) -> Stats:
    """``stats`` with the class names the dataset's folder describes (a TFDS folder's
    ClassLabel files), for the ids that carry no text of their own."""
    from ..io.tfds import info_of

    info = info_of(paths)
    if info is not None:
        stats.class_names = dict(info.class_names)
    return stats
