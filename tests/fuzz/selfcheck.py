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
# unset variables (gfortran's "may be used uninitialized" has false positives on arrays,
# and at -O0 on the descriptor of an allocatable array an assignment allocates)
FWARN = ["-std=f2008", "-Wall", "-Wno-maybe-uninitialized", "-Werror"]
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
class FieldLine:
    path: str  # fz_hd.sub.x
    base: str  # int, double, or a struct type (with pointer)
    length: str | None
    init: str | None


@dataclass
class TestBlock:
    heads: list  # (func, deps, indeps)
    args: list
    tol: float
    seed: int
    expect_error: str | None
    fields: list = None  # FieldLine of the handles (`arg h: T* = handle`)


def parse_block(text: str) -> TestBlock:
    m = re.search(r"/\*\s*adgen-test\b(.*?)\*/", text, re.S)
    if not m:
        raise ValueError("no adgen-test block")
    heads, args, tol, seed, err, fields = [], [], 1e-6, 1, None, []
    for line in m.group(1).splitlines():
        line = line.strip()
        if line.startswith("field "):
            fm = re.match(r"field\s+([\w.]+)\s*:\s*([\w ]+?\*?)\s*(?:\[(.*?)\])?\s*(?:=\s*(.*))?$",
                          line)
            fields.append(FieldLine(fm.group(1), fm.group(2), fm.group(3), fm.group(4)))
        elif line.startswith("head:"):
            hm = re.match(r"head:\s*(\w+)\s*\(([^)]*)\)\s*/\s*\(([^)]*)\)", line)
            heads.append((hm.group(1), hm.group(2).split(), hm.group(3).split()))
        elif line.startswith("arg "):
            am = re.match(r"arg\s+(\w+)\s*:\s*([\w ]+?\*?)\s*(?:\[(.*?)\])?\s*(?:=\s*(.*))?$", line)
            args.append(ArgLine(am.group(1), am.group(2), am.group(3), am.group(4)))
        elif line.startswith("tol:"):
            tol = float(line.split(":", 1)[1])
        elif line.startswith("seed:"):
            seed = int(line.split(":", 1)[1])
        elif line.startswith("expect-error:"):
            err = line.split(":", 1)[1].strip()
    return TestBlock(heads, args, tol, seed, err, fields)


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


def _pyexpr(expr: str) -> str:
    """A length or value of the block over the ints known (a handle's field `h.n` is
    named h__n)."""
    return re.sub(r"\b(\w+)\.(?=\w)", r"\1__", expr.replace("->", "."))


def _handle(blk: TestBlock, name: str, base: str, ints: dict, rng: random.Random,
            lines: list, prints: list):
    """Declares the struct(s) of handle `name` (its field lines), their arrays and values;
    the arrays and floating-point fields are printed after the call."""
    lines.append(f"    static {base.rstrip('* ').strip()} {name};")
    for f in blk.fields:
        if f.path.split(".")[0] != name:
            continue
        owner, field = f.path.rsplit(".", 1)
        holder = owner.replace(".", "__")       # the C variable of the struct holding it
        var = f.path.replace(".", "__")
        ftype = f.base.strip()
        if ftype.endswith("*"):                 # a nested struct
            lines.append(f"    static {ftype.rstrip('* ').strip()} {var};")
            lines.append(f"    {holder}.{field} = &{var};")
        elif f.length is not None:
            n = int(eval(_pyexpr(f.length), {}, dict(ints)))
            if ftype in ("int", "long"):
                vals = ", ".join(str(rng.randrange(0, 3)) for _ in range(n))
            else:
                vals = ", ".join(repr(v) for v in _values(f.init, n, rng))
                prints.append((var, n))
            lines.append(f"    static {ftype} {var}[{max(n, 1)}] = {{{vals}}};")
            lines.append(f"    {holder}.{field} = {var};")
        elif ftype in ("int", "long"):
            ints[var] = int(eval(_pyexpr(f.init), {}, dict(ints)))
            lines.append(f"    {holder}.{field} = {ints[var]};")
        else:
            lines.append(f"    {holder}.{field} = {_values(f.init, 1, rng)[0]!r};")
            prints.append((f"(&{holder}.{field})", 1))
    return f"&{name}" if base.strip().endswith("*") else name


def make_driver(text: str, source: Path, seed: int = 0) -> str:
    """C driver calling the (first) head once and printing every floating output."""
    blk = parse_block(text)
    func = blk.heads[0][0]
    rng = random.Random(seed)
    ints: dict = {}
    lines = ["#include <stdio.h>", f'#include "{source.name}"', "int main(void)", "{"]
    call, prints = [], []
    for a in blk.args:
        if a.init == "handle":
            call.append(_handle(blk, a.name, a.base, ints, rng, lines, prints))
            continue
        if a.length is None and a.base in ("int", "long"):
            ints[a.name] = int(a.init)
            lines.append(f"    {a.base} {a.name} = {int(a.init)};")
        elif a.length is None:
            lines.append(f"    {a.base} {a.name} = {_values(a.init, 1, rng)[0]!r};")
        else:
            n = int(eval(_pyexpr(a.length), {}, dict(ints)))  # C int expressions over ints
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
