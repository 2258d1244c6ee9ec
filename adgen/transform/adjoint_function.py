"""Reverse mode, one function: its forward and backward sweeps (f_b for a head, g_fwd and
g_bwd for a callee in split mode), statement by statement, with what the backward sweep
needs stored, undone or recomputed (FuncGen). Calls and control flow are in
adjoint_calls.py."""

from adgen import ir
from adgen.analysis.activity import field_closure, find, row_pointers, struct_with_pointers
from adgen.analysis.extent import (Unknown, const_value, descriptor_rank, field_expr,
                                   field_path_text, through_pointer)
from adgen.analysis.loops import address_taken, loop_local_vars
from adgen.errors import AdgenError, MissingSize, warning_text
from adgen.ir import exprs as X
from adgen.ir.exprs import same_text, used_symbols
from adgen.ir.generated import GenFunction, LocalDecl
from adgen.rules import LIBRARY_FUNCTIONS, piecewise_expr, rule_expr, zero_with
from adgen.transform.adjoint_calls import CallsAndLoops
from adgen.transform.common import (Names, ShadowMap, ad_temp, alloc_bytes, alloc_call,
                                    handle_parts, increment, is_user_call, located,
                                    no_rule_error, refuse_internal_pointer_fields,
                                    refuse_internal_rows, row_pointer_data,
                                    shadow_global_setup, source_name, strip_const,
                                    unknown_function_error, unless_null, zero_stmt)
from adgen.transform.held_values import StatementValues, replace_calls
from adgen.transform.recompute import exit_recomputations
from adgen.transform.tbr import tracked_locals


class FuncGen(CallsAndLoops):
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
        if T.program_names is None:     # the same for every function of every pass
            T.program_names = frozenset(ir.program_names(self.prog) |
                                        set(T.ctx.shadow_global_names()))
        self.names = Names(taken | T.program_names)
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
        # id(loop) under `independent` -> [(buffer, element count)] it gathers adjoints in
        self.independent = {}
        self.independent_depth = 0  # > 0 while transforming the body of such a loop
        # (id(statement), variable): the first setting of a scratch scalar in such a loop's
        # iteration, whose old value nothing reads (see independent_loop.py)
        self.first_in_iteration = set()
        # backward statements the forward sweep runs (each iteration of a loop reversed one
        # iteration at a time, independent_loop.py): what they read is read by a backward
        # sweep too (ReverseTransform.scan_backward_reads)
        self.backward_in_forward = []
        self.replayed = {}          # id(For) -> counter of a loop replayed from its start
        # the counters of the counted loops around the statement being transformed, each
        # set again by the backward sweep at the start of its loop's backward iterations
        self.replayed_counters = []
        # id(statement of the backward sweep) -> memory nodes a kept state is brought back
        # over before that statement runs (see checkpoint.CheckpointedLoop.rerun)
        self.rerun_state = {}
        self.current = None         # the primal statement being transformed
        self.call_directives = {}   # id(statement) -> "joint" | "split", by a pragma
        self.bwd_branches = {}      # id(if statement) -> the if of its backward part
        self.values = None          # of the assignment being differentiated (held_values)
        self.recomputed_at = {}     # id(loop) -> statements its backward iterations start with
        self.backward_loops = []    # (primal loop, its backward loop), for split_sums
        self.block_loops = []       # counted loops, for block_pushes (BlockLoop)
        # id(primal loop) -> the elements its sweeps push and pop once, not per iteration
        # (block_pushes.hoisted_pushes; stack_usage counts them once): None until asked
        # (hoisted_elements)
        self.hoisted = None
        self._index_walker = None   # (elements_apart)
        # {id(statement): its copy} for each copy of a stretch's two sweeps (copy_sweeps)
        self.sweep_copies = []
        for g in T.ctx.shadow_globals():
            self.sh.set(g.primal, ir.Ref(g))

    # ---------------------------------------------------------------- symbols
    def readonly_ints(self):
        """This function's integer pointer parameters it never writes through (sizes
        received by reference)."""
        return self.T.ctx.extents.readonly_ints(self.f)

    def fixed_global(self, e):
        """Whether e, a global integer or a field of a global struct, holds one value for
        the whole call of every head (fixed_globals): the sweeps of any function they call
        read the same value."""
        fixed = self.T.ctx.extents.fixed_globals
        return all(fixed.fixed(h.func, e) for h in self.T.ctx.heads)

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
                refuse_internal_rows(f, p)
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
                    if row_pointers(t):
                        self.row_pointer_derivative(p)
                    elif struct_with_pointers(t):
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
        for g in self.T.ctx.head_shadow_globals(head):
            on_entry, on_exit = shadow_global_setup(g, head, "reverse")
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
                         is_static=False, source=f.name,
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
            # the sweeps share statements with the source function: rewrite copies, and
            # what refers to statements of the sweeps refers to the copies from now on
            fwd[:], bwd[:] = self.copy_sweeps(fwd, bwd)
            copies = self.sweep_copies[-1]
            self.bwd_branches = {k: copies.get(id(v), v) for k, v in self.bwd_branches.items()}
            self.backward_loops = [(s, copies.get(id(loop), loop))
                                   for s, loop in self.backward_loops]
            self.rerun_state = {id(copies[k]) if k in copies else k: nodes
                                for k, nodes in self.rerun_state.items()}
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

    def row_pointer_derivative(self, p):
        """The derivative of a head's array of row pointers p is the caller's: rows of the
        same shape. A pure input's numbers are set, each zeroed as the forward sweep reads
        it (no row is counted: see common.row_pointer_data)."""
        node, name = row_pointer_data(self.T.ctx, self.f, p), ir.source_name(p)
        if p.name in self.head.indep and p.name not in self.head.dep:
            self.zero_as_read(node, name, p.loc)
        elif p.name in self.head.dep and p.name not in self.head.indep and \
                self.T.ctx.value_read(node):
            raise AdgenError(f"'{name}' is a dependent whose input values "
                             f"'{ir.source_name(self.f)}' reads: the seeds in its rows must "
                             "be consumed, and adgen does not count the numbers of row "
                             "pointers; name it as an independent too (its rows' "
                             "derivatives on return are then those of its input values)",
                             p.loc)

    def zero_as_read(self, node, name, loc):
        """Zero a pure input's adjoint element by element as the forward sweep reads it
        (its length unknown; see zero_pure_input)."""
        if node in self.T.ctx.dep_nodes:
            raise MissingSize(f"cannot tell how many elements '{name}' has, and it may "
                              f"share memory with an output; give it with --size "
                              f"{name}=EXPR", loc, name)
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
            raise MissingSize(f"{what}: cannot tell how many elements '{name}' has: its "
                              "adjoint must be zeroed whole before the loop's steps run "
                              f"again; give it with --size {name}=EXPR", loc, name)

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
                raise MissingSize(f"cannot tell how many elements '{name}' has, and a "
                                  "loop's condition reads it; give it with --size "
                                  f"{name}=EXPR", s.loc, name)
            return []
        out, seen = [], set()
        reads = [(lv, guard) for e in ir.stmt_exprs(s)
                 for lv, guard in self.guarded_reads(e, None)]
        always = {expr_c(lv) for lv, guard in reads if guard is None}
        for lv, guard in reads:
            if guard is not None and expr_c(lv) in always:
                continue        # (zeroed whatever the test)
            target = self.sh(lv)
            key = (expr_c(guard) if guard is not None else "", expr_c(target))
            if key in seen:
                continue
            seen.add(key)
            zero = ir.Assign(target, X.zero(lv.type), s.loc)
            # read only where a test lets it (`b ? b[i] : 0`, `b && b[i] > 0`): its adjoint
            # is zeroed there too, as b's adjoint may be NULL beside it
            out.append(zero if guard is None else ir.If(guard, ir.Block([zero]), None, s.loc))
        return out

    def pure_input_reads(self, e):
        """The elements of pure inputs zeroed as read (see zero_pure_input) that e reads."""
        for lv, _ in self.guarded_reads(e, None):
            yield lv

    def guarded_reads(self, e, guard):
        """(element, test) for each element of a pure input zeroed as read that e reads:
        the test under which e evaluates it (the branch of a conditional expression, the
        right of && and ||), None where e always does."""
        def both(test):
            return X.clone(test) if guard is None else \
                ir.Binary("&&", X.clone(guard), X.clone(test), ir.INT)

        if isinstance(e, ir.Cond):
            yield from self.guarded_reads(e.test, guard)
            yield from self.guarded_reads(e.then, both(e.test))
            yield from self.guarded_reads(e.other, both(ir.Unary("!", e.test, ir.INT)))
            return
        if isinstance(e, ir.Binary) and e.op in ("&&", "||"):
            yield from self.guarded_reads(e.left, guard)
            test = e.left if e.op == "&&" else ir.Unary("!", e.left, ir.INT)
            yield from self.guarded_reads(e.right, both(test))
            return
        t = e.type.resolved() if e.type is not None else None
        if isinstance(e, (ir.Index, ir.Member, ir.Deref)) and t is not None and \
                t.is_float and find(self.mem.loc(e)) in self.T.zero_on_read:
            yield e, guard
        for c in e.children():
            yield from self.guarded_reads(c, guard)

    # ---------------------------------------------------- callee: g_fwd / g_bwd
    def build_split(self):
        f = self.f
        fparams, bparams = [], []
        # the parameters the function changes: those it assigns, and those whose address it
        # hands out (changed through it, perhaps)
        modified = {st.lhs.sym for st in ir.stmts_walk(f.body.stmts)
                    if isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref)} | \
            address_taken(f)
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
                    # The function changes its copy of p (a callee given its address takes
                    # the address of its adjoint too, in the forward sweep, where the
                    # caller's is not at hand): that copy's adjoint is local,
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

    def copy_sweeps(self, fwd, bwd):
        """Copies of a stretch's forward and backward statements, for code that runs them
        again (a checkpointed step, a fixed-point pass); the copies are remembered, so that
        what is done last to the sweeps (block pushes) is done to them too."""
        copies = {}
        made = (X.clone_stmts(ir.Block(fwd), copies).stmts,
                X.clone_stmts(ir.Block(bwd), copies).stmts)
        self.sweep_copies.append(copies)
        return made

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

    def serial_openmp(self, pragma):
        """Say that the adjoint runs the parallel loop of pragma serially (there is no
        counted for loop after it)."""
        from adgen.transform.openmp import written
        prog = self.T.ctx.prog
        prog.warnings = getattr(prog, "warnings", []) + [warning_text(
            pragma.loc, f"'{written(pragma)}' is not supported here yet: the adjoint runs "
            "this loop serially: adgen keeps it only before a counted for loop")]

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
        from adgen.transform.fixed_point import FixedPointLoop, fp_loop_pragma, reduction_factor
        from adgen.transform.independent_loop import IndependentLoop, independent_pragma
        from adgen.transform.openmp import parallel_for
        from adgen.transform.parallel_backward import ParallelBackwardLoop
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
            if parallel_for(s) is not None:
                if k + 1 < len(stmts) and isinstance(stmts[k + 1], ir.For) and \
                        (pending is None or pending[0] == "independent"):
                    pending = ("independent", s.loc, s)
                else:
                    self.serial_openmp(s)
                parts.append([])
                continue
            snaps = checkpoint_pragma(s)
            if snaps is not None or fp_loop_pragma(s) or independent_pragma(s):
                if pending is not None:
                    raise AdgenError("a loop directive must stand just before its loop",
                                     pending[1])
                pending = (snaps, s.loc) if snaps is not None else \
                    ("independent", s.loc) if independent_pragma(s) else \
                    ("fp_loop", s.loc, reduction_factor(s.text))
                parts.append([])
                continue
            if pending is not None:
                if pending[0] == "fp_loop":
                    f, b = FixedPointLoop(self, s, pending[1], pending[2]).build()
                elif pending[0] == "independent":
                    built = IndependentLoop(self, s, pending[1], *pending[2:]).build()
                    f, b = built if built is not None else \
                        ParallelBackwardLoop(self, s, pending[2]).build()
                else:
                    f, b = CheckpointedLoop(self, s, *pending).build()
                self.fwd_of[id(s)], self.bwd_of[id(s)] = f, b
                pending = None
            else:
                f, b = self.stmt(s)
            fwd.extend(f)
            parts.append(b)
        if pending is not None:
            what = pending[0] if pending[0] in ("fp_loop", "independent") else "binomial_ckp"
            raise AdgenError(f"{what}: the directive must stand just before a loop"
                             if what != "binomial_ckp" else
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
        elif isinstance(lhs, ir.Ref) and (id(at), lhs.sym) in self.first_in_iteration:
            result = False
            why = "set first in each iteration of a loop reversed one iteration at a time"
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
        from adgen.ir.fortran_text import source_text
        loc = getattr(at, "loc", None)
        if loc is not None and getattr(loc, "line", 0):
            text = what if isinstance(what, str) else \
                source_text(self.T.ctx.prog.language)(what)
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
        # the values its partials read, each evaluated once for this statement only
        self.values = StatementValues(self.act, lambda t: self.temp("value", t))
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
        out = [s for s in out if not (isinstance(s, ir.Assign) and ir.is_lvalue(s.rhs) and
                                       same_text(s.lhs, s.rhs))]
        if not temps:
            return out
        kept, later, dead = [], set(), set()    # later: what the statements kept after use
        for s in reversed(out):
            if isinstance(s, ir.Assign) and isinstance(s.lhs, ir.Ref) and \
                    s.lhs.sym in temps and s.lhs.sym not in later:
                dead.add(s.lhs.sym)
                continue
            kept.append(s)
            later |= used_symbols([s])
        if dead:
            self.ad_locals = [d for d in self.ad_locals if d.sym not in dead]
        return kept[::-1]

    def has_active(self, e):
        if self.values is None:
            return bool(self.act.active_reads(e))
        return self.values.active(e)

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
                    # each side's value serves the other side's contribution, and its math
                    # calls their own partials (held_values)
                    left, right = (self.values.value(x, out, loc) for x in (left, right))
                if l_act:
                    self.contribs(e.left, X.mul(X.clone(seed), X.clone(right)), out, loc)
                if r_act:
                    self.contribs(e.right, X.mul(X.clone(left), X.clone(seed)), out, loc)
                return
            if e.op == "/":
                right = self.values.value(e.right, out, loc)
                if l_act:
                    self.contribs(e.left, X.div(X.clone(seed), X.clone(right)), out, loc)
                if r_act:
                    # -seed * l / r^2 as (seed * (l / r)) / r: in range wherever l / r is
                    left = self.values.value(e.left, out, loc)
                    q = X.div(X.mul(X.clone(seed), X.div(X.clone(left), X.clone(right))),
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
            values = self.values
            self.values = values.branch()
            self.contribs(e.then, X.clone(seed), then_out, loc)
            self.values = values.branch()
            self.contribs(e.other, X.clone(seed), other_out, loc)
            self.values = values
            if then_out or other_out:
                out.append(ir.If(X.clone(e.test), ir.Block(then_out),
                                 ir.Block(other_out) if other_out else None, loc))
            return
        if isinstance(e, ir.Call):
            if e.func in self.T.ctx.inactive:
                return          # --inactive: its value is a constant, whatever it has a rule
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
        values = [self.values.value(a, out, loc) for a in call.args]
        args = {}
        for m, a, n in zip(marks, values, uses):
            # how often the argument is evaluated: in the value once, and where else
            evaluations = 1 + n - len(value) if len(value) > 1 else n
            simple = all(isinstance(x, (ir.Ref, ir.Const)) for x in ir.walk(a) if x is not a)
            args[m] = ir.Ref(self.values.once(a, out, loc)) if evaluations > 1 and \
                not simple else a
        held = self.values.held_call(call.func, values, call.type)
        if value and (held is not None or len(value) > 1):
            if held is None:
                v = ir.Call(call.func, [X.clone(args[m]) for m in marks], call.type, call.loc)
                held = ir.Ref(self.values.once(v, out, loc))
            parts = [None if p is None else replace_calls(p, call.func, marks, held)
                     for p in parts]
        return [None if p is None else X.substitute(p, args) for p in parts]

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
    # each statement's target and, for an increment, its sign and its factors (computed
    # once: a nested expression gives hundreds of contributions)
    facts = [_term_facts(st) for st in out]
    k = 0
    while k < len(out):
        target, inc = facts[k]
        partner = None
        if inc is not None:
            names = {expr_c(x) for x in ir.walk(increment(out[k].lhs, out[k].rhs)[1])
                     if ir.is_lvalue(x)} | {target}
            for m in range(k + 1, len(out)):
                other, other_inc = facts[m]
                if other is None:
                    break
                if other == target and other_inc is not None and \
                        other_inc[1] == inc[1] and other_inc[0] == -inc[0]:
                    partner = m
                    break
                if other in names:
                    break
        if partner is None:
            k += 1
            continue
        for j in (partner, k):
            del out[j]
            del facts[j]
    return out


def _term_facts(st):
    """(C text of the target, (sign, sorted factor texts) or None) of an assignment of the
    adjoint statements of one assignment, (None, None) for another statement."""
    if not isinstance(st, ir.Assign):
        return None, None
    from adgen.ir.c_text import expr_c
    inc = increment(st.lhs, st.rhs)
    return expr_c(st.lhs), None if inc is None else (inc[0], sorted(_factors(inc[1])))


def _same_terms(a, b):
    """(sign of a, sign of b) when statements a and b both add to (or subtract from) the
    same lvalue a product of the same factors; None otherwise."""
    (ta, ia), (tb, ib) = _term_facts(a), _term_facts(b)
    if ta is None or ta != tb or ia is None or ib is None or ia[1] != ib[1]:
        return None
    return ia[0], ib[0]


def _factors(e):
    """The texts of the factors of a product."""
    if isinstance(e, ir.Binary) and e.op == "*":
        return _factors(e.left) + _factors(e.right)
    from adgen.ir.c_text import expr_c
    return [expr_c(e)]
