"""`adgen check`: differentiate a head, build it (adgen.build), and compare its tangent and
its adjoint with central finite differences and with each other (the dot-product test), on
random inputs or on inputs read from a JSON file. See docs/check.md.

    adgen check FILE... --head SPEC [--inputs VALUES.json] [--size NAME=N]... [-I DIR]
                [-D NAME[=VALUE]] [--seed N] [--tol T] ...

Exit status: 0 when everything agrees, 1 when something does not (or adgen refuses the
program, or it does not compile), 2 for a usage error (bad options, missing lengths).
"""
from __future__ import annotations

import argparse
import ast
import json
import math
import os
import sys
from dataclasses import dataclass, field
from typing import List, Optional

from adgen.errors import AdgenError, UsageError, report

USAGE = ("adgen check FILE... --head SPEC [--inputs VALUES.json] [--size NAME=N]... "
         "[-I DIR] [-D NAME[=VALUE]]\n"
         "                   [--inactive NAME] [--adgen-size NAME=EXPR] [--seed N] [--tol T] "
         "[--max-elements N]\n"
         "                   [--derivative-file MODE=PATH] [--setup FUNC] [--order 2]")

DEFAULT_INT = 3
FD_STEP = {"double": 1e-6, "float": 3e-3}
TOL = {"double": 1e-6, "float": 2e-3}
DOT_TOL = {"double": 1e-12, "float": 1e-5}
PRIMAL_TOL = {"double": 1e-12, "float": 1e-5}


class CheckError(Exception):
    """The inputs cannot be made (a usage problem: exit status 2)."""


# ----------------------------------------------------------------------------- inputs

def _int_expr(text, env):
    """An integer or a C-like integer expression over int arguments (+ - * / % and
    parentheses; / truncates as in C)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise CheckError(f"cannot read {text!r} as an integer expression") from None

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name):
            if n.id not in env:
                raise CheckError(f"{text!r}: {n.id!r} is not an int argument")
            return env[n.id]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = ev(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            if isinstance(n.op, (ast.Div, ast.FloorDiv, ast.Mod)):
                if b == 0:
                    raise CheckError(f"{text!r}: division by zero")
                q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
                return q if not isinstance(n.op, ast.Mod) else a - q * b
        raise CheckError(f"cannot evaluate {text!r} (integers, int arguments, + - * / %)")
    return ev(tree)


def _random_struct(ffi, t, rng):
    """Random values in [-1, 1] for a struct (cffi type t) whose fields are all
    floating-point (nested structs and arrays of them too), as a dict of its fields with
    lists for arrays; None when some field is not floating-point, or may be missing from
    the declaration the API gave cffi (its fields do not fill the struct)."""
    from adgen.api.analysis import FLOAT_NAMES
    if t.kind == "primitive":
        return round(float(rng.uniform(-1, 1)), 6) if t.cname in FLOAT_NAMES else None
    if t.kind == "array":
        items = [_random_struct(ffi, t.item, rng) for _ in range(t.length or 0)]
        return None if t.length is None or None in items else items
    if t.kind != "struct" or \
            sum(ffi.sizeof(f.type) for _, f in t.fields) != ffi.sizeof(t):
        return None
    fields = {name: _random_struct(ffi, f.type, rng) for name, f in t.fields}
    return None if None in fields.values() else fields


def _is_handle(built, p):
    from adgen.api.arguments import is_handle
    try:
        return is_handle(built._ffi.typeof(p["elem"]))
    except Exception:
        return False


def _complete_handle(built, p, given, rng, notes):
    """The value of a handle parameter (a struct holding pointers) from --inputs: its
    floating-point fields not given get random values; its integer fields and pointer
    fields (the arrays: their lengths cannot be guessed) must be given (CheckError naming
    those missing)."""
    from adgen.api.arguments import descriptor_type, is_descriptor
    ffi, n = built._ffi, p["name"]
    extents = p.get("field_extents") or {}
    missing, randoms = [], []

    def complete(t, v, path, keys, seen):
        if not isinstance(v, dict):
            return v            # a list in field order, or a value cffi will judge
        v = dict(v)
        for name, f in t.fields:
            ft, where, fkeys = f.type, f"{path}.{name}", keys + (name,)
            given = name in v
            if is_descriptor(ft):       # a Fortran allocatable component: an array
                if not given:
                    elem, rank = descriptor_type(ft)
                    missing.append(f"{where} (an allocatable array of {elem}, rank {rank})")
                elif v[name] is not None and not isinstance(v[name], (list, dict)):
                    raise CheckError(f"{where}: expected a list (nested for rank > 1), "
                                     "{\"values\": ..., \"lbound\": [...]} or null in the "
                                     f"inputs, got {json.dumps(v[name])}")
            elif ft.kind == "pointer" and ft.item.kind == "struct" and ft.item not in seen:
                if given:
                    v[name] = complete(ft.item, v[name], where, fkeys, seen + (t,))
                elif _type_needs_values(ft.item):
                    complete(ft.item, {}, where, fkeys, seen + (t,))    # names what is missing
                else:
                    random_value(ft.item, v, name, where)
            elif given:
                if ft.kind == "struct":
                    v[name] = complete(ft, v[name], where, fkeys, seen + (t,))
                elif ft.kind == "pointer" and v[name] is not None and \
                        not isinstance(v[name], list):
                    raise CheckError(f"{where}: expected a list (the array it points to) or "
                                     f"null in the inputs, got {json.dumps(v[name])}")
            elif ft.kind == "pointer" and ft.item.kind == "primitive":
                ext = extents.get(".".join(fkeys))
                if ext and ext[1] == "0":
                    v[name] = None          # the code does not use it
                    continue
                missing.append(f"{where} (an array of {ft.item.cname}"
                               + (f", {ext[1]} elements" if ext else "") + ")")
            elif ft.kind == "struct" and _type_needs_values(ft):
                v[name] = complete(ft, {}, where, fkeys, seen + (t,))
            elif ft.kind in ("primitive", "array", "struct") and not _type_needs_values(ft):
                random_value(ft, v, name, where)
            else:
                missing.append(f"{where} ({ft.cname})")
        order = [name for name, _ in t.fields]      # the fields in declaration order
        return {k: v[k] for k in sorted(v, key=lambda k: order.index(k) if k in order
                                        else len(order))}

    def random_value(ft, v, name, where):
        value = _random_struct(ffi, ft, rng)
        if value is None:
            missing.append(f"{where} ({ft.cname})")
        else:
            v[name] = value
            randoms.append(where)

    t = ffi.typeof(p["elem"])
    value = complete(t, given if given is not None else {}, n, (), ())
    if missing:
        example = f'{{"{n}": {_example(t)}}}'
        raise CheckError(f"{n} is a {p['elem']}, a struct holding pointers: give "
                         f"{', '.join(missing)} in --inputs (integers and arrays cannot be "
                         f"guessed), e.g. {example}")
    notes.append(f"{n} = {json.dumps(value, default=str)}"
                 + (f" (random: {', '.join(randoms)})" if randoms else ""))
    return value


def _type_needs_values(t, seen=()):
    """True when a value of (cffi) type t has integer or pointer parts (which must be
    given)."""
    from adgen.api.analysis import FLOAT_NAMES
    if t.kind == "primitive":
        return t.cname not in FLOAT_NAMES
    if t.kind == "array":
        return t.length is None or _type_needs_values(t.item, seen)
    if t.kind == "struct" and t not in seen:
        return any(_type_needs_values(f.type, seen + (t,)) for _, f in t.fields)
    return True


def _holds_float(t, seen=()):
    """True when (cffi) type t holds a `float`, in itself or through its pointers."""
    if t.kind == "primitive":
        return t.cname == "float"
    if t.kind in ("array", "pointer"):
        return _holds_float(t.item, seen)
    if t.kind == "struct" and t not in seen:
        return any(_holds_float(f.type, seen + (t,)) for _, f in t.fields)
    return False


def _example(t, seen=()):
    """An example value of (cffi) struct type t for messages: `{"n": <int>, "x":
    [<numbers>], ...}`."""
    from adgen.api.analysis import FLOAT_NAMES
    from adgen.api.arguments import descriptor_type, is_descriptor

    def one(ft):
        if is_descriptor(ft):
            elem, rank = descriptor_type(ft)
            inner = "<numbers>" if elem in FLOAT_NAMES else "<ints>"
            return "[" * rank + inner + "]" * rank
        if ft.kind == "primitive":
            return "<number>" if ft.cname in FLOAT_NAMES else "<int>"
        if ft.kind == "pointer" and ft.item.kind == "struct":
            return _example(ft.item, seen + (t,)) if ft.item not in seen else "null"
        if ft.kind in ("pointer", "array"):
            item = ft.item
            return "[<numbers>]" if item.kind == "primitive" and item.cname in FLOAT_NAMES \
                else "[<ints>]" if item.kind == "primitive" else f"[{one(item)}, ...]"
        if ft.kind == "struct":
            return _example(ft, seen + (t,))
        return "..."
    return "{" + ", ".join(f'"{name}": {one(f.type)}' for name, f in t.fields) + "}"


def make_arguments(built, values=None, sizes=None, seed=1):
    """The arguments of a call of `built`'s function, in parameter order, and notes on how
    each was chosen. values: {name: number | list | dict} (from --inputs); sizes: {name:
    length text} (from --size). Float scalars and arrays not given are random in [-1, 1];
    int scalars default to 3; an array's length comes from values, sizes, or adgen's
    extent analysis; structs of floating-point fields are random too; int arrays and
    other structs must be given. Raises CheckError."""
    import numpy as np
    from adgen.api.arguments import numpy_dtype
    values, sizes = dict(values or {}), dict(sizes or {})
    names = built.parameters        # (not the lengths of strings: the API passes them)
    params = [built._by_name[n] for n in names]
    for k in list(values) + list(sizes):
        if k not in names:
            raise CheckError(f"{k!r} is not a parameter of {built.name} "
                             f"(parameters: {', '.join(names)})")
    rng = np.random.default_rng(seed)
    out, notes, env = {}, [], {}
    keep = []       # arrays the structs in env point to

    def scalar_kind(p):
        """'int' / 'real' for scalars, including Fortran scalars passed by reference."""
        if p["kind"] in ("int", "real"):
            return p["kind"]
        if p["kind"] == "array" and p.get("scalar_ref"):
            return "real" if numpy_dtype(p["elem"], built._ffi).kind == "f" else "int"
        return None

    for p in params:        # scalars and structs first: array lengths may depend on them
        n, kind = p["name"], scalar_kind(p) or p["kind"]
        if kind == "string":
            if not isinstance(values.get(n), str):
                raise CheckError(f"{n} is a CHARACTER string: give its value in --inputs "
                                 f'(e.g. {{"{n}": "..."}})')
            out[n] = values[n]
            notes.append(f"{n} = {json.dumps(values[n])}")
        elif kind == "int":
            if n in values:
                v = values[n]
                if isinstance(v, bool):
                    v = int(v)      # a LOGICAL (or a C flag) given as true or false
                if not isinstance(v, int):
                    raise CheckError(f"{n}: expected an integer in the inputs, got {v!r}")
                out[n] = v
                notes.append(f"{n} = {v}")
            else:
                out[n] = DEFAULT_INT
                notes.append(f"{n} = {DEFAULT_INT} (default: no value given; set it with "
                             f"--inputs)")
            env[n] = out[n]
        elif kind == "real":
            if n in values:
                v = values[n]
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise CheckError(f"{n}: expected a number in the inputs, got {v!r}")
                out[n] = float(v)
                notes.append(f"{n} = {out[n]!r}")
            else:
                out[n] = float(rng.uniform(-1, 1))
                notes.append(f"{n} = {out[n]:.6g} (random)")
            env[n] = out[n]
        elif kind in ("struct", "struct_ptr"):
            if _is_handle(built, p):        # a struct holding pointers
                out[n] = _complete_handle(built, p, values.get(n), rng, notes)
            elif n in values:
                out[n] = values[n]
                notes.append(f"{n} = {json.dumps(values[n])}")
            else:
                out[n] = _random_struct(built._ffi, built._ffi.typeof(p["elem"]), rng)
                if out[n] is None:
                    try:
                        fields = [k for k, _ in built._ffi.typeof(p["elem"]).fields]
                    except Exception:
                        fields = ["field"]
                    example = ", ".join(f'"{k}": ...' for k in fields)
                    raise CheckError(f"{n} is a {p['elem']} with fields that are not "
                                     "floating-point: give its fields in --inputs, e.g. "
                                     f'{{"{n}": {{{example}}}}}')
                notes.append(f"{n} = {json.dumps(out[n])} (random)")
            values[n] = out[n]
            try:
                from adgen.api.arguments import struct_initializer
                t = built._ffi.typeof(p["elem"])
                if kind == "struct_ptr" and isinstance(values[n], list) and \
                        all(isinstance(item, dict) for item in values[n]):
                    ptr = built._ffi.new(p["elem"] + "[]", [       # an array of structs
                        struct_initializer(built._ffi, t, item, keep) for item in values[n]])
                else:
                    ptr = built._ffi.new(p["elem"] + " *", struct_initializer(
                        built._ffi, t, values[n], keep))
            except Exception as exc:
                raise CheckError(f"{n}: cannot make a {p['elem']} of {values[n]!r} ({exc})")
            env[n] = ptr[0] if kind == "struct" else ptr
    for p in params:    # integers given by pointer (f2c's `integer *n`): lengths read them
        if p["kind"] == "array" and not scalar_kind(p) and p["name"] in values and \
                numpy_dtype(p["elem"], built._ffi).kind in "iu":
            try:
                env[p["name"]] = [int(v) for v in np.ravel(values[p["name"]])]
            except (TypeError, ValueError):
                pass        # reported below, where the array is made
    for p in params:
        if p["kind"] != "array" or scalar_kind(p):
            continue
        n = p["name"]
        dt = numpy_dtype(p["elem"], built._ffi)
        floating = dt.kind == "f"
        if p.get("rows") and (n not in values or np.ndim(values[n]) != 2):
            # no row of row pointers is counted: its shape comes from the inputs
            raise CheckError(f"{n} is an array of row pointers: give its rows in --inputs, "
                             f'a list of rows of equal length (e.g. {{"{n}": [[...], '
                             f'[...]]}})')
        if n in values:
            try:
                arr = np.array(values[n], dtype=dt)
            except (TypeError, ValueError) as exc:
                raise CheckError(f"{n}: cannot make an array of {dt} of the inputs ({exc})")
            if arr.ndim == 0:
                arr = arr.reshape(1)
            if n in sizes and _int_expr(sizes[n], env) != arr.size:
                raise CheckError(f"{n}: --size says {sizes[n]} but the inputs give "
                                 f"{arr.size} values")
            out[n] = arr
            notes.append(f"{n}: {arr.size} values from the inputs")
            continue
        if n in sizes:
            length = _int_expr(sizes[n], env)
            how = f"--size {n}={sizes[n]}"
        else:
            length = built._extent(n, env)
            how = f"the declared size, {p['extent_text']}" if p.get("extent_declared") \
                else f"the extent adgen finds, {p['extent_text']}"
            if length is None:
                raise CheckError(f"array {n}: no length known: give one with --size {n}=N or "
                                 f"its values in --inputs")
        if length < 0:
            raise CheckError(f"array {n}: negative length {length} ({how})")
        if not floating:
            raise CheckError(f"{n} is an array of {p['elem']}: give its values in --inputs")
        if p["role"] == "out" and not p["const"]:
            out[n] = np.zeros(length, dtype=dt)
            notes.append(f"{n}: {length} values (output; length from {how})")
        else:
            out[n] = rng.uniform(-1, 1, length).astype(dt)
            notes.append(f"{n}: {length} random values in [-1, 1] (length from {how})")
    return [out[n] for n in names], notes


# ---------------------------------------------------------------------------- the check

@dataclass
class PairResult:
    dep: str
    indep: str
    label: str                  # the worst element, e.g. 'err[0] / alphas[2]'
    fd: float
    tangent: float
    adjoint: Optional[float]
    error: float                # relative error (FD noise allowed)
    fd_reliable: bool
    ok: bool
    kink: bool = False          # one-sided differences disagree, the derivatives give one


@dataclass
class Report:
    head: str
    notes: List[str]
    tol: float
    dot_tol: float
    fd_step: float
    pairs: List[PairResult] = field(default_factory=list)
    single_inside: bool = False     # float values on the way: float's step and tolerances
    dot: Optional[tuple] = None         # (<ybar, ydot>, <xbar, xdot>, rel. diff, ok)
    primal_problems: List[str] = field(default_factory=list)
    problems: List[str] = field(default_factory=list)      # failures outside the table
    sampled: str = ""
    # --order 2: (worst error of H v against differences of the gradient, its tolerance,
    # u.(H v), v.(H u), their relative difference, ok)
    second: Optional[tuple] = None

    @property
    def ok(self):
        return (not self.problems and not self.primal_problems and
                all(p.ok for p in self.pairs) and (self.dot is None or self.dot[3]) and
                (self.second is None or self.second[-1]))


# one-sided differences further apart than this (relative) mark a kink
KINK_GAP = 1e-3


def _err(got, want, noise, floor):
    if not (math.isfinite(got) and math.isfinite(want)):
        return 0.0 if got == want else math.inf
    den = max(abs(got), abs(want), floor, 1e-300)
    return max(0.0, abs(got - want) - noise) / den


def run_check(built, args, tol=None, seed=1, max_elements=100, notes=()):
    """Compare tangent and adjoint of `built` with central finite differences at `args`;
    returns a Report. At most max_elements independent elements (FD and tangent columns)
    and dependent elements (adjoint rows) are compared per variable, chosen at random."""
    import numpy as np
    a = built._convert("check", args, {})
    f = built.name
    deps, indeps = built.dependents, built.independents
    by_name = built._by_name
    # single precision anywhere on the way (a float helper) limits what FD can tell
    single_inside = bool(built._meta.get("single_inside"))
    prec = "float" if single_inside else "double"
    for n in deps + indeps:
        p = by_name.get(n)
        elem = p["elem"] if p else built._meta["ret"]["cdef"]
        if elem == "float" or n in a.handles and _holds_float(built._ffi.typeof(elem)):
            prec = "float"
    tol = TOL[prec] if tol is None else tol
    step = FD_STEP[prec]
    eps = {"double": 2.2e-16, "float": 1.2e-7}[prec]
    rep = Report(built.head, list(notes), tol, DOT_TOL[prec], step)
    rep.single_inside = single_inside
    rng = np.random.default_rng(seed + 1)
    nout = {d: built._size(a, d, out=True) for d in deps}
    nin = {x: built._size(a, x) for x in indeps}

    def pick(n):
        return list(range(n)) if n <= max_elements else \
            sorted(rng.choice(n, max_elements, replace=False).tolist())
    cols = {x: pick(nin[x]) for x in indeps}
    rows = {d: pick(nout[d]) for d in deps}
    if any(len(cols[x]) < nin[x] for x in indeps) or any(len(rows[d]) < nout[d] for d in deps):
        rep.sampled = (f"(at most {max_elements} elements per variable compared, chosen at "
                       f"random)")

    def flat(name, v):
        """The values of dependent `name` (v) as a flat array; a struct's floating-point
        fields in order, a handle's parts as a dependent."""
        if name in a.handles:
            return built._parts(a, name, v, out=True)
        if by_name[name]["kind"] in ("struct", "struct_ptr"):
            return built._flat(name, v)
        return np.asarray(v, dtype=np.float64).ravel().copy()

    def outputs(vals, ret):
        return {d: (np.array([float(ret)]) if d == f else flat(d, vals[d])) for d in deps}

    vals0 = a.fresh()
    ret0 = built._run_primal(vals0)
    y0 = outputs(vals0, ret0)
    bad = [d for d in deps if not np.all(np.isfinite(y0[d]))]
    if bad:
        rep.problems.append(f"the primal gives non-finite values in {', '.join(bad)} at these "
                            "inputs: choose other inputs")
        return rep

    def differences(x, j, scale):
        """(x + h, x - h, y(x + h), y(x - h), x) along element j of independent x, for
        the step h = scale * step * max(1, |x|), as the values represented."""
        res = []
        for sign in (1.0, -1.0):
            vals = a.fresh()
            if by_name[x]["kind"] == "real":
                v0 = vals[x]
                h = scale * step * max(1.0, abs(v0))
                vals[x] = v0 + sign * h
                xs = vals[x]
            elif x in a.handles:        # set in the copy
                v0 = float(built._parts(a, x, vals[x])[j])
                h = scale * step * max(1.0, abs(v0))
                xs = built._set_part(a, x, vals[x], j, v0 + sign * h)
            elif by_name[x]["kind"] in ("struct", "struct_ptr"):
                values = flat(x, vals[x])
                v0 = float(values[j])
                h = scale * step * max(1.0, abs(v0))
                values[j] = v0 + sign * h
                if by_name[x]["kind"] == "struct":     # by value: a copy to change
                    vals[x] = built._ffi.new(by_name[x]["elem"] + " *", vals[x])[0]
                built._write_flat(x, vals[x], values)   # its integers as given
                xs = float(flat(x, vals[x])[j])
            else:
                arr = vals[x].reshape(-1)
                v0 = float(arr[j])
                h = scale * step * max(1.0, abs(v0))
                arr[j] = v0 + sign * h
                xs = float(arr[j])          # the value actually represented
            r = built._run_primal(vals)
            res.append((xs, outputs(vals, r)))
        (xp, yp), (xm, ym) = res
        return xp, xm, yp, ym, v0

    def agree(pair):
        """Whether the central differences of steps h and 4h agree, up to the rounding
        error eps |y| / h that either has."""
        (xp, xm, yp, ym, _), (xp4, xm4, yp4, ym4, _) = pair
        h = abs(xp - xm) / 2
        cd = {d: (yp[d] - ym[d]) / (xp - xm) for d in deps}
        cd4 = {d: (yp4[d] - ym4[d]) / (xp4 - xm4) for d in deps}
        big = max((float(np.max(np.abs(v))) for v in cd.values() if v.size), default=0.0)
        return all(_err(float(u), float(w), 10.0 * eps * abs(float(y)) / h,
                        math.sqrt(tol) * big) <= tol
                   for d in deps for u, w, y in zip(cd[d], cd4[d], y0[d]))

    # central finite differences, steps h and 4h; where they disagree, the first pair of
    # steps 16 times shorter, or 16 or 256 times longer, that agree: the truncation error
    # of a steep function (1 / x^5, x^x) shrinks with shorter steps, the rounding error of
    # an output computed by cancellation (a difference of large terms, far above eps |y|)
    # with longer ones
    fd, fd4, hstep, sides, sides4 = {}, {}, {}, {}, {}
    for x in indeps:
        for j in cols[x]:
            pair = [differences(x, j, 1.0), differences(x, j, 4.0)]
            for scale in (1.0 / 16.0, 16.0, 256.0):
                if agree(pair):
                    break
                other = [differences(x, j, scale), differences(x, j, 4.0 * scale)]
                if agree(other):
                    pair = other
            for k, (target, side) in enumerate(((fd, sides), (fd4, sides4))):
                xp, xm, yp, ym, v0 = pair[k]
                if k == 0:
                    hstep[x, j] = abs(xp - xm) / 2
                for d in deps:      # one-sided differences, forward and backward
                    side[d, x, j] = ((yp[d] - y0[d]) / (xp - v0), (y0[d] - ym[d]) / (v0 - xm))
                    target[d, x, j] = (yp[d] - ym[d]) / (xp - xm)
    # tangent columns, adjoint rows
    tan = {}
    for x in indeps:
        for j in cols[x]:
            e = np.zeros(nin[x])
            e[j] = 1.0
            out, primal = built._tangent(a, {x: e})
            for d in deps:
                tan[d, x, j] = out[d].astype(np.float64)
    adj = {}
    for d in deps:
        for i in rows[d]:
            e = np.zeros(nout[d])
            e[i] = 1.0
            out, primal = built._adjoint(a, {d: e})
            for x in indeps:
                adj[d, x, i] = out[x].astype(np.float64)

    def label(name, k, out):
        if name in a.handles:       # (a Fortran derived type too, passed by reference)
            return built._labels(a, name, out)[k]
        if name == f or by_name[name]["kind"] == "real" or by_name[name].get("scalar_ref"):
            return name
        if by_name[name]["kind"] in ("struct", "struct_ptr"):
            from adgen.api.arguments import struct_field_labels
            labels = struct_field_labels(built._ffi.typeof(by_name[name]["elem"]))
            if built._ffi.typeof(a.values[name]).kind == "array":     # an array of structs
                return f"{name}[{k // len(labels)}]{labels[k % len(labels)]}"
            return name + labels[k]
        return f"{name}[{k}]"

    floor_factor = math.sqrt(tol)
    for d in deps:
        for x in indeps:
            if not cols[x] or not nout[d]:
                continue                    # an empty array: nothing to compare
            J = np.array([fd[d, x, j] for j in cols[x]]).T           # (nout, ncols)
            J4 = np.array([fd4[d, x, j] for j in cols[x]]).T
            T = np.array([tan[d, x, j] for j in cols[x]]).T
            A = np.array([adj[d, x, i][cols[x]] for i in rows[d]])    # (nrows, ncols)
            # the rounding error of a central difference, eps |y| / h, and the truncation
            # error, estimated by the difference between steps h and 4h
            hs = np.array([hstep[x, j] for j in cols[x]])
            rounding = 10.0 * eps * np.abs(y0[d])[:, None] / hs[None, :]
            noise = 2.0 * np.abs(J - J4) + rounding
            jmax = float(np.max(np.abs(J))) if J.size else 0.0
            floor = floor_factor * jmax
            # can the FD be trusted? (h and 4h agree, up to rounding: else a kink is near)
            reliable = all(_err(J[i, c], J4[i, c], rounding[i, c], floor) <= tol
                           for i in range(J.shape[0]) for c in range(J.shape[1]))
            # a kink right at the inputs (piecewise linear: h and 4h agree on the mean of
            # the two slopes) shows as one-sided differences far apart whatever the step
            # (where a smooth function's grow with it: four times as far at 4h), the
            # derivative routines giving one of them; such elements are reported only when
            # all the others agree
            kinks = set()
            for c, j in enumerate(cols[x]):
                for i in range(J.shape[0]):
                    fwd, bwd = (float(v[i]) for v in sides[d, x, j])
                    fwd4, bwd4 = (float(v[i]) for v in sides4[d, x, j])
                    gap = _err(fwd, bwd, rounding[i, c], floor)
                    if gap > KINK_GAP and \
                            _err(fwd4, bwd4, rounding[i, c] / 4, floor) < 2.0 * gap and \
                            min(_err(T[i, c], side, rounding[i, c], floor)
                                for side in (fwd, bwd)) <= KINK_GAP / 10:
                        kinks.add((i, c))
            errors = {}         # (i, c): the largest error of tangent and adjoint there
            for i in range(J.shape[0]):
                for c in range(J.shape[1]):
                    errors[i, c] = _err(T[i, c], J[i, c], noise[i, c], floor)
            for r, i in enumerate(rows[d]):
                for c in range(J.shape[1]):
                    errors[i, c] = max(errors[i, c], _err(A[r, c], J[i, c], noise[i, c], floor))
            worst, werr = max(((ic, e) for ic, e in errors.items() if ic not in kinks),
                              key=lambda item: item[1], default=(None, -1.0))
            kink = bool(kinks) and werr <= tol
            if kink:
                worst, werr = max(((ic, errors[ic]) for ic in kinks), key=lambda item: item[1])
                reliable = False
            elif not reliable and werr <= tol:
                # the element whose differences disagree: the one the report is about
                worst = max(((i, c) for i in range(J.shape[0]) for c in range(J.shape[1])),
                            key=lambda ic: _err(J[ic], J4[ic], rounding[ic], floor))
                werr = errors[worst]
            if worst is None:
                continue
            i, c = worst
            j = cols[x][c]
            av = float(A[rows[d].index(i), c]) if i in rows[d] else None
            lab = f"{label(d, i, True)} / {label(x, j, False)}"
            rep.pairs.append(PairResult(d, x, lab, float(J[i, c]), float(T[i, c]), av, werr,
                                        reliable, werr <= tol and reliable, kink))

    # dot-product test with full random directions
    xdot = {x: rng.uniform(-1, 1, nin[x]) for x in indeps}
    ybar = {d: rng.uniform(-1, 1, nout[d]) for d in deps}
    ydot, tprimal = built._tangent(a, xdot)
    xbar, bprimal = built._adjoint(a, ybar)
    ty = [float(v) for d in deps for v in ybar[d] * ydot[d].astype(np.float64)]
    tx = [float(v) for x in indeps for v in xbar[x].astype(np.float64) * xdot[x]]
    s1, s2 = math.fsum(ty), math.fsum(tx)
    scale = max(math.fsum(map(abs, ty)), math.fsum(map(abs, tx)))
    rel = abs(s1 - s2) / scale if scale else 0.0
    ok = math.isfinite(s1) and math.isfinite(s2) and rel <= rep.dot_tol
    rep.dot = (s1, s2, rel, ok)

    # the derivative routines compute the primal results too
    ptol = PRIMAL_TOL[prec]
    for routine, got in ((f"{f}_d", tprimal), (f"{f}_b", bprimal)):
        for n in a.arrays:
            if by_name[n]["const"]:
                continue
            g = np.asarray(got[n], dtype=np.float64).ravel()
            w = np.asarray(vals0[n], dtype=np.float64).ravel()
            den = np.maximum(np.maximum(np.abs(g), np.abs(w)), 1e-300)
            err = np.abs(g - w) / den
            err[(g == w)] = 0.0
            if err.size and float(np.max(err)) > ptol:
                k = int(np.argmax(err))
                rep.primal_problems.append(
                    f"{routine} computes {n}[{k}] = {g[k]!r} but {f} gives {w[k]!r}")
    for routine, got in ((f"{f}_d", tprimal), (f"{f}_b", bprimal)):
        for n in deps:
            if n not in a.handles:
                continue
            g, w = got[n], flat(n, vals0[n])
            den = np.maximum(np.maximum(np.abs(g), np.abs(w)), 1e-300)
            err = np.abs(g - w) / den
            err[(g == w)] = 0.0
            if err.size and float(np.max(err)) > ptol:
                k = int(np.argmax(err))
                rep.primal_problems.append(f"{routine} computes {label(n, k, True)} = "
                                           f"{g[k]!r} but {f} gives {w[k]!r}")
    if "return" in tprimal and built._meta["ret"]["kind"] == "real":
        g, w = float(tprimal["return"]), float(ret0)
        if abs(g - w) > ptol * max(abs(g), abs(w)) and not (g == w):
            rep.primal_problems.append(f"{f}_d computes the return value {g!r} but {f} "
                                       f"gives {w!r}")
    return rep


def check_second_order(built, args, rep, seed=1):
    """--order 2: Hessian-vector products (f_b_d, the tangent of the adjoint) against
    central differences of the gradient along the same direction, at the step that agrees
    best of three, and the symmetry of the Hessian, u.(H v) = v.(H u), for random u, v."""
    import numpy as np
    if not built.second_order:
        rep.problems.append(f"no Hessian-vector products: {built.second_order_error}")
        return
    rng = np.random.default_rng(seed + 2)
    idx = {n: i for i, n in enumerate(built.parameters)}
    u, v = {}, {}
    for x in built.independents:
        shape = np.shape(args[idx[x]])
        u[x], v[x] = rng.uniform(-1, 1, shape), rng.uniform(-1, 1, shape)
    try:
        hv, hu = built.hvp(*args, tangents=v), built.hvp(*args, tangents=u)
    except ValueError as exc:
        rep.problems.append(str(exc))
        return
    flat = {x: np.ravel(np.asarray(hv[x], dtype=np.float64)) for x in built.independents}
    size = max(1.0, max(float(np.max(np.abs(np.asarray(args[idx[x]], dtype=np.float64))))
                        for x in built.independents))

    def along(h):
        grads = []
        for sign in (1, -1):
            moved = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            for x in built.independents:
                moved[idx[x]] = moved[idx[x]] + sign * h * v[x]
            grads.append(built.gradient(*moved))
        return {x: np.ravel((np.asarray(grads[0][x], dtype=np.float64) -
                             np.asarray(grads[1][x], dtype=np.float64)) / (2 * h))
                for x in built.independents}
    scale = max(max(float(np.max(np.abs(f))) for f in flat.values()), 1e-300)
    worst = min(max(float(np.max(np.abs(fd[x] - flat[x]))) for x in built.independents)
                for fd in (along(h * size) for h in (1e-4, 1e-5, 1e-6))) / scale
    uhv = math.fsum(float(t) for x in built.independents
                    for t in np.ravel(u[x] * np.asarray(hv[x])))
    vhu = math.fsum(float(t) for x in built.independents
                    for t in np.ravel(v[x] * np.asarray(hu[x])))
    rel = abs(uhv - vhu) / max(abs(uhv), abs(vhu), 1e-300)
    ok = worst <= rep.tol * 10 and rel <= rep.dot_tol * 100
    rep.second = (worst, rep.tol * 10, uhv, vhu, rel, ok)


def format_report(rep: Report) -> str:
    def num(v):
        return "-" if v is None else f"{v:.10e}"
    lines = [f"head {rep.head}", "inputs:"] + [f"  {n}" for n in rep.notes]
    lines.append(f"tolerance: rel. error <= {rep.tol:g} against central finite differences "
                 f"(step {rep.fd_step:g}*max(1,|x|), 16 times shorter or 16 or 256 times "
                 "longer where h and 4h disagree; the FD error estimated from the second "
                 f"step 4h is allowed on top); dot-product test <= {rep.dot_tol:g}"
                 + ("; single precision's, as the function computes with float values"
                    if rep.single_inside else ""))
    if rep.pairs:
        lines.append("each row: the element of the pair (dependent / independent) that "
                     f"agrees worst {rep.sampled}".rstrip())
        w = max([len("pair")] + [len(p.label) for p in rep.pairs]) + 2
        lines.append(f"{'pair':<{w}}{'FD':>18}{'tangent':>18}{'adjoint':>18}"
                     f"{'rel. error':>12}  ok")
        for p in rep.pairs:
            ok = "yes" if p.ok else \
                "NO (a kink at the inputs: the derivatives give the slope of one side, " \
                "finite differences their mean; try other inputs)" if p.kink else \
                "NO (FD unreliable: a kink near the inputs?)" \
                if not p.fd_reliable and p.error <= rep.tol else "NO"
            lines.append(f"{p.label:<{w}}{num(p.fd):>18}{num(p.tangent):>18}"
                         f"{num(p.adjoint):>18}{p.error:>12.2e}  {ok}")
    if rep.dot is not None:
        s1, s2, rel, ok = rep.dot
        lines.append(f"dot-product test: <ybar, tangent(xdot)> = {s1!r}, <adjoint(ybar), xdot> "
                     f"= {s2!r}, rel. diff {rel:.2e} (<= {rep.dot_tol:g}): "
                     f"{'ok' if ok else 'NO'}")
    if rep.dot is not None:
        lines.append("primal results computed by the derivative routines: " +
                     ("ok" if not rep.primal_problems else "NO"))
        lines += [f"  {p}" for p in rep.primal_problems]
    if rep.second is not None:
        worst, tol, uhv, vhu, rel, _ = rep.second
        lines.append(f"Hessian-vector product H v against central differences of the "
                     f"gradient: rel. error {worst:.2e} (<= {tol:g}): "
                     f"{'ok' if worst <= tol else 'NO'}")
        lines.append(f"symmetry: u.(H v) = {uhv!r}, v.(H u) = {vhu!r}, rel. diff {rel:.2e} "
                     f"(<= {rep.dot_tol * 100:g}): {'ok' if rel <= rep.dot_tol * 100 else 'NO'}")
    lines += [f"error: {p}" for p in rep.problems]
    nbad = sum(not p.ok for p in rep.pairs)
    if rep.ok:
        n = len(rep.pairs)
        lines.append(f"PASS: {n} pair{'s agree' if n != 1 else ' agrees'} within {rep.tol:g}")
    else:
        why = []
        if nbad:
            why.append(f"{nbad} of {len(rep.pairs)} pairs disagree")
        if rep.dot is not None and not rep.dot[3]:
            why.append("the dot-product test fails")
        if rep.primal_problems:
            why.append("the derivative routines compute other primal results")
        if rep.second is not None and not rep.second[-1]:
            why.append("the Hessian-vector products disagree")
        why += rep.problems
        lines.append("FAIL: " + "; ".join(why))
    return "\n".join(lines)


# ---------------------------------------------------------------------------- command

class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def build_parser():
    p = _Parser(prog="adgen check", usage=USAGE,
                description="Differentiate a head with adgen, compile it, and compare its "
                            "tangent and adjoint with central finite differences and with each "
                            "other (dot-product test). Exit 0 when all agree, 1 when not, 2 "
                            "for usage errors.")
    p.add_argument("sources", nargs="+", metavar="FILE")
    p.add_argument("--head", action="append", default=[], metavar="SPEC",
                   help='the head, "f(y)/(x)"; repeatable (each is checked)')
    p.add_argument("--inputs", metavar="VALUES.json",
                   help="JSON object: argument name -> number, list (array) or object (struct)")
    p.add_argument("--size", action="append", default=[], metavar="NAME=N",
                   help="length of array argument NAME for the check (an integer, or an "
                        "expression over int arguments)")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]")
    p.add_argument("--inactive", action="append", default=[], metavar="NAME",
                   help="passed to adgen")
    p.add_argument("--adgen-size", action="append", default=[], metavar="NAME=EXPR",
                   help="passed to adgen as --size NAME=EXPR (the extent of an array "
                        "parameter, when adgen cannot find it)")
    p.add_argument("--setup", metavar="FUNC",
                   help="a function of the sources taking no arguments (an init routine "
                        "that sets globals) to call before every call of the routines")
    p.add_argument("--order", type=int, choices=(1, 2), default=1,
                   help="2: also Hessian-vector products (the tangent of the adjoint) "
                        "against differences of the gradient, and the Hessian's symmetry")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--tol", type=float, default=None,
                   help="relative tolerance against finite differences (default 1e-6; 2e-3 "
                        "when a dependent or independent is float)")
    p.add_argument("--max-elements", type=int, default=100, metavar="N",
                   help="compare at most N elements of each variable (default 100)")
    p.add_argument("--derivative-file", action="append", default=[], metavar="MODE=PATH",
                   help="use PATH instead of adgen's output for MODE (reverse or forward): "
                        "check a hand-written or another tool's derivative")
    return p


def _pairs(items, what):
    out = {}
    for item in items:
        if "=" not in item:
            raise UsageError(f"{what} expects NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser().parse_args(argv)
        sizes = _pairs(args.size, "--size")
        adgen_sizes = _pairs(args.adgen_size, "--adgen-size")
        dfiles = _pairs(args.derivative_file, "--derivative-file")
        for k in dfiles:
            if k not in ("reverse", "forward"):
                raise UsageError(f"--derivative-file: MODE is 'reverse' or 'forward', not {k!r}")
        if args.max_elements < 1:
            raise UsageError("--max-elements must be at least 1")
    except UsageError as exc:
        print(f"usage: {USAGE}\nadgen check: error: {exc}", file=sys.stderr)
        return 2
    values = {}
    if args.inputs:
        try:
            with open(args.inputs) as fh:
                values = json.load(fh)
        except (OSError, ValueError) as exc:
            print(f"adgen check: error: --inputs {args.inputs}: {exc}", file=sys.stderr)
            return 2
        if not isinstance(values, dict):
            print(f"adgen check: error: --inputs {args.inputs}: expected a JSON object "
                  "(argument name -> value)", file=sys.stderr)
            return 2
    try:
        import numpy  # noqa: F401
        import cffi  # noqa: F401
    except ImportError as exc:
        print(f"adgen check: error: needs numpy and cffi ({exc})", file=sys.stderr)
        return 1
    from adgen.api import BuildError, build
    from adgen.api.options import FORTRAN_SUFFIXES
    if any(s.lower().endswith(FORTRAN_SUFFIXES) for s in args.sources):
        # Fortran's names have no case: `--size XX=N` is the dummy xx's
        values = {k.lower(): v for k, v in values.items()}
        sizes = {k.lower(): v.lower() for k, v in sizes.items()}
    status = 0
    builts = []
    for head in (args.head or [None]):
        try:
            built = build(args.sources, head=head, include_dirs=args.include_dirs,
                          defines=args.defines, inactive=args.inactive, sizes=adgen_sizes,
                          derivative_files={k: v for k, v in dfiles.items()}, vector=False,
                          setup=args.setup)
        except AdgenError as exc:
            print(report(exc, args.sources[0]), file=sys.stderr)
            return 1
        except BuildError as exc:
            print(f"adgen check: error: {exc}", file=sys.stderr)
            return 1
        except (FileNotFoundError, ValueError, TypeError) as exc:     # bad options
            msg = str(exc).replace("build: ", "").replace("head='f(y)/(x)'", "--head SPEC")
            print(f"adgen check: error: {msg}", file=sys.stderr)
            return 2
        builts.append(built)
    # one --inputs for several heads: each takes the values of its own parameters; a
    # name none of them has is a mistake (misspelt, it would be ignored)
    known = set().union(*(b.parameters for b in builts))
    for k in list(values) + list(sizes):
        if k not in known:
            whose = "the functions of the heads" if len(builts) > 1 else builts[0].name
            print(f"adgen check: error: {k!r} is not a parameter of {whose} "
                  f"({', '.join(sorted(known))})", file=sys.stderr)
            return 2
    for built in builts:
        def work(built=built):
            mine = {k: v for k, v in values.items() if k in built.parameters}
            given = {k: v for k, v in sizes.items() if k in built.parameters}
            try:
                call_args, notes = make_arguments(built, mine, given, args.seed)
                rep = run_check(built, call_args, args.tol, args.seed, args.max_elements,
                                notes)
                if args.order == 2:
                    check_second_order(built, call_args, rep, args.seed)
            except (CheckError, TypeError, ValueError) as exc:   # bad or refused inputs
                return 2, "", f"adgen check: error: {exc}"
            text = (f"adgen check: {', '.join(os.path.basename(s) for s in args.sources)}, "
                    + format_report(rep))
            return (0 if rep.ok else 1), text, ""
        code, out, err = _isolated(work)
        if out:
            print(out)
        if err:
            print(err, file=sys.stderr)
        sys.stdout.flush()
        if code == 2:
            return 2
        status = max(status, code)
    return status


def _isolated(fn):
    """fn() -> (status, stdout text, stderr text), run in a forked child where fork exists,
    so that a crash of the compiled code is reported (status 1) instead of killing us."""
    if not hasattr(os, "fork"):
        return fn()
    import pickle
    import signal
    r, w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            import faulthandler
            faulthandler.disable()      # a crash is reported by the parent, in one line
            try:
                result = fn()
            except BaseException as exc:        # noqa: BLE001
                result = (1, "", f"adgen check: internal error: {type(exc).__name__}: {exc}")
            with os.fdopen(w, "wb") as fh:
                fh.write(pickle.dumps(result))
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        data = fh.read()
    _, wstatus = os.waitpid(pid, 0)
    if data:
        return pickle.loads(data)
    if os.WIFSIGNALED(wstatus):
        sig = os.WTERMSIG(wstatus)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        why = f"killed by {name}"
    else:
        why = f"exit status {os.WEXITSTATUS(wstatus)}"
    return 1, "", (f"adgen check: error: the compiled code crashed ({why}) while checking: "
                   "the primal or a derivative routine accesses memory it should not (with "
                   "these inputs: are the arrays long enough?)")


if __name__ == "__main__":
    sys.exit(main())
