"""The Beam pipelines against the local commands: ``verify``, ``stats`` and ``check``
with ``--runner direct`` (a process per core) give the local JSON, with damaged and empty
shards among TensorFlow-written ones; a worker that fails once is retried and the result
stays exact; without Beam, nothing else changes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.program import program

beam = pytest.importorskip(
    "apache_beam",
    reason="Apache Beam pins protobuf below 7: make test runs these tests in .venv-beam",
)

NAMES = ("damaged.tfrecord", "empty.tfrecord", "small.tfrecord.gz", "train-00000-of-00003")


def cli(*argv: str, **env: str) -> subprocess.CompletedProcess:
    return program(*argv, env={"TFR_VIEWER_NO_CACHE": "1", **env}, timeout=600)


def _same(a: str, b: str) -> bool:
    return json.dumps(json.loads(a), sort_keys=True) == json.dumps(json.loads(b), sort_keys=True)


@pytest.mark.parametrize("command", ["verify", "stats"])
def test_direct_runner_gives_the_local_json(remote_root, command):
    paths = [str(remote_root / n) for n in NAMES]
    local = cli(command, "--json", *paths)
    far = cli(command, "--json", *paths, "--runner", "direct", "--direct_num_workers=2")
    assert far.returncode == local.returncode, far.stderr
    assert _same(far.stdout, local.stdout)
    assert far.stderr == ""  # the workers' logs are kept off the terminal
    if command == "verify":
        kinds = {p["kind"] for p in json.loads(far.stdout)["problems"]}
        assert kinds >= {"bad_data_crc", "garbage", "truncated"}


@pytest.fixture(scope="module")
def with_copies(tmp_path_factory, remote_root):
    """One planted fault of each kind, a byte-identical twin (every image stored in two
    shards), and damaged, empty and compressed shards."""
    import shutil

    from tests.planted_faults import planted_dataset

    folder = tmp_path_factory.mktemp("beam-check")
    faulty = folder / "faulty-00000-of-00002"
    planted_dataset(faulty)
    shutil.copy(faulty, folder / "faulty-00001-of-00002")
    return [str(faulty), str(folder / "faulty-00001-of-00002")] + [
        str(remote_root / n) for n in NAMES
    ]


def test_check_on_the_direct_runner_gives_the_local_json(with_copies):
    local = cli("check", "--json", *with_copies)
    far = cli("check", "--json", *with_copies, "--runner", "direct", "--direct_num_workers=2")
    assert far.returncode == local.returncode == 1, far.stderr
    assert far.stdout == local.stdout  # the same findings, in the same order
    found = json.loads(far.stdout)["findings"]
    kinds = {f["kind"] for f in found}
    assert {"damaged_record", "empty_shard", "near_duplicate_image", "kind_conflict"} <= kinds
    across = [f for f in found if f["kind"] == "duplicate_image" and f["file"] == with_copies[1]]
    assert across, "the twin's images are copies of the first shard's: found by the shuffle"


def test_large_shards_are_split_and_merged_exactly(remote_root, no_cache):
    """Many small splits, in one process, merged by the runner: the same figures."""
    from tfr_viewer.beam.commands import check_on_beam, stats_on_beam, verify_on_beam
    from tfr_viewer.core.analyze.checks import check_dataset
    from tfr_viewer.core.analyze.stats import dataset_stats
    from tfr_viewer.core.io import Dataset, splits as splitting

    paths = [str(remote_root / n) for n in NAMES]
    with Dataset(paths) as ds:
        ds.index(verify=True)
        local_stats = dataset_stats(ds).to_json()
        local_problems = [p.to_json() for p in ds.problems()]
    limits = dict(max_records=300, max_bytes=3_000_000)
    real = splitting.plan_refs
    try:
        splitting.plan_refs = lambda ds: real(ds, **limits)  # type: ignore[assignment]
        import tfr_viewer.beam.commands as commands

        commands.plan_refs = splitting.plan_refs
        with Dataset(paths) as ds:
            ds.index(verify=False)
            assert len(splitting.plan_refs(ds)) > 8
            stats = stats_on_beam(ds, "direct", ["--direct_num_workers=1"])
            verify_on_beam(ds, "direct", ["--direct_num_workers=1"])
            assert [p.to_json() for p in ds.problems()] == local_problems
        with Dataset(paths) as ds:
            ds.index(verify=True)
            local_findings = [f.to_json() for f in check_dataset(ds)]
        with Dataset(paths) as ds:
            ds.index(verify=False)
            findings = check_on_beam(ds, "direct", ["--direct_num_workers=1"])
            assert [f.to_json() for f in findings] == local_findings
    finally:
        splitting.plan_refs = real
        commands.plan_refs = real
    assert json.dumps(stats.to_json(), sort_keys=True) == json.dumps(local_stats, sort_keys=True)


def test_a_worker_that_fails_once_is_retried_and_the_result_is_exact(
    remote_root, no_cache, monkeypatch, tmp_path
):
    """Beam's bundle-based direct runner retries a failed bundle (the default direct
    runner does not retry); the statistics of a run whose worker raised once on a shard
    equal the local ones; a shard that fails every time is reported with its reason."""
    from tfr_viewer.beam import transforms
    from tfr_viewer.beam.commands import stats_on_beam
    from tfr_viewer.beam.pipeline import BeamError
    from tfr_viewer.core.analyze.stats import dataset_stats
    from tfr_viewer.core.io import Dataset

    paths = [str(remote_root / n) for n in NAMES]
    with Dataset(paths) as ds:
        ds.index(verify=True)
        local = json.dumps(dataset_stats(ds).to_json(), sort_keys=True)
    marker = tmp_path / "failed"  # a file: Beam runs copies of the function
    real = transforms._stats

    def once(ref):  # noqa: ANN001, ANN202
        if ref.file_number == 1 and not marker.exists():
            marker.write_text(repr(ref.key))
            raise RuntimeError("a worker fell over")
        return real(ref)

    monkeypatch.setattr(transforms, "_stats", once)
    with Dataset(paths) as ds:
        ds.index(verify=False)
        stats = stats_on_beam(ds, "BundleBasedDirectRunner", ["--direct_runner_bundle_retry"])
    assert marker.read_text() == "(1, 0)"  # it did fail, once
    assert json.dumps(stats.to_json(), sort_keys=True) == local

    def always(ref):  # noqa: ANN001, ANN202
        raise RuntimeError("a worker fell over for good")

    monkeypatch.setattr(transforms, "_stats", always)
    with Dataset(paths) as ds, pytest.raises(BeamError, match="fell over for good"):
        ds.index(verify=False)
        stats_on_beam(ds, "BundleBasedDirectRunner", ["--direct_runner_bundle_retry"])


@pytest.mark.parametrize(
    "options",
    [
        ["--shards", "3", "--filter", "label >= 2"],
        ["--shuffle", "7", "--split", "train=0.7,val=0.3", "--compression", "gzip"],
        ["--max-shard-mb", "2"],
    ],
)
def test_export_on_the_direct_runner_writes_the_local_files(remote_root, tmp_path, options):
    """The same files, byte for byte, with damaged, empty and compressed sources."""
    paths = [str(remote_root / n) for n in NAMES]
    outputs = {}
    for name, runner in (("here", []), ("beam", ["--runner", "direct"])):
        folder = tmp_path / name
        folder.mkdir()
        out = cli("export", *paths, "-o", str(folder / "out.tfrecord"), *options, "--json", *runner)
        assert out.returncode == 0, out.stderr
        report = json.loads(out.stdout)
        report["files"] = [Path(f).name for f in report["files"]]
        report["per_file"] = {Path(f).name: n for f, n in report["per_file"].items()}
        del report["seconds"]
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
        outputs[name] = (report, files)
    assert outputs["beam"] == outputs["here"]
    report, files = outputs["here"]
    assert len(files) == len(report["files"]) >= 1 and report["records"] > 0
    assert not any(n.endswith(".tfr-viewer-tmp") for n in files)


def test_a_failed_export_on_beam_leaves_no_file(remote_root, tmp_path, monkeypatch, no_cache):
    """A worker that fails for good: no output and no temporary file is left."""
    from tfr_viewer.beam.commands import export_on_beam
    from tfr_viewer.beam.pipeline import BeamError
    from tfr_viewer.core.io import Dataset
    from tfr_viewer.core.write import ExportOptions, split_export

    real = split_export.write_numbered

    def second_fails(task):  # noqa: ANN001, ANN202
        if task.number == 1:
            raise OSError("the disk went away")
        return real(task)

    monkeypatch.setattr(split_export, "write_numbered", second_fails)
    options = ExportOptions(str(tmp_path / "out"), shards=3)
    with Dataset([str(remote_root / n) for n in NAMES]) as ds, pytest.raises(BeamError):
        ds.index(verify=False)
        export_on_beam(ds, None, options, "direct", ["--direct_running_mode=in_memory"])
    assert list(tmp_path.iterdir()) == []


def test_export_on_beam_into_a_bucket(remote_root, tmp_path, no_cache):
    """Outputs given as URLs (fsspec's in-memory file system, with the workers in this
    process) are written under temporary names and moved into place: the bytes of a
    local export; an existing object is refused without --overwrite."""
    import fsspec

    from tfr_viewer.beam.commands import export_on_beam
    from tfr_viewer.core.io import Dataset
    from tfr_viewer.core.write import ExportError, ExportOptions
    from tfr_viewer.core.write.export import export

    paths = [str(remote_root / n) for n in NAMES]
    with Dataset(paths) as ds:
        ds.index(verify=True)
        here = export(ds, range(len(ds)), ExportOptions(str(tmp_path / "out"), shards=2))
    fs = fsspec.filesystem("memory")
    extra = ["--direct_running_mode=in_memory"]
    options = ExportOptions("memory://bucket/set/out", shards=2)
    with Dataset(paths) as ds:
        ds.index(verify=False)
        far = export_on_beam(ds, None, options, "direct", extra)
    assert [f.rsplit("/", 1)[-1] for f in far.files] == [Path(f).name for f in here.files]
    for local, url in zip(here.files, far.files, strict=True):
        assert fs.cat(url) == Path(local).read_bytes()
    assert sorted(p.rsplit("/", 1)[-1] for p in fs.ls("/bucket/set", detail=False)) == [
        Path(f).name for f in here.files
    ]  # no temporary left
    with Dataset(paths) as ds, pytest.raises(ExportError, match="exists already"):
        ds.index(verify=False)
        export_on_beam(ds, None, options, "direct", extra)


def test_a_cluster_export_needs_a_bucket(remote_root, tmp_path):
    out = cli(
        "export",
        str(remote_root / "small.tfrecord"),
        "-o",
        str(tmp_path / "x"),
        "--runner",
        "dataflow",
        "--temp_location=gs://b/tmp",
    )
    assert out.returncode == 2 and "bucket URL" in out.stderr, out.stderr
    assert not list(tmp_path.iterdir())


def _jpeg(seed: int) -> bytes:
    import io

    import numpy as np
    from PIL import Image

    pixels = np.random.default_rng(seed).integers(0, 255, (24, 32, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG")
    return out.getvalue()


@pytest.fixture
def boxed(tmp_path):
    """140 images in a CSV of boxes (three batches on Beam): one box outside its image,
    the same bytes in the first and the last image, a file that is not an image."""
    folder = tmp_path / "images"
    folder.mkdir()
    lines = ["filename,width,height,class,xmin,ymin,xmax,ymax"]
    for i in range(140):
        name = f"{i:03d}.jpg"
        data = _jpeg(0 if i == 139 else i)
        (folder / name).write_bytes(b"not an image" if i == 70 else data)
        right = 40 if i == 5 else 20  # image 5's box lies outside its 32 pixels
        lines.append(f"images/{name},32,24,{('cat', 'dog')[i % 2]},2,3,{right},10")
    (tmp_path / "boxes.csv").write_text("\n".join(lines) + "\n")
    return tmp_path / "boxes.csv"


def test_convert_on_the_direct_runner_writes_the_local_files(boxed, tmp_path):
    outputs = {}
    for name, runner in (("here", []), ("beam", ["--runner", "direct"])):
        out = tmp_path / name / "det.tfrecord"
        args = ["convert", str(boxed), "-o", str(out), "--layout", "odapi", "--shards", "2"]
        done = cli(*args, "--json", *runner)
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        del report["seconds"]
        report = json.loads(json.dumps(report).replace(str(tmp_path / name), "OUT"))
        files = {p.name: p.read_bytes() for p in sorted(out.parent.iterdir())}
        outputs[name] = (report, files)
    assert outputs["beam"] == outputs["here"]
    report, files = outputs["here"]
    reasons = [s["reason"] for s in report["skipped"]]
    assert len(reasons) == 3 and "same bytes as" in reasons[1] and "outside" in reasons[2]
    assert report["records"] == 137
    assert not any(n.endswith(".tfr-viewer-tmp") for n in files)


_NO_BEAM = """
import sys

sys.modules["apache_beam"] = None  # as if it were not installed
"""


def test_everything_else_works_without_beam(remote_root, tmp_path):
    (tmp_path / "sitecustomize.py").write_text(_NO_BEAM)
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path.cwd())])}
    path = str(remote_root / "small.tfrecord")
    for argv in (("info", path), ("verify", path), ("stats", "--json", path)):
        out = cli(*argv, **env)
        assert out.returncode == 0, out.stderr
    refused = cli("stats", path, "--runner", "direct", **env)
    assert refused.returncode == 2 and "tfr-viewer[beam]" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_statistics_past_the_sample_size_are_the_same_on_every_runner(tmp_path):
    """More values than a sample holds (the quantiles come from the sample): the JSON is
    the same byte for byte from a relative or an absolute path, from the file's folder,
    with the cache filled by another spelling, with --jobs 2 and on the direct runner."""
    from tests.tf_oracle import tf, tf_write

    t = tf().train

    def example(i: int) -> bytes:
        feature = {"label": t.Feature(int64_list=t.Int64List(value=[(i * 7919) % 10]))}
        return t.Example(features=t.Features(feature=feature)).SerializeToString()

    folder = tmp_path / "data"
    folder.mkdir()
    tf_write(folder / "big-00000-of-00002", (example(i) for i in range(40_000)))
    tf_write(folder / "big-00001-of-00002", (example(i) for i in range(40_000, 80_000)))
    cache = {
        "TFR_VIEWER_NO_CACHE": "",
        "TFR_VIEWER_CACHE_DIR": str(tmp_path / "cache"),
        "TFR_VIEWER_CACHE_MIN_BYTES": "0",
    }

    def stats(*argv: str, cwd: Path = tmp_path) -> str:
        run = subprocess.run(
            [sys.executable, "-m", "tfr_viewer", "stats", "--json", *argv],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=cwd,
            env={**os.environ, **cache},
        )
        assert run.returncode == 0, run.stderr
        return run.stdout

    first = stats("data")
    assert json.loads(first)["features"]["label"]
    assert stats(str(folder.resolve())) == first
    assert stats(".", cwd=folder) == first
    assert stats("data", "--jobs", "2") == first
    assert stats("data", "--runner", "direct", "--direct_num_workers=2") == first


@pytest.mark.parametrize("source", ["features", "results"])
def test_check_with_predictions_on_the_direct_runner(tmp_path, source):
    """Label errors weighed on Beam's workers, from the records or a results file sent
    to them: the local JSON, every planted error among it."""
    from tests.planted_labels import PLANTED, coco_results, labelled_dataset

    path = str(labelled_dataset(tmp_path / "labels.tfrecord", with_predictions=True))
    pred = "features" if source == "features" else str(coco_results(tmp_path / "results.json"))
    local = cli("check", "--json", path, "--predictions", pred)
    far = cli(
        "check",
        "--json",
        path,
        "--predictions",
        pred,
        "--runner",
        "direct",
        "--direct_num_workers=2",
    )
    assert far.returncode == local.returncode == 1, far.stderr
    assert far.stdout == local.stdout
    found = {
        f["record"]: (f["kind"], f["box"])
        for f in json.loads(far.stdout)["findings"]
        if f["kind"].startswith("label_")
    }
    assert found == PLANTED


def _episode(seed: int, length: int, black: bool = False) -> bytes:
    """An RLDS episode record: a camera of JPEGs (black when ``black``), an action of
    three numbers a step, the flags and an instruction."""
    import io

    import numpy as np
    from PIL import Image

    from tests.tf_oracle import tf

    t = tf().train
    rng = np.random.default_rng(seed)
    frames = []
    for _ in range(length):
        pixels = np.zeros((32, 32, 3), np.uint8) if black else rng.integers(0, 255, (32, 32, 3))
        buf = io.BytesIO()
        Image.fromarray(pixels.astype(np.uint8)).save(buf, "JPEG")
        frames.append(buf.getvalue())
    action = np.cumsum(rng.normal(0, 0.05, (length, 3)), axis=0).ravel().tolist()
    flags = {
        "steps/is_first": [int(s == 0) for s in range(length)],
        "steps/is_last": [int(s == length - 1) for s in range(length)],
    }
    feature = {
        "steps/observation/image": t.Feature(bytes_list=t.BytesList(value=frames)),
        "steps/action": t.Feature(float_list=t.FloatList(value=action)),
        "steps/language_instruction": t.Feature(
            bytes_list=t.BytesList(value=[b"open the drawer"] * length)
        ),
        **{k: t.Feature(int64_list=t.Int64List(value=v)) for k, v in flags.items()},
    }
    return t.Example(features=t.Features(feature=feature)).SerializeToString()


def test_episode_checks_on_the_direct_runner_give_the_local_json(tmp_path):
    """The episode checks run in each worker's pass and are merged: the same findings
    as here, an episode's copy in another shard and a black camera among them."""
    from tests.tf_oracle import tf_write

    first = [_episode(n, 12) for n in range(6)] + [_episode(9, 12, black=True)]
    second = [_episode(20 + n, 12) for n in range(5)] + [_episode(2, 12), _episode(30, 2)]
    paths = [
        str(tf_write(tmp_path / "episodes-00000-of-00002", first)),
        str(tf_write(tmp_path / "episodes-00001-of-00002", second)),
    ]
    local = cli("check", "--json", *paths)
    far = cli("check", "--json", *paths, "--runner", "direct", "--direct_num_workers=2")
    assert far.returncode == local.returncode == 1, far.stderr
    assert far.stdout == local.stdout
    found = {(f["kind"], f["record"]) for f in json.loads(far.stdout)["findings"]}
    assert {("episode_duplicate", 12), ("camera_blank", 6), ("episode_short", 13)} <= found


def _sales(folder: Path) -> tuple[Path, list[Path]]:
    """A project's own type, defined as a descriptor set (what ``protoc
    --descriptor_set_out`` writes), and two shards of its records."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    from tests.tf_oracle import tf_write

    f = descriptor_pb2.FieldDescriptorProto
    file = descriptor_pb2.FileDescriptorProto(name="shop/sale.proto", package="shop",
                                              syntax="proto3")  # fmt: skip
    sale = file.message_type.add(name="Sale")
    sale.field.add(name="item", number=1, type=f.TYPE_STRING, label=f.LABEL_OPTIONAL)
    sale.field.add(name="cents", number=2, type=f.TYPE_INT64, label=f.LABEL_OPTIONAL)
    sale.field.add(name="tags", number=3, type=f.TYPE_STRING, label=f.LABEL_REPEATED)
    sale.field.add(name="price", number=4, type=f.TYPE_DOUBLE, label=f.LABEL_OPTIONAL)
    sets = folder / "shop.pb"
    sets.write_bytes(descriptor_pb2.FileDescriptorSet(file=[file]).SerializeToString())
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("shop.Sale"))
    shards = []
    for n in range(2):
        made = [
            cls(item=f"item-{i % 7}", cents=50 * i, tags=["a", "b"][: i % 3], price=i / 4)
            for i in range(n * 300, n * 300 + 300)
        ]
        made[5] = cls(item="x" * 3, tags=["sale"])
        payloads = [m.SerializeToString() for m in made]
        payloads[9] = b"\xff\xff"  # no Sale
        shards.append(folder / f"sales-0000{n}-of-00002")
        tf_write(shards[-1], payloads)
    return sets, shards


@pytest.mark.parametrize("command", ["stats", "check"])
def test_a_message_type_of_ones_own_on_the_direct_runner(tmp_path, command):
    """Workers that read the records as the user's type, from the definitions the
    command sends them: the local JSON, every path's figures, the same findings."""
    sets, shards = _sales(tmp_path)
    given = ["--descriptor-set", str(sets), "--message", "shop.Sale"]
    local = cli(command, "--json", *map(str, shards), *given)
    far = cli(command, "--json", *map(str, shards), *given, "--runner", "direct",
              "--direct_num_workers=2")  # fmt: skip
    assert far.returncode == local.returncode, far.stderr
    assert _same(far.stdout, local.stdout)
    found = json.loads(far.stdout)
    if command == "stats":
        assert found["message"] == "shop.Sale" and found["other_payloads"] == 2
        assert found["features"]["cents"]["numeric"]["max"] == 50 * 599
    else:
        kinds = {f["kind"] for f in found["findings"]}
        assert "message_unparseable" in kinds


def test_the_built_in_event_type_on_the_direct_runner(tmp_path):
    """Events made by TensorFlow's own classes (TensorBoard, which ``tf.summary``
    needs, is not among Beam's packages)."""
    from tests.tf_oracle import tf, tf_write

    v1 = tf().compat.v1
    path = tmp_path / "events.out.tfevents.1.host"
    events = [v1.Event(wall_time=1.5e9, file_version="brain.Event:2")] + [
        v1.Event(wall_time=1.5e9 + step, step=step, summary=v1.Summary(
            value=[v1.Summary.Value(tag="loss", simple_value=1.0 / (step + 1))]))
        for step in range(30)
    ]  # fmt: skip
    tf_write(path, [e.SerializeToString() for e in events])
    given = ["--message", "tensorflow.Event"]
    local = cli("stats", "--json", str(path), *given)
    far = cli("stats", "--json", str(path), *given, "--runner", "direct")
    assert far.returncode == local.returncode == 0, far.stderr
    assert _same(far.stdout, local.stdout)
    assert json.loads(far.stdout)["features"]["summary.value.tag"]["bytes"]["top"] == [["loss", 30]]
