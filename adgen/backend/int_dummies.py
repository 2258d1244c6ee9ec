"""Integer arguments of Fortran procedures read once, on entry.

A Fortran dummy `n` reaches C as `int *n`, and the generated code reads `*n` in its loop
bounds, extents and index arithmetic. gcc must assume that a store through another `int *`,
or a memcpy (every pop from the value stack is one), may change `*n`: it reads it again
after each, keeps loops that could run on a register in memory, and at -O3 its loop
splitting may even version a loop on the re-read value and warn, without a location, about
a copy that never runs (-Waggressive-loop-optimizations).

Fortran does not let a procedure change a dummy through another name while it is being
used, so an integer dummy that nothing in the generated code writes through is constant
for the whole call. Each generated function reads it once into `const int n_in = *n;` and
uses that. It qualifies in a function when every use of the pointer is a read of `*n`, or
passes `n` on to a function of the same output that qualifies it in turn (a fixed point
over the calls); anything else (a store, a pop into it, a call of a function outside the
output, pointer arithmetic) keeps `*n` as it is.
"""
from adgen import ir
from adgen.ir.exprs import clone_stmts, map_children
from adgen.ir.generated import LocalDecl

_READ, _ADDRESS, _TARGET = "read", "address", "target"


def read_int_dummies_once(functions, taken_names):
    """Rewrite the GenFunctions of one output in place (their bodies are copied first: the
    transforms share statements between functions). taken_names: the names of the output's
    globals and functions, which the new locals must not hide."""
    by_name = {fn.name: fn for fn in functions}
    uses = {fn.name: _Uses(fn) for fn in functions}
    # (function, parameter index) pairs that qualify, shrunk to a fixed point over calls
    ok = {(fn.name, k) for fn in functions for k, p in enumerate(fn.params)
          if _int_pointer(p) and p not in uses[fn.name].bad}
    changed = True
    while changed:
        changed = False
        for name, k in sorted(ok):
            p = by_name[name].params[k]
            for callee, j in uses[name].passed.get(p, ()):
                if (callee, j) not in ok:
                    ok.discard((name, k))
                    changed = True
                    break
    for fn in functions:
        cached = {}
        names = set(taken_names) | {p.name for p in fn.params} | \
            {d.sym.name for d in fn.locals} | {s.name for s in uses[fn.name].symbols}
        for k, p in enumerate(fn.params):
            if (fn.name, k) in ok and p in uses[fn.name].reads:
                name = p.name + "_in"
                while name in names:
                    name += "_"
                names.add(name)
                target = p.type.resolved().target
                local = ir.Symbol(name, ir.with_const(target, True), "local")
                cached[p] = local
        if not cached:
            continue
        body = clone_stmts(ir.Block(list(fn.body))).stmts
        for st in ir.stmts_walk(body):
            _rewrite_stmt(st, cached)
        fn.body[:] = body
        fn.locals[:0] = [LocalDecl(local, init=ir.Deref(ir.Ref(p), p.type.resolved().target))
                         for p, local in cached.items()]


def _int_pointer(p):
    t = p.type.resolved()
    return isinstance(t, ir.Ptr) and t.target.resolved().is_int


class _Uses:
    """How one function uses its pointer-to-integer parameters: `reads` (those it reads as
    `*n`), `bad` (those it uses otherwise), `passed` ({parameter: [(callee, index)]})."""

    def __init__(self, fn):
        self.params = {p for p in fn.params if _int_pointer(p)}
        self.reads, self.bad, self.passed = set(), set(), {}
        self.symbols = set()
        for st in ir.stmts_walk(fn.body):
            if isinstance(st, ir.Assign):
                self.expr(st.lhs, _TARGET)
                self.expr(st.rhs, _READ)
            elif isinstance(st, ir.Pop):
                self.expr(st.target, _TARGET)
            elif isinstance(st, ir.Raw):
                for key, v in st.args.items():
                    if isinstance(v, ir.Expr):
                        self.expr(v, _raw_mode(key))
            else:
                for e in ir.stmt_exprs(st):
                    if e is not None:
                        self.expr(e, _READ)

    def _is(self, e):
        return isinstance(e, ir.Ref) and e.sym in self.params

    def expr(self, e, mode):
        if isinstance(e, ir.Ref):
            self.symbols.add(e.sym)
            if e.sym in self.params:
                self.bad.add(e.sym)     # the pointer itself: compared, stepped, stored
            return
        if isinstance(e, ir.Deref) and self._is(e.ptr):
            self.symbols.add(e.ptr.sym)
            (self.reads if mode == _READ else self.bad).add(e.ptr.sym)
            return
        if isinstance(e, ir.Call):
            for k, a in enumerate(e.args):
                passed = _passed_pointer(a)
                if passed is not None and passed in self.params:
                    self.symbols.add(passed)
                    self.passed.setdefault(passed, []).append((e.func, k))
                else:
                    self.expr(a, _READ)
            return
        for sub, sub_mode in _children(e, mode):
            self.expr(sub, sub_mode)


def _passed_pointer(a):
    """The symbol p of a call argument `p` or `&*p`."""
    if isinstance(a, ir.AddrOf) and isinstance(a.arg, ir.Deref):
        a = a.arg.ptr
    return a.sym if isinstance(a, ir.Ref) else None


def _raw_mode(key):
    """How a statement template uses its argument `key`: counts and byte sizes are read,
    the others name memory it writes, logs, frees or takes the address of."""
    return _READ if key in ("count", "bytes") else _TARGET


def _children(e, mode):
    """The sub-expressions of e with how each is used: read, or part of the memory e names
    (written, or whose address is taken)."""
    if isinstance(e, ir.AddrOf):
        return [(e.arg, _ADDRESS)]
    if isinstance(e, ir.Index):
        return [(e.base, mode), (e.index, _READ)]
    if isinstance(e, ir.Member):
        return [(e.base, _READ if e.arrow else mode)]
    if isinstance(e, ir.Deref):
        return [(e.ptr, _READ)]
    if isinstance(e, ir.SizeOf):
        return []
    return [(c, _READ) for c in e.children()]


def _rewrite_stmt(st, cached):
    if isinstance(st, ir.Assign):
        st.lhs = _rewrite(st.lhs, cached, _TARGET)
        st.rhs = _rewrite(st.rhs, cached, _READ)
    elif isinstance(st, ir.Pop):
        st.target = _rewrite(st.target, cached, _TARGET)
    elif isinstance(st, ir.Push):
        st.value = _rewrite(st.value, cached, _READ)
    elif isinstance(st, ir.ExprStmt):
        st.expr = _rewrite(st.expr, cached, _READ)
    elif isinstance(st, (ir.If, ir.While, ir.DoWhile)):
        st.test = _rewrite(st.test, cached, _READ)
    elif isinstance(st, ir.For):
        if st.test is not None:
            st.test = _rewrite(st.test, cached, _READ)
    elif isinstance(st, ir.Return):
        if st.value is not None:
            st.value = _rewrite(st.value, cached, _READ)
    elif isinstance(st, ir.Raw):
        for key, v in list(st.args.items()):
            if isinstance(v, ir.Expr):
                st.args[key] = _rewrite(v, cached, _raw_mode(key))


def _rewrite(e, cached, mode):
    if isinstance(e, ir.Deref) and isinstance(e.ptr, ir.Ref) and e.ptr.sym in cached and \
            mode == _READ:
        return ir.Ref(cached[e.ptr.sym])
    if isinstance(e, ir.Call):
        e = map_children(e, lambda a: a)
        e.args = [a if _passed_pointer(a) in cached else _rewrite(a, cached, _READ)
                  for a in e.args]
        return e
    if isinstance(e, (ir.AddrOf, ir.Index, ir.Member, ir.Deref)):
        modes = dict((id(c), m) for c, m in _children(e, mode))
        return map_children(e, lambda c: _rewrite(c, cached, modes.get(id(c), _READ)))
    if isinstance(e, ir.SizeOf):
        return e
    return map_children(e, lambda c: _rewrite(c, cached, _READ))
