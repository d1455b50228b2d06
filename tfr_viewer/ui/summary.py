"""Pick the feature keys worth a table column, from a sample of records."""

from __future__ import annotations

import re
from collections import Counter

from ..core.dataset import Dataset
from ..core.payloads import decode
from ..core.payloads.types import ExamplePayload, SequenceExamplePayload

SAMPLE = 64
_PREFERRED = re.compile(r"(^|/)(label|labels|class|category|class/text|text|height|width)$")


def _features(ds: Dataset, n: int = SAMPLE) -> list[dict]:
    out = []
    for i in range(min(n, len(ds))):
        if ds.ref(i).status.damaged:
            continue
        p = decode(ds.read(i)).payload
        if isinstance(p, ExamplePayload):
            out.append(p.features)
        elif isinstance(p, SequenceExamplePayload):
            out.append(p.context)
    return out


def feature_keys(ds: Dataset) -> list[str]:
    """Keys seen in a sample, most common first."""
    counts: Counter[str] = Counter()
    for features in _features(ds):
        counts.update(list(features))
    return [k for k, _ in counts.most_common()]


def choose_summary_keys(ds: Dataset, keys: list[str], limit: int = 3) -> list[str]:
    """Up to ``limit`` short scalar keys, preferring labels and image sizes."""
    sample = _features(ds)
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
