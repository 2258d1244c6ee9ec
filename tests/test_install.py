"""`pip install .` from a clean copy of the checkout, outside the repository: the installed
`adgen` has its templates, headers and CMake module, and `adgen --help` names
documentation that is there."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_pip_install_gives_a_working_adgen(tmp_path):
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    src = tmp_path / "src"
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_bytes((ROOT / name).read_bytes())
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    proc = subprocess.run([str(py), "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", str(src)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    adgen = venv / "bin" / "adgen"
    work = tmp_path / "elsewhere"           # not the checkout: nothing found by accident
    work.mkdir()
    model = work / "model.c"
    model.write_text((ROOT / "examples" / "rosenbrock" / "model.c").read_text())
    for mode in ("--reverse", "--forward"):
        proc = subprocess.run([str(adgen), mode, "model.c", "--stack=static", "-o", "out.c"],
                              cwd=work, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "out.c"],
                       cwd=work, check=True, timeout=300)
    helptext = subprocess.run([str(adgen), "--help"], cwd=work, capture_output=True,
                              text=True).stdout
    m = re.search(r"Documentation:\s+(\S+)", helptext)
    assert m and (Path(m.group(1)) / "cli.md").is_file(), helptext
    assert str(src) not in m.group(1) and str(ROOT) not in m.group(1)
    cmake = subprocess.run([str(adgen), "--print-cmake-module"], capture_output=True,
                           text=True).stdout.strip()
    assert Path(cmake).is_file() and str(venv) in cmake
