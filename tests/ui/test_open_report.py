"""Analyze › Open Report…: a saved `stats --json` or `check --json` report (as a Beam job
writes it) shows in its panel, and its findings lead to records once their files are open."""

from __future__ import annotations

import json

from tests.program import program
from tests.ui.conftest import open_and_wait
from tfr_viewer.core.analyze.findings import Finding


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
    report = window.analysis.findings.report
    assert report is not None and report.to_json()["findings"] == findings  # typed, whole
    window.analysis.open_finding(Finding.from_json(with_record))  # nothing open yet
    assert "to go to the record" in window.statusBar().currentMessage()
    open_and_wait(qtbot, window, [damaged])
    _trigger(window, monkeypatch, path)
    with qtbot.waitSignal(window.record_shown):
        window.analysis.open_finding(Finding.from_json(with_record))
    assert window.current == with_record["record"]


def test_a_file_that_is_no_report_is_refused(qtbot, window, tmp_path, monkeypatch):
    path = tmp_path / "other.json"
    path.write_text('{"hello": 1}')
    _trigger(window, monkeypatch, str(path))
    assert "neither" in window.statusBar().currentMessage()


def test_a_hostile_report_is_one_message(qtbot, window, tmp_path, monkeypatch):
    """A FIFO, a folder, nesting past any parser's depth, bytes that are not UTF-8: each
    is refused with one line naming the file, and nothing waits on the FIFO."""
    import os

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"findings": ["\xff\xfe"]}')
    cases = {fifo: "regular file", tmp_path: "folder", deep: "nests too deeply", binary: "UTF-8"}
    for path, said in cases.items():
        _trigger(window, monkeypatch, str(path))
        message = window.statusBar().currentMessage()
        assert str(path) in message and said in message, message
        assert window.analysis.findings.model.rowCount() == 0


def test_a_check_report_with_a_finding_that_does_not_fit_names_it(
    qtbot, window, tmp_path, monkeypatch
):
    good = {"kind": "damaged_record", "message": "bad CRC", "record": 2, "file": "a.tfrecord"}
    cases = {
        "unknown kind": ({**good, "kind": "moon_phase"}, "'moon_phase' is no kind"),
        "record as text": ({**good, "record": "3"}, "the record of a damaged_record"),
        "record as bool": ({**good, "record": True}, "the record of a damaged_record"),
        "no message": (
            {k: v for k, v in good.items() if k != "message"},
            "a damaged_record finding has no message",
        ),
        "bad evidence": ({**good, "evidence": {"rank": "high"}}, "not a ranked object"),
    }
    for name, (bad, said) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"records": 5, "files": 1, "findings": [good, bad]}))
        _trigger(window, monkeypatch, str(path))
        message = window.statusBar().currentMessage()
        assert "finding 1: " in message and said in message, (name, message)
        assert str(path) in message, message
        assert window.analysis.findings.model.rowCount() == 0


def test_a_stats_report_that_does_not_fit_is_one_message(
    qtbot, window, samples, tmp_path, monkeypatch
):
    """A stats report edited by hand (a feature without its figures, a count as a
    list): one line naming the file, and the panel keeps what it showed."""
    good = json.loads(program("stats", str(samples / "shapes_odapi.tfrecord"), "--json").stdout)
    key = next(iter(good["features"]))
    cases = {
        "no figures": {**good, "features": {key: {"kind": "int64"}}},
        "a list for a count": {**good, "records": [1]},
        "a text for a histogram": {
            **good,
            "features": {key: {**good["features"][key], "value_counts": "many"}},
        },
    }
    for name, broken in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(broken))
        _trigger(window, monkeypatch, str(path))
        message = window.statusBar().currentMessage()
        assert str(path) in message and "compute the statistics again" in message, message
        assert window.analysis.stats is None
