"""Statistics of robot-learning episodes: how long they are, the range and spread of
each dimension of the action, the states and the reward over every step, and the
instructions given. ``stats --json`` carries them as ``episodes`` for a dataset of
episodes (:meth:`EpisodeStats.to_json`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..decode.episodes import Episode

BINS = 20  # bars of each histogram
TOP = 20  # instructions listed (the most given)


@dataclass
class EpisodeStats:
    """The figures of the episodes :meth:`add` was given, in order."""

    lengths: list[int] = field(default_factory=list)
    values: dict[str, list[np.ndarray]] = field(default_factory=dict)  # signal -> (steps, dims)
    instructions: Counter[str] = field(default_factory=Counter)

    def add(self, episode: Episode) -> None:
        self.lengths.append(episode.length)
        for name in episode.signals:
            values = np.asarray(episode.steps[name], dtype=np.float64)
            self.values.setdefault(name, []).append(values.reshape(len(values), -1))
        first = episode.instruction(0)
        if first is not None:
            self.instructions[first.strip()] += 1

    def to_json(self) -> dict[str, Any]:
        """``{episodes, steps, length: {min, max, mean, histogram}, signals: {name: [{min,
        max, mean, std, non_finite, histogram} a dimension]}, instructions: {distinct,
        empty, top: [[text, episodes]...]}}``; each histogram ``{edges, counts}``."""
        lengths = np.array(self.lengths, dtype=np.float64)
        out: dict[str, Any] = {
            "episodes": len(self.lengths),
            "steps": int(lengths.sum()),
            "length": _figures(lengths),
            "signals": {},
            "instructions": {
                "distinct": len(self.instructions),
                "empty": self.instructions.get("", 0),
                "top": [
                    [text, n]
                    for text, n in sorted(self.instructions.items(), key=lambda t: (-t[1], t[0]))[
                        :TOP
                    ]
                ],
            },
        }
        for name, parts in sorted(self.values.items()):
            widths = {p.shape[1] for p in parts}
            if len(widths) != 1:
                continue  # the steps do not agree on the dimensions: no column to figure
            every = np.concatenate(parts)
            out["signals"][name] = [_figures(every[:, d]) for d in range(every.shape[1])]
        return out


def _figures(values: np.ndarray) -> dict[str, Any]:
    finite = values[np.isfinite(values)]
    if not len(finite):
        return {
            "min": None,
            "max": None,
            "mean": None,
            "std": None,
            "non_finite": int(len(values)),
            "histogram": {"edges": [], "counts": []},
        }
    low, high = float(finite.min()), float(finite.max())
    counts, edges = np.histogram(
        finite, bins=BINS, range=(low, high) if high > low else (low - 0.5, high + 0.5)
    )
    return {
        "min": low,
        "max": high,
        "mean": float(finite.mean()),
        "std": float(finite.std()),
        "non_finite": int(len(values) - len(finite)),
        "histogram": {"edges": [float(e) for e in edges], "counts": counts.tolist()},
    }
