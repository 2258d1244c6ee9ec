"""Whole codes with their own drivers, written for Tapenade-generated adjoints: adgen's
output replaces Tapenade's with no change to the code or the driver.

tests/acceptance/fortran_heat: a nonlinear steady heat solver (module state set by an init
routine, WHERE, implicit typing, Picard and SOR convergence loops, print statements) whose
Fortran driver calls `cost_b(n, ctrl, ctrlb, j, jb)` with no interface and compares the
gradient with finite differences (build.sh: gfortran for the model and the driver, gcc for
the adjoint)."""
import shutil
import subprocess
import sys
from pathlib import Path

from test_fortran import gfortran  # noqa: F401  (the fixture: installs gfortran if it can)

HERE = Path(__file__).resolve().parent / "acceptance"


def test_fortran_heat_with_its_own_driver(tmp_path, gfortran):  # noqa: F811
    for f in (HERE / "fortran_heat").iterdir():
        shutil.copy(f, tmp_path)
    r = subprocess.run([sys.executable, "-m", "adgen", "--reverse", "model.f90",
                        "--head", "cost(j)/(ctrl)", "-o", "cost_b.c"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # the I/O statements of the primal are named, and left out of the derivative code
    assert "print statement left out of the derivative code" in r.stderr
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                    "cost_b.c"], cwd=tmp_path, check=True)
    run = subprocess.run(["sh", "build.sh"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert run.stdout.rstrip().endswith("PASS"), run.stdout[-3000:]
