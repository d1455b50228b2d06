"""Analyze › Open Report…: a saved `stats --json` or `check --json` report (as a Beam job
writes it) shows in its panel, and its findings lead to records once their files are open."""

from __future__ import annotations

import json

from tests.program import program
from tests.ui.conftest import open_and_wait


def _report(tmp_path, *argv: str) -> str:
    out = program(*argv, "--json")
    path = tmp_path / f"{argv[0]}.json"
    path.write_text(out.stdout)
    return str(path)


def _trigger(window, monkeypatch, path: str) -> None:
    from tfr_viewer.ui import file_dialogs

    monkeypatch.setattr(file_dialogs, "open_file", lambda *a, **k: path)
    action = next(
        a for a in window.analyze_menu.actions() if a.text().replace("&", "") == "Open Report…"
    )
    action.trigger()


def test_a_stats_report_opens_without_its_dataset(qtbot, window, samples, tmp_path, monkeypatch):
    path = _report(tmp_path, "stats", str(samples))
    _trigger(window, monkeypatch, path)
    panel = window.analysis.stats_panel
    assert panel is not None and window.analysis.stats_dock.isVisible()
    assert panel.summary.text().startswith("80 records in 6 files")


def test_findings_lead_to_records_once_their_files_are_open(
    qtbot, window, remote_root, tmp_path, monkeypatch
):
    damaged = str(remote_root / "damaged.tfrecord")
    path = _report(tmp_path, "check", damaged)
    findings = json.loads(open(path).read())["findings"]
    with_record = next(f for f in findings if f["record"] is not None and f["record"] > 0)
    _trigger(window, monkeypatch, path)
    assert window.analysis.findings.model.rowCount() == len(findings)
    window.analysis.open_finding(with_record)  # nothing open yet: it says what to open
    assert "to go to the record" in window.statusBar().currentMessage()
    open_and_wait(qtbot, window, [damaged])
    _trigger(window, monkeypatch, path)
    with qtbot.waitSignal(window.record_shown):
        window.analysis.open_finding(with_record)
    assert window.current == with_record["record"]


def test_a_file_that_is_no_report_is_refused(qtbot, window, tmp_path, monkeypatch):
    path = tmp_path / "other.json"
    path.write_text('{"hello": 1}')
    _trigger(window, monkeypatch, str(path))
    assert "neither" in window.statusBar().currentMessage()
