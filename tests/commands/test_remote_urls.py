"""The command line over http:// URLs on loopback, run as a subprocess: the same JSON as
for the local files, and clear exits (never a hang) when the server misbehaves."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time

import pytest


def cli(*argv: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TFR_VIEWER_NO_CACHE": "1", **env},
    )


def _localised(text: str, server, root) -> object:
    return json.loads(text.replace(server.url(""), str(root) + "/"))


def _json_lines(text: str, server, root) -> list[object]:
    return [_localised(line, server, root) for line in text.splitlines()]


@pytest.mark.parametrize("name", ["small.tfrecord", "small.tfrecord.gz", "damaged.tfrecord"])
def test_info_list_show_verify_match_the_local_file(remote_root, server, name):
    local, url = str(remote_root / name), server.url(name)
    for argv in (("info", "--json"), ("verify", "--json"), ("list", "--json"), ("count",)):
        a, b = cli(*argv, local), cli(*argv, url)
        assert a.returncode == b.returncode, b.stderr
        if argv[0] == "list":
            assert _json_lines(b.stdout, server, remote_root) == _json_lines(
                a.stdout, server, remote_root
            )
            continue
        if argv[0] == "count":
            assert a.stdout == b.stdout
            continue
        got = _localised(b.stdout, server, remote_root)
        transfer = got.pop("transfer")
        assert transfer["bytes"] > 0 and transfer["requests"] >= 1
        assert got == json.loads(a.stdout)
    for record in ("0", "7"):
        a, b = cli("show", record, "--json", local), cli("show", record, "--json", url)
        assert a.returncode == b.returncode == 0, b.stderr
        assert _localised(b.stdout, server, remote_root) == json.loads(a.stdout)


def test_verify_of_a_damaged_url_exits_1_with_the_offsets(remote_root, server):
    out = cli("verify", server.url("damaged.tfrecord"))
    assert out.returncode == 1
    assert "bad_data_crc" in out.stdout and server.url("damaged.tfrecord") in out.stdout
    assert "transferred" in out.stderr


def test_a_transient_failure_is_retried(remote_root, server):
    server.faults.fail_next = 2
    out = cli("info", "--json", server.url("big.tfrecord"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["records"] == 60


@pytest.mark.parametrize(
    "fault", [{"fail_after": 3}, {"fail_after": 3, "fail_status": 503}, {"drop_after": 3}]
)
def test_a_server_that_fails_mid_scan_is_reported_not_a_crash(server, fault):
    for key, value in fault.items():
        setattr(server.faults, key, value)
    out = cli("info", server.url("big.tfrecord"), TFR_VIEWER_REMOTE_RETRIES="2")
    assert out.returncode == 2, out.stdout + out.stderr
    assert server.url("big.tfrecord") in out.stderr
    assert "retry" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("command", [["info"], ["verify"], ["show", "3"], ["count"], ["list"]])
def test_a_failing_server_is_one_line_for_every_command(server, command):
    server.faults.fail_after = 0  # every range request answers 500
    out = cli(*command, server.url("big.tfrecord"), TFR_VIEWER_REMOTE_RETRIES="1")
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert server.url("big.tfrecord") in out.stderr


def test_a_silent_server_times_out(server):
    server.faults.hang = True
    started = time.monotonic()
    out = cli(
        "info",
        server.url("big.tfrecord"),
        TFR_VIEWER_REMOTE_TIMEOUT="1",
        TFR_VIEWER_REMOTE_RETRIES="1",
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "retry" in out.stderr
    assert time.monotonic() - started < 60


def test_missing_objects_and_unknown_protocols_are_usage_errors(server):
    missing = cli("info", server.url("nothing.tfrecord"))
    assert missing.returncode == 2 and "no such" in missing.stderr
    unknown = cli("info", "nosuchproto://bucket/x.tfrecord")
    assert unknown.returncode == 2 and "not a protocol" in unknown.stderr
    empty_glob = cli("info", server.url("nothing-*"))
    assert empty_glob.returncode == 2 and "matches no" in empty_glob.stderr


@pytest.mark.skipif(importlib.util.find_spec("gcsfs") is not None, reason="gcsfs is installed here")
def test_a_missing_cloud_backend_names_its_extra():
    out = cli("info", "gs://some-bucket/train.tfrecord")
    assert out.returncode == 2
    assert "tfr-viewer[gcs]" in out.stderr and "Traceback" not in out.stderr


def test_writing_to_a_url_is_refused_with_what_to_do(remote_root, server, tmp_path):
    out = cli("export", str(remote_root / "small.tfrecord"), "-o", server.url("out.tfrecord"))
    assert out.returncode == 2 and "writing to a URL is not supported" in out.stderr
    assert not (remote_root / "out.tfrecord").exists()


def test_no_tfindex_is_written_for_a_url(server):
    out = cli("index", "--tfindex", server.url("big.tfrecord"))
    assert out.returncode == 1 and "next to a local file" in out.stderr


@pytest.mark.parametrize("where", ["self", "file"])
@pytest.mark.parametrize("command", [["info"], ["show", "3"], ["verify"]])
def test_a_redirect_loop_or_a_redirect_to_a_local_file_is_one_line(
    server, tmp_path, command, where
):
    """Range requests answered by a redirect to themselves (a loop), or to file:// (a
    local file the server should not make us read): one line, exit 2, nothing read."""
    secret = tmp_path / "secret.tfrecord"
    secret.write_bytes(b"PASSWORD=hunter2\n" * 100)
    server.faults.redirect = "self" if where == "self" else secret.as_uri()
    out = cli(*command, server.url("big.tfrecord"), TFR_VIEWER_REMOTE_RETRIES="1")
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert server.url("big.tfrecord") in out.stderr
    assert "hunter2" not in out.stdout + out.stderr


def test_side_files_by_url_are_read_as_local_ones(server, remote_root, label_data, tmp_path):
    """A results file and a label map named by URL are read through the remote layer:
    the same findings as from local copies; a missing one is one line, exit 2."""
    import shutil
    import uuid

    tag = uuid.uuid4().hex[:8]
    results, label_map = f"results-{tag}.json", f"label_map-{tag}.pbtxt"
    shutil.copy(label_data["coco"], remote_root / results)
    (remote_root / label_map).write_text('item { id: 1 name: "cat" }\n')
    local = tmp_path / "label_map.pbtxt"
    local.write_text('item { id: 1 name: "cat" }\n')
    data = str(label_data["plain"])
    by_url = cli(
        "check",
        "--json",
        data,
        "--predictions",
        server.url(results),
        "--label-map",
        server.url(label_map),
    )
    here = cli(
        "check", "--json", data, "--predictions", str(label_data["coco"]), "--label-map", str(local)
    )
    assert by_url.returncode == here.returncode == 1, by_url.stderr
    assert json.loads(by_url.stdout)["findings"] == json.loads(here.stdout)["findings"]
    missing = cli("check", data, "--predictions", server.url(f"none-{tag}.json"))
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1
    assert "Traceback" not in missing.stderr and f"none-{tag}.json" in missing.stderr
