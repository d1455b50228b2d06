"""What the Python API's analyses return, under the names the API has always given them:
the application layer's reports, each with ``to_json()`` (what the command's ``--json``
prints) and ``to_pandas()`` (a table of it; pandas is optional and imported only then)."""

from __future__ import annotations

from ..app.check import CheckReport
from ..app.compare import CompareReport
from ..app.evaluate import EvaluateReport
from ..app.event_slim import SlimReport
from ..app.event_tables import EventTable
from ..app.info import InfoReport
from ..app.schema import SchemaReport
from ..app.stats import StatsReport
from ..app.verify import VerifyReport

Info = InfoReport  # info
Problems = VerifyReport  # verify
SchemaFound = SchemaReport  # schema
Findings = CheckReport  # check
Statistics = StatsReport  # stats
Comparison = CompareReport  # compare
Evaluated = EvaluateReport  # evaluate
EventTable = EventTable  # event_table: scalars, histograms, hparams
SlimReport = SlimReport  # slim

__all__ = [
    "Comparison",
    "Evaluated",
    "EventTable",
    "Findings",
    "Info",
    "Problems",
    "SchemaFound",
    "SlimReport",
    "Statistics",
]
