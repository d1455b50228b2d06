"""The picture of the SQL dock: the ODAPI sample opened at 1366×768, Analyze › SQL, a
group-by of its boxes by class run, a row of a second query's result selected.
``python tests/tools/sql_screenshot.py OUT``"""

from __future__ import annotations

import sys
import time

from picture_window import opened

QUERY = (
    'SELECT index, len("image/object/class/label") AS boxes,\n'
    '       image_width("image/encoded"[1]) AS width, status\n'
    'FROM records WHERE len("image/object/class/label") >= 3 ORDER BY boxes DESC'
)


def main(out: str) -> None:
    app, window = opened(["shapes_odapi.tfrecord"], (1366, 768))
    window.menus.action("panel.sql").trigger()
    panel = window.docks.widget("sql")
    panel.editor.setPlainText(QUERY)
    panel.run()
    began = time.monotonic()
    while panel.job is not None and time.monotonic() - began < 120:
        app.processEvents()
        time.sleep(0.05)
    panel.table.selectRow(1)
    panel.select_row(1)
    for _ in range(60):
        app.processEvents()
    window.grab().save(out)


if __name__ == "__main__":
    main(sys.argv[1])
