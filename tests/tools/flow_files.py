"""How many of the package's files run in a flow: each flow in a fresh interpreter
with a profile hook (every thread) that records the file of every function of
``tfr_viewer`` that is called while no module of the package is being imported. A file
only imported is not counted: neither its module's body nor what that body calls (a
decorator, a registry entry, a dataclass made at import) is part of the flow.

``python tests/tools/flow_files.py [SAMPLE]`` prints, per flow, the number of files
and, with ``--list``, the files: opening a file in the window until it is indexed and
its first record shown, ``check``, ``export`` and ``list --filter``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "samples" / "shapes_odapi.tfrecord"

HOOK = r"""
import os, sys, threading, json
package = os.path.dirname(__import__("tfr_viewer").__file__) + os.sep
ran = set()
def importing(frame):
    while frame is not None:
        code = frame.f_code
        if code.co_name == "<module>" and code.co_filename.startswith(package):
            return True
        frame = frame.f_back
    return False
def hook(frame, event, arg):
    if event == "call" and frame.f_code.co_name != "<module>":
        name = frame.f_code.co_filename[len(package):]
        if frame.f_code.co_filename.startswith(package) and name not in ran:
            if not importing(frame.f_back):
                ran.add(name)
sys.setprofile(hook)
threading.setprofile(hook)
def report():
    sys.setprofile(None)
    print("FLOW-FILES " + json.dumps(sorted(ran)), file=sys.__stderr__)
"""

CLI = (
    HOOK
    + r"""
from tfr_viewer.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
report()
"""
)

WINDOW = (
    HOOK
    + r"""
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from tfr_viewer.ui.main_window import MainWindow
app = QApplication([])
window = MainWindow()
window.show()
window.index_finished.connect(lambda *_: QTimer.singleShot(500, app.quit))
QTimer.singleShot(0, lambda: window.open_paths([sys.argv[1]]))
QTimer.singleShot(120_000, app.quit)
app.exec()
report()
window.close()
"""
)


def files_run(code: str, *args: str) -> list[str]:
    env = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300
    )
    for line in done.stderr.splitlines():
        if line.startswith("FLOW-FILES "):
            return list(json.loads(line[len("FLOW-FILES ") :]))
    raise RuntimeError(f"the flow did not finish: {done.stderr[-2000:]}")


def flows(sample: Path) -> dict[str, list[str]]:
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "out.tfrecord")
        return {
            "open in the window": files_run(WINDOW, str(sample)),
            "check": files_run(CLI, "check", str(sample)),
            "export": files_run(CLI, "export", str(sample), "-o", out),
            "list --filter": files_run(CLI, "list", "--filter", "length > 100", str(sample)),
        }


def main(argv: list[str]) -> int:
    sample = Path(next((a for a in argv[1:] if not a.startswith("--")), SAMPLE))
    for flow, files in flows(sample).items():
        print(f"{flow}: {len(files)} files")
        if "--list" in argv:
            print("".join(f"  {f}\n" for f in files), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
