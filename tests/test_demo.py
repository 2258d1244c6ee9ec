"""`make demo` (examples/demo.py): the bundled example's adjoint gradient must agree with
finite differences, and the README must show the signature adgen really generates."""
import importlib.util
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_demo():
    spec = importlib.util.spec_from_file_location("adgen_demo", ROOT / "examples" / "demo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_demo_gradient_agrees(tmp_path):
    agreed, output = load_demo().run(tmp_path, echo=False)
    assert agreed, output
    lines = output.splitlines()
    assert lines[-1].startswith("OK: "), output
    assert len([ln for ln in lines if re.match(r"^\s*\d+\s", ln)]) == 6, output

    # the README's worked example shows the generated prototype verbatim
    generated = (tmp_path / "model_b.c").read_text()
    proto = re.search(r"^void rosenbrock_b\(.*\)$", generated, re.M).group(0)
    assert proto + ";" in (ROOT / "README.md").read_text()
