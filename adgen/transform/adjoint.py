"""Reverse (adjoint) mode.

Each head `f` becomes `f_b`: its forward sweep (the original statements, saving what the
backward sweep will need) followed by its backward sweep (the adjoint statements in reverse
order). A differentiated callee `g` is split into `g_fwd` and `g_bwd`, called from the two
sweeps of its caller.

What is saved: before a statement overwrites a value that the backward sweep reads (the
*backward-read* set, computed from the generated backward code itself, to a fixed point),
the old value is pushed; the backward sweep pops it just before the statement's adjoint,
so every adjoint statement sees the values its original saw. Branch directions and trip
counts are recorded; canonical counted loops are replayed from their start and stride.

This module runs the passes over the program (ReverseTransform); the sweeps of one
function are built in adjoint_function.py (statements, storage) and adjoint_calls.py
(calls, control flow).
"""

from adgen import ir, progress
from adgen.analysis.activity import find
from adgen.analysis.extent import Unknown
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.ir.generated import LocalDecl
from adgen.transform.adjoint_function import FuncGen
from adgen.transform.common import ad_temp, base_symbol, source_name, unknown_function_error
from adgen.transform.recompute import find_recomputations
from adgen.transform.tbr import ArraySaves, LocalTBR


# passes of ReverseTransform.run: each generates the sweeps from the previous one's findings
MAX_PASSES = 50


class ReverseTransform:
    def __init__(self, ctx):
        self.ctx = ctx
        self.prog = ctx.prog
        self.mem = ctx.mem
        self.act = ctx.act
        self.R = set()
        # per generated function: {id(statement): locals it saves}, and the locals whose
        # final values its backward sweep reads (see tbr.py)
        self.local_saves = {}
        self.local_exit = {}
        self.covered = {}       # per generated function: writes an earlier save covers
        # the pointers standing for local arrays moved to the heap (FuncGen.arrays_to_heap),
        # one symbol each for all passes, so that the analyses see the same memory each time
        self.heap_pointers = {}
        self.joint_calls = {}   # id(call statement) -> why it runs in joint mode
        self.mpi_message_names = None   # (FuncGen.mpi_messages)
        # memory the head's caller sees whose final values are copied whole once, when
        # the backward sweep brings back earlier values (instead of logging each one)
        self.final_copies, self.kept_whole = self.whole_copies()
        # scratch memory filled again by the backward sweep instead of saved
        self.recomputed = find_recomputations(ctx)
        self.recomputed_nodes = {n: rc for rc in self.recomputed.values() for n in rc.nodes}
        # locals set again instead of saved: no local to-be-recorded analysis of them
        self.recomputed_scalars = {rc.scalar: rc for rc in self.recomputed.values()
                                   if rc.scalar is not None}
        self.kept_used = set()  # of those nodes, the ones the backward sweep restores
        self.last_funcgens = None   # the previous pass's, for the joint-mode cost model
        self._last_usage = None
        # (callee, parameter position) whose memory holds values nothing needs at every
        # call: the callee's first writes there are not saved (tbr.ArraySaves)
        self.fresh_params = set()
        self.loop_warnings = {}     # (set again by each pass: see run)
        # {callee: (key, the memory of its and its callees' variables)}, for
        # FuncGen.sets_shadowed_pointers
        self.variables_memory = {}
        # the names of the program's globals and functions and of the globals' shadows,
        # which no generated local takes (FuncGen.names)
        self.program_names = None

    # ---------------------------------------------------------------- driver
    def run(self):
        from adgen.analysis.extent import IndexWalker
        no_globals = not any(not getattr(v, "is_library", False) for v in self.prog.globals)
        settled = False     # the previous pass changed nothing (but call modes)
        first_pass = True
        expected = len(self.ctx.functions)     # how many a pass generates (progress report)
        for npass in range(1, MAX_PASSES + 1):
            self.decisions = {}     # --explain, of the last pass: (loc, what) -> text
            # what the last pass says of loops it could not reverse as asked (warnings):
            # an earlier pass may have met another reason first
            self.loop_warnings = {}
            self.logged = False
            self.zero_on_read = set()
            self.zeroed_as_read = []    # the names of those nodes' arrays (`x`, `m->x`)
            self.generated = {}
            self.plain_calls = set()
            # what the adjoint of a callee's by-value parameter points to at its calls
            # (see FuncGen.adjoint_storage): {(callee, parameter): {storage keys}}
            self.value_param_adjoints = {}
            self.kept_used = set()
            self.order = []
            self.funcgens = {}
            self.writes = self.ctx.writes()
            joint_before = len(self.joint_calls)
            # a call's mode is decided by the previous pass's counts, which hold only
            # once that pass changed nothing more
            self.undecided = False
            self.gains = []     # ((arguments of joint_gain), its answer) of this pass
            for head in self.ctx.heads:
                self.gen_head(head)
            k = 0
            while k < len(self.order):
                name = self.order[k]
                progress.step(f"differentiating, pass {npass}", k + 1,
                              max(expected, len(self.order)),
                              source_name(self.prog.functions[name]))
                if name not in self.generated:
                    self.gen_split(self.prog.functions[name])
                k += 1
            expected = len(self.order)
            new_r = self.scan_backward_reads()
            stable = new_r <= self.R
            self.R |= new_r
            observed = {}   # (callee, parameter position) -> fresh at each call walked
            split = {key for key in self.funcgens if isinstance(key, str)}
            touched = self.touched_by_sweeps(split)
            for key, g in self.funcgens.items():
                saves, exit_req = LocalTBR(g.tracked - self.recomputed_scalars.keys(),
                                           g.bwd_of, g.replayed,
                                           g.recomputed_at).run(g.f.body.stmts)
                old = self.local_saves.setdefault(key, {})
                for k, syms in saves.items():
                    if not syms <= old.get(k, set()):
                        stable = False
                        old.setdefault(k, set()).update(syms)
                if not exit_req <= self.local_exit.get(key, set()):
                    stable = False
                    self.local_exit[key] = self.local_exit.get(key, set()) | exit_req
                saves = ArraySaves(g.f, g.bwd_of, self.element_node,
                                   IndexWalker(self.ctx.extents, g.f, None), no_globals,
                                   self.fresh_params if key == g.f.name else (), split,
                                   touched)
                covered = saves.run(g.f.body.stmts)
                if covered != self.covered.get(key, set()):
                    stable = False
                    self.covered[key] = covered
                for site, fresh in saves.sites.items():
                    observed[site] = observed.get(site, True) and fresh
            # a callee's parameter is fresh when it is at each of its calls; once found
            # not to be, it stays so (the passes then settle)
            fresh = {site for site, ok in observed.items() if ok}
            fresh = fresh if first_pass else fresh & self.fresh_params
            if fresh != self.fresh_params:
                stable = False
                self.fresh_params = fresh
            first_pass = False
            if stable and len(self.joint_calls) == joint_before and \
                    not (self.undecided and not settled):
                break
            settled = stable and len(self.joint_calls) == joint_before
            self.last_funcgens, self._last_usage = self.funcgens, None
            if stable and self.repeats_itself():
                break
        else:
            # the sweeps of the last pass may miss a value the backward sweep reads
            raise AdgenError(f"internal error in adgen: what the backward sweep reads did not "
                             f"settle in {MAX_PASSES} passes; please report this program",
                             self.ctx.heads[0].func.loc)
        return self.output()

    def defers_free(self):
        """True when some generated function defers a free() of the program."""
        return any(isinstance(e, ir.Call) and e.func == "adgen_defer_free"
                   for fns in self.generated.values() for fn in fns
                   for st in ir.stmts_walk(fn.body) for x in ir.stmt_exprs(st)
                   for e in ir.walk(x))

    def output(self):
        self.prog.warnings = getattr(self.prog, "warnings", []) + list(
            self.loop_warnings.values())
        for key, g in self.funcgens.items():
            g.block_pushes(self.generated[key])
            g.split_backward_sums(self.generated[key])
        # Memory the program allocated is freed where the backward sweep reaches its
        # allocation; with the log in use, only after the log has been replayed (logged
        # values may lie in it, when the analysis could not tell it from the caller's).
        release = "adgen_release" if self.logged else "free"
        defers = self.defers_free()
        for fns in self.generated.values():
            for fn in fns:
                for st in ir.stmts_walk(fn.body):
                    if isinstance(st, ir.Raw) and st.template == "release":
                        if_freed = st.args.get("if_freed")
                        if if_freed and not defers:
                            st.template, st.args = "nothing", {}    # the program frees nothing
                            continue
                        st.template = "release_if_freed" if if_freed else "call1"
                        st.args = {"func": release, "arg": st.args["ptr"]}
                    elif isinstance(st, ir.Raw) and st.template in ("log_mark", "log_cut"):
                        # (see checkpoint.py) only when something is logged at all
                        if not self.logged:
                            st.template, st.args = "nothing", {}
        self.copy_final_values()
        if self.logged:
            for head in self.ctx.heads:
                fn = self.generated[("head", head.func.name)][0]
                fn.body.append(ir.ExprStmt(ir.Call("adgen_log_replay", [], ir.VOID)))
        if defers:
            # the blocks the program freed that were allocated before the head ran
            for head in self.ctx.heads:
                fn = self.generated[("head", head.func.name)][0]
                fn.body.append(ir.ExprStmt(ir.Call("adgen_free_deferred", [], ir.VOID)))
        funcs = []
        for name in self.order:
            funcs.extend(self.generated[name])
        for head in self.ctx.heads:
            funcs.extend(self.generated[("head", head.func.name)])
        return funcs

    def saved(self, lv):
        return find(self.mem.loc(lv)) in self.R

    def touched_by_sweeps(self, names):
        """{name of g, g_fwd, g_bwd: the primal memory g reads or writes, callees
        included} for the differentiated callees g: all that running g or its sweeps
        may read of it (a sweep reads what g reads, and the values g leaves)."""
        reads, writes = self.ctx.reads(), self.writes
        out = {}
        for name in names:
            nodes = {find(n) for n in reads.get(name, ()) | writes.get(name, set())}
            for called in (name, name + "_fwd", name + "_bwd"):
                out[called] = nodes
        return out

    # ------------------------------------------------- final values, copied whole
    def whole_copies(self):
        """([(variable, element count or None, nodes)], all those nodes): the arrays of
        the head's pointer parameters whose lengths adgen knows, and its globals (one
        head only), each memory no other way of the caller's reaches."""
        if len(self.ctx.heads) != 1:
            return [], set()
        f, mem = self.ctx.heads[0].func, self.mem
        copies, reached = [], set()     # reached: memory the caller reaches otherwise
        for p in f.params:
            t = p.type.resolved()
            if not isinstance(t, ir.Ptr):
                if isinstance(t, ir.Struct):
                    reached |= {find(n).pointee for n in find(mem.var(p)).fields.values()}
                continue
            if ir.pointee(t).const:
                continue        # never written through: nothing there to give back
            n = None
            if not ir.pointee(t).resolved().is_pointer and \
                    not ir.pointee(t).resolved().is_struct:
                try:
                    n = self.ctx.try_extent(f, p)
                except Unknown:          # the analysis cannot tell: the log keeps them
                    pass
                if n is not None and not self.fixed_during_call(n, f):
                    n = None            # a length the head may change: the log again
            if n is not None:
                copies.append((p, n, {find(mem.pointee(mem.var(p)))}))
            else:
                reached.add(find(mem.pointee(mem.var(p))))
        for g in self.prog.globals:
            t = g.type.resolved()
            if getattr(g, "is_library", False):
                continue
            if isinstance(t, ir.Arr) and t.size is None:
                continue        # `extern double g[];`: no size to copy, the log keeps it
            nodes = {find(mem.var(g))}
            if isinstance(t, ir.Arr):
                nodes.add(find(mem.loc(ir.Index(ir.Ref(g), ir.Const("0", ir.INT), t.elem))))
            copies.append((g, None, nodes))
        for n in self.ctx.external_nodes:
            reached |= {find(m) for m in [n.pointee] + list(n.fields.values())
                        if m is not None}
        reached.discard(None)
        copies = [c for c in copies if not (c[2] & reached)]
        return copies, {n for c in copies for n in c[2]}

    def fixed_during_call(self, e, f):
        """True when expression e over f's parameters has one value during the call: it
        reads only integer parameters f never assigns and sizes it never writes through."""
        from adgen.analysis.loops import assigned_syms
        readonly = self.ctx.extents.readonly_ints(f)
        assigned = assigned_syms(f.body.stmts)
        for sub in ir.walk(e):
            if isinstance(sub, ir.Deref) and not (isinstance(sub.ptr, ir.Ref) and
                                                  sub.ptr.sym in readonly):
                return False
            if isinstance(sub, ir.Ref) and (sub.sym.kind != "param" or sub.sym in assigned):
                if not any(isinstance(d, ir.Deref) and d.ptr is sub for d in ir.walk(e)):
                    return False
        return True

    def copy_final_values(self):
        """The head's copies of final values, where its backward sweep restores some."""
        for var, n, nodes in self.final_copies:
            if not nodes & self.kept_used:
                continue
            head = self.ctx.heads[0].func
            gen = self.funcgens[("head", head.name)]
            fn = self.generated[("head", head.name)][0]
            t = var.type.resolved()
            # buffers of the values' own type (adgen reads this output again: docs/
            # second-order.md), an array's of its elements
            if n is None and t.is_array:
                n = t.size
            if n is not None:
                elem = ir.with_const(ir.pointee(t) if t.is_pointer else t.elem, False)
                buf = ad_temp(gen.names.fresh(var.name + "_final"), ir.Ptr(elem))
                nbytes = ir.Binary("*", X.clone(n), ir.SizeOf(elem), ir.SIZE_T)
                where = ir.Ref(var)
            else:
                buf = ad_temp(gen.names.fresh(var.name + "_final"),
                              ir.Ptr(ir.with_const(var.type, False)))
                n = ir.Const("1", ir.INT)
                nbytes = ir.SizeOf(ir.with_const(var.type, False))
                where = ir.AddrOf(ir.Ref(var), ir.Ptr(var.type))
            alloc = ir.Raw("scratch_alloc", {"target": ir.Ref(buf), "type": buf.type,
                                             "count": X.clone(n)}, var.loc)
            gen.scratch_allocs.append(alloc)
            fn.locals.append(LocalDecl(buf))
            # allocated before anything else (a static stack's blocks and pushes share
            # one stack), freed after everything else
            fn.body.insert(0, alloc)
            at = fn.body.index(gen.backward_mark)
            fn.body[at:at] = [
                ir.Comment(f"the final values of {source_name(var)}, given back after the "
                           "backward sweep brings back earlier ones"),
                ir.ExprStmt(ir.Call("memcpy", [ir.Ref(buf), X.clone(where), X.clone(nbytes)],
                                    ir.VOID))]
            at = fn.body.index(gen.backward_end)
            fn.body.insert(at, ir.ExprStmt(ir.Call("memcpy", [X.clone(where), ir.Ref(buf),
                                                              X.clone(nbytes)], ir.VOID)))
            fn.body.append(ir.Raw("scratch_free", {"ptr": ir.Ref(buf)}))

    def repeats_itself(self):
        """True when the next pass would generate what this one did, once nothing else this
        pass carries over changed (stable): the next pass differs from it only in the call
        modes, which it reads from joint_calls for the calls this pass put in joint mode (as
        this pass did when it decided), and asks joint_gain for the others with this pass's
        record sizes instead of the previous pass's. When each of those answers comes out as
        this pass's, so does every statement, and so would every later pass's."""
        return all(answer[0] or self._joint_gain(*args) == answer
                   for args, answer in self.gains)

    def joint_gain(self, gen, g, call, state, s):
        """(joint, why) for the call of g in gen's function: joint mode where what g records
        per call (by the previous pass) exceeds the state kept, for large sizes, by as many
        bytes in order of growth as g records; else split mode."""
        args = (gen, g, call, list(state), s)
        answer = self._joint_gain(*args)
        self.gains.append((args, answer))
        return answer

    def _joint_gain(self, gen, g, call, state, s):
        from adgen.analysis.extent import NotPolynomial
        from adgen.transform.stack_usage import (Unbounded, Usage, UsageCounter, formula_text,
                                                 lp64_sizes)
        no_more = False, "the callee records no more than the state joint mode would keep"
        if self.last_funcgens is None or g.name not in self.last_funcgens or \
                gen.key not in self.last_funcgens:
            self.undecided = True
            return no_more
        self.undecided = True       # consulted: the counts must be settled ones
        if self._last_usage is None:
            self._last_usage = Usage(self, self.last_funcgens)
        usage = self._last_usage
        counter = UsageCounter(usage, self.last_funcgens[gen.key])
        try:
            kept = None
            for _, nbytes in state:
                kept = counter.upper(nbytes) if kept is None else kept + counter.upper(nbytes)
        except NotPolynomial:
            return no_more
        try:
            recorded = usage.of(g.name)[0]
            recorded = counter.substitute(recorded, g, call.args, [], s)
        except Unbounded:
            return True, f"the callee records an unbounded number of bytes, the state " \
                         f"{formula_text(kept, lp64=True) if kept else 0} bytes"
        except NotPolynomial:
            return no_more
        kept = kept if kept is not None else recorded - recorded
        saved = lp64_sizes(recorded - kept)
        if not _grows_positive(saved):
            return no_more
        sizes = f"the callee records {formula_text(recorded, lp64=True)} bytes, the state " \
                f"kept is {formula_text(kept, lp64=True)} bytes"
        # running the callee twice is not worth a few scalars per call beside a record of
        # the state's own size (a block of out[] and the final value of an index)
        if _degree(saved) < _degree(lp64_sizes(recorded)):
            return False, sizes + ": too few more to run it twice"
        return True, sizes

    def element_node(self, e):
        """The memory node of a primal element expression, None for anything else."""
        if isinstance(e, (ir.Index, ir.Member, ir.Deref)) and not _is_shadow_expr(e):
            return find(self.mem.loc(e))
        return None

    def call_is_diff(self, g):
        if self.act.ret_active(g) or self.act.ret_pointer_shadowed(g):
            return True
        if self.ctx.frees(g.name):
            return True         # its free() must wait for the backward sweep
        for n in self.writes.get(g.name, ()):
            n = find(n)
            if n in self.R or self.act.is_active(n) or self.act.needs_shadow(n):
                return True
        return False

    def request(self, g):
        if g.name not in self.order:
            self.order.append(g.name)

    # -------------------------------------------------------- backward reads
    def scan_backward_reads(self):
        """The memory nodes whose values some backward sweep reads. A statement that
        runs the primal again from a kept state brought back just before it (a
        checkpointed loop's) reads of that state only values the state or that run set,
        never one a pop restored: those reads are left out."""
        found = set()
        for g in self.funcgens.values():
            for part in g.backward_in_forward:
                for s in ir.stmts_walk(part):
                    self._scan_stmt(s, found)
        for key, fns in self.generated.items():
            rerun = self.funcgens[key].rerun_state if key in self.funcgens else {}
            for fn in fns:
                if getattr(fn, "bwd_part", None) is not None:
                    for s in ir.stmts_walk(fn.bwd_part):
                        if id(s) in rerun:
                            reads = set()
                            self._scan_stmt(s, reads)
                            state = {find(n) for n in rerun[id(s)]}
                            found |= {n for n in reads if find(n) not in state}
                        else:
                            self._scan_stmt(s, found)
        return found

    def _scan_stmt(self, s, found):
        if isinstance(s, ir.Assign):
            self._scan_write(s.lhs, found)
            self._scan_read(s.rhs, found)
        elif isinstance(s, ir.Pop):
            self._scan_write(s.target, found)
        elif isinstance(s, ir.Raw):
            for v in s.args.values():
                if isinstance(v, ir.Expr):
                    self._scan_read(v, found)
        else:
            for e in ir.stmt_exprs(s):
                self._scan_read(e, found)

    def _scan_write(self, e, found):
        if isinstance(e, ir.Ref):
            self._scan_sym(e.sym, found, write=True)
            return
        for c in e.children():
            if isinstance(e, ir.Index) and c is e.base:
                self._scan_write_base(c, found)
            else:
                self._scan_read(c, found)

    def _scan_write_base(self, e, found):
        if isinstance(e.type.resolved(), ir.Arr):
            self._scan_write(e, found)
        else:
            self._scan_read(e, found)

    def _scan_read(self, e, found):
        if e is None:
            return
        if isinstance(e, ir.Ref):
            self._scan_sym(e.sym, found)
            return
        if isinstance(e, (ir.Index, ir.Member, ir.Deref)) and not _is_shadow_expr(e) and \
                not _is_temp_memory(e):
            found.add(find(self.mem.loc(e)))
        elif isinstance(e, (ir.Index, ir.Member, ir.Deref)) and _is_shadow_expr(e) and \
                e.type is not None and e.type.resolved().is_pointer:
            # a shadow pointer held in memory (`wb.out`) moves with the primal one (`w.out++`
            # steps both): reading it needs the primal's value of that point restored
            sym = base_symbol(e)
            found.add(find(self.mem.loc(X.substitute(e, {sym: ir.Ref(sym.primal)}))))
        if isinstance(e, ir.SizeOf):
            return
        if isinstance(e, ir.Call):
            # a callee run by the backward sweep (a call in joint mode, a checkpointed
            # step) reads what it reads in the primal
            name = e.func[:-len("_fwd")] if e.func.endswith("_fwd") else e.func
            found |= self.ctx.reads().get(name, set())
            ruled = self.prog.functions.get(e.func[:-len("_b")])
            if e.func.endswith("_b") and getattr(ruled, "user_rule", None) is not None:
                # NAME_b of a rule reads the arrays it is given, as the call left them
                for a in e.args:
                    # (a null pointer, an MPI buffer off the root, reaches no memory)
                    if a.type is not None and a.type.resolved().is_pointer and \
                            getattr(base_symbol(a), "primal", None) is None and \
                            not _is_temp_memory(a) and not X.is_null(a):
                        found.add(find(self.mem.target(a)))
        for c in e.children():
            if isinstance(e, ir.Call) and isinstance(c, ir.Ref) and \
                    c.type.resolved().is_array and self._sweep_call(e.func):
                continue    # an array given to a sweep, which is scanned for what it reads
            self._scan_read(c, found)

    def _sweep_call(self, name):
        """True for a forward or backward sweep of a function of the program."""
        return name.endswith(("_fwd", "_bwd")) and name[:-len("_fwd")] in self.prog.functions

    def _scan_sym(self, sym, found, write=False):
        primal = getattr(sym, "primal", None)
        if primal is not None:
            if primal.type.resolved().is_pointer or primal.type.resolved().is_struct:
                found.add(find(self.mem.var(primal)))
            return
        if getattr(sym, "is_ad", False) or write:
            return
        found.add(find(self.mem.var(sym)))

    # ------------------------------------------------------------- functions
    def gen_head(self, head):
        f = head.func
        g = FuncGen(self, f, "head", head)
        self.funcgens[g.key] = g
        self.generated[("head", f.name)] = g.build_head()

    def gen_split(self, f):
        if not f.has_body:
            raise unknown_function_error(f.name, f.loc)
        g = FuncGen(self, f, "split", None)
        self.funcgens[g.key] = g
        self.generated[f.name] = g.build_split()


def _degree(p):
    """The highest degree of a polynomial's terms (0 for a constant or zero)."""
    return max((len(k) for k in p.terms), default=0)


def _grows_positive(p):
    """True when polynomial p (in sizes, all >= 0) is positive for large sizes: its terms
    of the highest degree all have positive coefficients."""
    if not p.terms:
        return False
    top = max(len(k) for k in p.terms)
    return all(v > 0 for k, v in p.terms.items() if len(k) == top)


def _is_shadow_expr(e):
    """True for an adjoint variable or memory reached through one."""
    return isinstance(e, (ir.Ref, ir.Index, ir.Member, ir.Deref)) and \
        getattr(base_symbol(e), "primal", None) is not None


def _is_temp_memory(e):
    """True for memory reached through one of adgen's temporaries (an adjoint array made
    for a call, a fixed-point loop's copy): none of the program's. Each pass of the reverse
    transform makes its temporaries anew; their nodes would keep it from settling."""
    return getattr(base_symbol(e), "is_ad", False)
