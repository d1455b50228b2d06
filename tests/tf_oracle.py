"""TensorFlow as the test oracle: write files with its writer, read them with tf.data.

TensorFlow is imported lazily so that tests which do not need it stay fast.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any


@cache
def tf() -> Any:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow

    return tensorflow


def _tf_compression(compression: str) -> str:
    return {"none": "", "gzip": "GZIP", "zlib": "ZLIB"}[compression]


def tf_write(path: os.PathLike[str] | str, payloads: Iterable[bytes], compression: str = "none"):
    """Write ``payloads`` with ``tf.io.TFRecordWriter``."""
    options = tf().io.TFRecordOptions(compression_type=_tf_compression(compression))
    with tf().io.TFRecordWriter(os.fspath(path), options) as writer:
        for p in payloads:
            writer.write(p)
    return path


def tf_read(
    paths: Sequence[os.PathLike[str] | str] | str, compression: str = "none"
) -> list[bytes]:
    """Every record ``tf.data.TFRecordDataset`` reads from ``paths``."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    ds = tf().data.TFRecordDataset(
        [os.fspath(p) for p in paths], compression_type=_tf_compression(compression)
    )
    return [bytes(r.numpy()) for r in ds]


def tf_parsed(path: os.PathLike[str] | str, kinds: dict[str, str]) -> list[dict[str, list]]:
    """Every record of ``path`` as ``tf.io.parse_single_example`` reads it with a
    ``VarLenFeature`` a key (``kinds``: key to ``int64``, ``float`` or ``bytes``): the
    values of each key (none where a record lacks it)."""
    t = tf()
    dtypes = {"int64": t.int64, "float": t.float32, "bytes": t.string}
    spec = {key: t.io.VarLenFeature(dtypes[kind]) for key, kind in kinds.items()}
    out = []
    for record in t.data.TFRecordDataset(os.fspath(path)):
        parsed = t.io.parse_single_example(record, spec)
        out.append({k: v.values.numpy().tolist() for k, v in parsed.items()})
    return out
