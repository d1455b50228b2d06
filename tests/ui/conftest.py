"""Shared fixtures for the Qt tests: a sample dataset and an opened main window."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.work_places import work_places  # noqa: F401 - a fixture of the window tests

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"


@pytest.fixture
def samples() -> Path:
    return SAMPLES


@pytest.fixture
def window(qtbot):
    from tfr_viewer.ui.main_window import MainWindow

    win = MainWindow()
    win.edit_actions.discard_answer = True  # nobody is there to answer; tests may change it
    win.remember_geometry = False  # no test leaves its docks or size to the next one
    qtbot.addWidget(win)
    win.show()
    yield win
    win.edit_actions.discard_answer = True
    win.close_dataset()


def open_and_wait(qtbot, window, paths, timeout=30_000):
    with qtbot.waitSignal(window.index_finished, timeout=timeout):
        assert window.open_paths([str(p) for p in paths])


class StallMeter:
    """Counts the gaps between beats of a 5 ms timer: the event loop's stalls."""

    def __init__(self, parent) -> None:
        import time

        from PySide6.QtCore import QTimer

        self._clock = time.perf_counter
        self.gaps: list[float] = []
        self._last = self._clock()
        self._timer = QTimer(parent)
        self._timer.setInterval(5)
        self._timer.timeout.connect(self._beat)

    def _beat(self) -> None:
        now = self._clock()
        self.gaps.append(now - self._last)
        self._last = now

    def __enter__(self) -> StallMeter:
        self._last = self._clock()
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.stop()

    def worst_ms(self) -> float:
        return max(self.gaps[1:]) * 1000 if len(self.gaps) > 1 else 0.0
