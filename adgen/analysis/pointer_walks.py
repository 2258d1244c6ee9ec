"""Local pointers that walk over a parameter's array (`p += n` in a loop), followed
statement by statement for the extent analysis (extent.IndexWalker).

An alias whose value depends on its own earlier value (`p = p + n`, directly or through
other aliases) has no single offset from the parameter: each point of the function sees its
own. There its offset is a polynomial in the function's integer parameters and the counters
of the counted loops around it: a step of the same amount d in every iteration of a loop
over k from k0 moves the pointer to p0 + (k - k0) * d at the start of iteration k, and to
p0 + trips * d after the loop (a step that grows with k, `p += k + 1` over a packed
triangle, summed in closed form). An access then reaches at most the largest value of that
polynomial over the loop ranges (exact when it is monotone in each counter: affine with a
coefficient of known sign, or a quadratic whose differences keep their sign). Where paths
join with different offsets the pointer may be at any of them (or in another array), and
pointers swapped in a loop at any offset an iteration gives them. Where a walk cannot be
followed so (a while loop, a step the data decides or whose sum has no closed form, a loop
whose iterations may end early) the offset is lost there, and an access through the pointer
is an error that says why: a length shorter or longer than the walk covers would leave
seeds unconsumed or write outside the caller's array.
"""
from adgen import ir
from adgen.analysis.loops import address_taken, assigned_syms, canonical_loop
from adgen.analysis.poly import NotPolynomial, Poly, range_sum
from adgen.ir import exprs as X

_MOST_PATHS = 8     # offsets kept for one pointer before it counts as lost
_CROSSED = "by different amounts in different iterations"


class Lost:
    """The offset of a walking pointer is not known at this point; why says why."""
    __slots__ = ("why",)

    def __init__(self, why):
        self.why = why


class Where:
    """Where a walking pointer may point: at any of the offsets polys from the parameter,
    or (elsewhere) into another array."""
    __slots__ = ("polys", "elsewhere")

    def __init__(self, polys, elsewhere=False):
        self.polys, self.elsewhere = tuple(polys), elsewhere

    def map(self, f):
        return Where([f(p) for p in self.polys], self.elsewhere)


ELSEWHERE = Where((), True)


def union(a, b):
    """Where a pointer may be after two paths join, with a and b at their ends."""
    if isinstance(a, Lost):
        return a
    if isinstance(b, Lost):
        return b
    polys = list(a.polys)
    for p in b.polys:
        if not any(_same(p, q) for q in polys):
            polys.append(p)
    if len(polys) > _MOST_PATHS:
        return Lost("along too many paths")
    return Where(polys, a.elsewhere or b.elsewhere)


def _same(p, q):
    return not (p - q).terms


def _substitute(where, at_start, keys):
    """where with the entry keys of walking aliases replaced by their offsets at_start
    (elsewhere for None); lost when another entry key is left."""
    if isinstance(where, Lost):
        return where
    polys, elsewhere = [], where.elsewhere
    for p in where.polys:
        for key, value in at_start.items():
            if p.uses(key):
                if value is None:
                    p = None
                    break
                p = p.substitute(key, value)
        if p is None:
            elsewhere = True
        elif any(p.uses(key) for key in keys):
            return Lost(_CROSSED)
        else:
            polys.append(p)
    return Where(polys, elsewhere)


def walking_aliases(aliases, settled):
    """The aliases to follow statement by statement: those whose settings depend on their
    own earlier value (through any chain of aliases) or that are set more than once, and
    every alias connected to them by a setting, so that each alias an offset is computed
    from has its offset at that point.
    aliases: {symbol: [its settings]}; settled: aliases the caller handles otherwise (moved
    once at the top of the body)."""
    deps = {sym: {r.sym for s in sets for r in ir.walk(s.rhs)
                  if isinstance(r, ir.Ref) and r.sym in aliases}
            for sym, sets in aliases.items()}
    cyclic = set()
    for sym in aliases:
        if sym in settled:
            continue
        seen, todo = set(), list(deps[sym])
        while todo:
            d = todo.pop()
            if d not in seen:
                seen.add(d)
                todo.extend(deps[d])
        if sym in seen:
            cyclic.add(sym)
    # an alias set more than once points where its last setting made it at each access,
    # not at the farthest of its settings (`q = p + 2` after its last use reaches nothing)
    cyclic |= {sym for sym, sets in aliases.items() if len(sets) > 1 and sym not in settled}
    linked = {sym: set(deps[sym]) for sym in aliases}       # connected either way
    for sym, ds in deps.items():
        for d in ds:
            linked[d].add(sym)
    out, todo = set(), list(cyclic)
    while todo:
        sym = todo.pop()
        if sym not in out:
            out.add(sym)
            todo.extend(linked[sym])
    return out


def _ends_iterations(stmts):
    """True when a statement of a loop body can end an iteration before its last statement
    (a break or continue of this loop, a return anywhere)."""
    for s in stmts:
        if isinstance(s, (ir.Break, ir.Continue, ir.Return)):
            return True
        if isinstance(s, (ir.For, ir.While, ir.DoWhile)):
            if any(isinstance(x, ir.Return) for x in ir.stmts_walk(s.body.stmts)):
                return True
        elif isinstance(s, ir.Block) and _ends_iterations(s.stmts):
            return True
        elif isinstance(s, ir.If) and (_ends_iterations(s.then.stmts) or
                                       s.other is not None and
                                       _ends_iterations(s.other.stmts)):
            return True
    return False


class Walks:
    """The offsets of the walking aliases syms of one IndexWalker w. A state maps each of
    them to a Where or a Lost; loops is the list of (counter, first, last) of the counted
    loops around a point (as w.loop_bounds gives them)."""

    def __init__(self, w, syms, bounds_guard):
        self.w = w
        self.syms = syms
        self.bounds_guard = bounds_guard       # (extent.bounds_guard)
        self.taken = syms & address_taken(w.func, w.kernel_inputs())

    def initial(self):
        return {sym: ELSEWHERE if sym.kind == "param" else Lost("before it is set")
                for sym in self.syms}

    # ------------------------------------------------------------ transfer
    def after(self, stmts, state, loops):
        for s in stmts:
            state = self.after_stmt(s, state, loops)
        return state

    def after_stmt(self, s, state, loops):
        if isinstance(s, ir.Assign):
            if isinstance(s.lhs, ir.Ref) and s.lhs.sym in self.syms:
                state = dict(state)
                state[s.lhs.sym] = self.offset(s.rhs, state, loops)
            return state
        if isinstance(s, ir.Block):
            return self.after(s.stmts, state, loops)
        if isinstance(s, ir.If):
            then = self.after(s.then.stmts, state, loops)
            other = self.after(s.other.stmts, state, loops) if s.other else state
            return {sym: self.joined(s.test, then[sym], other[sym]) for sym in state}
        if isinstance(s, ir.For):
            return self.loop_states(s, state, loops)[2]
        if isinstance(s, (ir.While, ir.DoWhile)):
            return self.uncounted(s, state)
        return state

    def joined(self, test, a, b):
        """Where a pointer may be after a branch on test with a and b at its ends. Either,
        when the data decides; a condition on sizes (`if (n > 2)`) may be what keeps the
        farther offset inside the caller's array, as for an index (extent.bounds_guard)."""
        if isinstance(a, Where) and isinstance(b, Where) and self.bounds_guard(test) and \
                (a.elsewhere != b.elsewhere or len(a.polys) != len(b.polys) or
                 any(not any(_same(p, q) for q in b.polys) for p in a.polys)):
            return Lost("by different amounts on the two sides of a condition on sizes")
        return union(a, b)

    def uncounted(self, s, state):
        """The state in (and after) a while loop: what it moves is lost, for adgen does not
        count its iterations."""
        moved = assigned_syms(s.body.stmts) & self.syms
        if not moved:
            return state
        state = dict(state)
        for sym in moved:
            state[sym] = Lost("in a while loop, whose iterations adgen does not count")
        return state

    def loop_states(self, s, state, loops):
        """(bounds, the state at the start of an iteration, the state after the loop) of
        for loop s entered in state; bounds is (counter, first, last), or None for a loop
        whose range is not polynomial."""
        w = self.w
        state = self.after(s.init, state, loops)
        try:
            bounds = w.loop_bounds(s, loops)
        except NotPolynomial:
            bounds = None
        moved = assigned_syms(s.body.stmts + s.step) & self.syms
        if not moved:
            return bounds, state, state
        if bounds is None or _ends_iterations(s.body.stmts):
            why = Lost("in a loop adgen cannot count" if bounds is None else
                       "in a loop whose iterations may end early")
            lost = dict(state)
            lost.update((sym, why) for sym in moved)
            return bounds, lost, lost
        var, first, last = bounds
        k = Poly.atom(var.name, ir.Ref(var))
        down = X.constant_value(canonical_loop(s, w.func)[1]) == -1
        done = last - k if down else k - first      # iterations before this one
        # one iteration from symbolic offsets: which aliases move by a fixed step
        entry = {sym: Poly.atom(f"<{sym.name}@{id(sym)}>", None) for sym in moved}
        keys = {sym: next(iter(p.terms))[0] for sym, p in entry.items()}
        probe = dict(state)
        probe.update((sym, Where([p])) for sym, p in entry.items())
        end = self.after(s.body.stmts + s.step, probe, loops + [bounds])
        body, after = dict(state), dict(state)
        at_start = {}       # entry key of a walking alias -> its offset then (None: elsewhere)
        walking = set()
        for sym in moved:
            step = self._step(end[sym], entry[sym], keys.values())
            if step is None:
                continue
            walking.add(sym)
            body[sym], after[sym] = self._walked(state[sym], step, done, loops, bounds, down)
            if isinstance(body[sym], Where) and len(body[sym].polys) <= 1:
                at_start[keys[sym]] = body[sym].polys[0] if body[sym].polys else None
        others = moved - walking
        anew = {sym: _substitute(end[sym], at_start, keys.values()) for sym in others}
        if any(isinstance(e, Lost) and e.why is _CROSSED for e in anew.values()):
            # pointers swapped (`t = a; a = b; b = t;`): where each may be, to a fixpoint
            swapped = self._swapped(s, body, others, loops, bounds)
            body.update(swapped[0])
            after.update(swapped[1])
            return bounds, body, after
        for sym in others:
            # set anew in each iteration (from the walking aliases' offsets at its start)
            body[sym], after[sym] = self._set_anew(state[sym], anew[sym], loops, bounds, down)
        return bounds, body, after

    def _swapped(self, s, body, others, loops, bounds):
        """(at the start of an iteration, after the loop) of the aliases others of loop s
        that are set from one another's values in the iteration before: every offset one
        of them takes at the end of an iteration, found by running the iteration until no
        new one comes (the walking aliases at their offsets in it). Lost when an offset
        depends on the counter."""
        var, first, last = bounds
        ends = {sym: Where(()) for sym in others}       # none yet
        for _ in range(_MOST_PATHS):
            entry = dict(body)
            entry.update((sym, union(body[sym], ends[sym])) for sym in others)
            end = self.after(s.body.stmts + s.step, entry, loops + [bounds])
            grown = {sym: union(ends[sym], end[sym]) for sym in others}
            if any(isinstance(e, Lost) or any(p.uses(var.name) for p in e.polys)
                   for e in grown.values()):
                break
            if all(len(grown[sym].polys) == len(ends[sym].polys) and
                   grown[sym].elsewhere == ends[sym].elsewhere for sym in others):
                if self.w.nonneg_within(last - first, loops):
                    return {sym: entry[sym] for sym in others}, ends
                return {sym: entry[sym] for sym in others}, \
                    {sym: entry[sym] for sym in others}     # (as in _set_anew)
            ends = grown
        lost = Lost(_CROSSED)
        return {sym: lost for sym in others}, {sym: lost for sym in others}

    @staticmethod
    def _step(end, entry, keys):
        """The step by which an alias at the symbolic offset entry at the start of an
        iteration moves in it, when it is the same on every path; else None."""
        if isinstance(end, Lost) or end.elsewhere or not end.polys:
            return None
        steps = [p - entry for p in end.polys]
        if any(q.uses(key) for q in steps for key in keys) or \
                any(not _same(q, steps[0]) for q in steps):
            return None
        return steps[0]

    def _walked(self, start, step, done, loops, bounds, down):
        """(at the start of an iteration, after the loop) for an alias at start before the
        loop that moves by step (a polynomial, in the counter too) in each iteration."""
        w = self.w
        var, first, last = bounds
        if isinstance(start, Lost):
            return start, start
        trips = last - first + Poly.const(1)
        if step.uses(var.name):
            # a step that grows with the counter (`p += k + 1`: packed triangles): the
            # steps of the iterations before summed in closed form
            k = Poly.atom(var.name, ir.Ref(var))
            one = Poly.const(1)
            before = range_sum(step, var.name, k + one, last) if down else \
                range_sum(step, var.name, first, k - one)
            total = range_sum(step, var.name, first, last)
            if before is None or not w.nonneg_within(trips, loops):
                lost = Lost("by a step that changes from one iteration to the next")
                return lost, lost
            return start.map(lambda p: p + before), start.map(lambda p: p + total)
        body = start.map(lambda p: p + done * step)
        out = start.map(lambda p: p + trips * step)
        if w.nonneg_within(trips, loops):
            return body, out
        if w.nonneg_within(step, loops):
            # when the loop runs no iteration, out is below start: both bound it
            return body, union(start, out)
        return body, Lost("after a loop that may run no iteration")

    def _set_anew(self, start, end, loops, bounds, down):
        """(at the start of an iteration, after the loop) for an alias at start before the
        loop and set in each iteration to end (a polynomial in the loop's counter): what
        the iteration before set, or start."""
        var, first, last = bounds
        if isinstance(end, Lost):
            return end, end
        for p in end.polys:
            coeffs = p.coefficients_in(var.name)
            if len(coeffs) > 2 or len(coeffs) == 2 and not self.w.nonneg_within(
                    -coeffs[1] if down else coeffs[1], loops):
                # the offset of the iteration before the first would count too, and could
                # be the largest
                lost = Lost("by an amount that changes from one iteration to the next")
                return lost, lost
        k = Poly.atom(var.name, ir.Ref(var))
        previous = k + Poly.const(1) if down else k - Poly.const(1)
        body = union(start, end.map(lambda p: p.substitute(var.name, previous)))
        out = end.map(lambda p: p.substitute(var.name, first if down else last))
        if not self.w.nonneg_within(last - first, loops):
            # the loop may run no iteration, and leave the pointer where it was (else the
            # offsets an iteration sets, as an access in a loop counts for any trip count)
            out = union(start, out)
        return body, out

    def offset(self, e, state, loops):
        """Where pointer expression e points in state (a Where or a Lost)."""
        w = self.w
        while isinstance(e, ir.Cast):
            if not w.same_pointee(e.to):
                return self._elsewhere(e)
            e = e.arg
        if w.is_root(e):
            return Where([Poly.const(0)])
        if isinstance(e, ir.Ref) and e.sym in self.syms:
            if e.sym in self.taken:
                return Lost("and its address is taken")
            return state[e.sym]
        if isinstance(e, ir.Binary) and e.op in "+-" and \
                isinstance(e.left.type.resolved(), (ir.Ptr, ir.Arr)):
            return self._moved(self.offset(e.left, state, loops), e.right, e.op, loops)
        if isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Index):
            return self._moved(self.offset(e.arg.base, state, loops), e.arg.index, "+",
                               loops)
        if isinstance(e, ir.Cond):
            return self.joined(e.test, self.offset(e.then, state, loops),
                               self.offset(e.other, state, loops))
        return self._elsewhere(e)

    def _moved(self, base, by, op, loops):
        if isinstance(base, Lost) or not base.polys:
            return base
        try:
            k = self.w.to_poly(by, loops)
        except NotPolynomial:
            return Lost("by an amount adgen cannot follow")
        return base.map(lambda p: p + k if op == "+" else p - k)

    def _elsewhere(self, e):
        """ELSEWHERE for a pointer expression that names neither the parameter nor an
        alias of it; one that does, in a way not followed, loses the offset."""
        w = self.w
        for sub in ir.walk(e):
            if w.is_root(sub) or isinstance(sub, ir.Ref) and sub.sym in w.aliases:
                return Lost("through an expression adgen cannot follow")
        return ELSEWHERE

    def highest(self, p, loops):
        return highest(self.w, p, loops)


def highest(w, p, loops):
    """The largest value of polynomial p over the ranges of loops (w: the IndexWalker
    whose loops they are), as a polynomial in the fixed integers: each counter, innermost
    first, at the end of its range its coefficient points to. Raises NotPolynomial when p is not affine in a counter or
    the sign of its coefficient is unknown."""
    for depth in range(len(loops) - 1, -1, -1):
        var, first, last = loops[depth]
        coeffs = p.coefficients_in(var.name)
        if len(coeffs) == 1:
            continue
        outer = loops[:depth]
        if len(coeffs) == 2:
            rise, fall = coeffs[1], -coeffs[1]
        elif len(coeffs) == 3:
            # a quadratic (a triangle's walk) is monotone where its difference from
            # one counter value to the next keeps its sign; that difference is affine
            # in the counter, so its sign at the two ends of the range decides
            k = Poly.atom(var.name, ir.Ref(var))
            diff = p.substitute(var.name, k + Poly.const(1)) - p
            slope = diff.coefficients_in(var.name)[1]
            at_first = diff.substitute(var.name, first)
            at_last = diff.substitute(var.name, last - Poly.const(1))
            if w.nonneg_within(slope, outer):      # smallest at the first
                rise, fall = at_first, -at_last
            elif w.nonneg_within(-slope, outer):
                rise, fall = at_last, -at_first
            else:
                raise NotPolynomial
        else:
            raise NotPolynomial
        if w.nonneg_within(rise, outer):
            p = p.substitute(var.name, last)
        elif w.nonneg_within(fall, outer):
            p = p.substitute(var.name, first)
        else:
            raise NotPolynomial
    return p
