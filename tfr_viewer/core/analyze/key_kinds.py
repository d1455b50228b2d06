"""How a key held as several kinds is told: one wording for `check`'s finding, the
statistics' note and the HTML report."""

from __future__ import annotations

from collections.abc import Mapping


def kinds_shown(kinds: Mapping[str, int]) -> str:
    """How many records hold a key as each kind: ``float in 1, int64 in 3``."""
    return ", ".join(f"{kind} in {n:,}" for kind, n in sorted(kinds.items()) if n)


def kinds_warning(key: str, kinds: Mapping[str, int]) -> str | None:
    """What to say of a key held as several kinds (TensorFlow's parse of the records of
    the other kinds fails), or None."""
    if sum(1 for n in kinds.values() if n) < 2:
        return None
    return (
        f"{key!r} has several kinds ({kinds_shown(kinds)}): tf.io parsing fails on the "
        "records whose kind differs from the spec's; `tfr-viewer check` lists them"
    )
