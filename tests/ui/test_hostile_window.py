"""Hostile files in the window (offscreen): every record of fuzz cases is selected and
shown, with an excepthook that fails the test on any uncaught exception."""

from __future__ import annotations

import sys

from tests.fuzz.cases import case
from tests.ui.conftest import open_and_wait


def test_fuzz_cases_in_the_window(qtbot, window, tmp_path, monkeypatch):
    errors = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, value, tb: errors.append(value))
    for index in range(36):
        kind, data = case(11, index)
        path = tmp_path / f"case{index}.tfrecord"
        path.write_bytes(data)
        open_and_wait(qtbot, window, [path])
        model = window.model
        for row in range(min(model.rowCount(), 8)):
            window.table.setCurrentIndex(model.index(row, 0))
            for col in range(model.columnCount()):
                model.data(model.index(row, col))
        assert not errors, f"case {index} ({kind}): {errors[0]!r}"
