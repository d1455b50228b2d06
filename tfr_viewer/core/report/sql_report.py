"""The HTML report of a SQL query (``sql --html``, the SQL dock's Save as HTML…): the
query, the tables' warnings and the result as a table (its first :data:`ROWS` rows,
each value as the table of text shows it), from ``sql --json``."""

from __future__ import annotations

from typing import Any

from ..analyze.sql_values import short
from .page import esc, page, table

ROWS = 5_000  # rows of a result the report holds
WIDTH = 120  # characters a value shows at most


def sql_html(result: dict[str, Any], title: str = "SQL") -> str:
    """The report of ``result`` (``sql --json``)."""
    rows = result.get("rows", [])
    columns = [f"{esc(c['name'])}<br><span class='hint'>{esc(c['type'])}</span>"
               for c in result.get("columns", [])]  # fmt: skip
    cut = f" (the first {ROWS:,} shown)" if len(rows) > ROWS else ""
    body = [f"<h2>Query</h2><pre class='mono'>{esc(result.get('query', ''))}</pre>"]
    for warning in result.get("warnings", []):
        body.append(f"<p class='warning'>{esc(warning)}</p>")
    body.append(f"<h2>Result: {len(rows):,} rows{cut}</h2>")
    body.append(table(columns, ([esc(short(v, WIDTH)) for v in row] for row in rows[:ROWS])))
    return page(title, "".join(body))
