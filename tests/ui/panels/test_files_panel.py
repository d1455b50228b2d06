"""The Files panel: the shards of the open set as ``info`` describes them, each leading
to its first record; opened from the View menu like a user does."""

from __future__ import annotations

import json
import os

from PySide6.QtCore import Qt

from tests.program import program
from tests.tf_oracle import tf_read, tf_write
from tests.ui.conftest import open_and_wait


def _payloads(n: int, tag: bytes) -> list[bytes]:
    return [tag + b"-%d" % i for i in range(n)]


def test_files_panel_lists_each_shard_and_selects_its_first_record(qtbot, window, tmp_path):
    counts = (3, 0, 5)
    paths = []
    for number, n in enumerate(counts):
        path = tmp_path / f"set.tfrecord-{number:05d}-of-00003"
        tf_write(path, _payloads(n, b"s%d" % number), "gzip" if number == 2 else "none")
        paths.append(path)
    window.menus.action("panel.files").trigger()  # View › Files (Ctrl+7)
    panel = window.docks.widget("files")
    assert window.docks.dock("files").isVisible()
    assert panel.summary.text() == "No dataset open."
    open_and_wait(qtbot, window, [tmp_path])
    rows = [
        [panel.list.topLevelItem(i).text(c) for c in range(6)]
        for i in range(panel.list.topLevelItemCount())
    ]
    sizes = [f"{os.path.getsize(p):,}" for p in paths]
    tf_counts = [len(tf_read(p, "gzip" if i == 2 else "none")) for i, p in enumerate(paths)]
    assert rows == [
        [paths[0].name, str(tf_counts[0]), "0", "0", sizes[0], "none"],
        [paths[1].name, str(tf_counts[1]), "0", "", sizes[1], "none"],
        [paths[2].name, str(tf_counts[2]), "0", "3", sizes[2], "gzip"],
    ]
    total = sum(os.path.getsize(p) for p in paths)
    assert panel.summary.text() == f"3 files, {total:,} bytes, 8 records"

    # activating the third shard (Enter on its row) selects its first record
    panel.list.setFocus()
    panel.list.setCurrentItem(panel.list.topLevelItem(2))
    qtbot.keyClick(panel.list, Qt.Key.Key_Return)
    assert window.session.current == 3
    assert window.edit_actions.payload(3) == b"s2-0"
    # an empty shard leads nowhere and says so
    panel.list.setCurrentItem(panel.list.topLevelItem(1))
    qtbot.keyClick(panel.list, Qt.Key.Key_Return)
    assert window.session.current == 3
    assert "holds no records" in window.statusBar().currentMessage()

    window.close_dataset()
    assert panel.list.topLevelItemCount() == 0
    assert panel.summary.text() == "No dataset open."


def test_files_panel_reports_a_damaged_shard_and_what_opened_before_it(qtbot, window, tmp_path):
    """A panel shown after the dataset opened still lists it; a cut shard's row says
    what ``info`` says of it."""
    good, cut = tmp_path / "a.tfrecord", tmp_path / "b.tfrecord"
    tf_write(good, _payloads(4, b"a"))
    tf_write(cut, _payloads(4, b"b"))
    with open(cut, "r+b") as f:
        f.truncate(os.path.getsize(cut) - 3)
    open_and_wait(qtbot, window, [good, cut])
    window.menus.action("panel.files").trigger()
    panel = window.docks.widget("files")
    info = program("info", "--json", str(good), str(cut))
    expected = [
        [f"{f['records']:,}", f"{f['problems']:,}", f"{f['bytes']:,}", f["compression"]]
        for f in json.loads(info.stdout)["files"]
    ]
    rows = [
        [panel.list.topLevelItem(i).text(c) for c in (1, 2, 4, 5)]
        for i in range(panel.list.topLevelItemCount())
    ]
    assert rows == expected
    assert rows[1][1] == "1"  # the cut is counted
