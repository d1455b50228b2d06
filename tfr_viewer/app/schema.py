"""``schema``: the features of a dataset's Examples (or SequenceExamples) with their kinds
and value counts, as a ``tf.io`` parsing spec.

:func:`schema` surveys every record (or ``sample`` of them, spread over the dataset);
:class:`SchemaReport` is what it found, the same for the command line's ``--json`` and
the Python API. A dataset with no Example is one :class:`SchemaError` naming the
payload types it holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..core.analyze.message_schema import MessageSchema
from ..core.analyze.schema import Schema
from ..core.io import Dataset
from ..core.text import plural
from ..core.user_error import UserError
from .indexing import index
from .task_state import QUIET, TaskState


class SchemaError(UserError):
    """No schema to infer: the message says what the records are instead."""


@dataclass(frozen=True)
class SchemaReport:
    """The survey (``schema``): its JSON, its parsing spec as Python, and the keys held
    as several kinds."""

    schema: Schema | MessageSchema

    def to_json(self) -> dict[str, Any]:
        """``schema --json``."""
        return self.schema.to_json()

    def python(self) -> str:
        """The parsing spec as Python source (what ``schema`` prints)."""
        return self.schema.python()

    def conflicts(self) -> list[str]:
        """A line for each key held as several kinds."""
        return self.schema.conflicts()


def schema(ds: Dataset, state: TaskState = QUIET, sample: int | None = None) -> SchemaReport:
    """The schema of ``ds``: of every record, or of ``sample`` records spread over it."""
    from ..core.analyze import infer_schema

    if sample is not None and sample <= 0:
        raise SchemaError("the sample must be 1 record or more")
    index(ds, verify=False, state=state)
    if not len(ds):
        reasons: list[str] = [str(r) for r in ds.not_tfrecord() or ds.warnings]
        raise SchemaError(
            "; ".join(["there is no schema to infer: the dataset has 0 records", *reasons])
        )
    records = None
    if sample is not None and sample < len(ds):
        step = len(ds) / sample
        records = sorted({int(i * step) for i in range(sample)})
    if ds.message_type is not None:
        return _of_messages(ds, records)
    found = infer_schema(ds, records)
    if not found.examples and not found.sequence_examples:
        looked, types = payload_types(ds)
        raise SchemaError(
            f"no record is a tf.train.Example or SequenceExample, so there is no Example "
            f"schema; of {plural(looked, 'record')} looked at, the payloads are: "
            f"{types}. Use `show` or `head` to see them"
        )
    return SchemaReport(found)


def payload_types(ds: Dataset, limit: int = 200) -> tuple[int, str]:
    """How many records were looked at (up to ``limit``, spread over the dataset) and
    their types, ``12 tensor, 3 text``, each read as its file's type."""
    from ..core.decode.file_payloads import decode_record

    step = max(1, len(ds) // limit)
    looked = ds.undamaged(range(0, len(ds), step)).tolist()
    counts = Counter(decode_record(ds, i).payload.type for i in looked)
    return len(looked), ", ".join(f"{n} {kind}" for kind, n in counts.most_common())


def _of_messages(ds: Dataset, records: list[int] | None) -> SchemaReport:
    """The schema of a dataset read as the user's message type (one type: a dataset
    whose files are read as several is a :class:`SchemaError`)."""
    import numpy as np

    from ..core.analyze.message_schema import message_schema
    from ..core.decode.file_payloads import message_type_of
    from ..core.io.dataset_blocks import iter_blocks

    kinds = {message_type_of(ds, n) for n in range(len(ds.files)) if len(ds.files[n].index)}
    named = sorted(k.name for k in kinds if k is not None)
    if len(named) != 1:
        raise SchemaError(f"the files are read as several message types ({', '.join(named)})")
    (kind,) = (k for k in kinds if k is not None)
    chosen = ds.undamaged(np.arange(len(ds)) if records is None else records)

    def payloads() -> Iterator[bytes]:
        for _, block in iter_blocks(ds, chosen):
            for r in range(block.rows):
                yield block.payload(r)

    return SchemaReport(message_schema(kind, payloads()))
