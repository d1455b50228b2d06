"""A table's bytes made an Arrow column: joined once, the same array as ``pa.array``
makes (none, empty values, every byte value), and past the limit by ``pa.array``."""

from __future__ import annotations

import pyarrow as pa
import pytest

from tfr_viewer.core.analyze import sql_tables


@pytest.mark.parametrize(
    "items", [[], [b""], [b"", b"ab", bytes(range(256)), b"\x00" * 70_000, b"z"]]
)
def test_bytes_joined_once_are_pa_arrays(items, monkeypatch):
    made = sql_tables._binary(items)
    assert made.type == pa.binary() and made.equals(pa.array(items, pa.binary()))
    monkeypatch.setattr(sql_tables, "BINARY_LIMIT", 1)  # past it: pa.array's own
    assert sql_tables._binary(items).equals(made)
