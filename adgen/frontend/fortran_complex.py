"""COMPLEX numbers of Fortran input, as pairs of reals.

A COMPLEX entity is a structure of two reals, `re` then `im`: the layout gfortran gives it,
so that module variables and arrays passed between procedures keep their place. Before a
statement is lowered, its complex arithmetic is rewritten into real arithmetic on those
components (`z = w * v` becomes `z%re = w%re * v%re - w%im * v%im` and `z%im = ...`), so
that every analysis and transform after the front end sees real numbers only, and the
derivatives are those of the real and imaginary parts. What is rewritten:

- assignments to a complex variable, element, array or component (through a temporary
  when the value reads the variable assigned), and of a complex value to a real or an
  integer (its real part, as Fortran does);
- + - * / and ** with an integer constant exponent (1 to 4), mixed with reals and integers;
- complex literals `(1d0, -2d0)`, cmplx, dcmplx, conjg, real, dble, aimag, abs, exp, log,
  sqrt, sin, cos, and sum of a complex array;
- == and /= between complex values;
- a complex value passed to a procedure: a variable, element or array as itself, an
  expression through a temporary;
- functions returning COMPLEX (their result is a structure), referenced through a temporary.

Anything else that holds a complex value (a complex exponent, a reduction other than
sum, complex values under WHERE or FORALL, as a head's argument) is refused at its line.
"""
from __future__ import annotations

from adgen import ir
from adgen.errors import AdgenError
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_helpers import (FVar, SPECIFIC_NAMES, argument_value,
                                            call_arguments, constant_size, constructor_items,
                                            convert_to, rewrite_in_place)

_TAG = "adgen_complex"
# the intrinsics of a complex argument that give a real
_REAL_PARTS = {"real": "re", "dble": "re", "dreal": "re", "aimag": "im", "dimag": "im"}
_ABS = ("abs", "cdabs", "zabs")
# the intrinsics that give a complex value from complex arguments, by their specific names
_COMPLEX_FUNCTIONS = {"conjg": "conjg", "dconjg": "conjg", "exp": "exp", "cdexp": "exp",
                      "zexp": "exp", "log": "log", "cdlog": "log", "zlog": "log",
                      "sin": "sin", "cdsin": "sin", "zsin": "sin", "cos": "cos",
                      "cdcos": "cos", "zcos": "cos", "sqrt": "sqrt", "csqrt": "sqrt",
                      "cdsqrt": "sqrt", "zsqrt": "sqrt"}
_BUILDERS = ("cmplx", "dcmplx")
# construct statements whose own expressions (not those of the statements inside) are
# rewritten
_HEADERS = ("If_Then_Stmt", "Else_If_Stmt", "Select_Case_Stmt", "Nonlabel_Do_Stmt",
            "Label_Do_Stmt")
# those evaluated where no statement can be put before them (an ELSE IF test, a DO WHILE
# test, evaluated again each time): no temporary for them
_NO_TEMPORARY = ("Else_If_Stmt", "Nonlabel_Do_Stmt", "Label_Do_Stmt")
# the other statements of constructs (not the statements inside them)
_CONSTRUCT_STMTS = _HEADERS + (
    "Else_Stmt", "End_If_Stmt", "End_Do_Stmt",
    "Case_Stmt", "End_Select_Stmt", "Block_Stmt", "End_Block_Stmt", "Associate_Stmt",
    "End_Associate_Stmt")
# constructs that lower the statements inside them their own way: no complex value in them
_WHOLE = ("Where_Construct", "Where_Stmt", "Forall_Construct", "Forall_Stmt")


def rewritten(scope, node, out):
    """The statement node with its complex arithmetic rewritten into real arithmetic, node
    itself when it has none, or None when it was lowered here (into out)."""
    if f"{_TAG}4" not in scope.front.derived_types and \
            f"{_TAG}8" not in scope.front.derived_types:
        return node         # (no COMPLEX declared in the program)
    for _ in range(_NESTED_STATEMENT_FUNCTIONS):
        expanded = []
        rewrite_in_place(node, lambda n: _expanded_statement_function(scope, n, expanded))
        if not expanded:
            break
    rewrite_in_place(node, lambda n: _generic_intrinsic(scope, n))
    c = ComplexStatement(scope)
    return c.statement(node, out) if c.involved(node) else node


# how deep statement functions may reference one another (each only those before it)
_NESTED_STATEMENT_FUNCTIONS = 16


def _expanded_statement_function(scope, node, expanded):
    """The expression a reference to a statement function with COMPLEX dummies or result
    stands for (LINPACK's `CABS1(ZDUM) = DABS(DREAL(ZDUM)) + DABS(DIMAG(ZDUM))`): its body,
    each dummy replaced by its argument in parentheses, converted to its type, so that the
    complex rewriting sees the complex values in it; None for any other node (the other
    statement functions are expanded where their references are read). Appends each
    expansion made to `expanded`."""
    F = _f2003()
    if type(node).__name__ not in ("Part_Ref", "Function_Reference") or node.items[1] is None:
        return None
    name = str(node.items[0]).lower()
    found = getattr(scope, "stmt_functions", {}).get(name)
    if found is None:
        return None
    dummies, body, t = found
    args = [argument_value(a) for a in call_arguments(node)]
    kinds = [scope.statement_function_dummy_type(d, node) for d in dummies]
    if len(args) != len(dummies) or None in kinds or \
            not any(is_complex(k) for k in kinds + [t]):
        return None
    statement = ComplexStatement(scope)
    if any(is_complex(k) != statement.is_complex(a) for k, a in zip(kinds, args)):
        return None     # (an argument converted to its dummy's type: read as a reference)
    value = F.Expr(f"({body})")
    T.replace_data_refs(value)
    by_dummy = dict(zip(dummies, args))
    rewrite_in_place(value, lambda n: F.Parenthesis(f"({by_dummy[str(n).lower()]})")
                     if isinstance(n, F.Name) and str(n).lower() in by_dummy else None)
    r = t.resolved()
    if is_complex(t):
        text = f"CMPLX({value}, KIND={8 if _part_type(t).resolved().name == 'double' else 4})"
    elif r.is_float:
        text = f"REAL({value}, KIND={8 if r.name == 'double' else 4})"
    elif r.is_int:
        text = f"INT({value})"
    else:
        text = str(value)
    out = F.Expr(f"({text})")
    T.replace_data_refs(out)
    expanded.append(node)
    return out


def _generic_intrinsic(scope, node):
    """The generic intrinsic's reference for a reference by one of gfortran's specific
    names (`DIMAG(Z)`: `AIMAG(Z)`, `DCMPLX(A, B)`: `CMPLX(A, B, KIND=8)`), where the scope
    gives the name no other meaning (a variable, a statement function, a procedure of the
    input); None for any other node."""
    if type(node).__name__ not in ("Part_Ref", "Function_Reference") or node.items[1] is None:
        return None
    name = str(node.items[0]).lower()
    if name not in SPECIFIC_NAMES or name in scope.vars or \
            name in getattr(scope, "stmt_functions", {}) or \
            name in getattr(scope, "dummy_procs", {}) or scope.known_procedure(name):
        return None
    kind = ", KIND=8" if name == "dcmplx" else ""       # (double complex's)
    ref = _f2003().Intrinsic_Function_Reference(
        f"{SPECIFIC_NAMES[name].upper()}({node.items[1]}{kind})")
    T.replace_data_refs(ref)
    ref.item = getattr(node, "item", None)
    return ref


def _f2003():
    from fparser.two import Fortran2003
    return Fortran2003


def complex_type(front, kind):
    """The structure type of COMPLEX(kind) (kind 4 or 8), defined once in the output."""
    tag = f"{_TAG}{kind}"
    dt = front.derived_types.get(tag)
    if dt is None:
        part = ir.DOUBLE if kind == 8 else ir.FLOAT
        comps = [T.Component("re", "re", part), T.Component("im", "im", part)]
        sdef = front.define_struct(ir.StructDef(tag, [("re", part), ("im", part)]))
        sdef.complex_part = part        # (the interface module declares it COMPLEX)
        dt = T.DerivedType(tag, sdef, {c.name: c for c in comps})
        sdef.fortran_type = dt
        front.derived_types[tag] = dt
    return dt


def is_complex(t):
    """Whether t (a variable's type, or its element type) is a COMPLEX one."""
    t = t.resolved() if t is not None else None
    return isinstance(t, ir.Struct) and getattr(t.sdef, "complex_part", None) is not None


def constant_initializer(scope, v, value, node):
    """The C initializer of the complex PARAMETER or SAVEd variable v (an array: every
    element the same constant, or a constructor of one per element) from its value:
    complex literals, cmplx of constants, real constants."""
    from adgen.ir.c_text import expr_c
    F = _f2003()
    part = _part_type(v.type)
    items = constructor_items(value) if isinstance(value, F.Array_Constructor) else [value]
    ones = []
    for x in items:
        cls = type(x).__name__
        if cls == "Complex_Literal_Constant":
            pair = list(x.items)
        elif isinstance(x, F.Intrinsic_Function_Reference) and \
                str(x.items[0]).lower() in _BUILDERS:
            pair = ComplexStatement(scope).builder_arguments(x)[:2]
        else:
            pair = [x, None]
        try:
            # (a signed literal read again as an expression: `-2.5d0`)
            texts = [expr_c(convert_to(scope.expr(F.Expr(str(p))), part)) if p is not None
                     else "0.0" for p in pair]
        except AdgenError:
            texts = None
        if texts is None or any(not _is_number(t) for t in texts):
            raise scope.error(node, f"the value of '{v.name}' is supported as complex "
                                    "constants ((1d0, 2d0), cmplx of constants) only")
        ones.append("{" + ", ".join(texts) + "}")
    if not v.dims:
        if len(ones) != 1:
            raise scope.error(node, f"scalar '{v.name}' given an array as initial value")
        return ones[0]
    size = constant_size(v)
    ones = ones * size if len(ones) == 1 else ones
    if len(ones) != size:
        raise scope.error(node, f"'{v.name}' has {size} elements, given {len(ones)} initial "
                                "values")
    return "{" + ", ".join(ones) + "}"


def _is_number(text):
    try:
        float(text.rstrip("fFlL"))
        return True
    except ValueError:
        return text.lstrip("-").replace(".", "", 1).rstrip("fFlL").isdigit()


def _base_name(node):
    """The name of the variable the designator node is part of."""
    if T.is_component_name(node):
        return T.component_path(node)[0]
    items = getattr(node, "items", None)
    if type(node).__name__ == "Part_Ref":
        return _base_name(items[0])
    return str(node).lower()


def _grouped(pair):
    """The parts (re, im) of a value, each in parentheses: an operand of what comes next
    (`a + b` times `c` is `(a + b) * c`)."""
    re, im = pair
    return f"({re})", None if im is None else f"({im})"


def _part_type(t):
    return T.derived_type_of(t).components["re"].type


class ComplexStatement:
    """The rewriting of one statement's complex arithmetic, in the scope that lowers it."""

    def __init__(self, scope):
        self.scope = scope

    # ------------------------------------------------------------ what is complex
    def variable_type(self, node):
        """The type of the variable (element, component) node designates, or None when it
        designates none."""
        F = _f2003()
        s = self.scope
        if T.is_component_name(node) or (isinstance(node, F.Part_Ref) and
                                         T.is_component_name(node.items[0])):
            name = node if T.is_component_name(node) else node.items[0]
            v = T.resolve_component(s, str(name), node)
            return v.type if v is not None else None
        base = node.items[0] if isinstance(node, F.Part_Ref) else node
        if not isinstance(base, F.Name):
            return None
        name = str(base).lower()
        v = s.vars.get(name)
        if v is None and s.may_be_host_variable(name):
            v = s.lookup(name, node)
        return v.type if v is not None else None

    def function_type(self, node):
        """The result type of the user function node references, or None."""
        name = self.scope.called_function(node) \
            if type(node).__name__ in ("Part_Ref", "Function_Reference") else None
        f = self.scope.known_procedure(name) if name is not None else None
        return f.ret if f is not None else None

    def is_complex(self, node):
        """Whether the expression node has a complex value."""
        F = _f2003()
        cls = type(node).__name__
        if cls == "Complex_Literal_Constant":
            return True
        if T.is_component_name(node) or isinstance(node, (F.Name, F.Part_Ref)):
            t = self.variable_type(node)
            if t is not None:
                return is_complex(t)
            return is_complex(self.function_type(node))
        if cls == "Function_Reference":
            return is_complex(self.function_type(node))
        if isinstance(node, F.Intrinsic_Function_Reference):
            name = str(node.items[0]).lower()
            if name in _BUILDERS:
                return True
            args = self.arguments(node)
            if name in _COMPLEX_FUNCTIONS or name == "sum":
                return bool(args) and self.is_complex(args[0])
            return False
        if cls == "Parenthesis":
            return self.is_complex(node.items[1])
        if isinstance(node, F.Array_Constructor):
            return any(self.is_complex(x) for x in constructor_items(node, implied=True))
        if cls == "Level_2_Unary_Expr":
            return self.is_complex(node.items[1])
        if cls in ("Level_2_Expr", "Add_Operand", "Mult_Operand"):
            return self.is_complex(node.items[0]) or self.is_complex(node.items[2])
        return False

    def mentions(self, node):
        """Whether a complex value appears in node (not inside a component reference, whose
        last part is what it designates)."""
        from fparser.two.utils import Base
        if isinstance(node, (list, tuple)):
            return any(self.mentions(c) for c in node)
        if not isinstance(node, Base):
            return False
        if self.is_complex(node):
            return True
        if T.is_component_name(node):
            return False
        if self.function_reference(node):
            # a complex variable (element, array) passed to a function is passed as the
            # structure it is: nothing of it to rewrite (its call is made as any other)
            return any(self.mentions(v) for v in map(argument_value, self.arguments(node))
                       if not (self.designator(v) and self.is_complex(v)))
        return any(self.mentions(c) for c in (getattr(node, "items", None) or ()))

    def function_reference(self, node):
        """Whether node references a function (of the input or external), not an array
        element, an intrinsic or a statement function."""
        return type(node).__name__ in ("Part_Ref", "Function_Reference") and \
            self.scope.called_function(node) is not None

    # ------------------------------------------------------------ statements
    def own_parts(self, node):
        """What of the statement node is its own: a construct's statements (the
        statements inside it are lowered one by one); the whole of any other."""
        content = getattr(node, "content", None)
        if content is None or type(node).__name__ in _WHOLE:
            return [node]
        return [c for c in content if type(c).__name__ in _CONSTRUCT_STMTS]

    def involved(self, node):
        return any(self.mentions(p) for p in self.own_parts(node))

    def statement(self, node, out):
        """node with its complex arithmetic rewritten (a new node), or None when it was
        lowered here (into out)."""
        F = _f2003()
        cls = type(node).__name__
        if isinstance(node, F.Assignment_Stmt):
            self.assignment(node, out)
            return None
        if isinstance(node, F.If_Stmt):
            return self.rebuilt(node, (self.real(node.items[0], out), node.items[1]))
        if isinstance(node, F.Call_Stmt):
            return self.rebuilt(node, (node.items[0], self.actual_arguments(node, out)))
        if cls in ("Print_Stmt", "Write_Stmt", "Stop_Stmt", "Allocate_Stmt",
                   "Deallocate_Stmt"):
            # (output statements are left out of the derivative code; allocations compute
            # no complex value)
            return node
        parts = [p for p in self.own_parts(node) if self.mentions(p)]
        if cls not in _WHOLE and all(type(p).__name__ in _HEADERS for p in parts):
            for k, c in enumerate(node.content):
                if any(c is p for p in parts):
                    # (conditions rewritten in place: with no complex value left, they are
                    # the same however often the procedure is read)
                    node.content[k] = self.header(c, out)
            return node
        raise self.scope.error(parts[0], f"COMPLEX values in this statement "
                                         f"({type(parts[0]).__name__}) are not supported")

    def header(self, stmt, out):
        """A construct's statement (IF, ELSE IF, SELECT CASE, DO WHILE) with its
        expressions rewritten; temporaries they need set in out, but for an ELSE IF or DO
        WHILE test."""
        cls = type(stmt).__name__
        before = []
        if cls in ("Nonlabel_Do_Stmt", "Label_Do_Stmt"):
            control = stmt.items[-1]
            if control is None or control.items[0] is None or \
                    any(self.mentions(x) for x in control.items[1:] if x is not None):
                raise self.scope.error(stmt, "COMPLEX values in a DO statement's bounds are "
                                             "not supported")
            new = self.rebuilt(stmt, stmt.items[:-1] + (self.rebuilt(
                control, (self.real(control.items[0], before),) + control.items[1:]),))
        else:
            new = self.rebuilt(stmt, tuple(self.real(x, before) if not isinstance(x, str)
                                           else x for x in stmt.items))
        if before and cls in _NO_TEMPORARY:
            raise self.scope.error(stmt, f"'{stmt}': the COMPLEX arithmetic of this test "
                                         "needs a temporary, which cannot be set before it "
                                         "here (compute it into a variable first)")
        out.extend(before)
        return new

    def rebuilt(self, node, items):
        import copy
        new = copy.copy(node)
        new.items = items
        return new

    def assignment(self, node, out):
        s = self.scope
        lhs, _, rhs = node.items
        if not self.is_complex(lhs):
            if self.is_complex(rhs):
                value = self.parts(rhs, out)[0]      # a real assigned a complex value
            else:
                value = self.real_text(rhs, out)
            self.lower(f"{lhs} = {value}", node, out)
            return
        re, im = self.parts(rhs, out)
        im = im or "0"
        target = str(lhs)
        if not self.reads_part(self.parse(im), lhs, "re"):
            self.lower(f"{target}%re = {re}", node, out)
            self.lower(f"{target}%im = {im}", node, out)
        elif not self.reads_part(self.parse(re), lhs, "im"):
            # (the imaginary part reads the real parts assigned: it goes first)
            self.lower(f"{target}%im = {im}", node, out)
            self.lower(f"{target}%re = {re}", node, out)
        elif s.shape_of(lhs) is None:
            # each part reads the other: the real part waits in a temporary
            tmp = self.temp("part", _part_type(self.variable_type(lhs)))
            self.lower(f"{tmp} = {re}", node, out)
            self.lower(f"{target}%im = {im}", node, out)
            self.lower(f"{target}%re = {tmp}", node, out)
        else:
            raise s.error(node, f"'{node}': a COMPLEX array assigned a value whose real and "
                                "imaginary parts each read the other's parts of it is not "
                                "supported (assign it through a temporary array)")
        s.allocated_by_assignment(lhs, out, s.loc(node))

    def actual_arguments(self, node, out):
        """The argument list of the call or function reference node, a complex expression
        in it given through a temporary (a variable, element or array as itself)."""
        F = _f2003()
        args = node.items[1]
        if args is None or not self.mentions(args):
            return args
        items = []
        for a in (args.items if type(args).__name__.endswith("List") else (args,)):
            value = a.items[1] if isinstance(a, F.Actual_Arg_Spec) else a
            if self.is_complex(value) and not self.designator(value):
                value = self.parse(self.complex_temp(value, node, out))
            elif not self.is_complex(value):
                value = self.real(value, out)
            items.append(self.rebuilt(a, (a.items[0], value))
                         if isinstance(a, F.Actual_Arg_Spec) else value)
        lst = F.Actual_Arg_Spec_List("x")
        lst.items = tuple(items)
        return lst

    def designator(self, node):
        """Whether node designates a variable (an element, a section, a component)."""
        return self.variable_type(node) is not None

    @staticmethod
    def reads_part(value, target, part):
        """Whether the expression value (its complex parts rewritten) reads a part ('re'
        or 'im') of the variable target is in (`v%re`, `v(j)%re`, `p%z%re` for target
        `p%z(i)`), or the variable whole."""
        from fparser.two.utils import Base
        name = _base_name(target)

        def reads(n):
            if T.is_component_name(n):      # (not what it is made of)
                path = T.component_path(n)
                return path[0] == name and path[-1] == part
            if type(n).__name__ == "Name":
                return str(n).lower() == name
            return any(reads(c) for c in (getattr(n, "items", None) or ())
                       if isinstance(c, Base))
        return reads(value)

    # ------------------------------------------------------------ expressions
    def arguments(self, node):
        args = node.items[1]
        if args is None:
            return []
        items = args.items if type(args).__name__.endswith("List") else (args,)
        return list(items)

    def builder_arguments(self, node):
        """[x, y, kind] of cmplx(x, y, kind) or dcmplx (None for one not given)."""
        return self.scope.match_arguments(str(node.items[0]).lower(), ("x", "y", "kind"),
                                          self.arguments(node), node)

    def parts(self, node, out):
        """(real part, imaginary part) of the complex expression node, as Fortran text
        (the imaginary part None for a real value)."""
        F = _f2003()
        s = self.scope
        cls = type(node).__name__
        if not self.is_complex(node):
            return f"({self.real_text(node, out)})", None
        if cls == "Complex_Literal_Constant":
            return f"({node.items[0]})", f"({node.items[1]})"
        if isinstance(node, F.Array_Constructor):
            pairs = [self.parts(x, out) for x in constructor_items(node)]
            return "[" + ", ".join(p[0] for p in pairs) + "]", \
                "[" + ", ".join(p[1] or "0" for p in pairs) + "]"
        if self.designator(node):
            return f"{node}%re", f"{node}%im"
        if cls == "Parenthesis":
            return _grouped(self.parts(node.items[1], out))
        if cls == "Level_2_Unary_Expr":
            re, im = self.parts(node.items[1], out)
            if node.items[0].strip() == "-":
                return f"(-{re})", None if im is None else f"(-{im})"
            return re, im
        if cls in ("Level_2_Expr", "Add_Operand"):
            op = node.items[1].strip()
            a, b = self.parts(node.items[0], out), self.parts(node.items[2], out)
            if op in "*/":
                # (operands read more than once: long ones computed once, before)
                a, b = self.short(a, node, out), self.short(b, node, out)
            return _grouped(self.arithmetic(op, a, b, node))
        if cls == "Mult_Operand":
            return _grouped(self.power(node, out))
        if isinstance(node, F.Intrinsic_Function_Reference):
            return _grouped(self.intrinsic(node, out))
        if cls in ("Function_Reference", "Part_Ref"):
            tmp = self.complex_temp(node, node, out)
            return f"{tmp}%re", f"{tmp}%im"
        raise s.error(node, f"'{node}': this COMPLEX expression is not supported")

    def short(self, z, origin, out, longest=24):
        """The parts z of a complex value (or a real one), or those of a temporary set to
        it (in out) when they are longer than longest characters."""
        re, im = z
        if len(re) <= longest and (im is None or len(im) <= longest):
            return z
        if im is None:
            tmp = self.temp("part", ir.DOUBLE)
            self.lower(f"{tmp} = {re}", origin, out)
            return tmp, None
        tmp = self.stored(z, origin, out)
        return f"{tmp}%re", f"{tmp}%im"

    @staticmethod
    def arithmetic(op, a, b, node):
        (ar, ai), (br, bi) = a, b
        if op in "+-":
            if bi is None:
                im = ai
            elif ai is None:
                im = bi if op == "+" else f"(-{bi})"
            else:
                im = f"({ai} {op} {bi})"
            return f"{ar} {op} {br}", im
        if op == "*":
            if ai is None:
                return f"{ar} * {br}", f"{ar} * {bi}"
            if bi is None:
                return f"{ar} * {br}", f"{ai} * {br}"
            return f"({ar} * {br} - {ai} * {bi})", f"({ar} * {bi} + {ai} * {br})"
        if op == "/":
            if bi is None:
                return f"{ar} / {br}", f"{ai} / {br}"
            norm = f"({br} ** 2 + {bi} ** 2)"
            if ai is None:
                return f"({ar} * {br}) / {norm}", f"(-{ar} * {bi}) / {norm}"
            return (f"({ar} * {br} + {ai} * {bi}) / {norm}",
                    f"({ai} * {br} - {ar} * {bi}) / {norm}")
        raise AdgenError(f"the operator '{op}' on COMPLEX values is not supported")

    def power(self, node, out):
        """z ** k for an integer constant k from 1 to 4: z multiplied by itself."""
        s = self.scope
        base, _, exponent = node.items
        k = str(exponent).strip()
        if self.is_complex(exponent) or not k.isdigit() or not 1 <= int(k) <= 4:
            raise s.error(node, f"'{node}': a power of a COMPLEX value is supported with an "
                                "integer constant exponent from 1 to 4")
        z = self.short(self.parts(base, out), node, out)
        result = z
        for _ in range(int(k) - 1):
            result = _grouped(self.arithmetic("*", result, z, node))
        return result

    def intrinsic(self, node, out):
        s = self.scope
        name = str(node.items[0]).lower()
        if name in _BUILDERS:
            x, y, _ = self.builder_arguments(node)
            if y is None:
                re, im = self.parts(x, out)
                return re, im or "0"
            if self.is_complex(x) or self.is_complex(y):
                raise s.error(node, f"'{node}': cmplx of COMPLEX values with a second "
                                    "argument")
            return f"({self.real_text(x, out)})", f"({self.real_text(y, out)})"
        args = self.arguments(node)
        if name == "sum":
            if len(args) != 1 or not self.designator(args[0]):
                raise s.error(node, f"'{node}': sum of COMPLEX values is supported for an "
                                    "array (no DIM or MASK)")
            return f"sum({args[0]}%re)", f"sum({args[0]}%im)"
        kind = _COMPLEX_FUNCTIONS.get(name)
        if kind is None or len(args) != 1:
            raise s.error(node, f"'{node}': {name} of a COMPLEX value is not supported")
        z = self.parts(args[0], out)
        if kind != "conjg":
            z = self.short(z, node, out)
        a, b = z[0], z[1] or "0"
        if kind == "conjg":
            return a, f"(-{b})"
        if kind == "exp":
            return f"exp({a}) * cos({b})", f"exp({a}) * sin({b})"
        if kind == "log":
            return f"log(hypot({a}, {b}))", f"atan2({b}, {a})"
        if kind == "sqrt":
            return self.square_root(a, b, node, out)
        if kind == "sin":
            return f"sin({a}) * cosh({b})", f"cos({a}) * sinh({b})"
        return f"cos({a}) * cosh({b})", f"(-sin({a}) * sinh({b}))"

    def square_root(self, a, b, node, out):
        """The principal square root of a + ib, as C's csqrt computes it without
        cancellation: t = sqrt((|z| + |a|) / 2) and u = b / (2t) (0 at z = 0); t + iu for
        a >= 0, |u| + i sign(t, b) for a < 0."""
        t = self.temp("root", ir.DOUBLE)
        u = self.temp("root", ir.DOUBLE)
        self.lower(f"{t} = sqrt(0.5d0 * (hypot({a}, {b}) + abs({a})))", node, out)
        self.lower(f"{u} = merge(0.5d0 * ({b}) / {t}, 0d0, {t} /= 0)", node, out)
        return f"merge({t}, abs({u}), {a} >= 0)", f"merge({u}, sign({t}, {b}), {a} >= 0)"

    def real_text(self, node, out):
        """The Fortran text of the real (or integer, or logical) expression node, its
        complex parts rewritten."""
        F = _f2003()
        s = self.scope
        cls = type(node).__name__
        if not self.mentions(node):
            return str(node)
        if self.is_complex(node):
            raise s.error(node, f"'{node}': a COMPLEX value where a number is needed")
        if isinstance(node, F.Intrinsic_Function_Reference):
            name = str(node.items[0]).lower()
            args = self.arguments(node)
            first = argument_value(args[0]) if args else None
            if first is not None and self.is_complex(first):
                if name in _REAL_PARTS and (len(args) == 1 or name == "real"):
                    re, im = self.parts(first, out)
                    part = re if _REAL_PARTS[name] == "re" else (im or "0")
                    return f"{name if name in ('real', 'dble') and len(args) > 1 else ''}" \
                           f"({part}{', ' + str(args[1]) if len(args) > 1 else ''})"
                if name in _ABS and len(args) == 1:
                    re, im = self.parts(first, out)
                    return f"hypot({re}, {im or '0'})" if im is not None else f"abs({re})"
                raise s.error(node, f"'{node}': {name} of a COMPLEX value is not supported")
        if cls == "Level_4_Expr" and (self.is_complex(node.items[0]) or
                                      self.is_complex(node.items[2])):
            op = node.items[1].strip().lower()
            (ar, ai), (br, bi) = self.parts(node.items[0], out), self.parts(node.items[2], out)
            ai, bi = ai or "0", bi or "0"
            if op in ("==", ".eq."):
                return f"({ar} == {br} .and. {ai} == {bi})"
            if op in ("/=", ".ne."):
                return f"({ar} /= {br} .or. {ai} /= {bi})"
            raise s.error(node, f"'{node}': COMPLEX values compared with {op}")
        items = getattr(node, "items", None)
        if cls == "Parenthesis":
            return f"({self.real_text(node.items[1], out)})"
        if isinstance(items, tuple) and len(items) == 3 and isinstance(items[1], str):
            return f"({self.real_text(items[0], out)}) {items[1].strip()} " \
                   f"({self.real_text(items[2], out)})"
        if isinstance(items, tuple) and len(items) == 2 and isinstance(items[0], str):
            return f"{items[0].strip()} ({self.real_text(items[1], out)})"
        if isinstance(node, F.Intrinsic_Function_Reference):
            args = [f"{a.items[0]}={self.real_text(a.items[1], out)}"
                    if isinstance(a, F.Actual_Arg_Spec) else self.real_text(a, out)
                    for a in self.arguments(node)]
            return f"{node.items[0]}({', '.join(args)})"
        if isinstance(node, F.Part_Ref) or cls == "Function_Reference":
            # a user function's reference (complex arguments passed as a call's are)
            return f"{node.items[0]}({self.actual_arguments(node, out) or ''})"
        raise s.error(node, f"'{node}': COMPLEX values here are not supported")

    def real(self, node, out):
        """The real expression node rewritten (a new node), or node when it holds nothing
        complex."""
        from fparser.two.utils import Base
        if not isinstance(node, Base) or not self.mentions(node):
            return node
        return self.parse(self.real_text(node, out))

    # ------------------------------------------------------------ making nodes
    def parse(self, text):
        F = _f2003()
        node = F.Expr(f"({text})")
        T.replace_data_refs(node)
        return node

    def lower(self, text, origin, out, raw=False):
        """The assignment `text`, at origin's line, lowered into out; raw: as it is (a
        structure assigned a structure), else with its complex arithmetic rewritten."""
        F = _f2003()
        stmt = F.Assignment_Stmt(text)
        T.replace_data_refs(stmt)
        stmt.item = getattr(origin, "item", None)
        if raw:
            self.scope.assignment(stmt.items[0], stmt.items[2], out, self.scope.loc(origin))
        else:
            self.scope.statement(stmt, out)

    def temp(self, base, t):
        """A scalar temporary of type t the rewritten statements name; its name."""
        sym = self.scope.temp(base, t)
        self.scope.vars[sym.name] = FVar(sym.name, t, sym=sym)
        return sym.name

    def stored(self, z, origin, out):
        """A complex(8) temporary set (in out) to the parts z; its name."""
        tmp = self.temp("cplx", ir.Struct(complex_type(self.scope.front, 8).sdef))
        self.lower(f"{tmp}%re = {z[0]}", origin, out)
        self.lower(f"{tmp}%im = {z[1] or '0'}", origin, out)
        return tmp

    def complex_temp(self, value, origin, out):
        """A complex scalar temporary set (in out) to value; its name."""
        s = self.scope
        if s.shape_of(value) is not None:
            raise s.error(origin, f"'{value}': a COMPLEX array expression here is not "
                                  "supported (assign it to an array first)")
        if self.designator(value) or type(value).__name__ not in ("Function_Reference",
                                                                   "Part_Ref"):
            return self.stored(self.parts(value, out), origin, out)
        # a function's result: the structure it returns
        tmp = self.temp("cplx", ir.Struct(complex_type(s.front, 8).sdef))
        args = self.actual_arguments(value, out)
        self.lower(f"{tmp} = {value.items[0]}({args or ''})", origin, out, raw=True)
        return tmp
