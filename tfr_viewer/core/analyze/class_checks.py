"""The checks of a pass on class ids: id 0 in an Object Detection API dataset, ids
outside a label map, and the ids each class name was seen with (one name with several
ids is reported once every part is in: :func:`.check_merge.finish_check`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..query.extract import FeatureColumn
from .key_checks import EXAMPLES
from .roles import Roles


class ClassChecks:
    """The class part of one pass; ``note(kind, message, record, **where)`` takes its
    findings."""

    def __init__(self, label_map: Mapping[int, str] | None, note: Callable[..., None]) -> None:
        self.label_map = label_map
        self.note = note
        self.text_ids: dict[str, Counter[int]] = defaultdict(Counter)
        self.text_records: dict[tuple[str, int], list[int]] = defaultdict(list)

    def add(
        self, roles: Roles, columns: dict[str, FeatureColumn], records: np.ndarray, ok: np.ndarray
    ) -> None:
        """Check the class ids (and texts) of rows ``ok`` of a block."""
        for id_key, text_key in (
            (roles.object_label, roles.object_text),
            (roles.label, roles.label_text),
        ):
            if id_key is None or id_key not in columns:
                continue
            ids = columns[id_key]
            if ids.rag.values.dtype != np.int64:
                continue
            texts = columns.get(text_key) if text_key else None
            for r in np.flatnonzero(ok & ids.present).tolist():
                record = int(records[r])
                a, b = int(ids.rag.splits[r]), int(ids.rag.splits[r + 1])
                values = ids.rag.values[a:b].tolist()
                names: list[Any] = [None] * len(values)
                if texts is not None:
                    ta, tb = int(texts.rag.splits[r]), int(texts.rag.splits[r + 1])
                    if tb - ta == b - a:
                        names = [
                            v.decode("utf-8", "replace") if isinstance(v, bytes) else None
                            for v in texts.rag.values[ta:tb].tolist()
                        ]
                self._check_ids(roles, id_key, record, values, names)

    def _check_ids(
        self, roles: Roles, key: str, record: int, ids: list[int], names: list[Any]
    ) -> None:
        for b, (i, name) in enumerate(zip(ids, names, strict=True)):
            box = b if key == roles.object_label else None
            if i == 0 and roles.odapi:
                self.note(
                    "class_id_zero", "class id 0 (the background)", record, feature=key, box=box
                )
            if (
                self.label_map is not None
                and i != 0
                and (
                    i not in self.label_map
                    or name is not None
                    and self.label_map[i] not in ("", name)
                )
            ):
                said = f" ({name!r})" if name is not None else ""
                known = self.label_map.get(i)
                why = (
                    "is not in the label map" if known is None else f"is {known!r} in the label map"
                )
                at = f"box {b}: " if box is not None else ""
                self.note(
                    "label_not_in_map",
                    f"{at}class id {i}{said} {why}",
                    record,
                    feature=key,
                    box=box,
                )
            if name is not None:
                self.text_ids[name][i] += 1
                seen = self.text_records[(name, i)]
                if len(seen) < EXAMPLES:
                    seen.append(record)
