"""The layout's keys named by hand: View › Layout Keys… sets them in the session, the
picture, the box editor and the gallery read under them, and they are remembered for
the next start (a key a record lacks is guessed there, so keys named for one dataset
leave another alone)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..core.decode import decode, features_of
from ..core.decode.layouts import KeyMap
from .actions import Action, Entry
from .settings_values import read_json_object

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from .dialogs.layout_keys_dialog import LayoutKeysDialog
    from .host import PanelHost
    from .record_panes import RecordPanes
    from .viewers.preview import PreviewPane

SETTING = "layout-keys"


def load(settings: QSettings) -> KeyMap:
    """The remembered keys (none when the setting is missing or not understood)."""
    named = read_json_object(settings, SETTING)
    known = set(KeyMap().__dataclass_fields__)
    return KeyMap(**{k: v for k, v in named.items() if k in known and isinstance(v, str) and v})


class LayoutKeys:
    """View › Layout Keys…; the session's keymap starts as the one remembered."""

    def __init__(
        self,
        host: PanelHost,
        settings: QSettings,
        preview: PreviewPane,
        panes: RecordPanes,
    ) -> None:
        """The keys are remembered in ``settings``; ``preview`` draws under them (the
        gallery follows the session's keys itself), and ``panes`` show the record again
        when they change."""
        self.host, self.settings = host, settings
        self.preview, self.panes = preview, panes
        self.last_dialog: LayoutKeysDialog | None = None
        host.session.keys_changed.connect(self._apply)
        host.session.set_keymap(load(settings))

    def actions(self) -> list[Entry]:
        return [Action("view.layout_keys", "Layout &Keys…", "view", self.open_dialog, None, 2)]

    def open_dialog(self) -> None:
        from .dialogs.layout_keys_dialog import LayoutKeysDialog

        session = self.host.session
        features = None
        if session.dataset is not None and session.current is not None:
            try:
                features = features_of(decode(session.payload(session.current)).payload)
            except (OSError, IndexError, ValueError):
                features = None  # a record that cannot be read offers no keys
        dialog = self.last_dialog = LayoutKeysDialog(
            session.keymap, features, self.host.as_widget()
        )
        dialog.accepted.connect(lambda: self.set_keymap(dialog.keymap()))
        dialog.open()

    def set_keymap(self, keymap: KeyMap) -> None:
        """Use ``keymap`` from now on and remember it."""
        self.settings.setValue(SETTING, json.dumps(keymap.named()))
        self.host.session.set_keymap(keymap)

    def _apply(self, keymap: KeyMap) -> None:
        self.preview.images.keymap = keymap
        session = self.host.session
        if session.dataset is not None and session.current is not None:
            self.panes.show_record(session.current)
