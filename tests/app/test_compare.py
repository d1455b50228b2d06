"""``compare`` is one operation: the command line's ``--json`` and the Python API's
report are the same JSON, with the threshold and leaks allowed or not."""

from __future__ import annotations

import pytest

import tfr_viewer as tfv
from tests.app.cli import cli_json
from tests.planted_faults import clean_dataset
from tests.planted_labels import labelled_dataset


@pytest.mark.parametrize("allow_leaks", [False, True])
def test_the_command_line_and_the_api_give_one_report(tmp_path, allow_leaks):
    a = labelled_dataset(tmp_path / "a.tfrecord", True)
    b = tmp_path / "b.tfrecord"
    clean_dataset(b)
    extra = ["--allow-leaks"] if allow_leaks else []
    code, cli = cli_json(
        "compare", "--json", str(a), "--against", str(b), "--threshold", "0.2", *extra
    )
    report = tfv.open(str(a)).compare(tfv.open(str(b)), threshold=0.2, allow_leaks=allow_leaks)
    assert report.to_json() == cli
    assert code == (1 if report.failed else 0)


def test_a_negative_threshold_is_one_user_error(tmp_path):
    a = labelled_dataset(tmp_path / "a.tfrecord")
    with pytest.raises(tfv.UserError, match="threshold must be 0 or more"):
        tfv.open(str(a)).compare(tfv.open(str(a)), threshold=-1)
