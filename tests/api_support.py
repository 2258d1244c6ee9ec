"""Helpers for the Python-API tests: the arguments of a testsuite program's head as Python
values (from its `adgen-test` block), the build options its block implies, and running a
numeric check in a forked child so that a crash in generated code fails one test instead of
killing the test session."""
from __future__ import annotations

import ast
import json
import os
import pickle
import re
import subprocess
import sys
import traceback
from pathlib import Path

import numpy as np

import harness

ROOT = Path(__file__).resolve().parent.parent
C_PROGRAMS = sorted((ROOT / "testsuite" / "c").glob("*.c"))

NP_TYPES = {"double": np.float64, "float": np.float32, "int": np.intc, "long": np.int_,
            "unsigned": np.uintc, "size_t": np.uintp}


def spec_of(source):
    return harness._read_spec(Path(source))


def build_options(spec, source):
    """include_dirs, defines and sizes for adgen.build from a program's block."""
    flags = harness.resolve_flags(spec, Path(source))
    inc, defs, it = [], [], iter(flags)
    for tok in it:
        if tok == "-I":
            inc.append(next(it))
        elif tok.startswith("-I"):
            inc.append(tok[2:])
        elif tok.startswith("-D"):
            defs.append(tok[2:])
    out = {"include_dirs": inc, "defines": defs}
    if spec.lang == "c" and spec.link:
        # a library the program calls, unseen by adgen: compiled into the module's link
        out["ldflags"] = ["-fPIC"] + [str((Path(source).parent / f).resolve()) for f in spec.link]
    return out


def sizes_for(spec, head):
    if spec.sizes != "give":
        return {}
    return harness.given_sizes(head.args)


def _c_initializer(text):
    """A C initializer of numbers ('{1.5, 3}', nested braces, `0.8f`) as a Python list."""
    text = re.sub(r"(\d\.?\d*(?:[eE][-+]?\d+)?)[fFlL]\b", r"\1", text)
    return ast.literal_eval(text.replace("{", "[").replace("}", "]"))


def head_arguments(source, head, spec, workdir, seed=1):
    """The arguments of `head` as Python values: the C expressions of the block (lengths,
    int values, lists) are evaluated by a small C program that includes the source; random
    values are drawn here. Returns a list in parameter order."""
    source = Path(source)
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    lines = [f'#include "{source.resolve()}"', "#include <stdio.h>", "int main(void)", "{",
             '    printf("{");']
    first = True

    def out(key, fmt, expr):
        nonlocal first
        sep = "" if first else ", "
        first = False
        lines.append(f'    printf("{sep}\\"{key}\\": {fmt}", {expr});')

    for a in head.args:
        n = a.name
        if a.kind == "int":
            lines.append(f"    {a.ctype} {n} = ({a.ctype})({a.init.text});")
            out(n, "%ld", f"(long){n}")
        elif a.kind == "real":
            if a.init.kind == "value":
                out(n, "%.17g", f"(double)({a.init.text})")
            else:
                out(n + ":lo", "%.17g", f"(double)({a.init.lo})")
                out(n + ":hi", "%.17g", f"(double)({a.init.hi})")
        elif a.kind == "struct":
            lines.append(f"    {a.ctype} {n} = {a.init.text};")
        elif a.kind == "struct_ptr":
            lines.append(f"    {a.ctype} drvs_{n} = {a.init.text}, *{n} = &drvs_{n};")
        else:
            lines.append(f"    long drvlen_{n} = (long)({a.length});")
            out(n + ":len", "%ld", f"drvlen_{n}")
            init = a.init
            if init.kind in ("uniform", "range"):
                out(n + ":lo", "%.17g", f"(double)({init.lo})")
                out(n + ":hi", "%.17g", f"(double)({init.hi})")
            elif init.kind == "value":
                out(n + ":value", "%.17g", f"(double)({init.text})")
            else:
                lines.append(f"    static const double drvl_{n}[] = {init.text};")
                lines.append(f"    {{ long i; printf(\"{', ' if not first else ''}\\\"{n}:list\\\": [\");"
                             f" for (i = 0; i < (long)(sizeof drvl_{n} / sizeof drvl_{n}[0]); i++)"
                             f" printf(\"%s%.17g\", i ? \", \" : \"\", drvl_{n}[i]);"
                             f" printf(\"]\"); }}")
                first = False
    lines += ['    printf("}\\n");', "    return 0;", "}"]
    prog = workdir / f"values_{head.func}.c"
    prog.write_text("\n".join(lines) + "\n")
    exe = workdir / f"values_{head.func}"
    flags = harness.resolve_flags(spec, source)
    library = [str((Path(source).parent / f).resolve()) for f in spec.link] \
        if spec.lang == "c" else []
    cmd = [harness.CC, "-w", "-O0"] + flags + [str(prog)] + library + ["-lm", "-o", str(exe)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"values program: {' '.join(cmd)}\n{proc.stderr}")
    vals = json.loads(subprocess.run([str(exe)], capture_output=True, text=True,
                                     check=True).stdout)
    rng = np.random.default_rng(seed)
    args = []
    for a in head.args:
        n = a.name
        if a.kind == "int":
            args.append(int(vals[n]))
        elif a.kind == "real":
            args.append(vals[n] if n in vals else float(rng.uniform(vals[n + ":lo"],
                                                                   vals[n + ":hi"])))
        elif a.kind in ("struct", "struct_ptr"):
            args.append(_c_initializer(a.init.text))
        else:
            dt = NP_TYPES[a.ctype]
            length = vals[n + ":len"]
            if a.init.kind == "uniform":
                arr = rng.uniform(vals[n + ":lo"], vals[n + ":hi"], length)
            elif a.init.kind == "range":
                arr = rng.integers(int(vals[n + ":lo"]), int(vals[n + ":hi"]), length)
            elif a.init.kind == "value":
                arr = np.full(length, vals[n + ":value"])
            else:
                arr = np.array(vals[n + ":list"])
            args.append(np.asarray(arr).astype(dt))
    return args


def build_head(source, head_index=0, cache_dir=None, **extra):
    """(built, spec, head) for a testsuite program's head."""
    import adgen
    spec = spec_of(source)
    head = spec.heads[head_index]
    opts = build_options(spec, source)
    opts.update(extra)
    built = adgen.build(str(source), head=head.text, sizes=sizes_for(spec, head),
                        cache_dir=cache_dir, **opts)
    return built, spec, head


def isolated(fn, *args, **kwargs):
    """fn(*args, **kwargs) in a forked child (a crash of generated code fails the caller's
    test, not the session); returns its result, re-raises its exception (as
    AssertionError with the child's traceback when it cannot be pickled)."""
    if not hasattr(os, "fork"):
        return fn(*args, **kwargs)
    r, w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:        # child
        os.close(r)
        try:
            try:
                payload = pickle.dumps(("ok", fn(*args, **kwargs)))
            except BaseException as exc:        # noqa: BLE001
                try:
                    payload = pickle.dumps(("exc", exc))
                except Exception:
                    payload = pickle.dumps(("tb", traceback.format_exc()))
            with os.fdopen(w, "wb") as fh:
                fh.write(payload)
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        data = fh.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        raise AssertionError(f"the child process died (signal {sig}, status {status}): "
                             "the generated code crashed")
    kind, value = pickle.loads(data)
    if kind == "ok":
        return value
    if kind == "exc":
        raise value
    raise AssertionError(value)


def central_fd_jacobian(built, args, h=1e-6):
    """{(dep, indep): J} by central finite differences through built.primal (on copies)."""
    params = built.parameters
    idx = {n: i for i, n in enumerate(params)}

    def outputs(call_args):
        ret = built.primal(*call_args)
        res = {}
        for d in built.dependents:
            res[d] = np.array([ret], dtype=float) if d == built.name else \
                np.asarray(call_args[idx[d]], dtype=float).ravel().copy()
        return res

    def fresh():
        return [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    J = {}
    for x in built.independents:
        base = args[idx[x]]
        n = 1 if not isinstance(base, np.ndarray) else base.size
        cols = {d: [] for d in built.dependents}
        for j in range(n):
            ys, xs = [], []
            for sgn in (1, -1):
                a = fresh()
                if isinstance(base, np.ndarray):
                    flat = a[idx[x]].reshape(-1)
                    step = h * max(1.0, abs(float(flat[j])))
                    flat[j] = flat[j] + sgn * step
                    xs.append(float(flat[j]))       # the value actually represented
                else:
                    step = h * max(1.0, abs(base))
                    a[idx[x]] = base + sgn * step
                    xs.append(a[idx[x]])
                ys.append(outputs(a))
            for d in built.dependents:
                cols[d].append((ys[0][d] - ys[1][d]) / (xs[0] - xs[1]))
        for d in built.dependents:
            J[d, x] = np.array(cols[d]).T
    return J


def rel_err(got, want):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    scale = max(float(np.max(np.abs(want))) if want.size else 0.0, 1e-300)
    return float(np.max(np.abs(got - want))) / scale if want.size else 0.0


def first_head_ok(source):
    """Programs with a usable first head (not an expect-error program)."""
    spec = spec_of(source)
    return spec.expect_error is None and bool(spec.heads)


def tamper_adjoint(text, func, stmt):
    """`text` with `stmt` inserted at the end of the body of func_b (a deliberately broken
    derivative for testing `adgen check`)."""
    m = re.search(rf"^void {re.escape(func)}_b\(.*?\)\s*\{{", text, re.M | re.S)
    assert m, f"no {func}_b in the generated text"
    depth, i = 1, m.end()
    while depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[:i - 1] + f"    {stmt}\n" + text[i - 1:]
