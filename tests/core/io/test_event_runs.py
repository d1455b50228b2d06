"""A log folder opens as runs: every folder of its tree holding event files one run,
named as TensorBoard names it; a run's files in the order they were written (the
first event's wall time), whatever their names say; the same runs whatever the
spelling of the path."""

from __future__ import annotations

import os

from tests.summary_files import tensorboard_log, write_tf1_summaries
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.event_runs import log_runs, run_names
from tfr_viewer.core.io.paths import expand


def _logdir(root):
    # written later, named earlier: the wall time orders them
    write_tf1_summaries(root / "b" / "events.out.tfevents.100.host", start=500.0)
    write_tf1_summaries(root / "b" / "events.out.tfevents.200.host", start=50.0)
    write_tf1_summaries(root / "a" / "x" / "events.out.tfevents.1.host")
    write_tf1_summaries(root / "events.out.tfevents.3.host")
    write_tf1_summaries(root / ".hidden" / "events.out.tfevents.4.host")
    (root / "a" / "notes.txt").write_text("not a run")
    return root


def test_the_runs_of_a_log_folder_are_tensorboards(tmp_path):
    root = _logdir(tmp_path)
    runs = log_runs(str(root))
    assert [r.name for r in runs] == [".", ".hidden", "a/x", "b"]
    assert sorted(tensorboard_log(root).Runs()) == sorted(r.name for r in runs)
    assert [os.path.basename(p) for p in runs[3].files] == [
        "events.out.tfevents.200.host",
        "events.out.tfevents.100.host",
    ]


def test_a_log_folder_expands_run_by_run_in_written_order(tmp_path):
    root = _logdir(tmp_path)
    files = expand([str(root)])
    assert [os.path.relpath(p, root) for p in files] == [
        "events.out.tfevents.3.host",
        os.path.join(".hidden", "events.out.tfevents.4.host"),
        os.path.join("a", "x", "events.out.tfevents.1.host"),
        os.path.join("b", "events.out.tfevents.200.host"),
        os.path.join("b", "events.out.tfevents.100.host"),
    ]
    assert run_names(files) == [".", ".hidden", "a/x", "b", "b"]
    with Dataset.open([str(root)]) as ds:
        assert len(ds.files) == 5


def test_run_names_do_not_depend_on_the_paths_spelling(tmp_path, monkeypatch):
    root = _logdir(tmp_path)
    absolute = expand([str(root)])
    monkeypatch.chdir(root / "a")
    relative = expand([os.path.join("..", ".", "")])
    assert run_names(relative) == run_names(absolute)
    assert run_names([str(root / "b" / "events.out.tfevents.100.host")]) == ["."]


def test_a_folder_of_other_records_beside_event_files_is_no_log_folder(tmp_path):
    write_tf1_summaries(tmp_path / "events.out.tfevents.1.host")
    (tmp_path / "train.tfrecord").write_bytes(b"")
    write_tf1_summaries(tmp_path / "sub" / "events.out.tfevents.2.host")
    names = sorted(os.path.basename(p) for p in expand([str(tmp_path)]))
    assert names == ["events.out.tfevents.1.host", "train.tfrecord"]
