"""The window's session announces what happens to the open dataset, as a user makes
it happen: opening, the end of indexing, selecting, editing, closing."""

from __future__ import annotations

from tests.ui.conftest import open_and_wait
from tfr_viewer.core.decode import decode


class Heard:
    """Every announcement of a session, in order."""

    def __init__(self, session) -> None:
        self.said: list[tuple] = []
        session.opened.connect(lambda ds: self.said.append(("opened", ds)))
        session.indexed.connect(lambda state: self.said.append(("indexed", state)))
        session.selected.connect(lambda record: self.said.append(("selected", record)))
        session.edited.connect(lambda records: self.said.append(("edited", records)))
        session.closed.connect(lambda: self.said.append(("closed",)))

    def kinds(self) -> list[str]:
        return [s[0] for s in self.said]


def test_opening_selecting_editing_and_closing_are_announced(qtbot, window, samples):
    heard = Heard(window.session)
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    first = window.session.dataset
    assert heard.said[0] == ("opened", first)
    assert "indexed" in heard.kinds()
    assert ("selected", 0) in heard.said  # the first record is shown once indexed
    assert window.session.model is window.table.model()

    window.select_record(3)
    assert heard.said[-1] == ("selected", 3)
    assert window.session.current == 3

    window.edit_actions.delete(restore=False)  # Del on the selected row
    assert heard.said[-1] == ("edited", [3])
    window.edit_actions.stack.undo()
    assert heard.said[-1] == ("edited", [3])

    window.edit_actions.add_feature("note", "bytes", "seen")
    assert heard.said[-1] == ("edited", [3])
    assert "note" in decode(window.edit_actions.payload(3)).payload.features
    assert window.session.editor is window.edit_actions.editor

    # opening another file closes the first: closed comes before the next opened
    heard.said.clear()
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    kinds = heard.kinds()
    assert kinds.index("closed") < kinds.index("opened")
    assert window.session.dataset is not first
    assert window.session.editor is not None and not window.session.workspace.edits

    heard.said.clear()
    window.close_dataset()
    assert heard.kinds()[-1] == "closed"
    assert window.session.dataset is None and window.session.model is None
    assert window.session.current is None and window.session.editor is None
    window.close_dataset()  # nothing open: nothing said
    assert heard.kinds().count("closed") == 1


def test_a_program_editing_through_the_workspace_is_followed_by_the_window(qtbot, window, samples):
    """The session is an adapter over a workspace a program can hold: its edit shows in
    the window and Edit › Undo undoes it; its undo moves the window's undo stack."""
    from tests.ui.test_editing import _action
    from tfr_viewer.core.write.edits import set_values

    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    workspace = window.session.workspace
    heard = Heard(window.session)
    original = window.dataset.read(1)
    workspace.change("Set label of record 1", [1], lambda p: set_values(p, "label", [42]))
    assert heard.said == [("edited", [1])]
    assert window.session.workspace.pending() == [1]
    assert decode(window.edit_actions.payload(1)).payload.features["label"].values.tolist() == [42]
    undo = _action(window.edit_menu, "Undo Set label of record 1")
    assert undo is not None and undo.isEnabled()
    undo.trigger()
    assert workspace.payload(1) == original and workspace.history.position == 0
    assert window.edit_actions.stack.index() == 0
    workspace.redo()  # a program's redo: the window's stack follows
    assert window.edit_actions.stack.index() == 1
    assert window.edit_actions.stack.undoText() == "Set label of record 1"
    assert heard.kinds() == ["edited", "edited", "edited"]
