"""Calls in the Fortran front end's Scope (CallsMixin): type-bound procedures, the
procedure a call names, actual arguments (keywords, optional ones, copies of sections,
hidden extents), and the calls of subroutines and functions."""
from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_helpers import (CALL_NODES, INTRINSIC_MATH, FVar,
                                            argument_value, base_name_of, call_arguments,
                                            const_int, convert_to, f2003, ir_int,
                                            keyword_of, line_of, name_of, returns_array,
                                            rewrite_in_place, storage_name, triplet_count,
                                            visit_nodes, walk_type)


# Fortran's other intrinsic subroutines (not procedures of the input, whose sources it
# would lack): refused by name
_INTRINSIC_SUBROUTINES = {"move_alloc", "random_number", "random_seed", "date_and_time",
                          "get_command_argument", "get_command", "get_environment_variable",
                          "execute_command_line", "mvbits", "random_init"}


class CallsMixin:
    """Scope's calls (fortran_front.Scope)."""

    # ------------------------------------------------------ type-bound procedures
    def bound_calls(self, tree):
        """Each call through a type-bound procedure in the parse tree replaced, in place,
        by a plain call (see bound_call); errors name the statement's line. First, each
        SELECT TYPE of a CLASS dummy is replaced by the statements of the block its type
        selects (selected_types)."""
        self.selected_types(tree)
        current = getattr(self, "current", None)

        def enter(node):
            if line_of(node):
                self.current = node
        try:
            rewrite_in_place(tree, self.bound_call, enter)
        finally:
            self.current = current

    def selected_types(self, tree):
        """Each SELECT TYPE (c), or (p => c), of a CLASS variable c (a dummy, the host's,
        a local polymorphic scalar) in the parse tree replaced, in place, by the statements
        of the block c's type selects: c is of the type of the object its callers pass
        (exact_copy), or of the one its procedure gives it (polymorphic_type), known here. The block of TYPE IS (that type), else
        of CLASS IS of the nearest of that type and the types it extends, else of CLASS
        DEFAULT; none when no block is selected. Another selector is refused where the
        construct is lowered."""
        F = f2003()
        content = getattr(tree, "content", None)
        if not isinstance(content, list):
            return
        out = []
        for c in content:
            chosen = self.selected_block(c) if isinstance(c, F.Select_Type_Construct) \
                else None
            out += [c] if chosen is None else chosen
        content[:] = out
        for c in out:
            self.selected_types(c)

    def selected_block(self, node):
        """The statements SELECT TYPE construct node selects (see selected_types), None
        for a selector that is not a CLASS variable."""
        F = f2003()
        assoc, selector = next(c for c in node.content
                               if isinstance(c, F.Select_Type_Stmt)).items
        name = name_of(selector) if isinstance(selector, F.Name) else None
        if name is not None and name not in self.vars and self.host_has(name):
            self.lookup(name, selector)     # the host's CLASS dummy (host_variable)
        if name not in self.class_names:
            return None
        dt = T.derived_type_of(self.lookup(name, selector).type)
        blocks = []
        for c in node.content:
            if isinstance(c, (F.Select_Type_Stmt, F.End_Select_Type_Stmt)):
                continue
            if isinstance(c, F.Type_Guard_Stmt):
                guard = c.items[1]
                gdt = self.types.get(name_of(guard)) if isinstance(guard, F.Type_Name) \
                    else None
                if guard is not None and gdt is None and isinstance(guard, F.Type_Name):
                    raise self.error(c, f"'{c}': '{guard}' is not a derived type known here")
                blocks.append((c.items[0].upper().replace(" ", ""), gdt, []))
            elif blocks:
                blocks[-1][2].append(c)
        order = [("TYPEIS", dt)] + [("CLASSIS", d) for d in [dt] + dt.ancestors()] + \
            [("CLASSDEFAULT", None)]
        chosen = next((stmts for want in order for kind, gdt, stmts in blocks
                       if (kind, gdt) == want), [])
        # the associate name (`select type (p => obj)`) is another name of the selector,
        # whose type the block's is (the type it was given)
        return chosen if assoc is None else \
            [T.renamed_variable(c, name_of(assoc), name) for c in chosen]

    def bound_call(self, node):
        """For a call through a type-bound procedure (`call s%stretch(f)`,
        `s%energy(x)`, `s%unit_len()`), the call of the procedure its binding names with
        the object passed to the passed-object dummy (first, or by keyword for PASS(arg)
        naming another dummy; not at all for NOPASS); None for any other node. The
        object's type decides the procedure: its own binding, else the one it inherits from
        the nearest ancestor type. That type is the object's dynamic type: a CLASS(t) dummy
        is read as one of the type of the object passed (exact_copy)."""
        F = f2003()
        cls = type(node).__name__
        if cls in ("Call_Stmt", "Function_Reference") and \
                isinstance(node.items[0], F.Procedure_Designator):
            obj, _, bname = node.items[0].items
            bname = name_of(bname)
            args = list(call_arguments(node))
        elif isinstance(node, F.Part_Ref) and T.is_component_name(node.items[0]) and \
                len(node.items[0].parts) > 1:
            parts = node.items[0].parts
            obj = parts[0] if len(parts) == 2 else T.component_reference(parts[:-1])
            bname = T.component_path(node.items[0])[-1]
            args = list(node.items[1].items)
        else:
            return None
        otype, whole_array = self.object_type(obj)
        dtype = T.derived_type_of(otype) if otype is not None else None
        binding = next((d.bindings[bname] for d in [dtype] + dtype.ancestors()
                        if bname in d.bindings), None) if dtype is not None else None
        if binding is None:
            if cls == "Part_Ref":
                return None         # a component
            raise self.error(node, f"'{node.items[0]}': '{bname}' is no type-bound procedure "
                                   f"of the type of '{obj}'")
        if whole_array:
            raise self.error(node, f"a type-bound procedure referenced through the array "
                                   f"'{obj}' is not supported (reference it for each element)")
        if binding.procedure is None:
            # (a procedure whose CLASS dummy is of an abstract type runs as its copies for
            # the types of the objects given, exact_copy: this one, never called, is left
            # out of the output, f.error)
            raise self.error(node, f"'{node.items[0]}': the binding '{bname}' of "
                                   f"'{dtype.name}' is deferred, and '{obj}' is of that "
                                   "abstract type here, not of a type extending it")
        f = self.known_procedure(binding.procedure)
        if f is None:
            raise self.error(node, f"the procedure '{binding.procedure}' bound to '{bname}' "
                                   f"of '{dtype.name}' is not in the input")
        dummies = getattr(f, "dummy_names", None) or []
        if binding.pass_arg == "" or dummies[:1] == [binding.pass_arg]:
            args.insert(0, obj)
        elif binding.pass_arg is not None:
            keyword = F.Actual_Arg_Spec(f"{binding.pass_arg}=x")
            keyword.items = (keyword.items[0], obj)
            args.append(keyword)
        new = (F.Call_Stmt if cls == "Call_Stmt" else F.Function_Reference)(
            f"{'CALL ' if cls == 'Call_Stmt' else ''}{binding.procedure}(x)")
        arg_list = None
        if args:
            arg_list = F.Actual_Arg_Spec_List("x")
            arg_list.items = tuple(args)
        new.items = (new.items[0], arg_list)
        new.item = getattr(node, "item", None)
        return new

    def object_type(self, node):
        """(element type, whether node is a whole array) of the object of what may be a
        type-bound procedure's reference (a variable, an element, a component)."""
        F = f2003()
        if T.is_component_name(node) or \
                isinstance(node, F.Part_Ref) and T.is_component_name(node.items[0]):
            name = node if T.is_component_name(node) else node.items[0]
            v = T.resolve_component(self, str(name), node)
        else:
            base = node.items[0] if isinstance(node, F.Part_Ref) else node
            name = name_of(base) if isinstance(base, F.Name) else None
            if name is not None and name not in self.vars and \
                    self.implicit.get(name[0]) is None and not self.host_has(name):
                # not declared yet where this runs, before the body (an ASSOCIATE name, a
                # BLOCK's local): no object of a derived type known here
                return None, False
            v = self.lookup(name, node) if name is not None else None
        if v is None:
            raise self.error(node, f"the type of '{node}' is not known here")
        return v.type, bool(v.dims) and not isinstance(node, F.Part_Ref)

    # -------------------------------------------------------------------- calls
    def callee(self, name, node):
        if name in self.dummy_procs:
            return self.dummy_procs[name]
        if name in self.generics and self.known_procedure(name) is None:
            return self.specific_procedure(name, node)
        if name in getattr(getattr(self, "host", None), "dummy_procs", {}):
            raise self.error(node, f"the dummy procedure '{name}' of the host is called in "
                                   "an internal procedure: not supported (pass it as an "
                                   "argument)")
        if name in getattr(self, "dummies", ()):
            raise self.error(node, f"'{name}' is called but declared as a variable: declare "
                                   "the dummy procedure with an interface block, EXTERNAL or "
                                   "PROCEDURE()")
        f = self.known_procedure(name)
        if f is None and name in _INTRINSIC_SUBROUTINES and \
                name not in self.external_names and name not in self.interfaces:
            raise self.error(node, f"the intrinsic subroutine '{name}' is not supported")
        if f is None:
            # an external procedure not seen (yet): its signature comes from the call
            f = ir.Function(name, ir.VOID, [], ir.Block([]), loc=self.loc(node),
                            has_body=False)
            f.is_library = False
            f.link_name = name + "_"
            self.front.functions[name] = f
        return f

    def specific_procedure(self, name, node):
        """The specific procedure of the generic interface `name` a call or reference
        (node) means: the one whose dummies take its arguments, by type, kind and rank."""
        args = call_arguments(node)
        found = []
        for f in self.generics[name]:
            f = self.known_procedure(f) if isinstance(f, str) else f
            if f is not None and self.arguments_fit(f, args):
                found.append(f)
        if len(found) != 1:
            many = len(found) > 1
            raise self.error(node, f"the generic '{name}': {len(found) or 'no'} specific "
                                   f"procedure{'s' if many else ''} of the interface "
                                   f"take{'' if many else 's'} these arguments"
                                   + (" (or adgen has not their sources)" if not found else ""))
        return found[0]

    def arguments_fit(self, f, args):
        """Whether the dummies of f take these actual arguments: each one, by position
        or keyword, of the dummy's type and rank; the others OPTIONAL."""
        dummies = getattr(f, "dummy_names", None)
        if dummies is None:
            return False
        given = {}
        for k, a in enumerate(args):
            key = keyword_of(a)
            if key is None and k >= len(dummies) or key is not None and key not in dummies:
                return False
            given[dummies.index(key) if key is not None else k] = argument_value(a)
        optional = getattr(f, "optional_dummies", set())
        if any(k not in given and d not in optional for k, d in enumerate(dummies)):
            return False
        for k, a in given.items():
            p = f.params[k]
            want = ir.pointee(p.type).resolved() if p.type.resolved().is_pointer \
                else p.type.resolved()
            rank, elem = self.argument_kind(a)
            if rank != getattr(p, "fortran_rank", 0) or not _same_element(elem, want):
                return False
        return True

    def argument_kind(self, a):
        """(rank, element type) of an actual argument."""
        F = f2003()
        products, constructors = [], []

        def look(n):
            if isinstance(n, F.Intrinsic_Function_Reference) and \
                    name_of(n.items[0]) in ("matmul", "pack"):
                products.append(n)
            if isinstance(n, F.Array_Constructor):
                constructors.append(n)
                return False
            return not isinstance(n, (F.Intrinsic_Function_Reference, F.Part_Ref)) and \
                type(n).__name__ not in CALL_NODES
        visit_nodes(a, look)
        if products and products[0] is not a and not self.expr_shape(a):
            # an array expression whose only array operand is a product (`0.4d0 *
            # matmul(q, v) ** 2`): it has the product's rank
            return self.argument_kind(products[0])
        if isinstance(a, F.Intrinsic_Function_Reference) and \
                name_of(a.items[0]) in ("matmul", "pack"):
            # (their shapes are the temporaries' they get later: see without_products)
            args = self.intrinsic_arguments(name_of(a.items[0]), a.items[1].items, a)
            if name_of(a.items[0]) == "pack":
                return 1, self.elem_type(args[0]).resolved()
            ranks = [len(self.operand_shape(x) or ()) for x in args[:2]]
            return 1 if 1 in ranks else 2, ir.arith_result(
                self.elem_type(args[0]), self.elem_type(args[1])).resolved()
        shape = self.operand_shape(a)
        if shape:
            return len(shape), self.elem_type(a).resolved()
        if constructors:
            # an expression whose only array operands are constructors (`0.8d0 * ([s, t,
            # u(5)] - c)`): a vector (their temporaries come later: constructors_hoisted)
            return 1, self.elem_type(a).resolved()
        if self.is_string(a):
            return 0, ir.Prim("char")
        scratch = []
        return 0, self.expr(a, None, scratch).type.resolved()

    def known_procedure(self, name):
        """The procedure `name` names here, if the input has it (or has called it)."""
        f = getattr(self, "internal_procs", {}).get(name)
        if f is not None:
            return f
        f = getattr(self, "imported_procs", {}).get(name)
        if f is None and self.module is not None:
            f = self.module.procs.get(name)
        if f is None:
            f = self.front.functions.get(name)
        if getattr(f, "signature_error", None) is not None:
            raise f.signature_error     # (a caller cannot be read without the signature)
        return f

    def call_args(self, f, args, node, pre, strings, ks=None, post=None):
        """Fortran passes every argument by reference. An array given for a scalar dummy
        of an elemental function passes its current element (ks), through a temporary.
        strings: {position: (pointer, length)} of the CHARACTER arguments; post: where
        statements after the call go (a CALL statement's; None in a function
        reference)."""
        F = f2003()
        out = []
        for k, a in enumerate(args):
            if a is None:
                # an OPTIONAL dummy left out: a null pointer
                out.append(X.null(f.params[k].type, self.loc(node)))
                continue
            if k in strings:
                out.append(strings[k][0])       # its length: see user_call
                continue
            if k < len(f.params) and getattr(f.params[k], "value_dummy", False):
                # a VALUE dummy: the value, as gfortran passes it
                out.append(convert_to(self.expr(a, ks, pre), f.params[k].type))
                continue
            if k < len(f.params) and isinstance(f.params[k].type.resolved(), ir.FuncPtr):
                out.append(self.procedure_argument(f, k, a, node))
                continue
            if self.array_for_scalar(f, k, a):
                if ks is None or not getattr(f, "elemental", False):
                    raise self.error(a, f"array '{a}' passed for a scalar dummy argument of "
                                        f"'{name_of(node.items[0])}'" + (
                                            " outside an array expression (not supported)"
                                            if getattr(f, "elemental", False) else ""))
                out.append(self.argument_temporary(f, k, self.expr(a, ks, pre), a, pre))
                continue
            if isinstance(a, F.Name) and name_of(a) not in self.vars and \
                    self.known_procedure(name_of(a)) is not None and k < len(f.params):
                dummy = ir.source_name(f.params[k])
                raise self.error(a, f"the procedure '{name_of(a)}' is passed for '{dummy}' "
                                    f"of '{ir.source_name(f)}', which declares it as a "
                                    "variable: declare the dummy procedure with an interface "
                                    "block, EXTERNAL or PROCEDURE()")
            if isinstance(a, F.Name):
                v = self.lookup(name_of(a), a)
                if v.dims and v.element_of is not None:
                    out.append(self.view_copy(f, k, v, a, args, pre, post))
                    continue
                if v.dims:
                    out.append(self.array_base(v, a))
                    continue
                if v.const is None and v not in self.do_counters:
                    lv = self.value(v, a)
                    out.append(ir.AddrOf(lv, ir.Ptr(lv.type), self.loc(a)))
                    continue
                # the counter of a DO loop around, which the procedure may not change (as
                # Fortran asks): passed through a temporary, so that the loop stays
                # counted for the derivative code (its reversal, kept states, stack size)
            if isinstance(a, F.Part_Ref):
                v = self.array_var(name_of(a.items[0]), a)
                if v is not None:
                    if any(isinstance(s, F.Subscript_Triplet) or self.vector_subscript(s, a)
                           for s in a.items[1].items) and not self.is_contiguous(v, a):
                        out.append(self.section_copy(f, k, v, a, args, pre, post))
                        continue
                    if any(isinstance(s, F.Subscript_Triplet) for s in a.items[1].items):
                        subs = []
                        for (lo, ext), s in zip(v.dims, a.items[1].items):
                            if isinstance(s, F.Subscript_Triplet):
                                subs.append(self.expr(s.items[0]) if s.items[0] is not None
                                            else X.clone(lo))
                            else:
                                subs.append(self.expr(s, pre=pre))
                        el = self.array_element(v, subs, a)
                    else:
                        el = self.section_element(v, a, None, pre)
                    out.append(ir.AddrOf(el, ir.Ptr(el.type), self.loc(a)))
                    continue
            source = self.shape_source(a) if not isinstance(a, (F.Name, F.Part_Ref)) else None
            if source is not None:
                # an array expression: computed into a temporary array, passed by address
                shape = self.shape_of(source)
                tmp_v = self.temp_array(shape, self.elem_type(a), source)
                with self.calls_hoisted(a, pre):
                    self.elementwise(shape, lambda ks, inner, a=a, tmp_v=tmp_v: (
                        self.element(tmp_v, ks), self.expr(a, ks, inner)), pre,
                        self.loc(a))
                out.append(ir.Ref(tmp_v.sym))
                continue
            out.append(self.argument_temporary(f, k, self.expr(a, None, pre), a, pre))
        for k, (a, passed) in enumerate(zip(args, out)):
            if a is not None and k < len(f.params):
                out[k] = self.structure_argument(f, k, a, passed)
        return out

    def for_dynamic_types(self, f, args, node):
        """The procedure a call of f with these actual arguments runs: f itself, or, where
        it passes an object of a type extending t for a CLASS(t) dummy, f's copy that
        reads that dummy as an object of the object's type (FFront.exact_copy). An
        object's type is known where it is passed: a TYPE variable's, or a CLASS dummy's,
        which is itself read as the type of what its callers pass (by induction, every
        CLASS dummy of the output is of one type)."""
        F = f2003()
        exact = {}
        for k, a in enumerate(args):
            if a is None or k >= len(f.params) or \
                    not getattr(f.params[k], "class_dummy", False) or \
                    not (isinstance(a, (F.Name, F.Part_Ref)) or T.is_component_name(a)):
                continue
            got, want = (T.derived_type_of(s) if s is not None else None
                         for s in map(_element_struct, (self.object_type(a)[0] or ir.INT,
                                                        f.params[k].type)))
            if got is not None and want is not None and want in got.ancestors():
                exact[ir.source_name(f.params[k])] = got
        if not exact:
            return f
        try:
            return self.front.exact_copy(f, exact)
        except AdgenError as exc:
            if exc.loc is None:         # (about the call, not about the copy's body)
                exc.loc = self.loc(node)
            raise

    def structure_argument(self, f, k, a, passed):
        """What is passed (passed: the address of a structure, or anything else) for dummy
        k of f: passed itself, or, for a CLASS(t) variable read as an object of a type
        extending t (exact_copy) passed for a TYPE(t) dummy, the address of its part of
        type t (its parent component, or that one's). A structure of another type is
        refused; one of a type extending the dummy's, for a CLASS(t) dummy, is passed to
        a copy of f for that type (for_dynamic_types)."""
        got, want = _element_struct(passed.type), _element_struct(f.params[k].type)
        got_dt = T.derived_type_of(got) if got is not None else None
        want_dt = T.derived_type_of(want) if want is not None else None
        if got_dt is None or want_dt is None or got_dt is want_dt:
            return passed
        dummy = ir.source_name(f.params[k])
        if want_dt in got_dt.ancestors() and isinstance(a, f2003().Name) and \
                name_of(a) in self.class_names and not self.lookup(name_of(a), a).dims:
            part = passed.arg if isinstance(passed, ir.AddrOf) else \
                ir.Deref(passed, got, self.loc(a))
            dt = got_dt
            while dt is not want_dt:
                part, dt = T.member(part, dt.parent, self.loc(a)), \
                    T.derived_type_of(dt.parent.type)
            return ir.AddrOf(part, ir.Ptr(part.type), self.loc(a))
        if want_dt in got_dt.ancestors():
            part = "%".join([str(a)] + got_dt.parent_names(want_dt))
            if getattr(f.params[k], "class_dummy", False):
                raise self.error(a, f"'{a}', of type '{got_dt.name}', is passed for the "
                                    f"CLASS({want_dt.name}) dummy '{dummy}' of "
                                    f"'{ir.source_name(f)}': an object of an extended "
                                    "type passed as one of its parent type (polymorphism) "
                                    f"is not supported; pass its parent component, '{part}', "
                                    "for the procedure to see that part only")
            raise self.error(a, f"'{a}', of type '{got_dt.name}', is passed for the "
                                f"TYPE({want_dt.name}) dummy '{dummy}' of "
                                f"'{ir.source_name(f)}', which takes an object of type "
                                f"'{want_dt.name}' only: pass its parent component, '{part}'")
        if got_dt.name == want_dt.name and T.same_layout(got, want):
            return passed   # one SEQUENCE type defined in two procedures (the same type)
        raise self.error(a, f"'{a}', of type '{got_dt.name}', is passed for the dummy "
                            f"'{dummy}' of '{ir.source_name(f)}', of type '{want_dt.name}'"
                            + (" (defined otherwise there)" if got_dt.name == want_dt.name
                               else ""))

    def procedure_argument(self, f, k, a, node):
        """The procedure passed for dummy procedure k of f: a dummy procedure of this
        scope passed on, or a procedure of the input by name (callbacks.py makes the
        copies that call it)."""
        F = f2003()
        name = name_of(a) if isinstance(a, F.Name) else None
        if name in self.dummy_procs:
            return ir.Ref(self.dummy_procs[name].through, self.loc(a))
        g = self.known_procedure(name) if name is not None and \
            (name not in self.vars or name in self.external_names) else None
        if g is None or not g.has_body:
            raise self.error(node, f"'{a}' is passed to the dummy procedure "
                                   f"'{f.params[k].name}' of '{f.name}': adgen needs a "
                                   "procedure of the input there")
        if getattr(g, "host_args", None) or getattr(g, "host_bounds", None):
            raise self.error(node, f"the internal procedure '{name}', which uses variables "
                                   "of its host, is passed as an argument: not supported "
                                   "(pass them as arguments, or make it a module procedure)")
        return ir.Const(g.name, ir.FuncPtr("procedure", g.ret), self.loc(a))

    def argument_temporary(self, f, k, value, a, pre):
        """The address of a temporary set to value (in pre), passed for dummy k of f."""
        param_t = None
        if k < len(f.params) and f.params[k].type.resolved().is_pointer:
            param_t = ir.pointee(f.params[k].type)
        t = param_t if param_t is not None and not param_t.resolved().is_void else value.type
        tmp = self.temp("arg", ir.with_const(t, False))
        pre.append(ir.Assign(ir.Ref(tmp), convert_to(value, t), self.loc(a)))
        return ir.AddrOf(ir.Ref(tmp), ir.Ptr(tmp.type), self.loc(a))

    def array_for_scalar(self, f, k, a):
        """Whether actual argument a is an array given for a scalar dummy argument k of
        procedure f (known when f is in the input)."""
        if k >= len(f.params) or getattr(f.params[k], "fortran_array", None) is not False:
            return False
        return bool(self.operand_shape(a))

    def is_elemental(self, name):
        """Whether `name` is an elemental procedure of the program."""
        f = getattr(self, "internal_procs", {}).get(name) or \
            getattr(self, "imported_procs", {}).get(name) or self.front.functions.get(name)
        return bool(getattr(f, "elemental", False))

    def check_contiguous(self, v, section, use):
        """A section that stands for storage (an ASSOCIATE name, a pointer's target) is
        the address of its first element: its elements must be contiguous in memory."""
        if not self.is_contiguous(v, section):
            raise self.error(section, f"the array section '{section}' is not contiguous "
                                      f"in memory: {use}")

    def is_contiguous(self, v, section):
        """Whether the elements of an array section are contiguous in memory: whole
        leading dimensions, then one dimension with a unit stride, then single elements
        (`u(:, j)`, `u(2:n, j)`, `u(:, 2:3)`; not `u(i, :)`, `x(1:n:2)` nor `u(idx)`)."""
        F = f2003()
        partial = False         # an earlier dimension is not taken whole
        for (lo, ext), sub in zip(v.dims, section.items[1].items):
            if not isinstance(sub, F.Subscript_Triplet):
                if self.vector_subscript(sub, section):
                    return False
                partial = True
                continue
            lower, upper, stride = sub.items
            if partial or (stride is not None and const_int(self.expr(stride)) != 1):
                return False
            whole = (lower is None or self.is_declared_bound(lower, lo, section)) and \
                (upper is None or ext is None or self.is_declared_bound(
                    upper, X.sub(X.add(X.clone(lo), X.clone(ext)), ir_int(1)), section))
            partial = not whole
        return True

    def section_copy(self, f, k, v, a, args, pre, post):
        """A section argument whose elements are not contiguous in memory (`u(i, :)`,
        `x(1:n:2)`, `u(idx)`), passed as gfortran passes one to an explicit-shape dummy:
        copied into a temporary before the call and back after it, unless dummy k is
        INTENT(IN). The copies are assignments like any other, so the derivatives follow
        them. Refused where the copy back cannot be made: in a function reference (no
        statement after the call), and for a vector subscript (not definable)."""
        F = f2003()
        dummy = f.params[k] if k < len(f.params) else None
        back = not getattr(dummy, "intent_in", False)
        vector = any(self.vector_subscript(s, a) for s in a.items[1].items)
        if back and (vector or post is None):
            what = f"the dummy argument '{ir.source_name(dummy)}' of '{f.name}'" \
                if dummy is not None else f"the dummy argument of '{f.name}'"
            why = "with a vector subscript it cannot be copied back" if vector else \
                "a function reference leaves no place to copy it back"
            raise self.error(a, f"the array section '{a}' is not contiguous in memory, so "
                                f"it is passed through a copy, and {why}: declare {what} "
                                "INTENT(IN), or copy the section into an array first")
        if back:
            # the copy back assigns the section again: its subscripts must read what they
            # read before the call, and call nothing (a function would run twice)
            called = next((n for n in walk_type(a.items[1], (F.Part_Ref,) + tuple(
                getattr(F, c) for c in CALL_NODES)) if self.called_function(n)), None)
            if called is not None:
                raise self.error(a, f"the array section '{a}' is not contiguous in memory, "
                                    "so it is passed through a copy and copied back after "
                                    f"the call, which would call '{name_of(called.items[0])}' "
                                    "in its subscripts a second time: set a variable to its "
                                    "value first")
            passed = {base_name_of(b) for j, b in enumerate(args)
                      if j != k and isinstance(b, (F.Name, F.Part_Ref)) and not (
                          j < len(f.params) and getattr(f.params[j], "intent_in", False))}
            for n in walk_type(a.items[1], F.Name):
                w = self.vars.get(name_of(n))
                if w is None or w.const is not None:
                    continue
                if w.name in passed or w.common is not None or \
                        w.name in getattr(f, "host_args", ()) or \
                        (w.sym is not None and w.sym.kind == "global"):
                    raise self.error(a, f"the array section '{a}' is not contiguous in "
                                        "memory, so it is passed through a copy and copied "
                                        f"back after the call, but '{w.name}', which its "
                                        "subscripts read, may change in the call: copy the "
                                        "section into an array first")
        return self.copied_argument(a, v.type, pre, post if back else None)

    def copied_argument(self, a, t, pre, post):
        """The address of a temporary array holding the elements of the array designator
        a (of element type t), copied in (in pre) and, with post, back after the call."""
        shape = self.shape_of(a)
        tmp_v = self.temp_array(shape, t, a)
        loc = self.loc(a)
        self.elementwise(shape, lambda ks, inner: (
            self.element(tmp_v, ks), self.expr(a, ks, inner)), pre, loc)
        if post is not None:
            self.elementwise(shape, lambda ks, inner: (
                self.designator(a, ks, inner), self.element(tmp_v, ks)), post, loc)
        return ir.Ref(tmp_v.sym, loc)

    def view_copy(self, f, k, v, a, args, pre, post):
        """`p%w` of an array of structures (or of a section of one) passed as an argument:
        its elements are not contiguous (one component of each structure), so, as gfortran
        does, a copy is passed and copied back after the call unless dummy k is
        INTENT(IN)."""
        F = f2003()
        dummy = f.params[k] if k < len(f.params) else None
        back = not getattr(dummy, "intent_in", False)
        key = self.storage_key(name_of(a))
        aliased = any(j != k and isinstance(b, (F.Name, F.Part_Ref)) and
                      self.storage_key(base_name_of(b)) == key
                      for j, b in enumerate(args) if b is not None)
        if back and (post is None or aliased):
            raise self.error(a, f"'{a}', a component of an array of structures, is "
                                "passed through a copy, which cannot be copied back here "
                                "(in a function reference, or with the structures passed "
                                "too): declare the dummy INTENT(IN), or copy it into an "
                                "array first")
        return self.copied_argument(a, v.type, pre, post if back else None)

    def triplet(self, sub, lo, ext, node):
        """(first, last, stride) of the subscript triplet sub of an array dimension with
        lower bound lo and extent ext (None: assumed size); a bound left out is the
        dimension's."""
        a = self.expr(sub.items[0]) if sub.items[0] is not None else X.clone(lo)
        if sub.items[1] is not None:
            b = self.expr(sub.items[1])
        elif ext is not None:
            b = X.sub(X.add(X.clone(lo), X.clone(ext)), ir_int(1))
        else:
            raise self.error(node, "open upper bound on an assumed-size array")
        st = self.expr(sub.items[2]) if sub.items[2] is not None else ir_int(1)
        return a, b, st

    def is_declared_bound(self, node, bound, section):
        """Whether the subscript node of an array section is written as the declared
        bound, whose variables must then keep their values on entry (settle
        checks it)."""
        from adgen.ir.c_text import expr_c
        if expr_c(self.expr(node)) != expr_c(self.at_entry(bound)):
            return False
        placeholders = [r.sym for r in ir.walk(bound)
                        if isinstance(r, ir.Ref) and hasattr(r.sym, "entry_value")]
        if placeholders:
            names = ", ".join(sorted({storage_name(p.entry_value) for p in placeholders}))
            self.entry_assumptions.append((placeholders, self.error(
                section, f"whether the array section '{section}' is contiguous in memory "
                         f"depends on '{names}', which the procedure changes: it cannot be "
                         "passed as an argument; copy it into an array first")))
        return True

    def call_extents(self, f, args, node):
        """The hidden extent arguments of the callee's assumed-shape dummies, from the
        shapes of the actual arguments."""
        F = f2003()
        out = []
        for param, a in zip(f.params, args):
            rank = len(getattr(param, "extent_params", ()))
            if not rank:
                continue
            if a is None:
                # an OPTIONAL dummy not given: a null pointer of no elements
                out += [ir_int(0) for _ in range(rank)]
                continue
            v = self.array_var(name_of(a), a) if isinstance(a, F.Name) else None
            if getattr(param, "allocatable_dummy", False):
                # extents and lower bounds of the caller's allocatable array or pointer
                rank //= 2
                if getattr(param, "pointer_dummy", False):
                    what, fits = "a POINTER", v is not None and (v.pointer or v.pointer_dummy)
                else:
                    what, fits = "an allocatable", v is not None and v.allocatable
                if not fits:
                    raise self.error(node, f"'{a}' passed to '{param.name}', {what} dummy "
                                           f"argument: it must be {what} array")
                if len(v.dims or ()) != rank:
                    raise self.error(node, f"'{a}' passed to '{param.name}', {what} "
                                           f"array of rank {rank}: the ranks differ")
                for e in [ext for _, ext in v.dims] + [lo for lo, _ in v.dims]:
                    e = convert_to(X.clone(e), ir.INT)
                    e.loc = self.loc(node)
                    out.append(e)
                continue
            if v is not None:
                extents = [ext for _, ext in v.dims]
            else:
                shape = self.shape_of(a) if isinstance(a, F.Part_Ref) else self.expr_shape(a)
                extents = [triplet_count(*d) for d in shape or []]
            if len(extents) != rank:
                raise self.error(node, f"'{a}' passed to '{param.name}', an assumed-shape "
                                       f"array of rank {rank}: the ranks differ")
            if any(e is None for e in extents):
                raise self.error(node, f"the assumed-size array '{a}' has no shape to pass "
                                       f"to the assumed-shape dummy '{param.name}'")
            for e in extents:
                e = convert_to(X.clone(e), ir.INT)
                e.loc = self.loc(node)          # not that of the array's declaration
                out.append(e)
        return out

    def actual_arguments(self, f, name, args, node):
        """The actual arguments of a call of f in the order of its dummy arguments, a
        keyword argument (`b=x`) in the place of the dummy it names: as the caller sees
        them, in an interface block, or else in f's source."""
        dummies = self.interfaces.get(name, getattr(f, "dummy_names", None))
        if dummies is None:
            keyword = next((keyword_of(a) for a in args if keyword_of(a)), None)
            if keyword is not None:
                raise self.error(node, f"keyword argument '{keyword}=' in a call of '{name}', "
                                       "which is not in the input and has no interface block: "
                                       "adgen cannot tell which dummy argument it names; pass "
                                       f"the arguments in order or give the source of '{name}' "
                                       "too")
            return [argument_value(a) for a in args]
        values = self.match_arguments(name, dummies, args, node)
        optional = optional_as_named(f, dummies)
        missing = next((d for d, v in zip(dummies, values) if v is None and d not in optional),
                       None)
        if missing is not None:
            raise self.error(node, f"the call of '{name}' gives no argument '{missing}', "
                                   "which is not an OPTIONAL dummy of a procedure in the input")
        return values

    def intrinsic_arguments(self, name, args, node):
        """The arguments of an intrinsic in the order of its dummy arguments, keyword
        arguments (`size(x, dim=2)`) included."""
        if not any(keyword_of(a) for a in args):
            return [argument_value(a) for a in args]
        dummies = _INTRINSIC_DUMMIES.get(name)
        if dummies is None:
            raise self.error(node, f"keyword arguments of the intrinsic '{name}' are not "
                                   "supported; pass its arguments in order")
        values = self.match_arguments(name, dummies, args, node)
        while values and values[-1] is None:
            values.pop()
        skipped = next((k for k, v in enumerate(values) if v is None), None)
        if skipped is not None and name in ("sum", "product", "maxval", "minval") and \
                dummies[skipped] == "dim" and len(values) == 3:
            return values       # sum(x, mask=...): the form without DIM
        if skipped is not None and name == "eoshift" and dummies[skipped] == "boundary":
            return values       # eoshift(a, s, dim=2): the default boundary
        if skipped is not None:
            given = next(d for d, v in zip(dummies[skipped:], values[skipped:]) if v is not None)
            raise self.error(node, f"{name} with the argument '{given}' but not "
                                   f"'{dummies[skipped]}' is not supported")
        return values

    def match_arguments(self, name, dummies, args, node):
        """Actual arguments matched to dummies, by position and then by keyword: one
        value (or None, for a dummy not given) per dummy."""
        values = [None] * len(dummies)
        for k, a in enumerate(args):
            keyword = keyword_of(a)
            if keyword is None and k >= len(dummies):
                raise self.error(node, f"'{name}' called with {len(args)} arguments; it has "
                                       f"{len(dummies)}")
            if keyword is not None and keyword not in dummies:
                raise self.error(node, f"'{name}' has no dummy argument '{keyword}'")
            slot = k if keyword is None else dummies.index(keyword)
            if values[slot] is not None:
                raise self.error(node, f"the dummy argument '{dummies[slot]}' of '{name}' is "
                                       "given twice")
            values[slot] = argument_value(a)
        return values

    def user_call(self, name, args, node, pre, ks=None, post=None, results=()):
        """A call of a procedure; ks: the counters of the current element when the call
        is an elemental function's in an array expression; post: see call_args; results:
        for a function that returns an array, the address of the array it stores its result
        in (or the addresses that get an ALLOCATABLE result, see handover_params)."""
        f = self.callee(name, node)
        args = self.actual_arguments(f, name, args, node)
        f = self.for_dynamic_types(f, args, node)
        strings = {k: self.string(a, pre, whole_array=True) for k, a in enumerate(args)
                   if a is not None and self.is_string(a)}
        # the lengths of the CHARACTER arguments, in their order, after all the others
        # (size_t, by value), as gfortran passes them: 0 for a left-out OPTIONAL one
        size_t = ir.Prim("size_t")
        dummies = [f.params.index(p.char_len_of) for p in f.params
                   if getattr(p, "char_len_of", None) in f.params]
        lengths = [convert_to(strings[k][1], size_t) if k in strings else
                   ir.Cast(size_t, ir_int(0)) for k in dummies or strings]
        for e, k in zip(lengths, dummies or strings):
            e.loc = self.loc(args[k] if args[k] is not None else node)
        cargs = self.call_args(f, args, node, pre, strings, ks, post) + \
            list(results) + self.call_extents(f, args, node) + lengths
        if hasattr(f, "host_arg_uses"):
            f.host_arg_uses.append(list(f.host_args))      # see internal_procedures
        for hname in getattr(f, "host_args", []):
            # the host's variables an internal procedure uses, by reference
            v = self.lookup(hname, node)
            if v.dims:
                cargs.append(self.array_base(v, node))
            elif v.by_ref:
                cargs.append(ir.Ref(v.sym, self.loc(node)))
            elif getattr(v, "char_len", None) is not None:
                # a CHARACTER variable: its first character, as a CHARACTER dummy takes it
                char = ir.Prim("char")
                cargs.append(ir.AddrOf(ir.Index(self.value(v, node), ir_int(0), char),
                                       ir.Ptr(char), self.loc(node)))
            else:
                lv = self.value(v, node)
                cargs.append(ir.AddrOf(lv, ir.Ptr(lv.type), self.loc(node)))
        for hname, dim, which, p in getattr(f, "host_bounds", []):
            # the bounds of the host arrays that are not constants, as the caller sees them,
            # and the lengths of its assumed-length strings (dim None)
            hv = self.lookup(hname, node)
            e = convert_to(X.clone(hv.char_len if dim is None else hv.dims[dim][which]),
                           p.type)
            e.loc = self.loc(node)
            cargs.append(e)
        if not f.params and not f.has_body:
            # an external's signature from its first call; a BLAS kernel's has its dummies
            from adgen.rules import fortran_blas_dummies
            names = fortran_blas_dummies(f.name, [a.type for a in cargs], f.ret) or \
                [f"arg{k}" for k in range(len(cargs))]
            f.params = [ir.Symbol(n, a.type, "param") for n, a in zip(names, cargs)]
        call = ir.Call(f.name, cargs, f.ret, self.loc(node))
        if f in self.dummy_procs.values():
            call.through = f.through
        return call

    def function_call(self, name, args, node, pre, ks=None):
        if name in self.types:
            # a structure constructor in a condition or a bound: a temporary structure
            # set by the statements before it (at each test of a DO WHILE)
            if pre is None or ks is not None:
                raise self.error(node, f"a structure constructor of '{name}' is supported "
                                       "in assignments, CALL statements, conditions and "
                                       "bounds only (assign it to a variable first)")
            sym = self.temp("value", ir.Struct(self.types[name].sdef))
            self.vars[sym.name] = FVar(sym.name, sym.type, sym=sym)
            self.structure_assignment(f2003().Name(sym.name), node, pre, self.loc(node))
            return ir.Ref(sym, self.loc(node))
        v = self.vars.get(name)
        declared = None
        if v is not None and v is not self.result_var and not v.dims and v.const is None \
                and not getattr(self, "imported_procs", {}).get(name):
            # `real(8) :: f` (or `external`) then f(x): an external function of that type
            declared = v.type
            del self.vars[name]
        f = self.callee(name, node)
        if declared is not None and not f.has_body:
            f.ret = declared
        if f.ret.resolved().is_void and f.has_body and not f.params:
            pass
        if f.ret.resolved().is_void and not f.has_body:
            kind, t = self.implicit.get(name[0]) or ("real", None)
            f.ret = t or (ir.INT if kind == "integer" else ir.FLOAT)
        if not f.has_body and returns_array(self.interface_bodies.get(name)):
            raise self.error(node, f"function '{name}' returns an array and adgen has only "
                                   "its interface: give its source too")
        if getattr(f, "array_result", False):
            # (the references in assignments, calls and conditions are calls before them:
            # without_array_functions)
            raise self.error(node, f"function '{name}' returns an array: supported in "
                                   "assignments, CALL statements and conditions, not here "
                                   "(assign its value to an array first)")
        if getattr(f, "struct_result", None) is not None:
            # (those in assignments and calls are calls before them: struct_results_hoisted)
            raise self.error(node, f"function '{name}' returns a structure with allocatable "
                                   "components: supported in assignments and CALL "
                                   "statements, not here (assign its value to a variable "
                                   "first)")
        call = self.user_call(name, args, node, pre, ks)
        call.type = f.ret
        return call


# The dummy argument names of the intrinsics that take several arguments, for keyword
# arguments; the others have one argument (`a` or `x`).
_INTRINSIC_DUMMIES = {
    **{n: ("array", "dim", "kind") for n in ("size", "lbound", "ubound")},
    "shape": ("source", "kind"),
    **{n: ("array", "dim", "mask") for n in ("sum", "product", "maxval", "minval")},
    **{n: ("array", "dim", "mask", "kind", "back") for n in ("maxloc", "minloc")},
    **{n: ("mask", "dim", "kind") for n in ("count", "any", "all")},
    **{n: ("a", "kind") for n in ("real", "int", "nint", "floor", "ceiling", "aint",
                                  "anint")},
    **{n: ("a",) for n in ("abs", "dble", "float", "sngl", "ifix", "idint", "idnint", "dint",
                           "dnint")},
    **{n: ("x",) for n in INTRINSIC_MATH | {"kind", "epsilon", "huge", "tiny"}},
    "atan2": ("y", "x"),
    "hypot": ("x", "y"),
    **{n: ("a", "p") for n in ("mod", "amod", "dmod")},
    **{n: ("a", "b") for n in ("sign", "dsign", "isign")},
    "modulo": ("a", "p"),
    **{n: ("x", "y") for n in ("dim", "ddim", "idim")},
    "merge": ("tsource", "fsource", "mask"),
    "cshift": ("array", "shift", "dim"),
    "eoshift": ("array", "shift", "boundary", "dim"),
    "dot_product": ("vector_a", "vector_b"),
    "matmul": ("matrix_a", "matrix_b"),
    "pack": ("array", "mask", "vector"),
    "transpose": ("matrix",),
    "spread": ("source", "dim", "ncopies"),
    "reshape": ("source", "shape", "pad", "order"),
    "allocated": ("array",),
    "associated": ("pointer", "target"),
    "norm2": ("x", "dim"),
    "selected_real_kind": ("p", "r", "radix"),
    "selected_int_kind": ("r",),
    "index": ("string", "substring", "back", "kind"),
    **{n: ("i", "kind") for n in ("char", "achar")},
    **{n: ("c", "kind") for n in ("ichar", "iachar")},
    "repeat": ("string", "ncopies"),
    "new_line": ("a",),
}


def _element_struct(t):
    """The struct type of a structure, an array of structures or a pointer to either, or
    None."""
    t = t.resolved()
    while t.is_pointer or isinstance(t, ir.Arr):
        t = (ir.pointee(t) if t.is_pointer else t.elem).resolved()
    return t if isinstance(t, ir.Struct) else None


def _same_element(a, b):
    """Whether an argument's element type a is a dummy's b: the same number type, or the
    same derived type (const or not: an INTENT(IN) structure is a pointer to const)."""
    if isinstance(a, ir.Struct) or isinstance(b, ir.Struct):
        return isinstance(a, ir.Struct) and isinstance(b, ir.Struct) and a.sdef is b.sdef
    return a == b


def optional_as_named(f, dummies):
    """The OPTIONAL dummies of procedure f under the names `dummies` a call sees them by
    (an interface block's, as a separate module procedure's interface in its module, may
    name them otherwise): by position, those f's source declares OPTIONAL; none for a
    procedure not in the input."""
    own = getattr(f, "dummy_names", None)
    optional = getattr(f, "optional_dummies", set())
    if own is None or len(own) != len(dummies):
        return set()
    return {d for d, o in zip(dummies, own) if o in optional}
