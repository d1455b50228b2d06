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
