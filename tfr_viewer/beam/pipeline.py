"""Run a transform over a dataset's splits and bring its results back to the command.

Results are written by the pipeline as text (one base64-encoded pickle per line) to a
folder the command reads afterwards: a temporary folder for the direct runner, and a
folder under ``--temp_location`` (a bucket) for a cluster, read back through fsspec.
Pipeline options other than the runner are passed through as given (``--key=value``).
"""

from __future__ import annotations

import base64
import contextlib
import os
import pickle
import shutil
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..core.io.split_pool import Each
from ..core.user_error import UserError
from ..errors import UsageError
from . import RUNNERS


class BeamError(UserError):
    """The pipeline failed; the message says where and why, from the worker's error."""


def _failure(exc: BaseException, log: str) -> str:
    """The worker's own error (the last line that names an exception), not the
    runner's wrapping of it."""
    text = f"{exc}\n{log}"
    named = [
        line.strip()
        for line in text.splitlines()
        if ("Error:" in line or "Exception:" in line) and "Traceback" not in line
    ]
    reason = named[-1] if named else (str(exc).strip().splitlines() or [type(exc).__name__])[-1]
    return f"the pipeline failed: {reason[:500]}"


@contextlib.contextmanager
def _worker_log(capture: bool) -> Iterator[Callable[[], str]]:
    """Point file descriptor 2 at a temporary file while the body runs (when
    ``capture``); yields a function that returns what was written there."""
    if not capture:
        yield lambda: ""
        return
    with tempfile.TemporaryFile() as log:
        saved = os.dup(2)
        sys.stderr.flush()
        os.dup2(log.fileno(), 2)
        try:
            yield lambda: _tail(log)
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


def _tail(log: Any, limit: int = 1 << 16) -> str:
    log.flush()
    size = log.seek(0, os.SEEK_END)
    log.seek(max(0, size - limit))
    return bytes(log.read()).decode("utf-8", "replace")


def local_runner(runner: str) -> bool:
    """A runner on this machine (the direct runner, or one of its Beam class names)."""
    return "Direct" in RUNNERS.get(runner, runner)


def _given(extra: Sequence[str], name: str) -> str | None:
    """The value of ``--name=value`` among the pass-through options."""
    for flag in extra:
        if flag.startswith(f"--{name}="):
            return flag.split("=", 1)[1]
    return None


def options(runner: str, extra: Sequence[str]) -> Any:
    """PipelineOptions for ``runner``; the direct runner uses a process per core unless
    told otherwise."""
    from apache_beam.options.pipeline_options import PipelineOptions

    flags = [f"--runner={RUNNERS.get(runner, runner)}", *extra]
    if runner == "direct":
        if _given(extra, "direct_num_workers") is None:
            flags.append(f"--direct_num_workers={os.cpu_count() or 1}")
        if _given(extra, "direct_running_mode") is None:
            flags.append("--direct_running_mode=multi_processing")
    return PipelineOptions(flags)


def _encode(value: Any) -> str:
    return base64.b64encode(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)).decode()


def _decode(line: str) -> Any:
    return pickle.loads(base64.b64decode(line))  # noqa: S301 - written by our own pipeline


def _results_folder(runner: str, extra: Sequence[str]) -> tuple[str, bool]:
    """Where the results go, and whether it is a local temporary folder."""
    if local_runner(runner):
        return tempfile.mkdtemp(prefix="tfr-viewer-beam-"), True
    base = _given(extra, "temp_location")
    if not base:
        raise UsageError(
            f"--runner {runner} needs --temp_location=URL (a bucket folder the workers and "
            "this machine can both reach): the results are written there"
        )
    return f"{base.rstrip('/')}/tfr-viewer-{uuid.uuid4().hex}", False


def run(refs: Sequence[Any], transform: Any, runner: str, extra: Sequence[str]) -> list[Any]:
    """Apply ``transform`` to the split references on ``runner``; its output elements."""
    import apache_beam as beam
    import fsspec

    folder, local = _results_folder(runner, extra)
    try:
        # the direct runner's worker processes log to this process's stderr: kept aside,
        # and shown only when the pipeline fails
        with _worker_log(local_runner(runner)) as log:
            try:
                with beam.Pipeline(options=options(runner, extra)) as p:
                    (
                        p
                        | "Splits" >> beam.Create(list(refs))  # spread over the workers
                        | "Work" >> transform
                        | "Encode" >> beam.Map(_encode)
                        | "Write"
                        >> beam.io.WriteToText(f"{folder}/result", file_name_suffix=".txt")
                    )
            except Exception as exc:  # a worker's failure, after the runner's retries
                raise BeamError(_failure(exc, log())) from exc
        out: list[Any] = []
        for f in fsspec.open_files(f"{folder}/result*.txt", "rt"):
            with f as text:
                out.extend(_decode(line) for line in text.read().splitlines() if line)
        return out
    finally:
        if local:
            shutil.rmtree(folder, ignore_errors=True)


def beam_each(runner: str, extra: Sequence[str], spec: Any = None) -> Each:
    """An :data:`~tfr_viewer.core.io.split_pool.Each` that runs a pipeline on ``runner``:
    ``fn`` of every item on its workers, which read records as the message type
    ``spec`` names (:class:`~tfr_viewer.beam.transforms.Typed`)."""
    import apache_beam as beam

    from .transforms import Typed

    def each(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
        return run(items, beam.Map(Typed(fn, spec)), runner, extra)

    return each
