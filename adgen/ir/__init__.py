"""The language-neutral intermediate representation.

Both front ends (C, Fortran) lower their input to this IR; the analyses read it and the
transforms rewrite it; the C back end prints it. It is deliberately C-shaped (pointers,
flat indexing, structured loops) because C is the only output language: Fortran arrays
are lowered to flat column-major indexing and by-reference arguments to pointers.

Expressions carry their type and source location; statements carry the location of the
source line they come from, which the back end prints as a comment.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List, Optional

from adgen.errors import AdgenError, Loc

# ---------------------------------------------------------------------------- types

FLOAT_NAMES = ("double", "float", "long double")
INT_NAMES = ("int", "long", "long long", "short", "char", "signed char", "unsigned char",
             "unsigned", "unsigned int", "unsigned long", "unsigned long long",
             "unsigned short", "_Bool", "size_t", "ptrdiff_t")


class Type:
    const = False

    def resolved(self) -> "Type":
        return self

    @property
    def is_float(self):
        return False

    @property
    def is_int(self):
        return False

    @property
    def is_pointer(self):
        return False

    @property
    def is_array(self):
        return False

    @property
    def is_struct(self):
        return False

    @property
    def is_void(self):
        return False


@dataclass(frozen=True, eq=True)
class Prim(Type):
    """A basic type: double, float, int, long, char, void, ..."""
    name: str
    const: bool = False

    @property
    def is_float(self):
        return self.name in FLOAT_NAMES

    @property
    def is_int(self):
        return self.name not in FLOAT_NAMES and self.name != "void"

    @property
    def is_void(self):
        return self.name == "void"


@dataclass(frozen=True, eq=True)
class Ptr(Type):
    target: Type
    const: bool = False        # the pointer itself is const (`double *const p`)

    @property
    def is_pointer(self):
        return True


@dataclass(frozen=True, eq=False)
class Arr(Type):
    elem: Type
    size: Optional["Expr"]     # None for `T a[]`
    const: bool = False

    @property
    def is_array(self):
        return True


@dataclass(eq=False)
class StructDef:
    """The fields of a struct or union; shared by every type that names it."""
    tag: Optional[str]
    fields: List[tuple]        # [(name, Type)]
    is_union: bool = False
    loc: Optional[Loc] = None
    descriptor_rank: Optional[int] = None   # gfortran's array descriptor of this rank

    def field_type(self, name):
        for fname, ftype in self.fields:
            if fname == name:
                return ftype
        return None


@dataclass(frozen=True, eq=False)
class Struct(Type):
    sdef: StructDef
    const: bool = False

    @property
    def is_struct(self):
        return True


@dataclass(frozen=True, eq=False)
class Named(Type):
    """A typedef name, kept so the output reads like the input (`Wishart w`)."""
    name: str
    target: Type
    const: bool = False

    def resolved(self):
        return self.target.resolved()

    is_float = property(lambda self: self.target.is_float)
    is_int = property(lambda self: self.target.is_int)
    is_pointer = property(lambda self: self.target.is_pointer)
    is_array = property(lambda self: self.target.is_array)
    is_struct = property(lambda self: self.target.is_struct)
    is_void = property(lambda self: self.target.is_void)


@dataclass(frozen=True, eq=False)
class FuncPtr(Type):
    """A function type or pointer to one, with its return type. Only parameters may have
    it: calls that pass a known function are specialized (transform/callbacks.py)."""
    text: str = ""
    ret: Optional["Type"] = None


DOUBLE = Prim("double")
FLOAT = Prim("float")
INT = Prim("int")
LONG = Prim("long")
VOID = Prim("void")
SIZE_T = Prim("size_t")


def with_const(t: Type, const: bool) -> Type:
    """The same type with its top-level const qualifier set to `const`."""
    if t.const == const:
        return t
    if isinstance(t, Prim):
        return Prim(t.name, const)
    if isinstance(t, Ptr):
        return Ptr(t.target, const)
    if isinstance(t, Named):
        return Named(t.name, t.target, const)
    if isinstance(t, Struct):
        return Struct(t.sdef, const)
    if isinstance(t, Arr):
        return Arr(t.elem, t.size, const)
    return t


def pointee(t: Type) -> Optional[Type]:
    """What a pointer or array type refers to."""
    r = t.resolved()
    if isinstance(r, Ptr):
        return r.target
    if isinstance(r, Arr):
        return r.elem
    return None


def array_element(t: Type) -> Type:
    """The (resolved) type of the elements of array type t, through arrays of arrays;
    t itself, resolved, when it is not an array."""
    r = t.resolved()
    while isinstance(r, Arr):
        r = r.elem.resolved()
    return r


def holds_pointers(t: Type) -> bool:
    """True when a value of struct type t carries a pointer (in a field, an array field, a
    nested struct)."""
    def carries(ft):
        r = ft.resolved()
        while r.is_array:
            r = r.elem.resolved()
        return r.is_pointer or (r.is_struct and holds_pointers(r))

    return any(carries(ft) for _, ft in t.resolved().sdef.fields)


def base_float(t: Type) -> bool:
    """True when t is a float type or an array/pointer chain ending in one."""
    r = t.resolved()
    while isinstance(r, (Ptr, Arr)):
        r = (r.target if isinstance(r, Ptr) else r.elem).resolved()
    return r.is_float


def arith_result(a: Type, b: Type) -> Type:
    """C's usual arithmetic conversions, reduced to what matters for differentiation."""
    ra, rb = a.resolved(), b.resolved()
    names = {getattr(ra, "name", None), getattr(rb, "name", None)}
    if "long double" in names:
        return Prim("long double")
    if "double" in names:
        return DOUBLE
    if "float" in names:
        return FLOAT
    if "unsigned long" in names or "size_t" in names:
        return Prim("unsigned long")
    if "long" in names or "long long" in names:
        return LONG
    return INT


# ----------------------------------------------------------------------- symbols


@dataclass(eq=False)
class Symbol:
    """A variable: local, parameter or global. Identity matters, names may change."""
    name: str
    type: Type
    kind: str                  # 'local' | 'param' | 'global' | 'temp'
    loc: Optional[Loc] = None
    is_static: bool = False    # file-scope `static`
    is_extern: bool = False
    init: Optional["Expr"] = None   # globals: their initializer (for static copies)
    init_text: Optional[str] = None

    def __repr__(self):
        return f"<{self.kind} {self.name}>"


def source_name(sym: Symbol) -> str:
    """The name the input gives a variable or a function (a Fortran dummy named like a C
    keyword has another C name; a C file's static renamed after its file, `s_model`, is
    `s`)."""
    return getattr(sym, "fortran_name", None) or getattr(sym, "written_name", sym.name)


# what the derivative routines of a function f are called: f_b, f_d, f_dv, f_fwd, f_bwd
DERIVATIVE_SUFFIXES = ("b", "d", "dv", "bv", "fwd", "bwd")


def static_local_name(func_name: str, name: str) -> str:
    """The file-scope name of a function's static (SAVEd) local: `f_count`; `f_b_local`
    for one named like a derivative routine's suffix, which `f_b` would be."""
    return f"{func_name}_{name}" + ("_local" if name in DERIVATIVE_SUFFIXES else "")


def params_by_source_name(func) -> dict:
    """A function's parameters by the names the input and the user give them."""
    return {source_name(p): p for p in func.params}


# ------------------------------------------------------------------- expressions


class Expr:
    type: Type = None
    loc: Optional[Loc] = None

    def children(self):
        return ()


@dataclass(eq=False)
class Const(Expr):
    text: str                  # as C source text: '1.0', '3', '2.5f', 'INFINITY'
    type: Type = DOUBLE
    loc: Optional[Loc] = None
    value: Optional[int] = None    # an enumerator's value (its text is its name)


@dataclass(eq=False)
class Ref(Expr):
    sym: Symbol
    loc: Optional[Loc] = None

    @property
    def type(self):
        return self.sym.type


@dataclass(eq=False)
class Index(Expr):
    base: Expr
    index: Expr
    type: Type = None
    loc: Optional[Loc] = None

    def children(self):
        return (self.base, self.index)


@dataclass(eq=False)
class Member(Expr):
    base: Expr
    field: str
    arrow: bool
    type: Type = None
    loc: Optional[Loc] = None

    def children(self):
        return (self.base,)


@dataclass(eq=False)
class Deref(Expr):
    ptr: Expr
    type: Type = None
    loc: Optional[Loc] = None

    def children(self):
        return (self.ptr,)


@dataclass(eq=False)
class AddrOf(Expr):
    arg: Expr
    type: Type = None
    loc: Optional[Loc] = None

    def children(self):
        return (self.arg,)


@dataclass(eq=False)
class Unary(Expr):
    op: str                    # '-', '+', '!', '~'
    arg: Expr
    type: Type = None
    loc: Optional[Loc] = None

    def children(self):
        return (self.arg,)


@dataclass(eq=False)
class Binary(Expr):
    op: str
    left: Expr
    right: Expr
    type: Type = None
    loc: Optional[Loc] = None

    def children(self):
        return (self.left, self.right)


@dataclass(eq=False)
class Call(Expr):
    func: str
    args: List[Expr]
    type: Type = None
    loc: Optional[Loc] = None

    def children(self):
        return tuple(self.args)


@dataclass(eq=False)
class Cast(Expr):
    to: Type
    arg: Expr
    loc: Optional[Loc] = None

    @property
    def type(self):
        return self.to

    def children(self):
        return (self.arg,)


@dataclass(eq=False)
class Cond(Expr):
    test: Expr
    then: Expr
    other: Expr
    type: Type = None
    loc: Optional[Loc] = None

    def children(self):
        return (self.test, self.then, self.other)


@dataclass(eq=False)
class SizeOf(Expr):
    of: object                 # a Type or an Expr
    type: Type = SIZE_T
    loc: Optional[Loc] = None


@dataclass(eq=False)
class InitList(Expr):
    items: List[Expr]
    type: Type = None
    loc: Optional[Loc] = None

    def children(self):
        return tuple(self.items)


COMPARISONS = ("<", ">", "<=", ">=", "==", "!=")
LOGICAL = ("&&", "||")


def walk(e: Expr):
    """Every sub-expression of e, e first, then each child's in order (depth first).
    An explicit stack: nested generators would cost a frame per level for each node."""
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        kids = x.children()
        if kids:
            stack.extend(reversed(kids))


def is_lvalue(e: Expr) -> bool:
    return isinstance(e, (Ref, Index, Member, Deref))


def lvalues(e: Expr):
    """Every lvalue sub-expression of e (the memory it reads or writes), outermost first."""
    return [sub for sub in walk(e) if is_lvalue(sub)]


def addressed_only(e: Expr):
    """The ids of the lvalue sub-expressions of e that only have their address taken, not
    their value read: x[i] of `&x[i]` (i is read), a[i] and a[i][j] of `&a[i][j]` for an
    array of arrays, s.f and s of `&s.f`, *p of `&*p` (p is read)."""
    out = set()

    def mark(lv):
        out.add(id(lv))
        inner = lv.base if isinstance(lv, (Index, Member)) else None
        if isinstance(lv, Member) and lv.arrow:
            inner = None            # p->f reads the pointer p
        if inner is not None and is_lvalue(inner) and not isinstance(inner, Ref) and \
                inner.type is not None and (isinstance(lv, Member) or
                                            isinstance(inner.type.resolved(), Arr)):
            mark(inner)

    for sub in walk(e):
        if isinstance(sub, AddrOf) and is_lvalue(sub.arg) and not isinstance(sub.arg, Ref):
            mark(sub.arg)
    return out


# -------------------------------------------------------------------- statements


class Stmt:
    loc: Optional[Loc] = None


@dataclass(eq=False)
class Assign(Stmt):
    lhs: Expr
    rhs: Expr
    loc: Optional[Loc] = None
    # the OpenMP directive that makes this update exclusive among threads (`omp atomic`,
    # `omp critical(name)`), printed before it; only on `x = x op e` (ir/openmp.py)
    exclusive: Optional[str] = None


@dataclass(eq=False)
class ExprStmt(Stmt):
    expr: Expr                 # a call kept for its effect
    loc: Optional[Loc] = None


@dataclass(eq=False)
class Block(Stmt):
    stmts: List[Stmt] = field(default_factory=list)
    loc: Optional[Loc] = None


@dataclass(eq=False)
class If(Stmt):
    test: Expr
    then: Block
    other: Optional[Block] = None
    loc: Optional[Loc] = None


@dataclass(eq=False)
class For(Stmt):
    """`for (init; test; step) body` with init and step as statement lists."""
    init: List[Stmt]
    test: Optional[Expr]
    step: List[Stmt]
    body: Block
    loc: Optional[Loc] = None


@dataclass(eq=False)
class While(Stmt):
    test: Expr
    body: Block
    loc: Optional[Loc] = None


@dataclass(eq=False)
class DoWhile(Stmt):
    body: Block
    test: Expr
    loc: Optional[Loc] = None


@dataclass(eq=False)
class Break(Stmt):
    loc: Optional[Loc] = None


@dataclass(eq=False)
class Continue(Stmt):
    loc: Optional[Loc] = None


@dataclass(eq=False)
class Return(Stmt):
    value: Optional[Expr] = None
    loc: Optional[Loc] = None


@dataclass(eq=False)
class Pragma(Stmt):
    text: str
    loc: Optional[Loc] = None


@dataclass(eq=False)
class CheckpointPragma(Pragma):
    """The directive from a front end that has lowered the snapshot count itself (Fortran's
    `!$AD BINOMIAL-CKP`): its names need not be spelled as C in the function's scope."""
    snaps: Optional[Expr] = None


# Statements the transforms add (never produced by a front end).

@dataclass(eq=False)
class Push(Stmt):
    """Save the value of an lvalue (or of an int expression) on the stack."""
    value: Expr
    loc: Optional[Loc] = None


@dataclass(eq=False)
class Pop(Stmt):
    """Restore the value of an lvalue from the stack. With `keep`, the value it replaces
    (the final value of memory the caller sees) is logged, to be put back at the end."""
    target: Expr
    loc: Optional[Loc] = None
    keep: bool = False


@dataclass(eq=False)
class Comment(Stmt):
    text: str
    loc: Optional[Loc] = None


@dataclass(eq=False)
class Raw(Stmt):
    """A statement given as a template name and its arguments (back-end specific)."""
    template: str
    args: dict
    loc: Optional[Loc] = None


# ----------------------------------------------------------------- program units


@dataclass(eq=False)
class Function:
    name: str
    ret: Type
    params: List[Symbol]
    body: Block
    locals: List[Symbol] = field(default_factory=list)
    is_static: bool = False
    is_inline: bool = False
    loc: Optional[Loc] = None
    has_body: bool = True
    variadic: bool = False

    def __repr__(self):
        return f"<function {self.name}>"


@dataclass(eq=False)
class Program:
    functions: dict            # name -> Function (definitions and prototypes)
    globals: List[Symbol]
    type_text: List[str]       # user type definitions, as C text, in source order
    std_headers: List[str]     # standard headers the input included
    pragmas: List[Pragma] = field(default_factory=list)
    language: str = "c"


COMPOUND = (Block, If, For, While, DoWhile)      # statements holding lists of statements


def stmts_walk(stmts, skip=frozenset()):
    """Every statement in a list, nested ones included, parents first; a statement whose
    id is in skip is left out with everything in it. A stack of the lists being walked:
    nested generators would pass each statement up through one frame per level."""
    stack = [iter(stmts)]
    while stack:
        for s in stack[-1]:
            if id(s) in skip:
                continue
            yield s
            if isinstance(s, COMPOUND):
                # (read when the walk goes on: the caller may have changed s meanwhile)
                stack.append(statements_inside(s))
            break
        else:
            stack.pop()


def statements_inside(s):
    """The statements of the lists directly inside a compound statement s (see stmts_walk),
    in order: a for's init, step, body."""
    if isinstance(s, For):
        yield from s.init
        yield from s.step
    for stmts in nested_lists(s):
        yield from stmts


def nested_lists(s: Stmt):
    """The statement lists directly inside a statement."""
    if isinstance(s, Block):
        return [s.stmts]
    if isinstance(s, If):
        return [s.then.stmts] + ([s.other.stmts] if s.other is not None else [])
    if isinstance(s, (For, While, DoWhile)):
        return [s.body.stmts]
    return []


def lvalue_chain(e: Expr):
    """e and the expressions it is reached through: x[i].f, x[i], x for x[i].f."""
    while True:
        yield e
        if isinstance(e, (Index, Member)):
            e = e.base
        elif isinstance(e, Deref):
            e = e.ptr
        elif isinstance(e, Cast):
            e = e.arg
        else:
            return


def root_symbol(e: Expr):
    """The variable an lvalue is part of or reached through (x for x[i], *x, (T *)x->f)."""
    *_, last = lvalue_chain(e)
    return last.sym if isinstance(last, Ref) else None


def storage_symbol(e: Expr):
    """The variable whose own storage an lvalue names, through fields and elements of
    arrays but no pointer (x for x.f[i], a[i][j]); None otherwise."""
    while isinstance(e, (Member, Index)):
        if isinstance(e, Member) and e.arrow or \
                isinstance(e, Index) and not e.base.type.resolved().is_array:
            return None
        e = e.base
    return e.sym if isinstance(e, Ref) else None


def statement_call(s: Stmt):
    """The call a statement makes itself (`f(...);`, `v = f(...);`), or None."""
    call = s.expr if isinstance(s, ExprStmt) else s.rhs if isinstance(s, Assign) else None
    return call if isinstance(call, Call) else None


def stmt_exprs(s: Stmt):
    """The expressions a statement itself evaluates (not those of nested statements)."""
    if isinstance(s, Assign):
        return [s.lhs, s.rhs]
    if isinstance(s, ExprStmt):
        return [s.expr]
    if isinstance(s, (If, While, DoWhile)):
        return [s.test]
    if isinstance(s, For):
        return [s.test] if s.test is not None else []
    if isinstance(s, Return):
        return [s.value] if s.value is not None else []
    if isinstance(s, (Push,)):
        return [s.value]
    if isinstance(s, Pop):
        return [s.target]
    return []


def program_names(prog):
    """The names at the program's file scope: its functions, globals and the type names
    it defines (a typedef such as f2c's `logical`): names a generated local must not take,
    as it would hide them."""
    return set(prog.functions) | {g.name for g in prog.globals} | \
        set(getattr(prog, "type_names", ()))


def free_static_local_names(prog):
    """Renames each static (SAVEd) local of a function, which the output stores at file
    scope as `f_name` (static_local_name), whose name another name of the program takes: a
    function, a global, a parameter or local of any function. `buf` of `step` beside a
    global `step_buf` is `step_buf_2`, the first of `_2`, `_3`, ... that nothing else
    uses; in the order of the globals, so the same on every run."""
    moved = [g for g in prog.globals if getattr(g, "static_local", False) or
             getattr(g, "fortran_saved", False)]
    if not moved:
        return
    ids = {id(g) for g in moved}
    taken = set(prog.functions) | set(getattr(prog, "type_names", ())) | \
        {g.name for g in prog.globals if id(g) not in ids} | \
        {s.name for f in prog.functions.values() for s in list(f.params) + list(f.locals)
         if s is not None and id(s) not in ids}
    for g in moved:
        name, k = g.name, 2
        while name in taken:
            name, k = f"{g.name}_{k}", k + 1
        if name != g.name:
            local = getattr(g, "local_name", None) or getattr(g, "saved_as", (g.name,))[0]
            for other in prog.globals:
                if other.init_text and re.search(rf"\b{re.escape(g.name)}\b", other.init_text):
                    raise AdgenError(f"the static local '{local}' is stored as "
                                     f"'{g.name}', a name the program also uses, and the "
                                     f"initializer of '{other.name}' names it: rename one "
                                     "of them", other.loc)
            g.name = name
        taken.add(name)
