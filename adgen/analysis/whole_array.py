"""Whether a local array of constant extents is set whole before anything reads it.

A local array starts with whatever its memory held. The derivative code zeroes one on
entry where something may read an element before setting it (an adjoint accumulated
into, a value saved before its first write), and only there: a model's large work array
filled by a loop nest before its use is not cleared on every call.

An array counts as set when a statement sets every element: a nest of counted loops with
constant bounds and unit strides whose innermost body sets `a[index]` unconditionally,
the index running over every element exactly once (`a[i]`, `a[i][j]`, Fortran's
flattened `h[(i - 1) + (j - 1) * nx]`), and nothing else in the nest touching the array.
Anything else that names the array reads it, so the answer errs toward zeroing.
"""
from adgen import ir
from adgen.analysis.extent import const_value, normal_test
from adgen.analysis.first_access import SET, first_access
from adgen.analysis.loops import counter_step
from adgen.ir import exprs as X


def set_before_read(stmts, sym) -> bool:
    """True when every path through stmts sets every element of the local array sym
    before any statement reads one of them."""
    count = element_count(sym.type)
    if count is None or count == 0:
        return False
    if any(_raw_names(st, sym) for st in ir.stmts_walk(stmts)):
        return False        # a back-end statement (a byte copy, a zeroing) touches it

    def sets(st):
        return isinstance(st, ir.For) and _loop_nest_sets(st, sym, count)

    def reads(exprs):
        return any(X.mentions(e, sym) for e in exprs)

    return first_access(stmts, sets, reads) == SET


def used_elements(stmts, sym):
    """(first, last): the flat offsets between which lies every element of the local
    array sym that stmts name, when each is named at an index whose bounds follow from
    constants, loop counters and integers set from them (a model using the first rows of
    a work array sized for the largest case, and the backward sweep's loops over the same
    rows); None when a use is of another kind (the array or an element's address passed
    on, an index without such bounds) or the array is not named at all."""
    count = element_count(sym.type)
    if count is None:
        return None
    walk = _UseWalk(sym, stmts)
    if not walk.block(stmts, {}) or not walk.found:
        return None
    first, last = min(lo for lo, _ in walk.found), max(hi for _, hi in walk.found)
    return (first, last) if 0 <= first <= last < count else None


class _UseWalk:
    """The offsets of sym's elements named along stmts, in order, with the integer
    variables' known bounds (var -> (lo, hi)) where they hold."""

    def __init__(self, sym, stmts):
        self.sym, self.found = sym, []
        # integers whose address is taken may change through it: never bounded
        self.taken = {a.arg.sym for st in ir.stmts_walk(stmts) for e in ir.stmt_exprs(st)
                      for a in ir.walk(e)
                      if isinstance(a, ir.AddrOf) and isinstance(a.arg, ir.Ref)}

    def block(self, stmts, env) -> bool:
        """Walks stmts with env (changed in place to the bounds after them)."""
        for st in stmts:
            if not self.stmt(st, env):
                return False
        return True

    def stmt(self, st, env) -> bool:
        loops = (ir.For, ir.While, ir.DoWhile)
        if not isinstance(st, loops) and not all(self.uses(e, env) for e in ir.stmt_exprs(st)):
            return False
        if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref):
            bounds = self.bounds(st.rhs, env)
            v = st.lhs.sym
            if bounds is not None and v.type.resolved().is_int and v.kind != "global" and \
                    v not in self.taken:
                env[st.lhs.sym] = bounds
            else:
                env.pop(st.lhs.sym, None)
        elif isinstance(st, ir.Pop) and isinstance(st.target, ir.Ref):
            env.pop(st.target.sym, None)
        elif isinstance(st, ir.Raw):
            return self.raw(st, env)
        elif isinstance(st, ir.For):
            if not self.block(st.init, env):
                return False
            changed = _assigned(st.body.stmts) | _assigned(st.step)
            inner = {v: b for v, b in env.items() if v not in changed}
            counter = self.counter_bounds(st, env)
            if counter is not None and counter[0] not in changed - _assigned(st.step):
                inner[counter[0]] = counter[1]
            # (the test runs once more, past the counter's last value in the body)
            outside = {v: b for v, b in inner.items() if counter is None or v is not counter[0]}
            if not (self.uses(st.test, outside) if st.test is not None else True) or \
                    not self.block(st.body.stmts, dict(inner)) or \
                    not self.block(st.step, dict(inner)):
                return False
            for v in changed:
                env.pop(v, None)
        elif isinstance(st, (ir.While, ir.DoWhile, ir.If, ir.Block)):
            changed = set().union(*(_assigned(b) for b in _bodies(st)))
            outside = {v: b for v, b in env.items() if v not in changed}
            if isinstance(st, (ir.While, ir.DoWhile)) and not self.uses(st.test, outside):
                return False
            for body in _bodies(st):
                if not self.block(body, dict(outside if not isinstance(st, ir.Block)
                                              else env)):
                    return False
            for v in changed:
                env.pop(v, None)
        return True

    def raw(self, st, env) -> bool:
        """A back-end statement: a block push or pop of consecutive elements (`&a[k]`,
        count * sizeof element bytes) names them; any other naming sym is not followed."""
        if not _raw_names(st, self.sym):
            return True
        ptr, nbytes = st.args.get("ptr"), st.args.get("bytes")
        if st.template not in ("push_block", "pop_block") or \
                not isinstance(ptr, ir.AddrOf) or not isinstance(nbytes, ir.Binary) or \
                nbytes.op != "*" or not isinstance(nbytes.right, ir.SizeOf):
            return False
        flat = _flat_index(ptr.arg, self.sym)
        first = self.bounds(flat, env) if flat is not None else None
        count = self.bounds(nbytes.left, env)
        element = ir.array_element(self.sym.type)
        of = nbytes.right.of
        if first is None or count is None or not isinstance(of, ir.Type) or \
                not isinstance(of.resolved(), ir.Prim) or of.resolved().name != element.name:
            return False
        if count[1] > 0:
            self.found.append((first[0], first[1] + count[1] - 1))
        return True

    def counter_bounds(self, loop, env):
        """(var, (lo, hi)): the values the counter of a counted loop takes in its body,
        its start and bound bounded in env; None when it has no such form or bounds."""
        counted = _counted(loop, lambda e: self.bounds(e, env))
        return None if counted is None else counted[:2]

    def bounds(self, e, env):
        """(lo, hi) of integer expression e, or None."""
        c = const_value(e)
        if c is not None:
            return c, c
        if isinstance(e, ir.Ref):
            return env.get(e.sym)
        if isinstance(e, ir.Cast) and e.to.resolved().is_int:
            return self.bounds(e.arg, env)
        if isinstance(e, ir.Unary) and e.op == "-":
            b = self.bounds(e.arg, env)
            return (-b[1], -b[0]) if b is not None else None
        if isinstance(e, ir.Binary) and e.op in ("+", "-", "*"):
            a, b = self.bounds(e.left, env), self.bounds(e.right, env)
            if a is None or b is None:
                return None
            if e.op == "+":
                return a[0] + b[0], a[1] + b[1]
            if e.op == "-":
                return a[0] - b[1], a[1] - b[0]
            products = [x * y for x in a for y in b]
            return min(products), max(products)
        if isinstance(e, ir.Cond):
            a, b = self.bounds(e.then, env), self.bounds(e.other, env)
            if a is None or b is None:
                return None
            return min(a[0], b[0]), max(a[1], b[1])
        return None

    def uses(self, e, env) -> bool:
        """Appends the offsets of the elements of sym that e names; False when it names
        sym otherwise, or at an index without bounds."""
        if isinstance(e, ir.Index):
            indices, base = [], e
            while isinstance(base, ir.Index):
                indices.insert(0, base.index)
                base = base.base
            if isinstance(base, ir.Ref) and base.sym is self.sym:
                flat = _flat_index(e, self.sym)
                bounds = self.bounds(flat, env) if flat is not None else None
                if bounds is None:
                    return False
                self.found.append(bounds)
                return all(self.uses(i, env) for i in indices)
        if isinstance(e, ir.AddrOf) and X.mentions(e, self.sym):
            return False        # an element's address: what is reached through it is not known
        if isinstance(e, ir.Ref) and e.sym is self.sym:
            return False
        return all(self.uses(c, env) for c in e.children())


def _assigned(stmts):
    out = set()
    for x in ir.stmts_walk(stmts):
        if isinstance(x, ir.Assign) and isinstance(x.lhs, ir.Ref):
            out.add(x.lhs.sym)
        elif isinstance(x, ir.Pop) and isinstance(x.target, ir.Ref):
            out.add(x.target.sym)
    return out


def _bodies(st):
    if isinstance(st, (ir.For, ir.While, ir.DoWhile)):
        return [st.body.stmts]
    if isinstance(st, ir.If):
        return [st.then.stmts] + ([st.other.stmts] if st.other is not None else [])
    if isinstance(st, ir.Block):
        return [st.stmts]
    return []


def element_count(t):
    """The number of numbers in an array of numbers of constant extents, else None."""
    t = t.resolved()
    if not isinstance(t, ir.Arr):
        return None
    count = 1
    while isinstance(t, ir.Arr):
        n = const_value(t.size) if t.size is not None else None
        if n is None:
            return None
        count *= n
        t = t.elem.resolved()
    return count if isinstance(t, ir.Prim) else None


def _mentions_stmt(st, sym):
    """True when statement st, or one inside it, names sym (back-end statements too)."""
    return X.stmts_mention([st], sym) or any(_raw_names(x, sym) for x in ir.stmts_walk([st]))


def _raw_names(st, sym):
    """True when st is a back-end statement (not those inside it) whose arguments name
    sym."""
    return isinstance(st, ir.Raw) and \
        any(isinstance(v, ir.Expr) and X.mentions(v, sym) for v in st.args.values())


def _loop_nest_sets(loop, sym, count) -> bool:
    """True when the loop nest starting at loop sets each of the count elements of sym,
    reading none of them."""
    counters = []           # (var, lo, hi) of each loop, outermost first
    st = loop
    while isinstance(st, ir.For):
        bounds = _unit_counted(st)
        if bounds is None:
            return False
        counters.append(bounds)
        touching = [s for s in st.body.stmts if _mentions_stmt(s, sym)]
        if len(touching) != 1:
            return False
        st = touching[0]
    if not isinstance(st, ir.Assign) or X.mentions(st.rhs, sym):
        return False
    nest_vars = {v for v, _, _ in counters}
    for x in ir.stmts_walk([loop]):
        if isinstance(x, (ir.Break, ir.Continue, ir.Return)):
            return False        # an iteration may stop before its set
        if isinstance(x, ir.Assign) and isinstance(x.lhs, ir.Ref) and \
                x.lhs.sym in nest_vars and not _is_loop_control(x, loop):
            return False
        for e in ir.stmt_exprs(x):
            if any(isinstance(a, ir.AddrOf) and X.mentions(a, v)
                   for a in ir.walk(e) for v in nest_vars):
                return False
    flat = _flat_index(st.lhs, sym)
    if flat is None:
        return False
    affine = _affine(flat, nest_vars)
    return affine is not None and _covers(affine, counters, count)


def _is_loop_control(assign, loop):
    """True when assign is the init or step of a loop of the nest starting at loop."""
    return any(assign is x for f in ir.stmts_walk([loop]) if isinstance(f, ir.For)
               for x in f.init + f.step)


def _unit_counted(loop):
    """(var, lo, hi) for a loop counting by one between constants, running at least
    once; else None."""
    counted = _counted(loop, lambda e: (const_value(e),) * 2
                       if const_value(e) is not None else None)
    if counted is None or counted[2] != 1 or counted[1][0] > counted[1][1]:
        return None
    return counted[0], counted[1][0], counted[1][1]


def _counted(loop, bounds):
    """(var, (lo, hi), step) for `for (var = s; var OP b; var = var +/- step)`, an integer
    counter stepping by a constant toward its bound: (lo, hi) holds the values it takes in
    the body, from the bounds bounds(e) gives of s and b; None for another loop."""
    form = counter_step(loop)
    stride = const_value(form[1]) if form is not None else None
    if not stride:
        return None
    var = form[0]
    test = normal_test(loop.test, var)
    start = bounds(loop.init[0].rhs)
    bound = bounds(test[2]) if test is not None else None
    if start is None or bound is None:
        return None
    op, offset = test[0], test[1]
    if stride > 0 and op in ("<", "<="):
        return var, (start[0], bound[1] - offset - (op == "<")), stride
    if stride < 0 and op in (">", ">="):
        return var, (bound[0] - offset + (op == ">"), start[1]), -stride
    return None


def _flat_index(lhs, sym):
    """The element offset of `sym[i][j]...` (one index per extent) as an expression, or
    None when lhs is not an element of sym."""
    indices = []
    e = lhs
    while isinstance(e, ir.Index):
        indices.insert(0, e.index)
        e = e.base
    if not (isinstance(e, ir.Ref) and e.sym is sym) or any(X.mentions(i, sym) for i in indices):
        return None
    extents, t = [], sym.type.resolved()
    while isinstance(t, ir.Arr):
        extents.append(const_value(t.size))
        t = t.elem.resolved()
    if len(indices) != len(extents):
        return None
    flat = indices[0]
    for k in range(1, len(indices)):
        flat = ir.Binary("+", ir.Binary("*", flat, ir.Const(str(extents[k]), ir.INT), ir.INT),
                         indices[k], ir.INT)
    return flat


def _affine(e, variables):
    """(constant, {var: coefficient}) when e is an integer affine function of variables
    with constant coefficients, else None."""
    c = const_value(e)
    if c is not None:
        return c, {}
    if isinstance(e, ir.Ref):
        return (0, {e.sym: 1}) if e.sym in variables else None
    if isinstance(e, ir.Cast) and e.to.resolved().is_int:
        return _affine(e.arg, variables)
    if isinstance(e, ir.Unary) and e.op in "+-":
        inner = _affine(e.arg, variables)
        if inner is None or e.op == "+":
            return inner
        return -inner[0], {v: -k for v, k in inner[1].items()}
    if isinstance(e, ir.Binary) and e.op in "+-":
        a, b = _affine(e.left, variables), _affine(e.right, variables)
        if a is None or b is None:
            return None
        sign = 1 if e.op == "+" else -1
        coef = dict(a[1])
        for v, k in b[1].items():
            coef[v] = coef.get(v, 0) + sign * k
        return a[0] + sign * b[0], coef
    if isinstance(e, ir.Binary) and e.op == "*":
        a, b = _affine(e.left, variables), _affine(e.right, variables)
        if a is None or b is None or (a[1] and b[1]):
            return None
        (k, _), (c0, coef) = (a, b) if not a[1] else (b, a)
        return k * c0, {v: k * x for v, x in coef.items()}
    return None


def _covers(affine, counters, count) -> bool:
    """True when constant + sum(coefficient * var) over the loop ranges takes each value
    of [0, count) exactly once: the coefficients, in increasing size, are the place values
    of a mixed-radix number whose digits are the counters."""
    constant, coef = affine
    places = []
    for var, lo, hi in counters:
        k = coef.get(var, 0)
        if k == 0:
            return False        # the same elements set again: fine, but not worth a case
        if k < 0:               # k * var over [lo, hi] is |k| * w over [-hi, -lo]
            k, lo, hi = -k, -hi, -lo
        constant += k * lo
        places.append((k, hi - lo + 1))
    if constant != 0 or any(v not in {c[0] for c in counters} for v in coef):
        return False
    expected = 1
    for k, n in sorted(places):
        if k != expected:
            return False
        expected *= n
    return expected == count
