"""Make the README's picture of File › New Dataset from Images…: the sample's images in
class folders, the dialog with its preview. ``python tests/tools/convert_screenshot.py OUT``"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def class_folders(target: Path) -> Path:
    """The bundled classification sample's images, one folder per class."""
    from tfr_viewer.core.decode import decode, features_of
    from tfr_viewer.core.io import Dataset

    names = {0: "circle", 1: "square", 2: "triangle"}
    with Dataset([str(ROOT / "resources" / "samples" / "classes_tutorial.tfrecord")]) as ds:
        ds.index()
        for i in range(len(ds)):
            features = features_of(decode(ds.read(i)).payload)
            folder = target / "shapes" / names[int(features["label"].values[0])]
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"shape_{i:03d}.png").write_bytes(features["image_raw"].values[0])
    return target / "shapes"


def main(out: str) -> None:
    from PySide6.QtWidgets import QApplication

    from tfr_viewer.ui.main_window import MainWindow
    from tfr_viewer.ui.window_menus import open_convert_dialog

    work = Path(tempfile.mkdtemp(prefix="tfr-convert-shot-"))
    source = class_folders(work)
    app = QApplication([])
    w = MainWindow()
    w.remember_geometry = False
    w.show()
    open_convert_dialog(w)
    dialog = w.convert_dialog
    dialog.layout_choice.setCurrentText("odapi")
    dialog.set_source(str(source))
    dialog.output.setText(str(work / "out" / "shapes.tfrecord"))
    dialog.shards.setValue(2)
    dialog.shuffle.setValue(1)
    dialog.split.setText("train=0.8,val=0.2")
    dialog.update_preview()
    dialog.resize(820, 700)
    app.processEvents()
    dialog.grab().save(out, "PNG")
    w.close()
    os._exit(0)  # skip interpreter teardown of Qt objects owned by a finished app


if __name__ == "__main__":
    main(sys.argv[1])
