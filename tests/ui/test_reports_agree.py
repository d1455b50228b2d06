"""The window's analyses are the command line's: Analyze › Run Checks, Statistics and
Compare run the operations of the application layer in a child process, and what the
panels get is the JSON ``check``, ``stats`` and ``compare`` print for the same files."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.planted_faults import planted_dataset
from tests.ui.conftest import open_and_wait


def _cli(*args: str) -> dict:
    env = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def _action(window, text: str):
    for action in window.analyze_menu.actions():
        if action.text().replace("&", "") == text:
            return action
    raise AssertionError(f"no Analyze › {text}")


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
    assert panel.model.findings == _cli("check", "--json", str(faulty))["findings"]


def test_the_windows_statistics_are_stats_s(qtbot, window, faulty):
    open_and_wait(qtbot, window, [faulty])
    _action(window, "Statistics").trigger()
    qtbot.waitUntil(lambda: window.analysis.stats is not None, timeout=60_000)
    assert window.analysis.stats == _cli("stats", "--json", str(faulty))


def test_the_windows_comparison_is_compare_s(qtbot, window, faulty, samples):
    other = samples / "shapes_odapi.tfrecord"
    open_and_wait(qtbot, window, [faulty])
    window.analysis.compare_with([str(other)], threshold=0.25)
    dialog = window.analysis.compare_dialog
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    cli = _cli("compare", "--json", str(faulty), "--against", str(other), "--threshold", "0.25")
    assert dialog.result == cli
