#!/usr/bin/env python3
"""Generation-time benchmark: how adgen's own running time and memory grow with its input.

Not a unit test. For each shape of program below it writes synthetic inputs of growing size,
runs `python -m adgen --reverse` on each in a child process, and reports the CPU seconds and
peak resident memory of that child, with the growth exponent fitted (least squares on
log time against log size: helpers, subroutines or depth) over the sizes that finished. The target is an exponent of at
most 1.15 (n log n); it is reported as PASS/MISS and never fails the run.

Shapes (size = the parameter in the table):
  c        C file of layered helpers: each a loop with math calls, calling two or three
           earlier ones; size = number of helpers
  fortran  the same helpers as Fortran modules of 20 subroutines each
  expr     one assignment nested `size` deep
  loops    `size` nested counted loops

    python bench/gen_time.py                  # the quick sizes (`make bench-gen`)
    python bench/gen_time.py --full           # the sizes of the targets (hours today)
    python bench/gen_time.py --shapes c,expr --sizes 10,20,40 --timeout 120
Options: --out FILE writes the report as a section of that markdown file, keeping the rest
(`make bench-gen`: docs/benchmarks.md; default: print only), --keep DIR keeps the
generated programs and derivatives.

Standard library only.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The machine line and the report file are shared with the speed benchmark beside this file.
from run import GEN_TIME_MARKS, machine_info, verdict, with_section, write_atomic

REPO = Path(__file__).resolve().parent.parent
TARGET_EXPONENT = 1.15

QUICK = {"c": [10, 20, 40], "fortran": [20, 40], "expr": [100, 200, 400, 1000],
         "loops": [25, 50, 100, 200]}
FULL = {"c": [40, 160, 400, 1600], "fortran": [40, 160, 400, 1600],
        "expr": [100, 200, 400, 1000], "loops": [25, 50, 100, 200]}


def callees_of(k, rng):
    """The earlier helpers helper k calls (two or three, fewer at the start)."""
    return sorted(rng.sample(range(k), min(k, rng.choice([2, 3])))) if k else []


def c_layered(size, seed=1):
    rng = random.Random(seed)
    out = ["#include <math.h>", ""]
    for k in range(size):
        out += [f"static double h{k}(int n, const double *x, double *y, double s)", "{",
                "    double t = s;",
                "    for (int i = 0; i < n; i++) {",
                f"        double a = x[i] * t + {k % 7 + 1}.0;",
                "        y[i] = sin(a) * y[i] + exp(-a * a) * t;",
                "        t = t + 0.5 * cos(y[i]);",
                "    }"]
        out += [f"    t = t + h{c}(n, y, y, t * 0.25);" for c in callees_of(k, rng)]
        out += ["    if (t > 1.0) t = sqrt(t);", "    return t;", "}", ""]
    out += ["double top(int n, const double *x, double *y)", "{", "    double s = 0.0;"]
    out += [f"    s = s + h{k}(n, x, y, 0.5);" for k in range(max(0, size - 3), size)]
    out += ["    return s;", "}"]
    return "\n".join(out) + "\n", "c", "top(top)/(x)"


def fortran_layered(size, seed=1, per_module=20):
    rng = random.Random(seed)
    out = []
    modules = (size + per_module - 1) // per_module
    for m in range(modules):
        out += [f"module layer{m}"] + [f"  use layer{p}" for p in range(m)]
        out += ["  implicit none", "contains"]
        for k in range(m * per_module, min(size, (m + 1) * per_module)):
            out += [f"  subroutine h{k}(n, x, y, s)",
                    "    integer, intent(in) :: n",
                    "    real(8), intent(in) :: x(n)",
                    "    real(8), intent(inout) :: y(n), s",
                    "    real(8) :: a, t",
                    "    integer :: i",
                    "    t = s",
                    "    do i = 1, n",
                    f"      a = x(i) * t + {k % 7 + 1}.0d0",
                    "      y(i) = sin(a) * y(i) + exp(-a * a) * t",
                    "      t = t + 0.5d0 * cos(y(i))",
                    "    end do"]
            for c in callees_of(k, rng):
                out += ["    a = t * 0.25d0", f"    call h{c}(n, y, y, a)", "    t = t + a"]
            out += ["    if (t > 1.0d0) t = sqrt(t)", "    s = t", f"  end subroutine h{k}"]
        out += [f"end module layer{m}", ""]
    out += ["subroutine top(n, x, y, s)"] + [f"  use layer{p}" for p in range(modules)]
    out += ["  implicit none", "  integer, intent(in) :: n", "  real(8), intent(in) :: x(n)",
            "  real(8), intent(inout) :: y(n)", "  real(8), intent(out) :: s",
            "  real(8) :: a", "  s = 0.0d0"]
    for k in range(max(0, size - 3), size):
        out += ["  a = 0.5d0", f"  call h{k}(n, x, y, a)", "  s = s + a"]
    out += ["end subroutine top"]
    return "\n".join(out) + "\n", "f90", "top(s)/(x)"


def c_expression(size, seed=1):
    rng = random.Random(seed)
    e = "x[0]"
    for k in range(size):
        op = rng.choice(["sin({})", "({}) * x[{}]", "({}) + x[{}] * x[{}]", "exp(0.01 * ({}))"])
        e = op.format(e, k % 4, (k + 1) % 4)
    return ("#include <math.h>\n\ndouble f(const double *x)\n{\n"
            f"    double y = {e};\n    return y;\n}}\n", "c", "f(f)/(x)")


def c_loop_nest(size, seed=1):
    out = ["double f(int n, const double *x)", "{", "    double s = 0.0;"]
    for d in range(size):
        out.append("    " * (d + 1) + f"for (int i{d} = 0; i{d} < n; i{d}++) {{")
    out.append("    " * (size + 1) + f"s = s * 0.5 + x[i{size - 1}] * x[i0];")
    for d in reversed(range(size)):
        out.append("    " * (d + 1) + "}")
    out += ["    return s;", "}"]
    return "\n".join(out) + "\n", "c", "f(f)/(x)"


SHAPES = {"c": c_layered, "fortran": fortran_layered, "expr": c_expression,
          "loops": c_loop_nest}
DESCRIPTION = {"c": "C, layered helpers", "fortran": "Fortran modules, layered helpers",
               "expr": "C, one nested expression", "loops": "C, nested loops"}
UNIT = {"c": "helpers", "fortran": "subroutines", "expr": "depth", "loops": "depth"}


def run_adgen(src, head, out, timeout):
    """(cpu seconds, peak RSS in MiB, status) of one adgen run in a child process."""
    cmd = [sys.executable, "-m", "adgen", "--reverse", str(src), "--head", head, "-o", str(out)]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - start > timeout:
            proc.kill()
            os.wait4(proc.pid, 0)
            return None, None, f"not done after {timeout:g} s"
        time.sleep(0.05)
    err = proc.stderr.read().decode(errors="replace").strip()
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    mib = usage.ru_maxrss / 1024.0
    if proc.returncode != 0:
        return cpu, mib, "failed: " + (err.splitlines() or ["?"])[-1][:100]
    return cpu, mib, "ok"


def fitted_exponent(points):
    """Slope of log y against log x, least squares; None with fewer than two points."""
    pts = [(math.log(x), math.log(max(y, 1e-3))) for x, y in points]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="the sizes of the targets")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--sizes", help="comma-separated sizes for every shape")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--out", help="write the markdown report here")
    ap.add_argument("--keep", help="keep the programs and derivatives in this directory")
    args = ap.parse_args(argv)
    shapes = [s for s in args.shapes.split(",") if s]
    bad = [s for s in shapes if s not in SHAPES]
    if bad:
        ap.error(f"unknown shape {bad[0]!r} (shapes: {', '.join(SHAPES)})")
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="adgen-gen-"))
    work.mkdir(parents=True, exist_ok=True)
    rows, fits = [], []
    try:
        for shape in shapes:
            sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else \
                (FULL if args.full else QUICK)[shape]
            done = []
            for size in sizes:
                text, ext, head = SHAPES[shape](size)
                src = work / f"{shape}{size}.{ext}"
                src.write_text(text)
                lines = text.count("\n")
                cpu, mib, status = run_adgen(src, head, work / f"{shape}{size}_b.c",
                                             args.timeout)
                rows.append((DESCRIPTION[shape], f"{size} {UNIT[shape]}", lines, cpu, mib,
                             status))
                print(f"{shape} {size}: {lines} lines, "
                      + (f"{cpu:.2f} s CPU, {mib:.0f} MiB" if cpu is not None else "")
                      + f" {status}", file=sys.stderr, flush=True)
                if status != "ok":
                    break
                done.append((size, cpu))
            fits.append((DESCRIPTION[shape], fitted_exponent(done),
                         fitted_exponent([(x, y) for x, y in done[-2:]])))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    info = machine_info()
    report = [GEN_TIME_MARKS[0], "## Generation time of adgen", "",
              f"Generated by `python bench/gen_time.py{' --full' if args.full else ''}` on "
              f"{time.strftime('%Y-%m-%d %H:%M')} ({'full' if args.full else 'quick'} sizes): "
              f"`{info['machine']}`, {info['cpu']}, {os.cpu_count()} CPUs; Python "
              f"{info['python']}; adgen at commit {info['commit']}. CPU seconds and peak "
              "resident memory of one `adgen --reverse` run in a child process.", "",
              "| Program | Size | Lines | CPU | Peak memory | |", "|---|---|---|---|---|---|"]
    for desc, size, lines, cpu, mib, status in rows:
        report.append(f"| {desc} | {size} | {lines} | "
                      + (f"{cpu:.2f} s | {mib:.0f} MiB" if cpu is not None else "— | —")
                      + f" | {status} |")
    report += ["", f"Growth of CPU time with the size (helpers or depth; target: exponent at most "
                   f"{TARGET_EXPONENT}):", "",
               "| Program | Exponent over all sizes | Exponent over the last two | |",
               "|---|---|---|---|"]
    for desc, fit, last in fits:
        report.append(f"| {desc} | " + ("—" if fit is None else f"{fit:.2f}") + " | "
                      + ("—" if last is None else f"{last:.2f}") + " | "
                      + ("—" if fit is None else verdict(fit, TARGET_EXPONENT)) + " |")
    report.append(GEN_TIME_MARKS[1])
    text = "\n".join(report) + "\n"
    print(text)
    if args.out:
        # The section goes into the report beside the other benchmarks' (docs/benchmarks.md),
        # replacing its previous run and keeping the rest of the file.
        previous = Path(args.out).read_text() if Path(args.out).exists() else ""
        write_atomic(args.out, with_section(previous, text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
