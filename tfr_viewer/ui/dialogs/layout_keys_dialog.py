"""View › Layout Keys…: name the keys of a layout whose names are not guessed (an image
under ``photo``, boxes under ``left``/``top``/``right``/``bottom``). Each field offers
the shown record's keys of the right kind, or may be typed; an empty field is guessed.
The line below says what the shown record gives under the keys as they stand."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from ...core.decode.layouts import KeyMap, recognise
from ...core.decode.payload_types import Features
from ...core.text import plural

# (KeyMap field, label, the kinds of list it may name)
FIELDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("image", "Image", ("bytes",)),
    ("xmin", "Box left (xmin)", ("float", "int64")),
    ("ymin", "Box top (ymin)", ("float", "int64")),
    ("xmax", "Box right (xmax)", ("float", "int64")),
    ("ymax", "Box bottom (ymax)", ("float", "int64")),
    ("bbox", "Boxes as [ymin, xmin, ymax, xmax] rows", ("float", "int64")),
    ("label", "Class id", ("int64",)),
    ("text", "Class name", ("bytes",)),
    ("height", "Image height", ("int64",)),
    ("width", "Image width", ("int64",)),
    ("depth", "Image channels", ("int64",)),
)


class LayoutKeysDialog(QDialog):
    """``keymap()`` is what the fields say; ``features`` (the shown record's, or None)
    fill the choices and the line that says what they give."""

    def __init__(self, keymap: KeyMap, features: Features | None, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Layout Keys")
        self.features = features or {}
        self.fields: dict[str, QComboBox] = {}
        form = QFormLayout()
        for name, title, kinds in FIELDS:
            box = QComboBox(self)
            box.setEditable(True)
            box.setMinimumContentsLength(32)  # image/object/bbox/xmin and longer
            box.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            box.addItem("")
            box.addItems([k for k, fd in self.features.items() if fd.kind in kinds])
            box.setCurrentText(getattr(keymap, name) or "")
            line = box.lineEdit()
            if line is not None:
                line.setPlaceholderText("guessed from the names")
            box.currentTextChanged.connect(self._update_result)
            self.fields[name] = box
            form.addRow(f"{title}:", box)
        self.result_line = QLabel(self)
        self.result_line.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults,
            self,
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        restore = buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        restore.setText("Guess All")
        restore.clicked.connect(self.guess_all)
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Name the keys tfr-viewer cannot guess; leave a field empty to guess it. "
            "A key a record lacks is guessed in that record.",
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.result_line)
        layout.addWidget(buttons)
        self._update_result()

    def keymap(self) -> KeyMap:
        """The keys named in the fields (empty ones are guessed)."""
        return KeyMap(
            **{name: box.currentText().strip() or None for name, box in self.fields.items()}
        )

    def guess_all(self) -> None:
        for box in self.fields.values():
            box.setCurrentText("")

    def _update_result(self) -> None:
        if not self.features:
            self.result_line.setText("Select a record to see what its keys give.")
            return
        found = recognise(self.features, self.keymap())
        if not found:
            self.result_line.setText("The shown record: no image under these keys.")
            return
        first = found[0]
        classes = sum(b.label is not None or b.text is not None for b in first.boxes)
        self.result_line.setText(
            f"The shown record: {plural(len(found), 'image')} (the first under "
            f"{first.key!r}), {plural(len(first.boxes), 'box', 'boxes')}"
            + (f", {classes} with a class" if first.boxes else "")
            + "."
        )
