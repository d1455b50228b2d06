"""Shared fixtures for the Qt tests: a sample dataset and an opened main window."""

from __future__ import annotations

from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"


@pytest.fixture
def samples() -> Path:
    return SAMPLES


@pytest.fixture
def window(qtbot):
    from tfr_viewer.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close_dataset()


def open_and_wait(qtbot, window, paths, timeout=30_000):
    with qtbot.waitSignal(window.index_finished, timeout=timeout):
        assert window.open_paths([str(p) for p in paths])
