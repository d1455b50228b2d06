"""The one family of errors a user can cause and fix: a bad input file, a bad option,
an unreachable server, an unwritable folder.

Every such error is a :class:`UserError`; the command line prints its message in one
line and exits 2, the window shows it in a box. Anything else that escapes is a bug,
and is shown as one (a traceback). Messages say what, where (file, record, byte offset)
and what to do.
"""

from __future__ import annotations


class UserError(Exception):
    """An error the user can cause and fix; its message is the whole explanation."""
