"""The checks of a key over the whole dataset: a key missing from a few records, a key
whose kind changes, a value count that differs from the rest. One byte per record and
key says which records hold it; per (kind, value count), a count and the first
:data:`EXAMPLES` records, so memory stays bounded however large the dataset."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

from ..query.extract import BYTES, FLOAT, INT64, FeatureColumn
from ..text import plural
from .key_kinds import kinds_shown

MISSING = 0.10  # a key missing from at most this share of records should be there
RARE = 0.01  # a count or kind held by at most this share of records is the odd one out
EXAMPLES = 1000  # records listed one by one per kind of fault and key; the rest are counted
_KIND_NAMES = {BYTES: "bytes", FLOAT: "float", INT64: "int64"}


def few(n: int, total: int, share: float) -> bool:
    """Whether ``n`` of ``total`` is a small minority (at most ``share``, or one)."""
    return 0 < n <= max(1, int(total * share)) and n < total


def _spelled(key: str) -> str:
    """A key in lower case without the separators ``_ - .`` and spaces (``/`` stays:
    it is the key's path)."""
    return re.sub(r"[-_. ]+", "", key.lower())


def _most(counts: Counter[int]) -> int:
    """The most common entry; the smallest of equally common ones (so the answer does
    not depend on the order in which parts were counted)."""
    return min(counts, key=lambda k: (-counts[k], k))


class KeyChecks:
    """Fed block by block (:meth:`count`, and :meth:`mark_parsed` for the records that
    are Examples with features) with the records ``base .. base + records``;
    :meth:`finish` reports through ``note``. Checks of consecutive record ranges combine
    with :meth:`merge` into the checks of their union, exactly as one pass gives them."""

    def __init__(self, records: int, note: Callable[..., None], base: int = 0) -> None:
        self.records = records
        self.base = base
        self._note = note
        self.parsed = np.zeros(records, dtype=bool)
        self.present: dict[str, np.ndarray] = {}
        self.combos: dict[str, Counter[tuple[int, int]]] = defaultdict(Counter)
        self.examples: dict[str, dict[tuple[int, int], list[int]]] = defaultdict(dict)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_note"] = None  # a bound method of the pass: not sent between processes
        state["combos"], state["examples"] = dict(self.combos), dict(self.examples)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state["combos"] = defaultdict(Counter, state["combos"])
        state["examples"] = defaultdict(dict, state["examples"])
        self.__dict__.update(state)

    def mark_parsed(self, records: np.ndarray) -> None:
        """``records`` (global numbers) are Examples with at least one feature."""
        self.parsed[records - self.base] = True

    def merge(self, part: KeyChecks) -> None:
        """Take in the checks of records that lie within this one's range and follow
        every record merged so far (parts are merged in record order)."""
        lo = part.base - self.base
        self.parsed[lo : lo + part.records] |= part.parsed
        for key, present in part.present.items():
            if key not in self.present:
                self.present[key] = np.zeros(self.records, dtype=bool)
            self.present[key][lo : lo + part.records] |= present
        for key, combos in part.combos.items():
            self.combos[key].update(combos)
            mine = self.examples[key]
            for pair, records in part.examples[key].items():
                listed = mine.setdefault(pair, [])
                listed.extend(records[: EXAMPLES - len(listed)])

    def count(
        self, key: str, records: np.ndarray, present: np.ndarray, column: FeatureColumn
    ) -> None:
        if key not in self.present:
            self.present[key] = np.zeros(self.records, dtype=bool)
        self.present[key][records[present] - self.base] = True
        kinds = column.kinds[present].astype(np.int64)
        counts = np.diff(column.rag.splits)[present]
        combo = kinds * (1 << 40) + counts
        values, times = np.unique(combo, return_counts=True)
        found, examples = self.combos[key], self.examples[key]
        held = records[present]
        for value, n in zip(values.tolist(), times.tolist(), strict=True):
            pair = (value >> 40, value & ((1 << 40) - 1))
            found[pair] += n
            listed = examples.setdefault(pair, [])
            if len(listed) < EXAMPLES:
                listed.extend(held[combo == value][: EXAMPLES - len(listed)].tolist())

    def finish(self, is_list: Callable[[str], bool]) -> None:
        """Report every key; ``is_list(key)`` for keys whose lengths vary by nature.
        Record numbers in the findings are ``base`` plus the position."""
        for key in sorted(self.present):
            self._key(key, is_list(key))
        self._spellings()

    def _spellings(self) -> None:
        """Keys that differ only in case or in their separators (``image/Encoded`` and
        ``image/encoded``, ``class_label`` and ``classlabel``): each spelling but the
        most common is noted at the first record that holds it."""
        groups: dict[str, list[str]] = defaultdict(list)
        for key in sorted(self.present):
            groups[_spelled(key)].append(key)
        for keys in groups.values():
            if len(keys) < 2:
                continue
            held = {k: np.flatnonzero(self.present[k] & self.parsed) for k in keys}
            main = min(keys, key=lambda k: (-len(held[k]), k))
            for key in keys:
                if key != main and len(held[key]):
                    self._note(
                        "key_spelling",
                        f"{key!r} (in {plural(len(held[key]), 'record')}) differs from "
                        f"{main!r} (in {plural(len(held[main]), 'record')}) only in case or "
                        "separators",
                        int(held[key][0]) + self.base,
                        feature=key,
                    )

    def _more(self, kind: str, key: str, shown: int, total: int) -> None:
        """One finding for the records of a kind not listed one by one."""
        if total > shown:
            self._note(
                kind,
                f"… and {plural(total - shown, 'more record')} like the ones listed for {key!r}",
                None,
                feature=key,
            )

    def _key(self, key: str, is_list: bool) -> None:
        total = int(self.parsed.sum())
        held = self.present[key] & self.parsed
        present = int(held.sum())
        missing = total - present
        if few(missing, total, MISSING):
            absent = np.flatnonzero(self.parsed & ~held)
            for record in (absent[:EXAMPLES] + self.base).tolist():
                self._note(
                    "feature_missing",
                    f"{key!r} is missing here but present in {present:,} of {total:,} records",
                    record,
                    feature=key,
                )
            self._more("feature_missing", key, min(len(absent), EXAMPLES), len(absent))
        combos, examples = self.combos[key], self.examples[key]
        by_kind: Counter[int] = Counter()
        for (kind, _count), n in combos.items():
            if kind in _KIND_NAMES:
                by_kind[kind] += n
        if len(by_kind) > 1:
            main = _most(by_kind)
            shown = kinds_shown({_KIND_NAMES[k]: n for k, n in by_kind.items()})
            for (kind, _count), records in sorted(examples.items()):
                if kind in _KIND_NAMES and kind != main:
                    for record in records:
                        self._note(
                            "kind_conflict",
                            f"{key!r} is {_KIND_NAMES[kind]} here but "
                            f"{_KIND_NAMES[main]} in most records ({shown})",
                            record,
                            feature=key,
                        )
            odd = sum(n for k, n in by_kind.items() if k != main)
            listed = sum(len(r) for (k, _), r in examples.items() if k in _KIND_NAMES and k != main)
            self._more("kind_conflict", key, listed, odd)
        if is_list:
            return
        by_count: Counter[int] = Counter()
        for (_kind, count), n in combos.items():
            by_count[count] += n
        if len(by_count) < 2:
            return
        main = _most(by_count)
        odd = sum(n for c, n in by_count.items() if c != main)
        if not few(odd, sum(by_count.values()), RARE):
            return
        listed = 0
        for (_kind, count), records in sorted(examples.items()):
            if count == main:
                continue
            listed += len(records)
            for record in records:
                self._note(
                    "value_count_differs",
                    f"{key!r} holds {count} values here but {main} in every other record",
                    record,
                    feature=key,
                )
        self._more("value_count_differs", key, listed, odd)
