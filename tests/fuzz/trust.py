"""Seeded random C programs of the shapes that make derivatives silently wrong, for
`python -m tests.fuzz --lang trust`.

The main generator (generator.py) keeps values small, loops short and code in adgen's own
style. These programs are what it leaves out, each a recipe with random parameters:

 * recurrence: long loops whose iterates grow or shrink geometrically (increments
   `x += a * y`, a residual updated in place until it has converged); the number of steps
   is chosen by running the recurrence in Python, as far as the values stay in range. The
   dot-product test (tangent against adjoint, 1e-12) catches any value the backward sweep
   restores inexactly.
 * clamp: a guard or clamp evaluated at the singular point of what it guards
   (`fmax(sqrt(v . v), c)` at v = 0, a ternary on a norm, hypot and pow at the origin):
   the derivative is the branch taken's, finite, and no NaN may come from the other.
 * f2c: array parameters decremented on entry and one-based loops, an output overwritten
   and read again, an in/out array: every access the derivative code makes must stay in
   the caller's arrays (the harness's guard cells).

Any of them may also redeclare the library functions it calls (`double pow(double,
double);`), and keep statics that carry no state: weights set on the first call, a scratch
array filled before it is read, a call counter.
"""

from __future__ import annotations

import random

HEAD = "fz_head"
UNARY = {"sqrt": "double sqrt(double);", "sin": "extern double sin(double);",
         "tanh": "double tanh(double x);", "exp": "extern double exp(double);",
         "cbrt": "double cbrt(double);", "atan": "double atan(double);"}
BINARY = {"pow": "double pow(double, double);", "hypot": "extern double hypot(double, double);",
          "fmax": "double fmax(double, double);", "atan2": "double atan2(double y, double x);"}


def generate(seed: int) -> str:
    rng = random.Random(seed)
    shape = rng.choice((recurrence, recurrence, residual, clamp, clamp, f2c))
    return shape(rng, seed)


def _c(v: float) -> str:
    return repr(round(v, 4)) if v != int(v) else f"{v:.1f}"


def _block(seed, head, args, extra=()):
    lines = ["/* adgen-test", f"head: {head}"] + [f"arg {a}" for a in args] + \
        [f"seed: {seed % 1000 + 1}"] + list(extra) + ["*/"]
    return "\n".join(lines)


def _prelude(rng, used):
    """#include <math.h>, some of the used functions declared again, and the statics."""
    out = ["#include <math.h>"]
    for name in sorted(used):
        if rng.random() < 0.5:
            out.append({**UNARY, **BINARY}.get(name, ""))
    return [line for line in out if line]


def _statics(rng):
    """Statics that carry no state: (declarations, code at the top of the head, a factor
    the head may multiply by)."""
    decls, top, factor = [], [], "1.0"
    if rng.random() < 0.4:
        w = [_c(rng.uniform(0.5, 1.5)) for _ in range(2)]
        decls += ["static int fz_ready = 0;", "static double fz_w[2];"]
        top += ["    if (!fz_ready) {", f"        fz_w[0] = {w[0]};", f"        fz_w[1] = {w[1]};",
                "        fz_ready = 1;", "    }"]
        factor = "fz_w[0]"
    if rng.random() < 0.3:
        decls.append("static long fz_calls = 0;")
        top.append("    fz_calls++;")
    return decls, top, factor


# ------------------------------------------------------------------ recurrence

def recurrence(rng, seed):
    k = rng.randint(2, 4)
    names = [f"x{j}" for j in range(k)]
    # increments x_a += c * x_b (a != b) and a few scalings x_a = x_a * s: linear, so the
    # growth is that of a matrix power, and the values stay exact enough for FD
    updates = []
    for _ in range(rng.randint(k, 2 * k)):
        a, b = rng.sample(range(k), 2)
        if rng.random() < 0.2:
            updates.append((a, None, rng.uniform(0.7, 1.05)))
        else:
            updates.append((a, b, rng.choice((-1, 1)) * rng.uniform(0.1, 0.8)))
    start = [[rng.uniform(-1, 1) for _ in range(k)] for _ in range(4)]

    def run(n):
        peak, low = 0.0, float("inf")
        for x in start:
            x = list(x)
            for _ in range(n):
                for a, b, c in updates:
                    x[a] = x[a] * c if b is None else x[a] + c * x[b]
            m = max(abs(v) for v in x)
            peak, low = max(peak, m), min(low, m)
        return peak, low

    n = 20
    while n < 400:
        peak, low = run(2 * n)
        if not (1e-200 < low and peak < 1e40):
            break
        n *= 2
    peak, _ = run(n)
    early = rng.randint(1, 4)
    decls, top, factor = _statics(rng)
    used = {"sin"} | ({"tanh"} if rng.random() < 0.5 else set())
    body = [f"    double {n_} = s[{j}];" for j, n_ in enumerate(names)]
    body += ["    double c = 0.0;", "    int i;"] + top
    body.append("    for (i = 0; i < n; i++) {")
    for a, b, c in updates:
        if b is None:
            body.append(f"        {names[a]} = {names[a]} * {_c(c)};")
        else:
            op = "+=" if c > 0 else "-="
            body.append(f"        {names[a]} {op} {_c(abs(c))} * {names[b]};")
    f = "tanh" if "tanh" in used else "sin"
    body.append(f"        if (i < {early})")
    body.append(f"            c += {factor} * {f}({names[0]}) * {names[1]};")
    body.append("    }")
    scale = 1.0 / max(peak, 1.0)
    final = " + ".join(names)
    body.append(f"    out[0] = c + {scale:.3e} * ({final});")
    text = [_block(seed, f"{HEAD}(out)/(s)",
                   ["n: int = %d" % n, f"s: double[{k}] = uniform(-1, 1)", "out: double[1]"],
                   ["tol: 1e-5"])]
    text += _prelude(rng, used) + decls + [""]
    text += [f"void {HEAD}(int n, const double *s, double *out)", "{"] + body + ["}"]
    return "\n".join(text) + "\n"


def residual(rng, seed):
    """A Richardson iteration on a diagonally dominant tridiagonal system, the residual
    updated in place (r -= w * A r) for many more steps than it takes to converge."""
    m = rng.randint(3, 6)
    steps = rng.choice((60, 120, 250))
    w = rng.uniform(0.2, 0.35)
    decls, top, factor = _statics(rng)
    body = [f"    double x[{m}], r[{m}], q[{m}];", "    int i, k;"] + top
    body += [f"    for (i = 0; i < {m}; i++) {{", "        x[i] = 0.0;", "        r[i] = b[i];",
             "    }", "    for (k = 0; k < n; k++) {",
             f"        for (i = 0; i < {m}; i++) {{",
             "            q[i] = d[i] * r[i];",
             "            if (i > 0)", "                q[i] -= 0.5 * r[i - 1];",
             f"            if (i < {m - 1})", "                q[i] -= 0.5 * r[i + 1];",
             "        }",
             f"        for (i = 0; i < {m}; i++) {{",
             f"            x[i] += {_c(w)} * r[i];",
             f"            r[i] -= {_c(w)} * q[i];",
             "        }", "    }",
             f"    for (i = 0; i < {m}; i++)",
             f"        u[i] = {factor} * x[i] + sin(r[i]);"]
    text = [_block(seed, f"{HEAD}(u)/(d b)",
                   [f"n: int = {steps}", f"d: double[{m}] = uniform(2, 3)",
                    f"b: double[{m}] = uniform(-1, 1)", f"u: double[{m}]"], ["tol: 1e-5"])]
    text += _prelude(rng, {"sin"}) + decls + [""]
    text += [f"void {HEAD}(int n, const double *d, const double *b, double *u)", "{"] + \
        body + ["}"]
    return "\n".join(text) + "\n"


# ------------------------------------------------------------------ clamp

def clamp(rng, seed):
    k = rng.randint(2, 4)
    c = rng.choice((1e-3, 0.01, 0.1, 0.5))
    sq = " + ".join(f"v[{j}] * v[{j}]" for j in range(k))
    inner = rng.choice(("sqrt", "pow", "hypot", "cbrt"))
    if inner == "sqrt":
        norm = f"sqrt({sq})"
    elif inner == "pow":
        norm = f"pow({sq}, {rng.choice(('0.5', '0.75', '0.25'))})"
    elif inner == "hypot":
        norm = "hypot(v[0], v[1])"
    else:
        norm = f"cbrt({sq})"
    guard = rng.choice(("fmax", "ternary", "if"))
    used = {inner, "fmax"} if guard == "fmax" else {inner}
    decls, top, factor = _statics(rng)
    body = ["    int i;"] + top + [f"    double len = {norm};"]
    if guard == "fmax":
        body.append(f"    double d = fmax(len, {c!r});")
    elif guard == "ternary":
        body.append(f"    double d = len > {c!r} ? len : {c!r};")
    else:
        body += [f"    double d = {c!r};", f"    if (len >= {c!r})", "        d = len;"]
    extra = rng.choice(("", "atan2", "tanh"))
    if extra == "atan2":
        # evaluated only where the norm is not tiny: the branch not taken at the origin
        body.append(f"    double a = len > {c!r} ? atan2(v[1], v[0]) : 0.0;")
        used.add("atan2")
    elif extra == "tanh":
        body.append("    double a = tanh(len) * len;")
        used.add("tanh")
    else:
        body.append("    double a = 0.0;")
    body += [f"    for (i = 0; i < {k}; i++)",
             f"        u[i] = {factor} * v[i] / d * w[i] + a * w[i];"]
    zeros = rng.random() < 0.8
    vinit = "0.0" if zeros else "{" + ", ".join(
        "0.0" if rng.random() < 0.5 else _c(rng.uniform(-1, 1)) for _ in range(k)) + "}"
    text = [_block(seed, f"{HEAD}(u)/(v w)",
                   [f"v: double[{k}] = {vinit}", f"w: double[{k}] = uniform(0.5, 1.5)",
                    f"u: double[{k}]"])]
    text += _prelude(rng, used) + decls + [""]
    text += [f"void {HEAD}(const double *v, const double *w, double *u)", "{"] + body + ["}"]
    return "\n".join(text) + "\n"


# ------------------------------------------------------------------ f2c

def f2c(rng, seed):
    n = rng.randint(3, 7)
    a = _c(rng.uniform(0.2, 0.9))
    decls, top, factor = _statics(rng)
    inout = rng.random() < 0.5
    body = ["    integer i;"] + top + ["    --fvec;", "    --x;"]
    if rng.random() < 0.5:
        body.append("    --wa;")
        wa = "wa[i]"
    else:
        wa = None
    body += ["    for (i = 1; i <= n; ++i) {",
             f"        fvec[i] = sin(x[i]) + {a} * x[i];"]
    if wa:
        body.append(f"        {wa} = {factor} * x[i] * x[i];")
    body.append("    }")
    body += ["    for (i = 2; i <= n; ++i)",
             "        fvec[i] = fvec[i] * fvec[i - 1]" + (f" + {wa}" if wa else "") + ";"]
    if inout:
        body += ["    for (i = 1; i <= n; ++i)", "        x[i] = x[i] * fvec[n];"]
    params = "integer n, doublereal *x, doublereal *fvec" + (", doublereal *wa" if wa else "")
    args = [f"n: int = {n}", "x: double[n] = uniform(0.5, 1.5)", "fvec: double[n]"] + \
        (["wa: double[n]"] if wa else [])
    head = f"{HEAD}(fvec x)/(x)" if inout else f"{HEAD}(fvec)/(x)"
    text = [_block(seed, head, args, ["sizes: give"])]
    text += _prelude(rng, {"sin"}) + ["typedef double doublereal;", "typedef int integer;"] + \
        decls + [""]
    text += [f"void {HEAD}({params})", "{"] + body + ["}"]
    return "\n".join(text) + "\n"


if __name__ == "__main__":
    import sys
    sys.stdout.write(generate(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
