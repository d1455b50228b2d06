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
from typing import Any

import numpy as np

from .. import kernels
from ..io.payload_block import PayloadBlock
from .columns import Rag
from .extract import (
    _KIND_OF,
    NONE,
    ROW_MALFORMED,
    ROW_UPB,
    _by_kind,
    _compiled_part,
    _joined_splits,
    _python_values,
    _typed_values,
    on_every_core,
    parts,
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
    if kernels.compiled_in_use() and block.rows:
        status, columns = _compiled(block, wanted)
        if not (status == ROW_UPB).any():
            return status, columns
    return _python(block, wanted)


def _compiled(
    block: PayloadBlock, wanted: list[str]
) -> tuple[np.ndarray, dict[str, FeatureListColumn]]:
    keys = tuple(k.encode("utf-8") for k in wanted)
    results = on_every_core(
        lambda a, b: _compiled_part(block, a, b, keys, kernels.extract_lists), parts(block.rows)
    )
    status = np.concatenate([r[0] for r in results])
    columns = {}
    for c, key in enumerate(wanted):
        pieces = [r[1][c] for r in results]
        present = np.concatenate([p.present for p in pieces])
        steps = _joined_splits([p.steps for p in pieces if p.steps is not None])
        kinds = np.concatenate([p.kinds for p in pieces])
        splits = _joined_splits([p.splits for p in pieces])
        values = _typed_values(block, kinds, splits, _by_kind(pieces))
        columns[key] = FeatureListColumn(present, steps, kinds, Rag(values, splits))
    return status, columns


def _python(
    block: PayloadBlock, wanted: list[str]
) -> tuple[np.ndarray, dict[str, FeatureListColumn]]:
    from ..decode.keyed_read import sequence_example

    status = np.zeros(block.rows, dtype=np.uint8)
    state: dict[str, tuple[list[Any], list[int], list[Any], list[Any], list[int], set[int]]] = {
        key: ([], [0], [], [], [0], set()) for key in wanted
    }
    for r in range(block.rows):
        seq = sequence_example(block.payload(r))
        if seq is None:
            status[r] = ROW_MALFORMED
            lists: Any = {}
        else:
            lists = seq[2]
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
