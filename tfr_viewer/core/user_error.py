"""The one family of errors a user can cause and fix: a bad input file, a bad option,
an unreachable server, an unwritable folder.

Every such error is a :class:`UserError`; the command line prints its message in one
line and exits 2, the window shows it in a box. Anything else that escapes is a bug,
and is shown as one (a traceback). Messages say what, where (file, record, byte offset)
and what to do.
"""

from __future__ import annotations


class UserError(Exception):
    """An error the user can cause and fix; its message is the whole explanation, in one
    line: characters that would break it or vanish (newlines, tabs, other control
    characters, from a key or a file name) are written as escapes. ``detail``, empty
    unless a subclass sets it, is shown under that line as it is (a filter error's
    caret under the mistake)."""

    detail = ""

    def __str__(self) -> str:
        return one_line(super().__str__()) + self.detail


def one_line(text: str) -> str:
    """``text`` with each control character written as its escape (``\\n``, ``\\x07``)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
