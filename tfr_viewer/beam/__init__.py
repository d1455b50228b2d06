"""Batch commands as Apache Beam pipelines, over the same per-split core functions as the
local commands, so that a laptop and a cluster give the same answer.

This package is the only code that imports Apache Beam (the extra
``tfr-viewer[beam]``); nothing else imports this package except a command given
``--runner``.
"""

from __future__ import annotations

from ..errors import UsageError

RUNNERS = {
    "direct": "DirectRunner",
    "dataflow": "DataflowRunner",
    "flink": "FlinkRunner",
    "spark": "SparkRunner",
}


def require_beam() -> None:
    """Raise a UsageError naming the extra when Apache Beam is not installed."""
    import logging

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # Beam warns at import about clients of other clouds
    try:
        import apache_beam  # noqa: F401
    except ImportError as exc:
        raise UsageError(
            f"--runner needs Apache Beam, which is not installed ({exc}); "
            "pip install 'tfr-viewer[beam]'"
        ) from exc
    finally:
        root.setLevel(level)
