"""Reverse mode, one function: calls (joint or split mode, ruled functions, the
program's own) and control flow (branches, counted and other loops, checkpointed ones),
the part of FuncGen (adjoint_function.py) that handles them."""

from adgen import ir
from adgen.analysis.activity import field_closure, find
from adgen.analysis.call_graph import reachable
from adgen.analysis.loops import assigned_in_function, canonical_loop, enclosing_loops, \
    invariant, reads_unchanged_ints
from adgen.analysis.poly import NotPolynomial
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.ir.exprs import counted_loop, same_text, used_symbols
from adgen.ir.generated import LocalDecl
from adgen.rules import ALLOCATION, MPI_COMMUNICATION
from adgen.transform.block_pushes import BlockLoop, elements_apart, hoistable, push_blocks
from adgen.transform.common import (ad_temp, source_name, strip_const, unknown_function_error,
                                    unless_null, writable_pointer, zero_stmt)
from adgen.transform.split_sums import PARTS, UNKNOWN, replace_stmt, split_sums


class CallsAndLoops:
    """FuncGen's calls and control flow: a mixin reading FuncGen's state."""

    def call(self, call, lhs, s):
        g = self.prog.functions[call.func]
        loc = s.loc
        if getattr(g, "user_rule", None) is not None:
            return self.ruled_call(call, lhs, s, g)
        if not g.has_body:
            if call.func in self.T.ctx.inactive:
                return self.plain_call(call, lhs, s)
            raise unknown_function_error(call.func, loc)
        if not self.T.call_is_diff(g):
            return self.plain_call(call, lhs, s)
        self.T.request(g)
        gact = self.act
        fargs, bargs, pre_b, pre_f, late_b = [], [], [], [], []
        for p, a in zip(g.params, call.args):
            fargs.append(a)
            bargs.append(X.clone(a))
            if not gact.sym_has_shadow(p):
                continue
            t = p.type.resolved()
            if t.is_struct:
                if ir.is_lvalue(a) and self.act.has_shadow(a):
                    bargs.append(ir.AddrOf(self.sh(a), ir.Ptr(p.type)))
                    if ir.holds_pointers(t):
                        fargs.append(ir.AddrOf(self.sh(a), ir.Ptr(p.type)))
                elif ir.holds_pointers(t):
                    raise AdgenError(f"argument {len(fargs)} of '{g.name}' needs a derivative "
                                     "but has none here", a.loc or loc)
                else:
                    dummy = self.temp("argb", p.type)
                    pre_b.append(zero_stmt(ir.Ref(dummy)))
                    bargs.append(ir.AddrOf(ir.Ref(dummy), ir.Ptr(p.type)))
            elif t.is_float:
                if ir.is_lvalue(a) and self.act.active_value(a) and \
                        find(self.mem.loc(a)) in {find(n) for n in self.T.writes.get(g.name, ())}:
                    # the callee overwrites memory the value came from: its adjoint must
                    # not land there until the callee's backward sweep is over
                    own = self.temp("argb", p.type)
                    pre_b.append(ir.Assign(ir.Ref(own), X.zero(p.type), loc))
                    bargs.append(ir.AddrOf(ir.Ref(own), ir.Ptr(p.type)))
                    late_b.append(ir.Assign(self.sh(a), X.add(self.sh(a), ir.Ref(own)), loc))
                    storage = ("temp", own)
                elif ir.is_lvalue(a) and self.act.active_value(a):
                    bargs.append(ir.AddrOf(self.sh(a), ir.Ptr(p.type)))
                    storage = self.adjoint_storage(self.sh(a))
                else:
                    dummy = self.temp("argb", p.type)
                    pre_b.append(ir.Assign(ir.Ref(dummy), X.zero(p.type), loc))
                    bargs.append(ir.AddrOf(ir.Ref(dummy), ir.Ptr(p.type)))
                    storage = ("temp", dummy)
                self.T.value_param_adjoints.setdefault((g.name, p), set()).add(storage)
            else:
                if self.act.has_shadow(a):
                    sa = writable_pointer(self.sh(a), a)
                elif isinstance(a, ir.Const) or (isinstance(a, ir.Cast) and
                                                 isinstance(a.arg, ir.Const)):
                    sa = a
                else:
                    raise AdgenError(f"argument {len(fargs)} of '{g.name}' needs a derivative "
                                     "but has none here", a.loc or loc)
                fargs.append(sa)
                bargs.append(X.clone(sa))
        ret_active = self.act.ret_active(g)
        lhs_active = lhs is not None and (
            self.act.active_value(lhs) if lhs.type.resolved().is_float else
            lhs.type.resolved().is_struct and self.act.has_shadow(lhs))
        post_b = []
        if lhs_active:
            post_b.append(zero_stmt(self.sh(lhs)))
        if ret_active:
            if lhs_active and self.callee_reaches(lhs, call.args, g):
                # the callee adds to the adjoints of what it reads, lhs's among them (an
                # argument, a global): take the seed out first
                seed = self.temp(source_name(g) + "b", g.ret)
                pre_b += [ir.Assign(ir.Ref(seed), self.sh(lhs), loc), post_b.pop()]
                bargs.append(ir.Ref(seed))
            elif lhs_active:
                bargs.append(self.sh(lhs))
            elif g.ret.resolved().is_struct:
                dummy = self.temp("resultb", g.ret)
                pre_b.append(zero_stmt(ir.Ref(dummy)))
                bargs.append(ir.Ref(dummy))
            else:
                bargs.append(X.zero(g.ret))
        fcall = ir.Call(g.name + "_fwd", fargs, g.ret, call.loc)
        bcall = ir.ExprStmt(ir.Call(g.name + "_bwd", bargs, ir.VOID, call.loc), loc)
        # the source call's arguments, by the sweeps' calls (see stack_usage.py)
        self.source_args[id(fcall)] = self.source_args[id(bcall.expr)] = call.args
        fwd, bwd = pre_f, []
        if self.act.ret_pointer_shadowed(g):
            # p = g(...) returning a pointer and (through an argument) its shadow
            value = self.temp(source_name(g) + "_value", g.ret)
            shadow = self.temp(source_name(g) + "_valueb", strip_const(g.ret))
            fargs.append(ir.AddrOf(ir.Ref(shadow), ir.Ptr(shadow.type)))
            fwd.append(ir.Assign(ir.Ref(value), fcall, loc))
            bwd_tail = [bcall]
            if lhs is not None:
                lf, lb = self.assign(ir.Assign(lhs, ir.Ref(value), loc), shadow_rhs=ir.Ref(shadow))
                fwd += lf
                return fwd, lb + pre_b + bwd_tail + late_b
            return fwd, pre_b + bwd_tail + late_b
        if self.act.ret_struct_pointers(g):
            # a struct holding pointers comes back with its shadow, through an argument (lhs
            # is a temporary of its own: see normalize.py)
            if lhs is not None and self.act.has_shadow(lhs):
                shadow = self.sh(lhs)
            else:
                shadow = ir.Ref(self.temp(source_name(g) + "_valueb", strip_const(g.ret)))
            fargs.append(ir.AddrOf(X.clone(shadow), ir.Ptr(shadow.type)))
        state = self.joint_state(call, g, s)
        if state is not None:
            # joint mode: the plain call forward, with the state it changes kept; the
            # backward sweep brings that state back and runs the recording call there
            self.T.plain_calls.add(g.name)
            for a, n in state:
                fwd += unless_null(a, [ir.Raw("push_bytes", {"ptr": X.clone(a),
                                                             "bytes": X.clone(n)}, loc)])
            primal = ir.Call(g.name, [X.clone(a) for a in call.args], g.ret, call.loc)
            redo = [ir.Comment(f"the call of line {loc.line} again, recording: joint mode")]
            for a, n in state:
                redo += unless_null(a, self.keep_final([(a, n)]))
            for a, n in reversed(state):
                redo += unless_null(a, [ir.Raw("pop_bytes", {"ptr": X.clone(a),
                                                             "bytes": X.clone(n)}, loc)])
            redo.append(ir.ExprStmt(fcall, loc))
            fcall = primal
        else:
            redo = []
        if lhs is not None:
            if self.saved(lhs):
                # The callee's saved values sit above lhs's: save lhs after the call.
                tmp = self.temp(source_name(g) + "_value", g.ret)
                fwd += [ir.Assign(ir.Ref(tmp), fcall, loc), ir.Push(lhs, loc),
                        ir.Assign(lhs, ir.Ref(tmp), loc)]
                bwd.append(self.pop(X.clone(lhs), loc))
            else:
                fwd.append(ir.Assign(lhs, fcall, loc))
        else:
            fwd.append(ir.ExprStmt(fcall, loc))
        bwd += redo + pre_b + [bcall] + post_b + late_b
        return fwd, bwd

    def joint_state(self, call, g, s):
        """The state a call in joint mode keeps ((address, bytes) of the variables the
        callee writes), or None for split mode: the callee's recording forward sweep
        right there, its backward sweep at the matching point of the caller's.

        Joint mode trades running the callee twice for its record living only while
        its own backward sweep runs. It is chosen where the kept state is provably no
        larger than what the callee records, or by `#pragma adgen checkpoint`; split
        mode where the state cannot be kept, by `#pragma adgen nocheckpoint` and with
        --store-all (the baseline stores everything)."""
        from adgen.transform.checkpoint import StateKeeper
        directive = self.call_directives.get(id(s))
        options = self.T.ctx.options
        by_option = None
        if directive is None and source_name(g) in options.split_calls:
            directive, by_option = "split", f"--split {source_name(g)}"
        elif directive is None and source_name(g) in options.joint_calls:
            directive, by_option = "joint", f"--joint {source_name(g)}"
        where = f"call of {source_name(g)}"
        if directive == "split":
            return self.call_mode(s, where, None, by_option or "#pragma adgen nocheckpoint")
        if directive is None and self.independent_depth:
            return self.call_mode(s, where, None, "in a loop reversed one iteration at a "
                                  "time: its record lives for one iteration")
        if id(s) in self.T.recomputed:
            return self.call_mode(s, where, None, "what it fills is recomputed, not stored")
        if self.T.ctx.options.store_all:
            return self.call_mode(s, where, None, "--store-all")
        why_not = None
        if self.T.ctx.calls(g.name, self.mpi_messages()):
            # every rank must make the same messages, once each, in reverse
            why_not = "the callee communicates through MPI: run again, it would send its " \
                "messages again (docs/mpi.md)"
        elif g is self.f or self.act.returns_shadow(g) or \
                self.T.ctx.calls(g.name, ALLOCATION):
            why_not = "the callee allocates or frees memory, returns a pointer, or is " \
                "the caller"
        elif self.T.zeroed_as_read:
            # running a forward sweep again would zero adjoints already accumulated
            why_not = f"the adjoint of '{self.T.zeroed_as_read[0]}' is zeroed as " \
                "its elements are read (adgen cannot tell its length: --size gives it)"
        else:
            try:
                state = StateKeeper(self, lambda m: AdgenError(m, s.loc)).items(
                    self.T.writes.get(g.name, ()), optional_ok=True)
            except AdgenError as exc:
                why_not = f"its state cannot be kept: {exc.message}"
            if why_not is None and self.sets_shadowed_pointers(g):
                # the plain call would move them and leave their shadows behind, for the
                # statements after it to reach adjoints through the wrong shadows
                why_not = "the callee sets pointers that have shadows, which must follow them"
        if why_not is not None:
            if directive == "joint":
                raise AdgenError(f"{by_option or '#pragma adgen checkpoint'}: {why_not}",
                                 s.loc)
            return self.call_mode(s, where, None, why_not)
        if directive == "joint":
            return self.call_mode(s, where, state, by_option or "#pragma adgen checkpoint")
        if id(s) in self.T.joint_calls:
            return self.call_mode(s, where, state, self.T.joint_calls[id(s)])
        joint, why = self.T.joint_gain(self, g, call, state, s)
        if not joint:
            return self.call_mode(s, where, None, why)
        self.T.joint_calls[id(s)] = why
        return self.call_mode(s, where, state, why)

    def mpi_messages(self):
        """The names of the MPI routines that send or receive: those of MPI_COMMUNICATION
        and their typed variants (frontend/mpi_calls.py); found once per program."""
        names = self.T.mpi_message_names
        if names is None:
            names = self.T.mpi_message_names = set(MPI_COMMUNICATION) | {
                name for name, f in self.prog.functions.items()
                if getattr(f, "mpi_routine", None)}
        return names

    def sets_shadowed_pointers(self, g):
        """True when a call of g sets pointers that have shadows and that outlive the call
        (not the variables of g or of the functions it calls: f2c's `--dx;` on a
        parameter, a comparator's local)."""
        functions = [self.prog.functions[name] for name in reachable(self.prog, [g.name])]
        # the same at each call of g while the graph keeps its shape and the functions
        # their variables
        key = (self.mem.shape, tuple((len(h.locals), len(h.params)) if h.has_body else None
                                     for h in functions))
        known = self.T.variables_memory.get(g.name)
        if known is not None and known[0] == key:
            own = known[1]
        else:
            own = set()
            for h in functions:
                for sym in list(h.locals) + list(h.params) if h.has_body else ():
                    own |= field_closure(self.mem.var(sym))
            self.T.variables_memory[g.name] = (key, own)
        return any(find(n).pointee is not None and find(n) not in own and
                   self.act.needs_shadow(n) for n in self.T.writes.get(g.name, ()))

    def call_mode(self, s, where, state, why):
        self.explain(s, where, "joint mode" if state is not None else "split mode", why)
        return state

    def keep_final(self, items):
        """The final values of memory the head's caller sees, logged before an earlier
        state is brought back over them (see FuncGen.pop)."""
        out = []
        from adgen.transform.checkpoint import item_node
        for addr, nbytes in items:
            node = item_node(self.mem, addr)
            if node in self.T.kept_whole:
                self.T.kept_used.add(node)
            elif node in self.T.ctx.external_nodes:
                self.T.logged = True
                out.append(ir.Raw("keep_bytes", {"ptr": X.clone(addr),
                                                 "bytes": X.clone(nbytes)}))
        return out

    def ruled_call(self, call, lhs, s, g):
        """A call of a function with a user rule: the primal call forward, the user's
        NAME_b backward (see frontend/user_rules.py for the contract)."""
        from adgen.analysis.ruled_calls import (derivative_flows, found_at_run_time,
                                                result_is_active, size_at_call)
        rule, loc = g.user_rule, s.loc
        lhs_active = result_is_active(self.act, lhs)
        if not derivative_flows(self.act, g, call, lhs_active):
            return self.plain_call(call, lhs, s)       # no derivative comes out of it
        # the values the outputs held before the call: in/out arrays need them back for
        # NAME_b; others when the backward sweep reads them. In/out ones are saved last,
        # so that they come back first; NAME_b leaves the outputs as the call did.
        outs, inouts = [], []
        pre, post, bargs = [], [], []
        lengths = []    # lengths found by a call (MPI's every rank's block), once a sweep
        for p, a in zip(g.params, call.args):
            bargs.append(X.clone(a))
            if p.name in rule.refs:     # its adjoint, a null pointer where it has none
                bargs.append(X.clone(self.sh(a)) if self.act.has_shadow(a) else
                             X.null(ir.Ptr(ir.with_const(ir.pointee(p.type.resolved()),
                                                         False)), a.loc))
            if not rule.named(p.name):
                continue
            t = p.type.resolved()
            if t.is_float:
                own = self.temp(p.name + "b", p.type)
                pre.append(ir.Assign(ir.Ref(own), X.zero(p.type), loc))
                bargs.append(ir.AddrOf(ir.Ref(own), ir.Ptr(own.type)))
                if ir.is_lvalue(a) and self.act.active_value(a):
                    post.append(ir.Assign(self.sh(a), X.add(self.sh(a), ir.Ref(own)), loc))
                continue
            if X.is_null(a):
                # no memory (an MPI buffer off the root): nothing kept, zeroed or added,
                # its adjoint a null pointer too
                bargs.append(X.clone(a))
                continue
            n = size_at_call(g, p, call.args)
            if found_at_run_time(n):
                held = self.temp(p.name + "_length", n.type)
                lengths.append((ir.Ref(held), ir.Assign(ir.Ref(held), n, loc)))
                n = lengths[-1][0]
            elem = ir.with_const(ir.pointee(t), False)
            shadow = self.sh(a) if self.act.has_shadow(a) else None
            dep, indep = p.name in rule.dep, p.name in rule.indep
            needed = find(self.mem.target(a)) in self.T.R
            if dep and indep and p.name not in rule.unread:
                inouts.append((a, n, needed))
            elif dep and needed:
                outs.append((a, n))
            if shadow is not None and dep:
                bargs.append(X.clone(shadow))
                if not indep:       # a pure output's seed is consumed, whatever NAME_b does
                    post.append(ir.Raw("zero", {"ptr": X.clone(shadow), "count": X.clone(n)}))
                continue
            # a pure input's adjoint (or an argument without one): through a zeroed buffer
            buf = self.temp(p.name + "b", ir.Ptr(elem))
            pre.append(ir.Raw("scratch_alloc", {"target": ir.Ref(buf), "type": buf.type,
                                                "count": X.clone(n)}, loc))
            bargs.append(ir.Ref(buf))
            if shadow is not None:
                k = self.temp("k", ir.LONG)
                post.append(counted_loop(k, n, [ir.Assign(
                    ir.Index(X.clone(shadow), ir.Ref(k), elem),
                    X.add(ir.Index(X.clone(shadow), ir.Ref(k), elem),
                          ir.Index(ir.Ref(buf), ir.Ref(k), elem)), loc)]))
            post.append(ir.Raw("scratch_free", {"ptr": ir.Ref(buf)}))
        if g.name in rule.dep:
            seed = self.temp(g.name + "b", g.ret)
            pre.append(ir.Assign(ir.Ref(seed), self.sh(lhs) if lhs_active else
                                 X.zero(g.ret), loc))
            # Fortran passes every argument by reference, the seed too
            bargs.append(ir.AddrOf(ir.Ref(seed), ir.Ptr(seed.type))
                         if self.prog.language == "fortran" else ir.Ref(seed))
        if lhs_active:
            pre.append(ir.Assign(self.sh(lhs), X.zero(lhs.type), loc))
        self.T.plain_calls.add(g.name)
        stored = outs + [(a, n) for a, n, _ in inouts]
        # (the forward sweep finds only the lengths of what it stores)
        fwd = [X.clone(st) for n, st in lengths if any(m is n for _, m in stored)] + \
            [self.element_loop(a, n, "push") for a, n in stored]
        bwd = [X.clone(st) for _, st in lengths]
        if lhs is not None and self.saved(lhs):
            fwd.append(ir.Push(lhs, loc))
            bwd.append(self.pop(X.clone(lhs), loc))
        fwd.append(s)
        bwd += [self.element_loop(a, n, "pop") for a, n, _ in reversed(inouts)]
        kept = [(a, n) for a, n, needed in inouts if needed]
        bwd += [self.element_loop(a, n, "push") for a, n in kept]
        bwd += pre + [ir.ExprStmt(ir.Call(g.name + "_b", bargs, ir.VOID, call.loc), loc)]
        bwd += post
        bwd += [self.element_loop(a, n, "pop") for a, n in reversed(kept)]
        bwd += [self.element_loop(a, n, "pop") for a, n in reversed(outs)]
        return fwd, bwd

    def element_loop(self, a, n, what):
        """for (k = 0; k < n; k++) push a[k] (or, `pop`, the same backwards)."""
        elem = ir.with_const(ir.pointee(a.type.resolved()), False)
        k = self.temp("k", ir.LONG)
        item = ir.Index(X.clone(a), ir.Ref(k), elem)
        if what == "push":
            return counted_loop(k, n, [ir.Push(item)])
        one = ir.Const("1", ir.INT)
        return ir.For([ir.Assign(ir.Ref(k), X.sub(X.clone(n), one))],
                      ir.Binary(">=", ir.Ref(k), ir.Const("0", ir.INT), ir.INT),
                      [ir.Assign(ir.Ref(k), X.sub(ir.Ref(k), one))],
                      ir.Block([self.pop(item, None)]))

    def callee_reaches(self, lhs, args, g):
        """True when a call of g may read lhs's memory, through an argument or directly
        (a global): its backward sweep may then add to lhs's adjoint."""
        node = find(self.mem.loc(lhs))
        if any(find(n) is node for n in self.T.ctx.reads().get(g.name, ())):
            return True
        for a in args:
            t = a.type.resolved()
            if isinstance(t, (ir.Ptr, ir.Arr)) and find(self.mem.target(a)) is node:
                return True
            if ir.is_lvalue(a) and find(self.mem.loc(a)) is node:
                return True
            if any(find(n) is node for n in self.act.reads(a)):
                return True
        return False

    def plain_call(self, call, lhs, s):
        self.T.plain_calls.add(call.func)
        if lhs is None:
            return [s], []
        fwd, bwd = [], []
        if self.saved(lhs):
            fwd.append(ir.Push(lhs, s.loc))
            bwd.append(self.pop(X.clone(lhs), s.loc))
        fwd.append(s)
        if lhs.type.resolved().is_float and self.act.active_value(lhs):
            bwd.append(ir.Assign(self.sh(lhs), X.zero(lhs.type), s.loc))
        return fwd, bwd

    # control flow ------------------------------------------------------------
    def if_stmt(self, s):
        tf, tb = self.stmts(s.then.stmts)
        ef, eb = self.stmts(s.other.stmts) if s.other else ([], [])
        if not tb and not eb:
            return [ir.If(s.test, ir.Block(tf), ir.Block(ef) if ef else None, s.loc)], []
        if self.test_evaluated_again(s.test):
            self.explain(s, "branch taken", "not stored", "its test is evaluated again: it "
                         "reads only loop counters and integers the function never changes")
            fwd = [ir.If(s.test, ir.Block(tf), ir.Block(ef) if ef else None, s.loc)]
            test, pop = X.clone(s.test), []
        else:
            self.explain(s, "branch taken", "stored", "the backward sweep takes it again")
            one, zero = ir.Const("1", ir.INT), ir.Const("0", ir.INT)
            fwd = [ir.If(s.test, ir.Block(tf + [ir.Push(one)]),
                         ir.Block(ef + [ir.Push(zero)]), s.loc)]
            br = self.temp("branch", ir.INT)
            test, pop = ir.Ref(br), [ir.Pop(ir.Ref(br), s.loc)]
        back = ir.If(test, ir.Block(tb), ir.Block(eb) if eb else None, s.loc)
        self.bwd_branches[id(s)] = back     # (build_split may set locals again there)
        return fwd, pop + [back]

    def test_evaluated_again(self, test):
        """True when the backward sweep gets the same value from a branch's test as the
        primal did: it reads only the counters of the counted loops around the branch
        (set again by their backward iterations) and integers the function never changes."""
        changed = assigned_in_function(self.f) - set(self.replayed_counters)
        return reads_unchanged_ints(test, changed, self.f, self.readonly_ints(), division=True,
                                    fixed=self.fixed_global)

    def for_loop(self, s):
        canon = canonical_loop(s, self.f)
        if canon is None:
            init_f, init_b = self.stmts(s.init)
            body_f, body_b = self.stmts(s.body.stmts)
            step_f, step_b = self.stmts(s.step)
            if not body_b and not step_b:
                return init_f + [ir.For([], s.test, step_f, ir.Block(body_f), s.loc)], init_b
            test = s.test if s.test is not None else ir.Const("1", ir.INT)
            lf, lb = self.counted_loop(ir.While(test, None, s.loc), body_f + step_f,
                                       step_b + body_b)
            return init_f + lf, lb + init_b
        var, stride = canon
        self.replayed_counters.append(var)
        try:
            bf, bb = self.stmts(s.body.stmts)
        finally:
            self.replayed_counters.pop()
        self.replayed[id(s)] = var
        save_var = self.keeps_counter(s, var)
        if var in self.loop_local:
            self.explain(s, ir.Ref(var), "not stored", "a counter used only in its loops")
        if not bb:
            fwd, bwd = [], []
            if save_var:
                fwd.append(ir.Push(ir.Ref(var), s.loc))
                bwd.append(ir.Pop(ir.Ref(var), s.loc))
            fwd.append(ir.For(s.init, s.test, s.step, ir.Block(bf), s.loc))
            return fwd, bwd
        init_value = s.init[0].rhs
        static_start = invariant(init_value, s, self.f, self.readonly_ints(), self.fixed_global)
        count_formula = self.trip_count(s, var, stride, init_value) if static_start else None
        if count_formula is None and var not in used_symbols(bb):
            # the backward sweep never reads the counter and the trip count cannot be
            # computed again: record the trip count only
            fwd, bwd = [], []
            if save_var:
                fwd.append(ir.Push(ir.Ref(var), s.loc))
                bwd.append(ir.Pop(ir.Ref(var), s.loc))
            body_f, body_b = bf, bb
            lf, lb = self.counted_loop(ir.While(s.test, None, s.loc), body_f, body_b,
                                       for_parts=(s.init, s.step))
            return fwd + lf, lb + bwd
        cnt = self.temp("count", ir.INT)
        k = self.temp("iter", ir.INT)
        fwd, bwd = [], []
        saved = save_var
        if saved:
            fwd.append(ir.Push(ir.Ref(var), s.loc))
        loop_init = list(s.init) if static_start else []
        if not static_start:
            fwd += list(s.init)
        if static_start:
            start_e = X.clone(init_value)
        else:
            start = self.temp("start", var.type)
            start_e = ir.Ref(start)
            fwd.append(ir.Assign(ir.Ref(start), ir.Ref(var), s.loc))
        self.explain(s, "trip count", "not stored" if count_formula is not None else "stored",
                     "computed again from the loop's bounds" if count_formula is not None
                     else "its bound or its step may change inside the loop")
        if count_formula is None:
            fwd.append(ir.Assign(ir.Ref(cnt), ir.Const("0", ir.INT), s.loc))
            incr = ir.Assign(ir.Ref(cnt), X.add(ir.Ref(cnt), ir.Const("1", ir.INT)))
            fwd.append(ir.For(loop_init, s.test, s.step, ir.Block(bf + [incr]), s.loc))
        else:
            fwd.append(ir.For(loop_init, s.test, s.step, ir.Block(bf), s.loc))
        if not static_start:
            fwd.append(ir.Push(ir.Ref(start), s.loc))
        if count_formula is None:
            fwd.append(ir.Push(ir.Ref(cnt), s.loc))
        # Replayed backwards from the start and the trip count: iteration k has
        # var = start + k * stride, whatever the bound and the comparison were. Both are
        # recomputed when the loop leaves what they depend on unchanged, else recorded.
        kref = ir.Ref(k)
        if var.type.resolved().name != "int":
            kref = ir.Cast(var.type, kref)
        value = X.add(start_e, X.mul(kref, X.clone(stride)))
        if count_formula is None:
            bwd.append(ir.Pop(ir.Ref(cnt), s.loc))
        else:
            bwd.append(ir.Assign(ir.Ref(cnt), count_formula, s.loc))
        if not static_start:
            bwd.append(ir.Pop(ir.Ref(start), s.loc))
        back = ir.For([ir.Assign(ir.Ref(k), X.sub(ir.Ref(cnt), ir.Const("1", ir.INT)))],
                      ir.Binary(">=", ir.Ref(k), ir.Const("0", ir.INT), ir.INT),
                      [ir.Assign(ir.Ref(k), X.sub(ir.Ref(k), ir.Const("1", ir.INT)))],
                      ir.Block([ir.Assign(ir.Ref(var), value, s.loc)] + bb), s.loc)
        bwd += self.backward_loop(s, back)
        if count_formula is not None:
            # pushes of consecutive elements made one block, of an element every iteration
            # overwrites made one, at the end (block_pushes.py)
            self.block_loops.append(BlockLoop(s, fwd[-1], back, var, start_e,
                                              X.clone(count_formula), cnt, stride))
        if saved:
            bwd.append(ir.Pop(ir.Ref(var), s.loc))
        return fwd, bwd

    def keeps_counter(self, s, var):
        """True when loop s, replayed from its start with counter var, keeps the counter's
        value from before it: the backward sweep reads that value again (an earlier
        loop's counter undone), and var is not a counter used only in its loops."""
        return self.saved(ir.Ref(var), s) and var not in self.loop_local

    def trip_count(self, s, var, stride, start):
        """The number of iterations of a counted loop as an expression, when its bound and
        its stride are invariant; None otherwise. A stride that is not a constant
        (`i += 2 * b`) goes the way the test asks (up for `<`, `<=`): a loop that runs
        at all and ends does so with such a stride."""
        from adgen.analysis.extent import const_value, normal_test
        step = const_value(stride)
        cmp = normal_test(s.test, var)
        if step == 0 or cmp is None:
            return None
        op, offset, bound = cmp
        if not invariant(bound, s, self.f, self.readonly_ints(), self.fixed_global):
            return None
        if step is None and not (stride.type.resolved().is_int and
                                 invariant(stride, s, self.f, self.readonly_ints(),
                                           self.fixed_global)):
            return None
        one = ir.Const("1", ir.INT)
        b = X.sub(X.clone(bound), ir.Const(str(offset), ir.INT)) if offset else X.clone(bound)
        a = X.clone(start)
        up = op in ("<", "<=")
        if (step is None or step > 0) and up:
            span = X.sub(b, a) if op == "<" else X.add(X.sub(b, a), one)
            n = X.clone(stride) if step is None else step
        elif (step is None or step < 0) and op in (">", ">="):
            span = X.sub(a, b) if op == ">" else X.add(X.sub(a, b), one)
            n = ir.Unary("-", X.clone(stride), ir.INT) if step is None else -step
        else:
            return None
        span = ir.Cast(ir.INT, span) if span.type.resolved().name != "int" else span
        if isinstance(n, int):
            count = span if n == 1 else ir.Binary(
                "/", X.add(span, ir.Const(str(n - 1), ir.INT)), ir.Const(str(n), ir.INT),
                ir.INT)
        else:
            n = ir.Cast(ir.INT, n) if n.type.resolved().name != "int" else n
            count = ir.Binary("/", X.sub(X.add(span, n), one), X.clone(n), ir.INT)
        return ir.Cond(ir.Binary(">", X.clone(span), ir.Const("0", ir.INT), ir.INT), count,
                       ir.Const("0", ir.INT), ir.INT)

    def while_loop(self, s):
        bf, bb = self.stmts(s.body.stmts)
        if not bb:
            if isinstance(s, ir.While):
                return [ir.While(s.test, ir.Block(bf), s.loc)], []
            return [ir.DoWhile(ir.Block(bf), s.test, s.loc)], []
        return self.counted_loop(s, bf, bb)

    def counted_loop(self, s, body_f, body_b, for_parts=None):
        """A loop whose trip count is recorded and replayed by the backward sweep."""
        self.explain(s, "trip count", "stored", "a loop adgen cannot count again")
        cnt = self.temp("count", ir.INT)
        k = self.temp("iter", ir.INT)
        incr = ir.Assign(ir.Ref(cnt), X.add(ir.Ref(cnt), ir.Const("1", ir.INT)))
        fwd = [ir.Assign(ir.Ref(cnt), ir.Const("0", ir.INT), s.loc)]
        if for_parts is not None:
            fwd.append(ir.For(for_parts[0], s.test, for_parts[1], ir.Block(body_f + [incr]),
                              s.loc))
        elif isinstance(s, ir.DoWhile):
            fwd.append(ir.DoWhile(ir.Block(body_f + [incr]), s.test, s.loc))
        else:
            fwd.append(ir.While(s.test, ir.Block(body_f + [incr]), s.loc))
        fwd.append(ir.Push(ir.Ref(cnt), s.loc))
        bwd = [ir.Pop(ir.Ref(cnt), s.loc)]
        bwd += self.backward_loop(s, ir.For([ir.Assign(ir.Ref(k), ir.Ref(cnt))],
                                            ir.Binary(">", ir.Ref(k), ir.Const("0", ir.INT),
                                                      ir.INT),
                                            [ir.Assign(ir.Ref(k),
                                                       X.sub(ir.Ref(k), ir.Const("1", ir.INT)))],
                                            ir.Block(body_b), s.loc))
        return fwd, bwd

    def backward_loop(self, s, loop):
        """The backward loop of loop s (its adjoint sums are split at the end)."""
        self.backward_loops.append((s, loop))
        return [loop]

    def block_pushes(self, fns):
        """Make the pushes of consecutive elements by counted loops block pushes, and those
        of an element every iteration overwrites one push (see block_pushes.py). Done
        last: the analyses read the sweeps one element at a time."""
        self.hoisted = {}       # (as made now)
        for loop, elem, how in push_blocks(self.block_loops, fns, self.adjoint_storage,
                                           self.sweep_copies, self.elements_apart):
            if how == "hoisted":
                self.hoisted.setdefault(id(loop.source), []).append(elem)
                self.explain(loop.source, elem, "stored once for the whole loop",
                             "each iteration overwrites it, and no backward iteration "
                             "reads the values in between")
            else:
                self.explain(loop.source, elem, "stored as one block",
                             "consecutive elements, each stored before its own iteration "
                             "overwrites it")

    def hoisted_elements(self, loop):
        """The elements the sweeps of primal loop `loop` push once rather than in every
        iteration: as block_pushes made them, or before it runs, as it would (the stack
        counts of the cost model of joint mode read them from a pass's sweeps)."""
        if self.hoisted is None:
            self.hoisted = {}
            for each in self.block_loops:
                pairs = hoistable(each, self.adjoint_storage, self.elements_apart(each.source))
                if pairs:
                    self.hoisted[id(each.source)] = [push.value for push, _ in pairs]
        return self.hoisted.get(id(loop), ())

    def elements_apart(self, loop):
        """For primal loop `loop`: a test whether two lvalues never name the same element
        while it and the counted loops around it run (block_pushes.elements_apart); the
        loops' bounds are read at its first question."""
        from adgen.analysis.extent import IndexWalker
        known = []

        def apart(a, b):
            if not known:
                if self._index_walker is None:
                    self._index_walker = IndexWalker(self.T.ctx.extents, self.f, None)
                bounds = []
                for lp in enclosing_loops(self.f.body.stmts, loop) or []:
                    try:
                        bounds.append(self._index_walker.loop_bounds(lp, bounds))
                    except NotPolynomial:
                        pass
                known.append(bounds)
            return elements_apart(a, b, self._index_walker, known[0])
        return apart

    def split_backward_sums(self, fns):
        """Split the adjoint sums of the backward loops in the finished functions fns (see
        split_sums.py). Done last: the analyses of the sweeps read them unsplit."""
        for s, loop in self.backward_loops:
            made = []

            def temp(base, t):
                sym = ad_temp(self.names.fresh(base), t)
                made.append(LocalDecl(sym))
                return sym
            split = split_sums(loop, temp, self.adjoint_storage)
            if split is None:
                continue
            stmts, sums = split
            home = next((fn for fn in fns if replace_stmt(fn.body, loop, stmts)), None)
            if home is None:
                continue        # the loop was copied (by checkpointing), not kept
            home.locals.extend(made)
            for a in sums:
                self.explain(s, self.adjoint_text(a), f"summed in {PARTS} parts",
                             "adjoint increments may come in any order: the loop vectorizes")

    def adjoint_storage(self, e):
        """For split_sums, the memory lvalue e names: ("primal", node) for primal memory,
        ("adjoint", node) for the adjoint of the primal memory of that node (adjoints of
        memory that may alias may alias), ("temp", variable) for a scalar temporary,
        UNKNOWN when it cannot tell."""
        sym = ir.root_symbol(e)
        if sym is None:
            return UNKNOWN
        if getattr(sym, "is_ad", False):
            t = sym.type.resolved()
            return ("temp", sym) if t.is_float or t.is_int else UNKNOWN
        primal = getattr(sym, "primal", None)
        if primal is None:
            node = find(self.mem.loc(e))
            return UNKNOWN if node.label == "rvalue" else ("primal", node)
        image = self.sh.by_sym.get(primal)
        if isinstance(image, ir.Deref) and isinstance(image.ptr, ir.Ref) \
                and image.ptr.sym is sym and self.kind == "head" and same_text(e, image):
            # the adjoint of a by-value parameter of the head: the caller's own variable
            return ("adjoint", find(self.mem.var(primal)))
        if not (isinstance(image, ir.Ref) and image.sym is sym):
            # the adjoint of a by-value parameter of a callee, reached through a pointer:
            # what its calls point it to (&vb[3] for v[3], the caller's temporary), when
            # they all point it to the same
            at_calls = self.T.value_param_adjoints.get((self.f.name, primal), {UNKNOWN})
            if isinstance(image, ir.Deref) and same_text(e, image) and len(at_calls) == 1:
                return next(iter(at_calls))
            return UNKNOWN
        node = find(self.mem.loc(self.primal_of(e, sym)))
        return UNKNOWN if node.label == "rvalue" else ("adjoint", node)

    def adjoint_text(self, a):
        """`adjoint of x[i]` for an adjoint lvalue (for --explain), in the input's
        language."""
        from adgen.ir.fortran_text import source_text
        text = source_text(self.T.ctx.prog.language)
        sym = ir.root_symbol(a)
        primal = getattr(sym, "primal", None)
        image = self.sh.by_sym.get(primal) if primal is not None else None
        if image is None:
            return text(a)
        if same_text(a, image):
            return f"adjoint of {ir.source_name(primal)}"
        return f"adjoint of {text(self.primal_of(a, sym))}"

    def primal_of(self, e, sym):
        """The primal lvalue whose adjoint is e, an lvalue rooted at shadow symbol sym."""
        return X.substitute(e, {sym: ir.Ref(sym.primal)})
