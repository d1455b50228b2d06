"""Exports: TensorFlow reads every option combination; writes are atomic and verified."""

from __future__ import annotations

import hashlib
import itertools
import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from tests.damaged_frames import frames_with_bad_payloads
from tests.tf_oracle import tf_read
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.framing import Compression, write_records
from tfr_viewer.core.write.export import (
    TMP_SUFFIX,
    ExportError,
    ExportOptions,
    export,
    parse_split,
    plan,
)

PAYLOADS = [f"payload-{i}".encode() * (1 + i % 5) for i in range(60)]


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "src.tfrecord"
    write_records(path, PAYLOADS)
    return path


def sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    "compression,shards,split,seed",
    list(
        itertools.product(["none", "gzip", "zlib"], [None, 3], ["", "train=0.8,val=0.2"], [None, 7])
    ),
)
def test_tensorflow_reads_every_combination(tmp_path, source, compression, shards, split, seed):
    before = sha(source)
    out = tmp_path / "out" / "data.tfrecord"
    out.parent.mkdir()
    options = ExportOptions(
        str(out), Compression(compression), shards, None, seed, parse_split(split) if split else ()
    )
    with Dataset([str(source)]) as ds:
        ds.index()
        records = np.arange(5, 55)
        edited = {10: b"edited ten"}
        summary = export(ds, records, options, payloads=edited)
    expected = list(records)
    if seed is not None:
        expected = list(np.random.default_rng(seed).permutation(np.asarray(expected)))
    groups = [("", expected)]
    if split:
        groups = [("train", expected[:40]), ("val", expected[40:])]
    got_total = 0
    for name, want in groups:
        target = str(out) if not name else str(tmp_path / "out" / f"data-{name}.tfrecord")
        files = [target] if not shards else [f"{target}-{k:05d}-of-00003" for k in range(3)]
        got = tf_read(files, compression)
        assert got == [b"edited ten" if i == 10 else PAYLOADS[i] for i in want]
        got_total += len(got)
    assert got_total == summary.records == 50
    assert sha(source) == before
    assert not [n for n in os.listdir(out.parent) if n.endswith(TMP_SUFFIX)]


def test_max_shard_size_and_names(tmp_path, source):
    with Dataset([str(source)]) as ds:
        ds.index()
        files = plan(ds, np.arange(60), ExportOptions(str(tmp_path / "x"), max_shard_bytes=500))
    assert len(files) > 3 and files[0][0].endswith(f"-00000-of-{len(files):05d}")
    assert sum(len(part) for _, part in files) == 60


def test_refuses_to_overwrite_a_source_and_skips_damaged(tmp_path, source):
    with Dataset([str(source)]) as ds:
        ds.index()
        with pytest.raises(ExportError, match="a source of this command"):
            export(ds, range(3), ExportOptions(str(source)))
    frames = frames_with_bad_payloads(PAYLOADS[:10], [4])
    damaged = tmp_path / "damaged.tfrecord"
    damaged.write_bytes(b"".join(frames))
    with Dataset([str(damaged)]) as ds:
        ds.index()
        summary = export(ds, range(10), ExportOptions(str(tmp_path / "clean.tfrecord")))
    assert summary.skipped_damaged == 1
    assert tf_read(tmp_path / "clean.tfrecord") == PAYLOADS[:4] + PAYLOADS[5:10]


def test_split_must_add_up():
    with pytest.raises(ValueError, match="add up"):
        parse_split("a=0.5,b=0.4")
    with pytest.raises(ValueError, match="name=fraction"):
        parse_split("a0.5")


KILLER = """
import sys
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.write.export import ExportOptions, export
from tfr_viewer.core.io.framing import Compression
ds = Dataset([sys.argv[1]]).index()
print("ready", flush=True)
export(ds, range(len(ds)), ExportOptions(sys.argv[2], Compression.GZIP, shards=4))
print("done", flush=True)
"""


def test_sigkill_leaves_either_nothing_or_complete_verified_files(tmp_path):
    """Killed at any moment: no shard, every shard, or (killed between two of the
    commit's moves) some shards and the commit's journal, which the next export in the
    folder finishes: then every shard, whole."""
    src = tmp_path / "big.tfrecord"
    write_records(src, (os.urandom(200) for _ in range(40_000)))
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    rng = random.Random(11)
    outcomes = set()
    for trial in range(20):
        target = out_dir / f"t{trial}.tfrecord"
        proc = subprocess.Popen(
            [sys.executable, "-c", KILLER, str(src), str(target)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 1.2))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        present = [os.path.exists(s) for s in _shards(target)]
        if any(present) and not all(present):
            journals = [n for n in os.listdir(out_dir) if n.startswith(".tfr-viewer-commit.")]
            assert journals, (trial, present)
            outcomes.add("cut short")
        else:
            outcomes.add("complete" if all(present) else "absent")
    # the next export finishes a commit cut short and removes what the others left
    with Dataset([str(src)]) as ds:
        ds.index()
        export(ds, range(10), ExportOptions(str(out_dir / "final.tfrecord")))
    assert not [n for n in os.listdir(out_dir) if n.endswith(TMP_SUFFIX)]
    assert "absent" in outcomes
    for trial in range(20):
        present = [os.path.exists(s) for s in _shards(out_dir / f"t{trial}.tfrecord")]
        assert all(present) or not any(present), (trial, present)
        if all(present):
            with Dataset(_shards(out_dir / f"t{trial}.tfrecord")) as ds:
                ds.index()
                assert len(ds) == 40_000 and not ds.problems()


def _shards(target) -> list[str]:
    return [f"{target}-{k:05d}-of-00004" for k in range(4)]


CUT_SHORT = """
import os, signal, sys
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.write import output
from tfr_viewer.core.write.export import ExportOptions, export
moved = []
real = os.replace
def replace(a, b):
    if str(a).endswith(output.TMP_SUFFIX) and ".tfr-viewer-commit." not in str(b):
        moved.append(b)
        if len(moved) == int(sys.argv[3]) + 1:
            os.kill(os.getpid(), signal.SIGKILL)
    return real(a, b)
output.os.replace = replace
ds = Dataset([sys.argv[1]]).index()
export(ds, range(len(ds)), ExportOptions(sys.argv[2], shards=4, overwrite=True))
"""


@pytest.mark.parametrize("moved", [1, 3])
@pytest.mark.parametrize("before", ["new", "replaced"])
def test_a_commit_killed_between_two_moves_is_finished_by_the_next_job(tmp_path, moved, before):
    from tfr_viewer.core.write.output import OutputJob

    src = tmp_path / "src.tfrecord"
    payloads = [i.to_bytes(2, "big") * 25 for i in range(400)]
    write_records(src, payloads)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    target = out_dir / "t.tfrecord"
    if before == "replaced":
        for path in _shards(target):
            write_records(path, [b"old"])
    done = subprocess.run([sys.executable, "-c", CUT_SHORT, str(src), str(target), str(moved)])
    assert done.returncode == -signal.SIGKILL
    fresh = [tf_read(p) != [b"old"] for p in _shards(target) if os.path.exists(p)]
    assert sum(fresh) == moved  # cut short: some moved, the rest not yet
    with OutputJob() as job:
        job.plan(str(out_dir / "other.tfrecord"))
        job.clean_folders()
    assert sorted(os.listdir(out_dir)) == sorted(os.path.basename(p) for p in _shards(target))
    assert sorted(r for p in _shards(target) for r in tf_read(p)) == payloads


def test_name_patterns(tmp_path, source):
    pattern = str(tmp_path / "{split}-{shard}-of-{shards}.tfrecord")
    with Dataset([str(source)]) as ds:
        ds.index()
        summary = export(
            ds, range(60), ExportOptions(pattern, shards=2, split=parse_split("a=0.5,b=0.5"))
        )
        assert sorted(os.path.basename(f) for f in summary.files) == [
            "a-00000-of-00002.tfrecord",
            "a-00001-of-00002.tfrecord",
            "b-00000-of-00002.tfrecord",
            "b-00001-of-00002.tfrecord",
        ]
        assert tf_read(sorted(summary.files)) == PAYLOADS
        with pytest.raises(ExportError, match="same name"):
            export(ds, range(60), ExportOptions(str(tmp_path / "{split}.tfrecord"), shards=2))
        with pytest.raises(ExportError, match="bad name pattern"):
            export(ds, range(6), ExportOptions(str(tmp_path / "{nope}.tfrecord")))


def test_a_temporary_that_is_a_source_is_exported_not_cleaned(tmp_path):
    """A staging file (named as a temporary of a process that is gone) exported into its
    own folder is read, not removed as stale; another stale temporary is removed."""
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead = int(gone.stdout)
    staging = tmp_path / f".out.{dead}.0{TMP_SUFFIX}"
    write_records(staging, [b"a", b"bc"])
    stale = tmp_path / f".old.{dead}.1{TMP_SUFFIX}"
    stale.write_bytes(b"left by a failed export")
    with Dataset([str(staging)]) as ds:
        ds.index()
        from tfr_viewer.core.write.export import discard, plan_export

        plan = plan_export(ds, [0, 1], ExportOptions(str(tmp_path / "out.tfrecord")))
        discard(plan)
    assert staging.exists() and not stale.exists()
    assert [len(t.records) for t in plan.tasks] == [2]
    assert sorted(os.listdir(tmp_path)) == [staging.name]
