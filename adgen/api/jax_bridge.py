"""Built.jax(): the head as a JAX function whose derivative is the compiled adjoint. The
primal and the adjoint (f_b through Built.vjp) are called through jax.pure_callback, so the
function works under jax.jit, jax.grad and jax.vmap (vmap calls the C code once per row).

JAX lets a function carry jax.custom_vjp or jax.custom_jvp, not both; this one carries
custom_vjp, so reverse mode (grad, vjp, jacrev) uses the adjoint and forward mode (jvp,
jacfwd) is refused by JAX. (custom_jvp with the tangent routine, transposed through
jax.custom_derivatives.linear_call, would give both, but linear_call has no batching rule:
vmap of grad would fail.) Float64 needs jax.config.update("jax_enable_x64", True). jax
is imported when a function is made, not before (pip install 'adgen[jax]').
"""
from __future__ import annotations

import numpy as np

from adgen.api.bridges import HeadFunction, require

X64_HINT = 'enable float64 first: jax.config.update("jax_enable_x64", True)'


def jax_function(built, head=None):
    """f(*args, **kwargs) -> the dependents as JAX arrays (one array, or a tuple in the
    head's order), differentiable with respect to the independents. Arguments that are
    neither independents nor JAX arrays (Python ints, numpy arrays) are held fixed as they
    are; JAX arrays among them (traced under jit) are passed to the C code as values."""
    jax = require("jax", "jax")
    jnp = jax.numpy
    fn = HeadFunction(built, f"{built.name}.jax", head)

    def independent(name, v):
        want = fn.dtype(name)
        if isinstance(v, (jax.Array, np.ndarray)):
            if v.dtype != want:
                hint = f"; {X64_HINT}" if want == np.float64 and \
                    not jax.config.jax_enable_x64 else ""
                raise TypeError(f"{fn.what}(): argument {name!r} must have dtype {want}, "
                                f"got {v.dtype}{hint}")
            return jnp.asarray(v)
        if want == np.float64 and not jax.config.jax_enable_x64:
            raise TypeError(f"{fn.what}(): argument {name!r} is a double: {X64_HINT}")
        return jnp.asarray(v, dtype=want)

    def call(*args, **kwargs):
        inputs, rest = fn.bind(args, kwargs)
        inputs = [independent(x, v) for x, v in zip(fn.independents, inputs)]
        traced = sorted(n for n, v in rest.items() if isinstance(v, jax.Array))
        fixed = {n: v for n, v in rest.items() if n not in traced}
        shapes = fn.output_shapes(inputs, rest)
        outs_spec = tuple(jax.ShapeDtypeStruct(s, d) for s, d in shapes)
        ins_spec = tuple(jax.ShapeDtypeStruct(x.shape, x.dtype) for x in inputs)

        def fixed_with(values):
            return dict(fixed, **{n: np.asarray(v) for n, v in zip(traced, values)})

        def primal_callback(xs, values):
            return tuple(fn.primal([np.asarray(x) for x in xs], fixed_with(values)))

        def vjp_callback(xs, values, cts):
            return tuple(fn.vjp([np.asarray(x) for x in xs], fixed_with(values),
                                [np.asarray(c) for c in cts]))

        def primal(xs, values):
            return jax.pure_callback(primal_callback, outs_spec, xs, values,
                                     vmap_method="sequential")

        @jax.custom_vjp
        def f(xs, values):
            return primal(xs, values)

        def f_fwd(xs, values):
            return primal(xs, values), (xs, values)

        def f_bwd(res, cts):
            xs, values = res
            adj = jax.pure_callback(vjp_callback, ins_spec, xs, values, tuple(cts),
                                    vmap_method="sequential")
            return adj, None        # no derivative for the fixed arguments

        f.defvjp(f_fwd, f_bwd)
        if not traced:      # concrete arguments: checked as the numpy methods check them
            fn.check([np.asarray(x) if not isinstance(x, jax.core.Tracer) else
                      np.zeros(x.shape, x.dtype) for x in inputs], rest)
        outs = f(tuple(inputs), tuple(rest[n] for n in traced))
        return outs[0] if len(outs) == 1 else outs

    return fn.named(call, "JAX arrays")
