"""Every Fortran test program under testsuite/fortran/ through the generic harness
(tests/harness.py): adgen in both modes, the generated C built with gcc -Werror, a C driver
and a Fortran main program linked with the gfortran-compiled primal.

gfortran is needed: when it is missing and the tests run as root (CI), the session tries
`apt-get install -y gfortran` once; otherwise the tests are skipped with the reason."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import harness

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted(p for p in (ROOT / "testsuite" / "fortran").iterdir()
                  if p.is_file() and harness.is_fortran(p))


def _install_gfortran():
    """Try to install gfortran with apt-get (root only, non-interactive); a reason on failure."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "not running as root, so not trying to install it (apt-get install gfortran)"
    if shutil.which("apt-get") is None:
        return "apt-get is not available to install it"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log = []
    for cmd in (["apt-get", "update"],
                ["apt-get", "install", "-y", "--no-install-recommends", "gfortran"]):
        try:
            proc = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True, timeout=900)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{' '.join(cmd)} failed: {exc}"
        log.append(proc.stderr.strip()[-500:])
        if proc.returncode != 0 and cmd[1] == "install":
            return f"apt-get install gfortran failed (exit {proc.returncode}): {log[-1]}"
    if shutil.which(harness.FC) is None:
        return f"apt-get install gfortran ran, but {harness.FC!r} is still not on PATH"
    return None


@pytest.fixture(scope="session")
def gfortran():
    if shutil.which(harness.FC) is None:
        reason = _install_gfortran()
        if reason:
            pytest.skip(f"the Fortran tests need {harness.FC} (set FC to another gfortran): "
                        f"it is not installed, and {reason}")
    return harness.FC


def test_programs_found():
    assert len(PROGRAMS) >= 25, f"only {len(PROGRAMS)} programs in testsuite/fortran"


@pytest.mark.parametrize("stack", harness.STACKS)
@pytest.mark.parametrize("source", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program(source, stack, tmp_path, gfortran, monkeypatch):
    monkeypatch.setenv("ADGEN_TEST_STACK", stack)     # --stack=heap or static adjoints
    try:
        harness.check_program(source, tmp_path)
        return
    except (AssertionError, harness.SpecError) as exc:
        message = str(exc)
    pytest.fail(message, pytrace=False)     # the harness's message says it all
