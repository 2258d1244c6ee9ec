"""What the framework bridges (torch_bridge, jax_bridge, scipy_bridge) share: a Built's
head seen as a function from its independents to its dependents on numpy arrays, the other
arguments held fixed, with its vector-Jacobian and Jacobian-vector products, and an
optional leading batch axis on the independents (the C code run once per row).

Inputs are the independents in the head's order: a number (a 0-d array) for a by-value
scalar or a Fortran scalar passed by reference, an array for an array. Outputs are the
dependents in the head's order: the return value (a 0-d array) and the arrays the function
writes, in the shapes of the arguments given for them.
"""
from __future__ import annotations

import importlib

import numpy as np

from adgen.errors import AdgenError
from adgen.frontend.heads import parse_head

FLOAT_DTYPES = {"double": np.dtype(np.float64), "float": np.dtype(np.float32)}


def require(module, extra):
    """Imports an optional dependency, or says which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"this needs {module}, which is not installed: "
                          f"pip install 'adgen[{extra}]'") from None


class HeadFunction:
    """The head of `built` (or the sub-head `head`: some of its dependents and
    independents) as a function of numpy arrays. `what` names the caller in messages
    ('heat.torch'); `shapes` {independent: shape} tells an array independent's shape for
    one call of the C code where adgen's extent analysis does not (for the batch axis)."""

    def __init__(self, built, what, head=None, shapes=None):
        self.built, self.what = built, what
        self.dependents, self.independents = self._select(head)
        self.head = f"{built.name}({' '.join(self.dependents)})/({' '.join(self.independents)})"
        self.shapes = {}
        for name, shape in (shapes or {}).items():
            if name not in self.independents:
                raise ValueError(f"{what}(): shapes: {name!r} is not an independent of "
                                 f"{self.head}")
            self.shapes[name] = tuple(int(d) for d in np.atleast_1d(shape))
        for name in self.independents + self.dependents:
            self.dtype(name)        # floating-point scalars and arrays only

    def _select(self, head):
        built = self.built
        if head is None:
            return list(built.dependents), list(built.independents)
        try:
            name, deps, indeps = parse_head(head)
        except AdgenError as exc:
            raise ValueError(f"{self.what}(): {exc}") from None
        if name.lower() != built.name.lower():
            raise ValueError(f"{self.what}(): head {head!r} is not of {built.name}: this "
                             f"build's head is {built.head}")
        deps = [d.lower() if d.lower() in built.dependents else d for d in (deps or [])] \
            or list(built.dependents)
        indeps = [x.lower() if x.lower() in built.independents else x
                  for x in (indeps or [])] or list(built.independents)
        for names, allowed, role in [(deps, built.dependents, "dependent"),
                                     (indeps, built.independents, "independent")]:
            for n in names:
                if n not in allowed:
                    raise ValueError(f"{self.what}(): {n!r} is not a {role} of the build "
                                     f"{built.head} ({role}s: {', '.join(allowed)})")
        return deps, indeps

    def named(self, call, on):
        """`call`, the framework's function, with its name, a docstring saying what it
        takes (`on`: 'torch tensors') and the attributes head, dependents, independents."""
        call.__name__ = self.built.name
        call.__doc__ = f"{self.head} on {on} (adgen); dependents: {', '.join(self.dependents)}"
        call.head = self.head
        call.dependents, call.independents = list(self.dependents), list(self.independents)
        return call

    # -- what each variable is --
    def _scalar(self, name):
        """Whether `name` is one number: the return value, a by-value scalar, a Fortran
        scalar passed by reference."""
        if name == self.built.name:
            return True
        p = self.built.parameter(name)
        return p["kind"] == "real" or bool(p.get("scalar_ref"))

    def dtype(self, name):
        """The numpy dtype of dependent or independent `name` (TypeError for a struct or
        a non-floating-point type)."""
        if name == self.built.name:
            elem, kind = self.built.return_type, "real"
        else:
            p = self.built.parameter(name)
            elem, kind = p["elem"], p["kind"]
        if kind not in ("real", "array") or elem not in FLOAT_DTYPES:
            raise TypeError(f"{self.what}(): {name!r} is a {elem} {kind}: the framework "
                            "bridges take floating-point (double or float) scalars and arrays "
                            "as independents and dependents; use the numpy methods (vjp, "
                            "jvp) for structs")
        return FLOAT_DTYPES[elem]

    # -- arguments --
    def bind(self, args, kwargs):
        """(the independents' values in order, {other parameter: value}) of a call."""
        values = self.built.bind(self.what, args, kwargs)
        return [values.pop(n) for n in self.independents], values

    def _row_values(self, inputs, rest):
        """{parameter: value} for one call of the C routines: copies of arrays (the primal
        writes its outputs in place), numbers for scalars, one-element arrays for Fortran
        scalars that are dependents or independents (so that their values can be read)."""
        values = {}
        for name in self.built.parameters:
            p = self.built.parameter(name)
            v = inputs[self.independents.index(name)] if name in self.independents \
                else rest[name]
            if p["kind"] == "int":
                v = int(np.asarray(v).reshape(-1)[0]) if np.ndim(v) == 0 and \
                    isinstance(v, (np.ndarray, np.generic)) else v
            elif p["kind"] == "real" and isinstance(v, (np.ndarray, np.generic)):
                if np.size(v) != 1:
                    raise ValueError(f"{self.what}(): argument {name!r} is one number (a "
                                     f"batch of them on one leading axis), got shape "
                                     f"{np.shape(v)}")
                v = float(np.asarray(v).reshape(()))
            elif p["kind"] == "array" and p.get("scalar_ref") and (
                    name in self.independents or name in self.built.dependents):
                v = np.array(v, dtype=FLOAT_DTYPES.get(p["elem"])).reshape(1)
            elif p["kind"] == "array" and p.get("scalar_ref") and \
                    isinstance(v, (np.ndarray, np.generic)) and np.size(v) == 1:
                v = np.asarray(v).reshape(-1)[0].item()     # a Fortran integer, say
            elif isinstance(v, np.ndarray):
                v = np.array(v, order="C", copy=True)
            values[name] = v
        return values

    def _args(self, values):
        return [values[n] for n in self.built.parameters]

    def check(self, inputs, rest):
        """Checks the arguments of one call of the C code as the numpy methods do."""
        self.built.check(self.what, self._row_values(inputs, rest))

    # -- the batch axis --
    def _c_shape(self, name, rest):
        """The shape of independent `name` in one call of the C code; None when unknown."""
        if self._scalar(name):
            return ()
        if name in self.shapes:
            return self.shapes[name]
        env = {n: v for n, v in rest.items() if not isinstance(v, float)}
        need = self.built.extent(name, env)
        return None if need is None else (need,)

    def batch(self, inputs, rest):
        """The length of the leading batch axis the independents carry (None when they
        carry none): an independent whose shape is (B,) + its shape in one call is batched;
        the others are the same in every row (ValueError when batched ones differ in B)."""
        sizes = {}
        for name, x in zip(self.independents, inputs):
            shape = self._c_shape(name, rest)
            if shape is not None and np.ndim(x) == len(shape) + 1 and \
                    tuple(np.shape(x)[1:]) == tuple(shape):
                sizes[name] = np.shape(x)[0]
        if len(set(sizes.values())) > 1:
            raise ValueError(f"{self.what}(): the batch axes differ: "
                             + ", ".join(f"{n} has {b} rows" for n, b in sizes.items()))
        return (next(iter(sizes.values())), set(sizes)) if sizes else (None, set())

    def _rows(self, inputs, rest, batch):
        """The inputs of each row: [(row inputs)], one entry when there is no batch."""
        count, batched = batch
        if count is None:
            return [inputs]
        return [[x[b] if name in batched else x for name, x in zip(self.independents, inputs)]
                for b in range(count)]

    def _stack(self, rows, batch):
        if batch[0] is None:
            return rows[0]
        return [np.stack([row[k] for row in rows]) for k in range(len(rows[0]))]

    # -- the routines --
    def output_shapes(self, inputs, rest):
        """[(shape, dtype)] of the dependents of one call (for a framework that needs them
        before calling)."""
        out = []
        for d in self.dependents:
            if self._scalar(d):
                shape = ()
            else:
                v = inputs[self.independents.index(d)] if d in self.independents else rest[d]
                shape = tuple(np.shape(v))
            out.append((shape, self.dtype(d)))
        return out

    def primal(self, inputs, rest, batch=(None, set())):
        """The dependents' values, [array] in the head's order."""
        rows = []
        for row in self._rows(inputs, rest, batch):
            values = self._row_values(row, rest)
            r = self.built.primal(*self._args(values))
            rows.append([np.asarray(r if d == self.built.name else values[d],
                                    dtype=self.dtype(d)).reshape(shape)
                         for d, (shape, _) in zip(self.dependents,
                                                  self.output_shapes(row, rest))])
        return self._stack(rows, batch)

    def vjp(self, inputs, rest, cotangents, batch=(None, set())):
        """The adjoints of the independents, [array] in the head's order, for cotangents
        [array] of the dependents (None for zero); an independent the same in every row
        gets the sum over the rows."""
        count, batched = batch
        total = None
        for b, row in enumerate(self._rows(inputs, rest, batch)):
            values = self._row_values(row, rest)
            seeds = {}
            for d, ct in zip(self.dependents, cotangents):
                if ct is not None:
                    ct = np.asarray(ct if count is None else ct[b])
                    seeds[d] = float(ct.reshape(())) if d == self.built.name else \
                        ct.reshape(np.shape(values[d]))
            adj = self.built.vjp(*self._args(values), seeds=seeds)
            adj = [np.asarray(adj[x], dtype=self.dtype(x)).reshape(np.shape(row[k]))
                   for k, x in enumerate(self.independents)]
            if count is None:
                return adj
            if total is None:
                total = [np.zeros((count,) + a.shape, a.dtype) if x in batched
                         else np.zeros_like(a) for x, a in zip(self.independents, adj)]
            for k, x in enumerate(self.independents):
                if x in batched:
                    total[k][b] = adj[k]
                else:
                    total[k] += adj[k]
        return total

    def jvp(self, inputs, rest, tangents, batch=(None, set())):
        """The tangents of the dependents, [array] in the head's order, for tangents
        [array] of the independents (None for zero)."""
        count, batched = batch
        rows = []
        for b, row in enumerate(self._rows(inputs, rest, batch)):
            values = self._row_values(row, rest)
            tan = {}
            for x, t in zip(self.independents, tangents):
                if t is not None:
                    t = np.asarray(t[b] if x in batched else t)
                    tan[x] = float(t.reshape(())) if self.built.parameter(x)["kind"] == \
                        "real" else t.reshape(np.shape(values[x]))
            res = self.built.jvp(*self._args(values), tangents=tan)
            rows.append([np.asarray(res[d], dtype=self.dtype(d)).reshape(shape)
                         for d, (shape, _) in zip(self.dependents,
                                                  self.output_shapes(row, rest))])
        return self._stack(rows, batch)
