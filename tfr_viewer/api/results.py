"""What the Python API's analyses return: the core's results, each with ``to_json()``
(what the command's ``--json`` prints) and ``to_pandas()`` (a table of it; pandas is
optional and imported only then)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..app.check import CheckReport
from ..app.tables import require_pandas
from ..app.verify import VerifyReport
from ..core import json_text
from ..core.analyze.stats_data import Stats


def plain(obj: Any) -> Any:
    """``obj`` exactly as the command line's JSON reads back (lists, floats as written,
    non-finite floats as their strings)."""
    return json_text.loads(json_text.dumps(obj))


Problems = VerifyReport  # ``verify``'s report, under the name the API has always given it


Findings = CheckReport  # ``check``'s report, under the name the API has always given it


@dataclass(frozen=True)
class Statistics:
    """``stats``' figures: every feature, the classes and the boxes."""

    stats: Stats

    def to_json(self) -> dict[str, Any]:
        return plain(self.stats.to_json())

    def to_pandas(self) -> Any:
        """A row a feature: its kinds, presence and value counts, and the numeric
        figures of its values where it has numbers."""
        rows = []
        for key, f in self.to_json()["features"].items():
            row: dict[str, Any] = {"feature": key}
            row.update({k: v for k, v in f.items() if not isinstance(v, (dict, list))})
            numeric = f.get("numeric") or {}
            row.update({k: v for k, v in numeric.items() if not isinstance(v, (dict, list))})
            rows.append(row)
        return require_pandas().DataFrame(rows)


@dataclass(frozen=True)
class Comparison:
    """``compare``'s report: drift per feature, keys in one only, images in both."""

    report: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return plain(self.report)

    def to_pandas(self) -> Any:
        rows = [
            {"feature": key, **{k: v for k, v in f.items() if not isinstance(v, (dict, list))}}
            for key, f in self.report["features"].items()
        ]
        return require_pandas().DataFrame(rows)
