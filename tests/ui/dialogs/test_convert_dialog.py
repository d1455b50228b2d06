"""File › New Dataset from Images…: the preview describes the source and the files to be
written; Convert writes them in a child process and the window opens the result."""

from __future__ import annotations

import io

import numpy as np
from PySide6.QtCore import Qt

from tests.ui.conftest import open_and_wait  # noqa: F401 - the window fixture's helpers


def _jpeg(seed: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    pixels = np.random.default_rng(seed).integers(0, 255, (24, 32, 3), dtype=np.uint8)
    Image.fromarray(pixels).save(out, "JPEG")
    return out.getvalue()


def _action(window, text: str):
    for action in window.file_menu.actions():
        if action.text().replace("&", "") == text:
            return action
    raise AssertionError(f"no File › {text}")


def test_new_dataset_from_images(qtbot, window, tmp_path):
    root = tmp_path / "pets"
    for c, name in enumerate(("cat", "dog")):
        (root / name).mkdir(parents=True)
        for i in range(3 + c):
            (root / name / f"{i}.jpg").write_bytes(_jpeg(c * 10 + i))
    (root / "dog" / "bad.jpg").write_text("not an image")
    _action(window, "New Dataset from Images…").trigger()
    dialog = window.convert_dialog
    qtbot.waitUntil(dialog.isVisible)
    dialog.set_source(str(root))
    text = dialog.preview.toPlainText()
    assert "8 images found" in text and "2 classes" in text  # bad.jpg is only read later
    assert "0  cat: 3" in text and "1  dog: 5" in text
    out = tmp_path / "made" / "pets.tfrecord"
    dialog.output.setText(str(out))
    dialog.shards.setValue(2)
    assert f"{out}-00001-of-00002" in dialog.preview.toPlainText()
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        qtbot.mouseClick(dialog.convert_button, Qt.MouseButton.LeftButton)
    assert len(window.dataset) == 7
    assert [f.path for f in window.dataset.files] == [
        f"{out}-00000-of-00002",
        f"{out}-00001-of-00002",
    ]
    # nothing of a source file is quoted in a message
    assert [s.reason for s in dialog.summary.skipped] == ["not an image: 12 bytes"]


def test_a_source_that_cannot_be_used_says_why(qtbot, window, tmp_path):
    _action(window, "New Dataset from Images…").trigger()
    dialog = window.convert_dialog
    (tmp_path / "empty").mkdir()
    dialog.set_source(str(tmp_path / "empty"))
    assert "Cannot use this" in dialog.preview.toPlainText()
    assert not dialog.convert_button.isEnabled()
