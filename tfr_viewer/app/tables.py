"""pandas for the reports' ``to_pandas()``: optional, imported only when asked for."""

from __future__ import annotations

import importlib
from typing import Any


def require_pandas() -> Any:
    """The pandas module; an ImportError that says how to get it."""
    try:
        return importlib.import_module("pandas")
    except ImportError:
        raise ImportError("to_pandas needs pandas: pip install 'tfr-viewer[pandas]'") from None
