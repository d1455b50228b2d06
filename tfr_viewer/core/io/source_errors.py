"""The errors of opening and reading sources (kept apart from :mod:`.sources` so that
the remote modules, which :mod:`.sources` does not import, can raise them too)."""

from __future__ import annotations

from ..user_error import UserError


class SourceError(UserError, OSError):
    """A file that cannot be opened or decoded; the message says which and why."""


class RemoteError(SourceError):
    """A remote file that could not be reached or read (network, permissions, a missing
    back-end). Unlike damage, it is not a property of the file: trying again may work."""


class FileChanged(SourceError):
    """A file that changed (shrank, or was replaced) while it was being read: what was
    read cannot be trusted, so the work stops instead of reporting damage."""

    @classmethod
    def of(cls, path: str, size: int | None) -> FileChanged:
        now = f"now {size:,} bytes" if size is not None else "now gone"
        return cls(
            f"{path} changed while it was being read ({now}); nothing read from it is "
            "trusted — wait until whatever writes it is done, then run the command again"
        )

    @classmethod
    def while_read(cls, url: str, how: str) -> FileChanged:
        """A remote object replaced while it was read; ``how`` says what showed it."""
        return cls(
            f"{url} changed while it was being read ({how}); nothing read from it is "
            "trusted — run the command again"
        )
