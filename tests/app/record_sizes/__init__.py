"""An analysis added to every front end by three modules (operation, report, panel) and
one registry entry (:data:`ENTRY`): the sizes of a dataset's records."""

from __future__ import annotations

from tfr_viewer.app.analyses import Analysis

# the one registry entry
ENTRY = Analysis(
    "record-sizes",
    "Record Sizes",
    "the payload bytes of every record, and the largest records",
    "tests.app.record_sizes.operation:RecordSizesRequest",
    "tests.app.record_sizes.panel:RecordSizesPanel",
)
