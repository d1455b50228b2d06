"""A file's payload type, decided from its records, and records decoded as that type.

One message type is read as one type in a file: a FASTQ-like protobuf whose records
happen to be printable text, or an Example that also parses as a tensor, is read as the
file's type (:func:`~.payloads.choose_for_many` over records spread over the file); a
record is read otherwise only when the file's decoder cannot read it at all, or when
its bytes name their type alone (:func:`~.payloads.certain`). The choice
is kept on the file (``DatasetFile.payload_decoder``) with the number of records it was
made on, and made again once the file has more records to look at.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .payloads import Decoded, choose_for_many, decode

if TYPE_CHECKING:
    from ..io import Dataset
    from .message_types import MessageType

SAMPLE = 48  # records looked at to decide a file's payload type
SAMPLE_BYTES = 64 << 20  # ... and at most this many of their bytes (one record at least)


def _samples(ds: Dataset, file_number: int) -> list[bytes]:
    """The payloads of up to :data:`SAMPLE` undamaged records of the file: spread over a
    plain local file; the first ones of a compressed file (whose later records cost a
    decode of everything before them) or of a remote one, read in one go (a request for
    them all, not one each)."""
    from ..io.payload_block import read_block
    from ..io.remote import is_url

    f = ds.files[file_number]
    count = len(f.index)
    source = f.source
    plain = not is_url(f.path) and (source is None or source.compression.value == "none")
    if plain and count > SAMPLE:
        local = np.unique(np.linspace(0, count - 1, SAMPLE).astype(np.int64))
        lengths = np.array([f.index.length(int(i)) for i in local], dtype=np.int64)
        local = local[: _within_budget(lengths)]
        records = ds.undamaged(local + ds.start_of(file_number))
        return [ds.read(int(i)) for i in records]
    n = _within_budget(f.index.lengths(0, min(count, SAMPLE)).astype(np.int64))
    block = read_block(
        f.open(), f.index.offsets(0, n), f.index.lengths(0, n), f.index.statuses(0, n)
    )
    return [bytes(block.payload(r)) for r in range(n) if block.starts[r] >= 0]


def _within_budget(lengths: np.ndarray) -> int:
    """How many of the records of ``lengths`` fit in :data:`SAMPLE_BYTES` (one at least)."""
    return max(1, int(np.searchsorted(np.cumsum(lengths), SAMPLE_BYTES, side="right")))


def file_decoder(ds: Dataset, file_number: int) -> str:
    """The name of the decoder of the file's payloads (decided once per file, again when
    the first decision saw fewer records than it looks at)."""
    f = ds.files[file_number]
    kept = f.payload_decoder
    count = len(f.index)
    if kept is not None and (kept[0] >= SAMPLE or kept[0] == count):
        return kept[1]
    name = _user_decoder(ds, file_number)
    if name is None:
        name = choose_for_many(_samples(ds, file_number))
    f.payload_decoder = (min(count, SAMPLE), name)
    return name


def settled_type(ds: Dataset) -> object:
    """What another process is given to read ``ds``'s records as (its ``message_type``):
    the one type every file's records are read as, when the user named none and the
    files agree (so that a part of a file reads as the whole file does, whatever its
    own records would choose); the dataset's ``message_type`` otherwise."""
    from .message_types import MessageTypes

    if not isinstance(ds.message_type, MessageTypes):
        return ds.message_type
    chosen = {}
    for number in range(len(ds.files)):
        kind = message_type_of(ds, number)
        if kind is not None:
            chosen[kind.name] = kind
    return next(iter(chosen.values())) if len(chosen) == 1 else ds.message_type


def _user_decoder(ds: Dataset, file_number: int) -> str | None:
    """The decoder of the message type the user gave for the dataset (or for every
    dataset, :func:`~.message_types.give`), chosen among the types given by the
    file's records when no one is named (the choice and why among the dataset's
    warnings); None when the user gave none."""
    from ..io.dataset_warnings import DatasetWarning
    from .message_types import MessageType, MessageTypes

    user = ds.message_type
    if isinstance(user, MessageType):
        return user.decoder
    if not isinstance(user, MessageTypes):
        return None
    kind, why = user.choose(_samples(ds, file_number))
    path = ds.files[file_number].path
    ds.warnings[:] = [w for w in ds.warnings if (w.kind, w.where) != ("message_type", path)]
    ds.warnings.append(
        DatasetWarning("message_type", path, f"records read as {why} (choose with --message)")
    )
    return kind.decoder


def decode_record(ds: Dataset, index: int, payload: bytes | None = None) -> Decoded:
    """Record ``index`` (its ``payload`` when already read) decoded as its file's type."""
    number, _ = ds.locate(index)
    data = ds.read(index) if payload is None else payload
    return decode(data, within=file_decoder(ds, number))


def message_type_of(ds: Dataset, file_number: int) -> MessageType | None:
    """The user's message type the file's records are read as, or None (at once, with
    no record read, when the user gave none)."""
    from .message_types import bound

    if ds.message_type is None:
        return None
    return bound(file_decoder(ds, file_number))
