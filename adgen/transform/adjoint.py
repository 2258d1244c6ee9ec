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
"""
import copy

from adgen import ir
from adgen.analysis.activity import field_closure, find, struct_with_pointers
from adgen.analysis.extent import (Unknown, const_value, descriptor_rank, field_expr,
                                   field_path_text, through_pointer)
from adgen.ir.generated import GenFunction, LocalDecl
from adgen.ir.exprs import used_symbols
from adgen.errors import AdgenError
from adgen.rules import ALLOCATION, LIBRARY_FUNCTIONS, piecewise_expr, rule_expr, zero_with
from adgen.ir import exprs as X
from adgen.transform.block_pushes import BlockLoop, push_blocks
from adgen.transform.common import (ShadowMap, alloc_bytes, alloc_call, base_symbol,
                                    handle_parts, increment, is_user_call, located,
                                    no_rule_error, shadow_global_setup, source_name,
                                    strip_const, zero_stmt, refuse_internal_pointer_fields,
                                    unknown_function_error)
from adgen.ir.exprs import counted_loop, same_text
from adgen.analysis.loops import canonical_loop, invariant, loop_local_vars
from adgen.transform.recompute import exit_recomputations, find_recomputations
from adgen.transform.split_sums import PARTS, UNKNOWN, replace_stmt, split_sums
from adgen.transform.tbr import ArraySaves, LocalTBR, tracked_locals


# passes of ReverseTransform.run: each generates the sweeps from the previous one's findings
MAX_PASSES = 50


def ad_temp(name, t):
    s = ir.Symbol(name, ir.with_const(t, False), "temp")
    s.is_ad = True
    return s


class Names:
    """Unique names inside one generated function."""

    def __init__(self, taken):
        self.taken = set(taken)

    def fresh(self, base):
        name, k = base, 1
        while name in self.taken:
            k += 1
            name = f"{base}{k}"
        self.taken.add(name)
        return name


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

    # ---------------------------------------------------------------- driver
    def run(self):
        from adgen.analysis.extent import IndexWalker
        no_globals = not any(not getattr(v, "is_library", False) for v in self.prog.globals)
        settled = False     # the previous pass changed nothing (but call modes)
        first_pass = True
        for _ in range(MAX_PASSES):
            self.decisions = {}     # --explain, of the last pass: (loc, what) -> text
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
            for head in self.ctx.heads:
                self.gen_head(head)
            k = 0
            while k < len(self.order):
                name = self.order[k]
                if name not in self.generated:
                    self.gen_split(self.prog.functions[name])
                k += 1
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
            if n is not None:
                elem = ir.with_const(ir.pointee(t), False)
                buf = ad_temp(gen.names.fresh(var.name + "_final"), ir.Ptr(elem))
                nbytes = ir.Binary("*", X.clone(n), ir.SizeOf(elem), ir.SIZE_T)
                where = ir.Ref(var)
                alloc = ir.Raw("scratch_alloc", {"target": ir.Ref(buf), "type": buf.type,
                                                 "count": X.clone(n)}, var.loc)
            else:
                buf = ad_temp(gen.names.fresh(var.name + "_final"),
                              ir.Ptr(ir.Prim("unsigned char")))
                nbytes = ir.SizeOf(ir.with_const(var.type, False))
                where = ir.AddrOf(ir.Ref(var), ir.Ptr(var.type))
                alloc = ir.Raw("scratch_alloc", {"target": ir.Ref(buf), "type": buf.type,
                                                 "count": X.clone(nbytes)}, var.loc)
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

    def joint_gain(self, gen, g, call, state, s):
        """(joint, why) for the call of g in gen's function: joint mode where what g records
        per call (by the previous pass) exceeds the state kept, for large sizes, by as many
        bytes in order of growth as g records; else split mode."""
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
        found = set()
        for fns in self.generated.values():
            for fn in fns:
                if getattr(fn, "bwd_part", None) is not None:
                    for s in ir.stmts_walk(fn.bwd_part):
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
                    if a.type is not None and a.type.resolved().is_pointer and \
                            getattr(base_symbol(a), "primal", None) is None and \
                            not _is_temp_memory(a):
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


def _replace_calls(e, func, marks, value):
    """Copy of e with each call func(marks...) replaced by value."""
    if isinstance(e, ir.Call) and e.func == func and \
            [getattr(a, "sym", None) for a in e.args] == marks:
        return X.clone(value)
    e = copy.copy(e)
    for name in ("arg", "left", "right", "test", "then", "other"):
        if isinstance(getattr(e, name, None), ir.Expr):
            setattr(e, name, _replace_calls(getattr(e, name), func, marks, value))
    if isinstance(e, ir.Call):
        e.args = [_replace_calls(a, func, marks, value) for a in e.args]
    return e


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


def unless_null(addr, stmts):
    """stmts, on the memory at addr, under a test that its pointer is not null where it may
    be: a Fortran OPTIONAL dummy argument's, which a call may leave out."""
    base = base_symbol(addr)
    if not stmts or base is None or not getattr(base, "optional", False):
        return stmts
    return [ir.If(ir.Binary("!=", ir.Ref(base), X.null(base.type), ir.INT), ir.Block(stmts))]


def _is_shadow_expr(e):
    """True for an adjoint variable or memory reached through one."""
    return isinstance(e, (ir.Ref, ir.Index, ir.Member, ir.Deref)) and \
        getattr(base_symbol(e), "primal", None) is not None


def _is_temp_memory(e):
    """True for memory reached through one of adgen's temporaries (an adjoint array made
    for a call, a fixed-point loop's copy): none of the program's. Each pass of the reverse
    transform makes its temporaries anew; their nodes would keep it from settling."""
    return getattr(base_symbol(e), "is_ad", False)


class FuncGen:
    """Forward and backward sweeps of one function."""

    def __init__(self, T, f, kind, head):
        self.T = T
        self.f = f
        self.kind = kind
        self.head = head
        self.act = T.act
        self.mem = T.mem
        self.prog = T.prog
        taken = {p.name for p in f.params} | {s.name for s in f.locals}
        taken |= {g.name for g in self.prog.globals} | set(self.prog.functions)
        taken |= set(T.ctx.shadow_global_names())
        self.names = Names(taken)
        self.sh = ShadowMap(self.act, "b")
        self.loop_local = loop_local_vars(f)
        self.locals = []            # LocalDecl of primal locals and their shadows
        self.ad_locals = []         # LocalDecl of transform temporaries
        self.key = ("head", f.name) if kind == "head" else f.name
        # what the to-be-recorded analysis of the locals reads (see tbr.py)
        self.tracked = tracked_locals(f)
        self.fwd_of = {}            # id(primal statement) -> its forward statements
        self.bwd_of = {}            # id(primal statement) -> its backward statements
        self.scratch_allocs = []    # internal arrays allocated for a whole call
        self.exit_pushes = []       # split mode: the locals pushed when the forward sweep ends
        self.source_args = {}       # id(call of g_fwd or g_bwd) -> the source call's args
        self.checkpointed = {}      # id(For) under binomial checkpointing -> its state
        self.checkpoint_depth = 0   # > 0 while transforming the body of such a loop
        self.loop_depth = 0         # > 0 while transforming the body of a loop
        self.fixed_point = {}       # id(loop) under fp_loop -> the bytes of its state
        self.replayed = {}          # id(For) -> counter of a loop replayed from its start
        self.current = None         # the primal statement being transformed
        self.call_directives = {}   # id(statement) -> "joint" | "split", by a pragma
        self.bwd_branches = {}      # id(if statement) -> the if of its backward part
        self.held = {}              # C text of a math call -> a temporary holding its value
        self.recomputed_at = {}     # id(loop) -> statements its backward iterations start with
        self.backward_loops = []    # (primal loop, its backward loop), for split_sums
        self.block_loops = []       # counted loops, for block_pushes (BlockLoop)
        for g in T.ctx.shadow_globals():
            self.sh.set(g.primal, ir.Ref(g))

    # ---------------------------------------------------------------- symbols
    def readonly_ints(self):
        """This function's integer pointer parameters it never writes through (sizes
        received by reference)."""
        return self.T.ctx.extents.readonly_ints(self.f)

    def shadow_symbol(self, sym, t=None):
        name = self.names.fresh(sym.name + "b")
        s = ir.Symbol(name, strip_const(t or sym.type), "local")
        s.primal = sym
        return s

    def temp(self, base, t, zero=False):
        s = ad_temp(self.names.fresh(base), t)
        self.ad_locals.append(LocalDecl(s, zero))
        return s

    def declare_locals(self):
        """Primal locals, plus a shadow for each that needs one."""
        params = set(self.f.params)
        for sym in self.f.locals:
            self.locals.append(LocalDecl(sym))
            if self.sh.has(sym):
                continue
            if self.act.sym_has_shadow(sym):
                sb = self.shadow_symbol(sym)
                self.sh.set(sym, ir.Ref(sb))
                self.locals.append(LocalDecl(sb, zero=True))
        return params

    # ------------------------------------------------------------ head: f_b
    def build_head(self):
        f, head = self.f, self.head
        params = []
        prologue, epilogue = [], []
        for p in f.params:
            params.append(p)
            named = p.name in head.indep or p.name in head.dep
            t = p.type.resolved()
            if not self.act.sym_has_shadow(p) and not named:
                continue
            if not named:
                refuse_internal_pointer_fields(self.act, f, p)
            if t.is_float:
                if named:
                    pb = self.shadow_symbol(p, ir.Ptr(p.type))
                    params.append(pb)
                    self.sh.set(p, ir.Deref(ir.Ref(pb), strip_const(p.type)))
                    prologue.append(ir.Assign(ir.Deref(ir.Ref(pb), p.type), X.zero(p.type)))
                else:
                    pb = self.shadow_symbol(p)
                    self.locals.append(LocalDecl(pb, zero=True))
                    self.sh.set(p, ir.Ref(pb))
            elif isinstance(t, ir.Ptr):
                pb = self.shadow_symbol(p)
                self.sh.set(p, ir.Ref(pb))
                if named:
                    params.append(pb)
                    if struct_with_pointers(t):
                        self.handle_derivative(p, prologue, epilogue)
                    elif p.name in head.indep and p.name not in head.dep:
                        prologue += unless_null(ir.Ref(p), self.zero_pure_input(p, pb))
                    elif p.name in head.dep and p.name not in head.indep and (
                            self.T.ctx.value_read(self.mem.pointee(self.mem.var(p))) or
                            self.T.ctx.stated_extent(f, p)):
                        # a pure output whose input value is read: that value is no
                        # independent, its adjoint is dropped (the seed is consumed);
                        # with a length given or declared, consumed in all of it, also
                        # where the routine writes nothing
                        n = self.T.ctx.extent(f, p, "its seed must be consumed")
                        # the length on entry: the call may change what it reads
                        length = self.temp(p.name + "_length", ir.SIZE_T)
                        prologue.append(ir.Assign(ir.Ref(length), n))
                        epilogue += unless_null(ir.Ref(p), [ir.Raw("zero", {
                            "ptr": ir.Ref(pb), "count": ir.Ref(length)})])
                else:
                    n = self.T.ctx.extent(f, p, "it carries derivatives inside "
                                          f"'{f.name}' and needs internal adjoint storage")
                    self.locals.append(LocalDecl(pb))
                    alloc = ir.Raw("scratch_alloc", {"target": ir.Ref(pb), "type": pb.type,
                                                     "count": n}, p.loc)
                    self.scratch_allocs.append(alloc)
                    prologue.append(alloc)
                    epilogue.insert(0, ir.Raw("scratch_free", {"ptr": ir.Ref(pb)}))
            elif isinstance(t, ir.Struct) and not named:
                pb = self.shadow_symbol(p)
                self.locals.append(LocalDecl(pb, zero=True))
                self.sh.set(p, ir.Ref(pb))
            elif isinstance(t, ir.Struct):
                # by value, as a float: its adjoint through a pointer, set on return
                pb = self.shadow_symbol(p, ir.Ptr(strip_const(p.type)))
                params.append(pb)
                self.sh.set(p, ir.Deref(ir.Ref(pb), strip_const(p.type)))
                if struct_with_pointers(t):
                    if p.name not in head.indep:
                        # a dependent only through its pointers: its own fields are neither
                        # outputs nor independents, so the routine works on a copy of the
                        # caller's derivative struct (the same pointers), never touching them
                        copy_ = self.shadow_symbol(p, strip_const(p.type))
                        self.locals.append(LocalDecl(copy_))
                        prologue.append(ir.Assign(ir.Ref(copy_),
                                                  ir.Deref(ir.Ref(pb), strip_const(p.type))))
                        self.sh.set(p, ir.Ref(copy_))
                    self.handle_derivative(p, prologue, epilogue)
                else:
                    prologue.append(zero_stmt(ir.Deref(ir.Ref(pb), strip_const(p.type))))
            else:
                raise AdgenError(f"parameter '{p.name}' of '{f.name}' carries derivatives "
                                 "through a type adgen cannot shadow yet", p.loc)
        result = getattr(f, "result", None)
        if f.name in head.dep:
            if self.T.ctx.by_reference:
                # Fortran passes everything by reference, the seed too
                fb = ir.Symbol(self.names.fresh(f.name + "b"), ir.Ptr(strip_const(f.ret)),
                               "param")
                seed = ir.Deref(ir.Ref(fb), strip_const(f.ret))
                # consumed, as the seeds of pure outputs are (also when the result does
                # not depend on the independents)
                epilogue.append(ir.Assign(X.clone(seed), X.zero(f.ret)))
            else:
                fb = ir.Symbol(self.names.fresh(f.name + "b"), strip_const(f.ret), "param")
                seed = ir.Ref(fb)
            fb.primal = result
            params.append(fb)
            if result is not None:
                self.sh.set(result, seed)
        for g in self.T.ctx.shadow_globals():
            on_entry, on_exit = shadow_global_setup(g)
            prologue += on_entry
            epilogue += on_exit
        self.declare_locals()
        fwd, bwd = self.stmts(self.f.body.stmts)
        if result is not None:
            # f_b returns nothing: the primal result is computed but not delivered
            fwd.append(ir.ExprStmt(ir.Cast(ir.VOID, ir.Ref(result))))
        self.backward_mark = ir.Comment("backward sweep")
        self.backward_end = ir.Raw("nothing", {})
        body = prologue + [ir.Comment("forward sweep")] + fwd
        body += [self.backward_mark] + bwd + [self.backward_end] + epilogue
        fn = GenFunction(f.name + "_b", ir.VOID, params, body, self.locals + self.ad_locals,
                         is_static=False,
                         comment=f"Adjoint of {f.name} (head {head.text}).")
        fn.bwd_part = bwd
        return [fn]

    def arrays_to_heap(self, fwd, bwd):
        """Local arrays (and other locals) of a split function that pointers point into
        become heap blocks (see build_split). Returns ({local: [pointer symbols]}, allocations,
        frees); the sweeps' statements are rewritten in place."""
        pointed = set()
        for sym in list(self.f.locals) + list(self.f.params):
            if sym.type.resolved().is_pointer:
                node = find(self.mem.var(sym))
                if node.pointee is not None:
                    pointed.add(find(node.pointee))
        heap, alloc, free = {}, [], []
        mapping = {}
        for sym in self.f.locals:
            t = sym.type.resolved()
            if isinstance(t, ir.Arr):
                if t.size is None or find(self.mem.var(sym)) not in pointed or \
                        t.elem.resolved().is_array:
                    continue
                elem, count = t.elem, X.clone(t.size)
            elif field_closure(self.mem.var(sym)) & pointed:
                elem, count = sym.type, ir.Const("1", ir.INT)   # `&s.a[0]`, `&t`
            else:
                continue
            ptrs = []
            for old in [sym] + ([self.sh.of_sym(sym).sym] if self.sh.has(sym) and
                                isinstance(self.sh.of_sym(sym), ir.Ref) else []):
                p = self.T.heap_pointers.get((self.key, sym, old is sym))
                if p is None:
                    p = ir.Symbol(old.name, ir.Ptr(ir.with_const(elem, False)), "local",
                                  old.loc)
                    p.primal = getattr(old, "primal", None)
                    self.T.heap_pointers[(self.key, sym, old is sym)] = p
                    if old is sym:      # it points to the local's memory
                        self.mem.point_to(self.mem.var(p), self.mem.var(sym))
                mapping[old] = (p, old.type)
                alloc.append(ir.Raw("scratch_alloc", {"target": ir.Ref(p), "type": p.type,
                                                      "count": count}, sym.loc))
                free.insert(0, ir.Raw("scratch_free", {"ptr": ir.Ref(p)}))
                ptrs.append(p)
                self.locals = [d for d in self.locals if d.sym is not old]
                self.locals.append(LocalDecl(p))
            heap[sym] = ptrs
        if mapping:
            # the sweeps share statements with the source function: rewrite copies
            fwd[:] = X.clone_stmts(ir.Block(fwd)).stmts
            bwd[:] = X.clone_stmts(ir.Block(bwd)).stmts
            fix = _arrays_as_pointers(mapping)
            _rewrite_exprs(fwd, fix)
            _rewrite_exprs(bwd, fix)
        return heap, alloc, free

    def inverse(self, lhs, rhs):
        """For an integer or pointer increment `v = v + e` (or `- e`) whose e does not
        depend on v, the expression that undoes it (`v - e`); None otherwise. Only these
        undo exactly: a floating-point `v - e` rounds, and a recurrence amplifies that
        error step by step, so floating-point values are stored or recomputed instead."""
        if not self.T.ctx.options.invert or self.T.ctx.options.store_all:
            return None
        inc = increment(lhs, rhs)
        if inc is None:
            return None
        sign, rest = inc
        t = lhs.type.resolved()
        if not (t.is_int or t.is_pointer):
            return None
        node = find(self.mem.loc(lhs))
        for sub in ir.walk(rest):
            if isinstance(sub, ir.Call):
                # the cost model: undoing costs the increment again, storing a push and a
                # pop; a function call costs more than the store
                return None
            if ir.is_lvalue(sub) and find(self.mem.loc(sub)) is node:
                return None
        if isinstance(lhs, ir.Ref) and any(isinstance(r, ir.Ref) and r.sym is lhs.sym
                                           for r in ir.walk(rest)):
            return None
        return ir.Binary("-" if sign > 0 else "+", X.clone(lhs), X.clone(rest), lhs.type)

    def restore_by(self, target, value, loc):
        out = []
        if self.pop(target, loc).keep:
            # the caller sees this memory: its final value goes to the log first
            out.append(ir.Raw("keep", {"target": X.clone(target)}, loc))
        out.append(ir.Assign(X.clone(target), value, loc))
        return out

    def handle_derivative(self, p, prologue, epilogue):
        """The derivative struct of a head's handle p (a struct holding pointers, or a
        pointer to one) is the caller's: its pointers lead to the derivatives of what p's
        lead to. As for arrays, a pure input's parts are set (zeroed on entry: each field of
        numbers, and each array over the elements the head reads), and a pure output's
        seeds consumed where the head reads their input values. The fields of a handle
        passed by value are inputs only, whatever the handle's role."""
        head, f = self.head, self.f
        pure_in = p.name in head.indep and p.name not in head.dep
        pure_out = p.name in head.dep and p.name not in head.indep
        for kind, path, node in handle_parts(self.T.ctx, f, p):
            shadow = self.sh.writable(field_expr(self.sh.of_sym(p), path))
            if kind == "value" and (pure_in or
                                    not through_pointer(field_expr(ir.Ref(p), path))):
                # set; a field of a handle passed by value is an input only, as a parameter
                # by value is (in the routine's copy of a dependent's, started at zero)
                prologue.append(zero_stmt(shadow))
            elif pure_in:
                try:
                    n = self.T.ctx.try_extent(f, p, path)
                    if const_value(n.arg if isinstance(n, ir.Cast) else n) == 0:
                        continue        # not read: the caller may leave it out (NULL)
                    zero = ir.Raw("zero", {"ptr": shadow, "count": n})
                    if descriptor_rank(p, path) is not None:
                        # a Fortran allocatable component the caller may leave unallocated
                        data = field_expr(ir.Ref(p), path)
                        zero = ir.If(ir.Binary("!=", data, X.null(data.type), ir.INT),
                                     ir.Block([zero]))
                    prologue.append(zero)
                except Unknown:
                    self.zero_as_read(node, field_path_text(p, path), p.loc)
            elif pure_out and self.T.ctx.value_read(node) and kind == "value":
                epilogue.append(zero_stmt(shadow))
            elif pure_out and self.T.ctx.value_read(node):
                n = self.T.ctx.extent(f, p, "its seed must be consumed", path)
                length = self.temp(p.name + "_length", ir.SIZE_T)
                prologue.append(ir.Assign(ir.Ref(length), n))
                epilogue.append(ir.Raw("zero", {"ptr": shadow, "count": ir.Ref(length)}))

    def zero_as_read(self, node, name, loc):
        """Zero a pure input's adjoint element by element as the forward sweep reads it
        (its length unknown; see zero_pure_input)."""
        if node in self.T.ctx.dep_nodes:
            raise AdgenError(f"cannot tell how many elements '{name}' has, and it may "
                             f"share memory with an output; give it with --size "
                             f"{name}=EXPR", loc)
        self.T.zero_on_read.add(node)
        self.T.zeroed_as_read.append(name)

    def zero_pure_input(self, p, pb):
        """Set (not accumulate) the gradient of a pure input array: zero it whole when its
        extent is known, else zero each element as the forward sweep reads it (every
        element that will receive a contribution is read before any is accumulated)."""
        try:
            n = self.T.ctx.try_extent(self.f, p)
            return [ir.Raw("zero", {"ptr": ir.Ref(pb), "count": n})]
        except Unknown:
            self.zero_as_read(find(self.mem.pointee(self.mem.var(p))), p.name, p.loc)
            return []

    def forward_runs_again(self, what, loc):
        """Refuse a construct whose backward sweep runs forward sweeps again when some
        input's adjoint is zeroed element by element as the forward sweep reads it: the
        second run would zero what the backward sweep had accumulated."""
        if self.T.zeroed_as_read:
            name = self.T.zeroed_as_read[0]
            raise AdgenError(f"{what}: cannot tell how many elements '{name}' has: its "
                             "adjoint must be zeroed whole before the loop's steps run "
                             f"again; give it with --size {name}=EXPR", loc)

    def pop(self, target, loc):
        """Restore target; memory the caller sees keeps its final value (see the log)."""
        keep = not isinstance(target, ir.Ref) or target.sym.kind == "global"
        keep = keep and find(self.mem.loc(target)) in self.T.ctx.external_nodes
        if getattr(target, "sym", None) is not None and getattr(target.sym, "primal", None):
            keep = False
        if self.checkpoint_depth:
            keep = False    # a checkpointed loop logged the final values already
        if keep and find(self.mem.loc(target)) in self.T.kept_whole:
            self.T.kept_used.add(find(self.mem.loc(target)))
            keep = False    # the head copies them whole
        if keep:
            self.T.logged = True
        return ir.Pop(target, loc, keep)

    def zero_reads_of(self, s):
        """Statements zeroing the adjoints of the pure-input elements that statement s
        reads, in any role (a value, an index, a test), before s runs in the forward
        sweep: the elements the routine reads are the ones it can tell it has."""
        from adgen.ir.c_text import expr_c
        if isinstance(s, (ir.For, ir.While, ir.DoWhile)):
            exprs = ir.stmt_exprs(s)
            if isinstance(s, ir.For):
                exprs = exprs + [e for st in s.step for e in ir.stmt_exprs(st)]
            if any(True for e in exprs for _ in self.pure_input_reads(e)):
                name = self.T.zeroed_as_read[0]
                raise AdgenError(f"cannot tell how many elements '{name}' has, and a "
                                 "loop's condition reads it; give it with --size "
                                 f"{name}=EXPR", s.loc)
            return []
        out, seen = [], set()
        for e in ir.stmt_exprs(s):
            for lv in self.pure_input_reads(e):
                target = self.sh(lv)
                if expr_c(target) not in seen:
                    seen.add(expr_c(target))
                    out.append(ir.Assign(target, X.zero(lv.type), s.loc))
        return out

    def pure_input_reads(self, e):
        """The elements of pure inputs zeroed as read (see zero_pure_input) that e reads."""
        for sub in ir.walk(e):
            t = sub.type.resolved() if sub.type is not None else None
            if isinstance(sub, (ir.Index, ir.Member, ir.Deref)) and t is not None and \
                    t.is_float and find(self.mem.loc(sub)) in self.T.zero_on_read:
                yield sub

    # ---------------------------------------------------- callee: g_fwd / g_bwd
    def build_split(self):
        f = self.f
        fparams, bparams = [], []
        modified = {st.lhs.sym for st in ir.stmts_walk(f.body.stmts)
                    if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref)}
        adds_back = []
        for p in f.params:
            fparams.append(p)
            bparams.append(p)
            if not self.act.sym_has_shadow(p):
                continue
            t = p.type.resolved()
            if t.is_float:
                pb = self.shadow_symbol(p, ir.Ptr(p.type))
                bparams.append(pb)
                caller = ir.Deref(ir.Ref(pb), strip_const(p.type))
                if p in modified:
                    # The function changes its copy of p: that copy's adjoint is local,
                    # added to the caller's when the backward sweep reaches the entry.
                    own = self.shadow_symbol(p)
                    self.locals.append(LocalDecl(own, zero=True))
                    self.sh.set(p, ir.Ref(own))
                    adds_back.append(ir.Assign(caller, X.add(X.clone(caller), ir.Ref(own))))
                else:
                    self.sh.set(p, caller)
            elif isinstance(t, ir.Ptr):
                pb = self.shadow_symbol(p)
                fparams.append(pb)
                bparams.append(pb)
                self.sh.set(p, ir.Ref(pb))
            elif isinstance(t, ir.Struct):
                # a struct by value (never changed: normalize gives a changed one a local
                # copy): its adjoint goes back to the caller's through a pointer
                pb = self.shadow_symbol(p, ir.Ptr(p.type))
                if ir.holds_pointers(t):
                    # its pointers' shadows are the caller's shadow's: both sweeps need them
                    fparams.append(pb)
                bparams.append(pb)
                self.sh.set(p, ir.Deref(ir.Ref(pb), strip_const(p.type)))
            else:
                raise AdgenError(f"parameter '{p.name}' of '{f.name}' carries derivatives "
                                 "through a type adgen cannot shadow yet", p.loc)
        result = getattr(f, "result", None)
        fwd_locals = []
        if self.act.ret_active(f):
            fb = ir.Symbol(self.names.fresh(source_name(f) + "b"), strip_const(f.ret), "param")
            fb.primal = result
            bparams.append(fb)
            if result is not None:
                self.sh.set(result, ir.Ref(fb))
                if self.act.ret_struct_pointers(f):
                    # the forward sweep builds the result's shadow (its pointers) in a
                    # local of the parameter's name
                    fwd_locals.append(LocalDecl(fb, zero=True))
        shadow_out = None
        if self.act.returns_shadow(f):
            # a returned pointer (a struct holding pointers) comes back with its shadow,
            # through **fb (*fb)
            shadow_out = ir.Symbol(self.names.fresh(source_name(f) + "b"), ir.Ptr(strip_const(f.ret)),
                                   "param")
            fparams.append(shadow_out)
        self.declare_locals()
        fwd, bwd = self.stmts(f.body.stmts)
        if shadow_out is not None and result is not None:
            fwd.append(ir.Assign(ir.Deref(ir.Ref(shadow_out), strip_const(f.ret)),
                                 self.sh(ir.Ref(result))))
        # Locals (and modified parameters) the backward sweep reads travel on the stack.
        modified = {s.lhs.sym for s in ir.stmts_walk(f.body.stmts)
                    if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref)}
        travel = []
        # Local arrays that pointers point into live on the heap from the forward sweep to
        # the end of the backward one: a pointer saved in one sweep must still point to
        # them in the other (and so must their shadows).
        heap, fwd_alloc, bwd_free = self.arrays_to_heap(fwd, bwd)
        self.scratch_allocs += fwd_alloc
        needed = []
        for sym in list(f.locals) + [p for p in f.params if p in modified]:
            if sym in heap or sym in self.loop_local:
                continue
            if sym in self.tracked and sym in self.T.local_exit.get(self.key, ()) or \
                    sym not in self.tracked and find(self.mem.var(sym)) in self.T.R:
                needed.append(sym)
        # the ones the backward sweep can set again from what it has (recompute.py)
        again, in_branches = exit_recomputations(self.T.ctx, f, set(needed), self.T.R)
        set_again = set()

        def set_again_stmts(stmts, when):
            out = []
            for s in stmts:
                v = s.lhs.sym
                set_again.add(v)
                out.append(ir.Assign(ir.Ref(v), X.clone(s.rhs), s.loc))
                if self.pointer_shadow(v) is not None:
                    out.append(_shadow_pointer_assign(self.pointer_shadow(v),
                                                      self.sh(X.clone(s.rhs)), s.loc))
                self.explain(s, f"{v.name} (final value)", "not stored",
                             f"set again by line {s.loc.line} when {when}")
            return out

        recompute = set_again_stmts(again, "the backward sweep starts")
        for key, (then_stmts, else_stmts) in in_branches.items():
            # the backward part of the branch (if_stmt): set again where it starts
            back = self.bwd_branches.get(key)
            if back is None:
                continue
            line = back.loc.line if back.loc else 0
            for stmts, block, which in ((then_stmts, back.then, "true"),
                                        (else_stmts, back.other, "false")):
                if stmts and block is not None:
                    block.stmts[:0] = set_again_stmts(
                        stmts, f"the backward sweep enters the {which} branch of line {line}")
        for sym in needed:
            if sym in set_again:
                continue
            travel.append(ir.Ref(sym))
            if self.pointer_shadow(sym) is not None:
                travel.append(self.pointer_shadow(sym))
            elif sym is not result and sym.type.resolved().is_struct and \
                    ir.holds_pointers(sym.type) and self.sh.has(sym) and \
                    isinstance(self.sh.of_sym(sym), ir.Ref):
                travel.append(self.sh.of_sym(sym))     # its pointers' shadows
        for ptrs in heap.values():
            travel += [ir.Ref(p) for p in ptrs]
        self.exit_pushes = [ir.Push(e) for e in travel]
        fwd = fwd_alloc + fwd + self.exit_pushes
        bwd = [ir.Pop(e) for e in reversed(travel)] + recompute + bwd + adds_back + bwd_free
        if result is not None:
            fwd.append(ir.Return(ir.Ref(result)))
        ret = ir.with_const(f.ret, False) if result is not None else ir.VOID
        orig = source_name(f)
        ffn = GenFunction(f.name + "_fwd", ret, fparams, fwd,
                          self.locals + fwd_locals + self.ad_locals,
                          is_static=True, comment=f"Forward sweep of {orig}.", source=f.name)
        bfn = GenFunction(f.name + "_bwd", ir.VOID, bparams, bwd, source=f.name,
                          locals=self.locals + self.ad_locals, is_static=True,
                          comment=f"Backward sweep of {orig}.")
        bfn.bwd_part = bwd
        return [ffn, bfn]

    def primal_moving_shadows(self, stmts, carried=()):
        """A copy of stmts that runs the primal (records nothing) and, as the forward sweep
        does, moves the shadow of each pointer it moves (`t = cur; tb = curb;`): the code
        that runs a stretch of the primal again (a checkpointed or fixed-point loop) keeps
        each pointer with its shadow. A pointer set by a call keeps its shadow only when
        the stretch sets it before using it, as the recording sweep then does; one it
        carries (`carried`, see checkpoint.carried_pointers) is refused."""
        def move(st):
            if isinstance(st, ir.Assign):
                lt = st.lhs.type.resolved()
                if not (isinstance(lt, ir.Ptr) and self.act.has_shadow(st.lhs)):
                    return [st]
                if isinstance(st.rhs, ir.Call) and is_user_call(self.prog, st.rhs) or \
                        alloc_call(st.rhs) is not None:
                    if isinstance(st.lhs, ir.Ref) and st.lhs.sym not in carried:
                        return [st]
                    raise AdgenError("a pointer to active data that a call sets and the "
                                     "next step reads, in a loop whose steps run again from "
                                     "kept states: not supported; set it outside the loop",
                                     st.loc)
                return [st, _shadow_pointer_assign(self.sh(st.lhs), self.sh(st.rhs), st.loc)]
            if isinstance(st, ir.Block):
                st.stmts = each(st.stmts)
            elif isinstance(st, ir.If):
                st.then = ir.Block(each(st.then.stmts), st.then.loc)
                if st.other is not None:
                    st.other = ir.Block(each(st.other.stmts), st.other.loc)
            elif isinstance(st, ir.For):
                st.init, st.step = each(st.init), each(st.step)
                st.body = ir.Block(each(st.body.stmts), st.body.loc)
            elif isinstance(st, (ir.While, ir.DoWhile)):
                st.body = ir.Block(each(st.body.stmts), st.body.loc)
            return [st]

        def each(sts):
            return [x for st in sts for x in move(st)]
        return each(X.clone_stmts(ir.Block(list(stmts))).stmts)

    def with_pointer_shadows(self, items):
        """State items (address, bytes) with, after each pointer local, its shadow: a
        kept state brings both back together."""
        out = []
        for addr, nbytes in items:
            out.append((addr, nbytes))
            if isinstance(addr, ir.AddrOf) and isinstance(addr.arg, ir.Ref):
                shadow = self.pointer_shadow(addr.arg.sym)
                if shadow is not None:
                    out.append((ir.AddrOf(X.clone(shadow), ir.Ptr(shadow.type)),
                                ir.SizeOf(shadow.type)))
        return out

    def pointer_shadow(self, sym):
        """The shadow variable of a pointer local (which moves with it), or None."""
        if self.sh.has(sym) and sym.type.resolved().is_pointer and \
                isinstance(self.sh.of_sym(sym), ir.Ref):
            return self.sh.of_sym(sym)
        return None

    # ------------------------------------------------------------ statements
    def stmts(self, stmts):
        """(forward, backward) statement lists; backward is already in reverse order."""
        from adgen.transform.checkpoint import (CheckpointedLoop, call_mode_pragma,
                                                checkpoint_pragma)
        from adgen.transform.fixed_point import FixedPointLoop, fp_loop_pragma
        # parts[k]: the backward statements of stmts[k] (none for a directive), so that
        # recomputations finds those after each statement by its position
        fwd, parts = [], []
        pending = None      # a binomial_ckp or fp_loop directive waiting for its loop
        for k, s in enumerate(stmts):
            mode = call_mode_pragma(s)
            if mode is not None:
                if k + 1 < len(stmts):
                    self.call_directives[id(stmts[k + 1])] = mode
                parts.append([])
                continue
            snaps = checkpoint_pragma(s)
            if snaps is not None or fp_loop_pragma(s):
                if pending is not None:
                    raise AdgenError("a loop directive must stand just before its loop",
                                     pending[-1])
                pending = (snaps, s.loc) if snaps is not None else ("fp_loop", s.loc)
                parts.append([])
                continue
            if pending is not None:
                if pending[0] == "fp_loop":
                    f, b = FixedPointLoop(self, s, pending[1]).build()
                else:
                    f, b = CheckpointedLoop(self, s, *pending).build()
                self.fwd_of[id(s)], self.bwd_of[id(s)] = f, b
                pending = None
            else:
                f, b = self.stmt(s)
            fwd.extend(f)
            parts.append(b)
        if pending is not None:
            what = "fp_loop" if pending[0] == "fp_loop" else "binomial_ckp"
            raise AdgenError(f"{what}: the directive must stand just before a loop"
                             if what == "fp_loop" else
                             "binomial_ckp: the directive must stand just before a for loop",
                             pending[1])
        bwd = []
        for b in reversed(parts):
            bwd.extend(b)
        return fwd, self.recomputations(stmts, parts) + bwd

    def recomputations(self, stmts, parts):
        """The statements of a loop body that the backward sweep runs again at the start
        of each iteration's backward part (see recompute.py), where what they fill is read
        by the backward statements after them (or by the recomputations after them: the
        statements are taken last to first)."""
        out = []
        loop = None
        for k in reversed(range(len(stmts))):
            s = stmts[k]
            rc = self.T.recomputed.get(id(s))
            if rc is None or not any(parts[k + 1:]):
                continue
            if rc.scalar is not None:
                later = [b for part in parts[k + 1:] for b in part] + out
                if rc.scalar not in used_symbols(later):
                    continue
            elif not any(n in self.T.R for n in rc.nodes):
                continue
            self.explain(s, rc.target, "recomputed", rc.why())
            again = [ir.Comment(f"line {s.loc.line} again: {rc.target} recomputed, not stored")]
            out = again + rc.statements() + out
            loop = rc.loop
        if out:
            self.recomputed_at.setdefault(id(loop), []).extend(out)
        return out

    def saved(self, lhs, stmt=None):
        """True when the value lhs holds before the statement must be saved."""
        at = stmt if stmt is not None else self.current
        if self.T.ctx.options.store_all:
            result, why = True, "--store-all"
        elif isinstance(lhs, ir.Ref) and lhs.sym in self.T.recomputed_scalars:
            # the backward statements that read it see it set again (recomputations)
            result = False
            why = "no backward statement reads the value this overwrites"
        elif isinstance(lhs, ir.Ref) and lhs.sym in self.tracked:
            result = lhs.sym in self.T.local_saves.get(self.key, {}).get(id(at), ())
            why = "the backward sweep reads the value this overwrites" if result else \
                "no backward statement reads the value this overwrites"
        elif isinstance(lhs, (ir.Index, ir.Member)) and \
                id(at) in self.T.covered.get(self.key, ()):
            result = False      # an earlier save of the same elements covers this one
            why = "its elements were saved earlier, or not set since allocated"
        elif self.T.element_node(lhs) in self.T.recomputed_nodes:
            result = False
            why = "recomputed: " + self.T.recomputed_nodes[self.T.element_node(lhs)].why()
        else:
            result = self.T.saved(lhs)
            why = "the backward sweep reads this memory" if result else \
                "the backward sweep never reads this memory"
        self.explain(at, lhs, "stored" if result else "not stored", why)
        return result

    def explain(self, at, what, decision, why):
        """One line of --explain: what happens to a value a statement overwrites."""
        from adgen.ir.c_text import expr_c
        loc = getattr(at, "loc", None)
        if loc is not None and getattr(loc, "line", 0):
            text = what if isinstance(what, str) else expr_c(what)
            name = source_name(self.f)
            self.T.decisions[(loc, text, id(at))] = f"{name}: {text}: {decision} ({why})"

    def stmt(self, s):
        if not isinstance(s, (ir.Block, ir.If, ir.For, ir.While, ir.DoWhile)):
            self.current = s
        with located(s):
            f, b = self._stmt(s)
        if self.T.zero_on_read and not isinstance(s, ir.Block):
            f = self.zero_reads_of(s) + f
        self.fwd_of[id(s)] = f
        self.bwd_of[id(s)] = b
        return f, b

    def _stmt(self, s):
        if isinstance(s, ir.Assign):
            return self.assign(s)
        if isinstance(s, ir.ExprStmt):
            return self.expr_stmt(s)
        if isinstance(s, ir.Block):
            f, b = self.stmts(s.stmts)
            return f, b
        if isinstance(s, ir.If):
            return self.if_stmt(s)
        if isinstance(s, (ir.For, ir.While, ir.DoWhile)):
            self.loop_depth += 1
            try:
                return self.for_loop(s) if isinstance(s, ir.For) else self.while_loop(s)
            finally:
                self.loop_depth -= 1
        if isinstance(s, ir.Pragma):
            return [], []
        if isinstance(s, ir.Return):
            raise AdgenError("internal: return left after structuring", s.loc)
        raise AdgenError(f"unsupported statement in reverse mode ({type(s).__name__})", s.loc)

    # assignments -------------------------------------------------------------
    def assign(self, s, shadow_rhs=None):
        lhs, rhs = s.lhs, s.rhs
        if isinstance(rhs, ir.Call) and is_user_call(self.prog, rhs):
            return self.call(rhs, lhs, s)
        alloc = alloc_call(rhs)
        if alloc is not None:
            return self.alloc_assign(s, alloc)
        lt = lhs.type.resolved()
        saved = self.saved(lhs)
        fwd, bwd = [], []
        if isinstance(lt, ir.Ptr) and self.act.has_shadow(lhs):
            shl = self.sh(lhs)
            inverse = self.inverse(lhs, rhs) if saved and shadow_rhs is None else None
            if inverse is not None:
                # p = p + k is undone by p = p - k, for the shadow as well
                self.explain(s, lhs, "not stored", "undone by the opposite step")
                bwd += self.restore_by(shl, ir.Binary(inverse.op, X.clone(shl),
                                                      X.clone(inverse.right), shl.type), s.loc)
                bwd += self.restore_by(lhs, inverse, s.loc)
            elif saved:
                fwd += [ir.Push(lhs, s.loc), ir.Push(shl, s.loc)]
                bwd += [self.pop(X.clone(shl), s.loc), self.pop(X.clone(lhs), s.loc)]
            value = shadow_rhs if shadow_rhs is not None else self.sh(rhs)
            fwd += [s, _shadow_pointer_assign(shl, value, s.loc)]
            return fwd, bwd
        if isinstance(lt, ir.Struct) and self.act.has_shadow(lhs):
            raise AdgenError("assignment of a struct holding active values from this "
                             "expression is not supported yet", s.loc)
        inverse = self.inverse(lhs, rhs) if saved else None
        if inverse is not None:
            # an increment is undone by the opposite one: nothing saved
            from adgen.ir.c_text import expr_c
            self.explain(s, lhs, "not stored", f"undone by {expr_c(lhs)} = {expr_c(inverse)}")
            bwd += self.restore_by(lhs, inverse, s.loc)
        elif saved:
            fwd.append(ir.Push(lhs, s.loc))
            bwd.append(self.pop(X.clone(lhs), s.loc))
        if lt.is_float and self.act.active_value(lhs):
            bwd += self.adjoint_assign(lhs, rhs, s.loc)
        fwd.append(s)
        return fwd, bwd

    def alloc_assign(self, s, call):
        lhs = s.lhs
        fwd, bwd = [], []
        saved = self.saved(lhs)
        shadow = self.act.has_shadow(lhs)
        if saved:
            fwd.append(ir.Push(lhs, s.loc))
            if shadow:
                fwd.append(ir.Push(self.sh(lhs), s.loc))
        fwd.append(s)
        if shadow:
            shl = self.sh(lhs)
            nbytes = alloc_bytes(call)
            fwd.append(ir.Raw("alloc_bytes", {"target": shl, "type": shl.type, "bytes": nbytes},
                              s.loc))
            bwd.append(ir.Raw("release", {"ptr": X.clone(shl)}, s.loc))
        # The forward sweep defers free(): the backward sweep may still read the memory.
        # Freed here if the program freed it; else it stays, as the program leaves it.
        bwd.append(ir.Raw("release", {"ptr": X.clone(lhs), "if_freed": True}, s.loc))
        if saved:
            if shadow:
                bwd.append(self.pop(self.sh(lhs), s.loc))
            bwd.append(self.pop(X.clone(lhs), s.loc))
        return fwd, bwd

    def adjoint_assign(self, lhs, rhs, loc):
        """Adjoint statements of `lhs = rhs` for an active lhs."""
        self.held = {}      # values held in temporaries serve this statement only
        first_temp = len(self.ad_locals)
        A = self.sh(lhs)
        lnode = find(self.mem.loc(lhs))
        out = []
        inc = increment(lhs, rhs)
        if inc is not None:
            # lhs = lhs + rest: the adjoint of lhs passes through unchanged; rest gets it as
            # it is before rest's own contributions (held apart when rest may read lhs)
            sign, rest = inc
            seed = A
            if any(find(n) == lnode for n in self.act.active_reads(rest)):
                t = self.temp("tempb", lhs.type)
                out.append(ir.Assign(ir.Ref(t), A, loc))
                seed = ir.Ref(t)
            self.contribs(rest, seed if sign > 0 else X.neg(seed), out, loc)
        elif any(find(n) == lnode for n in self.act.active_reads(rhs)):
            t = self.temp("tempb", lhs.type)
            out.append(ir.Assign(ir.Ref(t), A, loc))
            out.append(ir.Assign(X.clone(A), X.zero(lhs.type), loc))
            self.contribs(rhs, ir.Ref(t), out, loc)
        else:
            self.contribs(rhs, A, out, loc)
            out.append(ir.Assign(X.clone(A), X.zero(lhs.type), loc))
        return self.without_dead_values(_merge_squares(_without_cancelling(out)),
                                        {d.sym for d in self.ad_locals[first_temp:]})

    def without_dead_values(self, out, temps):
        """The adjoint statements of one assignment without those that do nothing: `xb = xb`
        (a contribution that vanished, of sign(1, a) to a) and the temporaries made for
        them that no statement after reads (the other factor of that product)."""
        out = [s for s in out if not (isinstance(s, ir.Assign) and same_text(s.lhs, s.rhs))]
        k = len(out) - 1
        while k >= 0:
            s = out[k]
            if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref) and \
                    s.lhs.sym in temps and s.lhs.sym not in used_symbols(out[k + 1:]):
                del out[k]
                self.ad_locals = [d for d in self.ad_locals if d.sym is not s.lhs.sym]
            k -= 1
        return out

    def has_active(self, e):
        return bool(self.act.active_reads(e))

    def simple_seed(self, seed, out, t, loc):
        if isinstance(seed, (ir.Ref, ir.Const)) or (
                ir.is_lvalue(seed) and all(isinstance(c, (ir.Ref, ir.Const))
                                           for c in ir.walk(seed) if c is not seed)):
            return seed
        tmp = self.temp("tempb", t if t.resolved().is_float else ir.DOUBLE)
        out.append(ir.Assign(ir.Ref(tmp), seed, loc))
        return ir.Ref(tmp)

    def contribs(self, e, seed, out, loc):
        """Add seed * d(e)/d(leaf) to the adjoint of every active leaf of e."""
        if not self.has_active(e):
            return
        if ir.is_lvalue(e):
            target = self.sh(e)
            out.append(ir.Assign(target, X.add(X.clone(target), seed), loc))
            return
        if isinstance(e, ir.Binary):
            l_act, r_act = self.has_active(e.left), self.has_active(e.right)
            if l_act and r_act:
                seed = self.simple_seed(seed, out, e.type, loc)   # evaluated once
            if e.op in "+-":
                if l_act:
                    self.contribs(e.left, seed, out, loc)
                if r_act:
                    self.contribs(e.right, seed if e.op == "+" else X.neg(X.clone(seed)), out, loc)
                return
            if e.op == "*":
                left, right = e.left, e.right
                if l_act and r_act:
                    # math calls on one side: their values serve the other side's
                    # contribution and their own partials (see partials)
                    left, right = (self.held_values(x, out, loc) for x in (left, right))
                if l_act:
                    self.contribs(e.left, X.mul(X.clone(seed), X.clone(right)), out, loc)
                if r_act:
                    self.contribs(e.right, X.mul(X.clone(left), X.clone(seed)), out, loc)
                return
            if e.op == "/":
                right = self.held_values(e.right, out, loc) if r_act else e.right
                if l_act:
                    self.contribs(e.left, X.div(X.clone(seed), X.clone(right)), out, loc)
                if r_act:
                    # -seed * l / r^2 as (seed * (l / r)) / r: in range wherever l / r is
                    q = X.div(X.mul(X.clone(seed), X.div(X.clone(e.left), X.clone(right))),
                              X.clone(right))
                    self.contribs(e.right, X.neg(q), out, loc)
                return
            raise AdgenError(f"operator '{e.op}' on active values cannot be differentiated",
                             e.loc or loc)
        if isinstance(e, ir.Unary):
            self.contribs(e.arg, X.neg(seed) if e.op == "-" else seed, out, loc)
            return
        if isinstance(e, ir.Cast):
            self.contribs(e.arg, seed, out, loc)
            return
        if isinstance(e, ir.Cond):
            # only the branch the primal evaluated may be evaluated (the other may index
            # out of bounds): an if, not a product with 0
            seed = self.simple_seed(seed, out, e.type, loc)
            then_out, other_out = [], []
            held = self.held        # a value held in one branch is unknown in the other
            self.held = dict(held)
            self.contribs(e.then, X.clone(seed), then_out, loc)
            self.held = dict(held)
            self.contribs(e.other, X.clone(seed), other_out, loc)
            self.held = held
            if then_out or other_out:
                out.append(ir.If(X.clone(e.test), ir.Block(then_out),
                                 ir.Block(other_out) if other_out else None, loc))
            return
        if isinstance(e, ir.Call):
            lib = LIBRARY_FUNCTIONS.get(e.func)
            if lib is None:
                raise no_rule_error(e.func, e.loc or loc)
            if lib.kind != "math":
                raise AdgenError(f"cannot differentiate call to '{e.func}' here", e.loc or loc)
            branches = piecewise_expr(lib, e.args)
            if branches is not None:
                # the adjoint of the branch the function takes, and of no other
                self.contribs(branches, seed, out, loc)
                return
            active = [k for k, a in enumerate(e.args) if self.has_active(a)]
            if len(active) > 1 or lib.singular:
                seed = self.simple_seed(seed, out, e.type, loc)
            for k, p in zip(active, self.partials(e, lib, active, out, loc)):
                if p is not None:
                    self.contribs(e.args[k], zero_with(X.mul(X.clone(seed), p), seed, e), out, loc)
            return
        raise AdgenError("cannot differentiate this expression", e.loc or loc)

    def partials(self, call, lib, active, out, loc):
        """The partial derivatives of a math call with respect to its arguments `active`,
        each argument and the call's value evaluated once (into a temporary, appended to
        out) where the partials would evaluate them more than once: tanh's is
        1 - tanh(x) * tanh(x)."""
        marks = [ir.Symbol(f"_arg{k}", a.type, "temp") for k, a in enumerate(call.args)]
        parts = [rule_expr(lib, k, [ir.Ref(m) for m in marks]) for k in active]
        uses = [sum(1 for p in parts if p is not None for x in ir.walk(p)
                    if isinstance(x, ir.Ref) and x.sym is m) for m in marks]
        value = [x for p in parts if p is not None for x in ir.walk(p)
                 if isinstance(x, ir.Call) and x.func == call.func and
                 [getattr(a, "sym", None) for a in x.args] == marks]
        args = {}
        for m, a, n in zip(marks, call.args, uses):
            # how often the argument is evaluated: in the value once, and where else
            evaluations = 1 + n - len(value) if len(value) > 1 else n
            simple = all(isinstance(x, (ir.Ref, ir.Const)) for x in ir.walk(a) if x is not a)
            args[m] = ir.Ref(self.once(a, out, loc)) if evaluations > 1 and not simple else a
        from adgen.ir.c_text import expr_c
        held = self.held.get(expr_c(call))
        if value and (held is not None or len(value) > 1):
            if held is None:
                v = ir.Call(call.func, [X.clone(args[m]) for m in marks], call.type, call.loc)
                held = ir.Ref(self.once(v, out, loc))
            parts = [None if p is None else _replace_calls(p, call.func, marks, held)
                     for p in parts]
        return [None if p is None else X.substitute(p, args) for p in parts]

    def held_values(self, e, out, loc):
        """Copy of e with its (outermost) math calls replaced by temporaries holding their
        values, remembered for their partials (see partials)."""
        from adgen.ir.c_text import expr_c
        if isinstance(e, ir.Call) and \
                getattr(LIBRARY_FUNCTIONS.get(e.func), "kind", None) == "math":
            key = expr_c(e)
            if key not in self.held:
                self.held[key] = ir.Ref(self.once(e, out, loc))
            return X.clone(self.held[key])
        if isinstance(e, (ir.Binary, ir.Unary, ir.Cast)):
            e = copy.copy(e)
            for name in ("left", "right", "arg"):
                if isinstance(getattr(e, name, None), ir.Expr):
                    setattr(e, name, self.held_values(getattr(e, name), out, loc))
        return e

    def once(self, e, out, loc):
        """A temporary holding e's value (appended to out), or e's variable itself."""
        if isinstance(e, ir.Ref):
            return e.sym
        t = self.temp("value", e.type if e.type is not None else ir.DOUBLE)
        out.append(ir.Assign(ir.Ref(t), X.clone(e), loc))
        return t

    # calls -------------------------------------------------------------------
    def expr_stmt(self, s):
        call = s.expr
        if isinstance(call, ir.Call):
            if is_user_call(self.prog, call):
                return self.call(call, None, s)
            lib = LIBRARY_FUNCTIONS.get(call.func)
            if call.func == "free":
                # deferred: the backward sweep may read the block (see alloc_assign)
                return [ir.ExprStmt(ir.Call("adgen_defer_free", [X.clone(call.args[0])],
                                            ir.VOID, s.loc), s.loc)], []
            if lib is not None and lib.kind in ("effect", "int", "step", "math"):
                return [s], []
        self.check_inactive_effect(call, s)
        return [s], []

    def check_inactive_effect(self, call, s):
        if isinstance(call, ir.Call) and call.func not in LIBRARY_FUNCTIONS:
            g = self.prog.functions.get(call.func)
            if g is None or not g.has_body:
                if call.func not in self.T.ctx.inactive:
                    raise unknown_function_error(call.func, s.loc)

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
                    sa = self.sh(a)
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
        if id(s) in self.T.recomputed:
            return self.call_mode(s, where, None, "what it fills is recomputed, not stored")
        if self.T.ctx.options.store_all:
            return self.call_mode(s, where, None, "--store-all")
        why_not = None
        if g is self.f or self.act.returns_shadow(g) or \
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

    def call_mode(self, s, where, state, why):
        self.explain(s, where, "joint mode" if state is not None else "split mode", why)
        return state

    def keep_final(self, items):
        """The final values of memory the head's caller sees, logged before an earlier
        state is brought back over them (see FuncGen.pop)."""
        out = []
        for addr, nbytes in items:
            target = addr.arg if isinstance(addr, ir.AddrOf) else addr
            node = find(self.mem.loc(target)) if isinstance(addr, ir.AddrOf) else \
                find(self.mem.target(addr))
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
        from adgen.analysis.ruled_calls import derivative_flows, result_is_active, size_at_call
        rule, loc = g.user_rule, s.loc
        lhs_active = result_is_active(self.act, lhs)
        if not derivative_flows(self.act, g, call, lhs_active):
            return self.plain_call(call, lhs, s)       # no derivative comes out of it
        # the values the outputs held before the call: in/out arrays need them back for
        # NAME_b; others when the backward sweep reads them. In/out ones are saved last,
        # so that they come back first; NAME_b leaves the outputs as the call did.
        outs, inouts = [], []
        pre, post, bargs = [], [], []
        for p, a in zip(g.params, call.args):
            bargs.append(X.clone(a))
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
            n = size_at_call(g, p, call.args)
            elem = ir.with_const(ir.pointee(t), False)
            shadow = self.sh(a) if self.act.has_shadow(a) else None
            dep, indep = p.name in rule.dep, p.name in rule.indep
            needed = find(self.mem.target(a)) in self.T.R
            if dep and indep:
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
        fwd = [self.element_loop(a, n, "push") for a, n in outs + [(a, n) for a, n, _ in inouts]]
        bwd = []
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
        self.explain(s, "branch taken", "stored", "the backward sweep takes it again")
        one, zero = ir.Const("1", ir.INT), ir.Const("0", ir.INT)
        fwd = [ir.If(s.test, ir.Block(tf + [ir.Push(one)]), ir.Block(ef + [ir.Push(zero)]),
                     s.loc)]
        br = self.temp("branch", ir.INT)
        back = ir.If(ir.Ref(br), ir.Block(tb), ir.Block(eb) if eb else None, s.loc)
        self.bwd_branches[id(s)] = back     # (build_split may set locals again there)
        return fwd, [ir.Pop(ir.Ref(br), s.loc), back]

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
        bf, bb = self.stmts(s.body.stmts)
        self.replayed[id(s)] = var
        save_var = self.saved(ir.Ref(var), s) and var not in self.loop_local
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
        static_start = invariant(init_value, s, self.f, self.readonly_ints())
        count_formula = self.trip_count(s, var, stride, init_value) if static_start else None
        if var not in used_symbols(bb) and count_formula is None:
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
        if count_formula is not None and X.int_value(stride) == 1:
            # pushes of consecutive elements, made one block at the end (block_pushes.py)
            self.block_loops.append(BlockLoop(s, fwd[-1], back, var, start_e,
                                              X.clone(count_formula), cnt))
        if saved:
            bwd.append(ir.Pop(ir.Ref(var), s.loc))
        return fwd, bwd

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
        if not invariant(bound, s, self.f, self.readonly_ints()):
            return None
        if step is None and not (stride.type.resolved().is_int and
                                 invariant(stride, s, self.f, self.readonly_ints())):
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
        """Make the pushes of consecutive elements by counted loops block pushes (see
        block_pushes.py). Done last: the analyses read the sweeps one element at a time."""
        for loop, elem in push_blocks(self.block_loops, fns, self.adjoint_storage):
            self.explain(loop.source, elem, "stored as one block",
                         "consecutive elements, each stored before its own iteration "
                         "overwrites it")

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
        """`adjoint of x[i]` for an adjoint lvalue (for --explain)."""
        from adgen.ir.c_text import expr_c
        sym = ir.root_symbol(a)
        primal = getattr(sym, "primal", None)
        image = self.sh.by_sym.get(primal) if primal is not None else None
        if image is None:
            return expr_c(a)
        if same_text(a, image):
            return f"adjoint of {ir.source_name(primal)}"
        return f"adjoint of {expr_c(self.primal_of(a, sym))}"

    def primal_of(self, e, sym):
        """The primal lvalue whose adjoint is e, an lvalue rooted at shadow symbol sym."""
        return X.substitute(e, {sym: ir.Ref(sym.primal)})


def _rewrite_exprs(stmts, fn):
    """Replace each expression of a statement list by fn of it, in place."""
    for st in ir.stmts_walk(stmts):
        for name in ("lhs", "rhs", "expr", "test", "value", "target"):
            e = getattr(st, name, None)
            if isinstance(e, ir.Expr):
                setattr(st, name, fn(e))
        if isinstance(st, ir.Raw):
            st.args = {k: fn(v) if isinstance(v, ir.Expr) else v for k, v in st.args.items()}


def _arrays_as_pointers(arrays):
    """For local arrays (and other locals) moved to the heap ({old symbol: (pointer
    symbol, its type)}): an expression rewritten to use the pointers, the local's address
    (&a) being the pointer's value and its size (sizeof a) the local's type's; a local
    other than an array is the pointer's target (`s.x` as `(*s).x`, `t` as `*t`)."""
    def fix(e):
        if isinstance(e, ir.Ref) and e.sym in arrays:
            p, t = arrays[e.sym]
            if not t.resolved().is_array:
                return ir.Deref(ir.Ref(p, e.loc), t, e.loc)
            return ir.Ref(p, e.loc)
        if isinstance(e, ir.AddrOf) and isinstance(e.arg, ir.Ref) and e.arg.sym in arrays:
            return ir.Ref(arrays[e.arg.sym][0], e.loc)
        if isinstance(e, ir.SizeOf) and isinstance(e.of, ir.Ref) and e.of.sym in arrays:
            return ir.SizeOf(arrays[e.of.sym][1])
        if isinstance(e, ir.Deref) and isinstance(e.ptr, ir.AddrOf):
            return fix(e.ptr.arg)
        return X.map_children(e, fix)
    return fix


def _shadow_pointer_assign(shl, value, loc):
    """`shl = value` for the shadow of a pointer that an assignment moves; a value that
    points to const (a const field of a shadow struct) is cast to the shadow's type."""
    vt = value.type.resolved() if value.type is not None else None
    if isinstance(vt, ir.Ptr) and vt.target.const and not shl.type.resolved().target.const:
        value = ir.Cast(shl.type, value)
    return ir.Assign(shl, value, loc)


def _merge_squares(stmts):
    """`a = a + s * x; a = a + x * s` (the adjoint of x * x) as `a = a + 2.0 * s * x`: the
    two contributions of one statement to the same adjoint, adjacent and equal."""
    out = []
    for st in stmts:
        prev = out[-1] if out else None
        signs = _same_terms(prev, st)
        if signs is not None and signs[0] == signs[1]:
            term = X.clone(increment(prev.lhs, prev.rhs)[1])
            two = X.const(2, st.lhs.type)
            twice = X.mul(X.mul(two, term.left), term.right) \
                if isinstance(term, ir.Binary) and term.op == "*" else X.mul(two, term)
            rhs = X.add(X.clone(st.lhs), twice) if signs[0] > 0 else \
                X.sub(X.clone(st.lhs), twice)
            out[-1] = ir.Assign(prev.lhs, rhs, prev.loc)
            continue
        out.append(st)
    return out


def _without_cancelling(stmts):
    """The contributions of one statement without the pairs that cancel exactly: `a = a +
    s * x` and `a = a - s * x` (the adjoint of `x - x`, of `x + z - x`). Added one after
    the other they would give a + t - t, which is not a where t is far larger than a (an
    adjoint grown large through a chain of sums): the derivative they carry is zero.
    Nothing between the two may change their target or the values their terms read."""
    from adgen.ir.c_text import expr_c
    out = list(stmts)
    k = 0
    while k < len(out):
        st = out[k]
        inc = increment(st.lhs, st.rhs) if isinstance(st, ir.Assign) else None
        partner = None
        if inc is not None:
            names = {expr_c(x) for x in ir.walk(inc[1]) if ir.is_lvalue(x)} | \
                {expr_c(st.lhs)}
            for m in range(k + 1, len(out)):
                other = out[m]
                if not isinstance(other, ir.Assign):
                    break
                signs = _same_terms(st, other)
                if signs is not None and signs[0] == -signs[1]:
                    partner = m
                    break
                if expr_c(other.lhs) in names:
                    break
        if partner is None:
            k += 1
            continue
        del out[partner]
        del out[k]
    return out


def _same_terms(a, b):
    """(sign of a, sign of b) when statements a and b both add to (or subtract from) the
    same lvalue a product of the same factors; None otherwise."""
    if not (isinstance(a, ir.Assign) and isinstance(b, ir.Assign) and same_text(a.lhs, b.lhs)):
        return None
    ia, ib = increment(a.lhs, a.rhs), increment(b.lhs, b.rhs)
    if ia is None or ib is None or sorted(_factors(ia[1])) != sorted(_factors(ib[1])):
        return None
    return ia[0], ib[0]


def _factors(e):
    """The texts of the factors of a product."""
    if isinstance(e, ir.Binary) and e.op == "*":
        return _factors(e.left) + _factors(e.right)
    from adgen.ir.c_text import expr_c
    return [expr_c(e)]


