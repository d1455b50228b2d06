"""What the record-sizes analysis found: the payload bytes of every record, and the
largest records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Largest:
    record: int
    length: int


@dataclass(frozen=True)
class RecordSizesReport:
    records: int
    total: int
    smallest: int
    largest: tuple[Largest, ...]
    limit: int

    @property
    def failed(self) -> bool:
        """A record past the limit (0: none)."""
        return bool(self.limit) and any(r.length > self.limit for r in self.largest)

    def to_json(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "total": self.total,
            "smallest": self.smallest,
            "largest": [{"record": r.record, "length": r.length} for r in self.largest],
            "limit": self.limit,
            "failed": self.failed,
        }

    def to_text(self) -> str:
        rows = ", ".join(f"#{r.record} {r.length:,} B" for r in self.largest)
        return f"{self.records:,} records, {self.total:,} bytes of payload; largest: {rows}"
