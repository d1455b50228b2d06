"""``check`` is one operation: the command line's ``--json`` (here, and with
``--jobs 2``) and the Python API's report are the same JSON, with a label map, over the
planted-fault dataset (every kind of finding at its record) and an empty shard."""

from __future__ import annotations

import pytest

import tfr_viewer as tfv
from tests.app.cli import cli_json
from tests.planted_faults import planted_dataset


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("check")
    faulty = folder / "faulty-00000-of-00002.tfrecord"
    planted_dataset(faulty)
    (folder / "faulty-00001-of-00002.tfrecord").write_bytes(b"")
    labels = folder / "labels.pbtxt"
    labels.write_text('item { id: 1 name: "circle" }\nitem { id: 2 name: "square" }\n')
    return [str(faulty), str(folder / "faulty-00001-of-00002.tfrecord")], str(labels)


@pytest.mark.parametrize("fail_on", ["warning", "error"])
def test_the_command_line_and_the_api_give_one_report(planted, fail_on):
    paths, labels = planted
    args = ["check", "--json", "--fail-on", fail_on, "--label-map", labels, *paths]
    code, cli = cli_json(*args)
    _, jobs = cli_json(*args, "--jobs", "2")
    report = tfv.open(paths).check(fail_on=fail_on, label_map=labels)
    assert report.to_json() == cli == jobs
    assert code == (1 if report.failed else 0) and cli["fail_on"] == fail_on
    assert {f["kind"] for f in cli["findings"]} >= {"damaged_record", "empty_shard"}
    assert report.to_pandas().shape[0] == len(report) == len(cli["findings"])


def test_a_mistaken_fail_on_is_one_user_error(planted):
    with pytest.raises(tfv.UserError, match="fail_on is one of error, warning, info"):
        tfv.open(planted[0]).check(fail_on="severe")


def test_image_quality_limits_are_taken(planted):
    from tfr_viewer.core.analyze.image_quality import Thresholds

    strict = tfv.open(planted[0]).check(limits=Thresholds(dark=250.0))
    assert any(f.kind == "image_dark" for f in strict)


def test_the_episodes_read_beside_the_processes_stop_when_the_record_checks_fail(
    tmp_path, monkeypatch
):
    """With ``--jobs``, the episodes are read on a thread while the processes check the
    records; when the record checks fail (or Ctrl+C interrupts them), the error goes
    on at once and the thread stops at its next episode, not at the end of the data."""
    import threading
    import time

    from tests.rlds_data import Planned, write_rlds
    from tfr_viewer.app import check as check_module
    from tfr_viewer.app.episodes import EpisodeReader
    from tfr_viewer.core.io import Dataset

    folder = write_rlds(tmp_path, {"train": [Planned(3, seed=n) for n in range(30)]})
    read, started = [], threading.Event()
    real = EpisodeReader.episode

    def slowly(self, record, payload=None):  # noqa: ANN001, ANN202
        read.append(record)
        started.set()
        time.sleep(0.05)  # an episode takes a while to read
        return real(self, record, payload)

    monkeypatch.setattr(EpisodeReader, "episode", slowly)

    def failing():  # noqa: ANN202
        started.wait(30)
        raise KeyboardInterrupt

    with Dataset([str(p) for p in folder.glob("*.tfrecord-*")]) as ds:
        ds.index(verify=False)
        with pytest.raises(KeyboardInterrupt):
            check_module._beside_episodes(ds, check_module.QUIET, failing)
        assert 1 <= len(read) < 10 < len(ds)
