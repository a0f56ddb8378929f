"""The house's shape, read from the code itself (ast): no circle of imports between the package's
modules; the layers (folders) importing only downward, so that no module of the library imports
the outside (views, render, report, web, cli); every `import` and `from` counted wherever it
stands - in a function's body too (a lazy import is an import) - and LazyModule("analyzer.x") as
an import of x. Also the rooms' sizes, and the public names `from analyzer import ...` keeps."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"
OUTSIDE = ("views", "render", "report", "web", "cli", "__main__")
# The layers from the bottom up: each imports only its own folder and those below it.
LAYERS = ("base", "game", "bets", "routes", "questions", "pit", OUTSIDE)


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


def layer(name: str) -> int:
    """The floor of a module: its folder's place in LAYERS (the outside all on the top floor)."""
    head = name.split(".")[0]
    return next(i for i, floor in enumerate(LAYERS) if head in (floor if isinstance(floor, tuple) else (floor,)))


def test_no_circle_of_imports():
    edges = graph()
    assert {"routes.batch", "routes.lean", "routes.cardcount", "routes.closedforms", "pit.table", "pit.protect"} <= set(edges)
    assert "routes.compiled" in edges["routes.lean"] and "routes.closedforms" in edges["routes.cardcount"]  # lazy, and `from . import`
    assert cycles(edges) == []


def test_every_module_lives_on_a_floor():
    edges = graph()
    flat = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", *OUTSIDE))
    assert flat == []  # analyzer/ holds its layers' folders, and of modules only the outside's render and __main__
    for name in edges:
        layer(name)  # raises where a folder is on no floor


def test_the_layers_import_only_downward():
    edges = graph()
    upward = sorted(f"{m} -> {t}" for m, targets in edges.items() if m for t in targets if t and layer(t) > layer(m))
    assert upward == []


def test_each_layer_says_what_it_holds_and_may_import():
    for floor in LAYERS[:-1]:
        doc = ast.get_docstring(ast.parse((PACKAGE / floor / "__init__.py").read_text()))
        assert doc and len(doc) > 200 and "import" in doc, floor


def test_the_library_imports_nothing_of_the_outside():
    edges = graph()
    upward = sorted(f"{m} -> {t}" for m, targets in edges.items() if not outside(m) and m != ""
                    for t in targets if outside(t))
    assert upward == []


MOST_LINES, MOST_FUNCTION = 700, 60
ONE_PIECE = "# one piece:"  # the comment above a longer function, saying why it is not cut


def long_functions(path: Path) -> list[str]:
    """Functions over MOST_FUNCTION lines without a comment (ONE_PIECE) just above them."""
    lines = path.read_text().splitlines()
    out = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= MOST_FUNCTION:
            top = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if not lines[top - 2].strip().lower().startswith(ONE_PIECE):
                out.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}")
    return out


def test_rooms_are_small():
    paths = sorted(PACKAGE.rglob("*.py"))
    assert [str(p.relative_to(PACKAGE)) for p in paths if len(p.read_text().splitlines()) > MOST_LINES] == []
    assert [f for p in paths for f in long_functions(p)] == []


# What `from analyzer import ...` offers (README, docs' library reference, the notebook): moved
# modules keep these names where they were.
PUBLIC = ["BUILT_IN", "BaccaratError", "Bet", "BetResult", "Distribution", "Knowledge", "Line", "PUNTO_BANCO",
          "RunFailed", "RuleSet", "Shoe", "Tableau", "Unsatisfiable", "analyse", "enumerate_coup", "enumerated",
          "evaluate", "get_rules", "line", "load_rules", "load_shoe", "make_shoe", "parse_rules", "records", "where"]


def test_the_public_names_stay():
    import analyzer

    assert sorted(analyzer.__all__) == sorted(PUBLIC)
    for name in PUBLIC:
        assert getattr(analyzer, name) is not None
    from analyzer import batch, engine, protect  # moved modules answer to their old names (a notebook's imports)

    assert (batch.__name__, engine.__name__, protect.__name__) == ("analyzer.routes.batch", "analyzer.game.engine",
                                                                    "analyzer.pit.protect")


def test_the_walk_finds_a_circle_and_an_upward_import(tmp_path):
    # the checks can fail: a circle through a lazy import, and a library module reading a view
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"views.edge"}, "views.edge": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert [m for m, targets in edges.items() if not outside(m) for t in targets if outside(t)] == ["d"]
    assert layer("pit.table") > layer("routes.batch") > layer("bets.bet") > layer("game.cards") > layer("base.errors")
    source = tmp_path / "x.py"
    source.write_text("def f():\n    from .views import edge\n    from . import batch\n")
    assert imports_of(source, {"views", "views.edge", "batch", "x"}, "x") == {"views.edge", "batch"}


def test_the_architecture_page_draws_the_tree():
    # docs/architecture.md: its diagram names each layer's folder, and every folder it names exists
    import re

    page = (PACKAGE.parent / "docs" / "architecture.md").read_text()
    diagram = page.split("```mermaid")[1].split("```")[0]
    named = set(re.findall(r"\b([a-z]+)/", diagram))
    floors = {f for floor in LAYERS[:-1] for f in (floor if isinstance(floor, tuple) else (floor,))}
    assert floors <= named
    assert all((PACKAGE / folder).is_dir() or (PACKAGE / "bets" / folder).is_dir() for folder in named), named
    for folder in floors | {"views", "report", "web", "cli"}:
        assert any(line.startswith("|") and f"`{folder}/`" in line for line in page.splitlines()), folder  # a row
