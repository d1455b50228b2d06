"""The registry of analyses: an analysis made of three modules (operation, report,
panel; ``tests/app/record_sizes``) and one entry is a command and an API call that give
one JSON, with its options, exit codes and errors; without the entry neither knows it.
The window's part is in ``tests/ui/test_registered_analyses.py``."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tfr_viewer as tfv
from tests.app.record_sizes import ENTRY
from tests.tf_oracle import tf, tf_write
from tfr_viewer.app import analyses
from tfr_viewer.cli import main


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setattr(analyses, "ANALYSES", [*analyses.ANALYSES, ENTRY])


@pytest.fixture
def sized(tmp_path):
    """Records of random sizes, two files, written by TensorFlow."""
    rng = np.random.default_rng(7)
    paths = []
    for n in range(2):
        payloads = [rng.bytes(int(rng.integers(0, 5000))) for _ in range(40)]
        paths.append(str(tf_write(tmp_path / f"sized-{n}.tfrecord", payloads)))
    return paths


def _tf_lengths(paths):
    return [len(r.numpy()) for r in tf().data.TFRecordDataset(paths)]


def _cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_and_the_api_give_one_report(registered, sized, capsys):
    lengths = _tf_lengths(sized)
    code, out, _ = _cli(capsys, "record-sizes", *sized, "--json", "--largest", "4")
    assert code == 0
    cli = json.loads(out)
    api = tfv.open(sized).analyze("record-sizes", largest=4).to_json()
    assert api == cli
    assert cli["records"] == len(lengths) and cli["total"] == sum(lengths)
    assert cli["smallest"] == min(lengths)
    want = sorted(range(len(lengths)), key=lambda i: -lengths[i])[:4]
    assert [r["record"] for r in cli["largest"]] == want
    assert [r["length"] for r in cli["largest"]] == [lengths[i] for i in want]
    code, out, _ = _cli(capsys, "record-sizes", *sized)
    assert code == 0 and f"{sum(lengths):,} bytes of payload" in out


def test_a_report_that_fails_exits_1_and_a_refused_option_2(registered, sized, capsys):
    code, out, _ = _cli(capsys, "record-sizes", *sized, "--json", "--limit", "100")
    assert code == 1 and json.loads(out)["failed"] is True
    code, out, err = _cli(capsys, "record-sizes", *sized, "--largest", "0")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "tfr-viewer record-sizes: record-sizes: largest must be 1 or more"
    ]
    with pytest.raises(tfv.UserError, match="no option 'biggest'.*largest, limit"):
        tfv.open(sized).analyze("record-sizes", biggest=3)
    with pytest.raises(tfv.UserError, match="whole datasets"):
        tfv.open(sized)[:5].analyze("record-sizes")


def test_the_command_is_listed_with_its_options(registered, capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "record-sizes" in capsys.readouterr().out
    assert main(["record-sizes", "--help"]) == 0
    helped = " ".join(capsys.readouterr().out.split())
    assert "--largest LARGEST how many of the largest records to name" in helped
    assert "--limit LIMIT" in helped


def test_without_its_entry_no_front_end_knows_it(sized, capsys):
    code, _, err = _cli(capsys, "record-sizes", *sized)
    assert code == 2 and "neither a command nor a path" in err
    with pytest.raises(tfv.UserError, match="no analysis is named 'record-sizes'"):
        tfv.open(sized).analyze("record-sizes")
