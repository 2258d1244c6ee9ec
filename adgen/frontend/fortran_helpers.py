"""The Fortran front end's shared pieces, near the bottom of its imports (it imports no
other module of the front end but fortran_places): the variables of a scope (FVar), what a
procedure may change (Changes), and the small helpers and tables over fparser's parse tree
and the IR that the front end's modules share."""
import copy
from dataclasses import dataclass, field
from typing import Optional

from adgen import ir
from adgen.errors import AdgenError, Loc
from adgen.ir import exprs as X
from adgen.frontend.fortran_places import statement_item


def f2003():
    from fparser.two import Fortran2003
    return Fortran2003


@dataclass(eq=False)
class FVar:
    """A Fortran name in scope."""
    name: str
    type: ir.Type                     # element type
    sym: Optional[ir.Symbol] = None
    dims: Optional[list] = None       # [(lower, extent)] as IR expressions; None: scalar
    by_ref: bool = False              # a dummy argument: the symbol is a pointer
    const: Optional[ir.Expr] = None   # a PARAMETER
    common: Optional[ir.Symbol] = None  # the COMMON block struct it lives in
    assumed_shape: bool = False
    # the hidden bounds callers pass: an assumed-shape dummy's extents, the bounds of a
    # host array in an internal procedure (see Scope.host_variable)
    extent_params: list = field(default_factory=list)
    loc: Optional[Loc] = None
    allocated: Optional[ir.Symbol] = None   # an allocatable array's flag (see allocate)
    # a local allocatable scalar: the flag telling whether it is allocated
    # (Scope.allocatable_scalar)
    scalar_allocated: Optional[ir.Symbol] = None
    alias_of: Optional["FVar"] = None  # an associate name: the variable it is part of
    # gfortran's array descriptor: an allocatable module variable or component of a
    # derived type (fortran_types.resolve_component); desc is the descriptor (an lvalue)
    descriptor: bool = False
    desc: Optional[ir.Expr] = None
    type_code: int = 3                # an allocatable module variable's dtype.type
    pointer: bool = False             # a local POINTER (see Scope.declare_pointer)
    pointer_dummy: bool = False       # a POINTER dummy argument (see Scope.pointer_dummy)
    allocatable_dummy: bool = False   # an allocatable dummy (see Scope.allocatable_dummy)
    host_allocatable: bool = False    # a host's allocatable array in an internal procedure
    # a component reference (fortran_types.resolve_component): the struct it is a member
    # of, and the component
    parent: Optional[ir.Expr] = None
    component: Optional[object] = None
    # `p%w` of a whole array p of structures: subscripts -> the element's component
    # (fortran_types._component_view)
    element_of: Optional[object] = None

    @property
    def rank(self):
        return len(self.dims) if self.dims else 0

    @property
    def allocatable(self):
        """An allocatable array: a local one (its flag), a module variable or component
        (gfortran's descriptor), an allocatable dummy, a host's allocatable array."""
        return bool(self.dims) and not self.pointer_dummy and (
            self.allocated is not None or self.descriptor or self.allocatable_dummy or
            self.host_allocatable)


@dataclass(eq=False)
class Changes:
    """What a procedure may change: the parameters (their positions) it may assign
    through, the module variables and COMMON block members (their storage, see storage_of)
    it may assign, and whether it may change any of those (it calls a procedure that is
    not in the input)."""
    params: set
    globals: set
    all_globals: bool = False


# ------------------------------------------------------------------ the front end

def name_of(node):
    return str(node).lower()


_OLD_COMPARISONS = {".eq.": "==", ".ne.": "/=", ".lt.": "<", ".le.": "<=", ".gt.": ">",
                    ".ge.": ">="}


def operator_key(op):
    """The generic name of a defined operator, `operator(-)`, `operator(.cross.)`, from
    an interface's `OPERATOR (-)` or an expression's operator `-` (.EQ. is ==)."""
    text = str(op).lower().replace(" ", "")
    if text.startswith("operator("):
        text = text[len("operator("):-1]
    return f"operator({_OLD_COMPARISONS.get(text, text)})"


def line_of(node):
    """The first line of node's statement (of its first one, for a construct); 0 if
    unknown."""
    item = statement_item(node)
    return item.span[0] if item is not None else 0


INTRINSIC_MATH = {"sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos",
                   "atan", "sinh", "cosh", "tanh", "erf", "erfc", "gamma", "log_gamma",
                   "asinh", "acosh", "atanh", "dasinh", "dacosh", "datanh"}

# Names a Fortran local may have that its C variable cannot: C's keywords, and the
# library functions the generated code calls (a local would hide them)
C_RESERVED = set("""auto break case char const continue default do double else enum extern
    float for goto if inline int long register restrict return short signed sizeof static
    struct switch typedef union unsigned void volatile while _Bool _Complex _Imaginary
    abs fabs pow sqrt exp log log10 sin cos tan asin acos atan atan2 sinh cosh tanh erf
    erfc tgamma lgamma floor ceil trunc round lround fmod fmin fmax copysign memset memcpy
    memmove memcmp malloc calloc realloc free abort exit printf fprintf size_t""".split())


def c_field_names(names):
    """The C field names of a COMMON block's members: their names, but for one named like a
    C keyword or a library function, which gets a trailing underscore (unique)."""
    out = []
    for n in names:
        c = n
        while c in C_RESERVED or c in out or c != n and c in names:
            c += "_"
        out.append(c)
    return out


def head_stmt(unit):
    """The SUBROUTINE or FUNCTION statement of a subprogram (comments may come first)."""
    F = f2003()
    for c in unit.children:
        if isinstance(c, (F.Subroutine_Stmt, F.Function_Stmt)):
            return c
    return unit.children[0]


# Fortran's relational and logical operators in C
C_OPERATORS = {".LT.": "<", ".LE.": "<=", ".GT.": ">", ".GE.": ">=", ".EQ.": "==",
                ".NE.": "!=", "/=": "!=", ".AND.": "&&", ".OR.": "||", ".EQV.": "==",
                ".NEQV.": "!="}


def call_arguments(node):
    """The actual arguments of a CALL statement or a procedure reference ([] for none)."""
    return node.items[1].items if node.items[1] is not None else []


def char_literal(node):
    """The characters of a CHARACTER literal ('it''s' is it's)."""
    text = node.items[0]
    quote = text[0]
    return text[1:-1].replace(quote + quote, quote)


def intent_out(attrs):
    """Whether a type declaration's attributes (or None) hold INTENT(OUT)."""
    return attrs is not None and any(str(a).upper().replace(" ", "") == "INTENT(OUT)"
                                     for a in attrs.items)


def result_name_of(stmt):
    """The name of the result variable of a FUNCTION statement."""
    F = f2003()
    names = walk_type(stmt.items[3], F.Name) if stmt.items[3] is not None else []
    return name_of(names[-1]) if names else name_of(stmt.items[1])


def returns_array(unit):
    """Whether a function (or an interface body of one) returns an array."""
    F = f2003()
    if not isinstance(unit, (F.Function_Subprogram, F.Function_Body)):
        return False
    spec = next((c for c in unit.children if isinstance(c, F.Specification_Part)), None)
    return spec is not None and _declares_array(spec, result_name_of(head_stmt(unit)))


def _declares_array(spec, name):
    """Whether the specification part declares `name` an array."""
    F = f2003()
    for part in spec.children:
        if isinstance(part, F.Interface_Block):
            continue
        for decl in walk_type(part, F.Type_Declaration_Stmt):
            for ent in decl.items[2].items:
                if name_of(ent.items[0]) == name and (ent.items[1] is not None or (
                        decl.items[1] is not None and any(
                            isinstance(a, F.Dimension_Attr_Spec) for a in decl.items[1].items))):
                    return True
        for dim in walk_type(part, F.Dimension_Stmt):
            if any(name_of(n) == name for n, _ in dim.items[0]):
                return True
        for st in walk_type(part, F.Allocatable_Stmt):     # `allocatable :: r(:)`
            if any(not isinstance(item, F.Name) and name_of(item.items[0]) == name
                   for item in st.items[1].items):
                return True
    return False


def dummy_names(stmt):
    """The dummy argument names of a SUBROUTINE or FUNCTION statement."""
    return [name_of(a) for a in (stmt.items[2].items if stmt.items[2] is not None else [])]


def walk_type(node, cls):
    from fparser.two.utils import walk
    return [n for n in walk(node) if isinstance(n, cls)]


def function_references(node):
    """The names referenced with a parenthesized list that holds no `lo:hi` (an element
    of an array, or a call of a function), outside component references (`a%f(1)`)."""
    F = f2003()
    names = set()

    def look(n):
        if isinstance(n, F.Data_Ref):
            visit_nodes(n.items[0], look)
            return False
        if isinstance(n, F.Part_Ref) and isinstance(n.items[0], F.Name) and \
                not walk_type(n.items[1], F.Subscript_Triplet):
            names.add(name_of(n.items[0]))
        return True
    visit_nodes(node, look)
    return names


# What fparser makes of a function reference, besides a Part_Ref, when it does not know
# the name to be a function's
CALL_NODES = ("Function_Reference", "Structure_Constructor")
# the reductions that take a DIM and give an array of the other dimensions
ALONG = ("sum", "product", "maxval", "minval", "norm2")


def label_of(node):
    """The statement label of a statement or construct (that of its first statement)."""
    F = f2003()
    if type(node).__name__.endswith("_Construct"):
        node = next((c for c in node.children if not isinstance(c, F.Comment)), None)
    item = getattr(node, "item", None)
    return getattr(item, "label", None)


DESCRIPTOR_DIM = ir.Struct(ir.StructDef("adgen_gfc_dim", [
    ("stride", ir.LONG), ("lower_bound", ir.LONG), ("ubound", ir.LONG)]))


INQUIRY = ("size", "shape", "lbound", "ubound")     # of an array's bounds, not values
# specific names of intrinsics, by the generic each one is: the standard's and gfortran's
# (the double-complex ones LINPACK and the BLAS use throughout, which fparser reads as
# references to arrays or to external functions)
SPECIFIC_NAMES = {"dexp": "exp", "dsqrt": "sqrt", "dabs": "abs", "iabs": "abs",
                  "dlog": "log", "alog": "log", "dlog10": "log10", "alog10": "log10",
                  "dsin": "sin", "dcos": "cos", "dtan": "tan", "dasin": "asin",
                  "dacos": "acos", "datan": "atan", "datan2": "atan2", "dsinh": "sinh",
                  "dcosh": "cosh", "dtanh": "tanh", "dfloat": "dble", "dreal": "dble",
                  "dimag": "aimag", "dconjg": "conjg", "cdabs": "abs", "zabs": "abs",
                  "cdexp": "exp", "zexp": "exp", "cdlog": "log", "zlog": "log",
                  "cdsqrt": "sqrt", "zsqrt": "sqrt", "cdsin": "sin", "zsin": "sin",
                  "cdcos": "cos", "zcos": "cos", "dcmplx": "cmplx",
                  # GNU's names of the Bessel functions
                  **{f"{p}bes{k}{n}": f"bessel_{k}{n}" for p in ("", "d") for k in "jy"
                     for n in ("0", "1", "n")}}
# of an array's values: a scalar
REDUCTIONS = ("sum", "product", "maxval", "minval", "dot_product", "count", "any", "all",
               "norm2", "maxloc", "minloc")


# The intrinsics whose value is a CHARACTER string
STRING_INTRINSICS = ("trim", "adjustl", "adjustr", "repeat", "char", "achar", "new_line")


# ------------------------------------------------------------------ helpers

def ir_int(v):
    return ir.Const(str(v), ir.INT)


def const_int(e):
    if isinstance(e, ir.Const) and e.text.lstrip("-").isdigit():
        return int(e.text)
    if isinstance(e, ir.Unary) and e.op == "-":
        v = const_int(e.arg)
        return -v if v is not None else None
    return None


def malloc(ptr_type, count, loc):
    """(T *)malloc((size_t)count * sizeof(T)) for ptr_type T *."""
    nbytes = ir.Binary("*", ir.Cast(ir.SIZE_T, count), ir.SizeOf(ptr_type.target), ir.SIZE_T)
    return ir.Cast(ptr_type, ir.Call("malloc", [nbytes], ir.Ptr(ir.VOID), loc))


def descriptor_field(desc, part, k=None, which=None):
    """A field of gfortran's array descriptor desc: `offset`, `dim[k].stride`,
    `dtype.rank`."""
    sdef = desc.type.resolved().sdef
    e = ir.Member(X.clone(desc), part, False, sdef.field_type(part))
    if part == "dim":
        e = ir.Index(e, ir_int(k), DESCRIPTOR_DIM)
        return ir.Member(e, which, False, ir.LONG)
    if which is not None:
        inner = e.type.resolved().sdef
        return ir.Member(e, which, False, inner.field_type(which))
    return e


def free_call(sym, loc):
    """free(sym);"""
    return ir.ExprStmt(ir.Call("free", [ir.Ref(sym, loc)], ir.VOID, loc), loc)


def increment(sym, loc=None):
    """sym = sym + 1, sym an int variable."""
    return ir.Assign(ir.Ref(sym), ir.Binary("+", ir.Ref(sym), ir_int(1), ir.INT), loc)


def c_char(ch):
    """A C character constant."""
    return "'\\''" if ch == "'" else "'\\\\'" if ch == "\\" else f"'{ch}'" \
        if " " <= ch <= "~" else f"'\\x{ord(ch):02x}'"


def implied_values(implied):
    """The value items of an implied-do list of an array constructor."""
    values = implied.items[0]
    return values.items if type(values).__name__ == "Ac_Value_List" else [values]


def is_pack(node):
    return isinstance(node, f2003().Intrinsic_Function_Reference) and \
        name_of(node.items[0]) == "pack"


def at_least_zero(e):
    """e, or 0 where e is below 0 (an extent, a trip count)."""
    c = const_int(e)
    if c is not None:
        return ir_int(max(c, 0))
    return ir.Cond(ir.Binary(">", e, ir_int(0), ir.INT), X.clone(e), ir_int(0), ir.INT)


def triplet_count(lo, hi, st):
    """Number of elements of lo:hi:st."""
    s = const_int(st)
    span = X.sub(X.clone(hi), X.clone(lo))
    if s == 1:
        return X.add(span, ir_int(1))
    return ir.Binary("/", X.add(span, X.clone(st)), X.clone(st), ir.INT)


def temp_size(extents, dependency, loc):
    """The size of a temporary array from [(extent, whole extent)] per dimension: the
    whole extent where dependency(extent) (see Scope.size_dependency) is not None."""
    size = None
    for e, whole in extents:
        changed = dependency(e)
        if changed:
            if whole is None or reads_variables(whole):
                raise AdgenError(f"this array expression needs a temporary array whose size "
                                 f"depends on '{changed}', which the procedure sets or "
                                 "calls; write its bounds with dummy arguments, size(...) or "
                                 "constants", loc)
            e = X.clone(whole)
        size = e if size is None else X.mul(size, e)
    return c_array_length(size)


def c_array_length(size):
    """The length of the C array of a Fortran array of `size` elements: at least 1 (an
    empty section or automatic array would give a C array of no or negative length, which
    gcc reports on paths where it sees one)."""
    n = constant_int(size)
    if n is not None:
        return ir_int(max(n, 1))
    if size is not None:
        size = ir.Call("adgen_imax", [size, ir_int(1)], ir.LONG)
    return size


def constant_int(e):
    """The value of integer expression e when it is a constant expression (of literals and
    PARAMETERs: `n*2-1`, `1 - -1 + 1`, `max(n, 2)`), as the compiler folds it; else None."""
    if e is None or e.type is None or not e.type.resolved().is_int:
        return None
    v = X.int_value(X.fold(e))
    return v if v is not None else X.constant_value(e)


def reads_variables(e):
    """The name of a local variable e reads (one the procedure sets), or None."""
    return next((r.sym.name for r in ir.walk(e)
                 if isinstance(r, ir.Ref) and r.sym.kind in ("local", "temp")), None)


def to_int(e):
    if e.type.resolved().is_int:
        return e
    return ir.Cast(ir.INT, e)


def convert_to(e, t):
    et, tt = e.type.resolved(), t.resolved()
    if isinstance(tt, ir.Prim) and isinstance(et, ir.Prim) and et.name != tt.name and \
            not tt.is_void:
        if isinstance(e, ir.Const) and tt.is_float and et.is_int:
            text = e.text.rstrip("fFlL")
            if "." not in text and "e" not in text.lower():
                text += ".0"
            if tt.name == "float":
                text += "f"
            return ir.Const(text, ir.Prim(tt.name), e.loc)
        return ir.Cast(ir.Prim(tt.name), e, e.loc)
    return e


def replace_nodes(node, replacements):
    """A copy of node with its descendants whose id is a key of replacements put in their
    place; the nodes on the way to them are copied (shallow), the others shared."""
    from fparser.two.utils import Base
    if id(node) in replacements:
        return replacements[id(node)]
    items = getattr(node, "items", None)
    if not isinstance(items, tuple):
        return node
    new = tuple(replace_nodes(c, replacements) if isinstance(c, Base) else c for c in items)
    if all(a is b for a, b in zip(new, items)):
        return node
    out = copy.copy(node)
    out.items = new
    return out


def constructor_items(node, implied=False):
    """The values of an array constructor `(/ a, b /)` or `[a, b]`; with implied, its
    implied-do lists too, as they are (else they are refused)."""
    F = f2003()
    if isinstance(node, F.Array_Constructor):
        inner = node.items[1]
        items = inner.items if type(inner).__name__.endswith("List") else [inner]
        out = []
        for it in items:
            if isinstance(it, F.Ac_Implied_Do) and not implied:
                raise AdgenError("implied-do in a PARAMETER array is not supported")
            out.append(it)
        return out
    return [node]


def storage_of(e):
    """The variable an lvalue, or the address of one, lives in: its symbol, or (COMMON
    block, member); None for other expressions."""
    if common_member(e):
        return (e.base.sym, e.field)
    if isinstance(e, ir.Member):
        return storage_of(e.base)         # a component: the variable of the whole structure
    if isinstance(e, ir.Ref):
        return e.sym
    if isinstance(e, (ir.Deref, ir.Index)) and alias_target(e.children()[0]) is not None:
        return alias_target(e.children()[0])
    if isinstance(e, (ir.Deref, ir.Index, ir.AddrOf)):
        return storage_of(e.children()[0])
    return None


def common_member(e):
    """Whether e is a member of a COMMON block (each is a variable of its own)."""
    return isinstance(e, ir.Member) and isinstance(e.base, ir.Ref) and \
        getattr(e.base.sym, "fortran_common", False)


def alias_target(e):
    """The storage an associate name's pointer points into, when e reads that pointer."""
    return getattr(e.sym, "alias_storage", None) if isinstance(e, ir.Ref) else None


def is_global_storage(storage):
    """A module variable, a member of a COMMON block or a SAVEd local (not a constant
    table)."""
    sym = storage[0] if isinstance(storage, tuple) else storage
    return isinstance(sym, ir.Symbol) and sym.kind == "global" and \
        (not sym.is_static or getattr(sym, "fortran_saved", False))


def storage_label(storage):
    """The Fortran name of the variable of a storage (see storage_of)."""
    if isinstance(storage, tuple):
        return storage[1]
    return getattr(storage, "fortran_name", storage.name)


def storage_name(e):
    """A name for temporaries holding the value of e: its variable's or its callee's."""
    storage = storage_of(e)
    if storage is not None:
        return storage_label(storage)
    return e.func if isinstance(e, ir.Call) else "value"


def substitute(e, mapping):
    """A copy of e with each reference to a symbol in mapping replaced by a copy of its
    value, located where the reference is."""
    if isinstance(e, ir.Ref) and e.sym in mapping:
        value = X.clone(mapping[e.sym])
        value.loc = e.loc
        return value
    return X.map_children(e, lambda sub: substitute(sub, mapping))


def keyword_of(arg):
    """The keyword of an actual argument `name = value` (lower case), or None."""
    if type(arg).__name__ in ("Actual_Arg_Spec", "Component_Spec") and \
            arg.items[0] is not None:
        return name_of(arg.items[0])
    return None


def argument_value(arg):
    """The value of an actual argument, without its keyword."""
    if type(arg).__name__ in ("Actual_Arg_Spec", "Component_Spec"):
        return arg.items[1]
    return arg


def base_name_of(node):
    F = f2003()
    if isinstance(node, F.Name):
        return name_of(node)
    if isinstance(node, F.Part_Ref):
        return name_of(node.items[0])
    return None


def constant_size(v):
    """The number of elements of array variable v when its bounds are all constants;
    None otherwise."""
    size = 1
    for lo, ext in v.dims:
        lower, extent = constant_int(lo), constant_int(ext)
        if lower is None or extent is None:
            return None
        size *= max(extent, 0)
    return size


def rewrite_in_place(node, replacement, enter=None):
    """Replace, in the parse tree under node (its items and its constructs' contents),
    each node n for which replacement(n) gives a node by that node; innermost first, so
    that a replacement is made of replaced parts (enter: see _rewritten)."""
    items = getattr(node, "items", None)
    if isinstance(items, tuple):
        new = _rewritten(items, replacement, enter)
        if any(a is not b for a, b in zip(new, items)):
            node.items = new
    content = getattr(node, "content", None)
    if isinstance(content, list):
        content[:] = [_rewritten(c, replacement, enter) for c in content]


def _rewritten(node, replacement, enter=None):
    """node (or a list or tuple of nodes, as in a DO loop's control) rewritten; enter(n)
    is called on each node n before what it holds is rewritten."""
    from fparser.two.utils import Base
    if isinstance(node, (list, tuple)):
        return type(node)(_rewritten(c, replacement, enter) for c in node)
    if not isinstance(node, Base):
        return node
    if enter is not None:
        enter(node)
    rewrite_in_place(node, replacement, enter)
    new = replacement(node)
    return node if new is None else new


def copied_tree(node):
    """A copy of the parse tree node, every node in it new but its comments; the reader's
    lines (`item`s) shared (fparser's deepcopy cannot copy either)."""
    from fparser.two.utils import Base
    F = f2003()
    if isinstance(node, (list, tuple)):
        return type(node)(copied_tree(c) for c in node)
    if not isinstance(node, Base) or isinstance(node, F.Comment):
        return node
    # (copy.copy fails on a node made without a text of its own, `string`: one that
    # replace_data_refs or a rewrite built)
    new = object.__new__(type(node))
    new.__dict__.update(node.__dict__)
    items = getattr(node, "items", None)
    if isinstance(items, tuple):
        new.items = copied_tree(items)
    content = getattr(node, "content", None)
    if isinstance(content, list):
        new.content = copied_tree(content)
    return new


def walk_nodes(node):
    """node and the parse-tree nodes inside it, depth first."""
    found = []
    visit_nodes(node, lambda n: found.append(n) or True)
    return found


def visit_nodes(node, look):
    """look(n) for each parse-tree node n in node (a node, or a list or tuple of them),
    depth first; the nodes inside n are visited when it returns True."""
    from fparser.two.utils import Base
    if isinstance(node, (list, tuple)):
        for c in node:
            visit_nodes(c, look)
    elif isinstance(node, Base) and look(node):
        visit_nodes(node.children, look)


def array_inquiry(node):
    """shape(a), lbound(a) or ubound(a): an array of one element per dimension of a."""
    F = f2003()
    return isinstance(node, F.Intrinsic_Function_Reference) and \
        name_of(node.items[0]) in ("shape", "lbound", "ubound") and \
        len(node.items[1].items) == 1
