"""``tfr-viewer slim`` as a user runs it: the copy in a new folder that TensorBoard reads
with the points kept, what was written said with ``--json``; one line and exit 2 for
what a user can get wrong, nothing written then."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.program import program
from tests.summary_files import tensorboard_tensors, write_summaries, write_tf1_summaries

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("logs")
    write_summaries(root / "train", steps=12)
    write_tf1_summaries(root / "old" / "events.out.tfevents.1.host", steps=9, graph_nodes=30)
    return root


def test_a_slimmer_copy_tensorboard_reads(logdir, tmp_path):
    out = tmp_path / "slim"
    done = program(
        "slim", str(logdir), "-o", str(out), "--drop-plugin", "images", "--drop-graphs",
        "--every", "4", "--thin", "loss", "--steps", "2:", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["output"] == str(out)
    assert said["written"] == sum(os.path.getsize(f["output"]) for f in said["files"])
    assert {os.path.relpath(f["output"], out) for f in said["files"]} == {
        os.path.relpath(f["file"], logdir) for f in said["files"]
    }
    before, after = tensorboard_tensors(logdir, "scalars"), tensorboard_tensors(out, "scalars")
    assert [e.step for e in after[("train", "loss")]] == [
        e.step for e in before[("train", "loss")] if e.step >= 2
    ][::4]
    assert [e.step for e in after[("old", "acc")]] == [
        e.step for e in before[("old", "acc")] if e.step >= 2
    ]
    assert tensorboard_tensors(out, "images") == {}
    text = program("slim", str(logdir), "-o", str(tmp_path / "again"), "--drop-graphs")
    assert text.returncode == 0 and "left out" in text.stdout


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--every", "0"], "every 0"),
        (["--steps", "5"], "FIRST:STOP"),
        (["--steps", "a:b"], "whole numbers"),
        (["-o", "{tmp}/exists", "--drop-graphs"], "exists already"),
        (["-o", "{logdir}", "--overwrite"], "source"),
    ],
)
def test_what_a_user_gets_wrong_is_one_line_and_exit_2(logdir, tmp_path, argv, said):
    (tmp_path / "exists" / "train").mkdir(parents=True)
    original = next((logdir / "train").glob("events.out.tfevents.*"))
    (tmp_path / "exists" / "train" / original.name).write_text("mine")
    argv = [a.format(tmp=tmp_path, logdir=logdir) for a in argv]
    if "-o" not in argv:
        argv += ["-o", str(tmp_path / "new")]
    done = program("slim", str(logdir), *argv)
    assert done.returncode == 2
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "new").exists()
    assert (tmp_path / "exists" / "train" / original.name).read_text() == "mine"


def test_files_of_examples_are_refused(tmp_path):
    shard = SAMPLES / "shapes_odapi.tfrecord"
    done = program("slim", str(shard), "-o", str(tmp_path / "out"))
    assert done.returncode == 2 and "no TensorBoard event file" in done.stderr
