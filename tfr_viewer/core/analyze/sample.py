"""Pick the feature keys worth a table column, from a sample of records."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..decode import FeatureData, decode, features_of
from ..decode.layouts import is_prediction_key
from ..io import Dataset

SAMPLE = 64
_PREFERRED = re.compile(r"(^|/)(label|labels|class|category|class/text|text|height|width)$")


def sample_features(ds: Dataset, n: int = SAMPLE) -> list[dict[str, Any]]:
    """The features of the first ``n`` undamaged records (Examples and contexts)."""
    out = []
    for i in ds.undamaged(range(min(n, len(ds)))).tolist():
        features = features_of(decode(ds.read(i)).payload)
        if features is not None:
            out.append(features)
    return out


def sample_classes(sample: list[dict[str, Any]]) -> list[tuple[int | None, str | None]]:
    """The classes (id, text) the boxes and pictures of a sample hold, each once, by id."""
    from ..decode.layouts import recognise

    seen: dict[tuple[int | None, str | None], None] = {}
    for features in sample:
        for ann in recognise(features):
            for box in ann.boxes:
                seen[(box.label, box.text)] = None
            if ann.label is not None or ann.label_text:
                seen[(ann.label, ann.label_text)] = None
    seen.pop((None, None), None)
    return sorted(seen, key=lambda c: (c[0] is None, c[0] or 0, c[1] or ""))


def feature_kinds(sample: list[dict[str, Any]]) -> dict[str, str]:
    """The kind (``bytes``, ``float``, ``int64``) each key has most often in a sample."""
    seen: dict[str, Counter[str]] = {}
    for features in sample:
        for key, fd in features.items():
            seen.setdefault(key, Counter())[fd.kind] += 1
    return {key: counts.most_common(1)[0][0] for key, counts in seen.items()}


def feature_keys(sample: list[dict[str, Any]]) -> list[str]:
    """Keys seen in a sample, most common first."""
    counts: Counter[str] = Counter()
    for features in sample:
        counts.update(list(features))
    return [k for k, _ in counts.most_common()]


_CLASS_TEXT = re.compile(r"(^|/)(class/text|text|label_text|class_name|category_name)$")
MAX_LISTED = 12  # a list of more values per record is no summary


def choose_summary_keys(sample: list[dict[str, Any]], keys: list[str], limit: int = 3) -> list[str]:
    """Up to ``limit`` keys worth a table column: a few short values in most sampled
    records (a box list's class texts, a label; a record without boxes, a background
    picture, may hold none), never the same in every record (a constant
    ``image/height`` says nothing about a row); class texts first, then labels and
    classes, then the rest in the sample's order. A model's prediction lists come last:
    they describe the model, not the record."""
    if not sample:
        return []

    def short(fd: FeatureData) -> bool:
        values = fd.items()
        if len(values) > MAX_LISTED:
            return False
        return fd.kind != "bytes" or all(len(v) <= 64 for v in values)

    def held(key: str) -> int:
        return sum(1 for f in sample if key in f and len(f[key]))

    def varies(key: str) -> bool:
        first = sample[0][key].items() if key in sample[0] else []
        return len(sample) == 1 or any(
            (f[key].items() if key in f else []) != first for f in sample[1:]
        )

    fitting = [
        k for k in keys if all(short(f[k]) for f in sample if k in f) and 2 * held(k) > len(sample)
    ]
    useful = [k for k in fitting if varies(k)] or fitting
    texts = [k for k in useful if _CLASS_TEXT.search(k)]
    labels = [k for k in useful if k not in texts and _PREFERRED.search(k)]
    rest = [k for k in useful if k not in texts and k not in labels]
    ordered = texts + labels + rest
    ordered = [k for k in ordered if not is_prediction_key(k)] + [
        k for k in ordered if is_prediction_key(k)
    ]
    return ordered[:limit]
