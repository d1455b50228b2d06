"""Where the window's code reads data by a string key: ``x["key"]`` and ``x.get("key")``
in ``tfr_viewer/ui/``, the process environment (``os.environ``) aside. The window reads
reports, findings and messages through typed objects; a string key in ``ui/`` is JSON
spoken where a type should be.

``python tests/tools/key_reads.py`` (in ``make lint`` and ``make test``) prints each
read with its file and line, and the count; it exits 1 when there is one."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "tfr_viewer" / "ui"


def _environ(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "environ"
        and isinstance(node.value, ast.Name)
        and node.value.id == "os"
    )


def _constant_text(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def key_reads(folder: Path = UI) -> list[str]:
    """``file:line: source`` of every string-key read under ``folder``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        lines = path.read_text().splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, ast.Subscript) and _constant_text(node.slice):
                target = node.value
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and node.args
                and _constant_text(node.args[0])
            ):
                target = node.func.value
            else:
                continue
            if not _environ(target):
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                found.append(f"{where}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    return found


def main() -> int:
    found = key_reads()
    print("".join(f"{line}\n" for line in found) + f"{len(found)} string-key reads in ui/")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
