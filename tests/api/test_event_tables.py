"""Event files in Python: ``tfv.open(logdir).to_pandas()`` is every scalar point,
``event_table(name)`` each table, as the command line writes them."""

from __future__ import annotations

import io

import pandas as pd
import pytest

import tfr_viewer as tfv
from tests.program import program
from tests.summary_files import write_summaries, write_tf1_summaries
from tfr_viewer.core.user_error import UserError


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("logs")
    write_summaries(root / "train", steps=5)
    write_tf1_summaries(root / "old" / "events.out.tfevents.1.host", steps=3)
    return root


def test_to_pandas_of_event_files_is_their_scalars_as_the_command_writes_them(logdir):
    with tfv.open(str(logdir)) as view:
        frame = view.to_pandas()
        histograms = view.event_table("histograms").to_pandas()
        with pytest.raises(UserError, match="whole datasets"):
            view[:3].event_table("scalars")
    written = pd.read_csv(io.StringIO(program("scalars", str(logdir)).stdout))
    assert isinstance(frame.tag.dtype, pd.CategoricalDtype)  # a tag repeats a million times
    texts = frame.astype({"run": "object", "tag": "object"})
    pd.testing.assert_frame_equal(texts, written.astype({"run": "object", "tag": "object"}))
    assert set(histograms.tag) == {"weights", "dist"}


def test_a_slimmer_copy_from_python(logdir, tmp_path):
    with tfv.open(logdir) as log:
        report = log.slim(str(tmp_path / "slim"), drop_plugins=["histograms"], steps=(1, None))
        with pytest.raises(tfv.UserError, match="every 0"):
            log.slim(str(tmp_path / "other"), every=0)
    facts = report.to_json()
    assert facts["values_dropped"] > 0 and facts["written"] < facts["bytes"]
    with tfv.open(tmp_path / "slim") as copy:
        table = copy.to_pandas()
    assert table.step.min() == 1
    with tfv.open(logdir) as log:
        original = log.to_pandas()
    assert len(table) == (original.step >= 1).sum()
