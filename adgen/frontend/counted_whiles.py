"""A while loop that counts, `i = a; while (i < n) { ...; i++; }`, read as the for loop it
equals: `for (i = a; i < n; i++) { ... }`; so is one that counts in its test,
`i = n; while (i-- > 0) { ... }` (also `for (i = n; i-- > 0; )`, `--i >= 0`, `i++ < n`):
`for (i = n - 1; i + 1 > 0; i--) { ... }`.

The two run the same statements in the same order as long as the body has no `continue`
of its own (which would skip the increment of the while loop, not the for loop's step),
so that is the one condition; a loop that counts in its test steps on a continue too (the
continue goes to the test, as the for loop's goes to its step). The analyses count the iterations of a for loop, and bound
the indices of its counter by its test (docs/c-subset.md, "Array lengths"); those of a
while loop they do not count, so the arrays such a loop indexes had no length.
"""
from adgen import ir
from adgen.ir import exprs as X

# integer types that C promotes to int in arithmetic: `i + 1` of one is not i's type
_PROMOTED = ("short", "unsigned short", "char", "signed char", "unsigned char", "_Bool")


def count_whiles(stmts):
    """Rewrites, in place, each `i = a; while (TEST) { ...; i = i +/- s; }` of the statement
    list stmts (and of the lists inside it) whose test compares i, and whose body has no
    continue of its own, into `for (i = a; TEST; i = i +/- s) { ... }`; and each loop that
    steps its counter in its test (_counted_in_test) into the for loop it equals."""
    k = 1
    while k < len(stmts):
        if _counting(stmts[k - 1], stmts[k]):
            w = stmts[k]
            body = w.body.stmts
            stmts[k - 1:k + 1] = [ir.For([stmts[k - 1]], w.test, [body[-1]],
                                         ir.Block(body[:-1], w.body.loc), w.loc)]
        elif _counted_in_test(stmts, k) is not None:
            j, loop = _counted_in_test(stmts, k)
            stmts[k:k + 1] = [loop]
            del stmts[j]
        else:
            k += 1
    for s in stmts:
        for inner in ir.nested_lists(s):
            count_whiles(inner)


def _counting(init, w):
    if not (isinstance(w, ir.While) and _counter_set(init) and w.body.stmts):
        return False
    var, step = init.lhs.sym, w.body.stmts[-1]
    test = w.test
    if not _compares(test, var):
        return False
    if not _steps(step, var):
        return False
    return not _continues(w.body.stmts)


def _counter_set(init):
    """Whether statement init sets an integer local (the counter of a loop after it)."""
    return isinstance(init, ir.Assign) and isinstance(init.lhs, ir.Ref) and \
        init.lhs.sym.type.resolved().is_int and init.lhs.sym.kind in ("local", "temp")


def _compares(test, var):
    """Whether test compares var (a Ref to it on one side), calling and setting nothing."""
    return isinstance(test, ir.Binary) and test.op in ir.COMPARISONS and \
        any(isinstance(x, ir.Ref) and x.sym is var for x in (test.left, test.right)) and \
        not any(isinstance(e, (ir.Call, ir.Assign)) for e in ir.walk(test))


def _steps(s, var):
    """Whether statement s is `var = var +/- s`."""
    return isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref) and \
        s.lhs.sym is var and isinstance(s.rhs, ir.Binary) and \
        s.rhs.op in "+-" and isinstance(s.rhs.left, ir.Ref) and s.rhs.left.sym is var


def _counted_in_test(stmts, k):
    """(j, the for loop) when stmts[k] is `while (1) { t = TEST; i = i - s; if (!t) break;
    ... }` (the front end's reading of `while (i-- > 0)`, of `for (i = a; i-- > 0; step)`
    with the step at the end of the body) and stmts[j] sets i before it (_start): that
    setting and the while loop are `for (i = a - s; TEST'; i = i - s) { ... }`, TEST' the
    test of the value before the step, `i + s > 0`. The step first (`--i >= 0`: `i = i - s;
    t = TEST;`) keeps TEST. At the exit i is the value the while loop leaves, one step past
    the one tested. None for another statement."""
    w = stmts[k]
    if not (isinstance(w, ir.While) and isinstance(w.test, ir.Const) and
            w.test.text == "1" and len(w.body.stmts) >= 3):
        return None
    first, second, stop = w.body.stmts[:3]
    if isinstance(first, ir.Assign) and isinstance(first.lhs, ir.Ref) and \
            _steps(first, first.lhs.sym):
        step, value = first, second             # the step before the test
    elif isinstance(second, ir.Assign) and isinstance(second.lhs, ir.Ref) and \
            _steps(second, second.lhs.sym):
        step, value = second, first
    else:
        return None
    var = step.lhs.sym
    if not (isinstance(value, ir.Assign) and isinstance(value.lhs, ir.Ref) and
            _compares(value.rhs, var) and _stops_unless(stop, value.lhs.sym)):
        return None
    t, rest = value.lhs.sym, w.body.stmts[3:]
    j = _start(stmts, k, var)
    if j is None or t.kind not in ("local", "temp") or X.stmts_mention(rest, t) or \
            not isinstance(step.rhs.right, ir.Const) or \
            getattr(var.type.resolved(), "name", None) in _PROMOTED:
        return None
    test = value.rhs
    if step is second:
        # the test reads the value before the step: i + s for a step down, i - s up
        back = ir.Binary("+" if step.rhs.op == "-" else "-", ir.Ref(var, test.loc),
                         X.clone(step.rhs.right), var.type, test.loc)
        test = X.substitute(test, {var: back})
    init = stmts[j]
    start = init.rhs
    if start.type.resolved() != var.type.resolved() and X.int_value(start) is None:
        # the step in the counter's type, as the while loop takes it (`n - 1` of an
        # unsigned n 0 set to a long counter would be 4294967295, not -1)
        start = ir.Cast(var.type, start, start.loc)
    first_value = ir.Assign(init.lhs, X.fold(X.substitute(step.rhs, {var: start})), init.loc)
    return j, ir.For([first_value], test, [step], ir.Block(rest, w.body.loc), w.loc)


def _start(stmts, k, var):
    """The index of the statement that sets counter var before the loop stmts[k], where
    that setting can move to the loop: the statements between set other variables, as in
    `size_t i = n, k = 0;`, from values that call nothing, and the value set reads
    variables those do not set (no memory, no global). None when there is none."""
    for j in range(k - 1, -1, -1):
        s = stmts[j]
        if _counter_set(s) and s.lhs.sym is var:
            between = stmts[j + 1:k]
            reads = {e.sym for e in ir.walk(s.rhs) if isinstance(e, ir.Ref)}
            if X.mentions(s.rhs, var) or between and (
                    any(isinstance(e, (ir.Index, ir.Deref, ir.Member, ir.Call))
                        for e in ir.walk(s.rhs)) or
                    any(r.kind == "global" for r in reads) or
                    any(x.lhs.sym in reads for x in between)):
                return None
            return j
        if not (isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref) and
                s.lhs.sym is not var and not X.mentions(s.rhs, var) and
                not X.has_call(s.rhs)):
            return None
    return None


def _stops_unless(s, t):
    """Whether statement s is `if (!t) break;`."""
    return isinstance(s, ir.If) and s.other is None and len(s.then.stmts) == 1 and \
        isinstance(s.then.stmts[0], ir.Break) and isinstance(s.test, ir.Unary) and \
        s.test.op == "!" and isinstance(s.test.arg, ir.Ref) and s.test.arg.sym is t


def _continues(stmts):
    """Whether stmts hold a continue of the loop around them (not of a loop inside)."""
    for s in stmts:
        if isinstance(s, ir.Continue):
            return True
        if not isinstance(s, (ir.For, ir.While, ir.DoWhile)) and \
                any(_continues(inner) for inner in ir.nested_lists(s)):
            return True
    return False
