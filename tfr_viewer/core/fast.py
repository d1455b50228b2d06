"""The compiled core (``tfr_viewer.core._fast``) when it is built and allowed, else None.

Frame scans, CRC32C and Example -> columns run in compiled code when the extension was
built at install time; otherwise, or when the environment variable
``TFR_VIEWER_PURE_PYTHON`` is set to anything but ``0`` or empty, the pure-Python path
runs instead and gives identical results. Callers ask :func:`native` each time they
start a piece of work, so tests can switch paths with :func:`use`.
"""

from __future__ import annotations

import os
from types import ModuleType

ENV = "TFR_VIEWER_PURE_PYTHON"

_module: ModuleType | None
try:
    from tfr_viewer.core import _fast as _module
except ImportError as exc:  # not built: no compiler at install time
    _module = None
    _missing = f"not built ({exc})"
else:
    _missing = ""


def _chosen() -> bool:
    """Whether the environment asks for the pure-Python path."""
    return os.environ.get(ENV, "").strip() not in ("", "0")


_forced_off = _chosen()
WARNING = (
    "the compiled core is not built, so this runs on the slower pure-Python path; "
    "reinstall tfr-viewer with a C compiler to build it, or set {env}=1 to choose "
    "the pure-Python path and hide this warning"
)
_active: ModuleType | None = None if _forced_off else _module


def native() -> ModuleType | None:
    """The compiled module to use now, or None for the pure-Python path."""
    return _active


def available() -> bool:
    """Whether the compiled module was built and imports."""
    return _module is not None


def use(compiled: bool) -> None:
    """Switch paths in this process (tests); asking for a missing module is an error."""
    global _active
    if compiled and _module is None:
        raise RuntimeError(f"the compiled core is {_missing}")
    _active = _module if compiled else None


def describe() -> str:
    """One line naming the path in use, for ``--version`` and the About box."""
    if _active is not None:
        return f"compiled core (CRC32C: {_active.CRC_PATH})"
    if _module is not None:
        return f"pure Python (the compiled core is built but {ENV} is set)"
    return f"pure Python (the compiled core is {_missing}; reinstall with a C compiler)"


def agree(**values: int) -> None:
    """Check that the compiled module names each of ``values`` (a constant the Python
    side defines, such as ``TF_DIFFERS=0x80``) with the same number; a module built
    from other sources is not used (the pure-Python path runs, and ``--version`` says
    why). Called by the modules that define the constants, when they are imported."""
    global _module, _active, _missing
    if _module is None:
        return
    for name, value in values.items():
        theirs = getattr(_module, name, None)
        if theirs != value:
            _missing = (
                f"built from other sources ({name} is {theirs} there, {value} here); "
                "reinstall tfr-viewer"
            )
            _module = _active = None
            return


def fallback_warning() -> str | None:
    """What to tell the user when the compiled core is missing and they did not choose
    the pure-Python path (``pip`` shows a build's own warning only with ``-v``, so the
    command line and the window say it each time they start); None otherwise."""
    if _module is not None or _chosen():
        return None
    return WARNING.format(env=ENV)
