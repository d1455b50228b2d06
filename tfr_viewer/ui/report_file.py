"""Analyze › Open Report…: the JSON of ``stats --json`` or ``check --json`` (made on this
machine or by an Apache Beam job) shown in the Statistics or Findings panel."""

from __future__ import annotations

from typing import Any

from ..core.io.side_files import SideFileError, read_json_side_file

MAX_REPORT = 256 << 20  # a saved report past this is not one (its findings would not fit)


class ReportError(ValueError):
    """A file that is not a report of ``stats`` or ``check``; the message says why."""


def load_report(path: str) -> tuple[str, dict[str, Any]]:
    """``("stats", report)`` or ``("check", report)`` for the JSON file at ``path``,
    read as every file beside a dataset is (a regular file of a bounded size, whatever a
    hostile one holds: :func:`~..core.io.side_files.read_json_side_file`)."""
    try:
        report = read_json_side_file(path, "report", MAX_REPORT)
    except SideFileError as exc:
        raise ReportError(f"{exc}; choose the output of --json") from None
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
