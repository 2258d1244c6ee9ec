"""The pipeline, top to bottom: front end -> IR -> normalisation -> analyses -> transform
-> C back end. `differentiate` is the one entry point the command line and the Python API
use."""
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import List, Optional

from adgen import ir, progress
from adgen.analysis.activity import (Activity, Memory, field_closure, find, head_nodes,
                                     library_call_reads, names_global, reachable_nodes,
                                     ruled_call_arrays)
from adgen.analysis.call_graph import callees, reachable
from adgen.analysis.default_heads import default_io, resolve_heads
from adgen.analysis.extent import (ExtentAnalysis, Unknown, add_ints, const_value,
                                   descriptor_rank, field_expr, field_path_text, int_const)
from adgen.analysis.loops import fixed_bodies
from adgen.analysis.reinterpret import check_reinterpretations
from adgen.analysis.static_state import (check_entry_state, check_preset_pointers,
                                         check_saved_allocatables, check_static_globals,
                                         check_static_state, mentions,
                                         sets_before_reading, state_writers)
from adgen.backend.cgen import OutputUnit, render_unit
from adgen.backend.int_dummies import read_int_dummies_once
from adgen.errors import AdgenError, Loc, MissingSize, warning_text
from adgen.frontend.c_units import merge_c_files
from adgen.room import with_room
from adgen.ir import exprs as X, own_stack
from adgen.ir.generated import GenFunction, LocalDecl
from adgen.transform.automatic_statics import make_statics_automatic
from adgen.transform.callbacks import specialize_callbacks
from adgen.transform.common import strip_const
from adgen.transform.normalize import normalize_program, structure_program
from adgen.rules import LIBRARY_FUNCTIONS, MPI_NON_BLOCKING

FORTRAN_SUFFIXES = (".f90", ".f95", ".f03", ".f08", ".f", ".f77", ".for")   # any case
# rounds of analysis that may copy functions whose call sites differ in activity
MAX_ACTIVITY_ROUNDS = 6


@dataclass
class Head:
    func: ir.Function
    dep: List[str]
    indep: List[str]
    text: str


@dataclass
class Options:
    mode: str = "reverse"                  # 'reverse' | 'forward'
    vector: bool = False                   # forward mode in many directions (f_dv)
    heads: List[str] = field(default_factory=list)
    include_dirs: List[str] = field(default_factory=list)
    defines: List[str] = field(default_factory=list)
    inactive: List[str] = field(default_factory=list)
    sizes: dict = field(default_factory=dict)   # param name -> C expression text
    command: str = ""
    output_stem: str = ""                  # names the Fortran interface module
    invert: bool = True                    # undo increments instead of saving values
    stack: str = "heap"                    # 'heap' | 'static': where saved values live
    stack_size: str = ""                   # bytes of the static stack (else derived)
    stack_report: bool = False             # report the bytes pushed per call
    rules: List[str] = field(default_factory=list)  # files of user derivative rules
    explain: bool = False                  # report what the adjoint stores, and why
    store_all: bool = False                # store every overwritten value (a baseline)
    split_calls: List[str] = field(default_factory=list)   # functions called in split mode
    joint_calls: List[str] = field(default_factory=list)   # ... and in joint mode


# ------------------------------------------------------------------- front end

def load_program(sources, options):
    programs = []
    fortran = []
    for src in sources:
        if not os.path.exists(src):
            raise AdgenError("no such file", Loc(src))
        if os.path.isdir(src):
            raise AdgenError("is a directory, not a source file", Loc(src))
        lower = src.lower()
        if lower.endswith(FORTRAN_SUFFIXES):
            _check_text(src)
            fortran.append(src)
        elif lower.endswith((".c", ".h", ".i")):
            from adgen.frontend.c_front import parse_c_file
            _check_text(src)
            programs.append(parse_c_file(src, options.include_dirs, options.defines,
                                         options.inactive))
        else:
            raise AdgenError("unknown kind of source file (expected .c, or a Fortran suffix)",
                             Loc(src))
    if fortran:
        if programs:
            raise AdgenError("mixing C and Fortran sources in one run is not supported",
                             Loc(fortran[0]))
        # Fortran files are read together: a module of one is used in another
        from adgen.frontend.fortran_front import parse_fortran_files
        prog = parse_fortran_files(fortran, options)
        prog.files_read = list(fortran)
        return prog
    prog = merge_c_files(programs)
    prog.files_read = list(dict.fromkeys(f for p in programs for f in p.files_read))
    return prog


def _check_text(path):
    with open(path, "rb") as fh:
        data = fh.read()
    if b"\0" in data:
        raise AdgenError("binary file, not C source", Loc(path))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            data.decode("latin-1")
        except UnicodeDecodeError:
            raise AdgenError("not a text file", Loc(path))
    if not data.strip():
        raise AdgenError("empty source file", Loc(path))


# ------------------------------------------------------------------- analyses

class Context:
    """What the transforms need to know about the program being differentiated."""

    def __init__(self, prog, heads, options, mem, act, functions):
        self.prog, self.heads, self.options = prog, heads, options
        self.mem, self.act = mem, act
        self.functions = functions
        self.inactive = set(options.inactive)
        self._writes = None
        self._old_writes = None
        self._reads = None
        self._shadow_globals = None
        self._per_call_statics = None
        self._head_shadow_globals = {}
        self._called = {}
        # {function: (key, what a call of it reads, writes)}, see recompute.py
        self.callee_access = {}
        self.suffix = "b" if options.mode == "reverse" else "d"
        self.extents = ExtentAnalysis(prog)
        self.given_sizes = {}       # (function, how, name) -> a length given, parsed once
        self.by_reference = prog.language == "fortran"

    def value_read(self, node):
        """Whether some statement reads the value of memory node, or of a field of it (a
        struct's fields are nodes of their own)."""
        todo, seen = [find(node)], set()
        while todo:
            n = todo.pop()
            if n in self.read_nodes:
                return True
            if n not in seen:
                seen.add(n)
                todo += [find(x) for x in n.fields.values()]
        return False

    def writes(self):
        """Nodes each function may write, directly or through its callees."""
        if self._writes is None:
            self._writes = self._written(lambda f, lhs: True)
        return self._writes

    def old_memory_writes(self):
        """Like writes, but without the writes through a local pointer that only ever
        holds blocks its function allocates (`sub = malloc(...); sub->data = ...`): that
        memory is newer than the call, so never the caller's, though the points-to graph
        may not tell it apart (a struct copied into a new frame and recursed on)."""
        if self._old_writes is None:
            from adgen.analysis.fresh_memory import first_deref_pointer, fresh_pointers
            fresh = {name: fresh_pointers(self.prog.functions[name])
                     for name in self.functions if self.prog.functions[name].has_body}
            self._old_writes = self._written(
                lambda f, lhs: first_deref_pointer(lhs) not in fresh[f.name])
        return self._old_writes

    def _written(self, counts):
        """writes(), of the assignments whose left side counts(function, lhs)."""
        direct = {}
        for name in self.functions:
            f = self.prog.functions[name]
            if not f.has_body:
                continue
            ws = set()
            for s in ir.stmts_walk(f.body.stmts):
                if isinstance(s, ir.Assign) and counts(f, s.lhs):
                    ws.add(find(self.mem.loc(s.lhs)))
                elif own_stack.pushed(s) is not None:
                    ws.add(find(self.mem.var(own_stack.STACK)))
                for call, g in self.ruled_calls(s):
                    ws.update(ruled_call_arrays(self.mem, g, call, written=True))
            direct[name] = ws
        return _closed_over_callees(self.prog, direct)

    def reads(self):
        """Nodes each function may read (values, pointers, indices, tests), directly or
        through its callees: what running it again needs (a call's joint mode)."""
        if self._reads is None:
            direct = {}
            for name in self.functions:
                f = self.prog.functions[name]
                if not f.has_body:
                    continue
                rs = set()
                for s in ir.stmts_walk(f.body.stmts):
                    for call, g in self.ruled_calls(s):
                        rs.update(ruled_call_arrays(self.mem, g, call))
                    for e in ir.stmt_exprs(s):
                        top = s.lhs if isinstance(s, ir.Assign) and e is s.lhs else None
                        for sub in ir.walk(e):
                            if isinstance(sub, ir.Call):
                                rs.update(library_call_reads(self.mem, self.prog, sub))
                            if sub is top or not isinstance(sub, (ir.Ref, ir.Index,
                                                                  ir.Member, ir.Deref)):
                                continue
                            rs.add(find(self.mem.loc(sub)))
                direct[name] = rs
            self._reads = _closed_over_callees(self.prog, direct)
            for name, nodes in self._reads.items():
                nodes -= self.automatic_memory(name)
        return self._reads

    def automatic_memory(self, name):
        """The memory that exists only while a call of function name runs: the nodes of
        its and its callees' local variables and parameters (not what pointers point to)
        that no other variable, heap block, returned pointer or pointer handed to the call
        reaches. Running the call again sets it before reading it (a local is not read
        before it is set), so none of it needs to be as the forward sweep left it. None
        for a function that may call itself (a running frame would share the nodes)."""
        inside, todo = {name}, [name]
        while todo:
            for c in self.called(todo.pop()):
                if c == name:
                    return set()
                g = self.prog.functions.get(c)
                if c not in inside and g is not None and g.has_body:
                    inside.add(c)
                    todo.append(c)
        owners, reached, shared, owned = self.memory_owners()
        handed = set()
        for sym in self.prog.functions[name].params:     # the caller's memory, handed over
            pointee = find(self.mem.var(sym)).pointee
            if pointee is not None:
                handed |= reachable_nodes([pointee])
        # (a node all of whose owners are inside is one that some function inside owns)
        candidates = {n for f in inside for n in owned.get(f, ())}
        return {n for n in candidates
                if owners[n] <= inside and reached.get(n, set()) <= inside and
                n not in shared and n not in handed}

    def memory_owners(self):
        """({node: the functions whose locals or parameters it is part of}, {node: the
        functions whose locals or parameters reach it}, the nodes that other memory,
        globals, heap blocks and returned pointers, reaches, {function: the nodes it is
        among the owners of}), read once."""
        if getattr(self, "_owners", None) is None or self._owners[0] != self.mem.version:
            owner = {sym: g.name for g in self.prog.functions.values() if g.has_body
                     for sym in g.params + g.locals if sym.kind in ("local", "temp", "param")}
            owners, reached, shared, owned = {}, {}, set(), {}
            for sym, node in list(self.mem.var_nodes.items()):
                f = owner.get(sym)
                if f is None:
                    shared |= reachable_nodes([node])
                    continue
                for n in field_closure(node):
                    owners.setdefault(n, set()).add(f)
                    owned.setdefault(f, set()).add(n)
                for n in reachable_nodes([node]):
                    reached.setdefault(n, set()).add(f)
            shared |= reachable_nodes(list(self.mem.heap_blocks) +
                                      list(self.mem.ret_nodes.values()))
            self._owners = (self.mem.version, (owners, reached, shared, owned))
        return self._owners[1]

    def ruled_calls(self, s):
        """(call, function) of the calls of ruled functions statement s itself makes."""
        for e in ir.stmt_exprs(s):
            for sub in ir.walk(e):
                g = self.prog.functions.get(sub.func) if isinstance(sub, ir.Call) else None
                if getattr(g, "user_rule", None) is not None:
                    yield sub, g

    def frees(self, name):
        """True when function name calls free(), directly or through its callees."""
        return self.calls(name, ("free",))

    def calls(self, name, library):
        """True when function name calls one of the library functions, directly or
        through its callees."""
        library = set(library)
        seen, todo = set(), [name]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            called = self.called(n)
            if called & library:
                return True
            todo += [c for c in called if c in self.prog.functions and
                     not getattr(self.prog.functions[c], "is_library", False)]
        return False

    def called(self, name):
        """The names of the functions function name calls itself, read once."""
        if name not in self._called:
            f = self.prog.functions.get(name)
            self._called[name] = set() if f is None or not f.has_body else {
                sub.func for s in ir.stmts_walk(f.body.stmts) for e in ir.stmt_exprs(s)
                for sub in ir.walk(e) if isinstance(sub, ir.Call)}
        return self._called[name]

    def shadow_globals(self):
        if self._shadow_globals is None:
            self._shadow_globals = []
            taken = set(self.prog.functions) | {g.name for g in self.prog.globals}
            # a local or parameter of that name would hide the derivative global in its
            # function, which would then read and write its own variable instead
            local_names = {s.name for n in self.functions if n in self.prog.functions
                           for s in list(self.prog.functions[n].params) +
                           list(self.prog.functions[n].locals)}
            taken |= local_names
            named = [n for h in self.heads for n in h.dep + h.indep
                     if n != h.func.name and all(p.name != n for p in h.func.params)]
            for g in self.prog.globals:
                if getattr(g, "is_library", False):
                    continue
                # a head's independent or dependent has one even where nothing active
                # flows through it: the caller sets or reads it
                head_io = names_global(named, g) and not g.is_static
                if head_io or self.act.sym_has_shadow(g):
                    t = g.type.resolved()
                    if isinstance(t, ir.Arr) and t.size is None:
                        raise AdgenError(f"global array '{g.name}' carries derivatives but "
                                         "is declared without its size; declare it with "
                                         "its size for its adjoint", g.loc)
                    # a pointer's shadow points where the head's code makes the global
                    # point (one set outside the heads is refused: check_preset_pointers)
                    if not isinstance(t, ir.Ptr) and \
                            self.holds_active_pointee(self.act.mem.var(g)) and \
                            getattr(g, "descriptor_size", None) is None:
                        # its shadow would hold null pointers: no shadow memory is set up
                        raise AdgenError(f"global '{ir.source_name(g)}' holds a pointer to "
                                         "active data, which is not supported yet", g.loc)
                    name = g.name + self.suffix
                    if head_io and name in taken:
                        where = " (a local variable)" if name in local_names else ""
                        raise AdgenError(f"the derivative of the global '{g.name}' is the "
                                         f"global '{name}', a name the program already "
                                         f"uses{where}; rename one of them", g.loc)
                    while name in taken:
                        name += "0"
                    taken.add(name)
                    # (an adjoint is written through a shadow pointer, a tangent only
                    # read; an array's elements are zeroed in either: `const double t[2]`)
                    s = ir.Symbol(name, strip_const(g.type) if self.suffix == "b" or
                                  isinstance(t, ir.Arr) else ir.with_const(g.type, False),
                                  "global")
                    s.primal = g
                    s.head_io = head_io     # defined without 'static': the caller's
                    self._shadow_globals.append(s)
        return self._shadow_globals

    def holds_active_pointee(self, node, seen=None):
        """Whether memory node (a global's) holds, in itself or a field, a pointer to
        memory that has a shadow."""
        from adgen.analysis.activity import find
        node, seen = find(node), seen or set()
        if node in seen:
            return False
        seen.add(node)
        if node.pointee is not None and self.act.needs_shadow(node.pointee):
            return True
        return any(self.holds_active_pointee(f, seen) for f in node.fields.values())

    def shadow_global_names(self):
        return [g.name for g in self.shadow_globals()]

    def head_shadow_globals(self, head):
        """The shadow globals head's derivative routine sets up: those of the globals it
        names and of those its code (its callees' included) uses. The derivative of a
        global that another head names is that caller's to read or set; a head whose
        code never touches the global leaves it as it is."""
        key = head.func.name
        if key not in self._head_shadow_globals:
            used = X.used_symbols([s for n in reachable(self.prog, [key])
                                   if self.prog.functions[n].has_body
                                   for s in self.prog.functions[n].body.stmts])
            named = head.indep + head.dep
            self._head_shadow_globals[key] = [
                g for g in self.shadow_globals()
                if g.primal in used or names_global(named, g.primal)]
        return self._head_shadow_globals[key]

    def per_call_statics(self):
        """The static locals with a shadow that their function sets before reading them
        in every call (f2c makes every local static): their tangents carry nothing from
        one call to the next, so vector mode keeps them in locals of the derivative."""
        if self._per_call_statics is None:
            self._per_call_statics = {
                s.primal for s in self.shadow_globals()
                if getattr(s.primal, "static_local", False) and
                s.primal.local_of in self.prog.functions and
                sets_before_reading(self.prog, self.prog.functions[s.primal.local_of],
                                    s.primal)}
        return self._per_call_statics

    def extent(self, f, p, why, path=()):
        """Number of elements of pointer parameter p of f (or of its pointer field that
        the field names of path lead to), as an IR expression."""
        try:
            return self.try_extent(f, p, path)
        except Unknown as exc:
            name = field_path_text(p, path) if path else ir.source_name(p)
            raise MissingSize(f"cannot tell how many elements '{name}' has ({why}): {exc}; "
                              f"give it with --size {name}=EXPR", p.loc, name)

    def global_alias(self, f, p):
        """A global pointer that may point into the memory f's pointer parameter p points
        to and that f (or a function it calls) uses, or None."""
        if not isinstance(p.type.resolved(), ir.Ptr):
            return None
        target = find(self.mem.pointee(self.mem.var(p)))
        return next((g for g in self.prog.globals if isinstance(g.type.resolved(), ir.Ptr) and
                     not getattr(g, "is_library", False) and
                     find(self.mem.pointee(self.mem.var(g))) is target and
                     mentions(self.prog, f, g)), None)

    def stated_extent(self, f, p):
        """True when the length of f's pointer parameter p is stated, not inferred: given
        with --size, by `#pragma adgen size` or declared (`double p[n][m]`)."""
        return ir.source_name(p) in self.options.sizes or _declared_rows(f, p) is not None \
            or p.name in getattr(f, "stated_sizes", {})

    def try_extent(self, f, p, path=()):
        """Like extent, but raises Unknown when the analysis cannot tell. With a path of
        field names, the extent of the pointer field of p it names (`m->x`)."""
        name = field_path_text(p, path) if path else ir.source_name(p)
        if name in self.options.sizes:
            return self._given_length(f, p, path, name, self.options.sizes[name], "--size")
        stated = getattr(f, "stated_sizes", {}).get(p.name) if not path else None
        if stated is not None:
            text, where = stated
            return self._given_length(f, p, path, p.name, text, "#pragma adgen size", where)
        declared = _declared_rows(f, p) if not path else None
        if declared is not None:
            # `double p[n][n]`: the rows the parameter declares, whatever the loops reach
            return ir.Cast(ir.Prim("size_t"), X.clone(declared))
        if path:
            rank = descriptor_rank(p, path)
            if rank is not None:
                # a Fortran allocatable's data: the elements its descriptor's bounds give
                from adgen.frontend.fortran_front import FFront
                n = None
                for _, extent in FFront.descriptor_dims(field_expr(ir.Ref(p), path[:-1]), rank):
                    n = extent if n is None else ir.Binary("*", n, extent, ir.INT)
                return ir.Cast(ir.Prim("size_t"), n)
            return self._length(self.extents.max_index(f, p, path))
        if getattr(p, "fortran_extent", None) is not None:
            return ir.Cast(ir.Prim("size_t"), p.fortran_extent)
        if getattr(p, "fortran_array", None) is False:
            return ir.Cast(ir.Prim("size_t"), ir.Const("1", ir.INT))   # a scalar dummy
        alias = self.global_alias(f, p)
        if alias is not None:
            # the analysis follows the parameter's own indices, not those through the global
            raise Unknown(f"the global pointer '{ir.source_name(alias)}' may point into it")
        return self._length(self.extents.max_index(f, p))

    def _given_length(self, f, p, path, name, text, how, where=None):
        """The length text gives p (named name), with --size or `#pragma adgen size`
        (how), parsed once per function; an error in it is placed at where."""
        from adgen.frontend.c_front import parse_length
        key = (f.name, how, name)
        if key not in self.given_sizes:
            try:
                given = parse_length(text, f.params, self.by_reference, how,
                                     getattr(self.prog, "macros", {}))
            except AdgenError as exc:
                raise AdgenError(exc.message, where or exc.loc) from None
            self.given_sizes[key] = rows_of_numbers(p, path, given, name, text)
        return X.clone(self.given_sizes[key])

    @staticmethod
    def _length(max_index):
        n = add_ints(max_index, int_const(1))
        if const_value(n) is None:
            n = ir.Call("adgen_imax", [n, int_const(0)], ir.LONG)     # no elements when n < 0
        return ir.Cast(ir.Prim("size_t"), n)


def rows_of_numbers(p, path, given, name, text):
    """--size counts the numbers an array holds; the derivative code counts elements of
    what the pointer points to. For a pointer to rows (`double (*p)[m]`, `double p[n][m]`)
    that is the given count over the numbers in a row."""
    if path:
        return given        # a pointer field: counted in its elements
    row = ir.pointee(p.type.resolved())
    if row is None or not row.resolved().is_array:
        return given
    numbers = None
    while row.resolved().is_array:
        size = row.resolved().size
        if size is None:
            return given
        numbers = X.clone(size) if numbers is None else ir.Binary("*", numbers, X.clone(size),
                                                                  ir.INT)
        row = row.resolved().elem
    from adgen.ir.c_text import expr_c
    count, row_count = _as_poly(given), _as_poly(numbers)
    rows = count.divide_exact(row_count) if count is not None and row_count is not None \
        else None
    if rows is None:
        raise AdgenError(f"--size {name}={text}: --size counts the numbers in '{name}', "
                         f"and {text} is not a whole number of its rows of "
                         f"{expr_c(numbers)}: give the count as ROWS*{expr_c(numbers)}",
                         p.loc)
    return rows.to_ir()


def _as_poly(e):
    """An integer expression over constants and variables as a polynomial, or None."""
    from adgen.analysis.poly import Poly
    v = const_value(e)
    if v is not None:
        return Poly.const(v)
    if isinstance(e, ir.Cast):
        return _as_poly(e.arg)
    if isinstance(e, ir.Ref):
        return Poly.atom(e.sym.name, e)
    if isinstance(e, ir.Unary) and e.op == "-":
        a = _as_poly(e.arg)
        return None if a is None else -a
    if isinstance(e, ir.Binary) and e.op in "+-*":
        a, b = _as_poly(e.left), _as_poly(e.right)
        if a is None or b is None:
            return None
        return a + b if e.op == "+" else a - b if e.op == "-" else a * b
    return None


def _declared_rows(f, p):
    """The rows a C array parameter declares (`double p[n][m]`: n), when f does not change
    what sizes it; else None."""
    declared = getattr(p, "declared_extent", None)
    return declared if declared is not None and not _assigned_in(f, declared) else None


def _assigned_in(f, e):
    """True when f assigns a variable e reads (a parameter sizing another)."""
    syms = {x.sym for x in ir.walk(e) if isinstance(x, ir.Ref)}
    return any(isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and st.lhs.sym in syms
               for st in ir.stmts_walk(f.body.stmts))


def _closed_over_callees(prog, direct):
    """{function: nodes} with each function's set grown by those of its callees."""
    total = {n: set(w) for n, w in direct.items()}
    graph = {n: callees(prog, prog.functions[n]) for n in direct
             if prog.functions[n].has_body}
    changed = True
    while changed:
        changed = False
        for name, called in graph.items():
            for c in called:
                extra = total.get(c, set()) - total[name]
                if extra:
                    total[name] |= extra
                    changed = True
    return total


def read_nodes(prog, act, functions):
    """Nodes whose values some statement reads differentiably."""
    out = set()
    for name in functions:
        for s in ir.stmts_walk(prog.functions[name].body.stmts):
            exprs = [s.rhs] if isinstance(s, ir.Assign) else \
                (list(s.expr.args) if isinstance(s, ir.ExprStmt) and
                 isinstance(s.expr, ir.Call) else [])
            if isinstance(s, ir.Assign) and isinstance(s.rhs, ir.Call):
                exprs = list(s.rhs.args)
            for e in exprs:
                out |= {find(n) for n in act.reads(e)}
                for sub in ir.walk(e):
                    if isinstance(sub, ir.Call):
                        for a in sub.args:
                            out |= {find(n) for n in act.reads(a)}
    return out


def external_nodes(prog, mem, heads):
    """Memory the callers of the heads can see: what their pointer parameters reach, and
    the globals."""
    start = []
    for f in heads:
        for p in f.params:
            t = p.type.resolved()
            if isinstance(t, (ir.Ptr, ir.Arr)):
                start.append(mem.pointee(mem.var(p)))
            elif isinstance(t, ir.Struct):
                start += [find(n).pointee for n in find(mem.var(p)).fields.values()
                          if find(n).pointee is not None]
    start += [mem.var(g) for g in prog.globals if not getattr(g, "is_library", False)]
    return reachable_nodes(start)


# --------------------------------------------------------------------- driver

@dataclass
class Generated:
    text: str                       # the C file
    warnings: list                  # `FILE:LINE:COL: warning: ...` lines
    notes: list = field(default_factory=list)  # --stack-report lines (for stdout)
    files_read: list = field(default_factory=list)  # sources, headers, rules files
    header: Optional[str] = None    # for Fortran input: C prototypes
    interface: Optional[str] = None  # for Fortran input: a module of interfaces
    # a single-precision value on the way from independents to dependents (for adgen check)
    single_precision: bool = False


def differentiate(sources, options):
    """Differentiate the given source files; returns the generated C text (with room for
    deep recursion, as the command runs)."""
    return generated(sources, options).text


def generated(sources, options):
    """generate, with room for deep recursion, as the command runs."""
    return with_room(lambda: generate(sources, options))


def fortran_names(options):
    """The options with the names they give in Fortran's case, which is none: `--head
    "FORWARD(V)/(XX)"` names `forward(v)/(xx)`, as the front end spells them."""
    return replace(options, heads=[h.lower() for h in options.heads],
                   sizes={k.lower(): v.lower() for k, v in options.sizes.items()},
                   inactive=[n.lower() for n in options.inactive],
                   split_calls=[n.lower() for n in options.split_calls],
                   joint_calls=[n.lower() for n in options.joint_calls])


def check_size_names(prog, options, source):
    """Warns of a --size that names no parameter of any function of the program, nor a
    pointer field a parameter reaches (`m->x`): misspelt, it would be ignored silently
    (one set of options may serve several programs, so not an error)."""
    from adgen.analysis.activity import handle_fields, struct_with_pointers
    known = set()
    for f in prog.functions.values():
        for p in f.params:
            known.add(ir.source_name(p))
            if struct_with_pointers(p.type):
                try:
                    known |= {field_path_text(p, path) for kind, path in handle_fields(p, p.loc)
                              if kind == "array"}
                except AdgenError:
                    pass        # a linked structure: refused where it matters
    for name in options.sizes:
        if name not in known:
            prog.warnings = getattr(prog, "warnings", []) + [
                f"{source}: warning: --size {name}: no parameter of that name, nor a pointer "
                "field of one (`m->x`), in the program: ignored"]


def warn_openmp(prog):
    """Where the derivative code runs OpenMP code serially, each `#pragma omp` of a
    function is said at its line (the derivatives are right, the parallelism is gone):
    all but `parallel for` loops, which the transforms keep parallel or say they do not
    (transform/openmp.py, transform/independent_loop.py)."""
    from adgen.transform.openmp import is_openmp, parallel_for
    for f in prog.functions.values():
        if not f.has_body or getattr(f, "is_library", False):
            continue
        for st in ir.stmts_walk(f.body.stmts):
            if parallel_for(st) is not None:
                continue        # (the transforms say when they run it serially)
            if is_openmp(st) and st.loc and not getattr(st, "said", False):
                prog.warnings = getattr(prog, "warnings", []) + [warning_text(
                    st.loc, f"'#pragma {st.text.strip()}' is not supported yet: the "
                    "derivative code runs this part serially")]


def drop_inactive_bodies(prog, options):
    """--inactive names functions the derivative code calls as compiled, their results
    constants. One whose body the input has is read no further (a routine returning a
    machine constant through EQUIVALENCE): not differentiated, nor refused for what its
    body holds; not a head, nor a static C function (the derivative code, in a file of
    its own, cannot call that)."""
    from adgen.frontend.heads import parse_head
    heads = {parse_head(spec)[0] for spec in options.heads}
    for name in options.inactive:
        f = prog.functions.get(name)
        if f is None or not f.has_body:
            continue
        if name in heads:
            raise AdgenError(f"--inactive {name}: '{name}' is a head (--head): a head is "
                             "differentiated", f.loc)
        if f.is_static and prog.language == "c":
            raise AdgenError(f"--inactive {name}: '{name}' is static, so the derivative "
                             "code, in a file of its own, cannot call it (declare it without "
                             f"'static', or leave out --inactive {name})", f.loc)
        f.has_body, f.body, f.error = False, ir.Block([]), None


def generate(sources, options):
    """Differentiate the given source files: the C text and its companions. With no
    --head, a default head that adgen refuses only while differentiating it (a function
    it takes as an argument, an external it calls) is left out with a warning, as one it
    cannot read is, and the others are differentiated; an error when none is left."""
    left_out, defaults, missing = [], None, []
    while True:
        try:
            result = _generate(sources, options, defaults)
        except AdgenError as exc:
            spans = getattr(exc, "default_heads", None)
            refused = [h for h, within in (spans or {}).items() if within(exc.loc)]
            if refused and len(refused) < len(spans):
                where = f"{exc.loc}: " if exc.loc is not None else ""
                left_out += exc.head_warnings + [
                    f"{where}warning: '{h}' is left out of the functions differentiated "
                    f"(no --head names it): {exc.message}" for h in refused]
                defaults = [h for h in spans if h not in refused]
                continue
            if isinstance(exc, MissingSize) and exc.name not in options.sizes and \
                    len(missing) < _MISSING_SIZES_REPORTED:
                # on with a stand-in length, to find every array that needs --size
                missing.append(exc)
                options = replace(options, sizes={**options.sizes, exc.name: "1"})
                continue
            if missing:
                break       # (an error after a stand-in length may be the stand-in's)
            raise
        if missing:
            break
        result.warnings = list(dict.fromkeys(left_out + result.warnings))
        return result
    missing.sort(key=lambda e: (e.loc.file, e.loc.line, e.loc.col) if e.loc else ("", 0, 0))
    missing[0].also = missing[1:]       # in the order of the source, as gcc lists them
    raise missing[0]


# how many arrays that need --size one run reports
_MISSING_SIZES_REPORTED = 16


def _generate(sources, options, defaults=None):
    """generate, over the default heads `defaults` when given (names, chosen by an
    earlier run); an error raised differentiating default heads tells which functions
    each reaches (`default_heads`: name -> whether a source location is in them)."""
    progress.step("reading the sources")
    prog = load_program(sources, options)
    if prog.language == "fortran":
        options = fortran_names(options)
    from adgen.frontend.user_rules import (attach_rules, builtin_rules, pragma_rules,
                                           read_rules_file)
    from adgen.frontend.mpi_calls import mpi_rules
    rules = [r for path in options.rules for r in read_rules_file(path)] + pragma_rules(prog)
    attach_rules(prog, rules + builtin_rules(prog, rules) + mpi_rules(prog))
    if defaults is not None:
        options = replace(options, heads=defaults)
    drop_inactive_bodies(prog, options)
    head_specs = resolve_heads(prog, options)
    if defaults is None and not options.heads:
        defaults = [f.name for f, _, _, _ in head_specs]
    try:
        return _derivative_code(prog, head_specs, sources, options)
    except AdgenError as exc:
        if defaults:
            exc.default_heads = {h: _reached_code(prog, h) for h in defaults}
            exc.head_warnings = list(getattr(prog, "warnings", []))
        raise


def _reached_code(prog, head):
    """Whether a source location is in a function head reaches: a test of locations."""
    spans = []
    for name in reachable(prog, [head]):
        f = prog.functions[name]
        lines = [st.loc.line for st in ir.stmts_walk(f.body.stmts)
                 if st.loc is not None and f.loc is not None and st.loc.file == f.loc.file]
        if f.loc is not None:
            spans.append((f.loc.file, f.loc.line, max(lines + [f.loc.line])))
    return lambda loc: loc is not None and any(
        loc.file == file and first <= loc.line <= last for file, first, last in spans)


def analyse(prog, functions, head_specs, options):
    """The memory and activity of the functions for the heads: (memory, activity, heads,
    the dependents' nodes, those of each head)."""
    mem = Memory(prog)
    act = Activity(prog, mem, functions, options.inactive)
    act.build()
    heads, indep_nodes, dep_nodes, deps_of = [], [], [], []
    for f, dep, indep, spec in head_specs:
        if dep is None or indep is None:
            d0, i0 = default_io(prog, mem, f)
            dep = d0 if dep is None else dep
            indep = i0 if indep is None else indep
        loc = f.loc
        indep_nodes += head_nodes(mem, f, indep, "independent", loc)
        deps_of.append(head_nodes(mem, f, dep, "dependent", loc))
        dep_nodes += deps_of[-1]
        text = f"{f.name}({' '.join(dep)})/({' '.join(indep)})"
        heads.append(Head(f, dep, indep, text))
    act.solve(indep_nodes, dep_nodes)
    return mem, act, heads, dep_nodes, deps_of


def _derivative_code(prog, head_specs, sources, options):
    """The derivative code of the heads of prog (read, its rules attached)."""
    check_size_names(prog, options, sources[0])
    warn_openmp(prog)
    roots = [f.name for f, _, _, _ in head_specs]
    from adgen.frontend.mpi_calls import check_mpi_calls
    check_mpi_calls(prog, reachable(prog, roots))
    specialize_callbacks(prog, roots)
    normalize_program(prog, reachable(prog, roots))
    make_statics_automatic(prog, reachable(prog, roots))
    from adgen.transform.clone import clone_call_sites, split_by_activity
    functions = [n for n in clone_call_sites(prog, roots) if prog.functions[n].has_body]
    progress.step("analysing", 0, 0, f"{len(functions)} functions")
    structure_program(prog, functions)
    if prog.language == "fortran":
        check_saved_allocatables([prog.functions[n] for n in functions])
    # the calling contexts the copies stand for are told apart by where their arguments
    # come from; where the activity found at their call sites differs, more copies, and
    # the analyses again (a few rounds: each makes copies only where the last one found
    # sites of one copy differing)
    for _ in range(MAX_ACTIVITY_ROUNDS):
        mem, act, heads, dep_nodes, deps_of = analyse(prog, functions, head_specs, options)
        more = split_by_activity(prog, functions, mem, act)
        if not more:
            break
        functions += more
    if prog.language == "c":
        check_preset_pointers(prog, functions, [prog.functions[n] for n in roots],
                              act.sym_has_shadow)
    check_reinterpretations(prog, mem, act, functions)
    for head, nodes in zip(heads, deps_of):
        if head.func.loc is not None and not any(find(n) in act.varied for n in nodes):
            prog.warnings = getattr(prog, "warnings", []) + [warning_text(
                head.func.loc, f"no dependent of '{head.text}' depends on an independent: "
                "its derivatives are all zero")]
    ctx = Context(prog, heads, options, mem, act, functions)
    ctx.dep_nodes = {find(n) for n in dep_nodes}
    ctx.external_nodes = external_nodes(prog, mem, [h.func for h in heads])
    ctx.read_nodes = read_nodes(prog, act, functions)
    stack = None
    with fixed_bodies():    # the transforms build new code; the program's stays as it is
        if options.mode == "reverse":
            from adgen.transform.adjoint import ReverseTransform
            transform = ReverseTransform(ctx)
            gen = transform.run()
            stack = stack_plan(transform, ctx, prog, options)
            explained = explain_lines(transform) if options.explain else []
        else:
            from adgen.transform.tangent import TangentTransform
            gen = TangentTransform(ctx, vector=options.vector).run()
    progress.step("merging identical copies of functions")
    gen = merge_clones(prog, gen)
    state_head_lengths(ctx, gen)
    progress.step("writing the C")
    unit = assemble(prog, ctx, gen, sources, options)
    # warnings about a procedure only when it is part of the derivative code
    about = getattr(prog, "warning_procs", {})
    used = {getattr(prog.functions[n], "clone_of", n) for n in functions}
    result = Generated("", [w for w in getattr(prog, "warnings", [])
                            if w not in about or about[w] in used])
    result.single_precision = act.computes_in_single(functions)
    result.files_read = list(dict.fromkeys(list(sources) + getattr(prog, "files_read", []) +
                                           list(options.rules)))
    if stack is not None:
        unit.stack, unit.stack_size, unit.stack_note, result.notes = stack
        result.notes = explained + result.notes
        unit.overflow_flag = (re.sub(r"\W", "_", options.output_stem) or "adgen") + \
            "_stack_overflow"
    if prog.language == "c":
        from adgen.frontend.mpi_calls import name_mpi_calls
        name_mpi_calls(unit.functions, set(unit.builtin_rules))
    if prog.language == "fortran":
        read_int_dummies_once(unit.functions, {g.name for g in prog.globals} |
                              set(prog.functions) | {f.name for f in unit.functions})
        link_fortran_names(prog, unit)
        # the output's name without .c (the CLI's default when none is given): it names
        # the interface module and the header's include guard
        stem = options.output_stem or Path(default_output(
            sources[0], "vector" if options.vector else options.mode)).stem
        unit.output_stem = re.sub(r"\W", "_", stem) or "adgen"
        unit.vector = options.vector
        from adgen.backend.fortran_interface import (c_header, fortran_interface,
                                                     pass_by_reference)
        pass_by_reference(unit)
        result.header = c_header(unit)
        result.interface = fortran_interface(unit)
    result.text = render_unit(unit)
    return result


def stack_plan(transform, ctx, prog, options):
    """(stack kind, static size expression, where the size comes from, report lines)."""
    from adgen.transform.stack_usage import Unbounded, Usage, formula_text, unbounded_error
    if options.stack not in ("heap", "static"):
        raise AdgenError(f"unknown stack kind '{options.stack}' (heap or static)")
    static = options.stack == "static"
    size = options.stack_size or pragma_stack_size(prog)
    notes, totals = [], []
    if static or options.stack_report:
        usage = Usage(transform)
        for head in ctx.heads:
            name = head.func.name + "_b"
            try:
                pushed, logged = usage.head(head.func.name)
            except Unbounded as exc:
                if static and not size:
                    raise unbounded_error(name, exc, "--stack=static")
                where = f" ({exc.args[1]})" if exc.args[1] is not None else ""
                notes.append(f"{name}: stack: unbounded: {exc.args[0]}{where}")
                continue
            bound = "at most " if usage.inexact else ""
            fortran = ctx.prog.language == "fortran"
            notes.append(f"{name}: stack: {bound}{formula_text(pushed, True, fortran)} bytes "
                         "pushed per call" +
                         (f", log: {bound}{formula_text(logged, True, fortran)} bytes"
                          if logged.terms else ""))
            totals.append((name, pushed + logged))
    if not static:
        return "heap", "", "", notes if options.stack_report else []
    if size:
        note = "size as given"
    else:
        note = "size derived from the program"
        texts = []
        for name, total in totals:
            params = sorted(k for k in total.atoms if total.uses(k) and
                            not k.startswith("sizeof("))
            if params:
                raise AdgenError(
                    f"--stack=static: '{name}' pushes {formula_text(total)} bytes per call, "
                    f"which depends on {', '.join(params)}; give the size with --stack-size "
                    f"BYTES or #pragma adgen stack_size(BYTES)", ctx.heads[0].func.loc)
            texts.append(formula_text(total))
        size = texts[0] if texts else "1"
        for t in texts[1:]:
            size = f"({size}) > ({t}) ? ({size}) : ({t})"
        if size == "0":
            size = "1"
    return "static", size, note, notes if options.stack_report else []


def explain_lines(transform):
    """`FILE:LINE: FUNCTION: VALUE: stored|not stored (why)`, in source order."""
    keys = sorted(transform.decisions, key=lambda k: (k[0].file, k[0].line, k[0].col, k[1]))
    out, seen = [], set()
    for key in keys:
        line = f"{key[0].file}:{key[0].line}: {transform.decisions[key]}"
        if line not in seen:
            seen.add(line)
            out.append(line)
    return out


def pragma_stack_size(prog):
    """The size of `#pragma adgen stack_size(BYTES)`, or ''."""
    for p in prog.pragmas:
        m = re.fullmatch(r"\s*adgen\s+stack_size\s*\(\s*(\d+)\s*\)\s*", p.text)
        if m:
            return m.group(1)
        if re.match(r"\s*adgen\s+stack_size\b", p.text):
            raise AdgenError("expected '#pragma adgen stack_size(BYTES)'", p.loc)
    return ""


def link_fortran_names(prog, unit):
    """Generated code calls and defines Fortran procedures under gfortran's symbols:
    `name_` (lower case) for external procedures, `__mod_MOD_name` in modules; the
    derivative routines of heads are external procedures (`f_b_`)."""
    from adgen.analysis.ruled_calls import derivative_link_names
    ruled = derivative_link_names(prog)
    heads = {f.name for f in unit.functions if not f.is_static}
    for fn in unit.functions:
        if fn.name in heads:
            fn.name = fn.name + "_"
        for st in ir.stmts_walk(fn.body):
            exprs = list(ir.stmt_exprs(st))
            if isinstance(st, ir.Raw):
                exprs += [v for v in st.args.values() if isinstance(v, ir.Expr)]
            for e in exprs:
                for sub in ir.walk(e):
                    if isinstance(sub, ir.Call) and sub.func in prog.functions:
                        f = prog.functions[sub.func]
                        if getattr(f, "link_name", None) and sub.func not in heads:
                            sub.func = f.link_name
                    elif isinstance(sub, ir.Call) and sub.func in ruled:
                        sub.func = ruled[sub.func]
    protos = []
    for f in unit.prototypes:
        g = ir.Function(getattr(f, "link_name", ruled.get(f.name, f.name)), f.ret, f.params,
                        f.body)
        protos.append(g)
    unit.prototypes = protos


def state_head_lengths(ctx, gen):
    """Each head's derivative routine states the lengths of its array parameters as
    adgen knew them (`#pragma adgen size(xb, n)`), so that adgen given its own output back
    (second derivatives: docs/second-order.md) needs no --size the first run did not."""
    for head in ctx.heads:
        f = head.func
        for fn in gen:
            if fn.is_static or fn.source != f.name:
                continue
            for q in fn.params:
                p = q if q in f.params else getattr(q, "primal", None)
                if p not in f.params or not p.type.resolved().is_pointer:
                    continue
                try:
                    n = ctx.try_extent(f, p)
                except (Unknown, AdgenError):
                    continue
                while isinstance(n, ir.Cast) and n.to.resolved().is_int:
                    n = n.arg
                fn.sizes.append((q.name, n))


def merge_clones(prog, gen):
    """Copies of a function (one per calling context, see transform/clone.py) whose generated
    code is the same as the original's, or as an earlier copy's, are dropped and their
    calls redirected."""
    from adgen.backend.cgen import render_function
    by_source = {}
    for fn in gen:
        if fn.is_static and fn.source:
            by_source.setdefault(fn.source, []).append(fn)

    # source -> the text of its functions under the original's names, rendered once: the
    # pieces between the calls of generated functions, and those calls, whose names the
    # rounds below change (the text is otherwise the same whatever the names)
    rendered = {}
    sweeps = {fn.name for fns in by_source.values() for fn in fns}

    def text(source, orig):
        if source not in rendered:
            calls = [c for c in _calls(by_source[source]) if c.func in sweeps]
            names = [c.func for c in calls]
            for k, c in enumerate(calls):
                c.func = f"\x00{k}\x00"
            out = []
            try:
                for fn in by_source[source]:
                    name, fn.name = fn.name, orig + fn.name[len(source):]
                    out.append(render_function(fn))
                    fn.name = name
            finally:
                for c, name in zip(calls, names):
                    c.func = name
            pieces = "\n".join(out).split("\x00")
            rendered[source] = (pieces[0::2], [calls[int(k)] for k in pieces[1::2]])
        pieces, calls = rendered[source]
        return "".join(p + (calls[k].func if k < len(calls) else "")
                       for k, p in enumerate(pieces))

    # plain calls go to the primal function the copy was made from (the output holds no
    # primal copies), before comparing: callers differing only there are the same
    calls_to = {}   # name -> [(function, call)] of the calls of it
    for fn in gen:
        for call in _calls([fn]):
            if call.func in prog.functions:
                call.func = getattr(prog.functions[call.func], "clone_of", call.func)
            calls_to.setdefault(call.func, []).append((fn, call))
    # in rounds: a merge renames calls, which can make more copies the same as their
    # originals (their callers), so each round compares what the last one left; only the
    # functions whose calls were renamed are rendered again
    while True:
        renames = {}
        first = {}      # (original, text) -> the first copy of the original with that text
        for source in list(by_source):
            orig = getattr(prog.functions.get(source), "clone_of", None)
            if orig is None or orig not in by_source:
                continue
            mine = text(source, orig)
            kept = orig if mine == text(orig, orig) else first.setdefault((orig, mine), source)
            if kept == source:
                continue
            renames.update({fn.name: kept + fn.name[len(source):] for fn in by_source[source]})
            del by_source[source]
        if not renames:
            break
        gen = [fn for fn in gen if fn.name not in renames]
        for old, new in renames.items():
            for fn, call in calls_to.pop(old, ()):
                call.func = new
                calls_to.setdefault(new, []).append((fn, call))
    return gen


def _calls(gen):
    """The calls in the generated functions (in their statements' template arguments too)."""
    for fn in gen:
        for st in ir.stmts_walk(fn.body):
            for e in list(ir.stmt_exprs(st)) + [v for v in getattr(st, "args", {}).values()
                                                if isinstance(v, ir.Expr)]:
                for sub in ir.walk(e):
                    if isinstance(sub, ir.Call):
                        yield sub


def assemble(prog, ctx, gen, sources, options):
    """Everything around the generated functions: types, globals, primal functions."""
    from adgen.ir.exprs import used_calls, used_symbols
    generated_names = {f.name for f in gen}
    statics, protos = [], []
    # the user's derivative routines of ruled functions (see frontend/user_rules.py)
    from adgen.analysis.ruled_calls import derivative_signature
    rule_derivatives = {}
    for f in prog.functions.values():
        if getattr(f, "user_rule", None) is not None:
            for mode in ("reverse", "forward"):
                name, ret, params = derivative_signature(f, mode, prog.language == "fortran")
                rule_derivatives[name] = ir.Function(name, ret, params, ir.Block([]),
                                                     has_body=False)
                rule_derivatives[name].builtin = f.user_rule.builtin
            if getattr(f, "mpi_routine", None) in MPI_NON_BLOCKING:
                # (the vector tangent's, with nbdirs: TangentTransform.non_blocking_call)
                name, ret, params = derivative_signature(f, "forward")
                rule_derivatives[name + "v"] = ir.Function(
                    name + "v", ret, params + [ir.Symbol("nbdirs", ir.INT, "param")],
                    ir.Block([]), has_body=False)
                rule_derivatives[name + "v"].builtin = True
    builtin = []        # derivative routines of built-in rules, defined in the output
    # procedures setting state that ENTRY points share run from the output's own copy
    writers = state_writers(prog)
    copies = {}         # such a procedure's name -> the name of its copy
    todo = []
    for f in gen:
        todo += sorted(used_calls(f.body))
    seen = set()
    while todo:
        name = todo.pop(0)
        if name in seen or name in generated_names:
            continue
        seen.add(name)
        f = prog.functions.get(name)
        if f is None:
            f = rule_derivatives.get(name)
            if f is not None:
                (builtin if f.builtin else protos).append(f)
            continue
        if getattr(f, "is_library", False):
            if getattr(LIBRARY_FUNCTIONS.get(name), "header", None):
                protos.append(f)    # of a header the output does not include (f2c.h)
            continue
        if getattr(f, "mpi_routine", None):
            continue    # <mpi.h>'s, called under its own name (mpi_calls.name_mpi_calls)
        own_copy = _own_copy(f, writers)
        if f.is_static or own_copy:
            if not f.has_body:
                raise AdgenError(f"static function '{name}' has no body", f.loc)
            copy = primal_copy(f)
            if own_copy:
                copy.name = copies[name] = _unused_name(f"{name}_primal", prog,
                                                        generated_names)
                copy.comment = f"Copy of {ir.source_name(f)}, {own_copy}."
            # a call-site copy of a function computes what the function does
            for call in _calls([copy]):
                if call.func in prog.functions:
                    call.func = getattr(prog.functions[call.func], "clone_of", call.func)
            statics.append(copy)
            todo += sorted(used_calls(copy.body))
        else:
            protos.append(f)
    everything = gen + statics
    for call in _calls(everything):
        call.func = copies.get(call.func, call.func)
    syms = set()
    for f in everything:
        syms |= used_symbols(f.body)
        for d in f.locals:
            if isinstance(d.sym.type, ir.Arr) and d.sym.type.size is not None:
                syms |= {s.sym for s in ir.walk(d.sym.type.size) if isinstance(s, ir.Ref)}
    # the globals an initializer of one names (`static const double *w = &table[0];`)
    by_name = {g.name: g for g in prog.globals}
    todo = [s for s in syms if s.kind == "global"]
    while todo:
        for word in re.findall(r"[A-Za-z_]\w*", todo.pop().init_text or ""):
            if by_name.get(word) is not None and by_name[word] not in syms:
                syms.add(by_name[word])
                todo.append(by_name[word])
    per_call = ctx.per_call_statics() if options.vector else set()
    shadow_globals = [LocalDecl(g) for g in ctx.shadow_globals() if g.primal not in per_call]
    used_globals = [g for g in prog.globals if (g in syms or
                                                any(s.sym.primal is g for s in shadow_globals))
                    and not getattr(g, "is_library", False)]
    ext = [g for g in used_globals if not g.is_static]
    stat = [g for g in used_globals if g.is_static]
    inside = {getattr(prog.functions[n], "clone_of", n) for n in ctx.functions} | \
        {f.name for f in statics} | set(copies)
    check_static_globals(prog, stat, inside, {getattr(f, "clone_of", f.name) for f in protos})
    check_static_state(prog, stat, inside, ctx.heads)
    check_entry_state(prog, stat, inside)
    return OutputUnit(source=", ".join(os.path.basename(s) for s in sources),
                      mode=options.mode, heads=[h.text for h in ctx.heads],
                      std_headers=prog.std_headers, type_text=prog.type_text,
                      globals_extern=ext, globals_static=stat,
                      shadow_globals=shadow_globals, prototypes=protos,
                      functions=statics + gen, command=options.command,
                      builtin_rules=sorted(f.name for f in builtin))


def _own_copy(f, writers):
    """Why the output calls its own copy of the primal of f, a procedure of the program
    with a symbol of its own, rather than that symbol; None when it calls the symbol."""
    if f.name in writers:
        return "which sets state its ENTRY points share (the output's copy of it)"
    if getattr(f, "private", False):
        return "a PRIVATE module procedure, whose symbol its module's object keeps to itself"
    return None


def _unused_name(base, prog, taken):
    name, k = base, 1
    while name in prog.functions or name in taken:
        k += 1
        name = f"{base}{k}"
    return name


def primal_copy(f):
    body = own_stack.as_runtime(f.body.stmts)
    if getattr(f, "result", None) is not None:
        body.append(ir.Return(ir.Ref(f.result)))
    copy = GenFunction(f.name, f.ret, f.params, body, [LocalDecl(s) for s in f.locals],
                       is_static=True, comment=f"Copy of the static function {f.name}.")
    copy.primal_copy = True     # (its MPI calls are the program's: mpi_calls.name_mpi_calls)
    return copy


def write_output(text, out_path, inputs):
    """Write text to out_path, never over a file adgen read (an input): a regular file is
    replaced atomically (a temporary beside it, renamed over it); a device, FIFO or socket
    (`-o /dev/null`) is written in place, never replaced; `-` is standard output."""
    import stat
    if out_path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    out_abs = os.path.realpath(out_path)
    for src in inputs:
        if os.path.realpath(src) == out_abs:
            raise AdgenError(f"the output '{out_path}' is a file adgen reads ({src}); "
                             "refusing to overwrite it", Loc(out_path))
    try:
        mode = os.stat(out_abs).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise AdgenError(f"cannot write the output: {exc.strerror}", Loc(out_path))
    if mode is not None and stat.S_ISDIR(mode):
        raise AdgenError("the output is a directory: give a file name with -o",
                         Loc(out_path))
    if mode is not None and not stat.S_ISREG(mode):
        # a device or a FIFO: written as it is (renaming over it would replace it)
        try:
            with open(out_abs, "w") as fh:
                fh.write(text)
        except OSError as exc:
            raise AdgenError(f"cannot write the output: {exc.strerror}", Loc(out_path))
        return
    d = os.path.dirname(out_abs) or "."
    if not os.path.isdir(d):
        raise AdgenError("the output directory does not exist", Loc(out_path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".adgen-", suffix=".c", dir=d)
    except OSError as exc:
        raise AdgenError(f"cannot write the output: {exc.strerror}", Loc(out_path))
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)      # as an ordinary new file, not mkstemp's 0600
        os.replace(tmp, out_abs)
    except OSError as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise AdgenError(f"cannot write the output: {exc.strerror}", Loc(out_path))
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def default_output(first_source, mode):
    p = Path(first_source)
    suffix = {"reverse": "_b", "forward": "_d", "vector": "_dv"}[mode]
    return str(p.with_name(p.stem + suffix + ".c"))
