"""Fortran derived types: their definitions as C structs, and component references.

A derived type is a C struct with gfortran's layout: the components in order, an array
component as a flat column-major C array of its constant size, a component of another
derived type as that type's struct; an extended type (`type, extends(point) :: point3`)
first holds its parent component, a struct of the parent type, whose components the
references reach by their own names too (`q%x` is `q%point%x`). Variables of the type
are variables of the struct, a dummy argument a pointer to one; the derivative of a
variable has the same type.

A component reference (`s%u(i)`, `ps(k)%in%w`) reaches the front end as one name: after
parsing, each of fparser's Data_Ref nodes is replaced by a ComponentName (`s%u`) or a part
reference to one (`s%u(i)`), so that the code handling variables and their sections handles
components too. Scope.lookup resolves such a name to a variable standing for the component
(resolve_component): its type and shape are the component's, and its storage is the member
of the struct that the parts before it designate, evaluated where the reference is.
"""
from dataclasses import dataclass, field
from typing import Optional

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.frontend.fortran_helpers import (FVar, c_char, c_field_names, char_literal,
                                            constructor_items, convert_to, copied_tree,
                                            ir_int, triplet_count)

# key of a component name -> the parts of the reference (see ComponentName)
_PARTS = {}
# the keys of the component names `p%f(k)` whose last part's subscripts select in the
# component of each structure (see subscripted_view)
_SUBSCRIPTED = set()


@dataclass(eq=False)
class Component:
    name: str
    field: str                      # its C field name
    type: ir.Type                   # the element type (a struct for a derived type)
    dims: Optional[list] = None     # [(lower, extent)], constants; None for a scalar
    # an ALLOCATABLE component: its rank, and its storage, gfortran's array descriptor
    # (FFront.descriptor_type) inline in the struct
    rank: int = 0
    descriptor: Optional[ir.Type] = None
    type_code: int = 3              # gfortran's BT_INTEGER 1, BT_LOGICAL 2, BT_REAL 3
    char_len: Optional[int] = None  # a CHARACTER component: its length
    # its default initialization (`real(8) :: dt = 0.1d0`): constants, one per element of
    # the component (a CHARACTER one's characters, blank-padded), or one for them all
    init: Optional[list] = None

    @property
    def allocatable(self):
        return self.descriptor is not None


@dataclass(eq=False)
class Binding:
    """A type-bound procedure, `procedure :: energy => rod_energy`: the procedure it
    names, and the dummy argument the object is passed to (pass_arg None: NOPASS; "":
    the first). A DEFERRED binding of an abstract type has no procedure (None)."""
    procedure: Optional[str]
    pass_arg: Optional[str] = ""


@dataclass(eq=False)
class DerivedType:
    name: str
    sdef: ir.StructDef
    components: dict = field(default_factory=dict)    # name -> Component
    module: Optional[str] = None    # the module defining it (None: a procedure)
    bindings: dict = field(default_factory=dict)      # binding name -> Binding
    # `type, extends(point) :: point3`: the parent component (named as EXTENDS names the
    # parent type), the first of its components, as gfortran lays the type out
    parent: Optional[Component] = None

    def component_chain(self, name):
        """The components reaching the component `name` from a structure of the type:
        [it] for one of its own (the parent component too), [the parent component, ...,
        it] for one inherited from an ancestor type; None when the type has none of
        that name."""
        comp = self.components.get(name)
        if comp is not None:
            return [comp]
        if self.parent is not None:
            inherited = derived_type_of(self.parent.type).component_chain(name)
            if inherited is not None:
                return [self.parent] + inherited
        return None

    def constructor_order(self, first=None):
        """The names of the components a structure constructor's values given by
        position are for: the parent type's (in its order), then its own. first: the
        DerivedType of the value given first, when a structure; one of the parent type,
        or of an ancestor type, is that parent component whole (as gfortran reads
        `point3(p, 1d0)`)."""
        own = [c.name for c in self.components.values() if c is not self.parent]
        if self.parent is None:
            return own
        parent_dt = derived_type_of(self.parent.type)
        if first is parent_dt:
            return [self.parent.name] + own
        return parent_dt.constructor_order(first) + own

    def parent_names(self, ancestor):
        """The names of the parent components from a structure of the type to its part
        of the type ancestor (`['point3', 'point']` from a point4 to its point)."""
        names, dt = [], self
        while dt is not ancestor:
            names.append(dt.parent.name)
            dt = derived_type_of(dt.parent.type)
        return names

    def ancestors(self):
        """The types the type extends, its parent first."""
        out = []
        dt = self
        while dt.parent is not None:
            dt = derived_type_of(dt.parent.type)
            out.append(dt)
        return out

    def default_initialized(self):
        """Whether Fortran initializes the variables of the type: a component has a
        default value, or is of a type that has one."""
        for c in self.components.values():
            inner = derived_type_of(c.type)
            if c.init is not None or inner is not None and inner.default_initialized():
                return True
        return False

    def allocatable_paths(self):
        """The allocatable components of the type, also those of its components of a
        derived type (each a list of Components, the outermost first)."""
        out = []
        for c in self.components.values():
            if c.allocatable:
                out.append([c])
                continue
            inner = derived_type_of(c.type)
            if inner is not None:
                out += [[c] + p for p in inner.allocatable_paths()]
        return out


def _f2003():
    from fparser.two import Fortran2003
    return Fortran2003


def _lname(node):
    return str(node).lower()


def _part_name(part):
    """The name of one part of a component reference (`u` of `u(i)`)."""
    F = _f2003()
    return _lname(part if isinstance(part, F.Name) else part.items[0])


def _name_class():
    """A Name of fparser that stands for a component reference: its text is the key of
    the reference (`s%u`, `ps(k)%in%w`); the nodes walked inside it are the base
    variable's name and the subscripts of the parts before the last, so that the passes
    looking for the variables a statement uses find them (not the component names)."""
    F = _f2003()

    class ComponentName(F.Name):
        @classmethod
        def make(cls, key, parts, item):
            # (fparser's constructor parses a string; this node is made from parts)
            self = object.__new__(cls)
            self.string = key
            self.items = (key,)
            self.parts = parts
            self.item = item
            self.parent = None
            base = parts[0]
            inner = [base if isinstance(base, F.Name) else base.items[0]]
            for p in parts[:-1]:
                if isinstance(p, F.Part_Ref):
                    inner.extend(p.items[1].items)
            self.content = inner
            return self

    return ComponentName


_COMPONENT_NAME = None


def component_name_class():
    global _COMPONENT_NAME
    if _COMPONENT_NAME is None:
        _COMPONENT_NAME = _name_class()
    return _COMPONENT_NAME


def is_component_name(node):
    return _COMPONENT_NAME is not None and isinstance(node, _COMPONENT_NAME)


def component_path(node, scope=None):
    """The names of the parts of a component reference, subscripts left out
    (`p(i)%x` -> ['p', 'x']); with the scope, also those of the parent components it
    passes through (`q%x` -> ['q', 'point', 'x'], see through_parents)."""
    parts = node.parts
    if scope is not None:
        v = _base_variable(scope, _part_name(parts[0]))
        if v is not None:
            parts = through_parents(v.type, parts)
    return [_part_name(p) for p in parts]


def replace_data_refs(tree):
    """Replace each Data_Ref of the parse tree (a component reference) by a ComponentName,
    or a Part_Ref of one when the last part has subscripts."""
    from fparser.two.utils import Base
    F = _f2003()

    def convert(node):
        return component_reference(list(node.items), getattr(node, "item", None))

    def visit(node):
        items = getattr(node, "items", None)
        if isinstance(items, tuple):
            new = tuple(convert_tree(c) for c in items)
            if any(a is not b for a, b in zip(new, items)):
                node.items = new
        content = getattr(node, "content", None)
        if isinstance(content, list):
            for k, c in enumerate(content):
                content[k] = convert_tree(c)

    def convert_tree(node):
        if not isinstance(node, Base):
            if isinstance(node, (list, tuple)):
                return type(node)(convert_tree(c) for c in node)
            return node
        if type(node).__name__ == "Proc_Component_Ref" and isinstance(node.items[2], F.Name):
            # what fparser makes of `t%u` among a structure constructor's values (there
            # are no procedure components: the definitions refuse them)
            base = node.items[0]
            ref = object.__new__(F.Data_Ref)
            ref.items = tuple((list(base.items) if type(base).__name__ == "Data_Ref"
                               else [base]) + [node.items[2]])
            ref.item = getattr(node, "item", None)
            ref.parent = None
            node = ref
        visit(node)
        if type(node).__name__ == "Data_Ref":
            return convert(node)
        return node

    convert_tree(tree)


def _component_name(parts, item):
    """The ComponentName of parts (see component_reference)."""
    key = "%".join(str(p).lower().replace(" ", "") for p in parts[:-1]) + "%" + \
        _part_name(parts[-1])
    _PARTS[key] = parts
    return component_name_class().make(key, parts, item)


def renamed_variable(node, old, new):
    """node with each reference to the variable `old` made one to `new`, in place where
    the nodes allow it: names, also the base of component references and subscripts, not
    keywords, component names nor binding names (a SELECT TYPE's associate name read as
    its selector, Scope.selected_block)."""
    from fparser.two.utils import Base
    F = _f2003()
    if isinstance(node, (list, tuple)):
        return type(node)(renamed_variable(c, old, new) for c in node)
    if not isinstance(node, Base):
        return node
    if is_component_name(node):
        # (the parts copied: copies of a tree share them, copied_tree)
        parts = [renamed_variable(copied_tree(node.parts[0]), old, new)] + [
            p if isinstance(p, F.Name) else _with_items(copied_tree(p), (
                p.items[0], renamed_variable(copied_tree(p.items[1]), old, new)))
            for p in node.parts[1:]]
        return _component_name(parts, getattr(node, "item", None))
    if isinstance(node, F.Name):
        return F.Name(new) if _lname(node) == old else node
    items = getattr(node, "items", None)
    if isinstance(items, tuple):
        keep = 1 if type(node).__name__ in ("Actual_Arg_Spec", "Component_Spec") else 0
        new_items = items[:keep] + renamed_variable(items[keep:], old, new)
        if type(node).__name__ == "Procedure_Designator":
            new_items = (new_items[0],) + items[1:]
        if any(a is not b for a, b in zip(new_items, items)):
            node.items = new_items
    content = getattr(node, "content", None)
    if isinstance(content, list):
        content[:] = renamed_variable(content, old, new)
    return node


def _with_items(node, items):
    node.items = items
    return node


def component_reference(parts, item=None):
    """The node standing for the component reference made of parts (`p(i)`, `in`, `w`
    for `p(i)%in%w`): a ComponentName, or a Part_Ref of one when the last part has
    subscripts. item: the source line's reader item."""
    F = _f2003()
    last = parts[-1]
    name = _component_name(parts, item)
    if isinstance(last, F.Name):
        return name
    ref = object.__new__(F.Part_Ref)
    ref.items = (name, last.items[1])
    ref.item = item
    ref.parent = None
    return ref


def derived_type_def(scope, node, module_level):
    """The DerivedType of a TYPE ... END TYPE definition, its struct defined in the output
    (tag `module_name`, or `procedure_name`)."""
    stmt = node.children[0]
    name = _lname(stmt.items[1])
    prefix = scope.module.name if module_level else scope.func.name
    known = scope.front.derived_types.get(f"{prefix}_{name}")
    if known is not None:
        return known            # (a procedure's declarations are read more than once)
    if stmt.items[2] is not None:
        raise scope.error(node, f"parameterized derived type '{name}' is not supported")
    comps = []
    parent = _parent_component(scope, node, name)
    if parent is not None:
        comps.append(parent)
    bindings = {}
    for part in node.children[1:]:
        cls = type(part).__name__
        if cls in ("Sequence_Stmt", "Private_Components_Stmt", "Private_Or_Sequence",
                   "End_Type_Stmt", "Comment"):
            continue
        if cls == "Type_Bound_Procedure_Part":
            bindings.update(_bindings(scope, part, name))
            continue
        if cls != "Component_Part":
            raise scope.error(part, f"'{part}' in the definition of '{name}' is not supported")
        for cdef in part.children:
            if type(cdef).__name__ == "Comment":
                continue
            if type(cdef).__name__ != "Data_Component_Def_Stmt":
                raise scope.error(cdef, f"'{cdef}' in the definition of '{name}' is not "
                                        "supported (procedure components)")
            comps += _components(scope, cdef, name)
    fields = c_field_names([c.name for c in comps])
    for c, f in zip(comps, fields):
        c.field = f
    sdef = ir.StructDef(f"{prefix}_{name}", [(c.field, _storage_type(c)) for c in comps],
                        loc=scope.loc(node))
    scope.front.define_struct(sdef)
    dt = DerivedType(name, sdef, {c.name: c for c in comps},
                     scope.module.name if module_level else None, bindings, parent)
    sdef.fortran_type = dt
    scope.front.derived_types[sdef.tag] = dt
    return dt


def _parent_component(scope, node, name):
    """The parent component of a type defined `type, extends(point) :: point3` (None
    without EXTENDS): a component of the parent type named as EXTENDS names it, which
    gfortran lays out first, the type's own components after it."""
    F = _f2003()
    stmt = node.children[0]
    parent = None
    for a in (stmt.items[0].items if stmt.items[0] is not None else ()):
        word = str(a.items[0]).upper() if isinstance(a, F.Type_Attr_Spec) else ""
        if word == "EXTENDS":
            parent = _lname(a.items[1])
    if parent is None:
        return None
    dt = scope.types.get(parent) or (scope.host.types.get(parent)
                                     if getattr(scope, "host", None) else None)
    if dt is None:
        raise scope.error(node, f"'{name}' extends '{parent}', which is not a derived type "
                                "defined here")
    return Component(parent, parent, ir.Struct(dt.sdef))


def _bindings(scope, part, type_name):
    """{binding name: Binding} of the type-bound procedures after CONTAINS in a type
    definition: specific bindings (`procedure :: step`, `procedure :: energy =>
    rod_energy`, with PASS(arg), NOPASS, NON_OVERRIDABLE, PUBLIC or PRIVATE). A call
    through a binding runs the procedure the object's type binds, its own or inherited
    (Scope.bound_call); a CLASS dummy's type is that of the object it is given
    (FFront.exact_copy)."""
    out = {}
    for b in part.children:
        cls = type(b).__name__
        if cls in ("Contains_Stmt", "Comment", "Binding_Private_Stmt"):
            continue
        if cls != "Specific_Binding":
            kind = {"Generic_Binding": "generic", "Final_Binding": "FINAL"}.get(cls, "")
            raise scope.error(b, f"the {kind + ' ' if kind else ''}binding '{b}' of "
                                 f"'{type_name}' is not supported (specific bindings, "
                                 "`procedure :: name => proc`, are)")
        iface, attrs, _, bname, proc = b.items
        binding = Binding(_lname(proc if proc is not None else bname))
        for a in (attrs.items if attrs is not None else ()):
            text = str(a).upper().replace(" ", "")
            if text == "NOPASS":
                binding.pass_arg = None
            elif text.startswith("PASS"):
                binding.pass_arg = _lname(a.items[1]) if len(getattr(a, "items", ())) > 1 \
                    and a.items[1] is not None else ""
            elif text == "DEFERRED":
                # no procedure: an object's type is never the abstract type, and its
                # dynamic type is known where a binding is called (Scope.bound_call)
                binding.procedure = None
            elif text not in ("NON_OVERRIDABLE", "PUBLIC", "PRIVATE"):
                raise scope.error(b, f"the binding attribute {text} of '{bname}' in "
                                     f"'{type_name}' is not supported")
        if (iface is not None) != (binding.procedure is None):
            raise scope.error(b, f"the binding '{bname}' of '{type_name}': an interface "
                                 "and DEFERRED go together")
        out[_lname(bname)] = binding
    return out


def _components(scope, cdef, type_name):
    tspec, attrs, decls = cdef.items
    if str(tspec).upper().startswith("CLASS"):
        raise scope.error(cdef, f"the polymorphic component '{_lname(decls.items[0].items[0])}' "
                                f"of '{type_name}' ({tspec}) is not supported: adgen follows "
                                "the type of an object a variable is given, not that of one "
                                "a component holds (declare the component of the type it "
                                "is given, or hold the object in a local polymorphic "
                                "variable)")
    t = scope.type_spec(tspec)
    is_char = getattr(t, "name", None) == "char"
    dims_node = None
    allocatable = False
    for a in (attrs.items if attrs is not None else ()):
        s = str(a).upper()
        if s.startswith("DIMENSION"):
            dims_node = a.items[1]
        elif s.startswith("ALLOCATABLE"):
            allocatable = True
        elif s.startswith("POINTER"):
            raise scope.error(cdef, f"{s.split('(')[0].lower()} components of '{type_name}' "
                                    "are not supported")
        elif s.startswith(("PUBLIC", "PRIVATE", "CONTIGUOUS")):
            continue
        else:
            raise scope.error(cdef, f"the component attribute {s} is not supported")
    out = []
    for d in decls.items:
        cname = _lname(d.items[0])
        init = d.items[3] if len(d.items) > 3 else None
        spec = d.items[1] if d.items[1] is not None else dims_node
        dims = None
        if is_char:
            out.append(_character_component(scope, cdef, type_name, cname, tspec, d, spec,
                                            allocatable))
            out[-1].init = _default_value(scope, cdef, type_name, out[-1], init)
            continue
        if allocatable:
            out.append(_allocatable_component(scope, cdef, type_name, cname, t, spec))
            continue
        inner = derived_type_of(t)
        if spec is not None and inner is not None and inner.allocatable_paths():
            raise scope.error(cdef, f"the array component '{cname}' of '{type_name}': an "
                                    f"array of '{inner.name}', a type with allocatable "
                                    "components, is not supported")
        if spec is not None:
            dims, assumed = scope.array_spec(spec, cname)
            if assumed or any(_constant(lo) is None or ext is None or _constant(ext) is None
                              for lo, ext in dims):
                raise scope.error(cdef, f"the array component '{cname}' of '{type_name}' "
                                        "needs constant bounds")
        out.append(Component(cname, cname, t, dims))
        out[-1].init = _default_value(scope, cdef, type_name, out[-1], init)
    return out


def _default_value(scope, cdef, type_name, comp, init):
    """The constants of a component's default initialization (Component.init), or None
    without one: `= 0.1d0`, `= [1d0, 2d0, 3d0]` for an array, `= 'abc'` for a CHARACTER
    component (blank-padded or cut to its length)."""
    if init is None:
        return None
    F = _f2003()
    what = f"the default value of the component '{comp.name}' of '{type_name}'"
    value = init.items[1]
    if comp.char_len is not None:
        if not isinstance(value, F.Char_Literal_Constant):
            raise scope.error(cdef, f"{what} is supported as a character literal only")
        text = char_literal(value)[:comp.char_len].ljust(comp.char_len)
        return [ir.Const(c_char(ch), comp.type) for ch in text]
    items = constructor_items(value) if isinstance(value, F.Array_Constructor) else [value]
    values = []
    for item in items:
        e = X.fold(convert_to(scope.expr(item), comp.type))
        if any(isinstance(x, (ir.Ref, ir.Call, ir.Index, ir.Member, ir.Deref))
               for x in ir.walk(e)):
            raise scope.error(cdef, f"{what} is supported as literals and named constants "
                                    "combined by arithmetic only")
        values.append(e)
    size = _element_count(comp)
    if len(values) != 1 and (not comp.dims or len(values) != size):
        raise scope.error(cdef, f"{what} has {len(values)} elements, the component "
                                f"{size}")
    return values


def _element_count(comp):
    """The number of elements of a component that is not allocatable (1 for a scalar,
    its length for a CHARACTER one)."""
    t = _storage_type(comp)
    return int(t.size.text) if isinstance(t, ir.Arr) else 1


def default_initialization(base, dtype, loc, counter):
    """The assignments by which Fortran initializes the structure base (an lvalue of the
    DerivedType dtype) by default: the components with a default value get it, those of a
    type with default initialization are initialized in turn. counter() gives a new loop
    counter (an int temporary)."""
    out = []
    for c in dtype.components.values():
        if has_default(c):
            out += component_default(member(X.clone(base), c, loc), c, loc, counter)
    return out


def has_default(comp):
    """Whether default initialization sets the component (or some of its components)."""
    inner = derived_type_of(comp.type)
    return comp.init is not None or inner is not None and inner.default_initialized()


def component_default(target, comp, loc, counter):
    """The assignments giving the component comp, at target, its default value."""
    from adgen.ir.exprs import counted_loop
    inner = derived_type_of(comp.type)
    if not isinstance(target.type, ir.Arr):
        return [ir.Assign(target, X.clone(comp.init[0]), loc)] if comp.init is not None \
            else default_initialization(target, inner, loc, counter)
    if comp.init is not None and len(comp.init) > 1:
        return [ir.Assign(ir.Index(X.clone(target), ir.Const(str(k), ir.INT), comp.type, loc),
                          X.clone(v), loc)
                for k, v in enumerate(comp.init)]
    k = counter()
    element = ir.Index(target, ir.Ref(k), comp.type, loc)
    body = [ir.Assign(element, X.clone(comp.init[0]), loc)] if comp.init is not None \
        else default_initialization(element, inner, loc, counter)
    loop = counted_loop(k, ir.Const(str(_element_count(comp)), ir.INT), body)
    loop.loc = loop.body.loc = loc
    return [loop]


def default_initializer(dtype):
    """The C initializer of a structure of the DerivedType dtype as default
    initialization leaves it (a static variable's): 0 where no default value is given."""
    return "{" + ", ".join(component_initializer(c) for c in dtype.components.values()) + "}"


def component_initializer(comp):
    """The C initializer of the component comp as default initialization leaves it."""
    from adgen.ir.c_text import expr_c
    inner = derived_type_of(comp.type)
    array = isinstance(_storage_type(comp), ir.Arr)
    if comp.init is not None:
        values = [expr_c(v) for v in comp.init]
        if not array:
            return values[0]
        values = values * _element_count(comp) if len(values) == 1 else values
        return "{" + ", ".join(values) + "}"
    if inner is not None and not comp.allocatable:
        one = default_initializer(inner)
        return "{" + ", ".join([one] * _element_count(comp)) + "}" if array else one
    return "{0}" if array or comp.allocatable else "0"


def _character_component(scope, cdef, type_name, cname, tspec, decl, spec, allocatable):
    """A CHARACTER component of a constant length, a scalar: a char array of its length
    in the struct."""
    what = f"the CHARACTER component '{cname}' of '{type_name}'"
    if spec is not None or allocatable:
        raise scope.error(cdef, f"{what} is an array or ALLOCATABLE: not supported "
                                "(scalars of a constant length are)")
    length = scope.char_length(tspec, decl, cdef)
    if length == "*":
        raise scope.error(cdef, f"{what} needs a constant length")
    return Component(cname, cname, ir.Prim("char"), char_len=length)


def _allocatable_component(scope, cdef, type_name, cname, t, spec):
    """An ALLOCATABLE component `real(8), allocatable :: u(:)`: gfortran's array
    descriptor of its rank, inline in the struct."""
    if spec is None:
        raise scope.error(cdef, f"the allocatable scalar component '{cname}' of "
                                f"'{type_name}' is not supported (only allocatable arrays)")
    if any(str(d).strip() != ":" for d in spec.items):
        raise scope.error(cdef, f"the allocatable component '{cname}' of '{type_name}' "
                                f"needs a deferred shape: {cname}"
                                f"({', '.join([':'] * len(spec.items))})")
    if isinstance(t.resolved(), ir.Struct):
        raise scope.error(cdef, f"the allocatable component '{cname}' of '{type_name}' is "
                                "of a derived type: not supported (allocatable components "
                                "of real, integer and logical types are)")
    rank = len(spec.items)
    return Component(cname, cname, t, None, rank, scope.front.descriptor_type(t, rank),
                     type_code(cdef.items[0]))


def type_code(type_spec):
    """gfortran's code for the type of a descriptor's elements (its dtype.type), from the
    type of a declaration."""
    text = str(type_spec).upper()
    return 2 if text.startswith("LOGICAL") else 1 if text.startswith("INTEGER") else 3


def _constant(e):
    """The value of a constant integer expression (`-1` too), or None."""
    e = X.fold(e)
    if isinstance(e, ir.Unary) and e.op == "-":
        inner = _constant(e.arg)
        return -inner if inner is not None else None
    if isinstance(e, ir.Binary) and e.op in ("+", "-", "*"):
        a, b = _constant(e.left), _constant(e.right)
        if a is None or b is None:
            return None
        return a + b if e.op == "+" else a - b if e.op == "-" else a * b
    return X.int_value(e)


def _storage_type(c):
    if c.allocatable:
        return c.descriptor
    if c.char_len is not None:
        return ir.Arr(c.type, ir.Const(str(c.char_len), ir.INT))
    if not c.dims:
        return c.type
    size = 1
    for _, ext in c.dims:
        size *= _constant(ext)
    return ir.Arr(c.type, ir.Const(str(size), ir.INT))


def derived_type_of(t):
    """The DerivedType of a variable's type, or None."""
    t = t.resolved()
    return getattr(t.sdef, "fortran_type", None) if isinstance(t, ir.Struct) else None


def other_type_assigned(target_t, value_t):
    """What is wrong with assigning a structure of type value_t to one of type target_t
    when their derived types differ (Fortran's intrinsic assignment needs the same type:
    an extended type's object is not its parent's); else None."""
    target_dt, value_dt = derived_type_of(target_t), derived_type_of(value_t)
    if target_dt is None or value_dt is None or target_dt is value_dt:
        return None
    hint = f" (its parent component %{'%'.join(value_dt.parent_names(target_dt))} is)" \
        if target_dt in value_dt.ancestors() else ""
    return (f"a structure of type '{value_dt.name}' assigned to one of type "
            f"'{target_dt.name}': an intrinsic assignment needs a value of the same "
            f"type{hint}")


def same_layout(a, b):
    """Whether the types a and b are stored alike: the same numbers, or structs with the
    same fields of types stored alike, or arrays of as many elements stored alike."""
    a, b = a.resolved(), b.resolved()
    if isinstance(a, ir.Struct) or isinstance(b, ir.Struct):
        return isinstance(a, ir.Struct) and isinstance(b, ir.Struct) and (
            a.sdef is b.sdef or len(a.sdef.fields) == len(b.sdef.fields) and all(
                fa == fb and same_layout(ta, tb)
                for (fa, ta), (fb, tb) in zip(a.sdef.fields, b.sdef.fields)))
    if isinstance(a, ir.Arr) or isinstance(b, ir.Arr):
        return isinstance(a, ir.Arr) and isinstance(b, ir.Arr) and \
            a.size is not None and b.size is not None and \
            X.int_value(X.fold(a.size)) == X.int_value(X.fold(b.size)) and \
            same_layout(a.elem, b.elem)
    return ir.with_const(a, False) == ir.with_const(b, False)


def member(base, comp, loc):
    """The component comp of the struct base (`s->u` through a dummy's pointer)."""
    t = _storage_type(comp)
    if isinstance(base, ir.Deref):
        return ir.Member(base.ptr, comp.field, True, t, loc)
    return ir.Member(base, comp.field, False, t, loc)


def resolve_component(scope, key, node):
    """The variable (an FVar) standing for the component reference `key`, or None when
    key is not one. Its `parent` is the struct the component is a member of."""
    parts = _PARTS.get(key)
    if parts is None:
        return None
    F = _f2003()
    v = scope.lookup(_part_name(parts[0]), node)
    parts = through_parents(v.type, parts)
    first = parts[0]
    if v.dims and derived_type_of(v.type) is not None and (
            isinstance(first, F.Name) or isinstance(first, F.Part_Ref) and any(
                isinstance(sub, F.Subscript_Triplet) or scope.vector_subscript(sub, node)
                for sub in first.items[1].items)):
        return _component_view(scope, v, parts, key, node)
    return _component_of(scope, _struct_value(scope, v, parts[0], node, key), parts, key,
                         node)


def through_parents(t, parts):
    """The parts of a component reference from a variable of type t with the parent
    components it passes through spelt out: `q%x` is `q%point%x` when q's type extends
    point, which has the component x (an unknown component left as it is)."""
    F = _f2003()
    dt = derived_type_of(t)
    out = [parts[0]]
    for k, p in enumerate(parts[1:], 1):
        chain = dt.component_chain(_part_name(p)) if dt is not None else None
        if chain is None:
            return out + list(parts[k:])
        out += [F.Name(c.name) for c in chain[:-1]] + [p]
        dt = derived_type_of(chain[-1].type)
    return out


def _component_of(scope, struct, parts, key, node):
    """The FVar of the component reference whose first part designates the struct
    `struct` (an lvalue)."""
    loc = scope.loc(node)
    for k, p in enumerate(parts[1:], 1):
        dt = derived_type_of(struct.type)
        pname = _part_name(p)
        comp = dt.components.get(pname)
        if comp is None:
            raise AdgenError(f"the type '{dt.name}' has no component '{pname}'", loc)
        cv = FVar(key if k == len(parts) - 1 else pname, comp.type, loc=loc)
        cv.dims = [(X.clone(lo), X.clone(ext)) for lo, ext in comp.dims] \
            if comp.dims else None
        cv.parent = struct
        cv.component = comp
        if comp.char_len is not None:
            cv.char_len = ir.Const(str(comp.char_len), ir.INT)
        if comp.allocatable:
            # the component's descriptor, its bounds read from it where they are used
            cv.descriptor = True
            cv.desc = member(struct, comp, loc)
            cv.dims = scope.front.descriptor_dims(cv.desc, comp.rank)
        if k == len(parts) - 1:
            return cv
        struct = _struct_value(scope, cv, p, node, key)
    return None


def _component_view(scope, v, parts, key, node):
    """`p%w` for a whole array p of structures, or `p(2:n)%w` for a section of one: an
    array of the structures' shape whose element k is the component of the structure k
    (`p(k)%w`); scalar components only (Fortran allows one part of nonzero rank). Its
    elements are found by element_of (see Scope.array_element); it has no storage of its
    own to pass."""
    F = _f2003()
    loc = scope.loc(node)
    sample = scope.array_element(v, [X.clone(lo) for lo, _ in v.dims], node)
    last = _component_of(scope, sample, parts, key, node)
    # `p%f(k)`: the element k of the array component f of each structure (subscripted_view)
    inner = parts[-1].items[1].items if key in _SUBSCRIPTED else None
    if last.dims and inner is None or getattr(last, "char_len", None) is not None:
        raise AdgenError(f"'{key}': an array or CHARACTER component of an array of "
                         "structures is not supported (loop over the elements)", loc)
    if inner is not None:
        if any(isinstance(sub, F.Subscript_Triplet) or scope.vector_subscript(sub, node)
               for sub in inner):
            raise AdgenError(f"'{key}': a section of a component of an array of structures "
                             "(two parts of nonzero rank) is not Fortran", loc)
        inner = [scope.expr(sub) for sub in inner]
        if any(X.has_call(e) for e in inner):
            raise AdgenError(f"'{key}': the component's subscripts call a function: set a "
                             "variable to its value first", loc)
    view = FVar(key, last.type, loc=loc)
    if isinstance(parts[0], F.Name):
        view.dims = [(X.clone(lo), X.clone(ext) if ext is not None else None)
                     for lo, ext in v.dims]
        select = None
    else:
        # per dimension of p: (first, last, stride) of a triplet, or a subscript's value
        select = []
        for (lo, ext), sub in zip(v.dims, parts[0].items[1].items):
            if isinstance(sub, F.Subscript_Triplet):
                select.append(scope.triplet(sub, lo, ext, node))
            elif scope.vector_subscript(sub, node):
                raise AdgenError(f"'{key}': a component of structures selected by a vector "
                                 "subscript is not supported (loop over the elements)", loc)
            else:
                select.append(scope.expr(sub))
        if any(X.has_call(e) for d in select for e in (d if isinstance(d, tuple) else (d,))):
            raise AdgenError(f"'{key}': the section's subscripts call a function: set a "
                             "variable to its value first", loc)
        view.dims = [(ir_int(1), triplet_count(*d)) for d in select if isinstance(d, tuple)]

    def element_of(subs):
        if select is not None:
            ks = iter(subs)
            subs = [X.add(X.clone(d[0]), X.mul(X.sub(next(ks), ir_int(1)), X.clone(d[2])))
                    if isinstance(d, tuple) else X.clone(d) for d in select]
        element = scope.array_element(v, subs, node)
        comp = _component_of(scope, element, parts, key, node)
        if inner is not None:
            return scope.array_element(comp, [X.clone(e) for e in inner], node)
        return scope.value(comp, node)
    view.element_of = element_of
    return view


def subscripted_view(scope, ref):
    """For `p%f(k)` (ref, a part reference to the component name `p%f`), where p is a whole
    array of structures or a section of one and its last component f an array: one
    component name, `p%f(k)`, for the array of the elements f(k) of its structures, its
    last part carrying the subscripts (see _component_view). Else None: the subscripts
    then select in the component as usual."""
    F = _f2003()
    parts = _PARTS.get(ref.items[0].string)
    first = parts[0] if parts else None
    v = scope.vars.get(_part_name(first)) if first is not None else None
    if v is None or not v.dims or derived_type_of(v.type) is None:
        return None
    if isinstance(first, F.Part_Ref) and not any(
            isinstance(sub, F.Subscript_Triplet) or scope.vector_subscript(sub, ref)
            for sub in first.items[1].items):
        return None         # one structure: `p(i)%f(k)`
    dt = derived_type_of(v.type)
    comp = None
    for p in parts[1:]:
        chain = dt.component_chain(_part_name(p)) if dt is not None else None
        if chain is None:
            return None
        comp = chain[-1]
        dt = derived_type_of(comp.type)
    if not comp.dims or comp.allocatable:
        return None
    last = object.__new__(F.Part_Ref)
    last.items = (F.Name(_part_name(parts[-1])), ref.items[1])
    last.item, last.parent = getattr(ref, "item", None), None
    key = f"{ref.items[0].string}({str(ref.items[1]).lower().replace(' ', '')})"
    _PARTS[key] = list(parts[:-1]) + [last]
    _SUBSCRIPTED.add(key)
    return component_name_class().make(key, _PARTS[key], getattr(ref, "item", None))


def _struct_value(scope, v, part, node, key):
    """The struct that part (a variable or component, with its subscripts) designates."""
    F = _f2003()
    if derived_type_of(v.type) is None:
        raise AdgenError(f"'{v.name}' in '{key}' is not of a derived type",
                         scope.loc(node))
    if isinstance(part, F.Part_Ref):
        if not v.dims:
            raise AdgenError(f"'{v.name}' in '{key}' is not an array", scope.loc(node))
        subs = part.items[1].items
        if any(isinstance(s, F.Subscript_Triplet) or scope.vector_subscript(s, node)
               for s in subs):
            raise AdgenError(f"'{key}': a component of an array section of structures is not "
                             "supported (loop over the elements)", scope.loc(node))
        return scope.array_element(v, [scope.expr(s) for s in subs], node)
    if v.dims:
        raise AdgenError(f"'{key}': a component of a whole array of structures is not "
                         "supported (loop over the elements)", scope.loc(node))
    return scope.value(v, node)


def base_name(key):
    """The name of the variable a component reference starts from."""
    return _part_name(_PARTS[key][0])


def peek_component(scope, key):
    """The Component a reference names, found without declaring anything (None when its
    variable is not known here yet)."""
    parts = _PARTS.get(key)
    if parts is None:
        return None
    v = _base_variable(scope, base_name(key))
    dt = derived_type_of(v.type) if v is not None else None
    comp = None
    for p in parts[1:]:
        chain = dt.component_chain(_part_name(p)) if dt is not None else None
        if chain is None:
            return None
        comp = chain[-1]
        dt = derived_type_of(comp.type)
    return comp


def _base_variable(scope, name):
    """The variable a component reference starts from, found without declaring anything
    (None when it is not known here yet)."""
    v = scope.vars.get(name)
    if v is None and scope.may_be_host_variable(name):
        v = scope.host.vars.get(name)
    return v
