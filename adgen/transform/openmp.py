"""OpenMP parallel loops in the derivative code.

(The adjoint of a parallel loop that adds into a sum runs its iterations in parallel as
independent_loop.py reverses them one at a time, each thread gathering adjoints in
buffers of its own: AdjointParallelLoop gives that loop's pragma.)

`#pragma omp parallel for [clauses]` before a for loop stays before its tangent: each
iteration computes its values and their tangents, so the tangent loop is as parallel as
the primal one when the tangents have the sharing of their primals. The clauses are
rewritten for that: a variable listed private, firstprivate, lastprivate or shared brings
its tangent into the same list, a sum's tangent joins its `reduction(+: ...)`, and the
variables each iteration sets for itself are made private: the scalars the loop body
assigns (adgen's own temporaries among them, which the derivative code declares at the
top of the function), the arrays declared inside the loop in the source and the
derivative code's own arrays (an argument's tangents in vector mode), with their
tangents. A loop this does not cover (another reduction of a variable with a tangent, an
OpenMP construct inside it, a collapsed nest the tangent does not keep perfect) runs
serially, with a warning that says why.
"""
import re

from adgen import ir
from adgen.analysis.call_graph import reachable
from adgen.analysis.first_access import READ, variables_first_access
from adgen.errors import AdgenError, warning_text
from adgen.ir.c_text import expr_c
from adgen.ir.openmp import omp_clauses
from adgen.ir import exprs as X
from adgen.ir.exprs import used_symbols
from adgen.transform.common import increment

_PARALLEL_FOR = re.compile(r"\s*omp\s+parallel\s+for\b(.*)$", re.S)
# a name of a clause's list, with an array section (`y[:m]`, `h[0:200]`) if it has one
_SECTION = re.compile(r"\s*([A-Za-z_]\w*)\s*(\[.*\])?\s*$", re.S)
_OMP = re.compile(r"\s*omp\b")
# clauses whose lists bring the tangents of their variables along
_LISTS = ("private", "firstprivate", "lastprivate", "shared")
# clauses passed on as written
_KEPT = ("schedule", "collapse", "num_threads", "if", "proc_bind", "default")


def exclusive_update(s, lhs, rhs):
    """The directive that keeps the derivative update `lhs = rhs` made from an exclusive
    update s (`xd = xd + ed` of `#pragma omp atomic` over `x = x + e`) exclusive too: s's;
    None when s has none. Only sums keep their derivatives' updates of the same shape
    (the tangent of `x = x * e` reads x and xd, which two updates cannot keep together):
    any other is refused."""
    if s.exclusive is None:
        return None
    if increment(lhs, rhs) is None:
        raise AdgenError(f"'#pragma {s.exclusive}' over '{expr_c(s.lhs)} = "
                         f"{expr_c(s.rhs)}', which carries derivatives: only sums (x += e, "
                         "x -= e) are supported yet", s.loc)
    return s.exclusive


class Unsupported(Exception):
    """Why a parallel loop's tangent runs serially (args: the reason)."""


def parallel_for(s):
    """The clauses' text of `#pragma omp parallel for CLAUSES`, or None."""
    if not isinstance(s, ir.Pragma):
        return None
    m = _PARALLEL_FOR.match(s.text)
    return None if m is None else m.group(1)


def written(pragma):
    """The directive as the source wrote it (`#pragma omp ...`, `!$omp parallel do ...`)."""
    return getattr(pragma, "written", None) or f"#pragma {pragma.text.strip()}"


def is_openmp(s):
    """True when s is a `#pragma omp ...`."""
    return isinstance(s, ir.Pragma) and _OMP.match(s.text) is not None


def openmp_reached(prog, stmts, nested_loops=False):
    """(directive, function) of the first `#pragma omp` among stmts (function None), or
    in the program's functions they call, directly or not, that the derivative code
    leaves out (exclusive updates are no directives of their own: it keeps them): a
    parallel loop that reaches one runs serially, as dropping an atomic or critical where
    threads run would make them race. With nested_loops, a callee's `parallel for` loops,
    which the derivative code keeps parallel or runs serially, and a nested region then
    runs on the thread that calls it, are not left out. None when there is none."""
    def left_out(st):
        return is_openmp(st) and (parallel_for(st) is None or not nested_loops)

    for st in ir.stmts_walk(stmts):
        if is_openmp(st):
            return st, None
    called = [c.func for st in ir.stmts_walk(stmts) for e in ir.stmt_exprs(st)
              for c in ir.walk(e) if isinstance(c, ir.Call) and c.func in prog.functions
              and not getattr(prog.functions[c.func], "is_library", False)]
    for name in reachable(prog, called):
        f = prog.functions[name]
        for st in ir.stmts_walk(f.body.stmts) if f.has_body else ():
            if left_out(st):
                return st, f
    return None


def openmp_reached_text(found):
    """What openmp_reached found, for a message."""
    st, f = found
    if f is None:
        return f"'{written(st)}' inside it is not supported yet"
    return f"it calls '{getattr(f, 'clone_of', f.name)}', where '{written(st)}' is not " \
        "supported yet"


def clauses(text):
    """[(name, argument text or None)] of a pragma's clauses."""
    out = omp_clauses(text)
    if out is None:
        raise Unsupported(f"cannot read the clauses '{text.strip()}'")
    return out


def _counter(loop):
    """The variable a for loop's first initialization sets (its counter), or None."""
    first = loop.init[0] if loop.init else None
    return first.lhs.sym if isinstance(first, ir.Assign) and isinstance(first.lhs, ir.Ref) \
        else None


def _names(arg):
    return [n.strip() for n in arg.split(",") if n.strip()]


class TangentParallelLoop:
    """The pragma of a parallel loop's tangent (for TangentGen)."""
    adjoint = False

    def __init__(self, gen, pragma, source_loop):
        self.g = gen
        self.pragma = pragma
        self.source = source_loop
        # (vector mode: each element's tangents are nbdirs numbers)
        self.vector = getattr(gen, "nb", None) is not None

    def pragma_for(self, loop):
        """The `#pragma omp parallel for` text for the tangent loop `loop`, or None when
        it runs serially (with a warning)."""
        try:
            return self.text(loop)
        except Unsupported as why:
            prog = self.g.prog
            prog.warnings = getattr(prog, "warnings", []) + [warning_text(
                self.pragma.loc, f"'{written(self.pragma)}': the tangent runs this loop "
                f"serially: {why.args[0]}")]
            return None

    def text(self, loop):
        g = self.g
        if loop is None:
            raise Unsupported("adgen keeps it only before a counted for loop")
        inner = openmp_reached(g.prog, self.source.body.stmts, nested_loops=True)
        if inner is not None:
            raise Unsupported(openmp_reached_text(inner))
        by_name = self.variables()
        listed, out = set(), []
        private = set()     # the variables of private, firstprivate and lastprivate
        for name, arg in clauses(parallel_for(self.pragma)):
            if name in _LISTS:
                syms = [self.named(by_name, n) for n in _names(arg)]
                listed |= {s for s in syms if s is not None}
                if name != "shared":
                    private |= {s for s in syms if s is not None}
                out.append(f"{name}({', '.join(self.with_tangents(_names(arg), syms))})")
            elif name == "reduction":
                op, _, names = arg.partition(":")
                syms = [self.named(by_name, _SECTION.match(n).group(1)
                                   if _SECTION.match(n) else n) for n in _names(names)]
                if any(_SECTION.match(n) and _SECTION.match(n).group(2) for n in _names(names)) \
                        and (self.vector or self.adjoint) and any(
                            s is not None and g.sh.has(s) for s in syms):
                    raise Unsupported(f"reduction({arg}): a section of an array with "
                                      "derivatives is supported in the tangent only yet")
                listed |= {s for s in syms if s is not None}
                if op.strip() not in ("+", "-") and any(
                        s is not None and g.sh.has(s) for s in syms):
                    raise Unsupported(f"reduction({arg}) of a variable with a tangent: only "
                                      "sums (+) are supported yet")
                # (the adjoint's iterations add into buffers of each thread's, not into
                # the sum's adjoint)
                listed_names = _names(names) if self.adjoint else \
                    self.with_tangents(_names(names), syms)
                out.append(f"reduction({op.strip()}: {', '.join(listed_names)})")
            elif name == "default" and arg.strip() == "none":
                continue    # (every variable the tangent adds is listed below)
            elif name in _KEPT:
                if name == "collapse":
                    self.check_perfect(loop, int(arg))
                out.append(f"{name}({arg})")
            else:
                raise Unsupported(f"the clause '{name}' is not supported yet")
        self.check_nothing_carried(listed)
        own = self.privates(loop, listed, private)
        if own:
            # (the adjoint's variables start at zero and each iteration leaves them so:
            # each thread's copies start as the function's, at zero)
            out.append(f"{'firstprivate' if self.adjoint else 'private'}({', '.join(own)})")
        return " ".join(["omp parallel for"] + out)

    def check_nothing_carried(self, listed):
        """A scalar that an iteration may read before it sets it carries a value from one
        iteration to the next: unless a clause says what to do with it (a reduction), the
        program's loop races on it, and the variables the tangent makes private would
        lose what it carries. Such a loop runs serially."""
        head = _counter(self.source)
        seen = set()
        for st in ir.stmts_walk(self.source.body.stmts):
            if not (isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref)) or \
                    st.exclusive is not None:
                continue        # (an exclusive update of a shared variable: no race)
            sym = st.lhs.sym
            if sym in seen or sym is head or sym in listed or \
                    sym.type.resolved().is_array:
                continue
            seen.add(sym)
            if variables_first_access(self.source.body.stmts, {sym}) == READ:
                raise Unsupported(f"an iteration may read '{sym.name}' before setting it (a "
                                  "value carried from the iteration before), and no "
                                  "reduction clause names it: the loop races on it")

    def variables(self):
        """{name: symbol} of the variables the primal loop names."""
        return {s.name: s for s in used_symbols([self.source])}

    def named(self, by_name, name):
        sym = by_name.get(name)
        if sym is None:
            for s in list(self.g.f.locals) + list(self.g.f.params) + list(self.g.prog.globals):
                if s.name == name:
                    return s
        return sym

    def with_tangents(self, names, syms):
        out = []
        for name, sym in zip(names, syms):
            out.append(name)
            shadow = None if self.adjoint else self.tangent_name(sym)
            if shadow is not None:
                section = _SECTION.match(name)
                # (an array section `y[:m]`: the same section of the tangent)
                out.append(shadow + (section.group(2) or "" if section else ""))
        return out

    def tangent_name(self, sym):
        """The name of sym's tangent variable, or None when it has none (or it is no
        variable: a tangent reached through a pointer)."""
        if sym is None or not self.g.sh.has(sym):
            return None
        e = self.g.sh.of_sym(sym)
        return e.sym.name if isinstance(e, ir.Ref) else None

    def privates(self, loop, listed, private=frozenset()):
        """The names of the variables each iteration of the tangent loop sets for itself:
        scalars it assigns (as a whole or through their address given to a call), arrays
        declared inside the loop in the source, the tangents of both; in the adjoint, the
        adjoints of the arrays the clauses make private too (each thread's, at zero)."""
        g = self.g
        counter = _counter(loop)
        params = set(g.f.params) | set(getattr(g, "out_params", ()))
        mark = getattr(self.source, "source_scope", None)
        source_locals = set(g.f.locals)
        found = []
        for st in ir.stmts_walk([loop]):
            targets = []
            if isinstance(st, ir.Assign) and st.exclusive is None:
                targets.append(st.lhs)      # (an exclusive update's variable is shared)
            if isinstance(st, ir.Pop):
                targets.append(st.target)   # (a value taken back, a branch's flag)
            for e in ir.stmt_exprs(st):
                for x in ir.walk(e):
                    if isinstance(x, ir.AddrOf):
                        targets.append(x.arg)
                    if isinstance(x, ir.Call):
                        targets += [a for a in x.args
                                    if isinstance(a, ir.Ref) and a.sym.type is not None and
                                    a.sym.type.resolved().is_array]
            for t in targets:
                base = t
                while isinstance(base, (ir.Index, ir.Member)):
                    base = base.base
                if not isinstance(base, ir.Ref):
                    continue
                sym = base.sym
                if sym.kind == "global" or sym in params or sym.kind == "param":
                    continue
                if sym.type.resolved().is_array:
                    # the program's arrays declared in the loop, and the derivative code's
                    # own (an argument's tangents: each statement fills them anew)
                    primal = getattr(sym, "primal", sym)
                    if primal in source_locals and (
                            mark is None or mark not in getattr(primal, "loop_scopes", ())) \
                            and not (self.adjoint and primal is not sym and primal in private):
                        continue
                elif base is not t:
                    continue        # an element of a struct or an array held elsewhere
                if sym is counter or sym in listed or (
                        not self.adjoint and getattr(sym, "primal", None) in listed):
                    continue
                if sym not in found:
                    found.append(sym)
        for sym in list(found):
            name = self.tangent_name(sym)
            shadow = g.sh.of_sym(sym) if name is not None else None
            if shadow is not None and shadow.sym not in found:
                found.append(shadow.sym)
        return sorted({s.name for s in found})

    def check_perfect(self, loop, depth):
        """collapse(depth) needs depth perfectly nested loops in the tangent too."""
        at = loop
        for _ in range(depth - 1):
            body = [st for st in at.body.stmts if not isinstance(st, ir.Comment)]
            if len(body) != 1 or not isinstance(body[0], ir.For):
                raise Unsupported(f"collapse({depth}): the tangent does not keep the loops "
                                  "perfectly nested")
            at = body[0]


class AdjointParallelLoop(TangentParallelLoop):
    """The pragma of the loop that runs a parallel loop's iterations, each recorded and
    at once reversed, in the adjoint's forward sweep (independent_loop.py): its clauses
    as the program wrote them, and firstprivate what each iteration sets for itself
    (adjoints, which each thread's copy must start at zero as the function's do, and the
    pointers to its thread's buffers among them)."""
    adjoint = True


class ThreadParts:
    """Buffers of adjoints with one part per thread, for a parallel loop of the adjoint
    whose iterations add into the same adjoints: each thread adds into its own part, and
    after the loop the parts of the other threads are added to the first in the order of
    the threads, so that with a static schedule every run gives the same sums. A buffer
    holds count elements per thread (the adjoint of a number: one)."""

    def __init__(self, gen, loc):
        self.g = gen
        self.loc = loc
        self.threads = gen.temp("threads", ir.INT)

    def counted(self):
        """`threads = adgen_threads();`, before the buffers are allocated."""
        return ir.Assign(ir.Ref(self.threads), ir.Call("adgen_threads", [], ir.INT),
                         self.loc)

    def allocated(self, buf, count):
        """The buffer buf allocated, zeroed, for every thread's part."""
        total = X.mul(ir.Cast(ir.SIZE_T, ir.Ref(self.threads)), X.clone(count))
        return ir.Raw("scratch_alloc", {"target": ir.Ref(buf), "type": buf.type,
                                        "count": total}, self.loc)

    def this_thread(self, part, buf, count):
        """`part = buf + thread * count`, at the start of each iteration."""
        thread = ir.Cast(ir.SIZE_T, ir.Call("adgen_thread", [], ir.INT))
        return ir.Assign(ir.Ref(part), ir.Binary(
            "+", ir.Ref(buf), X.mul(thread, X.clone(count)), buf.type), self.loc)

    def added_up(self, buffers):
        """After the loop, each buffer's parts of the other threads added to the first, in
        the order of the threads (buffers: [(buffer, count)])."""
        g, loc, R = self.g, self.loc, ir.Ref
        t, k = g.temp("thread", ir.INT), g.temp("k", ir.SIZE_T)
        one = ir.Const("1", ir.INT)
        out = []
        for buf, count in buffers:
            elem = ir.pointee(buf.type)
            at = ir.Index(R(buf), R(k), elem)
            other = ir.Index(R(buf), X.add(X.mul(ir.Cast(ir.SIZE_T, R(t)), X.clone(count)),
                                           R(k)), elem)
            add = ir.Assign(X.clone(at), X.add(X.clone(at), other), loc)
            inner = ir.For([ir.Assign(R(k), ir.Const("0", ir.INT))],
                           ir.Binary("<", R(k), ir.Cast(ir.SIZE_T, X.clone(count)), ir.INT),
                           [ir.Assign(R(k), X.add(R(k), one))], ir.Block([add]), loc)
            out.append(ir.For([ir.Assign(R(t), one)],
                              ir.Binary("<", R(t), R(self.threads), ir.INT),
                              [ir.Assign(R(t), X.add(R(t), one))], ir.Block([inner]), loc))
        return out
