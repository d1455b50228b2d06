"""Compare two datasets (train and validation, yesterday's and today's shards).

Per feature present in both, the drift distances TFDV uses, always computed:

- L-infinity distance: the largest difference between the two shares of any one value,
  for categorical features (text values, or int64 features with at most
  :data:`CATEGORICAL_LIMIT` distinct values);
- Jensen–Shannon divergence (base 2, so between 0 and 1): of the value shares for
  categorical features, of histograms on :data:`BINS` common equal-width bins for numeric
  ones (from the statistics' samples: exact up to their sample size).

A feature's ``drift`` is its L-infinity distance when categorical, else its JS
divergence; the comparison fails when any drift exceeds the threshold (default
:data:`THRESHOLD`, as TFDV's examples use). Also: keys present in one dataset only,
the class distributions side by side, and images found in both (byte-identical by
SHA-256, or near by the difference hash), which is leakage across splits.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..io import CancelToken, Dataset
from ..io.dataset_blocks import iter_blocks
from ..query.extract import extract
from .image_quality import NEAR_BITS, difference_hash, near_pairs
from .stats import FeatureStats, Stats, dataset_stats

THRESHOLD = 0.1
CATEGORICAL_LIMIT = 50
BINS = 20


def linf(p: dict[Any, int], q: dict[Any, int]) -> float:
    """The L-infinity distance of the normalised counts ``p`` and ``q``."""
    tp, tq = sum(p.values()) or 1, sum(q.values()) or 1
    return max((abs(p.get(k, 0) / tp - q.get(k, 0) / tq) for k in {*p, *q}), default=0.0)


def js_divergence(counts_p: ArrayLike, counts_q: ArrayLike) -> float:
    """Jensen–Shannon divergence (base 2) of two count vectors over the same bins."""
    p = np.asarray(counts_p, dtype=np.float64)
    q = np.asarray(counts_q, dtype=np.float64)
    if p.sum() == 0 or q.sum() == 0:
        return 0.0 if p.sum() == q.sum() else 1.0
    p, q = p / p.sum(), q / q.sum()
    m = (p + q) / 2

    def kl(a: np.ndarray) -> float:
        nz = a > 0
        return float((a[nz] * np.log2(a[nz] / m[nz])).sum())

    return max(0.0, min(1.0, (kl(p) + kl(q)) / 2))


def _categories(fs: FeatureStats, kind: str) -> dict[Any, int] | None:
    table = fs.texts if kind == "bytes" else fs.ints if kind == "int64" else None
    if table is None or table.overflow or not table.counts:
        return None
    return dict(table.counts) if len(table.counts) <= CATEGORICAL_LIMIT else None


def _histograms(a: FeatureStats, b: FeatureStats) -> dict[str, list[Any]] | None:
    """Both datasets' values on :data:`BINS` common equal-width bins."""
    na, nb = a.numbers, b.numbers
    if not na.count or not nb.count:
        return None
    lo, hi = min(na.min, nb.min), max(na.max, nb.max)
    edges = np.linspace(lo, hi if hi > lo else lo + 1, BINS + 1)
    ha, _ = np.histogram(na.sample(), edges)
    hb, _ = np.histogram(nb.sample(), edges)
    return {"edges": edges.tolist(), "a": ha.tolist(), "b": hb.tolist()}


def feature_drift(a: FeatureStats, b: FeatureStats, parsed_a: int, parsed_b: int) -> dict[str, Any]:
    """The drift figures of one feature present in both datasets, and both
    distributions (``values`` with counts per dataset, or histogram ``edges``)."""
    kind = a.kinds.most_common(1)[0][0] if a.kinds else "bytes"
    out: dict[str, Any] = {
        "kind": kind,
        "presence_a": a.present / parsed_a if parsed_a else 0.0,
        "presence_b": b.present / parsed_b if parsed_b else 0.0,
        "type": "other",
        "linf": None,
        "js": None,
        "drift": None,
        "distribution": None,
    }
    ca, cb = _categories(a, kind), _categories(b, kind)
    if ca is not None and cb is not None:
        keys = sorted({*ca, *cb}, key=lambda k: (-(ca.get(k, 0) + cb.get(k, 0)), str(k)))
        counts_a, counts_b = [ca.get(k, 0) for k in keys], [cb.get(k, 0) for k in keys]
        out.update(
            type="categorical",
            linf=linf(ca, cb),
            js=js_divergence(counts_a, counts_b),
            distribution={"values": keys, "a": counts_a, "b": counts_b},
        )
        out["drift"] = out["linf"]
    elif kind in ("int64", "float"):
        hist = _histograms(a, b)
        out.update(type="numeric", distribution=hist)
        if hist is not None:
            out["js"] = out["drift"] = js_divergence(hist["a"], hist["b"])
    return out


@dataclass(frozen=True)
class ImagePrint:
    """Where an image is and what it looks like."""

    record: int
    key: str
    sha256: bytes
    dhash: int | None


def _print(item: tuple[int, str, bytes]) -> ImagePrint:
    record, key, value = item
    return ImagePrint(record, key, hashlib.sha256(value).digest(), difference_hash(value))


def image_prints(
    ds: Dataset, keys: set[str], cancel: CancelToken | None = None
) -> list[ImagePrint]:
    """The SHA-256 and difference hash of every image value of ``keys``, a block of
    records at a time (only the hashes are kept)."""
    prints: list[ImagePrint] = []
    records = ds.undamaged(np.arange(len(ds)))
    with ThreadPoolExecutor(os.cpu_count() or 1, "tfr-image-prints") as pool:
        for positions, block in iter_blocks(ds, records, size=1024):
            if cancel is not None and cancel.cancelled:
                break
            found: list[tuple[int, str, bytes]] = []
            _, columns = extract(block, sorted(keys))
            for key, column in columns.items():
                if column.rag.values.dtype != object:
                    continue
                rows = column.rag.row_ids()
                for row, value in zip(rows.tolist(), column.rag.values.tolist(), strict=True):
                    if isinstance(value, bytes):
                        found.append((int(records[positions[row]]), key, value))
            prints += pool.map(_print, found)
    return prints


def leaks(
    da: Dataset, a: list[ImagePrint], db: Dataset, b: list[ImagePrint], bits: int = NEAR_BITS
) -> dict[str, list[dict[str, Any]]]:
    """Images of ``a`` found in ``b``: byte-identical, and near (not identical)."""

    def where(ds: Dataset, p: ImagePrint) -> dict[str, Any]:
        ref = ds.ref(p.record)
        return {"record": p.record, "file": ref.file, "offset": ref.offset, "feature": p.key}

    by_digest: dict[bytes, ImagePrint] = {}
    for p in a:
        by_digest.setdefault(p.sha256, p)
    exact = []
    matched: set[int] = set()
    for j, p in enumerate(b):
        first = by_digest.get(p.sha256)
        if first is not None:
            exact.append({"a": where(da, first), "b": where(db, p)})
            matched.add(j)
    hashed_a = [p for p in a if p.dhash is not None]
    hashed_b = [(j, p) for j, p in enumerate(b) if p.dhash is not None and j not in matched]
    hashes = np.array([p.dhash for p in hashed_a] + [p.dhash for _, p in hashed_b], np.uint64)
    near, named = [], set()
    for i, j, distance in near_pairs(hashes, bits):
        if i < len(hashed_a) <= j and j not in named:
            named.add(j)
            pa, pb = hashed_a[i], hashed_b[j - len(hashed_a)][1]
            near.append({"a": where(da, pa), "b": where(db, pb), "distance": distance})
    return {"exact": exact, "near": near}


def _classes(sa: Stats, sb: Stats) -> dict[str, Any] | None:
    for name in ("object_classes", "classes"):
        ca, cb = getattr(sa, name).counts, getattr(sb, name).counts
        if ca or cb:
            keys = sorted({*ca, *cb}, key=lambda k: (k[0], str(k[1])))
            rows = [
                {"id": i, "text": t, "a": ca.get((i, t), 0), "b": cb.get((i, t), 0)}
                for i, t in keys
            ]
            return {"level": name, "rows": rows}
    return None


def compare(
    da: Dataset,
    db: Dataset,
    *,
    threshold: float = THRESHOLD,
    near_bits: int = NEAR_BITS,
    allow_leaks: bool = False,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The comparison of two indexed datasets as plain JSON data (see the module). It
    fails on drift past ``threshold``, on images found in both (unless
    ``allow_leaks``), and when the datasets share no feature; ``reasons`` says why."""
    total = len(da) + len(db)
    sa = dataset_stats(da, cancel=cancel, progress=progress and (lambda d, _: progress(d, total)))
    base = len(da)
    sb = dataset_stats(
        db, cancel=cancel, progress=progress and (lambda d, _: progress(base + d, total))
    )
    pa = sa.schema.examples + sa.schema.sequence_examples
    pb = sb.schema.examples + sb.schema.sequence_examples
    both = sorted(set(sa.features) & set(sb.features))
    features = {k: feature_drift(sa.features[k], sb.features[k], pa, pb) for k in both}
    exceeded = [k for k, f in features.items() if f["drift"] is not None and f["drift"] > threshold]
    images = sa.image_keys | sb.image_keys
    found = leaks(
        da,
        image_prints(da, images & set(sa.features), cancel),
        db,
        image_prints(db, images & set(sb.features), cancel),
        near_bits,
    )
    return {
        "a": {"files": [f.path for f in da.files], "records": len(da)},
        "b": {"files": [f.path for f in db.files], "records": len(db)},
        "threshold": threshold,
        "features": features,
        "only_in_a": sorted(set(sa.features) - set(sb.features)),
        "only_in_b": sorted(set(sb.features) - set(sa.features)),
        "classes": _classes(sa, sb),
        "leaks": found,
        "exceeded": exceeded,
        "allow_leaks": allow_leaks,
        "reasons": (reasons := _reasons(exceeded, threshold, found, allow_leaks, sa, sb)),
        "failed": bool(reasons),
    }


def _reasons(
    exceeded: list[str],
    threshold: float,
    found: dict[str, list[Any]],
    allow_leaks: bool,
    sa: Stats,
    sb: Stats,
) -> list[str]:
    """Why the comparison fails, in words (none when it passes)."""
    out = []
    if exceeded:
        out.append(f"drift above {threshold:g} in {', '.join(exceeded)}")
    exact, near = len(found["exact"]), len(found["near"])
    if (exact or near) and not allow_leaks:
        both = " and ".join(
            part
            for part in (
                f"{exact:,} identical" if exact else "",
                f"{near:,} nearly identical" if near else "",
            )
            if part
        )
        out.append(
            f"{both} image(s) in both datasets: leakage across splits "
            "(--allow-leaks to pass anyway)"
        )
    if sa.features and sb.features and not set(sa.features) & set(sb.features):
        out.append("the datasets share no feature: they cannot be compared")
    return out
