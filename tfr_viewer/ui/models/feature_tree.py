"""A tree of the selected record: keys grouped by ``/``, values, nested payloads.

Nodes are built from the core's decoded dataclasses; the model itself parses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, Signal

from ...core.decode import (
    IMAGE_FORMATS,
    QUICK_SIDE,
    WIRE_TYPES,
    BytesPayload,
    Decoded,
    ExamplePayload,
    FeatureData,
    ProtobufPayload,
    ProtoField,
    SequenceExamplePayload,
    TensorPayload,
    TextPayload,
    decode,
    detect,
    verdict_of,
)
from ...core.io import STATUS_HELP, Problem
from ...core.text import dtype_text, float_text, plural, value_text

Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("key", "kind", "count", "value")
MAX_CHILDREN = 1000
MAX_NESTING = 4
MAX_COPY = 100_000  # values of a tensor copied as text at most


@dataclass(eq=False)
class Node:
    name: str
    kind: str = ""
    count: str = ""
    value: str = ""
    key: str = ""  # full feature key (for copy key)
    copy: str = ""  # full value text (for copy value)
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None

    def add(self, child: Node) -> Node:
        child.parent = self
        self.children.append(child)
        return child


def _bytes_preview(v: bytes) -> tuple[str, str]:
    what = detect(v)
    if what in IMAGE_FORMATS:
        verdict = verdict_of(v, QUICK_SIDE)
        size = f" {verdict.width}×{verdict.height} {verdict.mode}" if verdict.width else ""
        problem = f"; {verdict.problem}" if verdict.problem else ""
        return f"<{what}{size}, {len(v):,} bytes{problem}>", what
    if what == "text":
        text = v.decode("utf-8")
        return (text if len(text) <= 200 else text[:200] + "…"), what
    if what in ("tensor", "example"):
        return f"<serialized {what}, {len(v):,} bytes>", what
    return f"<{len(v):,} bytes: {v[:16].hex(' ')}{'…' if len(v) > 16 else ''}>", what


def _scalar_text(v: Any, kind: str) -> str:
    return float_text(v) if kind == "float" else str(v)


def feature_node(name: str, fd: FeatureData, key: str, depth: int) -> Node:
    values = fd.values
    count = len(values)
    node = Node(name, fd.kind, str(count), key=key)
    if fd.kind == "bytes":
        previews = [_bytes_preview(v) for v in values[:MAX_CHILDREN]]
        node.value = previews[0][0] if count == 1 else f"[{count} values]"
        node.copy = "\n".join(
            v.decode("utf-8", "replace") if p[1] == "text" else v.hex()
            for v, p in zip(values, previews, strict=False)
        )
        for i, (v, (text, what)) in enumerate(zip(values, previews, strict=False)):
            child = Node(f"[{i}]", what, "", text, key=key, copy=v.hex())
            if count > 1:
                node.add(child)
            target = child if count > 1 else node
            if what in ("example", "tensor") and depth < MAX_NESTING:
                for sub in payload_nodes(decode(v), key, depth + 1):
                    target.add(sub)
    else:
        items = np.asarray(values).tolist()
        texts = [_scalar_text(v, fd.kind) for v in items]
        node.copy = ", ".join(texts)
        shown = ", ".join(texts[:20]) + (f", … ({count} values)" if count > 20 else "")
        node.value = f"[{shown}]" if count != 1 else texts[0]
        if count > 1:
            for i, text in enumerate(texts[:MAX_CHILDREN]):
                node.add(Node(f"[{i}]", fd.kind, "", text, key=key, copy=text))
    if count > MAX_CHILDREN:
        node.add(Node(f"… {count - MAX_CHILDREN:,} more", "", "", "", key=key))
    return node


def grouped(features: dict[str, FeatureData], depth: int) -> list[Node]:
    """Feature nodes under group nodes made from the ``/``-separated key parts."""
    root = Node("")
    groups: dict[tuple[str, ...], Node] = {(): root}
    for key, fd in features.items():
        parts = key.split("/")
        for i in range(1, len(parts)):
            path = tuple(parts[:i])
            if path not in groups:
                groups[path] = groups[path[:-1]].add(Node(parts[i - 1], key="/".join(path)))
        groups[tuple(parts[:-1])].add(feature_node(parts[-1], fd, key, depth))
    for path, node in groups.items():
        if path:
            node.count = plural(len(node.children), "key")
    return root.children


def _proto_nodes(fields: tuple[ProtoField, ...]) -> list[Node]:
    out = []
    for f in fields:
        node = Node(f"#{f.number}", WIRE_TYPES.get(f.wire_type, str(f.wire_type)))
        if f.fields is not None:
            node.count = plural(len(f.fields), "field")
            for child in _proto_nodes(f.fields):
                node.add(child)
        elif isinstance(f.value, bytes):
            node.value, _ = _bytes_preview(f.value)
            node.count = f"{f.size:,} bytes"
            node.copy = f.value.hex()
        else:
            node.value = node.copy = str(f.value)
        out.append(node)
    return out


def payload_nodes(decoded: Decoded, key: str = "", depth: int = 0) -> list[Node]:
    """Top-level nodes for any decoded payload."""
    p = decoded.payload
    nodes: list[Node] = []
    if decoded.failed:
        nodes.append(
            Node(
                "note",
                "",
                "",
                f"the {decoded.failed} decoder failed: {decoded.error}; showing bytes",
            )
        )
    if isinstance(p, ExamplePayload):
        if p.note:
            nodes.append(Node("note", "", "", p.note))
        nodes += grouped(p.features, depth)
    elif isinstance(p, SequenceExamplePayload):
        ctx = Node("context", "", plural(len(p.context), "key"))
        for n in grouped(p.context, depth):
            ctx.add(n)
        lists = Node("feature_lists", "", plural(len(p.feature_lists), "key"))
        for k, steps in p.feature_lists.items():
            kn = lists.add(Node(k, "", plural(len(steps), "step"), key=k))
            for i, step in enumerate(steps[:MAX_CHILDREN]):
                kn.add(feature_node(f"[{i}]", step, k, depth))
        nodes += [ctx, lists]
    elif isinstance(p, TensorPayload):
        flat = p.values.ravel()
        preview = ", ".join(value_text(v) for v in flat[:20]) + ("…" if flat.size > 20 else "")
        nodes.append(
            Node(
                "tensor",
                dtype_text(p.dtype),
                "×".join(map(str, p.shape)) or "scalar",
                f"[{preview}]",
                key=key,
                copy=str(p.values.tolist()) if p.values.size <= MAX_COPY else "",
            )
        )
    elif isinstance(p, ProtobufPayload):
        nodes += _proto_nodes(p.fields)
    elif isinstance(p, TextPayload):
        nodes.append(Node("text", "text", f"{len(p.text):,} chars", p.text[:500], copy=p.text))
    elif isinstance(p, BytesPayload):
        text, _ = _bytes_preview(p.data)
        nodes.append(Node("bytes", "bytes", f"{len(p.data):,}", text, copy=p.data.hex()))
    return nodes


def region_nodes(region: Problem) -> list[Node]:
    """What the tree shows for a damaged region that belongs to no record."""
    size = f"{region.size:,} bytes" if region.size else "unknown (the rest of the stream)"
    return [
        Node("status", region.kind, "", STATUS_HELP.get(region.kind, "")),
        Node("where", "", "", f"{region.file}, byte {region.offset:,}"),
        Node("size", "", "", size),
        Node("message", "", "", region.message, copy=region.message),
    ]


class FeatureTreeModel(QAbstractItemModel):
    """``edit_requested(key, text)`` asks for a feature's values to become ``text``
    (the value column of a feature is editable; the window validates and applies)."""

    edit_requested = Signal(str, str)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._root = Node("")

    def set_decoded(self, decoded: Decoded | None) -> None:
        """Show a decoded payload. Nodes are built before the model resets, so a failure
        leaves the model consistent and shows the error in the tree instead."""
        try:
            nodes = payload_nodes(decoded) if decoded is not None else []
        except Exception as exc:  # a viewer must never break the window
            nodes = [Node("error", "", "", f"cannot show this record: {type(exc).__name__}: {exc}")]
        self.set_nodes(nodes)

    def set_nodes(self, nodes: list[Node]) -> None:
        """Show these top-level nodes (for things that are not payloads)."""
        self.beginResetModel()
        self._root = Node("")
        for node in nodes:
            self._root.add(node)
        self.endResetModel()

    def node(self, index: Index) -> Node:
        return index.internalPointer() if index.isValid() else self._root

    def index_of_key(self, key: str, item: int | None = None) -> QModelIndex:
        """The node of feature ``key`` (first found, depth first), or an invalid index;
        with ``item``, the node of that value of the feature when it has one."""

        def find(node: Node) -> Node | None:
            for child in node.children:
                if child.key == key:
                    return child
                found = find(child)
                if found is not None:
                    return found
            return None

        hit = find(self._root)
        if hit is None or hit.parent is None:
            return QModelIndex()
        value = f"[{item}]"
        child = next((c for c in hit.children if c.name == value), None)
        if item is not None and child is not None:
            hit = child
        assert hit.parent is not None
        return self.createIndex(hit.parent.children.index(hit), 0, hit)

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        node = self.node(parent)
        if not (0 <= row < len(node.children) and 0 <= column < len(COLUMNS)):
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    def parent(self, index: Index) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        parent = self.node(index).parent
        if parent is None or parent is self._root or parent.parent is None:
            return QModelIndex()
        return self.createIndex(parent.parent.children.index(parent), 0, parent)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self.node(index)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            text = (node.name, node.kind, node.count, node.value)[index.column()]
            if role == Qt.ItemDataRole.ToolTipRole:
                return node.key or None
            return text.replace("\n", " ⏎ ") if index.column() == 3 else text
        if role == Qt.ItemDataRole.EditRole and index.column() == 3:
            return node.copy if node.kind != "bytes" or len(node.children) == 0 else node.value
        return None

    def _editable(self, node: Node) -> bool:
        return (
            node.kind in ("bytes", "float", "int64")
            and bool(node.key)
            and (not node.name.startswith("[") or node.parent is None or not node.parent.key)
        )

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if index.isValid() and index.column() == 3 and self._editable(self.node(index)):
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        node = self.node(index)
        if not self._editable(node):
            return False
        self.edit_requested.emit(node.key, str(value))
        return True

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None
