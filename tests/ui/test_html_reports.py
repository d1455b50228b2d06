"""Analyze › Save Findings as HTML… and Save Statistics as HTML…: the report of what
the panels show, the same as ``check --html`` and ``stats --html`` write."""

from __future__ import annotations

import re

from tests.program import program
from tests.ui.conftest import open_and_wait
from tests.ui.panels.test_analysis_panels import faulty  # noqa: F401 - a fixture


def test_the_panels_are_saved_as_html_reports(qtbot, window, faulty, tmp_path):  # noqa: F811
    path, planted = faulty
    open_and_wait(qtbot, window, [path])
    save_findings = window.menus.action("analyze.save_findings_html")
    window.menus.refresh()
    assert not save_findings.isEnabled()  # nothing to save yet
    window.menus.action("analyze.checks").trigger()
    panel = window.analysis.findings
    qtbot.waitUntil(lambda: bool(panel.model.findings), timeout=60_000)
    window.menus.refresh()
    assert save_findings.isEnabled()
    reports = window.html_reports
    reports.ask = False
    reports.target = str(tmp_path / "findings.html")
    save_findings.trigger()
    qtbot.waitUntil(lambda: reports.job is None, timeout=60_000)
    text = (tmp_path / "findings.html").read_text()
    for kind, _record in planted:
        assert f'id="{kind}"' in text
    assert len(re.findall(r'<img src="data:image/png', text)) > 5

    window.menus.action("panel.statistics").trigger()
    qtbot.waitUntil(lambda: window.analysis.stats is not None, timeout=60_000)
    errors: list[str] = []
    window.show_error = lambda title, text: errors.append(text)
    reports.target = str(tmp_path / "stats.html")
    window.menus.refresh()  # as opening the menu does
    window.menus.action("analyze.save_stats_html").trigger()
    qtbot.waitUntil(lambda: reports.job is None, timeout=60_000)
    assert not errors, errors
    stats = (tmp_path / "stats.html").read_text()
    assert "Statistics: faulty.tfrecord" in stats and stats.count("<img") >= 10


def test_the_comparison_is_saved_as_html(qtbot, window, samples, tmp_path):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.menus.refresh()
    assert not window.menus.action("analyze.save_compare_html").isEnabled()
    window.analysis.compare_with([str(samples / "shapes_gzip.tfrecord-00000-of-00003")])
    dialog = window.analysis.compare_dialog
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=60_000)
    reports = window.html_reports
    reports.ask = False
    reports.target = str(tmp_path / "compare.html")
    window.menus.refresh()
    window.menus.action("analyze.save_compare_html").trigger()
    text = (tmp_path / "compare.html").read_text()
    for key in dialog.report.to_json()["features"]:
        assert key in text
    assert text.count('<img src="data:image/png') == 1  # the classes side by side


def test_a_report_of_other_files_gets_no_pictures_of_these(
    qtbot,
    window,
    faulty,  # noqa: F811
    samples,
    tmp_path,
):
    """Findings opened from a saved report of another dataset are saved without
    thumbnails: their record numbers are not the open dataset's."""

    path, _ = faulty
    saved = tmp_path / "other.json"
    done = program("check", "--json", str(path))
    saved.write_text(done.stdout)
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.analysis.open_report(str(saved))
    assert window.analysis.findings.model.findings
    reports = window.html_reports
    reports.ask = False
    reports.target = str(tmp_path / "other.html")
    window.menus.refresh()
    window.menus.action("analyze.save_findings_html").trigger()
    qtbot.waitUntil(lambda: reports.job is None, timeout=60_000)
    text = (tmp_path / "other.html").read_text()
    assert "faulty.tfrecord" in text and "<img" not in text
