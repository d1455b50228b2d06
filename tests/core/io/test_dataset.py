"""Files, globs, folders and shard specs open as one dataset with global numbers."""

from __future__ import annotations

import pytest

from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.framing import write_records
from tfr_viewer.core.io.paths import PathError, expand, natural_key, shard_warnings
from tfr_viewer.core.io.verify import FINISHED


def make_shards(folder, total, present, per=3, empty=()):
    paths = []
    for s in present:
        path = folder / f"data.tfrecord-{s:05d}-of-{total:05d}"
        write_records(path, [] if s in empty else [f"{s}:{i}".encode() for i in range(per)])
        paths.append(path)
    return paths


def test_glob_folder_and_spec_resolve_the_same_files(tmp_path):
    make_shards(tmp_path, 3, range(3))
    (tmp_path / "dataset_info.json").write_text("{}")
    by_folder = expand([str(tmp_path)])
    by_glob = expand([str(tmp_path / "data.tfrecord-*")])
    by_spec = expand([str(tmp_path / "data.tfrecord@3")])
    assert by_folder == by_glob == by_spec
    assert len(by_folder) == 3


def test_a_spec_of_a_hundred_million_shards_costs_what_the_folder_holds(tmp_path):
    """``info 'od.tfrecord@99999999'``: the shards are found in the folder's listing,
    never by building 10^8 names; the shards present of that count are taken, in order,
    and others (another count, odd indexes) are not."""
    import subprocess
    import sys

    total = 99_999_999
    for s in (7, 3):
        write_records(tmp_path / f"od.tfrecord-{s:05d}-of-{total:05d}", [b"x"])
    write_records(tmp_path / "od.tfrecord-00001-of-00004", [b"y"])  # another set
    write_records(tmp_path / f"od.tfrecord-{'9' * 30}-of-{total:05d}", [b"z"])
    got = expand([str(tmp_path / f"od.tfrecord@{total}")])
    assert [p.rsplit("/", 1)[1] for p in got] == [
        f"od.tfrecord-00003-of-{total}",
        f"od.tfrecord-00007-of-{total}",
    ]
    code = (  # under a 2 GB address-space limit
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))\n"
        "from tfr_viewer.cli import main\n"
        "sys.exit(main(['count', sys.argv[1]]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "none.tfrecord@99999999")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "no shard of" in done.stderr, done.stderr


def test_natural_order_and_no_duplicates(tmp_path):
    for name in ["a10.tfrecord", "a2.tfrecord", "a1.tfrecord"]:
        write_records(tmp_path / name, [b"x"])
    got = expand([str(tmp_path / "a*.tfrecord"), str(tmp_path / "a2.tfrecord")])
    assert [p.rsplit("/", 1)[1] for p in got] == ["a1.tfrecord", "a2.tfrecord", "a10.tfrecord"]
    assert natural_key("a2") < natural_key("a10")


def test_missing_paths_are_named(tmp_path):
    with pytest.raises(PathError, match="no such file"):
        expand([str(tmp_path / "missing.tfrecord")])
    with pytest.raises(PathError, match="matches no file"):
        expand([str(tmp_path / "*.nothing")])
    (tmp_path / "empty").mkdir()
    with pytest.raises(PathError, match="holds no files"):
        expand([str(tmp_path / "empty")])


def test_missing_shards_and_empty_shards_are_warned_about(tmp_path):
    make_shards(tmp_path, 5, [0, 1, 3], empty=[1])
    with Dataset.open([str(tmp_path)]) as ds:
        ds.index()
        assert len(ds) == 6
        assert any("2 of 5 shards missing (00002, 00004)" in w for w in ds.warnings)
        assert any("00001-of-00005: is empty" in w for w in ds.warnings)
        # Global numbers skip the empty shard.
        assert ds.read(3) == b"3:0"
        assert ds.locate(3) == (2, 0)
    assert shard_warnings(["x-00000-of-00001"]) == []


def test_out_of_range_record_is_an_index_error(tmp_path):
    make_shards(tmp_path, 1, [0])
    with Dataset.open([str(tmp_path)]) as ds:
        ds.index()
        with pytest.raises(IndexError, match="out of range"):
            ds.read(3)
        assert ds.read_frame(0).endswith(ds.read(0) + ds.read_frame(0)[-4:])


def test_verify_after_a_header_pass_settles_statuses_in_place(tmp_path):
    from tfr_viewer.core.io.framing import encode_frame
    from tfr_viewer.core.io.records import RecordStatus

    frames = [encode_frame(f"p{i}".encode() * 50) for i in range(40)]
    bad = bytearray(frames[17])
    bad[30] ^= 1
    frames[17] = bytes(bad)
    (tmp_path / "a.tfrecord").write_bytes(b"".join(frames))
    import gzip

    (tmp_path / "b.gz").write_bytes(gzip.compress(b"".join(frames)))
    for name in ("a.tfrecord", "b.gz"):
        with Dataset([str(tmp_path / name)]) as ds:
            ds.index(verify=False)
            assert {ds.ref(i).status for i in range(40)} == {RecordStatus.UNVERIFIED}
            progress = list(ds.verify())
            assert progress[-1] == (0, FINISHED, FINISHED)
            assert sum(end - first for _, first, end in progress[:-1]) == 40
            statuses = [ds.ref(i).status for i in range(40)]
            assert statuses[17] is RecordStatus.BAD_DATA_CRC
            assert statuses.count(RecordStatus.OK) == 39
            assert ds.files[0].index.verified
            assert [p.record for p in ds.problems()] == [17]


def test_record_at_offset_and_intact(tmp_path):
    from tfr_viewer.core.io.framing import encode_frame

    frames = [encode_frame(b"x" * n) for n in (5, 7, 9)]
    bad = bytearray(frames[1])
    bad[13] ^= 1
    (tmp_path / "a.tfrecord").write_bytes(frames[0] + bytes(bad) + frames[2])
    with Dataset([str(tmp_path / "a.tfrecord")]) as ds:
        ds.index()
        second = len(frames[0])
        assert ds.record_at_offset(0, 0) == 0
        assert ds.record_at_offset(0, second - 1) == 0
        assert ds.record_at_offset(0, second + 3) == 1
        assert ds.record_at_offset(0, -1) is None
        assert ds.intact().tolist() == [0, 2]
        assert ds.undamaged([2, 1, 0]).tolist() == [2, 0]


def test_frame_facts_of_a_run_and_of_any_records_agree(tmp_path):
    """A run of one file's records (read as its index's span) and the same records in
    any order, over files, give the same facts record by record; statuses set for a run
    and for scattered records land on their records."""
    import numpy as np

    from tfr_viewer.core.io.records import RecordStatus

    paths = []
    for n, count in enumerate((5, 9, 4)):
        paths.append(str(tmp_path / f"part-{n}.tfrecord"))
        write_records(paths[-1], [bytes([n]) * (i + 1) for i in range(count)])
    with Dataset(paths) as ds:
        ds.index(verify=False)
        rng = np.random.default_rng(3)
        everything = np.arange(len(ds))
        shuffled = rng.permutation(everything)
        whole = ds.frame_facts(everything)
        mixed = ds.frame_facts(shuffled)
        for got, want in zip(mixed, whole, strict=True):
            assert got.tolist() == want[shuffled].tolist()
        run = ds.frame_facts(np.arange(6, 12))  # one file's run: the index's span
        for got, want in zip(run, whole, strict=True):
            assert got.tolist() == want[6:12].tolist()
        assert ds.locate_many(np.array([13, 5, 16]))[0].tolist() == [1, 1, 2]
        with pytest.raises(IndexError):
            ds.locate_many(np.array([2, 18]))
        index = ds.files[1].index
        index.set_statuses_at(np.array([2, 3, 4]), np.full(3, RecordStatus.OK, np.uint8))
        index.set_statuses_at(np.array([7, 0]), np.full(2, RecordStatus.BAD_DATA_CRC, np.uint8))
        assert index.statuses().tolist() == [RecordStatus.BAD_DATA_CRC] + [
            RecordStatus.UNVERIFIED
        ] + [RecordStatus.OK] * 3 + [RecordStatus.UNVERIFIED] * 2 + [
            RecordStatus.BAD_DATA_CRC, RecordStatus.UNVERIFIED
        ]  # fmt: skip
