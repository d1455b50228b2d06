"""The Qt binding the app runs on keeps Python's reference counts: PySide6 6.12.0 drops
a reference to ``True`` on every signal emitted from Python, which kills the process
(``bool_dealloc``) after a few thousand emits on Python 3.11 and older."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
from PySide6.QtCore import QCoreApplication, QObject, Signal

app = QCoreApplication([])

class Emitter(QObject):
    changed = Signal(int)

e = Emitter()
before = sys.getrefcount(True)
for i in range(20000):
    e.changed.emit(i)
print(sys.getrefcount(True) - before)
"""


def test_emitting_signals_keeps_reference_counts():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert abs(int(out.stdout.strip())) < 100
