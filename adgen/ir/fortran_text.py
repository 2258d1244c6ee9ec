"""Fortran text of IR expressions, for what adgen says about Fortran input (--explain,
--stack-report, its messages): the names the program gives, dummies without the pointer
the C calling convention adds, array elements with the program's subscripts and bounds
(`unew(i)`, `h(i, k - 1)`), `mod`, `max`, `**`, `.and.`. Generated code is always C
(ir/c_text.py)."""
from adgen import ir
from adgen.ir.c_text import expr_c
from adgen.ir.exprs import clone

_PREC = {".or.": 2, ".and.": 3, "==": 5, "/=": 5, "<": 5, ">": 5, "<=": 5, ">=": 5,
         "+": 6, "-": 6, "*": 7, "/": 7}
_UNARY, _POWER, _PRIMARY = 6, 8, 10
_OPS = {"&&": ".and.", "||": ".or.", "!=": "/="}
_CALLS = {"fabs": "abs", "fmax": "max", "fmin": "min", "adgen_imax": "max", "fmod": "mod",
          "labs": "abs", "copysign": "sign", "log10": "log10", "trunc": "aint",
          "round": "anint", "lround": "nint"}


def subscripted(index, name, subscripts):
    """Marks an array element the Fortran front end made (flat, column-major) with the
    subscripts the program wrote, for expr_fortran; they are shown only while the flat
    index is still (as a sum of products) the one they make."""
    index.fortran_element = (name, list(subscripts), clone(index.index))
    return index


def _sum_of_products(e, sign=1, out=None):
    """An integer expression as {product of factors (their C text, sorted): coefficient},
    terms of other operators standing as factors."""
    out = {} if out is None else out
    if isinstance(e, ir.Binary) and e.op in "+-":
        _sum_of_products(e.left, sign, out)
        return _sum_of_products(e.right, sign if e.op == "+" else -sign, out)
    if isinstance(e, ir.Unary) and e.op == "-":
        return _sum_of_products(e.arg, -sign, out)
    coefficient, factors, todo = sign, [], [e]
    while todo:
        f = todo.pop()
        if isinstance(f, ir.Binary) and f.op == "*":
            todo += [f.left, f.right]
        elif isinstance(f, ir.Const) and f.text.isdigit():
            coefficient *= int(f.text)
        elif isinstance(f, ir.Binary) and f.op in "+-":
            inner = _sum_of_products(f)
            if len(inner) != 1:
                factors.append(expr_c(f))
            else:
                (key, c), = inner.items()
                coefficient *= c
                factors += list(key)
        elif isinstance(f, ir.Ref) and hasattr(f.sym, "entry_value"):
            # a bound's value on entry, which the front end writes as that value later
            factors.append(expr_c(f.sym.entry_value))
        else:
            factors.append(expr_c(f))
    key = tuple(sorted(factors))
    out[key] = out.get(key, 0) + coefficient
    return {k: c for k, c in out.items() if c != 0}


def source_text(language):
    """The text of an expression as the input's language writes it (expr_fortran or
    expr_c): for what adgen says about a program (--explain, --stack-report)."""
    return expr_fortran if language == "fortran" else expr_c


def expr_fortran(e, prec=0) -> str:
    """Fortran text of an expression; parenthesised only where Fortran's precedence needs
    it."""
    text, own = _expr(e)
    return f"({text})" if own < prec else text


def _expr(e):
    if isinstance(e, ir.Const):
        return e.text.rstrip("fFlL") if e.type is not None and e.type.resolved().is_float \
            else e.text, _PRIMARY
    if isinstance(e, ir.Ref):
        return ir.source_name(e.sym), _PRIMARY
    if isinstance(e, ir.Deref):
        # a dummy argument or a pointer: the variable it is
        return _expr(e.ptr)
    if isinstance(e, ir.AddrOf):
        return _expr(e.arg)
    if isinstance(e, ir.Index):
        marked = getattr(e, "fortran_element", None)
        if marked is not None and _sum_of_products(marked[2]) == _sum_of_products(e.index):
            name, subs, _ = marked
            return f"{name}({', '.join(expr_fortran(s) for s in subs)})", _PRIMARY
        return f"{expr_fortran(e.base, _PRIMARY)}[{expr_fortran(e.index)}]", _PRIMARY
    if isinstance(e, ir.Member):
        return f"{expr_fortran(e.base, _PRIMARY)}%{e.field}", _PRIMARY
    if isinstance(e, ir.Unary):
        if e.op == "!":
            return f".not. {expr_fortran(e.arg, 4)}", 4
        return f"{e.op}{expr_fortran(e.arg, _UNARY + 1)}", _UNARY
    if isinstance(e, ir.Binary):
        if e.op == "%":
            return f"mod({expr_fortran(e.left)}, {expr_fortran(e.right)})", _PRIMARY
        op = _OPS.get(e.op, e.op)
        p = _PREC.get(op, 1)
        # left-associative: the right operand of - and / needs parentheses at equal rank
        right = p + 1 if op in ("-", "/", "+", "*") else p
        return f"{expr_fortran(e.left, p)} {op} {expr_fortran(e.right, right)}", p
    if isinstance(e, ir.Call):
        args = [expr_fortran(a) for a in e.args]
        if e.func in ("pow", "powf", "powl") and len(e.args) == 2:
            return f"{expr_fortran(e.args[0], _POWER + 1)}**{expr_fortran(e.args[1], _POWER)}", \
                _POWER
        return f"{_CALLS.get(e.func, e.func)}({', '.join(args)})", _PRIMARY
    if isinstance(e, ir.Cast):
        t = e.to.resolved()
        if isinstance(t, ir.Prim) and t.is_int:
            return f"int({expr_fortran(e.arg)})", _PRIMARY
        if isinstance(t, ir.Prim) and t.is_float:
            kind = "4" if t.name == "float" else "8"
            return f"real({expr_fortran(e.arg)}, {kind})", _PRIMARY
        return _expr(e.arg)
    if isinstance(e, ir.Cond):
        return f"merge({expr_fortran(e.then)}, {expr_fortran(e.other)}, " \
            f"{expr_fortran(e.test)})", _PRIMARY
    return expr_c(e), _PRIMARY
