"""``stats`` over the named fields of a project's own message type: each field path's
figures against the values the generated module wrote, the records the type does not
parse counted apart, and the same figures from splits merged as from one pass (the
program's ``--jobs``: ``tests/commands/test_message_types.py``)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.tf_oracle import tf_write
from tests.user_protos import descriptor_set, frames, generated, proto_folder
from tfr_viewer.app.stats import statistics
from tfr_viewer.core.analyze.stats import refs_stats
from tfr_viewer.core.analyze.stats_data import Stats
from tfr_viewer.core.decode import message_types
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.splits import plan_refs

COUNT = 40


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("stats")
    protos = proto_folder(root)
    sets = descriptor_set(protos, root / "drive.pb")
    messages = frames(COUNT)
    payloads = [m.SerializeToString() for m in messages]
    payloads.insert(13, b"\xff\xff\xff")  # no Frame: an unfinished tag
    path = root / "frames.tfrecord"
    tf_write(path, payloads)
    return sets, path, messages


@pytest.fixture
def figures(made):
    sets, path, _ = made
    kind = message_types.load(descriptor_set=str(sets)).get("drive.Frame")
    with Dataset([str(path)]) as ds:
        ds.message_type = kind
        yield statistics(ds).to_json()


def test_the_records_and_the_type_are_counted(figures):
    assert figures["message"] == "drive.Frame"
    assert figures["messages"] == COUNT
    assert figures["records"] == COUNT + 1 and figures["other_payloads"] == 1
    assert figures["roles"] == {}


def test_numbers_of_every_path_are_the_written_values(figures, made):
    messages = made[2]
    ranges = [r for m in messages for laser in m.lasers for r in laser.ranges]
    stamps = [m.timestamp_micros for m in messages]
    for path, values, kind in (
        ("lasers.ranges", ranges, "float"),
        ("timestamp_micros", stamps, "int64"),
    ):
        f = figures["features"][path]
        assert f["kind"] == kind
        assert f["numeric"]["count"] == len(values)
        assert f["numeric"]["min"] == min(values) and f["numeric"]["max"] == max(values)
    intensities = figures["features"]["lasers.intensities"]
    assert intensities["kind"] == "sint32"
    assert intensities["numeric"]["min"] == min(-i for i in range(COUNT))


def test_a_path_is_present_where_a_record_sets_it(figures, made):
    messages = made[2]
    night = figures["features"]["night"]
    assert night["present"] == sum(m.night for m in messages)
    assert night["numeric"]["values"] == [[1, sum(m.night for m in messages)]]
    timestamps = figures["features"]["images.pose_timestamp"]
    set_somewhere = sum(any(i.pose_timestamp != 0 for i in m.images) for m in messages)
    assert timestamps["present"] == set_somewhere < COUNT
    assert timestamps["missing"] == COUNT - set_somewhere
    counts = Counter(len(m.images) for m in messages)
    per_record = figures["features"]["images.name"]["value_counts"]["per_record"]
    assert per_record == {str(k): v for k, v in sorted(counts.items())}


def test_text_and_enums_count_their_values_and_maps_are_left_out(figures, made):
    messages = made[2]
    names = generated().common.CameraName.Name
    cameras = Counter(names(i.name) for m in messages for i in m.images)
    found = figures["features"]["images.name"]
    assert found["kind"] == "CameraName"
    assert dict(found["bytes"]["top"]) == dict(cameras)
    assert "labels" not in figures["features"] and "context.stats" not in figures["features"]
    segments = Counter(m.context.name for m in messages)
    assert dict(figures["features"]["context.name"]["bytes"]["top"]) == dict(segments)


def test_pictures_in_bytes_fields_are_judged(figures, made):
    messages = made[2]
    images = figures["features"]["images.image"]["images"]
    assert images["formats"] == {"jpeg": sum(len(m.images) for m in messages)}
    assert images["undecodable"] == 0
    assert images["width"]["min"] == 24 and images["height"]["max"] == 16


def test_splits_merged_give_the_one_pass_figures(made, figures):
    sets, path, _ = made
    message_types.give(message_types.load(descriptor_set=str(sets)))
    try:
        with Dataset([str(path)]) as ds:
            ds.index(verify=False)
            refs = plan_refs(ds, max_records=7)
            assert len(refs) > 3
            merged = Stats()
            for ref in refs:
                merged.merge(refs_stats([ref]))
    finally:
        message_types.give(None)
    from tfr_viewer.app.stats import StatsReport

    assert StatsReport(merged).to_json() == figures
