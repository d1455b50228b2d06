"""Layering as it runs: the core and the CLI's file commands never load Qt or TensorFlow
(in a fresh interpreter), no two modules import each other, only Beam imports Beam.
Who may import whom is import-linter's contracts (``[tool.importlinter]`` in
``pyproject.toml``, run by ``make lint`` and ``make test``)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import tfr_viewer.core


def test_core_imports_no_qt_and_no_tensorflow():
    modules = [m.name for m in pkgutil.walk_packages(tfr_viewer.core.__path__, "tfr_viewer.core.")]
    assert "tfr_viewer.core.io.index" in modules
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
    from tfr_viewer.core.io.framing import write_records

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


def test_no_import_cycles_of_any_length():
    """Lazy imports and those under TYPE_CHECKING count: no circle closes by them."""
    from tests.tools.import_cycles import import_circles

    assert import_circles("tfr_viewer") == []


def test_a_circle_closed_by_lazy_and_type_checking_imports_is_found(tmp_path, monkeypatch):
    from tests.tools.import_cycles import import_circles, main

    package = tmp_path / "planted"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from . import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import C\n"
    )
    (package / "c.py").write_text("from .a import f\nclass C: ...\n")
    (package / "d.py").write_text("from .a import f\n")  # imports the circle, not in it
    # a circle closed by the package an import runs first: e.py imports sub.types,
    # which runs sub/__init__, which imports sub.reader, which imports e
    (package / "e.py").write_text("from .sub.types import T\n")
    (package / "sub").mkdir()
    (package / "sub" / "__init__.py").write_text("from . import reader\n")
    (package / "sub" / "types.py").write_text("class T: ...\n")
    (package / "sub" / "reader.py").write_text("from ..e import T\nfrom .types import T as U\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_circles("planted") == [
        ["planted.a", "planted.b", "planted.c"],
        ["planted.e", "planted.sub", "planted.sub.reader"],
    ]
    assert main(["import_cycles", "planted"]) == 1


def test_only_the_beam_package_imports_beam():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "tfr_viewer"
    importing = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "apache_beam" in p.read_text() and p.relative_to(root).parts[0] != "beam"
    ]
    assert importing == []


def test_the_window_reads_no_data_by_string_keys():
    """Reports, findings and messages reach the window typed: no ``x["key"]`` and no
    ``x.get("key")`` in ``ui/`` (the process environment aside)."""
    from tests.tools.key_reads import key_reads

    assert key_reads() == []


def test_a_string_key_read_is_found(tmp_path):
    from tests.tools.key_reads import key_reads

    (tmp_path / "panel.py").write_text(
        "import os\n"
        "def show(report, env=os.environ):\n"
        "    a = report['features']\n"
        "    b = report.get('records', 0)\n"
        "    c = os.environ.get('DISPLAY')\n"
        "    d = os.environ['HOME']\n"
        "    e = report[key]\n"
    )
    found = key_reads(tmp_path)
    assert [line.split(": ", 1)[1] for line in found] == [
        "a = report['features']",
        "b = report.get('records', 0)",
    ]
