"""The runs of a log folder's event files and why they are as big as they are: the
``runs`` analysis of the registry (``tfr-viewer runs PATH... [--json]``,
``view.analyze("runs")``, the window's run view), and ``info --json``'s ``events``.

Each run: its files, records and bytes; its tags (plugin, points, first and last step,
the bytes each takes and its share of all the bytes); the bytes by plugin and by kind
of event (summaries, graphs, run metadata, the file version, session logs, records
that are no event). Shares are of the bytes of every record read, frames whole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.analyze.event_log import EventLog, TagEntry
from ..core.io import Dataset
from .task_state import QUIET, TaskState


@dataclass(frozen=True)
class Share:
    """One line of a breakdown: its ``name`` (a kind of event or a plugin), how many
    events or tags, points, bytes, and the share of all the bytes."""

    name: str
    count: int
    points: int
    bytes: int
    share: float


@dataclass(frozen=True)
class RunSummary:
    """One run: its ``name``, ``records`` and ``bytes``, its ``tags`` (largest first),
    and its bytes by ``plugins`` and by ``kinds`` of event (largest first)."""

    name: str
    records: int
    bytes: int
    tags: tuple[TagEntry, ...]
    plugins: tuple[Share, ...]
    kinds: tuple[Share, ...]


@dataclass(frozen=True)
class RunsReport:
    """Every run of the dataset's event files; ``bytes`` of every record read,
    ``damaged`` records left out."""

    runs: tuple[RunSummary, ...]
    bytes: int
    damaged: int = 0
    flagged: int = 0  # records read although their CRC is wrong

    def share(self, size: float) -> float:
        return size / self.bytes if self.bytes else 0.0

    def to_json(self) -> dict[str, Any]:
        """``runs --json`` (and ``info --json``'s ``events``): ``{bytes, damaged (records
        cut short, left out), flagged (records read although their CRC is wrong), runs:
        [{run, records, bytes, share, kinds: [{kind, events, bytes, share}], plugins:
        [{plugin, tags, points, bytes, share}], tags: [{tag, plugin, points,
        first_step, last_step, bytes, share, record}]}]}``."""
        from ..core import json_text

        return json_text.read_back(
            {
                "bytes": self.bytes,
                "damaged": self.damaged,
                "flagged": self.flagged,
                "runs": [self._run_json(run) for run in self.runs],
            }
        )

    def _run_json(self, run: RunSummary) -> dict[str, Any]:
        return {
            "run": run.name,
            "records": run.records,
            "bytes": run.bytes,
            "share": self.share(run.bytes),
            "kinds": [
                {"kind": k.name, "events": k.count, "bytes": k.bytes, "share": k.share}
                for k in run.kinds
            ],
            "plugins": [
                {
                    "plugin": p.name,
                    "tags": p.count,
                    "points": p.points,
                    "bytes": p.bytes,
                    "share": p.share,
                }
                for p in run.plugins
            ],
            "tags": [
                {
                    "tag": t.tag,
                    "plugin": t.plugin,
                    "points": t.points,
                    "first_step": t.first_step,
                    "last_step": t.last_step,
                    "bytes": round(t.bytes),
                    "share": self.share(t.bytes),
                    "record": t.record,
                }
                for t in run.tags
            ],
        }

    def to_text(self) -> str:
        """A block a run: its size, its kinds of event, its tags (largest first)."""
        from ..core.text import human_bytes, plural

        if not self.runs:
            return "no event files: the dataset holds no TensorBoard events"
        lines = []
        for run in self.runs:
            lines.append(
                f"run {run.name}: {plural(run.records, 'record')}, {human_bytes(run.bytes)} "
                f"({self.share(run.bytes):.1%})"
            )
            lines.append("  events by kind:")
            for k in run.kinds:
                lines.append(
                    f"    {k.name:<20} {plural(k.count, 'event'):>16} "
                    f"{human_bytes(k.bytes):>10} {k.share:>7.1%}"
                )
            if run.plugins:
                lines.append("  summaries by plugin:")
            for p in run.plugins:
                lines.append(
                    f"    {p.name:<20} {plural(p.count, 'tag'):>16} "
                    f"{human_bytes(p.bytes):>10} {p.share:>7.1%}"
                )
            width = max((len(t.tag) for t in run.tags), default=3)
            lines.append("  tags, largest first:" if run.tags else "  no tags")
            for t in run.tags:
                lines.append(
                    f"    {t.tag:<{width}}  {t.plugin:<10} {plural(t.points, 'point'):>14}  "
                    f"steps {t.first_step}..{t.last_step}  {human_bytes(round(t.bytes)):>10} "
                    f"{self.share(t.bytes):>7.1%}"
                )
        if self.damaged:
            lines.append(f"{plural(self.damaged, 'damaged record')} left out")
        if self.flagged:
            its = "its" if self.flagged == 1 else "their"
            lines.append(f"{plural(self.flagged, 'record')} read although {its} CRC is wrong")
        return "\n".join(lines)


def runs_of(log: EventLog, damaged: int = 0, flagged: int = 0) -> RunsReport:
    """The report of a read log."""
    total = log.total_bytes()

    def share(size: float) -> float:
        return size / total if total else 0.0

    runs = []
    for name in log.runs():
        tags = sorted(
            (t for (run, _), t in log.tags.items() if run == name),
            key=lambda t: (-t.bytes, t.tag),
        )
        plugins: dict[str, list[float]] = {}
        for t in tags:
            counts = plugins.setdefault(t.plugin, [0, 0, 0.0])
            counts[0] += 1
            counts[1] += t.points
            counts[2] += t.bytes
        kinds = [
            Share(kind, counts[0], 0, counts[1], share(counts[1]))
            for (run, kind), counts in log.kinds.items()
            if run == name
        ]
        records = sum(k.count for k in kinds)
        runs.append(
            RunSummary(
                name,
                records,
                sum(k.bytes for k in kinds),
                tuple(tags),
                tuple(
                    sorted(
                        (
                            Share(p, int(c[0]), int(c[1]), round(c[2]), share(c[2]))
                            for p, c in plugins.items()
                        ),
                        key=lambda s: (-s.bytes, s.name),
                    )
                ),
                tuple(sorted(kinds, key=lambda s: (-s.bytes, s.name))),
            )
        )
    return RunsReport(tuple(r for r in runs if r.records), total, damaged, flagged)


@dataclass(frozen=True)
class RunsRequest:
    """Every run of the dataset's event files, with its tags and its bytes."""

    def run(self, ds: Dataset, state: TaskState = QUIET) -> RunsReport:
        from .event_log import read_log

        read = read_log(ds, state, scalars=False)
        return runs_of(read.log, read.damaged, len(read.flagged))
