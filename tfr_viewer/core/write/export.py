"""Write a subset of a dataset to new TFRecord files, atomically and verified.

Every output goes through the output layer (:mod:`.output`): its target is checked
(never a source, never a device, FIFO or folder, replaced only when allowed), it is
written to a temporary file in the target folder, re-read and checked (every CRC and
the record count), and only when all outputs are good are they moved into place
together. Cancelling or failing leaves no partial files, and temporary files left by a
killed export are removed by the next export into the same folder. Unedited records
are copied frame and all, byte for byte.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..io import (
    Cancelled,
    CancelToken,
    Compression,
    Dataset,
    RecordWriter,
    Source,
    encode_frame,
)
from ..io.remote import is_url
from ..io.source_errors import FileChanged
from .output import TMP_SUFFIX, ExportError, OutputJob, disk_errors, input_ids, open_temporary


@dataclass(frozen=True)
class ExportOptions:
    out: str
    compression: Compression = Compression.NONE
    shards: int | None = None
    max_shard_bytes: int | None = None
    shuffle_seed: int | None = None
    split: tuple[tuple[str, float], ...] = ()
    overwrite: bool = False  # replace outputs that exist; refused otherwise


@dataclass(frozen=True)
class ExportSummary:
    files: tuple[str, ...]
    records: int
    bytes: int
    skipped_damaged: int
    seconds: float
    per_file: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


def parse_split(text: str) -> tuple[tuple[str, float], ...]:
    """``train=0.8,val=0.2`` -> (("train", 0.8), ("val", 0.2)); fractions must sum to 1."""
    parts = []
    for item in text.split(","):
        name, _, frac = item.partition("=")
        if not name.strip() or not frac:
            raise ValueError(f"bad split {item!r}: write name=fraction, e.g. train=0.8,val=0.2")
        try:
            value = float(frac)
        except ValueError:
            raise ValueError(f"bad fraction {frac!r} in {item!r}") from None
        if value <= 0:
            raise ValueError(f"the fraction of {name!r} must be above 0")
        parts.append((name.strip(), value))
    total = sum(f for _, f in parts)
    if abs(total - 1.0) > 1e-6:
        raise ValueError(f"the split fractions add up to {total:g}, not 1")
    return tuple(parts)


def _named(out: str, split_name: str | None) -> str:
    if not split_name:
        return out
    folder, base = os.path.split(out)
    stem, dot, ext = base.partition(".")
    return os.path.join(folder, f"{stem}-{split_name}{dot}{ext}")


def _groups(records: np.ndarray, options: ExportOptions) -> list[tuple[str | None, np.ndarray]]:
    return split_groups(records, options.split, options.shuffle_seed)


def split_groups(
    records: np.ndarray, split: tuple[tuple[str, float], ...], seed: int | None = None
) -> list[tuple[str | None, np.ndarray]]:
    """``records`` (shuffled with ``seed``, if one is given) cut into the named parts
    ``split`` gives fractions of, in order (one part, unnamed, without a split)."""
    if seed is not None:
        records = np.random.default_rng(seed).permutation(records)
    if not split:
        return [(None, records)]
    bounds = np.round(np.cumsum([f for _, f in split]) * len(records)).astype(int)
    starts = np.concatenate([[0], bounds[:-1]])
    return [(name, records[s:e]) for (name, _), s, e in zip(split, starts, bounds, strict=True)]


def shard_count(options: ExportOptions, records: int) -> int:
    """The files ``--shards N`` makes of ``records`` records: never more than there are
    records (one empty file when there are none)."""
    return min(options.shards or 1, max(records, 1))


def _shards(ds: Dataset, records: np.ndarray, options: ExportOptions) -> list[np.ndarray]:
    if options.shards:
        return list(np.array_split(records, shard_count(options, len(records))))
    if options.max_shard_bytes:
        sizes = np.array([ds.ref(int(i)).length + 16 for i in records], dtype=np.int64)
        out, start, total = [], 0, 0
        for i, size in enumerate(sizes.tolist()):
            if total and total + size > options.max_shard_bytes:
                out.append(records[start:i])
                start, total = i, 0
            total += size
        out.append(records[start:])
        return out
    return [records]


def _pattern(out: str, split: str | None, shard: int, shards: int) -> str:
    try:
        return out.format(split=split or "", shard=f"{shard:05d}", shards=f"{shards:05d}")
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(
            f"bad name pattern {out!r} ({exc}); use {{split}}, {{shard}} and {{shards}}"
        ) from None


def plan(ds: Dataset, records: np.ndarray, options: ExportOptions) -> list[tuple[str, np.ndarray]]:
    """The output files and the records each receives, in order.

    ``options.out`` is a path (shards get ``-00000-of-00004``, splits ``-name`` before the
    extension) or a pattern with ``{split}``, ``{shard}`` and ``{shards}``, such as
    ``out/{split}-{shard}-of-{shards}.tfrecord``."""
    files = []
    for name, group in _groups(records, options):
        shards = _shards(ds, group, options)
        if "{" in options.out:
            n = len(shards)
            files += [(_pattern(options.out, name, k, n), part) for k, part in enumerate(shards)]
            continue
        target = _named(options.out, name)
        if len(shards) == 1 and not options.shards:
            files.append((target, shards[0]))
        else:
            n = len(shards)
            files += [(f"{target}-{k:05d}-of-{n:05d}", part) for k, part in enumerate(shards)]
    return files


def planned_names(options: ExportOptions, count: int) -> list[str]:
    """The file names an export of ``count`` records would write (for previews; with a
    maximum shard size, the count of shards is only known while writing, so one name
    with ``NNNNN`` stands for them)."""
    if options.max_shard_bytes and not options.shards:
        base = [_named(options.out, name) for name, _ in _groups(np.arange(count), options)]
        return [f"{b}-NNNNN-of-NNNNN" for b in base]
    files = []
    for name, group in _groups(np.arange(count), options):
        shards = (
            np.array_split(group, shard_count(options, len(group))) if options.shards else [group]
        )
        if "{" in options.out:
            files += [_pattern(options.out, name, k, len(shards)) for k in range(len(shards))]
        elif len(shards) == 1 and not options.shards:
            files.append(_named(options.out, name))
        else:
            target = _named(options.out, name)
            files += [f"{target}-{k:05d}-of-{len(shards):05d}" for k in range(len(shards))]
    return files


def verify_written(path: str, expected: int) -> None:
    """Read the written ``path`` back, every CRC checked: ExportError unless it holds
    ``expected`` whole records."""
    with Dataset([path]) as check:
        check.index(verify=True)
        problems = check.problems()
        if problems or len(check) != expected:
            raise ExportError(
                f"{path}: the written file did not verify ({len(check)} of "
                f"{expected} records, {len(problems)} problems); nothing was "
                "replaced — check the disk and try again"
            )


@dataclass(frozen=True)
class FileTask:
    """One output file, self-contained enough to write in another process: its target,
    its temporary name, and the frames it receives (file number into ``paths``, byte
    offset, payload length), with their global record numbers (for edited payloads)."""

    number: int
    target: str
    temp: str
    paths: tuple[str, ...]
    records: np.ndarray
    files: np.ndarray
    offsets: np.ndarray
    lengths: np.ndarray
    compression: Compression

    def __len__(self) -> int:
        """The records it receives."""
        return len(self.records)


@dataclass
class ExportPlan:
    """The output files of an export, checked, their temporaries made: ``job`` holds
    the local ones (None for outputs in a bucket)."""

    tasks: list[FileTask]
    chosen: int  # records asked for
    kept: int  # of those, the intact ones
    job: OutputJob | None = None
    warnings: tuple[str, ...] = ()


def _capped(options: ExportOptions, records: np.ndarray) -> tuple[str, ...]:
    if not options.shards:
        return ()
    sizes = [len(g) for _, g in _groups(records, options)]
    if all(options.shards <= max(n, 1) for n in sizes):
        return ()
    return (
        f"--shards {options.shards:,} asks for more files than there are records "
        f"({', '.join(f'{n:,}' for n in sizes)}); each file holds at least one record, so "
        "fewer files were written",
    )


def _check_bucket_targets(ds: Dataset, names: Sequence[str], overwrite: bool) -> None:
    from . import bucket_output

    sources = {f.path for f in ds.files}
    for target in names:
        if target in sources:
            raise ExportError(f"{target}: refusing to overwrite a source; choose another name")
        if not overwrite and bucket_output.exists(target):
            raise ExportError(
                f"{target} exists already; choose another name, or allow replacing it (--overwrite)"
            )


def plan_export(
    ds: Dataset,
    records: Sequence[int] | np.ndarray,
    options: ExportOptions,
    *,
    remote: bool = False,
    inputs: Sequence[str] = (),
    keep: frozenset[str] = frozenset(),
    job: OutputJob | None = None,
) -> ExportPlan:
    """Plan an export of ``records`` (global numbers, in this order) of an indexed,
    verified dataset: damaged records are left out, every target is checked by the
    output layer (:mod:`.output`; the dataset's files and ``inputs`` may not be
    written), temporaries left by killed exports are removed (but those in ``keep``)
    and the new temporaries are made. Raises :class:`ExportError`. With ``remote``,
    targets may be URLs (:mod:`.bucket_output`: for jobs on a cluster). Discard the
    plan (:func:`discard`) unless it is committed. With ``job``, the local targets join
    that job (which then also holds other files of the work) and its owner commits."""
    from .bucket_output import beside, name_of

    chosen = np.asarray(records, dtype=np.int64)
    kept = ds.undamaged(chosen)
    try:
        files = plan(ds, kept, options)
    except ValueError as exc:
        raise ExportError(str(exc)) from None
    names = [t for t, _ in files]
    urls = [t for t in names if remote and is_url(t)]
    if urls:
        if len(set(urls)) != len(urls):
            raise ExportError(
                f"the name pattern {options.out!r} gives several files the same "
                "name; add {shard} (and {split} when splitting)"
            )
        _check_bucket_targets(ds, urls, options.overwrite)
    local = [t for t in names if t not in set(urls)]
    own = job is None
    if job is None:
        job = OutputJob.over([f.path for f in ds.files] + list(inputs), options.overwrite)
    else:
        job.inputs = job.inputs | input_ids(f.path for f in ds.files)
    job.plan_all(local)
    sources = frozenset(os.path.realpath(f.path) for f in ds.files if not is_url(f.path))
    job.clean_folders(sources | keep)
    paths = tuple(f.path for f in ds.files)
    tasks = []
    try:
        for n, (target, part) in enumerate(files):
            if target in urls:
                temp = beside(target, f".{name_of(target)}.{os.getpid()}.{n}{TMP_SUFFIX}")
            else:
                temp = job.temporary(target)
            numbers, offsets, lengths, _ = ds.frame_facts(part)
            tasks.append(
                FileTask(
                    n, target, temp, paths, part, numbers, offsets, lengths, options.compression
                )
            )
    except BaseException:
        job.discard()
        raise
    return ExportPlan(tasks, len(chosen), len(kept), job if own else None, _capped(options, kept))


def write_file(
    task: FileTask,
    readers: Callable[[int], Callable[[int, int], bytes]],
    *,
    payloads: Mapping[int, bytes] | None = None,
    tick: Callable[[], None] | None = None,
) -> int:
    """Write ``task`` to its temporary file and verify it (every CRC, the count);
    ``readers(file_number)`` reads a frame of a source. The bytes written; raises
    :class:`ExportError`. ``tick()`` is called after every 1,024 records. A URL is
    written and verified on local disk, then uploaded."""
    from .bucket_output import local_copy

    with local_copy(task.temp) as local:
        written = _write_local(task, local, readers, payloads, tick)
        verify_written(local, len(task.records))
    return written


def _write_local(
    task: FileTask,
    path: str,
    readers: Callable[[int], Callable[[int, int], bytes]],
    payloads: Mapping[int, bytes] | None,
    tick: Callable[[], None] | None,
) -> int:
    read = {}
    with disk_errors(task.target), RecordWriter(open_temporary(path), task.compression) as writer:
        for done, (i, number, offset, length) in enumerate(
            zip(
                task.records.tolist(),
                task.files.tolist(),
                task.offsets.tolist(),
                task.lengths.tolist(),
                strict=True,
            ),
            1,
        ):
            if payloads is not None and i in payloads:
                writer.write_frame(encode_frame(payloads[i]))
            else:  # the verified frame, byte for byte
                if number not in read:
                    read[number] = readers(number)
                frame = read[number](offset, length + 16)
                if len(frame) != length + 16:  # the source no longer holds it
                    raise _changed(task.paths[number])
                writer.write_frame(frame)
            if tick is not None and done % 1024 == 0:
                tick()
        writer.close(sync=True)
        return os.path.getsize(path)


def _changed(path: str) -> FileChanged:
    """A source that no longer holds a frame its index names."""
    if is_url(path):
        return FileChanged.while_read(path, "a record came back short")
    return FileChanged.of(path, os.path.getsize(path) if os.path.exists(path) else None)


def write_task(task: FileTask) -> int:
    """:func:`write_file` in a process of its own: the sources opened by path."""
    from ..io.dataset import open_path

    opened: dict[int, Source] = {}
    try:
        return write_file(task, lambda n: opened.setdefault(n, open_path(task.paths[n])).reader())
    finally:
        for source in opened.values():
            source.close()


def commit(ep: ExportPlan) -> None:
    """Move every written, verified temporary into place: the local ones all or none
    (:meth:`.output.OutputJob.commit`), then the objects in a bucket."""
    from . import bucket_output

    if ep.job is not None:
        ep.job.commit()
    for task in ep.tasks:
        if is_url(task.temp):
            bucket_output.move(task.temp, task.target)


def discard(ep: ExportPlan) -> None:
    """Remove what temporaries exist (after a failure or cancel)."""
    from . import bucket_output

    if ep.job is not None:
        ep.job.discard()
    for task in ep.tasks:
        if is_url(task.temp):
            with contextlib.suppress(OSError):  # RemoteError is one too
                bucket_output.remove(task.temp)


def summary_of(ep: ExportPlan, written: int, t0: float) -> ExportSummary:
    """The summary of a committed export plan."""
    return ExportSummary(
        tuple(t.target for t in ep.tasks),
        ep.kept,
        written,
        ep.chosen - ep.kept,
        time.perf_counter() - t0,
        {t.target: len(t.records) for t in ep.tasks},
        ep.warnings,
    )


def export(
    ds: Dataset,
    records: Sequence[int] | np.ndarray,
    options: ExportOptions,
    *,
    payloads: Mapping[int, bytes] | None = None,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
    inputs: Sequence[str] = (),
    keep: frozenset[str] = frozenset(),
    job: OutputJob | None = None,
) -> ExportSummary:
    """Write ``records`` (global numbers, in this order) of an indexed dataset.

    ``payloads`` replaces the payload of edited records. Damaged records are skipped
    and counted. Raises :class:`ExportError`, or :class:`Cancelled` when cancelled; in
    both cases no output file exists afterwards. ``inputs`` are other files of the
    work that may not be written; ``keep`` temporaries the stale cleaner leaves; with
    ``job``, the files join it and are committed by its owner (see :func:`plan_export`).
    """
    t0 = time.perf_counter()
    ep = plan_export(ds, records, options, inputs=inputs, keep=keep, job=job)
    done, written = 0, 0

    def tick() -> None:
        nonlocal done
        done += 1024
        if cancel is not None and cancel.cancelled:
            raise Cancelled()
        if progress is not None:
            progress(done, ep.kept)

    try:
        for task in ep.tasks:
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            written += write_file(
                task, lambda n: ds.files[n].open().reader(), payloads=payloads, tick=tick
            )
            done = sum(len(t.records) for t in ep.tasks[: task.number + 1])
        commit(ep)
    except BaseException:
        discard(ep)
        raise
    if progress is not None:
        progress(ep.kept, ep.kept)
    return summary_of(ep, written, t0)
