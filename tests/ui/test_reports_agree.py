"""The window's analyses are the command line's: Analyze › Run Checks, Statistics and
Compare run the operations of the application layer in a child process, and what the
panels get is the JSON ``check``, ``stats`` and ``compare`` print for the same files."""

from __future__ import annotations

import pytest

from tests.app.cli import cli_json
from tests.planted_faults import planted_dataset
from tests.ui.conftest import open_and_wait
from tests.ui.panels.test_analysis_panels import _action
from tfr_viewer.core.json_text import read_back


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    path = tmp_path_factory.mktemp("agree") / "faulty.tfrecord"
    planted_dataset(path)
    return path


def test_the_windows_findings_are_check_s(qtbot, window, faulty):
    open_and_wait(qtbot, window, [faulty])
    _action(window, "Run Checks").trigger()
    panel = window.analysis.findings
    qtbot.waitUntil(lambda: bool(panel.model.findings), timeout=60_000)
    cli = cli_json("check", "--json", str(faulty))[1]
    assert panel.report is not None and read_back(panel.report.to_json()) == cli


def test_the_windows_statistics_are_stats_s(qtbot, window, faulty):
    open_and_wait(qtbot, window, [faulty])
    _action(window, "Statistics").trigger()
    qtbot.waitUntil(lambda: window.analysis.stats is not None, timeout=60_000)
    assert window.analysis.stats.to_json() == cli_json("stats", "--json", str(faulty))[1]


def test_the_windows_comparison_is_compare_s(qtbot, window, faulty, samples):
    other = samples / "shapes_odapi.tfrecord"
    open_and_wait(qtbot, window, [faulty])
    window.analysis.compare_with([str(other)], threshold=0.25)
    dialog = window.analysis.compare_dialog
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=60_000)
    _, cli = cli_json(
        "compare", "--json", str(faulty), "--against", str(other), "--threshold", "0.25"
    )
    assert dialog.report.to_json() == cli
