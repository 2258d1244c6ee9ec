"""Seeded random MPI programs, for `python -m tests.fuzz --lang mpi`.

Each program defines `double cost(int n, double *x)` over its rank's block of a global
vector, as the programs of testsuite/mpi do, from a recipe with random parts: a field u
with a halo cell at each end set from the block (zero, or mirrored from the field), a few
steps of a random nonlinear stencil, each after a halo exchange of a random kind (blocking
MPI_Sendrecv, MPI_Send / MPI_Recv ordered by the rank's parity, MPI_Irecv / MPI_Isend in a
random order completed by MPI_Waitall or one MPI_Wait at a time, an MPI_Isend before a
blocking MPI_Recv), the neighbours past the ends MPI_PROC_NULL or the ring closed, the
exchange in the step or in a function of its own; then reductions over the ranks of
random kinds (MPI_Allreduce with MPI_SUM, MPI_MAX, MPI_MIN or MPI_PROD, in place or not,
MPI_Reduce to rank 0 and MPI_Bcast, an MPI_Allgather in place). `check` builds adgen's
adjoint, tangent and vector tangent with testsuite/mpi/driver.c (central differences,
the dot-product test, the vector tangent) and runs it on 2 ranks.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DRIVER = REPO / "testsuite" / "mpi" / "driver.c"
RANKS = 2
MARK = "/* distributed fuzz seed"     # (the first line: tests/fuzz/runner.py checks it here)
# (bounded: a few steps of the stencil keep the values, and so the central differences,
# in range)
UNARY = ("sin", "cos", "tanh")


def generate(seed: int) -> str:
    rng = random.Random(seed)
    ring = rng.random() < 0.3
    mirror = not ring and rng.random() < 0.5
    exchange = rng.choice(("sendrecv", "parity", "waitall", "waits", "isend_recv"))
    helper = rng.random() < 0.4
    steps = rng.randint(1, 3)
    lines = [f"{MARK} {seed}: halos by {exchange}"
             f"{', a ring' if ring else ', MPI_PROC_NULL past the ends'}"
             f"{', mirrored' if mirror else ''}{', exchanged in a function' if helper else ''}"
             " */", "#include <math.h>", "#include <mpi.h>", "", "#define NMAX 64", ""]
    body = _exchange(rng, exchange)
    if helper:
        lines += ["static void exchange(int n, double *u, int left, int right)", "{"] + \
            _declarations(exchange) + body + ["}", ""]
    reductions = _reductions(rng)
    lines += ["double cost(int n, double *x)", "{",
              "    double u[NMAX + 2], v[NMAX + 2], local = 0.0, total = 0.0, other = 0.0;"]
    lines += [f"    double {name};" for name in ("pair[2]", "all[8]")
              if any(name[:name.index("[")] + "[" in line or name[:name.index("[")] + ","
                     in line for line in reductions)]
    lines += ["    int rank, size, left, right, i, t;"]
    if not helper:
        lines += _declarations(exchange)
    lines += ["    MPI_Comm_rank(MPI_COMM_WORLD, &rank);",
              "    MPI_Comm_size(MPI_COMM_WORLD, &size);"]
    if ring:
        lines += ["    left = (rank + size - 1) % size;", "    right = (rank + 1) % size;"]
    else:
        lines += ["    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;",
                  "    right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;"]
    lines += ["    for (i = 1; i <= n; i++)",
              f"        u[i] = {_expr(rng, 'x[i - 1]')};"]
    if mirror:
        lines += [f"    u[0] = {_c(rng.uniform(0.5, 2))} * u[1];",
                  f"    u[n + 1] = {_c(rng.uniform(0.5, 2))} * u[n];"]
    else:
        lines += ["    u[0] = 0.0;", "    u[n + 1] = 0.0;"]
    lines += [f"    for (t = 0; t < {steps}; t++) {{"]
    if helper:
        lines += ["        exchange(n, u, left, right);"]
    else:
        lines += ["    " + line for line in body]
    a, b, c = (_c(rng.uniform(0.05, 0.25)) for _ in range(3))
    lines += ["        for (i = 1; i <= n; i++)",
              f"            v[i] = u[i] + {a} * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + "
              f"{b} * {rng.choice(UNARY)}(u[i - 1]) * u[i + 1] - {c} * u[i] * u[i];",
              "        for (i = 1; i <= n; i++)", "            u[i] = v[i];", "    }",
              "    for (i = 1; i <= n; i++)",
              f"        local += {_expr(rng, 'u[i]')} * (1.0 + 0.1 * i);"]
    lines += reductions
    lines += ["    return total + other;", "}"]
    return "\n".join(lines) + "\n"


def _declarations(exchange):
    if exchange in ("waitall", "waits"):
        return ["    MPI_Request requests[4];", "    int k;"] if exchange == "waits" else \
            ["    MPI_Request requests[4];"]
    if exchange == "isend_recv":
        return ["    MPI_Request requests[2];"]
    return ["    int even;"] if exchange == "parity" else []


def _exchange(rng, kind):
    """The statements of one halo exchange of u[0] and u[n + 1] with left and right: each
    way its own tag, or one tag for both (in a ring of two ranks left is right, and the
    two messages each way share a channel, which MPI pairs in the order of the posts)."""
    world = "MPI_COMM_WORLD"
    one, two = (1, 2) if kind == "parity" or rng.random() < 0.5 else (1, 1)
    recv_l = f"MPI_Recv(&u[0], 1, MPI_DOUBLE, left, {one}, {world}, MPI_STATUS_IGNORE);"
    recv_r = f"MPI_Recv(&u[n + 1], 1, MPI_DOUBLE, right, {two}, {world}, MPI_STATUS_IGNORE);"
    send_r = f"MPI_Send(&u[n], 1, MPI_DOUBLE, right, {one}, {world});"
    send_l = f"MPI_Send(&u[1], 1, MPI_DOUBLE, left, {two}, {world});"
    if kind == "sendrecv":
        return [f"    MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, {one}, &u[0], 1, MPI_DOUBLE, left, "
                f"{one}, {world}, MPI_STATUS_IGNORE);",
                f"    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, {two}, &u[n + 1], 1, MPI_DOUBLE, "
                f"right, {two}, {world}, MPI_STATUS_IGNORE);"]
    if kind == "parity":
        # (a ring of an odd number of ranks would not do: the tests run 2)
        return ["    MPI_Comm_rank(MPI_COMM_WORLD, &even);", "    even = even % 2 == 0;",
                "    if (even) {", f"        {send_r}", f"        {recv_r}", f"        {send_l}",
                f"        {recv_l}", "    } else {", f"        {recv_l}", f"        {send_l}",
                f"        {recv_r}", f"        {send_r}", "    }"]
    posts = [f"MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, {one}, {world}, &requests[0]);",
             f"MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, {two}, {world}, &requests[1]);",
             f"MPI_Isend(&u[n], 1, MPI_DOUBLE, right, {one}, {world}, &requests[2]);",
             f"MPI_Isend(&u[1], 1, MPI_DOUBLE, left, {two}, {world}, &requests[3]);"]
    if kind == "isend_recv":
        first = rng.random() < 0.5
        return [f"    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, {one}, {world}, &requests[0]);",
                f"    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, {two}, {world}, &requests[1]);",
                f"    {recv_l if first else recv_r}", f"    {recv_r if first else recv_l}",
                "    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);"]
    rng.shuffle(posts)
    out = [f"    {p}" for p in posts]
    if kind == "waitall":
        return out + ["    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);"]
    down = rng.random() < 0.5
    return out + [f"    for (k = {'3' if down else '0'}; k {'>= 0' if down else '< 4'}; "
                  f"k{'--' if down else '++'})",
                  "        MPI_Wait(&requests[k], MPI_STATUS_IGNORE);"]


def _reductions(rng):
    world = "MPI_COMM_WORLD"
    kind = rng.choice(("sum", "op", "op_in_place", "reduce_bcast", "allgather"))
    if kind == "sum":
        return [f"    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, {world});"]
    if kind in ("op", "op_in_place"):
        op = rng.choice(("MPI_MAX", "MPI_MIN", "MPI_PROD"))
        out = ["    pair[0] = local;", f"    pair[1] = {_c(rng.uniform(0.5, 1.5))} + local * local;"]
        if kind == "op":
            out += [f"    MPI_Allreduce(pair, all, 2, MPI_DOUBLE, {op}, {world});"]
        else:
            out += [f"    MPI_Allreduce(MPI_IN_PLACE, pair, 2, MPI_DOUBLE, {op}, {world});",
                    "    all[0] = pair[0];", "    all[1] = pair[1];"]
        return out + ["    total = all[0] + 0.5 * all[1];",
                      f"    MPI_Allreduce(&local, &other, 1, MPI_DOUBLE, MPI_SUM, {world});"]
    if kind == "reduce_bcast":
        return [f"    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, {world});",
                f"    MPI_Bcast(&total, 1, MPI_DOUBLE, 0, {world});",
                "    other = total * total * 0.01;"]
    return ["    all[rank] = local;",
            f"    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_DOUBLE, {world});",
            "    for (i = 0; i < size; i++)",
            f"        total += all[i] * all[i] * {_c(rng.uniform(0.5, 1.5))} + (i + 1) * all[i];"]


def _expr(rng, v):
    f = rng.choice(UNARY)
    return rng.choice((f"{f}({v}) + {_c(rng.uniform(0.1, 0.9))} * {v}",
                       f"{v} * {v} * {_c(rng.uniform(0.2, 0.8))} + {f}({_c(rng.uniform(0.2, 0.5))} * {v})",
                       f"{v} + {_c(rng.uniform(0.1, 0.4))} * {v} * {v}"))


def _c(v):
    return repr(round(v, 3))


def check(source: Path, workdir: Path) -> dict:
    """adgen's adjoint, tangent and vector tangent of the program, built with the MPI test
    driver and run on RANKS ranks: {'status': 'pass' | 'fail', 'kinds', 'message'}."""
    for path in (str(REPO / "tests"), str(REPO)):
        if path not in sys.path:
            sys.path.insert(0, path)
    import harness
    workdir.mkdir(parents=True, exist_ok=True)
    parts = [source, DRIVER]
    for mode, suffix, extra in (("--reverse", "b", []), ("--forward", "d", []),
                                ("--forward", "dv", ["--vector"])):
        out = workdir / f"{source.stem}_{suffix}.c"
        p = subprocess.run([sys.executable, "-m", "adgen", str(source), mode, "--head",
                            "cost(cost)/(x)", *extra, "-o", str(out)], capture_output=True,
                           text=True, timeout=harness.ADGEN_TIMEOUT)
        if p.returncode != 0:
            return {"status": "fail", "kinds": [f"adgen {mode[2:]}{' --vector' if extra else ''}"],
                    "message": p.stderr}
        parts.append(out)
    exe = workdir / source.stem
    p = subprocess.run(["mpicc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-O1", "-o",
                        str(exe), *map(str, parts), "-lm"], capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        return {"status": "fail", "kinds": ["mpicc"], "message": p.stderr}
    try:
        run = harness.mpirun(RANKS, [str(exe)], timeout=60)
    except subprocess.TimeoutExpired:
        return {"status": "fail", "kinds": ["mpirun timeout (a deadlock?)"], "message": ""}
    if run.returncode != 0 or "\nOK\n" not in run.stdout:
        kinds = sorted({line.split()[0].lower() for line in run.stdout.splitlines()
                        if "MISMATCH" in line}) or ["mpirun"]
        return {"status": "fail", "kinds": kinds, "message": run.stdout + run.stderr[-2000:]}
    return {"status": "pass", "kinds": [], "message": ""}
