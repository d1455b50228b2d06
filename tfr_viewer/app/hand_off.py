"""What a second launch of the window asks the one already running, and the answer:
one JSON line each way (``{"paths": [...], "select": N | null}``, then
``{"ok": bool, "message": str, "pid": int}``). The socket that carries them is the
window's (``ui/instance.py``); these are its messages, read and written here only."""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..core.json_text import load_document


class BadMessage(ValueError):
    """A line that is not the message it should be; the text says what is wrong."""


def _object(line: bytes) -> dict[str, object]:
    try:
        obj = load_document(line)
    except ValueError as exc:
        raise BadMessage(f"not JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise BadMessage(f"a JSON object is expected, not {type(obj).__name__}")
    return obj


@dataclass(frozen=True)
class OpenRequest:
    """Open ``paths`` (absolute: the running app does not share the sender's working
    folder) and select record ``select`` (None: the first)."""

    paths: tuple[str, ...]
    select: int | None = None

    def to_line(self) -> bytes:
        return (json.dumps({"paths": list(self.paths), "select": self.select}) + "\n").encode()

    @classmethod
    def from_line(cls, line: bytes) -> OpenRequest:
        obj = _object(line)
        paths, select = obj.get("paths"), obj.get("select")
        if not isinstance(paths, list):
            raise BadMessage("no list of paths")
        if select is not None and (not isinstance(select, int) or isinstance(select, bool)):
            raise BadMessage(f"the record to select is {select!r}, not a number")
        return cls(tuple(str(p) for p in paths), select)


@dataclass(frozen=True)
class Reply:
    """The running instance's answer to a hand-off."""

    ok: bool
    message: str
    pid: int

    def to_line(self) -> bytes:
        return (
            json.dumps({"ok": self.ok, "message": self.message, "pid": self.pid}) + "\n"
        ).encode()

    @classmethod
    def from_line(cls, line: bytes) -> Reply:
        obj = _object(line)
        ok, message, pid = obj.get("ok"), obj.get("message"), obj.get("pid")
        if not isinstance(ok, bool) or not isinstance(message, str) or not isinstance(pid, int):
            raise BadMessage("not an answer of a running tfr-viewer")
        return cls(ok, message, pid)
