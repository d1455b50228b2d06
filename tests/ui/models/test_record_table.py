"""The record table model: contract checks, growth, filtering and summaries."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.ui.models.record_table import RecordTableModel


def test_model_contract_and_cells(qtmodeltester, samples):
    with Dataset.open([str(samples)]) as ds:
        ds.index()
        model = RecordTableModel(ds)
        model.set_count(len(ds))
        model.set_summary_keys(["label"])
        qtmodeltester.check(model)
        assert model.rowCount() == 80
        assert model.columns() == ["#", "file", "offset", "length", "status", 'f["label"]']
        headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(6)]
        assert headers == ["#", "file", "offset", "length", "status", "label"]
        row = 5
        assert model.data(model.index(row, 0)) == "5"
        assert model.data(model.index(row, 1)) == "classes_tutorial.tfrecord"
        assert model.data(model.index(row, 4)) == "ok"
        label = model.data(model.index(row, 5))
        assert label.isdigit()


def test_rows_grow_then_filter_and_map_back(qtbot, samples):
    with Dataset.open([str(samples / "shapes_odapi.tfrecord")]) as ds:
        ds.index()
        model = RecordTableModel(ds)
        with qtbot.waitSignal(model.rowsInserted):
            model.set_count(10)
        model.set_count(24)
        assert model.rowCount() == 24
        model.set_rows(np.array([3, 7, 20]))
        assert model.rowCount() == 3
        assert model.record_at(1) == 7
        assert model.row_of(20) == 2 and model.row_of(4) is None
        model.set_rows(None)
        assert model.row_of(4) == 4


def test_damaged_rows_stand_out(tmp_path):
    from tfr_viewer.core.io.framing import encode_frame

    frames = [encode_frame(b"x" * 20) for _ in range(3)]
    bad = bytearray(frames[1])
    bad[15] ^= 1
    (tmp_path / "d.tfrecord").write_bytes(frames[0] + bytes(bad) + frames[2])
    with Dataset([str(tmp_path / "d.tfrecord")]) as ds:
        ds.index()
        model = RecordTableModel(ds)
        model.set_count(3)
        status_col = model.columns().index("status")
        assert model.data(model.index(1, status_col)) == "bad_data_crc"
        assert model.data(model.index(1, 0), Qt.ItemDataRole.BackgroundRole) is not None
        assert model.data(model.index(0, 0), Qt.ItemDataRole.BackgroundRole) is None


def test_a_feature_named_like_a_record_column_is_a_column_of_its_own(tmp_path):
    from tests.tf_oracle import tf, tf_write

    t = tf().train
    feature = {"length": t.Feature(int64_list=t.Int64List(value=[2]))}
    payload = t.Example(features=t.Features(feature=feature)).SerializeToString()
    path = tf_write(tmp_path / "length.tfrecord", [payload] * 3)
    with Dataset.open([str(path)]) as ds:
        ds.index()
        model = RecordTableModel(ds)
        model.set_count(len(ds))
        model.set_summary_keys(["length"])
        headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(5)]
        assert headers == ["#", "offset", "length", "status", "length"]
        assert model.data(model.index(0, 2)) == f"{len(payload):,}"  # the frame's length
        assert model.data(model.index(0, 4)) == "2"  # the feature
        sorted_by = []
        model.sort_requested.connect(lambda column, _: sorted_by.append(column))
        model.sort(4)
        assert sorted_by == ['f["length"]']


def test_ctrl_c_copies_numbers_as_a_program_reads_them(qtbot, window, samples):
    """Selected rows copied with Ctrl+C: offsets and lengths in plain digits (the table
    shows them grouped), matching ``list --json``."""
    import json
    import subprocess
    import sys

    from PySide6.QtGui import QGuiApplication

    from tests.ui.conftest import open_and_wait

    path = samples / "shapes_odapi.tfrecord"
    open_and_wait(qtbot, window, [path])
    window.select_record(5)
    table = window.table
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    shown = table.model().data(table.model().index(5, table.model()._columns.index("offset")))
    assert "," in shown  # grouped on screen
    qtbot.keyClick(table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = QGuiApplication.clipboard().text().splitlines()
    header = lines[0].split("\t")
    listed = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "list", "--json", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for line, record in zip(lines[1:], (5, 6), strict=True):
        cells = dict(zip(header, line.split("\t"), strict=True))
        want = json.loads(listed[record])
        assert cells["#"] == str(record)
        assert cells["offset"] == str(want["offset"]) and cells["length"] == str(want["length"])
        assert cells["status"] == want["status"]
