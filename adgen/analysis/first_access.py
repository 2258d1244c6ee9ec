"""Which comes first for one variable along the paths through structured code: a
statement setting it, or one reading it.

Several checks ask this question: does a head set a global pointer before anything reads
it, does a loop's body set a pointer before reading it (else the pointer is carried from
one iteration to the next), does a head set a struct's field before using the struct.
They differ only in what counts as setting and as reading, which the caller gives.
"""
from adgen import ir
from adgen.analysis.loops import assigned_syms
from adgen.ir import exprs as X

SET, READ = "set", "read"


def first_access(stmts, sets, reads):
    """SET when every path through stmts sets the variable before anything reads it,
    READ when some path may read it first, None when no path does either.

    sets(st): simple statement st sets the variable and reads nothing of it first (an
    assignment, a call that sets it); asked of a counted loop too, it may take one that
    sets the whole variable (an array's every element). reads(exprs): the expressions
    read it (a name, a call that uses it)."""
    set_under = []      # (test, its flags): tests of flags whose true branch set it
    for st in stmts:
        key = _flag_test(st.test) if isinstance(st, ir.If) else None
        if key is not None and any(X.same_text(key[0], t) for t, _ in set_under):
            # the same test again, its flags unchanged: its true branch comes after a
            # setting (the branches on a lowered goto's flag, `if (!goto_next) { x = ..;
            # ... } if (!goto_next) { .. x .. }`)
            found = first_access(st.other.stmts, sets, reads) if st.other else None
        else:
            found = _first_of(st, sets, reads)
        if found is not None:
            return found
        if set_under or key is not None:
            changed = assigned_syms([st])
            set_under = [(t, flags) for t, flags in set_under if not flags & changed]
            if key is not None and not key[1] & changed and \
                    first_access(st.then.stmts, sets, reads) == SET:
                set_under.append(key)
    return None


def _flag_test(test):
    """(test, the flags it reads) for a test of adgen's own control-flow flags alone (the
    flags of lowered breaks, returns and gotos, which nothing but their assignments
    changes), else None."""
    flags = set()
    for e in ir.walk(test):
        if isinstance(e, ir.Ref):
            if not getattr(e.sym, "is_flag", False):
                return None
            flags.add(e.sym)
        elif not isinstance(e, (ir.Const, ir.Unary, ir.Binary)):
            return None
    return (test, frozenset(flags)) if flags else None


def variables_first_access(stmts, syms):
    """first_access for the variables syms taken together: set by an assignment to one
    of them whose value reads none of them, read by any mention."""
    def reads(exprs):
        return any(isinstance(x, ir.Ref) and x.sym in syms
                   for e in exprs for x in ir.walk(e))

    def sets(st):
        return isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and \
            st.lhs.sym in syms and not reads([st.rhs])
    return first_access(stmts, sets, reads)


def _first_of(st, sets, reads):
    if isinstance(st, ir.Block):
        return first_access(st.stmts, sets, reads)
    if isinstance(st, ir.If) and not reads([st.test]):
        # (an early return leaves the rest of a function in such branches)
        then = first_access(st.then.stmts, sets, reads)
        other = first_access(st.other.stmts, sets, reads) if st.other is not None else None
        if READ in (then, other):
            return READ
        return SET if then == other == SET else None
    if isinstance(st, ir.DoWhile):
        body = first_access(st.body.stmts, sets, reads)
        if body is not None:
            return body         # the body runs once at least
        return READ if reads([st.test]) else None
    if isinstance(st, ir.For):
        if sets(st):
            return SET
        init = first_access(st.init, sets, reads)
        if init is not None:
            return init
    if isinstance(st, (ir.While, ir.For)):
        if st.test is not None and reads([st.test]):
            return READ
        body = first_access(st.body.stmts, sets, reads)
        if body == READ:
            return READ
        if isinstance(st, ir.For) and body != SET and \
                first_access(st.step, sets, reads) == READ:
            return READ
        return None             # the body may not run: nothing is set for what follows
    if not isinstance(st, (ir.If, ir.While, ir.For)) and sets(st):
        return SET
    if any(reads(ir.stmt_exprs(x)) for x in ir.stmts_walk([st])):
        return READ
    return None
