"""Recognition of counted loops, which the reverse sweep can replay without a stack."""
import contextlib

from adgen import ir

# While the derivative transforms run, the program's function bodies stay as they are (the
# transforms read them and build new code), and the loops of a function ask about it and
# about each loop once per analysis: {key: (the objects the key names, answer)} of
# address_taken and canonical_loop, or None outside that time.
_known = None


@contextlib.contextmanager
def fixed_bodies():
    """Keep what address_taken and canonical_loop find until the block ends; the function
    bodies must not change inside it."""
    global _known
    outer = _known
    _known = {} if outer is None else outer
    try:
        yield
    finally:
        _known = outer


def bodies_fixed():
    """True inside fixed_bodies(): the program's code (bodies, variables) stays as it is."""
    return _known is not None


def kept_while_fixed(kind, objects, extra, compute):
    """compute(), or the answer kept for the same objects (and extra) while bodies are
    fixed: an answer that depends only on the program's code."""
    if _known is None:
        return compute()
    key = (kind, tuple(map(id, objects)), extra)
    hit = _known.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], objects)):
        hit = _known[key] = (objects, compute())
    return hit[1]


def assigned_syms(stmts):
    """Variables assigned (as a whole) anywhere in a statement list."""
    out = set()
    for s in ir.stmts_walk(stmts):
        if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref):
            out.add(s.lhs.sym)
    return out


def assigned_in(stmts):
    """assigned_syms of statements of the program's code: what each compound statement
    assigns is kept while the bodies are fixed, so that the loops of a nest, each asking
    about its own body, read the nest once between them (not once per loop around it)."""
    if not bodies_fixed():
        return assigned_syms(stmts)
    out = set()
    for s in stmts:
        if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref):
            out.add(s.lhs.sym)
        elif isinstance(s, ir.COMPOUND):
            out |= kept_while_fixed("assigned in", (s,), None, lambda s=s: frozenset(
                assigned_in(list(ir.statements_inside(s)))))
    return out


def assigned_in_function(func):
    """assigned_syms of func's body, read once while the bodies are fixed (each branch and
    loop of func asks)."""
    return kept_while_fixed("assigned", (func,), None,
                            lambda: frozenset(assigned_in(func.body.stmts)))


def address_taken(func, harmless=()):
    """Symbols whose address is taken somewhere in func (calls may then change them),
    leaving out the AddrOf nodes whose ids are in harmless."""
    return kept_while_fixed("taken", (func,), frozenset(harmless),
                 lambda: frozenset(_address_taken(func, harmless)))


def _address_taken(func, harmless):
    out = set()
    for s in ir.stmts_walk(func.body.stmts):
        for e in ir.stmt_exprs(s):
            for sub in ir.walk(e):
                if isinstance(sub, ir.AddrOf) and id(sub) not in harmless:
                    inner = sub.arg
                    while isinstance(inner, (ir.Index, ir.Member)):
                        if isinstance(inner, ir.Member) and inner.arrow or \
                                isinstance(inner, ir.Index) and \
                                inner.base.type.resolved().is_pointer:
                            inner = None    # &p[i], &p->f: an address p holds, not p's
                            break
                        inner = inner.base
                    if isinstance(inner, ir.Ref):
                        out.add(inner.sym)
    return out


def canonical_loop(loop, func):
    """(var, stride) for `for (var = a; test; var = var +/- stride)` where the body never
    changes var or stride: iteration k then has var = a + k * stride. None otherwise."""
    return kept_while_fixed("loop", (loop, func), None, lambda: _canonical_loop(loop, func))


def counter_step(loop):
    """(var, stride) for `for (var = a; test; var = var +/- stride)` (or `stride + var`)
    with an integer counter that is not a global: the loop's form alone (canonical_loop
    also asks that the body change neither); None for another loop."""
    if loop.test is None or len(loop.init) != 1 or len(loop.step) != 1:
        return None
    init, step = loop.init[0], loop.step[0]
    if not (isinstance(init, ir.Assign) and isinstance(init.lhs, ir.Ref)):
        return None
    var = init.lhs.sym
    if not var.type.resolved().is_int or var.kind == "global":
        return None
    if not (isinstance(step, ir.Assign) and isinstance(step.lhs, ir.Ref) and
            step.lhs.sym is var and isinstance(step.rhs, ir.Binary) and step.rhs.op in "+-"):
        return None
    r = step.rhs
    if isinstance(r.left, ir.Ref) and r.left.sym is var:
        stride = r.right
        if r.op == "-":
            stride = ir.Unary("-", stride, stride.type)
    elif r.op == "+" and isinstance(r.right, ir.Ref) and r.right.sym is var:
        stride = r.left
    else:
        return None
    if any(isinstance(x, ir.Ref) and x.sym is var for x in ir.walk(stride)):
        return None     # `i += i`: no stride, each step depends on where it starts
    return var, stride


def _canonical_loop(loop, func):
    form = counter_step(loop)
    if form is None:
        return None
    var, stride = form
    changed = assigned_in(loop.body.stmts)
    taken = address_taken(func)
    if var in changed or var in taken:
        return None
    for sub in ir.walk(stride):
        if isinstance(sub, ir.Ref):
            if sub.sym in changed or sub.sym in taken or sub.sym.kind == "global" or \
                    not sub.sym.type.resolved().is_int:
                return None
        elif not isinstance(sub, (ir.Const, ir.Unary, ir.Binary)):
            return None
    return var, stride


def readonly_int_params(func, functions=None, known=None):
    """Pointer parameters to integers that func never writes through nor passes on (but to
    a function of `functions` that does not write through it either): a Fortran `n`
    received by reference, read as `*n`. known: {function: answer}, shared by the
    questions about one program so that each function is read once; a function of a
    cycle of calls, read while it is being read, counts as writing through everything,
    and the answers that took that shortcut are not kept."""
    known = {} if known is None else known
    return _readonly_ints(func, functions or {}, known, [])[0]


def _readonly_ints(func, functions, known, reading):
    """(readonly_int_params of func, whether the answer is func's own: read without
    cutting a cycle at a function still being read above it)."""
    if func in known:
        return known[func], True
    reading.append(func)
    own = True
    out = set()
    for p in func.params:
        t = p.type.resolved()
        if isinstance(t, ir.Ptr) and t.target.resolved().is_int:
            out.add(p)
    for s in ir.stmts_walk(func.body.stmts):
        if isinstance(s, ir.Assign):
            root = s.lhs
            while isinstance(root, (ir.Index, ir.Deref, ir.Member)):
                root = root.base if isinstance(root, (ir.Index, ir.Member)) else root.ptr
            if isinstance(root, ir.Ref):
                out.discard(root.sym)
        for e in ir.stmt_exprs(s):
            for sub in ir.walk(e):
                if not isinstance(sub, ir.Call):
                    continue
                callee = functions.get(sub.func)
                callee_readonly = set()
                if callee is not None and callee.has_body:
                    if callee in reading:
                        own = False
                    else:
                        callee_readonly, callee_own = _readonly_ints(callee, functions,
                                                                     known, reading)
                        own = own and callee_own
                for k, a in enumerate(sub.args):
                    if isinstance(a, ir.AddrOf) and isinstance(a.arg, ir.Deref):
                        a = a.arg.ptr       # &*n: Fortran passing its n on
                    if isinstance(a, ir.Ref) and k < len(callee.params if callee else ()) \
                            and callee.params[k] in callee_readonly:
                        continue
                    # the pointer itself passed on, not a value read through it (*n)
                    read = {id(d.ptr) for d in ir.walk(a) if isinstance(d, ir.Deref)}
                    for r in ir.walk(a):
                        if isinstance(r, ir.Ref) and id(r) not in read:
                            out.discard(r.sym)
    reading.pop()
    if own or not reading:
        known[func] = out
    return out, own


def invariant(expr, loop, func, readonly=frozenset(), fixed=None):
    """True when expr reads only integer variables that the loop never changes (so the
    backward sweep can evaluate it again instead of saving it). readonly: func's
    readonly_int_params, sizes received by reference (Fortran's n) seen unchanged; fixed:
    whether a global (or a field of one) keeps one value for the whole call."""
    changed = assigned_in(loop.body.stmts) | assigned_in(loop.step)
    return reads_unchanged_ints(expr, changed, func, readonly, division=False, fixed=fixed)


def reads_unchanged_ints(expr, changed, func, readonly, *, division, fixed=None):
    """True when expr is arithmetic of constants and of integer variables of func outside
    `changed` whose address is never taken (values read through the pointers of readonly
    too), and of the globals (and fields of globals) for which fixed is True. Without
    division, `/` and `%` are refused: an expression evaluated where the primal may not
    have evaluated it (a trip count) must not divide by zero; one the primal evaluated
    with the same values (a branch's test) may."""
    taken = address_taken(func)
    kept = set()        # the ids of the parts of the fixed globals read
    for sub in ir.walk(expr):
        if fixed is not None and id(sub) not in kept and \
                isinstance(sub, (ir.Ref, ir.Member)) and fixed(sub):
            kept |= {id(x) for x in ir.walk(sub)}
        if id(sub) in kept:
            continue
        if isinstance(sub, ir.Deref) and isinstance(sub.ptr, ir.Ref):
            if sub.ptr.sym not in readonly:
                return False
            continue
        if isinstance(sub, ir.Ref) and sub.sym.kind == "param" and \
                sub.sym.type.resolved().is_pointer:
            if sub.sym in readonly:
                continue
            return False
        if isinstance(sub, ir.Ref):
            sym = sub.sym
            if sym in changed or sym in taken or sym.kind == "global" or \
                    not sym.type.resolved().is_int:
                return False
        elif not isinstance(sub, (ir.Const, ir.Unary, ir.Binary, ir.Cast, ir.Deref)):
            return False
        elif isinstance(sub, ir.Binary) and sub.op in ("/", "%") and not division:
            return False
    return True


def loop_local_vars(func):
    """Counters used only inside the counted loops they drive: their value before such a
    loop is never read, so it need not be saved."""
    return set(kept_while_fixed("loop_local", (func,), None,
                                lambda: frozenset(_loop_local_vars(func))))


def _loop_local_vars(func):
    counter = {}        # id(counted loop) -> its counter
    for s in ir.stmts_walk(func.body.stmts):
        if isinstance(s, ir.For):
            canon = canonical_loop(s, func)
            if canon is not None:
                counter[id(s)] = canon[0]
    if not counter:
        return set()
    depth = {}          # counter -> how many of the loops it drives enclose the statement
    outside = set()     # counters some statement outside their loops reads or sets

    def walk(stmts):
        for st in stmts:
            var = counter.get(id(st))
            if var is not None:     # the loop's own test is inside it, its init and step too
                depth[var] += 1
            for e in ir.stmt_exprs(st):
                for x in ir.walk(e):
                    if isinstance(x, ir.Ref) and x.sym in depth and not depth[x.sym]:
                        outside.add(x.sym)
            if isinstance(st, ir.COMPOUND):
                walk(list(ir.statements_inside(st)))
            if var is not None:
                depth[var] -= 1

    for var in counter.values():
        depth[var] = 0
    walk(func.body.stmts)
    return set(depth) - outside


def enclosing_loops(stmts, target):
    """The for loops around statement target, outermost first, target itself last when it
    is one; None when the statements do not hold it."""
    for s in stmts:
        if s is target:
            return [s] if isinstance(s, ir.For) else []
        for inner in ir.nested_lists(s):
            found = enclosing_loops(inner, target)
            if found is not None:
                return ([s] if isinstance(s, ir.For) and inner is s.body.stmts else []) + found
    return None
