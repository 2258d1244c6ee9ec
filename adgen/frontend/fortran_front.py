"""Fortran front end: fparser's Fortran 2008 parse tree to the IR.

Fortran is lowered to the IR's C shape, following what gfortran does, so that the C
derivative links with gfortran-compiled code:
- every dummy argument is passed by reference: a scalar dummy `x` becomes a pointer
  parameter read as `*x`, an array dummy a pointer to its first element;
- arrays are flat and column-major: `a(i, j)` with bounds `a(l1:u1, l2:u2)` is
  `a[(i - l1) + (u1 - l1 + 1) * (j - l2)]`;
- array syntax, WHERE and the array intrinsics (sum, product, maxval, minval,
  dot_product, matmul) become loops;
- module variables are globals under gfortran's names (`__mod_MOD_var`), COMMON blocks
  structs named `block_`, procedures `name_` or `__mod_MOD_name`;
- print, write, read, open, close and stop are left out, with a warning;
- Tapenade's directives, `!$AD ...` comments: BINOMIAL-CKP before a DO loop becomes the
  checkpoint pragma of C, FP-LOOP before a DO loop `#pragma adgen fp_loop`, II-LOOP
  `#pragma adgen independent`, NOCHECKPOINT before a call `#pragma adgen nocheckpoint`,
  others are ignored with a warning.

This module holds FFront (the whole input: its modules, its program units, what each
procedure may change) and Scope (one program unit lowered: its body, its internal
procedures). Scope's other methods are in its rooms, one mixin class each:
fortran_declarations, fortran_allocatables, fortran_strings, fortran_statements,
fortran_arrays, fortran_expressions, fortran_calls and fortran_struct_values. Below them:
fortran_source (reading the source), fortran_operands, fortran_complex, fortran_types,
fortran_helpers (FVar, the helpers and tables the modules share), and at the bottom
fortran_places (where in the source an error is).
"""
import copy
from dataclasses import dataclass, field
from typing import Optional

from adgen import ir
from adgen.errors import AdgenError, Loc, warning_text
from adgen.ir import exprs as X
from adgen.ir.exprs import counted_loop
from adgen.frontend import fortran_types as T
from adgen.frontend import jumps
from adgen.frontend.fortran_helpers import (C_RESERVED, DESCRIPTOR_DIM, Changes, FVar,
                                            at_least_zero, const_int, constant_size,
                                            copied_tree,
                                            descriptor_field, dummy_names, f2003,
                                            function_references, head_stmt,
                                            ir_int, is_global_storage, label_of,
                                            name_of, replace_nodes, result_name_of,
                                            returns_array, substitute, temp_size,
                                            visit_nodes, walk_nodes, walk_type)
from adgen.frontend.fortran_dispatch import dispatch_statements
from adgen.frontend.fortran_entries import split_entries
from adgen.frontend.fortran_places import (CPP_SUFFIXES, FREE_SUFFIXES, statement_item,
                                           statement_loc)
from adgen.frontend.fortran_separate import from_interface, is_separate_body
from adgen.frontend.fortran_source import read_tree
from adgen.frontend.fortran_declarations import DeclarationsMixin, value_dummies
from adgen.frontend.fortran_allocatables import AllocatablesMixin
from adgen.frontend.fortran_strings import StringsMixin
from adgen.frontend.fortran_openmp import OpenMPMixin
from adgen.frontend.fortran_statements import StatementsMixin
from adgen.frontend.fortran_arrays import ArraysMixin
from adgen.frontend.fortran_expressions import ExpressionsMixin
from adgen.frontend.fortran_calls import CallsMixin
from adgen.frontend.fortran_struct_values import StructValuesMixin

__all__ = ["parse_fortran_files", "parse_fortran_file", "read_tree", "FFront", "Scope", "FVar",
           "Module", "FortranError", "declared_size", "FREE_SUFFIXES", "CPP_SUFFIXES"]


def declared_size(param, func):
    """The declared size of an explicit-shape dummy of func (`x(5)`, `q(n, n)`) as an
    expression over func's parameters, to be evaluated at a call or by a caller; None for
    a scalar, an assumed-size or assumed-shape array, or bounds read from elsewhere."""
    size = getattr(param, "fortran_extent", None)
    if size is None or not all(r.sym in func.params for r in ir.walk(size)
                               if isinstance(r, ir.Ref)):
        return None
    return size


@dataclass(eq=False)
class Module:
    name: str
    vars: dict = field(default_factory=dict)       # name -> FVar
    procs: dict = field(default_factory=dict)      # name -> ir.Function
    uses: list = field(default_factory=list)
    interfaces: dict = field(default_factory=dict)  # name -> its dummy argument names
    interface_bodies: dict = field(default_factory=dict)  # name -> its interface body
    generics: dict = field(default_factory=dict)  # generic name -> its specific procedures
    imported_procs: dict = field(default_factory=dict)  # name here -> procedure it uses
    types: dict = field(default_factory=dict)     # derived type name -> T.DerivedType
    # its implicit typing rules (letter -> rule, None: no type), which its procedures inherit
    implicit: Optional[dict] = None


class FortranError(AdgenError):
    pass


def parse_fortran_files(paths, options=None):
    """Parse several Fortran files into one ir.Program (modules may be used across
    files)."""
    inc = getattr(options, "include_dirs", ()) if options is not None else ()
    dfn = getattr(options, "defines", ()) if options is not None else ()
    trees = [(p, read_tree(p, inc, dfn)) for p in paths]
    for path, tree in trees:
        split_entries(path, tree)
    front = FFront()
    # modules first, in dependency order, so `use` finds them
    front.collect_modules(trees)
    front.collect_submodules(trees)
    front.external_signatures(trees)
    for path, tree in trees:
        front.program_units(path, tree)
    front.settle()
    return front.program()


def parse_fortran_file(path, options=None):
    return parse_fortran_files([path], options)


class FFront:
    def __init__(self):
        self.modules = {}
        self.functions = {}
        self.globals = []
        self.type_text = []
        self.descriptors = {}     # struct tag -> the type of gfortran's array descriptors
        self.warnings = []
        self.warning_procs = {}   # warning -> the name of the procedure it is about
        self.commons = {}         # block name -> (Symbol, StructDef)
        self.pragmas = []
        self.unsettled = []       # the Scopes of the procedures lowered, for settle
        self.exact_copies = {}    # (procedure, (dummy, type)...) -> copy (exact_copy)
        self.class_sources = {}   # procedure with CLASS dummies -> (path, its tree, module)
        self.summaries = {}       # procedure name -> Changes: what it may change
        self.derived_types = {}   # struct tag -> T.DerivedType
        # (procedure holding ENTRY statements, name) -> a SAVEd variable its entry points
        # share (fortran_entries)
        self.entry_saved = {}

    def descriptor_type(self, t, rank):
        """gfortran's array descriptor (GCC 8 and later) of rank `rank` for elements of
        type t, its struct defined once in the output."""
        from adgen.ir.c_text import declare
        tag = f"adgen_gfc_{declare(t, '').strip().replace(' ', '_')}_{rank}"
        known = self.descriptors.get(tag)
        if known is not None:
            return known
        if not self.descriptors:
            self.define_struct(_DESCRIPTOR_DTYPE.sdef)
            self.define_struct(DESCRIPTOR_DIM.sdef)
        fields = [("base_addr", ir.Ptr(t)), ("offset", ir.Prim("unsigned long")),
                  ("dtype", _DESCRIPTOR_DTYPE), ("span", ir.LONG),
                  ("dim", ir.Arr(DESCRIPTOR_DIM, ir.Const(str(rank), ir.INT)))]
        self.descriptors[tag] = ir.Struct(self.define_struct(ir.StructDef(
            tag, fields, descriptor_rank=rank)))
        return self.descriptors[tag]

    @staticmethod
    def descriptor_dims(desc, rank):
        """[(lower, extent)] of the array a descriptor (an lvalue) describes, read from it
        (gfortran allocates such an array in one contiguous column-major block)."""
        out = []
        for k in range(rank):
            def bound(which, k=k):
                return ir.Cast(ir.INT, descriptor_field(desc, "dim", k, which))
            extent = X.add(X.sub(bound("ubound"), bound("lower_bound")), ir_int(1))
            # no elements when the upper bound is below the lower (as gfortran keeps them)
            out.append((bound("lower_bound"), at_least_zero(extent)))
        return out

    def define_struct(self, sdef):
        """sdef, its definition written in the output."""
        from adgen.ir.c_text import struct_definition
        self.type_text.append(struct_definition(sdef))
        return sdef

    def program(self):
        prog = ir.Program(self.functions, self.globals, self.type_text, [], self.pragmas,
                          language="fortran")
        ir.free_static_local_names(prog)
        prog.warnings = self.warnings
        prog.warning_procs = self.warning_procs
        return prog

    def settle(self):
        """What each procedure may change (the parameters it may assign through, whether
        it may change globals), by a fixed point over the calls, then each procedure's
        Scope.settle, which needs it."""
        self.summaries = {scope.func.name: Changes(set(), set()) for scope in self.unsettled}
        changed = True
        while changed:
            changed = False
            for scope in self.unsettled:
                written, all_globals = scope.changes(scope.func.body.stmts)
                summary = self.summaries[scope.func.name]
                params = {k for k, p in enumerate(scope.func.params) if p in written}
                globals_ = set(filter(is_global_storage, written))
                if not (params <= summary.params and globals_ <= summary.globals and
                        all_globals <= summary.all_globals):
                    summary.params |= params
                    summary.globals |= globals_
                    summary.all_globals = summary.all_globals or all_globals
                    changed = True
        for scope in self.unsettled:
            try:
                scope.settle()
            except AdgenError as exc:
                scope.func.error = exc

    def warn(self, loc, msg, proc=None):
        """A warning; proc: the procedure (ir.Function) it is about, if any: the warning
        is shown only when that procedure is part of the derivative code."""
        text = warning_text(loc, msg)
        if text not in self.warnings:       # declarations are read once more for signatures
            self.warnings.append(text)
        if proc is not None:
            self.warning_procs[text] = proc.name

    # ---------------------------------------------------------------- modules
    def collect_modules(self, trees):
        F = f2003()
        pending = []
        for path, tree in trees:
            for unit in tree.children:
                if isinstance(unit, F.Module):
                    pending.append((path, unit))
        done = set()
        for _ in range(len(pending) + 1):
            progress = False
            for path, unit in pending:
                name = name_of(unit.children[0].items[1])
                if name in done:
                    continue
                needs = [name_of(u.items[2]) for u in walk_type(unit, F.Use_Stmt)]
                if all(n in done or n not in {name_of(u.children[0].items[1])
                                               for _, u in pending} for n in needs):
                    self.module(path, unit)
                    done.add(name)
                    progress = True
            if not progress:
                break
        for path, unit in pending:
            name = name_of(unit.children[0].items[1])
            if name not in done:
                # (gfortran cannot compile such modules either: each needs the other's .mod)
                use = next(u for u in walk_type(unit, F.Use_Stmt)
                           if name_of(u.items[2]) not in done and
                           any(name_of(m.children[0].items[1]) == name_of(u.items[2])
                               for _, m in pending))
                raise AdgenError(f"module '{name}' uses '{name_of(use.items[2])}', which "
                                 "cannot be read before it: modules that use each other in "
                                 "a circle", statement_loc(path, use))
        self.module_done = done

    def module(self, path, unit):
        F = f2003()
        name = name_of(unit.children[0].items[1])
        mod = Module(name)
        self.modules[name] = mod
        scope = Scope(self, path, None, module=mod)
        for part in unit.children:
            if isinstance(part, F.Specification_Part):
                scope.specification(part, module_level=True)
        # by the names the module's scope gives them (`use m, only: g => gam` is `g`)
        mod.vars.update(scope.vars)
        mod.imported_procs = getattr(scope, "imported_procs", {})
        mod.interfaces = scope.interfaces
        mod.interface_bodies = scope.interface_bodies
        mod.generics = scope.generics
        mod.types = scope.types
        mod.implicit = scope.implicit
        # procedures: signatures now, bodies after (they may call each other)
        subs = [from_interface(c, mod, path) if is_separate_body(c) else c
                for part in unit.children if isinstance(part, F.Module_Subprogram_Part)
                for c in list(part.children)
                if isinstance(c, (F.Subroutine_Subprogram, F.Function_Subprogram))]
        mod.pending = [(path, s) for s in subs]
        hidden = private_names(unit)
        for path_, s in mod.pending:
            f = self.signature(path_, s, mod)
            mod.procs[f.name] = f
            # gfortran gives a PRIVATE procedure a symbol its object keeps to itself: the
            # output calls its own copy (driver.assemble)
            f.private = hidden(f.name)

    def collect_submodules(self, trees):
        """The procedures of submodules (`submodule (m) m_impl ... contains module
        function f(x) ...`): separate module procedures of their ancestor module m, whose
        interface m declares, with m's symbols (`__m_MOD_f`), read as m's own."""
        F = f2003()
        for path, tree in trees:
            for unit in tree.children:
                if type(unit).__name__ != "Submodule":
                    continue
                head = unit.children[0]
                parent = name_of(walk_type(head.items[0], F.Name)[0])
                mod = self.modules.get(parent)
                loc = statement_loc(path, head)
                if mod is None:
                    raise AdgenError(f"the submodule '{name_of(head.items[1])}' extends "
                                     f"module '{parent}', which is not found (give its "
                                     "source file too)", loc)
                for part in unit.children[1:]:
                    if type(part).__name__.startswith("Specification_Part") and \
                            walk_type(part, F.Type_Declaration_Stmt):
                        raise AdgenError("variables declared in a submodule are not "
                                         "supported (declare them in its module)", loc)
                    if isinstance(part, F.Module_Subprogram_Part):
                        for s in part.children:
                            # (`module procedure f ... end procedure`: its dummies from
                            # its interface, fortran_separate)
                            if is_separate_body(s):
                                s = from_interface(s, mod, path)
                            if isinstance(s, (F.Subroutine_Subprogram,
                                              F.Function_Subprogram)):
                                mod.pending.append((path, s))
                                f = self.procedure(path, s, mod, signature_only=True)
                                mod.procs[f.name] = f

    # -------------------------------------------------------------- program units
    def external_signatures(self, trees):
        """The signatures of the external procedures, before any body is read: a call
        needs to know its callee's assumed-shape dummies (it passes their extents)."""
        F = f2003()
        for path, tree in trees:
            for unit in tree.children:
                units = program_procedures(unit) if isinstance(unit, F.Main_Program) else \
                    [unit] if isinstance(unit, (F.Subroutine_Subprogram,
                                                F.Function_Subprogram)) else []
                for u in units:
                    self.signature(path, u, None)

    def program_units(self, path, tree):
        F = f2003()
        for unit in tree.children:
            if isinstance(unit, F.Module):
                mod = self.modules[name_of(unit.children[0].items[1])]
                for p, s in mod.pending:
                    self.procedure(p, s, mod)
            elif isinstance(unit, (F.Subroutine_Subprogram, F.Function_Subprogram)):
                self.procedure(path, unit, None)
            elif isinstance(unit, F.Main_Program):
                for u in program_procedures(unit):
                    f = self.procedure(path, u, None)
                    uses = host_uses(unit, u)
                    if uses:        # (the cause of any error reading it, too)
                        f.error = AdgenError(
                            f"'{f.name}', an internal procedure of the main program, uses "
                            f"its variable '{uses[0]}' (host association): pass it as an "
                            "argument, or keep it in a module, to differentiate the "
                            "procedure", f.loc)
            elif isinstance(unit, F.Comment):
                continue

    def signature(self, path, unit, module):
        """The procedure's signature, read before any body. One that adgen cannot read
        (an unsupported dummy) is an error of that procedure only, reported where it is
        part of the derivative code: a call of it raises it (Scope.callee), and so does
        reaching it from a head (call_graph.reachable)."""
        try:
            return self.procedure(path, unit, module, signature_only=True)
        except AdgenError as exc:
            f = self.functions[name_of(head_stmt(unit).items[1])]
            f.error = f.signature_error = exc
            return f

    def procedure(self, path, unit, module, signature_only=False):
        stmt = head_stmt(unit)
        name = name_of(stmt.items[1])
        # gfortran's symbol: a BIND(C) procedure's binding name, `__mod_MOD_name` in a
        # module, `name_` outside
        link = binding_name(stmt) or (f"__{module.name}_MOD_{name}" if module is not None
                                      else name + "_")
        existing = self.functions.get(name)
        if signature_only or existing is None or not getattr(existing, "built", False):
            f = existing if existing is not None else ir.Function(
                name, ir.VOID, [], ir.Block([]), loc=statement_loc(path, stmt))
            f.is_library = False
            f.link_name = link
            self.functions[name] = f
        else:
            f = existing
        if name not in self.class_sources and _declares_class(unit):
            # its parse tree as read, for its copies (exact_copy): lowering the body
            # rewrites calls through bindings in place, for the types this lowering sees
            self.class_sources[name] = (path, copied_tree(unit), module)
        self.lowered(path, unit, module, f, signature_only)
        f.has_body = True
        if not signature_only:
            f.built = True
        return f

    def lowered(self, path, unit, module, f, signature_only, exact_types=None):
        """f, the procedure of unit, given its signature (signature_only) or its body by a
        Scope; exact_types: see exact_copy."""
        scope = Scope(self, path, f, module=module)
        scope.entry_host = getattr(unit, "adgen_entry_host", None)   # (fortran_entries)
        scope.exact_types = exact_types or {}
        if module is not None and module.implicit is not None:
            # a module procedure inherits its module's implicit typing (IMPLICIT NONE)
            scope.implicit = dict(module.implicit)
            scope.implicit_none = all(r is None for r in module.implicit.values())
        try:
            scope.build(unit, signature_only)
        except AdgenError as exc:
            if signature_only:
                raise
            f.error = exc

    def exact_copy(self, f, exact_types):
        """The copy of procedure f that reads its CLASS(t) dummies named in exact_types
        ({dummy: DerivedType}) as objects of those types, which extend t: what a call
        passing such objects runs. Inside it the object's components are those of its
        type, and a call through one of its bindings runs that type's procedure (its own
        binding, overriding t's, or the one it inherits), as Fortran dispatches on the
        dynamic type. One copy per procedure and types, a C function of the output."""
        key = (f.name,) + tuple(sorted((d, dt.sdef.tag) for d, dt in exact_types.items()))
        g = self.exact_copies.get(key)
        if g is not None:
            return g
        if f.name not in self.class_sources:
            raise AdgenError(f"'{ir.source_name(f)}' is called with an object of a type "
                             "extending the type of its CLASS dummy "
                             f"'{next(iter(exact_types))}', and adgen has not read its source "
                             "to follow that type")
        path, unit, module = self.class_sources[f.name]
        if _has_saved_locals(unit):
            raise AdgenError(f"'{ir.source_name(f)}', which has SAVEd variables, is called "
                             "with an object of a type extending the type of its CLASS "
                             f"dummy '{next(iter(exact_types))}': not supported (its copy for "
                             "that type would keep SAVEd values of its own)")
        name = "_".join([f.name] + [exact_types[d].name for d in f.dummy_names
                                    if d in exact_types])
        while name in self.functions:
            name += "_"
        g = ir.Function(name, ir.VOID, [], ir.Block([]), loc=f.loc)
        g.is_library = False
        self.functions[name] = self.exact_copies[key] = g
        self.lowered(path, copied_tree(unit), module, g, True, exact_types)
        self.lowered(path, copied_tree(unit), module, g, False, exact_types)
        g.has_body = g.built = True
        return g


def private_names(module):
    """A test of whether a name of the module is PRIVATE: named so by a PRIVATE statement,
    or, after a bare `private`, not named by a PUBLIC one."""
    F = f2003()
    spec = next((c for c in module.children if isinstance(c, F.Specification_Part)), None)
    default_private, named = False, {}
    for st in walk_type(spec, F.Access_Stmt) if spec is not None else ():
        private = str(st.items[0]).upper() == "PRIVATE"
        if st.items[1] is None:
            default_private = private
        for n in st.items[1].items if st.items[1] is not None else ():
            if isinstance(n, F.Name):
                named[name_of(n)] = private
    return lambda name: named.get(name, default_private)


def binding_name(stmt):
    """The C name of a procedure with BIND(C) (its NAME=, else its name in lower case),
    from its SUBROUTINE or FUNCTION statement; None without BIND(C)."""
    F = f2003()
    spec = next(iter(walk_type(stmt.items[-1], F.Language_Binding_Spec)), None) \
        if stmt.items[-1] is not None else None
    if spec is None:
        return None
    if spec.items[0] is not None:
        return str(spec.items[0])[1:-1].strip()
    return name_of(stmt.items[1])


def program_procedures(program):
    """The internal procedures of a main program, each to be read as a procedure of its
    own: the main program's USE and IMPLICIT statements, which they see, put at the start
    of their specification parts. What else they see of the main program, its variables
    (host_uses), the main program keeps."""
    F = f2003()
    spec = next((c for c in program.children if isinstance(c, F.Specification_Part)), None)
    inherited = [c for c in (spec.children if spec is not None else [])
                 if isinstance(c, (F.Use_Stmt, F.Implicit_Part, F.Implicit_Stmt))]
    out = []
    for part in program.children:
        if not isinstance(part, F.Internal_Subprogram_Part):
            continue
        for u in part.children:
            if not isinstance(u, (F.Subroutine_Subprogram, F.Function_Subprogram)):
                continue
            if inherited and not getattr(u, "adgen_inherited", False):
                own = next((c for c in u.children if isinstance(c, F.Specification_Part)),
                           None)
                if own is not None:     # (with none, it declares nothing: it needs none)
                    uses = [c for c in inherited if isinstance(c, F.Use_Stmt)]
                    rest = [c for c in inherited if not isinstance(c, F.Use_Stmt)]
                    own.content[:0] = uses + ([] if _has_implicit(own) else rest)
                u.adgen_inherited = True
            out.append(u)
    return out


def _has_implicit(spec):
    F = f2003()
    return any(walk_type(c, F.Implicit_Stmt) for c in spec.children)


def host_uses(program, unit):
    """The variables of the main program an internal procedure uses (host association),
    in the order it first names them: the names of both that the procedure does not
    declare itself."""
    F = f2003()
    spec = next((c for c in program.children if isinstance(c, F.Specification_Part)), None)
    host = set()
    for decl in walk_type(spec, F.Type_Declaration_Stmt) if spec is not None else []:
        host |= {name_of(ent.items[0]) for ent in decl.items[2].items}
    own_spec = next((c for c in unit.children if isinstance(c, F.Specification_Part)), None)
    declared = set(dummy_names(head_stmt(unit))) | {name_of(head_stmt(unit).items[1])}
    for decl in walk_type(own_spec, F.Type_Declaration_Stmt) if own_spec is not None else []:
        declared |= {name_of(ent.items[0]) for ent in decl.items[2].items}
    result = [name_of(n) for n in walk_type(head_stmt(unit), F.Name)]
    declared |= set(result)
    out = []
    for n in walk_type(unit, F.Name):
        name = name_of(n)
        if name in host and name not in declared and name not in out:
            out.append(name)
    return out


def _declares_class(unit):
    """Whether a procedure declares a variable CLASS(t) (a passed-object dummy)."""
    F = f2003()
    return any(str(d.items[0]).upper().startswith("CLASS")
               for d in walk_type(unit, F.Type_Declaration_Stmt))


def _has_saved_locals(unit):
    """Whether a procedure has SAVEd variables: a SAVE or DATA statement, the SAVE
    attribute, or an initial value (which SAVEs a variable) that is not a PARAMETER's."""
    F = f2003()
    if walk_type(unit, (F.Save_Stmt, F.Data_Stmt)):
        return True
    for d in walk_type(unit, F.Type_Declaration_Stmt):
        attrs = [str(a).upper() for a in (d.items[1].items if d.items[1] is not None else ())]
        if "PARAMETER" in attrs:
            continue
        if "SAVE" in attrs or any(len(e.items) > 3 and e.items[3] is not None
                                  for e in d.items[2].items):
            return True
    return False


def _declares_allocatable(spec, name):
    """Whether the specification part declares `name` ALLOCATABLE."""
    F = f2003()
    for part in spec.children if spec is not None else ():
        for decl in walk_type(part, F.Type_Declaration_Stmt):
            if decl.items[1] is not None and \
                    any(str(a).upper() == "ALLOCATABLE" for a in decl.items[1].items) and \
                    any(name_of(ent.items[0]) == name for ent in decl.items[2].items):
                return True
        for st in walk_type(part, F.Allocatable_Stmt):
            if any(name_of(n) == name for n in walk_type(st, F.Name)):
                return True
    return False


# Statements whose names are no variables of the unit: other units' (interface bodies,
# modules, external and intrinsic procedures), COMMON members (declared by the statement)
_NO_VARIABLES = ("Interface_Block", "Use_Stmt", "External_Stmt", "Intrinsic_Stmt",
                 "Procedure_Declaration_Stmt",
                 "Common_Stmt", "Implicit_Stmt", "Format_Stmt", "Internal_Subprogram_Part")


# The item of a node that is a procedure, keyword or construct name when it is a Name
_NAME_ITEM = {"Call_Stmt": 0, "Part_Ref": 0, "Actual_Arg_Spec": 0, "Exit_Stmt": 1,
              "Cycle_Stmt": 1, "Else_Stmt": 0, "Else_If_Stmt": 1, "Case_Stmt": 1,
              "Elsewhere_Stmt": 1, "Masked_Elsewhere_Stmt": 1}


def _variable_names(parts):
    """{name: its first Name node} of the names the specification and execution parts
    `parts` use as variables (or may: every name but those of procedures called, keywords,
    construct names and other units' names). A unit without IMPLICIT NONE declares a
    variable by using it: an internal procedure's use of such a name is the host's
    variable (see host_variable), though the host's body, lowered after its internal
    procedures, has not met it yet."""
    F = f2003()
    out = {}

    def look(n):
        cls = type(n).__name__
        if cls in _NO_VARIABLES:
            return False
        if T.is_component_name(n):
            return True         # the variable it starts from, the subscripts on the way
        if isinstance(n, F.Name):
            out.setdefault(name_of(n), n)
            return False
        skip = 1 if cls.startswith("End_") and cls.endswith("_Stmt") else _NAME_ITEM.get(cls)
        items = getattr(n, "items", None)
        if skip is not None and items is not None and len(items) > skip and \
                isinstance(items[skip], F.Name):
            visit_nodes([c for k, c in enumerate(items) if k != skip], look)
            return False
        return True

    visit_nodes([p for p in parts if p is not None], look)
    return out


def _goto_labels(node):
    """The labels the GOTO statements inside a statement jump to (computed GOTO and
    arithmetic IF included)."""
    F = f2003()
    if not node:
        return set()
    out = {int(str(g.items[0])) for g in walk_type(node, F.Goto_Stmt)}
    out |= {int(str(lab)) for g in walk_type(node, F.Computed_Goto_Stmt)
            for lab in g.items[0].items}
    out |= {int(str(lab)) for g in walk_type(node, F.Arithmetic_If_Stmt)
            for lab in g.items[1:]}
    return out


class Scope(DeclarationsMixin, AllocatablesMixin, StringsMixin, StatementsMixin,
            OpenMPMixin, ArraysMixin, ExpressionsMixin, CallsMixin, StructValuesMixin):
    """The names visible in one program unit, and the conversion of its statements."""

    def __init__(self, front, path, func, module=None):
        self.front = front
        self.path = path
        self.func = func
        self.module = module
        self.vars = {}
        self.implicit = {c: ("real", None) for c in "abcdefghopqrstuvwxyz"}
        self.implicit.update({c: ("integer", None) for c in "ijklmn"})
        self.implicit_none = False
        self.used_names = set()
        self.result_var = None
        self.loop_invariant = []      # statement lists before the array loops being built
        self.do_names = []            # the names of the DO loops around (None: unnamed)
        self.do_counters = []         # the variables of the counted DO loops around
        self.goto_targets = set()     # labels some GOTO jumps to
        self.allocate_stmt_names = set()    # names in the procedure's ALLOCATE statements
        self.end_label = None         # label of the END statement (a GOTO to it returns)
        self.interfaces = {}          # procedure name -> dummy names, from interface blocks
        self.interface_bodies = {}    # procedure or abstract interface name -> its body
        self.generics = {}            # generic name -> the names of its specific procedures
        self.external_names = set()   # names declared EXTERNAL
        self.intent_in_names = set()  # dummies declared INTENT(IN)
        self.value_names = set()      # dummies with the VALUE attribute (passed by value)
        self.procedure_decls = {}     # name -> the interface PROCEDURE(...) names
        self.dummy_procs = {}         # dummy procedure name -> its stand-in (dummy_procedure)
        self.entry_values = {}        # placeholders of array bounds (see entry_bound)
        self.entry_assumptions = []   # ([placeholder], error if one may change)
        self.temp_arrays = []         # [(symbol, [(extent, whole extent)], loc)]
        self.temps = []
        self.allocatables = []        # local allocatable arrays (see declare_allocatable)
        self.allocatable_scalars = []  # local allocatable scalars (allocatable_scalar)
        self.deferred_strings = []     # deferred-length strings not sized yet
        # local structures with allocatable components (see struct_with_allocatables)
        self.allocatable_structs = []
        # variables of a type with default initialization (see default_initializations)
        self.initialized_structs = []
        self.intent_out_names = set()     # dummies declared INTENT(OUT)
        self.class_names = set()          # variables declared CLASS(t)
        self.dispatched = {}              # polymorphic variables of several types: Dispatch
        self.allocatable_bounds = set()   # the locals holding their bounds
        # the statements and constructs being lowered, each [(DO loops around it, its
        # parse tree, what leaving it early frees)] (see open_construct)
        self.open_constructs = []
        self.block_owned = set()      # id() of the allocatables BLOCKs free themselves
        self.heap_temps = []          # [(symbol, size)] of the statement being lowered
                                      # (size None: allocated by the statement itself)
        self.statement_structs = []   # its temporary structures (see structure_temp)
        self.pack_masks = {}          # id(pack reference) -> what packed gives
        self.tests = 0                # > 0 while lowering a test or a bound (expr_before)
        self.loop_ends = []           # [(For, name of its end's temporary)] (see settle)
        self.binomial_ckp = None      # a BINOMIAL-CKP directive waiting for its DO loop
        self.kept_loops = 0           # BINOMIAL-CKP and FP-LOOP loops around the statement
        self.nocheckpoint = False     # a NOCHECKPOINT directive waiting for its call
        self.fp_loop = None           # (location, pragma, name) of an FP-LOOP or II-LOOP waiting
        self.omp_atomic = None        # (pragma, directive) of an `!$omp atomic` waiting for
        #                               its assignment
        self.omp_critical = []        # [pragma, directive, statement list, start] of each
        #                               open `!$omp critical` section
        self.omp_region = None        # an `!$omp parallel` region open (fortran_openmp.Region)
        self.omp_lowered = 0          # statements lowered so far (OpenMPMixin.openmp_counted)
        self.omp_left_out = []        # `!$omp` directives left out, for the next statement's
        #                               list (where a parallel loop reaching them sees them)
        self.omp_parallel_do = None   # (location, text, clauses) of a `!$omp parallel do`
        self.source_names = set()     # every name the unit's source uses (see temp)
        self.retired = []             # variables of BLOCKs already left (see block_construct)
        self.hidden = []              # variables a construct's own names hide (scoped_names)
        self.saved_names = set()      # locals a SAVE statement names
        self.hoisted = {}             # id(function reference) -> its value (hoist_calls)
        self.save_all = False         # a SAVE statement without names: every local
        self.types = {}               # derived type name -> T.DerivedType
        if module is not None:
            self.vars.update(module.vars)
            self.types.update(module.types)
            self.imported_procs = dict(module.imported_procs)
            self.interfaces.update(module.interfaces)
            self.interface_bodies.update(module.interface_bodies)
            self.generics.update(module.generics)

    def loc(self, node):
        """The place of node's statement (an error's column is found when it is made:
        fortran_places); of the statement being lowered, or the procedure's, when node
        has no line."""
        for at in (node, getattr(self, "current", None)):
            if statement_item(at) is not None:
                return statement_loc(self.path, at)
        return self.func.loc if self.func is not None and self.func.loc else \
            Loc(self.path, 0, 1)

    def error(self, node, msg):
        return AdgenError(msg, self.loc(node))

    # ------------------------------------------------------------- declarations
    def build(self, unit, signature_only):
        F = f2003()
        self.signature_only = signature_only
        stmt = head_stmt(unit)
        # temporaries avoid every name of the source, also those of variables declared
        # implicitly further down, which become locals only when they are met
        self.source_names = {name_of(n) for n in walk_type(unit, F.Name)}
        self.unit = unit
        dummies = dummy_names(stmt)
        is_function = isinstance(unit, (F.Function_Subprogram, F.Function_Body))
        result_name = result_name_of(stmt) if is_function else None
        self.dummies = dummies
        self.func.dummy_names = dummies        # calls match keyword arguments by them
        self.result_name = result_name if is_function else None   # never SAVEd
        # (a head may name the result by it: `--head "dist(res)/(a b)"`)
        self.func.result_name = result_name if is_function else None
        self.func.elemental = stmt.items[0] is not None and \
            "ELEMENTAL" in str(stmt.items[0]).upper()
        spec = exec_part = None
        internal = []
        for part in unit.children:
            if isinstance(part, F.Specification_Part):
                spec = part
            elif isinstance(part, F.Execution_Part):
                exec_part = part
            elif isinstance(part, F.Internal_Subprogram_Part):
                if getattr(self, "host", None) is not None:
                    raise self.error(part, "procedures nested two levels deep are not "
                                           "supported")
                internal = [c for c in part.children
                            if isinstance(c, (F.Subroutine_Subprogram, F.Function_Subprogram))]
        # A function whose result is an array is a subroutine with one more dummy, the
        # result, after the others (see without_array_functions for its calls). One whose
        # result is ALLOCATABLE allocates it as a local and hands it over on leaving: the
        # address of its storage and its extents go to more dummies (handover_params).
        array_result = returns_array(unit)
        allocatable_result = array_result and _declares_allocatable(spec, result_name)
        if array_result and not allocatable_result:
            self.dummies = dummies + [result_name]
        if spec is not None:
            self.value_names = value_dummies(spec) & set(self.dummies)
            self.specification(spec)
        for name in getattr(self, "host_seed", ()):     # see internal_procedures
            if name not in self.vars:
                self.host_variable(name, stmt)
        # a dummy that a CALL statement calls is a dummy procedure, EXTERNAL or not, and so
        # is a scalar one referenced with arguments, `f(a)`: a function (as gfortran has it)
        self.called_names = {name_of(c.items[0]) for c in walk_type(exec_part, F.Call_Stmt)
                             if isinstance(c.items[0], F.Name)} if exec_part else set()
        self.called_names |= {d for d in function_references(exec_part)
                              if d in dummies and self._scalar_number(d)}
        for d in dummies:
            self.dummy_procedure(d, stmt)       # (before the internal procedures)
        prefix_type = None
        if is_function and stmt.items[0] is not None:
            # after the declarations: `real(wp) function g(v)` may take wp from a USE
            # statement of its own
            for p in walk_type(stmt.items[0], (F.Intrinsic_Type_Spec,
                                                F.Declaration_Type_Spec)):
                prefix_type = self.type_spec(p)
        struct_result = self.struct_result_type(result_name, prefix_type) \
            if is_function and not array_result else None
        if array_result:
            if prefix_type is not None:
                raise self.error(stmt, f"the function '{self.func.name}' returns an array "
                                       "and has its type before FUNCTION: not supported "
                                       "(declare the type with the result's dimensions)")
            self.func.ret = ir.VOID
            self.func.array_result = True
        elif struct_result is not None:
            # One whose result is a structure with allocatable components likewise, the
            # caller's temporary structure its result (see struct_results_hoisted)
            if result_name not in self.vars:
                self.declare(result_name, prefix_type, None, stmt)
            if struct_result.default_initialized() and \
                    self.vars[result_name] not in self.initialized_structs:
                self.initialized_structs.append(self.vars[result_name])
            self.dummies = self.dummies + [result_name]
            self.func.ret = ir.VOID
            self.func.struct_result = self.vars[result_name].type
        elif is_function:
            # before the internal procedures, which may use the result variable
            rv = self.vars.get(result_name)
            if rv is None and prefix_type is not None:
                rv = self.declare(result_name, prefix_type, None, stmt)
            if rv is None:
                rv = self.implicit_var(result_name, stmt)
            if prefix_type is not None:
                rv.type = prefix_type
                rv.sym.type = prefix_type
            self.func.ret = rv.type
            self.result_var = rv
            dtype = T.derived_type_of(rv.type)
            if dtype is not None and dtype.default_initialized() and \
                    rv not in self.initialized_structs:     # (its type before FUNCTION)
                self.initialized_structs.append(rv)
        else:
            self.func.ret = ir.VOID
        if internal and not signature_only:
            self.variable_names = _variable_names([spec, exec_part])
            for d in dummies:
                self.variable_names.setdefault(d, stmt)
            self.internal_procedures(internal)
        params, extent_params, char_lens = [], [], []
        if "*" in self.dummies:
            raise self.error(stmt, "an alternate return (a `*` dummy argument) is not "
                                   "supported")
        for d in self.dummies:
            stand_in = self.dummy_procs.get(d)
            if stand_in is not None:
                params.append(stand_in.through)
                continue
            v = self.lookup(d, stmt)
            if v.const is not None:
                raise self.error(stmt, f"dummy argument '{d}' declared as a parameter")
            v.by_ref = d not in self.value_names
            if v.sym is None or v.sym.kind != "param":
                v.sym = self.dummy_symbol(d, v.type, v.loc or self.loc(stmt),
                                          by_value=not v.by_ref)
            v.sym.fortran_array = bool(v.dims)
            v.sym.fortran_rank = len(v.dims or ())          # (see arguments_fit)
            v.sym.intent_in = d in self.intent_in_names     # (see section_copy)
            v.sym.is_result = array_result and d == result_name
            if v.sym.is_result and (v.allocatable or v.pointer or v.pointer_dummy):
                kind = "an ALLOCATABLE" if v.allocatable else "a POINTER"
                raise self.error(stmt, f"the function '{self.func.name}' returns {kind} "
                                       "array: not supported (declare its result with a "
                                       "shape, `real(8) :: r(size(x))`, or make it a "
                                       "subroutine with an array argument the caller "
                                       "allocates)")
            if d in getattr(self.func, "optional_dummies", ()):
                # the pointer may be null; an assumed-shape one's extents are 0 then
                v.sym.optional = True
            v.sym.extent_params = v.extent_params      # callers pass them (call_extents)
            if getattr(v, "char_len_param", None) is not None:
                char_lens.append(v.char_len_param)      # (see declare_string)
            v.sym.allocatable_dummy = v.allocatable_dummy
            v.sym.pointer_dummy = v.pointer_dummy
            v.sym.class_dummy = d in self.class_names
            for dim, e in enumerate(v.extent_params[:len(v.dims or ())], 1):
                e.extent_of = (v.sym, dim)      # the head's Fortran interface passes size(a, dim)
            extent_params += v.extent_params
            if v.dims and all(ext is not None for _, ext in v.dims):
                size = None
                for _, ext in v.dims:
                    size = X.clone(ext) if size is None else X.mul(size, X.clone(ext))
                # the declared size: `w(0:n)` has n+1
                v.sym.fortran_extent = self.at_entry(size)
            params.append(v.sym)
        self.func.params = params + extent_params + char_lens
        self.handover = []
        if allocatable_result:
            self.func.params = params + self.handover_params(result_name, stmt) + \
                extent_params + char_lens
        elif array_result:
            rv = self.vars[result_name]
            if any(ext is None for _, ext in rv.dims):
                raise self.error(stmt, f"the function '{self.func.name}' returns an array "
                                       "whose shape is not given by its declaration "
                                       "(allocatable or deferred): not supported")
            self.func.result_extents = [ext for _, ext in rv.dims]
        if extent_params or array_result or struct_result is not None or \
                self.class_names & set(self.dummies):
            # The compiled procedure takes (or returns) array descriptors, or CLASS dummies
            # in class containers, not this lowering: the generated code calls its own
            # copy of it.
            self.func.is_static = True
            self.func.link_name = None
        if signature_only:
            return
        self.size_deferred_strings(exec_part)
        body = []
        if exec_part is not None:
            self.goto_targets = _goto_labels(exec_part)
            if self.dispatched:
                dispatch_statements(self, exec_part.content)
            # the arrays the procedure ALLOCATEs: it manages their shapes (see assignment)
            self.allocate_stmt_names = {
                name_of(n) for st in walk_type(exec_part, f2003().Allocate_Stmt)
                for n in walk_type(st.items[1], f2003().Name)}
            self.end_label = label_of(unit.children[-1])
            self.bound_calls(exec_part)
            self.statements(self.statement_functions(list(exec_part.children)), body)
            if self.end_label in self.goto_targets:     # a GOTO to END: what END does
                body.append(jumps.Label(str(self.end_label), self.loc(unit.children[-1])))
        self.no_waiting_directive(None)
        body += self.leaving(self.loc(unit.children[-1]))
        # the allocatable components of local structures start unallocated
        body[:0] = [ir.Assign(self.array_base(c, None), X.null(ir.Ptr(c.type), self.func.loc),
                              self.func.loc)
                    for v in self.allocatable_structs for c in self.component_arrays(v)] + \
            self.default_initializations(self.initialized_structs) + \
            self.allocation_cleared(self.allocatable_scalars, self.func.loc)
        if is_function and not array_result and struct_result is None:
            body.append(ir.Return(ir.Ref(self.result_var.sym), self.loc(unit.children[-1])))
        self.func.body = ir.Block(body, self.func.loc)
        jumps.lower_gotos(self.func, lambda base: self.temp(base, ir.INT))
        self.front.unsettled.append(self)       # see settle

    def default_initializations(self, variables):
        """Fortran's default initialization of the variables of a type that has one
        (`real(8) :: dt = 0.1d0` among its components) where the procedure or BLOCK is
        entered: the locals, the function result, the INTENT(OUT) dummies. A SAVEd local
        starts with those values instead (a static initializer); ALLOCATE initializes an
        allocatable or pointer (initialize_elements); the other dummies and module
        variables keep what they hold."""
        out = []
        for v in variables:
            if v.sym is None or v.common is not None or v.pointer or v.allocated is not None \
                    or v.descriptor:
                continue
            if getattr(v.sym, "fortran_saved", False):
                if v.sym.init_text is None:
                    one = T.default_initializer(T.derived_type_of(v.type))
                    v.sym.init_text = "{" + ", ".join([one] * constant_size(v)) + "}" \
                        if v.dims else one
                continue
            if v.sym.kind == "global" or v.sym.kind == "param" and \
                    v.name not in self.intent_out_names and v.name != self.result_name:
                continue
            size = None
            if v.dims:
                if any(ext is None for _, ext in v.dims):
                    raise AdgenError(f"the assumed-size array '{v.name}', of a type with "
                                     "default initialization, is not supported here (give "
                                     "it a shape)", v.loc)
                for _, ext in v.dims:
                    size = X.clone(ext) if size is None else X.mul(size, X.clone(ext))
            out += self.initialize_elements(v, size, v.loc)
        return out

    def initialize_elements(self, v, size, loc):
        """The default initialization of the structure v, or of the size first elements
        of the array of structures v."""
        dtype = T.derived_type_of(v.type)
        counter = lambda: self.temp("k", ir.INT)    # noqa: E731
        if size is None:
            return T.default_initialization(self.value(v, None), dtype, loc, counter)
        k = counter()
        element = ir.Index(self.array_base(v, None), ir.Ref(k), v.type, loc)
        loop = counted_loop(k, size, T.default_initialization(element, dtype, loc, counter))
        loop.loc = loop.body.loc = loc
        return [loop]

    def component_elements(self, node):
        """node with each `p%f(k)` (the element k of the array component f of every
        structure of an array p, or of a section of it) one name standing for that array,
        so that k selects in the component, not among the structures
        (fortran_types.subscripted_view)."""
        F = f2003()
        if isinstance(node, F.Where_Construct):     # (its statements are its content)
            out = copy.copy(node)
            out.content = [self.component_elements(c) for c in node.content]
            return out
        found = {}
        for ref in walk_nodes(node):
            if isinstance(ref, F.Part_Ref) and T.is_component_name(ref.items[0]):
                name = T.subscripted_view(self, ref)
                if name is not None:
                    found[id(ref)] = name
        return replace_nodes(node, found) if found else node

    def handover_params(self, result_name, stmt):
        """The dummies through which a function hands its ALLOCATABLE result over to its
        caller (see array_function_temp): the address of a pointer, which gets the result's
        storage, then one integer per dimension, which gets its extent. The result is a
        local allocatable array that is not deallocated on leaving (see leaving)."""
        rv = self.vars.get(result_name)
        if rv is None or rv.allocated is None:
            raise self.error(stmt, f"the result of '{self.func.name}' is not a local "
                                   "allocatable array: not supported")
        loc = rv.loc or self.loc(stmt)
        data = ir.Symbol(self.unique(f"{result_name}_storage"), ir.Ptr(ir.Ptr(rv.type)),
                         "param", loc)
        data.handover = True
        extents = [ir.Symbol(self.unique(f"{result_name}_extent{k}"), ir.Ptr(ir.INT),
                             "param", loc) for k in range(1, len(rv.dims) + 1)]
        self.allocatables.remove(rv)
        self.handover = [(ir.Deref(ir.Ref(data), ir.Ptr(rv.type)), ir.Ref(rv.sym))] + \
            [(ir.Deref(ir.Ref(e), ir.INT), X.clone(n)) for e, (_, n) in zip(extents, rv.dims)]
        self.func.allocatable_result = True
        self.func.result_rank = len(rv.dims)
        return [data] + extents

    def leaving(self, loc):
        """What leaving the procedure does (at its end and at RETURN): an ALLOCATABLE
        result handed over to the caller, the other allocatable arrays deallocated, the
        allocatable components of local structures too."""
        out = [ir.Assign(X.clone(lhs), X.clone(rhs), loc) for lhs, rhs in self.handover]
        # (RETURN inside constructs: what they allocated, see open_construct)
        out += self.constructs_left(loc)
        for v in self.allocatables:
            if id(v) not in self.block_owned:
                out += self.deallocate(v, loc, only_if_allocated=True)
        return out + self.release_components(
            [v for v in self.allocatable_structs if id(v) not in self.block_owned], loc)

    def settle(self):
        """What needs to know what the procedures of the program may change, once their
        bodies are lowered: the DO loops whose end must be read before the loop (see
        counted_loop), the array bounds whose value on entry must be kept (see
        entry_bound), the sizes of temporary arrays (see temp_array)."""
        body = self.func.body.stmts
        self.mark_saved_allocatables()
        for loop, name in self.loop_ends:
            end = loop.test.right
            holder = _list_holding(body, loop)
            if holder is not None and self.may_change(end, self.changes(loop.body.stmts +
                                                                         loop.step)):
                last = self.temp(name, ir.with_const(end.type, False))
                at = holder.index(loop)
                if at > 0 and isinstance(holder[at - 1], ir.CheckpointPragma):
                    at -= 1         # the directive must stay just before its loop
                holder.insert(at, ir.Assign(ir.Ref(last), end, loop.loc))
                loop.test.right = ir.Ref(last)
        changes = self.changes(body)
        assigned, restored = [], {}
        for p in self.entry_values.values():
            if self.may_change(p.entry_value, changes):
                assigned.append(ir.Assign(ir.Ref(p), p.entry_value, self.func.loc))
            else:
                restored[p] = p.entry_value
        for placeholders, error in self.entry_assumptions:
            if any(p not in restored for p in placeholders):
                raise error
        for sym, extents, loc in self.temp_arrays:
            sym.type = ir.Arr(sym.type.elem, temp_size(
                extents, lambda e: self.size_dependency(e, changes), loc))
        self.temps = [t for t in self.temps if t not in restored]
        _substitute_stmts(body, restored)
        body[:0] = assigned
        self.func.locals = [v.sym for v in list(self.vars.values()) + self.retired
                            if v.sym is not None and v.sym.kind == "local" and
                            getattr(v, "declared_here", True) and v.common is None]
        self.func.locals += self.temps

    def _scalar_number(self, name):
        """Whether name is declared (or implicitly typed) a scalar that is not a string:
        referenced with arguments, it can only be a function."""
        v = self.vars.get(name)
        return v is None or not v.dims and getattr(v, "char_len", None) is None and \
            v.const is None

    def dummy_procedure(self, name, node):
        """The stand-in of dummy argument `name` if it is a procedure (an interface block
        of that name, PROCEDURE(iface), EXTERNAL, or the subroutine of a CALL statement),
        in dummy_procs. Its signature is the interface's (an EXTERNAL one's comes from its
        first call, see user_call); calls of the stand-in go `through` the parameter, and
        transform/callbacks.py gives each call passing a procedure a copy calling that
        procedure."""
        body, like = self.interface_bodies.get(name), None
        if name in self.procedure_decls:
            iface = self.procedure_decls[name]
            body = self.interface_bodies.get(iface)
            # `procedure(decay) :: f`: the interface of a procedure
            like = self.known_procedure(iface) if body is None else None
            if body is None and (like is None or not like.has_body):
                raise self.error(node, f"no interface '{iface}' for the dummy procedure "
                                       f"'{name}'")
        elif body is None and name not in self.external_names and \
                name not in self.called_names:
            return
        loc = self.loc(node)
        f = ir.Function(name, ir.VOID, [], ir.Block([]), loc=loc, has_body=False)
        f.is_library = False
        if body is not None:
            Scope(self.front, self.path, f, module=self.module).build(body, True)
        elif like is not None:
            f.ret, f.params = like.ret, like.params
            f.dummy_names = getattr(like, "dummy_names", None)
            for attr in ("array_result", "result_extents", "allocatable_result",
                         "result_rank", "struct_result"):
                if hasattr(like, attr):
                    setattr(f, attr, getattr(like, attr))
        v = self.vars.pop(name, None)     # `real(8), external :: g`: g's result type
        if v is not None:
            f.ret = v.type
        f.through = ir.Symbol(name if name not in C_RESERVED else self.unique(name),
                              ir.FuncPtr("procedure", f.ret), "param", loc)
        self.dummy_procs[name] = f

    # ------------------------------------------------------ internal procedures
    def internal_procedures(self, units):
        """Procedures after CONTAINS in this one: separate functions that receive the
        host's variables they use (host association) as extra arguments, by reference,
        and for a host array the bounds of its dimensions that are not constants, by
        value (see host_variable)."""
        self.internal_procs = {}
        for u in units:
            name = name_of(head_stmt(u).items[1])
            f = ir.Function(f"{self.func.name}_{name}", ir.VOID, [], ir.Block([]),
                            loc=self.loc(u))
            f.is_library = False
            f.link_name = None
            f.is_static = True
            f.host_args = []
            self.internal_procs[name] = f
            self.front.functions[f.name] = f
        # Signatures first: the bodies call each other. The host variables a procedure
        # uses are found as its body is lowered, and a call passes its callee's, so a
        # procedure's call of one lowered after it may miss some: the bodies are lowered
        # again, each starting from the host variables found the time before, until every
        # call passed its callee's final list.
        scopes = self.lower_internal(units, True)
        for _ in range(len(units) + 1):
            for f in self.internal_procs.values():
                f.host_arg_uses = []                # what each call passed (user_call)
            stale = scopes
            scopes = self.lower_internal(units, False)
            self.front.unsettled = [sc for sc in self.front.unsettled if sc not in stale]
            if all(use == f.host_args for f in self.internal_procs.values()
                   for use in f.host_arg_uses):
                break
        for f in self.internal_procs.values():
            f.has_body = True
            f.built = True

    def lower_internal(self, units, signature_only):
        """Lower the internal procedures (their signatures only, or all), each starting
        from the host variables it was found to use before."""
        scopes = []
        for u in units:
            f = self.internal_procs[name_of(head_stmt(u).items[1])]
            sc = Scope(self.front, self.path, f, module=self.module)
            sc.host = self
            sc.implicit = dict(self.implicit)
            sc.implicit_none = self.implicit_none
            sc.interfaces.update(self.interfaces)
            sc.internal_procs = self.internal_procs
            sc.host_seed, f.host_args, f.host_bounds = f.host_args, [], []
            sc.build(u, signature_only)
            f.params = f.params + [sc.vars[n].sym for n in f.host_args] + \
                [p for _, _, _, p in f.host_bounds]
            scopes.append(sc)
        return scopes

    def host_variable(self, name, node):
        """A host variable used in an internal procedure: an extra argument, a pointer.
        A host array keeps its shape: each bound that is not a constant is one more
        argument, an int the caller passes (its value as the caller sees it)."""
        if name in getattr(self.host, "internal_procs", {}):
            return None
        if name in self.host.dispatched:
            raise self.error(node, f"'{name}', a polymorphic variable of the host that may "
                                   "be of several types, used in an internal procedure: not "
                                   "supported (pass it as an argument)")
        hv = self.host.vars.get(name)
        if hv is None and name in getattr(self.host, "variable_names", {}) and \
                self.host.implicit.get(name[0]) is not None:
            # a variable the host declares implicitly by using it, met before the host's
            # body is lowered: the host's variable, not one of this procedure
            hv = self.host.implicit_var(name, self.host.variable_names[name])
        if hv is None or hv.const is not None or hv.common is not None or \
                (hv.sym is not None and hv.sym.kind == "global"):
            return hv
        if hv.scalar_allocated is not None:
            # (what the procedure does to it would have to keep the host's flag)
            raise self.error(node, f"'{name}', an allocatable scalar of the host, used in "
                                   "an internal procedure: not supported (pass it as an "
                                   "argument)")
        if getattr(hv, "char_len", None) is not None:
            if getattr(hv, "deferred", False) or hv.dims:
                raise self.error(node, f"'{name}', a CHARACTER variable of the host of "
                                       "deferred length, or an array, used in an internal "
                                       "procedure: not supported (pass it as an argument)")
        v = FVar(name, hv.type, loc=hv.loc, by_ref=True)
        if name in self.host.class_names:
            self.class_names.add(name)      # (SELECT TYPE of it, its part passed on)
        if getattr(hv, "char_len", None) is not None and const_int(hv.char_len) is not None:
            v.char_len = X.clone(hv.char_len)     # a constant length: no argument for it
        elif getattr(hv, "char_len", None) is not None:
            # an assumed length (`character(len=*)`), which stays what the host was given:
            # one more argument, by value, as the bounds of host arrays
            p = ir.Symbol(self.unique(f"{name}_len"), hv.char_len.type, "param", hv.loc)
            v.char_len = ir.Ref(p)
            self.func.host_bounds.append((name, None, None, p))
        v.host_allocatable = hv.allocatable
        v.sym = ir.Symbol(self.unique(name), ir.Ptr(hv.type), "param", hv.loc)
        v.sym.fortran_array = bool(hv.dims)
        self.vars[name] = v
        self.func.host_args.append(name)
        if hv.dims:
            v.dims = []
            for dim, bounds in enumerate(hv.dims):
                v.dims.append(tuple(self.host_bound(v, dim, which, e)
                                    for which, e in enumerate(bounds)))
        return v

    def host_bound(self, v, dim, which, e):
        """The lower bound (which 0) or extent (1) of dimension dim of the host array v
        in an internal procedure: a constant as it is, else an int argument."""
        if e is None or const_int(e) is not None:
            return X.clone(e) if e is not None else None
        name = f"{v.name}_{('lower', 'extent')[which]}"
        if len(self.host.vars[v.name].dims) > 1:
            name += str(dim + 1)
        p = ir.Symbol(self.unique(name), ir.INT, "param", v.loc)
        v.extent_params.append(p)
        self.func.host_bounds.append((v.name, dim, which, p))
        return ir.Ref(p)

    def once(self, value, base, out, loc):
        """A temporary set (in out) to value, evaluated once."""
        t = self.temp(base, ir.with_const(value.type, False))
        out.append(ir.Assign(ir.Ref(t, loc), value, loc))
        return t

    def temp(self, base, t):
        n, k = base, 1
        taken = {v.sym.name for v in self.vars.values() if v.sym is not None} | \
            {v.sym.name for v in self.retired + self.hidden if v.sym is not None} | \
            {s.name for s in self.temps} | self.source_names
        while n in taken:
            k += 1
            n = f"{base}{k}"
        s = ir.Symbol(n, t, "temp")
        self.temps.append(s)
        return s


# the parts of gfortran's array descriptors (see FFront.descriptor_type)
_DESCRIPTOR_DTYPE = ir.Struct(ir.StructDef("adgen_gfc_dtype", [
    ("elem_len", ir.Prim("unsigned long")), ("version", ir.INT),
    ("rank", ir.Prim("signed char")), ("type", ir.Prim("signed char")),
    ("attribute", ir.Prim("short"))]))


def X_const_text(e):
    if isinstance(e, ir.Const):
        return e.text
    raise ValueError("not a constant")


def _kind_value_text(self, kind):
    if str(kind).isdigit():
        return int(kind)
    return self.named_constant_int(str(kind).lower())


def _named_constant_int(self, name):
    """The value of the integer named constant `name` as this scope sees it (its own,
    one it uses, or its host's), or None."""
    scope = self
    while scope is not None:
        v = scope.vars.get(name)
        if v is not None:
            try:
                return int(X_const_text(v.const)) if v.const is not None else None
            except ValueError:
                return None
        scope = getattr(scope, "host", None)
    return None


Scope.kind_value_text = _kind_value_text
Scope.named_constant_int = _named_constant_int


def _list_holding(stmts, st):
    """The statement list, stmts or one nested in it, that holds the statement st."""
    if any(x is st for x in stmts):
        return stmts
    return next((holder for x in stmts for nested in ir.nested_lists(x)
                 for holder in [_list_holding(nested, st)] if holder is not None), None)


def _substitute_stmts(stmts, mapping):
    """Replace, in place, the references to the symbols in mapping by their values."""
    if not mapping:
        return
    for st in ir.stmts_walk(stmts):
        for attr in ("lhs", "rhs", "expr", "test", "value"):
            e = getattr(st, attr, None)
            if isinstance(e, ir.Expr):
                setattr(st, attr, substitute(e, mapping))
