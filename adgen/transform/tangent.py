"""Tangent (forward) mode: each active assignment `v = e` is preceded by `vd = e'`, the
directional derivative of e; control flow is kept as it is."""
from adgen import ir
from adgen.analysis.activity import find
from adgen.backend.cgen import GenFunction, LocalDecl, local_type
from adgen.errors import AdgenError
from adgen.rules import LIBRARY_FUNCTIONS, rule_expr
from adgen.transform import exprs as X
from adgen.transform.adjoint import Names
from adgen.transform.common import (ShadowMap, alloc_call, is_user_call,
                                    unknown_function_error)


class TangentTransform:
    def __init__(self, ctx):
        self.ctx = ctx
        self.prog = ctx.prog
        self.mem = ctx.mem
        self.act = ctx.act
        self.plain_calls = set()

    def run(self):
        self.writes = self.ctx.writes()
        self.order = []
        self.generated = {}
        head_names = {h.func.name for h in self.ctx.heads}
        self.internal = {}
        for head in self.ctx.heads:
            self.generated[("head", head.func.name)] = TangentGen(self, head.func, head).build()
        k = 0
        while k < len(self.order):
            name = self.order[k]
            self.generated[name] = TangentGen(self, self.prog.functions[name], None).build()
            k += 1
        funcs = [self.generated[n] for n in self.order]
        funcs += [self.generated[("head", h.func.name)] for h in self.ctx.heads]
        self.head_names = head_names
        return funcs

    def internal_name(self, g):
        if g.name not in self.internal:
            heads = {h.func.name for h in self.ctx.heads}
            self.internal[g.name] = g.name + ("_d0" if g.name in heads else "_d")
            self.order.append(g.name)
        return self.internal[g.name]

    def call_is_diff(self, g):
        if self.act.ret_active(g):
            return True
        return any(self.act.is_active(n) or self.act.needs_shadow(n)
                   for n in self.writes.get(g.name, ()))


class TangentGen:
    def __init__(self, T, f, head):
        self.T, self.f, self.head = T, f, head
        self.act, self.mem, self.prog = T.act, T.mem, T.prog
        taken = {p.name for p in f.params} | {s.name for s in f.locals}
        taken |= {g.name for g in self.prog.globals} | set(self.prog.functions)
        taken |= set(T.ctx.shadow_global_names())
        self.names = Names(taken)
        self.sh = ShadowMap(self.act, "d")
        self.locals = []
        for g in T.ctx.shadow_globals():
            self.sh.set(g.primal, ir.Ref(g))

    def shadow_symbol(self, sym, t=None):
        s = ir.Symbol(self.names.fresh(sym.name + "d"), t or sym.type, "local")
        s.primal = sym
        return s

    def build(self):
        f, head = self.f, self.head
        params, prologue, epilogue = [], [], []
        for p in f.params:
            params.append(p)
            named = head is not None and (p.name in head.indep or p.name in head.dep)
            shadowed = self.act.sym_has_shadow(p)
            if head is not None and not named and shadowed:
                # an internal buffer carrying derivatives: tangent storage of its own
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
            if not (t.is_float or isinstance(t, ir.Ptr) or (head is None and t.is_struct)):
                raise AdgenError(f"parameter '{p.name}' carries derivatives through a type "
                                 "adgen cannot shadow yet", p.loc)
            pd = self.shadow_symbol(p, ir.with_const(p.type, False)
                                    if (t.is_float or t.is_struct) else p.type)
            params.append(pd)
            self.sh.set(p, ir.Ref(pd))
            if head is not None and isinstance(t, ir.Ptr) and p.name in head.dep and \
                    p.name not in head.indep and \
                    find(self.mem.pointee(self.mem.var(p))) in self.T.ctx.read_nodes:
                # a pure output whose input value is read: that value has no tangent
                n = self.T.ctx.extent(f, p, "its tangent must start at zero")
                prologue.append(ir.Raw("zero", {"ptr": ir.Ref(pd), "count": n}))
        result = getattr(f, "result", None)
        active_ret = (head is not None and f.name in head.dep) or \
            (head is None and self.act.ret_active(f))
        out_ptr = None
        if active_ret:
            self.names.taken.discard(f.name)
            out_ptr = ir.Symbol(self.names.fresh(f.name), ir.Ptr(ir.with_const(f.ret, False)),
                                "param")
            params.append(out_ptr)
        for sym in f.locals:
            self.locals.append(LocalDecl(sym))
            if self.act.sym_has_shadow(sym):
                sd = self.shadow_symbol(sym, local_type(sym.type))
                self.sh.set(sym, ir.Ref(sd))
                self.locals.append(LocalDecl(sd, zero=True))
        if head is not None:
            for g in self.T.ctx.shadow_globals():
                prologue.append(_zero(ir.Ref(g)))
        body = prologue + self.stmts(f.body.stmts) + epilogue
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
        comment = (f"Tangent of {f.name} (head {head.text})." if head is not None
                   else f"Tangent of {f.name}.")
        return GenFunction(name, ret, params, body, self.locals, is_static=head is None,
                           comment=comment)

    # ------------------------------------------------------------ statements
    def stmts(self, stmts):
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s):
        if isinstance(s, ir.Assign):
            return self.assign(s)
        if isinstance(s, ir.ExprStmt):
            return self.expr_stmt(s)
        if isinstance(s, ir.Block):
            return [ir.Block(self.stmts(s.stmts), s.loc)]
        if isinstance(s, ir.If):
            return [ir.If(s.test, ir.Block(self.stmts(s.then.stmts)),
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
                nbytes = alloc.args[0] if alloc.func == "malloc" else \
                    ir.Binary("*", alloc.args[0], alloc.args[1], ir.SIZE_T)
                out.append(ir.Raw("alloc_bytes", {"target": sl, "type": sl.type,
                                                  "bytes": nbytes}, s.loc))
            return out
        if isinstance(lt, ir.Ptr) and self.act.has_shadow(lhs):
            return [s, ir.Assign(self.sh(lhs), self.sh(rhs), s.loc)]
        if isinstance(lt, ir.Struct) and self.act.has_shadow(lhs):
            raise AdgenError("assignment of a struct holding active values from this "
                             "expression is not supported yet", s.loc)
        if lt.is_float and self.act.active_value(lhs):
            t = self.tangent(rhs)
            td = X.zero(lhs.type) if t is None else X.cast_to(t, lhs.type)
            return [ir.Assign(self.sh(lhs), td, s.loc), s]
        return [s]

    def expr_stmt(self, s):
        call = s.expr
        if isinstance(call, ir.Call):
            if is_user_call(self.prog, call):
                return self.call(call, None, s)
            if call.func == "free":
                arg = call.args[0]
                if self.act.has_shadow(arg):
                    return [s, ir.Raw("free", {"ptr": self.sh(arg)}, s.loc)]
                return [s]
            if call.func in LIBRARY_FUNCTIONS:
                return [s]
            g = self.prog.functions.get(call.func)
            if (g is None or not g.has_body) and call.func not in self.T.ctx.inactive:
                raise unknown_function_error(call.func, s.loc)
        return [s]

    def call(self, call, lhs, s):
        g = self.prog.functions[call.func]
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
        if active_ret:
            if lhs is None:
                raise AdgenError("internal: active result discarded", s.loc)
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

    def temp_zero(self, t):
        sym = ir.Symbol(self.names.fresh("zero"), ir.with_const(t, False), "temp")
        self.locals.append(LocalDecl(sym, zero=True))
        return sym

    def inactive_result(self, lhs, s):
        if lhs is not None and lhs.type.resolved().is_float and self.act.active_value(lhs):
            return [ir.Assign(self.sh(lhs), X.zero(lhs.type), s.loc), s]
        return [s]

    # ------------------------------------------------------------ expressions
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
                ta = X.mul(a, X.clone(e.right)) if a is not None else None
                tb = X.mul(X.clone(e.left), b) if b is not None else None
                return X.add(ta, tb)
            if e.op == "/":
                if b is None:
                    return X.div(a, X.clone(e.right))
                q = X.div(X.clone(e.left), X.clone(e.right))
                num = X.sub(a, X.mul(q, b)) if a is not None else X.neg(X.mul(q, b))
                return X.div(num, X.clone(e.right))
            raise AdgenError(f"operator '{e.op}' on active values cannot be differentiated",
                             e.loc)
        if isinstance(e, ir.Unary):
            t = self.tangent(e.arg)
            return X.neg(t) if e.op == "-" else t
        if isinstance(e, ir.Cast):
            t = self.tangent(e.arg)
            return X.cast_to(t, e.to) if t is not None else None
        if isinstance(e, ir.Cond):
            a, b = self.tangent(e.then), self.tangent(e.other)
            return ir.Cond(X.clone(e.test), a if a is not None else X.zero(e.type),
                           b if b is not None else X.zero(e.type), e.type)
        if isinstance(e, ir.Call):
            lib = LIBRARY_FUNCTIONS.get(e.func)
            if lib is None or lib.kind != "math":
                raise AdgenError(f"cannot differentiate call to '{e.func}' here", e.loc)
            total = None
            for k, a in enumerate(e.args):
                ta = self.tangent(a)
                if ta is None:
                    continue
                p = rule_expr(lib, k, [X.clone(x) for x in e.args])
                if p is not None:
                    total = X.add(total, X.mul(p, ta))
            return total
        raise AdgenError("cannot differentiate this expression", e.loc)


def _mutable(t):
    return ir.with_const(t, False)


def _mutable_ptr(t):
    from adgen.transform.common import strip_const
    return strip_const(t)


def _zero(target):
    t = target.type.resolved()
    if t.is_float:
        return ir.Assign(target, X.zero(t))
    return ir.Raw("zero_object", {"obj": target})
