"""The lazy packages: what a type checker reads (the imports under ``TYPE_CHECKING``) is
what the package gives at run time (its ``_WHERE`` table), name for name."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

LAZY = [
    "tfr_viewer.core.io",
    "tfr_viewer.core.analyze",
    "tfr_viewer.core.write",
    "tfr_viewer.core.decode",
]


def _checked_imports(package: str) -> dict[str, str]:
    """``name -> submodule`` of the imports under ``if TYPE_CHECKING:`` in its __init__."""
    source = Path(importlib.import_module(package).__file__).read_text()
    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.level == 1
                for alias in stmt.names:
                    assert alias.asname in (None, alias.name)
                    found[alias.name] = stmt.module
    return found


@pytest.mark.parametrize("package", LAZY)
def test_what_a_type_checker_reads_is_what_the_package_gives(package):
    module = importlib.import_module(package)
    checked = _checked_imports(package)
    assert checked == module._WHERE
    for name in checked:
        assert getattr(module, name) is getattr(
            importlib.import_module(f"{package}.{checked[name]}"), name
        )


def test_every_kernel_that_uses_numpy_imports_it():
    """The kernels import numpy inside each function that uses it (so that a cached
    ``show`` never loads it); a function that forgets fails only at run time."""
    import ast
    import inspect

    from tfr_viewer.core import kernels

    tree = ast.parse(inspect.getsource(kernels))
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        walked = [n for stmt in node.body for n in ast.walk(stmt)]
        uses = any(
            isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "np"
            for n in walked
        )
        imports = any(
            isinstance(n, ast.Import) and any(a.asname == "np" for a in n.names) for n in walked
        )
        assert imports or not uses, f"kernels.{node.name} uses numpy without importing it"
