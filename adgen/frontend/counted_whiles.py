"""A while loop that counts, `i = a; while (i < n) { ...; i++; }`, read as the for loop it
equals: `for (i = a; i < n; i++) { ... }`.

The two run the same statements in the same order as long as the body has no `continue`
of its own (which would skip the increment of the while loop, not the for loop's step),
so that is the one condition. The analyses count the iterations of a for loop, and bound
the indices of its counter by its test (docs/c-subset.md, "Array lengths"); those of a
while loop they do not count, so the arrays such a loop indexes had no length.
"""
from adgen import ir


def count_whiles(stmts):
    """Rewrites, in place, each `i = a; while (TEST) { ...; i = i +/- s; }` of the statement
    list stmts (and of the lists inside it) whose test compares i, and whose body has no
    continue of its own, into `for (i = a; TEST; i = i +/- s) { ... }`."""
    k = 1
    while k < len(stmts):
        if _counting(stmts[k - 1], stmts[k]):
            w = stmts[k]
            body = w.body.stmts
            stmts[k - 1:k + 1] = [ir.For([stmts[k - 1]], w.test, [body[-1]],
                                         ir.Block(body[:-1], w.body.loc), w.loc)]
        else:
            k += 1
    for s in stmts:
        for inner in ir.nested_lists(s):
            count_whiles(inner)


def _counting(init, w):
    if not (isinstance(w, ir.While) and isinstance(init, ir.Assign) and
            isinstance(init.lhs, ir.Ref) and init.lhs.sym.type.resolved().is_int and
            init.lhs.sym.kind in ("local", "temp") and w.body.stmts):
        return False
    var, step = init.lhs.sym, w.body.stmts[-1]
    test = w.test
    if not (isinstance(test, ir.Binary) and test.op in ir.COMPARISONS and
            any(isinstance(x, ir.Ref) and x.sym is var for x in (test.left, test.right))):
        return False
    if any(isinstance(e, (ir.Call, ir.Assign)) for e in ir.walk(test)):
        return False
    if not (isinstance(step, ir.Assign) and isinstance(step.lhs, ir.Ref) and
            step.lhs.sym is var and isinstance(step.rhs, ir.Binary) and
            step.rhs.op in "+-" and isinstance(step.rhs.left, ir.Ref) and
            step.rhs.left.sym is var):
        return False
    return not _continues(w.body.stmts)


def _continues(stmts):
    """Whether stmts hold a continue of the loop around them (not of a loop inside)."""
    for s in stmts:
        if isinstance(s, ir.Continue):
            return True
        if not isinstance(s, (ir.For, ir.While, ir.DoWhile)) and \
                any(_continues(inner) for inner in ir.nested_lists(s)):
            return True
    return False
