"""How many bytes an adjoint's forward sweep pushes per call, as a formula.

Sizes the static stack (`--stack=static`) and answers `--stack-report`. The forward sweep
of each primal statement is known (FuncGen.fwd_of), so the count follows the primal's
structure: the pushes of a statement, times the trip counts of the counted loops around it
(summed in closed form when a trip count depends on an outer counter), the larger branch
of an if, and the callees' own counts with their parameters replaced by the arguments.
The backward sweep's log of restored primal outputs (adgen_keep) is counted the same way.
A loop whose trip count adgen cannot tell makes the count unbounded.
"""
import re
from fractions import Fraction

from adgen import ir
from adgen.analysis.extent import IndexWalker, NotPolynomial
from adgen.analysis.poly import Poly, range_sum
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.ir.c_text import LP64_SIZES

# bytes of a log record beyond the value: its size and its address (adgen_keep)
LOG_RECORD = (ir.SIZE_T, ir.Ptr(ir.VOID))
# bytes a scratch block may take beyond its elements: the saved top and the alignment
SCRATCH_OVERHEAD = 16 + 8


class Unbounded(Exception):
    """The count has no formula; args: (message, location)."""


class Usage:
    """Per generated function: bytes pushed by its forward sweep (`pushed`) and bytes its
    backward sweep logs (`logged`), as polynomials in the function's parameters."""

    def __init__(self, transform, funcgens=None):
        self.T = transform
        self.funcgens = funcgens if funcgens is not None else transform.funcgens
        self.cache = {}
        self.inexact = False    # some count is an upper bound

    def head(self, name):
        """(pushed, logged) of head `name`: Polys, or raises Unbounded."""
        return self.of(("head", name))

    def of(self, key):
        if key in self.cache:
            if self.cache[key] is None:
                raise Unbounded("a recursive call", None)
            return self.cache[key]
        self.cache[key] = None
        g = self.funcgens[key]
        counter = UsageCounter(self, g)
        pushed = counter.stmts(g.f.body.stmts, g.fwd_of, [], self.push_bytes)
        pushed = pushed + counter.scratch(g.scratch_allocs)
        for st in g.exit_pushes:
            pushed = pushed + self.push_bytes(st)
        logged = counter.stmts(g.f.body.stmts, g.bwd_of, [], self.log_bytes)
        # calls in joint mode record their values in the backward sweep, one at a time
        pushed = pushed + counter.recorded_later
        self.cache[key] = (pushed, logged)
        return pushed, logged

    @staticmethod
    def push_bytes(st):
        if isinstance(st, ir.Push):
            t = st.value.type if ir.is_lvalue(st.value) else ir.INT
            return _sizeof(t)
        return Poly()

    @staticmethod
    def log_bytes(st):
        target = None
        if isinstance(st, ir.Pop) and st.keep:
            target = st.target
        elif isinstance(st, ir.Raw) and st.template == "keep":
            target = st.args["target"]
        if target is None:
            return Poly()
        out = _sizeof(target.type)
        for t in LOG_RECORD:
            out = out + _sizeof(t)
        return out


def _sizeof(t):
    from adgen.ir.c_text import type_name
    t = ir.with_const(t, False)
    key = f"sizeof({type_name(t)})"
    return Poly.atom(key, ir.SizeOf(t))


class UsageCounter:
    def __init__(self, usage, g):
        self.usage = usage
        self.g = g
        self.calc = IndexWalker(usage.T.ctx.extents, g.f, None)
        self.recorded_later = Poly()   # the most a backward sweep's recomputation pushes

    def stmts(self, stmts, pieces, loops, unit):
        total = Poly()
        for s in stmts:
            total = total + self.stmt(s, pieces, loops, unit)
        return total

    def stmt(self, s, pieces, loops, unit):
        children = _children(s)
        own = self.own(s, children, pieces, loops, unit)
        if isinstance(s, ir.Block):
            return own + self.stmts(s.stmts, pieces, loops, unit)
        if isinstance(s, ir.If):
            then = self.stmts(s.then.stmts, pieces, loops, unit)
            other = self.stmts(s.other.stmts, pieces, loops, unit) if s.other else Poly()
            return own + self.larger(then, other, loops)
        if isinstance(s, ir.For) and id(s) in self.g.checkpointed:
            return own + self.checkpointed(s, pieces, loops, unit)
        if id(s) in self.g.fixed_point:
            return own + self.fixed_point(s, pieces, loops, unit)
        if id(s) in self.g.independent:
            return self.independent(s, children, pieces, loops, unit)
        if isinstance(s, ir.For):
            init = self.stmts(s.init, pieces, loops, unit)
            try:
                bounds = self.calc.loop_bounds(s, loops)
            except NotPolynomial:
                body = self.stmts(s.body.stmts + s.step, pieces, loops, unit)
                if body.terms:
                    return own + init + self.strided(s, body, loops)
                return own + init
            var, first, last = bounds
            inner = self.stmts(s.body.stmts, pieces, loops + [bounds], unit)
            once = self.pushed_once(s, unit, last - first, loops)
            if inner.terms:
                inner = self.loop_sum(inner - once, var, first, last, loops, s) + once
            return own + init + inner
        if isinstance(s, (ir.While, ir.DoWhile)):
            body = self.stmts(s.body.stmts, pieces, loops, unit)
            if body.terms:
                raise Unbounded("a loop whose trip count adgen cannot tell", s.loc)
            return own
        return own

    def pushed_once(self, s, unit, more, loops):
        """The bytes of the elements loop s pushes once rather than in each iteration
        (FuncGen.hoisted), counted in each iteration by its body's; more: its trip count
        less one (when that may be negative, the loop may push nothing: at most)."""
        once = Poly()
        if unit == Usage.push_bytes:
            for elem in self.g.hoisted_elements(s):
                once = once + _sizeof(elem.type)
        if once.terms and not self.calc.nonneg_within(more, loops):
            self.usage.inexact = True
        return once

    def checkpointed(self, s, pieces, loops, unit):
        """A loop under binomial checkpointing: its kept states (forward pieces), and one
        step's values at a time."""
        if pieces is self.g.bwd_of:
            return Poly()       # its steps log nothing (the loop logged the final values)
        body = self.stmts(s.body.stmts, pieces, loops, unit)
        try:
            var = self.calc.loop_bounds(s, loops)[0]
            if body.uses(var.name):
                raise Unbounded("a checkpointed step whose bytes depend on the step", s.loc)
        except NotPolynomial:
            pass
        snaps, state, blocks = self.g.checkpointed[id(s)]
        try:
            states = self.upper(snaps) * (self.upper(state) + Poly.const(1)) if state is not \
                None else Poly()
        except NotPolynomial:
            raise Unbounded("kept states whose size is not a fixed size", s.loc)
        return body + states + Poly.const(max(blocks, 2) * SCRATCH_OVERHEAD) + \
            self.upper(snaps) * Poly.const(2) * _sizeof(ir.INT)

    def fixed_point(self, s, pieces, loops, unit):
        """A loop under fp_loop: its state kept before it (forward pieces), and in the
        backward sweep the state twice and one pass of the body's values at a time."""
        if pieces is self.g.bwd_of:
            return Poly()
        body = s.body.stmts + (s.step if isinstance(s, ir.For) else [])
        one_pass = self.stmts(body, pieces, loops, unit)
        total, blocks = self.g.fixed_point[id(s)]
        try:
            state = self.upper(total)
        except NotPolynomial:
            raise Unbounded("a fixed-point loop's state that is not a fixed size", s.loc)
        self.usage.inexact = True
        self.recorded_later = self.larger(self.recorded_later, one_pass + state +
                                          state * Poly.const(2) +
                                          Poly.const((blocks + 1) * SCRATCH_OVERHEAD), loops)
        return Poly()

    def independent(self, s, children, pieces, loops, unit):
        """A loop under `independent`: one iteration's values at a time (its recording and
        at once its backward sweep, joint-mode recordings there included), and the buffers
        the adjoints of what it reads are gathered in, which live until the backward
        sweep reaches the loop."""
        if pieces is self.g.bwd_of:
            return self.own(s, children, pieces, loops, unit)
        try:
            bounds = self.calc.loop_bounds(s, loops)
        except NotPolynomial:
            raise Unbounded("a loop whose trip count adgen cannot tell", s.loc)
        inner = loops + [bounds]
        one = self.own(s, children, pieces, inner, unit) + \
            self.stmts(s.body.stmts, pieces, inner, unit)
        if one.uses(bounds[0].name):
            # the largest iteration, bounded by all of them
            self.usage.inexact = True
            one = self.loop_sum(one, *bounds, loops, s)
        if unit != Usage.push_bytes:
            return one
        for buf, count in self.g.independent[id(s)]:
            try:
                n = self.upper(count)
            except NotPolynomial:
                raise Unbounded("an array the loop reads whose length is not a fixed size",
                                s.loc)
            one = one + n * _sizeof(ir.pointee(buf.type)) + Poly.const(SCRATCH_OVERHEAD)
        return one

    def strided(self, s, body, loops):
        """All iterations of `for (i = a; i < a + k*s; i += s)` (s one term, k a whole
        polynomial), or of a loop counting down (`i > b`, `i -= s`), whose body's bytes do
        not depend on i."""
        from adgen.analysis.extent import normal_test
        from adgen.analysis.loops import canonical_loop
        canon = canonical_loop(s, self.g.f)
        cmp = normal_test(s.test, canon[0]) if canon else None
        if cmp is None or cmp[0] not in ("<", "<=", ">", ">=") or body.uses(canon[0].name):
            raise Unbounded("a loop whose trip count adgen cannot tell", s.loc)
        op, offset, bound = cmp
        try:
            first = self.calc.to_poly(s.init[0].rhs, loops)
            # the distance the counter runs, and its step, both positive
            span = self.calc.to_poly(bound, loops) - Poly.const(offset) - first
            stride = self.calc.to_poly(canon[1], loops)
        except NotPolynomial:
            raise Unbounded("a loop whose trip count adgen cannot tell", s.loc)
        if op in (">", ">="):
            span, stride = -span, -stride
        if op in ("<=", ">="):
            span = span + Poly.const(1)
        # the trips are ceil(span / stride) = (span + stride - 1) / stride: known when
        # the stride divides one of them as polynomials; for a constant stride, at most
        # (span + stride - 1) / stride (`for (i = 1; i < n; i += 2)`: n / 2)
        trips = span.divide_exact(stride)
        if trips is None:
            trips = (span + stride - Poly.const(1)).divide_exact(stride)
        if trips is None and not stride.terms.keys() - {()} and stride.constant_part() >= 1:
            trips = (span + stride - Poly.const(1)).scale(1 / stride.constant_part())
            self.usage.inexact = True
        if trips is None:
            raise Unbounded("a loop whose trip count adgen cannot tell", s.loc)
        return body * self.at_least_zero(trips, loops, s)

    def loop_sum(self, body, var, first, last, loops, s):
        """The bytes of all iterations of a loop whose body pushes `body` bytes."""
        trips = last - first + Poly.const(1)
        if self.calc.nonneg_within(trips, loops):
            total = range_sum(body, var.name, first, last)
            if total is None:
                raise Unbounded("a loop nest too deep for a closed form", s.loc)
            return total
        if body.uses(var.name):
            raise Unbounded("a loop that may run a negative number of times", s.loc)
        return body * self.at_least_zero(trips, loops, s)

    def at_least_zero(self, trips, loops, s):
        """A trip count, or when it may be negative (`for (i = 1; i < n; i++)` runs
        max(0, n - 1) times) a bound: here n."""
        if self.calc.nonneg_within(trips, loops):
            return trips
        low = trips.constant_part()
        if low < 0 and self.calc.nonneg_within(trips - Poly.const(low), loops):
            self.usage.inexact = True
            return trips - Poly.const(low)
        raise Unbounded("a loop that may run a negative number of times", s.loc)

    def own(self, s, children, pieces, loops, unit):
        """Bytes of s's own generated statements (its children's aside), callees included;
        of the two branches of an if among them (the flag a branch pushes), the larger."""
        skip = {id(b) for c in children for b in pieces.get(id(c), ())}
        return self.own_list(pieces.get(id(s), ()), skip, s, pieces, loops, unit)

    def own_list(self, stmts, skip, s, pieces, loops, unit):
        total = Poly()
        for st in stmts:
            if id(st) in skip:
                continue
            total = total + unit(st) + self.raw_bytes(st, unit)
            for e in _exprs(st):
                for sub in ir.walk(e):
                    if isinstance(sub, ir.Call):
                        total = total + self.call(sub, loops, s, pieces)
            if isinstance(st, ir.If):
                then, other = (self.own_list(b.stmts if b else (), skip, s, pieces, loops, unit)
                               for b in (st.then, st.other))
                total = total + self.larger(then, other, loops)
            elif isinstance(st, ir.COMPOUND):
                total = total + self.own_list(ir.statements_inside(st), skip, s, pieces, loops,
                                              unit)
        return total

    def raw_bytes(self, st, unit):
        """Blocks of bytes pushed (a call's state kept for joint mode) or logged."""
        if not isinstance(st, ir.Raw):
            return Poly()
        if st.template == "push_bytes" and unit == Usage.push_bytes:
            return self.block_bytes(st)
        if st.template == "scratch_alloc" and "kept" in st.args and unit == Usage.push_bytes:
            # slots of a parallel loop's iterations, kept from its forward sweep to its
            # backward one (parallel_backward.py): as many as its trip count
            try:
                n = self.upper(st.args["kept"])
            except NotPolynomial:
                raise Unbounded("a parallel loop whose trip count is not a fixed size",
                                st.loc)
            return n * _sizeof(ir.pointee(st.args["target"].type)) + \
                Poly.const(SCRATCH_OVERHEAD)
        if st.template == "keep_bytes" and unit == Usage.log_bytes:
            out = self.block_bytes(st)
            for t in LOG_RECORD:
                out = out + _sizeof(t)
            return out
        return Poly()

    def block_bytes(self, st):
        try:
            return self.upper(st.args["bytes"])
        except NotPolynomial:
            raise Unbounded("a block of values kept whose size is not a fixed size", st.loc)

    def call(self, call, loops, s, pieces):
        for suffix, index in (("_fwd", 0), ("_bwd", 1)):
            name = call.func[:-len(suffix)] if call.func.endswith(suffix) else None
            if name in self.usage.funcgens:
                counts = self.usage.of(name)
                callee = self.usage.funcgens[name].f
                args = self.g.source_args.get(id(call), call.args)
                count = self.substitute(counts[index], callee, args, loops, s)
                if index == 0 and pieces is self.g.bwd_of and \
                        not any(count.uses(v.name) for v, _, _ in loops):
                    # a call in joint mode, run again by the backward sweep: its values
                    # are pushed and popped there, the stack below it already unwound
                    # (counted as often as the call runs when the count varies with a loop)
                    self.recorded_later = self.larger(self.recorded_later, count, [])
                    return Poly()
                return count
        return Poly()

    def substitute(self, poly, callee, args, loops, s):
        """poly over callee's parameters, with each parameter replaced by its argument (a
        global the caller's whole call leaves as it found it stays: one value in both)."""
        out = poly
        by_name = {p.name: a for p, a in zip(callee.params, args)}
        for key, expr in poly.atoms.items():
            if not out.uses(key) or key.startswith("sizeof(") or \
                    self.calc.fixed_global(expr) is not None:
                continue
            arg = None
            if isinstance(expr, ir.Ref) and expr.sym.name in by_name:
                arg = by_name[expr.sym.name]
            elif isinstance(expr, ir.Deref) and isinstance(expr.ptr, ir.Ref) and \
                    expr.ptr.sym.name in by_name:
                a = by_name[expr.ptr.sym.name]      # a value passed by reference
                arg = a.arg if isinstance(a, ir.AddrOf) else \
                    ir.Deref(a, ir.pointee(a.type))
            if arg is None:
                raise Unbounded(f"a count in '{callee.name}' that its arguments do not give",
                                s.loc)
            try:
                out = out.substitute(key, self.calc.to_poly(arg, loops))
            except NotPolynomial:
                raise Unbounded(f"an argument of '{callee.name}' that is not a fixed size",
                                s.loc)
        return out

    def scratch(self, allocs):
        total = Poly()
        for st in allocs:
            try:
                n = self.upper(st.args["count"])
            except NotPolynomial:
                raise Unbounded("an internal adjoint array whose length is not a fixed size",
                                st.loc)
            total = total + n * _sizeof(ir.pointee(st.args["target"].type)) + \
                Poly.const(SCRATCH_OVERHEAD)
        return total

    def larger(self, a, b, loops):
        """max(a, b) when one is never below the other; a + b (an upper bound) else."""
        if self.calc.nonneg_within(a - b, loops):
            return a
        if self.calc.nonneg_within(b - a, loops):
            return b
        self.usage.inexact = True
        return a + b

    def upper(self, e):
        """A polynomial never below the array length e (which may take maxima and round
        down to a multiple: `adgen_imax(a, b)`, `x / s * s`)."""
        try:
            return self.calc.to_poly(e, [])
        except NotPolynomial:
            pass
        from adgen.ir.c_text import expr_c
        if isinstance(e, ir.Cast):
            return self.upper(e.arg)
        if isinstance(e, ir.Cond):     # a trip count `n > 0 ? n : 0`
            return self.larger(self.upper(e.then), self.upper(e.other), [])
        if isinstance(e, ir.Call) and e.func == "adgen_imax" and len(e.args) == 2:
            return self.larger(self.upper(e.args[0]), self.upper(e.args[1]), [])
        if isinstance(e, ir.Binary) and e.op == "+":
            return self.upper(e.left) + self.upper(e.right)
        if isinstance(e, ir.Binary) and e.op == "-":
            return self.upper(e.left) - self.calc.to_poly(e.right, [])
        if isinstance(e, ir.Binary) and e.op == "*" and isinstance(e.left, ir.Binary) and \
                e.left.op == "/" and expr_c(e.left.right) == expr_c(e.right):
            self.usage.inexact = True
            return self.upper(e.left.left)      # x / s * s <= x for x, s >= 0
        c = X.int_value(e.right) if isinstance(e, ir.Binary) and e.op == "/" else None
        if c is not None and c >= 1:
            # x / c rounds toward zero: at most x / c + (c - 1) / c, whatever x's sign
            self.usage.inexact = True
            return self.upper(e.left).scale(Fraction(1, c)) + Poly.const(Fraction(c - 1, c))
        if isinstance(e, ir.Binary) and e.op == "*":
            return self.upper(e.left) * self.upper(e.right)     # sizes: both >= 0
        if isinstance(e, ir.SizeOf) and isinstance(e.of, ir.Type):
            return _sizeof(e.of)
        raise NotPolynomial


def _children(s):
    if isinstance(s, ir.Block):
        return list(s.stmts)
    if isinstance(s, ir.If):
        return list(s.then.stmts) + (list(s.other.stmts) if s.other else [])
    if isinstance(s, ir.For):
        return list(s.init) + list(s.body.stmts) + list(s.step)
    if isinstance(s, (ir.While, ir.DoWhile)):
        return list(s.body.stmts)
    return []


def _exprs(st):
    if isinstance(st, ir.Raw):
        return [v for v in st.args.values() if isinstance(v, ir.Expr)]
    return [e for e in ir.stmt_exprs(st) if e is not None]


def formula_text(poly, lp64=False, fortran=False):
    """C text of a byte count (Fortran text with fortran: for what adgen says about
    Fortran input); with lp64, sizes of the basic types as numbers (x86-64)."""
    from adgen.ir.fortran_text import source_text
    return source_text("fortran" if fortran else "c")((lp64_sizes(poly) if lp64 else poly).to_ir())


def lp64_sizes(poly):
    """poly with the sizes of the basic types as numbers (x86-64)."""
    for key in list(poly.atoms):
        size = 8 if key.startswith("sizeof(") and key.endswith("*)") else \
            LP64_SIZES.get(key)
        m = re.fullmatch(r"sizeof\((.*) \[(\d+)\]\)", key)
        if m and f"sizeof({m.group(1)})" in LP64_SIZES:
            size = LP64_SIZES[f"sizeof({m.group(1)})"] * int(m.group(2))
        if size is not None:
            poly = poly.substitute(key, Poly.const(size))
    return poly


def unbounded_error(head, exc, what):
    message, loc = exc.args
    return AdgenError(f"{what}: cannot bound the bytes '{head}' pushes per call: {message}; "
                      "give the stack size with --stack-size BYTES", loc)
