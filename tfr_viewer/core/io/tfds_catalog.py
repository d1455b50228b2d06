"""The datasets of a TensorFlow Datasets folder, as tensorflow_datasets lays them out:
``DATA_DIR/NAME/[CONFIG/]VERSION/``, each version folder holding its
``dataset_info.json``. Opening ``NAME/`` opens its newest version; a folder of several
datasets lists them (:mod:`.paths`)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

INFO = "dataset_info.json"  # what makes a version folder (see :mod:`.tfds`)


_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


@dataclass(frozen=True)
class TfdsEntry:
    """One dataset (or one config of it) of a TFDS data folder: its path relative to
    the folder (``NAME`` or ``NAME/CONFIG``) and the version folders it holds, newest
    first."""

    name: str
    folder: str
    versions: tuple[str, ...]

    def newest(self) -> str:
        return os.path.join(self.folder, self.versions[0])


def versions(folder: str) -> tuple[str, ...]:
    """The subfolders of ``folder`` named as versions (``1.2.0``) that hold a
    ``dataset_info.json``, newest first: how tensorflow_datasets lays out
    ``NAME/[CONFIG/]VERSION/``."""
    try:
        names = os.listdir(folder)
    except OSError:
        return ()
    found = [
        n for n in names if _VERSION.match(n) and os.path.isfile(os.path.join(folder, n, INFO))
    ]
    return tuple(sorted(found, key=lambda n: tuple(int(p) for p in n.split(".")), reverse=True))


def catalog(folder: str, depth: int = 3) -> list[TfdsEntry]:
    """Every dataset under ``folder`` (itself ``NAME/`` or ``NAME/CONFIG/``, or a data
    folder holding datasets), as tensorflow_datasets lays them out, in name order; empty
    when there is none within ``depth`` folders."""
    out: list[TfdsEntry] = []

    def walk(here: str, name: str, left: int) -> None:
        found = versions(here)
        if found:
            out.append(TfdsEntry(name or os.path.basename(os.path.normpath(here)), here, found))
            return
        if left == 0:
            return
        try:
            children = sorted(os.listdir(here))
        except OSError:
            return
        for child in children:
            path = os.path.join(here, child)
            if not child.startswith(".") and os.path.isdir(path) and not os.path.islink(path):
                walk(path, f"{name}/{child}" if name else child, left - 1)

    walk(folder, "", depth)
    return out


def described(entry: TfdsEntry) -> str:
    """``name (1.2.0; also 1.1.0)``."""
    newest, *older = entry.versions
    return f"{entry.name} ({newest}{'; also ' + ', '.join(older) if older else ''})"
