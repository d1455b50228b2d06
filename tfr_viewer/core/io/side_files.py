"""Reading the small files a user names beside a dataset (a label map, a schema, a
model's results file): only a regular file is read, so that a FIFO or a device named
by mistake never blocks or streams forever, and only up to a size the file's role
allows. Every such read goes through :func:`read_side_file`."""

from __future__ import annotations

import os
import stat
from typing import Any

from .inputs_read import note_stat
from .paths import not_a_regular_file
from .remote import is_url

MAX_SIDE_FILE = 64 << 20  # a label map or a schema past this is not one


class SideFileError(ValueError):
    """A side file that cannot be read; the message names it and says why."""


def read_side_file(path: str, what: str, limit: int = MAX_SIDE_FILE) -> bytes:
    """The bytes of the ``what`` at ``path`` (``"label map"``); SideFileError when it
    is missing, unreadable, not a regular file, or larger than ``limit``. A URL
    (``gs://``, ``s3://``, ``https://``) is read through the remote layer, with its
    deadline and retries."""
    if is_url(path):
        return _remote(path, what, limit)
    odd = not_a_regular_file(path)
    if odd is not None:
        raise SideFileError(f"the {what} {path} {odd.split(';')[0]}; name a regular file")
    try:
        # non-blocking, in case a FIFO took the file's place since it was looked at
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise SideFileError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise SideFileError(f"the {what} {path} is {kind}; name a regular file")
    note_stat(st)  # an input of this process from now on: no output may replace it
    with os.fdopen(fd, "rb") as f:
        if st.st_size > limit:
            raise SideFileError(
                f"the {what} {path} is {st.st_size:,} bytes, more than a {what} can be "
                f"here ({limit:,})"
            )
        if hasattr(os, "set_blocking"):
            os.set_blocking(f.fileno(), True)
        try:
            data = f.read(limit + 1)
        except OSError as exc:
            raise SideFileError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise SideFileError(f"the {what} {path} grew past {limit:,} bytes while it was read")
    return data


def _remote(url: str, what: str, limit: int) -> bytes:
    from .remote import call, filesystem

    fs, where = filesystem(url)
    info = call(url, f"looking the {what} up", lambda: fs.info(where))
    size = info.get("size")
    if isinstance(size, int) and size > limit:
        raise SideFileError(
            f"the {what} {url} is {size:,} bytes, more than a {what} can be here ({limit:,})"
        )
    data = call(url, f"reading the {what}", lambda: fs.cat_file(where, start=0, end=limit + 1))
    if len(data) > limit:
        raise SideFileError(f"the {what} {url} is more than {limit:,} bytes")
    return bytes(data)


def read_json_side_file(path: str, what: str, limit: int = MAX_SIDE_FILE) -> Any:
    """The JSON document of the ``what`` at ``path`` (see :func:`read_side_file`);
    SideFileError, naming the file and why, for anything a hand-made or hostile file can
    hold that is no JSON: bad UTF-8, bad syntax, nesting too deep, an integer of more
    digits than Python converts."""
    import json

    from ..json_text import TooDeep, load_document

    data = read_side_file(path, what, limit)
    try:
        return load_document(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SideFileError(f"the {what} {path} is not UTF-8 text ({exc.reason})") from None
    except TooDeep as exc:
        raise SideFileError(f"the {what} {path} is not JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise SideFileError(f"the {what} {path} is not JSON: {exc.msg} at {where}") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        reason = str(exc).split(";")[0].split(":")[0]
        raise SideFileError(f"the {what} {path} cannot be read: {reason}") from None
