"""Tangent (forward) mode: each active assignment `v = e` is preceded by `vd = e'`, the
directional derivative of e; control flow is kept as it is."""
import functools

from adgen import ir, progress
from adgen.analysis.activity import row_pointers, struct_with_pointers
from adgen.analysis.extent import field_expr
from adgen.analysis.loops import address_taken
from adgen.analysis.ruled_calls import result_is_active
from adgen.errors import AdgenError
from adgen.ir import exprs as X, own_stack
from adgen.ir.c_text import expr_c
from adgen.ir.exprs import counted_loop
from adgen.ir.generated import GenFunction, LocalDecl, local_type
from adgen.rules import (LIBRARY_FUNCTIONS, MPI_NON_BLOCKING, piecewise_expr, rule_expr,
                         zero_with)
from adgen.transform.held_values import StatementValues
from adgen.transform.openmp import exclusive_update
from adgen.transform.common import (Names, ShadowMap, alloc_bytes, alloc_call, handle_parts,
                                    is_user_call, located, no_rule_error,
                                    refuse_internal_pointer_fields, refuse_internal_rows,
                                    row_pointer_data, shadow_global_setup,
                                    source_name, unknown_function_error)


class TangentTransform:
    def __init__(self, ctx, vector=False):
        self.ctx = ctx
        self.prog = ctx.prog
        self.mem = ctx.mem
        self.act = ctx.act
        self.plain_calls = set()
        self.gen_class = VectorTangentGen if vector else TangentGen
        self.suffix = "_dv" if vector else "_d"

    def run(self):
        self.writes = self.ctx.writes()
        self.order = []
        self.generated = {}
        head_names = {h.func.name for h in self.ctx.heads}
        self.internal = {}
        for head in self.ctx.heads:
            self.generated[("head", head.func.name)] = self.gen_class(self, head.func, head).build()
        k = 0
        while k < len(self.order):
            name = self.order[k]
            progress.step("differentiating", k + 1,
                          max(len(self.ctx.functions), len(self.order)),
                          source_name(self.prog.functions[name]))
            self.generated[name] = self.gen_class(self, self.prog.functions[name], None).build()
            k += 1
        funcs = [self.generated[n] for n in self.order]
        funcs += [self.generated[("head", h.func.name)] for h in self.ctx.heads]
        self.head_names = head_names
        return funcs

    def internal_name(self, g):
        if g.name not in self.internal:
            heads = {h.func.name for h in self.ctx.heads}
            self.internal[g.name] = g.name + self.suffix + ("0" if g.name in heads else "")
            self.order.append(g.name)
        return self.internal[g.name]

    def call_is_diff(self, g):
        if self.act.ret_active(g) or self.act.ret_pointer_shadowed(g):
            return True
        if self.ctx.frees(g.name):
            return True         # its free() must free the shadows too
        return any(self.act.is_active(n) or self.act.needs_shadow(n)
                   for n in self.writes.get(g.name, ()))


def row_pointer_tangent(ctx, f, head, p):
    """The tangent of a head's array of row pointers p is the caller's: rows of the same
    shape (see common.row_pointer_data). Refused: a pure output whose input values the
    head reads, whose tangents would have to start at zero in rows adgen cannot count."""
    node = row_pointer_data(ctx, f, p)
    if p.name in head.dep and p.name not in head.indep and ctx.value_read(node):
        name = ir.source_name(p)
        raise AdgenError(f"'{name}' is a dependent whose input values '{source_name(f)}' "
                         "reads: their tangents must start at zero, and adgen does not "
                         "count the numbers of row pointers; name it as an independent too "
                         "(and give its input tangents)", p.loc)


class TangentGen:
    def __init__(self, T, f, head):
        self.T, self.f, self.head = T, f, head
        self.act, self.mem, self.prog = T.act, T.mem, T.prog
        taken = {p.name for p in f.params} | {s.name for s in f.locals}
        taken |= ir.program_names(self.prog)
        taken |= set(T.ctx.shadow_global_names())
        self.names = Names(taken)
        self.sh = ShadowMap(self.act, "d")
        self.locals = []
        self.parallel = {}          # id(for loop) -> its `#pragma omp parallel for`
        self.values = None          # of the assignment being differentiated (held_values)
        for g in T.ctx.shadow_globals():
            self.sh.set(g.primal, ir.Ref(g))

    def shadow_symbol(self, sym, t=None):
        s = ir.Symbol(self.names.fresh(sym.name + "d"), t or sym.type, "local")
        s.primal = sym
        return s

    def handle_tangent(self, p, pd):
        """The tangent struct of a head's handle p (a struct holding pointers, or a pointer
        to one) is the caller's, its pointers leading to the tangents of what p's lead to.
        A pure output's parts whose input values the head reads start at zero."""
        head, f = self.head, self.f
        out = []
        for kind, path, node in handle_parts(self.T.ctx, f, p):
            if p.name in head.indep or not self.T.ctx.value_read(node):
                continue
            if kind == "value":
                out.append(ir.Raw("zero_object", {"obj": field_expr(ir.Ref(pd), path)}))
            else:
                n = self.T.ctx.extent(f, p, "its tangent must start at zero", path)
                out.append(ir.Raw("zero", {"ptr": field_expr(ir.Ref(pd), path), "count": n}))
        return out

    def build(self):
        f, head = self.f, self.head
        params, prologue, epilogue = [], [], []
        self.out_params = params    # (the derivative's, shadows included: see openmp.py)
        for p in f.params:
            params.append(p)
            named = head is not None and (p.name in head.indep or p.name in head.dep)
            shadowed = self.act.sym_has_shadow(p)
            if head is not None and not named and shadowed:
                # an internal buffer carrying derivatives: tangent storage of its own
                refuse_internal_pointer_fields(self.act, f, p)
                refuse_internal_rows(f, p)
                t = p.type.resolved()
                pd = self.shadow_symbol(p, ir.with_const(p.type, False))
                self.sh.set(p, ir.Ref(pd))
                if t.is_float or t.is_struct:
                    self.locals.append(LocalDecl(pd, zero=True))
                elif isinstance(t, ir.Ptr):
                    n = self.T.ctx.extent(f, p, f"it carries derivatives inside '{f.name}' "
                                          "and needs internal tangent storage")
                    pd.type = _mutable_ptr(p.type)
                    self.locals.append(LocalDecl(pd))
                    prologue.append(ir.Raw("alloc_shadow", {"target": ir.Ref(pd),
                                                            "type": pd.type, "count": n}))
                    epilogue.append(ir.Raw("free", {"ptr": ir.Ref(pd)}))
                else:
                    raise AdgenError(f"parameter '{p.name}' carries derivatives through a "
                                     "type adgen cannot shadow yet", p.loc)
                continue
            if not (named or (head is None and shadowed)):
                continue
            t = p.type.resolved()
            if not (t.is_float or isinstance(t, ir.Ptr) or t.is_struct):
                raise AdgenError(f"parameter '{p.name}' carries derivatives through a type "
                                 "adgen cannot shadow yet", p.loc)
            pd = self.shadow_symbol(p, ir.with_const(p.type, False)
                                    if (t.is_float or t.is_struct) else p.type)
            params.append(pd)
            self.sh.set(p, ir.Ref(pd))
            if head is not None and row_pointers(t):
                row_pointer_tangent(self.T.ctx, f, head, p)
            elif head is not None and struct_with_pointers(t):
                prologue += self.handle_tangent(p, pd)
            elif head is not None and isinstance(t, ir.Ptr) and p.name in head.dep and \
                    p.name not in head.indep and (
                        self.T.ctx.value_read(self.mem.pointee(self.mem.var(p))) or
                        self.T.ctx.stated_extent(f, p)):
                # a pure output whose input value is read: that value has no tangent; with
                # a length given or declared, zero also where the routine writes nothing
                n = self.T.ctx.extent(f, p, "its tangent must start at zero")
                prologue.append(ir.Raw("zero", {"ptr": ir.Ref(pd), "count": n}))
        result = getattr(f, "result", None)
        active_ret = (head is not None and f.name in head.dep) or \
            (head is None and self.act.ret_active(f))
        shadow_out = None
        if head is None and self.act.ret_pointer_shadowed(f):
            # a returned pointer comes back with its shadow, through **fd
            shadow_out = ir.Symbol(self.names.fresh(source_name(f) + "d"), ir.Ptr(f.ret), "param")
        out_ptr = None
        if active_ret:
            self.names.release(f.name)
            base = source_name(f)
            self.names.release(base)
            out_ptr = ir.Symbol(self.names.fresh(base), ir.Ptr(ir.with_const(f.ret, False)),
                                "param")
            params.append(out_ptr)
        for sym in f.locals:
            self.locals.append(LocalDecl(sym))
            if self.act.sym_has_shadow(sym):
                sd = self.shadow_symbol(sym, local_type(sym.type))
                self.sh.set(sym, ir.Ref(sd))
                self.locals.append(LocalDecl(sd, zero=True))
        if head is not None:
            for g in self.T.ctx.head_shadow_globals(head):
                on_entry, on_exit = shadow_global_setup(g, head, "forward")
                prologue += on_entry
                epilogue += on_exit
        body = prologue + self.stmts(f.body.stmts) + epilogue
        if shadow_out is not None:
            params.append(shadow_out)
            if result is not None:
                body.append(ir.Assign(ir.Deref(ir.Ref(shadow_out), f.ret),
                                      self.sh(ir.Ref(result))))
        ret = ir.VOID
        if result is not None:
            if active_ret:
                body.append(ir.Assign(ir.Deref(ir.Ref(out_ptr), f.ret), ir.Ref(result)))
                rd = self.sh.of_sym(result) if self.sh.has(result) else X.zero(f.ret)
                body.append(ir.Return(rd))
            else:
                body.append(ir.Return(ir.Ref(result)))
            ret = ir.with_const(f.ret, False)
        name = f.name + "_d" if head is not None else self.T.internal_name(f)
        orig = source_name(f)
        comment = (f"Tangent of {f.name} (head {head.text})." if head is not None
                   else f"Tangent of {orig}.")
        return GenFunction(name, ret, params, body, self.locals, is_static=head is None,
                           comment=comment, source=f.name)

    # ------------------------------------------------------------ statements
    def stmts(self, stmts):
        from adgen.transform.openmp import TangentParallelLoop, parallel_for
        out = []
        for k, s in enumerate(stmts):
            if parallel_for(s) is not None:
                # the loop after it keeps it (or is said to run serially)
                self.parallel[id(stmts[k + 1]) if k + 1 < len(stmts) else None] = s
                continue
            made = self.stmt(s)
            if id(s) in self.parallel:
                text = TangentParallelLoop(self, self.parallel[id(s)], s).pragma_for(
                    made[-1] if made and isinstance(s, ir.For) and isinstance(made[-1], ir.For)
                    else None)
                if text is not None:
                    made.insert(len(made) - 1, ir.Raw("pragma", {"text": text}, s.loc))
            out.extend(made)
        if None in self.parallel:
            TangentParallelLoop(self, self.parallel.pop(None), None).pragma_for(None)
        return out

    def stmt(self, s):
        with located(s):
            return self._stmt(s)

    def _stmt(self, s):
        if own_stack.pushed(s) is not None or own_stack.popped(s) is not None:
            return self.own_stack(s)
        if own_stack.kept(s) is not None:
            return self.own_log(own_stack.kept(s), s.loc)
        if isinstance(s, ir.Assign):
            return self.assign(s)
        if isinstance(s, ir.ExprStmt):
            return self.expr_stmt(s)
        if isinstance(s, ir.Block):
            return [ir.Block(self.stmts(s.stmts), s.loc)]
        if isinstance(s, ir.If):
            then = self.stmts(s.then.stmts)
            if isinstance(s.test, ir.Call) and s.test.func == "adgen_was_freed" and \
                    self.act.has_shadow(s.test.args[0]):
                then = self.shadow_was_freed(s.test.args[0], then)
            return [ir.If(s.test, ir.Block(then),
                          ir.Block(self.stmts(s.other.stmts)) if s.other else None, s.loc)]
        if isinstance(s, ir.For):
            init = self.stmts(s.init)
            step = self.stmts(s.step)
            if any(not isinstance(x, ir.Assign) for x in init + step):
                raise AdgenError("for-loop initialisation or step carries derivatives of a "
                                 "call: not supported", s.loc)
            return [ir.For(init, s.test, step, ir.Block(self.stmts(s.body.stmts)), s.loc)]
        if isinstance(s, ir.While):
            return [ir.While(s.test, ir.Block(self.stmts(s.body.stmts)), s.loc)]
        if isinstance(s, ir.DoWhile):
            return [ir.DoWhile(ir.Block(self.stmts(s.body.stmts)), s.test, s.loc)]
        if isinstance(s, ir.Pragma):
            return []
        raise AdgenError(f"unsupported statement in tangent mode ({type(s).__name__})", s.loc)

    def assign(self, s):
        lhs, rhs = s.lhs, s.rhs
        if isinstance(rhs, ir.Call) and is_user_call(self.prog, rhs):
            return self.call(rhs, lhs, s)
        lt = lhs.type.resolved()
        alloc = alloc_call(rhs)
        if alloc is not None:
            out = [s]
            if self.act.has_shadow(lhs):
                sl = self.sh(lhs)
                nbytes = alloc_bytes(alloc)
                out.append(ir.Raw("alloc_bytes", {"target": sl, "type": sl.type,
                                                  "bytes": nbytes}, s.loc))
            return out
        if isinstance(lt, ir.Ptr) and self.act.has_shadow(lhs):
            return [s, ir.Assign(self.sh(lhs), self.sh(rhs), s.loc)]
        if isinstance(lt, ir.Struct) and self.act.has_shadow(lhs):
            raise AdgenError("assignment of a struct holding active values from this "
                             "expression is not supported yet", s.loc)
        if lt.is_float and self.act.active_value(lhs):
            before, t = self.statement_tangent(rhs, s.loc)
            td = X.zero(lhs.type) if t is None else X.cast_to(t, lhs.type)
            ld = self.sh(lhs)
            if X.same_text(td, ld):
                return [s]      # `v = v + c` with c constant: the tangent stays
            return before + [ir.Assign(ld, td, s.loc, exclusive_update(s, ld, td)), s]
        return [s]

    def expr_stmt(self, s):
        call = s.expr
        if isinstance(call, ir.Call):
            if is_user_call(self.prog, call):
                return self.call(call, None, s)
            if call.func in ("free", "adgen_defer_free", "adgen_release"):
                # (adgen_defer_free, adgen_release: free()s of adgen's own output)
                arg = call.args[0]
                if self.act.has_shadow(arg):
                    return [s, ir.ExprStmt(ir.Call(call.func, [self.sh(arg)], ir.VOID),
                                           s.loc)]
                return [s]
            if call.func in LIBRARY_FUNCTIONS:
                return [s]
            g = self.prog.functions.get(call.func)
            if (g is None or not g.has_body) and call.func not in self.T.ctx.inactive:
                raise unknown_function_error(call.func, s.loc)
        return [s]

    def call(self, call, lhs, s):
        g = self.prog.functions[call.func]
        if getattr(g, "user_rule", None) is not None:
            return self.ruled_call(call, lhs, s, g)
        if not g.has_body:
            if call.func in self.T.ctx.inactive:
                self.T.plain_calls.add(g.name)
                return self.inactive_result(lhs, s)
            raise unknown_function_error(call.func, s.loc)
        if not self.T.call_is_diff(g):
            self.T.plain_calls.add(g.name)
            return self.inactive_result(lhs, s)
        name = self.T.internal_name(g)
        args, pre = [], []
        for p, a in zip(g.params, call.args):
            args.append(a)
            if not self.act.sym_has_shadow(p):
                continue
            t = p.type.resolved()
            if t.is_float:
                d = self.tangent(a)
                args.append(X.zero(p.type) if d is None else X.cast_to(d, p.type))
            elif t.is_struct and not (ir.is_lvalue(a) and self.act.has_shadow(a)):
                dummy = self.temp_zero(p.type)
                args.append(ir.Ref(dummy))
            elif self.act.has_shadow(a):
                args.append(self.sh(a))
            elif isinstance(a, ir.Const) or (isinstance(a, ir.Cast) and
                                             isinstance(a.arg, ir.Const)):
                args.append(a)
            else:
                raise AdgenError(f"argument {len(args)} of '{g.name}' needs a derivative but "
                                 "has none here", a.loc or s.loc)
        active_ret = self.act.ret_active(g)
        if self.act.ret_pointer_shadowed(g):
            value = ir.Symbol(self.names.fresh(source_name(g) + "_value"), g.ret, "temp")
            shadow = ir.Symbol(self.names.fresh(source_name(g) + "_valued"), g.ret, "temp")
            self.locals += [LocalDecl(value), LocalDecl(shadow)]
            args.append(ir.AddrOf(ir.Ref(shadow), ir.Ptr(g.ret)))
            out = pre + [ir.Assign(ir.Ref(value), ir.Call(name, args, g.ret, call.loc), s.loc)]
            if lhs is not None:
                out.append(ir.Assign(lhs, ir.Ref(value), s.loc))
                if self.act.has_shadow(lhs):
                    out.append(ir.Assign(self.sh(lhs), ir.Ref(shadow), s.loc))
            return out
        if active_ret:
            if lhs is None:     # `g(&x);`: a result the caller drops, its tangent too
                lhs = ir.Ref(self.temp_zero(g.ret))
            args.append(ir.AddrOf(lhs, ir.Ptr(lhs.type)))
            c = ir.Call(name, args, g.ret, call.loc)
            if self.act.has_shadow(lhs):
                return pre + [ir.Assign(self.sh(lhs), c, s.loc)]
            return pre + [ir.ExprStmt(c, s.loc)]
        c = ir.Call(name, args, g.ret, call.loc)
        if lhs is not None:
            out = pre + [ir.Assign(lhs, c, s.loc)]
            if lhs.type.resolved().is_float and self.act.active_value(lhs):
                out.insert(len(pre), ir.Assign(self.sh(lhs), X.zero(lhs.type), s.loc))
            return out
        return pre + [ir.ExprStmt(c, s.loc)]

    def ruled_call(self, call, lhs, s, g):
        """A call of a function with a user rule: the user's NAME_d computes the outputs
        and their tangents (see frontend/user_rules.py)."""
        from adgen.analysis.ruled_calls import derivative_flows, size_at_call
        rule, loc = g.user_rule, s.loc
        lhs_active = result_is_active(self.act, lhs)
        if not derivative_flows(self.act, g, call, lhs_active):
            return self.inactive_result(lhs, s)       # no derivative comes out of it
        pre, post = [], []

        def array_tangent(p, a):
            if self.act.has_shadow(a):
                return self.sh(a)
            # no tangent here: a zero one (or one to throw away)
            buf = ir.Symbol(self.names.fresh(p.name + "d"),
                            ir.Ptr(ir.with_const(ir.pointee(p.type.resolved()), False)), "temp")
            self.locals.append(LocalDecl(buf))
            pre.append(ir.Raw("scratch_alloc", {"target": ir.Ref(buf), "type": buf.type,
                                                "count": size_at_call(g, p, call.args)}, loc))
            post.append(ir.Raw("scratch_free", {"ptr": ir.Ref(buf)}))
            return ir.Ref(buf)
        args = self.ruled_arguments(g, call, array_tangent)
        name = g.name + "_d"
        if g.name in rule.dep:
            value = self.ruled_result_temp(g)
            args.append(ir.AddrOf(ir.Ref(value), ir.Ptr(value.type)))
            c = ir.Call(name, args, g.ret, call.loc)
            if lhs_active:
                out = [ir.Assign(self.sh(lhs), c, loc)]
            else:
                out = [ir.ExprStmt(c, loc)]
            if lhs is not None:
                out.append(ir.Assign(lhs, ir.Ref(value), loc))
            return pre + out + post
        c = ir.Call(name, args, g.ret, call.loc)
        out = [ir.Assign(lhs, c, loc)] if lhs is not None else [ir.ExprStmt(c, loc)]
        if lhs_active:
            out.insert(0, ir.Assign(self.sh(lhs), X.zero(lhs.type), loc))
        return pre + out + post

    def ruled_result_temp(self, g):
        """A local for the value of ruled function g, which NAME_d gives through a pointer
        when it returns the derivative (g is among its rule's outputs)."""
        value = ir.Symbol(self.names.fresh(g.name + "_value"), ir.with_const(g.ret, False),
                          "temp")
        self.locals.append(LocalDecl(value, zero=True))
        return value

    def ruled_arguments(self, g, call, array_tangent):
        """NAME_d's arguments for a call of ruled function g: each argument of the call,
        followed, where the rule names it, by its tangent: a by-value float's, or what
        array_tangent(param, argument) gives for an array."""
        args = []
        for p, a in zip(g.params, call.args):
            args.append(a)
            if not g.user_rule.named(p.name):
                continue
            if p.type.resolved().is_float:
                d = self.tangent(a)
                args.append(X.zero(p.type) if d is None else X.cast_to(d, p.type))
            else:
                args.append(array_tangent(p, a))
        return args

    def shadow_was_freed(self, p, stmts):
        """adgen's own output frees a block of the program the forward sweep let go of
        (`if (adgen_was_freed(p)) free(p);`); the shadow's free() was put off beside it
        (adgen_defer_free) and is taken off that list in the same way."""
        pd = self.sh(p)
        out = []
        for st in stmts:
            call = ir.statement_call(st)
            if call is not None and call.func in ("free", "adgen_release") and \
                    X.same_text(call.args[0], pd):
                st = ir.If(ir.Call("adgen_was_freed", [X.clone(pd)], ir.INT),
                           ir.Block([st]), None, st.loc)
            out.append(st)
        return out

    def own_log(self, target, loc):
        """A value adgen's own output logs, to be put back when the log is replayed: the
        log keeps addresses, so the tangent's is logged beside it, with no pairing."""
        out = [ir.Raw("keep", {"target": target}, loc)]
        if self.act.has_shadow(target):
            out.append(ir.Raw("keep", {"target": self.sh(target)}, loc))
        return out

    def own_stack(self, s):
        """A push or pop of the value stack of adgen's own output (ir/own_stack.py). When
        activity carries derivatives through the stack, every floating-point value takes
        its tangent along (zero for a value without one, dropped for a target without
        one): pushes and pops then pair up whatever their own activity."""
        value, target = own_stack.pushed(s), own_stack.popped(s)
        e = value if value is not None else target
        t = e.type.resolved()
        if t.is_pointer or t.is_struct:
            # (what every pointer on the stack points to is one memory, so is every struct
            # of a type on it: activity.py)
            along = self.act.has_shadow(e)
        elif ir.array_element(t).resolved().is_struct:
            if self.act.has_shadow(e):
                raise AdgenError("adgen's own output saves an array of structs holding "
                                 "derivatives here in one piece: its tangent is not "
                                 "supported yet", s.loc)
            along = False
        else:       # numbers, arrays of numbers
            along = ir.base_float(t) and self.act.is_active(self.mem.var(own_stack.STACK))
        if not along:
            return [ir.Push(value, s.loc) if value is not None else ir.Pop(target, s.loc)]
        if not ir.is_lvalue(e) and not t.is_int:
            raise AdgenError("a value of adgen's own stack that is not a variable", s.loc)
        if value is not None:
            return [ir.Push(value, s.loc)] + self.tangent_moved(e, True, s.loc)
        return self.tangent_moved(e, False, s.loc) + [ir.Pop(target, s.loc)]

    def tangent_moved(self, e, push, loc):
        """The push (push) or pop of the tangent of e beside e's own: a zero pushed, or a
        scratch popped into, where e has none."""
        if self.act.has_shadow(e):
            d = self.sh(e)
        else:
            d = ir.Ref(self.temp_zero(e.type))
        return [ir.Push(d, loc) if push else ir.Pop(d, loc)]

    def temp_zero(self, t):
        sym = ir.Symbol(self.names.fresh("zero"), ir.with_const(t, False), "temp")
        self.locals.append(LocalDecl(sym, zero=True))
        return sym

    def inactive_result(self, lhs, s):
        if result_is_active(self.act, lhs):
            return [ir.Assign(self.sh(lhs), X.zero(lhs.type), s.loc), s]
        return [s]

    # ------------------------------------------------------------ expressions
    def statement_tangent(self, rhs, loc):
        """(statements, tangent of rhs): the tangent of an assignment's right-hand side, and
        the statements to run before it that hold the values it reads, each evaluated
        once (held_values)."""
        self.values, self.before, self.values_loc = \
            StatementValues(self.act, self.value_temp), [], loc
        try:
            t = self.tangent(rhs)
        finally:
            before, self.values, self.before = self.before, None, None
        return before, t

    def value_temp(self, t):
        sym = ir.Symbol(self.names.fresh("value"), ir.with_const(t, False), "temp")
        self.locals.append(LocalDecl(sym))
        return sym

    def value(self, e):
        """e's value where the tangent of an assignment reads it (statement_tangent); a
        copy of e elsewhere."""
        if self.values is None:
            return X.clone(e)
        return self.values.value(e, self.before, self.values_loc)

    def tangent(self, e):
        """The tangent of e, or None when it is zero."""
        if not self.act.active_reads(e):
            return None
        if ir.is_lvalue(e):
            return self.sh(e)
        if isinstance(e, ir.Binary):
            a, b = self.tangent(e.left), self.tangent(e.right)
            if e.op == "+":
                return X.add(a, b) if a is not None or b is not None else None
            if e.op == "-":
                if b is None:
                    return a
                return X.sub(a, b) if a is not None else X.neg(b)
            if e.op == "*":
                ta = X.mul(a, self.value(e.right)) if a is not None else None
                tb = X.mul(self.value(e.left), b) if b is not None else None
                return X.add(ta, tb)
            if e.op == "/":
                right = self.value(e.right)
                if b is None:
                    return X.div(a, right)
                q = X.div(self.value(e.left), X.clone(right))
                num = X.sub(a, X.mul(q, b)) if a is not None else X.neg(X.mul(q, b))
                return X.div(num, X.clone(right))
            raise AdgenError(f"operator '{e.op}' on active values cannot be differentiated",
                             e.loc)
        if isinstance(e, ir.Unary):
            t = self.tangent(e.arg)
            return X.neg(t) if e.op == "-" and t is not None else t
        if isinstance(e, ir.Cast):
            t = self.tangent(e.arg)
            return X.cast_to(t, e.to) if t is not None else None
        if isinstance(e, ir.Cond):
            # a branch's values are evaluated in the branch only: it may read what the
            # test guards (`i < n ? sin(x[i]) : 0.0`)
            values, self.values = self.values, None
            try:
                a, b = self.tangent(e.then), self.tangent(e.other)
            finally:
                self.values = values
            return ir.Cond(X.clone(e.test), a if a is not None else X.zero(e.type),
                           b if b is not None else X.zero(e.type), e.type)
        if isinstance(e, ir.Call):
            if e.func in self.T.ctx.inactive:
                return None     # --inactive: its value is a constant, whatever it has a rule
            lib = LIBRARY_FUNCTIONS.get(e.func)
            if lib is None:
                raise no_rule_error(e.func, e.loc)
            if lib.kind != "math":
                raise AdgenError(f"cannot differentiate call to '{e.func}' here", e.loc)
            branches = piecewise_expr(lib, [X.clone(x) for x in e.args])
            if branches is not None:
                return self.tangent(branches)     # the tangent of the branch taken
            total = None
            for k, a in enumerate(e.args):
                ta = self.tangent(a)
                if ta is None:
                    continue
                p = rule_expr(lib, k, [self.value(x) for x in e.args])
                if p is not None:
                    total = X.add(total, zero_with(X.mul(p, ta), ta, e))
            return total
        raise AdgenError("cannot differentiate this expression", e.loc)


def _mutable(t):
    return ir.with_const(t, False)


def _mutable_ptr(t):
    from adgen.transform.common import strip_const
    return strip_const(t)




# ---------------------------------------------------------------- vector mode

class VectorShadowMap(ShadowMap):
    """Shadows with a trailing dimension of nbdirs directions: the tangent of element i of
    x in direction k is xd[i * nbdirs + k]; of a scalar s, sd[k]."""

    def __init__(self, act, nbdirs, k):
        super().__init__(act, "d")
        self.nb = nbdirs
        self.k = k

    def _scaled(self, i):
        return X.add(X.mul(X.clone(i), ir.Ref(self.nb)), ir.Ref(self.k)) if i is not None \
            else ir.Ref(self.k)

    def __call__(self, e):
        t = e.type.resolved()
        if not t.is_float:
            return self.ptr(e)
        if isinstance(e, ir.Ref):
            return ir.Index(self.of_sym(e.sym), ir.Ref(self.k), _elem(e.type), e.loc)
        if isinstance(e, ir.Index):
            return ir.Index(self.ptr(e.base), self._scaled(e.index), _elem(e.type), e.loc)
        if isinstance(e, ir.Deref):
            return ir.Index(self.ptr(e.ptr), ir.Ref(self.k), _elem(e.type), e.loc)
        raise AdgenError("vector mode does not support derivatives in struct fields", e.loc)

    def ptr(self, e):
        """The shadow of a pointer- or array-valued expression (not indexed by k)."""
        nb = ir.Ref(self.nb)
        if isinstance(e, ir.Ref):
            if e.sym.type.resolved().is_array and \
                    ir.pointee(e.sym.type).resolved().is_array:
                raise AdgenError("vector mode does not support multi-dimensional arrays",
                                 e.loc)
            return self.of_sym(e.sym)
        if isinstance(e, ir.Binary) and e.op in "+-":
            lt = e.left.type.resolved()
            base, off = (e.left, e.right) if isinstance(lt, (ir.Ptr, ir.Arr)) else \
                (e.right, e.left)
            b = self.ptr(base)
            return ir.Binary(e.op, b, X.mul(X.clone(off), nb), b.type, e.loc)
        if isinstance(e, ir.AddrOf):
            a = e.arg
            if isinstance(a, ir.Index):
                b = self.ptr(a.base)
                return ir.Binary("+", b, X.mul(X.clone(a.index), nb), b.type, e.loc)
            if isinstance(a, ir.Ref):
                sh = self.of_sym(a.sym)
                if isinstance(a.sym.type.resolved(), ir.Ptr):
                    # the address of a pointer (that a callee sets): of its shadow pointer
                    return ir.AddrOf(sh, ir.Ptr(sh.type), e.loc)
                return sh       # a number's shadow: the array of its directions
            if isinstance(a, ir.Deref):
                return self.ptr(a.ptr)
        if isinstance(e, ir.Cast):
            inner = self.ptr(e.arg)
            return ir.Cast(e.to, inner, e.loc)
        if isinstance(e, ir.Cond):
            return ir.Cond(e.test, self.ptr(e.then), self.ptr(e.other), e.type, e.loc)
        if isinstance(e, ir.Const):
            return e
        if isinstance(e, ir.Deref) and isinstance(e.type.resolved(), ir.Ptr):
            # a pointer stored through a pointer (a Fortran function handing over its
            # ALLOCATABLE result): the shadow pointer it points to
            inner = self.ptr(e.ptr)
            return ir.Deref(inner, ir.pointee(inner.type), e.loc)
        raise AdgenError("cannot form the derivative of this pointer expression in vector "
                         "mode", e.loc)


def _elem(t):
    return ir.with_const(t, False)


def _factors(e, t):
    """The factors of e, a product of float type t, through the products it nests; an
    integer factor converted to t, as the product converts it."""
    if isinstance(e, ir.Binary) and e.op == "*" and e.type.resolved().is_float:
        return _factors(e.left, e.type) + _factors(e.right, e.type)
    return [e if e.type.resolved().is_float else ir.Cast(ir.with_const(t, False), e)]


def _read_only(e):
    """e computes nothing: a constant, a variable or an element read at a plain index,
    possibly negated or converted; not worth a temporary."""
    if isinstance(e, (ir.Const, ir.Ref)):
        return True
    if isinstance(e, ir.Cast) or (isinstance(e, ir.Unary) and e.op == "-"):
        return _read_only(e.arg)
    if isinstance(e, ir.Index):
        return _read_only(e.base) and _read_only(e.index)
    if isinstance(e, ir.Member):
        return _read_only(e.base)
    if isinstance(e, ir.Deref):
        return _read_only(e.ptr)
    return False


class VectorTangentGen(TangentGen):
    """Tangent of one function in nbdirs directions at once (`f_dv`)."""

    def __init__(self, T, f, head):
        super().__init__(T, f, head)
        self.per_call = T.ctx.per_call_statics()
        kept = [g for g in T.ctx.shadow_globals() if g.primal not in self.per_call]
        if kept:
            named = next((g for g in kept if getattr(g, "head_io", False)), None)
            if named is not None:
                raise AdgenError(f"vector mode does not support a global variable as an "
                                 f"independent or a dependent ('{source_name(named.primal)}'"
                                 "): pass it as an argument", named.primal.loc)
            raise AdgenError("vector mode does not support active global variables",
                             kept[0].primal.loc)
        self.nb = ir.Symbol(self.names.fresh("nbdirs"), ir.INT, "param")
        self.nb.directions = True           # passed by reference for Fortran callers
        self.k = ir.Symbol(self.names.fresh("dir"), ir.INT, "local")
        self.sh = VectorShadowMap(self.act, self.nb, self.k)
        self.locals.append(LocalDecl(self.k))
        self.temporaries = {}       # (name, type) -> temporaries, shared by all statements
        self.fresh_statement()

    def vec(self, t):
        """A local array of nbdirs values of float type t."""
        return ir.Arr(ir.with_const(t, False), ir.Ref(self.nb))

    def each_direction(self, stmts):
        k = ir.Ref(self.k)
        return ir.For([ir.Assign(ir.Ref(self.k), ir.Const("0", ir.INT))],
                      ir.Binary("<", k, ir.Ref(self.nb), ir.INT),
                      [ir.Assign(ir.Ref(self.k), X.add(ir.Ref(self.k), ir.Const("1", ir.INT)))],
                      ir.Block(stmts), stmts[0].loc if stmts else None)

    # ------------------------------------------------------------ partials
    def hoisted(self, e, before, loc, name="partial"):
        """The tangent e of one direction with every part that does not depend on the
        direction (a partial derivative, a primal value computed) read from a temporary,
        set by statements appended to before: gcc cannot move a call or a product out of
        the direction loop past its stores to the tangent arrays. Each statement starts
        its temporaries anew (fresh_statement); they are set before the statement, so
        from the primal values it reads."""
        direction = self.k
        if not X.mentions(e, direction):
            t = e.type.resolved() if e.type is not None else None
            if t is None or not (t.is_float or t.is_int) or _read_only(e):
                return e
            # the same value twice in one place: one temporary
            key = (id(before), expr_c(e))
            if key not in self.known:
                self.known[key] = self.temporary(name, e.type)
                before.append(ir.Assign(ir.Ref(self.known[key]), e, loc))
            return ir.Ref(self.known[key])
        if isinstance(e, ir.Cond) and not X.mentions(e.test, direction):
            # a branch's partials only where it is taken: it may read what the other
            # branch's test guards (`i < n ? x[i] : 0`)
            test = self.hoisted(e.test, before, loc, "branch")
            then, other = [], []
            e = ir.Cond(test, self.hoisted(e.then, then, loc), self.hoisted(e.other, other, loc),
                        e.type, e.loc)
            if then:
                before.append(ir.If(X.clone(test), ir.Block(then),
                                    ir.Block(other) if other else None, loc))
            elif other:
                before.append(ir.If(X.logical_not(X.clone(test)), ir.Block(other), None, loc))
            return e
        if isinstance(e, ir.Binary) and e.op == "*" and e.type.resolved().is_float and \
                e.type.resolved().name != "float":
            # `(p * xd[..]) * q`, as the chain rule nests it: p * q once, not per direction;
            # not in float, where rounding in another order would move f_dv away from f_d
            # by float's precision
            factors = _factors(e, e.type)
            fixed = [f for f in factors if not X.mentions(f, direction)]
            if len(fixed) > 1:
                varying = [f for f in factors if X.mentions(f, direction)]
                e = X.mul(functools.reduce(X.mul, fixed), functools.reduce(X.mul, varying))
                if not (isinstance(e, ir.Binary) and e.op == "*"):
                    return self.hoisted(e, before, loc)     # a negation taken out
        if isinstance(e, (ir.Binary, ir.Unary, ir.Cast, ir.Cond)):
            # a test on the direction's tangent (the zero factor of a singular partial)
            # guards nothing the statement itself does not read
            return X.map_children(e, lambda x: self.hoisted(x, before, loc))
        return e        # a tangent's element, indexed by the direction

    def temporary(self, name, t):
        """A local of type t for one partial (or test) of the current statement."""
        t = ir.with_const(t, False)
        key = (name, repr(t))
        pool = self.temporaries.setdefault(key, [])
        k = self.in_use.get(key, 0)
        if k == len(pool):
            pool.append(ir.Symbol(self.names.fresh(name), t, "temp"))
            self.locals.append(LocalDecl(pool[-1]))
        self.in_use[key] = k + 1
        return pool[k]

    def fresh_statement(self):
        self.in_use = {}
        self.known = {}

    def per_direction(self, target, tangent, loc, source=None):
        """Statements setting target (indexed by the direction) to tangent in every
        direction, the partials computed once before the loop (each update exclusive
        where the source statement's is)."""
        self.fresh_statement()
        before = []
        value = self.hoisted(tangent, before, loc)
        update = ir.Assign(target, value, loc)
        if source is not None:
            update.exclusive = exclusive_update(source, target, value)
        return before + [self.each_direction([update])]

    def build(self):
        f, head = self.f, self.head
        params, prologue, epilogue = [], [], []
        self.out_params = params    # (the derivative's, shadows included: see openmp.py)
        result = getattr(f, "result", None)
        active_ret = (head is not None and f.name in head.dep) or \
            (head is None and self.act.ret_active(f))
        restrict = set()        # the rule: docs/conventions.md, "Vector mode and restrict"
        for p in f.params:
            params.append(p)
            if getattr(p, "declared_restrict", False):
                restrict.add(p)
            named = head is not None and (p.name in head.indep or p.name in head.dep)
            shadowed = self.act.sym_has_shadow(p)
            t = p.type.resolved()
            if not shadowed and not named:
                continue
            if row_pointers(t):
                raise AdgenError(f"vector mode: parameter '{p.name}' is an array of row "
                                 "pointers, which it does not support (the scalar modes do)",
                                 p.loc)
            if t.is_struct or (isinstance(t, ir.Ptr) and not ir.base_float(t)):
                raise AdgenError(f"vector mode: parameter '{p.name}' carries derivatives "
                                 "through a type it does not support", p.loc)
            if head is not None and not named:
                refuse_internal_rows(f, p)
                if t.is_float:
                    pd = self.shadow_symbol(p, self.vec(p.type))
                    self.locals.append(LocalDecl(pd, zero=True))
                else:
                    n = self.T.ctx.extent(f, p, f"it carries derivatives inside '{f.name}' "
                                          "and needs internal tangent storage")
                    pd = self.shadow_symbol(p, _mutable_ptr(p.type))
                    self.locals.append(LocalDecl(pd))
                    count = ir.Binary("*", n, ir.Ref(self.nb), ir.SIZE_T)
                    prologue.append(ir.Raw("alloc_shadow", {"target": ir.Ref(pd),
                                                            "type": pd.type, "count": count}))
                    epilogue.append(ir.Raw("free", {"ptr": ir.Ref(pd)}))
                self.sh.set(p, ir.Ref(pd))
                continue
            if t.is_float:
                pd = self.shadow_symbol(p, ir.Ptr(ir.with_const(p.type, True)))
            else:
                pd = self.shadow_symbol(p, p.type)
            params.append(pd)
            self.sh.set(p, ir.Ref(pd))
            if t.is_float and head is None:
                restrict.add(pd)        # the caller's own array (call below)
            if p in restrict and not active_ret:
                # not beside a result's tangents, which a caller may take inside one of
                # the arrays it passes (`y[i] = g(y)`)
                restrict.add(pd)
            if t.is_float and (p in address_taken(f) or any(
                    isinstance(x, ir.Assign) and isinstance(x.lhs, ir.Ref) and x.lhs.sym is p
                    for x in ir.stmts_walk(f.body.stmts))):
                # the function changes its copy of p, or hands out its address (a callee
                # may write through it): its tangents need a copy too
                copy = self.shadow_symbol(p, self.vec(p.type))
                self.locals.append(LocalDecl(copy, zero=True))
                prologue.append(self.each_direction([ir.Assign(
                    ir.Index(ir.Ref(copy), ir.Ref(self.k), p.type),
                    ir.Index(ir.Ref(pd), ir.Ref(self.k), p.type))]))
                self.sh.set(p, ir.Ref(copy))
            if head is not None and isinstance(t, ir.Ptr) and p.name in head.dep and \
                    p.name not in head.indep and (
                        self.T.ctx.value_read(self.mem.pointee(self.mem.var(p))) or
                        self.T.ctx.stated_extent(f, p)):
                n = self.T.ctx.extent(f, p, "its tangent must start at zero")
                prologue.append(ir.Raw("zero", {"ptr": ir.Ref(pd), "count": ir.Binary(
                    "*", n, ir.Ref(self.nb), ir.SIZE_T)}))
                # zeroed where the primal may write nothing, and another parameter read
                restrict.discard(pd)
        out = None
        if active_ret:
            out = ir.Symbol(self.names.fresh(source_name(f) + "d"), ir.Ptr(ir.with_const(f.ret, False)),
                            "param")
            params.append(out)
        params.append(self.nb)
        own_statics = [g for g in self.per_call if g.local_of == getattr(f, "clone_of", f.name)]
        for sym in f.locals + sorted(own_statics, key=lambda g: g.name):
            if sym not in own_statics:
                self.locals.append(LocalDecl(sym))
            if self.act.sym_has_shadow(sym) and not self.sh.has(sym):
                st = sym.type.resolved()
                if st.is_float:
                    sd = self.shadow_symbol(sym, self.vec(sym.type))
                elif isinstance(st, ir.Arr) and st.elem.resolved().is_float:
                    sd = self.shadow_symbol(sym, ir.Arr(ir.with_const(st.elem, False), ir.Binary(
                        "*", X.clone(st.size), ir.Ref(self.nb), ir.INT)))
                elif isinstance(st, ir.Ptr) and ir.base_float(st):
                    sd = self.shadow_symbol(sym, local_type(sym.type))
                else:
                    raise AdgenError(f"vector mode: '{sym.name}' carries derivatives through "
                                     "a type it does not support", sym.loc)
                self.sh.set(sym, ir.Ref(sd))
                self.locals.append(LocalDecl(sd, zero=True))
        body = prologue + self.stmts(f.body.stmts) + epilogue
        ret = ir.VOID
        if result is not None:
            if active_ret:
                if self.sh.has(result):
                    value = self.sh(ir.Ref(result))
                else:
                    value = X.zero(f.ret)
                body.append(self.each_direction([ir.Assign(
                    ir.Index(ir.Ref(out), ir.Ref(self.k), f.ret), value)]))
            body.append(ir.Return(ir.Ref(result)))
            ret = ir.with_const(f.ret, False)
        name = f.name + "_dv" if head is not None else self.T.internal_name(f)
        orig = source_name(f)
        comment = (f"Tangent of {f.name} in nbdirs directions (head {head.text})."
                   if head is not None else f"Tangent of {orig} in nbdirs directions.")
        return GenFunction(name, ret, params, body, self.locals, is_static=head is None,
                           comment=comment, source=f.name, restrict=frozenset(restrict))

    def assign(self, s):
        lhs, rhs = s.lhs, s.rhs
        if isinstance(rhs, ir.Call) and is_user_call(self.prog, rhs):
            return self.call(rhs, lhs, s)
        lt = lhs.type.resolved()
        alloc = alloc_call(rhs)
        if alloc is not None:
            out = [s]
            if self.act.has_shadow(lhs):
                sl = self.sh.ptr(lhs)
                nbytes = alloc_bytes(alloc)
                nbytes = ir.Binary("*", nbytes, ir.Ref(self.nb), ir.SIZE_T)
                out.append(ir.Raw("alloc_bytes", {"target": sl, "type": sl.type,
                                                  "bytes": nbytes}, s.loc))
            return out
        if isinstance(lt, ir.Ptr) and self.act.has_shadow(lhs):
            return [s, ir.Assign(self.sh.ptr(lhs), self.sh.ptr(rhs), s.loc)]
        if lt.is_float and self.act.active_value(lhs):
            before, t = self.statement_tangent(rhs, s.loc)
            td = X.zero(lhs.type) if t is None else X.cast_to(t, lhs.type)
            return before + self.per_direction(self.sh(lhs), td, s.loc, s) + [s]
        if lt.is_struct and self.act.has_shadow(lhs):
            raise AdgenError("vector mode does not support derivatives in struct fields",
                             s.loc)
        return [s]

    def tangent_moved(self, e, push, loc):
        """A number's tangents in the nbdirs directions, or those of an array of numbers
        (nbdirs per element), moved as one block; nbdirs zeros pushed, or popped into a
        scratch, where e has none. A pointer's shadow is one pointer, as in one direction."""
        t = e.type.resolved()
        if t.is_pointer:
            return super().tangent_moved(e, push, loc)
        if t.is_struct or ir.array_element(t).resolved().is_struct:
            raise AdgenError("vector mode does not support derivatives in struct fields",
                             loc)
        nb = ir.Ref(self.nb)
        if self.act.has_shadow(e):
            return [ir.Raw("push_bytes" if push else "pop_bytes", self.directions_of(e), loc)]
        # (the stack holds bytes: these nbdirs values per number pair with one block)
        elem = ir.array_element(t)
        one = self.temp_zero(elem)
        k = ir.Symbol(self.names.fresh("k"), ir.SIZE_T, "temp")
        self.locals.append(LocalDecl(k))
        count = X.mul(ir.Binary("/", ir.SizeOf(e.type), ir.SizeOf(elem), ir.SIZE_T), nb)
        move = ir.Push(ir.Ref(one), loc) if push else ir.Pop(ir.Ref(one), loc)
        return [ir.For([ir.Assign(ir.Ref(k), ir.Const("0", ir.INT))],
                       ir.Binary("<", ir.Ref(k), count, ir.INT),
                       [ir.Assign(ir.Ref(k), X.add(ir.Ref(k), ir.Const("1", ir.INT)))],
                       ir.Block([move]), loc)]

    def directions_of(self, e):
        """{ptr, bytes} of the tangents of e, a number or an array of numbers, in the
        nbdirs directions: one block."""
        t = e.type.resolved()
        return {"ptr": self.sh.ptr(e if t.is_array else ir.AddrOf(e, ir.Ptr(e.type))),
                "bytes": X.mul(ir.SizeOf(e.type), ir.Ref(self.nb))}

    def own_log(self, target, loc):
        """A value adgen's own output logs, its tangents in the nbdirs directions logged
        beside it (the log keeps addresses: no pairing)."""
        out = [ir.Raw("keep", {"target": target}, loc)]
        if self.act.has_shadow(target):
            t = target.type.resolved()
            if t.is_pointer or t.is_struct or ir.array_element(t).resolved().is_struct:
                raise AdgenError("vector mode over adgen's own output that logs a pointer or "
                                 "a struct with derivatives is not supported yet: use "
                                 "--forward, one direction at a time", loc)
            out.append(ir.Raw("keep_bytes", self.directions_of(target), loc))
        return out

    def call(self, call, lhs, s):
        g = self.prog.functions[call.func]
        if getattr(g, "user_rule", None) is not None:
            return self.ruled_call(call, lhs, s, g)
        if not g.has_body or not self.T.call_is_diff(g):
            return super().call(call, lhs, s)
        if self.act.ret_pointer_shadowed(g):
            raise AdgenError(f"vector mode does not support '{g.name}', a function returning "
                             "a pointer to active data", s.loc)
        name = self.T.internal_name(g)
        args, pre = [], []
        for p, a in zip(g.params, call.args):
            args.append(a)
            if not self.act.sym_has_shadow(p):
                continue
            t = p.type.resolved()
            if t.is_float:
                tmp = ir.Symbol(self.names.fresh(p.name + "d"), self.vec(p.type), "temp")
                self.locals.append(LocalDecl(tmp, zero=True))
                d = self.tangent(a)
                value = X.zero(p.type) if d is None else X.cast_to(d, p.type)
                pre += self.per_direction(ir.Index(ir.Ref(tmp), ir.Ref(self.k), p.type),
                                          value, s.loc)
                args.append(ir.Ref(tmp))
            elif self.act.has_shadow(a) or isinstance(a, ir.Const):
                args.append(self.sh.ptr(a))
            else:
                raise AdgenError(f"argument {len(args)} of '{g.name}' needs a derivative but "
                                 "has none here", a.loc or s.loc)
        if self.act.ret_active(g):
            # (`g(&x);`: a result the caller drops, its tangents into a scratch)
            if lhs is not None and self.act.active_value(lhs):
                args.append(self.sh.ptr(ir.AddrOf(lhs, ir.Ptr(lhs.type))))
            else:
                tmp = ir.Symbol(self.names.fresh("discarded"), self.vec(g.ret), "temp")
                self.locals.append(LocalDecl(tmp, zero=True))
                args.append(ir.Ref(tmp))
        args.append(ir.Ref(self.nb))
        c = ir.Call(name, args, g.ret, call.loc)
        if lhs is not None:
            out = pre + [ir.Assign(lhs, c, s.loc)]
            if not self.act.ret_active(g) and lhs.type.resolved().is_float and \
                    self.act.active_value(lhs):
                out.insert(len(pre), self.each_direction(
                    [ir.Assign(self.sh(lhs), X.zero(lhs.type), s.loc)]))
            return out
        return pre + [ir.ExprStmt(c, s.loc)]

    def ruled_call(self, call, lhs, s, g):
        """A call of a function with a user rule in nbdirs directions: the user's NAME_d
        once per direction. Each array it takes a tangent of goes through a buffer of one
        direction, gathered from the vector layout (xd[i*nbdirs + dir]) and, for an
        output, scattered back; the outputs get their values from before the call back
        before each direction, since NAME_d computes them too. With no direction, the
        call itself."""
        from adgen.analysis.ruled_calls import derivative_flows, found_at_run_time, size_at_call
        rule, loc = g.user_rule, s.loc
        lhs_active = result_is_active(self.act, lhs)
        if not derivative_flows(self.act, g, call, lhs_active):
            return self.inactive_result(lhs, s)
        if getattr(g, "mpi_routine", None) in MPI_NON_BLOCKING:
            return self.non_blocking_call(call, s, g)
        i = ir.Symbol(self.names.fresh("i"), ir.LONG, "temp")
        self.locals.append(LocalDecl(i))
        nb, k = ir.Ref(self.nb), ir.Ref(self.k)

        def scratch(name, elem, n):
            buf = ir.Symbol(self.names.fresh(name), ir.Ptr(elem), "temp")
            self.locals.append(LocalDecl(buf))
            setup.append(ir.Raw("scratch_alloc", {"target": ir.Ref(buf), "type": buf.type,
                                                  "count": X.clone(n)}, loc))
            cleanup.append(ir.Raw("scratch_free", {"ptr": ir.Ref(buf)}))
            return buf

        def each(n, target, value):      # for (i = 0; i < n; i++) target(i) = value(i)
            return counted_loop(i, n, [ir.Assign(target(ir.Ref(i)), value(ir.Ref(i)), loc)])

        setup, before, after, cleanup = [], [], [], []

        def array_tangent(p, a):
            n = size_at_call(g, p, call.args)
            if found_at_run_time(n):        # found once, not in every loop test
                held = ir.Symbol(self.names.fresh(p.name + "_length"), n.type, "temp")
                self.locals.append(LocalDecl(held))
                setup.append(ir.Assign(ir.Ref(held), n, loc))
                n = ir.Ref(held)
            elem = ir.with_const(ir.pointee(p.type.resolved()), False)
            element = lambda base, j: ir.Index(X.clone(base), j, elem)  # noqa: E731
            buf = scratch(p.name + "d", elem, n)
            in_buffer = lambda j: element(ir.Ref(buf), j)  # noqa: E731
            if self.act.has_shadow(a):
                shadow = self.sh.ptr(a)
                slot = lambda j: ir.Index(  # noqa: E731  (element j of direction k)
                    X.clone(shadow), X.add(X.mul(j, X.clone(nb)), X.clone(k)), elem)
                before.append(each(n, in_buffer, slot))
                if p.name in rule.dep:
                    after.append(each(n, slot, in_buffer))
            else:
                before.append(ir.Raw("zero", {"ptr": ir.Ref(buf), "count": X.clone(n)}, loc))
            if p.name in rule.dep:
                kept = scratch(p.name + "_before", elem, n)
                in_kept = lambda j: element(ir.Ref(kept), j)  # noqa: E731
                in_argument = lambda j: element(a, j)  # noqa: E731
                setup.append(each(n, in_kept, in_argument))
                before.insert(0, each(n, in_argument, in_kept))
            return ir.Ref(buf)
        self.fresh_statement()
        args = [self.hoisted(a, setup, loc) if X.mentions(a, self.k) else a
                for a in self.ruled_arguments(g, call, array_tangent)]
        name, tail = g.name + "_d", None
        if g.name in rule.dep:
            value = self.ruled_result_temp(g)
            c = ir.Call(name, args + [ir.AddrOf(ir.Ref(value), ir.Ptr(value.type))], g.ret,
                        call.loc)
            per_direction = ir.Assign(self.sh(lhs), c, loc) if lhs_active else \
                ir.ExprStmt(c, loc)
            if lhs is not None:
                tail = ir.Block([ir.Assign(lhs, ir.Ref(value), loc)])
        else:
            c = ir.Call(name, args, g.ret, call.loc)
            per_direction = ir.Assign(lhs, c, loc) if lhs is not None else ir.ExprStmt(c, loc)
            if lhs_active:
                setup.append(self.each_direction([ir.Assign(self.sh(lhs), X.zero(lhs.type),
                                                            loc)]))
        no_direction = ir.Binary("<", X.clone(nb), ir.Const("1", ir.INT), ir.INT)
        return setup + [self.each_direction(before + [per_direction] + after),
                        ir.If(no_direction, ir.Block([s]), tail, loc)] + cleanup

    def non_blocking_call(self, call, s, g):
        """A non-blocking MPI post or completion in nbdirs directions: NAME_dv, given the
        buffer's block of the vector layout (the elements of `&u[k]` and their directions
        are the nbdirs * count numbers from ud[k * nbdirs]) and nbdirs. The buffers of each
        direction's tangent that other ruled calls go through would be copied back before
        the request completes; NAME_dv keeps its own until the completion, and sends what
        the blocking calls' derivatives send, one direction at a time
        (templates/mpi_requests.c.j2)."""
        args = []
        for p, a in zip(g.params, call.args):
            args.append(a)
            if g.user_rule.named(p.name):
                if not self.act.has_shadow(a):
                    raise AdgenError(f"{g.mpi_routine}: '{p.name}' carries no derivative "
                                     "here, in the vector tangent", a.loc or s.loc)
                args.append(self.sh.ptr(a))
        args.append(ir.Ref(self.nb))
        c = ir.Call(g.name + "_dv", args, g.ret, call.loc)
        lhs = s.lhs if isinstance(s, ir.Assign) else None
        return [ir.Assign(lhs, c, s.loc) if lhs is not None else ir.ExprStmt(c, s.loc)]

    def inactive_result(self, lhs, s):
        if result_is_active(self.act, lhs):
            return [self.each_direction([ir.Assign(self.sh(lhs), X.zero(lhs.type), s.loc)]),
                    s]
        return [s]
