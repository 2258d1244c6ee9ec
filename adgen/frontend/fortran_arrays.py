"""Assignments and array syntax in the Fortran front end's Scope (ArraysMixin): scalar,
whole-array and section assignments, WHERE, MATMUL, structure and array constructors, and
the temporaries hoisted out of an expression for them."""
import contextlib

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_helpers import (CALL_NODES, DESCRIPTOR_DIM, FVar, array_inquiry,
                                            base_name_of, call_arguments, const_int,
                                            constructor_items, convert_to, f2003,
                                            implied_values, increment, ir_int, is_pack,
                                            name_of, replace_nodes, substitute, temp_size,
                                            triplet_count, visit_nodes, walk_nodes,
                                            walk_type)
from adgen.frontend.fortran_operands import array_refs


class ArraysMixin:
    """Scope's assignments and array syntax (fortran_front.Scope)."""

    # ------------------------------------------------------------ assignments
    def assignment(self, lhs_node, rhs_node, out, loc, mask=None):
        if self.is_string(lhs_node):
            return self.string_assignment(lhs_node, rhs_node, out, loc)
        dt = self.allocatable_struct_type(lhs_node)
        if dt is not None:
            return self.structure_copy(lhs_node, rhs_node, dt, out)
        shape = self.shape_of(lhs_node)
        if shape is None:
            pre = []
            target = self.designator(lhs_node, pre=pre)
            value = self.expr(rhs_node, pre=pre)
            if target.type.resolved().is_struct != value.type.resolved().is_struct:
                raise self.error(lhs_node, f"'{lhs_node}' assigned '{rhs_node}': a structure "
                                           "and a number (a defined assignment) is not "
                                           "supported")
            mismatch = T.other_type_assigned(target.type, value.type)
            if mismatch is not None:
                raise self.error(lhs_node, f"'{lhs_node}' assigned '{rhs_node}': {mismatch}")
            out.extend(pre)
            out.append(ir.Assign(target, convert_to(value, target.type), loc))
            self.allocated_by_assignment(lhs_node, out, loc)
            return
        whole = self.whole_allocatable(lhs_node) if mask is None else None
        if whole is not None and self.reallocated_here(whole, rhs_node):
            rhs_node = self.reallocate_for(whole, lhs_node, rhs_node, out, loc)
        elif whole is not None:
            self.check_kept_shape(whole, lhs_node, rhs_node, out, loc)
        with self.calls_hoisted(rhs_node, out):
            self.array_assignment(lhs_node, rhs_node, shape, out, loc, mask)

    @contextlib.contextmanager
    def calls_hoisted(self, node, out):
        """Fortran evaluates a function reference of an array expression once, before
        the assignment (also under WHERE, in a WHERE mask, in a reduction and in an array
        expression passed as an argument): within this context each reference of node to a
        procedure of the program that is not ELEMENTAL reads a temporary computed before
        the loops over the elements (not a call per element, repeating its side effects
        and reading the elements assigned so far)."""
        found = []

        def look(n):
            if id(n) in self.hoisted:
                return False                # by an enclosing array expression
            name = self.called_function(n)
            if name is not None and not self.is_elemental(name):
                found.append(n)
                return False
            return True

        visit_nodes(node, look)
        for n in found:
            pre = []
            value = self.expr(n, None, pre)
            out.extend(pre)
            tmp = self.temp("fvalue", ir.with_const(value.type, False))
            out.append(ir.Assign(ir.Ref(tmp), value, self.loc(n)))
            self.hoisted[id(n)] = ir.Ref(tmp)
        try:
            yield
        finally:
            for n in found:
                del self.hoisted[id(n)]

    def array_assignment(self, lhs_node, rhs_node, shape, out, loc, mask):
        F = f2003()
        if isinstance(rhs_node, F.Intrinsic_Function_Reference) and \
                name_of(rhs_node.items[0]) == "matmul" and mask is None:
            return self.matmul(lhs_node, rhs_node, out, loc)
        if is_pack(rhs_node) and mask is None:
            return self.pack(lhs_node, rhs_node, out, loc)
        if isinstance(rhs_node, F.Array_Constructor):
            if mask is None and self.storage_key(base_name_of(lhs_node)) not in \
                    {self.storage_key(name_of(n)) for n in walk_type(rhs_node, F.Name)}:
                return self.array_constructor(lhs_node, rhs_node, out, loc)
            # `v = [v(2), v(1)]`, or under a WHERE mask: the values first, then the
            # assignment
            rhs_node = self.constructor_temp(rhs_node, lhs_node, out)
        # Fortran evaluates the right-hand side before assigning: when the target array
        # is read at other positions, go through a temporary.
        lhs_name = base_name_of(lhs_node)
        moved = {id(r) for c in walk_type(rhs_node, F.Intrinsic_Function_Reference)
                 if name_of(c.items[0]) in ("cshift", "eoshift", "transpose", "spread",
                                          "reshape")
                 for r in array_refs(c.items[1])}
        # the same designator is read at the positions it is assigned, unless cshift or
        # transpose moves its elements (another name of the same array may read others)
        lhs_key = self.storage_key(lhs_name)
        overlap = any(self.storage_key(base_name_of(r)) == lhs_key and
                      (str(r) != str(lhs_node) or id(r) in moved) for r in array_refs(rhs_node))
        if overlap:
            tmp_v = self.temp_array(shape, self.lookup(lhs_name, lhs_node).type, lhs_node)
            # under a WHERE mask, both the evaluation and the copy back take its elements
            self.elementwise(shape, lambda ks, pre: (
                self.element(tmp_v, ks), self.expr(rhs_node, ks, pre)), out, loc,
                mask=mask)
            self.elementwise(shape, lambda ks, pre: (
                self.designator(lhs_node, ks), self.element(tmp_v, ks)), out, loc,
                mask=mask)
            return
        self.elementwise(shape, lambda ks, pre: (self.designator(lhs_node, ks, pre),
                                                 self.expr(rhs_node, ks, pre)), out, loc,
                         mask=mask)

    def elementwise(self, shape, make, out, loc, mask=None, after=()):
        """Nested loops over an array shape ([(lower, upper, stride)]), column-major:
        the first dimension innermost. make(counters, pre) gives (target, value); the
        statements `after` follow each assignment."""
        counters = [self.temp("k", ir.INT) for _ in shape]
        pre = []
        self.loop_invariant.append(out)         # where reductions go (see reduction)
        try:
            target, value = make([ir.Ref(k) for k in counters], pre)
        finally:
            self.loop_invariant.pop()
        if target.type.resolved().is_struct != value.type.resolved().is_struct:
            raise AdgenError("an array of structures assigned numbers, or numbers assigned "
                             "structures (a defined assignment), is not supported", loc)
        mismatch = T.other_type_assigned(target.type, value.type)
        if mismatch is not None:
            raise AdgenError(mismatch, loc)
        body = pre + [ir.Assign(target, convert_to(value, target.type), loc)] + list(after)
        if mask is not None:
            body = [ir.If(mask([ir.Ref(k) for k in counters]), ir.Block(body), None, loc)]
        for k, (lo, hi, st) in zip(counters, shape):
            ext = triplet_count(lo, hi, st)
            body = [ir.For([ir.Assign(ir.Ref(k), ir_int(0), loc)],
                           ir.Binary("<", ir.Ref(k), ext, ir.INT),
                           [increment(k, loc)], ir.Block(body), loc)]
            # the section's bounds are evaluated once, before the assignment (see settle)
            self.loop_ends.append((body[0], "extent"))
        out.extend(body)

    def temp_array(self, shape, t, like):
        """A temporary array of the given shape, that of the designator `like`. Its
        elements are stored densely; temporaries are declared on entry (C variable-length
        arrays), so where the shape depends on variables set in the body (`a(k:n)`), the
        storage is that of the whole dimensions of `like`'s array; where it depends on
        dummy arguments or module variables the procedure may change, too (see
        settle)."""
        dims = [(ir_int(0), triplet_count(lo, hi, st)) for lo, hi, st in shape]
        if self.heap_sized(dims):
            return self.heap_temp(t, dims)
        extents = [(self.at_entry(triplet_count(*d)), self.at_entry(whole))
                   for d, whole in zip(shape, self.dimension_extents(like))]
        return self.entry_temp("tmp", t, extents, dims, self.loc(like))

    def entry_temp(self, name, t, extents, dims, loc):
        """A temporary array of type t declared on entry (see settle), its size from
        extents, [(extent at entry, whole extent)] (see temp_size); its FVar, with dims."""
        sym = self.temp(name, None)
        self.temp_arrays.append((sym, extents, loc))
        sym.type = ir.Arr(t, temp_size(extents, self.size_dependency, loc))
        return FVar(sym.name, t, sym=sym, dims=dims)

    def heap_sized(self, dims):
        """Whether an array of these [(lower, extent)] has the shape of an allocatable
        array: known once it is allocated, so a temporary of it goes on the heap."""
        return any(isinstance(x, ir.Ref) and x.sym in self.allocatable_bounds or
                   _descriptor_bound(x) for _, n in dims for x in ir.walk(n))

    def heap_temp(self, t, dims):
        """A temporary array of type t and these [(lower, extent)], allocated on the heap
        just before the statement being lowered and freed after it (see statement)."""
        sym = self.temp("tmp", ir.Ptr(t))
        sym.statement_temp = True   # allocated and freed around one statement
        size = None
        for _, n in dims:
            size = X.clone(n) if size is None else X.mul(size, X.clone(n))
        self.heap_temps.append((sym, size))
        return FVar(sym.name, t, sym=sym, dims=dims)

    def element(self, v, ks):
        """The element of the temporary array v that the counters ks (from 0 in each
        dimension, as elementwise gives them) select."""
        return self.array_element(v, [X.add(k, X.clone(lo)) for k, (lo, _) in
                                      zip(ks, v.dims)], None)

    def shape_of(self, node):
        """[(lower, upper, stride)] of an array-valued designator; None for a scalar."""
        F = f2003()
        if isinstance(node, F.Name):
            v = self.array_var(name_of(node), node)
            if v is None:
                return None
            if any(ext is None for _, ext in v.dims):
                raise self.error(node, f"whole assumed-size array '{v.name}' has no shape")
            return [(lo, X.sub(X.add(lo, ext), ir_int(1)), ir_int(1)) for lo, ext in v.dims]
        if isinstance(node, F.Part_Ref):
            v = self.array_var(name_of(node.items[0]), node)
            if v is None:
                return None
            shape = []
            for (lo, ext), sub in zip(v.dims, node.items[1].items):
                if isinstance(sub, F.Subscript_Triplet):
                    shape.append(self.triplet(sub, lo, ext, node))
                elif self.vector_subscript(sub, node):
                    # a vector subscript u(idx): the dimension runs over idx's elements
                    lower, upper, stride = self.operand_shape(sub)[0]
                    shape.append((ir_int(1), triplet_count(lower, upper, stride), ir_int(1)))
            return shape or None
        if array_inquiry(node):
            return [(ir_int(1), ir_int(len(self.array_bounds(node.items[1].items[0]) or [])),
                     ir_int(1))]
        reshaped = self.reshape_shape(node)
        if reshaped is not None:
            return [(ir_int(1), ext, ir_int(1)) for ext in reshaped[1]]
        spread = self.spread_dimension(node)
        if spread is not None:
            along, copies, source = spread
            shape = list(self.operand_shape(source) or ())
            return shape[:along] + [(ir_int(1), copies, ir_int(1))] + shape[along:]
        reduced = self.reduced_dimension(node)
        if reduced is not None:
            along, arg = reduced
            shape = list(self.operand_shape(arg))
            return shape[:along] + shape[along + 1:]
        located = self.location_rank(node)
        if located is not None:
            return [(ir_int(1), ir_int(located), ir_int(1))]
        if isinstance(node, F.Intrinsic_Function_Reference) and \
                name_of(node.items[0]) == "transpose":
            (arg,) = self.intrinsic_arguments("transpose", node.items[1].items, node)
            shape = self.shape_of(arg)
            return shape[::-1] if shape is not None and len(shape) == 2 else None
        return None

    def where_construct(self, node, out):
        F = f2003()
        kids = self.construct_parts(node)
        mask_node = kids[0].items[0]
        branches = [(mask_node, [])]
        for c in kids[1:]:
            cname = type(c).__name__
            if cname in ("Elsewhere_Stmt", "Masked_Elsewhere_Stmt"):
                m = c.items[0] if cname == "Masked_Elsewhere_Stmt" else None
                branches.append((m, []))
            elif cname == "End_Where_Stmt":
                pass
            elif isinstance(c, F.Assignment_Stmt):
                branches[-1][1].append((c, True))
            elif isinstance(c, F.Comment):
                pass
            else:
                raise self.error(c, "only assignments are supported inside WHERE")
        # The masks are evaluated once, before any assignment (which may change what
        # they read): into integer temporaries of the shape of the first assignment.
        first = next((a for _, assigns in branches for a, _ in assigns), None)
        if first is None:
            return
        shape = self.shape_of(first.items[0])
        if shape is None:
            raise self.error(first, "WHERE needs an array assignment")
        masks = []
        for m, _ in branches:
            if m is None:
                masks.append(None)
                continue
            masks.append(self.where_mask(m, shape, first.items[0], out, self.loc(node)))
        # each branch applies where its mask holds and no earlier mask did
        previous = []
        for (m, assigns), mv in zip(branches, masks):
            self.where_assign(mv, assigns, previous, out, self.loc(node), shape)
            if mv is not None:
                previous.append(mv)

    def where_mask(self, mask_node, shape, lhs_node, out, loc):
        """A temporary array of ints of the shape of the WHERE's first assignment (to
        lhs_node) set (in out) to the mask's values; its FVar. matmul and pack in the mask
        go to temporaries first."""
        mv = self.temp_array(shape, ir.INT, lhs_node)
        m = self.without_constructors(self.without_products(mask_node, out), out)
        with self.calls_hoisted(m, out):
            self.elementwise(shape, lambda ks, pre: (
                self.element(mv, ks), self.expr(m, ks, pre)), out, loc)
        return mv

    def where_assign(self, mask_v, assigns, not_masks, out, loc, shape):
        for a, _ in assigns:
            lhs, rhs = (a.items[0], a.items[2])

            def mask(ks, mask_v=mask_v):
                test = None
                for m in not_masks:
                    t = ir.Unary("!", self.element(m, ks), ir.INT)
                    test = t if test is None else ir.Binary("&&", test, t, ir.INT)
                if mask_v is not None:
                    t = self.element(mask_v, ks)
                    test = t if test is None else ir.Binary("&&", test, t, ir.INT)
                return test if test is not None else ir_int(1)

            if self.shape_of(lhs) is None:
                raise self.error(a, "WHERE needs an array assignment")
            # matmul and pack are evaluated whole, as Fortran does for transformational
            # functions under WHERE: into temporaries, assigned where the mask holds
            rhs = self.without_products(rhs, out)
            rhs = self.without_constructors(rhs, out, keep=rhs)
            self.assignment(lhs, rhs, out, self.loc(a), mask=mask)

    def matmul_operands(self, call):
        """(a, b, shape of a, shape of b) of matmul(a, b): a matrix times a matrix or a
        vector, or a vector times a matrix (`matmul(v, m)`, the vector v taken as a
        row)."""
        a_node, b_node = self.intrinsic_arguments("matmul", call.items[1].items, call)
        sa, sb = self.operand_shape(a_node), self.operand_shape(b_node)
        if not sa or not sb or (len(sa), len(sb)) not in ((2, 2), (2, 1), (1, 2)):
            raise self.error(call, "matmul is supported for matrix x matrix, matrix x "
                                   "vector and vector x matrix")
        return a_node, b_node, sa, sb

    def matmul_shape(self, call):
        """The shape of matmul(a, b): the rows of a (a matrix), the columns of b (a
        matrix)."""
        _, _, sa, sb = self.matmul_operands(call)
        return ([sa[0]] if len(sa) == 2 else []) + ([sb[1]] if len(sb) == 2 else [])

    def matmul(self, lhs_node, call, out, loc):
        a_node, b_node, sa, sb = self.matmul_operands(call)
        shape = self.shape_of(lhs_node)
        target_t = self.lookup(base_name_of(lhs_node), lhs_node).type
        if self.storage_key(base_name_of(lhs_node)) in \
                {self.storage_key(base_name_of(r)) for r in array_refs(call)}:
            raise self.error(call, "matmul into one of its own arguments")
        inner = triplet_count(*sa[-1])
        k = self.temp("k", ir.INT)
        acc = self.temp("acc", target_t)

        def make(ks, pre):
            # the product's element ks: row ks[0] of a (a itself when a vector) times
            # column ks[-1] of b (b itself when a vector)
            kk = ir.Ref(k)
            a = self.expr(a_node, [ks[0], kk] if len(sa) == 2 else [kk], pre)
            b = self.expr(b_node, [kk, ks[-1]] if len(sb) == 2 else [kk], pre)
            pre += [ir.Assign(ir.Ref(acc), X.zero(target_t), loc),
                    ir.For([ir.Assign(ir.Ref(k), ir_int(0), loc)],
                           ir.Binary("<", ir.Ref(k), inner, ir.INT),
                           [increment(k)],
                           ir.Block([ir.Assign(ir.Ref(acc), ir.Binary(
                               "+", ir.Ref(acc), ir.Binary("*", a, b, target_t), target_t),
                               loc)]), loc)]
            return self.designator(lhs_node, ks), ir.Ref(acc)

        self.elementwise(shape, make, out, loc)

    # ------------------------------------------------------ structure constructors
    def constructed_type(self, node):
        """The DerivedType that node builds when it is a structure constructor (`t(v1,
        c=v2)`; fparser reads one as a function reference or an array element when the
        type comes from a module), else None."""
        F = f2003()
        if isinstance(node, F.Part_Ref) or type(node).__name__ in CALL_NODES:
            return self.types.get(name_of(node.items[0]))
        return None

    def constructor_values(self, ctor):
        """{component name: its value's node} of a structure constructor, the values
        given in order or by keyword (the components left out are not in it)."""
        F = f2003()
        dtype = self.constructed_type(ctor)
        given = {}
        args = ctor.items[1].items if ctor.items[1] is not None else ()
        first = None
        if args and dtype.parent is not None and \
                not isinstance(args[0], (F.Component_Spec, F.Actual_Arg_Spec)):
            first = self.constructed_type(args[0]) or \
                T.derived_type_of(self.argument_kind(args[0])[1])
        comps = dtype.constructor_order(first)
        for k, a in enumerate(args):
            if isinstance(a, (F.Component_Spec, F.Actual_Arg_Spec)):
                name, value = name_of(a.items[0]), a.items[1]
            elif given and len(given) != k:
                raise self.error(ctor, f"a value by position after one by keyword in '{ctor}'")
            elif k >= len(comps):
                raise self.error(ctor, f"'{ctor}' gives more values than '{dtype.name}' has "
                                       "components")
            else:
                name, value = comps[k], a
            if dtype.component_chain(name) is None:
                raise self.error(ctor, f"'{dtype.name}' has no component '{name}'")
            if name in given:
                raise self.error(ctor, f"'{ctor}' gives the component '{name}' twice")
            given[name] = value
        for name in given:
            holder = next((c.name for c in dtype.component_chain(name)[:-1]
                           if c.name in given), None)
            if holder is not None:
                raise self.error(ctor, f"'{ctor}' gives both the parent component "
                                       f"'{holder}' and its component '{name}'")
        return given

    def structure_assignment(self, lhs_node, ctor, out, loc):
        """`s = t(v1, v2, c=v3)`: each component of s assigned its value (given in order
        or by keyword, else the component's default value), as its own assignment; through
        a temporary structure when the values read s (`p = t(p%y, p%x)`) or when s's
        subscripts need statements (a function reference) to be evaluated once."""
        F = f2003()
        dtype = self.constructed_type(ctor)
        given = self.constructor_values(ctor)
        if self.shape_of(lhs_node) is not None:
            raise self.error(ctor, f"the structure constructor '{ctor}' assigned to the "
                                   f"array '{lhs_node}' is not supported (assign it to each "
                                   "element)")
        pre = []
        target = self.designator(lhs_node, pre=pre)
        if T.derived_type_of(target.type) is not dtype:
            raise self.error(ctor, f"'{ctor}', of type '{dtype.name}', assigned to "
                                   f"'{lhs_node}' of another type")
        read = {self.storage_key(name_of(n)) for n in walk_type(list(given.values()), F.Name)}
        final = copied_to = None
        if (pre or self.storage_key(base_name_of(lhs_node)) in read) and \
                dtype.allocatable_paths():
            # (copied to s as a whole, allocatable components deep: structure_copy)
            copied_to, lhs_node = lhs_node, F.Name(self.structure_temp(dtype))
            target = self.designator(lhs_node)
        elif pre or self.storage_key(base_name_of(lhs_node)) in read:
            sym = self.temp("value", ir.with_const(target.type, False))
            self.vars[sym.name] = FVar(sym.name, sym.type, sym=sym)
            final = ir.Assign(target, ir.Ref(sym, loc), loc)
            lhs_node, target = F.Name(sym.name), ir.Ref(sym, loc)

        def assign(dt, structure):
            # (the components a parent component holds by their own names, `s%x`)
            for c in dt.components.values():
                if c.allocatable:
                    self.allocatable_component_value(f"{lhs_node}%{c.name}", c,
                                                     given.get(c.name), out)
                elif c.name in given:
                    stmt = F.Assignment_Stmt(f"{lhs_node}%{c.name} = 0")
                    stmt.items = (stmt.items[0], "=", given[c.name])
                    T.replace_data_refs(stmt)
                    self.lower_statement(stmt, out)
                elif c is dt.parent:
                    assign(T.derived_type_of(c.type), T.member(X.clone(structure), c, loc))
                elif T.has_default(c):
                    out.extend(T.component_default(T.member(X.clone(structure), c, loc), c,
                                                   loc, lambda: self.temp("k", ir.INT)))
                else:
                    raise self.error(ctor, f"'{ctor}' gives no value for the component "
                                           f"'{c.name}', which has no default value")
        assign(dtype, target)
        if copied_to is not None:
            self.structure_copy(copied_to, lhs_node, dtype, out)
        elif final is not None:
            out.extend(pre)
            out.append(final)

    def structures_hoisted(self, node, out, loc):
        """An assignment or call reading temporary structures, set in out, instead of
        the structure constructors in its expressions (`call step(s, params_t(dt, nu))`)."""
        found = [n for n in walk_nodes(node) if self.constructed_type(n) is not None]
        outer = [n for n in found
                 if not any(m is not n and any(x is n for x in walk_nodes(m)) for m in found)]
        if not outer:
            return node
        F = f2003()
        replacements = {}
        for ctor in outer:
            dtype = self.constructed_type(ctor)
            if dtype.allocatable_paths():
                name = self.structure_temp(dtype)
            else:
                sym = self.temp("value", ir.Struct(dtype.sdef))
                name = sym.name
                self.vars[name] = FVar(name, sym.type, sym=sym)
            self.structure_assignment(F.Name(name), ctor, out, loc)
            replacements[id(ctor)] = F.Name(name)
        return replace_nodes(node, replacements)

    def hoist_constructors(self, node, out):
        """An assignment or call with array constructors, matmul or functions that return
        arrays inside its expressions (`sum(x * [1d0, 2d0, 1d0])`): each goes into a
        temporary array set just before the statement, which reads the temporary instead
        (a copy of node). A constructor or matmul that is a whole right-hand side is left
        to assignment."""
        F = f2003()
        node = self.without_products(self.without_array_functions(node, out), out)
        return self.without_constructors(
            node, out, keep=node.items[2] if isinstance(node, F.Assignment_Stmt) else None)

    def without_products(self, node, out):
        """node reading temporaries, set in out, instead of its matmul products and packed
        values (see without_matmuls and without_packs)."""
        return self.without_packs(self.without_matmuls(node, out), out)

    def without_packs(self, node, out):
        """An assignment or call with pack(array, mask) inside its expressions (`s =
        sum(pack(x, x > 0))`, `call g(pack(x, m))`): each packed value goes into a
        temporary array of its length (the mask's count) set just before the statement,
        which reads the temporary instead. A pack that is a whole right-hand side is left
        to assignment; given an expression (under WHERE), every pack goes to a temporary."""
        F = f2003()
        keep = node.items[2] if isinstance(node, F.Assignment_Stmt) else None
        while True:
            innermost = [p for p in walk_type(node, F.Intrinsic_Function_Reference)
                         if is_pack(p) and p is not keep and
                         not any(is_pack(x) for x in walk_type(
                             p.items[1], F.Intrinsic_Function_Reference))]
            if not innermost:
                return node
            p = innermost[0]
            args = self.intrinsic_arguments("pack", p.items[1].items, p)
            temp = self.value_temp(p, self.elem_type(args[0]), out)
            node = replace_nodes(node, {id(p): temp})

    def without_matmuls(self, node, out):
        """An assignment or call with matmul inside its expressions (`x = x + matmul(k,
        v)`): each product goes into a temporary array computed just before the statement
        (inner ones first), which reads the temporary instead. A matmul that is a whole
        right-hand side is left to assignment, but for one that reads the array assigned
        (`x = matmul(a, x)`), which goes through a temporary too. Given an expression (the
        right-hand side of a WHERE assignment), every product goes to a temporary."""
        F = f2003()

        def is_matmul(n):
            return isinstance(n, F.Intrinsic_Function_Reference) and \
                name_of(n.items[0]) == "matmul"

        while True:
            keep = None
            if isinstance(node, F.Assignment_Stmt) and is_matmul(node.items[2]) and \
                    self.storage_key(base_name_of(node.items[0])) not in \
                    {self.storage_key(base_name_of(r)) for r in array_refs(node.items[2])}:
                keep = node.items[2]
            innermost = [m for m in walk_type(node, F.Intrinsic_Function_Reference)
                         if is_matmul(m) and m is not keep and
                         not any(is_matmul(x) for x in walk_type(m.items[1],
                                                                 F.Intrinsic_Function_Reference))]
            if not innermost:
                return node
            m = innermost[0]
            node = replace_nodes(node, {id(m): self.matmul_temp(m, node, out)})

    def matmul_temp(self, call, node, out):
        """A temporary array set (in out) to the product matmul(a, b); the name that reads
        it."""
        F = f2003()
        loc = self.loc(node)
        a_node, b_node, sa, sb = self.matmul_operands(call)
        t = ir.arith_result(self.elem_type(a_node), self.elem_type(b_node))
        # the whole dimensions its extents come from size the temporary where the
        # product's own extents change in the procedure (temp_array)
        shape = self.matmul_shape(call)
        wholes = ([self.operand_extents(a_node)[0]] if len(sa) == 2 else []) + \
            ([self.operand_extents(b_node)[1]] if len(sb) == 2 else [])
        extents = [(self.at_entry(triplet_count(*d)), self.at_entry(w) if w is not None else None)
                   for d, w in zip(shape, wholes)]
        dims = [(ir_int(1), triplet_count(*d)) for d in shape]
        if self.heap_sized(dims) and not self.tests:
            # the shape of an allocatable argument: on the heap for the statement (a test
            # may be evaluated again after its loop's body reallocated the argument)
            v = self.heap_temp(t, dims)
        else:
            v = self.entry_temp("product", t, extents, dims, loc)
        self.vars[v.sym.name] = v
        self.matmul(F.Name(v.sym.name), call, out, loc)
        return F.Name(v.sym.name)

    def without_constructors(self, node, out, keep=None):
        """node (an expression) reading temporaries, set in out, instead of its array
        constructors and the values of functions that return arrays; keep: a constructor
        left as it is."""
        return self.constructors_hoisted(self.without_array_functions(node, out), out, keep)

    def constructors_hoisted(self, node, out, keep=None):
        """node reading temporaries, set in out, instead of its array constructors."""
        F = f2003()
        inner = [c for c in walk_type(node, F.Array_Constructor) if c is not keep]
        if not inner:
            return node
        return replace_nodes(node, {id(c): self.constructor_temp(c, node, out)
                                     for c in inner})

    def without_array_functions(self, node, out):
        """node reading temporaries instead of its references to functions that return
        arrays: each function, a subroutine with its result as one more dummy argument
        (see build), is called before the statement (the innermost references first) to
        set a temporary array of the result's shape."""
        return self.references_replaced(node, self.array_function, self.array_function_temp,
                                        out)

    def references_replaced(self, node, picks, temp, out):
        """node reading temporaries instead of the function references that picks gives a
        procedure for, the innermost first (their values are arguments of the outer
        ones): temp(reference, out) sets one in out and gives the name that reads it."""
        while True:
            refs = [n for n in walk_nodes(node) if picks(n)]
            inner = [r for r in refs if not any(picks(n) for n in walk_nodes(r) if n is not r)]
            if not inner:
                return node
            node = replace_nodes(node, {id(r): temp(r, out) for r in inner})

    def referenced_procedure(self, node):
        """The procedure of the program node references (a generic's specific one), or
        None."""
        name = self.called_function(node)
        if name in self.generics and self.known_procedure(name) is None:
            return self.specific_procedure(name, node)
        if name is not None:
            return self.dummy_procs.get(name) or self.known_procedure(name)
        return None

    def array_function(self, node):
        """The procedure node references when it is a function of the program that
        returns an array; None otherwise."""
        f = self.referenced_procedure(node)
        return f if getattr(f, "array_result", False) else None

    def array_function_temp(self, ref, out):
        """A temporary array set (in out) by a call of the function ref references; the
        name that reads it. Its shape is the result's declared one with the actual
        arguments for the dummy arguments."""
        f = self.array_function(ref)
        loc = self.loc(ref)
        # its arguments' matmul and array constructors first, as those of a CALL
        ref = self.constructors_hoisted(self.without_products(ref, out), out)
        args = call_arguments(ref)
        pre = []
        if getattr(f, "allocatable_result", False):
            return self.handed_over_temp(f, ref, args, pre, out, loc)
        call = self.user_call(name_of(ref.items[0]), args, ref, pre,
                              results=[X.null(ir.Ptr(ir.DOUBLE), loc)])
        at = next(k for k, p in enumerate(f.params) if getattr(p, "is_result", False))
        actual = dict(zip(f.params, call.args))
        # an expression passed through a temporary (argument_temporary): its value
        passed = {st.lhs.sym: st.rhs for st in pre if isinstance(st, ir.Assign) and
                  isinstance(st.lhs, ir.Ref) and st.lhs.sym in self.temps}
        extents, current = [], []
        for ext in f.result_extents:
            e = substitute(_address_read(substitute(_entry_expr(ext), actual)), passed)
            left = next((r.sym for r in ir.walk(e) if isinstance(r, ir.Ref) and
                         r.sym in actual), None)
            if left is not None:
                raise self.error(ref, f"the shape of the array '{f.name}' returns depends on "
                                      f"'{ir.source_name(left)}' in a way adgen cannot follow "
                                      "to the call: not supported")
            extents.append((self.at_entry(e), None))
            current.append((ir_int(1), e))
        t = ir.pointee(f.params[at].type)
        if self.heap_sized(current) and not self.tests:
            # the shape of an allocatable actual argument: on the heap for the statement
            v = self.heap_temp(t, current)
        else:
            v = self.entry_temp("result", t, extents,
                                [(ir_int(1), X.clone(e)) for e, _ in extents], loc)
        self.vars[v.sym.name] = v
        call.args[at] = ir.Ref(v.sym, loc)
        out.extend(pre)
        out.append(ir.ExprStmt(call, loc))
        return f2003().Name(v.sym.name)

    def handed_over_temp(self, f, ref, args, pre, out, loc):
        """The temporary that a call of f, a function with an ALLOCATABLE result, hands
        its result over to (see handover_params): a pointer to the storage f allocated,
        freed after the statement, and its extents; the name that reads it."""
        if self.tests:
            # (evaluated again in each iteration of a loop it controls, freed once)
            raise self.error(ref, f"'{f.name}' returns an ALLOCATABLE array: supported in "
                                  "assignments and CALL statements, not in a condition or "
                                  "a loop bound (assign its value to an array first)")
        data = next(p for p in f.params if getattr(p, "handover", False))
        t = ir.pointee(ir.pointee(data.type))
        sym = self.temp("result", ir.Ptr(t))
        sym.statement_temp = True       # freed after the statement (see statement)
        extents = [self.temp("result_extent", ir.INT) for _ in range(f.result_rank)]
        self.allocatable_bounds |= set(extents)     # known once the call has run
        sym.extent_vars = extents
        handover = [ir.AddrOf(ir.Ref(sym, loc), ir.Ptr(sym.type), loc)] + \
            [ir.AddrOf(ir.Ref(e, loc), ir.Ptr(ir.INT), loc) for e in extents]
        call = self.user_call(name_of(ref.items[0]), args, ref, pre, results=handover)
        self.heap_temps.append((sym, None))
        v = FVar(sym.name, t, sym=sym, dims=[(ir_int(1), ir.Ref(e, loc)) for e in extents])
        self.vars[sym.name] = v
        out.extend(pre)
        out.append(ir.ExprStmt(call, loc))
        return f2003().Name(sym.name)

    def expr_before(self, node, pre):
        """A scalar expression evaluated once, its set-up (the temporaries of its array
        constructors, array functions and matmul products) in pre: a test, a selector, a DO
        bound."""
        self.tests += 1
        try:
            node = self.component_elements(node)
            node = self.without_matmuls(self.without_array_functions(node, pre), pre)
            return self.expr(self.without_constructors(node, pre), pre=pre)
        finally:
            self.tests -= 1

    def constructor_temp(self, ctor, node, out):
        """A temporary array set (in out) to the values of the array constructor ctor, of
        scalar items; the name that reads it."""
        F = f2003()
        loc = self.loc(node)
        implied = walk_type(ctor, F.Ac_Implied_Do)
        if implied and self.constructor_length(ctor) is None:
            raise self.error(node, "an array constructor with nested implied-do lists, or "
                                   "arrays in one, is supported as the whole right side of an "
                                   "assignment only")
        items = constructor_items(ctor, implied=True)
        arrays = [it for it in items if not isinstance(it, F.Ac_Implied_Do) and
                  self.operand_shape(it)]
        if arrays or implied:
            # (all items of a constructor have one type and kind)
            t = self.elem_type(arrays[0]) if arrays else \
                self.expr(implied_values(implied[0])[0], pre=[]).type
            length = self.constructor_length(ctor)
            if const_int(length) is not None:
                sym = self.temp("ctor", ir.Arr(t, X.clone(length)))
                self.vars[sym.name] = FVar(sym.name, t, sym=sym, dims=[(ir_int(1), length)])
            else:
                sym = self.statement_array(t, [length], out, loc).sym
            self.array_constructor(F.Name(sym.name), ctor, out, loc)
            return F.Name(sym.name)
        pre = []
        values = [self.expr(it, pre=pre) for it in items]
        t = values[0].type
        for v in values[1:]:
            t = ir.arith_result(t, v.type)
        sym = self.temp("ctor", ir.Arr(t, ir_int(len(values))))
        self.vars[sym.name] = FVar(sym.name, t, sym=sym, dims=[(ir_int(1), ir_int(len(values)))])
        out.extend(pre)
        out.extend(ir.Assign(ir.Index(ir.Ref(sym, loc), ir_int(k), t, loc), convert_to(v, t), loc)
                   for k, v in enumerate(values))
        return F.Name(sym.name)

    def array_constructor(self, lhs_node, ctor, out, loc):
        F = f2003()
        shape = self.shape_of(lhs_node)
        if len(shape) != 1:
            raise self.error(ctor, "array constructors are supported for rank-1 targets")
        pos = self.temp("pos", ir.INT)
        out.append(ir.Assign(ir.Ref(pos), ir_int(0), loc))
        lo, hi, st = shape[0]


        def put(value_node):
            item_shape = self.operand_shape(value_node)
            if item_shape:
                # an array item: its elements in array element order
                body = []
                self.elementwise(item_shape, lambda ks, pre: (
                    self.designator(lhs_node, [ir.Ref(pos)], pre),
                    self.expr(value_node, ks, pre)), body, loc, after=[increment(pos, loc)])
                return body
            pre = []
            target = self.designator(lhs_node, [ir.Ref(pos)])
            value = self.expr(value_node, pre=pre)
            return pre + [ir.Assign(target, convert_to(value, target.type), loc),
                          increment(pos, loc)]

        items = ctor.items[1].items if hasattr(ctor.items[1], "items") else [ctor.items[1]]
        for it in items:
            if isinstance(it, F.Ac_Implied_Do):
                values, control = it.items
                var_node, bounds = control.items[0], control.items[1]
                v = self.lookup(name_of(var_node), it)
                var = self.value(v, it)
                bounds = self.do_bounds(v, bounds, it)
                body = []
                for val in (values.items if hasattr(values, "items") and
                            type(values).__name__.endswith("List") else [values]):
                    body += put(val)
                out.extend(self.counted_loop(var, bounds, body, loc))
            else:
                out.extend(put(it))


def _descriptor_bound(e):
    """Whether e reads a bound of an array descriptor (an allocatable component's or
    module variable's, known once it is allocated)."""
    return isinstance(e, ir.Member) and isinstance(e.base, ir.Index) and \
        e.base.type is DESCRIPTOR_DIM


def _entry_expr(e):
    """e with the placeholders of entry values (see Scope.entry_bound) replaced by the
    expressions they stand for."""
    if isinstance(e, ir.Ref) and hasattr(e.sym, "entry_value"):
        return _entry_expr(X.clone(e.sym.entry_value))
    return X.map_children(e, _entry_expr)


def _address_read(e):
    """e with each *&x read as x."""
    e = X.map_children(e, _address_read)
    if isinstance(e, ir.Deref) and isinstance(e.ptr, ir.AddrOf):
        return e.ptr.arg
    return e
