"""Per-file statistics kept in the persistent cache, so that the second ``stats`` (or
the Statistics panel) of a big file does not read it again.

An entry is the file's mergeable :class:`~.stats.Stats` as plain JSON (counts, extremes,
category counts) plus numpy arrays (samples, sketch minima), keyed like the index cache
by the file's path, size, modification time and inode: a changed file is read afresh.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from ..io import index_cache
from . import sketch
from .schema import Schema
from .sketch import Categories, Distinct, Numeric
from .stats_data import FeatureStats, ImageStats, Stats

# the format, and the sampling that shaped it: another sample size is another entry
KIND = f"stats-6-{sketch.SAMPLE_SIZE}-{sketch.TOP_LIMIT}"


class _Writer:
    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def numeric(self, name: str, n: Numeric) -> dict[str, Any]:
        n.sample()  # only the sample is kept
        self.arrays[f"{name}.k"] = n._keys.astype(np.uint64)
        self.arrays[f"{name}.v"] = n._values.astype(np.int64 if n.integers else np.float64)
        return {
            "integers": n.integers,
            "count": n.count,
            "total": n.total,
            "squares": n.squares,
            "min": n.min,
            "max": n.max,
            "zeros": n.zeros,
            "nan": n.nan,
            "inf": n.inf,
        }

    def distinct(self, name: str, d: Distinct) -> dict[str, Any]:
        self.arrays[f"{name}.m"] = d._mins
        return {"k": d.k}


def _categories(c: Categories) -> dict[str, Any]:
    return {
        "limit": c.limit,
        "overflow": c.overflow,
        "counts": [[k, n] for k, n in c.counts.items()],
    }


def _read_categories(state: dict[str, Any], pairs: bool = False) -> Categories:
    c = Categories(state["limit"])
    c.overflow = state["overflow"]
    c.counts = Counter({(tuple(k) if pairs else k): n for k, n in state["counts"]})
    return c


def _read_numeric(state: dict[str, Any], arrays: dict[str, np.ndarray], name: str) -> Numeric:
    n = Numeric()
    for field in ("count", "total", "squares", "min", "max", "zeros", "nan", "inf", "integers"):
        setattr(n, field, state[field])
    n._keys = np.array(arrays[f"{name}.k"], dtype=np.uint64)
    n._values = np.array(arrays[f"{name}.v"], dtype=np.int64 if n.integers else np.float64)
    return n


def to_state(st: Stats) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The JSON part and the arrays of ``st``."""
    w = _Writer()
    features = {}
    for i, (key, fs) in enumerate(st.features.items()):
        p = f"f{i}"
        features[key] = {
            "present": fs.present,
            "kinds": dict(fs.kinds),
            "value_counts": w.numeric(f"{p}.vc", fs.value_counts),
            "count_histogram": _categories(fs.count_histogram),
            "numbers": w.numeric(f"{p}.num", fs.numbers),
            "sizes": w.numeric(f"{p}.size", fs.sizes),
            "distinct": w.distinct(f"{p}.dist", fs.distinct),
            "texts": _categories(fs.texts),
            "ints": _categories(fs.ints),
            "images": {
                "formats": _categories(fs.images.formats),
                "modes": _categories(fs.images.modes),
                "width": w.numeric(f"{p}.iw", fs.images.width),
                "height": w.numeric(f"{p}.ih", fs.images.height),
                "undecodable": fs.images.undecodable,
                "others": fs.images.others,
            },
        }
    sc = st.schema
    meta = {
        "files": st.files,
        "records": st.records,
        "damaged": st.damaged,
        "schema": [sc.records, sc.examples, sc.sequence_examples, sc.others],
        "features": features,
        "image_keys": sorted(st.image_keys),
        "classes": _categories(st.classes),
        "object_classes": _categories(st.object_classes),
        "boxes_per_image": w.numeric("bpi", st.boxes_per_image),
        "box_area": w.numeric("area", st.box_area),
        "box_aspect": w.numeric("aspect", st.box_aspect),
    }
    return meta, w.arrays


def from_state(meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> Stats:
    """The :class:`Stats` that :func:`to_state` described."""
    schema = Schema()
    schema.records, schema.examples, schema.sequence_examples, schema.others = meta["schema"]
    st = Stats(files=meta["files"], records=meta["records"], damaged=meta["damaged"], schema=schema)
    for i, (key, f) in enumerate(meta["features"].items()):
        p = f"f{i}"
        fs = FeatureStats(present=f["present"], kinds=Counter(f["kinds"]))
        fs.value_counts = _read_numeric(f["value_counts"], arrays, f"{p}.vc")
        fs.count_histogram = _read_categories(f["count_histogram"])
        fs.numbers = _read_numeric(f["numbers"], arrays, f"{p}.num")
        fs.sizes = _read_numeric(f["sizes"], arrays, f"{p}.size")
        fs.distinct = Distinct(f["distinct"]["k"])
        fs.distinct._mins = np.array(arrays[f"{p}.dist.m"], dtype=np.uint64)
        fs.texts = _read_categories(f["texts"])
        fs.ints = _read_categories(f["ints"])
        img = f["images"]
        fs.images = ImageStats(
            _read_categories(img["formats"]),
            _read_categories(img["modes"]),
            _read_numeric(img["width"], arrays, f"{p}.iw"),
            _read_numeric(img["height"], arrays, f"{p}.ih"),
            img["undecodable"],
            img["others"],
        )
        st.features[key] = fs
    st.image_keys = set(meta["image_keys"])
    st.classes = _read_categories(meta["classes"], pairs=True)
    st.object_classes = _read_categories(meta["object_classes"], pairs=True)
    st.boxes_per_image = _read_numeric(meta["boxes_per_image"], arrays, "bpi")
    st.box_area = _read_numeric(meta["box_area"], arrays, "area")
    st.box_aspect = _read_numeric(meta["box_aspect"], arrays, "aspect")
    return st


def load(path: str) -> Stats | None:
    """The cached statistics of ``path`` as it is now, or None."""
    found = index_cache.load_extra(KIND, path)
    if found is None:
        return None
    try:
        return from_state(*found)
    except (KeyError, TypeError, ValueError):
        return None  # an entry this code cannot read is ignored, and rebuilt


def store(path: str, st: Stats) -> None:
    """Keep the statistics of ``path`` (best effort)."""
    index_cache.store_extra(KIND, path, *to_state(st))
