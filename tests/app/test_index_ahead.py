"""A log folder read behind its index (the index scanned on a thread, the records read
as they are indexed): the same log as a read after the index, the read under way
while the index is not complete, the index's error raised and its warnings said on
the reader's thread, and the index stopped with the read."""

from __future__ import annotations

import gzip
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.app.test_event_log import _facts
from tests.summary_files import write_summaries, write_tf1_summaries
from tfr_viewer.app.event_log import read_log
from tfr_viewer.app.index_ahead import index_ahead, indexes_ahead
from tfr_viewer.app.task_state import Step, TaskState
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.problems import NotATFRecord

GUARD = 30  # seconds a test waits for the other thread before it fails


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("logs")
    write_summaries(root / "train", steps=30)
    write_tf1_summaries(root / "old" / "events.out.tfevents.1.host", steps=25)
    write_tf1_summaries(root / "eval" / "events.out.tfevents.2.host", steps=20)
    return root


def _no_index_thread() -> bool:
    return not any(t.name == "tfr-index-ahead" for t in threading.enumerate())


def test_a_log_read_behind_its_index_holds_what_a_read_after_it_holds(logdir):
    with Dataset.open([str(logdir)]) as ds:
        ds.index(verify=True)
        after = read_log(ds)
    with Dataset.open([str(logdir)]) as ds:
        assert indexes_ahead(ds)
        behind = read_log(ds)
        assert all(f.index.complete for f in ds.files)
        assert behind.end == len(ds) and behind.damaged == 0 and not behind.flagged
    assert _facts(behind.log) == _facts(after.log)
    assert _no_index_thread()


class _Told(TaskState):
    """Says what the reading told, and on which thread each warning came."""

    def __init__(self, on_step=None) -> None:
        self.steps: list[tuple[int, int | None]] = []
        self.warnings: list[tuple[str, str]] = []
        self.on_step = on_step
        self.stop = False

    @property
    def cancelled(self) -> bool:
        return self.stop

    @contextmanager
    def phase(self, label: str, total: int, unit: str = "records") -> Iterator[Step]:
        def step(done: int, told: int | None = None) -> None:
            self.steps.append((done, told))
            if self.on_step is not None:
                self.on_step(self)

        yield step

    def warn(self, text: str) -> None:
        self.warnings.append((text, threading.current_thread().name))


def test_the_records_are_read_while_the_index_is_still_scanned(logdir, monkeypatch):
    """The scan holds after its first file until the reader has read records: a read
    that waited for the whole index would never let it go on."""
    read_first = threading.Event()
    seen: list[tuple[int, bool]] = []
    real_scan = Dataset.scan

    def held_scan(self, **kwargs):
        for number, chunk in real_scan(self, **kwargs):
            if number > 0:  # the first file indexed whole: held until it is read
                read_first.wait(GUARD)
            yield number, chunk

    monkeypatch.setattr(Dataset, "scan", held_scan)

    def on_step(state: _Told) -> None:
        seen.append((state.steps[-1][0], ds.files[-1].index.complete))
        read_first.set()

    with Dataset.open([str(logdir)]) as ds:
        read = read_log(ds, _Told(on_step))
        first_file = len(ds.files[0].index)
        assert read.end == len(ds)
    assert seen[0] == (first_file, False)  # read while the last file was not indexed
    assert read_first.is_set()


def test_the_index_error_comes_out_of_the_read(tmp_path):
    folder = tmp_path / "run"
    write_tf1_summaries(folder / "events.out.tfevents.1.host", steps=5)
    (folder / "events.out.tfevents.2.host").write_bytes(b"no frames here, only words " * 40)
    with Dataset.open([str(tmp_path)]) as ds, pytest.raises(NotATFRecord):
        read_log(ds)
    assert _no_index_thread()


def test_a_cancelled_read_stops_its_index(logdir):
    def on_step(state: _Told) -> None:
        state.stop = True

    with Dataset.open([str(logdir)]) as ds:
        read = read_log(ds, _Told(on_step))
        assert read.end < len(ds) or not all(f.index.complete for f in ds.files)
        assert read.end == len(ds.files[0].index)  # the first file's records, once told
    assert _no_index_thread()


def test_the_index_warnings_are_said_on_the_readers_thread(logdir, monkeypatch):
    from tfr_viewer.app import indexing

    real = indexing.index

    def warning_index(ds, verify, state, *args, **kwargs):
        state.warn(f"said on {threading.current_thread().name}")
        real(ds, verify, state, *args, **kwargs)

    monkeypatch.setattr(indexing, "index", warning_index)
    state = _Told()
    with Dataset.open([str(logdir)]) as ds:
        read_log(ds, state)
    assert state.warnings == [("said on tfr-index-ahead", threading.current_thread().name)]


def test_the_counts_grow_to_the_whole_index(logdir):
    with Dataset.open([str(logdir)]) as ds, index_ahead(ds, TaskState()) as counts:
        told = list(counts)
        assert told == sorted(set(told)) and told[-1] == len(ds)
        assert len(told) >= 1 and all(f.index.complete for f in ds.files)


def test_only_plain_files_left_to_index_are_indexed_ahead(logdir, tmp_path):
    (path,) = (logdir / "old").glob("events.out.tfevents.*")
    packed = tmp_path / "events.out.tfevents.3.host.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    with Dataset.open([str(packed)]) as ds:
        assert not indexes_ahead(ds)
        read = read_log(ds)  # indexed first, then read
        assert read.end == len(ds) > 0
    with Dataset.open([str(path)]) as ds:
        ds.index(verify=False)
        assert not indexes_ahead(ds)
