"""Run-time dispatch of the Fortran front end: a local polymorphic variable that its
ALLOCATE statements or pointer assignments give one type or another as the program runs
(`if (stiff) then; allocate(stiff_t :: s); else; allocate(spring_t :: s); end if`).

It becomes one variable for each of those types and an integer telling which one holds the
object (its dynamic type); each statement that uses it becomes an IF construct on that
integer, whose branch for each type runs the statement on that type's variable, as Fortran
dispatches on the dynamic type. Inside a branch, the variable has one type, which the
procedure's lowering follows as for any object (bindings, SELECT TYPE, the copies of the
procedures given it: FFront.exact_copy). The derivative code takes the branch the primal
took."""
from dataclasses import dataclass, field

from adgen import ir
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_helpers import copied_tree, f2003, name_of, walk_nodes


# the statements that open, divide and close constructs
_CONSTRUCT_STATEMENTS = frozenset((
    "If_Then_Stmt", "Else_If_Stmt", "Else_Stmt", "End_If_Stmt", "Nonlabel_Do_Stmt",
    "Label_Do_Stmt", "End_Do_Stmt", "Select_Case_Stmt", "Case_Stmt", "End_Select_Stmt",
    "Block_Stmt", "End_Block_Stmt", "Associate_Stmt", "End_Associate_Stmt",
    "Select_Type_Stmt", "Type_Guard_Stmt", "End_Select_Type_Stmt", "Where_Construct_Stmt",
    "Elsewhere_Stmt", "Masked_Elsewhere_Stmt", "End_Where_Stmt", "Forall_Construct_Stmt",
    "End_Forall_Stmt"))


@dataclass(eq=False)
class Dispatch:
    """A polymorphic variable given several types: the name of its integer (0 before an
    ALLOCATE or pointer assignment gives it a type, else k + 1 for types[k]), and for each
    type, the variable holding an object of it."""
    tag: str
    types: list                         # [DerivedType]
    variables: list                     # [name], one for each type
    given: dict = field(default_factory=dict)   # id(statement) -> the type it gives


def declare_dispatched(scope, name, given, node, allocatable, module_level):
    """Declare the variables standing for the polymorphic local `name`, which the
    statements `given` ([(statement, DerivedType)]) give several types: one of each type
    (an allocatable scalar or a POINTER, as `name` is) and its integer (see Dispatch)."""
    types = []
    for _, dt in given:
        if dt not in types:
            types.append(dt)
    d = Dispatch(_fresh(scope, f"{name}_type"), types, [],
                 {id(st): dt for st, dt in given})
    for dt in types:
        if dt.allocatable_paths():
            raise scope.error(node, f"the polymorphic variable '{name}' is given the type "
                                    f"'{dt.name}', which has allocatable components: not "
                                    "supported where it may be given several types")
        hidden = _fresh(scope, f"{name}_{dt.name}")
        scope.class_names.add(hidden)
        t = ir.Struct(dt.sdef)
        if allocatable:
            scope.allocatable_scalar(hidden, t, node, module_level, None)
        else:
            scope.declare_pointer(hidden, t, None, node, module_level)
        if dt.default_initialized() and scope.vars[hidden] not in scope.initialized_structs:
            scope.initialized_structs.append(scope.vars[hidden])
        d.variables.append(hidden)
    scope.declare(d.tag, ir.INT, None, node)
    scope.dispatched[name] = d


def _fresh(scope, base):
    """A name for a variable of the output that names nothing of the source."""
    name = base
    while name in scope.source_names or name in scope.vars:
        name += "_"
    scope.source_names.add(name)
    return name


def dispatch_statements(scope, stmts):
    """Rewrite, in place, the statements of the list stmts (and of the constructs in it)
    that use the polymorphic variables of scope.dispatched (see the module's docstring):
    an ALLOCATE or a pointer assignment that gives one a type is made on the variable of
    that type, then sets its integer; another statement using one becomes an IF construct
    on the integer, with a copy of the statement for each type. A construct that gives
    one a type has its statements rewritten, its own statements (IF, DO, ...) may not use
    it."""
    out = []
    for st in stmts:
        used = _dispatched_names(scope, st)
        if not used:
            out.append(st)
            continue
        gives = [n for n in used if id(st) in scope.dispatched[n].given]
        if gives:
            d = scope.dispatched[gives[0]]
            dt = d.given[id(st)]
            k = d.types.index(dt)
            if _label(st) is not None:
                raise scope.error(st, "a labelled statement that gives a polymorphic "
                                      "variable its type is not supported")
            st = T.renamed_variable(st, gives[0], d.variables[k])
            out += _wrapped(scope, st, [n for n in used if n != gives[0]])
            out.append(_statement(f2003().Assignment_Stmt, f"{d.tag} = {k + 1}", st))
            continue
        if _is_construct(st) and any(id(s) in d.given for d in scope.dispatched.values()
                                     for s in walk_nodes(st)):
            for c in st.content:
                if not _is_action(c) and _dispatched_names(scope, c):
                    raise scope.error(c, f"'{c}' uses the polymorphic variable "
                                         f"'{sorted(_dispatched_names(scope, c))[0]}' in a "
                                         "construct that gives it one of several types: not "
                                         "supported (give it its type outside)")
            _rewrite_bodies(scope, st)
            out.append(st)
            continue
        out += _wrapped(scope, st, sorted(used))
    stmts[:] = out


def _is_construct(st):
    return isinstance(getattr(st, "content", None), list) and \
        type(st).__name__.endswith("_Construct")


def _is_action(c):
    """Whether c, a node inside a construct, is one of its body (a statement, a nested
    construct, a comment; not the construct's own statements: IF THEN, ELSE, END DO,
    CASE, ...)."""
    return type(c).__name__ not in _CONSTRUCT_STATEMENTS


def _rewrite_bodies(scope, st):
    """dispatch_statements on each run of body statements of construct st."""
    content, run, out = st.content, [], []
    for c in content + [None]:
        if c is not None and _is_action(c):
            run.append(c)
            continue
        dispatch_statements(scope, run)
        out += run
        run = []
        if c is not None:
            out.append(c)
    content[:] = out


def _wrapped(scope, st, names):
    """[st] when it uses none of the polymorphic variables names, else an IF construct
    on the first one's integer, whose branch for each of its types runs a copy of st
    using that type's variable (the others in turn: nested IF constructs). The last
    type's branch is the ELSE: it also runs before the variable is given a type, where
    only allocated() or associated() may look at it (false for each)."""
    if not names:
        return [st]
    F = f2003()
    if _label(st) is not None:
        raise scope.error(st, f"the labelled statement '{st}' uses the polymorphic "
                              f"variable '{names[0]}', which may be of several types: not "
                              "supported (remove the label)")
    d = scope.dispatched[names[0]]
    content = []
    last = len(d.types) - 1
    for k, hidden in enumerate(d.variables):
        branch = T.renamed_variable(copied_tree(st), names[0], hidden)
        if k == 0:
            content.append(_statement(F.If_Then_Stmt, f"if ({d.tag} == {k + 1}) then", st))
        elif k < last:
            content.append(_statement(F.Else_If_Stmt, f"else if ({d.tag} == {k + 1}) then",
                                      st))
        else:
            content.append(_statement(F.Else_Stmt, "else", st))
        content += _wrapped(scope, branch, names[1:])
    content.append(_statement(F.End_If_Stmt, "end if", st))
    construct = object.__new__(F.If_Construct)
    construct.content = content
    construct.item = None
    construct.parent = None
    return [construct]


def _statement(cls, text, at):
    """The statement of class cls read from text, at the line of statement at."""
    node = cls(text)
    node.item = getattr(at, "item", None)
    return node


def _label(st):
    return getattr(getattr(st, "item", None), "label", None)


def _dispatched_names(scope, node):
    """The polymorphic variables of scope.dispatched that node names."""
    F = f2003()
    found = set()
    for n in walk_nodes(node):
        if T.is_component_name(n):
            n = n.parts[0] if isinstance(n.parts[0], F.Name) else n.parts[0].items[0]
        if isinstance(n, F.Name) and name_of(n) in scope.dispatched:
            found.add(name_of(n))
    return found
