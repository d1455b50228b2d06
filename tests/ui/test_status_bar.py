"""The status bar at a small screen's width: a long message ends in "…" before the
record counts (its whole text in the tool tip), never cut under them."""

from __future__ import annotations

import shutil

from tests.ui.conftest import open_and_wait


def test_a_long_message_ends_before_the_counts(qtbot, window, samples, tmp_path):
    name = "camera_front_" + "x" * 180 + ".tfrecord"  # a record's line names its file
    shutil.copy(samples / "shapes_odapi.tfrecord", tmp_path / name)
    window.resize(1000, 700)
    open_and_wait(qtbot, window, [tmp_path / name])
    window.select_record(3)
    bar = window.statusBar()
    whole = bar.currentMessage()
    assert whole.startswith("record 3: ") and name in whole  # asked, the whole message
    shown = super(type(bar), bar).currentMessage()  # what the bar draws
    assert shown.endswith("…") and whole.startswith(shown[:-1])
    assert bar.fontMetrics().horizontalAdvance(shown) <= bar.room()
    assert bar.room() < window.status.counts.geometry().left()
    assert bar.toolTip() == whole
    window.select_record(4)
    assert bar.currentMessage().startswith("record 4: ")
    bar.clearMessage()
    assert bar.toolTip() == ""


def test_a_short_message_is_shown_whole(qtbot, window, samples):
    window.resize(1000, 700)
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(0)
    bar = window.statusBar()
    assert super(type(bar), bar).currentMessage() == bar.currentMessage()
    assert not bar.currentMessage().endswith("…") and bar.toolTip() == ""
