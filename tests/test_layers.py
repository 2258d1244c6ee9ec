"""The package reads top-down as a pipeline (docs/architecture.md): each module imports only
modules of its own layer or of layers below it, no import cycle, no module over 1,500
lines, and no module takes another's underscore names. Imports inside functions count."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "adgen"
MAX_LINES = 1500

# Lowest first. A module belongs to the first layer one of whose prefixes it starts with.
LAYERS = [
    ("adgen.errors", "adgen.version", "adgen.progress", "adgen.room"),
    ("adgen.ir", "adgen.rules"),
    ("adgen.frontend",),
    ("adgen.analysis",),
    ("adgen.transform",),
    ("adgen.backend",),
    ("adgen.driver",),
    ("adgen.api",),
    ("adgen.check",),
    ("adgen.cli",),
    ("adgen", "adgen.__main__"),
]


def modules():
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def layer_of(module):
    for k, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes if p != "adgen"):
            return k
    assert module in ("adgen", "adgen.__main__"), f"{module} is in no layer"
    return len(LAYERS) - 1


def imports(module, path, known):
    """{imported module: [(line, names)]} of the package's modules one module imports."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in known:
                    out.setdefault(a.name, []).append((node.lineno, []))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            names = []
            for a in node.names:
                if f"{base}.{a.name}" in known:       # a submodule
                    out.setdefault(f"{base}.{a.name}", []).append((node.lineno, []))
                else:
                    names.append(a.name)
            if names and base in known:
                out.setdefault(base, []).append((node.lineno, names))
    out.pop(module, None)
    return out


MODULES = modules()
GRAPH = {m: imports(m, p, MODULES) for m, p in MODULES.items()}


def test_layers_known():
    for m in MODULES:
        layer_of(m)
    assert len(MODULES) > 30


def test_no_import_of_a_later_layer():
    wrong = [f"{MODULES[m].relative_to(PACKAGE.parent)}:{line}: {m} (layer {layer_of(m)}) "
             f"imports {t} (layer {layer_of(t)})"
             for m, targets in GRAPH.items() for t, uses in targets.items()
             for line, _ in uses if layer_of(t) > layer_of(m)]
    assert not wrong, "imports of later layers:\n" + "\n".join(wrong)


def _cycles():
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iteratively)."""
    index, low, on, stack, found = {}, {}, set(), [], []
    for root in GRAPH:
        if root in index:
            continue
        work = [(root, iter(GRAPH[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(GRAPH[w])))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_no_import_cycle():
    assert not _cycles(), "import cycles: " + "; ".join(", ".join(c) for c in _cycles())


def test_cycle_finder_finds_one():
    """The check itself: a cycle put into the graph is found."""
    saved = {m: dict(t) for m, t in GRAPH.items()}
    try:
        GRAPH["adgen.ir"]["adgen.driver"] = [(1, [])]
        assert any("adgen.ir" in c and "adgen.driver" in c for c in _cycles())
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def test_no_underscore_names_of_other_modules():
    wrong = [f"{MODULES[m].relative_to(PACKAGE.parent)}:{line}: {m} imports {n} of {t}"
             for m, targets in GRAPH.items() for t, uses in targets.items()
             for line, names in uses for n in names
             if n.startswith("_") and not n.startswith("__")]
    assert not wrong, "underscore names taken from other modules:\n" + "\n".join(wrong)


def _module_aliases(module, path):
    """{local name: adgen module} of the modules a module imports as names (`from adgen
    import ir`, `from adgen.ir import exprs as X`, `import adgen.rules as R`)."""
    out = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if f"{node.module}.{a.name}" in MODULES:
                    out[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in MODULES and a.asname:
                    out[a.asname] = a.name
    return out


def test_no_underscore_attributes_of_other_modules():
    """`X._helper` through a module imported as X is another module's private name too."""
    wrong = []
    for m, path in MODULES.items():
        aliases = _module_aliases(m, path)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                    node.value.id in aliases and node.attr.startswith("_") and \
                    not node.attr.startswith("__"):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: "
                             f"{node.value.id}.{node.attr} of {aliases[node.value.id]}")
    assert not wrong, "underscore names taken from other modules:\n" + "\n".join(wrong)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_size_and_purpose(module):
    path = MODULES[module]
    text = path.read_text()
    lines = text.count("\n")
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE.parent)} has {lines} lines " \
                               f"(at most {MAX_LINES})"
    if lines > 3:
        assert ast.get_docstring(ast.parse(text)), \
            f"{path.relative_to(PACKAGE.parent)} says in no docstring what it is for"


def test_architecture_page_names_every_module():
    """docs/architecture.md says what each module is for: a module it does not name is a
    room nobody will find."""
    page = (PACKAGE.parent / "docs" / "architecture.md").read_text()
    missing = [str(p.relative_to(PACKAGE.parent)) for m, p in MODULES.items()
               if p.name != "__init__.py" and p.name != "__main__.py" and p.name not in page]
    assert not missing, "docs/architecture.md does not name: " + ", ".join(missing)
