"""Heads whose independents and dependents are structs passed by pointer (C; the Fortran
derived types are in test_fortran.py): the derivative is a struct of the same type, each
floating-point field the derivative of that field."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "tests" / "c_struct_head"


def test_struct_head_tangent_and_adjoint(tmp_path):
    """step(s)/(s) for a struct holding an array of structs with array fields: the
    tangent and the adjoint agree with each other (dot-product test) and with central
    finite differences of the primal (tests/c_struct_head/driver.c)."""
    for mode, suffix in (("--reverse", "b"), ("--forward", "d")):
        out = tmp_path / f"system_{suffix}.c"
        proc = subprocess.run([sys.executable, "-m", "adgen", mode, str(CASE / "system.c"),
                               "--head", "step(s)/(s)", "-o", str(out)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        cc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c",
                             str(out), "-o", str(out.with_suffix(".o"))],
                            capture_output=True, text=True)
        assert cc.returncode == 0, cc.stderr
    assert "void step_b(System *s, System *sb, double dt)" in \
        (tmp_path / "system_b.c").read_text()
    exe = tmp_path / "driver"
    cc = subprocess.run(["gcc", "-std=c99", "-O2", "-I", str(CASE), "-o", str(exe),
                         str(CASE / "driver.c"), str(tmp_path / "system_b.o"),
                         str(tmp_path / "system_d.o"), "-lm"], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0 and "PASS" in run.stdout, run.stdout + run.stderr


def test_struct_holding_pointers_is_no_head_variable(tmp_path):
    """A struct holding pointers is not the head's data by itself: refused as an
    independent, with its line."""
    src = tmp_path / "m.c"
    src.write_text("typedef struct { int n; double *data; } Vec;\n"
                   "double norm2(const Vec *v)\n{\n    double s = 0.0;\n"
                   "    for (int i = 0; i < v->n; i++)\n        s += v->data[i] * v->data[i];\n"
                   "    return s;\n}\n")
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                           "norm2(norm2)/(v)", "-o", str(tmp_path / "m_b.c")],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert f"{src}:2:" in proc.stderr and "'v' is not floating-point" in proc.stderr, \
        proc.stderr
