"""What a TFDS folder's ``features.json`` says of each feature, by the key its records
keep it under: a tensor's dtype and shape, an image's encoding and shape, text, a class
label; and, for a feature of a ``Dataset`` or ``Sequence`` feature (RLDS's ``steps``),
which one it is a step of. TFDS flattens nested features into keys joined by ``/``
(``steps/observation/image``) and stores a step feature's values of every step one after
the other in one list; :class:`FeatureSpec` is what reshapes them.

The document is the user's: anything that is not the shape TFDS writes is left out
(never an error), so a hand-edited or hostile file describes fewer features."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

MAX_FEATURES = 10_000  # features described at most: a larger document describes these
MAX_DEPTH = 32  # nesting of FeaturesDict and Dataset followed at most


@dataclass(frozen=True)
class FeatureSpec:
    """One feature as ``features.json`` describes it. ``key``: where a record keeps it;
    ``kind``: ``tensor`` (a Tensor or a Scalar), ``image``, ``text``, ``class_label``;
    ``dtype``: numpy's name (``float32``, ``bool``, ``uint8``, ``int64``, ``string``);
    ``shape``: one element's (one step's, in a sequence), None for a dimension it leaves
    open; ``encoding``: an image's format (``jpeg``, ``png``) or a tensor's (``none``,
    ``bytes``, ``zlib``); ``sequence``: the key of the Dataset or Sequence feature whose
    steps it is part of (``steps``), None for a feature of the record itself."""

    key: str
    kind: str
    dtype: str
    shape: tuple[int | None, ...]
    encoding: str = "none"
    sequence: str | None = None

    @property
    def name(self) -> str:
        """The key under its sequence (``observation/image`` of ``steps``)."""
        if self.sequence is None:
            return self.key
        return self.key[len(self.sequence) + 1 :]

    @property
    def size(self) -> int | None:
        """The values of one element (one step): the product of the shape; None when a
        dimension is open."""
        size = 1
        for dim in self.shape:
            if dim is None:
                return None
            size *= dim
        return size


def feature_specs(document: Any) -> dict[str, FeatureSpec]:
    """Every feature ``features.json`` (its parsed ``document``) describes, by key."""
    out: dict[str, FeatureSpec] = {}
    for spec in _walk(document, (), None, 0):
        out[spec.key] = spec
        if len(out) >= MAX_FEATURES:
            break
    return out


def _walk(
    node: Any, path: tuple[str, ...], sequence: str | None, depth: int
) -> Iterator[FeatureSpec]:
    if not isinstance(node, dict) or depth > MAX_DEPTH:
        return
    key = "/".join(path)
    leaf = _leaf(node, key, sequence)
    if leaf is not None:
        yield leaf
        return
    nested = node.get("featuresDict")
    features = nested.get("features") if isinstance(nested, dict) else None
    if isinstance(features, dict):
        for name, child in features.items():
            yield from _walk(child, (*path, str(name)), sequence, depth + 1)
        return
    steps = node.get("sequence")
    if isinstance(steps, dict) and path and sequence is None:
        yield from _walk(steps.get("feature"), path, key, depth + 1)


def _leaf(node: dict[str, Any], key: str, sequence: str | None) -> FeatureSpec | None:
    if not key:
        return None
    if isinstance(tensor := node.get("tensor"), dict):
        dtype = str(tensor.get("dtype") or "")
        return FeatureSpec(
            key, "tensor", dtype, _shape(tensor), str(tensor.get("encoding") or "none"), sequence
        )
    if isinstance(image := node.get("image"), dict):
        encoding = str(image.get("encodingFormat") or "png")
        dtype = str(image.get("dtype") or "uint8")
        return FeatureSpec(key, "image", dtype, _shape(image), encoding, sequence)
    if isinstance(node.get("text"), dict):
        return FeatureSpec(key, "text", "string", (), "none", sequence)
    if isinstance(node.get("classLabel"), dict):
        return FeatureSpec(key, "class_label", "int64", (), "none", sequence)
    return None


def _shape(node: dict[str, Any]) -> tuple[int | None, ...]:
    """``{"shape": {"dimensions": ["7"]}}`` (TFDS writes the numbers as strings; -1 for
    an open dimension) as a tuple; a dimension that is no number is open."""
    shape = node.get("shape")
    dims = shape.get("dimensions") if isinstance(shape, dict) else None
    if not isinstance(dims, list):
        return ()
    out: list[int | None] = []
    for dim in dims[:MAX_DEPTH]:
        try:
            number = int(str(dim))
        except ValueError:
            number = -1
        out.append(number if number >= 0 else None)
    return tuple(out)
