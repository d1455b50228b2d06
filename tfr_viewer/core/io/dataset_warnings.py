"""Warnings about a dataset's files, as located facts: what kind, where (a file, a
folder, or a shard set's pattern) and what. Each is also its text, ``"WHERE: WHAT"``,
which is what the JSON outputs list under ``warnings`` and what a user reads, so that a
warning goes anywhere a line of text goes."""

from __future__ import annotations

from typing import Literal

Kind = Literal[
    "missing_shards", "left_out", "empty_file", "not_tfrecord", "other_versions", "message_type"
]


class DatasetWarning(str):
    """A warning: ``kind``, ``where`` and ``what``; its text is ``"where: what"``.
    Equal warnings are equal texts (so they are said once)."""

    kind: Kind
    where: str
    what: str

    def __new__(cls, kind: Kind, where: str, what: str) -> DatasetWarning:
        self = super().__new__(cls, f"{where}: {what}")
        self.kind, self.where, self.what = kind, where, what
        return self

    def __reduce__(self) -> tuple[type[DatasetWarning], tuple[Kind, str, str]]:
        return DatasetWarning, (self.kind, self.where, self.what)

    def about(self, path: str) -> bool:
        """Whether the warning is about the file ``path`` itself."""
        return self.kind in ("empty_file", "not_tfrecord") and self.where == path
