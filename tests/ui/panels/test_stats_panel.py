"""The Statistics panel's words for a feature: integers as integers."""

from __future__ import annotations

from tests.core.analyze.test_stats import int_dataset
from tfr_viewer.core.io.dataset import Dataset


def test_the_statistics_panel_shows_integers_as_integers(tmp_path):
    from tfr_viewer.app.stats import statistics
    from tfr_viewer.ui.panels.stats_panel import summary_of

    path = int_dataset(tmp_path)
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        stats = statistics(ds).summary()
    line = summary_of(dict(stats.features)["ts"])
    assert "min 1357000000, mean 1357000240, max 1357000480" in line, line
    assert "1357000000.0" not in line and "e+" not in line


def test_every_bar_filters_to_the_records_it_counts(samples):
    """A bar's filter, run by the filter language, selects as many records as the bar
    counts: every values-per-record bar, and every bar of a feature with one value a
    record (its values, or its images' sizes)."""
    from tfr_viewer.app.filtering import FilterRequest
    from tfr_viewer.app.stats import statistics
    from tfr_viewer.ui.panels.stats_panel import chart_of

    with Dataset([str(samples / "shapes_odapi.tfrecord")]) as ds:
        summary = statistics(ds).summary()
        checked = 0
        for key, f in summary.features:
            for chart in chart_of(key, f):
                if chart.title != "values per record" and [k for k, _ in f.per_record] != [1]:
                    continue
                for count, expression in zip(chart.counts, chart.filters, strict=True):
                    found = FilterRequest(expression).run(ds).records
                    assert len(found) == count, (key, chart.title, expression)
                    checked += 1
        assert checked > 10
