"""`pip install .` from a clean copy of the checkout, outside the repository: the installed
`adgen` has its templates, headers and CMake module, and `adgen --help` names
documentation that is there."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the installed adgen's own environment: not the checkout's that tests/conftest.py sets
INSTALLED = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def clean_copy(dest):
    """The files git tracks, copied to dest: a checkout without builds or a .venv."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            (dest / name).write_bytes((ROOT / name).read_bytes())
    return dest


def _externally_managed_python():
    """A python3 on this machine that refuses pip installs (PEP 668), or None."""
    for cand in ("/usr/bin/python3", shutil.which("python3")):
        if not cand or not Path(cand).exists():
            continue
        stdlib = subprocess.run([cand, "-c", "import sysconfig; print(sysconfig.get_path("
                                 "'stdlib'))"], capture_output=True, text=True).stdout.strip()
        if stdlib and (Path(stdlib) / "EXTERNALLY-MANAGED").exists():
            return cand
    return None


def test_make_setup_with_an_externally_managed_python(tmp_path):
    """`make demo` and `make test` install into a virtual environment of the checkout: with
    Debian's own python3 (PEP 668: "externally-managed-environment") they worked only
    after a manual step."""
    python = _externally_managed_python()
    if python is None:
        pytest.skip("no externally-managed python3 here (Debian's or Ubuntu's) to try")
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    src = clean_copy(tmp_path / "src")
    proc = subprocess.run(["make", "setup", f"PYTHON={python}"], cwd=src, capture_output=True, env=INSTALLED,
                          text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    proc = subprocess.run([str(src / ".venv" / "bin" / "python"), "-m", "adgen", "--reverse",
                           "examples/rosenbrock/model.c", "-o", "-"], cwd=src,
                          capture_output=True, env=INSTALLED, text=True, timeout=300)
    assert proc.returncode == 0 and "rosenbrock_b(" in proc.stdout, proc.stderr


def test_pip_install_gives_a_working_adgen(tmp_path):
    src = clean_copy(tmp_path / "src")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300, env=INSTALLED)
    py = venv / "bin" / "python"
    proc = subprocess.run([str(py), "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", str(src)],
                          capture_output=True, env=INSTALLED, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    adgen = venv / "bin" / "adgen"
    work = tmp_path / "elsewhere"           # not the checkout: nothing found by accident
    work.mkdir()
    model = work / "model.c"
    model.write_text((ROOT / "examples" / "rosenbrock" / "model.c").read_text())
    for mode in ("--reverse", "--forward"):
        proc = subprocess.run([str(adgen), mode, "model.c", "--stack=static", "-o", "out.c"],
                              cwd=work, capture_output=True, env=INSTALLED, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "out.c"],
                       cwd=work, check=True, timeout=300, env=INSTALLED)
    helptext = subprocess.run([str(adgen), "--help"], cwd=work, capture_output=True, env=INSTALLED,
                              text=True).stdout
    m = re.search(r"Documentation:\s+(\S+)", helptext)
    assert m and (Path(m.group(1)) / "cli.md").is_file(), helptext
    assert str(src) not in m.group(1) and str(ROOT) not in m.group(1)
    cmake = subprocess.run([str(adgen), "--print-cmake-module"], capture_output=True, env=INSTALLED,
                           text=True).stdout.strip()
    assert Path(cmake).is_file() and str(venv) in cmake
