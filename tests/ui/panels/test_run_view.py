"""The run view as a user drives it: a log folder written by ``tf.summary`` (two runs;
scalars, histograms, text, images, hyperparameters) opened in the window shows the
Runs dock by itself; its tag table, curves, histograms, steps and tables hold what
TensorBoard's own loader keeping every point reads; the smoothing slider and the x
axis redraw the curves and are remembered; a click on a point, on a histogram's line
or on a step selects its record."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from tests.summary_files import tensorboard_log, tensorboard_tensors
from tests.tf_oracle import tf
from tests.ui.conftest import open_and_wait
from tfr_viewer.core.analyze.scalar_series import smoothed
from tfr_viewer.core.decode.payloads import event
from tfr_viewer.core.io import Dataset


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    from tensorboard.plugins.hparams import api as hp

    t = tf()
    root = tmp_path_factory.mktemp("logs")
    rng = np.random.default_rng(7)
    for run, steps, rate in (("train", 300, 0.01), ("eval", 30, 0.1)):
        writer = t.summary.create_file_writer(str(root / run))
        with writer.as_default():
            hp.hparams({"learning_rate": rate, "optimizer": "adam"})
            for step in range(steps):
                t.summary.scalar("loss", float(np.exp(-step / 80) + rng.normal(0, 0.05)), step=step)
                if step % 10 == 0:
                    t.summary.histogram("weights", rng.normal(step / 100, 1, 200), step=step)
                    t.summary.text("note", f"{run} at step {step}", step=step)
            t.summary.image("samples", rng.random((2, 8, 6, 3)), step=steps - 1, max_outputs=2)
        writer.close()
    return root


def _open(qtbot, window, logdir):
    open_and_wait(qtbot, window, [logdir])
    dock = window.docks.dock("runs")
    assert dock.isVisible()  # shown by itself: the dataset is event files
    view = window.docks.widget("runs")
    qtbot.waitUntil(lambda: view.log is not None, timeout=30_000)
    return view


def _row_of(view, run, tag):
    for r in range(view.proxy.rowCount()):
        entry = view.proxy.entry(view.proxy.index(r, 0))
        if (entry.run, entry.tag) == (run, tag):
            return r
    raise AssertionError(f"no row {run}: {tag}")


def _record_step(window, record):
    return event.decode(window.session.dataset.read(record)).step


def test_the_tag_table_and_the_first_curve_as_tensorboard_reads_them(qtbot, window, logdir):
    view = _open(qtbot, window, logdir)
    loader = tensorboard_log(logdir)
    expected = {
        (run, tag): len(loader.Tensors(run, tag))
        for run, tags in loader.Runs().items()
        for tag in tags["tensors"]
    }
    shown = {(e.run, e.tag): e.points for e in view.model.rows}
    assert shown == expected
    assert "2 runs" in view.status.text()
    # the first scalar tag is chosen and drawn, every point as TensorBoard has it
    (tag,) = view.selected()
    assert tag.plugin == "scalars"
    theirs = tensorboard_tensors(logdir, "scalars")[(tag.run, tag.tag)]
    (curve,) = view.scalars.shown
    assert curve.step.tolist() == [e.step for e in theirs]
    assert curve.value.tolist() == [float(tf().make_ndarray(e.tensor_proto)) for e in theirs]
    # the size tab adds up to the files
    sizes = view.sizes
    assert sizes.topLevelItemCount() == 2


def test_several_runs_smoothed_against_each_axis_and_remembered(qtbot, window, logdir):
    view = _open(qtbot, window, logdir)
    view.select_rows([_row_of(view, "train", "loss"), _row_of(view, "eval", "loss")])
    assert [(s.run, s.tag) for s in view.scalars.shown] == [("eval", "loss"), ("train", "loss")]
    view.smoothing.setValue(900)
    assert view.smoothing_label.text() == "0.900"
    items = view.scalars.plot.getPlotItem().listDataItems()
    assert len(items) == 4  # each curve as written (faint) and smoothed
    train = view.scalars.shown[1]
    x, y = items[3].getOriginalDataset()
    assert np.allclose(y, smoothed(train.value, 0.9))
    assert np.array_equal(x, train.step)
    view.axis.setCurrentIndex(view.axis.findData("relative"))
    x, _ = view.scalars.plot.getPlotItem().listDataItems()[3].getOriginalDataset()
    assert x[0] == 0.0 and np.allclose(x * 3600, train.wall_time - train.wall_time[0])
    # a new view reads the choices back
    window.close_dataset()
    from tfr_viewer.ui.panels.run_view import RunView

    again = RunView()
    qtbot.addWidget(again)
    assert again.weight() == 0.9 and again.axis.currentData() == "relative"
    again.smoothing.setValue(600)
    again.axis.setCurrentIndex(again.axis.findData("step"))


def test_a_click_on_a_point_selects_its_record(qtbot, window, logdir):
    view = _open(qtbot, window, logdir)
    view.smoothing.setValue(0)
    view.select_rows([_row_of(view, "eval", "loss")])
    (curve,) = view.scalars.shown
    view.scalars.plot.getPlotItem().getViewBox().setRange(
        xRange=(curve.step[10] - 3, curve.step[10] + 3), padding=0
    )
    qtbot.wait(50)
    at = view.scalars.view_position(curve, 10)
    qtbot.mouseClick(
        view.scalars.plot.viewport(),
        Qt.MouseButton.LeftButton,
        pos=QPoint(round(at.x()), round(at.y())),
    )
    assert window.current == int(curve.record[10])
    assert _record_step(window, window.current) == curve.step[10]


def test_histograms_text_and_images_by_step(qtbot, window, logdir):
    view = _open(qtbot, window, logdir)
    view.select_rows([_row_of(view, "train", "weights")])
    assert view.tabs.currentWidget() is view.histograms
    theirs = tensorboard_tensors(logdir, "histograms")[("train", "weights")]
    shown = view.histograms.shown
    assert [h.step for h in shown] == [e.step for e in theirs]
    for h, e in zip(shown, theirs, strict=True):
        assert np.allclose(h.buckets, tf().make_ndarray(e.tensor_proto))
    lines = [i for i in view.histograms.plot.getPlotItem().items if hasattr(i, "sigClicked")]
    lines[3].sigClicked.emit(lines[3], None)
    assert _record_step(window, window.current) == shown[3].step

    view.select_rows([_row_of(view, "eval", "note")])
    assert view.tabs.currentWidget() is view.steps
    texts = [view.steps.table.item(r, 2).text() for r in range(view.steps.table.rowCount())]
    notes = tensorboard_tensors(logdir, "text")[("eval", "note")]
    assert texts == [tf().make_ndarray(e.tensor_proto).item().decode() for e in notes]
    view.steps.table.setFocus()
    qtbot.keyClick(view.steps.table, Qt.Key.Key_Down)
    assert _record_step(window, window.current) == notes[1].step

    view.select_rows([_row_of(view, "train", "samples")])
    assert view.steps.picture_count() == 2  # both pictures of the step
    pixmap = view.steps.picture.pixmap()
    assert pixmap.width() > pixmap.height()  # side by side
    (step,) = view.steps.points
    view.steps.gallery_button.click()  # Show in Gallery
    assert window.left_tabs.currentIndex() == 1
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=10_000)
    assert window.model.record_at(0) == step.record


def test_hyperparameters_a_row_a_run(qtbot, window, logdir):
    view = _open(qtbot, window, logdir)
    table = view.hparams
    columns = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert columns[0] == "run" and set(columns[1:3]) == {"learning_rate", "optimizer"}
    rate, optimizer = columns.index("learning_rate"), columns.index("optimizer")
    rows = {
        table.item(r, 0).text(): (
            table.item(r, rate).data(Qt.ItemDataRole.UserRole),
            table.item(r, optimizer).text(),
        )
        for r in range(table.rowCount())
    }
    assert rows == {"train": (pytest.approx(0.01), "adam"), "eval": (pytest.approx(0.1), "adam")}


def test_a_dataset_of_examples_is_no_log(qtbot, window, samples):
    shard = sorted(samples.glob("*.tfrecord"))[0]
    open_and_wait(qtbot, window, [shard])
    assert not window.docks.dock("runs").isVisible()
    window.menus.action("panel.runs").trigger()  # View › Runs (Ctrl+9)
    view = window.docks.widget("runs")
    assert "no TensorBoard event files" in view.status.text()
    assert view.model.rowCount() == 0


def test_a_wrong_crc_is_read_and_flagged_a_cut_record_said(qtbot, window, tmp_path):
    from tests.summary_files import write_tf1_summaries

    path = write_tf1_summaries(tmp_path / "run" / "events.out.tfevents.1.host", steps=8)
    with Dataset([str(path)]) as ds:
        ds.index(verify=False)
        offsets = ds.files[0].index.offsets().tolist()
        lengths = ds.files[0].index.lengths().tolist()
    data = bytearray(path.read_bytes())
    end = offsets[4] + 12 + lengths[4]
    data[end : end + 4] = bytes(4)  # the fifth record's CRC, as a writer of zeros
    path.write_bytes(bytes(data[: offsets[-1] + 20]))  # the last record cut short
    view = _open(qtbot, window, tmp_path)
    text = view.status.text()
    assert "1 record read although its CRC is wrong" in text
    assert "1 damaged record cut short" in text
    lr = next(e for e in view.model.rows if e.tag == "lr")
    assert lr.points == 8  # the step of the record with the wrong CRC is read


def test_closing_the_dataset_while_it_is_read_stops_the_read(qtbot, window, tmp_path):
    from tests.benchmarks.event_benchmarks import write_events

    folder = tmp_path / "big"
    folder.mkdir()
    write_events(folder / "events.out.tfevents.1700000000.big", 60_000, 20)
    window.open_paths([str(folder)])
    qtbot.waitUntil(lambda: window.docks.made("runs"), timeout=30_000)
    view = window.docks.widget("runs")
    qtbot.waitUntil(lambda: view.series.points > 0, timeout=30_000)
    window.close_dataset()
    assert not view.reader.running()
    assert view.model.rowCount() == 0 and view.log is None
    assert "Open a log folder" in view.status.text()


def test_a_run_still_being_written_is_followed(qtbot, window, tmp_path):
    """A writer appends events: the record it is writing is said to be cut short, then
    read once whole; the tag selected stays selected."""
    from tests.summary_files import write_tf1_summaries

    run = tmp_path / "live"
    path = write_tf1_summaries(run / "events.out.tfevents.1.host", steps=4)
    later = write_tf1_summaries(tmp_path / "later" / "events.out.tfevents.2.host", steps=9)
    with Dataset([str(later)]) as ds:
        ds.index(verify=False)
        offsets = ds.files[0].index.offsets().tolist()
    more = later.read_bytes()[offsets[6] : offsets[-1]]  # steps 4 to 8 of the other run
    view = _open(qtbot, window, tmp_path / "live")
    view.follow.setChecked(True)
    view.follow_timer.setInterval(50)
    view.select_rows([_row_of(view, ".", "acc")])
    with path.open("ab") as f:
        f.write(more[: len(more) - 10])  # the writer is in the middle of a record
    qtbot.waitUntil(
        lambda: view.log is not None and "cut short" in view.status.text(), timeout=30_000
    )
    with path.open("ab") as f:
        f.write(more[len(more) - 10 :])
    qtbot.waitUntil(
        lambda: (
            view.log is not None and next(e for e in view.model.rows if e.tag == "lr").points == 9
        ),
        timeout=30_000,
    )
    assert "cut short" not in view.status.text(), view.status.text()
    assert [(t.run, t.tag) for t in view.selected()] == [(".", "acc")]
    (curve,) = view.scalars.shown
    assert curve.step.tolist() == list(range(9))
    assert window.session.dataset is not None and len(window.session.dataset) > 4


def test_follow_is_remembered_and_can_be_turned_off(qtbot, window, logdir):
    view = _open(qtbot, window, logdir)
    view.follow.setChecked(False)
    assert not view.follow_timer.isActive()
    from tfr_viewer.ui.panels.run_view import RunView

    again = RunView()
    qtbot.addWidget(again)
    assert not again.follow.isChecked()
    view.follow.setChecked(True)
    assert view.follow_timer.isActive()
