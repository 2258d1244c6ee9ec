"""Allocatable arrays and pointers in the Fortran front end's Scope (AllocatablesMixin):
their declarations, ALLOCATE and DEALLOCATE, pointer assignment, gfortran's descriptors,
reallocation on assignment, and the temporary arrays of a statement (PACK, constructors)."""
import functools
import os

from adgen import ir
from adgen.ir import exprs as X
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_dispatch import declare_dispatched
from adgen.ir.c_text import c_string
from adgen.frontend.fortran_helpers import (FVar, at_least_zero, base_name_of,
                                            call_arguments, const_int, convert_to, descriptor_field, f2003,
                                            free_call, implied_values, increment,
                                            intent_out, ir_int, is_pack, malloc, name_of,
                                            to_int, triplet_count, walk_nodes, walk_type)
from adgen.frontend.fortran_operands import array_refs


# Intrinsics whose array result has another shape than their array argument
_SHAPE_CHANGING = {"transpose", "reshape", "pack", "unpack", "spread", "matmul"}


class AllocatablesMixin:
    """Scope's allocatable arrays and pointers (fortran_front.Scope)."""

    def declare_allocatable(self, name, t, spec, node, module_level, attrs=None):
        """A local allocatable array: a pointer that ALLOCATE sets with malloc, DEALLOCATE
        (or the end of the procedure) frees; its bounds are locals that ALLOCATE sets,
        and a flag tells whether it is allocated."""
        if spec is None:
            return self.allocatable_scalar(name, t, node, module_level, attrs)
        if module_level or self.func is None:
            return self.module_allocatable(name, t, spec, node)
        if name in self.dummies:
            return self.allocatable_dummy(name, t, spec, node, attrs)
        loc = self.loc(node)
        v = FVar(name, t, loc=loc)
        v.dims = [(ir.Ref(self.temp(f"{name}_lb{k}", ir.INT)),
                   ir.Ref(self.temp(f"{name}_n{k}", ir.INT)))
                  for k in range(1, len(spec.items) + 1)]
        self.allocatable_bounds |= {b.sym for dim in v.dims for b in dim}
        v.sym = ir.Symbol(self.unique(name), ir.Ptr(t), "local", loc)
        # the storage it holds has this many elements, wherever it was allocated (ALLOCATE,
        # an assignment): what a kept state copies (StateKeeper.own_heap)
        v.sym.extent_vars = [n.sym for _, n in v.dims]
        v.allocated = self.temp(f"{name}_allocated", ir.INT)
        # (a SAVE statement may come later: see check_saved_allocatables)
        v.save_attribute = attrs is not None and any(str(a).upper() == "SAVE"
                                                     for a in attrs.items)
        self.vars[name] = v
        self.local_names = getattr(self, "local_names", set()) | {name}
        self.allocatables.append(v)

    def mark_saved_allocatables(self):
        """Mark each SAVEd local allocatable array (attribute, SAVE statement, bare SAVE)
        with the variables holding its state, for static_state.check_saved_allocatables."""
        for v in self.allocatables:
            if v.save_attribute or self.saves(v.name):
                v.sym.saved_allocatable = [v.sym, v.allocated] + \
                    [b.sym for dim in v.dims for b in dim]

    def allocatable_scalar(self, name, t, node, module_level, attrs):
        """A local allocatable scalar (`real(8), allocatable :: s`): a scalar as any
        other, with a flag telling whether it is allocated, for allocated() and DEALLOCATE
        with STAT=, which ALLOCATE and an assignment (which allocates it, Fortran 2003) set
        and DEALLOCATE clears. Its value needs no storage of its own: what allocation
        changes is only that flag."""
        what = f"the allocatable scalar '{name}'"
        if module_level or self.func is None:
            raise self.error(node, f"{what}, a module variable, is not supported (a local "
                                   "allocatable scalar of a procedure is)")
        if name in self.dummies:
            raise self.error(node, f"{what}, a dummy argument, is not supported (a local "
                                   "allocatable scalar is)")
        if name == self.result_name:
            raise self.error(node, f"{what}, a function result, is not supported (a local "
                                   "allocatable scalar is)")
        if self.saves(name) or attrs is not None and \
                any(str(a).upper() == "SAVE" for a in attrs.items):
            raise self.error(node, f"{what} is SAVEd: not supported (a local allocatable "
                                   "scalar that is not SAVEd is)")
        v = self.declare(name, t, None, node)
        v.scalar_allocated = self.temp(f"{name}_allocated", ir.INT)
        self.allocatable_scalars.append(v)

    def polymorphic_type(self, name, declared, dims, node, allocatable, module_level):
        """The type of the local polymorphic scalar `class(t), allocatable :: obj`: the
        one every ALLOCATE of it in the procedure gives (`allocate(ext_t :: obj)`,
        `allocate(obj, source=ext_t(...))`, SOURCE= or MOLD= a variable declared before
        it), which Fortran makes its dynamic type. Read as a variable of that type, its
        bindings run that type's procedures, as a CLASS dummy's do (exact_copy). Where the
        type would be known only when the program runs (ALLOCATEs giving several types,
        none), or what adgen does not follow (arrays, dummies, module variables), it is
        refused. Where the statements give it several types, it is dispatched on the type
        it holds when the program runs (fortran_dispatch), and None is returned."""
        F = f2003()
        what = f"the polymorphic variable '{name}' ({node.items[0]}, " + \
            ("ALLOCATABLE" if allocatable else "POINTER") + ")"
        if dims is not None or module_level or self.func is None or name in self.dummies:
            raise self.error(node, f"{what}: a polymorphic array, dummy argument or module "
                                   "variable is not supported (a local scalar that ALLOCATE "
                                   "or pointer assignment gives one type is)")
        exec_part = next((c for c in self.unit.children if isinstance(c, F.Execution_Part)),
                         None)
        given = []      # [(statement, the type it gives)]
        for st in walk_type(exec_part, F.Allocate_Stmt) if exec_part is not None else ():
            objects = [base_name_of(a.items[0] if isinstance(a, F.Allocation) else a)
                       for a in st.items[1].items]
            if name in objects:
                if len(objects) > 1:
                    raise self.error(st, f"ALLOCATE of the polymorphic variable '{name}' "
                                         "with other objects is not supported (allocate "
                                         "it on its own)")
                given.append((st, self.allocated_type(st, declared)))
        for st in walk_type(exec_part, F.Pointer_Assignment_Stmt) if exec_part else ():
            target = st.items[2]
            if base_name_of(st.items[0]) != name or not isinstance(target, F.Name):
                continue        # (null(), or a target refused where it is lowered)
            dt = T.derived_type_of(self.variable_type(target, st))
            if dt is not None:
                given.append((st, dt))
        if not given:
            raise self.error(node, f"{what}: ALLOCATE gives it no type in the procedure: "
                                   "its type is not known (allocate it, or point it at an "
                                   "object, in the procedure)")
        want = T.derived_type_of(declared)
        for st, dt in given:
            if dt is not want and want not in dt.ancestors():
                raise self.error(st, f"'{name}' is given the type '{dt.name}', which does "
                                     f"not extend '{want.name}'")
        if any(dt is not given[0][1] for _, dt in given):
            # its type known only when the program runs: dispatched then (fortran_dispatch)
            declare_dispatched(self, name, given, node, allocatable, module_level)
            return None
        return ir.Struct(given[0][1].sdef)

    def allocated_type(self, st, declared):
        """The type ALLOCATE statement st gives what it allocates: its type-spec, else
        the type of its SOURCE= or MOLD= value (a structure constructor, a variable
        declared before), else the declared type."""
        F = f2003()
        if st.items[0] is not None:
            dt = self.types.get(name_of(st.items[0]))
            if dt is None:
                raise self.error(st, f"'{st.items[0]}' is not a derived type known here")
            return dt
        for opt in st.items[2].items if st.items[2] is not None else ():
            if str(opt.items[0]).upper() not in ("SOURCE", "MOLD"):
                continue
            value = opt.items[1]
            if isinstance(value, (F.Structure_Constructor, F.Part_Ref,
                                  F.Function_Reference)) and \
                    self.types.get(name_of(value.items[0])) is not None:
                return self.types[name_of(value.items[0])]
            dt = T.derived_type_of(self.variable_type(value, st)) \
                if isinstance(value, F.Name) else None
            if dt is None:
                raise self.error(st, f"the type of '{value}' is not known here: give the "
                                     "type in the ALLOCATE statement (`allocate(ext_t :: "
                                     "obj, source=value)`)")
            return dt
        return T.derived_type_of(declared)

    def variable_type(self, node, st):
        """The type of the variable named node (a SOURCE= value, a pointer's target) for
        polymorphic_type, also where its declaration comes later: a CLASS one's where it
        is known (a CLASS dummy read as its object's type, exact_copy), else None."""
        F = f2003()
        name = name_of(node)
        if name in self.vars:
            return self.vars[name].type
        if name in getattr(self, "exact_types", {}):
            return ir.Struct(self.exact_types[name].sdef)
        spec = next((c for c in self.unit.children if isinstance(c, F.Specification_Part)),
                    None)
        for decl in walk_type(spec, F.Type_Declaration_Stmt) if spec is not None else ():
            if any(name_of(e.items[0]) == name for e in decl.items[2].items):
                if str(decl.items[0]).upper().startswith("CLASS"):
                    return None     # (its type known once it is declared: declare it first)
                return self.type_spec(decl.items[0])
        return None

    def allocated_by_assignment(self, lhs_node, out, loc):
        """After `s = value`: an allocatable scalar s is allocated (Fortran 2003)."""
        v = self.vars.get(name_of(lhs_node)) if isinstance(lhs_node, f2003().Name) else None
        if v is not None and v.scalar_allocated is not None:
            out.append(ir.Assign(ir.Ref(v.scalar_allocated, loc), ir_int(1), loc))

    def allocation_cleared(self, variables, loc):
        """The allocatable scalars among variables unallocated, where their procedure or
        BLOCK is entered (a deferred-length string of length 0)."""
        return [ir.Assign(ir.Ref(v.scalar_allocated, loc), ir_int(0), loc)
                for v in variables] + \
            [ir.Assign(X.clone(v.char_len), ir_int(0), loc)
             for v in variables if getattr(v, "deferred", False)]

    def declare_pointer(self, name, t, spec, node, module_level):
        """A local POINTER: a C pointer that pointer assignment (`p => a`, `p => a(:, j)`,
        `p => q`) sets to the first element of its target, with, for an array, locals
        holding its lower bounds and extents, set there too (as an allocatable array's).
        Swapping two of them swaps pointers, as C code does; the target's storage keeps
        its derivatives. ALLOCATE points it at storage of its own (malloc, with the bounds
        set as an allocatable array's), which DEALLOCATE frees; unlike an allocatable
        array's, that storage outlives the procedure unless DEALLOCATE frees it."""
        if module_level or self.func is None:
            raise self.error(node, f"POINTER module variable '{name}' is not supported (a "
                                   "local pointer of a procedure is)")
        self.pointer_declared(name, t, spec, node)
        loc = self.loc(node)
        v = FVar(name, t, loc=loc, pointer=True)
        if spec is not None:
            v.dims = [(ir.Ref(self.temp(f"{name}_lb{k}", ir.INT)),
                       ir.Ref(self.temp(f"{name}_n{k}", ir.INT)))
                      for k in range(1, len(spec.items) + 1)]
            self.allocatable_bounds |= {b.sym for dim in v.dims for b in dim}
        else:
            v.by_ref = True     # a scalar: read and written as *p
        v.sym = ir.Symbol(self.unique(name), ir.Ptr(t), "local", loc)
        self.vars[name] = v
        self.local_names = getattr(self, "local_names", set()) | {name}

    def pointer_assignment(self, node, out, loc):
        """`p => target` for a local POINTER p (declare_pointer): a whole array (also a
        component, `dom%x`), a contiguous section, an element or a scalar (for a scalar
        pointer), another pointer, or null()."""
        F = f2003()
        lhs, bounds, target = node.items
        v = self.lookup(name_of(lhs), lhs) if isinstance(lhs, F.Name) else None
        if v is not None and v.pointer_dummy:
            raise self.dummy_repointed("pointer assignment to", v, node)
        if v is None or not v.pointer:
            raise self.error(node, f"pointer assignment to '{lhs}': only a local POINTER "
                                   "variable is supported")
        if bounds is not None:
            raise self.error(node, "pointer assignment with bounds is not supported")
        p = ir.Ref(v.sym, loc)
        if isinstance(target, F.Intrinsic_Function_Reference) and \
                name_of(target.items[0]) == "null":
            out.append(ir.Assign(p, X.null(v.sym.type, loc), loc))
            return
        w, section = None, None
        if isinstance(target, (F.Name, F.Data_Ref)):
            w = self.lookup(name_of(target), target)
        elif isinstance(target, F.Part_Ref):
            w = self.array_var(name_of(target.items[0]), target)
            section = target
        if w is None or w.const is not None:
            raise self.error(target, f"'{target}' cannot be the target of pointer '{v.name}'")
        if w.pointer and section is None:           # where another pointer points
            first, dims = ir.Ref(w.sym, loc), w.dims or []
        elif section is not None:
            at = self.associated_section(f"{v.name}_target", w, section, out, loc,
                                         f"the pointer '{v.name}' cannot point to it")
            first, dims = ir.Ref(at.sym, loc), at.dims or []
        elif w.dims:
            if any(ext is None for _, ext in w.dims):
                raise self.error(target, f"'{w.name}', an assumed-size array, cannot be the "
                                         "target of a pointer")
            element = self.array_element(w, [X.clone(lo) for lo, _ in w.dims], target)
            first = ir.AddrOf(element, ir.Ptr(element.type), loc)
            dims = w.dims
        else:
            element = self.designator(target)
            first = ir.AddrOf(element, ir.Ptr(element.type), loc)
            dims = []
        if len(dims) != v.rank:
            raise self.error(node, f"pointer '{v.name}' has rank {v.rank}, its target "
                                   f"'{target}' rank {len(dims)}")
        if first.type.resolved().target.const:      # an INTENT(IN) dummy with TARGET
            first = ir.Cast(v.sym.type, first, loc)
        out.append(ir.Assign(p, first, loc))
        for (lo, n), (wlo, wn) in zip(v.dims or [], dims):
            out.append(ir.Assign(X.clone(lo), X.clone(wlo), loc))
            out.append(ir.Assign(X.clone(n), X.clone(wn), loc))

    def pointer_dummy(self, name, t, spec, node, attrs):
        """A POINTER dummy argument that the procedure reads and writes through as it finds
        it: an array is an allocatable dummy's (a pointer to its first element, with its
        extents and lower bounds, which a pointer keeps, passed by the caller from its
        pointer's), a scalar a dummy as any other; associated() tells whether the caller
        passed a null pointer. Pointing it elsewhere for the caller (=>, NULLIFY,
        ALLOCATE, DEALLOCATE) is refused, and so is INTENT(OUT)."""
        if intent_out(attrs):
            raise self.error(node, f"the POINTER dummy argument '{name}' is INTENT(OUT), "
                                   "which the procedure would have to point somewhere for "
                                   "its caller: not supported")
        self.pointer_declared(name, t, spec, node)
        if spec is None:
            v = self.declare(name, t, None, node)
        else:
            self.allocatable_dummy(name, t, spec, node, attrs)
            v = self.vars[name]
        v.pointer_dummy = True

    def pointer_declared(self, name, t, spec, node):
        """Refuses a POINTER to a derived type, and a POINTER array declared with a shape
        (its shape is its target's, or what ALLOCATE gives it)."""
        if isinstance(t.resolved(), ir.Struct) and (spec is not None or
                                                    name not in self.class_names):
            # (a polymorphic scalar's target is followed: polymorphic_type)
            raise self.error(node, f"pointer '{name}' to a derived type is not supported")
        if spec is not None and any(str(d).strip() != ":" for d in spec.items):
            raise self.error(node, f"pointer array '{name}' needs a deferred shape: "
                                   f"{name}({', '.join([':'] * len(spec.items))})")

    def dummy_repointed(self, what, v, node):
        """The error for a statement that would point the POINTER dummy argument v
        elsewhere (for its caller): `what` names the statement."""
        return self.error(node, f"{what} the POINTER dummy argument '{v.name}' is not "
                                "supported (it would point the caller's pointer elsewhere)")

    def allocatable_dummy(self, name, t, spec, node, attrs):
        """An allocatable dummy argument that the procedure uses as it finds it (allocated
        by a caller): like an assumed-shape dummy, a pointer to its first element, with
        hidden integer parameters for its extents and, as an allocatable array keeps the
        bounds it was allocated with, its lower bounds (call_extents passes both).
        ALLOCATE, DEALLOCATE and allocated() of it are refused, and so is INTENT(OUT),
        which deallocates it on entry."""
        if intent_out(attrs):
            raise self.error(node, f"the allocatable dummy argument '{name}' is INTENT(OUT), "
                                   "which deallocates it on entry, and allocating it in the "
                                   "procedure is not supported: make it INTENT(INOUT) and "
                                   "allocate it in the caller")
        rank = len(spec.items)
        v = FVar(name, t, loc=self.loc(node))
        v.dims = [(None, None)] * rank
        self.assumed_shape_extents(v, node)
        lowers = [ir.Symbol(self.unique(f"{name}_lower" + (str(k) if rank > 1 else "")),
                            ir.INT, "param", v.loc) for k in range(1, rank + 1)]
        v.dims = [(ir.Ref(lo), ext) for lo, (_, ext) in zip(lowers, v.dims)]
        v.extent_params += lowers
        v.allocatable_dummy = True
        self.vars[name] = v

    def module_allocatable(self, name, t, spec, node):
        """An allocatable module variable: gfortran's array descriptor under the module
        variable's symbol, whose base address, lower and upper bounds the derivative code
        reads (gfortran allocates such an array in one contiguous column-major block).
        The derivative code neither allocates nor deallocates it."""
        if spec is None:
            raise self.error(node, f"allocatable '{name}' needs its rank: {name}(:)")
        loc = self.loc(node)
        desc = self.front.descriptor_type(t, len(spec.items))
        v = FVar(name, t, loc=loc, descriptor=True)
        v.sym = ir.Symbol(f"__{self.module.name}_MOD_{name}", desc, "global", loc,
                          is_extern=True)
        v.sym.is_library = False
        v.sym.fortran_name = name
        self.front.globals.append(v.sym)
        v.desc = ir.Ref(v.sym)
        v.dims = self.front.descriptor_dims(v.desc, len(spec.items))
        # its element count: the size of its shadow, when it carries derivatives (see
        # transform.common.shadow_global_setup)
        v.sym.descriptor_size = functools.reduce(X.mul, [X.clone(n) for _, n in v.dims])
        v.type_code = T.type_code(node.items[0])
        self.vars[name] = v

    def allocatable(self, node):
        v = self.lookup(name_of(node), node)
        if v.pointer_dummy:
            raise self.dummy_repointed("ALLOCATE or DEALLOCATE of", v, node)
        if v.allocatable_dummy:
            raise self.error(node, f"ALLOCATE, DEALLOCATE or allocated() of the allocatable "
                                   f"dummy argument '{v.name}' is not supported (allocate it "
                                   "in the caller)")
        if v.descriptor:
            return v        # an allocatable component or module variable (allocate_descriptor)
        if v.pointer or v.scalar_allocated is not None:
            return v
        if v.allocated is None:
            raise self.error(node, f"'{v.name}' is not an allocatable array")
        return v

    def status_variable(self, opts, what, node, also=()):
        """The variable a STAT= option names (an lvalue), None without options; the other
        options (ERRMSG, SOURCE, MOLD) are refused, but those named in also."""
        if opts is None:
            return None
        stat = None
        for opt in opts.items:
            key = str(opt.items[0]).upper()
            if key in also:
                continue
            if key != "STAT":
                raise self.error(node, f"{what} with {key} is not supported")
            stat = self.designator(opt.items[1])
        return stat

    def allocate(self, node, out, loc):
        """ALLOCATE(a(l1:u1, ...), ...): the bounds, then the storage. With STAT=s, s is 0
        when every array got its storage, 1 when one did not (which stays unallocated)."""
        scalars = all(v.scalar_allocated is not None or v.pointer and not v.dims
                      for it in node.items[1].items for v in [self.allocatable(
                          it if isinstance(it, f2003().Name) else it.items[0])])
        # (SOURCE= and MOLD= of scalars: see allocate_scalar)
        source = _source_of(node)
        if source is not None and len(node.items[1].items) > 1:
            raise self.error(node, "ALLOCATE of several objects with SOURCE= is not "
                                   "supported (allocate each on its own)")
        stat = self.status_variable(node.items[2], "ALLOCATE", node,
                                    ("SOURCE", "MOLD") if scalars else ())
        if stat is not None:
            out.append(ir.Assign(X.clone(stat), convert_to(ir_int(0), stat.type), loc))
        for item in node.items[1].items:
            obj, specs = (item, None) if isinstance(item, f2003().Name) else item.items
            v = self.allocatable(obj)
            if getattr(v, "deferred", False):
                raise self.error(node, f"ALLOCATE of the deferred-length CHARACTER variable "
                                       f"'{v.name}' is not supported (assign it a value, "
                                       "which allocates it with the value's length)")
            if v.scalar_allocated is not None:
                if specs is not None:
                    raise self.error(node, f"ALLOCATE of the scalar '{v.name}' with bounds")
                self.allocate_scalar(v, obj, node, stat, out, loc)
                continue
            dims = v.dims or []         # none: a scalar POINTER
            if len(specs.items if specs is not None else ()) != len(dims):
                raise self.error(node, f"ALLOCATE of '{v.name}' with {len(dims)} bounds "
                                       "needed")
            if v.descriptor:
                if T.derived_type_of(v.type) is not None and \
                        T.derived_type_of(v.type).default_initialized():
                    raise self.error(node, f"ALLOCATE of '{v.name}', of a type with default "
                                           "initialization, is not supported here")
                self.allocate_descriptor(v, specs, stat, out, loc)
                continue
            bounds = []
            for spec in specs.items if specs is not None else ():
                lower = to_int(self.expr(spec.items[0])) if spec.items[0] is not None \
                    else ir_int(1)
                bounds.append((lower, X.add(X.sub(to_int(self.expr(spec.items[1])),
                                                  X.clone(lower)), ir_int(1))))
            size = self.allocate_storage(v, bounds, out, loc)
            if source is not None or v in self.initialized_structs:
                # its storage given SOURCE='s value or default-initialized (none to
                # initialize when malloc failed)
                init = []
                if source is not None:
                    self.assignment(f2003().Name(v.name), source, init, loc)
                else:
                    init = self.initialize_elements(v, size if v.dims else None, loc)
                out += init if stat is None else [ir.If(
                    ir.Binary("!=", ir.Ref(v.sym, loc), ir_int(0), ir.INT),
                    ir.Block(init, loc), None, loc)]
            if stat is None:
                if not v.pointer:
                    out.append(ir.Assign(ir.Ref(v.allocated, loc), ir_int(1), loc))
                continue
            # malloc may return NULL for no elements: that is no failure
            failed = ir.Binary("&&", ir.Binary("==", ir.Ref(v.sym, loc), ir_int(0), ir.INT),
                               ir.Binary(">", X.clone(size), ir_int(0), ir.INT), ir.INT)
            if not v.pointer:
                out.append(ir.Assign(ir.Ref(v.allocated, loc), ir.Unary("!", failed, ir.INT),
                                     loc))
            out.append(ir.If(X.clone(failed) if v.pointer else
                             ir.Unary("!", ir.Ref(v.allocated, loc), ir.INT),
                             ir.Block([ir.Assign(X.clone(stat), convert_to(ir_int(1), stat.type),
                                                 loc)], loc), None, loc))

    def allocate_scalar(self, v, obj, node, stat, out, loc):
        """ALLOCATE of the allocatable scalar v (allocatable_scalar): its flag set, and
        its value what Fortran gives it: SOURCE='s value, else its type's default
        initialization."""
        F = f2003()
        flag = ir.Ref(v.scalar_allocated, loc)
        if stat is not None:        # (already allocated: an error, STAT= tells)
            out.append(ir.If(X.clone(flag), ir.Block([ir.Assign(
                X.clone(stat), convert_to(ir_int(1), stat.type), loc)], loc), None, loc))
        source = _source_of(node)
        if source is not None:
            self.assignment(F.Name(v.name) if isinstance(obj, F.Name) else obj, source,
                            out, loc)
        elif v in self.initialized_structs:
            out += self.initialize_elements(v, None, loc)
        out.append(ir.Assign(flag, ir_int(1), loc))

    def allocate_storage(self, v, bounds, out, loc):
        """Storage for the local allocatable array or POINTER v: its bounds set from
        [(lower, extent)] (an extent below 0 counts as 0), then malloc. Returns the number
        of elements."""
        size = None if bounds else ir_int(1)
        for (lo, n), (lower, extent) in zip(v.dims or [], bounds):
            out.append(ir.Assign(X.clone(lo), lower, loc))
            out.append(ir.Assign(X.clone(n), at_least_zero(extent), loc))
            size = X.clone(n) if size is None else X.mul(size, X.clone(n))
        out.append(ir.Assign(ir.Ref(v.sym, loc), malloc(v.sym.type, size, loc), loc))
        return size

    def reallocated_here(self, v, rhs_node):
        """Whether `v = value`, v a whole allocatable array, reallocates v where Fortran
        would; where not, its shapes are checked at run time (check_kept_shape). A local
        array the procedure never ALLOCATEs is given its shape by its assignments. One it
        ALLOCATEs is reallocated by an assignment from a value that reads it otherwise than
        whole and element by element (`idx = [idx, i]`), or outside loops; not by one in
        a loop otherwise (the backward
        sweep would need a saved branch per iteration for an array that keeps the shape
        ALLOCATE gave it, and the kept states of a BINOMIAL-CKP or FP-LOOP loop could not
        follow a new block). The allocatables it does not own keep their storage."""
        if v.allocated is None:
            return False
        if v.name not in self.allocate_stmt_names:
            return True
        if self.reads_otherwise(v, rhs_node):
            return True     # (in a kept loop, refused where the states are kept)
        return not self.kept_loops and not self.do_names

    def reads_otherwise(self, v, node):
        """Whether the array expression node reads the array v other than whole and
        element by element (which gives node v's shape): in a section, an array
        constructor, the argument of a function that is not elemental (`[v, x]`, `v(2:)`,
        `transpose(v)`)."""
        F = f2003()
        key = self.storage_key(v.name)
        moved = [c for c in walk_nodes(node) if isinstance(c, F.Array_Constructor) or
                 isinstance(c, F.Intrinsic_Function_Reference) and
                 name_of(c.items[0]) in _SHAPE_CHANGING]
        moved = {id(n) for c in moved for n in walk_nodes(c)}
        whole = {id(r) for r in array_refs(node, self.is_operand)
                 if isinstance(r, F.Name) and id(r) not in moved}
        return any(self.storage_key(base_name_of(r)) == key and id(r) not in whole
                   for r in array_refs(node))

    def whole_allocatable(self, node):
        """The allocatable array a designator names whole (`a`, `s%a`), or None: a local
        allocatable, an allocatable dummy, a host's allocatable array, an allocatable
        module variable or component."""
        F = f2003()
        if isinstance(node, F.Data_Ref) and isinstance(node.items[-1], F.Name):
            v = T.resolve_component(self, name_of(node), node)
        elif isinstance(node, F.Name):
            v = self.lookup(name_of(node), node)
        else:
            return None
        return v if v is not None and v.allocatable else None

    def value_extents(self, rhs_node, v, lhs_node, out):
        """The extents of the value of `a = expr` for the allocatable a (v): [] for a
        scalar; an error for an array constructor whose length adgen cannot tell. The
        statements they need (pack's count) go to out."""
        F = f2003()
        if isinstance(rhs_node, F.Array_Constructor):
            length = self.constructor_length(rhs_node)
            if length is None:
                raise self.error(lhs_node, "cannot tell the length of the array constructor "
                                           f"assigned to the allocatable '{v.name}', which "
                                           "Fortran allocates to that length")
            return [length]
        if is_pack(rhs_node):
            return [ir.Ref(self.packed(rhs_node, out)[2])]
        if isinstance(rhs_node, F.Intrinsic_Function_Reference) and \
                name_of(rhs_node.items[0]) == "matmul":
            return [triplet_count(*d) for d in self.matmul_shape(rhs_node)]
        return [triplet_count(lo, hi, st) for lo, hi, st in self.expr_shape(rhs_node) or ()]

    def check_kept_shape(self, v, lhs_node, rhs_node, out, loc):
        """`a = expr` with a whole allocatable array a that keeps its storage (one the
        procedure ALLOCATEs, an allocatable dummy, a host's array, a module variable or
        component) and an array expr: where Fortran would reallocate a (another shape, or
        a not allocated), the derivative code stops with a message (adgen_shape_error)
        rather than assign the wrong elements. No check where the extents are the same
        expressions."""
        from adgen.ir.c_text import expr_c
        extents = self.value_extents(rhs_node, v, lhs_node, out)
        if len(extents) != len(v.dims):
            return
        # (compared as the value's extents of a whole array are written)
        own = [triplet_count(*d) for d in self.shape_of(lhs_node)]
        differs = [ir.Binary("!=", X.clone(n), X.clone(e), ir.INT)
                   for (_, n), whole, e in zip(v.dims, own, extents)
                   if expr_c(whole) != expr_c(e)]
        if not differs:
            return
        if v.allocated is not None or v.descriptor:
            differs.insert(0, X.logical_not(self.is_allocated(v, lhs_node, loc)))
        message = (f"{os.path.basename(loc.file)}:{loc.line}: error: '{name_of(lhs_node)}' "
                   "assigned a value of another shape, or not allocated: Fortran would "
                   "reallocate it, this derivative code does not (allocate it with the "
                   "value's shape first)")
        stop = ir.ExprStmt(ir.Call("adgen_shape_error", [
            ir.Const(c_string(message), ir.Ptr(ir.Prim("char", True)), loc)], ir.VOID, loc),
            loc)
        out.append(ir.If(X.any_of(differs), ir.Block([stop], loc), None, loc))

    def reallocate_for(self, v, lhs_node, rhs_node, out, loc):
        """`a = expr` with a whole local allocatable array a and an array expr: a is
        (re)allocated to expr's shape first when it is not allocated or has another shape,
        as Fortran 2003 asks and gfortran does, with expr's lower bounds (those of a whole
        array, else 1). Where expr reads a otherwise than whole and element by element
        (`a = [a, x]`, `a = a(2:)`), its value goes to a temporary first, as a is freed.
        Returns the value to assign: expr, or that temporary."""
        from adgen.ir.c_text import expr_c
        F = f2003()
        extents = self.value_extents(rhs_node, v, lhs_node, out)
        if len(extents) != len(v.dims):
            return rhs_node     # a scalar, assigned to each element (or a rank the
                                # assignment refuses)
        source = self.array_var(name_of(rhs_node), rhs_node) \
            if isinstance(rhs_node, F.Name) else None
        lowers = [X.clone(lo) for lo, _ in source.dims] if source is not None else \
            [ir_int(1)] * len(extents)
        own = [triplet_count(*d) for d in self.shape_of(lhs_node)]
        if [expr_c(e) for e in extents] == [expr_c(e) for e in own]:
            return rhs_node     # its own shape (a value reading it): never reallocated
        if self.reads_otherwise(v, rhs_node):
            rhs_node = self.value_temp(rhs_node, v.type, out)
            extents = [X.clone(n) for _, n in self.array_var(name_of(rhs_node), rhs_node).dims]
        differs = X.any_of([ir.Unary("!", ir.Ref(v.allocated, loc), ir.INT)] + [
            ir.Binary("!=", X.clone(n), X.clone(e), ir.INT)
            for (_, n), e in zip(v.dims, extents)])
        body = self.deallocate(v, loc, only_if_allocated=True)
        self.allocate_storage(v, list(zip(lowers, extents)), body, loc)
        body.append(ir.Assign(ir.Ref(v.allocated, loc), ir_int(1), loc))
        out.append(ir.If(differs, ir.Block(body, loc), None, loc))
        return rhs_node

    def statement_array(self, t, extents, out, loc, base="tmp"):
        """A temporary array of type t, lower bounds 1 and these extents (below 0: 0),
        allocated here (in out: its extents may be computed by the statement), freed at
        the end of the statement being lowered (see statement); its extents are read into
        variables here (the statement may change what they read, reallocating an array).
        Its FVar, declared under its name (base, made unique)."""
        counts, size = [], None
        for e in extents:
            n = at_least_zero(e)
            if const_int(n) is None:
                var = self.temp("extent", ir.INT)
                out.append(ir.Assign(ir.Ref(var, loc), n, loc))
                n = ir.Ref(var, loc)
            counts.append(n)
            size = X.clone(n) if size is None else X.mul(size, X.clone(n))
        sym = self.temp(base, ir.Ptr(t))
        sym.statement_temp = True       # allocated and freed in one statement
        out.append(ir.Assign(ir.Ref(sym, loc), malloc(sym.type, size, loc), loc))
        self.heap_temps.append((sym, None))
        v = FVar(sym.name, t, sym=sym, dims=[(ir_int(1), n) for n in counts])
        self.vars[sym.name] = v
        return v

    def value_temp(self, node, t, out):
        """A temporary array set (in out) to the value of the array expression node, with
        lower bounds 1; the name that reads it. Its elements have type t."""
        F = f2003()
        if isinstance(node, F.Array_Constructor):
            return self.constructor_temp(node, node, out)
        if is_pack(node):
            tmp = self.statement_array(t, [ir.Ref(self.packed(node, out)[2])], out,
                                       self.loc(node))
            self.pack(F.Name(tmp.sym.name), node, out, self.loc(node))
            return F.Name(tmp.sym.name)
        shape = self.expr_shape(node)
        tmp = self.statement_array(t, [triplet_count(*d) for d in shape], out, self.loc(node))
        with self.calls_hoisted(node, out):
            self.elementwise(shape, lambda ks, pre: (
                self.element(tmp, ks),
                self.expr(node, ks, pre)), out, self.loc(node))
        return F.Name(tmp.sym.name)

    def packed(self, node, out):
        """(array, mask, count) of pack(array, mask): its array argument, mask's elements
        over array's shape, into a temporary array of ints set in out (once per statement:
        the assignment reads them after its reallocation), and how many of them hold."""
        if id(node) in self.pack_masks:
            return self.pack_masks[id(node)]
        args = self.intrinsic_arguments("pack", node.items[1].items, node)
        if len(args) != 2:
            raise self.error(node, "pack is supported with two arguments, pack(array, mask)")
        source, mask = (self.without_constructors(a, out) for a in args)
        shape = self.operand_shape(source)
        if not shape:
            raise self.error(node, "pack of a scalar")
        loc = self.loc(node)
        holds = self.statement_array(ir.INT, [triplet_count(*d) for d in shape], out, loc)
        with self.calls_hoisted(mask, out):
            self.elementwise(shape, lambda ks, pre: (
                self.element(holds, ks),
                self.expr(mask, ks if self.operand_shape(mask) else None, pre)), out, loc)
        count = self.temp("count", ir.INT)
        out.append(ir.Assign(ir.Ref(count, loc), ir_int(0), loc))
        self.elementwise(shape, lambda ks, pre: (ir.Ref(count, loc), ir.Binary(
            "+", ir.Ref(count, loc), ir.Cond(
                self.element(holds, ks), ir_int(1),
                ir_int(0), ir.INT), ir.INT)), out, loc)
        self.pack_masks[id(node)] = (source, holds, count)
        return source, holds, count

    def pack(self, lhs_node, node, out, loc):
        """`a = pack(array, mask)`: the elements of array where mask holds, in array
        element order, to a(1), a(2), ..."""
        source, holds, _ = self.packed(node, out)
        pos = self.temp("pos", ir.INT)
        out.append(ir.Assign(ir.Ref(pos), ir_int(0), loc))
        with self.calls_hoisted(source, out):
            self.elementwise(
                self.operand_shape(source), lambda ks, pre: (
                    self.designator(lhs_node, [ir.Ref(pos)], pre),
                    self.expr(source, ks, pre)), out, loc,
                mask=lambda ks: self.element(holds, ks), after=[increment(pos, loc)])

    def constructor_length(self, ctor):
        """The number of elements of an array constructor of scalar items and implied-DO
        lists of them, as an expression; None for other constructors."""
        F = f2003()
        items = ctor.items[1]
        items = items.items if type(items).__name__ == "Ac_Value_List" else [items]
        total = None
        for it in items:
            if isinstance(it, F.Ac_Implied_Do):
                values, control = implied_values(it), it.items[1]
                if any(isinstance(x, F.Ac_Implied_Do) or self.operand_shape(x)
                       for x in values):
                    return None
                v = self.lookup(name_of(control.items[0]), it)
                start, end, step, setup = self.do_bounds(v, control.items[1], it)
                if setup:
                    return None
                trips = triplet_count(to_int(start), to_int(end), ir_int(step))
                n = X.mul(at_least_zero(trips), ir_int(len(values)))
            elif self.operand_shape(it):
                n = None        # an array item: all its elements
                for lo, hi, st in self.operand_shape(it):
                    e = at_least_zero(triplet_count(lo, hi, st))
                    n = e if n is None else X.mul(n, e)
            else:
                n = ir_int(1)
            total = n if total is None else X.add(total, n)
        return total

    def allocate_descriptor(self, v, specs, stat, out, loc):
        """ALLOCATE of an allocatable component or module variable: its descriptor filled
        as gfortran fills it (the bounds, the strides of a contiguous column-major block,
        the offset that makes base_addr[offset + i*stride...] the element, the element's
        size and type), then base_addr from malloc (of one element at least: an allocated
        array of no elements has a base address, as gfortran gives it)."""
        name, rank, type_code = (v.component.name, v.component.rank, v.component.type_code) \
            if v.component else (v.name, len(v.dims), v.type_code)
        t = v.type
        dim = lambda k, which: descriptor_field(v.desc, "dim", k, which)
        offset = None
        for k, spec in enumerate(specs.items):
            lower = to_int(self.expr(spec.items[0])) if spec.items[0] is not None \
                else ir_int(1)
            upper = to_int(self.expr(spec.items[1]))
            out.append(ir.Assign(dim(k, "lower_bound"), ir.Cast(ir.LONG, lower), loc))
            out.append(ir.Assign(dim(k, "ubound"), ir.Cast(ir.LONG, upper), loc))
            if k == 0:
                stride = ir.Const("1", ir.LONG)
            else:
                extent = ir.Binary("+", ir.Binary("-", dim(k - 1, "ubound"),
                                                  dim(k - 1, "lower_bound"), ir.LONG),
                                   ir.Const("1", ir.LONG), ir.LONG)
                stride = ir.Binary("*", dim(k - 1, "stride"), ir.Cond(
                    ir.Binary(">", extent, ir.Const("0", ir.LONG), ir.INT), X.clone(extent),
                    ir.Const("0", ir.LONG), ir.LONG), ir.LONG)
            out.append(ir.Assign(dim(k, "stride"), stride, loc))
            term = ir.Binary("*", dim(k, "lower_bound"), dim(k, "stride"), ir.LONG)
            offset = term if offset is None else ir.Binary("+", offset, term, ir.LONG)
        unsigned = ir.Prim("unsigned long")
        out.append(ir.Assign(descriptor_field(v.desc, "offset"),
                             ir.Cast(unsigned, ir.Unary("-", offset, ir.LONG)), loc))
        for which, value in (("elem_len", ir.SizeOf(t)), ("version", ir_int(0)),
                             ("rank", ir.Cast(ir.Prim("signed char"), ir_int(rank))),
                             ("type", ir.Cast(ir.Prim("signed char"), ir_int(type_code))),
                             ("attribute", ir.Cast(ir.Prim("short"), ir_int(0)))):
            out.append(ir.Assign(descriptor_field(v.desc, "dtype", None, which), value, loc))
        out.append(ir.Assign(descriptor_field(v.desc, "span"),
                             ir.Cast(ir.LONG, ir.SizeOf(t)), loc))
        size = None
        for _, ext in v.dims:       # (each extent 0 or more, see descriptor_dims)
            size = X.clone(ext) if size is None else X.mul(size, X.clone(ext))
        count = self.temp(f"{name}_size", ir.INT)
        out.append(ir.Assign(ir.Ref(count, loc), ir.Cond(
            ir.Binary(">", size, ir_int(0), ir.INT), X.clone(size), ir_int(1), ir.INT), loc))
        base = self.array_base(v, None)
        out.append(ir.Assign(base, malloc(base.type, ir.Ref(count, loc), loc), loc))
        if stat is not None:
            out.append(ir.If(ir.Binary("==", X.clone(base), X.null(base.type, loc), ir.INT),
                             ir.Block([ir.Assign(X.clone(stat), convert_to(ir_int(1), stat.type),
                                                 loc)], loc), None, loc))

    def deallocate(self, v, loc, only_if_allocated=False):
        """free of an allocatable array's storage (at the end of the procedure: if it is
        allocated), or of what a POINTER points to (ALLOCATE gave it), the pointer null
        again."""
        if v.scalar_allocated is not None:
            release = [ir.Assign(ir.Ref(v.scalar_allocated, loc), ir_int(0), loc)]
        elif v.descriptor:      # an allocatable component: its base_addr null again
            base = self.array_base(v, None)
            release = [ir.ExprStmt(ir.Call("free", [base], ir.VOID, loc), loc),
                       ir.Assign(X.clone(base), X.null(base.type, loc), loc)]
        elif v.pointer:
            release = [free_call(v.sym, loc),
                       ir.Assign(ir.Ref(v.sym, loc), X.null(v.sym.type, loc), loc)]
        else:
            # the pointer set to null after free: the later `if allocated` free reads no
            # freed pointer (gcc's -Wuse-after-free cannot tell the flag guards it)
            release = [free_call(v.sym, loc),
                       ir.Assign(ir.Ref(v.sym, loc), X.null(v.sym.type, loc), loc),
                       ir.Assign(ir.Ref(v.allocated, loc), ir_int(0), loc)]
        if only_if_allocated:
            return [ir.If(self.is_allocated(v, None, loc), ir.Block(release, loc), None, loc)]
        return release

    def move_alloc(self, node, loc):
        """move_alloc(from, to) of local allocatable arrays: to's storage freed if it has
        one, then to takes from's storage, bounds and allocation status, and from is
        deallocated (its pointer null), as Fortran's: no element is copied."""
        args = self.match_arguments("move_alloc", ("from", "to"), call_arguments(node), node)
        if any(a is None for a in args):
            raise self.error(node, "move_alloc needs its two arguments, FROM and TO")
        src, dst = (self.allocatable(a) for a in args)
        for a, v in zip(args, (src, dst)):
            if v.descriptor or v.pointer or v.allocated is None:
                raise self.error(node, f"move_alloc of '{a}': supported for local "
                                       "allocatable arrays (not a scalar, a module "
                                       "variable, a component, a dummy or a POINTER)")
        if len(src.dims) != len(dst.dims) or \
                src.type.resolved() != dst.type.resolved():
            raise self.error(node, f"move_alloc from '{args[0]}' to '{args[1]}', of another "
                                   "type or rank")
        out = self.deallocate(dst, loc, only_if_allocated=True)
        out.append(ir.Assign(ir.Ref(dst.sym, loc), ir.Ref(src.sym, loc), loc))
        for to_bounds, from_bounds in zip(dst.dims, src.dims):
            out += [ir.Assign(X.clone(t), X.clone(f), loc)
                    for t, f in zip(to_bounds, from_bounds)]
        out += [ir.Assign(ir.Ref(dst.allocated, loc), ir.Ref(src.allocated, loc), loc),
                ir.Assign(ir.Ref(src.sym, loc), X.null(src.sym.type, loc), loc),
                ir.Assign(ir.Ref(src.allocated, loc), ir_int(0), loc)]
        return out

    def is_allocated(self, v, node, loc):
        """`allocated(v)` for an allocatable array: its descriptor's base address not null
        (a component, a module variable), or the flag ALLOCATE sets (a local); for a
        POINTER (DEALLOCATE with STAT=), that it is associated."""
        if v.descriptor:
            base = self.array_base(v, node)
            return ir.Binary("!=", base, X.null(base.type, loc), ir.INT, loc)
        if v.pointer:
            return ir.Binary("!=", ir.Ref(v.sym, loc), X.null(v.sym.type, loc), ir.INT, loc)
        if v.scalar_allocated is not None:
            return ir.Ref(v.scalar_allocated, loc)
        return ir.Ref(v.allocated, loc)


def _source_of(allocate):
    """The SOURCE= value of an ALLOCATE statement, or None."""
    opts = allocate.items[2]
    return next((o.items[1] for o in (opts.items if opts is not None else ())
                 if str(o.items[0]).upper() == "SOURCE"), None)
