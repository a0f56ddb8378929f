"""The house's shape, read from the code itself (ast): no circle of imports between the package's
modules, and no module of the library importing the outside (views, render, report, web, cli),
counting every `import` and `from` wherever it stands - in a function's body too (a lazy import
is an import) - and LazyModule("analyzer.x") as an import of x."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"
OUTSIDE = ("views", "render", "report", "web", "cli", "__main__")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str], name: str | None = None) -> set[str]:
    """The package's modules that the module at ``path`` (named ``name`` in the package) imports,
    anywhere in it."""
    name = module_name(path) if name is None else name
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()

    def add(target: str):
        while target and target not in modules:  # analyzer.views.edge.edge -> analyzer.views.edge
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("analyzer."):
                    add(alias.name.removeprefix("analyzer."))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                stem = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").startswith("analyzer"):
                stem = node.module.removeprefix("analyzer").lstrip(".")
            else:
                continue
            for alias in node.names:  # `from . import batch` imports the module batch
                add(f"{stem}.{alias.name}".lstrip(".") if f"{stem}.{alias.name}".lstrip(".") in modules else stem)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "LazyModule" and node.args \
                and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).startswith("analyzer."):
            add(node.args[0].value.removeprefix("analyzer."))
    return found


def graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths} - {""}
    return {module_name(p): imports_of(p, modules) for p in paths if module_name(p)}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def outside(name: str) -> bool:
    return name.split(".")[0] in OUTSIDE


def test_no_circle_of_imports():
    edges = graph()
    assert {"batch", "lean", "cardcount", "closedforms", "pit", "protect"} <= set(edges)  # the walk sees the package
    assert "batch" in edges["lean"] and "closedforms" in edges["cardcount"]  # lazy imports and `from . import` counted
    # packages import their own modules (a package's __init__ re-exporting a name): not a circle of the house
    found = [c for c in cycles(edges) if not all(m.split(".")[0] == c[0].split(".")[0] for m in c)]
    assert found == []


def test_the_library_imports_nothing_of_the_outside():
    edges = graph()
    upward = sorted(f"{m} -> {t}" for m, targets in edges.items() if not outside(m) and m != ""
                    for t in targets if outside(t))
    assert upward == []


def test_the_walk_finds_a_circle_and_an_upward_import(tmp_path):
    # the checks can fail: a circle through a lazy import, and a library module reading a view
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"views.edge"}, "views.edge": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert [m for m, targets in edges.items() if not outside(m) for t in targets if outside(t)] == ["d"]
    source = tmp_path / "x.py"
    source.write_text("def f():\n    from .views import edge\n    from . import batch\n")
    assert imports_of(source, {"views", "views.edge", "batch", "x"}, "x") == {"views.edge", "batch"}
