"""The hashes the statistics' sketches count distinct values with."""

from __future__ import annotations

import numpy as np

from tfr_viewer.core.analyze.sketch import bytes_hashes
from tfr_viewer.core.crc32c import value as crc32c


def test_a_value_hashes_the_same_with_its_crc_given_or_computed():
    """Statistics pass the CRC32C they computed for a picture's memo; the hash (and so
    the distinct count) is the one computed from the bytes, for views of a buffer too."""
    rng = np.random.default_rng(3)
    buffer = rng.bytes(300_000)
    values = [b"", b"cat", buffer[:1000], memoryview(buffer)[5:250_005], buffer[7:300]]
    crcs = [crc32c(v) for v in values]
    given = bytes_hashes(values, crcs)
    assert given.tolist() == bytes_hashes(values).tolist()
    assert len(set(given.tolist())) == len(values)
    wrong = bytes_hashes(values, [c ^ 1 for c in crcs])
    assert not np.any(wrong == given)
