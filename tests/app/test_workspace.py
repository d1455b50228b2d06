"""The workspace holds what is open and what was edited as plain data, without Qt:
a program opens a dataset, edits, undoes and redoes as the window does, each change
announced once in order, the exact bytes restored; TensorFlow reads every state."""

from __future__ import annotations

import pytest

from tests.tf_oracle import tf, tf_write
from tfr_viewer.app.workspace import (
    Closed,
    Edited,
    HistoryMoved,
    KeysChanged,
    Opened,
    Selected,
    Workspace,
)
from tfr_viewer.core.decode.layouts import KeyMap
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.write import EditError
from tfr_viewer.core.write.build import build_example
from tfr_viewer.core.write.edits import set_values


@pytest.fixture
def opened(tmp_path):
    path = tmp_path / "w.tfrecord"
    tf_write(path, [build_example({"label": i}) for i in range(5)])
    ds = Dataset([str(path)])
    ds.index()
    workspace = Workspace()
    heard: list = []
    workspace.subscribe(heard.append)
    workspace.open(ds)
    yield workspace, heard, ds
    workspace.close()


def _label(payload: bytes) -> list[int]:
    return list(tf().train.Example.FromString(payload).features.feature["label"].int64_list.value)


def test_edits_undo_and_redo_restore_the_exact_bytes(opened):
    workspace, heard, ds = opened
    original = ds.read(2)
    assert heard == [Opened(ds)]
    workspace.change("Set label", [2, 3], lambda p: set_values(p, "label", [7]))
    assert heard[-2:] == [Edited((2, 3)), HistoryMoved(1, 1, added=True)]
    assert _label(workspace.payload(2)) == [7] and workspace.pending() == [2, 3]
    workspace.delete([4])
    assert workspace.history.undo_text() == "Delete record 4"
    assert workspace.undo() and workspace.undo()
    assert workspace.payload(2) == original and workspace.pending() == []
    assert heard[-1] == HistoryMoved(0, 2)
    assert workspace.redo()
    assert (
        _label(workspace.payload(3)) == [7] and workspace.history.redo_text() == "Delete record 4"
    )
    # a new step replaces the steps undone
    workspace.revert([2])
    assert workspace.history.steps[-1].text == "Revert record 2"
    assert not workspace.history.can_redo and len(workspace.history.steps) == 2
    assert workspace.payload(2) == original and workspace.pending() == [3]
    assert workspace.go_to(0) and workspace.pending() == []
    assert not workspace.undo()


def test_an_edit_a_record_refuses_changes_nothing(opened):
    workspace, heard, _ds = opened
    from tfr_viewer.core.write.edits import remove_feature

    with pytest.raises(EditError, match="no feature 'colour'"):
        workspace.change("Remove", [0, 1], lambda p: remove_feature(p, "colour"))
    assert workspace.pending() == [] and heard == heard[:1] and not workspace.history.steps


def test_selection_keys_and_closing_are_announced(opened):
    workspace, heard, ds = opened
    workspace.select(3)
    workspace.set_keymap(KeyMap(label="label"))
    workspace.change("Set", [1], lambda p: set_values(p, "label", [9]))
    workspace.close()
    assert heard[1:3] == [Selected(3), KeysChanged(KeyMap(label="label"))]
    assert heard[-1] == Closed()
    assert workspace.dataset is None and workspace.pending() == [] and not workspace.history.steps
    with pytest.raises(AssertionError, match="no dataset is open"):
        workspace.payload(0)
    workspace.close()  # nothing open: nothing said
    assert heard[-1] == Closed() and heard.count(Closed()) == 1
