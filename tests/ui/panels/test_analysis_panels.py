"""The Analyze menu as a user drives it: statistics whose bars filter the table, checks
whose findings lead to the record, feature and box, classes that filter and hide, and
a comparison with another dataset."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyle

from tests.planted_faults import planted_dataset
from tests.ui.conftest import open_and_wait
from tfr_viewer.core.json_text import read_back


def _action(window, text: str):
    for action in window.analyze_menu.actions():
        if action.text().replace("&", "") == text:
            return action
    raise AssertionError(f"no Analyze › {text}")


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    path = tmp_path_factory.mktemp("panels") / "faulty.tfrecord"
    planted = planted_dataset(path)
    return path, planted


def _wait_stats(qtbot, window) -> None:
    qtbot.waitUntil(lambda: window.analysis.stats is not None, timeout=60_000)


def _checked(qtbot, window, path):
    """The Findings panel once Analyze › Run Checks has run on ``path``, opened."""
    open_and_wait(qtbot, window, [path])
    _action(window, "Run Checks").trigger()
    panel = window.analysis.findings
    qtbot.waitUntil(lambda: bool(panel.model.findings), timeout=60_000)
    return panel


def _double_click_finding(qtbot, panel, wanted) -> None:
    """Double-click, as Qt delivers it (press, release, then the double-click), the
    first finding row for which ``wanted(finding)`` holds."""
    row = next(
        r
        for r in range(panel.proxy.rowCount())
        if wanted(panel.model.finding(panel.proxy.mapToSource(panel.proxy.index(r, 0)).row()))
    )
    index = panel.proxy.index(row, 0)
    panel.table.scrollTo(index)
    where = panel.table.visualRect(index).center()
    assert panel.table.viewport().rect().contains(where)
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=where)
    qtbot.mouseDClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=where)


def _shown_records(window) -> list[int]:
    model = window.model
    return [model.record_at(r) for r in range(model.rowCount())]


def test_clicking_a_bar_filters_the_table(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    _action(window, "Statistics").trigger()
    _wait_stats(qtbot, window)
    panel = window.analysis.stats_panel
    label_chart = panel.charts["label"][0]
    labels = [v for v, _ in dict(window.analysis.stats.features)["label"].values]
    bar = labels.index(2)
    with qtbot.waitSignal(window.filter_bar.rows_changed, timeout=30_000):
        qtbot.mouseClick(
            label_chart.viewport(),
            Qt.MouseButton.LeftButton,
            pos=label_chart.bar_position(bar),
        )
    assert window.filter_bar.edit.text() == "label == 2"
    shown = _shown_records(window)
    expected = [i for i in range(len(window.dataset)) if json.loads(_show(window, i))["label"] == 2]
    assert shown == expected and shown


def _show(window, record: int) -> str:
    from tfr_viewer.core.decode import decode, features_of

    features = features_of(decode(window.dataset.read(record)).payload)
    return json.dumps({"label": int(features["label"].values[0])})


def test_a_finding_leads_to_its_record_feature_and_box(qtbot, window, faulty):
    path, planted = faulty
    panel = _checked(qtbot, window, path)
    assert {(f.kind, f.record) for f in panel.model.findings} >= set(planted)
    _double_click_finding(qtbot, panel, lambda f: f.kind == "box_out_of_range")
    assert window.current == 7
    assert window.tree_model.node(window.tree.currentIndex()).key == "image/object/bbox/xmax"
    assert window.preview.images.highlighted == 0
    assert window.preview.currentWidget() is window.preview.images
    assert window.preview.images.picker.selected == 0  # ready to be fixed


def test_findings_filter_by_severity_and_export(qtbot, window, faulty, tmp_path, qtmodeltester):
    path, planted = faulty
    open_and_wait(qtbot, window, [path])
    window.analysis.run_checks()
    panel = window.analysis.findings
    qtbot.waitUntil(lambda: bool(panel.model.findings), timeout=60_000)
    qtmodeltester.check(panel.model)
    errors = panel.severity.findData("error")
    panel.severity.setCurrentIndex(errors)
    shown = panel.shown_findings()
    assert shown and all(f.severity == "error" for f in shown)
    out = tmp_path / "findings.json"
    panel.export(str(out))
    doc = json.loads(out.read_text())
    assert doc["findings"] == read_back([f.to_json() for f in shown])
    assert doc["counts"]["error"] == len(shown)


def test_the_kind_and_severity_choices_are_shown_whole(qtbot, window, faulty):
    """The choices are filled when the checks end; each is shown whole once chosen,
    even in a window as narrow as a 1366×768 screen's."""
    from PySide6.QtGui import QFontMetrics

    window.resize(1366, 740)
    panel = _checked(qtbot, window, faulty[0])
    qtbot.waitExposed(panel)
    for combo in (panel.kind, panel.severity):
        assert combo.count() > 2
        metrics = QFontMetrics(combo.font())

        def fits(combo=combo, metrics=metrics) -> bool:
            room = combo.style().subControlRect(
                QStyle.ComplexControl.CC_ComboBox,
                _combo_option(combo),
                QStyle.SubControl.SC_ComboBoxEditField,
                combo,
            )
            return metrics.horizontalAdvance(combo.currentText()) <= room.width()

        for i in range(combo.count()):
            combo.setCurrentIndex(i)
            # once the panel's row is laid out again (a busy machine takes a moment)
            qtbot.waitUntil(fits, timeout=5_000)


def _combo_option(combo):
    from PySide6.QtWidgets import QStyleOptionComboBox

    option = QStyleOptionComboBox()
    option.initFrom(combo)
    option.currentText = combo.currentText()
    return option


def test_classes_filter_and_hide_boxes(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    _action(window, "Classes").trigger()
    _wait_stats(qtbot, window)
    classes = window.analysis.classes
    assert classes.list.count() == 3
    item = classes.list.item(2)  # 3 triangle
    with qtbot.waitSignal(window.filter_bar.rows_changed, timeout=30_000):
        classes.list.itemClicked.emit(item)
    assert window.filter_bar.edit.text() == 'f["image/object/class/label"] == 3'
    item.setCheckState(Qt.CheckState.Unchecked)
    assert window.preview.images.hidden_classes == {(3, "triangle")}


def test_no_panel_is_made_until_shown_and_a_late_one_shows_what_is_known(qtbot, window, samples):
    """Opening a file makes no docked panel; Classes shown after the statistics were
    computed lists their classes, and its clicks filter the table."""
    from tfr_viewer.ui.panels.registry import every_panel

    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    assert not [p.id for p in every_panel() if window.docks.made(p.id)]
    _action(window, "Statistics").trigger()
    _wait_stats(qtbot, window)
    assert not window.docks.made("classes")
    _action(window, "Classes").trigger()
    classes = window.docks.widget("classes")
    assert classes is window.analysis.classes
    assert classes.list.count() == 3
    with qtbot.waitSignal(window.filter_bar.rows_changed, timeout=30_000):
        classes.list.itemClicked.emit(classes.list.item(0))
    assert window.filter_bar.edit.text() == 'f["image/object/class/label"] == 1'


def test_compare_with_another_dataset(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.analysis.compare_with([str(samples / "shapes_gzip.tfrecord-00000-of-00003")])
    dialog = window.analysis.compare_dialog
    qtbot.waitUntil(lambda: dialog.comparison is not None, timeout=60_000)
    features = dialog.report.to_json()["features"]
    assert dialog.table.rowCount() == len(features) > 0
    assert "image/object/class/label" in features
    dialog.table.setCurrentCell(list(features).index("image/object/class/label"), 0)
    assert len(dialog.chart.centres) == 3  # three classes, both datasets on one chart
    header = dialog.header.text()
    assert ("failed" in header) == dialog.comparison.failed
    assert all(reason in header for reason in dialog.comparison.reasons)


def test_a_running_check_can_be_cancelled(qtbot, window, faulty):
    path, _ = faulty
    open_and_wait(qtbot, window, [path])
    _action(window, "Run Checks").trigger()
    panel = window.analysis.findings
    assert panel.strip.cancel.isVisible()
    qtbot.mouseClick(panel.strip.cancel, Qt.MouseButton.LeftButton)
    assert panel.count.text() == "cancelled" and not window.analysis.jobs
    assert panel.strip.run_button.isEnabled() and not panel.strip.cancel.isVisible()
    qtbot.mouseClick(panel.strip.run_button, Qt.MouseButton.LeftButton)  # and run again
    qtbot.waitUntil(lambda: bool(panel.model.findings), timeout=60_000)


def test_a_finding_a_filter_hides_clears_the_filter_and_says_so(qtbot, window, faulty):
    path, planted = faulty
    panel = _checked(qtbot, window, path)
    edit = window.filter_bar.edit
    edit.setFocus()
    qtbot.keyClicks(edit, "index == 0")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=10_000)
    _double_click_finding(qtbot, panel, lambda f: (f.record or 0) > 0)
    assert window.current is not None and window.current > 0
    assert "the filter 'index == 0' hid the record and was cleared" in (
        window.statusBar().currentMessage()
    )


def test_a_box_fixed_in_the_picture_is_gone_when_the_checks_run_again(qtbot, window, faulty):
    """Double-click a box finding, press Del on the chosen box, run the checks: they
    read the records as edited, and the finding is gone."""
    path, planted = faulty
    panel = _checked(qtbot, window, path)
    before = {(f.kind, f.record) for f in panel.model.findings}
    assert ("box_out_of_range", 7) in before
    _double_click_finding(qtbot, panel, lambda f: f.kind == "box_out_of_range")
    images = window.preview.images
    assert window.current == 7 and images.picker.selected == 0
    qtbot.keyClick(images.view, Qt.Key.Key_Delete)  # the box that strays out of the image
    assert window.edit_actions.dirty()
    panel.model.findings = []
    _action(window, "Run Checks").trigger()
    qtbot.waitUntil(lambda: bool(panel.model.findings), timeout=60_000)
    after = {(f.kind, f.record) for f in panel.model.findings}
    assert ("box_out_of_range", 7) not in after
    # its only box deleted, record 7 is now an image without boxes: the checks read the
    # record as edited; every other finding stays as it was
    assert ("image_without_boxes", 7) in after
    assert after - {("image_without_boxes", 7)} == before - {("box_out_of_range", 7)}


def test_notes_fold_away_and_an_edited_records_findings_show_as_perhaps_fixed(
    qtbot, window, faulty
):
    """The notes (info) are folded away as on the command line, a toggle shows them;
    the panel opens tall enough for ten rows; a finding of a record edited since the
    checks ran is greyed until they run again."""
    path, _planted = faulty
    panel = _checked(qtbot, window, path)
    findings = panel.model.findings
    notes = [f for f in findings if f.severity == "info"]
    assert notes, "the planted faults include notes"
    shown = panel.shown_findings()
    assert all(f.severity != "info" for f in shown)
    assert len(shown) == len(findings) - len(notes)
    assert f"({len(notes)} note" in panel.count.text() and "folded away" in panel.count.text()
    panel.notes.click()  # the toggle, as a user clicks it
    assert len(panel.shown_findings()) == len(findings)
    panel.notes.click()
    table = panel.table
    qtbot.waitUntil(lambda: table.isVisible())
    assert table.viewport().height() >= 10 * table.verticalHeader().defaultSectionSize()

    row = next(i for i, f in enumerate(findings) if f.kind == "box_out_of_range")
    record = findings[row].record
    window.select_record(record)
    window.edit_actions.delete(restore=False)  # an edit of that record
    assert panel.model.is_edited(row)
    assert "edited since" in panel.model.data(
        panel.model.index(row, 0), Qt.ItemDataRole.ToolTipRole
    )
    window.analysis.run_checks()  # the checks run again: nothing greyed
    qtbot.waitUntil(lambda: not panel.model.edited, timeout=60_000)
