"""Infer a feature spec from the records, and emit tf.io parsing code for it.

Per key: the kinds seen (a key with two kinds is a conflict), in how many records it is
present, and the least and most values it holds. A key present in every record with the
same count becomes ``FixedLenFeature`` (shape ``[]`` for one value), anything else
``VarLenFeature``. SequenceExamples get context and sequence specs for
``tf.io.parse_single_sequence_example``. The step features of robot-learning episodes
(``steps/...``) are ``FixedLenSequenceFeature(one step's shape, allow_missing=True)``,
as TensorFlow Datasets parses them: one step's shape from ``features.json`` beside the
shards, else from the episodes of a sample of records when they agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import kernels
from ..io import CancelToken, Dataset
from ..io.dataset_blocks import iter_blocks
from ..io.payload_block import PayloadBlock

TF_DTYPES = {"bytes": "tf.string", "float": "tf.float32", "int64": "tf.int64"}
_KIND_NAMES = ("bytes", "float", "int64")
_KIND_OF = {"bytes_list": "bytes", "float_list": "float", "int64_list": "int64"}


@dataclass
class KeyStats:
    kinds: Counter[str] = field(default_factory=Counter)
    present: int = 0
    min_count: int | None = None
    max_count: int | None = None

    def add(self, kind: str | None, count: int) -> None:
        self.present += 1
        if kind is not None:
            self.kinds[kind] += 1
        self.min_count = count if self.min_count is None else min(self.min_count, count)
        self.max_count = count if self.max_count is None else max(self.max_count, count)

    @property
    def kind(self) -> str:
        """The most common kind (of equally common ones, the first in name order, so
        that the answer does not depend on the order in which parts were merged)."""
        return min(self.kinds, key=lambda k: (-self.kinds[k], k)) if self.kinds else "bytes"

    @property
    def conflict(self) -> bool:
        return len(self.kinds) > 1


@dataclass
class Schema:
    records: int = 0
    examples: int = 0
    sequence_examples: int = 0
    others: int = 0
    features: dict[str, KeyStats] = field(default_factory=dict)  # or the context
    sequence: dict[str, KeyStats] = field(default_factory=dict)  # per-step counts
    steps: dict[str, tuple[int, ...]] = field(default_factory=dict)  # an episode step's shape

    @property
    def is_sequence(self) -> bool:
        return self.sequence_examples > 0 and self.sequence_examples >= self.examples

    def merge(self, later: Schema) -> None:
        """Count in the schema of records that follow this one's (kinds keep the order
        in which they were first seen, so ties resolve as one pass resolves them)."""
        self.records += later.records
        self.examples += later.examples
        self.sequence_examples += later.sequence_examples
        self.others += later.others
        for mine, theirs in ((self.features, later.features), (self.sequence, later.sequence)):
            for key, stats in theirs.items():
                into = mine.setdefault(key, KeyStats())
                into.kinds.update(stats.kinds)
                into.present += stats.present
                for name, pick in (("min_count", min), ("max_count", max)):
                    a, b = getattr(into, name), getattr(stats, name)
                    setattr(into, name, b if a is None else a if b is None else pick(a, b))

    def _parsed(self) -> int:
        return self.examples + self.sequence_examples

    def spec(self, key: str, stats: KeyStats, sequence: bool = False) -> str:
        dtype = TF_DTYPES[stats.kind]
        step = self.steps.get(key) if not sequence and not stats.conflict else None
        if step is not None:
            return f"tf.io.FixedLenSequenceFeature({list(step)}, {dtype}, allow_missing=True)"
        fixed = (
            not stats.conflict
            and stats.min_count == stats.max_count
            and (sequence or stats.present == self._parsed())
            and (stats.max_count or 0) > 0
        )
        if not fixed:
            return f"tf.io.VarLenFeature({dtype})"
        shape = "[]" if stats.max_count == 1 else f"[{stats.max_count}]"
        if sequence:
            return f"tf.io.FixedLenSequenceFeature({shape}, {dtype})"
        return f"tf.io.FixedLenFeature({shape}, {dtype})"

    def conflicts(self) -> list[str]:
        out = []
        for where, table in (("feature", self.features), ("sequence feature", self.sequence)):
            for key, stats in sorted(table.items()):
                if stats.conflict:
                    seen = ", ".join(f"{k} in {n}" for k, n in sorted(stats.kinds.items()))
                    out.append(f"{where} {key!r} has several kinds ({seen} records)")
        return out

    def _dict(self, name: str, table: dict[str, KeyStats], sequence: bool) -> list[str]:
        lines = [f"{name} = {{"]
        for key, stats in sorted(table.items()):
            note = f"  # conflict: {dict(stats.kinds)}" if stats.conflict else ""
            lines.append(f"    {key!r}: {self.spec(key, stats, sequence)},{note}")
        lines.append("}")
        return lines

    def python(self) -> str:
        """Code defining ``feature_description`` (or context/sequence specs)."""
        lines = ["import tensorflow as tf", ""]
        if self.is_sequence:
            lines += self._dict("context_features", self.features, False)
            lines += self._dict("sequence_features", self.sequence, True)
            lines += [
                "",
                "# tf.io.parse_single_sequence_example(record, context_features,",
                "#                                      sequence_features)",
            ]
        else:
            lines += self._dict("feature_description", self.features, False)
            lines += ["", "# tf.io.parse_single_example(record, feature_description)"]
        return "\n".join(lines) + "\n"

    def _table_json(self, table: dict[str, KeyStats], sequence: bool) -> dict[str, Any]:
        return {
            key: {
                "kind": stats.kind,
                "kinds": dict(sorted(stats.kinds.items())),
                "present": stats.present,
                "missing": (self._parsed() - stats.present) if not sequence else None,
                "min_count": stats.min_count,
                "max_count": stats.max_count,
                "spec": self.spec(key, stats, sequence),
            }
            for key, stats in sorted(table.items())
        }

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "records": self.records,
            "examples": self.examples,
            "sequence_examples": self.sequence_examples,
            "other_payloads": self.others,
            "type": "sequence_example" if self.is_sequence else "example",
            "features": self._table_json(self.features, False),
            "conflicts": self.conflicts(),
        }
        if self.is_sequence:
            out["sequence_features"] = self._table_json(self.sequence, True)
        return out


def _add_features(table: dict[str, KeyStats], fmap: Any) -> None:
    for key in fmap:
        feature = fmap[key]
        which = feature.WhichOneof("kind")
        count = len(getattr(feature, which).value) if which else 0
        stats = table.get(key)
        if stats is None:
            stats = table[key] = KeyStats()
        stats.add(_KIND_OF.get(which) if which else None, count)


def add_block(schema: Schema, block: PayloadBlock) -> None:
    """Count the features of every record of ``block`` into ``schema``, in one call to
    the compiled core when it is in use."""
    found = kernels.discover(block.buf, block.starts, block.lengths)
    if found is None:
        for r in range(block.rows):
            add_payload(schema, block.payload(r))
        return
    types = np.bincount(found.row_types, minlength=4)
    schema.records += int(types[: kernels.ROW_UNREAD].sum())
    schema.others += int(types[kernels.ROW_OTHER])
    schema.examples += int(types[kernels.ROW_EXAMPLE])
    schema.sequence_examples += int(types[kernels.ROW_SEQUENCE])
    for facts in found.keys:
        where = schema.sequence if facts.sequence else schema.features
        merge_stats(
            where.setdefault(facts.key, KeyStats()),
            facts.present,
            facts.kinds,
            facts.first,
            facts.least,
            facts.most,
        )
    for r in np.flatnonzero(found.row_types == kernels.ROW_UNREAD).tolist():
        add_payload(schema, block.payload(r))  # nested past what the compiled core follows


def merge_stats(
    stats: KeyStats,
    present: int,
    kinds: tuple[int, ...],
    first: tuple[int, ...],
    least: int,
    most: int,
) -> None:
    """Add counts from the compiled core (by kind: none, bytes, float, int64, each with
    the order in which it was first seen) to ``stats``."""
    if not present:
        return
    for _order, name, count in sorted(zip(first[1:], _KIND_NAMES, kinds[1:], strict=True)):
        if count:
            stats.kinds[name] += count
    stats.present += present
    stats.min_count = least if stats.min_count is None else min(stats.min_count, least)
    stats.max_count = most if stats.max_count is None else max(stats.max_count, most)


def add_payload(schema: Schema, payload: bytes) -> None:
    """Count one record's features into ``schema``."""
    from ..decode.keyed_read import sequence_example

    schema.records += 1
    seq = sequence_example(payload)
    if seq is None:
        schema.others += 1
        return
    has_context, context, lists = seq
    if len(lists):
        schema.sequence_examples += 1
        _add_features(schema.features, context)
        for key in lists:
            for step in lists[key].feature:
                which = step.WhichOneof("kind")
                count = len(getattr(step, which).value) if which else 0
                stats = schema.sequence.setdefault(key, KeyStats())
                stats.add(_KIND_OF.get(which) if which else None, count)
        return
    if not payload or not has_context:
        schema.others += 1
        return
    schema.examples += 1
    _add_features(schema.features, context)


def infer_schema(
    ds: Dataset,
    records: Iterable[int] | None = None,
    *,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
    block: int = 1 << 15,
    steps: bool = True,
) -> Schema:
    """Infer over ``records`` (global numbers; default all) of an indexed dataset.
    Damaged records are skipped. Stops early, with what it has, when cancelled. With
    ``steps``, an episode's step features get one step's shape (:func:`step_shapes`);
    without, no decoder is loaded (the keys' kinds alone)."""
    schema = Schema()
    chosen = np.arange(len(ds)) if records is None else np.fromiter(records, dtype=np.int64)
    chosen = ds.undamaged(chosen)
    total = len(chosen)
    done = 0
    for _, payloads in iter_blocks(ds, chosen, block):
        if cancel is not None and cancel.cancelled:
            break
        add_block(schema, payloads)
        done += payloads.rows
        if progress is not None:
            progress(done, total)
    if progress is not None:
        progress(total, total)
    if steps:
        from ..decode.episodes import is_episode

        if is_episode(schema.features):
            schema.steps = step_shapes(ds, chosen[:EPISODES_SAMPLED].tolist())
    return schema


EPISODES_SAMPLED = 16  # episodes read for their steps' shapes without features.json


def step_shapes(ds: Dataset, sample: list[int]) -> dict[str, tuple[int, ...]]:
    """One step's shape of each step feature of ``ds``'s episodes, by key: as
    ``features.json`` says when the folder has it (and it opens no dimension), else as
    every episode of ``sample`` that holds the feature agrees."""
    from ..decode.episodes import STEPS, read_episode
    from ..decode.file_payloads import decode_record
    from ..decode.payload_types import features_of
    from ..io.tfds import info_of

    info = info_of(f.path for f in ds.files)
    specs = info.features if info is not None else {}
    out: dict[str, tuple[int, ...]] = {}
    for key, spec in specs.items():
        if spec.sequence == STEPS and spec.kind in ("tensor", "image", "text", "class_label"):
            one = () if spec.kind != "tensor" else spec.shape
            if all(d is not None for d in one):
                out[key] = tuple(int(d) for d in one if d is not None)
    seen: dict[str, set[tuple[int, ...]]] = {}
    for record in sample:
        try:
            features = features_of(decode_record(ds, record).payload)
            episode = read_episode(features, specs) if features else None
        except Exception:  # noqa: BLE001 - a record that is no episode tells nothing here
            continue
        if episode is None:
            continue
        for name, values in episode.steps.items():
            key = f"{STEPS}/{name}"
            kind = episode.kinds[name]
            shape = tuple(np.asarray(values).shape[1:]) if kind == "tensor" else ()
            seen.setdefault(key, set()).add(shape if kind != "values" else (-1,))
    for key, shapes in seen.items():
        if key not in out and len(shapes) == 1 and (-1,) not in shapes:
            out[key] = shapes.pop()
    return out


def first_keys(ds: Dataset) -> list[str]:
    """The feature keys of the first intact record of the indexed ``ds`` (among its
    first 64), read without decoding it: one compiled call, or protobuf's reading of
    the keys on the pure-Python path. None of a record that is no Example."""
    intact = ds.undamaged(np.arange(min(len(ds), 64), dtype=np.int64))
    for _, block in iter_blocks(ds, intact[:1]):
        found = kernels.discover(block.buf, block.starts, block.lengths)
        if found is not None:
            return [k.key for k in found.keys if not k.sequence]
        from ..decode.keyed_read import sequence_example

        read = sequence_example(bytes(block.payload(0)))
        return list(read[1]) if read is not None and not len(read[2]) else []
    return []


def sample_kinds(ds: Dataset, n: int = 64) -> dict[str, str]:
    """The kind each feature key has most often in the first ``n`` records (indexed at
    least that far); the context's keys for SequenceExamples."""
    schema = infer_schema(ds, range(min(n, len(ds))), steps=False)
    return {key: stats.kind for key, stats in schema.features.items()}
