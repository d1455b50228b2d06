"""The Python API's options as the core takes them. A path is read as the command line
reads it (``label_map="label_map.pbtxt"``, ``schema="schema.json"``,
``predictions="results.json"`` or ``"features"``), and anything the core cannot take
(an unknown option, a value of the wrong kind, a compression that is none of
none/gzip/zlib) is one :class:`~tfr_viewer.core.user_error.UserError` saying which and
what is taken, as a command's mistake is."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..core.user_error import UserError

if TYPE_CHECKING:
    from ..app.check import CheckOptions

CHECK_OPTIONS = ("label_map", "limits", "schema", "predictions")
EXPORT_OPTIONS = ("compression", "shards", "max_shard_bytes", "shuffle_seed", "split", "overwrite")


class OptionError(UserError, ValueError):
    """An option of the Python API that cannot be used; the message says why."""


def _unknown(given: Mapping[str, Any], known: tuple[str, ...], verb: str) -> None:
    extra = sorted(set(given) - set(known))
    if extra:
        raise OptionError(
            f"{verb}() takes no option {', '.join(extra)}; it takes {', '.join(known)}"
        )


def _path(value: Any) -> str | None:
    return os.fspath(value) if isinstance(value, str | os.PathLike) else None


def check_options(given: Mapping[str, Any]) -> CheckOptions:
    """``check``'s options with their files read (see the module)."""
    from ..app.check import CheckOptions
    from ..core.analyze import anomalies
    from ..core.analyze.image_quality import Thresholds as Limits
    from ..core.analyze.label_checks import PredictionCheck
    from ..core.analyze.label_errors import Thresholds
    from ..core.analyze.label_map import read_label_map
    from ..core.analyze.predictions import DetectionKeys, PredictionError, open_source

    _unknown(given, CHECK_OPTIONS, "check")
    out = dict(given)
    label_map = out.get("label_map")
    if _path(label_map) is not None:
        out["label_map"] = read_label_map(_path(label_map) or "")
    elif label_map is not None and not isinstance(label_map, Mapping):
        raise OptionError("label_map is a label map's path or a mapping of class ids to names")
    schema = out.get("schema")
    if _path(schema) is not None:
        out["schema"] = anomalies.load(_path(schema) or "")
    elif schema is not None and not isinstance(schema, dict):
        raise OptionError("schema is a schema file's path (schema --infer writes one)")
    limits = out.get("limits")
    if limits is not None and not isinstance(limits, Limits):
        raise OptionError(
            "limits is an image-quality Thresholds (tfr_viewer.core.analyze.image_quality), "
            "or left out"
        )
    predictions = out.get("predictions")
    if _path(predictions) is not None:
        try:
            source = open_source(_path(predictions) or "", DetectionKeys(), None)
        except (PredictionError, ValueError) as exc:
            raise OptionError(str(exc)) from None
        out["predictions"] = PredictionCheck(source, Thresholds())
    elif predictions is not None and not isinstance(predictions, PredictionCheck):
        raise OptionError(
            'predictions is "features", a results file or a predictions dataset\'s path'
        )
    return CheckOptions(**out)


def export_options(given: Mapping[str, Any]) -> dict[str, Any]:
    """``export``'s options as :class:`ExportOptions` takes them (see the module)."""
    from ..core.io import Compression

    _unknown(given, EXPORT_OPTIONS, "export")
    out = dict(given)
    if "compression" in out:
        try:
            out["compression"] = Compression.parse(out["compression"])
        except (ValueError, AttributeError) as exc:
            raise OptionError(
                str(exc)
                if isinstance(exc, ValueError)
                else "compression is one of none, gzip, zlib"
            ) from None
    for name in ("shards", "max_shard_bytes", "shuffle_seed"):
        value = out.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"{name} is a whole number, or left out")
    return out
