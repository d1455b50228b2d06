"""s3:// URLs against an S3-compatible server on loopback (moto's server mode): single
objects, globs over a prefix, shard specs and a prefix as a folder, read as the local
files are, through the command line run as a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("s3fs", reason="s3fs is the [s3] extra")
boto3 = pytest.importorskip("boto3", reason="boto3 comes with moto")
moto_server = pytest.importorskip("moto.server", reason="moto[server] is a test dependency")

_BOTO = {
    "aws_access_key_id": "testing",
    "aws_secret_access_key": "testing",
    "region_name": "us-east-1",
}
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}


@pytest.fixture(scope="module")
def bucket(remote_root):
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        region_name="us-east-1",
    )
    client.create_bucket(Bucket="data")
    for name in ("small.tfrecord.gz", "big.tfrecord", "damaged.tfrecord") + tuple(
        f"train-{k:05d}-of-00003" for k in range(3)
    ):
        client.upload_file(str(remote_root / name), "data", f"sets/{name}")
    yield endpoint
    server.stop()


def cli(endpoint: str, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, **CREDENTIALS, "AWS_ENDPOINT_URL": endpoint, "TFR_VIEWER_NO_CACHE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *argv],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )


def _local(text: str, root) -> object:
    return json.loads(text.replace("s3://data/sets/", str(root) + "/"))


def test_s3_objects_read_as_the_local_files(bucket, remote_root):
    for name in ("small.tfrecord.gz", "big.tfrecord", "damaged.tfrecord"):
        far = cli(bucket, "verify", "--json", f"s3://data/sets/{name}")
        near = cli(bucket, "verify", "--json", str(remote_root / name))
        assert far.returncode == near.returncode, far.stderr
        got = _local(far.stdout, remote_root)
        assert got.pop("transfer")["bytes"] > 0
        assert got == json.loads(near.stdout)
    shown = cli(bucket, "show", "17", "--json", "s3://data/sets/big.tfrecord")
    assert shown.returncode == 0, shown.stderr
    local = cli(bucket, "show", "17", "--json", str(remote_root / "big.tfrecord"))
    assert _local(shown.stdout, remote_root) == json.loads(local.stdout)


@pytest.mark.parametrize(
    "spec", ["s3://data/sets/train-*", "s3://data/sets/train@3", "s3://data/sets/train-0000[0-2]*"]
)
def test_s3_globs_and_shard_specs(bucket, spec):
    out = cli(bucket, "info", "--json", spec)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert [f["path"] for f in report["files"]] == [
        f"s3://data/sets/train-{k:05d}-of-00003" for k in range(3)
    ]
    assert report["records"] == 3000


def test_an_s3_prefix_opens_as_a_folder_and_missing_objects_are_named(bucket):
    folder = cli(bucket, "info", "--json", "s3://data/sets")
    assert folder.returncode == 0, folder.stderr
    assert len(json.loads(folder.stdout)["files"]) == 6
    missing = cli(bucket, "info", "s3://data/sets/nothing.tfrecord")
    assert missing.returncode == 2 and "no such" in missing.stderr
    no_bucket = cli(bucket, "info", "s3://no-such-bucket/x.tfrecord")
    assert no_bucket.returncode == 2 and "Traceback" not in no_bucket.stderr


def _versions(tmp_path) -> tuple[bytes, bytes]:
    from tests.remote_data import example
    from tests.tf_oracle import tf_write

    tf_write(tmp_path / "v1", [example(i, 300_000) for i in range(40)])
    tf_write(tmp_path / "v2", [example(i + 100, 300_000) for i in range(20)])
    return (tmp_path / "v1").read_bytes(), (tmp_path / "v2").read_bytes()


def _in_process(monkeypatch, endpoint: str, cache) -> None:
    for name, value in {**CREDENTIALS, "AWS_ENDPOINT_URL": endpoint}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("TFR_VIEWER_CACHE_DIR", str(cache))
    monkeypatch.setenv("TFR_VIEWER_CACHE_MIN_BYTES", "0")
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "")
    monkeypatch.setenv("TFR_VIEWER_REMOTE_RETRIES", "1")


def test_a_read_of_a_replaced_s3_object_is_refused(bucket, tmp_path, monkeypatch):
    from tfr_viewer.core.io.remote_source import open_remote
    from tfr_viewer.core.io.source_errors import FileChanged

    first, second = _versions(tmp_path)
    client = boto3.client("s3", endpoint_url=bucket, **_BOTO)
    client.put_object(Bucket="data", Key="moving/read.tfrecord", Body=first)
    _in_process(monkeypatch, bucket, tmp_path / "cache")
    source = open_remote("s3://data/moving/read.tfrecord")
    assert source.read_at(1_000_000, 100_000) == first[1_000_000:1_100_000]
    client.put_object(Bucket="data", Key="moving/read.tfrecord", Body=second)
    # the same size and the same bytes at that place would not show it: the ETag does
    with pytest.raises(FileChanged, match="changed while it was being read"):
        source.read_at(1_000_000, 100_000)


def test_an_s3_object_replaced_during_a_scan_is_reported_and_never_cached(
    bucket, tmp_path, monkeypatch
):
    from tfr_viewer.core.io.dataset import Dataset
    from tfr_viewer.core.io.source_errors import FileChanged

    first, second = _versions(tmp_path)
    client = boto3.client("s3", endpoint_url=bucket, **_BOTO)
    client.put_object(Bucket="data", Key="moving/scan.tfrecord", Body=first)
    cache = tmp_path / "cache"
    _in_process(monkeypatch, bucket, cache)
    url = "s3://data/moving/scan.tfrecord"
    for verify in (False, True):
        client.put_object(Bucket="data", Key="moving/scan.tfrecord", Body=first)
        with Dataset.open([url]) as ds:
            chunks = ds.scan(verify=verify)
            next(chunks)
            client.put_object(Bucket="data", Key="moving/scan.tfrecord", Body=second)
            with pytest.raises(FileChanged, match="changed while it was being read"):
                list(chunks)
        assert not list(cache.rglob("*.tfrindex")), "a mixed index was cached"
    again = cli(bucket, "count", url)
    assert again.returncode == 0 and again.stdout.strip() == "20", again.stderr


def test_an_object_of_a_protocol_without_conditional_reads_is_checked_after_the_scan(
    tmp_path, monkeypatch
):
    """Any other fsspec protocol (here the in-memory one) has its size and version
    asked again once read through."""
    import fsspec

    from tfr_viewer.core.io.dataset import Dataset
    from tfr_viewer.core.io.source_errors import FileChanged

    first, second = _versions(tmp_path)
    memory = fsspec.filesystem("memory")
    memory.pipe_file("/moving/a.tfrecord", first)
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    try:
        with Dataset.open(["memory://moving/a.tfrecord"]) as ds:
            chunks = ds.scan(verify=True)
            next(chunks)
            memory.pipe_file("/moving/a.tfrecord", second)
            with pytest.raises(FileChanged, match="now 6,.* bytes, was 12,"):
                list(chunks)
        with Dataset.open(["memory://moving/a.tfrecord"]) as ds:
            assert len(ds.index()) == 20
    finally:
        memory.rm("/moving", recursive=True)
