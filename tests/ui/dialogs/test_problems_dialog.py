"""The Problems list: one record number, as the table and `verify` give it."""

from __future__ import annotations

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
    tip = window.model.data(window.model.index(120, 0), Qt.ItemDataRole.ToolTipRole)
    assert "record 120 (record 20 of b.tfrecord)" in tip
    assert window.model.data(window.model.index(120, 0)).endswith("120")
