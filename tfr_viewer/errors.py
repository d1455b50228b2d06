"""Exit codes and the usage error shared by the command line and its commands."""

from __future__ import annotations

from .core.user_error import UserError

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


class UsageError(UserError):
    """A user mistake that exits with code 2 and a one-line message."""
