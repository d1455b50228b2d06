"""The registry's analyses in the window: Analyze › Run TITLE runs the request in the
standby process and shows the report in the analysis' own dock, the report the API
gives; without the entry the window has neither the action nor the dock."""

from __future__ import annotations

import pytest

import tfr_viewer as tfv
from tests.app.record_sizes import ENTRY
from tests.app.record_sizes.operation import RecordSizesRequest
from tests.app.test_analyses import sized  # noqa: F401 - a fixture
from tests.ui.conftest import open_and_wait
from tfr_viewer.app import analyses
from tfr_viewer.app.analyses import Analysis


def _window(qtbot):
    from tfr_viewer.ui.main_window import MainWindow

    win = MainWindow()
    win.remember_geometry = False
    qtbot.addWidget(win)
    win.show()
    return win


def test_an_analysis_runs_from_the_analyze_menu_into_its_panel(qtbot, monkeypatch, sized):  # noqa: F811
    monkeypatch.setattr(analyses, "ANALYSES", [*analyses.ANALYSES, ENTRY])
    win = _window(qtbot)
    action = win.menus.action("analyze.record-sizes")
    assert action.text() == "Run Record Sizes"
    assert action in win.analyze_menu.actions()
    win.menus.refresh()
    assert not action.isEnabled()  # nothing open
    open_and_wait(qtbot, win, sized)
    win.menus.refresh()
    action.trigger()
    dock = win.docks.dock("analysis-record-sizes")
    assert dock.isVisible() and dock.windowTitle() == "Record Sizes"
    panel = win.docks.widget("analysis-record-sizes")
    qtbot.waitUntil(lambda: panel.report is not None, timeout=60_000)
    assert panel.report.to_json() == tfv.open(sized).analyze("record-sizes").to_json()
    assert panel.rows.count() == 3
    assert "Record Sizes: done" in win.statusBar().currentMessage()
    win.close_dataset()


def test_without_its_entry_the_window_has_no_part_of_it(qtbot):
    win = _window(qtbot)
    with pytest.raises(KeyError):
        win.menus.action("analyze.record-sizes")
    with pytest.raises(KeyError):
        win.docks.dock("analysis-record-sizes")


class RefusingRequest(RecordSizesRequest):
    """An analysis whose run refuses the dataset, as a user's mistake does."""

    def run(self, ds, state=None):  # noqa: ANN001, ANN201
        from tfr_viewer.core.user_error import UserError

        raise UserError(f"{len(ds)} records: this analysis wants none")


def test_an_analysis_that_fails_says_why_and_keeps_the_window(qtbot, monkeypatch, sized):  # noqa: F811
    refusing = Analysis(
        "refusing",
        "Refusing",
        "refuses every dataset",
        f"{__name__}:RefusingRequest",
        "tests.app.record_sizes.panel:RecordSizesPanel",
    )
    monkeypatch.setattr(analyses, "ANALYSES", [*analyses.ANALYSES, refusing])
    win = _window(qtbot)
    open_and_wait(qtbot, win, sized)
    win.menus.refresh()
    win.menus.action("analyze.refusing").trigger()
    status = win.statusBar()
    qtbot.waitUntil(lambda: "wants none" in status.currentMessage(), timeout=60_000)
    assert "80 records: this analysis wants none" in status.currentMessage()
    assert win.docks.widget("analysis-refusing").report is None
    assert not win.analysis.registered.jobs  # nothing left running
    win.close_dataset()
