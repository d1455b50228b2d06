"""SequenceExample feature lists -> columns: for each key, the steps of every record and
the values of every step.

Both paths give identical columns: the compiled core parses the whole buffer in one
call; the pure-Python path parses each payload with upb as a SequenceExample. As for
:mod:`.extract`, parsing is lenient: an Example is a SequenceExample without feature
lists, and a payload upb rejects has none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..fast import native
from ..io.payload_block import PayloadBlock
from .columns import Rag
from .extract import (
    _KIND_OF,
    BYTES,
    FLOAT,
    INT64,
    NONE,
    ROW_MALFORMED,
    ROW_UPB,
    _joined_splits,
    _on_every_core,
    _parts,
    _python_values,
    _typed_values,
)


@dataclass(frozen=True)
class FeatureListColumn:
    """One feature-list key over a block. Row ``r`` holds steps
    ``steps[r] : steps[r + 1]``; step ``s`` has kind ``kinds[s]`` and the values
    ``values.values[values.splits[s] : values.splits[s + 1]]``."""

    present: np.ndarray  # bool, per row
    steps: np.ndarray  # int64, rows + 1
    kinds: np.ndarray  # uint8, per step
    values: Rag  # one list per step


def extract_lists(
    block: PayloadBlock, keys: Iterable[str]
) -> tuple[np.ndarray, dict[str, FeatureListColumn]]:
    """Per-row parse status (``ROW_OK`` or ``ROW_MALFORMED``) and a column per key."""
    wanted = sorted(set(keys))
    compiled = native()
    if compiled is not None and block.rows:
        status, columns = _compiled(compiled, block, wanted)
        if not (status == ROW_UPB).any():
            return status, columns
    return _python(block, wanted)


def _compiled(
    compiled, block: PayloadBlock, wanted: list[str]
) -> tuple[np.ndarray, dict[str, FeatureListColumn]]:
    keys = tuple(k.encode("utf-8") for k in wanted)
    results = _on_every_core(
        lambda a, b: compiled.extract_lists(block.buf, block.starts[a:b], block.lengths[a:b], keys),
        _parts(block.rows),
    )
    status = np.concatenate([np.frombuffer(r[0], dtype=np.uint8) for r in results])
    columns = {}
    for c, key in enumerate(wanted):
        pieces = [r[1][c] for r in results]
        present = np.concatenate([np.frombuffer(p[0], dtype=np.bool_) for p in pieces])
        steps = _joined_splits([np.frombuffer(p[1], dtype=np.int64) for p in pieces])
        kinds = np.concatenate([np.frombuffer(p[2], dtype=np.uint8) for p in pieces])
        splits = _joined_splits([np.frombuffer(p[3], dtype=np.int64) for p in pieces])
        by_kind = {
            kind: np.concatenate([np.frombuffer(p[i], dtype=t) for p in pieces])
            for kind, i, t in ((INT64, 4, np.int64), (FLOAT, 5, np.float64), (BYTES, 6, np.int64))
        }
        values = _typed_values(compiled, block, kinds, splits, by_kind)
        columns[key] = FeatureListColumn(present, steps, kinds, Rag(values, splits))
    return status, columns


def _python(
    block: PayloadBlock, wanted: list[str]
) -> tuple[np.ndarray, dict[str, FeatureListColumn]]:
    from google.protobuf.message import DecodeError

    from ..decode import proto

    status = np.zeros(block.rows, dtype=np.uint8)
    parse = proto.SequenceExample.FromString
    state: dict[str, tuple[list, list[int], list, list, list[int], set]] = {
        key: ([], [0], [], [], [0], set()) for key in wanted
    }
    for r in range(block.rows):
        try:
            lists = parse(block.payload(r)).feature_lists.feature_list
        except DecodeError:
            status[r] = ROW_MALFORMED
            lists = {}
        for key, (values, steps, present, kinds, splits, seen) in state.items():
            present.append(key in lists)
            for feature in lists[key].feature if key in lists else ():
                which = feature.WhichOneof("kind")
                kind = _KIND_OF[which] if which else NONE
                if which:
                    got = getattr(feature, which).value
                    if len(got):
                        seen.add(kind)
                        values.extend(got)
                kinds.append(kind)
                splits.append(len(values))
            steps.append(len(kinds))
    return status, {
        key: FeatureListColumn(
            np.array(present, dtype=bool),
            np.array(steps, dtype=np.int64),
            np.array(kinds, dtype=np.uint8),
            Rag(_python_values(values, seen), np.array(splits, dtype=np.int64)),
        )
        for key, (values, steps, present, kinds, splits, seen) in state.items()
    }
