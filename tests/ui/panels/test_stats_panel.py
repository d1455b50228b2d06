"""The Statistics panel's words for a feature: integers as integers."""

from __future__ import annotations

import json

from tests.core.analyze.test_stats import int_dataset
from tfr_viewer.core.io.dataset import Dataset


def test_the_statistics_panel_shows_integers_as_integers(tmp_path):
    from tfr_viewer.core.analyze.stats import dataset_stats
    from tfr_viewer.core.json_text import dumps
    from tfr_viewer.ui.panels.stats_panel import summary_of

    path = int_dataset(tmp_path)
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        stats = json.loads(dumps(dataset_stats(ds).to_json()))
    line = summary_of(stats["features"]["ts"])
    assert "min 1357000000, mean 1357000240, max 1357000480" in line, line
    assert "1357000000.0" not in line and "e+" not in line
