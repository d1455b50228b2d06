"""The window's first curve of an event file: seconds from asking the window to open
PATH to the run view drawing its first scalar curve (the window made and shown before,
offscreen; its index cache off, so the file is indexed as on first opening), and to
the whole read. Prints ``first_curve_seconds whole_read_seconds points
worst_stall_ms``: the last, the longest the window's event loop waited between two
beats of a 5 ms timer while the rest was read.

Usage: ``python tests/benchmarks/first_curve.py PATH``"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["TFR_VIEWER_NO_CACHE"] = "1"


def wait_for(done: Callable[[], bool]) -> float:
    """Run the window's event loop (idle between events, as a user's window is) until
    ``done()``; the time it was seen."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    timer = QTimer(interval=5)
    timer.timeout.connect(lambda: loop.quit() if done() else None)
    timer.start()
    loop.exec()
    timer.stop()
    return time.perf_counter()


def main(path: str) -> None:
    from PySide6.QtWidgets import QApplication

    from tests.ui.conftest import StallMeter
    from tfr_viewer.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    w = MainWindow()
    w.edit_actions.discard_answer = True
    w.remember_geometry = False
    w.resize(1366, 768)
    w.show()
    app.processEvents()
    began = time.perf_counter()
    w.open_paths([path])
    first = wait_for(lambda: w.docks.made("runs") and bool(w.docks.widget("runs").scalars.shown))
    view = w.docks.widget("runs")
    with StallMeter(w) as stalls:
        wait_for(lambda: view.log is not None)
    whole = time.perf_counter() - began
    first -= began
    print(f"{first:.3f} {whole:.3f} {view.series.points} {stalls.worst_ms():.0f}")
    w.close_dataset()


if __name__ == "__main__":
    main(sys.argv[1])
