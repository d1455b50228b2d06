"""Make the pictures of an episode being played and of the episode table: an RLDS
dataset written by TensorFlow Datasets (four cameras, one of them black in one
episode), View › Episode Player on a step of the episode whose camera is black (OUT),
and Analyze › Run Episodes, the table filtered to the episodes with findings (TABLE).
``python tests/tools/episode_screenshot.py OUT TABLE``"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
from picture_window import ROOT

sys.path.insert(0, str(ROOT))


def written(folder: Path) -> Path:
    from tests.rlds_data import Planned, Shape, write_rlds

    black = np.zeros((160, 160, 3), np.uint8)
    tasks = ("pick up the red cup", "open the drawer", "push the block to the left")
    plans = [Planned(40, tasks[n % 3], seed=n) for n in range(12)]
    plans[4] = Planned(40, tasks[1], seed=4, changes={"observation/wrist_image": {None: black}})
    plans[7] = Planned(2, tasks[1], seed=7)
    plans[9] = Planned(40, "", seed=9)
    shape = Shape(cameras=("image", "wrist_image", "left_image", "right_image"), size=160)
    return write_rlds(folder, {"train": plans}, shape)


def main(out: str, table_out: str) -> None:
    from PySide6.QtCore import QEventLoop
    from PySide6.QtWidgets import QApplication

    from tfr_viewer.ui.main_window import MainWindow

    folder = written(Path(tempfile.mkdtemp()))
    app = QApplication.instance() or QApplication([])
    w = MainWindow()
    w.edit_actions.discard_answer = True
    w.remember_geometry = False
    w.resize(1366, 768)
    w.show()
    loop = QEventLoop()
    w.index_finished.connect(lambda _s: loop.quit())
    w.open_paths([str(folder)])
    loop.exec()
    w.menus.refresh()
    w.menus.action("analyze.episodes").trigger()
    table = w.docks.widget("analysis-episodes")
    while table.report is None:
        app.processEvents()
    table.filter_edit.setText("len(findings) > 0")
    table.apply_filter()
    w.menus.action("panel.episode").trigger()
    player = w.docks.widget("episode")
    blank = next(r.record for r in table.report.rows if "camera_blank" in r.findings)
    w.select_record(blank)
    player.show_step(blank, 17)
    for _ in range(400):
        app.processEvents()
        if player.shown_step == 17:
            break
    for _ in range(60):
        app.processEvents()
    QApplication.processEvents()
    w.grab().save(out)
    dock = w.docks.dock("analysis-episodes")
    dock.show()
    dock.raise_()
    table.table.selectRow(0)
    for _ in range(60):
        app.processEvents()
    w.grab().save(table_out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
