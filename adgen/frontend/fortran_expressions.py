"""Expressions in the Fortran front end's Scope (ExpressionsMixin): designators and array
elements, operators, intrinsic functions, inquiries and reductions, and the shapes of array
operands."""
import functools

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.ir.fortran_text import subscripted
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_helpers import (ALONG, C_OPERATORS, CALL_NODES, INQUIRY,
                                            INTRINSIC_MATH, REDUCTIONS, SPECIFIC_NAMES,
                                            STRING_INTRINSICS,
                                            array_inquiry, base_name_of, call_arguments,
                                            const_int, constructor_items, convert_to, f2003,
                                            ir_int, name_of, operator_key, to_int,
                                            triplet_count, walk_nodes, walk_type)
from adgen.frontend.fortran_operands import array_refs


class ExpressionsMixin:
    """Scope's expressions (fortran_front.Scope)."""

    # ------------------------------------------------------------- designators
    def value(self, v, node):
        """The IR expression reading a scalar variable."""
        if v.const is not None:
            return X.clone(v.const)
        if v.parent is not None:
            return T.member(X.clone(v.parent), v.component, self.loc(node))
        if v.common is not None:
            return ir.Member(ir.Ref(v.common), v.common_field, False,
                             self.storage_type(v), self.loc(node))
        if v.sym is None:
            v.sym = ir.Symbol(self.unique(v.name), v.type, "local", v.loc)
        if v.by_ref:
            return ir.Deref(ir.Ref(v.sym), v.type, self.loc(node))
        return ir.Ref(v.sym, self.loc(node))

    def array_base(self, v, node):
        """A pointer to (or the array of) the first element of an array variable."""
        if v.element_of is not None:
            raise self.error(node, f"'{v.name}', a component of an array of structures, "
                                   "has no storage of its own here")
        if v.descriptor:
            return ir.Member(X.clone(v.desc), "base_addr", False, ir.Ptr(v.type),
                             self.loc(node))
        if v.parent is not None:
            return T.member(X.clone(v.parent), v.component, self.loc(node))
        if v.common is not None:
            return ir.Member(ir.Ref(v.common), v.common_field, False, self.storage_type(v),
                             self.loc(node))
        return ir.Ref(v.sym, self.loc(node))

    def array_element(self, v, subs, node):
        """a(i, j, ...) as a flat column-major index."""
        if len(subs) != len(v.dims):
            raise AdgenError(f"'{v.name}' has rank {len(v.dims)}, indexed with {len(subs)} "
                             "subscripts", self.loc(node) if node is not None else v.loc)
        if v.element_of is not None:        # p%w of an array of structures
            return v.element_of(subs)
        flat = None
        stride = None
        for (lo, ext), s in zip(v.dims, subs):
            off = X.sub(to_int(s), X.clone(lo))
            term = off if stride is None else X.mul(off, X.clone(stride))
            flat = term if flat is None else X.add(flat, term)
            if ext is not None:
                stride = X.clone(ext) if stride is None else X.mul(stride, X.clone(ext))
        base = self.array_base(v, node) if node is not None else ir.Ref(v.sym)
        return subscripted(ir.Index(base, flat, v.type, self.loc(node) if node is not None
                                    else None), v.name, subs)

    def designator(self, node, ks=None, pre=None):
        """An lvalue: a scalar variable, an array element, or (with counters ks) the
        current element of an array section; pre as for expr."""
        F = f2003()
        if isinstance(node, F.Name):
            v = self.lookup(name_of(node), node)
            if v.const is not None:
                raise self.error(node, f"assignment to the parameter '{v.name}'")
            if v.dims:
                if ks is None:
                    raise self.error(node, f"array '{v.name}' used as a scalar")
                subs = [X.add(X.clone(lo), k) for (lo, _), k in zip(v.dims, ks)]
                return self.array_element(v, subs, node)
            if self.result_var is not None and v is self.result_var:
                return ir.Ref(v.sym, self.loc(node))
            return self.value(v, node)
        if isinstance(node, F.Part_Ref):
            v = self.lookup(name_of(node.items[0]), node)
            if not v.dims:
                raise self.error(node, f"'{v.name}' is not an array")
            return self.section_element(v, node, ks, pre)
        raise self.error(node, f"cannot assign to {node}")

    # -------------------------------------------------------------- expressions
    def expr(self, node, ks=None, pre=None):
        """An expression; ks are the loop counters of the current array element when the
        expression is array-valued. pre receives the statements that must run before
        the expression is evaluated (the temporaries of a call's by-reference arguments,
        reductions); where no list is given, an expression that needs them is refused
        rather than evaluated without them."""
        if pre is not None:
            return self.lower_expr(node, ks, pre)
        setup = []
        e = self.lower_expr(node, ks, setup)
        if setup:
            raise self.error(node, f"'{node}' needs a function call's argument temporary or "
                                   "a reduction computed before it, which adgen cannot place "
                                   "here: assign it to a variable first")
        return e

    def lower_expr(self, node, ks, pre):
        F = f2003()
        E = lambda n: self.expr(n, ks, pre)  # noqa: E731
        loc = self.loc(node)
        cname = type(node).__name__
        if isinstance(node, F.Int_Literal_Constant):
            kind = node.items[1]
            return ir.Const(node.items[0], ir.LONG if kind == "8" else ir.INT, loc)
        if isinstance(node, F.Real_Literal_Constant):
            return _real_literal(node.items[0], node.items[1], self)
        if isinstance(node, F.Logical_Literal_Constant):
            return ir.Const("1" if "TRUE" in str(node).upper() else "0", ir.INT, loc)
        if isinstance(node, F.Char_Literal_Constant):
            raise self.error(node, "a CHARACTER string in a computation is not supported "
                                   "(they are in comparisons, assignments, SELECT CASE, "
                                   "arguments, len, len_trim and trim)")
        if cname == "Level_3_Expr":
            raise self.error(node, "a concatenation (//) where a number is needed")
        if isinstance(node, F.Name):
            v = self.lookup(name_of(node), node)
            if v.dims:
                if ks is None:
                    raise self.error(node, f"array '{v.name}' used where a scalar is needed")
                subs = [X.add(X.clone(lo), k) for (lo, _), k in zip(v.dims, ks)]
                return self.array_element(v, subs, node)
            return self.value(v, node)
        if isinstance(node, F.Parenthesis):
            return E(node.items[1])
        if cname == "And_Operand" and len(node.items) == 2:
            return ir.Unary("!", E(node.items[1]), ir.INT, loc)
        if cname == "Level_4_Expr" and (self.is_string(node.items[0]) or
                                        self.is_string(node.items[2])):
            return self.string_comparison(node, pre)
        if cname in ("Level_2_Expr", "Add_Operand", "Level_4_Expr", "And_Operand",
                     "Or_Operand", "Equiv_Operand", "Level_3_Expr", "Level_5_Expr"):
            a, op, b = node.items
            return self.binary(op, E(a), E(b), node)
        if cname == "Level_2_Unary_Expr":
            op, a = node.items
            x = self.numbers(op, [E(a)], node)[0]
            return ir.Unary("-", x, x.type, loc) if op.strip() == "-" else x
        if cname == "Not_Op" or (cname == "And_Operand" and len(node.items) == 2):
            return ir.Unary("!", E(node.items[1]), ir.INT, loc)
        if cname == "Mult_Operand":
            a, op, b = node.items
            return self.power(*self.numbers(op, [E(a), E(b)], node), node)
        if isinstance(node, F.Intrinsic_Function_Reference):
            return self.intrinsic(name_of(node.items[0]), call_arguments(node), node, ks, pre)
        if (cname == "Part_Ref" or cname in CALL_NODES) and \
                name_of(node.items[0]) in getattr(self, "stmt_functions", {}):
            args = call_arguments(node)
            return self.statement_function(name_of(node.items[0]), args, node, ks, pre)
        if isinstance(node, F.Part_Ref):
            name = name_of(node.items[0])
            v = self.array_var(name, node)
            if v is not None:
                return self.section_element(v, node, ks, pre)
            if name in INTRINSIC_MATH or name in _OTHER_INTRINSICS or name in SPECIFIC_NAMES:
                args = call_arguments(node)
                return self.intrinsic(name, args, node, ks, pre)
        if cname in CALL_NODES and self.typed_intrinsic(name_of(node.items[0])):
            # `double precision dmin1` then `dmin1(1d0, x)`: still the intrinsic
            return self.intrinsic(name_of(node.items[0]), call_arguments(node), node, ks, pre)
        name = self.called_function(node)
        if name is not None:
            if id(node) in self.hoisted:
                return X.clone(self.hoisted[id(node)])
            args = call_arguments(node)
            return self.function_call(name, args, node, pre, ks)
        if cname == "Alt_Return_Spec":
            raise self.error(node, f"an alternate return ({node}) is not supported")
        raise self.error(node, f"unsupported expression ({cname}: {node})")

    def typed_intrinsic(self, name):
        """True when name, referenced as a function, is an intrinsic: one no EXTERNAL
        statement, interface or procedure of the input claims (a type statement naming
        it leaves it the intrinsic)."""
        return (name in INTRINSIC_MATH or name in _OTHER_INTRINSICS or
                name in SPECIFIC_NAMES) and \
            name not in getattr(self, "external_names", set()) and \
            name not in self.interfaces and name not in self.front.functions and \
            (self.module is None or name not in self.module.procs)

    def called_function(self, node):
        """The name of the function node references, when it is a reference to a
        procedure (not an array element or section, nor an intrinsic); None otherwise."""
        F = f2003()
        if (isinstance(node, F.Part_Ref) or type(node).__name__ in CALL_NODES) \
                and name_of(node.items[0]) in getattr(self, "stmt_functions", {}):
            return None         # a statement function: an expression, no call
        if isinstance(node, F.Part_Ref):
            name = name_of(node.items[0])
            if self.array_var(name, node) is not None or name in INTRINSIC_MATH or \
                    name in _OTHER_INTRINSICS or name in SPECIFIC_NAMES:
                return None
            return name
        if type(node).__name__ in CALL_NODES:
            return None if self.typed_intrinsic(name_of(node.items[0])) else \
                name_of(node.items[0])
        return None

    def section_element(self, v, node, ks, pre=None):
        """The element of the array reference `node` to `v` (an element, or with
        counters ks the current element of a section); pre as for expr."""
        F = f2003()
        subs = []
        kit = iter(ks or [])
        for (lo, ext), sub in zip(v.dims, node.items[1].items):
            if isinstance(sub, F.Subscript_Triplet):
                k = next(kit, None)
                if k is None:
                    raise self.error(node, f"array section of '{v.name}' where a scalar is "
                                           "needed")
                a = self.expr(sub.items[0]) if sub.items[0] is not None else X.clone(lo)
                st = self.expr(sub.items[2]) if sub.items[2] is not None else ir_int(1)
                subs.append(X.add(a, X.mul(k, st)))
            elif self.vector_subscript(sub, node):
                # u(idx): the element idx(k); assigned (a scatter) too, where Fortran asks
                # that no index repeat
                k = next(kit, None)
                if k is None:
                    raise self.error(node, f"vector subscript of '{v.name}' (an array of "
                                           "indices) where a scalar is needed")
                subs.append(to_int(self.expr(sub, [k], pre)))
            else:
                subs.append(self.expr(sub, pre=pre))
        return self.array_element(v, subs, node)

    def vector_subscript(self, sub, node):
        """Whether subscript sub of an array reference is a vector subscript (an integer
        array of rank 1, `u(idx)`)."""
        F = f2003()
        if isinstance(sub, F.Subscript_Triplet):
            return False
        shape = self.operand_shape(sub)
        if not shape:
            return False
        if len(shape) != 1:
            raise self.error(node, "a subscript that is an array of rank 2 or more")
        return True

    def numbers(self, op, operands, node):
        """The operands of the operator op, refused if one is a structure (an operator
        defined for its type)."""
        if any(isinstance(x.type.resolved(), ir.Struct) for x in operands):
            key = operator_key(op)
            raise self.error(node, f"the operator '{op.strip().lower()}' on values of a "
                                   "derived type: " + (
                                       f"no specific procedure of `interface {key}` takes "
                                       "these operands" if key in self.generics else
                                       f"no `interface {key}` defines it here"))
        return operands

    def binary(self, op, a, b, node):
        op = op.strip().upper()
        loc = self.loc(node)
        a, b = self.numbers(op, [a, b], node)
        op = C_OPERATORS.get(op, op)
        if op in ir.COMPARISONS or op in ir.LOGICAL:
            return ir.Binary(op, a, b, ir.INT, loc)
        t = ir.arith_result(a.type, b.type)
        if op == "/" and t.is_float:
            a, b = convert_to(a, t), convert_to(b, t)
        return ir.Binary(op, a, b, t, loc)

    def power(self, a, b, node):
        loc = self.loc(node)
        n = const_int(b)
        if n is not None and 1 <= n <= 4 and b.type.resolved().is_int:
            out = a
            for _ in range(n - 1):
                out = ir.Binary("*", out, X.clone(a), a.type, loc)
            return out
        t = a.type if a.type.resolved().is_float else ir.DOUBLE
        if a.type.resolved().is_int and b.type.resolved().is_int:
            return ir.Cast(a.type, ir.Call("pow", [ir.Cast(ir.DOUBLE, a), ir.Cast(ir.DOUBLE, b)],
                                           ir.DOUBLE, loc), loc)
        t = ir.arith_result(a.type, b.type)
        fn = "powf" if t.resolved().name == "float" else "pow"
        return ir.Call(fn, [convert_to(a, t), convert_to(b, t)], t, loc)

    def intrinsic(self, name, args, node, ks, pre):
        loc = self.loc(node)
        name = SPECIFIC_NAMES.get(name, name)
        if name == "atan" and len(args) == 2:
            name = "atan2"      # Fortran 2008's atan(y, x)
        args = self.intrinsic_arguments(name, args, node)
        if name in REDUCTIONS:
            # its function references evaluated once, before its loop
            with self.calls_hoisted(node.items[1],
                                    self.loop_invariant[-1] if self.loop_invariant else pre):
                return self.reduction(name, args, node, pre, ks)
        if name in INQUIRY:
            return self.inquiry(name, args, node, ks)
        if name == "index":
            return self.string_index(node, pre)
        if name in ("len", "len_trim") and len(args) == 1 and self.is_string(args[0]):
            # (len of a whole CHARACTER array: its elements' length)
            ptr, length = self.string(args[0], pre, whole_array=name == "len")
            return convert_to(length, ir.INT) if name == "len" else convert_to(
                ir.Call("adgen_len_trim", [ptr, length], ir.LONG, loc), ir.INT)
        if name in ("ichar", "iachar") and len(args) == 1 and self.is_string(args[0]):
            # the code of the first character (0-255, as gfortran gives it)
            ptr, _ = self.string(args[0], pre)
            first = ir.Index(ptr, ir_int(0), ir.Prim("char"))
            return ir.Cast(ir.INT, ir.Cast(ir.Prim("unsigned char"), first, loc), loc)
        if name in STRING_INTRINSICS:
            raise self.error(node, f"{name}() is supported in comparisons, assignments and "
                                   "arguments of CHARACTER strings only")
        if name == "kind":
            t = self.expr(args[0]).type.resolved()
            return ir_int(8 if t.name == "double" else 4 if t.name in ("float", "int") else 8)
        if name == "selected_real_kind":
            digits = const_int(self.expr(args[0]))
            return ir_int(8 if digits is None or digits > 6 else 4)
        if name == "selected_int_kind":
            digits = const_int(self.expr(args[0]))
            return ir_int(8 if digits is not None and digits > 9 else 4)
        if name == "associated":
            v = self.lookup(name_of(args[0]), args[0])
            if not (v.pointer or v.pointer_dummy) or len(args) > 1:
                raise self.error(node, "associated() is supported with one argument, a "
                                       "POINTER")
            return ir.Binary("!=", ir.Ref(v.sym, loc), X.null(v.sym.type, loc), ir.INT, loc)
        if name == "allocated":
            v = self.lookup(name_of(args[0]), args[0])
            return self.is_allocated(v if v.descriptor else self.allocatable(args[0]),
                                     args[0], loc)
        if name in ("matmul", "pack"):
            raise self.not_here(name, node)
        if name == "transpose":
            if ks is None or len(ks) != 2 or len(self.shape_of(args[0]) or []) != 2:
                raise self.error(node, "transpose is supported on a matrix, in an array "
                                       "assignment or an argument of matmul")
            return self.expr(args[0], [ks[1], ks[0]], pre)
        if name in ("cshift", "eoshift"):
            return self.shifted(name, args, node, ks, pre)
        if name == "reshape":
            return self.reshape_element(node, ks, pre)
        if name == "spread":
            along, _, source = self.spread_dimension(node)
            if ks is None:
                raise self.error(node, "spread is supported in array expressions")
            return self.expr(source, ks[:along] + ks[along + 1:], pre)
        if name == "present":
            v = self.lookup(name_of(args[0]), node) \
                if isinstance(args[0], f2003().Name) else None
            if v is None or not getattr(v.sym, "optional", False) and \
                    v.name not in getattr(self.func, "optional_dummies", ()):
                raise self.error(node, "present() of something that is not an OPTIONAL dummy "
                                       "argument")
            return ir.Binary("!=", ir.Ref(v.sym, loc), X.null(v.sym.type, loc), ir.INT, loc)
        vals = [self.expr(a, ks, pre) for a in args]
        structure = next((a for a, v in zip(args, vals) if v.type.resolved().is_struct), None)
        if structure is not None:
            raise self.error(node, f"{name}() of '{structure}', a value of a derived type, is "
                                   "not supported (a generic interface for the type)")
        if name in INTRINSIC_MATH:
            t = vals[0].type if vals[0].type.resolved().is_float else ir.DOUBLE
            cname = {"gamma": "tgamma", "log_gamma": "lgamma"}.get(name, name)
            cname = cname[1:] if cname in ("dasinh", "dacosh", "datanh") else cname
            return ir.Call(_fname(cname, t), [convert_to(vals[0], t)], t, loc)
        if name in BESSEL:
            t = vals[-1].type if vals[-1].type.resolved().is_float else ir.DOUBLE
            cname = _fname(BESSEL[name], t)
            if cname.startswith(("jn", "yn")):
                if len(vals) != 2:
                    raise self.error(node, f"{name}(n1, n2, x), the array of orders n1 to n2, "
                                           "is not supported (a loop over the orders)")
                return ir.Call(cname, [convert_to(vals[0], ir.INT), convert_to(vals[1], t)],
                               t, loc)
            return ir.Call(cname, [convert_to(vals[0], t)], t, loc)
        if name in ("atan2", "hypot"):
            t = ir.arith_result(vals[0].type, vals[1].type)
            return ir.Call(_fname(name, t), [convert_to(v, t) for v in vals], t, loc)
        if name == "abs":
            t = vals[0].type
            if t.resolved().is_int:
                return ir.Call("abs", vals, ir.INT, loc)
            return ir.Call(_fname("fabs", t), vals, t, loc)
        if name in ("min", "max", "amin1", "amax1", "dmin1", "dmax1", "min0", "max0"):
            kind = "min" if "min" in name else "max"
            t = vals[0].type
            for v in vals[1:]:
                t = ir.arith_result(t, v.type)
            out = convert_to(vals[0], t)
            from adgen.ir.c_text import expr_c
            for v in vals[1:]:
                v = convert_to(v, t)
                if expr_c(v) == expr_c(out):
                    continue        # min(n, n): n (a C comparison of n with itself warns)
                if t.resolved().is_float:
                    out = ir.Call(_fname("f" + kind, t), [out, v], t, loc)
                else:
                    out = ir.Cond(ir.Binary("<" if kind == "min" else ">", out, v, ir.INT),
                                  X.clone(out), X.clone(v), t, loc)
            return out
        if name in ("mod", "amod", "dmod"):
            t = ir.arith_result(vals[0].type, vals[1].type)
            if t.resolved().is_int:
                return ir.Binary("%", vals[0], vals[1], t, loc)
            return ir.Call(_fname("fmod", t), [convert_to(v, t) for v in vals], t, loc)
        if name == "modulo":
            # the remainder with the sign of p: a - floor(a / p) p
            t = ir.arith_result(vals[0].type, vals[1].type)
            a, p = (convert_to(v, t) for v in vals)
            if t.resolved().is_int:
                return ir.Binary("%", ir.Binary("+", ir.Binary("%", a, p, t, loc), X.clone(p), t),
                                 X.clone(p), t, loc)
            return X.sub(a, X.mul(ir.Call(_fname("floor", t), [ir.Binary("/", X.clone(a), p, t)],
                                          t), X.clone(p)))
        if name in ("dim", "ddim", "idim"):
            # x - y where positive, else 0
            t = ir.arith_result(vals[0].type, vals[1].type)
            x, y = (convert_to(v, t) for v in vals)
            return ir.Cond(ir.Binary(">", x, y, ir.INT), X.sub(X.clone(x), X.clone(y)),
                           X.zero(t), t, loc)
        if name == "merge":
            t = ir.arith_result(vals[0].type, vals[1].type)
            return ir.Cond(vals[2], convert_to(vals[0], t), convert_to(vals[1], t), t, loc)
        if name in ("sign", "dsign", "isign"):
            t = vals[0].type
            if t.resolved().is_int:
                return ir.Cond(ir.Binary(">=", vals[1], ir_int(0), ir.INT),
                               ir.Call("abs", [vals[0]], ir.INT),
                               ir.Unary("-", ir.Call("abs", [X.clone(vals[0])], ir.INT), ir.INT),
                               ir.INT, loc)
            return ir.Call(_fname("copysign", t), [ir.Call(_fname("fabs", t), [vals[0]], t),
                                                   convert_to(vals[1], t)], t, loc)
        if name in ("real", "float", "sngl"):
            kind = None
            if len(args) > 1:
                kind = self.kind_value(args[1])
            return convert_to(vals[0], ir.DOUBLE if kind == 8 else ir.FLOAT)
        if name == "dble":
            return convert_to(vals[0], ir.DOUBLE)
        if name == "dprod":
            # the product in double precision of two default reals
            return ir.Binary("*", convert_to(vals[0], ir.DOUBLE), convert_to(vals[1], ir.DOUBLE),
                             ir.DOUBLE, loc)
        if name == "scale":
            # x * 2**i, exactly
            t = vals[0].type
            return ir.Call(_fname("ldexp", t), [vals[0], ir.Cast(ir.INT, vals[1])], t, loc)
        if name in ("exponent", "fraction"):
            # x = fraction(x) * 2**exponent(x), fraction in [0.5, 1): frexp's parts; both 0
            # for 0 (the exponent of an infinity or a NaN: 0 as well, as frexp's)
            t = vals[0].type
            x = vals[0]
            zero_or_not_finite = ir.Binary("||", ir.Binary("==", X.clone(x), X.zero(t), ir.INT),
                                           ir.Unary("!", ir.Call("isfinite", [X.clone(x)],
                                                                 ir.INT), ir.INT), ir.INT)
            e = ir.Cond(zero_or_not_finite, ir_int(0),
                        ir.Binary("+", ir.Call(_fname("ilogb", t), [X.clone(x)], ir.INT),
                                  ir_int(1), ir.INT), ir.INT, loc)
            if name == "exponent":
                return e
            return ir.Call(_fname("ldexp", t), [x, ir.Unary("-", e, ir.INT)], t, loc)
        if name in ("int", "ifix", "idint"):
            return ir.Cast(ir.INT, vals[0], loc)
        if name in ("nint", "idnint"):
            return ir.Cast(ir.INT, ir.Call("lround", [convert_to(vals[0], ir.DOUBLE)], ir.INT), loc)
        if name == "floor":
            return ir.Cast(ir.INT, ir.Call(_fname("floor", vals[0].type), vals,
                                           vals[0].type), loc)
        if name == "ceiling":
            return ir.Cast(ir.INT, ir.Call(_fname("ceil", vals[0].type), vals,
                                           vals[0].type), loc)
        if name in ("aint", "dint"):
            return ir.Call(_fname("trunc", vals[0].type), vals, vals[0].type, loc)
        if name in ("anint", "dnint"):
            return ir.Call(_fname("round", vals[0].type), vals, vals[0].type, loc)
        if name == "epsilon":
            return ir.Const("2.2204460492503131e-16" if vals[0].type.resolved().name ==
                            "double" else "1.19209290e-07f", vals[0].type, loc)
        if name == "huge":
            return _huge(vals[0].type, loc)
        if name == "tiny":
            return ir.Const("2.2250738585072014e-308", ir.DOUBLE, loc)
        if name in _MODEL_NUMBERS:
            # the model of the argument's type, as gfortran gives it (IEEE binary32/64)
            t = vals[0].type.resolved()
            kind = ("long" if t.name in ("long", "long long") else "int") if t.is_int else \
                "float" if t.name == "float" else "double"
            value = _MODEL_NUMBERS[name].get(kind)
            if value is None:
                raise self.error(node, f"{name}() of an integer is not supported")
            return ir_int(value)
        raise self.error(node, f"intrinsic '{name}' is not supported")

    def inquiry(self, name, args, node, ks):
        """size, shape, lbound, ubound. Without DIM, shape, lbound and ubound are arrays
        (of one element per dimension): their element ks[0]."""
        bounds = self.array_bounds(args[0])
        if bounds is None:
            raise self.error(node, f"{name} of a scalar")
        if name == "size" and len(args) == 1:
            total = None
            for k in range(len(bounds)):
                e = self.bound_value(name, bounds, k, node)
                total = e if total is None else X.mul(total, e)
            return total
        values = [self.bound_value(name, bounds, k, node) for k in range(len(bounds))]
        if len(args) > 1:
            which = X.sub(to_int(self.expr(args[1])), ir_int(1))
        elif ks is None:
            raise self.error(node, f"{name}(...) is an array; here a scalar is needed")
        else:
            which = ks[0]
        k = const_int(which)
        if k is not None:
            if not 0 <= k < len(values):
                raise self.error(node, f"{name}: dimension {k + 1} of an array of rank "
                                       f"{len(values)}")
            return values[k]
        out = values[-1]            # values[which] for a dimension known at run time
        for k in range(len(values) - 2, -1, -1):
            out = ir.Cond(ir.Binary("==", X.clone(which), ir_int(k), ir.INT), values[k], out,
                          ir.INT)
        return out

    def not_here(self, name, node):
        """The error for matmul or pack where no temporary holds its value before the
        statement (pack in a test or a DO bound)."""
        where = "assignments, the arguments of a CALL, tests and DO bounds" \
            if name == "matmul" else "assignments and the arguments of a CALL"
        return self.error(node, f"{name} is supported in {where} (its value goes to a "
                                "temporary first), not in this statement: assign it to an "
                                "array first")

    def array_bounds(self, node):
        """[(lower, extent)] per dimension of an array argument of an inquiry intrinsic:
        a whole array has its declared lower bounds, a section or an array expression
        lower bounds 1; extent None for the last dimension of an assumed-size array."""
        F = f2003()
        v = self.lookup(name_of(node), node) if isinstance(node, F.Name) else None
        if v is not None:
            return [(X.clone(lo), X.clone(ext) if ext is not None else None)
                    for lo, ext in v.dims] if v.dims else None
        shape = self.operand_shape(node)
        return [(ir_int(1), triplet_count(*d)) for d in shape] if shape else None

    def bound_value(self, name, bounds, k, node):
        lo, ext = bounds[k]
        if name == "lbound":
            return lo
        if ext is None:
            raise self.error(node, f"{name}: the last dimension of an assumed-size array "
                                   "has no extent")
        return X.sub(X.add(lo, ext), ir_int(1)) if name == "ubound" else ext

    def reduction(self, name, args, node, pre, ks=None):
        loc = self.loc(node)
        if name in ("maxloc", "minloc"):
            return self.location(name, args, node, pre, ks)
        mask = None
        along = (self.reduced_dimension(node) or (None,))[0]   # DIM of a rank 2 or more
        if along is not None and ks is None:
            raise self.error(node, f"{name} with DIM of an array of rank "
                                   f"{len(self.operand_shape(args[0]))}"
                                   " is supported in array expressions")
        if name in ALONG and len(args) >= 2:
            rank = len(self.operand_shape(args[0]) or ())
            if args[1] is None or along is not None or \
                    (rank == 1 and const_int(self.expr(args[1])) == 1):
                # DIM=1 of a rank-1 array reduces it whole; MASK=: the elements where it holds
                mask = args[2] if len(args) > 2 else None
                args = args[:1]
        if len(args) > (2 if name == "dot_product" else 1):
            raise self.error(node, f"{name} with DIM is not supported")
        shape = self.operand_shape(args[0])
        if shape is None:
            F = f2003()
            for inner in walk_type(args[0], F.Intrinsic_Function_Reference):
                if name_of(inner.items[0]) in ("maxloc", "minloc"):
                    self.expr(inner)    # its own refusal: an array result (DIM, rank 2)
            raise self.error(node, f"{name} of a scalar")
        if name == "dot_product":
            t = ir.arith_result(self.elem_type(args[0]), self.elem_type(args[1]))
        elif name in ("count", "any", "all"):
            t = ir.INT
        else:
            t = self.elem_type(args[0])
        acc = self.temp(name, t)
        if name in ("sum", "dot_product", "count", "norm2"):
            init = X.zero(t)
        elif name == "product":
            init = X.const(1, t)
        elif name == "any":
            init = ir_int(0)
        elif name == "all":
            init = ir_int(1)
        else:
            # of no element (or none the mask selects): -huge for maxval, huge for minval
            init = _huge(t) if name == "minval" else ir.Unary("-", _huge(t), t)
        if self.loop_invariant and along is None:
            # Inside an array assignment, a reduction is the same for every element:
            # computed once, before the loops (so also before they change what it reads).
            pre = self.loop_invariant[-1]
        pre.append(ir.Assign(ir.Ref(acc), init, loc))

        def make(ks, inner_pre):
            target, value = fold(ks, inner_pre)
            if mask is not None:
                value = ir.Cond(self.expr(mask, ks, inner_pre), value, X.clone(target), t)
            return target, value

        def fold(ks, inner_pre):
            x = self.expr(args[0], ks, inner_pre)
            if name == "sum":
                v = ir.Binary("+", ir.Ref(acc), x, t)
            elif name == "product":
                v = ir.Binary("*", ir.Ref(acc), x, t)
            elif name == "dot_product":
                v = ir.Binary("+", ir.Ref(acc), ir.Binary(
                    "*", x, self.expr(args[1], ks, inner_pre), t), t)
            elif name == "norm2":
                v = ir.Binary("+", ir.Ref(acc), ir.Binary("*", x, X.clone(x), t), t)
            elif name == "count":
                v = ir.Binary("+", ir.Ref(acc), ir.Cond(x, ir_int(1), ir_int(0), ir.INT), ir.INT)
            elif name == "any":
                v = ir.Binary("||", ir.Ref(acc), x, ir.INT)
            elif name == "all":
                v = ir.Binary("&&", ir.Ref(acc), x, ir.INT)
            else:
                fn = _fname("fmin" if name == "minval" else "fmax", t)
                v = ir.Call(fn, [ir.Ref(acc), x], t)
            return ir.Ref(acc), v

        if along is not None:
            # element ks of the result: a loop along dimension `along` of the array, the
            # other indices ks
            self.elementwise([shape[along]], lambda kin, inner_pre: make(
                ks[:along] + kin + ks[along:], inner_pre), pre, loc)
        else:
            self.elementwise(shape, make, pre, loc)
        if name == "norm2":
            return ir.Call(_fname("sqrt", t), [ir.Ref(acc)], t, loc)
        return ir.Ref(acc)

    def reshape_shape(self, node):
        """For reshape(source, shape) of an array: (the source's parse tree, the extents of
        the result, one per element of shape, a rank-1 array of a constant size); None for
        anything else. PAD and ORDER are refused."""
        F = f2003()
        if not isinstance(node, F.Intrinsic_Function_Reference) or \
                name_of(node.items[0]) != "reshape":
            return None
        args = self.intrinsic_arguments("reshape", node.items[1].items, node)
        if len(args) < 2 or any(a is not None for a in args[2:]):
            raise self.error(node, "reshape is supported with SOURCE and SHAPE only (not PAD "
                                   "or ORDER)")
        source, shp = args[:2]
        if not self.operand_shape(source):
            raise self.error(node, "reshape of a scalar")
        if isinstance(shp, F.Array_Constructor):
            return source, [to_int(self.expr(it)) for it in constructor_items(shp)]
        sshape = self.operand_shape(shp)
        rank = const_int(triplet_count(*sshape[0])) if sshape and len(sshape) == 1 else None
        if rank is None or not isinstance(shp, (F.Name, F.Part_Ref)):
            raise self.error(node, "reshape: SHAPE must be an array constructor or an array "
                                   "of a constant size")
        return source, [to_int(self.designator(shp, [ir_int(k)])) for k in range(rank)]

    def reshape_element(self, node, ks, pre):
        """Element ks of reshape(source, shape): the element of source at the same position
        in column-major order."""
        source, extents = self.reshape_shape(node)
        if ks is None:
            raise self.error(node, "reshape is supported in array expressions")
        linear = X.clone(ks[-1])
        for k, ext in zip(reversed(ks[:-1]), reversed(extents[:-1])):
            linear = X.add(X.mul(linear, X.clone(ext)), X.clone(k))
        counts = [triplet_count(*d) for d in self.operand_shape(source)]
        index, below = [], None
        for j, c in enumerate(counts):
            at = linear if below is None else ir.Binary("/", X.clone(linear), below, ir.INT)
            if j < len(counts) - 1:
                at = ir.Binary("%", at, X.clone(c), ir.INT)
            index.append(at)
            below = X.clone(c) if below is None else X.mul(below, X.clone(c))
        return self.expr(source, index, pre)

    def spread_dimension(self, node):
        """For spread(source, dim, ncopies): (the new dimension, counted from 0, the number
        of copies, the source's parse tree); None for anything else. Of a scalar, DIM is 1:
        an array of NCOPIES copies of its value."""
        F = f2003()
        if not isinstance(node, F.Intrinsic_Function_Reference) or \
                name_of(node.items[0]) != "spread":
            return None
        args = self.intrinsic_arguments("spread", node.items[1].items, node)
        if len(args) != 3 or None in args:
            raise self.error(node, "spread needs SOURCE, DIM and NCOPIES")
        rank = len(self.operand_shape(args[0]) or ())
        dim = const_int(self.expr(args[1]))
        if dim is None or not 1 <= dim <= rank + 1:
            raise self.error(node, f"spread: DIM must be a constant from 1 to {rank + 1}")
        return dim - 1, to_int(self.expr(args[2])), args[0]

    def reduced_dimension(self, node):
        """For sum, product, maxval, minval or norm2 with DIM of an array of rank 2 or more
        (an array result): (the dimension it reduces, counted from 0, the array's parse
        tree); None otherwise."""
        F = f2003()
        if not isinstance(node, F.Intrinsic_Function_Reference) or \
                name_of(node.items[0]) not in ALONG:
            return None
        args = self.intrinsic_arguments(name_of(node.items[0]), node.items[1].items, node)
        if len(args) < 2 or args[1] is None:
            return None
        rank = len(self.operand_shape(args[0]) or ())
        if rank < 2:
            return None
        dim = const_int(self.expr(args[1]))
        if dim is None or not 1 <= dim <= rank:
            raise self.error(node, f"{name_of(node.items[0])}: DIM must be a constant from 1 to "
                                   f"{rank}")
        return dim - 1, args[0]

    def location(self, name, args, node, pre, ks=None):
        """maxloc(a[, dim=1]) and minloc(a[, dim=1]): the position, counting from 1 in
        each dimension, of the first (in array element order) largest (smallest) element;
        NaNs are passed over, and an array of NaNs only gives 1s (as gfortran does); 0s
        for an empty array. Of a rank-1 array, one position: the result, an array of one
        element, broadcast; of rank r without DIM, an array of r positions, element ks[0]
        here (see location_rank)."""
        loc = self.loc(node)
        shape = self.operand_shape(args[0])
        dim = len(args) > 1 and args[1] is not None
        if shape is None or (dim and (len(shape) != 1 or const_int(self.expr(args[1])) != 1)):
            raise self.error(node, f"{name} is supported without DIM, or with DIM=1 of a "
                                   "rank-1 array")
        if len(args) > 2:
            raise self.error(node, f"{name} with MASK, KIND or BACK is not supported")
        if len(shape) > 1 and ks is None:
            raise self.error(node, f"{name} of a rank-{len(shape)} array is an array of "
                                   f"{len(shape)} positions: assign it to an integer array")
        t = self.elem_type(args[0])
        best = self.temp(name + "_value", t)
        positions = [self.temp(name, ir.INT) for _ in shape]
        if self.loop_invariant:
            pre = self.loop_invariant[-1]       # as for the other reductions
        integer = t.resolved().is_int
        big = ir.Const("INFINITY", t)
        pre.append(ir.Assign(ir.Ref(best), X.zero(t) if integer else big if name == "minloc"
                             else ir.Unary("-", big, t), loc))
        pre += [ir.Assign(ir.Ref(p), ir_int(0), loc) for p in positions]
        better, reached = (">", ">=") if name == "maxloc" else ("<", "<=")
        first_pos = positions[0]
        taken = self.temp(name + "_taken", ir.INT) if len(shape) > 1 else None

        def make(counters, inner_pre):
            x = self.expr(args[0], counters, inner_pre)
            # strictly better, or the first element (for reals, the first that is not a NaN)
            first = ir.Binary("==", ir.Ref(first_pos), ir_int(0), ir.INT)
            if not integer:
                first = ir.Binary("&&", first, ir.Binary(reached, X.clone(x), ir.Ref(best),
                                                         ir.INT), ir.INT)
            take = ir.Binary("||", ir.Binary(better, x, ir.Ref(best), ir.INT), first, ir.INT)
            if taken is not None:
                inner_pre.append(ir.Assign(ir.Ref(taken), take, loc))
                take = ir.Ref(taken)
            for p, k in zip(positions, counters):
                inner_pre.append(ir.Assign(ir.Ref(p), ir.Cond(
                    X.clone(take), X.add(X.clone(k), ir_int(1)), ir.Ref(p), ir.INT), loc))
            here = ir.Binary("==", ir.Ref(first_pos), X.add(X.clone(counters[0]), ir_int(1)),
                             ir.INT) if taken is None else ir.Ref(taken)
            return ir.Ref(best), ir.Cond(here, X.clone(x), ir.Ref(best), t)

        self.elementwise(shape, make, pre, loc)
        size = functools.reduce(X.mul, [triplet_count(*d) for d in shape])
        empty_or_found = ir.Binary("||", ir.Binary("!=", ir.Ref(first_pos), ir_int(0), ir.INT),
                                   ir.Binary("<=", size, ir_int(0), ir.INT), ir.INT)
        pre += [ir.Assign(ir.Ref(p), ir.Cond(X.clone(empty_or_found), ir.Ref(p), ir_int(1),
                                             ir.INT), loc) for p in positions]
        if len(shape) == 1:
            return ir.Ref(first_pos)
        value = ir.Ref(positions[-1])
        for k in range(len(shape) - 2, -1, -1):
            value = ir.Cond(ir.Binary("==", X.clone(ks[0]), ir_int(k), ir.INT),
                            ir.Ref(positions[k]), value, ir.INT)
        return value

    def location_rank(self, node):
        """The rank of the array of maxloc or minloc without DIM when it is 2 or more (the
        result is then an array of that many positions), else None."""
        F = f2003()
        if not isinstance(node, F.Intrinsic_Function_Reference) or \
                name_of(node.items[0]) not in ("maxloc", "minloc"):
            return None
        args = self.intrinsic_arguments(name_of(node.items[0]), node.items[1].items, node)
        if len(args) > 1 and args[1] is not None:
            return None
        rank = len(self.operand_shape(args[0]) or ())
        return rank if rank > 1 else None

    def shifted(self, name, args, node, ks, pre):
        """cshift(a, s[, dim]): along dimension dim (1 by default), element k of the result
        is element (k + s) mod n of a, counting from 0 (s may be negative); the other
        indices are the result's. eoshift(a, s[, boundary, dim]): element k + s of a where
        that is one of its elements, else boundary (0 by default). The shift and the
        boundary must be scalars, DIM a constant."""
        shape = self.operand_shape(args[0])
        at = 2 if name == "cshift" else 3
        dim = const_int(self.expr(args[at])) \
            if len(args) > at and args[at] is not None else 1
        if ks is None or shape is None or len(ks) != len(shape):
            raise self.error(node, f"{name} is supported in array expressions")
        if dim is None or not 1 <= dim <= len(shape):
            raise self.error(node, f"{name}: DIM must be a constant from 1 to {len(shape)}")
        if self.operand_shape(args[1]):
            raise self.error(node, f"{name} with an array of shifts is not supported (a "
                                   "scalar shift is)")
        if name == "eoshift" and len(args) > 2 and args[2] is not None and \
                self.operand_shape(args[2]):
            raise self.error(node, "eoshift with an array of boundaries is not supported (a "
                                   "scalar boundary is)")
        n = triplet_count(*shape[dim - 1])
        shift = to_int(self.expr(args[1], None, pre))
        k = X.add(X.clone(ks[dim - 1]), shift)
        if name == "cshift":
            k = ir.Binary("%", k, n, ir.INT)
            k = ir.Binary("%", ir.Binary("+", k, X.clone(n), ir.INT), X.clone(n), ir.INT)
            return self.expr(args[0], ks[:dim - 1] + [k] + ks[dim:], pre)
        if any(self.called_function(c) is not None for c in walk_nodes(args[0])):
            # (its elements beyond the ends must not be evaluated)
            raise self.error(node, "eoshift of an expression calling a function is not "
                                   "supported: assign the expression to an array first")
        inside = ir.Binary("&&", ir.Binary(">=", X.clone(k), ir_int(0), ir.INT),
                           ir.Binary("<", X.clone(k), n, ir.INT), ir.INT)
        value = self.expr(args[0], ks[:dim - 1] + [k] + ks[dim:], pre)
        boundary = self.expr(args[2], None, pre) if len(args) > 2 and args[2] is not None \
            else ir.Const("0", value.type)
        return ir.Cond(inside, value, convert_to(boundary, value.type), value.type)

    def operand_shape(self, node):
        """The shape of an operand, a designator or an array-valued expression; None (or
        empty) for a scalar."""
        F = f2003()
        if isinstance(node, F.Intrinsic_Function_Reference) and \
                name_of(node.items[0]) in ("matmul", "pack"):
            raise self.not_here(name_of(node.items[0]), node)
        return self.shape_of(node) or self.expr_shape(node)

    def operand_extents(self, node):
        """dimension_extents of an operand; None per dimension for an expression."""
        F = f2003()
        if isinstance(node, (F.Name, F.Part_Ref)):
            return self.dimension_extents(node)
        return [None] * len(self.operand_shape(node))

    def expr_shape(self, node):
        """The shape of an array-valued expression: that of its first array operand."""
        r = self.shape_source(node)
        return self.shape_of(r) if r is not None else None

    def shape_source(self, node):
        """The first array operand of an array-valued expression, whose shape it has."""
        return next((r for r in array_refs(node, self.is_operand)
                     if self.shape_of(r) is not None), None)

    def is_operand(self, name):
        """Whether a name in an array expression stands for operands taken element by
        element: an array, or an elemental function (its arguments are operands too)."""
        return self.is_array(name) or self.is_elemental(name)

    def dimension_extents(self, node):
        """For each dimension of shape_of(node), the extent of the array dimension it runs
        over (None where unknown)."""
        F = f2003()
        if array_inquiry(node):
            return [None]
        reshaped = self.reshape_shape(node)
        if reshaped is not None:
            return [None] * len(reshaped[1])
        spread = self.spread_dimension(node)
        if spread is not None:
            along, _, source = spread
            extents = self.operand_extents(source) if self.operand_shape(source) else []
            return extents[:along] + [None] + extents[along:]
        reduced = self.reduced_dimension(node)
        if reduced is not None:
            along, arg = reduced
            extents = self.operand_extents(arg)
            return extents[:along] + extents[along + 1:]
        if self.location_rank(node) is not None:
            return [None]
        v = self.array_var(base_name_of(node), node)
        if isinstance(node, F.Name):
            return [ext for _, ext in v.dims]
        return [ext if isinstance(sub, F.Subscript_Triplet) else None
                for (_, ext), sub in zip(v.dims, node.items[1].items)
                if isinstance(sub, F.Subscript_Triplet) or self.vector_subscript(sub, node)]

    def elem_type(self, node):
        """The type of the elements of the array expression node, as Fortran gives it: an
        operation's operands converted to the wider of their types (`k * 0.5d0` of an
        integer array k is real(8)), a conversion's or a function's result type."""
        if self.location_rank(node) is not None:
            return ir.INT           # maxloc, minloc: positions
        F = f2003()
        cname = type(node).__name__
        if isinstance(node, F.Parenthesis):
            return self.elem_type(node.items[1])
        if cname in ("Level_2_Expr", "Add_Operand", "Mult_Operand"):
            a, b = self.elem_type(node.items[0]), self.elem_type(node.items[2])
            numbers = all(t.resolved().is_int or t.resolved().is_float for t in (a, b))
            return ir.arith_result(a, b) if numbers else \
                a if not (a.resolved().is_int or a.resolved().is_float) else b
        if cname == "Level_2_Unary_Expr":
            return self.elem_type(node.items[1])
        if isinstance(node, F.Array_Constructor):
            # its items' type, converted to the widest (implied-do lists aside)
            types = [self.elem_type(it) for it in constructor_items(node, implied=True)
                     if not isinstance(it, F.Ac_Implied_Do)]
            if types and all(t.resolved().is_int or t.resolved().is_float for t in types):
                return functools.reduce(ir.arith_result, types)
        if cname in ("Level_4_Expr", "And_Operand", "Or_Operand", "Equiv_Operand",
                     "Level_5_Expr", "Not_Op"):
            return ir.INT           # comparisons and logical operations
        if isinstance(node, (F.Int_Literal_Constant, F.Real_Literal_Constant)):
            return self.expr(node).type
        if isinstance(node, F.Name) and self.array_var(name_of(node), node) is None:
            return self.expr(node).type         # a scalar
        converted = self.converted_type(node)
        if converted is not None:
            return converted
        for r in array_refs(node):
            if array_inquiry(r):
                return ir.INT
            v = self.array_var(base_name_of(r), r)
            if v is not None:
                return v.type
        return ir.DOUBLE

    def converted_type(self, node):
        """The element type of a conversion (`dble(k)`, `real(k, 8)`, `nint(x)`) or of a
        call of one of the program's functions (elemental, `val(ps)`: its result type)
        applied to arrays; None for another expression."""
        F = f2003()
        cname = type(node).__name__
        if not (isinstance(node, (F.Intrinsic_Function_Reference, F.Part_Ref)) or
                cname in CALL_NODES):
            return None
        name = name_of(node.items[0])
        if isinstance(node, F.Part_Ref) and self.array_var(name, node) is not None:
            return None
        if name in ("dble", "dfloat"):
            return ir.DOUBLE
        if name in ("int", "nint", "floor", "ceiling", "idint", "idnint", "ifix"):
            return ir.INT
        if name in ("real", "float", "sngl"):
            args = call_arguments(node)
            kind = const_int(self.expr(args[1])) if len(args) > 1 else None
            return ir.DOUBLE if kind == 8 else ir.FLOAT
        if isinstance(node, F.Intrinsic_Function_Reference) or name in INTRINSIC_MATH or \
                name in _OTHER_INTRINSICS or name in SPECIFIC_NAMES:
            return None
        called = self.called_function(node)
        if called is None or called in self.types:
            return None
        f = self.callee(called, node)
        ret = f.ret.resolved()
        return f.ret if ret.is_int or ret.is_float else None


# The specific names of FORTRAN 77 (DEXP, ALOG, ...): the generic intrinsic they name
_OTHER_INTRINSICS = {"kind", "selected_real_kind", "selected_int_kind", "abs", "min", "max",
                     "mod", "sign", "real", "dble", "int", "nint", "floor", "ceiling", "sum",
                     "product", "maxval", "minval", "dot_product", "size", "shape", "lbound",
                     "ubound", "atan2", "hypot", "amin1", "amax1", "dmin1", "dmax1", "float",
                     "sngl", "aint", "anint", "epsilon", "huge", "tiny", "count", "any", "all",
                     "matmul", "transpose", "norm2", "allocated", "associated", "dmod",
                     "amod", "dsign",
                     "isign", "min0", "max0", "ifix", "idint", "idnint", "dint", "dnint",
                     "modulo", "dim", "ddim", "idim", "merge", "cshift", "eoshift", "maxloc",
                     "minloc", "present", "spread", "reshape", "len", "len_trim", "trim",
                     "index", "adjustl", "adjustr", "repeat", "char", "achar", "ichar",
                     "iachar", "new_line"}


def _huge(t, loc=None):
    """The largest number of type t (Fortran's huge)."""
    name = t.resolved().name
    text = {"double": "1.7976931348623157e+308", "float": "3.40282347e+38f",
            "long": "9223372036854775807L", "long long": "9223372036854775807LL"}.get(
        name, "2147483647")
    return ir.Const(text, t, loc)


# The inquiry functions of the number model (LAPACK's la_constants), by type
_MODEL_NUMBERS = {"radix": {"int": 2, "long": 2, "float": 2, "double": 2},
                  "digits": {"int": 31, "long": 63, "float": 24, "double": 53},
                  "minexponent": {"float": -125, "double": -1021},
                  "maxexponent": {"float": 128, "double": 1024},
                  "precision": {"float": 6, "double": 15},
                  "range": {"int": 9, "long": 18, "float": 37, "double": 307}}
# Fortran 2008's Bessel functions as POSIX names them, and erfc_scaled (a helper)
BESSEL = {"bessel_j0": "j0", "bessel_j1": "j1", "bessel_jn": "jn", "bessel_y0": "y0",
          "bessel_y1": "y1", "bessel_yn": "yn", "erfc_scaled": "adgen_erfc_scaled"}


def _fname(name, t):
    return name + ("f" if t.resolved().name == "float" else "")


def _real_literal(text, kind, scope):
    t = text.upper()
    is_double = "D" in t or kind in ("8", "dp") or (kind is not None and kind != "4" and
                                                   scope.kind_value_text(kind) == 8)
    t = t.replace("D", "E")
    if t.endswith("E"):
        t += "0"
    if "." not in t and "E" not in t:
        t += ".0"
    if t.startswith("."):
        t = "0" + t
    t = t.lower()
    if is_double:
        return ir.Const(t, ir.DOUBLE)
    return ir.Const(t + "f", ir.FLOAT)
