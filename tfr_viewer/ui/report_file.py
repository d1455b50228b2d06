"""Analyze › Open Report…: the JSON of ``stats --json`` or ``check --json`` (made on this
machine or by an Apache Beam job) shown in the Statistics or Findings panel."""

from __future__ import annotations

import json
from typing import Any


class ReportError(ValueError):
    """A file that is not a report of ``stats`` or ``check``; the message says why."""


def load_report(path: str) -> tuple[str, dict[str, Any]]:
    """``("stats", report)`` or ``("check", report)`` for the JSON file at ``path``."""
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except OSError as exc:
        raise ReportError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ReportError(f"{path}: not JSON ({exc}); choose the output of --json") from exc
    if isinstance(report, dict) and isinstance(report.get("findings"), list):
        return "check", report
    if (
        isinstance(report, dict)
        and isinstance(report.get("features"), dict)
        and "records" in report
    ):
        return "stats", report
    raise ReportError(
        f"{path}: neither a `stats --json` nor a `check --json` report (it has no "
        '"features" or "findings")'
    )
