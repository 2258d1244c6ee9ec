"""Built, a head compiled with its derivatives, and its methods: primal, gradient, vjp, jvp
(also several directions in one call of f_dv) and jacobian. They bind and check the
arguments (types, the lengths the code uses), call the C routines through cffi and give
the results in the shapes of the arguments.
"""
from __future__ import annotations

import functools
import numbers
import re
import threading
from pathlib import Path

try:                        # differentiate() works without numpy; build() needs it
    import numpy as np
except ImportError:         # pragma: no cover
    np = None

from adgen.api.analysis import INT_DTYPES, NoEval, evaluate
from adgen.api.arguments import (Args, HandleError, describe, handle_copy, handle_layout,
                                 is_handle, known_lengths, missing_pointer_fields,
                                 node_count, node_dict, node_flatten, node_labels,
                                 node_outputs, node_read, node_write, numpy_dtype,
                                 struct_count, struct_initializer, type_layout)

# One lock per built module (its cache entry): the generated adjoints keep their tape in
# static variables of their file, and cffi lets other threads run during a C call.
_LOCKS = {}
_LOCKS_GUARD = threading.Lock()


def _serialized(method):
    """The method, holding its Built's lock while it sets up and calls the C routines."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        with self.lock:
            return method(self, *args, **kwargs)
    return run


class Built:
    """A head compiled with its derivatives. Methods take the C function's arguments
    (positionally, or by parameter name): numpy arrays for pointers (dtype float64 for
    double, float32 for float, int32 for int, ...), Python numbers for scalars, a dict or
    sequence (cffi initializer) for structs.

    primal(*args)              the C function: returns its return value; arrays written in place
    gradient(*args)            {independent: gradient} of the one scalar dependent
    vjp(*args, seeds={...})    {independent: adjoint} for seeds of the dependents
    jvp(*args, tangents={...}) {dependent: tangent}; with nbdirs=k, k directions at once (f_dv)
    jacobian(*args)            {(dependent, independent): 2-D array J[i, j] = d dep[i] / d ind[j]}
    hvp(*args, tangents={...}) {independent: H v}, H the Hessian of the one scalar dependent
    hessian(*args)             {(independent, independent): block of H}, or H itself for one

    The derivative methods never modify their arguments. Attributes: name, head,
    dependents, independents, parameters, path (the cache entry), cached (found in the
    cache), vector (f_dv available), vector_error (why not), second_order (f_b_d, the
    tangent of the adjoint, available), second_order_error (why not), files ({mode: path}), lock
    (held while the C routines run: one call at a time per built module).
    """

    def __init__(self, meta, module, path, cached):
        self._meta = meta
        self._ffi, self._lib = module.ffi, module.lib
        self.name = meta["func"]
        self.head = meta["head"]
        self.dependents = list(meta["dependents"])
        self.independents = list(meta["independents"])
        self._params = meta["params"]
        self._by_name = {p["name"]: p for p in self._params}
        # (the lengths of CHARACTER strings are the strings')
        self.parameters = [p["name"] for p in self._params if p["kind"] != "length"]
        self.path = Path(path)
        self.cached = cached
        self.vector_error = meta["vector_error"]
        self.vector = "vector" in meta["symbols"]
        self.second_order_error = meta.get("second_error")
        self.second_order = "second" in meta["symbols"]
        self.files = {m: self.path / f for m, f in meta["files"].items()}
        self._fortran = meta["language"] != "c"
        self._sym = meta["symbols"]
        with _LOCKS_GUARD:
            self.lock = _LOCKS.setdefault(str(self.path.resolve()), threading.RLock())

    def __repr__(self):
        return f"<adgen.Built {self.head} at {self.path}>"

    # -- what the framework bridges (torch, jax, scipy) build on --
    def parameter(self, name):
        """The description of parameter `name` (a dict: kind 'int', 'real', 'array',
        'struct', ...; elem, its C element type; scalar_ref for a Fortran scalar passed by
        reference; role, 'in', 'out' or 'inout' for an active one)."""
        return dict(self._by_name[name])

    @property
    def return_type(self):
        """The C type of the function's return value ('void' for none)."""
        return self._meta["ret"]["cdef"]

    def bind(self, what, args, kwargs):
        """{parameter: value} of a call's arguments, positional or by name (TypeError for
        a missing, extra or unknown one, `what` naming the call)."""
        return self._bind(what, args, kwargs)

    def check(self, what, values):
        """Checks the types and lengths of the arguments {parameter: value} as the methods
        do (TypeError, ValueError, `what` naming the call)."""
        self._convert(what, [values[n] for n in self.parameters], {}, copy=False)

    def extent(self, name, env):
        """The number of elements the code uses of array parameter `name` given the values
        of the integer parameters in env; None when adgen's analysis does not tell."""
        return self._extent(name, env)

    def torch(self, head=None, shapes=None):
        """The head as a function of torch tensors with autograd (docs/python-api.md,
        "PyTorch"); needs torch (pip install 'adgen[torch]')."""
        from adgen.api.torch_bridge import torch_function
        return torch_function(self, head, shapes)

    def jax(self, head=None, mode="reverse"):
        """The head as a JAX function, usable under jit, grad and vmap, with a custom VJP
        (mode='reverse') or a custom JVP (mode='forward') (docs/python-api.md, "JAX");
        needs jax (pip install 'adgen[jax]')."""
        from adgen.api.jax_bridge import jax_function
        return jax_function(self, head, mode)

    def value_and_grad(self, *args, head=None, **kwargs):
        """The scalar dependent and its gradient as functions of one flat vector of the
        independents, the other arguments fixed: for scipy.optimize.minimize(fun, x0,
        jac=True) (docs/python-api.md, "SciPy")."""
        from adgen.api.scipy_bridge import ValueAndGrad
        return ValueAndGrad(self, args, kwargs, head)

    # -- arguments --
    def _bind(self, what, args, kwargs):
        names = self.parameters
        sig = ", ".join(f"{n}: {describe(self._by_name[n])}" for n in names)
        if len(args) > len(names):
            raise TypeError(f"{what}() takes {len(names)} argument{'s' * (len(names) != 1)} "
                            f"({sig}), got {len(args)}")
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in self._by_name:
                raise TypeError(f"{what}(): unknown argument {k!r} (parameters: {sig})")
            if k in values:
                raise TypeError(f"{what}(): got two values for argument {k!r}")
            values[k] = v
        missing = [n for n in names if n not in values]
        if missing:
            raise TypeError(f"{what}(): missing argument{'s' * (len(missing) > 1)} "
                            f"{', '.join(map(repr, missing))} (parameters: {sig})")
        return values

    def _convert(self, what, args, kwargs, copy=True):
        ffi = self._ffi
        raw = self._bind(what, args, kwargs)
        values, arrays, shapes, boxed, env = {}, set(), {}, set(), {}
        arrays_of_structs, keep, handles, lengths = [], [], {}, {}
        for p in self._params:
            n, v, kind = p["name"], raw.get(p["name"]), p["kind"]
            where = f"{what}(): argument {n!r} ({describe(p)})"
            if kind == "length":
                continue        # set from its string's below
            if kind == "string":
                if isinstance(v, str):
                    v = v.encode()
                if not isinstance(v, bytes):
                    raise TypeError(f"{where} must be a str, got {type(v).__name__}")
                values[n] = ffi.new("char[]", v)
                lengths[n] = len(v)
            elif kind == "int":
                if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral):
                    raise TypeError(f"{where} must be an int, got {type(v).__name__}")
                v = int(v)
                bits = 8 * ffi.sizeof(p["elem"])
                signed = INT_DTYPES[p["elem"]][0]
                lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else \
                    (0, (1 << bits) - 1)
                if not lo <= v <= hi:
                    raise ValueError(f"{where}: {v} is out of range [{lo}, {hi}]")
                values[n] = env[n] = v
            elif kind == "real":
                if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
                    raise TypeError(f"{where} must be a real number, got {type(v).__name__}")
                values[n] = env[n] = float(v)
            elif kind == "array":
                dt = numpy_dtype(p["elem"], ffi)
                if self._fortran and isinstance(v, numbers.Number) and \
                        not isinstance(v, (bool, np.bool_)):
                    v = np.array([v], dtype=dt)     # a Fortran scalar, passed by reference
                    boxed.add(n)
                    env[n] = v
                if not isinstance(v, np.ndarray):
                    raise TypeError(f"{where} must be a numpy array of dtype {dt}, got "
                                    f"{type(v).__name__}")
                if v.dtype != dt:
                    raise TypeError(f"{where} must have dtype {dt}, got {v.dtype}"
                                    f" (convert it with np.asarray(..., dtype=np.{dt}))")
                if p.get("rows") and v.ndim != 2:
                    raise TypeError(f"{where} must be a 2-D numpy array (its rows are passed "
                                    f"as row pointers), got {v.ndim} dimension"
                                    f"{'s' * (v.ndim != 1)}")
                shapes[n] = v.shape
                if copy or not v.flags.c_contiguous:
                    v = np.array(v, dtype=dt, order="C", copy=True)
                values[n] = v
                arrays.add(n)
            else:       # struct, struct_ptr
                ctype = p["elem"]
                count = 1       # structs passed
                handle = bool(p["role"]) and is_handle(ffi.typeof(ctype))
                if handle and isinstance(v, dict):
                    missing = missing_pointer_fields(ffi.typeof(ctype), v, n)
                    if missing:
                        raise TypeError(f"{where}: no value for {', '.join(missing)}: give "
                                        "every pointer field of a struct holding pointers "
                                        "(an array as a sequence or numpy array, a struct as "
                                        "a dict, None for a NULL pointer)")
                if isinstance(v, ffi.CData):
                    t = ffi.typeof(v)
                    want = ffi.typeof(ctype if kind == "struct" else ctype + " *")
                    if t is want:
                        values[n] = v
                    elif kind == "struct" and t is ffi.typeof(ctype + " *"):
                        values[n] = v[0]
                    elif kind == "struct_ptr" and t.kind == "array" and \
                            t.item is ffi.typeof(ctype):
                        values[n], count = v, len(v)
                    else:
                        raise TypeError(f"{where}: got a cdata {t.cname}")
                elif kind == "struct_ptr" and isinstance(v, (list, tuple)) and v and \
                        all(isinstance(item, dict) for item in v):
                    # an array of structs, one dict each
                    try:
                        values[n] = ffi.new(f"{ctype}[]", [
                            struct_initializer(ffi, ffi.typeof(ctype), item, keep, not copy)
                            for item in v])
                    except (TypeError, ValueError, OverflowError, KeyError) as exc:
                        raise TypeError(f"{where}: cannot make an array of {ctype} of {v!r} "
                                        f"({exc})")
                    count = len(v)
                else:
                    try:
                        ptr = ffi.new(ctype + " *", struct_initializer(
                            ffi, ffi.typeof(ctype), v, keep, not copy))
                    except (TypeError, ValueError, OverflowError, KeyError) as exc:
                        raise TypeError(f"{where}: cannot make a {ctype} of {v!r} ({exc}); give "
                                        "a dict of its fields or a sequence in field order")
                    values[n] = ptr[0] if kind == "struct" else ptr
                env[n] = values[n]
                shapes[n] = (count * struct_count(ffi.typeof(ctype)),)
                if kind == "struct_ptr":
                    arrays_of_structs.append((n, count))
                if handle and copy:        # a derivative method: the layout of its parts
                    if count != 1:
                        raise TypeError(f"{where}: {n} is one {ctype} (a struct holding "
                                        f"pointers): give one dict, not {count}")
                    obj = values[n] if kind == "struct" else values[n][0]
                    try:
                        full = handle_layout(ffi, ffi.typeof(ctype), obj,
                                              known_lengths(ffi, keep), n)
                    except HandleError as exc:
                        raise TypeError(f"{where}: {exc}") from None
                    handles[n] = {"full": full, "ctype": ctype, "byvalue": kind == "struct",
                                  "out": node_outputs(full) if kind == "struct" else full}
                    shapes[n] = (node_count(full),)
        for n in arrays:
            p = self._by_name[n]
            if p["extent"] is None:
                continue
            try:
                need = evaluate(p["extent"], env)
            except (NoEval, Exception):
                continue
            # (row pointers: the rows the code uses)
            size = values[n].shape[0] if p.get("rows") else values[n].size
            if need > size:
                shown = {}
                for r in re.findall(r"[A-Za-z_]\w*", p["extent_text"] or ""):
                    v = env.get(r)
                    if isinstance(v, np.ndarray) and v.size == 1:      # a Fortran scalar
                        v = v.reshape(-1)[0].item()
                    if isinstance(v, int):
                        shown[r] = v
                with_ = f" with {', '.join(f'{k}={v}' for k, v in shown.items())}" \
                    if shown else ""
                unit = "row" if p.get("rows") else "element"
                raise ValueError(f"{what}(): argument {n!r} has {size} {unit}"
                                 f"{'s' * (size != 1)}, but {self.name} uses {need} "
                                 f"({p['extent_text']}{with_})")
        for n, count in arrays_of_structs:
            need = self._extent(n, env)
            if need is not None and need > count:
                elem = self._by_name[n]["elem"]
                raise ValueError(f"{what}(): argument {n!r} points to {count} {elem}, but "
                                 f"{self.name} uses {need} of them "
                                 f"({self._by_name[n]['extent_text']}): give a list of "
                                 f"{need} dicts, one per struct")
        self._check_field_lengths(what, values, env, keep)
        for p in self._params:
            if p["kind"] == "length":
                values[p["name"]] = env[p["name"]] = lengths[p["of"]]
        struct_ptrs = [p["name"] for p in self._params if p["kind"] == "struct_ptr"]
        args = Args(values, arrays, shapes, boxed, env, struct_ptrs, ffi)
        args.keep = keep        # the arrays the structs' pointer fields point to
        args.handles = handles
        return args

    def _check_field_lengths(self, what, values, env, keep):
        """The arrays the pointer fields of struct arguments lead to (those given as
        sequences or numpy arrays) are as long as the code uses, where adgen's analysis
        tells (ValueError otherwise)."""
        ffi = self._ffi
        lengths = None
        for p in self._params:
            fe = p.get("field_extents")
            if not fe or p["kind"] not in ("struct", "struct_ptr"):
                continue
            lengths = known_lengths(ffi, keep) if lengths is None else lengths
            n = p["name"]
            for path, (ser, text) in fe.items():
                try:
                    v, field = values[n], n
                    for name in path.split("."):
                        pointer = ffi.typeof(v).kind == "pointer"
                        if pointer and v == ffi.NULL:
                            raise NoEval("NULL")
                        v, field = getattr(v, name), field + ("->" if pointer else ".") + name
                    size = lengths.get(int(ffi.cast("uintptr_t", v)))
                    need = evaluate(ser, env) if size is not None else None
                except Exception:
                    continue
                if need is None or need <= size:
                    continue
                shown = {}
                for m in re.finditer(r"\b([A-Za-z_]\w*)(->|\.)([A-Za-z_]\w*)\b(?![.\-(\[])",
                                     text):
                    try:
                        val = getattr(env[m.group(1)], m.group(3))
                    except Exception:
                        continue
                    if isinstance(val, int):
                        shown[m.group(0)] = val
                for r in re.findall(r"(?<![>.\w])[A-Za-z_]\w*(?![\w(]|->|\.)", text):
                    if isinstance(env.get(r), int) and not isinstance(env.get(r), bool):
                        shown[r] = env[r]
                with_ = f" with {', '.join(f'{k}={v}' for k, v in shown.items())}" \
                    if shown else ""
                raise ValueError(f"{what}(): argument {n!r}: {field} has {size} element"
                                 f"{'s' * (size != 1)}, but {self.name} uses {need} "
                                 f"({text}{with_})")

    def _cvals(self, vals):
        if self._meta.get("setup"):
            # the set-up function first (globals an init routine sets), before every call
            getattr(self._lib, self._meta["setup"])()
        out = {}
        for p in self._params:
            v = vals[p["name"]]
            out[p["name"]] = self._c_array(p, v, v.shape) if p["kind"] == "array" else v
        return out

    def _c_array(self, p, v, shape):
        """The C argument for array parameter p holding numpy array v (of the argument's
        shape): its data, or for row pointers (`double **rows`) pointers to its rows (v
        keeps the data alive)."""
        data = self._ffi.from_buffer(p["elem"] + "[]", v)
        if not p.get("rows"):
            return data
        n, m = shape
        return self._ffi.new(p["elem"] + " *[]", [data + i * m for i in range(n)])

    # -- the routines --
    def primal(self, *args, **kwargs):
        """Call the C function. Pointer arguments are passed as they are (no copy) when they
        are C-contiguous: what the function writes appears in them. Returns its return
        value (None for void)."""
        what = f"{self.name}.primal"
        a = self._convert(what, args, kwargs, copy=False)
        raw = self._bind(what, args, kwargs)
        writeback = []
        for n in a.arrays:
            user = raw[n]
            if a.values[n] is user:
                if not user.flags.writeable and not self._by_name[n]["const"]:
                    if self._by_name[n]["role"] in ("out", "inout"):
                        raise ValueError(f"{what}(): argument {n!r} is an output of "
                                         f"{self.name} but the array is read-only")
                    a.values[n] = user.copy()
            elif n not in a.boxed and user.flags.writeable and not self._by_name[n]["const"]:
                writeback.append(n)     # not contiguous: copied in, copied back
        res = self._run_primal(a.values)
        for n in writeback:
            raw[n][...] = a.values[n].reshape(a.shapes[n])
        return res

    @_serialized
    def _run_primal(self, vals):
        c = self._cvals(vals)
        return getattr(self._lib, self._sym["primal"])(*[c[p["name"]] for p in self._params])

    def _extent(self, name, env):
        """The number of elements the code uses of array parameter `name`, given the values
        of the other parameters in env; None when unknown."""
        p = self._by_name[name]
        if p["extent"] is None:
            return None
        try:
            return evaluate(p["extent"], env)
        except Exception:
            return None

    def _size(self, a, name, out=False):
        """The number of values of `name` as an independent (out=False) or a dependent
        (out=True): they differ for a handle passed by value."""
        if name == self.name:
            return 1
        if name in a.handles:
            return node_count(a.handles[name]["out" if out else "full"])
        p = self._by_name[name]
        if p["kind"] in ("struct", "struct_ptr"):
            return a.shapes[name][0]
        return 1 if p["kind"] == "real" else a.values[name].size

    def _seed_array(self, what, a, name, value, kind, nbdirs=None):
        """A user's seed or tangent for `name` as a flat array of its element type (with a
        leading nbdirs axis when nbdirs is given)."""
        n = self._size(a, name, out=kind == "seeds")
        p = self._by_name.get(name)
        if name in a.handles and (isinstance(value, dict) or value is None):
            if nbdirs is not None:
                raise TypeError(f"{what}(): {kind}[{name!r}]: with nbdirs, give an array "
                                f"of shape ({nbdirs}, {n}) (the parts flattened)")
            value = node_flatten(a.handles[name]["out" if kind == "seeds" else "full"],
                                  value, f"{what}(): {kind}[{name!r}]")
        struct = p is not None and p["kind"] in ("struct", "struct_ptr")
        elem = p["elem"] if p else self._meta["ret"]["cdef"]
        dt = np.dtype(np.float64) if struct else numpy_dtype(elem, self._ffi)
        if name in a.handles:
            struct = False      # given flat, or flattened above
        scalar = name == self.name or p["kind"] == "real" or name in a.boxed
        if struct and (isinstance(value, dict) or isinstance(value, (list, tuple)) and value
                       and all(isinstance(item, dict) for item in value)):
            if nbdirs is not None:
                raise TypeError(f"{what}(): {kind}[{name!r}]: with nbdirs, give an array "
                                f"of shape ({nbdirs}, {n}) (the fields flattened)")
            layout = type_layout(self._ffi.typeof(p["elem"]))
            value = node_flatten(layout, value, f"{kind}[{name!r}]") \
                if isinstance(value, dict) else \
                [x for k, item in enumerate(value)
                 for x in node_flatten(layout, item, f"{kind}[{name!r}][{k}]")]
        try:
            arr = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{what}(): {kind}[{name!r}] must be "
                            f"{'a number' if scalar and nbdirs is None else 'an array'}, got "
                            f"{type(value).__name__}") from None
        shape = () if scalar else (n,) if name in a.handles else a.shapes[name]
        lead = () if nbdirs is None else (nbdirs,)
        ok = arr.shape == lead + tuple(shape) or arr.shape == lead + (n,) or \
            (scalar and nbdirs is None and arr.size == 1)
        if not ok:
            exp = lead + tuple(shape)
            raise ValueError(f"{what}(): {kind}[{name!r}] has shape {arr.shape}, expected "
                             f"{exp if exp else 'a number'}"
                             + (f" ({nbdirs} directions)" if nbdirs is not None else ""))
        return np.ascontiguousarray(arr.reshape(lead + (n,)), dtype=dt)

    def _check_names(self, what, given, allowed, kind, role):
        if not isinstance(given, dict):
            raise TypeError(f"{what}(): {kind} must be a dict name -> value, got "
                            f"{type(given).__name__}")
        for k in given:
            if k not in allowed:
                raise ValueError(f"{what}(): {kind}: {k!r} is not {role} of {self.head} "
                                 f"({role.split()[-1]}s: {', '.join(allowed)})")

    def _shape_out(self, a, name, flat, out=False):
        """A result for `name` (a flat array) in the user's shape; a float for scalars, a
        dict of its floating-point fields for a struct; for a handle, a dict of its parts
        as a dependent (out) or an independent."""
        if name in a.handles:
            return node_dict(a.handles[name]["out" if out else "full"],
                              iter(float(x) for x in flat))
        if name == self.name or self._by_name[name]["kind"] == "real" or name in a.boxed:
            return float(flat[0])
        if self._by_name[name]["kind"] in ("struct", "struct_ptr"):
            layout = type_layout(self._ffi.typeof(self._by_name[name]["elem"]))
            values = iter(flat)
            if self._ffi.typeof(a.values[name]).kind == "array":     # a list of structs
                return [node_dict(layout, values) for _ in range(len(a.values[name]))]
            return node_dict(layout, values)
        return flat.reshape(a.shapes[name])

    @_serialized
    def _tangent(self, a, tangents):
        """One f_d call; tangents {independent: flat array}; returns {dependent: flat}."""
        ffi = self._ffi
        vals = a.fresh()
        c = self._cvals(vals)
        cargs, outs = [], {}
        for p in self._params:
            n = p["name"]
            if p["kind"] == "length":
                continue        # last of all (_lengths)
            cargs.append(c[n])
            if not p["role"]:
                continue
            if p["kind"] == "array":
                t = np.zeros(vals[n].size, dtype=vals[n].dtype)
                if n in tangents:
                    t[:] = tangents[n]
                outs[n] = t
                cargs.append(self._c_array(p, t, vals[n].shape))
            elif n in a.handles:
                t = self._derivative_handle(a, n, vals[n], tangents.get(n), "full")
                outs[n] = t
                cargs.append(t[0] if p["kind"] == "struct" else t)
            elif p["kind"] in ("struct", "struct_ptr"):
                t = self._new_struct(p, tangents.get(n), self._structs(vals[n]))
                outs[n] = t
                cargs.append(t[0] if p["kind"] == "struct" else t)
            else:
                cargs.append(float(tangents[n][0]) if n in tangents else 0.0)
        res_ptr = None
        if self._meta["ret_active"]:
            res_ptr = ffi.new(self._meta["ret"]["cdef"] + " *")
            cargs.append(res_ptr)
        r = getattr(self._lib, self._sym["forward"])(*cargs, *self._lengths(c))
        out = {d: (np.array([r], dtype=np.float64) if d == self.name else
                   self._parts(a, d, outs[d], out=True) if d in a.handles else
                   self._flat(d, outs[d])) for d in self.dependents}
        primal = self._primal_results(a, vals)
        primal["return"] = res_ptr[0] if res_ptr is not None else r
        return out, primal

    def _lengths(self, c):
        """The lengths of the CHARACTER arguments, which the derivative routines take
        after all the others."""
        return [c[p["name"]] for p in self._params if p["kind"] == "length"]

    def _primal_results(self, a, vals):
        """What a derivative routine left in the copies of the arguments: the arrays, and
        the outputs of the handle dependents (flat)."""
        primal = {n: vals[n] for n in a.arrays}
        for n in self.dependents:
            if n in a.handles:
                primal[n] = self._parts(a, n, vals[n], out=True)
        return primal

    def _derivative_handle(self, a, name, value, flat, layout):
        """The derivative struct of handle `name` (value: its primal, or a copy of it): the
        same type, its pointers leading to new arrays of the same lengths (and new
        structs), its parts zero, or set from flat along the layout ("full" or "out")."""
        h = a.handles[name]
        d = handle_copy(self._ffi, h["full"], h["ctype"], value if h["byvalue"] else value[0],
                         a.keep, zero=True)
        if flat is not None:
            node_write(self._ffi, h[layout], d[0], iter(float(x) for x in flat))
        return d

    def _parts(self, a, name, v, out=False):
        """The parts of handle `name` (v: the struct, or a pointer to it) as a flat array:
        those of a dependent (out) or of an independent."""
        h = a.handles[name]
        res = []
        node_read(self._ffi, h["out" if out else "full"], v if h["byvalue"] else v[0], res)
        return np.array(res, dtype=np.float64)

    def _set_part(self, a, name, v, j, value):
        """Sets part j (as an independent) of handle `name` (v: the struct, or a pointer
        to it, changed in place); returns the value stored."""
        h = a.handles[name]
        flat = self._parts(a, name, v)
        flat[j] = value
        node_write(self._ffi, h["full"], v if h["byvalue"] else v[0], iter(flat.tolist()))
        return float(self._parts(a, name, v)[j])

    def _labels(self, a, name, out=False):
        """`m.h`, `m.x[2]`, `m.mat.k[0]`: the labels of the parts of handle `name`."""
        return node_labels(a.handles[name]["out" if out else "full"], name)

    @_serialized
    def _adjoint(self, a, seeds):
        """One f_b call; seeds {dependent: flat array}; returns {independent: flat}."""
        ffi = self._ffi
        vals = a.fresh()
        c = self._cvals(vals)
        cargs, outs = [], {}
        for p in self._params:
            n = p["name"]
            if p["kind"] == "length":
                continue        # last of all (_lengths)
            cargs.append(c[n])
            if not p["role"]:
                continue
            if p["kind"] == "array":
                b = np.zeros(vals[n].size, dtype=vals[n].dtype)
                if n in seeds:
                    b[:] = seeds[n]
                outs[n] = b
                cargs.append(self._c_array(p, b, vals[n].shape))
            elif n in a.handles:
                outs[n] = self._derivative_handle(a, n, vals[n], seeds.get(n), "out")
                cargs.append(outs[n])
            elif p["kind"] in ("struct", "struct_ptr"):
                outs[n] = self._new_struct(p, seeds.get(n), self._structs(vals[n]))
                cargs.append(outs[n])
            else:
                outs[n] = ffi.new(p["elem"] + " *", 0.0)
                cargs.append(outs[n])
        if self._meta["ret_active"]:
            seed = float(seeds[self.name][0]) if self.name in seeds else 0.0
            cargs.append(self._ffi.new(self._meta["ret"]["cdef"] + " *", seed)
                         if self._fortran else seed)
        getattr(self._lib, self._sym["reverse"])(*cargs, *self._lengths(c))
        res = {}
        for n in self.independents:
            res[n] = self._parts(a, n, outs[n]) if n in a.handles else self._flat(n, outs[n])
        return res, self._primal_results(a, vals)

    def _structs(self, v):
        """How many structs a struct argument's value holds (an array of them or one)."""
        return len(v) if self._ffi.typeof(v).kind == "array" else 1

    def _new_struct(self, p, flat, count=1):
        """New structs of parameter p's type (a pointer to one, or an array of count of
        them), their floating-point fields set from flat (zero when None), which also
        tells how many there are."""
        t = self._ffi.typeof(p["elem"])
        if flat is not None:
            count = max(1, len(flat) // max(1, struct_count(t)))
        if count == 1:
            ptr = self._ffi.new(p["elem"] + " *")
        else:
            ptr = self._ffi.new(f"{p['elem']}[{count}]")
        if flat is not None:
            values = iter(float(x) for x in flat)
            for k in range(count):
                node_write(self._ffi, type_layout(t), ptr[k], values)
        return ptr

    def _flat(self, name, v):
        """A derivative routine's result for `name` as a flat array: an array as it is, a
        scalar's or a struct's values (the struct itself or a pointer to it)."""
        if isinstance(v, np.ndarray):
            return v
        p = self._by_name[name]
        if p["kind"] in ("struct", "struct_ptr"):
            out, t, kind = [], self._ffi.typeof(p["elem"]), self._ffi.typeof(v).kind
            for item in (list(v) if kind == "array" else [v[0] if kind == "pointer" else v]):
                node_read(self._ffi, type_layout(t), item, out)
            return np.array(out, dtype=np.float64)
        return np.array([v[0]], dtype=np.float64)

    def _write_flat(self, name, v, flat):
        """Sets the floating-point values of struct argument `name` (v: the struct, a pointer
        to it or an array of them, changed in place) from flat, in _flat's order; its other
        fields (integers, say) keep their values."""
        p = self._by_name[name]
        t, kind = self._ffi.typeof(p["elem"]), self._ffi.typeof(v).kind
        values = iter(float(x) for x in flat)
        if kind == "array":
            for item in v:
                node_write(self._ffi, type_layout(t), item, values)
        else:
            node_write(self._ffi, type_layout(t), v[0] if kind == "pointer" else v, values)

    @_serialized
    def _vector(self, a, tangents, nbdirs):
        """One f_dv call; tangents {independent: (nbdirs, n) array}; returns {dependent:
        (nbdirs, n)}."""
        ffi = self._ffi
        vals = a.fresh()
        c = self._cvals(vals)
        cargs, outs = [], {}
        for p in self._params:
            n = p["name"]
            if p["kind"] == "length":
                continue        # last of all (_lengths)
            cargs.append(c[n])
            if not p["role"]:
                continue
            size = 1 if p["kind"] == "real" else vals[n].size
            dt = numpy_dtype(p["elem"], ffi)
            t = np.zeros((size, nbdirs), dtype=dt)      # element i, direction k: [i, k]
            if n in tangents:
                t[...] = tangents[n].T
            outs[n] = t
            cargs.append(ffi.from_buffer(p["elem"] + "[]", t))
        if self._meta["ret_active"]:
            outs[self.name] = np.zeros((1, nbdirs), dtype=numpy_dtype(self._meta["ret"]["cdef"], ffi))
            cargs.append(ffi.from_buffer(self._meta["ret"]["cdef"] + "[]", outs[self.name]))
        cargs.append(ffi.new("int *", nbdirs) if self._fortran else nbdirs)
        getattr(self._lib, self._sym["vector"])(*cargs, *self._lengths(c))
        return {d: np.ascontiguousarray(outs[d].T) for d in self.dependents}

    def vjp(self, *args, seeds, **kwargs):
        """Vector-Jacobian product: the adjoints of the independents for `seeds`, a dict
        dependent name -> array shaped like that argument (the function's name for its
        return value, with a number). Dependents without a seed get zero."""
        what = f"{self.name}.vjp"
        a = self._convert(what, args, kwargs)
        self._check_names(what, seeds, self.dependents, "seeds", "a dependent")
        flat = {k: self._seed_array(what, a, k, v, "seeds") for k, v in seeds.items()}
        res, _ = self._adjoint(a, flat)
        return {n: self._shape_out(a, n, v) for n, v in res.items()}

    def jvp(self, *args, tangents, nbdirs=None, **kwargs):
        """Jacobian-vector product: the tangents of the dependents for `tangents`, a dict
        independent name -> array shaped like that argument (a number for a by-value
        scalar). Independents without a tangent get zero. With nbdirs=k, each tangent has a
        leading axis of k directions, so does each result, and one call of f_dv computes
        them all."""
        what = f"{self.name}.jvp"
        a = self._convert(what, args, kwargs)
        self._check_names(what, tangents, self.independents, "tangents", "an independent")
        if nbdirs is None:
            flat = {k: self._seed_array(what, a, k, v, "tangents") for k, v in tangents.items()}
            res, _ = self._tangent(a, flat)
            return {n: self._shape_out(a, n, v, out=True) for n, v in res.items()}
        if isinstance(nbdirs, bool) or not isinstance(nbdirs, numbers.Integral) or nbdirs < 1:
            raise ValueError(f"{what}(): nbdirs must be a positive int, got {nbdirs!r}")
        if not self.vector:
            raise RuntimeError(f"{what}(): vector mode is not available for {self.head}: "
                               f"{self.vector_error}")
        nbdirs = int(nbdirs)
        flat = {k: self._seed_array(what, a, k, v, "tangents", nbdirs)
                for k, v in tangents.items()}
        res = self._vector(a, flat, nbdirs)
        return {n: self._shape_out_dirs(a, n, v) for n, v in res.items()}

    def _shape_out_dirs(self, a, name, flat):
        if name == self.name or name in a.boxed:
            return flat[:, 0].copy()
        return flat.reshape((flat.shape[0],) + tuple(a.shapes[name]))

    def gradient(self, *args, **kwargs):
        """The gradient of the one scalar dependent (the return value, or an output array
        of one element) with respect to each independent: {name: array shaped like the
        argument, or a float for a by-value scalar}."""
        what = f"{self.name}.gradient"
        a = self._convert(what, args, kwargs)
        sizes = {d: self._size(a, d, out=True) for d in self.dependents}
        if len(self.dependents) != 1 or sizes[self.dependents[0]] != 1:
            desc = ", ".join(f"{d} ({sizes[d]} value{'s' * (sizes[d] != 1)})"
                             for d in self.dependents)
            raise ValueError(f"{what}(): a gradient needs one scalar dependent; {self.head} "
                             f"has {desc}: use vjp() or jacobian()")
        d = self.dependents[0]
        res, _ = self._adjoint(a, {d: np.ones(1)})
        return {n: self._shape_out(a, n, v) for n, v in res.items()}

    def jacobian(self, *args, method="auto", **kwargs):
        """{(dependent, independent): J} with J[i, j] = d dep.flat[i] / d indep.flat[j]
        (a scalar counts as one element), for every pair. method: 'reverse' (one f_b call per
        dependent element), 'forward' (one f_d call per independent element), 'vector' (one
        f_dv call) or 'auto' (reverse when there are fewer dependent than independent
        elements, else vector when available, else forward)."""
        what = f"{self.name}.jacobian"
        a = self._convert(what, args, kwargs)
        nout = {d: self._size(a, d, out=True) for d in self.dependents}
        nin = {x: self._size(a, x) for x in self.independents}
        if method == "auto":
            method = "reverse" if sum(nout.values()) < sum(nin.values()) else \
                "vector" if self.vector else "forward"
        if method not in ("reverse", "forward", "vector"):
            raise ValueError(f"{what}(): method must be 'auto', 'reverse', 'forward' or "
                             f"'vector', got {method!r}")
        if method == "vector" and not self.vector:
            raise RuntimeError(f"{what}(): vector mode is not available for {self.head}: "
                               f"{self.vector_error}")
        J = {(d, x): np.zeros((nout[d], nin[x])) for d in self.dependents
             for x in self.independents}
        if method == "reverse":
            for d in self.dependents:
                for i in range(nout[d]):
                    e = np.zeros(nout[d])
                    e[i] = 1.0
                    res, _ = self._adjoint(a, {d: e})
                    for x in self.independents:
                        J[d, x][i, :] = res[x]
        elif method == "forward":
            for x in self.independents:
                for j in range(nin[x]):
                    e = np.zeros(nin[x])
                    e[j] = 1.0
                    res, _ = self._tangent(a, {x: e})
                    for d in self.dependents:
                        J[d, x][:, j] = res[d]
        else:
            total = sum(nin.values())
            tangents, k = {}, 0
            for x in self.independents:
                t = np.zeros((total, nin[x]))
                t[k:k + nin[x], :] = np.eye(nin[x])
                tangents[x] = t
                k += nin[x]
            res = self._vector(a, tangents, total)
            k = 0
            for x in self.independents:
                for d in self.dependents:
                    J[d, x][:, :] = res[d][k:k + nin[x], :].T
                k += nin[x]
        return J

    # -- second order: the tangent of the adjoint (docs/second-order.md) --
    def _scalar_dependent(self, what, a):
        sizes = {d: self._size(a, d, out=True) for d in self.dependents}
        if len(self.dependents) != 1 or sizes[self.dependents[0]] != 1:
            raise ValueError(f"{what}(): second derivatives need one scalar dependent; "
                             f"{self.head} has {', '.join(self.dependents)}")
        if not self.second_order:
            raise RuntimeError(f"{what}(): the tangent of the adjoint is not available for "
                               f"{self.head}: {self.second_order_error}")
        return self.dependents[0]

    def hvp(self, *args, tangents, **kwargs):
        """Hessian-vector product of the one scalar dependent: {independent: H v}, v given
        by `tangents` (independent name -> array shaped like that argument, a number for a
        by-value scalar; zero for those not given). One call of f_b_d, the tangent of the
        adjoint."""
        what = f"{self.name}.hvp"
        a = self._convert(what, args, kwargs)
        self._check_names(what, tangents, self.independents, "tangents", "an independent")
        self._scalar_dependent(what, a)
        flat = {k: self._seed_array(what, a, k, v, "tangents") for k, v in tangents.items()}
        res = self._second(a, flat)
        return {n: self._shape_out(a, n, v) for n, v in res.items()}

    def hessian(self, *args, **kwargs):
        """The Hessian of the one scalar dependent: {(xi, xj): H[i, j] = d2 f / d xi.flat[i]
        d xj.flat[j]} for every pair of independents, or, for one independent, the matrix
        itself. One call of f_b_d per independent element."""
        what = f"{self.name}.hessian"
        a = self._convert(what, args, kwargs)
        self._scalar_dependent(what, a)
        nin = {x: self._size(a, x) for x in self.independents}
        H = {(xi, xj): np.zeros((nin[xi], nin[xj])) for xi in self.independents
             for xj in self.independents}
        for xj in self.independents:
            for j in range(nin[xj]):
                e = np.zeros(nin[xj])
                e[j] = 1.0
                res = self._second(a, {xj: e})
                for xi in self.independents:
                    H[xi, xj][:, j] = res[xi]
        if len(self.independents) == 1:
            return H[self.independents[0], self.independents[0]]
        return H

    @_serialized
    def _second(self, a, tangents):
        """One f_b_d call, the scalar dependent's seed 1; tangents {independent: flat
        array}; returns {independent: flat H v}."""
        ffi = self._ffi
        vals = a.fresh()
        c = self._cvals(vals)
        dep = self.dependents[0]
        cargs, outs = [], {}
        for p in self._params:
            n = p["name"]
            if p["kind"] == "length":
                continue
            cargs.append(c[n])
            if not p["role"]:
                continue
            array = p["kind"] == "array"
            indep = n in self.independents
            if indep:
                t = tangents.get(n)
                if array:
                    td = np.zeros(vals[n].size, dtype=vals[n].dtype)
                    if t is not None:
                        td[:] = t
                    cargs.append(self._c_array(p, td, vals[n].shape))
                else:
                    value = float(t[0]) if t is not None else 0.0
                    # (a Fortran scalar's tangent by reference, as the scalar)
                    cargs.append(ffi.new(p["elem"] + " *", value) if self._fortran else value)
            if array:
                b = np.zeros(vals[n].size, dtype=vals[n].dtype)
                if n == dep:
                    b[:] = 1.0
                cargs.append(self._c_array(p, b, vals[n].shape))
            else:
                b = ffi.new(p["elem"] + " *", 0.0)
                cargs.append(b)
            if indep:
                if array:
                    outs[n] = np.zeros(vals[n].size, dtype=vals[n].dtype)
                    cargs.append(self._c_array(p, outs[n], vals[n].shape))
                else:
                    outs[n] = ffi.new(p["elem"] + " *", 0.0)
                    cargs.append(outs[n])
        if self._meta["ret_active"]:
            seed = 1.0 if dep == self.name else 0.0
            cargs.append(ffi.new(self._meta["ret"]["cdef"] + " *", seed) if self._fortran
                         else seed)
        getattr(self._lib, self._sym["second"])(*cargs, *self._lengths(c))
        return {n: self._flat(n, outs[n]) for n in self.independents}
