"""The bundled sample is made by our writer and reads in TensorFlow as the layouts say."""

from __future__ import annotations

import os
from pathlib import Path

from tests.tf_oracle import tf, tf_read
from tfr_viewer.cli import main
from tfr_viewer.samples import generate

SAMPLES = Path(__file__).resolve().parents[1] / "resources" / "samples"


def test_generated_samples_read_in_tensorflow(tmp_path):
    paths = generate(str(tmp_path))
    by_name = {os.path.basename(p): p for p in paths}
    odapi = [tf().train.Example.FromString(r) for r in tf_read(by_name["shapes_odapi.tfrecord"])]
    assert len(odapi) == 24
    feat = odapi[0].features.feature
    n_boxes = len(feat["image/object/bbox/xmin"].float_list.value)
    assert n_boxes >= 1
    assert len(feat["image/object/class/text"].bytes_list.value) == n_boxes
    assert feat["image/encoded"].bytes_list.value[0][:2] == b"\xff\xd8"  # JPEG
    tut = [tf().train.Example.FromString(r) for r in tf_read(by_name["classes_tutorial.tfrecord"])]
    assert tut[0].features.feature["image_raw"].bytes_list.value[0][:4] == b"\x89PNG"
    seqs = [
        tf().train.SequenceExample.FromString(r) for r in tf_read(by_name["sequences.tfrecord"])
    ]
    steps = seqs[0].context.feature["clip/length"].int64_list.value[0]
    assert len(seqs[0].feature_lists.feature_list["frame/label"].feature) == steps
    shards = sorted(p for p in paths if "gzip" in p)
    assert len(tf_read(shards, "gzip")) == 18


def test_committed_samples_verify_clean(capsys):
    assert main(["verify", str(SAMPLES)]) == 0
    assert "80 records in 6 files: OK" in capsys.readouterr().out
