"""The Problems list: one record number, as the table and `verify` give it, and the
report ``verify --json`` prints."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from PySide6.QtCore import Qt

from tests.core.io.test_records import damaged_pair
from tests.ui.conftest import open_and_wait
from tests.ui.test_editing import _action


def test_the_problems_list_and_the_table_say_the_same(qtbot, window, tmp_path):
    """Go › Problems… lists the damaged record as the table numbers it, in the words
    `verify` uses."""
    a, b = damaged_pair(tmp_path)
    open_and_wait(qtbot, window, [a, b])
    _action(window.menuBar(), "Problems…").trigger()
    dialog = window.navigator.problems_dialog
    row = next(r for r, p in enumerate(dialog.problems) if p.kind == "bad_data_crc")
    assert dialog.table.item(row, 1).text() == "120"
    assert dialog.table.item(row, 4).text().startswith("record 120 (record 20 of b.tfrecord)")
    # the window's list is verify's report, as the command line prints it
    done = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "verify", "--json", str(a), str(b)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TFR_VIEWER_NO_CACHE": "1"},
    )
    assert dialog.report.to_json() == json.loads(done.stdout)
    tip = window.model.data(window.model.index(120, 0), Qt.ItemDataRole.ToolTipRole)
    assert "record 120 (record 20 of b.tfrecord)" in tip
    assert window.model.data(window.model.index(120, 0)).endswith("120")
