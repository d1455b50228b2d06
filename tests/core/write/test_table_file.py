"""A table written through the output layer: every format reads back the same values,
a coded column as its texts; a table whose writing fails halfway leaves no file and no
writer thread behind."""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd
import pytest

from tfr_viewer.core.write.table_file import Coded, TableTarget


def _blocks():
    for k in range(3):
        yield {
            "tag": Coded(np.array([0, 1, 0], dtype=np.int32), ["a", 'b,"c']),
            "value": np.array([0.1 * k, np.nan, -np.inf]),
            "step": np.array([k, k, k + 1], dtype=np.int64),
        }


@pytest.mark.parametrize("suffix", ["csv", "jsonl", "parquet"])
def test_every_format_reads_back_the_blocks(tmp_path, suffix):
    target = tmp_path / f"t.{suffix}"
    with TableTarget(str(target), ["tag", "value", "step"]) as writer:
        for block in _blocks():
            writer.write(block)
    assert writer.rows == 9
    back = {
        "csv": lambda: pd.read_csv(target),
        "jsonl": lambda: pd.read_json(target, lines=True, precise_float=True),
        "parquet": lambda: pd.read_parquet(target),
    }[suffix]()
    assert back.tag.astype(str).tolist() == ["a", 'b,"c', "a"] * 3
    assert back.step.tolist() == [0, 0, 1, 1, 1, 2, 2, 2, 3]
    values = back.value.astype(float).tolist()
    assert values[0::3] == [0.0, 0.1, 0.2] and all(np.isnan(values[1::3]))
    assert values[2::3] == [-np.inf] * 3


def test_a_table_that_fails_halfway_leaves_nothing(tmp_path):
    target = tmp_path / "t.parquet"
    threads = threading.active_count()
    with pytest.raises(RuntimeError, match="halfway"):
        with TableTarget(str(target), ["tag", "value", "step"]) as writer:
            for n, block in enumerate(_blocks()):
                writer.write(block)
                if n == 1:
                    raise RuntimeError("halfway")
    assert list(tmp_path.iterdir()) == []
    assert threading.active_count() == threads
