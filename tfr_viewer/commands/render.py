"""Human-readable rendering of a ``show`` record (the JSON form, made readable)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core.decode.payloads import payload_lines


def render_payload(record: dict[str, Any]) -> Iterator[str]:
    """The record's place and status, then its payload as its decoder writes it."""
    yield (
        f"record {record['index']}  {record['file']}  offset {record['offset']}  "
        f"length {record['length']}  status {record['status']}  type {record['type']}"
    )
    if "decoder_error" in record:
        err = record["decoder_error"]
        yield f"  (the {err['decoder']} decoder failed: {err['message']}; showing bytes)"
    yield from payload_lines(record)
