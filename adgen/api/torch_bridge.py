"""Built.torch(): the head as a function of torch tensors, backed by a
torch.autograd.Function whose forward calls the primal, whose backward calls the adjoint
(f_b through Built.vjp) and whose jvp, for forward-mode AD, the tangent routine (f_d
through Built.jvp). CPU tensors of the C element type (float64 for double, float32 for
float); integer arguments as Python ints or integer tensors; a leading batch axis on the
independents runs the C code once per row. torch is imported when a function is made,
not before (pip install 'adgen[torch]').
"""
from __future__ import annotations

import numpy as np

from adgen.api.bridges import HeadFunction, require


def torch_function(built, head=None, shapes=None):
    """f(*args, **kwargs) -> the dependents as tensors (one tensor, or a tuple in the
    head's order), differentiable with respect to the independents."""
    torch = require("torch", "torch")
    fn = HeadFunction(built, f"{built.name}.torch", head, shapes)
    dtypes = {x: getattr(torch, fn.dtype(x).name) for x in fn.independents}

    class HeadOp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, rest, *inputs):
            arrays = [x.detach().numpy().copy() for x in inputs]
            batch = fn.batch(arrays, rest)
            ctx.call = (arrays, rest, batch)
            outs = fn.primal(arrays, rest, batch)
            return tuple(torch.from_numpy(np.array(o, order="C")) for o in outs)

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, *grads):
            arrays, rest, batch = ctx.call
            cts = [None if g is None else g.detach().cpu().numpy() for g in grads]
            adj = fn.vjp(arrays, rest, cts, batch)
            return (None,) + tuple(torch.from_numpy(np.array(a, order="C")) for a in adj)

        @staticmethod
        def jvp(ctx, _, *tangents):
            # forward mode (torch.autograd.forward_ad): the tangent routine f_d
            arrays, rest, batch = ctx.call
            tans = [None if t is None else t.detach().cpu().numpy() for t in tangents]
            outs = fn.jvp(arrays, rest, tans, batch)
            return tuple(torch.from_numpy(np.array(o, order="C")) for o in outs)

    def cpu(name, t):
        if t.device.type != "cpu":
            raise ValueError(f"{fn.what}(): argument {name!r} is on device {t.device}: the "
                             "compiled code runs on the CPU (move it with .cpu())")

    def independent(name, v):
        want = dtypes[name]
        if not isinstance(v, torch.Tensor):
            if isinstance(v, np.ndarray) and v.dtype != fn.dtype(name):
                raise TypeError(f"{fn.what}(): argument {name!r} must have dtype "
                                f"{fn.dtype(name)}, got {v.dtype}")
            return torch.as_tensor(v, dtype=want)
        cpu(name, v)
        if v.dtype != want:
            raise TypeError(f"{fn.what}(): argument {name!r} must be a tensor of dtype "
                            f"{want}, got {v.dtype} (convert it with .to({want}))")
        return v

    def fixed(name, v):
        """A non-differentiable argument as the numpy methods take it."""
        if not isinstance(v, torch.Tensor):
            return v
        cpu(name, v)
        if v.requires_grad:
            raise ValueError(f"{fn.what}(): argument {name!r} requires grad but is not an "
                             f"independent of {fn.head}")
        kind = built.parameter(name)["kind"]
        if kind in ("int", "real") or built.parameter(name).get("scalar_ref"):
            if v.numel() != 1:
                raise ValueError(f"{fn.what}(): argument {name!r} is one number, got a "
                                 f"tensor of shape {tuple(v.shape)}")
            if kind == "int" and (v.dtype.is_floating_point or v.dtype.is_complex):
                raise TypeError(f"{fn.what}(): argument {name!r} must be an int or an "
                                f"integer tensor, got a tensor of dtype {v.dtype}")
            return v.item()
        return v.detach().numpy()

    def call(*args, **kwargs):
        inputs, rest = fn.bind(args, kwargs)
        inputs = [independent(x, v) for x, v in zip(fn.independents, inputs)]
        rest = {n: fixed(n, v) for n, v in rest.items()}
        arrays = [x.detach().numpy() for x in inputs]
        _, batched = fn.batch(arrays, rest)
        fn.check([a[0] if x in batched else a for x, a in zip(fn.independents, arrays)],
                 rest)
        outs = HeadOp.apply(rest, *inputs)
        return outs[0] if len(outs) == 1 else outs

    return fn.named(call, "torch tensors")
