"""No import cycle in the package: each module can be read, tested and reused below the ones
that use it. The graph is derived from the sources, lazy imports inside functions included
(they are cycles too, only deferred); imports under ``if TYPE_CHECKING:`` never run and are
left out."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tools" / "missions"


def _module_names(package: Path) -> dict[str, Path]:
    names = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module, base: str, modules: dict[str, Path]) -> set[str]:
    """What a module's code imports when it runs (``base``: the package it sits in)."""
    found: set[str] = set()
    pending: list[ast.AST] = [tree]
    while pending:
        for child in ast.iter_child_nodes(pending.pop()):
            if isinstance(child, ast.If) and _type_checking(child):
                pending.extend(child.orelse)
                continue
            if isinstance(child, ast.ImportFrom):
                source = child.module or ""
                if child.level:  # relative: from the module's own package upward
                    anchor = base.split(".")[: len(base.split(".")) - child.level + 1]
                    source = ".".join([*anchor, *([source] if source else [])])
                for alias in child.names:
                    full = f"{source}.{alias.name}"
                    found.add(full if full in modules else source)
            elif isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            pending.append(child)
    return found


def import_graph(package: Path) -> dict[str, set[str]]:
    """Each module of ``package`` -> the package's modules it imports when it runs."""
    modules = _module_names(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        base = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = _imports(ast.parse(path.read_text(encoding="utf-8")), base, modules)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_package_has_no_import_cycle() -> None:
    graph = import_graph(PACKAGE)
    assert {"missions.cli", "missions.fastpath", "missions.lean.lakefile"} <= set(graph)
    assert "missions.cli" in graph["missions.fastpath"]  # the entry point dispatches to it
    assert cycles(graph) == []


def test_the_graph_sees_lazy_and_relative_imports_and_skips_type_only_ones(
    tmp_path: Path,
) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("from pkg import b\n", encoding="utf-8")
    (package / "b.py").write_text("def f():\n    from pkg.sub import c\n", encoding="utf-8")
    (package / "sub" / "c.py").write_text("from .. import a\n", encoding="utf-8")
    (package / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import e\n",
        encoding="utf-8",
    )
    (package / "e.py").write_text("import pkg.d\n", encoding="utf-8")
    graph = import_graph(package)
    assert graph["pkg.b"] == {"pkg.sub.c"} and graph["pkg.sub.c"] == {"pkg.a"}
    assert graph["pkg.d"] == set() and graph["pkg.e"] == {"pkg.d"}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
