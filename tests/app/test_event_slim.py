"""A slimmer copy of a log folder, read back by TensorBoard's own loader keeping every
point: the runs and tags kept, exactly the points kept (every tag's values equal the
original's), what was dropped gone, each tag still under its plugin when the value that
carried its metadata was dropped; the copy refused where it would replace a source or
an existing file."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.summary_files import tensorboard_log, write_tf1_summaries
from tests.tf_oracle import tf
from tfr_viewer.app.event_slim import SlimRequest
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.user_error import UserError
from tfr_viewer.core.write.event_slim import SlimRules
from tfr_viewer.core.write.output import ExportError

STEPS = 60


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    from tensorboard.plugins.hparams import api as hp

    t = tf()
    root = tmp_path_factory.mktemp("logs")
    rng = np.random.default_rng(2)
    writer = t.summary.create_file_writer(str(root / "train"))
    with writer.as_default():
        hp.hparams({"learning_rate": 0.01})
        for step in range(STEPS):
            t.summary.scalar("loss", float(rng.random()), step=step)
            t.summary.scalar("eval/accuracy", step / STEPS, step=step)
            if step % 5 == 0:
                t.summary.histogram("weights", rng.normal(size=50), step=step)
                t.summary.text("note", f"step {step}", step=step)
                t.summary.image("samples", rng.random((1, 8, 8, 3)), step=step)
    writer.close()
    write_tf1_summaries(root / "old" / "events.out.tfevents.1.host", steps=20, graph_nodes=50)
    return root


def _points(logdir) -> dict[tuple[str, str], tuple[str, list[tuple[int, object]]]]:
    """Every tag of every run as TensorBoard reads it: its plugin and its points."""
    t = tf()
    loader = tensorboard_log(logdir)
    out = {}
    for run, tags in loader.Runs().items():
        for tag in tags["tensors"]:
            plugin = loader.SummaryMetadata(run, tag).plugin_data.plugin_name
            events = loader.Tensors(run, tag)
            out[(run, tag)] = (
                plugin,
                [(e.step, repr(t.make_ndarray(e.tensor_proto).tolist())) for e in events],
            )
    return out


def _slim(logdir, out, **rules):
    with Dataset.open([str(logdir)]) as ds:
        return SlimRequest(str(out), SlimRules(**rules)).run(ds)


def _graphs(logdir) -> set[str]:
    loader = tensorboard_log(logdir)
    return {run for run, tags in loader.Runs().items() if tags["graph"]}


def test_plugins_and_graphs_dropped_the_rest_as_it_was(logdir, tmp_path):
    out = tmp_path / "slim"
    report = _slim(logdir, out, drop_plugins=("images", "histograms"), drop_graphs=True)
    before, after = _points(logdir), _points(out)
    gone = ("images", "histograms", "graphs")  # TensorBoard keeps a graph as a tensor
    assert after == {k: v for k, v in before.items() if v[0] not in gone}
    assert ("old", "__run_graph__") in before
    assert _graphs(logdir) == {"old"} and _graphs(out) == set()
    assert sorted(os.listdir(out)) == ["old", "train"]  # the runs keep their names
    facts = report.to_json()
    assert facts["written"] < facts["bytes"]
    assert facts["written"] == sum(os.path.getsize(f["output"]) for f in facts["files"])
    assert facts["events_dropped"] >= 1  # the graph, and image and histogram events


def test_every_nth_point_of_the_tags_chosen(logdir, tmp_path):
    out = tmp_path / "thin"
    _slim(logdir, out, every=7, thin=("loss", "lr"))
    before, after = _points(logdir), _points(out)
    for key, (plugin, points) in before.items():
        thinned = key[1] in ("loss", "lr")
        assert after[key] == (plugin, points[::7] if thinned else points), key


def test_a_step_range_keeps_each_tag_under_its_plugin(logdir, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    report = _slim(logdir, first, stop_step=23)
    later = _slim(logdir, second, first_step=23)
    before, a, b = _points(logdir), _points(first), _points(second)
    assert report.metadata_moved == later.metadata_moved == 0  # every value has its own
    for key, (plugin, points) in before.items():
        if plugin in ("hparams", "graphs"):  # the run's own: in both parts
            assert a[key] == b[key] == (plugin, points)
            continue
        early = [p for p in points if p[0] < 23]
        late = [p for p in points if p[0] >= 23]
        assert a.get(key, (plugin, [])) == (plugin, early), key
        # the values of step 23 on carry the metadata their tag's first value had
        assert b.get(key, (plugin, [])) == (plugin, late), key
    assert ("train", "loss") in b and b[("train", "loss")][0] == "scalars"


def test_metadata_written_once_is_carried_to_the_first_value_kept(tmp_path):
    """Writers that give a tag's metadata with its first value only (TensorFlow's
    summary writers in some versions, other frameworks'): the copy that drops that
    value carries the metadata to the first value it keeps."""
    t = tf()
    v1 = t.compat.v1
    folder = tmp_path / "run"
    folder.mkdir()
    with t.io.TFRecordWriter(str(folder / "events.out.tfevents.7.host")) as w:
        w.write(v1.Event(wall_time=1.0, file_version="brain.Event:2").SerializeToString())
        for step in range(12):
            value = v1.Summary.Value(tag="loss", tensor=t.make_tensor_proto(step / 10))
            if step == 0:
                value.metadata.plugin_data.plugin_name = "scalars"
            event = v1.Event(wall_time=2.0 + step, step=step, summary=v1.Summary(value=[value]))
            w.write(event.SerializeToString())
    report = _slim(folder, tmp_path / "copy", first_step=4, every=3)
    assert report.metadata_moved == 1
    before, after = _points(folder), _points(tmp_path / "copy")
    plugin, points = before[(".", "loss")]
    assert plugin == "scalars"
    assert after == {(".", "loss"): ("scalars", [p for p in points if p[0] >= 4][::3])}


def test_the_copy_never_replaces_a_source_or_an_existing_file(logdir, tmp_path):
    out = tmp_path / "once"
    _slim(logdir, out, drop_graphs=True)
    with pytest.raises(ExportError, match="exists already"):
        _slim(logdir, out, drop_graphs=True)
    with Dataset.open([str(logdir)]) as ds, pytest.raises(ExportError, match="source"):
        SlimRequest(str(logdir), SlimRules(drop_graphs=True), overwrite=True).run(ds)
    (tmp_path / "a-file").write_text("x")
    with Dataset.open([str(logdir)]) as ds, pytest.raises(ExportError, match="is a file"):
        SlimRequest(str(tmp_path / "a-file")).run(ds)
    with pytest.raises(UserError, match="output folder"):
        SlimRequest("")
    with pytest.raises(ValueError, match="every 0"):
        SlimRules(every=0)


def test_a_record_that_is_no_event_is_copied_as_it_is(tmp_path):
    path = write_tf1_summaries(tmp_path / "run" / "events.out.tfevents.2.host", steps=3)
    t = tf()
    with t.io.TFRecordWriter(str(tmp_path / "run" / "events.out.tfevents.3.host")) as w:
        w.write(b"\xff\xff not an event")
    out = tmp_path / "copy"
    report = _slim(tmp_path / "run", out, drop_graphs=True)
    copied = [r.numpy() for r in t.data.TFRecordDataset(str(out / "events.out.tfevents.3.host"))]
    assert copied == [b"\xff\xff not an event"]
    assert report.to_json()["kept"] == report.to_json()["records"] - 1  # the graph
    assert path.exists()


def test_an_output_folder_that_links_to_the_log_is_refused(logdir, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(logdir, target_is_directory=True)
    before = {p: p.read_bytes() for p in logdir.rglob("events.out.tfevents.*")}
    with Dataset.open([str(logdir)]) as ds, pytest.raises(ExportError, match="source"):
        SlimRequest(str(link), SlimRules(drop_graphs=True), overwrite=True).run(ds)
    assert {p: p.read_bytes() for p in logdir.rglob("events.out.tfevents.*")} == before


def test_a_file_cut_while_it_is_copied_stops_the_copy_and_writes_nothing(tmp_path):
    from tfr_viewer.core.io.source_errors import FileChanged

    path = write_tf1_summaries(tmp_path / "run" / "events.out.tfevents.1.host", steps=30)
    out = tmp_path / "copy"
    with Dataset.open([str(tmp_path / "run")]) as ds:
        ds.index(verify=False)
        with open(path, "r+b") as f:  # another program cuts the file meanwhile
            f.truncate(path.stat().st_size // 2)
        with pytest.raises(FileChanged):
            SlimRequest(str(out), SlimRules(drop_graphs=True)).run(ds)
    assert not out.exists() or not any(out.rglob("*"))
