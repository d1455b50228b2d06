"""Outputs in a bucket (a URL), for the jobs that run on a cluster, whose workers cannot
reach this machine's disk. A file is written and verified on local disk, uploaded under
a temporary name beside its target, and moved into place once every output is written,
as local exports are. Every request has the retry policy of :mod:`..io.remote`."""

from __future__ import annotations

import os
import posixpath
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from ..io.remote import call, filesystem, is_url


def folder_of(target: str) -> str:
    """The folder (a URL prefix, or a local folder) that holds ``target``."""
    if is_url(target):
        return posixpath.dirname(target)
    return os.path.dirname(os.path.abspath(target))


def name_of(target: str) -> str:
    """The file name of ``target`` (the last part of a URL's path)."""
    if is_url(target):
        return target.rstrip("/").rsplit("/", 1)[-1]
    return os.path.basename(os.path.abspath(target))


def beside(target: str, name: str) -> str:
    """``name`` in the folder of ``target``."""
    folder = folder_of(target)
    return f"{folder}/{name}" if is_url(target) else os.path.join(folder, name)


def exists(url: str) -> bool:
    fs, path = filesystem(url)
    return bool(call(url, "looking up the object", lambda: fs.exists(path)))


def move(src: str, dst: str) -> None:
    """Rename an object (a copy and a delete on object stores)."""
    fs, a = filesystem(src)
    _, b = filesystem(dst)
    call(src, f"moving it to {dst}", lambda: fs.mv(a, b))


def remove(url: str) -> None:
    fs, path = filesystem(url)
    call(url, "removing the object", lambda: fs.rm(path) if fs.exists(path) else None)


def write_text(url: str, text: str) -> None:
    fs, path = filesystem(url)

    def put() -> None:
        with fs.open(path, "w", encoding="utf-8") as out:
            out.write(text)

    call(url, "writing the object", put)


@contextmanager
def local_copy(target: str) -> Iterator[str]:
    """A local path to write ``target``'s bytes to: the target itself when it is local;
    otherwise a temporary file that is uploaded to ``target`` when the body succeeds."""
    if not is_url(target):
        yield target
        return
    fd, local = tempfile.mkstemp(prefix="tfr-viewer-upload-")
    os.close(fd)
    try:
        yield local
        fs, path = filesystem(target)
        call(target, "uploading the file", lambda: fs.put_file(local, path))
    finally:
        os.remove(local)
