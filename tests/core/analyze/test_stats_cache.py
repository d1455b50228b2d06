"""Per-file statistics come back from the persistent cache exactly, and a changed file
is read again."""

from __future__ import annotations

import os

import pytest

from tests.planted_faults import planted_dataset
from tfr_viewer.core.analyze import stats as stats_module, stats_cache
from tfr_viewer.core.analyze.stats import dataset_stats
from tfr_viewer.core.io.dataset import Dataset


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TFR_VIEWER_CACHE_MIN_BYTES", "0")
    monkeypatch.delenv("TFR_VIEWER_NO_CACHE", raising=False)


def _stats(path) -> dict:
    with Dataset([str(path)]) as ds:
        ds.index()
        return dataset_stats(ds).to_json()


def test_the_second_pass_comes_from_the_cache(tmp_path, cache, monkeypatch):
    path = tmp_path / "data.tfrecord"
    planted_dataset(path)
    first = _stats(path)

    def no_reading(*args, **kwargs):
        raise AssertionError("the payloads were read again")

    with monkeypatch.context() as m:
        m.setattr(stats_module, "iter_blocks", no_reading)
        assert _stats(path) == first
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    with monkeypatch.context() as m:
        m.setattr(stats_module, "iter_blocks", no_reading)
        with pytest.raises(AssertionError, match="read again"):
            _stats(path)


def test_a_state_round_trip_keeps_every_figure(tmp_path, monkeypatch):
    monkeypatch.setattr(stats_cache.sketch, "SAMPLE_SIZE", 20)
    path = tmp_path / "data.tfrecord"
    planted_dataset(path)
    with Dataset([str(path)]) as ds:
        ds.index()
        st = dataset_stats(ds)
    again = stats_cache.from_state(*stats_cache.to_state(st))
    assert again.to_json() == st.to_json()
    assert again.features["image/object/bbox/xmin"].numbers.sampled
