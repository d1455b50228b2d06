"""The Python API: ``import tfr_viewer as tfv``; ``ds = tfv.open("data/train-*")``.

Stable like the command line's JSON contract: the names here, the fields of
:class:`Record` and the ``to_json()`` of every result are only ever extended.
"""

from __future__ import annotations

from ..core.user_error import UserError
from .dataset import DatasetView, open
from .records import DamagedRecordWarning, Record
from .results import (
    Comparison,
    Evaluated,
    Findings,
    Info,
    Problems,
    SchemaFound,
    Statistics,
)

__all__ = [
    "Comparison",
    "DamagedRecordWarning",
    "DatasetView",
    "Evaluated",
    "Findings",
    "Info",
    "Problems",
    "Record",
    "SchemaFound",
    "Statistics",
    "UserError",
    "open",
]
