"""Pick the feature keys worth a table column, from a sample of records."""

from __future__ import annotations

import re
from collections import Counter

from ..decode import decode, features_of
from ..io import Dataset

SAMPLE = 64
_PREFERRED = re.compile(r"(^|/)(label|labels|class|category|class/text|text|height|width)$")


def sample_features(ds: Dataset, n: int = SAMPLE) -> list[dict]:
    """The features of the first ``n`` undamaged records (Examples and contexts)."""
    out = []
    for i in ds.undamaged(range(min(n, len(ds)))).tolist():
        features = features_of(decode(ds.read(i)).payload)
        if features is not None:
            out.append(features)
    return out


def feature_kinds(sample: list[dict]) -> dict[str, str]:
    """The kind (``bytes``, ``float``, ``int64``) each key has most often in a sample."""
    seen: dict[str, Counter[str]] = {}
    for features in sample:
        for key, fd in features.items():
            seen.setdefault(key, Counter())[fd.kind] += 1
    return {key: counts.most_common(1)[0][0] for key, counts in seen.items()}


def feature_keys(sample: list[dict]) -> list[str]:
    """Keys seen in a sample, most common first."""
    counts: Counter[str] = Counter()
    for features in sample:
        counts.update(list(features))
    return [k for k, _ in counts.most_common()]


def choose_summary_keys(sample: list[dict], keys: list[str], limit: int = 3) -> list[str]:
    """Up to ``limit`` short scalar keys, preferring labels and image sizes."""
    scalar = [
        k
        for k in keys
        if sample
        and all(
            k in f and len(f[k]) == 1 and (f[k].kind != "bytes" or len(f[k].values[0]) <= 64)
            for f in sample
        )
    ]
    preferred = [k for k in scalar if _PREFERRED.search(k)]
    rest = [k for k in scalar if k not in preferred]
    return (preferred + rest)[:limit]
