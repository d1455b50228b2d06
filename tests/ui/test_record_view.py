"""The record table's view."""

from __future__ import annotations

from tests.tf_oracle import tf, tf_write
from tests.ui.conftest import open_and_wait


def test_summary_columns_are_fitted_to_the_rows_in_view(qtbot, window, tmp_path, monkeypatch):
    """Fitting a summary column reads the summaries of about a screenful of records, not
    of Qt's default thousand rows (each read from its record: on a shard set of large
    records that was most of a second of the window's work while it verified)."""
    from tfr_viewer.ui.models import record_table

    t = tf()
    examples = [
        t.train.Example(
            features=t.train.Features(
                feature={
                    "label": t.train.Feature(int64_list=t.train.Int64List(value=[n % 7])),
                    "image/class/text": t.train.Feature(
                        bytes_list=t.train.BytesList(value=[f"class {n % 7}".encode()])
                    ),
                }
            )
        ).SerializeToString()
        for n in range(5000)
    ]
    path = tf_write(tmp_path / "many.tfrecord", examples)
    read: set[int] = set()
    real = record_table.summary_texts

    def reading(ds, records, *args):  # noqa: ANN001, ANN002, ANN202
        read.update(int(r) for r in records)
        return real(ds, records, *args)

    monkeypatch.setattr(record_table, "summary_texts", reading)
    window.resize(1000, 700)
    open_and_wait(qtbot, window, [path])
    qtbot.waitUntil(lambda: bool(window.model.summary_keys), timeout=10_000)
    column = len(window.model.columns()) - 1
    qtbot.waitUntil(lambda: bool(window.model.data(window.model.index(0, column))), timeout=5000)
    window.table.fit_columns()
    assert read, "no summary was read"
    assert len(read) <= 400, len(read)
    assert window.table.columnWidth(column) > 20
