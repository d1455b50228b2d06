"""Render the application icon into ``resources/icons``: hicolor PNGs for Linux, a ``.ico``
for Windows and a ``.icns`` for macOS. Run after changing ``tfr_viewer/ui/app_icon.py``:

    QT_QPA_PLATFORM=offscreen python packaging/make_icons.py [OUT_DIR]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def render(out: Path) -> list[Path]:
    """Write every icon file under ``out`` and return their paths."""
    from PIL import Image
    from PySide6.QtGui import QGuiApplication

    from tfr_viewer.ui import app_icon

    _app = QGuiApplication.instance() or QGuiApplication([])
    written: list[Path] = []
    for size in app_icon.SIZES:
        path = out / "hicolor" / f"{size}x{size}" / "apps" / "tfr-viewer.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        if not app_icon.image(size).save(str(path), "PNG"):
            raise OSError(f"cannot write {path}")
        written.append(path)
    renders = [Image.open(p).convert("RGBA") for p in written]  # small sizes have less detail
    largest = renders[-1]
    ico = out / "tfr-viewer.ico"
    largest.save(ico, sizes=[(s, s) for s in ICO_SIZES], append_images=renders[:-1])
    icns = out / "tfr-viewer.icns"
    largest.save(icns, append_images=renders[:-1])
    written += [ico, icns]
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "resources" / "icons"
    for file in render(target):
        print(file.relative_to(target))
