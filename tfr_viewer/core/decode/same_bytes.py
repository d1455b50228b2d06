"""Results of a pure function of bytes, remembered for byte-identical inputs.

Datasets repeat images (augmented copies, the same picture under two labels, shards
written twice); the verdict on a picture is a function of its bytes alone, so a copy
needs no second decode. :class:`SameBytes` keys a result by the input's length and
CRC32C and confirms a hit by comparing the bytes themselves, so two different inputs
never share a result, whatever their checksums. Inputs are held (not copied, when they
are ``bytes``) up to a budget of bytes. Over it, an input picked at random is dropped:
a dataset that cycles through slightly more pictures than the budget holds still finds
most of them (dropping the least recently used would find none).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Hashable
from typing import Any, Generic, TypeVar

from ..crc32c import value as crc32c
from ..kernels import same_bytes

T = TypeVar("T")
BUDGET = 64 << 20  # bytes of inputs held, per memo


def equal(a: bytes | memoryview, b: bytes | memoryview) -> bool:
    """Whether two bytes-like values hold the same bytes (see :func:`.kernels.same_bytes`)."""
    return same_bytes(a, b)


def key_of(data: bytes | memoryview, crc: int | None = None) -> tuple[int, int]:
    """What a result is filed under (a hit is then confirmed byte for byte); ``crc``: the
    CRC32C of ``data`` when the caller has it already."""
    return len(data), crc32c(data) if crc is None else crc


class SameBytes(Generic[T]):
    """``get(data, tag)`` / ``put(data, value, tag)``; ``tag`` separates results of
    different functions or settings. Thread-safe."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self._entries: dict[tuple[Any, ...], tuple[bytes, T]] = {}
        self._keys: list[tuple[Any, ...]] = []  # the keys of the entries, in no order
        self._slots: dict[tuple[Any, ...], int] = {}  # a key -> its place in ``_keys``
        self._held = 0
        self._lock = threading.Lock()
        self._random = random.Random(0)

    def get(
        self, data: bytes | memoryview, tag: Hashable = None, key: tuple[int, int] | None = None
    ) -> T | None:
        """The result remembered for exactly ``data`` (whose :func:`key_of` is ``key``,
        when the caller has it), or None."""
        filed = (tag, *(key or key_of(data)))
        with self._lock:
            entry = self._entries.get(filed)
            if entry is None or not equal(entry[0], data):
                return None
            return entry[1]

    def put(
        self,
        data: bytes | memoryview,
        value: T,
        tag: Hashable = None,
        key: tuple[int, int] | None = None,
    ) -> None:
        """Remember ``value`` for ``data`` (inputs larger than the budget are not)."""
        if len(data) > self.budget:
            return
        held = data if type(data) is bytes else bytes(data)
        filed = (tag, *(key or key_of(held)))
        with self._lock:
            if filed in self._entries:
                self._drop(filed)
            self._entries[filed] = (held, value)
            self._slots[filed] = len(self._keys)
            self._keys.append(filed)
            self._held += len(held)
            while self._held > self.budget:  # the newest stays
                self._drop(self._keys[self._random.randrange(len(self._keys) - 1)])

    def _drop(self, key: tuple[Any, ...]) -> None:
        held, _ = self._entries.pop(key)
        self._held -= len(held)
        slot = self._slots.pop(key)
        last = self._keys.pop()
        if last != key:
            self._keys[slot] = last
            self._slots[last] = slot
