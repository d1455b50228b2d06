"""Every menu action, chosen as a user chooses it (``QAction.trigger()``), with the
dialogs answered by the test: none may raise, freeze or read standard input."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtWidgets import QDialog, QInputDialog, QMessageBox

from tests.ui.conftest import open_and_wait
from tfr_viewer.ui import file_dialogs


class Answers:
    """Replies for the static dialog functions, and a log of what was asked."""

    def __init__(self, monkeypatch, tmp_path, image) -> None:
        self.asked: list[str] = []
        self.text = "x"
        self.tmp_path = tmp_path

        def get_text(parent, title, label, *args, **kwargs):
            self.asked.append(f"text:{title}")
            return self.text, True

        def get_item(parent, title, label, items, *args, **kwargs):
            self.asked.append(f"item:{title}")
            return items[0], True

        def save_name(parent, caption="", *args, **kwargs):
            self.asked.append(f"save:{caption}")
            return str(tmp_path / f"out{len(self.asked)}")

        def open_name(parent, caption="", *args, **kwargs):
            self.asked.append(f"open:{caption}")
            return str(image)

        def open_names(parent, caption="", *args, **kwargs):
            self.asked.append(f"opens:{caption}")
            return []

        def folder(parent, caption="", *args, **kwargs):
            self.asked.append(f"folder:{caption}")
            return ""

        def question(parent, title, *args, **kwargs):
            self.asked.append(f"question:{title}")
            return QMessageBox.StandardButton.Discard

        monkeypatch.setattr(QInputDialog, "getText", staticmethod(get_text))
        monkeypatch.setattr(QInputDialog, "getItem", staticmethod(get_item))
        monkeypatch.setattr(file_dialogs, "save_file", save_name)
        monkeypatch.setattr(file_dialogs, "open_file", open_name)
        monkeypatch.setattr(file_dialogs, "open_files", open_names)
        monkeypatch.setattr(file_dialogs, "folder", folder)
        monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
        monkeypatch.setattr(QMessageBox, "warning", staticmethod(question))
        monkeypatch.setattr(QMessageBox, "information", staticmethod(question))
        monkeypatch.setattr(QDialog, "exec", lambda self: self.asked_exec())
        QDialog.asked_exec = lambda dialog: self.asked.append(f"exec:{type(dialog).__name__}") or 0


@pytest.fixture
def answers(monkeypatch, tmp_path, samples):
    import io

    # A pipe on stdin that never delivers: reading it would freeze the test.
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    image = tmp_path / "replacement.png"
    from PIL import Image

    Image.new("RGB", (8, 6), "red").save(image)
    return Answers(monkeypatch, tmp_path, image)


def all_actions(window):
    """Every action reachable from the menu bar, depth first, with its menu path."""
    out = []

    def walk(menu, path):
        for action in menu.actions():
            if action.isSeparator():
                continue
            if action.menu() is not None:
                walk(action.menu(), f"{path} › {action.text()}")
            else:
                out.append((f"{path} › {action.text()}".replace("&", ""), action))

    for top in window.menuBar().actions():
        walk(top.menu(), top.text().replace("&", ""))
    return out


SKIP = ("Quit", "Close Window")  # they end the test's window; tested on their own


def test_every_menu_action_runs_from_the_menu(qtbot, window, samples, answers):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(1)
    actions = all_actions(window)
    names = [name for name, _ in actions]
    for expected in (
        "Edit › Add Feature…",
        "Edit › Rename Feature…",
        "Edit › Replace Image…",
        "File › Save Intact Records As…",
    ):
        assert expected in names
    errors: list[BaseException] = []
    hook = sys.excepthook
    sys.excepthook = lambda kind, value, tb: errors.append(value)
    try:
        for name in names:
            action = dict(all_actions(window)).get(name)  # Open Recent rebuilds its items
            skip = any(name.endswith(s) for s in SKIP) or "Open Recent ›" in name
            if action is None or skip or not action.isEnabled():
                continue
            _select_image_feature(window)
            action.trigger()
            qtbot.wait(1)
            assert not errors, f"{name}: {errors[0]!r}"
            window.edit_actions.stack.setIndex(0)  # each action starts from the file
    finally:
        sys.excepthook = hook
    # the dialogs were asked for, not skipped
    assert "open:Replace image with" in answers.asked
    assert any(a.startswith("text:Add feature") for a in answers.asked)
    assert any(a.startswith("text:Rename feature") for a in answers.asked)
    assert any(a.startswith("save:Save intact records as") for a in answers.asked)
    for window_ in list(_other_windows(window)):
        window_.close()
    # Open Recent's items open what they name (the last one opened is first)
    recent = [a for n, a in all_actions(window) if "Open Recent ›" in n]
    assert recent and recent[0].text().startswith("shapes_odapi.tfrecord")
    assert recent[0].text().endswith("samples")  # where it is: names alone look alike
    with qtbot.waitSignal(window.index_finished, timeout=30_000):
        recent[0].trigger()
    assert window.dataset.files[0].path.endswith("shapes_odapi.tfrecord")


def _select_image_feature(window) -> None:
    """Select the tree's ``image/encoded`` feature (the edit actions act on it)."""
    from PySide6.QtCore import Qt

    model = window.tree_model
    hits = model.match(
        model.index(0, 0),
        Qt.ItemDataRole.DisplayRole,
        "encoded",
        1,
        Qt.MatchFlag.MatchRecursive | Qt.MatchFlag.MatchExactly,
    )
    if hits:
        window.tree.setCurrentIndex(hits[0])


def _other_windows(window):
    from PySide6.QtWidgets import QApplication

    windows = getattr(QApplication.instance(), "windows", None)
    return [w for w in (windows.windows if windows else []) if w is not window]


def test_replace_image_from_the_menu_asks_for_a_file(qtbot, window, samples, answers):
    """Edit › Replace Image… opens a file picker (answered) and replaces the image."""
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(1)
    _select_image_feature(window)
    action = dict(all_actions(window))["Edit › Replace Image…"]
    action.trigger()
    assert "open:Replace image with" in answers.asked
    assert window.edit_actions.dirty()
    assert window.preview.images.info.text().startswith("image/encoded: 8×6")
