"""Declarations in the Fortran front end's Scope (DeclarationsMixin): the specification
part, type declarations, USE, IMPLICIT, PARAMETER, DIMENSION and COMMON statements, DATA
statements and initial values, array specifications and the bounds evaluated on entry, and
the lookup of a name."""
import math
import re

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.frontend import fortran_complex as C
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_helpers import (C_RESERVED, FVar, base_name_of, c_array_length,
                                            c_char, c_field_names, char_literal, const_int,
                                            constant_size, constructor_items, convert_to,
                                            dummy_names, f2003, head_stmt, intent_out,
                                            ir_int, name_of, operator_key, storage_name,
                                            substitute, walk_type)


# The named constants of the intrinsic modules adgen knows, as gfortran gives them on
# x86-64 and aarch64: kinds (of real and integer types, and of C's), I/O units.
_INTRINSIC_MODULES = {
    "iso_fortran_env": {"real32": 4, "real64": 8, "real128": 16, "int8": 1, "int16": 2,
                        "int32": 4, "int64": 8, "input_unit": 5, "output_unit": 6,
                        "error_unit": 0, "numeric_storage_size": 32,
                        "character_storage_size": 8, "file_storage_size": 8},
    "iso_c_binding": {"c_int": 4, "c_short": 2, "c_long": 8, "c_long_long": 8,
                      "c_signed_char": 1, "c_size_t": 8, "c_int8_t": 1, "c_int16_t": 2,
                      "c_int32_t": 4, "c_int64_t": 8, "c_intptr_t": 8, "c_float": 4,
                      "c_double": 8, "c_long_double": 10, "c_bool": 1, "c_char": 1},
}


def _data_objects(node):
    """The variables and elements a DATA statement gives values, implied-DO lists
    opened."""
    out = []
    for data_set in node.items:
        stack = list(data_set.items[0].items)
        while stack:
            o = stack.pop(0)
            if type(o).__name__ == "Data_Implied_Do":
                stack[:0] = list(o.items[0].items)
            else:
                out.append(o)
    return out


def _c_initializer(v, values):
    """The C initializer of a variable from {element number: C value} (0 for the
    elements no DATA statement gives)."""
    if not v.dims:
        return values[0]
    return "{" + ", ".join(values.get(k, "0") for k in range(constant_size(v))) + "}"


def value_dummies(spec):
    """The names a specification part gives the VALUE attribute (in a declaration or a
    VALUE statement): known before any declaration is lowered, since gfortran passes
    such a dummy by value."""
    F = f2003()
    names = set()
    # the statements of this specification part, not of the interface bodies in it
    for node in (c for c in spec.children
                 if isinstance(c, (F.Type_Declaration_Stmt, F.Value_Stmt))):
        if isinstance(node, F.Value_Stmt):
            names |= {name_of(n) for n in walk_type(node, (F.Name,))}
        elif node.items[1] is not None and \
                any(str(a).upper() == "VALUE" for a in node.items[1].items):
            names |= {name_of(e.items[0]) for e in node.items[2].items}
    return names


class DeclarationsMixin:
    """Scope's declarations (fortran_front.Scope)."""

    def specification(self, spec, module_level=False):
        F = f2003()
        # an ALLOCATABLE statement may follow the type declarations it is about, and
        # makes the variable another kind of variable (see declare_allocatable)
        self.stated_allocatable = self.allocatable_statements(spec)
        if not module_level:
            # SAVE may follow the declarations it is about
            for node in spec.children:
                if isinstance(node, F.Save_Stmt):
                    if node.items[1] is None:
                        self.save_all = True
                    else:
                        self.saved_names |= {name_of(n) for n in node.items[1].items
                                             if isinstance(n, F.Name)}
                elif type(node).__name__ == "Data_Stmt":
                    # a variable DATA gives a value is SAVEd
                    self.saved_names |= {base_name_of(o) for o in _data_objects(node)}
        data = {}       # variable -> {element number: C value}, from DATA statements
        # the COMMON blocks named here: link name -> (members, the statement naming it
        # first); DATA last, which COMMON members may not take
        commons, datas = {}, []
        for node in spec.children:
            self.current = node
            if isinstance(node, F.Comment):
                self.directive(node)
                continue
            if not isinstance(node, F.Implicit_Part):
                self.no_waiting_directive(node)
            if isinstance(node, F.Implicit_Part):
                for c in node.children:
                    if isinstance(c, F.Comment):
                        self.directive(c)
                        continue
                    self.no_waiting_directive(c)
                    if isinstance(c, F.Implicit_Stmt):
                        self.implicit_stmt(c)
                    elif isinstance(c, F.Parameter_Stmt):
                        self.parameter_stmt(c)
            elif isinstance(node, F.Implicit_Stmt):
                self.implicit_stmt(node)
            elif isinstance(node, F.Use_Stmt):
                self.use_stmt(node)
            elif isinstance(node, F.Type_Declaration_Stmt):
                self.type_declaration(node, module_level)
            elif isinstance(node, F.Parameter_Stmt):
                self.parameter_stmt(node)
            elif isinstance(node, F.Common_Stmt):
                self.common_stmt(node, commons)
            elif isinstance(node, F.Dimension_Stmt):
                self.dimension_stmt(node)
            elif isinstance(node, F.External_Stmt):
                self.external_names |= {name_of(n) for n in walk_type(node, F.Name)}
            elif isinstance(node, F.Intent_Stmt):
                names = {name_of(n) for n in walk_type(node.items[1], F.Name)}
                if str(node.items[0]).upper() == "IN":
                    self.intent_in_names |= names
                elif str(node.items[0]).upper() == "OUT":
                    self.intent_out_names |= names
            elif isinstance(node, (F.Save_Stmt, F.Intrinsic_Stmt, F.Allocatable_Stmt)):
                continue        # (ALLOCATABLE: see allocatable_statements)
            elif isinstance(node, F.Interface_Block):
                # the dummy names keyword arguments refer to; the bodies give the
                # signatures of dummy procedures (dummy_procedure); a generic interface
                # names its specific procedures (see specific_procedure)
                head = node.children[0]
                generic = name_of(head.items[0]) if isinstance(head.items[0], F.Name) else \
                    operator_key(head.items[0]) if "OPERATOR" in str(head.items[0]).upper() \
                    else None
                if "ASSIGNMENT" in str(head.items[0]).upper().replace(" ", ""):
                    # every `=` of that type would have to call it
                    raise self.error(node, "defined assignment (`interface assignment(=)`) "
                                           "is not supported")
                if generic is not None:
                    self.generics.setdefault(generic, [])
                for body in node.children:
                    if generic is not None and type(body).__name__ == "Procedure_Stmt":
                        self.generics[generic] += [name_of(n) for n in
                                                   walk_type(body.items[0], F.Name)]
                    elif generic is not None and \
                            type(body).__name__ in ("Subroutine_Body", "Function_Body"):
                        self.generics[generic].append(name_of(head_stmt(body).items[1]))
                    if type(body).__name__ in ("Subroutine_Body", "Function_Body"):
                        stmt = head_stmt(body)
                        self.interfaces[name_of(stmt.items[1])] = dummy_names(stmt)
                        self.interface_bodies[name_of(stmt.items[1])] = body
            elif type(node).__name__ == "Procedure_Declaration_Stmt":
                self.procedure_declaration(node)
            elif type(node).__name__ == "Optional_Stmt":
                for n in walk_type(node, F.Name):
                    self.optional_dummy(name_of(n), node)
            elif type(node).__name__ == "Derived_Type_Def":
                dt = T.derived_type_def(self, node, module_level)
                self.types[dt.name] = dt
            elif type(node).__name__ == "Data_Stmt":
                if not module_level:    # (a module's: in the compiled module's object)
                    datas.append(node)
            elif type(node).__name__ in ("Access_Stmt", "Import_Stmt"):
                # (an interface body's IMPORT: the host's names it sees, which are what
                # its declarations are looked up in here anyway)
                continue
            elif type(node).__name__ == "Equivalence_Stmt":
                if getattr(self, "signature_only", False):
                    continue        # (no part of the interface: refused with the body)
                proc = self.func.name if self.func is not None else None
                raise self.error(node, "EQUIVALENCE is not supported" + (
                    f" (if '{proc}' computes nothing that carries derivatives, name it with "
                    f"--inactive {proc}: the derivative code then calls it as compiled)"
                    if proc else ""))
            elif type(node).__name__ == "Value_Stmt":
                continue            # see value_dummies
            else:
                raise self.error(node, f"unsupported declaration ({type(node).__name__})")
        for link, (members, node) in commons.items():
            self.current = node
            self.common_layout(link, members, node)
        for node in datas:
            self.current = node
            self.data_statement(node, data)
        if module_level:
            self.no_waiting_directive(None)
        for v, values in data.items():
            v.sym.init_text = _c_initializer(v, values)

    def allocatable_statements(self, spec):
        """The names ALLOCATABLE statements (`allocatable :: w(:)`, `allocatable w`) of the
        specification part spec name: name -> the deferred shape the statement gives, or
        None. Each must have its type declaration in spec (which then declares it as with
        the ALLOCATABLE attribute), and its shape given once, by the type declaration or
        by the statement, not by a DIMENSION statement."""
        F = f2003()
        stated, typed, dimensioned = {}, set(), set()
        for part in spec.children:
            if isinstance(part, F.Interface_Block) or \
                    type(part).__name__ == "Derived_Type_Def":
                continue
            for decl in walk_type(part, F.Type_Declaration_Stmt):
                typed |= {name_of(e.items[0]) for e in decl.items[2].items}
            for dim in walk_type(part, F.Dimension_Stmt):
                dimensioned |= {name_of(n) for n, _ in dim.items[0]}
        for part in spec.children:
            for st in walk_type(part, F.Allocatable_Stmt):
                for item in st.items[1].items:
                    shaped = not isinstance(item, F.Name)
                    name = name_of(item.items[0] if shaped else item)
                    if name not in typed:
                        raise self.error(st, f"ALLOCATABLE statement for '{name}', which no "
                                             "type declaration here declares: not supported "
                                             "(declare its type)")
                    if name in dimensioned:
                        raise self.error(st, f"'{name}' given its shape by a DIMENSION "
                                             "statement and made ALLOCATABLE by a statement: "
                                             "not supported (give the shape in its type "
                                             "declaration or the ALLOCATABLE statement)")
                    stated[name] = item.items[1] if shaped else None
        return stated

    def implicit_stmt(self, node):
        F = f2003()
        if str(node).upper().replace(" ", "").endswith("NONE"):
            # no letter has a type (an IMPLICIT statement of a contained procedure may
            # give some back)
            self.implicit = dict.fromkeys(self.implicit)
            self.implicit_none = True
            return
        for spec in walk_type(node, F.Implicit_Spec):
            tspec = spec.items[0]
            kind = self.type_spec(tspec) if isinstance(tspec, F.Intrinsic_Type_Spec) else None
            text = str(spec.items[1]).lower()
            for lo, hi in re.findall(r"([a-z])\s*(?:-\s*([a-z]))?", text):
                hi = hi or lo
                for c in range(ord(lo), ord(hi) + 1):
                    self.implicit[chr(c)] = ("type", kind)

    def use_stmt(self, node):
        F = f2003()
        mname = name_of(node.items[2])
        mod = self.front.modules.get(mname)
        if mod is None and mname.lower() in ("mpi", "mpi_f08"):
            raise self.error(node, f"MPI in Fortran ('use {mname}') is not supported by adgen "
                             "yet; C programs calling MPI are (docs/mpi.md)")
        if mod is None and mname not in _INTRINSIC_MODULES:
            raise self.error(node, f"module '{mname}' not found (give its source file too)")
        only = node.items[3] and "ONLY" in str(node.items[3]).upper()
        renames = {}
        names = None
        if node.items[4] is not None:
            names = []
            for item in node.items[4].items if hasattr(node.items[4], "items") else []:
                if isinstance(item, F.Rename):
                    local, remote = name_of(item.items[1]), name_of(item.items[2])
                    renames[remote] = local
                    names.append(remote)
                elif "OPERATOR" in str(item).upper():
                    names.append(operator_key(item))
                else:
                    names.append(name_of(item))
        if mod is None:
            # iso_fortran_env, iso_c_binding: their named constants (kinds, units)
            constants = _INTRINSIC_MODULES[mname]
            for vname in (names if only else constants):
                if vname not in constants:
                    raise self.error(node, f"'{vname}' of the intrinsic module '{mname}' is "
                                           "not supported (its kind constants are)")
                local = renames.get(vname, vname)
                self.vars[local] = FVar(local, ir.INT, const=ir_int(constants[vname]),
                                        loc=self.loc(node))
            return
        for vname, v in mod.vars.items():
            if only and vname not in (names or []):
                continue
            self.vars[renames.get(vname, vname)] = v
        self.imported_procs = getattr(self, "imported_procs", {})
        for pname, f in list(mod.imported_procs.items()) + list(mod.procs.items()):
            if only and pname not in (names or []):
                continue
            self.imported_procs[renames.get(pname, pname)] = f
        for pname, dummies in mod.interfaces.items():
            if not only or pname in (names or []):
                self.interfaces[renames.get(pname, pname)] = dummies
        for pname, body in mod.interface_bodies.items():
            if not only or pname in (names or []):
                self.interface_bodies[renames.get(pname, pname)] = body
        for tname, dt in mod.types.items():
            if not only or tname in (names or []):
                self.types[renames.get(tname, tname)] = dt
        for gname, specifics in mod.generics.items():
            if not only or gname in (names or []):
                # the procedures themselves: reachable through the generic, named or not
                self.generics[renames.get(gname, gname)] = [
                    n if not isinstance(n, str) else
                    mod.procs.get(n) or mod.imported_procs.get(n) or n for n in specifics]

    def type_spec(self, tspec):
        F = f2003()
        if isinstance(tspec, F.Declaration_Type_Spec):
            if not isinstance(tspec.items[1], (F.Type_Name, F.Name)):
                raise self.error(tspec, f"{tspec} is not supported")
            tname = name_of(tspec.items[1])
            # CLASS(t): an object of type t (one of a type extending t is refused where
            # it would be associated with a CLASS(t) dummy: see structure_argument)
            dt = self.types.get(tname) or (self.host.types.get(tname)
                                           if getattr(self, "host", None) else None)
            if dt is None:
                raise self.error(tspec, f"derived type '{tname}' is not defined here")
            return ir.Struct(dt.sdef)
        text = str(tspec).upper().replace(" ", "")
        base = tspec.items[0].upper() if isinstance(tspec.items[0], str) else text
        if base == "CHARACTER":
            return ir.Prim("char")      # its length: see char_length
        kind = None
        sel = tspec.items[1] if len(tspec.items) > 1 else None
        if sel is not None:
            kind = self.kind_value(sel)
        if base.startswith("DOUBLEPRECISION") or text.startswith("DOUBLEPRECISION"):
            return ir.DOUBLE
        if base == "REAL":
            return ir.DOUBLE if kind == 8 else (ir.Prim("long double") if kind in (10, 16)
                                                else ir.FLOAT)
        if base == "INTEGER":
            return ir.LONG if kind == 8 else ir.INT
        if base == "LOGICAL":
            return ir.INT
        if base == "COMPLEX" or base.startswith("DOUBLECOMPLEX") or \
                text.startswith("DOUBLECOMPLEX"):
            # a structure of two reals (fortran_complex.py); complex*16 is complex(8)
            star = sel is not None and str(sel).strip().startswith("*")
            size = 8 if "DOUBLE" in text else (kind // 2 if star and kind else kind or 4)
            if size not in (4, 8):
                raise self.error(tspec, f"COMPLEX of kind {size} is not supported")
            return ir.Struct(C.complex_type(self.front, size).sdef)
        raise self.error(tspec, f"unsupported type {text}")

    def kind_value(self, sel):
        """The kind number of a kind selector: (8), *8, (kind=dp), (dp) with a parameter."""
        text = str(sel).lower().replace(" ", "")
        m = re.search(r"(\d+)", text)
        inner = re.sub(r"^[(*]|\)$", "", text).replace("kind=", "")
        if inner.isdigit():
            return int(inner)
        named = self.named_constant_int(inner)
        if named is not None:
            return named
        if "selected_real_kind" in inner:
            digits = re.search(r"selected_real_kind\((\d+)", inner)
            return 8 if digits and int(digits.group(1)) > 6 else 4
        if "kind(1.d0)" in inner or "kind(1.0d0)" in inner or "kind(0.d0)" in inner or \
                "kind(0.0d0)" in inner:
            return 8
        if m:
            return int(m.group(1))
        raise self.error(sel, f"cannot evaluate the kind {text}")

    def type_declaration(self, node, module_level):
        F = f2003()
        declared_t = self.type_spec(node.items[0])
        if str(node.items[0]).upper().startswith("CLASS"):
            # gfortran passes such a dummy in a class container (see select_heads)
            self.class_names |= {name_of(e.items[0]) for e in node.items[2].items}
        attrs = node.items[1]
        is_param = allocatable = optional = saved = pointer = False
        dims = None
        if attrs is not None:
            for a in attrs.items:
                s = str(a).upper()
                if s == "PARAMETER":
                    is_param = True
                elif isinstance(a, F.Dimension_Attr_Spec):
                    dims = a.items[1]
                elif s == "ALLOCATABLE":
                    allocatable = True
                elif s == "POINTER":
                    pointer = True
                elif s == "TARGET":
                    pass        # what a pointer may point to: the storage is the same
                elif s.startswith("POINTER") or s.startswith("TARGET") or \
                        s.startswith("ALLOCATABLE"):
                    raise self.error(node, f"{s.split('(')[0].lower()} variables are not "
                                           "supported")
                elif s == "OPTIONAL":
                    optional = True
                elif s == "VALUE":
                    pass            # see value_dummies
                elif s.replace(" ", "") == "INTENT(IN)":
                    self.intent_in_names |= {name_of(e.items[0]) for e in node.items[2].items}
                elif s.replace(" ", "") == "INTENT(OUT)":
                    self.intent_out_names |= {name_of(e.items[0]) for e in node.items[2].items}
                elif s == "SAVE":
                    saved = True
                elif s == "EXTERNAL":
                    # a function: its result type (dummy_procedure, function_call)
                    self.external_names |= {name_of(e.items[0]) for e in node.items[2].items}
        stated = getattr(self, "stated_allocatable", {})
        for ent in node.items[2].items:
            name = name_of(ent.items[0])
            # a CLASS(t) dummy of a copy for objects of a type extending t (exact_copy)
            exact = getattr(self, "exact_types", {}).get(name)
            t = ir.Struct(exact.sdef) if exact is not None else declared_t
            edims = ent.items[1] if ent.items[1] is not None else dims
            is_allocatable = allocatable or name in stated   # (an ALLOCATABLE statement)
            if stated.get(name) is not None:
                if edims is not None:
                    raise self.error(node, f"the shape of '{name}' given by its type "
                                           "declaration and by an ALLOCATABLE statement")
                edims = stated[name]
            if str(node.items[0]).upper().startswith("CLASS") and (is_allocatable or pointer):
                t = self.polymorphic_type(name, declared_t, edims, node, is_allocatable,
                                          module_level)
                if t is None:
                    continue        # (dispatched: its variables are declared)
            init = ent.items[3] if len(ent.items) > 3 else None
            if optional:
                self.optional_dummy(name, node)
            if isinstance(t, ir.Prim) and t.name == "char":
                length = self.char_length(node.items[0], ent, node)
                if length == ":":
                    self.deferred_string(name, edims, node, is_allocatable, module_level,
                                         saved or init is not None or self.saves(name))
                else:
                    self.declare_string(name, length, edims, node, is_param, init,
                                        module_level, saved)
                continue
            local_struct = False
            if T.derived_type_of(t) is not None and T.derived_type_of(t).allocatable_paths():
                local_struct = self.struct_with_allocatables(
                    name, t, edims, node, attrs, module_level, is_allocatable or pointer,
                    saved or init is not None)
            if pointer and name in self.dummies and not module_level:
                self.pointer_dummy(name, t, edims, node, attrs)
            elif pointer:
                self.declare_pointer(name, t, edims, node, module_level)
            elif is_allocatable:
                self.declare_allocatable(name, t, edims, node, module_level, attrs)
            else:
                v = self.declare(name, t, edims, node, is_param, init, module_level, saved)
                if local_struct and v not in self.allocatable_structs:
                    self.allocatable_structs.append(v)
            dtype = T.derived_type_of(t)
            if dtype is not None and dtype.default_initialized() and not module_level and \
                    self.func is not None and self.vars.get(name) is not None and \
                    self.vars[name] not in self.initialized_structs:
                self.initialized_structs.append(self.vars[name])

    def struct_with_allocatables(self, name, t, dims, node, attrs, module_level,
                                 allocatable, saved):
        """A variable of a derived type with allocatable components. A local scalar
        structure's components start unallocated and are deallocated on leaving the
        procedure (or its BLOCK), as Fortran does; a dummy argument or a module variable
        is used as it is. What a plain C struct would get wrong is refused: an INTENT(OUT)
        dummy (Fortran deallocates its components on entry), a SAVEd local, a local array
        of such structures, an allocatable one, a function result."""
        tname = T.derived_type_of(t).name
        what = f"'{name}', of type '{tname}' which has allocatable components"
        if module_level or self.func is None:
            return False
        if name in self.dummies:
            # (refused with the body: the procedure's interface is read before any, and a
            # procedure no head calls is not refused)
            if intent_out(attrs) and not getattr(self, "signature_only", False):
                raise self.error(node, f"the INTENT(OUT) dummy argument {what}, is not "
                                       "supported (Fortran deallocates its components on "
                                       "entry): make it INTENT(INOUT)")
            return False
        if name == self.result_name:
            return False        # one more dummy argument (see Scope.build)
        if allocatable:
            raise self.error(node, f"the allocatable or pointer variable {what}, is not "
                                   "supported")
        if saved or self.saves(name):
            raise self.error(node, f"the SAVEd local {what}, is not supported")
        if dims is not None:
            raise self.error(node, f"the local array {what}, is not supported (a scalar "
                                   "local structure is)")
        return True

    def component_arrays(self, v):
        """The allocatable components of the local structure v, also those of its
        components of a derived type: variables standing for them (FVars with their
        descriptor)."""
        name = v.name
        base = self.value(v, None)
        out = []
        for path in T.derived_type_of(v.type).allocatable_paths():
            e = base
            for c in path:
                e = T.member(e, c, base.loc)
            comp = path[-1]
            out.append(FVar(f"{name}%" + "%".join(c.name for c in path), comp.type,
                            descriptor=True, desc=e, component=comp))
        return out

    def release_components(self, structs, loc):
        """The deallocation of the allocated components of local structures."""
        out = []
        for v in structs:
            for c in self.component_arrays(v):
                out.extend(self.deallocate(c, loc, only_if_allocated=True))
        return out

    def procedure_declaration(self, node):
        """`procedure(iface) :: f`: a dummy procedure with the interface iface."""
        F = f2003()
        iface = node.items[0]
        if node.items[1] is not None or not isinstance(iface, F.Name):
            raise self.error(node, f"'{node}': only `procedure(interface) :: dummy` is "
                                   "supported")
        for n in walk_type(node.items[2], F.Name):
            self.procedure_decls[name_of(n)] = name_of(iface)

    def optional_dummy(self, name, node):
        """An OPTIONAL dummy argument: a call may leave it out, and then passes a null
        pointer (as gfortran does), which present() tests."""
        if name not in getattr(self, "dummies", []):
            raise self.error(node, f"OPTIONAL '{name}': not a dummy argument")
        self.func.optional_dummies = getattr(self.func, "optional_dummies", set()) | {name}

    def declare(self, name, t, dims_node, node, is_param=False, init=None,
                module_level=False, saved=False):
        loc = self.loc(node)
        old = self.vars.get(name)
        # declared again (`dimension w(3)`, then `double precision w`): the same variable,
        # also when SAVE or DATA made it a static global already
        v = old if old is not None and old.sym is not None and \
            (old.sym.kind != "global" or getattr(old.sym, "fortran_saved", False)) \
            and name in getattr(self, "local_names", set()) else None
        if v is None and getattr(old, "common", None) is not None:
            v = old         # a COMMON member typed after the block names it: the block's
        if v is None:
            v = FVar(name, t, loc=loc)
        v.type = t
        self.local_names = getattr(self, "local_names", set()) | {name}
        if dims_node is not None:
            self.set_dims(v, dims_node, node)
        if getattr(v, "common", None) is not None and not is_param:
            return v
        if is_param and (v.dims or T.derived_type_of(t) is not None):
            # a constant array or structure: a static table in the output
            if init is None:
                raise self.error(node, f"parameter '{name}' has no value")
            sym = ir.Symbol(self.unique(f"{(self.func.name if self.func else 'm')}_{name}"),
                            self.storage_type(v, file_scope=True), "global", loc,
                            is_static=True)
            sym.is_library = False
            sym.init_text = self.initial_value(v, init.items[1], node)
            sym.type = ir.with_const(sym.type, False)
            self.front.globals.append(sym)
            v.sym = sym
            self.vars[name] = v
            return v
        if is_param:
            if init is None:
                raise self.error(node, f"parameter '{name}' has no value")
            value = self.expr(init.items[1])
            v.const = convert_to(value, t)
            folded = X.constant_value(v.const) if t.resolved().is_int else None
            if folded is not None:      # its value, as gfortran folds it
                v.const = ir.Const(str(folded), t, v.const.loc)
            self.vars[name] = v
            return v
        if module_level:
            sym = ir.Symbol(f"__{self.module.name}_MOD_{name}",
                            self.storage_type(v, file_scope=True), "global", loc,
                            is_extern=True)
            sym.is_library = False
            sym.fortran_name = name
            sym.fortran_dims = v.dims or []     # [(lower, extent)], for the interface module
            self.front.globals.append(sym)
            v.sym = sym
        elif name in getattr(self, "dummies", []):
            v.by_ref = name not in self.value_names
            if not v.by_ref:
                self.check_value_dummy(v, node)
            v.sym = self.dummy_symbol(name, t, loc, by_value=not v.by_ref)
        elif saved or init is not None or self.saves(name):
            self.saved_variable(v, old, init, node)
        else:
            # a variable declared again keeps its name
            cname = v.sym.name if v is old and v.sym.kind == "local" else self.unique(name)
            v.sym = ir.Symbol(cname, self.storage_type(v), "local", loc)
        self.vars[name] = v
        return v

    def saved_variable(self, v, old, init, node):
        """A SAVEd local (SAVE, or an initial value): a static variable of the output,
        which keeps its value from one call to the next as the procedure's does (the
        derivative code has its own)."""
        loc = self.loc(node)
        # the entry points of one procedure share its SAVEd variables (fortran_entries)
        host = getattr(self, "entry_host", None)
        shared = self.front.entry_saved.get((host, v.name)) if host is not None else None
        if v is old and getattr(v.sym, "fortran_saved", False):
            sym = v.sym             # declared again (DIMENSION, then its type)
            sym.type = self.storage_type(v, file_scope=True)
        elif shared is not None:
            sym = shared
            sym.type = self.storage_type(v, file_scope=True)
        else:
            sym = ir.Symbol(self.unique(ir.static_local_name(host or self.func.name,
                                                             v.name)),
                            self.storage_type(v, file_scope=True),
                            "global", loc, is_static=True)
            sym.is_library = False
            sym.fortran_saved = True
            sym.saved_as = (v.name, host or self.func.name)     # for messages
            self.front.globals.append(sym)
            if host is not None:
                self.front.entry_saved[(host, v.name)] = sym
                sym.entry_shared = True     # (see analysis/static_state.state_writers)
        if init is not None:
            sym.init_text = self.initial_value(v, init.items[1], node)
        v.sym = sym

    def data_statement(self, node, data):
        """The values a DATA statement gives variables, elements and implied-DO lists of
        elements (`data a /3*0d0, 1d0/, (c(i), i = 1, 2) /2*1d0/`), into data: variable ->
        {element number, column-major from 0: its C value}. The variables are SAVEd
        (see specification), so each is a static variable whose initializer these give."""
        from adgen.ir.c_text import expr_c
        for data_set in node.items:
            objects, values = data_set.items
            targets = [t for o in objects.items for t in self.data_targets(o, {}, node)]
            consts = []
            for item in values.items:
                repeat, value = item.items if type(item).__name__ == "Data_Stmt_Value" \
                    else (None, item)
                count = 1 if repeat is None else X.int_value(X.fold(self.expr(repeat)))
                if count is None:
                    raise self.error(node, f"the repeat count '{repeat}' of a DATA statement "
                                           "is not a constant")
                consts += [value] * count
            if len(consts) != len(targets):
                raise self.error(node, f"the DATA statement gives {len(consts)} values to "
                                       f"{len(targets)} variables or elements")
            for (v, k), value in zip(targets, consts):
                c = X.fold(convert_to(self.data_value(value), v.type))
                if any(isinstance(x, (ir.Ref, ir.Call)) for x in ir.walk(c)):
                    raise self.error(node, f"the DATA value '{value}' is not a constant")
                data.setdefault(v, {})[k] = expr_c(c)

    def data_value(self, value):
        """The value of a DATA constant, signed ones (`-2d0`) included."""
        F = f2003()
        kind = type(value).__name__
        if kind in ("Signed_Real_Literal_Constant", "Signed_Int_Literal_Constant"):
            text = str(value)
            plain = (F.Real_Literal_Constant if "Real" in kind else F.Int_Literal_Constant)(
                text.lstrip("+-"))
            e = self.expr(plain)
            return X.neg(e) if text.startswith("-") else e
        return self.expr(value)

    def data_targets(self, obj, counters, node):
        """[(variable, element number)] a DATA object stands for (a scalar's number is 0);
        counters: the values of the implied-DO variables around it."""
        F = f2003()
        if type(obj).__name__ == "Data_Implied_Do":
            objects, var, start, end, step = obj.items
            bounds = [X.int_value(X.fold(self.expr(b))) if b is not None else 1
                      for b in (start, end, step)]
            if None in bounds or bounds[2] == 0:
                raise self.error(node, f"the bounds of '{obj}' are not constants")
            out = []
            for k in range(bounds[0], bounds[1] + (1 if bounds[2] > 0 else -1), bounds[2]):
                inner = dict(counters, **{name_of(var): k})
                out += [t for o in objects.items for t in self.data_targets(o, inner, node)]
            return out
        v = self.lookup(name_of(obj) if isinstance(obj, F.Name) else base_name_of(obj), obj)
        if v.sym is None or not getattr(v.sym, "fortran_saved", False):
            raise self.error(node, f"DATA for '{obj}', which is not a local variable of the "
                                   "procedure, is not supported")
        if isinstance(obj, F.Name):     # each element of an array, in order
            return [(v, k) for k in range(constant_size(v) if v.dims else 1)]
        subs = obj.items[1].items if isinstance(obj, F.Part_Ref) else ()
        if not v.dims or len(subs) != len(v.dims) or \
                any(isinstance(x, F.Subscript_Triplet) for x in subs):
            raise self.error(node, f"the DATA object '{obj}' is not supported (give a "
                                   "variable, an array element or an implied-DO list of "
                                   "elements)")
        at = {self.lookup(n, obj).sym: ir_int(k) for n, k in counters.items()}
        index, stride = 0, 1
        for (lo, ext), x in zip(v.dims, subs):
            k = X.int_value(X.fold(substitute(self.expr(x), at)))
            lo_k, ext_k = X.int_value(X.fold(lo)), X.int_value(X.fold(ext))
            if k is None or lo_k is None or ext_k is None:
                raise self.error(node, f"the subscripts of the DATA object '{obj}' are not "
                                       "constants")
            if not 0 <= k - lo_k < ext_k:
                raise self.error(node, f"the DATA object '{obj}' is outside the array")
            index, stride = index + (k - lo_k) * stride, stride * ext_k
        return [(v, index)]

    def initial_value(self, v, value, node):
        """The C initializer of a SAVEd variable's or a PARAMETER array's value (a
        constant, or for an array an array constructor, reshaped or not, or one constant
        for every element)."""
        F = f2003()
        from adgen.ir.c_text import expr_c
        dtype = T.derived_type_of(v.type)
        if C.is_complex(v.type):
            return C.constant_initializer(self, v, value, node)
        if dtype is not None:
            if self.constructed_type(value) is not dtype:
                raise self.error(node, f"the value of '{v.name}' is supported as a structure "
                                       f"constructor of '{dtype.name}' only")
            one = self.structure_initializer(value, node)
            return "{" + ", ".join([one] * constant_size(v)) + "}" if v.dims else one
        if v.dims and isinstance(value, F.Intrinsic_Function_Reference) and \
                name_of(value.items[0]) == "reshape":
            # reshape(constructor, shape): the constructor's elements are the array's in
            # array element order
            args = self.intrinsic_arguments("reshape", value.items[1].items, value)
            if len(args) < 2 or any(a is not None for a in args[2:]) or \
                    not isinstance(args[0], F.Array_Constructor) or \
                    not isinstance(args[1], F.Array_Constructor):
                raise self.error(node, f"the value of '{v.name}' is supported as reshape of "
                                       "an array constructor to a constructor's shape only")
            counts = [X.int_value(X.fold(self.expr(e))) for e in constructor_items(args[1])]
            if None in counts or math.prod(counts) != constant_size(v):
                raise self.error(node, f"'{v.name}' is given a reshape to another size")
            value = args[0]
        items = constructor_items(value) if isinstance(value, F.Array_Constructor) \
            else [value]
        values = [expr_c(convert_to(self.expr(x), v.type)) for x in items]
        if not v.dims:
            if len(values) != 1:
                raise self.error(node, f"scalar '{v.name}' given an array as initial value")
            return values[0]
        size = constant_size(v)
        if len(values) == 1:
            values *= size
        if len(values) != size:
            raise self.error(node, f"'{v.name}' has {size} elements, given {len(values)} "
                                   "initial values")
        return "{" + ", ".join(values) + "}"

    def structure_initializer(self, ctor, node):
        """The C initializer of a structure constructor of constants (the value of a
        SAVEd or PARAMETER structure): each component's value given, else its default."""
        return self.components_initializer(self.constructed_type(ctor),
                                           self.constructor_values(ctor), ctor, node)

    def components_initializer(self, dtype, given, ctor, node):
        """The C initializer of a structure of the DerivedType dtype whose components
        have the values given ({name: value node}; those a parent component holds by
        their own names), else their default values."""
        items = []
        for c in dtype.components.values():
            value = given.get(c.name)
            inner = T.derived_type_of(c.type)
            if value is None and c is dtype.parent:
                items.append(self.components_initializer(inner, given, ctor, node))
            elif value is None:
                if not T.has_default(c):
                    raise self.error(node, f"'{ctor}' gives no value for the component "
                                           f"'{c.name}', which has no default value")
                items.append(T.component_initializer(c))
            elif c.allocatable:
                raise self.error(node, f"the allocatable component '{c.name}' given a value "
                                       f"in '{ctor}' is not supported")
            elif c.char_len is not None:
                if not isinstance(value, f2003().Char_Literal_Constant):
                    raise self.error(node, f"the value of '{c.name}' in '{ctor}' is supported "
                                           "as a character literal only")
                text = char_literal(value)[:c.char_len].ljust(c.char_len)
                items.append("{" + ", ".join(c_char(ch) for ch in text) + "}")
            elif inner is not None:
                if c.dims or self.constructed_type(value) is not inner:
                    raise self.error(node, f"the value of '{c.name}' in '{ctor}' is supported "
                                           f"as a structure constructor of '{inner.name}' only")
                items.append(self.structure_initializer(value, node))
            else:
                items.append(self.initial_value(FVar(c.name, c.type, dims=c.dims), value, node))
        return "{" + ", ".join(items) + "}"

    def set_dims(self, v, spec, node):
        # the bounds of a procedure's arrays are those on entry (see entry_bound)
        v.dims, v.assumed_shape = self.array_spec(spec, v.name, on_entry=self.func is not None)
        last = v.dims[-1] if v.dims else None
        if last is not None and v.name in getattr(self, "dummies", []) and \
                _is_one(last[0]) and _is_one(last[1]):
            # `y(1)`, `a(lda, 1)`: FORTRAN 66's spelling of an assumed size (LINPACK's, and
            # everywhere before `*`): the array is as long as the caller's, not one long
            v.dims[-1] = (last[0], None)
        if v.assumed_shape:
            self.assumed_shape_extents(v, node)

    def assumed_shape_extents(self, v, node):
        """An assumed-shape dummy `a(:, 0:)` is a pointer to its first element (adgen's
        callers pass contiguous arrays only) and one hidden integer parameter, by value,
        per dimension: its extent, which callers take from the actual argument."""
        if v.name not in getattr(self, "dummies", []):
            raise self.error(node, f"assumed-shape array '{v.name}' is not a dummy "
                                   "argument")
        names = [f"{v.name}_extent" + (str(k + 1) if len(v.dims) > 1 else "")
                 for k in range(len(v.dims))]
        v.extent_params = [ir.Symbol(self.unique(n), ir.INT, "param", v.loc) for n in names]
        v.dims = [(lo, ir.Ref(p)) for (lo, _), p in zip(v.dims, v.extent_params)]

    def check_value_dummy(self, v, node):
        """A VALUE dummy is passed by value: a scalar number or logical here."""
        if v.dims or not isinstance(v.type.resolved(), ir.Prim):
            raise self.error(node, f"the VALUE dummy argument '{v.name}' is not a scalar "
                                   "number: not supported (only scalars of intrinsic "
                                   "numeric or logical type are)")

    def dummy_symbol(self, name, t, loc, by_value=False):
        """The C parameter of dummy argument `name` of type t (passed by reference, but
        for a VALUE dummy). A dummy named like a C keyword or a function the generated
        code calls gets another C name; `fortran_name` keeps the one heads, sizes and
        rules use."""
        sym = ir.Symbol(name if name not in C_RESERVED else self.unique(name),
                        t if by_value else ir.Ptr(t), "param", loc)
        sym.value_dummy = by_value
        if sym.name != name:
            sym.fortran_name = name
        return sym

    def unique(self, name):
        n, k = name, 1
        taken = {v.sym.name for v in self.vars.values() if v.sym is not None} | \
            {p.name for v in self.vars.values() for p in v.extent_params} | \
            {v.char_len_param.name for v in self.vars.values()
             if getattr(v, "char_len_param", None) is not None} | \
            {v.sym.name for v in self.retired + self.hidden if v.sym is not None} | \
            {s.name for s in self.temps}
        while n in taken or n in self.front.functions or n in C_RESERVED:
            k += 1
            n = f"{name}_{k}"
        return n

    def storage_type(self, v, file_scope=False):
        """The C type of variable v. file_scope: v is an array of the output's file scope
        (a module variable, COMMON member, SAVEd or DATA local, PARAMETER array), whose
        length C wants an integer constant: its bounds must be constant expressions."""
        if not v.dims:
            return v.type
        if file_scope:
            if constant_size(v) is None:
                raise AdgenError(f"the array '{v.name}' needs constant bounds (it is stored "
                                 "at file scope: a module variable, COMMON member, SAVEd, "
                                 "DATA or PARAMETER array)", v.loc)
            return ir.Arr(v.type, c_array_length(ir_int(constant_size(v))))
        size = None
        for lo, ext in v.dims:
            if ext is None:
                raise AdgenError(f"array '{v.name}' has no known size", v.loc)
            size = ext if size is None else X.mul(size, ext)
        size = self.at_entry(size)                      # declared, so evaluated, on entry
        if any(map(self.is_procedure_call, ir.walk(size))):
            raise AdgenError(f"the size of the local array '{v.name}' calls a function: not "
                             "supported; pass the size as a dummy argument", v.loc)
        return ir.Arr(v.type, c_array_length(size))

    def array_spec(self, spec, name, on_entry=False):
        """[(lower, extent)] from an array spec; extent None for assumed size. on_entry:
        the bounds are given as their values on entry (see entry_bound)."""
        F = f2003()
        bound = self.entry_bound if on_entry else self.expr
        dims = []
        assumed_shape = False
        items = spec.items if isinstance(spec, (F.Explicit_Shape_Spec_List,
                                                F.Assumed_Shape_Spec_List)) or \
            hasattr(spec, "items") and isinstance(spec.items, tuple) and \
            spec.__class__.__name__.endswith("List") else (spec,)
        for d in items:
            cname = type(d).__name__
            if cname == "Explicit_Shape_Spec":
                lo = bound(d.items[0]) if d.items[0] is not None else ir_int(1)
                hi = bound(d.items[1])
                dims.append((lo, _extent(lo, hi)))
            elif cname == "Assumed_Size_Spec":
                for sub in (d.items[0].items if d.items[0] is not None else []):
                    lo = bound(sub.items[0]) if sub.items[0] is not None else ir_int(1)
                    dims.append((lo, _extent(lo, bound(sub.items[1]))))
                lo = bound(d.items[1]) if d.items[1] is not None else ir_int(1)
                dims.append((lo, None))
            elif cname == "Assumed_Shape_Spec":
                # the extent comes from the caller (see assumed_shape_extents)
                dims.append((bound(d.items[0]) if d.items[0] is not None else ir_int(1),
                             None))
                assumed_shape = True
            elif cname in ("Deferred_Shape_Spec",):
                raise self.error(spec, f"deferred-shape array '{name}' is not supported")
            else:
                # a bare expression: upper bound with lower bound 1
                lo = ir_int(1)
                dims.append((lo, _extent(lo, bound(d))))
        return dims, assumed_shape

    # A bound of an explicit-shape array is evaluated on entry to the procedure. While the
    # body is lowered, each variable a bound reads (and each call) stands for a
    # placeholder temporary, its value on entry; at the end, the placeholders whose
    # variables the procedure may change are assigned on entry, and the others replaced
    # by the variables themselves (settle).
    def entry_bound(self, node):
        return self.entry_placeholders(self.expr(node))

    def entry_placeholders(self, e):
        if isinstance(e, (ir.Ref, ir.Deref, ir.Member, ir.Index)) or \
                self.is_procedure_call(e):
            from adgen.ir.c_text import expr_c
            key = expr_c(e)
            if key not in self.entry_values:
                sym = self.temp(f"{storage_name(e)}_entry", ir.with_const(e.type, False))
                sym.entry_value = X.clone(e)
                for sub in ir.walk(sym.entry_value):
                    sub.loc = None          # located where the bound is used
                self.entry_values[key] = sym
            return ir.Ref(self.entry_values[key])
        return X.map_children(e, self.entry_placeholders)

    def at_entry(self, e):
        """e with the placeholders of entry values replaced by what they stand for: for
        what is evaluated on entry (declarations)."""
        if e is None or not self.entry_values:
            return e
        return substitute(e, {p: p.entry_value for p in self.entry_values.values()})

    def parameter_stmt(self, node):
        F = f2003()
        for d in walk_type(node, F.Named_Constant_Def):
            name = name_of(d.items[0])
            v = self.vars.get(name) or self.implicit_var(name, node, declare_local=False)
            value = self.expr(d.items[1])
            v.const = convert_to(value, v.type)
            if v.sym is not None and v.sym.kind == "local":
                v.sym = None
            self.vars[name] = v

    def dimension_stmt(self, node):
        for name_node, spec in node.items[0] if isinstance(node.items[0], list) else []:
            name = name_of(name_node)
            v = self.vars.get(name)
            if v is None:
                v = self.implicit_var(name, node)
                # a type declaration may follow (`dimension x(n)` / `real(8) x`): the
                # same variable, given its type
                self.local_names = getattr(self, "local_names", set()) | {name}
            if getattr(v, "char_len", None) is not None:
                raise self.error(node, f"the CHARACTER variable '{name}' is an array given "
                                       "its shape by a DIMENSION statement: not supported "
                                       "(give the shape in its type declaration)")
            self.set_dims(v, spec, node)
            if v.sym is not None and (v.sym.kind == "local" or
                                      getattr(v.sym, "fortran_saved", False)):
                # (a SAVEd or DATA-initialized local is a static global already)
                v.sym.type = self.storage_type(v, file_scope=v.sym.kind != "local")

    def common_stmt(self, node, blocks):
        """A COMMON statement: its members become fields of their blocks, read where the
        statement stands (a bound naming a member, `a(n, n)`, reads the block's). A block
        named again (`common /p/ a` then `common /p/ b`, or twice in one statement) goes on
        where it stopped. The layout is made at the end of the specification part
        (common_layout): a member's type or shape may be declared after the statement."""
        for block, objs in node.items[0]:
            bname = name_of(block) if block is not None else ""
            link = (bname + "_") if bname else "__BLNK__"
            members = blocks.setdefault(link, ([], node))[0]
            sym, sdef = self.front.commons.get(link, (None, None))
            if sym is None:
                # the first unit naming the block: its layout is this unit's (common_layout)
                sdef = ir.StructDef(f"{link}common", [], loc=self.loc(node))
                sym = ir.Symbol(link, ir.Struct(sdef), "global", self.loc(node),
                                is_extern=True)
                sym.is_library = False
                sym.fortran_common = True
                sym.common_layout = None        # (not made yet)
                self.front.commons[link] = (sym, sdef)
                self.front.globals.append(sym)
            for obj in objs.items:
                oname = name_of(obj.items[0] if hasattr(obj, "items") and obj.items else obj)
                v = self.vars.get(oname) or self.implicit_var(oname, node, declare_local=False)
                if getattr(v, "char_len", None) is not None:
                    raise self.error(node, f"the CHARACTER variable '{oname}' in a COMMON "
                                           "block is not supported")
                spec = obj.items[1] if hasattr(obj, "items") and len(obj.items) > 1 else None
                if spec is not None:
                    v.dims, _ = self.array_spec(spec, oname)
                members.append(v)
                # the members by position (the same block may be seen with other names)
                k = len(members) - 1
                v.common_field = sdef.fields[k][0] if sym.common_layout is not None and \
                    k < len(sdef.fields) else c_field_names([m.name for m in members])[-1]
                v.common, v.sym = sym, None

    def common_layout(self, link, members, node):
        """The layout of COMMON block `link`, a struct of its members' final types, made
        by the first unit naming it. A unit naming its storage otherwise (other types or
        shapes, another number of members) is refused, as the fields are matched by
        position; but the blank COMMON, which the standard lets units declare with
        different lengths, may be a beginning of the layout (fewer members, the last
        array shorter) or extend it (the layout grows to the longest, as the linker
        gives the block the largest size)."""
        from adgen.ir.c_text import declare, struct_definition
        sym, sdef = self.front.commons[link]
        types = [self.storage_type(m, file_scope=True) for m in members]
        if sym.common_layout is None:
            sdef.fields = list(zip(c_field_names([m.name for m in members]), types))
            self.front.define_struct(sdef)
            sym.common_layout = ", ".join(_member_text(m) for m in members)
            sym.loc = sdef.loc = self.loc(node)
            return
        old = [t for _, t in sdef.fields]
        fit = "same" if [declare(t, "") for t in types] == [declare(t, "") for t in old] \
            else _blank_common_fit(old, types) if link == "__BLNK__" else None
        if fit == "grows":
            names = [n for n, _ in sdef.fields]
            names += c_field_names([m.name for m in members])[len(names):]
            before = struct_definition(sdef)
            sdef.fields = list(zip(names, types))
            text = self.front.type_text
            text[text.index(before)] = struct_definition(sdef)
            sym.common_layout = ", ".join(_member_text(m) for m in members)
        elif fit is None:
            name = f"COMMON /{link[:-1]}/" if link != "__BLNK__" else "the blank COMMON"
            raise self.error(node, f"{name} is laid out here as "
                                   f"({', '.join(_member_text(m) for m in members)}), "
                                   f"and as ({sym.common_layout}) where it is first "
                                   f"declared ({sym.loc}): adgen needs the same members, "
                                   "of the same types and shapes, wherever the block is "
                                   "declared")

    def implicit_var(self, name, node, declare_local=True):
        if self.implicit.get(name[0]) is None:
            raise self.error(node, f"'{name}' has no type (IMPLICIT NONE)")
        kind, t = self.implicit[name[0]]
        if t is None:
            t = ir.INT if kind == "integer" else ir.FLOAT
        v = FVar(name, t, loc=self.loc(node))
        if declare_local:
            if name in getattr(self, "dummies", []):
                v.by_ref = name not in self.value_names
                v.sym = self.dummy_symbol(name, t, v.loc, by_value=not v.by_ref)
            elif self.saves(name):
                self.saved_variable(v, None, None, node)
            else:
                v.sym = ir.Symbol(self.unique(name), t, "local", v.loc)
        self.vars[name] = v
        return v

    def saves(self, name):
        """Whether a SAVE statement makes local `name` SAVEd."""
        return self.func is not None and name != getattr(self, "result_name", None) and \
            (self.save_all or name in self.saved_names)

    def array_var(self, name, node):
        """The array `name` names here, a host's array included (host association), or
        None (a scalar, a function, a name not declared)."""
        if name is not None and "%" in name:
            v = T.resolve_component(self, name, node)
            return v if v is not None and v.dims else None
        v = self.vars.get(name)
        if v is None and self.may_be_host_variable(name):
            hv = self.host.vars.get(name)
            if hv is not None and hv.dims:
                v = self.host_variable(name, node)
        return v if v is not None and v.dims else None

    def is_array(self, name):
        """Whether `name` names an array here (array_var, without taking the host's)."""
        if "%" in name:
            comp = T.peek_component(self, name)
            return comp is not None and bool(comp.dims)
        v = self.vars.get(name)
        if v is None and self.may_be_host_variable(name):
            v = self.host.vars.get(name)
        return v is not None and bool(v.dims)

    def may_be_host_variable(self, name):
        """Whether `name`, not declared here, may be a variable of the host: in an
        internal procedure, for a name that is not one of its dummy arguments (a dummy
        not declared is its own, implicitly typed)."""
        return getattr(self, "host", None) is not None and \
            name not in getattr(self, "dummies", ())

    def host_has(self, name):
        """Whether `name`, not declared here, is a variable the host declares (of an
        internal procedure: host association)."""
        return self.may_be_host_variable(name) and name in self.host.vars

    def storage_key(self, name):
        """What tells whether two names may be the same variable: the variable itself
        (the one an associate name is part of), or the name when it is not one yet; for a
        component reference, the variable it starts from."""
        if name is not None and "%" in name:
            name = T.base_name(name)
        v = self.vars.get(name)
        if v is None:
            return name
        return id(v.alias_of or v)

    def lookup(self, name, node):
        if "%" in name:
            return T.resolve_component(self, name, node)
        v = self.vars.get(name)
        if v is None and self.may_be_host_variable(name):
            v = self.host_variable(name, node)
        if v is None:
            # (a procedure whose signature adgen refused raises that: known_procedure)
            self.known_procedure(name)
            v = self.implicit_var(name, node)
        return v


def _extent(lo, hi):
    return X.add(X.sub(X.clone(hi), X.clone(lo)), ir_int(1)) if const_int(lo) != 1 \
        else X.clone(hi)


def _is_one(e):
    """True when IR expression e is the integer constant 1."""
    return isinstance(e, ir.Const) and e.text.strip() == "1"


def _blank_common_fit(old, new):
    """How the member types `new` of a unit's blank COMMON fit the layout `old`: "within"
    (a beginning of it: the same types, the last array possibly shorter), "grows" (old
    is a beginning of new), or None."""
    from adgen.ir.c_text import declare

    def same(a, b):
        return declare(a, "") == declare(b, "")

    def shorter(a, b):          # array a a beginning of array b, of the same elements
        a, b = a.resolved(), b.resolved()
        na, nb = (X.constant_value(X.fold(t.size)) if isinstance(t, ir.Arr) and
                  t.size is not None else None for t in (a, b))
        return isinstance(na, int) and isinstance(nb, int) and na <= nb and \
            same(a.elem, b.elem)

    def beginning(short, long_):
        k = len(short)
        return 0 < k <= len(long_) and all(same(a, b) for a, b in zip(short[:-1], long_)) \
            and (same(short[-1], long_[k - 1]) or shorter(short[-1], long_[k - 1]))

    return "within" if beginning(new, old) else "grows" if beginning(old, new) else None


def _member_text(v):
    """A COMMON member as a message names it, with its extents: `a(2, 3)`, `b`."""
    from adgen.ir.fortran_text import expr_fortran
    extents = [expr_fortran(ext) if ext is not None else "*" for _, ext in v.dims or ()]
    return f"{v.name}({', '.join(extents)})" if extents else v.name

