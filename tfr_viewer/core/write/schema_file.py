"""A data-QA schema (:mod:`..analyze.anomalies`) written as JSON through the output
layer: never over one of the inputs, an existing file only when allowed."""

from __future__ import annotations

from typing import Any

from .. import json_text
from .output import save_file


def save_schema(
    schema: dict[str, Any], path: str, inputs: list[str] | None = None, overwrite: bool = False
) -> None:
    """Write ``schema`` to ``path`` (never over one of ``inputs``; an existing file only
    with ``overwrite``). Raises ExportError."""
    text = json_text.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    save_file(path, text.encode("utf-8"), inputs=inputs or [], overwrite=overwrite, role="schema")
