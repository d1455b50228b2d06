"""Small things a user meets in an hour with the window: a filter cleared to reach a
record says so, the status bar never describes a record that is not shown, and the
feature tree keeps its open nodes and selection across an edit."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog

from tests.ui.conftest import open_and_wait
from tfr_viewer.ui import edit_actions


def _filter(qtbot, window, text: str) -> None:
    edit = window.filter_bar.edit
    edit.setFocus()
    edit.clear()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.filter_bar.running(), timeout=10_000)


def test_go_to_a_record_a_filter_hides_says_the_filter_was_cleared(
    qtbot, window, samples, monkeypatch
):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    _filter(qtbot, window, "label == 1")
    shown = set(window.model.shown_records().tolist())
    hidden = next(r for r in range(len(window.dataset)) if r not in shown)
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: (str(hidden), True)))
    window.menus.action("go.record").trigger()  # Ctrl+G
    assert window.current == hidden
    message = window.statusBar().currentMessage()
    assert "the filter 'label == 1' hid it" in message
    assert window.filter_bar.edit.text() == "" and window.model.rowCount() == len(window.dataset)


def test_the_status_bar_forgets_a_record_that_is_no_longer_shown(qtbot, window, samples, tmp_path):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(0)  # label 0
    assert window.statusBar().currentMessage().startswith("record 0:")
    _filter(qtbot, window, "label == 2")
    first = window.model.record_at(0)  # the panes show the first match, not nothing
    assert window.current == first != 0
    assert window.statusBar().currentMessage().startswith(f"record {first}:")
    # a picture opened by mistake: nothing of the earlier dataset's record stays
    from PIL import Image

    picture = tmp_path / "photo.png"
    Image.new("RGB", (4, 4)).save(picture)
    _filter(qtbot, window, "")
    window.select_record(3)
    assert window.statusBar().currentMessage().startswith("record 3:")
    open_and_wait(qtbot, window, [picture])
    assert not window.statusBar().currentMessage().startswith("record 3:")


def test_an_edit_keeps_the_tree_open_as_the_user_left_it(qtbot, window, samples, monkeypatch):
    open_and_wait(qtbot, window, [samples / "sequences.tfrecord"])
    window.select_record(1)
    tree = window.tree

    def top(name):
        model = window.tree_model
        return next(
            model.index(r, 0) for r in range(model.rowCount()) if model.index(r, 0).data() == name
        )

    def child(parent, name):
        model = window.tree_model
        return next(
            model.index(r, 0, parent)
            for r in range(model.rowCount(parent))
            if model.index(r, 0, parent).data() == name
        )

    assert tree.isExpanded(top("feature_lists"))
    tree.collapse(top("feature_lists"))  # the user folds the steps away
    length = child(child(top("context"), "clip"), "length")
    tree.setCurrentIndex(length)  # and chooses a context value
    monkeypatch.setattr(edit_actions, "ask_values", lambda *a, **k: "[99]")
    window.menus.action("edit.value").trigger()  # F2
    assert window.edit_actions.dirty()
    assert "99" in child(child(top("context"), "clip"), "length").siblingAtColumn(3).data()
    assert not tree.isExpanded(top("feature_lists"))
    assert tree.isExpanded(top("context")) and tree.isExpanded(child(top("context"), "clip"))
    assert tree.currentIndex().data() == "length"


def test_the_offset_column_is_wide_enough_from_the_start(qtbot, window, tmp_path):
    """While a big file is being indexed its offsets grow; the column is sized from the
    file's size at once, so it never reads "1,026,…"."""
    from tfr_viewer.core.io.framing import encode_frame

    path = tmp_path / "big.tfrecord"
    frame = encode_frame(b"x" * 200)
    path.write_bytes(frame * 60_000)  # 12.7 MB: offsets of eight digits
    with qtbot.waitSignal(window.index_finished, timeout=30_000):
        assert window.open_paths([str(path)])
        column = window.model.columns().index("offset")
        width = window.table.columnWidth(column)  # before any record is counted
    last = f"{path.stat().st_size - len(frame):,}"
    assert width >= window.table.fontMetrics().horizontalAdvance(last)


def test_detection_records_are_summarised_by_their_class_texts(qtbot, window, samples):
    """The summary columns of an Object Detection API file: the class texts of each
    record (its boxes), not the constant image size; lists shown by their values."""
    from tests.tf_oracle import tf, tf_read

    path = samples / "shapes_odapi.tfrecord"
    open_and_wait(qtbot, window, [path])
    qtbot.waitUntil(lambda: bool(window.model.summary_keys), timeout=10_000)
    keys = window.model.summary_keys
    assert keys[0] == "image/object/class/text"
    assert "image/height" not in keys and "image/width" not in keys
    t = tf()
    spec = {"image/object/class/text": t.io.VarLenFeature(t.string)}
    column = window.model.columns().index(window.model.columns()[-len(keys)])
    for record, raw in enumerate(tf_read(path)[:6]):
        texts = t.io.parse_single_example(raw, spec)["image/object/class/text"].values.numpy()
        qtbot.waitUntil(
            lambda r=record: bool(window.model.data(window.model.index(r, column))),
            timeout=5000,
        )
        cell = window.model.data(window.model.index(record, column))
        assert cell == ", ".join(v.decode() for v in texts)


def test_opening_a_node_widens_the_key_column_to_its_keys(qtbot, window, samples):
    """Box keys read "xmin", never "x…": the key column grows when a node opens."""
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(4)
    tree, model = window.tree, window.tree_model
    bbox = model.match(
        model.index(0, 0),
        Qt.ItemDataRole.DisplayRole,
        "bbox",
        1,
        Qt.MatchFlag.MatchRecursive | Qt.MatchFlag.MatchExactly,
    )[0]
    tree.collapse(bbox)
    tree.resizeColumnToContents(0)  # as wide as the closed nodes need
    before = tree.columnWidth(0)
    tree.expand(bbox)  # as a click on its arrow does
    assert tree.columnWidth(0) > before  # the deeper keys need more
    assert tree.columnWidth(0) >= tree.sizeHintForColumn(0)


def test_prediction_lists_come_after_the_labels_in_the_summary(qtbot, window, tmp_path):
    """A detection file with a model's predictions in it: the summary shows the class
    texts and the class ids of the labels, not the model's."""
    from tests.planted_labels import labelled_dataset

    path = labelled_dataset(tmp_path / "with.tfrecord", with_predictions=True)
    open_and_wait(qtbot, window, [path])
    qtbot.waitUntil(lambda: bool(window.model.summary_keys), timeout=10_000)
    keys = window.model.summary_keys
    assert keys[:2] == ["image/object/class/text", "image/object/class/label"], keys


def test_a_tfds_folder_shows_class_names_beside_its_labels(qtbot, window):
    """A folder tensorflow_datasets wrote: the label column reads "2 triangle", the
    names from its ClassLabel file."""
    from pathlib import Path

    from tests.tf_oracle import tf, tf_read

    folder = Path(__file__).resolve().parents[1] / "data" / "tfds" / "shapes" / "1.0.0"
    names = (folder / "label.labels.txt").read_text().split()
    open_and_wait(qtbot, window, [folder])
    qtbot.waitUntil(lambda: "label" in window.model.summary_keys, timeout=10_000)
    from tfr_viewer.ui.models.record_table import feature_column

    column = window.model.columns().index(feature_column("label"))
    t = tf()
    spec = {"label": t.io.FixedLenFeature([], t.int64)}
    payloads = [r for shard in sorted(folder.glob("*.tfrecord-*")) for r in tf_read(shard)]
    for row in range(4):
        record = window.model.record_at(row)
        label = int(t.io.parse_single_example(payloads[record], spec)["label"])
        qtbot.waitUntil(lambda r=row: bool(window.model.data(window.model.index(r, column))))
        assert window.model.data(window.model.index(row, column)) == f"{label} {names[label]}"
    # the tree and the picture name them too
    window.select_record(2)
    label = int(t.io.parse_single_example(payloads[2], spec)["label"])
    top = {window.tree_model.node(window.tree_model.index(r, 0)).name: r for r in range(3)}
    shown = window.tree_model.node(window.tree_model.index(top["label"], 0)).value
    assert shown == f"{label} ({names[label]})"
    images = window.preview.images
    images.picker.select(0)
    box_names = (folder / "objects-label.labels.txt").read_text().split()
    assert any(f"{n} (" in images.info.text() for n in box_names), images.info.text()


def test_clearing_a_filter_clears_its_warning_from_the_status_bar(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    _filter(qtbot, window, "label == 1")
    shown = window.current
    assert shown is not None
    _filter(qtbot, window, 'label == 1 or label == "1"')  # text for a number: a warning
    assert window.current == shown
    _filter(qtbot, window, "")
    assert window.current == shown
    assert window.statusBar().currentMessage().startswith(f"record {shown}:")
