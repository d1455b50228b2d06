"""File › New Dataset from Images…: the preview describes the source and the files to be
written; Convert writes them in a child process and the window opens the result."""

from __future__ import annotations

import io

import numpy as np
from PySide6.QtCore import QPoint, Qt

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


def test_the_dialog_shuffles_unless_told_and_warns_when_told(qtbot, window, tmp_path):
    """Class folders come class by class: the dialog starts with a shuffle seed, and
    choosing no shuffle puts a warning at the top of the preview."""
    root = tmp_path / "flowers"
    for c, name in enumerate(("daisy", "rose")):
        (root / name).mkdir(parents=True)
        for i in range(6):
            (root / name / f"{i}.jpg").write_bytes(_jpeg(c * 10 + i))
    _action(window, "New Dataset from Images…").trigger()
    dialog = window.convert_dialog
    qtbot.waitUntil(dialog.isVisible)
    dialog.set_source(str(root))
    assert dialog.shuffle.value() >= 0 and "Warning" not in dialog.preview.toPlainText()
    dialog.shuffle.setValue(-1)  # the "no shuffle" end of the box
    assert dialog.shuffle.text() == "no shuffle"
    first = dialog.preview.toPlainText().splitlines()[0]
    assert first.startswith("Warning: the images come class by class") and "'daisy'" in first
    dialog.shuffle.setValue(0)
    out = tmp_path / "made" / "flowers.tfrecord"
    dialog.output.setText(str(out))
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        qtbot.mouseClick(dialog.convert_button, Qt.MouseButton.LeftButton)
    from tests.tf_oracle import tf, tf_read

    t = tf()
    spec = {"label": t.io.FixedLenFeature([], t.int64)}
    labels = [int(t.io.parse_single_example(r, spec)["label"]) for r in tf_read([str(out)])]
    assert sorted(labels) == [0] * 6 + [1] * 6 and labels != sorted(labels)


def test_a_source_that_cannot_be_used_says_why(qtbot, window, tmp_path):
    _action(window, "New Dataset from Images…").trigger()
    dialog = window.convert_dialog
    (tmp_path / "empty").mkdir()
    dialog.set_source(str(tmp_path / "empty"))
    assert "Cannot use this" in dialog.preview.toPlainText()
    assert not dialog.convert_button.isEnabled()


def test_files_named_outside_the_source_are_read_only_when_ticked(qtbot, window, tmp_path):
    """A CSV naming ../ and an absolute path: the preview counts them as outside the
    source and Convert leaves them out, until the box is ticked."""
    source = tmp_path / "source"
    (source / "imgs").mkdir(parents=True)
    (source / "imgs" / "in.jpg").write_bytes(_jpeg(1))
    (tmp_path / "up.jpg").write_bytes(_jpeg(2))
    (tmp_path / "far.jpg").write_bytes(_jpeg(3))
    rows = ["imgs/in.jpg,cat", "../up.jpg,dog", f"{tmp_path / 'far.jpg'},dog"]
    (source / "labels.csv").write_text("filename,label\n" + "\n".join(rows) + "\n")
    _action(window, "New Dataset from Images…").trigger()
    dialog = window.convert_dialog
    qtbot.waitUntil(dialog.isVisible)
    assert not dialog.allow_outside.isChecked()
    dialog.set_source(str(source / "labels.csv"))
    text = dialog.preview.toPlainText()
    assert "1 image found" in text and "2 files to skip (2 outside source)" in text
    assert "named outside the source's folder" in text
    box = dialog.allow_outside  # its indicator, at the left of a row wider than the text
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    assert dialog.allow_outside.isChecked()
    assert "3 images found" in dialog.preview.toPlainText()
    dialog.output.setText(str(tmp_path / "out" / "all.tfrecord"))
    dialog.update_preview()
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        qtbot.mouseClick(dialog.convert_button, Qt.MouseButton.LeftButton)
    assert len(window.dataset) == 3 and not dialog.summary.skipped
