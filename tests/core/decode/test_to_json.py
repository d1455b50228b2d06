"""The JSON of numeric features is the same text whether it is written from Python
values (small features, no numpy) or from numpy arrays in blocks (large ones)."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from tfr_viewer.core.decode import to_json
from tfr_viewer.core.decode.payload_types import FeatureData
from tfr_viewer.core.json_text import dumps


def _floats() -> list[float]:
    rng = np.random.default_rng(3)
    bits = rng.integers(0, 2**32, 1500, dtype=np.uint64).astype(np.uint32).view(np.float32)
    plain = rng.normal(0, 1e3, 500).astype(np.float32)
    special = np.array([0.1, -0.0, 1e-45, 3.4028235e38, np.inf, -np.inf, np.nan], np.float32)
    return np.concatenate([bits, plain, special]).tolist()


@pytest.mark.parametrize(
    "kind, items",
    [("float", _floats()), ("int64", [0, -1, 2**63 - 1, -(2**63), *range(1000)])],
)
def test_small_and_large_features_are_written_alike(kind, items, monkeypatch):
    written = []
    for limit in (len(items), 0):  # from Python values, then through numpy
        monkeypatch.setattr(to_json, "SMALL_FEATURE", limit)
        feature = to_json.feature_json(FeatureData.numbers(kind, items), lazy=True)
        assert isinstance(feature["values"], list) == (limit > 0)
        written.append(dumps(feature, indent=2))
    assert written[0] == written[1]
    eager = to_json.feature_json(FeatureData.numbers(kind, items))  # non-streamed JSON
    assert dumps(eager, indent=2) == written[0]
    if kind == "int64":  # no float: exactly what the standard library writes
        assert json.dumps(eager, indent=2) == written[0]


def test_numbers_become_an_array_on_first_use():
    fd = FeatureData.numbers("float", [0.5, 0.10000000149011612])
    assert len(fd) == 2 and fd.items() == [0.5, 0.10000000149011612]
    assert fd.values.dtype == np.float32 and fd.values.tolist() == fd.items()
    ints = FeatureData.numbers("int64", [2**63 - 1])
    assert ints.values.dtype == np.int64 and ints == FeatureData("int64", np.array([2**63 - 1]))
    copy = pickle.loads(pickle.dumps(FeatureData.numbers("int64", [1, 2])))
    assert copy.kind == "int64" and copy.values.tolist() == [1, 2]
    assert FeatureData("bytes", [b"a"]).items() == [b"a"]
