"""Fixed-point loops: `#pragma adgen fp_loop` (Fortran `!$AD FP-LOOP`) before a loop that
repeats z = phi(z, p) until z stops changing.

Only the fixed point z* matters to what follows, so the adjoint need not reverse the
iterations (which would store every one of them). The forward sweep runs the loop as the
primal does, storing nothing but the state before it. The backward sweep uses the
two-phase method: with the state set to z* each time, it runs the body's recording forward
sweep and at once its backward sweep, again and again. Each such pass maps the state's
adjoint d to phi_z^T d, and adds phi_p^T d to the adjoints of what the body only reads, so
the passes sum the series d0 + phi_z^T d0 + (phi_z^T)^2 d0 + ... whose limit is the
adjoint of the fixed point; they stop when the state's adjoint no longer changes (by more
than 1e-14 of its largest element; with the directive's adj_reduction=FACTOR, by more than
FACTOR times the first pass's change) or after 10,000 passes. Elements of the state the body
never writes (a boundary value) pass through each pass and collect their own adjoint.
Memory is the state twice and one pass's values, whatever the number of iterations.

The state is what the loop body writes, as for binomial checkpointing (checkpoint.py).
"""
import re

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.transform.checkpoint import (StateKeeper, StateStore, carried_pointers,
                                        written_nodes)
from adgen.transform.common import base_symbol, source_name

PRAGMA = re.compile(r"\s*adgen\s+fp_loop\b")
TOLERANCE = "1e-14"
MAX_PASSES = 10000


def fp_loop_pragma(s):
    """True when s is `#pragma adgen fp_loop` (with its arguments, if any)."""
    return isinstance(s, ir.Pragma) and PRAGMA.match(s.text) is not None


def reduction_factor(text):
    """The FACTOR of `#pragma adgen fp_loop adj_reduction=FACTOR` as C text, or None (the
    front end has checked its shape: frontend/directives.py)."""
    m = re.search(r"\badj_reduction\s*=\s*(\S+)", text)
    return None if m is None else m.group(1)


def _int(v):
    return ir.Const(str(v), ir.INT)


class FixedPointLoop:
    """Forward and backward statements of one fixed-point loop (for FuncGen)."""

    def __init__(self, gen, loop, pragma_loc, reduction=None):
        self.g = gen
        self.loop = loop
        self.loc = pragma_loc
        # adj_reduction: the passes stop once a pass changes the state's adjoint by at
        # most this factor of what the first pass changed it by
        self.reduction = reduction

    def error(self, message):
        return AdgenError(f"fp_loop: {message}", self.loc)

    def build(self):
        g, s, loc = self.g, self.loop, self.loop.loc
        if not isinstance(s, (ir.For, ir.While, ir.DoWhile)):
            raise self.error("the directive must stand just before a loop")
        g.forward_runs_again("fp_loop", self.loc)
        body = list(s.body.stmts) + (list(s.step) if isinstance(s, ir.For) else [])
        carried = carried_pointers(g, body)
        if carried:
            name = sorted(ir.source_name(v) for v in carried)[0]
            raise self.error(f"the loop carries the pointer '{name}' from one iteration to "
                             "the next (buffers swapped between iterations): the two-phase "
                             "adjoint needs a body that updates its state in place; copy "
                             "the new values back into one array instead")
        g.checkpoint_depth += 1     # the final values are logged once, below
        step_fwd, step_bwd = g.stmts(body)
        g.checkpoint_depth -= 1
        scalars, nodes = written_nodes(g, body, None)
        items = g.with_pointer_shadows(StateKeeper(g, self.error).items(nodes, scalars))
        elements = self.adjoint_elements(items)
        R, T = ir.Ref, (lambda base, t: g.temp(base, t))
        fixed = StateStore(g, items, "fp_state_")
        # for --stack-report: the state's bytes, and the blocks holding it
        g.fixed_point[id(s)] = (fixed.total if fixed.total is not None else _int(0),
                                len(fixed.buffers))
        count = None
        for n, _ in elements:
            count = n if count is None else X.add(count, X.clone(n))
        last = T("fp_last", ir.Ptr(ir.DOUBLE))
        passes, change, largest = T("fp_passes", ir.INT), T("fp_change", ir.DOUBLE), \
            T("fp_largest", ir.DOUBLE)
        fwd = [ir.Comment(f"fixed-point loop of line {loc.line}: the state before it is "
                          "kept, not its iterations' values")]
        fwd += [ir.Raw("push_bytes", {"ptr": X.clone(a), "bytes": X.clone(n)}, loc)
                for a, n in items]
        fwd += g.primal_moving_shadows([s])
        bwd = [ir.Comment(f"the adjoint of the fixed-point loop of line {loc.line}: passes "
                          "of its body at the fixed point until the state's adjoint settles")]
        bwd += g.keep_final(items)
        bwd += fixed.allocated(_int(1), loc)
        bwd += [ir.Raw("scratch_alloc", {"target": R(last), "type": last.type,
                                         "count": count if count is not None else _int(1)},
                       loc)]
        bwd += fixed.copy(_int(0), save=True)
        bwd.append(ir.Assign(R(largest), ir.Const("0.0", ir.DOUBLE), loc))
        bwd += self.each_element(elements, last, change, largest, first=True)
        bwd.append(ir.Assign(R(passes), _int(0), loc))
        pass_fwd, pass_bwd = g.copy_sweeps(step_fwd, step_bwd)
        one_pass = fixed.copy(_int(0), save=False) + pass_fwd + pass_bwd
        one_pass.append(ir.Assign(R(change), ir.Const("0.0", ir.DOUBLE), loc))
        one_pass += self.each_element(elements, last, change, largest, first=False)
        if self.reduction is None:
            scale = R(largest)
        else:
            scale = R(T("fp_first_change", ir.DOUBLE))
            one_pass.append(ir.If(ir.Binary("==", R(passes), _int(0), ir.INT),
                                  ir.Block([ir.Assign(X.clone(scale), R(change), loc)]), None))
        one_pass.append(ir.Assign(R(passes), X.add(R(passes), _int(1)), loc))
        factor = ir.Const(self.reduction or TOLERANCE, ir.DOUBLE)
        settled = ir.Binary("&&", ir.Binary(">", R(change), ir.Binary(
            "*", factor, X.clone(scale), ir.DOUBLE), ir.INT),
            ir.Binary("<", R(passes), _int(MAX_PASSES), ir.INT), ir.INT)
        bwd.append(ir.DoWhile(ir.Block(one_pass), settled, loc))
        bwd += [ir.Raw("scratch_free", {"ptr": R(last)})] + fixed.freed()
        bwd += [ir.Raw("pop_bytes", {"ptr": X.clone(a), "bytes": X.clone(n)}, loc)
                for a, n in reversed(items)]
        return fwd, bwd

    def adjoint_elements(self, items):
        """[(count, element -> its adjoint)] of the active memory of the state: the
        floating-point numbers of each item, those in struct fields and nested arrays
        included, counted as one flat run per kind of number."""
        g = self.g
        out = []
        for addr, nbytes in items:
            if isinstance(addr, ir.AddrOf):
                sym = addr.arg.sym
                t = sym.type.resolved()
                elem = t.elem if isinstance(t, ir.Arr) else t
                base = (lambda k, sym=sym, elem=elem: ir.Index(ir.Ref(sym), k, elem)) \
                    if isinstance(t, ir.Arr) else (lambda k, sym=sym: ir.Ref(sym))
                n = ir.Binary("/", X.clone(nbytes), ir.SizeOf(elem), ir.SIZE_T) \
                    if isinstance(t, ir.Arr) else _int(1)
            else:
                elem = ir.with_const(ir.pointee(addr.type.resolved()), False)
                base = (lambda k, p=addr, elem=elem: ir.Index(X.clone(p), k, elem))
                n = ir.Binary("/", X.clone(nbytes), ir.SizeOf(elem), ir.SIZE_T)
            leaves = _number_leaves(elem)
            if leaves is None:
                if g.act.has_shadow(base(_int(0))):
                    raise self.error(f"'{source_name(base_symbol(addr))}' in the state of "
                                     "the loop holds an array of a size adgen does not know: "
                                     "not supported")
                continue
            for per_elem, leaf in leaves:
                at = _flat(base, per_elem, leaf)
                count = n if per_elem == 1 else X.mul(X.clone(n), _int(per_elem))
                probe = at(_int(0))
                if not g.act.active_value(probe):
                    continue
                out.append((count, (lambda k, at=at: g.sh(at(k)))))
        return out

    def each_element(self, elements, last, change, largest, first):
        """For every adjoint element v of the state: (first) last[k] = v and the largest
        |v|; (else) the largest change from last[k], and last[k] = v."""
        g, R = self.g, ir.Ref
        out, offset = [], None
        fabs = (lambda e: ir.Call("fabs", [e], ir.DOUBLE))
        for n, adjoint in elements:
            k = g.temp("k", ir.SIZE_T)
            slot = ir.Index(R(last), R(k) if offset is None else X.add(X.clone(offset), R(k)),
                            ir.DOUBLE)
            v = ir.Cast(ir.DOUBLE, adjoint(R(k)))
            body = []
            if not first:
                diff = fabs(ir.Binary("-", X.clone(v), X.clone(slot), ir.DOUBLE))
                body.append(ir.If(ir.Binary(">", diff, R(change), ir.INT),
                                  ir.Block([ir.Assign(R(change), X.clone(diff))]), None))
            body.append(ir.If(ir.Binary(">", fabs(X.clone(v)), R(largest), ir.INT),
                              ir.Block([ir.Assign(R(largest), fabs(X.clone(v)))]), None))
            body.append(ir.Assign(X.clone(slot), X.clone(v)))
            out.append(ir.For([ir.Assign(R(k), _int(0))],
                              ir.Binary("<", R(k), X.clone(n), ir.INT),
                              [ir.Assign(R(k), X.add(R(k), _int(1)))], ir.Block(body)))
            offset = X.clone(n) if offset is None else X.add(offset, X.clone(n))
        return out


def _number_leaves(t):
    """[(how many, (base, index) -> lvalue)] of the floating-point numbers in a value of
    type t: one entry per number or fixed-size array of numbers (in struct fields, at any
    depth); `index` runs over the numbers of that entry within one value.
    [] when t holds none, None when it holds an array of a size that is no constant."""
    t = t.resolved()
    if isinstance(t, ir.Prim):
        return [(1, lambda b, k: b)] if t.is_float else []
    if isinstance(t, ir.Arr):
        size = X.int_value(t.size) if t.size is not None else None
        inner = _number_leaves(t.elem)
        if not inner:
            return inner
        if size is None:
            return None
        return [(size * c, lambda b, k, leaf=leaf, c=c, e=t.elem: _flat(
            lambda i: ir.Index(b, i, e), c, leaf)(k)) for c, leaf in inner]
    if isinstance(t, ir.Struct) and not t.sdef.is_union:
        out = []
        for name, ftype in t.sdef.fields:
            inner = _number_leaves(ftype)
            if inner is None:
                return None
            out += [(c, lambda b, k, leaf=leaf, name=name, ftype=ftype: leaf(
                ir.Member(b, name, False, ftype), k)) for c, leaf in inner]
        return out
    return []


def _flat(at, c, leaf):
    """k -> number k of a run of values holding c numbers each: number k % c (leaf) of
    value k / c (at)."""
    if c == 1:
        return lambda k: leaf(at(k), _int(0))
    return lambda k: leaf(at(ir.Binary("/", k, _int(c), k.type)),
                          ir.Binary("%", X.clone(k), _int(c), k.type))
