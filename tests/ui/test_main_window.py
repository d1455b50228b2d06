"""The main window end to end: opening, indexing without stalls, selection, filtering."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from tests.ui.conftest import StallMeter, open_and_wait
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.io.records import RecordStatus
from tfr_viewer.core.query.names import feature_column


def test_opens_a_shard_set_and_titles_it(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples])
    assert window.model.rowCount() == 80
    assert "80 records" in window.windowTitle()
    assert "6 files" not in window.windowTitle() and "+5 files" in window.windowTitle()
    assert window.current == 0
    assert window.tree_model.rowCount() > 0
    assert "80 records" in window.status.counts.text() and window.status.problems_button.isHidden()


def test_selecting_a_record_fills_the_panes(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    with qtbot.waitSignal(window.record_shown):
        window.select_record(5)
    assert window.current == 5
    info = window.preview.images.info.text()
    assert info.startswith("image/encoded: 160×120") and "odapi layout" in info
    assert window.preview.currentWidget() is window.preview.images
    # keyboard navigation moves the selection and the panes
    window.table.setFocus()
    with qtbot.waitSignal(window.record_shown):
        qtbot.keyClick(window.table, Qt.Key.Key_Down)
    assert window.current == 6


def test_goto_record_and_offset(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    offset = window.dataset.ref(9).offset
    assert window.navigator.goto(f"@{offset + 5}")
    assert window.current == 9
    assert window.navigator.goto("12") and window.current == 12
    assert not window.navigator.goto("twelve")


def test_filter_then_clear_keeps_the_selection(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(4)
    label = int(
        window.dataset
        and __import__("tfr_viewer.core.decode.payloads", fromlist=["decode"])
        .decode(window.dataset.read(4))
        .payload.features["label"]
        .values[0]
    )
    window.filter_bar.edit.setText(f"label == {label}")
    with qtbot.waitSignal(window.filter_bar.rows_changed, timeout=10_000):
        window.filter_bar.apply()
    rows = window.model.rowCount()
    assert 0 < rows < 30
    assert "match" in window.filter_bar.count.text()
    assert window.model.row_of(4) is not None
    with qtbot.waitSignal(window.filter_bar.rows_changed):
        window.filter_bar.edit.clear()
        window.filter_bar.apply()
    assert window.model.rowCount() == 30
    assert window.table.currentIndex().row() == 4


def test_a_bad_filter_reports_the_column(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    with qtbot.waitSignal(window.filter_bar.message) as blocker:
        window.filter_bar.edit.setText("label = 3")
        window.filter_bar.apply()
    assert "column 7" in blocker.args[0]
    assert window.model.rowCount() == 30


def test_only_damaged_toggle(qtbot, window, tmp_path):
    frames = [encode_frame(f"record {i}".encode()) for i in range(50)]
    bad = bytearray(frames[20])
    bad[14] ^= 1
    frames[20] = bytes(bad)
    path = tmp_path / "d.tfrecord"
    path.write_bytes(b"".join(frames))
    open_and_wait(qtbot, window, [path])
    assert window.dataset.ref(20).status is RecordStatus.BAD_DATA_CRC
    with qtbot.waitSignal(window.filter_bar.rows_changed):
        window.filter_bar.damaged.setChecked(True)
    assert window.model.rowCount() == 1 and window.model.record_at(0) == 20


def test_drop_and_recent(qtbot, window, samples):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(samples / "sequences.tfrecord"))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    with qtbot.waitSignal(window.index_finished):
        window.dropEvent(event)
    assert window.dataset.files[0].path.endswith("sequences.tfrecord")
    assert any("sequences.tfrecord" in r for r in window.recent.entries())
    assert window.recent_menu.actions()


def test_warnings_about_the_files_stay_in_the_status_bar(qtbot, window, samples, tmp_path):
    notes, empty = tmp_path / "notes.txt", tmp_path / "empty.tfrecord"
    notes.write_text("not records\n")
    empty.write_bytes(b"")
    good = samples / "sequences.tfrecord"
    open_and_wait(qtbot, window, [good, notes, empty])
    button = window.status.warnings_button
    assert not button.isHidden() and button.text() == "2 warnings"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    box = window.status.warnings_box
    assert box is not None and box.isVisible() and box.text().startswith("2 warnings")
    assert f"{empty}: is empty (0 records)" in box.informativeText()
    assert f"{notes}: not a TFRecord file" in box.informativeText()
    box.close()
    open_and_wait(qtbot, window, [good])  # a clean dataset: no warnings left over
    assert button.isHidden()


def test_a_missing_path_is_reported_not_raised(window, tmp_path):
    assert not window.open_paths([str(tmp_path / "nope.tfrecord")])
    assert "nope.tfrecord" in window.statusBar().currentMessage()


@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.tfrecord"
    frame = encode_frame(b"p" * 60)
    with open(path, "wb") as f:
        for _ in range(20):
            f.write(frame * 50_000)
    return path  # 1,000,000 records, 76 MB


# The window never waits on long work: proved by where the work runs (off the window's
# thread, tests/ui/work_places.py) and by the event loop turning meanwhile, not by a
# clock (the longest wait is a benchmark: tests/benchmarks/gui_benchmarks.py).
def test_indexing_runs_off_the_windows_thread(qtbot, window, big_file, work_places):
    with StallMeter(window) as meter:
        open_and_wait(qtbot, window, [big_file], timeout=120_000)
    assert window.model.rowCount() == 1_000_000
    assert len(meter.gaps) > 3  # the loop ran while the scan did
    assert work_places.on_the_window_thread() == []


def test_opening_another_file_cancels_the_scan(qtbot, window, big_file, samples):
    assert window.open_paths([str(big_file)])
    first = window.indexer
    assert first.running
    open_and_wait(qtbot, window, [samples / "sequences.tfrecord"])
    assert not first.running
    assert window.model.rowCount() == 8


def test_summary_columns_can_be_picked(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    assert "image/object/class/text" in window.table.known_keys
    window.table.toggle_summary_column("image/object/class/text", True)
    columns = window.model.columns()
    assert columns[-1] == feature_column("image/object/class/text")
    cell = window.model.data(window.model.index(0, len(columns) - 1))
    assert cell in ("circle", "square", "triangle") or cell.startswith("[")
    window.table.toggle_summary_column("image/object/class/text", False)
    assert feature_column("image/object/class/text") not in window.model.columns()


def test_a_large_filter_runs_off_the_windows_thread(qtbot, window, big_file, work_places):
    open_and_wait(qtbot, window, [big_file], timeout=120_000)
    window.filter_bar.edit.setText("offset < 7600")
    work_places.clear()
    with StallMeter(window) as meter:
        with qtbot.waitSignal(window.filter_bar.rows_changed, timeout=120_000) as blocker:
            window.filter_bar.apply()
    assert blocker.args[0].tolist() == list(range(100))
    assert len(meter.gaps) > 3 and work_places.on_the_window_thread() == []


def test_sorting_a_million_rows_runs_off_the_windows_thread(
    qtbot, window, big_file, tmp_path, work_places
):
    """Sorting runs in the background: by length (index arrays) over 1M records, and by
    a feature (one parse a record) over 200,000 Examples."""
    from tfr_viewer.core.io.framing import write_records
    from tfr_viewer.core.write import build_example

    open_and_wait(qtbot, window, [big_file], timeout=120_000)
    work_places.clear()
    with qtbot.waitSignal(window.order.sorter.finished, timeout=120_000):
        window.table.sortByColumn(
            window.model.columns().index("length"), Qt.SortOrder.DescendingOrder
        )
    assert window.model.rowCount() == 1_000_000
    assert work_places.calls and work_places.on_the_window_thread() == []
    path = tmp_path / "labels.tfrecord"
    write_records(path, [build_example({"label": [(i * 7919) % 1000]}) for i in range(200_000)])
    open_and_wait(qtbot, window, [path], timeout=120_000)
    work_places.clear()
    with qtbot.waitSignal(window.order.sorter.finished, timeout=120_000):
        window.model.sort(window.model.columns().index(feature_column("label")))
    first = [window.model.record_at(r) for r in range(3)]
    assert [(i * 7919) % 1000 for i in first] == [0, 0, 0]
    assert work_places.calls and work_places.on_the_window_thread() == []


def test_the_title_counts_whole_records_as_tensorflow_reads_them(qtbot, window, tmp_path):
    """A file cut inside its last frame: the title counts the records TensorFlow reads."""
    from tests.core.io.test_cut_streams import _tf_read_until_error
    from tests.tf_oracle import tf_write

    whole = tf_write(tmp_path / "whole.tfrecord", [b"x" * 129] * 180).read_bytes()
    cut = tmp_path / "cut.tfrecord"
    cut.write_bytes(whole[:-60])
    theirs = len(_tf_read_until_error(cut, "none"))
    open_and_wait(qtbot, window, [cut])
    assert f"— {theirs} records —" in window.windowTitle() and theirs == 179


def test_a_damaged_record_says_so_above_the_tree_and_the_picture(qtbot, window, tmp_path):
    from tests.damaged_frames import examples_with_a_bad_payload

    open_and_wait(qtbot, window, [examples_with_a_bad_payload(tmp_path)])
    with qtbot.waitSignal(window.record_shown):
        window.select_record(1)
    first = window.tree_model.node(window.tree_model.index(0, 0))
    assert first.name == "⚠ damaged" and "bad_data_crc" in first.value
    banner = window.preview.images.damage
    assert banner.isVisible() and "this record is damaged (bad_data_crc)" in banner.text()
    with qtbot.waitSignal(window.record_shown):
        window.select_record(2)
    assert window.preview.images.damage.isHidden()
    assert window.tree_model.node(window.tree_model.index(0, 0)).name != "⚠ damaged"


def test_the_class_column_is_shown_when_some_pictures_have_no_boxes(qtbot, window, tmp_path):
    """Background pictures (no boxes) among detection records: the classes are still the
    table's first summary column."""
    from tfr_viewer.core.io import write_records
    from tfr_viewer.core.write import build_example

    names = [b"cat", b"dog", b"bird"]
    payloads = []
    for i in range(30):
        boxes = [] if i % 4 == 0 else [names[i % 3], names[(i + 1) % 3]][: 1 + i % 2]
        payloads.append(
            build_example(
                {
                    "image/height": 60,
                    "image/width": 80,
                    "image/object/class/text": boxes,
                    "image/object/bbox/xmin": [0.1] * len(boxes),
                },
                {"image/object/class/text": "bytes", "image/object/bbox/xmin": "float"},
            )
        )
    path = tmp_path / "background.tfrecord"
    write_records(path, payloads)
    open_and_wait(qtbot, window, [path])
    assert window.model.columns()[4] == feature_column("image/object/class/text")


def test_a_compressed_records_offset_is_said_to_be_uncompressed(qtbot, window, tmp_path):
    from tests.tf_oracle import tf_write

    path = tf_write(tmp_path / "small.tfrecord.gz", [b"x" * 50] * 5, "gzip")
    open_and_wait(qtbot, window, [path])
    with qtbot.waitSignal(window.record_shown):
        window.select_record(2)
    assert "uncompressed byte 132" in window.statusBar().currentMessage()
    tip = window.model.data(window.model.index(2, 0), Qt.ItemDataRole.ToolTipRole)
    assert "uncompressed byte 132" in tip
