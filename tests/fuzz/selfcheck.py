"""Checks a test program without adgen: it compiles cleanly and runs cleanly.

Used to validate the generator (and the minimizer's candidates): the program must
compile with gcc -std=c99 -Wall -Wextra -Werror at -O0 and -O3, and a small driver
built with AddressSanitizer/UBSan must run it without error and print finite,
moderate outputs.  The driver reads the `adgen-test` block like the harness does,
with its own (not the harness's) random values drawn from the same ranges.
"""

from __future__ import annotations

import math
import random
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

WARN = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas"]
# Fortran programs: standard F2008, no warning at -O0; at -O2 only definite uses of
# unset variables (gfortran's "may be used uninitialized" has false positives on arrays)
FWARN = ["-std=f2008", "-Wall", "-Werror"]
FWARN_O2 = ["-std=f2008", "-O2", "-Wuninitialized", "-Wno-maybe-uninitialized", "-Werror"]
SAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
MAX_OUT = 1e6  # outputs above this mean the value bounds failed


@dataclass
class ArgLine:
    name: str
    base: str  # int, double, ...
    length: str | None  # C length expression for arrays
    init: str | None


@dataclass
class TestBlock:
    heads: list  # (func, deps, indeps)
    args: list
    tol: float
    seed: int
    expect_error: str | None


def parse_block(text: str) -> TestBlock:
    m = re.search(r"/\*\s*adgen-test\b(.*?)\*/", text, re.S)
    if not m:
        raise ValueError("no adgen-test block")
    heads, args, tol, seed, err = [], [], 1e-6, 1, None
    for line in m.group(1).splitlines():
        line = line.strip()
        if line.startswith("head:"):
            hm = re.match(r"head:\s*(\w+)\s*\(([^)]*)\)\s*/\s*\(([^)]*)\)", line)
            heads.append((hm.group(1), hm.group(2).split(), hm.group(3).split()))
        elif line.startswith("arg "):
            am = re.match(r"arg\s+(\w+)\s*:\s*([\w ]+?)\s*(?:\[(.*?)\])?\s*(?:=\s*(.*))?$", line)
            args.append(ArgLine(am.group(1), am.group(2), am.group(3), am.group(4)))
        elif line.startswith("tol:"):
            tol = float(line.split(":", 1)[1])
        elif line.startswith("seed:"):
            seed = int(line.split(":", 1)[1])
        elif line.startswith("expect-error:"):
            err = line.split(":", 1)[1].strip()
    return TestBlock(heads, args, tol, seed, err)


def _values(init: str | None, count: int, rng: random.Random) -> list:
    lo, hi = -1.0, 1.0
    if init and init.strip().startswith("{"):
        return [float(v) for v in init.strip("{} ").split(",")][:count]
    if init:
        um = re.match(r"uniform\(\s*([-\d.eE+]+)\s*,\s*([-\d.eE+]+)\s*\)", init)
        if um:
            lo, hi = float(um.group(1)), float(um.group(2))
        else:
            return [float(init)] * count
    return [rng.uniform(lo, hi) for _ in range(count)]


def make_driver(text: str, source: Path, seed: int = 0) -> str:
    """C driver calling the (first) head once and printing every floating output."""
    blk = parse_block(text)
    func = blk.heads[0][0]
    rng = random.Random(seed)
    ints: dict = {}
    lines = ["#include <stdio.h>", f'#include "{source.name}"', "int main(void)", "{"]
    call, prints = [], []
    for a in blk.args:
        if a.length is None and a.base in ("int", "long"):
            ints[a.name] = int(a.init)
            lines.append(f"    {a.base} {a.name} = {int(a.init)};")
        elif a.length is None:
            lines.append(f"    {a.base} {a.name} = {_values(a.init, 1, rng)[0]!r};")
        else:
            n = int(eval(a.length, {}, dict(ints)))  # lengths are C int expressions over ints
            vals = ", ".join(repr(v) for v in _values(a.init, n, rng))
            lines.append(f"    static {a.base} {a.name}[{max(n, 1)}] = {{{vals}}};")
            prints.append((a.name, n))
        call.append(a.name)
    rets = re.search(rf"\b(\w+)\s+{func}\s*\(", text).group(1)
    invoke = f"{func}({', '.join(call)})"
    if rets != "void":
        lines.append(f'    printf("%.17g\\n", (double){invoke});')
    else:
        lines.append(f"    {invoke};")
    for name, n in prints:
        lines.append(f'    for (int i_ = 0; i_ < {n}; i_++) printf("%.17g\\n", (double){name}[i_]);')
    lines += ["    return 0;", "}", ""]
    return "\n".join(lines)


def _run(cmd, cwd, timeout=60):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def compile_only(source: Path, opt: str = "-O3") -> None:
    """gcc -Werror on the program alone (raises AssertionError)."""
    rc, _, err = _run(["gcc", *WARN, opt, "-c", str(source), "-o", "/dev/null"], source.parent)
    if rc:
        raise AssertionError(f"gcc {opt} rejects the program:\n{err[-3000:]}")


def run_driver(source: Path, workdir: Path, sanitize: bool = True) -> list:
    """Builds the driver (with sanitizers) and returns the printed outputs."""
    text = source.read_text()
    drv = workdir / f"{source.stem}_drv.c"
    drv.write_text(make_driver(text, source))
    exe = workdir / f"{source.stem}_drv"
    flags = SAN if sanitize else []
    rc, _, err = _run(["gcc", *WARN, "-O1", "-g", *flags, f"-I{source.parent}", str(drv),
                       "-o", str(exe), "-lm"], workdir, timeout=120)
    if rc:
        raise AssertionError(f"driver build failed:\n{err[-3000:]}")
    rc, out, err = _run([str(exe)], workdir, timeout=60)
    if rc:
        raise AssertionError(f"program crashed or sanitizer error (exit {rc}):\n{err[-3000:]}")
    vals = [float(x) for x in out.split()]
    bad = [v for v in vals if not math.isfinite(v) or abs(v) > MAX_OUT]
    if bad:
        raise AssertionError(f"non-finite or huge outputs: {bad[:5]}")
    return vals


def check_self(source: Path, workdir: Path) -> None:
    """Same shape as harness.check_program: raise AssertionError on a problem."""
    workdir.mkdir(parents=True, exist_ok=True)
    compile_only(source, "-O0")
    compile_only(source, "-O3")
    run_driver(source, workdir)


def compile_fortran(source: Path, workdir: Path) -> None:
    """gfortran -std=f2008 -Wall -Werror on the program alone (raises AssertionError)."""
    workdir.mkdir(parents=True, exist_ok=True)
    for flags in (FWARN, FWARN_O2):
        # .mod files go to workdir (and are read from there only: -J, cwd)
        rc, _, err = _run(["gfortran", *flags, "-J", str(workdir), "-c", str(source.resolve()),
                           "-o", "/dev/null"], workdir)
        if rc:
            raise AssertionError(f"gfortran {' '.join(flags)} rejects the program:\n{err[-3000:]}")
