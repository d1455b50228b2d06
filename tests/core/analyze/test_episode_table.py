"""The filter language over the episode table's rows: each column as the table says,
a name the table has not refused with its columns, a mistake shown at its column."""

from __future__ import annotations

import numpy as np
import pytest

from tfr_viewer.core.analyze.episode_table import (
    COLUMNS,
    EpisodeRow,
    episode_row,
    rows_matching,
)
from tfr_viewer.core.decode.episodes import Episode
from tfr_viewer.core.query.language import QueryError


def _row(record, length=10, instruction="pick", split="train", findings=(), reward=1.0):
    return EpisodeRow(
        record,
        "data.tfrecord",
        record * 100,
        1000 + record,
        split,
        length,
        instruction,
        True,
        reward > 0 if reward is not None else None,
        reward,
        reward > 0 if reward is not None else None,
        findings,
    )


ROWS = [
    _row(0),
    _row(1, length=3),
    _row(2, instruction=""),
    _row(3, findings=("camera_blank", "episode_short"), split="val"),
    _row(4, reward=0.0, split="val"),
    _row(5, instruction=None, reward=None, split=None),
]


@pytest.mark.parametrize(
    ("text", "records"),
    [
        ("len(steps) < 5", [1]),
        ("length >= 10", [0, 2, 3, 4, 5]),
        ('instruction == ""', [2]),
        ('not has("instruction")', [5]),
        ('"camera_blank" in findings', [3]),
        ("len(findings) == 0", [0, 1, 2, 4, 5]),
        ('split == "val" and not success', [4]),
        ("success", [0, 1, 2, 3]),
        ("reward < 0.5", [4]),
        ("record.length > 1002", [3, 4, 5]),
        ("index == 3 or record == 4", [3, 4]),
        ('contains(instruction, "ic")', [0, 1, 3, 4]),
    ],
)
def test_each_column_filters_as_the_table_says(text, records):
    assert [r.record for r in rows_matching(ROWS, text)] == records


def test_a_name_the_table_has_not_is_refused_with_its_columns():
    with pytest.raises(QueryError) as caught:
        rows_matching(ROWS, "len(stepz) < 5")
    assert "no column 'stepz'" in str(caught.value)
    assert all(name in str(caught.value) for name in COLUMNS)
    with pytest.raises(QueryError) as caught:
        rows_matching(ROWS, "len(steps < 5")
    assert caught.value.column == 4


def test_a_row_reads_the_episode_s_last_step():
    flags = np.array([True, False, False])
    last = np.array([False, False, False])  # never ends
    episode = Episode(
        3,
        {
            "is_first": flags,
            "is_last": last,
            "reward": np.array([0.0, 0.5, 2.0], np.float32),
            "language_instruction": [b"open", b"open", b"open"],
        },
        {
            "is_first": "tensor",
            "is_last": "tensor",
            "reward": "tensor",
            "language_instruction": "text",
        },
        record=7,
    )
    row = episode_row(episode, "a.tfrecord", 12, 345, "train")
    assert (row.record, row.length, row.instruction, row.ends, row.terminal) == (
        7,
        3,
        "open",
        False,
        None,
    )
    assert row.reward == 2.5 and row.success is True
    assert row.to_json()["findings"] == [] and row.to_json()["split"] == "train"
