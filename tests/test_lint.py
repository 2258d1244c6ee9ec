"""Mistakes no test of behaviour sees: pyflakes' checks over the package, the tests, the
benchmarks and the examples (ruff's F rules: an undefined name, an unused import or
variable, a function defined twice), and a module-level constant assigned twice (a test
file's second program of one name replaces the first, and the tests reading the first
check the wrong program)."""
import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREES = ["adgen", "tests", "bench", "examples"]


def test_no_pyflakes_findings():
    pytest.importorskip("ruff", reason="ruff is a test dependency: pip install -e '.[test]'")
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--select", "F", "--no-cache",
                           "--output-format", "concise", *TREES],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_module_constant_assigned_twice():
    twice = []
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            lines = defaultdict(list)
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                targets = node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if isinstance(node, ast.AnnAssign) else []
                for t in targets:
                    if isinstance(t, ast.Name) and t.id.isupper():
                        lines[t.id].append(node.lineno)
            twice += [f"{path.relative_to(ROOT)}: {name} at lines {at}"
                      for name, at in lines.items() if len(at) > 1]
    assert not twice, "\n".join(twice)
