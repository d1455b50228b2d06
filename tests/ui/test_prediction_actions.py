"""A model's predictions in the window, as a user meets them: drawn dashed over the
picture with a score threshold and the found, false and missed counts; Run Checks
finds the planted label errors and a double-click leads to the box (or to the object
the labels lack); View › Most Suspicious First puts the strongest evidence on top;
Analyze › Predictions… takes them from a COCO results file; Evaluate Predictions…
shows the numbers ``evaluate`` prints."""

from __future__ import annotations

import json
import subprocess
import sys

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from tests.planted_labels import PLANTED
from tests.ui.conftest import open_and_wait
from tests.ui.panels.test_analysis_panels import _double_click_finding
from tfr_viewer.core.analyze.findings import LABEL_ERROR_KINDS
from tfr_viewer.core.json_text import read_back

LABEL_KINDS = set(LABEL_ERROR_KINDS)


def _dashed(viewer) -> int:
    """The predictions drawn in the picture."""
    scene = viewer.view.scene()
    return sum(1 for item in scene.items() if str(item.data(0)).startswith("prediction "))


def test_predictions_are_drawn_and_counted_with_a_threshold(qtbot, window, label_data):
    open_and_wait(qtbot, window, [label_data["with"]])
    window.select_record(7)  # box 1's class swapped: the model's cat is a false one
    viewer = window.preview.images
    bar = viewer.prediction_bar
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    assert bar.counts.text() == "2 found, 1 false, 1 missed"
    assert _dashed(viewer) == 3  # the weak stray one (0.07) is below 0.50
    bar.slider.setValue(95)  # only the surest remain
    assert _dashed(viewer) < 3 and "found" in bar.counts.text()
    bar.slider.setValue(0)
    assert _dashed(viewer) == 4
    assert window.predictions.check.limits.score == 0.0  # the checks' threshold too
    qtbot.mouseClick(bar.predictions, Qt.MouseButton.LeftButton)  # Predictions off
    assert _dashed(viewer) == 0
    window.select_record(0)
    assert bar.isVisible()
    window.close_dataset()
    open_and_wait(qtbot, window, [label_data["plain"]])
    window.select_record(7)
    assert not bar.isVisible()  # no predictions in these records


def test_label_errors_lead_to_their_box_and_sort_first(qtbot, window, label_data):
    open_and_wait(qtbot, window, [label_data["with"]])
    window.menus.action("view.suspicious").trigger()  # runs the checks first
    panel = window.analysis.findings
    qtbot.waitUntil(lambda: bool(panel.model.findings), timeout=60_000)
    found = {(f.record, f.kind, f.box) for f in panel.model.findings if f.kind in LABEL_KINDS}
    assert found == {(r, kind, box) for r, (kind, box) in PLANTED.items()}
    from tfr_viewer.core.analyze.label_errors import TIERS

    kinds = {f.record: f.kind for f in panel.model.findings if f.kind in LABEL_KINDS}
    qtbot.waitUntil(lambda: window.model.is_sorted, timeout=10_000)
    first = [window.model.record_at(r) for r in range(4)]
    assert set(first) == set(PLANTED)
    # a wrong class or box first, a labelled object the model did not see last
    tiers = [TIERS[kinds[r]] for r in first]
    assert tiers == sorted(tiers, reverse=True) and kinds[first[-1]] == "label_spurious"
    assert kinds[first[0]] in ("label_class", "label_location")
    assert window.current == first[0]  # the view goes to the top of the triage
    window.menus.action("view.gallery").trigger()  # the gallery shows the same order
    assert [window.gallery.thumbs.record_at(r) for r in range(4)] == first
    window.menus.action("view.records").trigger()

    _double_click_finding(qtbot, panel, lambda f: f.kind == "label_class")
    assert window.current == 7 and window.preview.images.picker.selected == 1
    _double_click_finding(qtbot, panel, lambda f: f.kind == "label_missed")
    images = window.preview.images
    assert window.current == 3 and images.highlighted_prediction is not None
    assert (
        images.pairing is not None and images.pairing.paired[images.highlighted_prediction] is None
    )


def test_predictions_from_a_results_file_and_the_evaluation(qtbot, window, label_data):
    open_and_wait(qtbot, window, [label_data["plain"]])
    window.menus.action("analyze.predictions").trigger()
    dialog = window.predictions.last_dialog
    qtbot.waitUntil(dialog.isVisible)
    dialog.buttons["results"].setChecked(True)
    dialog.path.setText(str(label_data["coco"]))
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.predictions.kind == "results", timeout=60_000)
    assert window.predictions.check.source.match == "source_id"
    window.select_record(7)
    bar = window.preview.images.prediction_bar
    assert bar.isVisible() and bar.counts.text() == "2 found, 1 false, 1 missed"

    window.menus.action("analyze.evaluate").trigger()
    shown = window.predictions.evaluation
    qtbot.waitUntil(lambda: shown.report is not None, timeout=60_000)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tfr_viewer",
            "evaluate",
            str(label_data["plain"]),
            "--predictions",
            str(label_data["coco"]),
            "--json",
        ],
        capture_output=True,
        text=True,
    )
    expected = json.loads(done.stdout)
    # the same operation's report as evaluate --json
    assert read_back(shown.report.to_json()) == expected
    last = shown.table.rowCount() - 1
    assert shown.table.item(last, 0).text() == "all"
    assert shown.table.item(last, 1).text() == f"{expected['ap']:.3f}"

    window.menus.action("analyze.predictions").trigger()  # a file that is no results file
    dialog = window.predictions.last_dialog
    dialog.buttons["results"].setChecked(True)
    bad = label_data["coco"].parent / "bad.json"
    bad.write_text('{"not": "results"}')
    dialog.path.setText(str(bad))
    errors: list[str] = []
    window.show_error = lambda title, text: errors.append(text)
    qtbot.mouseClick(
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok),
        Qt.MouseButton.LeftButton,
    )
    qtbot.waitUntil(lambda: bool(errors), timeout=60_000)
    assert "list of results" in errors[0]
    assert window.predictions.kind == "results"  # the good ones are kept


def test_a_saved_report_never_replaces_the_results_file_it_used(
    qtbot, window, label_data, tmp_path, monkeypatch
):
    """Predictions read from a results file, then Save Statistics as HTML with that
    file's name: refused with a message, the model's results kept."""
    import shutil

    from tfr_viewer.ui import file_dialogs

    results = tmp_path / "results.json"
    shutil.copy(label_data["coco"], results)
    before = results.read_bytes()
    open_and_wait(qtbot, window, [label_data["plain"]])
    window.menus.action("analyze.predictions").trigger()
    dialog = window.predictions.last_dialog
    qtbot.waitUntil(dialog.isVisible)
    dialog.buttons["results"].setChecked(True)
    dialog.path.setText(str(results))
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.predictions.kind == "results", timeout=60_000)
    window.menus.action("panel.statistics").trigger()
    qtbot.waitUntil(lambda: window.analysis.stats is not None, timeout=60_000)
    errors: list[str] = []
    window.show_error = lambda title, text: errors.append(text)
    monkeypatch.setattr(file_dialogs, "save_file", lambda *a, **k: str(results))
    window.menus.refresh()  # as opening the menu does
    window.menus.action("analyze.save_stats_html").trigger()
    qtbot.waitUntil(lambda: bool(errors), timeout=60_000)
    assert "refusing to write over a source of this command" in errors[0]
    assert results.read_bytes() == before
