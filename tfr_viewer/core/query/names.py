"""Record columns and features that share a name.

A record has five columns of its own (``index file offset length status``); a feature
may be called the same. One rule everywhere, whatever the split or the runner:

- in a filter, a bare name means the feature when the dataset has a feature by that
  name (in any record), else the record's column; ``record.length`` (and
  ``record.index`` ...) always means the column, ``f["length"]`` always the feature;
- in the window, a feature shown as a column is named by :func:`feature_column`, never by
  its bare key, so a feature ``length`` and the frame's length are two columns.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from ..io import CancelToken, Dataset
from ..io.dataset_blocks import iter_blocks
from ..user_error import UserError
from .extract import extract
from .language import RECORD_FIELDS, Filter, QueryError, compile_filter

if TYPE_CHECKING:
    from ..decode.message_types import MessageType


def feature_column(key: str) -> str:
    """The column id of feature ``key`` in the record table: ``f["key"]``."""
    return f"f[{json.dumps(key, ensure_ascii=False)}]"


def column_feature(column: str) -> str | None:
    """The feature key of a column id made by :func:`feature_column`, else None."""
    if column.startswith("f[") and column.endswith("]"):
        try:
            key = json.loads(column[2:-1])
        except ValueError:
            return None
        return key if isinstance(key, str) else None
    return None


def features_named(
    ds: Dataset,
    names: Collection[str],
    cancel: CancelToken | None = None,
    edited: Mapping[int, bytes] | None = None,
) -> frozenset[str]:
    """Which of ``names`` are features of some record of the indexed ``ds`` (a pass
    over the payloads that stops once every name is found), ``edited`` payloads (by
    global number) instead of what the files hold."""
    import numpy as np

    wanted, found = sorted(set(names)), set()
    if not wanted:
        return frozenset()
    kinds = message_types_of(ds)
    if kinds:  # records of a user's message type: the names that are field paths of it
        return frozenset(n for n in wanted if all(_is_path(kind, n) for kind in kinds))
    for _records, block in iter_blocks(ds, np.arange(len(ds), dtype=np.int64), edited=edited):
        if cancel is not None and cancel.cancelled:
            break
        _, columns = extract(block, [n for n in wanted if n not in found])
        found |= {key for key, column in columns.items() if column.present.any()}
        if len(found) == len(wanted):
            break
    return frozenset(found)


class UnknownFeature(UserError):
    """A filter reads a key that is a feature of no record of the dataset."""


def require_features(
    ds: Dataset,
    flt: Filter,
    cancel: CancelToken | None = None,
    edited: Mapping[int, bytes] | None = None,
) -> None:
    """Raise :class:`UnknownFeature` when a key ``flt`` reads (its bare record column
    names decided, see :func:`resolved`) is a feature of no record of the indexed ``ds``
    and no record column either: such a filter would match nothing, whatever the user
    meant. A dataset without records has nothing to say."""
    if not flt.keys or not len(ds):
        return
    for kind in message_types_of(ds):
        from .message_columns import check_path

        for key in sorted(flt.keys):
            try:
                check_path(kind, key)
            except UserError as exc:
                raise UnknownFeature(f"filter {flt.text!r}: {exc}") from None
    found = features_named(ds, flt.keys, cancel, edited)
    missing = sorted(flt.keys - found)
    if not missing or (cancel is not None and cancel.cancelled):
        return
    from .lint import unknown_key_hint

    key = missing[0]
    columns = ", ".join(RECORD_FIELDS[:-1]) + f" and {RECORD_FIELDS[-1]}"
    raise UnknownFeature(
        f"filter {flt.text!r}: no record has a feature {key!r} (a record's own columns "
        f"are {columns}){unknown_key_hint(flt.text, _first_kinds(ds), key)}"
    )


def message_types_of(ds: Dataset) -> list[MessageType]:
    """The user's message types the dataset's files are read as (none: Examples)."""
    if ds.message_type is None:
        return []
    from ..decode.file_payloads import message_type_of

    found = [message_type_of(ds, n) for n in range(len(ds.files)) if len(ds.files[n].index)]
    return list({k.decoder: k for k in found if k is not None}.values())


def _is_path(kind: MessageType, name: str) -> bool:
    from .message_columns import check_path

    try:
        check_path(kind, name)
    except UserError:
        return False
    return True


def _first_kinds(ds: Dataset, n: int = 64) -> dict[str, str]:
    """The kind of each feature key of the first ``n`` intact records (for a hint)."""
    from ..decode import decode, features_of

    kinds: dict[str, str] = {}
    for i in ds.undamaged(range(min(n, len(ds)))).tolist():
        features = features_of(decode(ds.read(i)).payload) or {}
        kinds.update({key: fd.kind for key, fd in features.items() if key not in kinds})
    return kinds


def bare_record_names(text: str) -> frozenset[str]:
    """The record column names written bare in filter ``text`` (which may be features)."""
    try:
        return compile_filter(text).record_names
    except QueryError:
        return frozenset()


def resolved(ds: Dataset, flt: Filter, cancel: CancelToken | None = None) -> Filter:
    """``flt`` with its bare record column names decided for the indexed ``ds``."""
    if not flt.record_names or flt.resolved:
        return flt
    return compile_filter(flt.text, features_named(ds, flt.record_names, cancel))


def resolve_names(ds: Dataset, text: str) -> str:
    """``text`` with every bare record column name written out as what it means in
    ``ds``: ``f["length"]`` when ``ds`` has that feature, else ``record.length``. Parts
    of a dataset (splits on workers) then filter by the whole dataset's meaning."""
    require_features(ds, resolved(ds, compile_filter(text)))
    names = bare_record_names(text)
    if not names:
        return text
    features = features_named(ds, names)
    tree = ast.parse(text.strip(), mode="eval")  # it compiles: the names are bare ones

    class Rewrite(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:  # noqa: N802
            if node.id not in names:
                return node
            if node.id in features:
                return ast.Subscript(ast.Name("f", ast.Load()), ast.Constant(node.id), ast.Load())
            return ast.Attribute(ast.Name("record", ast.Load()), node.id, ast.Load())

    return ast.unparse(ast.fix_missing_locations(Rewrite().visit(tree)))
