"""The docks as a user arranges them on a 1366×768 screen: opened from the menus they
share their side as tabs and leave the records and the picture usable; the arrangement
is remembered, and View › Reset Layout puts it back."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt

from tests.ui.conftest import open_and_wait
from tfr_viewer.ui.panels.registry import PANELS

ALL = [f"panel.{p.id}" for p in PANELS]


@pytest.fixture
def small_window(qtbot, window):
    window.resize(1366, 768)
    yield window
    window.remember_geometry = False  # its docks must not open in the next test's window
    QSettings("tfr-viewer", "tfr-viewer").remove("window-state")


def test_every_dock_open_leaves_the_records_and_the_picture_usable(qtbot, small_window, samples):
    w = small_window
    open_and_wait(qtbot, w, [samples / "shapes_odapi.tfrecord"])
    for action in ALL:
        w.menus.action(action).trigger()
    qtbot.waitUntil(lambda: all(w.docks.dock(p.id).isVisible() for p in PANELS), timeout=5000)
    qtbot.wait(50)
    assert w.table.width() >= 360 and w.filter_bar.edit.width() >= 200
    assert w.preview.width() >= 300 and w.preview.images.view.width() >= 250
    # the docks of one side are tabs of one place
    for side in ("left", "bottom"):
        ids = [p.id for p in PANELS if p.area == side]
        first = w.docks.dock(ids[0])
        assert {d.objectName() for d in w.tabifiedDockWidgets(first)} == set(ids[1:])


def test_reset_layout_puts_every_dock_back(qtbot, small_window, samples):
    w = small_window
    w.menus.action("panel.files").trigger()
    w.menus.action("panel.findings").trigger()
    files, findings = w.docks.dock("files"), w.docks.dock("findings")
    w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, files)  # dragged elsewhere
    findings.setFloating(True)
    assert w.dockWidgetArea(files) == Qt.DockWidgetArea.RightDockWidgetArea
    w.menus.action("view.reset_layout").trigger()  # View › Reset Layout
    assert w.dockWidgetArea(files) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert not findings.isFloating()
    assert w.dockWidgetArea(findings) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert files.isVisible() and findings.isVisible()
    assert not w.docks.dock("statistics").isVisible()


def test_the_arrangement_is_remembered(qtbot, small_window):
    from tfr_viewer.ui.main_window import MainWindow

    w = small_window
    w.remember_geometry = True  # as in a user's window
    w.menus.action("panel.files").trigger()
    w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, w.docks.dock("files"))
    w.close()  # saves the window's state
    again = MainWindow()
    qtbot.addWidget(again)
    again.remember_geometry = False
    again.show()
    files = again.docks.dock("files")
    assert files.isVisible()
    assert again.dockWidgetArea(files) == Qt.DockWidgetArea.RightDockWidgetArea
    assert not again.docks.dock("findings").isVisible()
