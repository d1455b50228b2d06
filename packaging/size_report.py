"""Print the size of a built bundle and its largest parts.

    python packaging/size_report.py DIST [--json]

DIST holds ``tfr-viewer/`` (one folder) or the one-file executable. The JSON form is
``{path, bytes, files, largest: [{path, bytes}]}``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def bundle_path(dist: Path) -> Path:
    """The one-folder bundle if present, else the one-file executable."""
    for candidate in (dist / "tfr-viewer", dist / "tfr-viewer.exe", dist / "tfr-viewer.app"):
        if candidate.exists():
            return candidate
    raise FileNotFoundError(f"no tfr-viewer bundle in {dist}")


def measure(path: Path, top: int = 12) -> dict:
    """Total bytes, file count and the ``top`` largest files (symlinks not followed)."""
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    sizes = sorted(((p.lstat().st_size, p) for p in files), reverse=True)
    return {
        "path": str(path),
        "bytes": sum(size for size, _ in sizes),
        "files": len(sizes),
        "largest": [
            {"path": str(p.relative_to(path.parent)), "bytes": size} for size, p in sizes[:top]
        ],
    }


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    report = measure(bundle_path(Path(argv[0])))
    if "--json" in argv:
        print(json.dumps(report, indent=2))
        return 0
    print(f"bundle: {report['path']}")
    print(f"size:   {report['bytes'] / 1e6:.1f} MB in {report['files']} files")
    print("largest files:")
    for item in report["largest"]:
        print(f"  {item['bytes'] / 1e6:7.1f} MB  {item['path']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
