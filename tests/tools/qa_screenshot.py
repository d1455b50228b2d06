"""Make the README's data-QA pictures: the Statistics, Classes and Findings panels on a
dataset with planted faults (a box finding opened), and the Compare dialog.

``python tests/tools/qa_screenshot.py OUT_DIR`` writes ``data-qa.png`` and ``compare.png``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main(out_dir: str) -> None:
    from PySide6.QtCore import QEventLoop
    from PySide6.QtWidgets import QApplication

    from tests.planted_faults import planted_dataset
    from tfr_viewer.ui.main_window import MainWindow

    work = Path(tempfile.mkdtemp(prefix="tfr-qa-shot-"))
    faulty = work / "train.tfrecord"
    planted_dataset(faulty)
    app = QApplication([])

    def wait(condition, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while not condition() and time.monotonic() < end:
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            time.sleep(0.02)
        if not condition():
            raise SystemExit("timed out")

    w = MainWindow()
    w.remember_geometry = False
    w.resize(1600, 1000)
    w.show()
    w.open_paths([str(faulty)])
    wait(lambda: w.indexer is not None and not w.indexer.running and w.model is not None)
    w.analysis.stats_dock.show()
    w.analysis.classes_dock.show()
    wait(lambda: w.analysis.stats is not None)
    w.analysis.run_checks()
    panel = w.analysis.findings
    wait(lambda: bool(panel.model.findings))
    panel.severity.setCurrentIndex(panel.severity.findData("error"))
    shown = panel.shown_findings()
    chosen = next(f for f in shown if f.kind == "box_out_of_range")
    w.analysis.open_finding(chosen)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    w.grab().save(str(Path(out_dir) / "data-qa.png"), "PNG")

    samples = ROOT / "resources" / "samples"
    w.open_paths([str(samples / "shapes_odapi.tfrecord")])
    wait(lambda: w.indexer is not None and not w.indexer.running and w.model is not None)
    w.analysis.compare_with(sorted(str(p) for p in samples.glob("shapes_gzip.tfrecord-*")))
    dialog = w.analysis.compare_dialog
    wait(lambda: dialog.comparison is not None)
    keys = [f.key for f in dialog.comparison.features]
    dialog.table.setCurrentCell(keys.index("image/object/class/text"), 0)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    dialog.grab().save(str(Path(out_dir) / "compare.png"), "PNG")
    w.close()
    os._exit(0)  # skip interpreter teardown of Qt objects owned by a finished app


if __name__ == "__main__":
    main(sys.argv[1])
