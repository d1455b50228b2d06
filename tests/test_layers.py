"""Layering: the core and the CLI's file commands never load Qt or TensorFlow."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import tfr_viewer.core


def test_core_imports_no_qt_and_no_tensorflow():
    modules = [m.name for m in pkgutil.walk_packages(tfr_viewer.core.__path__, "tfr_viewer.core.")]
    assert "tfr_viewer.core.index" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "import tfr_viewer.cli, tfr_viewer.commands.records\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'tensorflow'))\n"
        "print(bad)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_info_command_does_not_load_qt(tmp_path):
    from tfr_viewer.core.framing import write_records

    path = tmp_path / "a.tfrecord"
    write_records(path, [b"a", b"b"])
    code = (
        "import sys\n"
        "from tfr_viewer.cli import main\n"
        f"rc = main(['info', '--json', {str(path)!r}])\n"
        "print(sorted(m for m in sys.modules if m.startswith('PySide6')), rc, file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.stderr.strip().endswith("[] 0"), run.stderr
