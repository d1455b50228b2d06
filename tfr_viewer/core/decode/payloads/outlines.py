"""The outline builders the payload types share: features grouped by the ``/`` of their
keys, values with their previews, and bytes that are themselves a serialized Example or
tensor, shown as nested records (at most :data:`~..outline.MAX_NESTING` deep) by the
``nested`` callable the registry hands the decoders (:func:`~. payload_outline`)."""

from __future__ import annotations

from typing import Any

from ...text import EMPTY, float_text, plural
from ..outline import MAX_CHILDREN, MAX_NESTING, Nested, Outline, bytes_preview
from ..payload_types import FeatureData


def _scalar_text(v: Any, kind: str) -> str:
    return float_text(v) if kind == "float" else str(v)


def feature_outline(name: str, fd: FeatureData, key: str, depth: int, nested: Nested) -> Outline:
    """A feature's node, its values as children (bytes that are a serialized Example or
    tensor hold that record's outline, as ``nested`` makes it)."""
    values = fd.values
    count = len(values)
    node = Outline(name, fd.kind, str(count), key=key)
    if fd.kind == "bytes":
        previews = [bytes_preview(v) for v in values[:MAX_CHILDREN]]
        node.value = previews[0][0] if count == 1 else f"[{count} values]" if count else EMPTY
        node.copy = "\n".join(
            v.decode("utf-8", "replace") if p[1] == "text" else v.hex()
            for v, p in zip(values, previews, strict=False)
        )
        for i, (v, (text, what)) in enumerate(zip(values, previews, strict=False)):
            child = Outline(f"[{i}]", what, "", text, key=key, copy=v.hex())
            if count > 1:
                node.add(child)
            target = child if count > 1 else node
            if what in ("example", "tensor") and depth < MAX_NESTING:
                for sub in nested(v, key, depth + 1):
                    target.add(sub)
    else:
        import numpy as np

        items = np.asarray(values).tolist()
        texts = [_scalar_text(v, fd.kind) for v in items]
        node.copy = ", ".join(texts)
        shown = ", ".join(texts[:20]) + (f", … ({count} values)" if count > 20 else "")
        node.value = texts[0] if count == 1 else f"[{shown}]" if count else EMPTY
        if count > 1:
            for i, text in enumerate(texts[:MAX_CHILDREN]):
                node.add(Outline(f"[{i}]", fd.kind, "", text, key=key, copy=text))
    if count > MAX_CHILDREN:
        node.add(Outline(f"… {count - MAX_CHILDREN:,} more", "", "", "", key=key))
    return node


def grouped(features: dict[str, FeatureData], depth: int, nested: Nested) -> list[Outline]:
    """Feature nodes under group nodes made from the ``/``-separated key parts."""
    root = Outline("")
    groups: dict[tuple[str, ...], Outline] = {(): root}
    for key, fd in features.items():
        parts = key.split("/")
        for i in range(1, len(parts)):
            path = tuple(parts[:i])
            if path not in groups:
                groups[path] = groups[path[:-1]].add(Outline(parts[i - 1], key="/".join(path)))
        groups[tuple(parts[:-1])].add(feature_outline(parts[-1], fd, key, depth, nested))
    for path, node in groups.items():
        if path:
            node.count = plural(len(node.children), "key")
    return root.children
