"""Statements and constructs in the Fortran front end's Scope (StatementsMixin): statement
lists with their labels and jumps, IF, SELECT CASE, DO and DO CONCURRENT, FORALL, BLOCK and
ASSOCIATE, statement functions, Tapenade's directives, and what a statement list may
change."""
import contextlib
import re
from dataclasses import replace

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X
from adgen.frontend.directives import fortran_reduction_factor
from adgen.ir.openmp import mark_exclusive
from adgen.frontend.fortran_operators import with_defined_operators
from adgen.frontend import fortran_complex as C
from adgen.frontend import fortran_types as T
from adgen.frontend import jumps
from adgen.ir.c_text import c_string
from adgen.frontend.fortran_helpers import (Changes, FVar, alias_target, base_name_of,
                                            call_arguments, common_member,
                                            const_int,
                                            constant_size, convert_to, f2003, free_call,
                                            ir_int, is_global_storage, label_of, line_of,
                                            malloc, name_of, reads_variables, storage_label,
                                            storage_name, storage_of, to_int, triplet_count,
                                            walk_nodes, walk_type)
from adgen.frontend.fortran_operands import array_refs


_DO_CONSTRUCTS = ("Block_Nonlabel_Do_Construct", "Block_Label_Do_Construct",
                  "Action_Term_Do_Construct")

# Tapenade's directives: `!$AD NAME ...` (also `C$AD`, `*$AD` in fixed form), any case
_DIRECTIVE = re.compile(r"[!c*]\$ad\b(.*)$", re.IGNORECASE)


def _if_chain(branches):
    """if / else if / else from [(test or None for else, statements, loc, setup)]: the
    statements setup run before the test, only when the earlier tests failed."""
    result = None
    for test, stmts, loc, setup in reversed(branches):
        if test is None:
            result = ir.Block(stmts, loc)
        else:
            result = ir.Block(setup + [ir.If(test, ir.Block(stmts, loc), result, loc)], loc)
    return result


# The intrinsic subroutines that read clocks, and their dummies (see Scope.timer_call)
_TIMERS = {"cpu_time": ("time",), "system_clock": ("count", "count_rate", "count_max")}


def _do_label(stmt):
    """The label a labelled DO statement (`do 40 i = 1, n`) ends on, or None."""
    F = f2003()
    return next((int(str(item)) for item in stmt.items if isinstance(item, F.Label)), None)


def _construct_name(stmt):
    """The name of a DO construct (`outer: do i = 1, n`), or None."""
    name = stmt.get_start_name() if hasattr(stmt, "get_start_name") else None
    return name.lower() if name else None


class StatementsMixin:
    """Scope's statements and constructs (fortran_front.Scope)."""

    # --------------------------------------------------------------- statements
    def statements(self, nodes, out):
        """A statement list (a procedure body, a branch, a DO loop body). A statement a
        GOTO jumps to is preceded by its label's marker; GOTO, and EXIT and CYCLE of an
        outer named loop, are jumps.Goto markers, made structured code once the procedure
        is lowered (jumps.lower_gotos)."""
        F = f2003()
        for node in nodes:
            label = label_of(node)
            if label in self.goto_targets:
                out.append(jumps.Label(str(label), self.loc(node)))
            self.statement(node, out)
            # a GOTO to `30 end if` goes to what follows the construct
            end = node.children[-1] if isinstance(node, (F.If_Construct,
                                                         F.Case_Construct)) else None
            if end is not None and label_of(end) in self.goto_targets:
                out.append(jumps.Label(str(label_of(end)), self.loc(end)))
        self.no_waiting_directive(None)

    def goto(self, node, out, loc):
        out += self.jump(str(int(str(node.items[0]))), loc)

    def jump(self, label, loc):
        """A GOTO to label: what the constructs it leaves allocated freed, then the jump."""
        return self.constructs_left(loc, label=int(label)) + [jumps.Goto(label, loc)]

    @contextlib.contextmanager
    def open_construct(self, node, release):
        """While the statements of node (a statement or a construct) are lowered: what
        leaving it early frees, release(loc) giving the statements, which EXIT and CYCLE
        of a DO loop around it, RETURN and a GOTO out of it run before jumping (see
        constructs_left); its end frees it itself."""
        self.open_constructs.append((len(self.do_names), node, release))
        try:
            yield
        finally:
            self.open_constructs.pop()

    def constructs_left(self, loc, loops=None, label=None):
        """What leaving open constructs frees, innermost first: those inside the DO loop
        of that index (EXIT or CYCLE of it), those not holding the statement of that label
        (a GOTO), else all (RETURN)."""
        out = []
        for depth, node, release in reversed(self.open_constructs):
            if loops is not None and depth <= loops:
                continue
            freed = release(loc)
            if freed and (label is None or label not in _labels_within(node)):
                out += freed
        return out

    def loop_jump(self, node, kind, out, loc):
        """EXIT or CYCLE: a break / continue of the innermost DO loop; of a named outer one,
        a goto to the label after that loop (EXIT) or ending its body (CYCLE, see
        do_loop)."""
        name = name_of(node.items[1]) if node.items[1] is not None else None
        if not self.do_names or (name is not None and name not in self.do_names):
            raise self.error(node, f"{kind.upper()} outside a DO loop" +
                                   (f" named '{name}'" if name else ""))
        target = len(self.do_names) - 1 if name is None else \
            len(self.do_names) - 1 - self.do_names[::-1].index(name)
        # what the constructs inside the loop it leaves allocated
        out += self.constructs_left(loc, loops=target)
        if name is None or name == self.do_names[-1]:
            return out.append(ir.Break(loc) if kind == "exit" else ir.Continue(loc))
        out.append(jumps.Goto(f"{kind}_{name}", loc))

    def jump_chain(self, cases, loc):
        """if (test1) goto label1; else if (test2) goto label2; ... (a None test: else)."""
        return _if_chain([(test, self.jump(label, loc), loc, []) for test, label in cases])

    def loop_body(self, stmt, nodes, body):
        """The statements of a DO loop's body, into body; a named loop's body ends with the
        label its CYCLE jumps to from inner loops."""
        name = _construct_name(stmt)
        self.do_names.append(name)
        try:
            self.statements(nodes, body)
        finally:
            self.do_names.pop()
        if name is not None:
            body.append(jumps.Label(f"cycle_{name}", self.loc(stmt)))

    def statement(self, node, out):
        """One statement, appended to out; the temporary arrays on the heap that its array
        expressions need (see temp_array) are allocated just before it, freed just
        after, and before an EXIT, CYCLE, RETURN or GOTO inside it leaves it (those of a
        construct's header: an IF condition, a SELECT CASE selector, a DO loop's
        bounds)."""
        outer, self.heap_temps = self.heap_temps, []
        outer_masks, self.pack_masks = self.pack_masks, {}
        outer_structs, self.statement_structs = self.statement_structs, []
        start = len(out)
        made = self.heap_temps
        try:
            with self.open_construct(node, lambda at: [free_call(sym, at) for sym, _ in made]):
                self.lower_statement(node, out)
            self.openmp_counted(node)
        finally:
            temps, self.heap_temps = self.heap_temps, outer
            structs, self.statement_structs = self.statement_structs, outer_structs
            self.pack_masks = outer_masks
        loc = self.loc(node)
        out[start:start] = [ir.Assign(ir.Ref(sym, loc), malloc(sym.type, size, loc), loc)
                            for sym, size in temps if size is not None]
        out += [free_call(sym, loc) for sym, _ in temps]
        out += self.release_components(structs, loc)

    def lower_statement(self, node, out):
        F = f2003()
        if line_of(node):
            self.current = node
        loc = self.loc(node)
        cname = type(node).__name__
        if isinstance(node, F.Comment):
            self.directive(node, out)
            return
        self.openmp_placed(out)
        if cname not in _DO_CONSTRUCTS:
            self.no_waiting_directive(node)
        if self.omp_atomic is not None:
            (pragma, directive), self.omp_atomic = self.omp_atomic, None
            start = len(out)
            self.lower_statement(node, out)
            if not isinstance(node, F.Assignment_Stmt) or \
                    not mark_exclusive(directive, out[start:]):
                self.openmp_left_out(pragma, out, start)
            return
        split, self.nocheckpoint = self.nocheckpoint, False
        node = with_defined_operators(self, node)   # `q - p` of structures: vsub(q, p)
        node = C.rewritten(self, node, out)     # complex arithmetic as real arithmetic
        if node is None:
            return
        if isinstance(node, F.Assignment_Stmt) and self.constructed_type(node.items[2]):
            return self.structure_assignment(node.items[0], node.items[2], out, loc)
        if isinstance(node, (F.Assignment_Stmt, F.Call_Stmt)):
            node = self.structures_hoisted(node, out, loc)
        if isinstance(node, (F.Assignment_Stmt, F.Call_Stmt, F.Where_Stmt, F.Where_Construct)):
            node = self.component_elements(node)
        if isinstance(node, (F.Assignment_Stmt, F.Call_Stmt)):
            node = self.hoist_constructors(self.struct_results_hoisted(node, out), out)
        if isinstance(node, F.Assignment_Stmt):
            if split:
                out.append(ir.Pragma("adgen nocheckpoint", loc))
            self.assignment(node.items[0], node.items[2], out, loc)
        elif isinstance(node, F.Call_Stmt) and name_of(node.items[0]) in _TIMERS and \
                self.known_procedure(name_of(node.items[0])) is None:
            self.timer_call(node, out, loc)
        elif isinstance(node, F.Call_Stmt) and name_of(node.items[0]) == "move_alloc" and \
                self.known_procedure("move_alloc") is None:
            out += self.move_alloc(node, loc)
        elif isinstance(node, F.Call_Stmt):
            name = name_of(node.items[0])
            args = call_arguments(node)
            pre, post = [], []
            call = self.user_call(name, args, node, pre, post=post)
            out.extend(pre)
            if split:
                out.append(ir.Pragma("adgen nocheckpoint", loc))
            out.append(ir.ExprStmt(call, loc))
            out.extend(post)
        elif isinstance(node, F.If_Construct):
            out.extend(self.if_construct(node))
        elif isinstance(node, F.If_Stmt):
            test = self.expr_before(node.items[0], out)
            body = []
            self.statement(node.items[1], body)
            out.append(ir.If(test, ir.Block(body, loc), None, loc))
        elif cname in _DO_CONSTRUCTS:
            out.extend(self.do_construct(node))
        elif isinstance(node, F.Where_Construct):
            self.where_construct(node, out)
        elif isinstance(node, F.Where_Stmt):
            shape = self.shape_of(node.items[1].items[0])
            if shape is None:
                raise self.error(node, "WHERE needs an array assignment")
            mv = self.where_mask(node.items[0], shape, node.items[1].items[0], out, loc)
            self.where_assign(mv, [(node.items[1], True)], [], out, loc, shape)
        elif isinstance(node, F.Case_Construct):
            out.extend(self.case_construct(node))
        elif cname == "Forall_Stmt":
            self.forall(node.items[0], [node.items[1]], node, out)
        elif cname == "Forall_Construct":
            kids = self.construct_parts(node)
            self.forall(kids[0].items[1], [c for c in kids[1:-1]
                                           if not isinstance(c, F.Comment)], node, out)
        elif isinstance(node, F.Exit_Stmt):
            self.loop_jump(node, "exit", out, loc)
        elif isinstance(node, F.Cycle_Stmt):
            self.loop_jump(node, "cycle", out, loc)
        elif isinstance(node, F.Goto_Stmt):
            self.goto(node, out, loc)
        elif isinstance(node, F.Computed_Goto_Stmt):
            # go to (10, 20, 30) k: to the k-th label; no jump when k is out of range
            k = self.once(self.expr_before(node.items[1], out), "goto_index", out, loc)
            labels = [str(int(str(lab))) for lab in node.items[0].items]
            out.append(self.jump_chain([(ir.Binary("==", ir.Ref(k), ir_int(i), ir.INT), lab)
                                        for i, lab in enumerate(labels, 1)], loc))
        elif isinstance(node, F.Arithmetic_If_Stmt):
            # if (e) 10, 20, 30: to the first label if e < 0, the second if 0, else the third
            e = self.once(self.expr_before(node.items[0], out), "if_value", out, loc)
            zero = convert_to(ir_int(0), e.type)
            labels = [str(int(str(lab))) for lab in node.items[1:]]
            out.append(self.jump_chain([(ir.Binary("<", ir.Ref(e), zero, ir.INT), labels[0]),
                                        (ir.Binary("==", ir.Ref(e), X.clone(zero), ir.INT),
                                         labels[1]), (None, labels[2])], loc))
        elif isinstance(node, F.Return_Stmt):
            out.extend(self.leaving(loc))
            out.append(ir.Return(ir.Ref(self.result_var.sym) if self.result_var else None,
                                 loc))
        elif isinstance(node, F.Allocate_Stmt):
            self.allocate(node, out, loc)
        elif cname == "Pointer_Assignment_Stmt":
            self.pointer_assignment(node, out, loc)
        elif cname == "Nullify_Stmt":
            for obj in node.items[1].items:
                v = self.lookup(name_of(obj), obj)
                if v.pointer_dummy:
                    raise self.dummy_repointed("NULLIFY of", v, node)
                if not v.pointer:
                    raise self.error(node, f"NULLIFY of '{obj}', which is not a local "
                                           "POINTER")
                out.append(ir.Assign(ir.Ref(v.sym, loc), X.null(v.sym.type, loc), loc))
        elif isinstance(node, F.Deallocate_Stmt):
            # with STAT=s, s is 0, or 1 when one of the arrays was not allocated (gfortran
            # stops the program there without STAT)
            stat = self.status_variable(node.items[1], "DEALLOCATE", node)
            if stat is not None:
                out.append(ir.Assign(X.clone(stat), convert_to(ir_int(0), stat.type), loc))
            for obj in node.items[0].items:
                v = self.allocatable(obj)
                if stat is None:
                    out.extend(self.deallocate(v, loc))
                    continue
                out.append(ir.If(self.is_allocated(v, obj, loc),
                                 ir.Block(self.deallocate(v, loc), loc),
                                 ir.Block([ir.Assign(X.clone(stat),
                                                     convert_to(ir_int(1), stat.type), loc)],
                                          loc), loc))
        elif cname == "Block_Construct":
            self.block_construct(node, out)
        elif cname == "Associate_Construct":
            self.associate_construct(node, out)
        elif isinstance(node, (F.Continue_Stmt, F.End_Do_Stmt)):
            pass
        elif cname in ("Read_Stmt", "Inquire_Stmt"):
            raise self.error(node, f"a {cname[:-5].upper()} statement sets variables from "
                                   "outside the program, which the derivative code cannot "
                                   "do: not supported (read them before calling the "
                                   "routine, and pass them to it)")
        elif cname in ("Stop_Stmt", "Error_Stop_Stmt"):
            self.stop_statement(node, cname == "Error_Stop_Stmt", out, loc)
        elif cname in _IO_STATEMENTS:
            if cname == "Write_Stmt":
                self.internal_write(node)
            what = cname[:-5].replace("_", " ").lower()
            if cname != "Format_Stmt":
                self.front.warn(loc, f"{what} statement left out of the derivative code",
                                self.func)
        elif cname in _UNSUPPORTED_JUMPS:
            raise self.error(node, f"{_UNSUPPORTED_JUMPS[cname]} is not supported; write "
                                   "it with IF, DO and EXIT (or a simple GOTO)")
        elif cname == "Select_Type_Construct":
            raise self.error(node, "SELECT TYPE is supported on a CLASS dummy or a local "
                                   "polymorphic variable, `select type (c)` or `select type "
                                   "(p => c)`, whose type adgen follows; not on another "
                                   "selector")
        else:
            raise self.error(node, f"unsupported statement ({cname})")

    def internal_write(self, node):
        """WRITE into a CHARACTER variable (an internal file) sets it; left out of the
        derivative code, as WRITE is, only when no statement of the procedure but output
        and CALLs (a message handed to a routine that reports it) reads that local
        variable: otherwise the derivative code would read other text than the primal
        does."""
        specs = node.items[0].items if node.items[0] is not None else ()
        unit = next((spec.items[1] for k, spec in enumerate(specs)
                     if spec.items[0] == "UNIT" or spec.items[0] is None and k == 0), None)
        if unit is None or not self.is_string(unit):
            return
        target = base_name_of(unit) if not T.is_component_name(unit) else T.base_name(
            name_of(unit))
        local = target in getattr(self, "local_names", set()) and \
            target not in getattr(self, "dummies", ()) and \
            getattr(self.vars.get(target), "sym", None) is not None and \
            self.vars[target].sym.kind == "local"
        if target in self.names_read() or not local:
            raise self.error(node, f"a WRITE into the CHARACTER variable '{target}' sets it, "
                                   "and the derivative code leaves WRITE out: supported only "
                                   "for a local variable that no statement but output and "
                                   "CALLs reads")

    def stop_statement(self, node, error, out, loc):
        """STOP and ERROR STOP end the program in the derivative code too, as gfortran's
        do: the stop code printed on stderr (a message after "STOP" or "ERROR STOP", a
        number after it too), and the exit status the number, else 0 for STOP and 1 for
        ERROR STOP (adgen_stop, templates/runtime.c.j2). Going on past a stop would compute
        with the values the program stopped on."""
        word = "ERROR STOP" if error else "STOP"
        code = node.items[1]
        text, status, shown = (word if error else None), ir.Const("1" if error else "0",
                                                                    ir.INT, loc), False
        pre = []
        if code is not None:
            message = self.constant_text(code)
            if message is not None:
                text = f"{word} {message}"
            elif self.is_string(code):
                text = word
                self.front.warn(loc, f"the {word.lower()} code, not a constant, is not "
                                     "printed by the derivative code", self.func)
            else:
                text, shown = word, True
                status = ir.Const(str(int(str(code))), ir.INT, loc) \
                    if type(code).__name__ == "Stop_Code" else \
                    convert_to(self.expr(code, pre=pre), ir.INT)
        message = ir.Const(c_string(text), ir.Ptr(ir.Prim("char", True)), loc) \
            if text is not None else ir.Const("0", ir.Ptr(ir.Prim("char", True)), loc)
        out.extend(pre)
        out.append(ir.ExprStmt(ir.Call("adgen_stop", [
            message, status, ir.Const("1" if shown else "0", ir.INT, loc)], ir.VOID, loc), loc))

    def names_read(self):
        """The variables the procedure's statements name, but output statements and CALLs
        (the variable of a component reference), read once per procedure."""
        F = f2003()
        if getattr(self, "_names_read", (None,))[0] is not self.unit:
            from fparser.two.utils import StmtBase
            declarations = {id(st) for part in walk_type(self.unit, F.Specification_Part)
                            for st in walk_type(part, StmtBase)}   # (also a BLOCK's)
            names = {T.base_name(name_of(n)) if T.is_component_name(n) else name_of(n)
                     for part in walk_type(self.unit, F.Execution_Part)
                     for st in walk_type(part, StmtBase)
                     if type(st).__name__ not in _IO_STATEMENTS + ("Call_Stmt",) and
                     id(st) not in declarations
                     for n in walk_type(st, F.Name)}
            self._names_read = (self.unit, names)
        return self._names_read[1]

    def timer_call(self, node, out, loc):
        """cpu_time(t), system_clock(count, rate, max): what they read is the time, for
        reports the derivative code leaves out; their variables are set to 0 (a rate to
        1), with a warning."""
        name = name_of(node.items[0])
        args = self.match_arguments(name, _TIMERS[name], call_arguments(node), node)
        for dummy, a in zip(_TIMERS[name], args):
            if a is not None:
                lhs = self.designator(a)
                out.append(ir.Assign(lhs, convert_to(ir_int(1 if dummy == "count_rate" else 0),
                                                   lhs.type), loc))
        self.front.warn(loc, f"call of {name} left out of the derivative code (its "
                             "variables set to 0)", self.func)

    def forall(self, header, assignments, node, out):
        """FORALL (statement or construct) of assignments: each assignment for all index
        values in turn, as loops over indices of its own (the FORALL's names are local to
        it). Loops give the same values when no assignment reads the array it assigns
        elsewhere than at the element it assigns, and the bounds and the mask read none of
        them; the others are refused."""
        F = f2003()
        loc = self.loc(node)
        triplets, mask = header.items[0].items, header.items[1]

        def names(n):
            return {self.storage_key(name_of(x)) for x in walk_type(n, F.Name)}
        if any(not isinstance(a, F.Assignment_Stmt) for a in assignments):
            raise self.error(node, "FORALL with statements other than assignments is not "
                                   "supported")
        targets = {self.storage_key(base_name_of(a.items[0])) for a in assignments}
        if targets & names([t.items[1:] for t in triplets] + [mask]):
            raise self.error(node, "FORALL whose bounds or mask read an array it assigns is "
                                   "not supported")
        for a in assignments:
            # reading the element being assigned (`y(i) = y(i) * i`, `p(i)%v = p(i)%v * i`)
            # is reading no element another index value assigns (FORALL assigns each
            # element once at most), nor is reading another component (`p(j)%x`)
            lhs = a.items[0]
            key = self.storage_key(base_name_of(lhs))
            subscripts = lhs.items[1] if isinstance(lhs, F.Part_Ref) else None
            if key in names(subscripts) or \
                    any(self.storage_key(base_name_of(r)) == key and
                        _paths_overlap(self, r, lhs) and str(r) != str(lhs)
                        for r in array_refs(a.items[2])):
                raise self.error(a, "FORALL whose assignment reads the array it assigns "
                                    "elsewhere than at the element assigned is not supported "
                                    "(write it as an array assignment or a DO loop over a "
                                    "copy)")
        for a in assignments:
            with self.own_indices(triplets, loc):
                body = []
                self.statement(a, body)
                body = self.index_loops(triplets, mask, body, node)
            out.extend(body)

    @contextlib.contextmanager
    def own_indices(self, triplets, loc):
        """The index names of a FORALL or DO CONCURRENT header as variables of the
        construct's own: the names outside keep their values."""
        names = [name_of(t.items[0]) for t in triplets]
        with self.scoped_names(names):
            for n in names:
                v = FVar(n, ir.INT, loc=loc)
                v.sym = self.temp(n, ir.INT)
                self.vars[n] = v
            yield

    def statement_functions(self, stmts):
        """The statements after the statement function definitions that open them
        (`FK(C) = C * C + 1.0D0`, which fparser reads as assignments), recorded in
        self.stmt_functions: name -> (dummy names, the expression, the result type)."""
        F = f2003()
        self.stmt_functions = {}
        k = 0
        while k < len(stmts):
            st = stmts[k]
            if isinstance(st, F.Comment):
                k += 1
                continue
            lhs = st.items[0] if isinstance(st, F.Assignment_Stmt) else None
            if not isinstance(lhs, F.Part_Ref):
                break
            name = name_of(lhs.items[0])
            args = call_arguments(lhs)
            v = self.vars.get(name)
            if v is not None and (v.dims or v.sym is not None and v.sym.kind != "local") or \
                    self.array_var(name, lhs) is not None or \
                    not all(isinstance(a, F.Name) for a in args):
                break
            dummies = [name_of(a) for a in args]
            if len(set(dummies)) != len(dummies):
                raise self.error(st, f"statement function '{name}' names a dummy twice")
            t = v.type if v is not None else self.implicit_var(name, st, False).type
            self.vars.pop(name, None)           # a function, not a variable
            self.stmt_functions[name] = (dummies, st.items[2], t)
            del stmts[k]
        return stmts

    def statement_function_dummy_type(self, d, node):
        """The type of the statement function dummy d (declared, or implicit); None when
        d is declared an array."""
        v = self.vars.get(d)
        if v is None:
            return self.implicit_var(d, node, False).type
        return None if v.dims else v.type

    def statement_function(self, name, args, node, ks, pre):
        """A reference to a statement function: its expression, with the values of the
        arguments for its dummies (each evaluated once: an argument that calls a procedure
        is set into a temporary first)."""
        dummies, body, t = self.stmt_functions[name]
        if len(args) != len(dummies):
            raise self.error(node, f"statement function '{name}' takes {len(dummies)} "
                                   f"arguments, given {len(args)}")
        bound = []
        for d, a in zip(dummies, args):
            dt = self.statement_function_dummy_type(d, node)
            if dt is None:
                raise self.error(node, f"the dummy '{d}' of statement function '{name}' "
                                       "is an array")
            value = convert_to(self.expr(a, ks, pre), dt)
            if any(isinstance(x, ir.Call) for x in ir.walk(value)):
                tmp = self.temp(d, ir.with_const(dt, False))
                pre.append(ir.Assign(ir.Ref(tmp), value, self.loc(node)))
                value = ir.Ref(tmp)
            bound.append(FVar(d, dt, const=value))
        with self.scoped_names(dummies):
            for b in bound:
                self.vars[b.name] = b
            return convert_to(self.expr(body, None, pre), t)

    @contextlib.contextmanager
    def scoped_names(self, names):
        """Names that a construct declares for itself: within it they mean what the
        construct makes them; after it, what they meant before."""
        saved = {n: self.vars.get(n) for n in names}
        hidden = [v for v in saved.values() if v is not None]
        self.hidden += hidden       # their C names stay taken
        try:
            for n in names:
                self.vars.pop(n, None)
            yield
        finally:
            for n, v in saved.items():
                if v is None:
                    self.vars.pop(n, None)
                else:
                    self.vars[n] = v
            del self.hidden[len(self.hidden) - len(hidden):]

    def block_construct(self, node, out):
        """BLOCK: its declarations are variables of its own, hidden outside it; its
        allocatable arrays are deallocated at END BLOCK, and by EXIT, CYCLE, RETURN and
        GOTO leaving it (see open_construct)."""
        F = f2003()
        kids = self.construct_parts(node)
        spec = next((c for c in kids if isinstance(c, F.Specification_Part)), None)
        body = [c for c in kids[1:-1] if not isinstance(c, F.Specification_Part)]
        names = [name_of(e.items[0]) for e in walk_type(spec, F.Entity_Decl)] \
            if spec is not None else []
        loc = self.loc(kids[-1])
        with self.scoped_names(names):
            own_structs = []
            if spec is not None:
                allocatables = len(self.allocatables)
                scalars = len(self.allocatable_scalars)
                structs = len(self.allocatable_structs)
                initialized = len(self.initialized_structs)
                dummies, self.dummies = self.dummies, []    # a BLOCK's names are no dummies
                try:
                    self.block_specification(spec)
                finally:
                    self.dummies = dummies
                self.size_deferred_strings(body)
                own = self.allocatables[allocatables:]
                own_structs = self.allocatable_structs[structs:]
                # initialized where the BLOCK is entered, not the procedure
                out.extend(self.default_initializations(
                    self.initialized_structs[initialized:]))
                del self.initialized_structs[initialized:]
                out.extend(self.allocation_cleared(self.allocatable_scalars[scalars:], loc))
            else:
                own = []
            declared = [self.vars[n] for n in dict.fromkeys(names) if n in self.vars]
            for v in declared:
                if v.dims and v.allocated is None and constant_size(v) is None:
                    raise AdgenError(f"array '{v.name}' of a BLOCK needs constant bounds "
                                     "(or make it ALLOCATABLE)", v.loc)

            def release(at):
                return [st for v in own for st in self.deallocate(v, at, only_if_allocated=True)] \
                    + self.release_components(own_structs, at)
            self.block_owned |= {id(v) for v in own + own_structs}     # (not by leaving)
            with self.open_construct(node, release):
                self.statements(body, out)
            out.extend(release(loc))
            self.retired += [v for v in declared if v.sym is not None and v.const is None]

    def block_specification(self, spec):
        """The declarations of a BLOCK: type declarations (an initial value makes the
        variable SAVEd), PARAMETER, DIMENSION and ALLOCATABLE statements."""
        F = f2003()
        for c in spec.children:
            if isinstance(c, F.Implicit_Part):
                stmts = [x for x in c.children if not isinstance(x, F.Comment)]
            else:
                stmts = [c]
            for x in stmts:
                if not isinstance(x, (F.Type_Declaration_Stmt, F.Parameter_Stmt,
                                      F.Dimension_Stmt, F.Allocatable_Stmt, F.Comment)):
                    what = type(x).__name__.replace("_Stmt", "").replace("_", " ")
                    raise self.error(x, f"{what.upper()} in a BLOCK is not supported")
        self.specification(spec)

    def associate_construct(self, node, out):
        """ASSOCIATE: each name is another name of its selector's variable (an element
        or a contiguous section of an array through a pointer set on entry, with the
        section's subscripts read once there), or of a value computed on entry when the
        selector is an expression."""
        F = f2003()
        loc = self.loc(node)
        kids = self.construct_parts(node)
        associations = walk_type(kids[0], F.Association)
        # the selectors are all evaluated before any name is associated
        made = [(name_of(a.items[0]), self.association(name_of(a.items[0]), a.items[2], out, loc))
                for a in associations]
        # (the temporaries its selectors need, the values of array expressions, are freed
        # after it and by EXIT, CYCLE, RETURN and GOTO leaving it: see statement)
        with self.scoped_names([n for n, _ in made]):
            for n, v in made:
                self.vars[n] = v
            self.statements(kids[1:-1], out)

    def association(self, name, selector, out, loc):
        """The variable an associate name stands for (see associate_construct)."""
        F = f2003()
        v = self.lookup(name_of(selector), selector) \
            if isinstance(selector, F.Name) else None
        if v is not None and v.const is None:
            if v.dims:
                return replace(v, name=name, alias_of=v.alias_of or v)
            return v
        if isinstance(selector, F.Part_Ref):
            v = self.array_var(name_of(selector.items[0]), selector)
            if v is not None:
                return self.associated_section(name, v, selector, out, loc)
        # (its matmul products, packed values, constructors and the values of functions
        # returning arrays into temporaries first, as a statement's)
        selector = self.without_products(self.without_array_functions(
            self.component_elements(selector), out), out)
        selector = self.without_constructors(selector, out)
        if self.operand_shape(selector):
            return self.associated_array_value(name, selector, out, loc)
        pre = []
        value = self.expr(selector, pre=pre)
        out.extend(pre)
        t = ir.with_const(value.type, False)
        alias = FVar(name, t, loc=loc)
        alias.sym = self.temp(name, t)
        out.append(ir.Assign(ir.Ref(alias.sym, loc), value, loc))
        return alias

    def associated_array_value(self, name, selector, out, loc):
        """An associate name for an array expression (`v => x * 2d0 + 1d0`): a value,
        which the construct reads but cannot change, evaluated once on entry into a
        temporary array of its shape, lower bounds 1, element type that of its value;
        allocated there and freed after the construct (a temporary of the ASSOCIATE
        construct as a statement, see statement)."""
        if self.is_string(selector):
            raise self.error(selector, f"ASSOCIATE of '{name}' with a CHARACTER array "
                                       "expression is not supported (assign it to an array "
                                       "first)")
        shape = self.expr_shape(selector)
        made = []

        def element(ks, pre):
            value = self.expr(selector, ks, pre)
            if not made:        # (its element type is known once an element is read)
                made.append(self.statement_array(
                    ir.with_const(value.type, False),
                    [triplet_count(*d) for d in shape], out, loc, base=name))
            return self.element(made[0], ks), value
        with self.calls_hoisted(selector, out):
            self.elementwise(shape, element, out, loc)
        return replace(made[0], name=name)

    def associated_section(self, name, v, selector, out, loc, use=None):
        """An associate name for an element or a section of array v: a pointer to its
        first element, set on entry; a section must be one contiguous piece of v (see
        check_contiguous; `use` says what the section is for) and has lower bounds 1."""
        F = f2003()
        self.check_contiguous(v, selector, use or f"ASSOCIATE cannot give '{name}' to it")
        subs, dims = [], []
        for (lo, ext), sub in zip(v.dims, selector.items[1].items):
            if not isinstance(sub, F.Subscript_Triplet):
                subs.append(to_int(self.expr(sub)))
                continue
            if sub.items[1] is None and ext is None:
                raise self.error(selector, "open upper bound on an assumed-size array")
            first = to_int(self.expr(sub.items[0])) if sub.items[0] is not None else lo
            last = to_int(self.expr(sub.items[1])) if sub.items[1] is not None else \
                X.sub(X.add(X.clone(lo), X.clone(ext)), ir_int(1))
            if sub.items[0] is not None:
                start = self.temp(f"{name}_lb", ir.INT)
                out.append(ir.Assign(ir.Ref(start, loc), first, loc))
                first = ir.Ref(start, loc)
            extent = self.temp(f"{name}_n", ir.INT)
            count = X.add(X.sub(last, X.clone(first)), ir_int(1))
            out.append(ir.Assign(ir.Ref(extent, loc), ir.Cond(
                ir.Binary(">", count, ir_int(0), ir.INT), X.clone(count), ir_int(0), ir.INT), loc))
            subs.append(X.clone(first))
            dims.append((ir_int(1), ir.Ref(extent, loc)))
        element = self.array_element(v, subs, selector)
        alias = FVar(name, v.type, loc=loc, alias_of=v.alias_of or v)
        alias.sym = self.temp(f"{name}_at", ir.Ptr(element.type))
        alias.sym.alias_storage = storage_of(element)
        out.append(ir.Assign(ir.Ref(alias.sym, loc),
                             ir.AddrOf(element, ir.Ptr(element.type), loc), loc))
        if dims:
            alias.dims = dims
        else:
            alias.by_ref = True
        return alias

    def index_loops(self, triplets, mask, body, node):
        """body under the mask, in loops over the header's index triplets (within
        own_indices), the first index innermost: gfortran's order (the iterations of a
        conforming construct may run in any; a body whose results depend on the order
        gets gfortran's)."""
        loc = self.loc(node)
        if mask is not None:
            pre = []
            test = self.expr(mask, pre=pre)
            body = pre + [ir.If(test, ir.Block(body, loc), None, loc)]
        for t in triplets:
            v = self.vars[name_of(t.items[0])]
            bounds = self.do_bounds(v, list(t.items[1:]), node)
            body = self.counted_loop(self.value(v, node), bounds, body, loc)
        return body

    def construct_parts(self, node):
        """The children of a construct without the comments fparser puts before its first
        statement (a blank or comment line above an IF or a SELECT CASE), those read as
        the directives they may be, as before a DO."""
        F = f2003()
        kids = list(node.children)
        while kids and isinstance(kids[0], F.Comment):
            self.directive(kids.pop(0))
        return kids

    def if_construct(self, node):
        F = f2003()
        branches = []        # [(cond or None for else, [], loc, setup, [statement nodes])]
        current = None
        for c in self.construct_parts(node):
            if isinstance(c, (F.If_Then_Stmt, F.Else_If_Stmt)):
                setup = []
                test = self.condition_before(c.items[0], setup, self.loc(c))
                current = (test, [], self.loc(c), setup, [])
                branches.append(current)
            elif isinstance(c, F.Else_Stmt):
                current = (None, [], self.loc(c), [], [])
                branches.append(current)
            elif isinstance(c, F.End_If_Stmt):
                pass
            else:
                current[4].append(c)
        return self.branches(branches)

    def branches(self, branches):
        """The statements of an if-chain from [(test or None for else, [], loc, setup,
        [statement nodes])]."""
        for _, stmts, _, _, nodes in branches:
            self.statements(nodes, stmts)
        return _if_chain([b[:4] for b in branches]).stmts

    def condition_before(self, node, setup, loc):
        """An IF, ELSE IF or DO WHILE condition evaluated once (see expr_before); the
        arrays its set-up allocates are freed once it is evaluated (into a variable
        then): an ELSE IF condition's set-up runs only when the conditions before it
        fail, a DO WHILE condition's at each pass, so the end of the construct could not
        tell whether to free them, nor how many times."""
        start = len(self.heap_temps)
        test = self.expr_before(node, setup)
        built = [sym for sym, size in self.heap_temps[start:] if size is None]
        if not built:
            return test
        value = self.once(test, "test", setup, loc)
        setup += [free_call(sym, loc) for sym in built]
        self.heap_temps[:] = [t for t in self.heap_temps if all(t[0] is not b for b in built)]
        return ir.Ref(value, loc)

    def case_construct(self, node):
        F = f2003()
        kids = self.construct_parts(node)
        sel_stmt = kids[0]
        setup = []
        if self.is_string(sel_stmt.items[0]):
            sel = self.string_selector(sel_stmt, setup)       # (pointer, length)
        else:
            sel = self.expr_before(sel_stmt.items[0], setup)
            if not sel.type.resolved().is_int:
                raise self.error(sel_stmt, "SELECT CASE needs an integer or CHARACTER "
                                           "selector")
        if not isinstance(sel, tuple) and X.has_call(sel):
            # evaluated once, not by every CASE test
            tmp = self.temp("selector", ir.with_const(sel.type, False))
            setup.append(ir.Assign(ir.Ref(tmp), sel, self.loc(sel_stmt)))
            sel = ir.Ref(tmp)
        cases, current = [], None
        for c in kids[1:]:
            if isinstance(c, F.Case_Stmt):
                current = (self.case_test(c, sel, setup), [], self.loc(c), [], [])
                cases.append(current)
            elif isinstance(c, F.End_Select_Stmt):
                pass
            elif current is not None:
                current[4].append(c)
        if isinstance(sel, ir.Ref) and all(test is None for test, *_ in cases):
            # only CASE DEFAULT: the selector is evaluated (it may call functions), unused
            setup.append(ir.ExprStmt(ir.Cast(ir.VOID, X.clone(sel)), self.loc(sel_stmt)))
        return setup + self.branches(cases) if cases else setup

    def case_test(self, c, sel, setup):
        F = f2003()
        selector = c.items[0]
        if str(selector).upper().strip() == "DEFAULT":
            return None
        if isinstance(sel, tuple):      # a CHARACTER selector: (pointer, length)
            def compare(node, op):
                return ir.Binary(op, self.string_compare(sel, node, c, setup), ir_int(0),
                                 ir.INT)
        else:
            def compare(node, op):
                return ir.Binary(op, X.clone(sel), self.expr(node), ir.INT)
        test = None
        for r in walk_type(selector, F.Case_Value_Range) or []:
            lo, hi = r.items
            t = compare(lo, ">=") if lo is not None else None
            if hi is not None:
                u = compare(hi, "<=")
                t = u if t is None else ir.Binary("&&", t, u, ir.INT)
            test = t if test is None else ir.Binary("||", test, t, ir.INT)
        values = selector.items[0] if hasattr(selector, "items") else None
        for v in (values.items if values is not None and hasattr(values, "items") else []):
            if isinstance(v, F.Case_Value_Range):
                continue
            t = compare(v, "==")
            test = t if test is None else ir.Binary("||", test, t, ir.INT)
        if test is None:
            raise self.error(c, "unsupported CASE selector")
        return test

    def do_construct(self, node):
        kids = self.construct_parts(node)
        stmt = kids[0]
        loc = self.loc(stmt)
        ckp, self.binomial_ckp = self.binomial_ckp, None
        fixed_point, self.fp_loop = self.fp_loop, None
        parallel, self.omp_parallel_do = self.omp_parallel_do, None
        region = self.omp_region if parallel is not None and self.omp_region is not None \
            and self.omp_region.fused and self.omp_region.loop is None else None
        if region is not None:
            region.loop = node      # (the loop of a region: see fortran_openmp.py)
        kept = ckp is not None or fixed_point is not None
        self.kept_loops += kept
        try:
            loop = self.do_loop(node, kids, stmt, loc, ckp)
        finally:
            self.kept_loops -= kept
        if fixed_point is not None:
            # just before the loop, after its bounds' set-up
            loop.insert(len(loop) - 1, ir.Pragma(fixed_point[1], fixed_point[0]))
        if parallel is not None:
            pragma = self.omp_pragma(parallel)
            if pragma is not None:
                loop.insert(len(loop) - 1, pragma)
                if region is not None:
                    region.loop_pragma = pragma
        if _construct_name(stmt) is not None:
            loop.append(jumps.Label(f"exit_{_construct_name(stmt)}", loc))   # (see loop_jump)
        return loop

    def do_loop(self, node, kids, stmt, loc, ckp):
        """The statements of a DO construct (its set-up, then the loop), ckp its
        BINOMIAL-CKP directive or None."""
        F = f2003()
        ctl = next((item for item in stmt.items if isinstance(item, F.Loop_Control)), None)
        setup = []
        test = bounds = None
        if ckp is not None and (ctl is None or ctl.items[0] is not None):
            raise AdgenError("BINOMIAL-CKP: the loop must be a counted DO loop "
                             "(do i = a, b[, step])", ckp[0].loc)
        if ctl is not None and ctl.items[0] is not None:        # DO WHILE
            test = self.condition_before(ctl.items[0], setup, loc)
        elif ctl is not None and ctl.items[1] is None:
            # DO CONCURRENT: its iterations may run in any order, so in order
            return self.do_concurrent(ctl.items[3], kids[1:], stmt, ckp)
        counter = None
        if ctl is not None and ctl.items[0] is None and ctl.items[1] is not None:
            var_node, bounds = ctl.items[1]
            counter = self.lookup(name_of(var_node), stmt)
            var = self.value(counter, stmt)
            bounds = self.do_bounds(counter, bounds, stmt)
        body_nodes = kids[1:]
        shared = next((k for k, c in enumerate(body_nodes) if isinstance(c, F.Label_Do_Stmt)),
                      None)
        if shared is not None:
            # `do 40 i` / `do 40 j` / `40 continue`: the inner loop, which shares this
            # one's terminal statement, runs from its DO statement to that statement,
            # the last of its body
            if _do_label(body_nodes[shared]) != _do_label(stmt):
                raise self.error(body_nodes[shared], "a DO loop ending on label "
                                 f"{_do_label(body_nodes[shared])} inside the loop ending on "
                                 f"label {_do_label(stmt)}: not supported")
            inner = object.__new__(type(node))
            inner.content = body_nodes[shared:]
            body_nodes = body_nodes[:shared] + [inner]
        body = []
        # a labelled DO ends on a labelled statement (CONTINUE) that is part of the body;
        # a labelled END DO is kept too: a GOTO to it goes to the next iteration
        self.do_counters.append(counter)
        try:
            self.loop_body(stmt, [c for c in body_nodes if not isinstance(c, F.End_Do_Stmt)
                                  or label_of(c) in self.goto_targets], body)
        finally:
            self.do_counters.pop()
        if ctl is None:
            return [ir.While(ir.Const("1", ir.INT), ir.Block(body, loc), loc)]
        if test is not None:                              # DO WHILE
            if setup:
                # the set-up runs before every evaluation of the condition
                leave = ir.If(ir.Unary("!", test, ir.INT, loc), ir.Block([ir.Break(loc)]),
                              None, loc)
                return [ir.While(ir.Const("1", ir.INT), ir.Block(setup + [leave] + body, loc),
                                 loc)]
            return [ir.While(test, ir.Block(body, loc), loc)]
        loop = self.counted_loop(var, bounds, body, loc)
        if ckp is not None:
            # just before the For, after the bounds' set-up
            loop.insert(len(loop) - 1, self.checkpoint_pragma(ckp))
        return loop

    # ------------------------------------------------------ Tapenade's directives
    def directive(self, comment, out=None):
        """Read a `!$AD` directive comment (`C$AD`, `*$AD` in fixed form): BINOMIAL-CKP
        and FP-LOOP wait for the DO loop they stand before, NOCHECKPOINT for the call
        statement it stands before (split mode: `#pragma adgen nocheckpoint`), others are
        ignored with a warning. `!$omp parallel do` waits for its DO loop, `!$omp atomic`
        for its assignment, `!$omp critical` for its `!$omp end critical` (out: the
        statement list the comment stands in, when known)."""
        text = str(comment).strip()
        self.openmp_directive(comment, text, out)
        m = _DIRECTIVE.match(text)
        if not m:
            return
        loc = self.loc(comment)
        words = m.group(1).split()
        name = words[0].upper() if words else ""
        if name == "BINOMIAL-CKP":
            self.no_waiting_directive(comment)
            self.binomial_ckp = self.binomial_directive(words[1:], loc)
        elif name == "NOCHECKPOINT":
            self.nocheckpoint = True
        elif name == "FP-LOOP":
            self.no_waiting_directive(comment)
            self.fp_loop = (loc, self.fp_loop_pragma(words[1:], loc), name)
        elif name == "II-LOOP":
            self.no_waiting_directive(comment)
            self.fp_loop = (loc, "adgen independent", name)
        else:
            self.front.warn(loc, f"!$AD {name} directive ignored (adgen knows "
                                 "BINOMIAL-CKP, FP-LOOP, II-LOOP and NOCHECKPOINT)", self.func)

    def fp_loop_pragma(self, words, loc):
        """The C pragma of `!$AD FP-LOOP [names] [adj_reduction=FACTOR]`: the state's names
        are read and not needed (adgen finds the state), adj_reduction is kept; another
        setting is left out with a warning, not in silence."""
        settings = " ".join(words)
        for name in re.findall(r"([A-Za-z_]\w*)\s*=", settings):
            if name.lower() != "adj_reduction":
                self.front.warn(loc, f"!$AD FP-LOOP setting '{name}' ignored (adgen knows "
                                     "adj_reduction)", self.func)
        factor = fortran_reduction_factor(settings)
        return "adgen fp_loop" + (f" adj_reduction={factor}" if factor else "")

    def binomial_directive(self, fields, loc):
        """(the checkpoint pragma of `!$AD BINOMIAL-CKP nsteps nsnaps first`, the parse tree
        of nsnaps): the count is lowered with the loop (see checkpoint_pragma), once the
        dummies are parameters; nsteps and first are only checked, as in C."""
        F = f2003()
        usage = "expected '!$AD BINOMIAL-CKP nsteps nsnaps first'"
        if len(fields) != 3:
            raise AdgenError(usage, loc)
        try:
            nodes = [F.Expr(f) for f in fields]
        except Exception:        # fparser's NoMatchError and the like
            raise AdgenError(f"{usage}: each a Fortran expression without spaces", loc)
        return ir.CheckpointPragma(f"adgen binomial_ckp({', '.join(fields)})", loc), nodes[1]

    def checkpoint_pragma(self, ckp):
        """The pragma of the directive ckp (from binomial_directive), its snapshot count
        lowered in the scope of its loop."""
        ckp, snaps_node = ckp
        pre = []
        snaps = self.expr(snaps_node, pre=pre)
        if pre or not snaps.type.resolved().is_int:
            raise AdgenError("BINOMIAL-CKP: the snapshot count must be an integer "
                             "expression without function calls", ckp.loc)
        ckp.snaps = snaps
        return ckp

    def no_waiting_directive(self, node):
        """A BINOMIAL-CKP directive must stand just before its DO loop (node is the
        statement that follows it, None at the end of a statement list)."""
        what = "" if node is None else f", not before this statement (line {line_of(node)})"
        if self.binomial_ckp is not None:
            loc, self.binomial_ckp = self.binomial_ckp[0].loc, None
            raise AdgenError(f"BINOMIAL-CKP: the directive must stand just before a DO "
                             f"loop{what}", loc)
        if self.omp_parallel_do is not None:
            (loc, text, _), self.omp_parallel_do = self.omp_parallel_do, None
            self.front.warn(loc, f"'{text}' does not stand before a DO loop: the derivative "
                                 "code runs this part serially", self.func)
        if self.fp_loop is not None:
            (loc, _, name), self.fp_loop = self.fp_loop, None
            loops = "a DO or DO WHILE loop" if name == "FP-LOOP" else "a DO loop"
            raise AdgenError(f"{name}: the directive must stand just before {loops}{what}", loc)

    def do_concurrent(self, header, body_nodes, stmt, ckp):
        """`do concurrent (i = a:b[:s], j = ...[, mask])`: nested loops, the first index
        innermost (see index_loops), the body under the mask. The indices are the construct's own: a
        variable of the same name outside keeps its value."""
        F = f2003()
        loc = self.loc(stmt)
        triplets, mask = header.items[0].items, header.items[1]
        if ckp is not None and (len(triplets) != 1 or mask is not None):
            raise AdgenError("BINOMIAL-CKP: the loop must be a counted DO loop "
                             "(do i = a, b[, step])", ckp[0].loc)
        with self.own_indices(triplets, loc):
            body = []
            self.loop_body(stmt, [c for c in body_nodes if not isinstance(c, F.End_Do_Stmt)],
                           body)
            loop = self.index_loops(triplets, mask, body, stmt)
        if ckp is not None:
            loop.insert(len(loop) - 1, self.checkpoint_pragma(ckp))
        return loop

    def do_bounds(self, v, bounds, node):
        """(start, end, step, set-up statements) of `do v = start, end[, step]`; the step
        must be a constant."""
        setup = []
        start = convert_to(self.expr_before(bounds[0], setup), v.type)
        end = convert_to(self.expr_before(bounds[1], setup), v.type)
        step = const_int(self.expr(bounds[2])) if len(bounds) > 2 and bounds[2] is not None \
            else 1
        if step is None:
            raise self.error(node, "a DO loop step must be a constant")
        if step == 0:
            raise self.error(node, "a DO loop step of zero")
        return start, end, step, setup

    def counted_loop(self, var, bounds, body, loc):
        """The statements of a DO loop over body, bounds from do_bounds. Fortran evaluates
        the end once, before the loop: when the loop could change it (it reads a variable
        the loop assigns, memory a call could change, or calls a procedure), settle reads
        it into a temporary first; otherwise the loop tests it as it is."""
        start, end, step, setup = bounds
        update = ir.Binary("+" if step > 0 else "-", X.clone(var), ir_int(abs(step)), var.type,
                           loc)
        test = ir.Binary("<=" if step > 0 else ">=", X.clone(var), end, ir.INT, loc)
        loop = ir.For([ir.Assign(var, start, loc)], test, [ir.Assign(X.clone(var), update, loc)],
                      ir.Block(body, loc), loc)
        self.loop_ends.append((loop, f"{storage_name(var)}_end"))
        return setup + [loop]

    # --------------------------------------------- what a statement list may change
    def is_procedure_call(self, e):
        return isinstance(e, ir.Call) and e.func in self.front.functions

    def changes(self, stmts):
        """What statements may change: (the storage they assign, or pass to a procedure
        that may assign its argument, module variables and COMMON block members included;
        whether they may change any module variable or COMMON block). What a procedure
        of the input may change is in front.summaries (see FFront.settle); any other one
        may change all it is passed and all globals."""
        written, all_globals = set(), False
        for st in ir.stmts_walk(stmts):
            if isinstance(st, ir.Assign):
                written.add(storage_of(st.lhs))
            for e in ir.stmt_exprs(st):
                for call in filter(self.is_procedure_call, ir.walk(e)):
                    summary = self.front.summaries.get(call.func)
                    if summary is None:
                        summary = Changes({k for k, a in enumerate(call.args)
                                            if a.type.resolved().is_pointer or
                                            a.type.resolved().is_array}, set(), True)
                    written |= {storage_of(call.args[k]) for k in summary.params
                                if k < len(call.args)} | summary.globals
                    all_globals = all_globals or summary.all_globals
        return written, all_globals

    def may_change(self, e, changes):
        """Whether the value of e may differ after statements with these changes (or
        when evaluated again: it calls a procedure)."""
        return any(map(self.is_procedure_call, ir.walk(e))) or \
            self.changed_variable(e, changes) is not None

    def size_dependency(self, e, changes=None):
        """What keeps e from giving the size of an array declared on entry: the name of a
        local variable it reads, of a procedure it calls, or of a variable that
        statements with these changes may change; None when nothing does."""
        call = next(filter(self.is_procedure_call, ir.walk(e)), None)
        return reads_variables(e) or (call.func if call is not None else None) or \
            (self.changed_variable(e, changes) if changes is not None else None)

    def changed_variable(self, e, changes):
        """The name of a variable e reads that statements with these changes may change,
        or None."""
        written, all_globals = changes
        return next((storage_label(r) for r in _storage_read(e)
                     if r in written or all_globals and is_global_storage(r)), None)


_UNSUPPORTED_JUMPS = {"Assigned_Goto_Stmt": "assigned GOTO", "Assign_Stmt": "ASSIGN"}


def _labels_within(node):
    """The labels a GOTO inside node goes to without leaving it: those of its statements
    but its first (the jump evaluates its header again) and the END IF or END SELECT of
    an IF or SELECT CASE construct (a GOTO to it goes to what follows the construct)."""
    F = f2003()
    labels = {label_of(n) for n in walk_nodes(node)} - {None, label_of(node)}
    if isinstance(node, (F.If_Construct, F.Case_Construct)):
        labels.discard(label_of(node.children[-1]))
    return {int(str(lab)) for lab in labels}


# The statements the derivative code leaves out (output)
_IO_STATEMENTS = ("Print_Stmt", "Write_Stmt", "Open_Stmt", "Close_Stmt", "Flush_Stmt",
                  "Rewind_Stmt", "Format_Stmt")


def _storage_read(e):
    """The storage (see storage_of) of the variables an expression reads."""
    if isinstance(e, ir.Ref) or common_member(e):
        return {storage_of(e)}
    through = {storage_of(e)} if isinstance(e, (ir.Deref, ir.Index)) and \
        alias_target(e.children()[0]) is not None else set()
    return through.union(*map(_storage_read, e.children()))


def _paths_overlap(scope, a, b):
    """Whether two designators of one variable may name the same storage, told by their
    component names alone: `p(i)%x` and `p(j)%v` cannot, `p(i)%x` and `p(j)` or `p(j)%x`
    may (a whole variable or array overlaps all its parts, a parent component the
    components it holds: `q(i)%point` and `q(j)%x`)."""
    def path(node):
        if T.is_component_name(node):
            return T.component_path(node, scope)
        if isinstance(node, f2003().Part_Ref) and T.is_component_name(node.items[0]):
            return path(node.items[0])
        return [base_name_of(node)]
    pa, pb = path(a), path(b)
    n = min(len(pa), len(pb))
    return pa[:n] == pb[:n]
