"""Whether every path through a function's statements sets a variable before reading it,
with its jumps as they are written (before jumps.lower_gotos turns them into flags).

f2c declares every local of a Fortran routine `static`, and classic Fortran branches by
GOTO (arithmetic IF, computed GOTO, `IF (...) GO TO 20`): `v` set at L20, L30 and L40, all
three reached by the arithmetic IF before L50 reads it. Once the jumps are flags, no
structured walk can tell that one of three flags is always set; on the control-flow graph
of the code as written it is a plain must-analysis (the variable is set on entry to a
statement when it is set at the end of each statement that can come before it). The
driver makes such a static local automatic (transform/automatic_statics.py)."""
from adgen import ir
from adgen.frontend.jumps import Goto, Label
from adgen.ir import exprs as X


def set_before_read(stmts, sym):
    """True when no path through stmts (a function's body, with Label and Goto markers)
    reads the scalar variable sym before a statement setting it: `sym = value` with a
    value that does not read sym."""
    graph = _Graph()
    entry = graph.chain(stmts, graph.exit, None, None)
    graph.resolve_gotos()

    def reads(node):
        return any(X.mentions(e, sym) for e in graph.exprs[node])

    def sets(node):
        st = graph.stmt[node]
        return isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and \
            st.lhs.sym is sym and not X.mentions(st.rhs, sym)

    count = len(graph.succ)
    preds = [[] for _ in range(count)]
    for n, succ in enumerate(graph.succ):
        for m in succ:
            preds[m].append(n)
    # greatest fixed point: set everywhere but at the entry, then lowered where a
    # predecessor may leave it unset
    set_in = [n != entry for n in range(count)]
    set_out = [set_in[n] or sets(n) for n in range(count)]
    work = list(range(count))
    while work:
        n = work.pop()
        now = n != entry and all(set_out[p] for p in preds[n])
        if now == set_in[n]:
            continue
        set_in[n] = now
        out = now or sets(n)
        if out != set_out[n]:
            set_out[n] = out
            work.extend(graph.succ[n])
    # (a setting statement names sym only as its target)
    return not any(reads(n) and not set_in[n] and not sets(n) for n in range(count))


class _Graph:
    """The statements of a body as a control-flow graph: one node a simple statement or a
    test, its successors, the expressions it evaluates."""

    def __init__(self):
        self.succ, self.exprs, self.stmt = [], [], []
        self.labels, self.gotos = {}, []
        self.exit = self.node(None, [])

    def node(self, st, exprs, succ=()):
        self.succ.append(list(succ))
        self.exprs.append(list(exprs))
        self.stmt.append(st)
        return len(self.succ) - 1

    def resolve_gotos(self):
        for n, name in self.gotos:
            self.succ[n] = [self.labels.get(name, self.exit)]

    def chain(self, stmts, after, brk, cont):
        """The entry node of stmts, followed by node after; brk and cont: where a break
        and a continue go."""
        for st in reversed(stmts):
            after = self.one(st, after, brk, cont)
        return after

    def one(self, st, after, brk, cont):
        if isinstance(st, ir.Block):
            return self.chain(st.stmts, after, brk, cont)
        if isinstance(st, ir.If):
            then = self.chain(st.then.stmts, after, brk, cont)
            other = self.chain(st.other.stmts, after, brk, cont) if st.other is not None \
                else after
            return self.node(st, [st.test], [then, other])
        if isinstance(st, (ir.While, ir.DoWhile)):
            test = self.node(st, [st.test] if st.test is not None else [])
            body = self.chain(st.body.stmts, test, after, test)
            self.succ[test] = [body, after]
            return test if isinstance(st, ir.While) else body
        if isinstance(st, ir.For):
            test = self.node(st, [st.test] if st.test is not None else [])
            step = self.chain(st.step, test, brk, cont)
            body = self.chain(st.body.stmts, step, after, step)
            self.succ[test] = [body, after] if st.test is not None else [body]
            return self.chain(st.init, test, brk, cont)
        if isinstance(st, ir.Break):
            return self.node(st, [], [brk if brk is not None else self.exit])
        if isinstance(st, ir.Continue):
            return self.node(st, [], [cont if cont is not None else self.exit])
        if isinstance(st, ir.Return):
            return self.node(st, [st.value] if st.value is not None else [], [self.exit])
        if isinstance(st, Label):
            self.labels[st.name] = self.node(st, [], [after])
            return self.labels[st.name]
        if isinstance(st, Goto):
            n = self.node(st, [])
            self.gotos.append((n, st.name))
            return n
        return self.node(st, ir.stmt_exprs(st), [after])
