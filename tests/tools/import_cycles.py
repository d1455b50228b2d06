"""Import cycles of any length among a package's modules, as grimp reads its imports:
those inside functions and under ``TYPE_CHECKING`` counted, as the top-level ones are,
and the packages an import runs on the way (``from .payloads.types import X`` runs
``payloads/__init__`` first, unless the importer is inside that package). What a
package's ``__init__`` names under ``TYPE_CHECKING`` alone (the names a lazy package
gives on first use) is not counted for the package: those imports never run.

``python tests/tools/import_cycles.py PACKAGE`` prints each circle of modules that
import one another, with one way round it, and exits 1 when there is any (0 when there
is none): ``make lint`` runs it over ``tfr_viewer``."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Set

import grimp


def circles(edges: Mapping[str, Set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's, iterative),
    each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)


def import_circles(package: str) -> list[list[str]]:
    """The circles of modules of ``package`` (importable) that import one another."""
    graph = grimp.build_graph(package, cache_dir=None)
    running = grimp.build_graph(package, cache_dir=None, exclude_type_checking_imports=True)
    packages = {m for m in graph.modules if graph.find_children(m)}
    edges = {
        m: set((running if m in packages else graph).find_modules_directly_imported_by(m))
        for m in graph.modules
    }
    for importer, imported in edges.items():
        imported |= {
            parent
            for target in list(imported)
            for parent in _packages_of(target)
            if parent in edges and not importer.startswith(parent + ".")
        }
    return circles(edges)


def _packages_of(module: str) -> list[str]:
    """The packages a module's import runs first (``a.b.c``: ``a.b``; not the root)."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(2, len(parts))]


def way_round(package: str, circle: list[str]) -> list[str]:
    """One chain of direct imports from the circle's first module back to itself; the
    circle's modules when it closes only through a package an import runs."""
    graph = grimp.build_graph(package, cache_dir=None)
    first = circle[0]
    for step in sorted(graph.find_modules_directly_imported_by(first)):
        if step in circle:
            chain = graph.find_shortest_chain(importer=step, imported=first)
            if chain:
                return [first, *chain]
    return circle


def main(argv: list[str]) -> int:
    package = argv[1] if len(argv) > 1 else "tfr_viewer"
    found = import_circles(package)
    for circle in found:
        way = way_round(package, circle)
        shown = " -> ".join(way) if way != circle else ", ".join(circle)
        print(f"import cycle of {len(circle)} modules: {shown}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
