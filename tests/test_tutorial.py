"""docs/tutorial.md, run as a reader would: its files are saved, `make gradient` builds and
runs the C program, and its Python test passes."""
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "tutorial.md"


def saved_files(text):
    """{name: contents} of the blocks introduced by 'Save as `NAME`:'."""
    files = {}
    for m in re.finditer(r"Save as `([^`]+)`[^\n]*:\s*\n\s*```\w*\n(.*?)\n```", text, re.S):
        files[m.group(1)] = m.group(2) + "\n"
    return files


def test_tutorial_runs(tmp_path):
    text = DOC.read_text()
    files = saved_files(text)
    assert {"spring.c", "Makefile", "gradient.c", "test_spring.py"} <= set(files)
    for name, body in files.items():
        (tmp_path / name).write_text(body)
    env = dict(os.environ, ADGEN=f"{sys.executable} -m adgen",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    make = subprocess.run(["make", "gradient"], cwd=tmp_path, env=env, capture_output=True,
                          text=True)
    assert make.returncode == 0, make.stdout + make.stderr
    run = subprocess.run(["./gradient"], cwd=tmp_path, capture_output=True, text=True)
    shown = re.search(r"prints\s*\n\s*```\n(.*?)\n```", text, re.S).group(1)
    assert run.stdout.strip() == shown.strip()
    env["ADGEN_CACHE"] = str(tmp_path / "cache")
    test = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "test_spring.py"], cwd=tmp_path, env=env, capture_output=True,
                          text=True)
    assert test.returncode == 0, test.stdout + test.stderr
