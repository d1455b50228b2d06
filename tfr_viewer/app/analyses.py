"""The registry of analyses every front end shows without code of its own: an analysis
is an operation (a frozen request dataclass with ``run(dataset, state) -> report``), a
report (``to_json()``, ``to_text()``, and ``failed`` when it can fail) and a panel (a
``QWidget`` made as ``Class(parent)`` with ``set_report(report)``): three modules and
one :data:`ANALYSES` entry. Then:

- the command line has ``tfr-viewer NAME PATH... [--json] [--FIELD VALUE...]``, one
  option per field of the request (typed as its default; a bool field is a flag; its
  ``metadata["help"]`` the option's help), exit 1 when the report ``failed``;
- the Python API has ``tfv.open(path).analyze(NAME, **fields)``, the report;
- the window has Analyze › Run TITLE, which runs the request (its options at their
  defaults) in its standby process on the records as indexed and shows the report in
  the analysis' dock.

A name must be no command's: a command of :data:`tfr_viewer.cli.COMMANDS` keeps its
name.

Entries name their modules as ``"module:Attribute"`` strings, imported only when the
analysis is used: listing the registry costs no import."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..core.user_error import UserError

if TYPE_CHECKING:
    from ..core.io import Dataset
    from .task_state import TaskState


class Report(Protocol):
    """What an analysis found: its JSON (the command line's ``--json``) and its text."""

    def to_json(self) -> dict[str, Any]: ...

    def to_text(self) -> str: ...


@dataclass(frozen=True)
class Analysis:
    """One analysis: ``name`` is its command and its name in the API, ``title`` its
    menu item and dock title, ``help`` its one line; ``request`` and ``panel`` are
    ``"module:Class"`` (``panel`` None: no window part); ``area``, the dock's side."""

    name: str
    title: str
    help: str
    request: str
    panel: str | None = None
    area: Literal["left", "right", "bottom"] = "right"

    def request_class(self) -> type:
        return load(self.request)  # type: ignore[no-any-return]

    def options(self) -> tuple[dataclasses.Field[Any], ...]:
        """The request's fields: the options the front ends set."""
        return dataclasses.fields(self.request_class())

    def make_request(self, options: Mapping[str, Any]) -> Any:
        """The request with ``options`` (the others at their defaults); an option the
        request has no field for, or a value it refuses, is one :class:`UserError`
        (the request's own, when it raises one)."""
        known = {f.name for f in self.options()}
        unknown = sorted(set(options) - known)
        if unknown:
            raise UserError(
                f"{self.name} has no option {unknown[0]!r}; its options: "
                + (", ".join(sorted(known)) or "none")
            )
        try:
            return self.request_class()(**options)
        except UserError:
            raise  # says what is wrong already
        except (TypeError, ValueError) as exc:
            raise UserError(f"{self.name}: {exc}") from None

    def run(
        self, ds: Dataset, options: Mapping[str, Any], state: TaskState | None = None
    ) -> Report:
        """The report of this analysis of ``ds`` with ``options``."""
        from .task_state import QUIET

        report: Report = self.make_request(options).run(ds, state or QUIET)
        return report


def load(path: str) -> Any:
    """The attribute ``"module:Attribute"`` names, its module imported."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


# One entry per analysis (see the module's description).
ANALYSES: list[Analysis] = [
    Analysis(
        "episodes",
        "Episodes",
        "each robot-learning episode: its split, length, instruction, how it ends, its "
        "reward and findings",
        "tfr_viewer.app.episode_table:EpisodesRequest",
        "tfr_viewer.ui.panels.episode_table:EpisodeTable",
        area="bottom",
    ),
    Analysis(
        "runs",
        "Runs",
        "the runs of TensorBoard event files: each tag's points, steps and bytes, and the "
        "bytes by plugin and kind of event",
        "tfr_viewer.app.event_runs:RunsRequest",
    ),
]


def by_name(name: str) -> Analysis | None:
    return next((a for a in ANALYSES if a.name == name), None)


def named(name: str) -> Analysis:
    """The analysis ``name``; one :class:`UserError` naming those there are when none
    is."""
    found = by_name(name)
    if found is None:
        there = ", ".join(a.name for a in ANALYSES) or "none is registered"
        raise UserError(f"no analysis is named {name!r} (analyses: {there})")
    return found


def failed(report: Report) -> bool:
    """Whether ``report`` fails (exit 1 on the command line)."""
    return bool(getattr(report, "failed", False))
