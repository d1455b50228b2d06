"""The filter bar as a user types in it."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import open_and_wait
from tests.ui.x11 import on_x11


def test_ctrl_e_exports_right_after_enter_on_a_filter(qtbot, window, samples, request):
    """After Enter on a filter the focus stays in the field; Ctrl+E there opens the
    export dialog (under the X11 key scheme the field would take it as End)."""
    if not on_x11(request.node.nodeid):
        return
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    edit = window.filter_bar.edit
    edit.setFocus()
    qtbot.keyClicks(edit, "index < 5")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.model.rowCount() < len(window.dataset), timeout=10_000)
    assert edit.hasFocus()
    qtbot.keyClick(edit, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    dialog = getattr(window.edit_actions.exports, "last_dialog", None)
    assert dialog is not None and dialog.isVisible()
    dialog.close()
    # the field keeps its own editing keys
    qtbot.keyClick(edit, Qt.Key.Key_Home)
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    assert edit.text() == "ndex < 5"
