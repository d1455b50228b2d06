"""An Object Detection API dataset with one planted fault of each kind reports each
fault exactly at its record, and its clean twin reports nothing."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.planted_faults import RECORDS, clean_dataset, clean_record, example_of, planted_dataset
from tests.tf_oracle import tf_write
from tfr_viewer.core.analyze.checks import check_dataset
from tfr_viewer.core.analyze.findings import EPISODE_KINDS, KINDS
from tfr_viewer.core.analyze.label_map import LabelMapError, parse_label_map
from tfr_viewer.core.analyze.message_checks import MESSAGE_KINDS
from tfr_viewer.core.io.dataset import Dataset


@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    folder = tmp_path_factory.mktemp("checks")
    clean = folder / "clean.tfrecord"
    clean_dataset(clean)
    faulty = folder / "faulty-00000-of-00002"
    planted = planted_dataset(faulty)
    empty = folder / "faulty-00001-of-00002"
    empty.write_bytes(b"")
    return clean, faulty, empty, planted


def _check(paths, **kw):
    with Dataset([str(p) for p in paths]) as ds:
        ds.index()
        return check_dataset(ds, **kw)


def test_the_clean_twin_reports_nothing(datasets):
    clean, *_ = datasets
    assert _check([clean]) == []


def test_every_planted_fault_is_reported_at_its_record(datasets):
    _, faulty, empty, planted = datasets
    findings = _check([faulty, empty])
    got = {(f.kind, f.record): f.feature for f in findings if f.record is not None}
    assert got == planted
    shards = [f for f in findings if f.record is None]
    assert [(f.kind, f.file) for f in shards] == [("empty_shard", str(empty))]
    # every kind but those that need a label map or a schema (tested on their own)
    # (a model's predictions: tests/commands/test_check_predictions.py)
    elsewhere = {"label_not_in_map"} | {k for k in KINDS if k.startswith("schema_")}
    elsewhere |= {k for k in KINDS if "prediction" in k or k.startswith(("label_", "tfds_"))}
    elsewhere |= set(EPISODE_KINDS)  # planted in RLDS episodes: test_episode_checks.py
    elsewhere |= set(MESSAGE_KINDS)  # planted in a project's own messages: test_message_checks.py
    elsewhere |= {"checks_not_applicable"}  # records of other payloads: test_other_payloads.py
    assert {kind for kind, _ in planted} | {"empty_shard"} == set(KINDS) - elsewhere
    with Dataset([str(faulty)]) as ds:
        ds.index()
        for f in findings:
            if f.record is not None:
                assert f.file == str(faulty) and f.offset == ds.ref(f.record).offset
                assert f.message and f.hint
    by_kind = {f.kind: f for f in findings}
    assert by_kind["box_out_of_range"].box == 0
    assert "100" in by_kind["image_size_mismatch"].message
    assert "pixels high" in by_kind["image_size_mismatch"].message  # not "pixels height"
    assert "record 0" in by_kind["duplicate_image"].message


def test_labels_outside_a_label_map(datasets):
    clean, *_ = datasets
    label_map = parse_label_map(
        "item { id: 1 name: 'circle' }\nitem {\n id: 2\n name: \"square\"\n}"
    )
    found = _check([clean], label_map=label_map)
    assert {f.record for f in found} == {i for i in range(RECORDS) if i % 3 == 2}
    assert all(f.kind == "label_not_in_map" and "3 ('triangle')" in f.message for f in found)
    renamed = parse_label_map(
        "item { id: 1 name: 'disc' } item { id: 2 name: 'square' } item { id: 3 name: 'triangle' }"
    )
    found = _check([clean], label_map=renamed)
    assert {f.record for f in found} == {i for i in range(RECORDS) if i % 3 == 0}


def test_a_label_map_without_items_is_refused():
    with pytest.raises(LabelMapError, match="no `item"):
        parse_label_map("# nothing here")


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "check", *map(str, args)],
        capture_output=True,
        text=True,
    )


def test_check_guards_a_pipeline_by_its_exit_code(datasets, tmp_path):
    clean, faulty, _, planted = datasets
    out = _cli(clean)
    assert out.returncode == 0, out.stderr
    assert "no findings; passed" in out.stdout
    out = _cli("--json", faulty)
    assert out.returncode == 1, out.stderr
    doc = json.loads(out.stdout)
    assert len(doc["findings"]) == len(planted) and doc["failed"]
    first = doc["findings"][0]
    assert set(first) >= {
        "severity",
        "kind",
        "record",
        "file",
        "offset",
        "feature",
        "message",
        "hint",
    }
    # only an info finding: fails at --fail-on info, passes at the default
    only_info = clean_record(0)
    for side in ("xmin", "ymin", "xmax", "ymax"):
        only_info[f"image/object/bbox/{side}"] = []
    only_info["image/object/class/label"] = only_info["image/object/class/text"] = []
    path = tf_write(
        tmp_path / "negatives.tfrecord", [example_of(clean_record(1)), example_of(only_info)]
    )
    assert _cli(path).returncode == 0
    assert _cli("--fail-on", "info", path).returncode == 1
    bad_map = tmp_path / "map.pbtxt"
    bad_map.write_text("nothing")
    out = _cli("--label-map", bad_map, clean)
    assert out.returncode == 2 and "no `item" in out.stderr


def test_many_records_of_one_fault_are_listed_up_to_a_bound(tmp_path, monkeypatch):
    from tfr_viewer.core.analyze import key_checks

    monkeypatch.setattr(key_checks, "EXAMPLES", 2)
    records = [clean_record(i) for i in range(RECORDS)]
    for i in (3, 9, 27):
        del records[i]["image/filename"]
    path = tf_write(tmp_path / "missing.tfrecord", [example_of(r) for r in records])
    found = [f for f in _check([path]) if f.kind == "feature_missing"]
    assert [f.record for f in found if f.record is not None] == [3, 9]
    (rest,) = [f for f in found if f.record is None]
    assert "1 more record" in rest.message and rest.feature == "image/filename"


def test_the_parse_verdicts_are_tensorflows(datasets):
    """Record 32 is refused by tf.io.parse_single_example, record 31 is read by it (and
    refused by protobuf); every other record parses."""
    from tests.tf_oracle import tf

    _, faulty, _, _ = datasets
    t = tf()
    spec = {"image/format": t.io.VarLenFeature(t.string)}  # of one kind in every record
    refused = []
    with Dataset([str(faulty)]) as ds:
        ds.index()
        payloads = [ds.read(i) for i in range(len(ds)) if i != 18]  # 18 is damaged
    for i, payload in enumerate(payloads[:18] + [b""] + payloads[18:]):
        if not payload:
            continue
        try:
            t.io.parse_single_example(payload, spec)
        except (t.errors.InvalidArgumentError, UnicodeDecodeError):
            refused.append(i)
    findings = _check([faulty])
    assert [f.record for f in findings if f.kind == "example_unparseable"] == refused == [32]
    differently = [f for f in findings if f.kind == "example_read_differently"]
    assert [f.record for f in differently] == [31] and "protobuf refuses" in differently[0].message


def test_a_box_finding_names_the_key_that_is_wrong_and_its_box(tmp_path):
    """Faults in the second box of each record, on every side: the finding names the
    list whose value is wrong (or the odd list) and the box."""
    records = [clean_record(i) for i in range(6)]
    box = "image/object/bbox/"
    for r in records:
        for side, values in (("xmin", [0.1, 0.2]), ("ymin", [0.1, 0.2]), ("xmax", [0.5, 0.6])):
            r[box + side] = values
        r[box + "ymax"] = [0.5, 0.6]
        r["image/object/class/label"] = [1, 1]
        r["image/object/class/text"] = [b"square", b"square"]
    records[0][box + "ymin"] = [0.1, 0.9]  # y inverted
    records[1][box + "ymax"] = [0.5, 1.3]  # past 1
    records[2][box + "ymax"] = [0.5, 0.2]  # zero height (ymin 0.2)
    records[3][box + "ymax"] = [0.5]  # one list shorter than the others
    records[4][box + "xmax"] = [0.5, 0.2]  # zero width (xmin 0.2)
    records[5]["image/object/class/label"] = [1, 9]
    path = tmp_path / "boxes.tfrecord"
    tf_write(path, [example_of(r) for r in records])
    label_map = {1: "square", 2: "triangle", 3: "circle"}
    got = {
        (f.kind, f.record): (f.feature, f.box)
        for f in _check([path], label_map=label_map)
        if f.kind.startswith(("box", "bbox", "label"))
    }
    assert got == {
        ("box_inverted", 0): (box + "ymin", 1),
        ("box_out_of_range", 1): (box + "ymax", 1),
        ("box_zero_area", 2): (box + "ymax", 1),
        ("bbox_length_mismatch", 3): (box + "ymax", None),
        ("box_zero_area", 4): (box + "xmax", 1),
        ("label_not_in_map", 5): ("image/object/class/label", 1),
    }
    messages = {f.kind: f.message for f in _check([path], label_map=label_map)}
    assert "ymax 1.3" in messages["box_out_of_range"]
    assert messages["label_not_in_map"].startswith("box 1: class id 9")


def test_the_text_output_groups_findings_by_kind(tmp_path):
    """60 records of 3 images: duplicate_image (a warning) in 57 of them, grouped with
    its first records and its hint once; an undecodable image (an error) too."""
    records = [clean_record(i % 3) for i in range(60)]
    records[59]["image/encoded"] = [b"not an image at all"]
    path = tf_write(tmp_path / "copies.tfrecord", [example_of(r) for r in records])
    doc = json.loads(_cli("--json", path).stdout)
    copies = [f for f in doc["findings"] if f["kind"] == "duplicate_image"]
    assert len(copies) > 50
    text = _cli(path).stdout
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if "duplicate_image:" in line)
    assert lines[head].split() == ["warning", "duplicate_image:", str(len(copies)), "findings"]
    listed = lines[head + 1 : head + 6]
    assert all(line.startswith("  record ") for line in listed)
    assert f"… and {len(copies) - 5:,} more" in lines[head + 6]
    assert lines[head + 7].startswith("  what to do: ")
    assert text.count("what to do: the same image in several records") == 1
    assert lines[0].startswith("error    image_undecodable: 1 finding")
    # only what fails is shown at --fail-on error, and everything with --verbose
    only_errors = _cli("--fail-on", "error", path)
    assert only_errors.returncode == 1
    assert "duplicate_image" not in only_errors.stdout
    assert f"{len(copies)} warnings" in only_errors.stdout and "--verbose" in only_errors.stdout
    verbose = _cli("--fail-on", "error", "--verbose", path).stdout
    assert verbose.count("\n  record ") == len(doc["findings"])


def test_checks_of_a_header_indexed_dataset_are_those_of_a_verified_one(remote_root, monkeypatch):
    """The survey checks the payload CRCs a header-only index left: the findings, and
    the statuses the index ends with, are those of a verifying scan."""
    from tfr_viewer.core.io import Dataset

    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = [str(remote_root / n) for n in ("damaged.tfrecord", "big.tfrecord")]
    with Dataset(paths) as verified:
        verified.index(verify=True)
        want = [f.to_json() for f in check_dataset(verified)]
        statuses = [f.index.statuses().tolist() for f in verified.files]
    with Dataset(paths) as hopped:
        hopped.index(verify=False)
        assert [f.to_json() for f in check_dataset(hopped)] == want
        assert [f.index.statuses().tolist() for f in hopped.files] == statuses
        assert all(f.index.verified for f in hopped.files)


def test_the_findings_do_not_depend_on_the_block_the_plan_is_taken_from(datasets):
    """The check reads once, going by the keys of the first block; any block size gives
    the findings of the survey of the whole dataset."""
    _, faulty, empty, _ = datasets
    want = [f.to_json() for f in _check([faulty, empty])]
    for block in (1, 2, 7):
        assert [f.to_json() for f in _check([faulty, empty], block=block)] == want


def test_keys_first_seen_after_the_first_block_are_checked(tmp_path):
    """A first record without the image and box keys: the records after it are still
    checked as images with boxes (undecodable image, inverted box), and the key that
    only some records hold is reported, whatever the block size."""
    records = [{"note": [b"no picture here"]}] + [clean_record(i) for i in range(1, 6)]
    records[3]["image/encoded"] = [b"\xff\xd8\xff\xe0" + bytes(range(60))]
    records[4]["image/object/bbox/xmin"] = [0.9]  # past its xmax of 0.6
    path = tf_write(tmp_path / "late.tfrecord", [example_of(r) for r in records])
    by_block = {block: [f.to_json() for f in _check([path], block=block)] for block in (1, 64)}
    assert by_block[1] == by_block[64]
    got = {(f["kind"], f["record"]) for f in by_block[1]}
    assert ("image_undecodable", 3) in got
    assert ("box_inverted", 4) in got


def test_a_key_spelled_two_ways_is_one_finding_that_tensorflow_would_miss(tmp_path):
    """``label`` in most records, ``Label`` in a few: the few are named (at the first
    record of the rarer spelling), and a spec naming ``label`` fails on them, as
    TensorFlow's parser shows; the same finding with --jobs 2."""
    from tests.tf_oracle import tf

    t = tf()

    def example(key: str, i: int) -> bytes:
        feature = t.train.Feature(int64_list=t.train.Int64List(value=[i % 3]))
        return t.train.Example(
            features=t.train.Features(feature={key: feature})
        ).SerializeToString()

    payloads = [example("Label" if i in (7, 9) else "label", i) for i in range(40)]
    path = tf_write(tmp_path / "labels.tfrecord", payloads)
    with Dataset([str(path)]) as ds:
        ds.index()
        found = [f for f in check_dataset(ds) if f.kind == "key_spelling"]
    assert [(f.record, f.feature) for f in found] == [(7, "Label")]
    assert "'Label' (in 2 records) differs from 'label' (in 38 records)" in found[0].message
    spec = {"label": t.io.FixedLenFeature([], t.int64)}
    with pytest.raises(t.errors.InvalidArgumentError):
        t.io.parse_single_example(payloads[7], spec)
    for jobs in ("1", "2"):
        out = _cli("--json", "--jobs", jobs, path)
        spelled = [f for f in json.loads(out.stdout)["findings"] if f["kind"] == "key_spelling"]
        assert [(f["record"], f["feature"]) for f in spelled] == [(7, "Label")], out.stderr


def test_checks_of_an_overlay_are_the_checks_of_the_records_written(tmp_path):
    """Pending edits checked in place give the findings of the same records written to
    a file (TensorFlow writes it); a deleted record is not checked at all."""
    from pathlib import Path

    from tests.tf_oracle import tf_read, tf_write
    from tfr_viewer.core.analyze.check_overlay import Overlay
    from tfr_viewer.core.analyze.checks import check_dataset
    from tfr_viewer.core.io import Dataset
    from tfr_viewer.core.write.box_edits import delete_box, move_box

    path = Path(__file__).resolve().parents[3] / "resources" / "samples" / "shapes_odapi.tfrecord"
    records = tf_read(path)
    edited = {
        5: delete_box(records[5], 1),
        2: move_box(records[2], 0, {"xmax": 1.4}),  # now out of the image
    }
    with Dataset([str(path)]) as ds:
        ds.index()
        in_place = check_dataset(ds, overlay=Overlay(edited))
        without = check_dataset(ds, overlay=Overlay(edited, frozenset({2})))
    written = tf_write(
        tmp_path / "written.tfrecord", [edited.get(i, r) for i, r in enumerate(records)]
    )
    with Dataset([str(written)]) as ds:
        ds.index()
        on_disk = check_dataset(ds)

    def said(findings):
        return sorted((f.kind, f.record, f.feature or "") for f in findings)

    assert said(in_place) == said(on_disk)
    assert ("box_out_of_range", 2) in {(f.kind, f.record) for f in in_place}
    assert all(f.record != 2 for f in without)
