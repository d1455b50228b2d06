"""The action table: every command of the window is declared once, with a unique id
and shortcut, and its menus, shortcuts and enabled states come from the table."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenuBar, QWidget

from tests.ui.conftest import open_and_wait
from tfr_viewer.ui.actions import Action, Submenu, build_menus


def test_every_shortcut_is_declared_once_and_reaches_its_action(qtbot, window):
    shortcuts: dict[str, str] = {}
    for entry in window.action_table:
        if isinstance(entry, Action) and entry.shortcut is not None:
            text = QKeySequence(entry.shortcut).toString()
            assert text not in shortcuts, f"{entry.id} and {shortcuts[text]} share {text}"
            shortcuts[text] = entry.id
            action = window.menus.action(entry.id)
            assert action.shortcut().toString() == text
    assert len(shortcuts) > 30
    # and every action of the menus is in the table
    in_table = {id(window.menus.action(e.id)) for e in window.action_table if isinstance(e, Action)}

    def walk(menu):
        for action in menu.actions():
            if action.menu() is not None:
                if action.menu() is not window.recent_menu:  # its items are the entries
                    yield from walk(action.menu())
            elif not action.isSeparator():
                yield action

    for top in window.menuBar().actions():
        for action in walk(top.menu()):
            assert id(action) in in_table, action.text()


def test_menus_are_built_in_groups_with_separators(qtbot):
    bar, owner = QMenuBar(), QWidget()
    qtbot.addWidget(owner)
    ran: list[str] = []
    menus = build_menus(
        bar,
        owner,
        [
            Action("file.b", "B", "file", lambda: ran.append("b"), group=1),
            Action("file.a", "A", "file", lambda: ran.append("a")),
            Submenu("file/more", "More", group=1),
            Action("file.more.c", "C", "file/more", lambda: ran.append("c")),
        ],
    )
    items = [a.text() if not a.isSeparator() else "|" for a in menus.menu("file").actions()]
    assert items == ["A", "|", "B", "More"]
    menus.action("file.more.c").trigger()
    menus.action("file.a").trigger()
    assert ran == ["c", "a"]
    with pytest.raises(ValueError, match="file.a"):
        build_menus(bar, owner, [Action("file.a", "A", "file"), Action("file.a", "A", "file")])


def test_actions_that_need_a_dataset_are_enabled_by_opening_one(qtbot, window, samples):
    needs_dataset = ("file.export", "file.save_intact", "go.record", "analyze.compare")
    needs_record = ("edit.value", "edit.delete", "edit.add_feature")
    for id in needs_dataset + needs_record:
        assert not window.menus.action(id).isEnabled(), id
    assert window.menus.action("file.open").isEnabled()
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    for id in needs_dataset + needs_record:
        assert window.menus.action(id).isEnabled(), id
    window.close_dataset()
    assert not window.menus.action("file.export").isEnabled()
    assert not window.menus.action("edit.delete").isEnabled()


def test_a_provided_action_keeps_its_own_behaviour(qtbot, window):
    """A dock's Show/Hide action is placed by the table and still toggles its dock."""
    toggle = window.menus.action("panel.files")
    assert isinstance(toggle, QAction)
    assert toggle is window.docks.dock("files").toggleViewAction()
    toggle.trigger()
    assert window.docks.dock("files").isVisible()
    toggle.trigger()
    assert not window.docks.dock("files").isVisible()


def test_every_name_in_the_table_is_on_the_window(qtbot, window, samples):
    """A handler named with ``On`` is a method of the window's group it names; a
    condition is a method or a value there."""
    from tfr_viewer.ui.actions import On

    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    named = 0
    for entry in window.action_table:
        if not isinstance(entry, Action):
            continue
        if isinstance(entry.handler, On):
            assert callable(entry.handler.resolve(window)), entry.id
            named += 1
        if isinstance(entry.enabled, On):
            assert isinstance(entry.enabled.value(window), bool), entry.id
    assert named >= 8


def test_a_group_declared_as_data_is_made_when_one_of_its_commands_runs(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    groups = {
        "navigator": window,
        "html_reports": window,
        "exports": window.edit_actions,
        "registered": window.analysis,
    }
    window.menus.refresh()
    assert window.menus.action("go.problems").isEnabled()
    assert window.menus.action("file.export").isEnabled()
    assert not window.menus.action("analyze.save_findings_html").isEnabled()  # no findings
    assert [name for name, owner in groups.items() if name in vars(owner)] == []
    window.menus.action("go.problems").trigger()
    assert "navigator" in vars(window)
    assert window.statusBar().currentMessage() == "no problems found"  # an intact file
    window.close_dataset()
    window.menus.refresh()
    assert not window.menus.action("go.problems").isEnabled()
