"""Which dataset of a TensorFlow Datasets folder to open: each with its versions and its
newest version's splits (as its ``dataset_info.json`` describes them)."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QWidget

from ...core.io.paths import TfdsChoice
from ...core.io.tfds import read_info
from ...core.io.tfds_catalog import described


def choice_texts(choice: TfdsChoice) -> list[str]:
    """One line a dataset: ``name (versions) — train 12, test 5``."""
    out = []
    for entry in choice.entries:
        info = read_info(entry.newest())
        splits = ", ".join(f"{s.name} {s.records:,}" for s in info.splits) if info else ""
        out.append(f"{described(entry)}" + (f" — {splits}" if splits else ""))
    return out


def choose_tfds(parent: QWidget, choice: TfdsChoice) -> str | None:
    """Ask which dataset to open; the folder of its newest version, or None."""
    texts = choice_texts(choice)
    text, ok = QInputDialog.getItem(
        parent,
        "Open a TensorFlow Datasets dataset",
        f"{choice.folder} holds {len(texts)} datasets; open (its newest version):",
        texts,
        0,
        False,
    )
    if not ok or text not in texts:
        return None
    return choice.entries[texts.index(text)].newest()
