"""Every kind of file opens with the right rows and statuses, and nothing raises."""

from __future__ import annotations

import sys

import pytest

from tests.hostile.files import BOMBS, tensor_claiming
from tests.tf_oracle import tf_write
from tests.ui.conftest import open_and_wait
from tfr_viewer.core.io.framing import encode_frame, write_records
from tfr_viewer.core.io.records import RecordStatus
from tfr_viewer.ui.indexer import IndexState

OK, BAD = RecordStatus.OK, RecordStatus.BAD_DATA_CRC


@pytest.fixture
def no_uncaught(monkeypatch):
    """Fail the test if any exception escapes into Qt's event loop."""
    errors: list[BaseException] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, value, tb: errors.append(value))
    yield errors
    assert errors == []


def files(tmp_path):
    payloads = [f"rec{i}".encode() for i in range(5)]
    damaged = [encode_frame(p) for p in payloads]
    bad = bytearray(damaged[2])
    bad[13] ^= 1
    damaged[2] = bytes(bad)
    (tmp_path / "damaged.tfrecord").write_bytes(b"".join(damaged)[:-3])
    (tmp_path / "empty.tfrecord").write_bytes(b"")
    (tmp_path / "hostile.tfrecord").write_bytes(b"\xff" * 5000)
    for s in range(2):
        tf_write(tmp_path / f"set-{s:05d}-of-00002", payloads)
    return {
        "plain": ([tf_write(tmp_path / "p.tfrecord", payloads)], [OK] * 5),
        "gzip": ([tf_write(tmp_path / "g.tfrecord", payloads, "gzip")], [OK] * 5),
        "zlib": ([tf_write(tmp_path / "z.tfrecord", payloads, "zlib")], [OK] * 5),
        "shard set": ([tmp_path / "set@2"], [OK] * 10),
        "damaged": ([tmp_path / "damaged.tfrecord"], [OK, OK, BAD, OK, RecordStatus.TRUNCATED]),
        "empty": ([tmp_path / "empty.tfrecord"], []),
        "non-example": ([tf_write(tmp_path / "t.tfrecord", [b"\x00\x01", b"text"])], [OK] * 2),
        "hostile": ([tmp_path / "hostile.tfrecord"], []),
        "bombs": ([bombs(tmp_path)], [OK] * (len(BOMBS) + 1)),
    }


def bombs(tmp_path):
    """Images whose headers claim gigapixels, and a tensor claiming 2^31 elements."""
    from tfr_viewer.core.write import build_example

    path = tmp_path / "bombs.tfrecord"
    write_records(
        path,
        [build_example({"image/encoded": [BOMBS[n]()]}) for n in sorted(BOMBS)]
        + [tensor_claiming(2**31)],
    )
    return path


@pytest.mark.parametrize(
    "kind",
    ["plain", "gzip", "zlib", "shard set", "damaged", "empty", "non-example", "hostile", "bombs"],
)
def test_each_file_type(qtbot, window, tmp_path, no_uncaught, kind):
    paths, statuses = files(tmp_path)[kind]
    open_and_wait(qtbot, window, paths)
    ds = window.dataset
    regions = len(ds.regions())  # damage that belongs to no record has a row of its own
    assert window.model.rowCount() == len(statuses) + regions
    assert regions == (1 if kind == "hostile" else 0)
    assert [ds.ref(i).status for i in range(len(ds))] == statuses
    for i in range(len(ds)):  # every record selects, decodes and previews without raising
        with qtbot.waitSignal(window.record_shown):
            window.select_record(i) if window.current != i else window.show_record(i)
    if kind == "bombs":  # the last record shown is the tensor; the images said why
        assert "not expanded" in window.preview.tensor.info.text()
        window.select_record(0)
        assert "too large to decode" in window.preview.images.info.text()
    if kind == "hostile":
        assert window.status.problems_button.text() == "1 problem"
        assert window.model.region_at(0).size == 5000


def test_cancel_mid_scan(qtbot, window, tmp_path):
    path = tmp_path / "big.tfrecord"
    path.write_bytes(encode_frame(b"x" * 40) * 2_000_000)
    with qtbot.waitSignal(window.index_finished, timeout=60_000) as blocker:
        window.open_paths([str(path)])
        qtbot.waitUntil(lambda: window.model.rowCount() > 0, timeout=30_000)
        window.cancel_indexing()
    assert blocker.args[0] == IndexState.CANCELLED
    assert "so far" in window.status.counts.text()
    assert 0 < window.model.rowCount() <= 2_000_000


def test_a_refused_stream_is_decoded_once_in_the_child(qtbot, window, tmp_path, monkeypatch):
    """The window never decodes a stream rapidgzip refused: the indexing child hands over
    its decoded bytes (a window thread decoding 200 MB would freeze it)."""
    import gzip

    from tfr_viewer.core.io import sources

    def not_here(*_args, **_kwargs):
        raise AssertionError("the window decoded the stream itself")

    monkeypatch.setattr(sources, "inflate", not_here)
    data = gzip.compress(b"".join(encode_frame(bytes([i]) * 300) for i in range(30)))
    path = tmp_path / "bad_trailer.tfrecord.gz"
    path.write_bytes(data[:-8] + b"\1\2\3\4" + data[-4:])  # rapidgzip refuses the CRC
    open_and_wait(qtbot, window, [path])
    assert len(window.dataset) == 30
    assert window.dataset.files[0].source._inflated is not None
    for record in (0, 29):
        with qtbot.waitSignal(window.record_shown):
            window.select_record(record) if window.current != record else window.show_record(record)
        assert window.preview.hex.data == bytes([record]) * 300
    assert window.status.problems_button.text() == "1 problem"


def test_what_the_child_leaves_is_read_even_when_the_window_is_busy(
    qtbot, window, tmp_path, monkeypatch
):
    """The files the indexing child leaves (a refused stream's decoded bytes, seek
    points) are still there when a busy window thread applies its messages after the
    child has ended: they go once the end itself is applied."""
    import gzip
    import time

    from tfr_viewer.core.io import sources
    from tfr_viewer.ui.indexer import Indexer

    monkeypatch.setattr(
        sources, "inflate", lambda *a, **k: (_ for _ in ()).throw(AssertionError("decoded here"))
    )
    data = gzip.compress(b"".join(encode_frame(bytes([i]) * 300) for i in range(30)))
    refused = tmp_path / "bad_trailer.tfrecord.gz"
    refused.write_bytes(data[:-8] + b"\1\2\3\4" + data[-4:])
    plain = tmp_path / "good.tfrecord.gz"
    plain.write_bytes(data)
    for path in (refused, plain):
        applied = Indexer._apply
        seen: list[object] = []

        def slow(self, msg, applied=applied, seen=seen):  # the reader thread is long done
            if not seen:
                time.sleep(1.5)
            seen.append(msg)
            applied(self, msg)

        monkeypatch.setattr(Indexer, "_apply", slow)
        open_and_wait(qtbot, window, [path])
        assert len(window.dataset) == 30
        with qtbot.waitSignal(window.record_shown):
            window.select_record(29) if window.current != 29 else window.show_record(29)
        assert window.preview.hex.data == bytes([29]) * 300
        window.close_dataset()


def test_a_tensorboard_events_file_shows_its_events_in_the_tree(qtbot, window, tmp_path):
    """An events file opens as events: the tree names the wall time, the step and each
    summary value by tag, as TensorFlow wrote them; the Down key moves to the next."""
    from PySide6.QtCore import Qt

    from tests.tf_oracle import tf

    t = tf()
    summary = t.compat.v1.Summary
    events = [
        t.compat.v1.Event(wall_time=1.7e9, step=3, file_version="brain.Event:2"),
        t.compat.v1.Event(
            wall_time=1.7e9 + 1,
            step=4,
            summary=summary(value=[summary.Value(tag="loss", simple_value=0.5)]),
        ),
    ]
    path = tf_write(tmp_path / "events.out.tfevents.1", [e.SerializeToString() for e in events])
    open_and_wait(qtbot, window, [path])
    with qtbot.waitSignal(window.record_shown):
        window.select_record(0)
    tree = window.tree_model

    def shown() -> dict[str, str]:
        return {
            tree.data(tree.index(r, 0)): tree.data(tree.index(r, 3)) for r in range(tree.rowCount())
        }

    assert shown()["step"] == "3" and shown()["file_version"] == "brain.Event:2"
    with qtbot.waitSignal(window.record_shown):
        qtbot.keyClick(window.table, Qt.Key.Key_Down)
    assert window.current == 1 and shown()["step"] == "4"
    summary_row = tree.index(list(shown()).index("summary"), 0)
    loss = tree.index(0, 0, summary_row)
    assert tree.data(loss) == "loss" and tree.data(loss.siblingAtColumn(3)) == "0.5"
