"""How many elements of a pointer parameter a function touches.

Needed wherever adgen must handle a whole array it did not allocate: zeroing the gradient
of a pure input, giving an internal buffer its own adjoint storage. The answer is a C
expression over the function's integer parameters (and the global integers it leaves as
they are: fixed_globals), found by interval arithmetic on every
index used with the pointer (directly, through an alias `q = p + k` or a local pointer
walking over it (pointer_walks), or in a callee it is passed to), with the ranges of the
enclosing counted loops. The pointer is a parameter, or a pointer field a parameter
reaches (`m->x` of `Mesh *m`: a path of field names).
Integer parameters are taken to be non-negative (they are sizes). When an index escapes
this reasoning the analysis says so, and the caller reports an error rather than guess.
"""
import functools
import re

from adgen import ir
from adgen.analysis.clamps import (FLIP, UPPER, clamped_setting, enclosing_list,
                                   float_bounds)
from adgen.analysis.fixed_globals import FixedGlobals
from adgen.analysis.kept_intervals import kept_interval
from adgen.analysis.pointer_walks import Lost, Walks, highest, walking_aliases
from adgen.analysis.poly import NotPolynomial, Poly, nonneg_within, range_sum
from adgen.analysis.ruled_calls import rule_length
from adgen.ir import exprs as X


class Unknown(Exception):
    """The extent cannot be derived; the message says why."""


def _is_nonneg_const(e):
    return isinstance(e, ir.Const) and e.text.rstrip("uUlL").isdigit()


class Interval:
    __slots__ = ("lo", "hi", "nonneg")

    def __init__(self, lo, hi, nonneg):
        self.lo, self.hi, self.nonneg = lo, hi, nonneg


def int_const(v):
    return ir.Const(str(v), ir.INT)


def const_value(e):
    if isinstance(e, ir.Const):
        t = e.text.rstrip("uUlL")
        if t.lstrip("-").isdigit():
            return int(t)
    if isinstance(e, ir.Unary) and e.op == "-":
        v = const_value(e.arg)
        return -v if v is not None else None
    return None


def add_ints(a, b):
    va, vb = const_value(a), const_value(b)
    if vb is not None and isinstance(a, ir.Binary) and a.op in "+-":
        inner = const_value(a.right)
        if inner is not None:
            return add_ints(a.left, int_const(vb + (inner if a.op == "+" else -inner)))
    if va is not None and vb is not None:
        return int_const(va + vb)
    if va == 0:
        return b
    if vb == 0:
        return a
    if vb is not None and vb < 0:
        return ir.Binary("-", a, int_const(-vb), ir.LONG)
    return ir.Binary("+", a, b, ir.LONG)


def _sub(a, b):
    vb = const_value(b)
    if vb is not None:
        return add_ints(a, int_const(-vb))
    return ir.Binary("-", a, b, ir.LONG)


def _mul(a, b):
    va, vb = const_value(a), const_value(b)
    if va is not None and vb is not None:
        return int_const(va * vb)
    if va == 1:
        return b
    if vb == 1:
        return a
    if va == 0 or vb == 0:
        return int_const(0)
    return ir.Binary("*", a, b, ir.LONG)


class ExtentAnalysis:
    def __init__(self, prog):
        self.prog = prog
        self.cache = {}
        self.readonly = {}      # function name -> its read-only integer pointer parameters
        self.readonly_known = {}    # the same by function, shared by its questions
        self.fixed_globals = FixedGlobals(prog)

    def readonly_ints(self, func):
        """loops.readonly_int_params of func, read once (as the extents are)."""
        if func.name not in self.readonly:
            from adgen.analysis.loops import readonly_int_params
            self.readonly[func.name] = readonly_int_params(func, self.prog.functions,
                                                           self.readonly_known)
        return self.readonly[func.name]

    def max_index(self, func, param, path=(), anywhere=False):
        """Largest index of param (or of its field reached by the field names of path) used
        in func, as an IR expression over func's params. anywhere: also the indices used
        only under a condition (the largest the code may use, not one it surely uses)."""
        key = (func.name, param.name, path, anywhere)
        if key in self.cache:
            if self.cache[key] is None:
                raise Unknown(f"'{field_path_text(param, path)}' is used recursively")
            if isinstance(self.cache[key], Unknown):
                raise self.cache[key]       # the reason found the first time
            return self.cache[key]
        self.cache[key] = None
        try:
            w = IndexWalker(self, func, param, path, anywhere)
            w.block(w.body, {})
            w.settle_guarded()
        except Unknown as exc:
            self.cache[key] = exc
            raise
        maxima = w.maxima if w.walks is None else w.undominated()
        result = _maximum(maxima)
        self.cache[key] = result
        return result


def _maximum(maxima):
    """The largest of the index expressions maxima (-1 for none): one adgen_imax over the
    distinct ones, nested maxima (a callee's extent) flattened and the constants reduced to
    their largest, so that an extent passed down a chain of calls does not grow."""
    from adgen.ir.c_text import expr_c
    largest = {}        # text of a term's variable part -> (the term, its constant offset)
    const = None
    pending = list(maxima)
    while pending:
        m = pending.pop(0)
        if isinstance(m, ir.Call) and m.func == "adgen_imax":
            pending[:0] = m.args
            continue
        c = const_value(m)
        if c is not None:
            const = c if const is None else max(const, c)
            continue
        base, offset = _offset(m)
        text = expr_c(base)
        if text not in largest or offset > largest[text][1]:
            # of `n - 1` and `n - 2` only the larger counts
            largest[text] = (m, offset)
    terms = [m for m, _ in largest.values()]
    if const is not None:
        terms.append(int_const(const))
    if not terms:
        return int_const(-1)
    result = terms[0]
    for m in terms[1:]:
        result = ir.Call("adgen_imax", [result, m], ir.LONG)
    return result


def _least(a, b):
    """The smaller of integer expressions a and b."""
    va, vb = const_value(a), const_value(b)
    if va is not None and vb is not None:
        return int_const(min(va, vb))
    return ir.Cond(ir.Binary("<=", X.clone(a), X.clone(b), ir.INT), a, b, ir.LONG)


def _offset(e):
    """(rest, c) with e = rest + c for a constant c (0 when e adds none)."""
    if isinstance(e, ir.Binary) and e.op in "+-":
        c = const_value(e.right)
        if c is not None:
            return e.left, c if e.op == "+" else -c
    return e, 0


def member_path(e):
    """(symbol, field names) when e is a variable or a chain of its fields (`m`, `m->x`,
    `m->g->x`, `(*m).x`, `s.inner.x`), else None."""
    names = []
    while isinstance(e, ir.Member):
        names.append(e.field)
        e = e.base
        if isinstance(e, ir.Deref):
            e = e.ptr
    if isinstance(e, ir.Ref):
        return e.sym, tuple(reversed(names))
    return None


def field_path_text(param, path):
    """The field as the input names it: `m->x`, `v.a`, in Fortran `m%x`."""
    if not path:
        return ir.source_name(param)
    if hasattr(param, "fortran_array"):         # a Fortran dummy
        names = path[:-1] if path[-1] == "base_addr" else path
        return "%".join((ir.source_name(param),) + names)
    from adgen.ir.c_text import expr_c
    return expr_c(field_expr(ir.Ref(param), path))


def field_expr(base, path):
    """The field of struct (or pointer to struct) expression base that the field names of
    path lead to: `m->g->x` for base `m` and path (g, x)."""
    e = base
    for name in path:
        r = e.type.resolved()
        arrow = isinstance(r, ir.Ptr)
        sdef = (r.target.resolved() if arrow else r).sdef
        e = ir.Member(e, name, arrow, sdef.field_type(name))
    return e


def through_pointer(e):
    """Whether field expression e (see field_expr) reaches its field through a pointer:
    memory the caller sees, not a copy made for the call."""
    while isinstance(e, ir.Member):
        if e.arrow:
            return True
        e = e.base
    return isinstance(e, ir.Deref)


def descriptor_rank(param, path):
    """The rank of the gfortran array descriptor whose data pointer path leads to (a
    Fortran allocatable component: `m->x.base_addr`), else None."""
    if not path or path[-1] != "base_addr":
        return None
    holder = path_type(param, path[:-1]).resolved()
    holder = holder.target.resolved() if holder.is_pointer else holder
    return getattr(getattr(holder, "sdef", None), "descriptor_rank", None)


def path_type(param, path):
    """The type of the field of param that path names (param's own type for no path)."""
    return field_expr(ir.Ref(param), path).type


def _same_pointee(a, b):
    """True when pointer types a and b index elements of the same type."""
    from adgen.ir.c_text import type_name
    pa, pb = ir.pointee(a), ir.pointee(b)
    if pa is None or pb is None:
        return False
    return type_name(ir.with_const(pa.resolved(), False)) == \
        type_name(ir.with_const(pb.resolved(), False))


def normal_test(t, var, stride=None):
    """(op, c, bound) for a loop test `var + c OP bound` (also written `bound OP var`). With
    the loop's stride, a constant 1 or -1, `var != bound` is `var < bound` or `var > bound`
    (`for (i = 0; i != n; ++i)`: the counter reaches the bound, it does not step over it)."""
    if not isinstance(t, ir.Binary):
        return None
    if t.op == "!=" and const_value(stride) in (1, -1):
        t = ir.Binary("<" if const_value(stride) == 1 else ">", t.left, t.right, t.type)
    if t.op not in FLIP:
        return None
    for left, right, op in ((t.left, t.right, t.op), (t.right, t.left, FLIP[t.op])):
        if isinstance(left, ir.Ref) and left.sym is var:
            return op, 0, right
        if isinstance(left, ir.Binary) and left.op in "+-" and isinstance(left.left, ir.Ref) \
                and left.left.sym is var and const_value(left.right) is not None:
            c = const_value(left.right)
            return op, (c if left.op == "+" else -c), right
    return None


def bounds_guard(test, flags=frozenset()):
    """True when a condition may be protecting an index bound: it compares integers held
    in variables (`i + 1 < n`), or tests one for truth (`if (periodic)`: the caller may
    pass a shorter array when it is 0). A guard on data (`x[i] > 0`, `mask[i]`) or on the
    flags that replace break, return and goto does not limit which indices are valid, but
    for the flags in `flags`, set only under such a guard (guard_flags)."""
    for sub in ir.walk(test):
        if isinstance(sub, ir.Binary) and sub.op in ir.COMPARISONS:
            sides = (sub.left, sub.right)
            if all(_plain_int(x, flags) for x in sides) and \
                    any(isinstance(r, ir.Ref) for x in sides for r in ir.walk(x)):
                return True
    return any(_plain_int(t, flags) and any(isinstance(r, ir.Ref) for r in ir.walk(t))
               for t in _truth_operands(test))


def _leaves_under_guard(s, flags, varying):
    """True when statement s may leave the block it is in (break, continue, return) under
    a varying guard (_guards)."""
    if not isinstance(s, ir.If):
        return False
    jumps = []
    _paths_to([s], [], jumps, lambda x: isinstance(x, (ir.Break, ir.Continue, ir.Return)),
              lambda x: isinstance(x, ir.Return))
    return any(_guards(tests, flags, varying) for _, tests in jumps)


def _guards(tests, flags, varying):
    """Whether the if tests around a statement (tests) keep indices after an exit there
    inside the array: each may protect an index bound (bounds_guard; a test on data makes
    the exit one on data), and one reads a variable that varies from one iteration of a
    loop to the next (varying_ints: `ii >= h` of `ii = i + di`, `i + 1 >= n` of a loop
    counter). An exit on sizes (`if (n < 2) return;`) or on a status set once
    (`if (factor(n, a)) return;`) guards nothing the loops after it do not bound
    themselves: their ranges come from the same sizes."""
    return all(bounds_guard(t, flags) for t in tests) and any(
        isinstance(r, ir.Ref) and r.sym in varying for t in tests for r in ir.walk(t))


def _outermost_loops(stmts):
    """The loops of stmts that no loop of stmts holds."""
    for s in stmts:
        if isinstance(s, (ir.For, ir.While, ir.DoWhile)):
            yield s
        elif isinstance(s, ir.COMPOUND):
            yield from _outermost_loops(ir.statements_inside(s))


def varying_ints(stmts):
    """The variables set in a loop of stmts (its counter too), and those set from them."""
    found = set()
    for s in _outermost_loops(stmts):       # (the loops inside them set nothing more)
        inner = (s.init + s.step if isinstance(s, ir.For) else []) + s.body.stmts
        found |= {x.lhs.sym for x in ir.stmts_walk(inner)
                  if isinstance(x, ir.Assign) and isinstance(x.lhs, ir.Ref)}
    sets = [x for x in ir.stmts_walk(stmts)
            if isinstance(x, ir.Assign) and isinstance(x.lhs, ir.Ref)]
    grew = True
    while grew:
        grew = False
        for x in sets:
            if x.lhs.sym not in found and any(isinstance(r, ir.Ref) and r.sym in found
                                              for r in ir.walk(x.rhs)):
                found.add(x.lhs.sym)
                grew = True
    return found


def _paths_to(stmts, tests, found, pick, in_loops):
    """Appends to found (statement, the if tests around it) for each statement of stmts
    that pick takes; inside a loop, only those that in_loops takes too."""
    for s in stmts:
        if pick(s):
            found.append((s, tests))
        elif isinstance(s, ir.If):
            _paths_to(s.then.stmts, tests + [s.test], found, pick, in_loops)
            if s.other:
                _paths_to(s.other.stmts, tests + [s.test], found, pick, in_loops)
        elif isinstance(s, ir.Block):
            _paths_to(s.stmts, tests, found, pick, in_loops)
        elif isinstance(s, (ir.For, ir.While, ir.DoWhile)):
            inner = (s.init + s.step if isinstance(s, ir.For) else []) + s.body.stmts
            _paths_to(inner, tests, found, lambda x: pick(x) and in_loops(x), in_loops)


def guard_flags(stmts, varying):
    """The flags of goto, break and return (is_flag) in stmts that are set to anything but
    0 only under a varying guard (_guards: `if (i + 1 >= n) goto L10;` lowered to
    `if (i + 1 >= n) goto_L10 = 1;`): a test of such a flag guards as the condition
    does. (varying: varying_ints of the function.)"""
    sets = []
    _paths_to(stmts, [], sets, lambda x: isinstance(x, ir.Assign) and
              isinstance(x.lhs, ir.Ref) and getattr(x.lhs.sym, "is_flag", False),
              lambda x: True)
    known = frozenset()
    while True:     # a flag set under a test of another such flag is one too
        bad = {st.lhs.sym for st, tests in sets
               if const_value(st.rhs) != 0 and not _guards(tests, known, varying)}
        now = frozenset(st.lhs.sym for st, _ in sets) - bad
        if now == known:
            return known
        known = now


def _guarded_operands(e, flags):
    """(the guard, [the operands evaluated only as it decides]) of a conditional
    expression or a && / || whose condition may protect an index bound; (None, None) for
    any other expression."""
    if isinstance(e, ir.Cond) and bounds_guard(e.test, flags):
        return e.test, [e.then, e.other]
    if isinstance(e, ir.Binary) and e.op in ("&&", "||") and bounds_guard(e.left, flags):
        return e.left, [e.right]
    return None, None


def _truth_operands(test):
    """The operands of a condition that are tested for truth as they are: the condition
    itself, or the operands of its `!`, `&&` and `||`."""
    if isinstance(test, ir.Unary) and test.op == "!":
        return _truth_operands(test.arg)
    if isinstance(test, ir.Binary) and test.op in ("&&", "||"):
        return _truth_operands(test.left) + _truth_operands(test.right)
    if isinstance(test, ir.Binary) and test.op in ir.COMPARISONS:
        return []
    return [test]


def _plain_int(e, flags=frozenset()):
    """An integer expression of variables, constants and integers held at a fixed place
    (`c->n`, `*n`, `g.dims[0]`: a size kept in a struct or passed by reference), reading
    no array at an index that varies and calling nothing (nor a flag of break, return or
    goto, but for those in flags)."""
    if not e.type.resolved().is_int:
        return False
    for sub in ir.walk(e):
        if isinstance(sub, ir.Call) or \
                isinstance(sub, ir.Index) and const_value(sub.index) is None:
            return False
        if isinstance(sub, ir.Ref) and getattr(sub.sym, "is_flag", False) and \
                sub.sym not in flags:
            return False
    return True


def _is_unit_increment(s, sym):
    r = s.rhs
    if not (isinstance(r, ir.Binary) and r.op == "+"):
        return False
    sides = (r.left, r.right)
    return any(isinstance(a, ir.Ref) and a.sym is sym for a in sides) and \
        any(const_value(a) == 1 for a in sides)


def _contains(stmt, target):
    return any(s is target for s in ir.stmts_walk([stmt]))


def _bound_definitions(stmts, func, out):
    """Loop bounds held in a variable set several times, as f2c sets `i__1 = *n;` before
    each loop it bounds: for each counted loop of stmts whose test reads such a variable,
    out[id(loop)] maps the id of the test's operand (normal_test) to the value the
    assignment just before the loop gave it, where that value still holds: nothing between
    them, nor the loop, sets the variable or one the value reads."""
    for k, s in enumerate(stmts):
        if isinstance(s, ir.For):
            _bound_definition(stmts[:k], s, func, out)
        for body in ir.nested_lists(s):
            _bound_definitions(body, func, out)


def _bound_definition(before, loop, func, out):
    from adgen.analysis.loops import canonical_loop
    canon = canonical_loop(loop, func)
    cmp = normal_test(loop.test, canon[0], canon[1]) if canon is not None else None
    if cmp is None or not isinstance(cmp[2], ir.Ref) or cmp[2].sym.kind not in ("local",
                                                                                  "temp"):
        return
    sym = cmp[2].sym
    for k in range(len(before) - 1, -1, -1):
        st = before[k]
        value = _value_set(st, sym)
        if value is not None:
            reads = {r.sym for r in ir.walk(value) if isinstance(r, ir.Ref)}
            later = _assigned_in(before[k + 1:] + [loop])
            # (what an if's branches set besides sym, its test and values must not read)
            inside = _assigned_in([st]) - {sym} if isinstance(st, ir.If) else set()
            if sym not in later and sym not in reads and not reads & (later | inside) and \
                    not any(isinstance(e, ir.Call) for e in ir.walk(value)):
                out.setdefault(id(loop), {})[id(cmp[2])] = value
            return
        if sym in _assigned_in([st]):
            return


def _value_set(st, sym):
    """The value statement st leaves in sym, where st sets it as a whole: `sym = v;` (v),
    or an if whose branches each end up setting it once, at their top (`if (p) nb = n;
    else nb = n - 1;`: `p ? n : n - 1`); None for another statement."""
    if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and st.lhs.sym is sym:
        return st.rhs
    if not isinstance(st, ir.If) or st.other is None:
        return None
    values = []
    for branch in (st.then.stmts, st.other.stmts):
        sets = [x for x in ir.stmts_walk(branch) if isinstance(x, ir.Assign) and
                isinstance(x.lhs, ir.Ref) and x.lhs.sym is sym]
        if len(sets) != 1 or not any(x is sets[0] for x in branch) or \
                sym in _assigned_in([x for x in branch if x is not sets[0]]):
            return None
        values.append(sets[0].rhs)
    return ir.Cond(st.test, values[0], values[1], sym.type)


def _assigned_in(stmts):
    """The variables assigned in stmts (as a whole, or through their address: any whose
    address is taken)."""
    found = set()
    for s in ir.stmts_walk(stmts):
        if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref):
            found.add(s.lhs.sym)
        for e in ir.stmt_exprs(s):
            found |= {a.arg.sym for a in ir.walk(e)
                      if isinstance(a, ir.AddrOf) and isinstance(a.arg, ir.Ref)}
    return found


def _constant_global(sym):
    """The value of a `const` integer global initialized with an integer literal (`static
    const int NPTS = 64;`), or None."""
    t = sym.type
    if sym.kind != "global" or not t.resolved().is_int or not getattr(t, "const", False):
        return None
    m = re.fullmatch(r"\s*\(?\s*([+-]?(?:0[xX][0-9a-fA-F]+|\d+))[uUlL]*\s*\)?\s*",
                     sym.init_text or "")
    return int(m.group(1), 0) if m and not re.fullmatch(r"[+-]?0\d+", m.group(1)) else None


def _walked_code(func, body):
    """(variables assigned, varying_ints, guard_flags, the bound definitions, the
    assignments of pointers) of a function's body, for IndexWalker."""
    assigned = frozenset(s.lhs.sym for s in ir.stmts_walk(body)
                         if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref))
    varying = frozenset(varying_ints(body))
    bound_defs = {}
    _bound_definitions(body, func, bound_defs)
    ptr_assigns = tuple(s for s in ir.stmts_walk(body)
                        if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref) and
                        s.lhs.type.resolved().is_pointer)
    return assigned, varying, guard_flags(body, varying), bound_defs, ptr_assigns


class IndexWalker:
    """Collects the maximal index of every access to one pointer parameter."""

    def __init__(self, an, func, param, path=(), anywhere=False):
        self.an = an
        self.func = func
        self.param = param
        self.path = path
        self.anywhere = anywhere
        if param is not None:
            self.name = field_path_text(param, path)         # for messages
            self.root_type = path_type(param, path)     # the pointer's type
        self.maxima = []
        self.guarded_maxima = []    # the bounds indices under a guard reach (check_guarded)
        # the loops as written (before break and return became flags)
        self.body = getattr(func, "written_body", func.body).stmts
        # what the code alone tells, read once per function while the bodies are fixed
        # (a walker is made per parameter, per function of each pass of the transform)
        from adgen.analysis.loops import kept_while_fixed
        self.assigned, self.varying, self.guard_flags, self.bound_defs, ptr_assigns = \
            kept_while_fixed("walked", (func,), None, lambda: _walked_code(func, self.body))
        if param in self.assigned:
            raise Unknown(f"'{param.name}' is reassigned inside '{func.name}'")
        # copies of a struct param (holding the pointer sought) made field by field into
        # local structs: a struct passed by value that the function changes is copied at
        # entry (normalize.copy_changed_struct_params); the copy leads where param does
        self.roots, self.copies = {param}, set()
        for s in ir.stmts_walk(self.body):
            lm = member_path(s.lhs) if path and isinstance(s, ir.Assign) else None
            rm = member_path(s.rhs) if lm is not None else None
            if rm is not None and rm[0] is param and lm[0].kind == "local" and \
                    lm[1] == rm[1] and path[:len(rm[1])] == rm[1] and \
                    lm[0].type.resolved() == param.type.resolved():
                self.roots.add(lm[0])
                self.copies.add(id(s))
        for s in ir.stmts_walk(self.body):
            mp = member_path(s.lhs) if isinstance(s, ir.Assign) else None
            if path and mp is not None and mp[0] in self.roots and \
                    path[:len(mp[1])] == mp[1] and id(s) not in self.copies:
                raise Unknown(f"'{self.name}' is reassigned inside '{func.name}'")
        self.sites = {}
        self._kernel_inputs = None
        self.counter_cache = {}
        self.resolving = set()
        self.local_cache = {}
        self.assignments = None     # variable -> its assignments (assignments_of)
        self.aliases = {}
        self.moving, self.moved_cache = {}, {}
        self._record_sites(self.body, {}, False)
        self.local_cache = {}
        # aliases: local pointers assigned `param + offset` (or another alias + offset)
        self.aliases = {}
        changed = param is not None     # (without a parameter: only the arithmetic)
        while changed:
            changed = False
            for s in ptr_assigns:
                if s.lhs.sym in self.aliases and s in self.aliases[s.lhs.sym]:
                    continue
                if self._based(s.rhs):
                    self.aliases.setdefault(s.lhs.sym, []).append(s)
                    changed = True
        # aliases that walk over the array (`p = p + n` in a loop) and those set from them
        # have an offset of their own at each point: followed statement by statement
        self.walks, self.state, self.loops = None, {}, []
        # the counted loops around the statement walked, their bounds polynomials in the
        # counters of the loops outside them (None: a loop whose bounds are not)
        self.counted = []
        walking = walking_aliases(self.aliases, {
            sym for sym, sets in self.aliases.items()
            if any(X.mentions(a.rhs, sym) for a in sets) and self._moved_once(sym)})
        if walking:
            self.walks = Walks(self, walking,
                               functools.partial(bounds_guard, flags=self.guard_flags))
            self.state = self.walks.initial()

    def _moved_once(self, sym):
        """True when alias sym is set and moved at the top of the body only (see
        moved_alias_offset)."""
        try:
            return self.moved_alias_offset(sym) is not None
        except Unknown:
            return False

    def _record_sites(self, stmts, ranges, guarded):
        """The loop ranges (and whether under a condition) at every assignment."""
        for s in stmts:
            if isinstance(s, ir.Assign):
                self.sites[id(s)] = (ranges, guarded)
            elif isinstance(s, ir.For):
                for x in s.init + s.step:
                    self.sites[id(x)] = (ranges, guarded)
                inner = dict(ranges)
                r = self.loop_range(s, ranges)
                if r is not None:
                    inner[r[0]] = r[1]
                self._record_sites(s.body.stmts, inner, guarded)
            elif isinstance(s, ir.Block):
                self._record_sites(s.stmts, ranges, guarded)
            elif isinstance(s, ir.If):
                g = guarded or bounds_guard(s.test, self.guard_flags)
                self._record_sites(s.then.stmts, ranges, g)
                if s.other:
                    self._record_sites(s.other.stmts, ranges, g)
            elif isinstance(s, (ir.While, ir.DoWhile)):
                self._record_sites(s.body.stmts, ranges, True)

    def local_interval(self, sym):
        """Range of an integer local assigned exactly once, not under a condition, or set
        so and then clamped (clamped_interval)."""
        if sym in self.local_cache:
            return self.local_cache[sym]
        self.local_cache[sym] = None
        from adgen.analysis.loops import address_taken
        assigns = self.assignments_of(sym)
        result = None
        if sym in address_taken(self.func, self.kernel_inputs()):
            pass
        elif self.settled(sym, assigns):
            site = self.sites[id(assigns[0])]
            result = self.interval(assigns[0].rhs, site[0])
        else:
            result = self.clamped_interval(sym) if len(assigns) > 1 else None
            result = result or self.kept_interval(sym)
        self.local_cache[sym] = result
        return result

    def assignments_of(self, sym):
        """The assignments to variable sym in the body."""
        if self.assignments is None:
            self.assignments = {}
            for s in ir.stmts_walk(self.body):
                if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref):
                    self.assignments.setdefault(s.lhs.sym, []).append(s)
        return self.assignments.get(sym, [])

    def settled(self, sym, assigns):
        """Whether integer local sym is assigned once (assigns), not under a condition."""
        site = self.sites.get(id(assigns[0])) if len(assigns) == 1 else None
        return site is not None and not site[1]

    def kept_interval(self, sym):
        """Range of an integer local that the assignments of its group keep in the interval
        spanned by the values of those that read none of the group (kept_intervals): a
        binary search's lo, hi and mid."""
        from adgen.analysis.loops import address_taken
        taken = address_taken(self.func, self.kernel_inputs())

        def joins(st, var):     # (a loop's counter has its range where it is read)
            return var.kind in ("local", "temp") and var.type.resolved().is_int and \
                var not in taken and var not in self.sites[id(st)][0] and \
                not self.settled(var, self.assignments_of(var))

        def bounds(st, e):
            iv = self.interval(e, self.sites[id(st)][0])
            if iv is None:
                raise NotPolynomial
            return self.to_poly(iv.lo, []), self.to_poly(iv.hi, [])

        found = None if sym in taken else kept_interval(
            sym, self.assignments_of, joins, lambda st: id(st) in self.sites,
            lambda st: self.interval(st.rhs, self.sites[id(st)][0]), bounds)
        return Interval(*found) if found is not None else None

    def clamped_interval(self, sym):
        """Range of an integer local set once, not under a condition, then clamped
        (clamps.clamped_setting): each clamp bounds it from its side whatever it was,
        `if (j > n - 2) j = n - 2;` from above by n - 2, and leaves the other side of the
        range at most where it was or at the bound."""
        found = clamped_setting(self.body, sym)
        site = self.sites.get(id(found[0])) if found is not None else None
        if site is None or site[1]:
            return None
        first = self.interval(found[0].rhs, site[0])
        lo, hi = (first.lo, first.hi) if first is not None else (None, None)
        nonneg = first is not None and first.nonneg
        for side, bound, st in found[1]:
            b = self.interval(bound, self.sites[id(st)][0])
            if b is None:
                return None
            if side == UPPER:       # min(value, bound)
                lo = None if lo is None else _least(lo, b.lo)
                hi, nonneg = b.hi, nonneg and b.nonneg
            else:                   # max(value, bound)
                hi = None if hi is None else ir.Call("adgen_imax", [hi, b.hi], ir.LONG)
                lo, nonneg = b.lo, nonneg or b.nonneg
        return Interval(lo, hi, nonneg) if lo is not None and hi is not None else None

    def kernel_inputs(self):
        """The ids of `&v` arguments that a BLAS kernel of adgen's built-in rules takes as
        an input (`ddot_(&n, x, &one, ...)`): the kernel reads v and leaves it. Found once
        per walker."""
        if self._kernel_inputs is not None:
            return self._kernel_inputs
        out = self._kernel_inputs = set()
        for s in ir.stmts_walk(self.func.body.stmts):      # as address_taken walks it
            for e in ir.stmt_exprs(s):
                for c in ir.walk(e):
                    g = self.an.prog.functions.get(c.func) if isinstance(c, ir.Call) else None
                    rule = getattr(g, "user_rule", None)
                    if rule is None or not rule.builtin:
                        continue
                    out |= {id(a) for p, a in zip(g.params, c.args)
                            if isinstance(a, ir.AddrOf) and p.name not in rule.dep}
        return out

    def counter_interval(self, sym):
        """Range of a counter `c = start; for ... for ... { ...; c = c + 1; }`: set once
        just before a nest of counted loops with unit strides and stepped once at the end of
        the innermost body (packed triangular storage, `ltri[c]`), and read only inside that
        body. There it runs over [start, start + N - 1], N the number of innermost
        iterations, summed over the nest in closed form."""
        if sym in self.counter_cache:
            return self.counter_cache[sym]
        self.counter_cache[sym] = None
        result = None
        try:
            result = self._counter_interval(sym)
        except NotPolynomial:
            pass
        self.counter_cache[sym] = result
        return result

    def _counter_interval(self, sym):
        from adgen.analysis.loops import address_taken
        if sym in address_taken(self.func):
            raise NotPolynomial
        assigns = [s for s in ir.stmts_walk(self.body)
                   if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref) and
                   s.lhs.sym is sym]
        incs = [s for s in assigns if _is_unit_increment(s, sym)]
        inits = [s for s in assigns if s not in incs]
        if len(incs) != 1 or len(inits) != 1:
            raise NotPolynomial
        init, inc = inits[0], incs[0]
        block = enclosing_list(self.body, init)
        if block is None or any(isinstance(r, ir.Ref) and r.sym is sym
                                for r in ir.walk(init.rhs)):
            raise NotPolynomial
        # the loop chain from the statement after init down to the increment
        k = next(i for i, s in enumerate(block) if s is init)
        chain = []
        node = next((s for s in block[k + 1:] if _contains(s, inc)), None)
        while isinstance(node, ir.For):
            chain.append(node)
            body = node.body.stmts
            if body and body[-1] is inc:
                break
            node = next((s for s in body if _contains(s, inc)), None)
        else:
            raise NotPolynomial
        innermost = chain[-1].body.stmts
        if any(isinstance(s, (ir.Break, ir.Continue, ir.Return))
               for s in ir.stmts_walk(chain[0].body.stmts)):
            raise NotPolynomial        # an iteration could end before the increment
        # every read of the counter is in the innermost body (before the increment)
        inside = {id(s) for s in ir.stmts_walk(innermost)}
        for s in ir.stmts_walk(self.body):
            if s is init or s is inc or id(s) in inside:
                continue
            for e in ir.stmt_exprs(s):
                if any(isinstance(r, ir.Ref) and r.sym is sym for r in ir.walk(e)):
                    raise NotPolynomial
        loops = []
        for lp in chain:
            loops.append(self.loop_bounds(lp, loops))
        count = Poly.const(1)
        for depth in range(len(loops) - 1, -1, -1):
            var, first, last = loops[depth]
            # the trip count last - first + 1 must not be negative wherever the loops
            # around let this one run, or the closed form would subtract empty ranges
            trips = last - first + Poly.const(1)
            if not self.nonneg_within(trips, loops[:depth]):
                raise NotPolynomial
            count = range_sum(count, var.name, first, last)
            if count is None:
                raise NotPolynomial
        start = self.interval(init.rhs, {})
        if start is None:
            raise NotPolynomial
        return Interval(start.lo, add_ints(start.hi, _sub(count.to_ir(), int_const(1))), start.nonneg)

    def loop_bounds(self, lp, loops):
        """(var, first, last) of a counted loop with unit stride, first and last as
        polynomials in fixed integers and the variables of the enclosing `loops`
        (first <= last when it runs). Raises NotPolynomial otherwise."""
        from adgen.analysis.loops import canonical_loop
        canon = canonical_loop(lp, self.func)
        if canon is None or const_value(canon[1]) not in (1, -1):
            raise NotPolynomial
        var, stride = canon[0], const_value(canon[1])
        cmp = normal_test(lp.test, var, canon[1])
        if cmp is None:
            raise NotPolynomial
        op, offset, bound = cmp
        bound = self.bound_defs.get(id(lp), {}).get(id(bound), bound)
        first = self.to_poly(lp.init[0].rhs, loops)
        bound = self.to_poly(bound, loops)
        if stride > 0 and op in ("<", "<="):
            last = bound - Poly.const(offset + (1 if op == "<" else 0))
        elif stride < 0 and op in (">", ">="):
            last = bound - Poly.const(offset - (1 if op == ">" else 0))
            first, last = last, first
        else:
            raise NotPolynomial
        return var, first, last

    nonneg_within = staticmethod(nonneg_within)

    def to_poly(self, e, loops):
        """e as a polynomial in fixed integers and the variables of `loops`."""
        from adgen.ir.c_text import expr_c
        v = const_value(e)
        if v is not None:
            return Poly.const(v)
        if isinstance(e, ir.Cast) and e.to.resolved().is_int:
            return self.to_poly(e.arg, loops)
        if isinstance(e, ir.Binary) and e.op in "+-*":
            a, b = self.to_poly(e.left, loops), self.to_poly(e.right, loops)
            return a + b if e.op == "+" else a - b if e.op == "-" else a * b
        if isinstance(e, ir.Unary) and e.op == "-":
            return -self.to_poly(e.arg, loops)
        if isinstance(e, ir.Ref) and any(e.sym is var for var, _, _ in loops):
            return Poly.atom(e.sym.name, e)
        if isinstance(e, (ir.Ref, ir.Member, ir.Deref)):
            iv = self.interval(e, {})
            if iv is not None and iv.lo is e and iv.hi is e:
                # a size parameter (or a field of one): fixed for the whole call
                return Poly.atom(expr_c(e), e)
            if iv is not None and iv.lo is iv.hi:
                return self.to_poly(iv.lo, loops)   # a local set once to a fixed value
        raise NotPolynomial

    def same_pointee(self, t):
        """True when pointer type t indexes elements of the type param's do."""
        return _same_pointee(t, self.root_type)

    def is_root(self, e):
        """True when e is the pointer whose extent is sought (param, or its field)."""
        mp = member_path(e)
        return mp is not None and mp[0] in self.roots and mp[1] == self.path

    def _based(self, e):
        """True when pointer expression e points into param (directly or via an alias)."""
        while isinstance(e, ir.Cast):
            if not _same_pointee(e.to, self.root_type):
                return False
            e = e.arg
        if self.is_root(e):
            return True
        if isinstance(e, ir.Ref):
            return e.sym in self.aliases
        if isinstance(e, ir.Binary) and e.op in "+-":
            return self._based(e.left)
        if isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Index):
            return self._based(e.arg.base)
        return False

    def offset_of(self, e):
        """The offset of e from param when e is `param`, `param + k` or `&param[k]`."""
        while isinstance(e, ir.Cast):
            e = e.arg
        if self.is_root(e):
            return int_const(0)
        if isinstance(e, ir.Binary) and e.op in "+-" and self.is_root(e.left):
            return e.right if e.op == "+" else ir.Unary("-", e.right, e.right.type)
        if isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Index) and \
                self.is_root(e.arg.base):
            return e.arg.index
        return None

    # ranges: dict Symbol -> Interval for loop variables in scope
    def block(self, stmts, ranges, guarded=False):
        for s in stmts:
            self.stmt(s, ranges, guarded)
            # after `if (i + 1 >= n) continue;` (break, return) the rest of the block runs
            # only where the guard did not hold: its indices are guarded as under an if
            guarded = guarded or _leaves_under_guard(s, self.guard_flags, self.varying)

    def stmt(self, s, ranges, guarded=False):
        n_before = len(self.maxima)
        at = self.state
        self._stmt(s, ranges, guarded)
        if self.walks is not None:
            self.state = self.walks.after_stmt(s, at, self.loops)
        if guarded:
            self.check_guarded(n_before)

    def check_guarded(self, n_before):
        """The accesses found since maxima held n_before bounds were under a guard."""
        if len(self.maxima) > n_before and not self.anywhere:
            # A guard may keep the index below what the loop ranges allow: the bound
            # could overshoot the array. Only a bound reached without a guard too, before
            # or after (`if (v[i] > m) m = v[i];`, `if (j == i) continue;` then `x[j]`,
            # and x[i] in a loop after), is safe: settle_guarded checks at the end.
            self.guarded_maxima += self.maxima[n_before:]
            del self.maxima[n_before:]

    def settle_guarded(self):
        """Raises Unknown if an index used under a guard reaches a bound that no index
        used without one reaches."""
        from adgen.ir.c_text import expr_c
        known = {expr_c(m) for m in self.maxima}
        if any(expr_c(m) not in known for m in self.guarded_maxima):
            raise Unknown(f"'{self.name}' is accessed under a condition")

    def _stmt(self, s, ranges, guarded):
        at = self.state     # where the walking aliases point before s
        if isinstance(s, ir.For):
            self.exprs(ir.stmt_exprs(s), ranges)
            for x in s.init + s.step:
                self.stmt(x, ranges)
            inner = dict(ranges)
            r = self.loop_range(s, ranges)
            if r is not None:
                inner[r[0]] = r[1]
            try:
                counted = self.loop_bounds(s, [b for b in self.counted if b is not None])
            except NotPolynomial:
                counted = None
            self.counted.append(counted)
            try:
                self._loop_body(s, at, inner)
            finally:
                self.counted.pop()
            return
        if isinstance(s, ir.Assign):
            if isinstance(s.lhs, ir.Ref) and s.lhs.sym in self.aliases:
                return          # an alias `q = p + k`: its accesses count where they are
            if id(s) in self.copies:
                return          # a copy of the struct holding the pointer
        self.exprs(ir.stmt_exprs(s), ranges)
        if isinstance(s, ir.Block):
            self.block(s.stmts, ranges, guarded)
        elif isinstance(s, ir.If):
            g = guarded or bounds_guard(s.test, self.guard_flags)
            if g and not guarded and s.other is not None:
                # what both branches reach is reached whatever the condition
                then_max = self.branch_maxima(s.then.stmts, ranges)
                else_max = self.branch_maxima(s.other.stmts, ranges)
                if then_max is not None and else_max is not None:
                    from adgen.ir.c_text import expr_c
                    common = {expr_c(m) for m in then_max} & {expr_c(m) for m in else_max}
                    if all(expr_c(m) in common for m in then_max + else_max):
                        self.maxima += then_max
                        return
            self.block(s.then.stmts, ranges, g)
            if s.other:
                self.state = at
                self.block(s.other.stmts, ranges, g)
        elif isinstance(s, (ir.While, ir.DoWhile)):
            if self.walks is not None:
                self.state = self.walks.uncounted(s, at)
            self.block(s.body.stmts, ranges, True)

    def _loop_body(self, s, at, inner):
        """The body of the for loop s, the walking aliases where they point at its start
        (at), its counter's range in inner."""
        if self.walks is None:
            self.block(s.body.stmts, inner)
            return
        bounds, self.state, _ = self.walks.loop_states(s, at, self.loops)
        if bounds is None:      # (what moves in it is lost)
            self.block(s.body.stmts, inner)
            return
        self.loops.append(bounds)
        try:
            self.block(s.body.stmts, inner)
        finally:
            self.loops.pop()

    def highest_index(self, index, box):
        """The highest value of index in the loops around it: box, its interval's top
        (each counter at the top of its own range), or lower where the range of an inner
        counter shrinks as an outer one grows (`d[k + i]` with i < n - k reaches n - 1,
        not 2n - 2: a length from box would reach past the caller's array)."""
        loops = [b for b in self.counted if b is not None]
        if not loops or not any(X.mentions(index, var) for var, _, _ in loops):
            return box
        try:
            top = highest(self, self.to_poly(index, loops), loops)
            wide = self.to_poly(box, [])
        except NotPolynomial:
            return box
        return box if (wide - top).constant_value() == 0 else top.to_ir()

    def branch_maxima(self, stmts, ranges):
        """The maxima one branch reaches on its own, or None if it cannot tell."""
        saved, at = self.maxima, self.state
        self.maxima = []
        try:
            self.block(stmts, ranges, False)
            return self.maxima
        except Unknown:
            return None
        finally:
            self.maxima, self.state = saved, at

    def loop_range(self, s, ranges):
        from adgen.analysis.loops import canonical_loop
        canon = canonical_loop(s, self.func)
        if canon is None:
            return None
        var, stride = canon
        start = self.interval(s.init[0].rhs, ranges)
        cmp = normal_test(s.test, var, stride)
        if cmp is None or start is None:
            return None
        op, offset, bound_e = cmp
        bound_e = self.bound_defs.get(id(s), {}).get(id(bound_e), bound_e)
        sv = const_value(stride)
        if sv is None:
            # a stride that is not a constant: a loop that ends moves toward its bound
            sv = 1 if op in ("<", "<=") else -1
        if sv == 0:
            return None
        bound = self.interval(bound_e, ranges)
        if bound is None:
            return None
        # var + offset OP bound. With a stride other than 1 the last value is the last
        # one the stride reaches, not the bound: start + ((last - start) / s) * s.
        step = const_value(stride)
        if sv > 0 and op in ("<", "<="):
            hi = _sub(bound.hi if op == "<=" else _sub(bound.hi, int_const(1)), int_const(offset))
            if step != 1:
                if start.lo is not start.hi:
                    return None
                hi = add_ints(start.hi, _mul(ir.Binary("/", _sub(hi, start.hi), X.clone(stride),
                                                   ir.LONG), X.clone(stride)))
            return var, Interval(start.lo, hi, start.nonneg)
        if sv < 0 and op in (">", ">="):
            lo = _sub(bound.lo if op == ">=" else add_ints(bound.lo, int_const(1)), int_const(offset))
            if step != -1:
                if start.lo is not start.hi:
                    return None
                down = ir.Unary("-", X.clone(stride), ir.LONG) if step is None else int_const(-step)
                lo = _sub(start.lo, _mul(ir.Binary("/", _sub(start.lo, lo), down, ir.LONG),
                                         X.clone(down)))
            return var, Interval(lo, start.hi, bound.nonneg and offset <= 0)
        return None

    def exprs(self, exprs, ranges, skip_alias_root=False):
        for e in exprs:
            if e is not None:
                self.expr(e, ranges)

    def expr(self, e, ranges):
        guard, guarded = _guarded_operands(e, self.guard_flags)
        if guard is not None:
            # `i + 1 < n ? x[i + 1] : 0`, `i + 1 < n && x[i + 1] > 0`: as under an if
            self.expr(guard, ranges)
            for part in guarded:
                n_before = len(self.maxima)
                self.expr(part, ranges)
                self.check_guarded(n_before)
            return
        if isinstance(e, ir.Binary) and e.op in ir.COMPARISONS and \
                e.left.type is not None and e.left.type.resolved().is_pointer:
            # comparing the pointer (memmove's `dst <= src`) reads no element
            for side in (e.left, e.right):
                try:
                    based = self.base_offset(side, ranges) is not None
                except Unknown:
                    based = True
                if not based:
                    self.expr(side, ranges)
            return
        mp = member_path(e) if self.path else None
        if mp is not None and mp[0] in self.roots:
            if mp[1][:len(self.path)] == self.path and len(mp[1]) > len(self.path):
                self.maxima.append(int_const(0))     # a field of the struct the root points to
                return
            if self.path[:len(mp[1])] == mp[1]:
                # the pointer, or a struct holding it, escapes: its uses are unknown
                raise Unknown(f"'{self.name}' is used in a way whose extent adgen cannot "
                              "follow")
            return      # another field of the struct
        if isinstance(e, ir.Ref) and self.walks is not None and e.sym in self.walks.syms \
                and self.base_offset(e, ranges) is None:
            return      # a walking pointer that points elsewhere here
        if isinstance(e, ir.Ref) and (e.sym in self.roots or e.sym in self.aliases):
            # the pointer escapes (stored, compared, converted): its uses are unknown
            raise Unknown(f"'{self.name}' is used in a way whose extent adgen cannot "
                          "follow")
        if isinstance(e, ir.Index):
            off = self.walk_plus(e.base, e.index)
            if off is not None:
                self.maxima.append(off)
                self.expr(e.index, ranges)
                return
            off = self.base_offset(e.base, ranges)
            if off is not None:
                idx = self.interval(e.index, ranges)
                if idx is None:
                    raise Unknown(f"an index of '{self.name}' has no known bound")
                self.maxima.append(add_ints(off, self.highest_index(e.index, idx.hi)))
                self.expr(e.index, ranges)
                return
        if isinstance(e, ir.Deref):
            off = self.base_offset(e.ptr, ranges)
            if off is not None:
                self.maxima.append(off)
                return
        if isinstance(e, ir.Member) and e.arrow:
            off = self.base_offset(e.base, ranges)
            if off is not None:
                self.maxima.append(off)
                return
        if isinstance(e, ir.Call):
            g = self.an.prog.functions.get(e.func)
            sizes = getattr(g, "rule_sizes", None) or {}
            if sizes:
                # a function with a derivative rule: the rule gives its arrays' lengths
                for p, a in zip(g.params, e.args):
                    off = self.base_offset(a, ranges)
                    if off is None:
                        self.expr(a, ranges)
                        continue
                    if p.name not in sizes:
                        raise Unknown(f"'{self.name}' is passed to '{g.name}', whose "
                                      f"rule gives no length for '{p.name}'")
                    n = rule_length(g, p.name, e.args)
                    iv = self.interval(n, ranges)
                    if iv is None:
                        raise Unknown(f"the length of '{p.name}' in the rule for '{g.name}' "
                                      "has no known bound here")
                    self.maxima.append(add_ints(off, _sub(iv.hi, int_const(1))))
                return
            if g is not None and g.has_body and not getattr(g, "is_library", False):
                for p, a in zip(g.params, e.args):
                    off = self.base_offset(a, ranges)
                    holder = member_path(a) if self.path else None
                    if holder is not None and holder[0] in self.roots and \
                            self.path[:len(holder[1])] == holder[1] and \
                            (p.type.resolved().is_pointer or p.type.resolved().is_struct):
                        # the struct holding the pointer is passed: what the callee uses
                        rest = self.path[len(holder[1]):]
                        sub = self.an.max_index(g, p, rest, self.anywhere)
                        if const_value(sub) == -1:
                            continue        # the callee does not use it
                        mapping = {q: x for q, x in zip(g.params, e.args)}
                        iv = self.interval(X.substitute(sub, mapping), ranges)
                        if iv is None:
                            raise Unknown(f"the part of '{self.name}' that '{g.name}' "
                                          "uses has no known bound")
                        self.maxima.append(iv.hi)
                    elif off is not None:
                        sub = self.an.max_index(g, p, anywhere=self.anywhere)
                        mapping = {q: x for q, x in zip(g.params, e.args)}
                        sub_e = X.substitute(sub, mapping)
                        walked = self.walk_plus(a, sub_e)
                        if walked is not None:
                            self.maxima.append(walked)
                            continue
                        iv = self.interval(sub_e, ranges)
                        if iv is None:
                            raise Unknown(f"the part of '{self.name}' that '{g.name}' "
                                          "uses has no known bound")
                        self.maxima.append(add_ints(off, iv.hi))
                    else:
                        self.expr(a, ranges)
                return
            for a in e.args:
                if self.base_offset(a, ranges) is not None and e.func not in ("free",):
                    raise Unknown(f"'{self.name}' is passed to '{e.func}'")
                self.expr(a, ranges)
            return
        if self.base_offset(e, ranges) is not None and not isinstance(e, ir.Ref):
            pass
        for c in e.children():
            self.expr(c, ranges)

    def base_offset(self, e, ranges):
        """Highest offset from param of pointer expression e, or None if e is not based on
        param."""
        if self.walking(e):
            return self.walk_highest(self.walks.offset(e, self.state, self.loops))
        while isinstance(e, ir.Cast):
            if not _same_pointee(e.to, self.root_type):
                return None
            e = e.arg
        if self.is_root(e):
            return int_const(0)
        if isinstance(e, ir.Ref) and e.sym in self.moving:
            return X.clone(self.moving[e.sym])     # the offset before this move
        if isinstance(e, ir.Ref) and e.sym in self.aliases:
            moved = self.moved_alias_offset(e.sym)
            if moved is not None:
                return X.clone(moved)
            best = None
            if e.sym in self.resolving:
                raise Unknown(f"an alias of '{self.name}' walks over it")
            self.resolving.add(e.sym)
            for s in self.aliases[e.sym]:
                site = self.sites.get(id(s))
                if site is None or site[1]:
                    raise Unknown(f"an alias of '{self.name}' is set under a condition")
                hi = self.base_offset(s.rhs, site[0])
                best = hi if best is None else ir.Call("adgen_imax", [best, hi], ir.LONG)
            self.resolving.discard(e.sym)
            return best
        if isinstance(e, ir.Binary) and e.op in "+-":
            lt = e.left.type.resolved()
            if isinstance(lt, (ir.Ptr, ir.Arr)):
                inner = self.base_offset(e.left, ranges)
                if inner is None:
                    return None
                iv = self.interval(e.right, ranges)
                if iv is None:
                    raise Unknown(f"an offset of '{self.name}' has no known bound")
                return add_ints(inner, iv.hi if e.op == "+" else ir.Unary("-", iv.lo, ir.LONG))
        if isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Index):
            inner = self.base_offset(e.arg.base, ranges)
            if inner is None:
                return None
            iv = self.interval(e.arg.index, ranges)
            if iv is None:
                raise Unknown(f"an index of '{self.name}' has no known bound")
            return add_ints(inner, iv.hi)
        return None

    def undominated(self):
        """maxima without those another one is provably at least (the offsets of walks
        along one array, whose polynomials differ by more than a constant)."""
        polys = []
        for m in self.maxima:
            try:
                polys.append(self.to_poly(m, []))
            except NotPolynomial:
                polys.append(None)
        return [m for i, (m, p) in enumerate(zip(self.maxima, polys))
                if p is None or not any(
                    q is not None and (q - p).nonneg_for_nonneg_atoms() and
                    (j < i or (p - q).terms) for j, q in enumerate(polys) if j != i)]

    def walking(self, e):
        """True when pointer expression e is a walking alias (see pointer_walks), moved
        and indexed (`p + k`, `&p[k]`, cast)."""
        if self.walks is None:
            return False
        while True:
            if isinstance(e, ir.Cast):
                e = e.arg
            elif isinstance(e, ir.Binary) and e.op in "+-" and \
                    isinstance(e.left.type.resolved(), (ir.Ptr, ir.Arr)):
                e = e.left
            elif isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Index):
                e = e.arg.base
            else:
                return isinstance(e, ir.Ref) and e.sym in self.walks.syms

    def walk_highest(self, where, indices=(None,)):
        """The highest offset a walking alias reaches, where it points here as where
        (pointer_walks.Where or Lost), plus the largest of the polynomial indices (None:
        0); None when it points elsewhere."""
        if isinstance(where, Lost):
            raise Unknown(f"an alias of '{self.name}' walks over it {where.why}")
        highest = []
        for p in where.polys:
            for index in indices:
                try:
                    h = self.walks.highest(p if index is None else p + index, self.loops)
                except NotPolynomial:
                    raise Unknown(f"an alias of '{self.name}' walks over it in a way whose "
                                  "range adgen cannot bound") from None
                if not any((q - h).nonneg_for_nonneg_atoms() for q in highest):
                    highest = [q for q in highest if not (h - q).nonneg_for_nonneg_atoms()]
                    highest.append(h)
        return _maximum([X.clone(h.to_ir()) for h in highest]) if highest else None

    def walk_plus(self, base, index):
        """The highest offset from param of `&base[index]` with base a walking alias and
        index (the largest of adgen_imax terms) polynomial in the loop counters: offset and
        index maximized together (`p[n - 1 - i]` with p moving up as i does); None for
        another pointer or index."""
        if not self.walking(base):
            return None
        terms, pending = [], [index]
        while pending:
            t = pending.pop()
            if isinstance(t, ir.Call) and t.func == "adgen_imax":
                pending += t.args
                continue
            try:
                terms.append(self.to_poly(t, self.loops))
            except NotPolynomial:
                return None
        return self.walk_highest(self.walks.offset(base, self.state, self.loops), terms)

    def moved_alias_offset(self, sym):
        """The offset from param of an alias set and then moved by itself in straight-line
        code at the top of the body, read only after its last move (f2c's `--y;` and
        `a -= a_offset;` before one-based loops): each move applied to the offset before
        it. None for any other alias (its offset is the largest of all its settings)."""
        if sym in self.moved_cache:
            return self.moved_cache[sym]
        self.moved_cache[sym] = None
        sets = self.aliases[sym]
        top = [i for i, s in enumerate(self.body) if any(s is a for a in sets)]
        if len(top) != len(sets) or not any(X.mentions(a.rhs, sym) for a in sets) or \
                X.mentions(self.body[top[0]].rhs, sym):
            return None
        from adgen.analysis.loops import address_taken
        if sym in address_taken(self.func, self.kernel_inputs()) or \
                any(X.stmts_mention([s], sym) for i, s in enumerate(self.body[:top[-1]])
                    if i not in top):
            return None
        offset = None
        for i in top:
            self.moving[sym] = offset
            try:
                offset = self.base_offset(self.body[i].rhs, {})
            finally:
                del self.moving[sym]
            if offset is None:
                return None
        self.moved_cache[sym] = offset
        return offset

    # ------------------------------------------------------ interval arithmetic
    def interval(self, e, ranges):
        v = const_value(e)
        if v is not None:
            c = int_const(v)
            return Interval(c, c, v >= 0)
        if isinstance(e, ir.Cast):
            if not e.to.resolved().is_int:
                return None
            if e.arg.type is not None and e.arg.type.resolved().is_float:
                return self.truncated(e.arg, ranges)
            return self.interval(e.arg, ranges)
        if isinstance(e, ir.Ref):
            sym = e.sym
            if sym in ranges:
                return ranges[sym]
            if sym.kind == "param" and sym.type.resolved().is_int and sym not in self.assigned:
                return Interval(e, e, True)
            if sym.kind in ("local", "temp") and sym.type.resolved().is_int:
                iv = self.local_interval(sym)
                return iv if iv is not None else self.counter_interval(sym)
            v = _constant_global(sym)
            if v is not None:
                return Interval(int_const(v), int_const(v), v >= 0)
            return self.fixed_global(e)
        if isinstance(e, ir.Call) and e.func == "adgen_imax":
            a, b = self.interval(e.args[0], ranges), self.interval(e.args[1], ranges)
            if a is None or b is None:
                return None
            return Interval(ir.Call("adgen_imax", [a.lo, b.lo], ir.LONG),
                            ir.Call("adgen_imax", [a.hi, b.hi], ir.LONG), a.nonneg or b.nonneg)
        if isinstance(e, ir.Deref) and isinstance(e.ptr, ir.Ref):
            if e.ptr.sym in self.an.readonly_ints(self.func):
                return Interval(e, e, True)
            return None
        if isinstance(e, ir.Member) and e.type.resolved().is_int:
            base = e.base
            while isinstance(base, (ir.Member,)):
                base = base.base
            root = base.ptr if isinstance(base, ir.Deref) else base
            if isinstance(root, ir.Ref) and root.sym.kind == "param" and \
                    root.sym not in self.assigned:
                return Interval(e, e, True)
            return self.fixed_global(e)
        if isinstance(e, ir.Binary):
            a, b = self.interval(e.left, ranges), self.interval(e.right, ranges)
            if a is None or b is None:
                return None
            if a.lo is a.hi and b.lo is b.hi and e.op in "+-*/":
                # one value each: the result is one value (kept as one expression)
                f = {"+": add_ints, "-": _sub, "*": _mul}.get(e.op)
                v = f(a.lo, b.lo) if f else ir.Binary("/", a.lo, b.lo, ir.LONG)
                nonneg = a.nonneg and b.nonneg and e.op in "+*/"
                return Interval(v, v, nonneg)
            if e.op == "+":
                return Interval(add_ints(a.lo, b.lo), add_ints(a.hi, b.hi), a.nonneg and b.nonneg)
            if e.op == "-":
                return Interval(_sub(a.lo, b.hi), _sub(a.hi, b.lo), False)
            if e.op == "*":
                if a.nonneg and b.nonneg:
                    return Interval(_mul(a.lo, b.lo), _mul(a.hi, b.hi), True)
                # a single non-negative value scales the other interval
                if b.lo is b.hi and b.nonneg:
                    return Interval(_mul(a.lo, b.lo), _mul(a.hi, b.hi), a.nonneg)
                if a.lo is a.hi and a.nonneg:
                    return Interval(_mul(a.lo, b.lo), _mul(a.hi, b.hi), b.nonneg)
                return None
            if e.op == "%":
                c = const_value(b.lo)
                if c is None or c <= 0 or b.lo is not b.hi:
                    return None
                high = const_value(a.hi)
                if a.nonneg and high is not None and high < c:
                    return a        # a dividend below the divisor is its own remainder
                # the remainder is below the divisor (and not below 0 for a >= 0)
                return Interval(int_const(0 if a.nonneg else -(c - 1)), int_const(c - 1), a.nonneg)
            if e.op == "/" and b.lo is b.hi and b.nonneg:
                # dividing by one value that is positive (a count or a size) is monotone
                c = const_value(b.lo)
                if c is None or c > 0:
                    return Interval(ir.Binary("/", a.lo, b.lo, ir.LONG),
                                    ir.Binary("/", a.hi, b.lo, ir.LONG), a.nonneg)
            return None
        if isinstance(e, ir.Unary) and e.op == "-":
            a = self.interval(e.arg, ranges)
            if a is None:
                return None
            return Interval(ir.Unary("-", a.hi, ir.LONG), ir.Unary("-", a.lo, ir.LONG), False)
        if isinstance(e, ir.Cond):
            return self.chosen_value(e, ranges)
        return None

    def truncated(self, e, ranges):
        """The interval of floating-point expression e converted to an integer: between
        whole numbers (clamps.float_bounds), so is its integral part."""
        lower, upper = float_bounds(e)
        lo = self.interval(lower, ranges) if lower is not None else None
        hi = self.interval(upper, ranges) if upper is not None else None
        if lo is None or hi is None:
            return None
        return Interval(lo.lo, hi.hi, lo.nonneg)

    def fixed_global(self, e):
        """A global integer, or a field of a global struct, that holds one value for the
        whole call (fixed_globals): a size, as a parameter is; None for another."""
        if self.an.fixed_globals.fixed(self.func, e):
            return Interval(e, e, True)
        return None

    def chosen_value(self, e, ranges):
        """The interval of `a <= b ? a : b` (f2c's min and max, `i__1 = min(*m,*n);`,
        `periodic ? n : n - 1`) where the test is made of integers that are one value
        each, and so are both values: that one value, the same choice over theirs. (The
        span of both values would reach past the array where the smaller one is its
        length.)"""
        test = self.one_valued_test(e.test, ranges)
        parts = [self.interval(x, ranges) for x in (e.then, e.other)]
        if test is None or any(iv is None or iv.lo is not iv.hi for iv in parts):
            return None
        v = ir.Cond(test, parts[0].lo, parts[1].lo, ir.LONG)
        return Interval(v, v, parts[0].nonneg and parts[1].nonneg)

    def one_valued_test(self, t, ranges):
        """Condition t over integers that are one value each (their intervals), written
        over those values; None for another condition."""
        if isinstance(t, ir.Binary) and t.op in ir.COMPARISONS + ("&&", "||"):
            parts = [self.one_valued_test(x, ranges) if t.op in ("&&", "||") else
                     self.interval(x, ranges) for x in (t.left, t.right)]
            if any(p is None for p in parts):
                return None
            if t.op not in ("&&", "||"):
                if any(p.lo is not p.hi for p in parts):
                    return None
                parts = [p.lo for p in parts]
            return ir.Binary(t.op, parts[0], parts[1], ir.INT)
        if isinstance(t, ir.Unary) and t.op == "!":
            inner = self.one_valued_test(t.arg, ranges)
            return None if inner is None else ir.Unary("!", inner, ir.INT)
        iv = self.interval(t, ranges) if t.type is not None and t.type.resolved().is_int \
            else None
        return iv.lo if iv is not None and iv.lo is iv.hi else None
