"""The indexer: what the indexing child sends changes the window's dataset on the
window's thread only, in the order it was sent, and the end comes after all of it."""

from __future__ import annotations

import threading

from tests.tf_oracle import tf_write
from tests.ui.conftest import open_and_wait
from tfr_viewer.core.io.file_index import FileIndex
from tfr_viewer.ui.indexer import IndexState


def test_the_dataset_changes_on_the_windows_thread_only(qtbot, window, tmp_path, monkeypatch):
    paths = []
    for k in range(3):
        payloads = [bytes([k, i % 256]) * 300 for i in range(2000)]
        paths.append(tf_write(tmp_path / f"s-{k}.tfrecord", payloads))
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    threads: list[str] = []
    for name in ("add", "set_statuses", "finish"):
        original = getattr(FileIndex, name)

        def spy(self, *args, _original=original, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
            threads.append(threading.current_thread().name)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(FileIndex, name, spy)
    ended = []
    with qtbot.waitSignal(window.index_finished, timeout=30_000):
        assert window.open_paths([str(p) for p in paths])
        window.indexer.finished.connect(lambda state, _msg: ended.append(len(window.dataset)))
    assert threads and set(threads) == {threading.main_thread().name}
    assert ended == [6000] and len(window.dataset) == 6000
    assert all(f.index.verified for f in window.dataset.files)
    open_and_wait(qtbot, window, [paths[0]])  # a second dataset, a fresh indexer
    assert window.indexer.running is False and len(window.dataset) == 2000


def test_a_cancelled_indexer_leaves_the_dataset_alone_and_says_so(qtbot, window, tmp_path):
    path = tf_write(tmp_path / "big.tfrecord", [bytes([i % 256]) * 2000 for i in range(20000)])
    window.open_paths([str(path)])
    indexer = window.indexer
    states = []
    indexer.finished.connect(lambda state, _msg: states.append(state))
    with qtbot.waitSignal(indexer.finished, timeout=30_000):
        indexer.cancel(wait=False)
    assert states == [IndexState.CANCELLED] and not indexer.running
    count = len(window.dataset)
    qtbot.wait(200)  # nothing that was still on its way arrives after the end
    assert len(window.dataset) == count
