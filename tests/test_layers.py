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


def _import_graph() -> dict[str, set[str]]:
    """Module -> the tfr_viewer modules it imports anywhere in its text (functions too)."""
    import ast
    from pathlib import Path

    root = Path(tfr_viewer.__file__).parent
    names = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        is_pkg = parts[-1] == "__init__"
        names[path] = ".".join(parts[:-1] if is_pkg else parts), is_pkg
    modules = {name for name, _ in names.values()}
    graph: dict[str, set[str]] = {}
    for path, (name, is_pkg) in names.items():
        edges = graph.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                if node.level:
                    base = base[: len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    edges.add(full if full in modules else target)
            elif isinstance(node, ast.Import):
                edges.update(a.name for a in node.names)
        graph[name] = {e for e in edges if e in modules and e != name}
    return graph


def test_no_import_cycles_between_modules():
    graph = _import_graph()
    cycles = []
    for start in graph:
        for mid in graph[start]:
            if start in graph.get(mid, ()) and start < mid:
                cycles.append((start, mid))
    # a package's __init__ importing its own modules is not a cycle
    cycles = [(a, b) for a, b in cycles if not (b.startswith(a + ".") or a.startswith(b + "."))]
    assert cycles == []
    assert "tfr_viewer.errors" in graph["tfr_viewer.commands.decode"]


def test_only_the_beam_package_imports_beam():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "tfr_viewer"
    importing = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "apache_beam" in p.read_text() and p.relative_to(root).parts[0] != "beam"
    ]
    assert importing == []
