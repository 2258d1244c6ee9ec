"""Built.jax(): the head as a JAX function whose derivative is the compiled code: the
primal and the adjoint (f_b through Built.vjp) or the tangent routine are called through
jax.pure_callback, so the function works under jax.jit and jax.vmap (vmap calls the C code
once per row).

JAX lets a function carry jax.custom_vjp or jax.custom_jvp, not both, so there are two
kinds. mode="reverse" (the default): custom_vjp, the adjoint; reverse mode (grad, vjp,
jacrev) works, also under vmap, and JAX refuses forward mode (jvp, jacfwd). mode="forward":
custom_jvp, the tangent routine (f_d through Built.jvp); jvp and jacfwd work, also under
vmap, and JAX refuses reverse mode (it cannot transpose a callback). (A tangent made
transposable by jax.custom_derivatives.linear_call would give both, but linear_call has no
batching rule: jacfwd, jacrev and vmap of a derivative would fail.)

Float64 needs jax.config.update("jax_enable_x64", True). jax is imported when a function
is made, not before (pip install 'adgen[jax]').
"""
from __future__ import annotations

import numpy as np

from adgen.api.bridges import HeadFunction, require

X64_HINT = 'enable float64 first: jax.config.update("jax_enable_x64", True)'


def jax_function(built, head=None, mode="reverse"):
    """f(*args, **kwargs) -> the dependents as JAX arrays (one array, or a tuple in the
    head's order), differentiable with respect to the independents. Arguments that are
    neither independents nor JAX arrays (Python ints, numpy arrays) are held fixed as they
    are; JAX arrays among them (traced under jit) are passed to the C code as values.
    mode: 'reverse' (custom_vjp) or 'forward' (custom_jvp, see the module's text)."""
    if mode not in ("reverse", "forward"):
        raise ValueError(f"{built.name}.jax(): mode must be 'reverse' or 'forward', got "
                         f"{mode!r}")
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

        def jvp_callback(xs, values, tangents):
            return tuple(fn.jvp([np.asarray(x) for x in xs], fixed_with(values),
                                [np.asarray(t) for t in tangents]))

        def primal(xs, values):
            return jax.pure_callback(primal_callback, outs_spec, xs, values,
                                     vmap_method="sequential")

        def adjoint(xs, values, cts):
            return jax.pure_callback(vjp_callback, ins_spec, xs, values, tuple(cts),
                                     vmap_method="sequential")

        if mode == "reverse":
            f = jax.custom_vjp(primal)
            # no derivative for the fixed arguments (None)
            f.defvjp(lambda xs, values: (primal(xs, values), (xs, values)),
                     lambda res, cts: (adjoint(*res, cts), None))
        else:
            f = jax.custom_jvp(primal)
            f.defjvp(lambda primals, tangents: (primal(*primals), jax.pure_callback(
                jvp_callback, outs_spec, *primals, tuple(tangents[0]),
                vmap_method="sequential")))
        if not traced:      # concrete arguments: checked as the numpy methods check them
            fn.check([np.asarray(x) if not isinstance(x, jax.core.Tracer) else
                      np.zeros(x.shape, x.dtype) for x in inputs], rest)
        outs = f(tuple(inputs), tuple(rest[n] for n in traced))
        return outs[0] if len(outs) == 1 else outs

    return fn.named(call, "JAX arrays")
