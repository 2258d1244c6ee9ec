"""Structures of a derived type with allocatable components as values, in the Fortran front
end's Scope (StructValuesMixin): intrinsic assignment of a whole structure (`a = b`, each
component copied, the allocatable ones deep: reallocated to the value's bounds, deallocated
where the value's are not allocated), a function whose result is such a structure (a
subroutine with the result as one more dummy argument, which the caller passes a temporary
structure of its own) and a structure constructor giving an allocatable component an array.
Each is lowered to the statements on components that the rest of the front end reads
(ALLOCATE, DEALLOCATE, array assignment), so that the derivative code follows them as it
follows those."""
from adgen import ir
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_helpers import FVar, call_arguments, f2003, name_of, walk_nodes


def _reference(text):
    """The parse tree of the designator `text` as the front end reads designators
    (component references as fortran_types.replace_data_refs makes them)."""
    stmt = f2003().Assignment_Stmt(f"{text} = 0")
    T.replace_data_refs(stmt)
    return stmt.items[0]


class StructValuesMixin:
    """Scope's structures with allocatable components as values (fortran_front.Scope)."""

    def lower_text(self, cls, text, out):
        """The statement `text` (a node of the class cls: an assignment, an IF statement)
        lowered into out at the line of the statement being lowered."""
        stmt = cls(text)
        T.replace_data_refs(stmt)
        self.lower_statement(stmt, out)

    def struct_result_type(self, result_name, prefix_type):
        """The DerivedType of the function's result (declared, or by its type before
        FUNCTION) when it is a scalar structure of a type with allocatable components,
        else None."""
        v = self.vars.get(result_name)
        t = prefix_type if prefix_type is not None else v.type if v is not None else None
        dt = T.derived_type_of(t) if t is not None else None
        if dt is None or not dt.allocatable_paths() or v is not None and v.dims:
            return None
        return dt

    def allocatable_struct_type(self, node):
        """The DerivedType of the designator node when it names a structure of a type with
        allocatable components, else None."""
        F = f2003()
        if isinstance(node, F.Part_Ref):
            node = node.items[0]
        if not isinstance(node, F.Name):
            return None
        if T.is_component_name(node):
            found = T.peek_component(self, name_of(node))
        else:
            found = self.lookup(name_of(node), node)
        dt = T.derived_type_of(found.type) if found is not None else None
        return dt if dt is not None and dt.allocatable_paths() else None

    def structure_temp(self, dtype):
        """A local structure of the type dtype (with allocatable components) for the
        statement being lowered: its components unallocated where the procedure starts,
        deallocated after the statement (see statement). Its name."""
        sym = self.temp("value", ir.Struct(dtype.sdef))
        v = FVar(sym.name, sym.type, sym=sym)
        self.vars[sym.name] = v
        self.allocatable_structs.append(v)
        self.statement_structs.append(v)
        return sym.name

    # ------------------------------------------------------- whole assignment
    def structure_copy(self, lhs_node, rhs_node, dtype, out):
        """`a = b` of structures of the type dtype, which has allocatable components, as
        Fortran's intrinsic assignment: each component assigned b's, an allocatable one
        given b's bounds and values (or deallocated where b's is not allocated), a
        component of a derived type component by component."""
        if self.shape_of(lhs_node) is not None:
            raise self.error(lhs_node, f"assignment of a whole array of structures of type "
                                       f"'{dtype.name}', which has allocatable components, "
                                       "is not supported (assign each element)")
        called = self.called_function(rhs_node)
        if called is not None:
            # (one whose body adgen reads was called before the statement)
            raise self.error(rhs_node, f"function '{called}' returns a structure with "
                                       "allocatable components and adgen has only its "
                                       "interface: give its source too")
        if self.allocatable_struct_type(rhs_node) is not dtype or \
                self.shape_of(rhs_node) is not None:
            raise self.error(lhs_node, f"'{lhs_node}' assigned '{rhs_node}': a structure of "
                                       f"type '{dtype.name}', which has allocatable "
                                       "components, is supported assigned a variable of "
                                       "its type, a function reference or a structure "
                                       "constructor")
        for side in (lhs_node, rhs_node):
            inner = next((self.called_function(n) for n in walk_nodes(side)
                          if n is not side and self.called_function(n)), None)
            if inner is not None:
                # (each component's copy names the designator again)
                raise self.error(side, f"'{side}' calls '{inner}': a structure with "
                                       "allocatable components is assigned component by "
                                       "component, which would call it once per "
                                       "component; give its value to a variable first")
        self.components_copied(dtype, str(lhs_node), str(rhs_node), out)

    def components_copied(self, dtype, lhs, rhs, out):
        """The components of the structure lhs (Fortran text) assigned those of rhs, both
        of the type dtype (its parent type's components by their own names)."""
        for c in dtype.components.values():
            inner = T.derived_type_of(c.type)
            if c is dtype.parent:
                self.components_copied(inner, lhs, rhs, out)
            elif c.allocatable:
                self.allocatable_copy(f"{lhs}%{c.name}", f"{rhs}%{c.name}", c.rank, out,
                                      value_allocatable=True)
            elif inner is not None and inner.allocatable_paths():
                self.components_copied(inner, f"{lhs}%{c.name}", f"{rhs}%{c.name}", out)
            else:
                self.lower_text(f2003().Assignment_Stmt, f"{lhs}%{c.name} = {rhs}%{c.name}",
                                out)

    def allocatable_copy(self, lhs, rhs, rank, out, value_allocatable):
        """The allocatable array lhs (Fortran text) given the bounds and values of the
        whole array rhs: reallocated first where its bounds differ or it is not allocated;
        where rhs is allocatable and not allocated, lhs is deallocated instead."""
        F = f2003()
        bounds = ", ".join(f"lbound({rhs}, {k}):ubound({rhs}, {k})"
                           for k in range(1, rank + 1))
        differ = " .or. ".join(f"lbound({lhs}, {k}) /= lbound({rhs}, {k}) .or. "
                               f"ubound({lhs}, {k}) /= ubound({rhs}, {k})"
                               for k in range(1, rank + 1))
        target = self.whole_allocatable(_reference(lhs))
        loc = self.loc(None)
        reallocate = []
        self.lower_text(F.If_Stmt, f"if ({differ}) deallocate({lhs})", reallocate)
        copy = [ir.If(self.is_allocated(target, None, loc), ir.Block(reallocate, loc), None,
                      loc)]
        self.lower_text(F.If_Stmt, f"if (.not. allocated({lhs})) allocate({lhs}({bounds}))",
                        copy)
        self.lower_text(F.Assignment_Stmt, f"{lhs} = {rhs}", copy)
        source = self.whole_allocatable(_reference(rhs)) if value_allocatable else None
        if source is None:
            out.extend(copy)
            return
        out.append(ir.If(self.is_allocated(source, None, loc), ir.Block(copy, loc),
                         ir.Block(self.deallocate(target, loc, only_if_allocated=True), loc),
                         loc))

    # ------------------------------------------------------- constructors
    def allocatable_component_value(self, lhs, component, value, out):
        """The allocatable component lhs (Fortran text) set from a structure
        constructor's value for it: an array (its bounds those of a whole array, else
        from 1), or null() or none given (unallocated)."""
        F = f2003()
        target = self.whole_allocatable(_reference(lhs))
        if value is None or isinstance(value, F.Intrinsic_Function_Reference) and \
                name_of(value.items[0]) == "null":
            out.extend(self.deallocate(target, self.loc(None), only_if_allocated=True))
            return
        rank = 1 if isinstance(value, F.Array_Constructor) else \
            len(self.expr_shape(value) or ())
        if rank != component.rank:
            raise self.error(value, f"the value '{value}' of the allocatable component "
                                    f"'{component.name}' is not an array of its rank")
        whole = isinstance(value, F.Name) and self.array_var(name_of(value), value) is not None
        if not whole:
            value = self.value_temp(value, target.type, out)
        self.allocatable_copy(lhs, str(value), component.rank, out, value_allocatable=whole)

    # ------------------------------------------------------- function results
    def struct_function(self, node):
        """The procedure node references when it is a function of the program whose result
        is a structure with allocatable components (see build); None otherwise."""
        f = self.referenced_procedure(node)
        return f if getattr(f, "struct_result", False) else None

    def struct_results_hoisted(self, node, out):
        """node reading temporary structures instead of its references to functions whose
        result is a structure with allocatable components: each function is called before
        the statement (the innermost references first) with the temporary as its result
        argument."""
        return self.references_replaced(node, self.struct_function, self.struct_result_temp,
                                        out)

    def struct_result_temp(self, ref, out):
        """A temporary structure that a call of the function ref references sets (in
        out); the name that reads it."""
        f = self.struct_function(ref)
        if self.tests:
            raise self.error(ref, f"'{f.name}' returns a structure with allocatable "
                                  "components: supported in assignments and CALL "
                                  "statements, not in a condition or a loop bound (assign "
                                  "its value to a variable first)")
        loc = self.loc(ref)
        ref = self.constructors_hoisted(self.without_products(ref, out), out)
        name = self.structure_temp(T.derived_type_of(f.struct_result))
        sym = self.vars[name].sym
        pre = []
        call = self.user_call(name_of(ref.items[0]), call_arguments(ref), ref, pre,
                              results=[ir.AddrOf(ir.Ref(sym, loc), ir.Ptr(sym.type), loc)])
        out.extend(pre)
        out.append(ir.ExprStmt(call, loc))
        return f2003().Name(name)
