"""``count`` is one operation: the command line's ``--json`` and the report of the
request are one JSON, with and without a filter, over a file with a broken payload CRC
(a whole record, counted by the header pass; the verifying pass through a filter finds
it a problem, so exit 1)."""

from __future__ import annotations

import pytest

from tests.app.cli import cli_json
from tests.damaged_frames import examples_with_a_bad_payload
from tfr_viewer.app.count import CountRequest
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.json_text import read_back


@pytest.mark.parametrize("text", [None, "label >= 1", "length > 0"])
def test_the_command_line_prints_the_operations_report(tmp_path, text):
    path = str(examples_with_a_bad_payload(tmp_path))
    args = ["count", "--json", path] + (["--filter", text] if text else [])
    code, cli = cli_json(*args)
    with Dataset.open([path]) as ds:
        report = CountRequest(text).run(ds)
    assert read_back(report.to_json()) == cli
    assert cli["records"] == 3  # the three frames written, the damaged one whole
    if text is None:
        assert cli["count"] == 3 and "filter" not in cli
        assert code == 0 and not report.failed  # a header pass reads no payload
    else:
        assert cli["filter"] == text and cli["count"] <= 3
        assert code == 1 and report.failed and cli["problems"][0]["kind"] == "bad_data_crc"
