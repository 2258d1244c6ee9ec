"""Built.value_and_grad(): the head's one scalar dependent and its gradient as a function of
one flat float64 vector holding the independents one after the other, the other arguments
fixed, for scipy.optimize.minimize(fun, x0, jac=True) and the like. Needs no scipy itself.
"""
from __future__ import annotations

import numpy as np

from adgen.api.bridges import HeadFunction


class ValueAndGrad:
    """vg(x) -> (value, gradient), x and the gradient flat float64 vectors of the
    independents in the head's order (a scalar one number, an array its elements in C
    order). vg.x0 is the vector of the values given; vg.unpack(x) is {independent: value}
    in the shapes of the arguments; vg.evaluations counts the calls."""

    def __init__(self, built, args, kwargs, head=None):
        self._fn = HeadFunction(built, f"{built.name}.value_and_grad", head)
        fn = self._fn
        if len(fn.dependents) != 1:
            raise ValueError(f"{fn.what}(): {fn.head} has {len(fn.dependents)} dependents: "
                             "give head='f(y)/(x ...)' with the one scalar to minimize")
        inputs, self._rest = fn.bind(args, kwargs)
        self.names = list(fn.independents)
        self._shapes = [np.shape(v) for v in inputs]
        self._sizes = [int(np.prod(s, dtype=np.int64)) for s in self._shapes]
        self._dtypes = [fn.dtype(x) for x in self.names]
        for x, v, dt in zip(self.names, inputs, self._dtypes):
            if isinstance(v, np.ndarray) and v.dtype != dt:
                raise TypeError(f"{fn.what}(): argument {x!r} must have dtype {dt}, got "
                                f"{v.dtype}")
        fn.check(inputs, self._rest)
        shape = fn.output_shapes(inputs, self._rest)[0][0]
        if int(np.prod(shape, dtype=np.int64)) != 1:
            raise ValueError(f"{fn.what}(): the dependent {fn.dependents[0]!r} has shape "
                             f"{shape}: value_and_grad needs one number")
        self.x0 = np.concatenate([np.asarray(v, dtype=np.float64).reshape(-1)
                                  for v in inputs]) if inputs else np.zeros(0)
        self.evaluations = 0

    def unpack(self, x):
        """{independent: value} of flat vector x, in the shapes and dtypes of the arguments."""
        x = np.asarray(x, dtype=np.float64)
        if x.shape != self.x0.shape:
            raise ValueError(f"{self._fn.what}(): the vector has shape {x.shape}, expected "
                             f"{self.x0.shape} ({', '.join(self.names)})")
        out, k = {}, 0
        for name, shape, size, dt in zip(self.names, self._shapes, self._sizes, self._dtypes):
            out[name] = x[k:k + size].astype(dt).reshape(shape)
            k += size
        return out

    def __call__(self, x):
        values = self.unpack(x)
        inputs = [values[n] for n in self.names]
        value = self._fn.primal(inputs, self._rest)[0]
        adj = self._fn.vjp(inputs, self._rest, [np.ones_like(value)])
        self.evaluations += 1
        grad = np.concatenate([np.asarray(a, dtype=np.float64).reshape(-1) for a in adj]) \
            if adj else np.zeros(0)
        return float(value.reshape(-1)[0]), grad
