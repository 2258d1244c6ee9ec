"""C text of IR expressions and types: an operator-precedence printer, the inverse of the
parser. The back end prints with it, and every stage that names an expression in a message
or compares two by how they are written uses it too."""
from adgen import ir

_PREC = {"||": 4, "&&": 5, "|": 6, "^": 7, "&": 8, "==": 9, "!=": 9, "<": 10, ">": 10,
         "<=": 10, ">=": 10, "<<": 11, ">>": 11, "+": 12, "-": 12, "*": 13, "/": 13, "%": 13}
_UNARY, _POSTFIX = 15, 16


def c_string(text):
    """A C string literal of text."""
    out = []
    for ch in text:
        if ch in '\\"':
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.extend(f"\\{b:03o}" for b in ch.encode())
    return '"' + "".join(out) + '"'


def type_name(t: ir.Type) -> str:
    """The C spelling of a type with no declarator (`const double *`)."""
    return declare(t, "").strip()


def declare(t: ir.Type, name: str) -> str:
    """A C declaration of `name` with type t (`double *xb`, `double a[3]`)."""
    const = "const " if t.const else ""
    if isinstance(t, ir.Ptr):
        inner = "*" + ("const " if t.const else "") + name
        return declare(t.target, inner)
    if isinstance(t, ir.Arr):
        inner = f"({name})" if name.startswith("*") else name
        size = expr_c(t.size) if t.size is not None else ""
        return declare(t.elem, f"{inner}[{size}]")
    if isinstance(t, ir.Named):
        base = t.name
    elif isinstance(t, ir.Struct):
        kind = "union" if t.sdef.is_union else "struct"
        base = f"{kind} {t.sdef.tag}"
    elif isinstance(t, ir.Prim):
        base = t.name
    else:
        base = "void"
    return f"{const}{base} {name}".rstrip()


def struct_definition(sdef: ir.StructDef) -> str:
    """The one-line C definition of a struct (`struct tag { double x; int n; };`)."""
    body = " ".join(declare(t, n) + ";" for n, t in sdef.fields)
    return f"struct {sdef.tag} {{ {body} }};"


def expr_c(e, prec=0) -> str:
    """C text of an expression; parenthesised only where C's precedence needs it."""
    text, own = _expr(e)
    return f"({text})" if own < prec else text


_CLARIFY = {"||": ("&&",), "|": ("&", "^", "+", "-", "==", "!=", "<", ">", "<=", ">="),
            "^": ("&", "+", "-", "==", "!=", "<", ">", "<=", ">="),
            "&": ("+", "-", "==", "!=", "<", ">", "<=", ">="),
            "<<": ("+", "-"), ">>": ("+", "-"),
            "==": ("==", "!=", "<", ">", "<=", ">="), "!=": ("==", "!=", "<", ">", "<=", ">=")}


def _op(e):
    return e.op if isinstance(e, ir.Binary) else None


def _expr(e):
    if isinstance(e, ir.Const):
        if e.text.startswith("-"):
            return e.text, _UNARY
        return e.text, 20
    if isinstance(e, ir.Ref):
        return e.sym.name, 20
    if isinstance(e, ir.Index):
        return f"{expr_c(e.base, _POSTFIX)}[{expr_c(e.index)}]", _POSTFIX
    if isinstance(e, ir.Member):
        if not e.arrow and isinstance(e.base, ir.Deref):
            return f"{expr_c(e.base.ptr, _POSTFIX)}->{e.field}", _POSTFIX
        op = "->" if e.arrow else "."
        return f"{expr_c(e.base, _POSTFIX)}{op}{e.field}", _POSTFIX
    if isinstance(e, ir.Deref):
        return f"*{expr_c(e.ptr, _UNARY)}", _UNARY
    if isinstance(e, ir.AddrOf):
        if isinstance(e.arg, ir.Deref):
            return _expr(e.arg.ptr)
        return f"&{expr_c(e.arg, _UNARY)}", _UNARY
    if isinstance(e, ir.Unary):
        inner = expr_c(e.arg, _UNARY)
        if e.op in "-+" and inner.startswith(e.op):
            inner = f"({inner})"
        return f"{e.op}{inner}", _UNARY
    if isinstance(e, ir.Binary):
        p = _PREC[e.op]
        # gcc's -Wparentheses wants these spelled out even where precedence decides
        clarify = _CLARIFY.get(e.op, ())
        left = expr_c(e.left, 20 if _op(e.left) in clarify else p)
        # left-associative: a right operand of equal precedence needs parentheses
        right = expr_c(e.right, 20 if _op(e.right) in clarify else p + 1)
        return f"{left} {e.op} {right}", p
    if isinstance(e, ir.Call):
        return f"{e.func}({', '.join(expr_c(a, 2) for a in e.args)})", _POSTFIX
    if isinstance(e, ir.Cast):
        return f"({type_name(e.to)}){expr_c(e.arg, _UNARY)}", _UNARY
    if isinstance(e, ir.Cond):
        return (f"{expr_c(e.test, 4)} ? {expr_c(e.then, 3)} : {expr_c(e.other, 3)}", 3)
    if isinstance(e, ir.SizeOf):
        if isinstance(e.of, ir.Type):
            return f"sizeof({type_name(e.of)})", _UNARY
        return f"sizeof({expr_c(e.of)})", _UNARY
    if isinstance(e, ir.InitList):
        return "{" + ", ".join(expr_c(x, 2) for x in e.items) + "}", 20
    raise TypeError(f"cannot print {type(e).__name__}")


# sizeof of the C types on x86-64 (LP64), for the sizes adgen reports and decides by
LP64_SIZES = {"sizeof(double)": 8, "sizeof(float)": 4, "sizeof(long double)": 16,
              "sizeof(int)": 4, "sizeof(long)": 8, "sizeof(short)": 2, "sizeof(char)": 1,
              "sizeof(unsigned char)": 1,
              "sizeof(size_t)": 8, "sizeof(void *)": 8, "sizeof(unsigned int)": 4,
              "sizeof(long long)": 8, "sizeof(unsigned long)": 8}
