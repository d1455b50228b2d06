"""Results of a pure function of bytes, remembered for byte-identical inputs.

Datasets repeat images (augmented copies, the same picture under two labels, shards
written twice); the verdict on a picture is a function of its bytes alone, so a copy
needs no second decode. :class:`SameBytes` keys a result by the input's length and
CRC32C and confirms a hit by comparing the bytes themselves, so two different inputs
never share a result, whatever their checksums. Inputs are held (not copied, when they
are ``bytes``) up to a budget of bytes, the least recently used dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

from ..crc32c import value as crc32c

T = TypeVar("T")
BUDGET = 64 << 20  # bytes of inputs held, per memo


def equal(a: bytes, b: bytes) -> bool:
    """Whether two bytes-like values hold the same bytes (a memoryview compares item by
    item, many times slower than a copy and one ``memcmp``)."""
    if len(a) != len(b):
        return False
    return (a if type(a) is bytes else bytes(a)) == (b if type(b) is bytes else bytes(b))


def key_of(data: bytes) -> tuple[int, int]:
    """What a result is filed under (a hit is then confirmed byte for byte)."""
    return len(data), crc32c(data)


class SameBytes(Generic[T]):
    """``get(data, tag)`` / ``put(data, value, tag)``; ``tag`` separates results of
    different functions or settings. Thread-safe."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self._entries: OrderedDict[tuple, tuple[bytes, T]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(
        self, data: bytes, tag: Hashable = None, key: tuple[int, int] | None = None
    ) -> T | None:
        """The result remembered for exactly ``data`` (whose :func:`key_of` is ``key``,
        when the caller has it), or None."""
        key = (tag, *(key or key_of(data)))
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or not equal(entry[0], data):
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(
        self, data: bytes, value: T, tag: Hashable = None, key: tuple[int, int] | None = None
    ) -> None:
        """Remember ``value`` for ``data`` (inputs larger than the budget are not)."""
        if len(data) > self.budget:
            return
        held = data if type(data) is bytes else bytes(data)
        key = (tag, *(key or key_of(held)))
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._held -= len(old[0])
            self._entries[key] = (held, value)
            self._held += len(held)
            while self._held > self.budget:
                _, (dropped, _) = self._entries.popitem(last=False)
                self._held -= len(dropped)
