"""``stats``: the statistics of every feature, the classes and the boxes.

:func:`statistics` computes them here or on processes of this machine, of a whole
dataset or of a view's records, with the class names its folder describes;
:class:`StatsReport` is what it found, the same for the command line's ``--json``, the
Python API and the window."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.analyze.stats_data import Stats
from ..core.io import Dataset
from .indexing import index
from .tables import require_pandas
from .task_state import QUIET, TaskState

if TYPE_CHECKING:
    import numpy as np

    from ..core.analyze.episode_stats import EpisodeStats
    from ..core.analyze.stats_summary import StatsSummary


@dataclass(frozen=True)
class StatsReport:
    """``stats``' figures: every feature, the classes and the boxes (``stats``, the
    core's mergeable figures)."""

    stats: Stats
    episodes: EpisodeStats | None = None  # for a dataset of robot-learning episodes

    def to_json(self) -> dict[str, Any]:
        """``stats --json``, as JSON reads it back (floats as written, non-finite ones as
        their strings); with ``episodes`` for a dataset of episodes."""
        from ..core import json_text

        out = self.stats.to_json()
        if self.episodes is not None:
            out["episodes"] = self.episodes.to_json()
        return json_text.read_back(out)

    def summary(self) -> StatsSummary:
        """The figures of :meth:`to_json`, typed (what the window's panels show)."""
        from ..core.analyze.stats_summary import StatsSummary

        return StatsSummary.from_json(self.to_json())

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
class StatsRequest:
    """``stats`` as a front end asks it: the processes to use."""

    jobs: int = 1

    def run(self, ds: Dataset, state: TaskState = QUIET) -> StatsReport:
        return statistics(ds, state, jobs=self.jobs)


def statistics(
    ds: Dataset,
    state: TaskState = QUIET,
    *,
    jobs: int = 1,
    shown: np.ndarray | None = None,
) -> StatsReport:
    """The statistics of ``ds`` (of the ``shown`` records, when given): here, or split
    by split on ``jobs`` processes; a header-only index first, the payload CRCs checked
    as the payloads are read."""
    from ..core.analyze.stats import dataset_stats, pooled_stats, records_stats
    from ..core.analyze.stats_data import named

    index(ds, verify=False, state=state)
    if shown is not None:
        with state.phase("statistics", len(shown)) as step:
            stats = records_stats(ds, shown)
            step(len(shown))
    elif jobs > 1:
        with state.phase("statistics", 0, unit="splits") as step:
            stats = pooled_stats(ds, jobs, step)
    else:
        with state.phase("statistics", len(ds)) as step:
            stats = dataset_stats(ds, progress=step)
    paths = [f.path for f in ds.files]
    return StatsReport(named(stats, paths), episode_stats(ds, state, shown))


def named_report(ds: Dataset, stats: Stats, state: TaskState = QUIET) -> StatsReport:
    """The report of figures computed elsewhere (on Beam), with the folder's names and
    the episodes' figures (read here, so that they are the same wherever the rest ran)."""
    from ..core.analyze.stats_data import named

    return StatsReport(named(stats, [f.path for f in ds.files]), episode_stats(ds, state))


def episode_stats(
    ds: Dataset, state: TaskState = QUIET, shown: np.ndarray | None = None
) -> EpisodeStats | None:
    """The figures of the episodes of ``ds`` (of the ``shown`` records), when its
    records are episodes; None otherwise."""
    import numpy as np

    from ..core.analyze.schema import first_keys
    from ..core.decode.episodes import is_episode

    if not is_episode(first_keys(ds)):
        return None
    from ..core.analyze.episode_stats import EpisodeStats
    from .episodes import EpisodeReader

    records = np.arange(len(ds), dtype=np.int64) if shown is None else np.asarray(shown)
    records = ds.undamaged(records).tolist()
    reader, figures = EpisodeReader(ds), EpisodeStats()
    with state.phase("episode statistics", len(records)) as step:
        for done, record in enumerate(records):
            if state.cancelled:
                break
            episode = reader.episode(record)
            if episode is not None:
                figures.add(episode)
            if done % 64 == 0:
                step(done)
    return figures
