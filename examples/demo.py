"""The demo behind `make demo`: differentiate examples/rosenbrock/model.c with adgen,
build it with a small C driver, and compare the adjoint gradient with finite differences.

    python examples/demo.py [--workdir DIR]     (default DIR: build/demo)
"""
import argparse
import os
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MODEL = HERE / "rosenbrock" / "model.c"
DRIVER = HERE / "rosenbrock" / "driver.c"
HEAD = "rosenbrock(rosenbrock)/(x)"


def _run(cmd, shown, echo):
    if echo:
        print("$ " + " ".join(shlex.quote(str(c)) for c in shown), flush=True)
    proc = subprocess.run([str(c) for c in cmd], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{shown[0]} failed (exit {proc.returncode}):\n"
                           f"{proc.stdout}{proc.stderr}")
    return proc.stdout


def run(workdir, echo=True):
    """Runs the demo in workdir; returns (agreed, driver output)."""
    workdir = Path(workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    out = workdir / "model_b.c"
    exe = workdir / "demo"
    rel = lambda p: os.path.relpath(p, ROOT)  # noqa: E731
    adgen = ["--reverse", rel(MODEL), "--head", HEAD, "-o", rel(out)]
    _run([sys.executable, "-m", "adgen"] + adgen, ["adgen"] + adgen, echo)
    cc = os.environ.get("CC", "gcc")
    gcc = ["-std=c99", "-O2", "-Wall", rel(MODEL), rel(out), rel(DRIVER), "-lm", "-o", rel(exe)]
    _run([cc] + gcc, [cc] + gcc, echo)
    proc = subprocess.run([str(exe)], capture_output=True, text=True)
    return proc.returncode == 0, proc.stdout + proc.stderr


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", default=str(ROOT / "build" / "demo"),
                    help="where the generated file and the executable go")
    args = ap.parse_args(argv)
    try:
        agreed, output = run(args.workdir)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(output, end="")
    return 0 if agreed else 1


if __name__ == "__main__":
    sys.exit(main())
