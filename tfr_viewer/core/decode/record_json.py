"""The ``show --json`` object of one record: where it is, its status, and its decoded
payload (the contract's form, shared by the command line and the Python API)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .payloads import decode, payload_json

if TYPE_CHECKING:
    from ..io import RecordStatus


def record_json(
    index: int,
    file: str,
    offset: int,
    length: int,
    status: RecordStatus,
    payload: bytes,
    within: str | None = None,
) -> dict[str, object]:
    """The ``show --json`` object of a record read from ``file`` (numeric values may be
    numpy arrays: write it with ``write_json``), decoded as its file's type ``within``
    (see :func:`~.payloads.decode`)."""
    out: dict[str, object] = {
        "index": index,
        "file": file,
        "offset": offset,
        "length": length,
        "status": status.kind,
    }
    decoded = decode(payload, within=within)
    out.update(payload_json(decoded, lazy=True))
    out["decoder"] = decoded.decoder
    return out
