"""A damaged record says so before anything of it is read: a warning on ``features`` in
the Python API and the first line of its notebook view (the window's:
``tests/ui/test_main_window.py``)."""

from __future__ import annotations

import warnings

import pytest

from tests.damaged_frames import examples_with_a_bad_payload


def test_the_api_warns_on_a_damaged_records_features(tmp_path):
    import tfr_viewer as tfv

    with tfv.open(str(examples_with_a_bad_payload(tmp_path)), verify=True) as ds:
        good, bad = ds[0], ds[1]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert good.features["label"].tolist() == [0]  # no warning
        assert bad.status == "bad_data_crc" and bad.damaged
        with pytest.warns(tfv.DamagedRecordWarning, match="record 1 .* is damaged"):
            assert bad.features["label"].tolist() == [1]
        page = bad._repr_html_()
        assert page.index("this record is damaged (bad_data_crc)") < page.index("<table")
