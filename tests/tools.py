"""The tools the tests run that do not come from PyPI: found, or installed with Debian's
apt-get where they are missing and this is root (CI), saying so; and the optional Python
packages the framework tests use (torch, jax, scipy: tests/test_frameworks.py), installed
with pip into this Python's environment where they are missing. `make test` runs this
before the tests; a tool or package still missing afterwards makes its tests skip with the
reason printed here.

    python tests/tools.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402


# The optional packages, pinned: torch 2.13.0 is a CPU build (another release can mean a
# CUDA build of several GB).
FRAMEWORKS = [("torch", ["torch==2.13.0"]), ("jax", ["jax==0.10.2", "jaxlib==0.10.2"]),
              ("scipy", ["scipy"])]


def ensure_frameworks():
    """Installs with pip, in one run, those of FRAMEWORKS that this Python cannot import
    (nothing to do, and no pip run, when all are there)."""
    import importlib.util
    import subprocess
    missing = []
    for module, specs in FRAMEWORKS:
        if importlib.util.find_spec(module) is not None:
            print(f"tests/tools.py: {module}: installed")
        else:
            missing.append((module, specs))
    if not missing:
        return
    specs = [spec for _, module_specs in missing for spec in module_specs]
    print(f"tests/tools.py: {', '.join(m for m, _ in missing)} missing: installing with pip "
          f"({' '.join(specs)})", flush=True)
    # --no-compile: byte-compiling all of torch and jax takes most of the install; the
    # tests import a small part of them, compiled when first imported
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-compile",
                    "--disable-pip-version-check", *specs])
    for module, _ in missing:
        importlib.invalidate_caches()
        found = importlib.util.find_spec(module) is not None
        print(f"tests/tools.py: {module}: " + ("installed" if found else
                                              "not available (pip failed); its tests will "
                                              "be skipped"))


def ensure_gfortran():
    import shutil
    found = shutil.which(harness.FC)
    if found:
        print(f"tests/tools.py: gfortran: {found}")
        return
    print("tests/tools.py: gfortran is missing: installing it with apt-get "
          "(apt-get install gfortran)", flush=True)
    reason = harness.ensure_gfortran(install=True)
    if reason is None:
        print(f"tests/tools.py: gfortran: {shutil.which(harness.FC)} (installed)")
    else:
        print(f"tests/tools.py: gfortran: not available ({reason}); the Fortran tests "
              "will be skipped")


def ensure_f2c():
    """f2c and libf2c (tests/test_f2c.py translates Fortran with them and links the
    derivative of the translation with libf2c)."""
    missing = harness.f2c_missing()
    if missing is None:
        print("tests/tools.py: f2c and libf2c: found")
        return
    print(f"tests/tools.py: {missing}: installing f2c and libf2c2-dev with apt-get",
          flush=True)
    reason = harness.apt_install(["f2c", "libf2c2-dev"], lambda: harness.f2c_missing() is None)
    print("tests/tools.py: f2c and libf2c: " + (
        "installed" if reason is None else
        f"not available ({reason}); the tests of f2c's output will be skipped"))


def ensure_mpi():
    """Open MPI's mpicc and mpirun (tests/test_mpi.py builds the derivatives of MPI
    programs with the one and runs them on several ranks with the other)."""
    missing = harness.mpi_missing()
    if missing is None:
        print("tests/tools.py: Open MPI: found")
        return
    print(f"tests/tools.py: {missing}: installing libopenmpi-dev and openmpi-bin with "
          "apt-get", flush=True)
    reason = harness.apt_install(["libopenmpi-dev", "openmpi-bin"],
                                 lambda: harness.mpi_missing() is None)
    print("tests/tools.py: Open MPI: " + (
        "installed" if reason is None else
        f"not available ({reason}); the MPI tests will be skipped"))


def main():
    ensure_frameworks()
    ensure_gfortran()
    ensure_f2c()
    ensure_mpi()
    return 0


if __name__ == "__main__":
    sys.exit(main())
