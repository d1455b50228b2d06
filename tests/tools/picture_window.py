"""The window the README's pictures are made of: offscreen, nothing remembered, nobody
to answer a question, opened on some of the bundled samples and indexed."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"
sys.path.insert(0, str(ROOT))


def opened(names: list[str], size: tuple[int, int] = (1400, 860)) -> tuple[Any, Any]:
    """``(app, window)``: a main window of ``size`` showing the samples ``names``."""
    from PySide6.QtCore import QEventLoop
    from PySide6.QtWidgets import QApplication

    from tfr_viewer.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    window = MainWindow()
    window.edit_actions.discard_answer = True  # nobody is there to answer
    window.remember_geometry = False
    window.resize(*size)
    window.show()
    loop = QEventLoop()
    window.index_finished.connect(lambda _s: loop.quit())
    window.open_paths([str(SAMPLES / name) for name in names])
    loop.exec()
    return app, window
