"""The episode player as a user drives it: View › Episode Player on an RLDS dataset
shows the selected episode's cameras, its signals and its instruction; the keys and the
slider step through it, Space plays it to its end; a record that keeps no steps says
so. TFDS writes the dataset and decodes the pictures compared."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from tests.rlds_data import Planned, tfds_episodes, write_rlds
from tests.ui.conftest import open_and_wait


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_rlds(
        tmp_path_factory.mktemp("rlds"),
        {"train": [Planned(12, seed=1), Planned(5, "open the drawer", seed=2)]},
    )


def _open_player(qtbot, window, folder):
    shard = next(folder.glob("*-train.tfrecord-*"))
    open_and_wait(qtbot, window, [shard])
    window.menus.action("panel.episode").trigger()  # View › Episode Player (Ctrl+8)
    player = window.docks.widget("episode")
    qtbot.waitUntil(lambda: player.episode is not None, timeout=10_000)
    return player


def _pixels(view):
    """The picture a camera view shows, as decoded (height, width, RGB)."""
    from PySide6.QtGui import QImage

    image = view.shown().toImage().convertToFormat(QImage.Format.Format_RGB888)
    width, height, line = image.width(), image.height(), image.bytesPerLine()
    data = bytes(image.constBits())[: line * height]
    rows = np.frombuffer(data, np.uint8).reshape(height, line)
    return rows[:, : width * 3].reshape(height, width, 3).copy()


def test_the_player_shows_the_episode_and_steps_through_it(qtbot, window, folder):
    import tensorflow as tf

    player = _open_player(qtbot, window, folder)
    episode = player.episode
    theirs = tfds_episodes(folder, "train")[episode.record]["steps"]
    assert episode.length == len(theirs["is_first"])
    assert [v.name for v in player._cameras] == ["observation/image", "observation/wrist_image"]
    assert player.slider.maximum() == episode.length - 1
    assert player.position.text() == f"step 1 of {episode.length}"
    assert player._plots.names == ["action", "observation/state", "reward"]
    instruction = theirs["language_instruction"][0].decode()
    assert player.instruction.text() == f"“{instruction}”"
    assert "is_first" in player.flags.text()

    player.slider.setFocus()
    qtbot.keyClick(player.slider, Qt.Key.Key_End)
    assert player.step == episode.length - 1
    assert "is_last" in player.flags.text()
    player.setFocus()
    qtbot.keyClick(player, Qt.Key.Key_Home)
    qtbot.keyClick(player, Qt.Key.Key_Right)
    qtbot.keyClick(player, Qt.Key.Key_Right)
    assert player.step == 2 and player._plots.cursor_at() == 2
    camera = player._cameras[0]
    qtbot.waitUntil(lambda: player.shown_step == 2, timeout=10_000)
    shown = _pixels(camera).astype(int)
    step = [tf.io.decode_jpeg(v).numpy().astype(int) for v in theirs["observation/image"][:3]]
    assert shown.shape == step[2].shape
    assert np.abs(shown - step[2]).mean() < 2  # the picture of step 2, as TensorFlow decodes it
    assert np.abs(shown - step[0]).mean() > 5 * np.abs(shown - step[2]).mean()

    player.speed.setCurrentIndex(player.speed.findData(60))
    qtbot.keyClick(player, Qt.Key.Key_Space)
    assert player.playing
    qtbot.waitUntil(lambda: not player.playing, timeout=10_000)
    assert player.step == episode.length - 1


def test_another_record_is_another_episode_and_a_plain_record_says_so(
    qtbot, window, folder, samples
):
    player = _open_player(qtbot, window, folder)
    first = player.episode.record
    window.select_record(1 - first)
    qtbot.waitUntil(lambda: player.episode is not None and player.episode.record != first)
    assert player.step == 0 and player.position.text().startswith("step 1 of ")
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(0)
    qtbot.waitUntil(lambda: "no episode" in player.message.text(), timeout=10_000)
    assert player.episode is None and player.message.isVisible()


def test_double_clicking_a_finding_of_a_step_goes_to_that_step(qtbot, window, tmp_path):
    from tests.rlds_data import planted_episodes
    from tests.ui.panels.test_analysis_panels import _action, _double_click_finding

    splits, _ = planted_episodes()
    folder = write_rlds(tmp_path, splits)
    open_and_wait(qtbot, window, sorted(folder.glob("*.tfrecord-*")))
    _action(window, "Run Checks").trigger()
    panel = window.analysis.findings
    qtbot.waitUntil(lambda: bool(panel.model.findings), timeout=60_000)
    _double_click_finding(qtbot, panel, lambda f: f.kind == "action_jump")
    jump = next(
        f for f in panel.model.findings if f.kind == "action_jump" and f.record == window.current
    )
    player = window.docks.widget("episode")
    assert window.docks.dock("episode").isVisible()
    qtbot.waitUntil(lambda: player.episode is not None and player.episode.record == jump.record)
    assert player.step == jump.step and jump.step in (5, 7)  # the two planted jumps
    node = window.tree_model.node(window.tree.currentIndex())
    assert (node.key, node.name) == ("steps/action", f"[{jump.step}]")


def test_a_long_episode_s_steps_stay_closed_in_the_tree_until_opened(qtbot, window, tmp_path):
    """Selecting a long episode opens its steps node and the groups of its features,
    not the list of steps of each: it is shown at once."""
    folder = write_rlds(tmp_path, {"train": [Planned(70, seed=3)]})
    shard = next(folder.glob("*-train.tfrecord-*"))
    open_and_wait(qtbot, window, [shard])
    tree, model = window.tree, window.tree_model
    steps = model.index_of_key("steps")
    action = model.index_of_key("steps/action")
    observation = model.index_of_key("steps/observation")
    assert tree.isExpanded(steps) and tree.isExpanded(observation)
    assert model.rowCount(action) == 70 and not tree.isExpanded(action)
    tree.setExpanded(action, True)  # the user's choice
    assert tree.isExpanded(action)


def test_a_picture_that_does_not_decode_says_so_and_the_player_goes_on(qtbot, window, tmp_path):
    """An episode written by hand (no features.json) whose step 1 picture is cut short:
    that camera says why it shows nothing, the other steps show their pictures, and
    playing goes through it."""
    import io

    from PIL import Image

    from tests.rlds_data import scene
    from tests.tf_oracle import tf_write
    from tfr_viewer.core.write.build import build_example

    def jpeg(step: int) -> bytes:
        out = io.BytesIO()
        Image.fromarray(scene(3, step, 64, 0)).save(out, "JPEG")
        return out.getvalue()

    pictures = [jpeg(t) for t in range(4)]
    pictures[1] = pictures[1][: len(pictures[1]) // 3]  # cut short
    record = build_example(
        {
            "steps/is_first": [1, 0, 0, 0],
            "steps/is_last": [0, 0, 0, 1],
            "steps/action": [0.1 * i for i in range(8)],
            "steps/observation/image": pictures,
        }
    )
    path = tf_write(tmp_path / "hand_made.tfrecord", [record])
    open_and_wait(qtbot, window, [path])
    window.menus.action("panel.episode").trigger()
    player = window.docks.widget("episode")
    qtbot.waitUntil(lambda: player.episode is not None and player.shown_step == 0)
    assert player.episode.length == 4 and player.episode.steps["action"].shape == (4, 2)
    camera = player._cameras[0]
    assert camera.shown() is not None
    player.go_to(1)
    qtbot.waitUntil(lambda: player.shown_step == 1)
    assert camera.shown() is None and "observation/image" in camera.text()
    assert len(camera.text().splitlines()) == 2  # the camera, and why there is no picture
    player.go_to(2)
    qtbot.waitUntil(lambda: player.shown_step == 2)
    assert camera.shown() is not None
    player.speed.setCurrentIndex(player.speed.findData(60))
    player.go_to(0)
    player.play()
    qtbot.waitUntil(lambda: not player.playing, timeout=10_000)
    assert player.step == 3
