"""The errors of opening and reading sources (kept apart from :mod:`.sources` so that
the remote modules, which :mod:`.sources` does not import, can raise them too)."""

from __future__ import annotations


class SourceError(OSError):
    """A file that cannot be opened or decoded; the message says which and why."""


class RemoteError(SourceError):
    """A remote file that could not be reached or read (network, permissions, a missing
    back-end). Unlike damage, it is not a property of the file: trying again may work."""
