"""A dataset in Python: ``tfv.open(paths)`` gives a :class:`DatasetView` over every
record of the files (shards, globs, folders, URLs, as the command line takes them);
``view.filter(expression)`` and ``view[a:b]`` give views of some records with the same
interface. Everything goes through the core the command line uses: the index (and its
cache), the columnar extractor, the checks and the output layer."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.io import Dataset
from ..core.user_error import UserError
from .records import Record, read_record

if TYPE_CHECKING:
    from ..core.decode.episodes import Episode
    from .results import (
        Comparison,
        Evaluated,
        EventTable,
        Findings,
        Info,
        Problems,
        SchemaFound,
        SlimReport,
        Statistics,
    )


def open(  # noqa: A001 - the API's verb, as in tfv.open(...)
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    verify: bool = False,
    proto: str | os.PathLike[str] | None = None,
    descriptor_set: str | os.PathLike[str] | None = None,
    message: str | None = None,
) -> DatasetView:
    """The dataset of ``paths`` (a path, a glob, a folder of shards, a URL, or a list of
    them), indexed by its frame headers (``verify``: every CRC checked now), through the
    index cache as the command line uses it. Its records are read as a message type of
    ``proto`` (a ``.proto`` file or folder; needs grpcio-tools) or ``descriptor_set``
    (a ``FileDescriptorSet``) when one is given: the one ``message`` names, or the one
    that reads each file's records best (said among the view's warnings). Raises
    :class:`~tfr_viewer.core.user_error.UserError` (a path that matches nothing, a file
    that cannot be read, a file that is no TFRecord at all, a ``.proto`` that does not
    compile, a message type it does not define: the command line's errors)."""
    kind = _message_type(proto, descriptor_set, message)
    specs = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    ds = Dataset.open([os.fspath(p) for p in specs])
    ds.message_type = kind
    try:
        ds.index(verify=verify)
        ds.refuse_other_files()
    except BaseException:
        ds.close()
        raise
    return DatasetView(ds, None)


def _message_type(
    proto: str | os.PathLike[str] | None,
    descriptor_set: str | os.PathLike[str] | None,
    message: str | None,
) -> object:
    """The message type (or types) :func:`open` reads the records as; None."""
    if proto is None and descriptor_set is None and message is None:
        return None
    from ..core.decode import message_types

    if proto is None and descriptor_set is None:
        assert message is not None
        kind = message_types.built_in_type(message)  # one of the messages TensorFlow writes
        if kind is None:
            raise UserError(
                f"message={message!r}: give its proto= or descriptor_set= too (the "
                f"built-in types: {', '.join(message_types.BUILT_IN)})"
            )
        return kind

    types = message_types.load(
        None if proto is None else os.fspath(proto),
        None if descriptor_set is None else os.fspath(descriptor_set),
    )
    return types.get(message) if message is not None else types


class DatasetView:
    """Some records of an indexed dataset (all of them, or a filter's, or a slice's), in
    order. ``len``, iteration and ``view[i]`` give :class:`Record` objects; the analyses
    return the core's results with ``to_json()`` and ``to_pandas()``."""

    def __init__(
        self, dataset: Dataset, records: np.ndarray | None, chosen_by: str | None = None
    ) -> None:
        self.dataset = dataset
        self._records = records  # global record numbers; None: every record
        self._chosen_by = chosen_by  # the filter that chose them, if one did

    # -- the records --------------------------------------------------------------------
    @property
    def records(self) -> np.ndarray:
        """The global numbers of the view's records, in order."""
        if self._records is None:
            return np.arange(len(self.dataset), dtype=np.int64)
        return self._records

    @property
    def files(self) -> list[str]:
        return [f.path for f in self.dataset.files]

    def __len__(self) -> int:
        return len(self.dataset) if self._records is None else len(self._records)

    def __iter__(self) -> Iterator[Record]:
        for index in self.records.tolist():
            yield read_record(self.dataset, int(index))

    def __getitem__(self, item: int | slice) -> Record | DatasetView:
        """``view[i]``: its i-th record (negative from the end); ``view[a:b:c]``: a view."""
        if isinstance(item, slice):
            return DatasetView(self.dataset, self.records[item], self._chosen_by)
        n = len(self)
        if not -n <= item < n:
            raise IndexError(f"record {item} of a view of {n:,} records")
        return read_record(self.dataset, int(self.records[item]))

    def record(self, index: int) -> Record:
        """Record ``index`` of the whole dataset (its global number)."""
        if not 0 <= index < len(self.dataset):
            raise IndexError(f"no record {index}: the dataset holds {len(self.dataset):,}")
        return read_record(self.dataset, index)

    def episodes(self) -> Iterator[Episode]:
        """The view's records that are robot-learning episodes (RLDS: their steps kept
        under ``steps/``), in order, each step feature shaped as the folder's
        ``features.json`` says (``episode.steps["action"]``: an array of shape
        ``(steps, 7)``; pictures and texts: a list of one bytes value a step), or split
        evenly between the steps ``steps/is_first`` counts without it. Records that keep
        no steps are passed over."""
        from ..app.episodes import dataset_episodes

        yield from dataset_episodes(self.dataset, self.records.tolist())

    def filter(self, expression: str) -> DatasetView:
        """The records of this view that match ``expression`` (the filter language of
        ``list --filter``); ValueError names a mistake in it."""
        from ..app.filtering import FilterRequest

        hits = FilterRequest(expression).run(self.dataset).records
        if self._records is not None:
            hits = self._records[np.isin(self._records, hits)]
        return DatasetView(self.dataset, hits, expression)

    # -- columns -------------------------------------------------------------------------
    def to_arrow(self, keys: Sequence[str] | None = None) -> Any:
        """The Examples' features as a ``pyarrow.Table`` (one row a record, a column a
        key: scalars where every record has one value, lists otherwise), through the
        columnar extractor; ``keys`` chooses the columns (a key no record holds, or of
        several kinds, is a UserError). Records read as a project's own message type
        (``tfv.open(..., proto=, message=)``) give a column a field, typed by the type,
        nested messages flattened (``context.name``; see
        :mod:`~tfr_viewer.core.write.message_arrow`). Needs pyarrow."""
        from ..core.write.parquet import require_pyarrow, tables

        pa = require_pyarrow("to_arrow")
        kind = self._message_kind()
        if kind is not None:
            from ..core.write.message_arrow import message_table

            return message_table(self.dataset, self.records, kind, keys)
        _columns, schema, blocks = tables(self.dataset, self.records, keys=keys)
        return pa.concat_tables([*blocks, schema.empty_table()])

    def _message_kind(self) -> Any:
        """The one message type of the user's the records are read as, or None; a
        UserError when the files are read as several."""
        if self.dataset.message_type is None:
            return None
        from ..core.decode.file_payloads import message_type_of

        found = (message_type_of(self.dataset, n) for n in range(len(self.files)))
        kinds = {k for k in found if k is not None}
        if len(kinds) > 1:
            names = ", ".join(sorted(k.name for k in kinds))
            raise UserError(
                f"the files are read as several message types ({names}): one table each"
            )
        return next(iter(kinds), None)

    def to_pandas(self, keys: Sequence[str] | None = None) -> Any:
        """:meth:`to_arrow` as a pandas DataFrame (needs pyarrow and pandas); of
        TensorBoard event files (every file named ``*tfevents*``), their scalars:
        ``event_table("scalars").to_pandas()``."""
        from ..app.tables import require_pandas
        from ..core.io.event_runs import is_event_file

        require_pandas()
        if keys is None and self.files and all(is_event_file(p) for p in self.files):
            return self.event_table("scalars").to_pandas()
        return self.to_arrow(keys).to_pandas()

    def event_table(self, name: str = "scalars") -> EventTable:
        """A table of TensorBoard event files, every point of every run and tag:
        ``scalars`` (run, tag, step, wall_time, value, record), ``histograms`` (a row
        a bucket) or ``hparams`` (a row a run), as ``tfr-viewer NAME`` writes it; its
        ``to_pandas()`` and ``to_arrow()`` give it as a DataFrame or an Arrow table. Of
        whole datasets only (a view of some records is one ``UserError``)."""
        from ..app.event_tables import TableRequest
        from ..core.user_error import UserError

        if self._records is not None:
            raise UserError(f"{name} reads whole datasets: call it on tfv.open(...) itself")
        return TableRequest(name).run(self.dataset).table

    def slim(
        self,
        output: str,
        *,
        drop_tags: Sequence[str] = (),
        drop_plugins: Sequence[str] = (),
        drop_graphs: bool = False,
        every: int = 1,
        thin: Sequence[str] = ("*",),
        steps: tuple[int | None, int | None] = (None, None),
        overwrite: bool = False,
    ) -> SlimReport:
        """A slimmer copy of TensorBoard event files in the folder ``output``, as
        ``tfr-viewer slim`` writes it: the tags matching ``drop_tags`` (shell
        patterns) and of ``drop_plugins`` left out, graphs and run metadata with
        ``drop_graphs``, all but the first and every ``every``-th point after it of the
        tags matching ``thin``, the summaries outside ``steps`` (first kept, stop not).
        Of whole datasets only."""
        from ..app.event_slim import SlimRequest
        from ..core.user_error import UserError
        from ..core.write.event_slim import SlimRules

        if self._records is not None:
            raise UserError("slim copies whole datasets: call it on tfv.open(...) itself")
        try:
            rules = SlimRules(
                tuple(drop_tags), tuple(drop_plugins), drop_graphs, every, tuple(thin), *steps
            )
        except ValueError as exc:
            raise UserError(f"slim: {exc}") from None
        return SlimRequest(output, rules, overwrite).run(self.dataset)

    # -- analyses ------------------------------------------------------------------------
    def info(self) -> Info:
        """Each file's compression, records, bytes and problems from a header pass, a
        TFDS folder's splits, and of TensorBoard event files their runs and where their
        bytes go (every record read): ``info --json``'s report (of the view's files)."""
        from ..app.info import info

        return info(self.dataset)

    def schema(self, sample: int | None = None) -> SchemaFound:
        """The features of the dataset's Examples with their kinds and value counts:
        ``schema --json``'s report (``python()`` gives the ``tf.io`` parsing spec), of
        every record or of ``sample`` records spread over the dataset."""
        from ..app.schema import schema

        if self._records is not None:
            from .options import OptionError

            raise OptionError("schema takes a whole dataset; open the files on their own")
        return schema(self.dataset, sample=sample)

    def verify(self) -> Problems:
        """Every length and payload CRC of the view's files checked: the problems found
        (damaged records and regions) in ``verify --json``'s report."""
        from ..app.verify import verify

        return verify(self.dataset, shown=self._records)

    def analyze(self, name: str, **options: Any) -> Any:
        """The report of the registered analysis ``name`` (see
        :mod:`~tfr_viewer.app.analyses`) of the dataset's files, ``options`` as its
        request's fields; its command line's ``--json`` is the report's ``to_json()``.
        An unknown analysis or option, or an analysis of a view of some records only,
        is one ``UserError``."""
        from ..app.analyses import named
        from ..core.user_error import UserError

        analysis = named(name)
        if self._records is not None:
            raise UserError(f"{name} analyses whole datasets: call it on tfv.open(...) itself")
        return analysis.run(self.dataset, options)

    def sql(
        self,
        query: str,
        tables: Mapping[str, DatasetView] | None = None,
        memory_limit: str | None = None,
        *,
        pandas: bool = False,
    ) -> Any:
        """The result of a SQL ``query`` (DuckDB) over this view's records as the table
        ``records`` and the views of ``tables`` by their names, as ``sql`` reads them: a
        ``pyarrow.Table`` (``pandas``: a DataFrame). A query that cannot run is one
        :class:`~tfr_viewer.core.analyze.sql.SqlError`. Needs the ``sql`` extra."""
        from ..app.sql import run_sql

        views = {"records": self, **(tables or {})}
        report = run_sql(
            query,
            {name: v.dataset for name, v in views.items()},
            memory_limit=memory_limit,
            records={name: v._records for name, v in views.items() if v._records is not None},
        )
        return report.to_pandas() if pandas else report.table

    def stats(self) -> Statistics:
        """The statistics ``stats --json`` gives, of this view's records."""
        from ..app.stats import statistics

        return statistics(self.dataset, shown=self._records)

    def check(self, fail_on: str = "warning", **options: Any) -> Findings:
        """The findings ``check --json`` gives for this view's records; ``options`` as
        :class:`~tfr_viewer.app.check.CheckOptions` takes them (``label_map``,
        ``limits``, ``schema``, ``predictions``), a label map, schema or predictions also
        by their path (see :mod:`.options`); ``fail_on`` as ``--fail-on`` (the report's
        ``failed``). A mistake is one ``UserError``."""
        from ..app.check import check
        from ..core.analyze.check_overlay import Overlay
        from ..core.analyze.findings import SEVERITIES
        from .options import OptionError, check_options

        if fail_on not in SEVERITIES:
            raise OptionError(f"fail_on is one of {', '.join(SEVERITIES)}, not {fail_on!r}")
        chosen = check_options(options)
        overlay = None
        if self._records is not None:
            others = np.setdiff1d(np.arange(len(self.dataset)), self._records)
            overlay = Overlay({}, frozenset(others.tolist()))
        return check(self.dataset, chosen, fail_on=fail_on, overlay=overlay, records=len(self))

    def compare(
        self, other: DatasetView, threshold: float = 0.1, allow_leaks: bool = False
    ) -> Comparison:
        """Drift per feature, keys in one only, images in both: ``compare --json``."""
        from ..app.compare import comparison
        from .options import OptionError

        if self._records is not None or other._records is not None:
            raise OptionError("compare takes whole datasets; open the files of a view on their own")
        if not threshold >= 0:
            raise OptionError("threshold must be 0 or more")
        return comparison(self.dataset, other.dataset, threshold=threshold, allow_leaks=allow_leaks)

    def evaluate(self, predictions: Any, label_map: Any = None) -> Evaluated:
        """A model's ``predictions`` (``"features"``, a results file or a predictions
        dataset, by path) against the boxes: ``evaluate --json``'s COCO metrics, classes
        named by ``label_map`` (a path or a mapping) where given. Needs pycocotools."""
        from ..app.evaluate import evaluation
        from .options import OptionError, check_options

        if self._records is not None:
            raise OptionError("evaluate takes a whole dataset; open the files on their own")
        chosen = check_options({"predictions": predictions, "label_map": label_map})
        if chosen.predictions is None:
            raise OptionError('predictions is "features", a results file or a dataset\'s path')
        return evaluation(self.dataset, chosen.predictions, chosen.label_map)

    def export(self, path: str, **options: Any) -> Any:
        """Write the view's records to new files at ``path`` through the output layer
        (never over a source; an existing file only with ``overwrite=True``);
        ``options`` as :class:`~tfr_viewer.core.write.export.ExportOptions` takes them
        (``compression``, ``shards``, ``shuffle_seed``, ``split``, ``overwrite``).
        Returns the export's report (its ``files`` and ``records``; ``to_json()`` is
        ``export --json``)."""
        from ..app.writing import ExportRecordsRequest
        from ..core.write.export import ExportOptions
        from .options import export_options

        options = export_options(options)
        request = ExportRecordsRequest(
            self.records, ExportOptions(path, **options), filter=self._chosen_by
        )
        return request.run(self.dataset)

    def close(self) -> None:
        """Release the files (every view of the dataset shares them)."""
        self.dataset.close()

    def __enter__(self) -> DatasetView:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        kind = "dataset" if self._records is None else "view"
        return f"<tfr_viewer {kind}: {len(self):,} records in {len(self.dataset.files)} files>"

    def _repr_html_(self) -> str:
        from .notebook import view_html

        return view_html(self)
