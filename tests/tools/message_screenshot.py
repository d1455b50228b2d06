"""The picture of a project's own records read by name: driving frames written with
the modules ``protoc`` generates from ``tests/user_protos.py``'s ``.proto`` files,
opened in the window and read as ``drive.Frame`` of their descriptor set, a record
selected; with ``--stats``, Analyze › Statistics of their field paths shown.
``python tests/tools/message_screenshot.py OUT [--stats]``"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from picture_window import opened


def main(out: str, stats: bool = False) -> None:
    from tests.tf_oracle import tf_write
    from tests.user_protos import descriptor_set, frames, proto_folder

    root = Path(tempfile.mkdtemp())
    sets = descriptor_set(proto_folder(root), root / "drive.pb")
    path = root / "frames.tfrecord"
    tf_write(path, [m.SerializeToString() for m in frames(40)])
    app, window = opened([str(path)], (1366, 768))
    window.message_types.use(str(sets), "drive.Frame")
    window.select_record(5)
    window.tree.expandAll()
    if stats:
        import time

        action = next(
            a for a in window.analyze_menu.actions() if a.text().replace("&", "") == "Statistics"
        )
        action.trigger()
        waited = time.monotonic()
        while window.analysis.stats is None and time.monotonic() - waited < 120:
            app.processEvents()
            time.sleep(0.05)
    for _ in range(60):
        app.processEvents()
    window.grab().save(out)


if __name__ == "__main__":
    main(sys.argv[1], "--stats" in sys.argv[2:])
