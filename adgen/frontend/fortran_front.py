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
  checkpoint pragma of C, FP-LOOP before a DO loop `#pragma adgen fp_loop`, NOCHECKPOINT
  before a call `#pragma adgen nocheckpoint`, others are ignored with a warning.
"""
import contextlib
import copy
import functools
import math
import os
import re
import subprocess
from dataclasses import dataclass, field, replace
from typing import Optional

from adgen import ir
from adgen.errors import AdgenError, Loc
from adgen.ir import exprs as X
from adgen.ir.exprs import counted_loop
from adgen.frontend import fortran_complex as C
from adgen.frontend import fortran_types as T
from adgen.frontend import jumps

_DO_CONSTRUCTS = ("Block_Nonlabel_Do_Construct", "Block_Label_Do_Construct",
                  "Action_Term_Do_Construct")

# Tapenade's directives: `!$AD NAME ...` (also `C$AD`, `*$AD` in fixed form), any case
_DIRECTIVE = re.compile(r"[!c*]\$ad\b(.*)$", re.IGNORECASE)

FREE_SUFFIXES = (".f90", ".f95", ".f03", ".f08")
CPP_SUFFIXES = (".F", ".F90", ".F95", ".F03", ".F08", ".FOR")


def declared_size(param, func):
    """The declared size of an explicit-shape dummy of func (`x(5)`, `q(n, n)`) as an
    expression over func's parameters, to be evaluated at a call or by a caller; None for
    a scalar, an assumed-size or assumed-shape array, or bounds read from elsewhere."""
    size = getattr(param, "fortran_extent", None)
    if size is None or not all(r.sym in func.params for r in ir.walk(size)
                               if isinstance(r, ir.Ref)):
        return None
    return size


def _f2003():
    from fparser.two import Fortran2003
    return Fortran2003


@dataclass(eq=False)
class FVar:
    """A Fortran name in scope."""
    name: str
    type: ir.Type                     # element type
    sym: Optional[ir.Symbol] = None
    dims: Optional[list] = None       # [(lower, extent)] as IR expressions; None: scalar
    by_ref: bool = False              # a dummy argument: the symbol is a pointer
    const: Optional[ir.Expr] = None   # a PARAMETER
    common: Optional[ir.Symbol] = None  # the COMMON block struct it lives in
    assumed_shape: bool = False
    # the hidden bounds callers pass: an assumed-shape dummy's extents, the bounds of a
    # host array in an internal procedure (see Scope.host_variable)
    extent_params: list = field(default_factory=list)
    loc: Optional[Loc] = None
    allocated: Optional[ir.Symbol] = None   # an allocatable array's flag (see allocate)
    alias_of: Optional["FVar"] = None  # an associate name: the variable it is part of
    # gfortran's array descriptor: an allocatable module variable or component of a
    # derived type (fortran_types.resolve_component); desc is the descriptor (an lvalue)
    descriptor: bool = False
    desc: Optional[ir.Expr] = None
    type_code: int = 3                # an allocatable module variable's dtype.type
    pointer: bool = False             # a local POINTER (see Scope.declare_pointer)
    pointer_dummy: bool = False       # a POINTER dummy argument (see Scope.pointer_dummy)
    allocatable_dummy: bool = False   # an allocatable dummy (see Scope.allocatable_dummy)
    host_allocatable: bool = False    # a host's allocatable array in an internal procedure
    # a component reference (fortran_types.resolve_component): the struct it is a member
    # of, and the component
    parent: Optional[ir.Expr] = None
    component: Optional[object] = None
    # `p%w` of a whole array p of structures: subscripts -> the element's component
    # (fortran_types._component_view)
    element_of: Optional[object] = None

    @property
    def rank(self):
        return len(self.dims) if self.dims else 0

    @property
    def allocatable(self):
        """An allocatable array: a local one (its flag), a module variable or component
        (gfortran's descriptor), an allocatable dummy, a host's allocatable array."""
        return bool(self.dims) and not self.pointer_dummy and (
            self.allocated is not None or self.descriptor or self.allocatable_dummy or
            self.host_allocatable)


@dataclass(eq=False)
class _Changes:
    """What a procedure may change: the parameters (their positions) it may assign
    through, the module variables and COMMON block members (their storage, see _storage)
    it may assign, and whether it may change any of those (it calls a procedure that is
    not in the input)."""
    params: set
    globals: set
    all_globals: bool = False


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


class FortranError(AdgenError):
    pass


def read_tree(path, include_dirs=(), defines=()):
    """Parse a Fortran file (preprocessed first when its suffix asks for it)."""
    try:
        from fparser.common.readfortran import FortranFileReader, FortranStringReader
        from fparser.two.parser import ParserFactory
        from fparser.two.utils import FortranSyntaxError
    except ImportError:
        raise AdgenError("Fortran input needs the fparser package (pip install fparser)",
                         Loc(path))
    text = None
    if path.endswith(CPP_SUFFIXES):
        cmd = ["gcc", "-E", "-traditional-cpp", "-x", "c"]
        cmd += [f"-I{d}" for d in include_dirs] + [f"-D{d}" for d in defines]
        from adgen.frontend.preprocess import as_path_argument
        proc = subprocess.run(cmd + [as_path_argument(path)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise AdgenError(f"preprocessing failed: {proc.stderr.strip()[:200]}", Loc(path))
        text = _on_source_lines(proc.stdout, path)
    free = path.lower().endswith(FREE_SUFFIXES + tuple(x.lower() for x in CPP_SUFFIXES[1:]))
    if text is None and not free:
        text = _read_source(path)
    if text is not None and not free:
        text = _fixed_form_statements(text)
    try:
        if text is None:
            reader = FortranFileReader(path, ignore_comments=False)
        else:
            reader = FortranStringReader(text, ignore_comments=False)
            reader.set_format(_format(free))
        parser = ParserFactory().create(std="f2008")
        with _fparser_errors(path):
            tree = parser(reader)
    except FortranSyntaxError as exc:
        m = re.search(r"line #?(\d+)", str(exc))
        line = int(m.group(1)) if m else 0
        msg = str(exc).strip().splitlines()[-1] if str(exc).strip() else "syntax error"
        raise AdgenError(f"Fortran syntax error: {msg}", Loc(path, line, 1))
    except AdgenError:
        raise
    except Exception as exc:  # fparser raises assorted errors on malformed input
        raise _gfortran_syntax_error(path, include_dirs, defines) or \
            AdgenError(f"cannot parse Fortran: {type(exc).__name__}: {exc}", Loc(path))
    if tree is None:
        raise AdgenError("empty or unparsable Fortran source", Loc(path))
    T.replace_data_refs(tree)
    return tree


def _gfortran_syntax_error(path, include_dirs, defines):
    """fparser failed with no position: ask gfortran (when there is one) where the first
    error is; None when it cannot tell (a missing module file is not a syntax error)."""
    import shutil
    import tempfile
    if shutil.which("gfortran") is None:
        return None
    cmd = ["gfortran", "-fsyntax-only"] + (["-cpp"] if path.endswith(CPP_SUFFIXES) else [])
    cmd += [f"-I{d}" for d in include_dirs] + [f"-D{d}" for d in defines]
    with tempfile.TemporaryDirectory() as scratch:      # (for the .mod files it writes)
        try:
            proc = subprocess.run(cmd + ["-J", scratch, os.path.abspath(path)],
                                  capture_output=True, text=True, errors="replace",
                                  cwd=scratch, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return None
    # gfortran: "FILE:LINE:COL:", the line quoted, then "Error: MESSAGE"
    where = None
    for line in proc.stderr.splitlines():
        m = re.match(r"^(.*?):(\d+):(\d+):$", line)
        if m:
            where = (int(m.group(2)), int(m.group(3)))
        elif line.startswith("Error: ") and where is not None:
            why = re.sub(r"\s*at \(\d\)", "", line[7:])  # (gfortran's marks under the line)
            return AdgenError(f"syntax error: {why}", Loc(path, *where))
    return None


@contextlib.contextmanager
def _fparser_errors(path):
    """fparser reports some syntax errors (a mismatched END name, say) by logging them and
    calling sys.exit: those become an error at the line the log names."""
    import logging
    messages = []

    class Keep(logging.Handler):
        def emit(self, record):
            messages.append(record.getMessage())

    log = logging.getLogger("fparser.common.readfortran")
    keep = Keep(logging.ERROR)
    log.addHandler(keep)
    try:
        yield
    except SystemExit:
        text = messages[-1] if messages else ""
        # (the log quotes the lines around the error, the last one `  13:... <== why`)
        m = re.search(r"^\s*(\d+):.*<==\s*(.*)$", text, re.M)
        line, why = (int(m.group(1)), m.group(2)) if m else (0, "syntax error")
        why = re.sub(r"\s*Ignoring\.$", "", why.strip())
        raise AdgenError(f"Fortran syntax error: {why}", Loc(path, line, 1))
    finally:
        log.removeHandler(keep)


def _on_source_lines(text, path):
    """The preprocessor's output with its line markers (`# 12 "model.F90"`) followed: each
    line of the file itself back on its own line number, so that messages name it (lines
    from included files stay where they come, and may shift the lines after them)."""
    out, main = [], True
    for line in text.splitlines():
        m = re.match(r'#\s*(\d+)\s+"(.*?)"', line)
        if m:
            main = os.path.abspath(m.group(2)) == os.path.abspath(path)
            if main:
                out += [""] * max(0, int(m.group(1)) - 1 - len(out))
            continue
        if main or line.strip():
            out.append(line)
    return "\n".join(out) + "\n"


def _format(free):
    from fparser.common.sourceinfo import FortranFormat
    return FortranFormat(free, False)


def _read_source(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError as exc:
        raise AdgenError(f"cannot read: {exc.strerror}", Loc(path))


def _fixed_form_statements(text):
    """Fixed-form source as the standard (and gfortran by default) reads it: the columns
    after 72 are ignored (a card's sequence number), and a 0 in column 6 marks an initial
    line, as a blank does. Comment lines and lines in tab format are left as they are."""
    out = []
    for line in text.splitlines():
        first = len(line) - len(line.lstrip())
        comment = not line.strip() or line[0] in "cC*!" or \
            line.lstrip().startswith("!") and first != 5
        if not comment and "\t" not in line[:6]:
            line = line[:72]
            if len(line) >= 6 and line[5] == "0":
                line = line[:5] + " " + line[6:]
        out.append(line)
    return "\n".join(out) + "\n"


def parse_fortran_files(paths, options=None):
    """Parse several Fortran files into one ir.Program (modules may be used across
    files)."""
    inc = getattr(options, "include_dirs", ()) if options is not None else ()
    dfn = getattr(options, "defines", ()) if options is not None else ()
    trees = [(p, read_tree(p, inc, dfn)) for p in paths]
    front = FFront()
    # modules first, in dependency order, so `use` finds them
    front.collect_modules(trees)
    front.external_signatures(trees)
    for path, tree in trees:
        front.program_units(path, tree)
    front.settle()
    return front.program()


def parse_fortran_file(path, options=None):
    return parse_fortran_files([path], options)


# ------------------------------------------------------------------ the front end

def _name(node):
    return str(node).lower()


def _line(node, depth=0):
    item = getattr(node, "item", None)
    if item is not None and getattr(item, "span", None):
        return item.span[0]
    if depth < 3:
        for c in getattr(node, "children", None) or []:
            if c is not None and not isinstance(c, str):
                line = _line(c, depth + 1)
                if line:
                    return line
    return 0


_INTRINSIC_MATH = {"sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos",
                   "atan", "sinh", "cosh", "tanh", "erf", "erfc", "gamma", "log_gamma",
                   "asinh", "acosh", "atanh", "dasinh", "dacosh", "datanh"}

# Names a Fortran local may have that its C variable cannot: C's keywords, and the
# library functions the generated code calls (a local would hide them)
_C_RESERVED = set("""auto break case char const continue default do double else enum extern
    float for goto if inline int long register restrict return short signed sizeof static
    struct switch typedef union unsigned void volatile while _Bool _Complex _Imaginary
    abs fabs pow sqrt exp log log10 sin cos tan asin acos atan atan2 sinh cosh tanh erf
    erfc tgamma lgamma floor ceil trunc round lround fmod fmin fmax copysign memset memcpy
    memmove memcmp malloc calloc realloc free abort exit printf fprintf size_t""".split())


def _c_field_names(names):
    """The C field names of a COMMON block's members: their names, but for one named like a
    C keyword or a library function, which gets a trailing underscore (unique)."""
    out = []
    for n in names:
        c = n
        while c in _C_RESERVED or c in out or c != n and c in names:
            c += "_"
        out.append(c)
    return out


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
        self.summaries = {}       # procedure name -> _Changes: what it may change
        self.derived_types = {}   # struct tag -> T.DerivedType

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
            self.define_struct(_DESCRIPTOR_DIM.sdef)
        fields = [("base_addr", ir.Ptr(t)), ("offset", ir.Prim("unsigned long")),
                  ("dtype", _DESCRIPTOR_DTYPE), ("span", ir.LONG),
                  ("dim", ir.Arr(_DESCRIPTOR_DIM, ir.Const(str(rank), ir.INT)))]
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
                return ir.Cast(ir.INT, _descriptor_field(desc, "dim", k, which))
            extent = X.add(X.sub(bound("ubound"), bound("lower_bound")), _int(1))
            # no elements when the upper bound is below the lower (as gfortran keeps them)
            out.append((bound("lower_bound"), _at_least_zero(extent)))
        return out

    def define_struct(self, sdef):
        """sdef, its definition written in the output."""
        from adgen.ir.c_text import struct_definition
        self.type_text.append(struct_definition(sdef))
        return sdef

    def program(self):
        prog = ir.Program(self.functions, self.globals, self.type_text, [], self.pragmas,
                          language="fortran")
        prog.warnings = self.warnings
        prog.warning_procs = self.warning_procs
        return prog

    def settle(self):
        """What each procedure may change (the parameters it may assign through, whether
        it may change globals), by a fixed point over the calls, then each procedure's
        Scope.settle, which needs it."""
        self.summaries = {scope.func.name: _Changes(set(), set()) for scope in self.unsettled}
        changed = True
        while changed:
            changed = False
            for scope in self.unsettled:
                written, all_globals = scope.changes(scope.func.body.stmts)
                summary = self.summaries[scope.func.name]
                params = {k for k, p in enumerate(scope.func.params) if p in written}
                globals_ = set(filter(_is_global_storage, written))
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
        text = f"{loc.file}:{loc.line}: warning: {msg}"
        if text not in self.warnings:       # declarations are read once more for signatures
            self.warnings.append(text)
        if proc is not None:
            self.warning_procs[text] = proc.name

    # ---------------------------------------------------------------- modules
    def collect_modules(self, trees):
        F = _f2003()
        pending = []
        for path, tree in trees:
            for unit in tree.children:
                if isinstance(unit, F.Module):
                    pending.append((path, unit))
        done = set()
        for _ in range(len(pending) + 1):
            progress = False
            for path, unit in pending:
                name = _name(unit.children[0].items[1])
                if name in done:
                    continue
                needs = [_name(u.items[2]) for u in _walk_type(unit, F.Use_Stmt)]
                if all(n in done or n not in {_name(u.children[0].items[1])
                                               for _, u in pending} for n in needs):
                    self.module(path, unit)
                    done.add(name)
                    progress = True
            if not progress:
                break
        for path, unit in pending:
            name = _name(unit.children[0].items[1])
            if name not in done:
                # (gfortran cannot compile such modules either: each needs the other's .mod)
                use = next(u for u in _walk_type(unit, F.Use_Stmt)
                           if _name(u.items[2]) not in done and
                           any(_name(m.children[0].items[1]) == _name(u.items[2])
                               for _, m in pending))
                raise AdgenError(f"module '{name}' uses '{_name(use.items[2])}', which "
                                 "cannot be read before it: modules that use each other in "
                                 "a circle", Loc(path, _line(use) or 0, 1))
        self.module_done = done

    def module(self, path, unit):
        F = _f2003()
        name = _name(unit.children[0].items[1])
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
        # procedures: signatures now, bodies after (they may call each other)
        subs = [c for part in unit.children if isinstance(part, F.Module_Subprogram_Part)
                for c in part.children
                if isinstance(c, (F.Subroutine_Subprogram, F.Function_Subprogram))]
        mod.pending = [(path, s) for s in subs]
        for path_, s in mod.pending:
            f = self.procedure(path_, s, mod, signature_only=True)
            mod.procs[f.name] = f

    # -------------------------------------------------------------- program units
    def external_signatures(self, trees):
        """The signatures of the external procedures, before any body is read: a call
        needs to know its callee's assumed-shape dummies (it passes their extents)."""
        F = _f2003()
        for path, tree in trees:
            for unit in tree.children:
                if isinstance(unit, (F.Subroutine_Subprogram, F.Function_Subprogram)):
                    try:
                        self.procedure(path, unit, None, signature_only=True)
                    except AdgenError:
                        pass        # reported if the procedure is used (see procedure)

    def program_units(self, path, tree):
        F = _f2003()
        for unit in tree.children:
            if isinstance(unit, F.Module):
                mod = self.modules[_name(unit.children[0].items[1])]
                for p, s in mod.pending:
                    self.procedure(p, s, mod)
            elif isinstance(unit, (F.Subroutine_Subprogram, F.Function_Subprogram)):
                self.procedure(path, unit, None)
            elif isinstance(unit, F.Main_Program):
                continue
            elif isinstance(unit, F.Comment):
                continue

    def procedure(self, path, unit, module, signature_only=False):
        stmt = _head_stmt(unit)
        name = _name(stmt.items[1])
        link = f"__{module.name}_MOD_{name}" if module is not None else name + "_"
        existing = self.functions.get(name)
        if signature_only or existing is None or not getattr(existing, "built", False):
            f = existing if existing is not None else ir.Function(
                name, ir.VOID, [], ir.Block([]), loc=Loc(path, _line(stmt), 1))
            f.is_library = False
            f.link_name = link
            self.functions[name] = f
        else:
            f = existing
        scope = Scope(self, path, f, module=module)
        try:
            scope.build(unit, signature_only)
        except AdgenError as exc:
            if signature_only:
                raise
            f.error = exc
        f.has_body = True
        if not signature_only:
            f.built = True
        return f


def _head_stmt(unit):
    """The SUBROUTINE or FUNCTION statement of a subprogram (comments may come first)."""
    F = _f2003()
    for c in unit.children:
        if isinstance(c, (F.Subroutine_Stmt, F.Function_Stmt)):
            return c
    return unit.children[0]


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


# Fortran's other intrinsic subroutines (not procedures of the input, whose sources it
# would lack): refused by name
_INTRINSIC_SUBROUTINES = {"move_alloc", "random_number", "random_seed", "date_and_time",
                          "get_command_argument", "get_command", "get_environment_variable",
                          "execute_command_line", "mvbits", "random_init"}

# The intrinsic subroutines that read clocks, and their dummies (see Scope.timer_call)
_TIMERS = {"cpu_time": ("time",), "system_clock": ("count", "count_rate", "count_max")}


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


# Fortran's relational and logical operators in C
_C_OPERATORS = {".LT.": "<", ".LE.": "<=", ".GT.": ">", ".GE.": ">=", ".EQ.": "==",
                ".NE.": "!=", "/=": "!=", ".AND.": "&&", ".OR.": "||", ".EQV.": "==",
                ".NEQV.": "!="}


def _call_arguments(node):
    """The actual arguments of a CALL statement or a procedure reference ([] for none)."""
    return node.items[1].items if node.items[1] is not None else []


def _char_literal(node):
    """The characters of a CHARACTER literal ('it''s' is it's)."""
    text = node.items[0]
    quote = text[0]
    return text[1:-1].replace(quote + quote, quote)


def _intent_out(attrs):
    """Whether a type declaration's attributes (or None) hold INTENT(OUT)."""
    return attrs is not None and any(str(a).upper().replace(" ", "") == "INTENT(OUT)"
                                     for a in attrs.items)


def _string_constant(text, loc):
    """(C string literal, length) of a CHARACTER constant."""
    return ir.Const(_c_string(text), ir.Ptr(ir.Prim("char")), loc), _int(len(text))


def _c_string(text):
    """A C string literal of text."""
    out = []
    for ch in text:
        if ch in '\\"':
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.extend(f"\\{b:03o}" for b in ch.encode())
    return '"' + "".join(out) + '"'


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
    return "{" + ", ".join(values.get(k, "0") for k in range(_constant_size(v))) + "}"


def _result_name(stmt):
    """The name of the result variable of a FUNCTION statement."""
    F = _f2003()
    names = _walk_type(stmt.items[3], F.Name) if stmt.items[3] is not None else []
    return _name(names[-1]) if names else _name(stmt.items[1])


def _returns_array(unit):
    """Whether a function (or an interface body of one) returns an array."""
    F = _f2003()
    if not isinstance(unit, (F.Function_Subprogram, F.Function_Body)):
        return False
    spec = next((c for c in unit.children if isinstance(c, F.Specification_Part)), None)
    return spec is not None and _declares_array(spec, _result_name(_head_stmt(unit)))


def _declares_allocatable(spec, name):
    """Whether the specification part declares `name` ALLOCATABLE."""
    F = _f2003()
    for part in spec.children if spec is not None else ():
        for decl in _walk_type(part, F.Type_Declaration_Stmt):
            if decl.items[1] is not None and \
                    any(str(a).upper() == "ALLOCATABLE" for a in decl.items[1].items) and \
                    any(_name(ent.items[0]) == name for ent in decl.items[2].items):
                return True
        for st in _walk_type(part, F.Allocatable_Stmt):
            if any(_name(n) == name for n in _walk_type(st, F.Name)):
                return True
    return False


def _declares_array(spec, name):
    """Whether the specification part declares `name` an array."""
    F = _f2003()
    for part in spec.children:
        if isinstance(part, F.Interface_Block):
            continue
        for decl in _walk_type(part, F.Type_Declaration_Stmt):
            for ent in decl.items[2].items:
                if _name(ent.items[0]) == name and (ent.items[1] is not None or (
                        decl.items[1] is not None and any(
                            isinstance(a, F.Dimension_Attr_Spec) for a in decl.items[1].items))):
                    return True
        for dim in _walk_type(part, F.Dimension_Stmt):
            if any(_name(n) == name for n, _ in dim.items[0]):
                return True
    return False


def _dummy_names(stmt):
    """The dummy argument names of a SUBROUTINE or FUNCTION statement."""
    return [_name(a) for a in (stmt.items[2].items if stmt.items[2] is not None else [])]


def _walk_type(node, cls):
    from fparser.two.utils import walk
    return [n for n in walk(node) if isinstance(n, cls)]


# Statements whose names are no variables of the unit: other units' (interface bodies,
# modules, external and intrinsic procedures), COMMON members (declared by the statement)
_NO_VARIABLES = ("Interface_Block", "Use_Stmt", "External_Stmt", "Intrinsic_Stmt",
                 "Procedure_Declaration_Stmt",
                 "Common_Stmt", "Implicit_Stmt", "Format_Stmt", "Internal_Subprogram_Part")
# What fparser makes of a function reference, besides a Part_Ref, when it does not know
# the name to be a function's
_CALL_NODES = ("Function_Reference", "Structure_Constructor")
# the reductions that take a DIM and give an array of the other dimensions
_ALONG = ("sum", "product", "maxval", "minval", "norm2")
# Intrinsics whose array result has another shape than their array argument
_SHAPE_CHANGING = {"transpose", "reshape", "pack", "unpack", "spread", "matmul"}
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
    F = _f2003()
    out = {}

    def look(n):
        cls = type(n).__name__
        if cls in _NO_VARIABLES:
            return False
        if T.is_component_name(n):
            return True         # the variable it starts from, the subscripts on the way
        if isinstance(n, F.Name):
            out.setdefault(_name(n), n)
            return False
        skip = 1 if cls.startswith("End_") and cls.endswith("_Stmt") else _NAME_ITEM.get(cls)
        items = getattr(n, "items", None)
        if skip is not None and items is not None and len(items) > skip and \
                isinstance(items[skip], F.Name):
            _visit([c for k, c in enumerate(items) if k != skip], look)
            return False
        return True

    _visit([p for p in parts if p is not None], look)
    return out


def _label(node):
    """The statement label of a statement or construct (that of its first statement)."""
    F = _f2003()
    if type(node).__name__.endswith("_Construct"):
        node = next((c for c in node.children if not isinstance(c, F.Comment)), None)
    item = getattr(node, "item", None)
    return getattr(item, "label", None)


def _goto_labels(node):
    """The labels the GOTO statements inside a statement jump to (computed GOTO and
    arithmetic IF included)."""
    F = _f2003()
    if not node:
        return set()
    out = {int(str(g.items[0])) for g in _walk_type(node, F.Goto_Stmt)}
    out |= {int(str(lab)) for g in _walk_type(node, F.Computed_Goto_Stmt)
            for lab in g.items[0].items}
    out |= {int(str(lab)) for g in _walk_type(node, F.Arithmetic_If_Stmt)
            for lab in g.items[1:]}
    return out


def _do_label(stmt):
    """The label a labelled DO statement (`do 40 i = 1, n`) ends on, or None."""
    F = _f2003()
    return next((int(str(item)) for item in stmt.items if isinstance(item, F.Label)), None)


def _construct_name(stmt):
    """The name of a DO construct (`outer: do i = 1, n`), or None."""
    name = stmt.get_start_name() if hasattr(stmt, "get_start_name") else None
    return name.lower() if name else None


class Scope:
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
        self.procedure_decls = {}     # name -> the interface PROCEDURE(...) names
        self.dummy_procs = {}         # dummy procedure name -> its stand-in (dummy_procedure)
        self.entry_values = {}        # placeholders of array bounds (see entry_bound)
        self.entry_assumptions = []   # ([placeholder], error if one may change)
        self.temp_arrays = []         # [(symbol, [(extent, whole extent)], loc)]
        self.temps = []
        self.allocatables = []        # local allocatable arrays (see declare_allocatable)
        # local structures with allocatable components (see struct_with_allocatables)
        self.allocatable_structs = []
        # variables of a type with default initialization (see default_initializations)
        self.initialized_structs = []
        self.intent_out_names = set()     # dummies declared INTENT(OUT)
        self.class_names = set()          # variables declared CLASS(t)
        self.allocatable_bounds = set()   # the locals holding their bounds
        self.heap_temps = []          # [(symbol, size)] of the statement being lowered
                                      # (size None: allocated by the statement itself)
        self.pack_masks = {}          # id(pack reference) -> what packed gives
        self.tests = 0                # > 0 while lowering a test or a bound (expr_before)
        self.loop_ends = []           # [(For, name of its end's temporary)] (see settle)
        self.binomial_ckp = None      # a BINOMIAL-CKP directive waiting for its DO loop
        self.kept_loops = 0           # BINOMIAL-CKP and FP-LOOP loops around the statement
        self.nocheckpoint = False     # a NOCHECKPOINT directive waiting for its call
        self.fp_loop = None           # the location of an FP-LOOP waiting for its loop
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
        line = _line(node) or _line(getattr(self, "current", None)) or \
            (self.func.loc.line if self.func is not None and self.func.loc else 0)
        return Loc(self.path, line, 1)

    def error(self, node, msg):
        return AdgenError(msg, self.loc(node))

    # ------------------------------------------------------------- declarations
    def build(self, unit, signature_only):
        F = _f2003()
        stmt = _head_stmt(unit)
        # temporaries avoid every name of the source, also those of variables declared
        # implicitly further down, which become locals only when they are met
        self.source_names = {_name(n) for n in _walk_type(unit, F.Name)}
        self.unit = unit
        dummies = _dummy_names(stmt)
        is_function = isinstance(unit, (F.Function_Subprogram, F.Function_Body))
        result_name = _result_name(stmt) if is_function else None
        self.dummies = dummies
        self.func.dummy_names = dummies        # calls match keyword arguments by them
        self.result_name = result_name if is_function else None   # never SAVEd
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
        array_result = _returns_array(unit)
        allocatable_result = array_result and _declares_allocatable(spec, result_name)
        if array_result and not allocatable_result:
            self.dummies = dummies + [result_name]
        if spec is not None:
            self.specification(spec)
        for name in getattr(self, "host_seed", ()):     # see internal_procedures
            if name not in self.vars:
                self.host_variable(name, stmt)
        for d in dummies:
            self.dummy_procedure(d, stmt)       # (before the internal procedures)
        prefix_type = None
        if is_function and stmt.items[0] is not None:
            # after the declarations: `real(wp) function g(v)` may take wp from a USE
            # statement of its own
            for p in _walk_type(stmt.items[0], (F.Intrinsic_Type_Spec,
                                                F.Declaration_Type_Spec)):
                prefix_type = self.type_spec(p)
        if array_result:
            if prefix_type is not None:
                raise self.error(stmt, f"the function '{self.func.name}' returns an array "
                                       "and has its type before FUNCTION: not supported "
                                       "(declare the type with the result's dimensions)")
            self.func.ret = ir.VOID
            self.func.array_result = True
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
            v.by_ref = True
            if v.sym is None or v.sym.kind != "param":
                v.sym = self.dummy_symbol(d, v.type, v.loc or self.loc(stmt))
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
                if v.assumed_shape:
                    raise AdgenError(f"OPTIONAL assumed-shape dummy argument '{d}' is not "
                                     "supported (give it an explicit shape)",
                                     v.loc or self.loc(stmt))
                v.sym.optional = True       # the pointer may be null
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
        if extent_params or array_result or self.class_names & set(self.dummies):
            # The compiled procedure takes (or returns) array descriptors, or CLASS dummies
            # in class containers, not this lowering: the generated code calls its own
            # copy of it.
            self.func.is_static = True
            self.func.link_name = None
        if signature_only:
            return
        body = []
        if exec_part is not None:
            self.goto_targets = _goto_labels(exec_part)
            # the arrays the procedure ALLOCATEs: it manages their shapes (see assignment)
            self.allocate_stmt_names = {
                _name(n) for st in _walk_type(exec_part, _f2003().Allocate_Stmt)
                for n in _walk_type(st.items[1], _f2003().Name)}
            self.end_label = _label(unit.children[-1])
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
            self.default_initializations(self.initialized_structs)
        if is_function and not array_result:
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
                    v.sym.init_text = "{" + ", ".join([one] * _constant_size(v)) + "}" \
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
        F = _f2003()
        if isinstance(node, F.Where_Construct):     # (its statements are its content)
            out = copy.copy(node)
            out.content = [self.component_elements(c) for c in node.content]
            return out
        found = {}
        for ref in _walk_nodes(node):
            if isinstance(ref, F.Part_Ref) and T.is_component_name(ref.items[0]):
                name = T.subscripted_view(self, ref)
                if name is not None:
                    found[id(ref)] = name
        return _replace_nodes(node, found) if found else node

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
        for v in self.allocatables:
            out += self.deallocate(v, loc, only_if_allocated=True)
        return out + self.release_components(self.allocatable_structs, loc)

    def settle(self):
        """What needs to know what the procedures of the program may change, once their
        bodies are lowered: the DO loops whose end must be read before the loop (see
        counted_loop), the array bounds whose value on entry must be kept (see
        entry_bound), the sizes of temporary arrays (see temp_array)."""
        body = self.func.body.stmts
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
            sym.type = ir.Arr(sym.type.elem, _temp_size(
                extents, lambda e: self.size_dependency(e, changes), loc))
        self.temps = [t for t in self.temps if t not in restored]
        _substitute_stmts(body, restored)
        body[:0] = assigned
        self.func.locals = [v.sym for v in list(self.vars.values()) + self.retired
                            if v.sym is not None and v.sym.kind == "local" and
                            getattr(v, "declared_here", True) and v.common is None]
        self.func.locals += self.temps

    def specification(self, spec, module_level=False):
        F = _f2003()
        if not module_level:
            # SAVE may follow the declarations it is about
            for node in spec.children:
                if isinstance(node, F.Save_Stmt):
                    if node.items[1] is None:
                        self.save_all = True
                    else:
                        self.saved_names |= {_name(n) for n in node.items[1].items
                                             if isinstance(n, F.Name)}
                elif type(node).__name__ == "Data_Stmt":
                    # a variable DATA gives a value is SAVEd
                    self.saved_names |= {_base_name(o) for o in _data_objects(node)}
        data = {}       # variable -> {element number: C value}, from DATA statements
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
                self.common_stmt(node)
            elif isinstance(node, F.Dimension_Stmt):
                self.dimension_stmt(node)
            elif isinstance(node, F.External_Stmt):
                self.external_names |= {_name(n) for n in _walk_type(node, F.Name)}
            elif isinstance(node, F.Intent_Stmt):
                names = {_name(n) for n in _walk_type(node.items[1], F.Name)}
                if str(node.items[0]).upper() == "IN":
                    self.intent_in_names |= names
                elif str(node.items[0]).upper() == "OUT":
                    self.intent_out_names |= names
            elif isinstance(node, (F.Save_Stmt, F.Intrinsic_Stmt)):
                continue
            elif isinstance(node, F.Interface_Block):
                # the dummy names keyword arguments refer to; the bodies give the
                # signatures of dummy procedures (dummy_procedure); a generic interface
                # names its specific procedures (see specific_procedure)
                head = node.children[0]
                generic = _name(head.items[0]) if isinstance(head.items[0], F.Name) else None
                if "ASSIGNMENT" in str(head.items[0]).upper().replace(" ", ""):
                    # every `=` of that type would have to call it
                    raise self.error(node, "defined assignment (`interface assignment(=)`) "
                                           "is not supported")
                if generic is not None:
                    self.generics.setdefault(generic, [])
                for body in node.children:
                    if generic is not None and type(body).__name__ == "Procedure_Stmt":
                        self.generics[generic] += [_name(n) for n in
                                                   _walk_type(body.items[0], F.Name)]
                    elif generic is not None and \
                            type(body).__name__ in ("Subroutine_Body", "Function_Body"):
                        self.generics[generic].append(_name(_head_stmt(body).items[1]))
                    if type(body).__name__ in ("Subroutine_Body", "Function_Body"):
                        stmt = _head_stmt(body)
                        self.interfaces[_name(stmt.items[1])] = _dummy_names(stmt)
                        self.interface_bodies[_name(stmt.items[1])] = body
            elif type(node).__name__ == "Procedure_Declaration_Stmt":
                self.procedure_declaration(node)
            elif type(node).__name__ == "Optional_Stmt":
                for n in _walk_type(node, F.Name):
                    self.optional_dummy(_name(n), node)
            elif type(node).__name__ == "Derived_Type_Def":
                dt = T.derived_type_def(self, node, module_level)
                self.types[dt.name] = dt
            elif type(node).__name__ == "Data_Stmt":
                if not module_level:    # (a module's: in the compiled module's object)
                    self.data_statement(node, data)
            elif type(node).__name__ == "Access_Stmt":
                continue
            elif type(node).__name__ == "Equivalence_Stmt":
                raise self.error(node, "EQUIVALENCE is not supported")
            else:
                raise self.error(node, f"unsupported declaration ({type(node).__name__})")
        if module_level:
            self.no_waiting_directive(None)
        for v, values in data.items():
            v.sym.init_text = _c_initializer(v, values)

    def implicit_stmt(self, node):
        F = _f2003()
        if str(node).upper().replace(" ", "").endswith("NONE"):
            self.implicit_none = True
            return
        for spec in _walk_type(node, F.Implicit_Spec):
            tspec = spec.items[0]
            kind = self.type_spec(tspec) if isinstance(tspec, F.Intrinsic_Type_Spec) else None
            text = str(spec.items[1]).lower()
            for lo, hi in re.findall(r"([a-z])\s*(?:-\s*([a-z]))?", text):
                hi = hi or lo
                for c in range(ord(lo), ord(hi) + 1):
                    self.implicit[chr(c)] = ("type", kind)

    def use_stmt(self, node):
        F = _f2003()
        mname = _name(node.items[2])
        mod = self.front.modules.get(mname)
        if mod is None and mname not in _INTRINSIC_MODULES:
            raise self.error(node, f"module '{mname}' not found (give its source file too)")
        only = node.items[3] and "ONLY" in str(node.items[3]).upper()
        renames = {}
        names = None
        if node.items[4] is not None:
            names = []
            for item in node.items[4].items if hasattr(node.items[4], "items") else []:
                if isinstance(item, F.Rename):
                    local, remote = _name(item.items[1]), _name(item.items[2])
                    renames[remote] = local
                    names.append(remote)
                else:
                    names.append(_name(item))
        if mod is None:
            # iso_fortran_env, iso_c_binding: their named constants (kinds, units)
            constants = _INTRINSIC_MODULES[mname]
            for vname in (names if only else constants):
                if vname not in constants:
                    raise self.error(node, f"'{vname}' of the intrinsic module '{mname}' is "
                                           "not supported (its kind constants are)")
                local = renames.get(vname, vname)
                self.vars[local] = FVar(local, ir.INT, const=_int(constants[vname]),
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
        F = _f2003()
        if isinstance(tspec, F.Declaration_Type_Spec):
            if not isinstance(tspec.items[1], (F.Type_Name, F.Name)):
                raise self.error(tspec, f"{tspec} is not supported")
            tname = _name(tspec.items[1])
            # CLASS(t): without type extension (refused), an object of type t
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
        F = _f2003()
        t = self.type_spec(node.items[0])
        if str(node.items[0]).upper().startswith("CLASS"):
            # gfortran passes such a dummy in a class container (see select_heads)
            self.class_names |= {_name(e.items[0]) for e in node.items[2].items}
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
                elif s.replace(" ", "") == "INTENT(IN)":
                    self.intent_in_names |= {_name(e.items[0]) for e in node.items[2].items}
                elif s.replace(" ", "") == "INTENT(OUT)":
                    self.intent_out_names |= {_name(e.items[0]) for e in node.items[2].items}
                elif s == "SAVE":
                    saved = True
                elif s == "EXTERNAL":
                    # a function: its result type (dummy_procedure, function_call)
                    self.external_names |= {_name(e.items[0]) for e in node.items[2].items}
        for ent in node.items[2].items:
            name = _name(ent.items[0])
            edims = ent.items[1] if ent.items[1] is not None else dims
            init = ent.items[3] if len(ent.items) > 3 else None
            if optional:
                self.optional_dummy(name, node)
            if isinstance(t, ir.Prim) and t.name == "char":
                self.declare_string(name, self.char_length(node.items[0], ent, node), edims,
                                    node, is_param, init, module_level, saved)
                continue
            local_struct = False
            if T.derived_type_of(t) is not None and T.derived_type_of(t).allocatable_paths():
                local_struct = self.struct_with_allocatables(
                    name, t, edims, node, attrs, module_level, allocatable or pointer,
                    saved or init is not None)
            if pointer and name in self.dummies and not module_level:
                self.pointer_dummy(name, t, edims, node, attrs)
            elif pointer:
                self.declare_pointer(name, t, edims, node, module_level)
            elif allocatable:
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
            if _intent_out(attrs):
                raise self.error(node, f"the INTENT(OUT) dummy argument {what}, is not "
                                       "supported (Fortran deallocates its components on "
                                       "entry): make it INTENT(INOUT)")
            return False
        if name == self.result_name:
            raise self.error(node, f"the function result {what}, is not supported (make "
                                   "the function a subroutine with an INTENT(INOUT) argument)")
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
        F = _f2003()
        iface = node.items[0]
        if node.items[1] is not None or not isinstance(iface, F.Name):
            raise self.error(node, f"'{node}': only `procedure(interface) :: dummy` is "
                                   "supported")
        for n in _walk_type(node.items[2], F.Name):
            self.procedure_decls[_name(n)] = _name(iface)

    def dummy_procedure(self, name, node):
        """The stand-in of dummy argument `name` if it is a procedure (an interface block
        of that name, PROCEDURE(iface) or EXTERNAL), in dummy_procs. Its signature is the
        interface's (an EXTERNAL one's comes from its first call, see user_call); calls
        of the stand-in go `through` the parameter, and transform/callbacks.py gives each
        call passing a procedure a copy calling that procedure."""
        body, like = self.interface_bodies.get(name), None
        if name in self.procedure_decls:
            iface = self.procedure_decls[name]
            body = self.interface_bodies.get(iface)
            # `procedure(decay) :: f`: the interface of a procedure
            like = self.known_procedure(iface) if body is None else None
            if body is None and (like is None or not like.has_body):
                raise self.error(node, f"no interface '{iface}' for the dummy procedure "
                                       f"'{name}'")
        elif body is None and name not in self.external_names:
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
                         "result_rank"):
                if hasattr(like, attr):
                    setattr(f, attr, getattr(like, attr))
        v = self.vars.pop(name, None)     # `real(8), external :: g`: g's result type
        if v is not None:
            f.ret = v.type
        f.through = ir.Symbol(name if name not in _C_RESERVED else self.unique(name),
                              ir.FuncPtr("procedure", f.ret), "param", loc)
        self.dummy_procs[name] = f

    def optional_dummy(self, name, node):
        """An OPTIONAL dummy argument: a call may leave it out, and then passes a null
        pointer (as gfortran does), which present() tests."""
        if name not in getattr(self, "dummies", []):
            raise self.error(node, f"OPTIONAL '{name}': not a dummy argument")
        self.func.optional_dummies = getattr(self.func, "optional_dummies", set()) | {name}

    def declare_allocatable(self, name, t, spec, node, module_level, attrs=None):
        """A local allocatable array: a pointer that ALLOCATE sets with malloc, DEALLOCATE
        (or the end of the procedure) frees; its bounds are locals that ALLOCATE sets,
        and a flag tells whether it is allocated."""
        if module_level or self.func is None:
            return self.module_allocatable(name, t, spec, node)
        if spec is None:
            raise self.error(node, f"allocatable '{name}' needs its rank: {name}(:)")
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
        self.vars[name] = v
        self.local_names = getattr(self, "local_names", set()) | {name}
        self.allocatables.append(v)

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
        F = _f2003()
        lhs, bounds, target = node.items
        v = self.lookup(_name(lhs), lhs) if isinstance(lhs, F.Name) else None
        if v is not None and v.pointer_dummy:
            raise self.dummy_repointed("pointer assignment to", v, node)
        if v is None or not v.pointer:
            raise self.error(node, f"pointer assignment to '{lhs}': only a local POINTER "
                                   "variable is supported")
        if bounds is not None:
            raise self.error(node, "pointer assignment with bounds is not supported")
        p = ir.Ref(v.sym, loc)
        if isinstance(target, F.Intrinsic_Function_Reference) and \
                _name(target.items[0]) == "null":
            out.append(ir.Assign(p, X.null(v.sym.type, loc), loc))
            return
        w, section = None, None
        if isinstance(target, (F.Name, F.Data_Ref)):
            w = self.lookup(_name(target), target)
        elif isinstance(target, F.Part_Ref):
            w = self.array_var(_name(target.items[0]), target)
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
        if _intent_out(attrs):
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
        if isinstance(t.resolved(), ir.Struct):
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
        if _intent_out(attrs):
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
        v = self.lookup(_name(node), node)
        if v.pointer_dummy:
            raise self.dummy_repointed("ALLOCATE or DEALLOCATE of", v, node)
        if v.allocatable_dummy:
            raise self.error(node, f"ALLOCATE, DEALLOCATE or allocated() of the allocatable "
                                   f"dummy argument '{v.name}' is not supported (allocate it "
                                   "in the caller)")
        if v.descriptor:
            return v        # an allocatable component or module variable (allocate_descriptor)
        if v.pointer:
            return v
        if v.allocated is None:
            raise self.error(node, f"'{v.name}' is not an allocatable array")
        return v

    def status_variable(self, opts, what, node):
        """The variable a STAT= option names (an lvalue), None without options; the other
        options (ERRMSG, SOURCE, MOLD) are refused."""
        if opts is None:
            return None
        stat = None
        for opt in opts.items:
            key = str(opt.items[0]).upper()
            if key != "STAT":
                raise self.error(node, f"{what} with {key} is not supported")
            stat = self.designator(opt.items[1])
        return stat

    def allocate(self, node, out, loc):
        """ALLOCATE(a(l1:u1, ...), ...): the bounds, then the storage. With STAT=s, s is 0
        when every array got its storage, 1 when one did not (which stays unallocated)."""
        stat = self.status_variable(node.items[2], "ALLOCATE", node)
        if stat is not None:
            out.append(ir.Assign(X.clone(stat), _convert(_int(0), stat.type), loc))
        for item in node.items[1].items:
            obj, specs = (item, None) if isinstance(item, _f2003().Name) else item.items
            v = self.allocatable(obj)
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
                lower = _to_int(self.expr(spec.items[0])) if spec.items[0] is not None \
                    else _int(1)
                bounds.append((lower, X.add(X.sub(_to_int(self.expr(spec.items[1])),
                                                  X.clone(lower)), _int(1))))
            size = self.allocate_storage(v, bounds, out, loc)
            if v in self.initialized_structs:
                # its storage default-initialized (none to initialize when malloc failed)
                init = self.initialize_elements(v, size if v.dims else None, loc)
                out += init if stat is None else [ir.If(
                    ir.Binary("!=", ir.Ref(v.sym, loc), _int(0), ir.INT),
                    ir.Block(init, loc), None, loc)]
            if stat is None:
                if not v.pointer:
                    out.append(ir.Assign(ir.Ref(v.allocated, loc), _int(1), loc))
                continue
            # malloc may return NULL for no elements: that is no failure
            failed = ir.Binary("&&", ir.Binary("==", ir.Ref(v.sym, loc), _int(0), ir.INT),
                               ir.Binary(">", X.clone(size), _int(0), ir.INT), ir.INT)
            if not v.pointer:
                out.append(ir.Assign(ir.Ref(v.allocated, loc), ir.Unary("!", failed, ir.INT),
                                     loc))
            out.append(ir.If(X.clone(failed) if v.pointer else
                             ir.Unary("!", ir.Ref(v.allocated, loc), ir.INT),
                             ir.Block([ir.Assign(X.clone(stat), _convert(_int(1), stat.type), loc)],
                                      loc), None, loc))

    def allocate_storage(self, v, bounds, out, loc):
        """Storage for the local allocatable array or POINTER v: its bounds set from
        [(lower, extent)] (an extent below 0 counts as 0), then malloc. Returns the number
        of elements."""
        size = None if bounds else _int(1)
        for (lo, n), (lower, extent) in zip(v.dims or [], bounds):
            out.append(ir.Assign(X.clone(lo), lower, loc))
            out.append(ir.Assign(X.clone(n), _at_least_zero(extent), loc))
            size = X.clone(n) if size is None else X.mul(size, X.clone(n))
        out.append(ir.Assign(ir.Ref(v.sym, loc), _malloc(v.sym.type, size, loc), loc))
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
        F = _f2003()
        key = self.storage_key(v.name)
        moved = [c for c in _walk_nodes(node) if isinstance(c, F.Array_Constructor) or
                 isinstance(c, F.Intrinsic_Function_Reference) and
                 _name(c.items[0]) in _SHAPE_CHANGING]
        moved = {id(n) for c in moved for n in _walk_nodes(c)}
        whole = {id(r) for r in _array_refs(node, self.is_operand)
                 if isinstance(r, F.Name) and id(r) not in moved}
        return any(self.storage_key(_base_name(r)) == key and id(r) not in whole
                   for r in _array_refs(node))

    def whole_allocatable(self, node):
        """The allocatable array a designator names whole (`a`, `s%a`), or None: a local
        allocatable, an allocatable dummy, a host's allocatable array, an allocatable
        module variable or component."""
        F = _f2003()
        if isinstance(node, F.Data_Ref) and isinstance(node.items[-1], F.Name):
            v = T.resolve_component(self, _name(node), node)
        elif isinstance(node, F.Name):
            v = self.lookup(_name(node), node)
        else:
            return None
        return v if v is not None and v.allocatable else None

    def value_extents(self, rhs_node, v, lhs_node, out):
        """The extents of the value of `a = expr` for the allocatable a (v): [] for a
        scalar; an error for an array constructor whose length adgen cannot tell. The
        statements they need (pack's count) go to out."""
        F = _f2003()
        if isinstance(rhs_node, F.Array_Constructor):
            length = self.constructor_length(rhs_node)
            if length is None:
                raise self.error(lhs_node, "cannot tell the length of the array constructor "
                                           f"assigned to the allocatable '{v.name}', which "
                                           "Fortran allocates to that length")
            return [length]
        if _is_pack(rhs_node):
            return [ir.Ref(self.packed(rhs_node, out)[2])]
        return [_count(lo, hi, st) for lo, hi, st in self.expr_shape(rhs_node) or ()]

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
        own = [_count(*d) for d in self.shape_of(lhs_node)]
        differs = [ir.Binary("!=", X.clone(n), X.clone(e), ir.INT)
                   for (_, n), whole, e in zip(v.dims, own, extents)
                   if expr_c(whole) != expr_c(e)]
        if not differs:
            return
        if v.allocated is not None or v.descriptor:
            differs.insert(0, X.logical_not(self.is_allocated(v, lhs_node, loc)))
        message = (f"{os.path.basename(loc.file)}:{loc.line}: error: '{_name(lhs_node)}' "
                   "assigned a value of another shape, or not allocated: Fortran would "
                   "reallocate it, this derivative code does not (allocate it with the "
                   "value's shape first)")
        stop = ir.ExprStmt(ir.Call("adgen_shape_error", [
            ir.Const(_c_string(message), ir.Ptr(ir.Prim("char", True)), loc)], ir.VOID, loc),
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
        F = _f2003()
        extents = self.value_extents(rhs_node, v, lhs_node, out)
        if len(extents) != len(v.dims):
            return rhs_node     # a scalar, assigned to each element (or a rank the
                                # assignment refuses)
        source = self.array_var(_name(rhs_node), rhs_node) \
            if isinstance(rhs_node, F.Name) else None
        lowers = [X.clone(lo) for lo, _ in source.dims] if source is not None else \
            [_int(1)] * len(extents)
        own = [_count(*d) for d in self.shape_of(lhs_node)]
        if [expr_c(e) for e in extents] == [expr_c(e) for e in own]:
            return rhs_node     # its own shape (a value reading it): never reallocated
        if self.reads_otherwise(v, rhs_node):
            rhs_node = self.value_temp(rhs_node, v.type, out)
            extents = [X.clone(n) for _, n in self.array_var(_name(rhs_node), rhs_node).dims]
        differs = X.any_of([ir.Unary("!", ir.Ref(v.allocated, loc), ir.INT)] + [
            ir.Binary("!=", X.clone(n), X.clone(e), ir.INT)
            for (_, n), e in zip(v.dims, extents)])
        body = self.deallocate(v, loc, only_if_allocated=True)
        self.allocate_storage(v, list(zip(lowers, extents)), body, loc)
        body.append(ir.Assign(ir.Ref(v.allocated, loc), _int(1), loc))
        out.append(ir.If(differs, ir.Block(body, loc), None, loc))
        return rhs_node

    def statement_array(self, t, extents, out, loc):
        """A temporary array of type t, lower bounds 1 and these extents (below 0: 0),
        allocated here (in out: its extents may be computed by the statement), freed at
        the end of the statement being lowered (see statement); its extents are read into
        variables here (the statement may change what they read, reallocating an array).
        Its FVar, declared under its name."""
        counts, size = [], None
        for e in extents:
            n = _at_least_zero(e)
            if _const_int(n) is None:
                var = self.temp("extent", ir.INT)
                out.append(ir.Assign(ir.Ref(var, loc), n, loc))
                n = ir.Ref(var, loc)
            counts.append(n)
            size = X.clone(n) if size is None else X.mul(size, X.clone(n))
        sym = self.temp("tmp", ir.Ptr(t))
        sym.statement_temp = True       # allocated and freed in one statement
        out.append(ir.Assign(ir.Ref(sym, loc), _malloc(sym.type, size, loc), loc))
        self.heap_temps.append((sym, None))
        v = FVar(sym.name, t, sym=sym, dims=[(_int(1), n) for n in counts])
        self.vars[sym.name] = v
        return v

    def value_temp(self, node, t, out):
        """A temporary array set (in out) to the value of the array expression node, with
        lower bounds 1; the name that reads it. Its elements have type t."""
        F = _f2003()
        if isinstance(node, F.Array_Constructor):
            return self.constructor_temp(node, node, out)
        if _is_pack(node):
            tmp = self.statement_array(t, [ir.Ref(self.packed(node, out)[2])], out,
                                       self.loc(node))
            self.pack(F.Name(tmp.sym.name), node, out, self.loc(node))
            return F.Name(tmp.sym.name)
        shape = self.expr_shape(node)
        tmp = self.statement_array(t, [_count(*d) for d in shape], out, self.loc(node))
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
        holds = self.statement_array(ir.INT, [_count(*d) for d in shape], out, loc)
        with self.calls_hoisted(mask, out):
            self.elementwise(shape, lambda ks, pre: (
                self.element(holds, ks),
                self.expr(mask, ks if self.operand_shape(mask) else None, pre)), out, loc)
        count = self.temp("count", ir.INT)
        out.append(ir.Assign(ir.Ref(count, loc), _int(0), loc))
        self.elementwise(shape, lambda ks, pre: (ir.Ref(count, loc), ir.Binary(
            "+", ir.Ref(count, loc), ir.Cond(
                self.element(holds, ks), _int(1),
                _int(0), ir.INT), ir.INT)), out, loc)
        self.pack_masks[id(node)] = (source, holds, count)
        return source, holds, count

    def pack(self, lhs_node, node, out, loc):
        """`a = pack(array, mask)`: the elements of array where mask holds, in array
        element order, to a(1), a(2), ..."""
        source, holds, _ = self.packed(node, out)
        pos = self.temp("pos", ir.INT)
        out.append(ir.Assign(ir.Ref(pos), _int(0), loc))
        with self.calls_hoisted(source, out):
            self.elementwise(
                self.operand_shape(source), lambda ks, pre: (
                    self.designator(lhs_node, [ir.Ref(pos)], pre),
                    self.expr(source, ks, pre)), out, loc,
                mask=lambda ks: self.element(holds, ks), after=[_increment(pos, loc)])

    def constructor_length(self, ctor):
        """The number of elements of an array constructor of scalar items and implied-DO
        lists of them, as an expression; None for other constructors."""
        F = _f2003()
        items = ctor.items[1]
        items = items.items if type(items).__name__ == "Ac_Value_List" else [items]
        total = None
        for it in items:
            if isinstance(it, F.Ac_Implied_Do):
                values, control = _implied_values(it), it.items[1]
                if any(isinstance(x, F.Ac_Implied_Do) or self.operand_shape(x)
                       for x in values):
                    return None
                v = self.lookup(_name(control.items[0]), it)
                start, end, step, setup = self.do_bounds(v, control.items[1], it)
                if setup:
                    return None
                trips = _count(_to_int(start), _to_int(end), _int(step))
                n = X.mul(_at_least_zero(trips), _int(len(values)))
            elif self.operand_shape(it):
                n = None        # an array item: all its elements
                for lo, hi, st in self.operand_shape(it):
                    e = _at_least_zero(_count(lo, hi, st))
                    n = e if n is None else X.mul(n, e)
            else:
                n = _int(1)
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
        dim = lambda k, which: _descriptor_field(v.desc, "dim", k, which)
        offset = None
        for k, spec in enumerate(specs.items):
            lower = _to_int(self.expr(spec.items[0])) if spec.items[0] is not None \
                else _int(1)
            upper = _to_int(self.expr(spec.items[1]))
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
        out.append(ir.Assign(_descriptor_field(v.desc, "offset"),
                             ir.Cast(unsigned, ir.Unary("-", offset, ir.LONG)), loc))
        for which, value in (("elem_len", ir.SizeOf(t)), ("version", _int(0)),
                             ("rank", ir.Cast(ir.Prim("signed char"), _int(rank))),
                             ("type", ir.Cast(ir.Prim("signed char"), _int(type_code))),
                             ("attribute", ir.Cast(ir.Prim("short"), _int(0)))):
            out.append(ir.Assign(_descriptor_field(v.desc, "dtype", None, which), value, loc))
        out.append(ir.Assign(_descriptor_field(v.desc, "span"),
                             ir.Cast(ir.LONG, ir.SizeOf(t)), loc))
        size = None
        for _, ext in v.dims:       # (each extent 0 or more, see descriptor_dims)
            size = X.clone(ext) if size is None else X.mul(size, X.clone(ext))
        count = self.temp(f"{name}_size", ir.INT)
        out.append(ir.Assign(ir.Ref(count, loc), ir.Cond(
            ir.Binary(">", size, _int(0), ir.INT), X.clone(size), _int(1), ir.INT), loc))
        base = self.array_base(v, None)
        out.append(ir.Assign(base, _malloc(base.type, ir.Ref(count, loc), loc), loc))
        if stat is not None:
            out.append(ir.If(ir.Binary("==", X.clone(base), X.null(base.type, loc), ir.INT),
                             ir.Block([ir.Assign(X.clone(stat), _convert(_int(1), stat.type),
                                                 loc)], loc), None, loc))

    def deallocate(self, v, loc, only_if_allocated=False):
        """free of an allocatable array's storage (at the end of the procedure: if it is
        allocated), or of what a POINTER points to (ALLOCATE gave it), the pointer null
        again."""
        if v.descriptor:        # an allocatable component: its base_addr null again
            base = self.array_base(v, None)
            release = [ir.ExprStmt(ir.Call("free", [base], ir.VOID, loc), loc),
                       ir.Assign(X.clone(base), X.null(base.type, loc), loc)]
        elif v.pointer:
            release = [_free(v.sym, loc),
                       ir.Assign(ir.Ref(v.sym, loc), X.null(v.sym.type, loc), loc)]
        else:
            # the pointer set to null after free: the later `if allocated` free reads no
            # freed pointer (gcc's -Wuse-after-free cannot tell the flag guards it)
            release = [_free(v.sym, loc),
                       ir.Assign(ir.Ref(v.sym, loc), X.null(v.sym.type, loc), loc),
                       ir.Assign(ir.Ref(v.allocated, loc), _int(0), loc)]
        if only_if_allocated:
            return [ir.If(self.is_allocated(v, None, loc), ir.Block(release, loc), None, loc)]
        return release

    def is_allocated(self, v, node, loc):
        """`allocated(v)` for an allocatable array: its descriptor's base address not null
        (a component, a module variable), or the flag ALLOCATE sets (a local); for a
        POINTER (DEALLOCATE with STAT=), that it is associated."""
        if v.descriptor:
            base = self.array_base(v, node)
            return ir.Binary("!=", base, X.null(base.type, loc), ir.INT, loc)
        if v.pointer:
            return ir.Binary("!=", ir.Ref(v.sym, loc), X.null(v.sym.type, loc), ir.INT, loc)
        return ir.Ref(v.allocated, loc)

    def declare(self, name, t, dims_node, node, is_param=False, init=None,
                module_level=False, saved=False):
        loc = self.loc(node)
        old = self.vars.get(name)
        v = old if old is not None and old.sym is not None and old.sym.kind != "global" \
            and name in getattr(self, "local_names", set()) else None
        if v is None:
            v = FVar(name, t, loc=loc)
        v.type = t
        self.local_names = getattr(self, "local_names", set()) | {name}
        if dims_node is not None:
            self.set_dims(v, dims_node, node)
        if is_param and (v.dims or T.derived_type_of(t) is not None):
            # a constant array or structure: a static table in the output
            if init is None:
                raise self.error(node, f"parameter '{name}' has no value")
            if v.dims and _constant_size(v) is None:
                raise self.error(node, f"parameter array '{name}' needs constant bounds")
            sym = ir.Symbol(self.unique(f"{(self.func.name if self.func else 'm')}_{name}"),
                            self.storage_type(v), "global", loc, is_static=True)
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
            v.const = _convert(value, t)
            self.vars[name] = v
            return v
        if module_level:
            sym = ir.Symbol(f"__{self.module.name}_MOD_{name}", self.storage_type(v), "global",
                            loc, is_extern=True)
            sym.is_library = False
            sym.fortran_name = name
            self.front.globals.append(sym)
            v.sym = sym
        elif name in getattr(self, "dummies", []):
            v.sym = self.dummy_symbol(name, t, loc)
            v.by_ref = True
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
        if v.dims and _constant_size(v) is None:
            raise self.error(node, f"SAVEd array '{v.name}' needs constant bounds")
        if v is old and getattr(v.sym, "fortran_saved", False):
            sym = v.sym             # declared again (DIMENSION, then its type)
            sym.type = self.storage_type(v)
        else:
            sym = ir.Symbol(self.unique(f"{self.func.name}_{v.name}"), self.storage_type(v),
                            "global", loc, is_static=True)
            sym.is_library = False
            sym.fortran_saved = True
            sym.saved_as = (v.name, self.func.name)     # for messages
            self.front.globals.append(sym)
        if init is not None:
            sym.init_text = self.initial_value(v, init.items[1], node)
        v.sym = sym

    # ---------------------------------------------------------- character strings
    # A CHARACTER scalar carries no derivative: options (`scheme == 'upwind'`, SELECT
    # CASE on a name) and names passed down. A local is a C char array of its length; a
    # dummy a `char *` with, as gfortran passes it, the length after all the other
    # arguments (size_t, by value: see string_lengths). Comparisons pad the shorter
    # string with blanks, as Fortran does (adgen_str_cmp in the output).

    def char_length(self, tspec, ent, node):
        """The declared length of a CHARACTER entity (ent None: of the type spec alone):
        '*' (assumed: the caller's) or an int (`character(len=8)`, `character(8)`,
        `character*8`, `c*8`; 1 if none)."""
        text = None
        if ent is not None and len(ent.items) > 2 and ent.items[2] is not None:
            text = str(ent.items[2])
        elif len(tspec.items) > 1 and tspec.items[1] is not None:
            text = str(tspec.items[1])
        if text is None:
            return 1
        t = text.replace(" ", "").lower()
        t = t[1:] if t.startswith("*") else t
        t = t[1:-1] if t.startswith("(") and t.endswith(")") else t
        parts = [x for x in t.split(",") if not x.startswith("kind=")]
        value = parts[0][4:] if parts and parts[0].startswith("len=") else \
            (parts[0] if parts else "1")
        if value == "*":
            return "*"
        n = int(value) if value.isdigit() else self.named_constant_int(value)
        if n is None:
            raise self.error(node, f"the length '{value}' of a CHARACTER variable is not a "
                                   "constant")
        return n

    def declare_string(self, name, length, dims, node, is_param, init, module_level, saved):
        """A CHARACTER scalar: a dummy, a local, a SAVEd or module variable, or a
        parameter (a literal)."""
        what = f"the CHARACTER variable '{name}'"
        if dims is not None:
            return self.declare_string_array(name, length, dims, node, is_param, init,
                                             module_level, saved)
        if getattr(self.vars.get(name), "dims", None):
            raise self.error(node, f"{what} is an array given its shape by a DIMENSION "
                                   "statement: not supported (give the shape in its type "
                                   "declaration)")
        if is_param:
            text = self.constant_text(init.items[1]) if init is not None else None
            if text is None:
                raise self.error(node, f"{what} is a parameter whose value is not a constant "
                                       "string: not supported")
            v = FVar(name, ir.Prim("char"), loc=self.loc(node))
            v.string_literal = text if length == "*" else text[:length].ljust(length)
            self.vars[name] = v
            return
        if getattr(self.vars.get(name), "common", None) is not None:
            raise self.error(node, f"{what} in a COMMON block is not supported")
        # (a module variable's initial value is in the compiled module's object; a local
        # one makes it SAVEd, a static variable of the output given it here)
        initial = init is not None and not module_level
        if initial and self.constant_text(init.items[1]) is None:
            raise self.error(node, f"{what} has an initial value that is not a constant "
                                   "string: not supported")
        v = self.declare(name, ir.Prim("char"), None, node, False, None, module_level,
                         saved or initial)
        if v.by_ref:
            v.char_len_param = ir.Symbol(self.unique(f"{name}_len"), ir.Prim("size_t"),
                                         "param", v.loc)
            v.char_len_param.char_len_of = v.sym    # (the interface module leaves it out)
            v.char_len = ir.Ref(v.char_len_param) if length == "*" else _int(length)
            return
        if length == "*":
            raise self.error(node, f"{what} has an assumed length (*) but is not a dummy "
                                   "argument")
        v.sym.type = ir.Arr(ir.Prim("char"), _int(length))
        v.char_len = _int(length)
        if initial:
            text = self.constant_text(init.items[1])[:length].ljust(length)
            v.sym.init_text = "{" + ", ".join(_c_char(ch) for ch in text) + "}"

    def constant_text(self, node):
        """The characters of a CHARACTER constant expression (literals, named string
        constants, concatenations, trim, repeat, char, achar, new_line of constants);
        None for anything else."""
        F = _f2003()
        kind = type(node).__name__
        if kind == "Char_Literal_Constant":
            return _char_literal(node)
        if kind == "Parenthesis":
            return self.constant_text(node.items[1])
        if kind == "Level_3_Expr":
            parts = [self.constant_text(p) for p in _concatenated(node)]
            return None if None in parts else "".join(parts)
        if isinstance(node, F.Name):
            return getattr(self.vars.get(_name(node)), "string_literal", None)
        if not isinstance(node, F.Intrinsic_Function_Reference):
            return None
        name = _name(node.items[0])
        args = self.intrinsic_arguments(name, _call_arguments(node), node)
        if name == "new_line" and len(args) == 1:
            return "\n"
        if name in ("char", "achar") and len(args) == 1:
            code = _const_int(X.fold(self.expr(args[0])))
            return chr(code) if code is not None and 0 <= code < 256 else None
        text = self.constant_text(args[0]) if args else None
        if text is None:
            return None
        if name == "trim" and len(args) == 1:
            return text.rstrip(" ")
        if name == "repeat" and len(args) == 2:
            return text * self.repeat_count(node, args[1])
        return None

    def constant_texts(self, node):
        """The strings of a constant CHARACTER array constructor (its elements cut or
        padded to the length its type spec gives, `[character(len=8) :: ...]`), or of one
        constant string; None in the list for an element that is not constant."""
        F = _f2003()
        if not isinstance(node, F.Array_Constructor):
            return [self.constant_text(node)]
        spec = node.items[1]
        if type(spec).__name__ != "Ac_Spec":
            return [self.constant_text(x) for x in _constructor_items(node)]
        type_spec, values = spec.items
        items = [] if values is None else values.items \
            if type(values).__name__.endswith("List") else [values]
        if type_spec is not None and not str(type_spec).upper().startswith("CHARACTER"):
            return [None] * len(items)      # a constructor of numbers
        length = self.char_length(type_spec, None, node) if type_spec is not None else None
        texts = [None if isinstance(x, F.Ac_Implied_Do) else self.constant_text(x)
                 for x in items]
        if length in (None, "*"):
            return texts
        return [t if t is None else t[:length].ljust(length) for t in texts]

    def declare_string_array(self, name, length, dims, node, is_param, init, module_level,
                             saved):
        """A CHARACTER array (names, units, labels: data that carries no derivative): a
        char array holding its elements one after the other, each of its length; a dummy a
        `char *` with the elements' length passed as a scalar's. Its elements are read,
        compared, assigned and passed as strings are, the whole array passed to a
        procedure; a reference to the whole array elsewhere is refused where it is met (in
        output, which the derivative code leaves out, it does not matter)."""
        what = f"the CHARACTER array '{name}'"
        char = ir.Prim("char")
        loc = self.loc(node)
        values = None
        # (a module variable's initial value is in the compiled module's object)
        if init is not None and (is_param or not module_level):
            values = self.constant_texts(init.items[1])
            if None in values:
                raise self.error(node, f"{what} has an initial value that is not constant "
                                       "strings: not supported")
            if length == "*":
                length = max(len(t) for t in values)
        if length == "*" and name not in self.dummies:
            raise self.error(node, f"{what} has an assumed length (*) but is not a dummy "
                                   "argument")
        if is_param:
            if values is None:
                raise self.error(node, f"{what} is a parameter whose value is not literals: "
                                       "not supported")
            v = FVar(name, char, loc=loc)
            self.set_dims(v, dims, node)
            sym = ir.Symbol(self.unique(f"{(self.func.name if self.func else 'm')}_{name}"),
                            char, "global", loc, is_static=True)
            sym.is_library = False
            self.front.globals.append(sym)
            v.sym = sym
            self.vars[name] = v
        else:
            v = self.declare(name, char, dims, node, False, None, module_level,
                             saved or values is not None)
        if v.by_ref:
            if v.assumed_shape:
                raise self.error(node, f"{what} is an assumed-shape dummy argument: not "
                                       "supported (give it an explicit shape, `names(n)`)")
            v.char_len_param = ir.Symbol(self.unique(f"{name}_len"), ir.Prim("size_t"),
                                         "param", v.loc)
            v.char_len_param.char_len_of = v.sym
            v.char_len = ir.Ref(v.char_len_param) if length == "*" else _int(length)
            v.sym.char_array = True
            return
        size = _constant_size(v)
        if size is None:
            raise self.error(node, f"{what} needs constant bounds")
        v.sym.type = ir.Arr(char, _int(size * length))
        v.char_len = _int(length)
        if values is not None:
            if len(values) == 1:
                values *= size
            if len(values) != size:
                raise self.error(node, f"'{name}' has {size} elements, given {len(values)} "
                                       "initial values")
            text = "".join(t[:length].ljust(length) for t in values)
            v.sym.init_text = "{" + ", ".join(_c_char(ch) for ch in text) + "}"

    def is_string(self, node):
        """Whether node is a CHARACTER expression adgen reads (see string)."""
        F = _f2003()
        kind = type(node).__name__
        if kind == "Char_Literal_Constant":
            return True
        if kind == "Parenthesis":
            return self.is_string(node.items[1])
        if kind == "Level_3_Expr":             # a // b: the only level-3 operator
            return True
        if T.is_component_name(node):
            comp = T.peek_component(self, _name(node))
            return comp is not None and comp.char_len is not None
        if isinstance(node, F.Name):
            v = self.vars.get(_name(node))
            return v is not None and (getattr(v, "char_len", None) is not None or
                                      getattr(v, "string_literal", None) is not None)
        if isinstance(node, F.Intrinsic_Function_Reference) and \
                _name(node.items[0]) in _STRING_INTRINSICS:
            return True     # (string refuses those it does not know)
        if isinstance(node, F.Part_Ref):        # a substring s(i:j), an element a(i)
            return self.is_string(node.items[0])
        if kind == "Array_Section":             # an element's substring, a(i)(j:k)
            return self.is_string(node.items[0])
        return False

    def string(self, node, pre, whole_array=False):
        """(pointer to its first character, length) of a CHARACTER expression: a
        literal, a variable, a parameter, an element of an array, a substring, trim() of
        one, a concatenation (built in a temporary by statements appended to pre).
        whole_array: a whole CHARACTER array is accepted (an actual argument: its first
        element, and the elements' length)."""
        F = _f2003()
        loc = self.loc(node)
        kind = type(node).__name__
        if kind == "Char_Literal_Constant":
            return _string_constant(_char_literal(node), loc)
        if kind == "Parenthesis":
            return self.string(node.items[1], pre)
        if kind == "Level_3_Expr":
            return self.joined(_concatenated(node), pre, loc)
        if T.is_component_name(node):
            v = self.lookup(_name(node), node)
            return self.value(v, node), X.clone(v.char_len)
        if isinstance(node, F.Name):
            v = self.vars[_name(node)]
            text = getattr(v, "string_literal", None)
            if text is not None:
                return _string_constant(text, loc)
            if v.dims and not whole_array:
                raise self.error(node, f"the CHARACTER array '{v.name}' is supported element "
                                       "by element here (or passed whole to a procedure)")
            return ir.Ref(v.sym, loc), X.clone(v.char_len)
        if isinstance(node, F.Part_Ref):
            v = self.vars.get(_name(node.items[0])) \
                if isinstance(node.items[0], F.Name) else None
            if v is not None and v.dims:
                return self.string_element(v, node, pre)
            return self.substring(node, pre)
        if kind == "Array_Section":
            ptr, length = self.string(node.items[0], pre)
            return self.characters(ptr, length, node.items[1].items, pre, loc)
        name = _name(node.items[0])
        args = self.intrinsic_arguments(name, _call_arguments(node), node)
        if name in ("char", "achar", "new_line") and len(args) == 1:
            return self.one_character(name, args[0], pre, loc)
        if name == "repeat" and len(args) == 2:
            return self.repeated(node, args, pre, loc)
        if name not in ("trim", "adjustl", "adjustr") or len(args) != 1:
            raise self.error(node, f"'{node}': of the CHARACTER intrinsics, trim, adjustl, "
                                   "adjustr, repeat, char, achar, new_line, ichar, iachar, "
                                   "index, len and len_trim are supported")
        ptr, length = self.string(args[0], pre)
        if name == "trim":
            return ptr, ir.Call("adgen_len_trim", [X.clone(ptr), length], ir.LONG, loc)
        return self.adjusted(name, ptr, length, self.string_bound(args[0]), pre, loc)

    def one_character(self, name, arg, pre, loc):
        """char(i) and achar(i): the character of code i; new_line(a): a newline. Built
        in a one-character temporary; (the temporary, 1)."""
        char = ir.Prim("char")
        buf = self.text_buffer(_int(1), loc)
        value = ir.Const("'\\n'", char) if name == "new_line" else \
            ir.Cast(char, self.expr(arg, None, pre))
        pre.append(ir.Assign(ir.Index(X.clone(buf), _int(0), char), value, loc))
        return buf, _int(1)

    def repeated(self, node, args, pre, loc):
        """repeat(s, n): n copies of s one after the other, built in a temporary (n a
        constant, so that the temporary's length is known); (the temporary, n len(s))."""
        copies = self.repeat_count(node, args[1])
        char = ir.Prim("char")
        buf = self.text_buffer(self.string_bound(node), loc)
        ptr, length = self.string(args[0], pre)
        n = _long(length)
        if not isinstance(n, (ir.Const, ir.Ref)):
            n = ir.Ref(self.once(n, "length", pre, loc))
        total = X.fold(X.mul(_int(copies), X.clone(n)))
        k = self.temp("k", ir.LONG)
        pre.append(_char_loop(k, X.clone(total), ir.Index(X.clone(buf), ir.Ref(k), char),
                              ir.Index(ptr, ir.Binary("%", ir.Ref(k), X.clone(n), ir.LONG),
                                       char), loc))
        return buf, total

    def repeat_count(self, node, count):
        """The number of copies of repeat(s, n): n, a constant not below zero."""
        n = _const_int(X.fold(self.expr(count)))
        if n is None or n < 0:
            raise self.error(node, f"'{node}': repeat() is supported with a count known "
                                   "when adgen runs (a constant or a PARAMETER)")
        return n

    def string_element(self, v, node, pre):
        """a(i, ...) of the CHARACTER array v: its characters, at their place in the
        char array."""
        F = _f2003()
        subs = node.items[1].items
        if any(isinstance(x, F.Subscript_Triplet) for x in subs):
            raise self.error(node, f"'{node}': a section of the CHARACTER array '{v.name}' is "
                                   "not supported (its elements are)")
        loc = self.loc(node)
        flat = self.array_element(v, [self.expr(x, None, pre) for x in subs], node).index
        char = ir.Prim("char")
        first = ir.Index(self.array_base(v, node), X.mul(_long(flat), _long(v.char_len)),
                         char, loc)
        return ir.AddrOf(first, ir.Ptr(char), loc), X.clone(v.char_len)

    def substring(self, node, pre):
        """s(i:j): the characters i to j of s (from 1; i is 1 and j len(s) when left
        out), none when j < i."""
        F = _f2003()
        subs = node.items[1].items
        if len(subs) != 1 or not isinstance(subs[0], F.Subscript_Triplet) or \
                subs[0].items[2] is not None:
            raise self.error(node, f"'{node}': a CHARACTER variable is not an array (a "
                                   "substring is written s(i:j))")
        ptr, length = self.string(node.items[0], pre)
        return self.characters(ptr, length, subs[0].items[:2], pre, self.loc(node))

    def characters(self, ptr, length, bounds, pre, loc):
        """The characters i to j (the nodes bounds, either None) of the string (ptr,
        length)."""
        lo, hi = (_long(self.expr(b, None, pre)) if b is not None else None
                  for b in bounds)
        lo = lo if lo is not None else _int(1)
        hi = hi if hi is not None else _long(length)
        lo, hi = (ir.Ref(self.once(b, "bound", pre, loc)) if X.has_call(b) else b
                  for b in (lo, hi))
        start = ir.AddrOf(ir.Index(ptr, X.sub(X.clone(lo), _int(1)), ir.Prim("char")),
                          ir.Ptr(ir.Prim("char")), loc)
        return start, _at_least_zero(X.add(X.sub(hi, lo), _int(1)))

    def adjusted(self, name, ptr, length, bound, pre, loc):
        """adjustl(s): s without its leading blanks, blanks after; adjustr(s): s without
        its trailing blanks, blanks before. Built in a temporary (see text_buffer);
        (the temporary, len(s))."""
        char = ir.Prim("char")
        buf = self.text_buffer(bound, loc)
        n = _long(length)
        if X.has_call(n) or not isinstance(n, (ir.Const, ir.Ref, ir.Cast)):
            n = ir.Ref(self.once(n, "length", pre, loc))
        # the blanks the result starts with (adjustr) or that the source does (adjustl)
        if name == "adjustl":
            blanks = ir.Call("adgen_len_lead", [X.clone(ptr), X.clone(n)], ir.LONG, loc)
        else:
            blanks = X.sub(X.clone(n), ir.Call("adgen_len_trim", [X.clone(ptr), X.clone(n)],
                                               ir.LONG, loc))
        shift = self.once(blanks, "blanks", pre, loc)
        k = self.temp("k", ir.LONG)
        if name == "adjustl":
            value = ir.Cond(ir.Binary("<", ir.Ref(k), X.sub(X.clone(n), ir.Ref(shift)),
                                      ir.INT),
                            ir.Index(ptr, X.add(ir.Ref(k), ir.Ref(shift)), char),
                            ir.Const("' '", char), char)
        else:
            value = ir.Cond(ir.Binary(">=", ir.Ref(k), ir.Ref(shift), ir.INT),
                            ir.Index(ptr, X.sub(ir.Ref(k), ir.Ref(shift)), char),
                            ir.Const("' '", char), char)
        pre.append(_char_loop(k, n, ir.Index(X.clone(buf), ir.Ref(k), char), value, loc))
        return buf, X.clone(n)

    def string_index(self, node, pre):
        """index(s, t[, back]): the position (from 1) of the first (with back true, the
        last) occurrence of t in s; 0 when there is none."""
        s_node, t_node, *rest = self.intrinsic_arguments("index", node.items[1].items, node)
        if not (self.is_string(s_node) and self.is_string(t_node)):
            raise self.error(node, "index() of something that is not a CHARACTER string")
        if len(rest) > 1 and rest[1] is not None:
            raise self.error(node, "index() with KIND is not supported")
        back = self.expr(rest[0], None, pre) if rest and rest[0] is not None else _int(0)
        ps, ns = self.string(s_node, pre)
        pt, nt = self.string(t_node, pre)
        return _convert(ir.Call("adgen_str_index", [ps, ns, pt, nt, back], ir.LONG,
                                self.loc(node)), ir.INT)

    def text_buffer(self, bound, loc):
        """A temporary char array declared on entry, of bound characters (an int
        expression of constants and the hidden lengths of dummies): the text a
        concatenation or adjustl builds."""
        char = ir.Prim("char")
        if _const_int(bound) is not None:
            bound = _int(max(_const_int(bound), 1))
        return ir.Ref(self.entry_temp("text", char, [(bound, bound)], [(_int(1), bound)],
                                      loc).sym)

    def string_bound(self, node):
        """The longest length a CHARACTER expression can have (an int expression):
        its declared length, through trim, substrings and concatenations."""
        F = _f2003()
        kind = type(node).__name__
        if kind == "Char_Literal_Constant":
            return _int(len(_char_literal(node)))
        if kind == "Parenthesis":
            return self.string_bound(node.items[1])
        if kind == "Level_3_Expr":
            bounds = [self.string_bound(p) for p in _concatenated(node)]
            return X.fold(functools.reduce(X.add, bounds))
        if T.is_component_name(node):
            return _int(T.peek_component(self, _name(node)).char_len)
        if isinstance(node, F.Name):
            v = self.vars[_name(node)]
            text = getattr(v, "string_literal", None)
            if text is None and getattr(v, "char_len", None) is None:
                raise self.error(node, f"'{v.name}' is not a CHARACTER string")
            return _int(len(text)) if text is not None else _convert(X.clone(v.char_len),
                                                                      ir.INT)
        if isinstance(node, F.Part_Ref) or kind == "Array_Section":    # (an element's)
            return self.string_bound(node.items[0])
        name = _name(node.items[0])
        args = _call_arguments(node)
        if name in ("char", "achar", "new_line"):
            return _int(1)
        if name == "repeat":
            args = self.intrinsic_arguments(name, args, node)
            return X.fold(X.mul(_int(self.repeat_count(node, args[1])),
                                self.string_bound(args[0])))
        return self.string_bound(args[0])      # trim, adjustl, adjustr

    def joined(self, parts, pre, loc):
        """The CHARACTER expressions parts one after the other, copied (by statements
        appended to pre) into a temporary declared on entry as long as they can be (their
        declared lengths, constants or the lengths of dummies): (the temporary, the sum of
        the parts' lengths)."""
        char = ir.Prim("char")
        buf = self.text_buffer(
            X.fold(functools.reduce(X.add, [self.string_bound(p) for p in parts])), loc)
        offset = _int(0)
        for p in parts:
            ptr, length = self.string(p, pre)
            length = _long(length)
            if X.has_call(length):
                length = ir.Ref(self.once(length, "length", pre, loc))
            nbytes = ir.Binary("*", ir.Cast(ir.SIZE_T, X.clone(length)), ir.SizeOf(char),
                               ir.SIZE_T)
            pre.append(ir.ExprStmt(ir.Call("memcpy", [
                ir.AddrOf(ir.Index(X.clone(buf), offset, char), ir.Ptr(char), loc), ptr,
                nbytes], ir.VOID, loc), loc))
            offset = X.fold(X.add(offset, length))
        return buf, offset

    def string_comparison(self, node, pre):
        """a == b (or /=, <, ...) of CHARACTER strings: adgen_str_cmp(a, b) against 0."""
        a, op, b = node.items
        if not (self.is_string(a) and self.is_string(b)):
            raise self.error(node, f"'{node}' compares a CHARACTER string with a number")
        op = _C_OPERATORS.get(op.strip().upper(), op.strip())
        return ir.Binary(op, self.string_compare(a, b, node, pre), _int(0), ir.INT,
                         self.loc(node))

    def string_compare(self, a, b, node, pre):
        """adgen_str_cmp(a, b): negative, 0 or positive as a sorts before, with or after
        b (blank-padded)."""
        pa, na = self.string(a, pre) if not isinstance(a, tuple) else a
        pb, nb = self.string(b, pre) if not isinstance(b, tuple) else b
        return ir.Call("adgen_str_cmp", [X.clone(pa), X.clone(na), pb, nb], ir.INT,
                       self.loc(node))

    def string_assignment(self, lhs, rhs, out, loc):
        """s = t (or s(i:j) = t): t's characters, then blanks up to s's length (t cut to
        it). A substring given a value that reads its own variable takes it through a
        temporary, as Fortran evaluates the right-hand side first."""
        F = _f2003()
        v = self.vars.get(_name(lhs)) if isinstance(lhs, F.Name) else None
        if v is not None and v.dims:
            return self.string_array_assignment(v, lhs, rhs, out, loc)
        if not self.is_string(rhs):
            raise self.error(lhs, f"the CHARACTER variable '{lhs}' assigned a value that "
                                  "is not a string")
        dst, n = self.string(lhs, out)
        target = lhs.items[0] if isinstance(lhs, F.Part_Ref) else lhs
        if isinstance(lhs, F.Part_Ref) and not isinstance(rhs, F.Level_3_Expr) and \
                _name(target) in {_name(x) for x in _walk_type(rhs, F.Name)}:
            src, m = self.joined([rhs], out, loc)
        else:
            src, m = self.string(rhs, out)
        self.copy_string(dst, n, src, m, out, loc)

    def string_array_assignment(self, v, lhs, rhs, out, loc):
        """a = t for the CHARACTER array a: each element given the string t (`names =
        ''`), or the items of an array constructor in order (`names = ['u', 'v']`)."""
        F = _f2003()
        size = _constant_size(v)
        base = self.array_base(v, lhs)
        char = ir.Prim("char")
        element = lambda e: ir.AddrOf(ir.Index(X.clone(base), X.mul(e, _long(v.char_len)),  # noqa: E731
                                               char, loc), ir.Ptr(char), loc)
        if isinstance(rhs, F.Array_Constructor):
            items = _constructor_items(rhs)
            if size is None or len(items) != size or not all(map(self.is_string, items)):
                raise self.error(lhs, f"the CHARACTER array '{v.name}' assigned an array "
                                      "constructor is supported with one string per element")
            values = [self.joined([x], out, loc) if _name(lhs) in
                      {_name(n) for n in _walk_type(x, F.Name)} else self.string(x, out)
                      for x in items]
            for k, (src, m) in enumerate(values):
                self.copy_string(element(_int(k)), X.clone(v.char_len), src, m, out, loc)
            return
        if not self.is_string(rhs) or size is None:
            raise self.error(lhs, f"the CHARACTER array '{v.name}' is supported element by "
                                  "element here (or given one string, or a constructor)")
        src, m = self.joined([rhs], out, loc)
        e = self.temp("e", ir.LONG)
        body = []
        self.copy_string(element(ir.Ref(e)), X.clone(v.char_len), src, m, body, loc)
        loop = counted_loop(e, _int(size), body)
        loop.loc = loop.body.loc = loc
        out.append(loop)

    def copy_string(self, dst, n, src, m, out, loc):
        """The n characters at dst set (by statements in out) to the m at src, blanks
        after them (src cut to n)."""
        n, m = _long(n), _long(m)
        n, m = (ir.Ref(self.once(x, "length", out, loc)) if X.has_call(x) or
                isinstance(x, ir.Cond) else x for x in (n, m))
        k = self.temp("k", ir.LONG)
        char = ir.Prim("char")
        value = ir.Cond(ir.Binary("<", ir.Ref(k), m, ir.INT),
                        ir.Index(src, ir.Ref(k), char), ir.Const("' '", char), char)
        out.append(_char_loop(k, n, ir.Index(dst, ir.Ref(k), char), value, loc))

    def string_selector(self, sel_stmt, setup):
        """SELECT CASE (s) on a CHARACTER string: (pointer, length), the length read once."""
        ptr, length = self.string(sel_stmt.items[0], setup)
        if X.has_call(length):
            length = ir.Ref(self.once(length, "selector_length", setup, self.loc(sel_stmt)))
        return ptr, length

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
                c = X.fold(_convert(self.data_value(value), v.type))
                if any(isinstance(x, (ir.Ref, ir.Call)) for x in ir.walk(c)):
                    raise self.error(node, f"the DATA value '{value}' is not a constant")
                data.setdefault(v, {})[k] = expr_c(c)

    def data_value(self, value):
        """The value of a DATA constant, signed ones (`-2d0`) included."""
        F = _f2003()
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
        F = _f2003()
        if type(obj).__name__ == "Data_Implied_Do":
            objects, var, start, end, step = obj.items
            bounds = [X.int_value(X.fold(self.expr(b))) if b is not None else 1
                      for b in (start, end, step)]
            if None in bounds or bounds[2] == 0:
                raise self.error(node, f"the bounds of '{obj}' are not constants")
            out = []
            for k in range(bounds[0], bounds[1] + (1 if bounds[2] > 0 else -1), bounds[2]):
                inner = dict(counters, **{_name(var): k})
                out += [t for o in objects.items for t in self.data_targets(o, inner, node)]
            return out
        v = self.lookup(_name(obj) if isinstance(obj, F.Name) else _base_name(obj), obj)
        if v.sym is None or not getattr(v.sym, "fortran_saved", False):
            raise self.error(node, f"DATA for '{obj}', which is not a local variable of the "
                                   "procedure, is not supported")
        if isinstance(obj, F.Name):     # each element of an array, in order
            return [(v, k) for k in range(_constant_size(v) if v.dims else 1)]
        subs = obj.items[1].items if isinstance(obj, F.Part_Ref) else ()
        if not v.dims or len(subs) != len(v.dims) or \
                any(isinstance(x, F.Subscript_Triplet) for x in subs):
            raise self.error(node, f"the DATA object '{obj}' is not supported (give a "
                                   "variable, an array element or an implied-DO list of "
                                   "elements)")
        at = {self.lookup(n, obj).sym: _int(k) for n, k in counters.items()}
        index, stride = 0, 1
        for (lo, ext), x in zip(v.dims, subs):
            k = X.int_value(X.fold(_substitute(self.expr(x), at)))
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
        F = _f2003()
        from adgen.ir.c_text import expr_c
        dtype = T.derived_type_of(v.type)
        if C.is_complex(v.type):
            return C.constant_initializer(self, v, value, node)
        if dtype is not None:
            if self.constructed_type(value) is not dtype:
                raise self.error(node, f"the value of '{v.name}' is supported as a structure "
                                       f"constructor of '{dtype.name}' only")
            one = self.structure_initializer(value, node)
            return "{" + ", ".join([one] * _constant_size(v)) + "}" if v.dims else one
        if v.dims and isinstance(value, F.Intrinsic_Function_Reference) and \
                _name(value.items[0]) == "reshape":
            # reshape(constructor, shape): the constructor's elements are the array's in
            # array element order
            args = self.intrinsic_arguments("reshape", value.items[1].items, value)
            if len(args) < 2 or any(a is not None for a in args[2:]) or \
                    not isinstance(args[0], F.Array_Constructor) or \
                    not isinstance(args[1], F.Array_Constructor):
                raise self.error(node, f"the value of '{v.name}' is supported as reshape of "
                                       "an array constructor to a constructor's shape only")
            counts = [X.int_value(X.fold(self.expr(e))) for e in _constructor_items(args[1])]
            if None in counts or math.prod(counts) != _constant_size(v):
                raise self.error(node, f"'{v.name}' is given a reshape to another size")
            value = args[0]
        items = _constructor_items(value) if isinstance(value, F.Array_Constructor) \
            else [value]
        values = [expr_c(_convert(self.expr(x), v.type)) for x in items]
        if not v.dims:
            if len(values) != 1:
                raise self.error(node, f"scalar '{v.name}' given an array as initial value")
            return values[0]
        size = _constant_size(v)
        if len(values) == 1:
            values *= size
        if len(values) != size:
            raise self.error(node, f"'{v.name}' has {size} elements, given {len(values)} "
                                   "initial values")
        return "{" + ", ".join(values) + "}"

    def structure_initializer(self, ctor, node):
        """The C initializer of a structure constructor of constants (the value of a
        SAVEd or PARAMETER structure): each component's value given, else its default."""
        dtype = self.constructed_type(ctor)
        given = self.constructor_values(ctor)
        items = []
        for c in dtype.components.values():
            value = given.get(c.name)
            inner = T.derived_type_of(c.type)
            if value is None:
                if not T.has_default(c):
                    raise self.error(node, f"'{ctor}' gives no value for the component "
                                           f"'{c.name}', which has no default value")
                items.append(T.component_initializer(c))
            elif c.allocatable:
                raise self.error(node, f"the allocatable component '{c.name}' given a value "
                                       f"in '{ctor}' is not supported")
            elif c.char_len is not None:
                if not isinstance(value, _f2003().Char_Literal_Constant):
                    raise self.error(node, f"the value of '{c.name}' in '{ctor}' is supported "
                                           "as a character literal only")
                text = _char_literal(value)[:c.char_len].ljust(c.char_len)
                items.append("{" + ", ".join(_c_char(ch) for ch in text) + "}")
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

    def dummy_symbol(self, name, t, loc):
        """The C parameter of dummy argument `name` of type t (passed by reference). A
        dummy named like a C keyword or a function the generated code calls gets another
        C name; `fortran_name` keeps the one heads, sizes and rules use."""
        sym = ir.Symbol(name if name not in _C_RESERVED else self.unique(name),
                        ir.Ptr(t), "param", loc)
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
        while n in taken or n in self.front.functions or n in _C_RESERVED:
            k += 1
            n = f"{name}_{k}"
        return n

    def storage_type(self, v):
        if not v.dims:
            return v.type
        size = None
        for lo, ext in v.dims:
            if ext is None:
                raise AdgenError(f"array '{v.name}' has no known size", v.loc)
            size = ext if size is None else X.mul(size, ext)
        size = self.at_entry(size)                      # declared, so evaluated, on entry
        if any(map(self.is_procedure_call, ir.walk(size))):
            raise AdgenError(f"the size of the local array '{v.name}' calls a function: not "
                             "supported; pass the size as a dummy argument", v.loc)
        return ir.Arr(v.type, _c_array_length(size))

    def array_spec(self, spec, name, on_entry=False):
        """[(lower, extent)] from an array spec; extent None for assumed size. on_entry:
        the bounds are given as their values on entry (see entry_bound)."""
        F = _f2003()
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
                lo = bound(d.items[0]) if d.items[0] is not None else _int(1)
                hi = bound(d.items[1])
                dims.append((lo, _extent(lo, hi)))
            elif cname == "Assumed_Size_Spec":
                for sub in (d.items[0].items if d.items[0] is not None else []):
                    lo = bound(sub.items[0]) if sub.items[0] is not None else _int(1)
                    dims.append((lo, _extent(lo, bound(sub.items[1]))))
                lo = bound(d.items[1]) if d.items[1] is not None else _int(1)
                dims.append((lo, None))
            elif cname == "Assumed_Shape_Spec":
                # the extent comes from the caller (see assumed_shape_extents)
                dims.append((bound(d.items[0]) if d.items[0] is not None else _int(1),
                             None))
                assumed_shape = True
            elif cname in ("Deferred_Shape_Spec",):
                raise self.error(spec, f"deferred-shape array '{name}' is not supported")
            else:
                # a bare expression: upper bound with lower bound 1
                lo = _int(1)
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
                sym = self.temp(f"{_storage_name(e)}_entry", ir.with_const(e.type, False))
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
        return _substitute(e, {p: p.entry_value for p in self.entry_values.values()})

    def parameter_stmt(self, node):
        F = _f2003()
        for d in _walk_type(node, F.Named_Constant_Def):
            name = _name(d.items[0])
            v = self.vars.get(name) or self.implicit_var(name, node, declare_local=False)
            value = self.expr(d.items[1])
            v.const = _convert(value, v.type)
            if v.sym is not None and v.sym.kind == "local":
                v.sym = None
            self.vars[name] = v

    def dimension_stmt(self, node):
        for name_node, spec in node.items[0] if isinstance(node.items[0], list) else []:
            name = _name(name_node)
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
            if v.sym is not None and v.sym.kind == "local":
                v.sym.type = self.storage_type(v)

    def common_stmt(self, node):
        for block, objs in node.items[0]:
            bname = _name(block) if block is not None else ""
            link = (bname + "_") if bname else "__BLNK__"
            members = []
            for obj in objs.items:
                oname = _name(obj.items[0] if hasattr(obj, "items") and obj.items else obj)
                v = self.vars.get(oname) or self.implicit_var(oname, node, declare_local=False)
                if getattr(v, "char_len", None) is not None:
                    raise self.error(node, f"the CHARACTER variable '{oname}' in a COMMON "
                                           "block is not supported")
                spec = obj.items[1] if hasattr(obj, "items") and len(obj.items) > 1 else None
                if spec is not None:
                    v.dims, _ = self.array_spec(spec, oname)
                members.append(v)
            sym, sdef = self.front.commons.get(link, (None, None))
            field_names = _c_field_names([m.name for m in members])
            if sym is None:
                fields = [(f, self.storage_type(m)) for f, m in zip(field_names, members)]
                sdef = self.front.define_struct(
                    ir.StructDef(f"{link}common", fields, loc=self.loc(node)))
                sym = ir.Symbol(link, ir.Struct(sdef), "global", self.loc(node),
                                is_extern=True)
                sym.is_library = False
                sym.fortran_common = True
                self.front.commons[link] = (sym, sdef)
                self.front.globals.append(sym)
            # the members by position (the same block may be seen with other names)
            for m, (fname, _) in zip(members, sdef.fields):
                m.common_field = fname
            for m in members:
                m.common = sym
                m.sym = None

    def implicit_var(self, name, node, declare_local=True):
        if self.implicit_none:
            raise self.error(node, f"'{name}' has no type (IMPLICIT NONE)")
        kind, t = self.implicit[name[0]]
        if t is None:
            t = ir.INT if kind == "integer" else ir.FLOAT
        v = FVar(name, t, loc=self.loc(node))
        if declare_local:
            if name in getattr(self, "dummies", []):
                v.sym = self.dummy_symbol(name, t, v.loc)
                v.by_ref = True
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
            v = self.implicit_var(name, node)
        return v

    # ------------------------------------------------------ internal procedures
    def internal_procedures(self, units):
        """Procedures after CONTAINS in this one: separate functions that receive the
        host's variables they use (host association) as extra arguments, by reference,
        and for a host array the bounds of its dimensions that are not constants, by
        value (see host_variable)."""
        self.internal_procs = {}
        for u in units:
            name = _name(_head_stmt(u).items[1])
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
            f = self.internal_procs[_name(_head_stmt(u).items[1])]
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
        hv = self.host.vars.get(name)
        if hv is None and name in getattr(self.host, "variable_names", {}) and \
                not self.host.implicit_none:
            # a variable the host declares implicitly by using it, met before the host's
            # body is lowered: the host's variable, not one of this procedure
            hv = self.host.implicit_var(name, self.host.variable_names[name])
        if hv is None or hv.const is not None or hv.common is not None or \
                (hv.sym is not None and hv.sym.kind == "global"):
            return hv
        v = FVar(name, hv.type, loc=hv.loc, by_ref=True)
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
        if e is None or _const_int(e) is not None:
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

    # --------------------------------------------------------------- statements
    def statements(self, nodes, out):
        """A statement list (a procedure body, a branch, a DO loop body). A statement a
        GOTO jumps to is preceded by its label's marker; GOTO, and EXIT and CYCLE of an
        outer named loop, are jumps.Goto markers, made structured code once the procedure
        is lowered (jumps.lower_gotos)."""
        F = _f2003()
        for node in nodes:
            label = _label(node)
            if label in self.goto_targets:
                out.append(jumps.Label(str(label), self.loc(node)))
            self.statement(node, out)
            # a GOTO to `30 end if` goes to what follows the construct
            end = node.children[-1] if isinstance(node, (F.If_Construct,
                                                         F.Case_Construct)) else None
            if end is not None and _label(end) in self.goto_targets:
                out.append(jumps.Label(str(_label(end)), self.loc(end)))
        self.no_waiting_directive(None)

    def goto(self, node, out, loc):
        out.append(jumps.Goto(str(int(str(node.items[0]))), loc))

    def loop_jump(self, node, kind, out, loc):
        """EXIT or CYCLE: a break / continue of the innermost DO loop; of a named outer one,
        a goto to the label after that loop (EXIT) or ending its body (CYCLE, see
        do_loop)."""
        name = _name(node.items[1]) if node.items[1] is not None else None
        if not self.do_names or (name is not None and name not in self.do_names):
            raise self.error(node, f"{kind.upper()} outside a DO loop" +
                                   (f" named '{name}'" if name else ""))
        if name is None or name == self.do_names[-1]:
            return out.append(ir.Break(loc) if kind == "exit" else ir.Continue(loc))
        out.append(jumps.Goto(f"{kind}_{name}", loc))

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
        after."""
        outer, self.heap_temps = self.heap_temps, []
        outer_masks, self.pack_masks = self.pack_masks, {}
        start = len(out)
        try:
            self.lower_statement(node, out)
        finally:
            temps, self.heap_temps = self.heap_temps, outer
            self.pack_masks = outer_masks
        loc = self.loc(node)
        out[start:start] = [ir.Assign(ir.Ref(sym, loc), _malloc(sym.type, size, loc), loc)
                            for sym, size in temps if size is not None]
        out += [_free(sym, loc) for sym, _ in temps]

    def lower_statement(self, node, out):
        F = _f2003()
        if _line(node):
            self.current = node
        loc = self.loc(node)
        cname = type(node).__name__
        if isinstance(node, F.Comment):
            self.directive(node)
            return
        if cname not in _DO_CONSTRUCTS:
            self.no_waiting_directive(node)
        split, self.nocheckpoint = self.nocheckpoint, False
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
            node = self.hoist_constructors(node, out)
        if isinstance(node, F.Assignment_Stmt):
            if split:
                out.append(ir.Pragma("adgen nocheckpoint", loc))
            self.assignment(node.items[0], node.items[2], out, loc)
        elif isinstance(node, F.Call_Stmt) and _name(node.items[0]) in _TIMERS and \
                self.known_procedure(_name(node.items[0])) is None:
            self.timer_call(node, out, loc)
        elif isinstance(node, F.Call_Stmt):
            name = _name(node.items[0])
            args = _call_arguments(node)
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
            out.append(_jump_chain([(ir.Binary("==", ir.Ref(k), _int(i), ir.INT), lab)
                                    for i, lab in enumerate(labels, 1)], loc))
        elif isinstance(node, F.Arithmetic_If_Stmt):
            # if (e) 10, 20, 30: to the first label if e < 0, the second if 0, else the third
            e = self.once(self.expr_before(node.items[0], out), "if_value", out, loc)
            zero = _convert(_int(0), e.type)
            labels = [str(int(str(lab))) for lab in node.items[1:]]
            out.append(_jump_chain([(ir.Binary("<", ir.Ref(e), zero, ir.INT), labels[0]),
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
                v = self.lookup(_name(obj), obj)
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
                out.append(ir.Assign(X.clone(stat), _convert(_int(0), stat.type), loc))
            for obj in node.items[0].items:
                v = self.allocatable(obj)
                if stat is None:
                    out.extend(self.deallocate(v, loc))
                    continue
                out.append(ir.If(self.is_allocated(v, obj, loc),
                                 ir.Block(self.deallocate(v, loc), loc),
                                 ir.Block([ir.Assign(X.clone(stat), _convert(_int(1), stat.type),
                                                     loc)], loc), loc))
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
        target = _base_name(unit) if not T.is_component_name(unit) else T.base_name(
            _name(unit))
        local = target in getattr(self, "local_names", set()) and \
            target not in getattr(self, "dummies", ()) and \
            getattr(self.vars.get(target), "sym", None) is not None and \
            self.vars[target].sym.kind == "local"
        if target in self.names_read() or not local:
            raise self.error(node, f"a WRITE into the CHARACTER variable '{target}' sets it, "
                                   "and the derivative code leaves WRITE out: supported only "
                                   "for a local variable that no statement but output and "
                                   "CALLs reads")

    def names_read(self):
        """The variables the procedure's statements name, but output statements and CALLs
        (the variable of a component reference), read once per procedure."""
        F = _f2003()
        if getattr(self, "_names_read", (None,))[0] is not self.unit:
            from fparser.two.utils import StmtBase
            declarations = {id(st) for part in _walk_type(self.unit, F.Specification_Part)
                            for st in _walk_type(part, StmtBase)}   # (also a BLOCK's)
            names = {T.base_name(_name(n)) if T.is_component_name(n) else _name(n)
                     for part in _walk_type(self.unit, F.Execution_Part)
                     for st in _walk_type(part, StmtBase)
                     if type(st).__name__ not in _IO_STATEMENTS + ("Call_Stmt",) and
                     id(st) not in declarations
                     for n in _walk_type(st, F.Name)}
            self._names_read = (self.unit, names)
        return self._names_read[1]

    def timer_call(self, node, out, loc):
        """cpu_time(t), system_clock(count, rate, max): what they read is the time, for
        reports the derivative code leaves out; their variables are set to 0 (a rate to
        1), with a warning."""
        name = _name(node.items[0])
        args = self.match_arguments(name, _TIMERS[name], _call_arguments(node), node)
        for dummy, a in zip(_TIMERS[name], args):
            if a is not None:
                lhs = self.designator(a)
                out.append(ir.Assign(lhs, _convert(_int(1 if dummy == "count_rate" else 0),
                                                   lhs.type), loc))
        self.front.warn(loc, f"call of {name} left out of the derivative code (its "
                             "variables set to 0)", self.func)

    def forall(self, header, assignments, node, out):
        """FORALL (statement or construct) of assignments: each assignment for all index
        values in turn, as loops over indices of its own (the FORALL's names are local to
        it). Loops give the same values when no assignment reads the array it assigns
        elsewhere than at the element it assigns, and the bounds and the mask read none of
        them; the others are refused."""
        F = _f2003()
        loc = self.loc(node)
        triplets, mask = header.items[0].items, header.items[1]

        def names(n):
            return {self.storage_key(_name(x)) for x in _walk_type(n, F.Name)}
        if any(not isinstance(a, F.Assignment_Stmt) for a in assignments):
            raise self.error(node, "FORALL with statements other than assignments is not "
                                   "supported")
        targets = {self.storage_key(_base_name(a.items[0])) for a in assignments}
        if targets & names([t.items[1:] for t in triplets] + [mask]):
            raise self.error(node, "FORALL whose bounds or mask read an array it assigns is "
                                   "not supported")
        for a in assignments:
            # reading the element being assigned (`y(i) = y(i) * i`, `p(i)%v = p(i)%v * i`)
            # is reading no element another index value assigns (FORALL assigns each
            # element once at most), nor is reading another component (`p(j)%x`)
            lhs = a.items[0]
            key = self.storage_key(_base_name(lhs))
            subscripts = lhs.items[1] if isinstance(lhs, F.Part_Ref) else None
            if key in names(subscripts) or \
                    any(self.storage_key(_base_name(r)) == key and
                        _paths_overlap(r, lhs) and str(r) != str(lhs)
                        for r in _array_refs(a.items[2])):
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
        names = [_name(t.items[0]) for t in triplets]
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
        F = _f2003()
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
            name = _name(lhs.items[0])
            args = _call_arguments(lhs)
            v = self.vars.get(name)
            if v is not None and (v.dims or v.sym is not None and v.sym.kind != "local") or \
                    self.array_var(name, lhs) is not None or \
                    not all(isinstance(a, F.Name) for a in args):
                break
            dummies = [_name(a) for a in args]
            if len(set(dummies)) != len(dummies):
                raise self.error(st, f"statement function '{name}' names a dummy twice")
            t = v.type if v is not None else self.implicit_var(name, st, False).type
            self.vars.pop(name, None)           # a function, not a variable
            self.stmt_functions[name] = (dummies, st.items[2], t)
            del stmts[k]
        return stmts

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
            v = self.vars.get(d)
            dt = v.type if v is not None and not v.dims else \
                self.implicit_var(d, node, False).type if v is None else None
            if dt is None:
                raise self.error(node, f"the dummy '{d}' of statement function '{name}' "
                                       "is an array")
            value = _convert(self.expr(a, ks, pre), dt)
            if any(isinstance(x, ir.Call) for x in ir.walk(value)):
                tmp = self.temp(d, ir.with_const(dt, False))
                pre.append(ir.Assign(ir.Ref(tmp), value, self.loc(node)))
                value = ir.Ref(tmp)
            bound.append(FVar(d, dt, const=value))
        with self.scoped_names(dummies):
            for b in bound:
                self.vars[b.name] = b
            return _convert(self.expr(body, None, pre), t)

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
        allocatable arrays are deallocated at END BLOCK."""
        F = _f2003()
        kids = self.construct_parts(node)
        spec = next((c for c in kids if isinstance(c, F.Specification_Part)), None)
        body = [c for c in kids[1:-1] if not isinstance(c, F.Specification_Part)]
        names = [_name(e.items[0]) for e in _walk_type(spec, F.Entity_Decl)] \
            if spec is not None else []
        loc = self.loc(kids[-1])
        with self.scoped_names(names):
            own_structs = []
            if spec is not None:
                allocatables = len(self.allocatables)
                structs = len(self.allocatable_structs)
                initialized = len(self.initialized_structs)
                dummies, self.dummies = self.dummies, []    # a BLOCK's names are no dummies
                try:
                    self.block_specification(spec)
                finally:
                    self.dummies = dummies
                own = self.allocatables[allocatables:]
                own_structs = self.allocatable_structs[structs:]
                # initialized where the BLOCK is entered, not the procedure
                out.extend(self.default_initializations(
                    self.initialized_structs[initialized:]))
                del self.initialized_structs[initialized:]
            else:
                own = []
            declared = [self.vars[n] for n in dict.fromkeys(names) if n in self.vars]
            for v in declared:
                if v.dims and v.allocated is None and _constant_size(v) is None:
                    raise AdgenError(f"array '{v.name}' of a BLOCK needs constant bounds "
                                     "(or make it ALLOCATABLE)", v.loc)
            self.statements(body, out)
            for v in own:
                out.extend(self.deallocate(v, loc, only_if_allocated=True))
            out.extend(self.release_components(own_structs, loc))
            self.retired += [v for v in declared if v.sym is not None and v.const is None]

    def block_specification(self, spec):
        """The declarations of a BLOCK: type declarations (an initial value makes the
        variable SAVEd), PARAMETER and DIMENSION statements."""
        F = _f2003()
        for c in spec.children:
            if isinstance(c, F.Implicit_Part):
                stmts = [x for x in c.children if not isinstance(x, F.Comment)]
            else:
                stmts = [c]
            for x in stmts:
                if not isinstance(x, (F.Type_Declaration_Stmt, F.Parameter_Stmt,
                                      F.Dimension_Stmt, F.Comment)):
                    what = type(x).__name__.replace("_Stmt", "").replace("_", " ")
                    raise self.error(x, f"{what.upper()} in a BLOCK is not supported")
        self.specification(spec)

    def associate_construct(self, node, out):
        """ASSOCIATE: each name is another name of its selector's variable (an element
        or a contiguous section of an array through a pointer set on entry, with the
        section's subscripts read once there), or of a value computed on entry when the
        selector is an expression."""
        F = _f2003()
        loc = self.loc(node)
        kids = self.construct_parts(node)
        associations = _walk_type(kids[0], F.Association)
        # the selectors are all evaluated before any name is associated
        made = [(_name(a.items[0]), self.association(_name(a.items[0]), a.items[2], out, loc))
                for a in associations]
        with self.scoped_names([n for n, _ in made]):
            for n, v in made:
                self.vars[n] = v
            self.statements(kids[1:-1], out)

    def association(self, name, selector, out, loc):
        """The variable an associate name stands for (see associate_construct)."""
        F = _f2003()
        v = self.lookup(_name(selector), selector) \
            if isinstance(selector, F.Name) else None
        if v is not None and v.const is None:
            if v.dims:
                return replace(v, name=name, alias_of=v.alias_of or v)
            return v
        if isinstance(selector, F.Part_Ref):
            v = self.array_var(_name(selector.items[0]), selector)
            if v is not None:
                return self.associated_section(name, v, selector, out, loc)
        if self.operand_shape(selector):
            raise self.error(selector, f"ASSOCIATE of '{name}' with an array expression is "
                                       "not supported (assign it to an array first)")
        pre = []
        value = self.expr(selector, pre=pre)
        out.extend(pre)
        t = ir.with_const(value.type, False)
        alias = FVar(name, t, loc=loc)
        alias.sym = self.temp(name, t)
        out.append(ir.Assign(ir.Ref(alias.sym, loc), value, loc))
        return alias

    def associated_section(self, name, v, selector, out, loc, use=None):
        """An associate name for an element or a section of array v: a pointer to its
        first element, set on entry; a section must be one contiguous piece of v (see
        check_contiguous; `use` says what the section is for) and has lower bounds 1."""
        F = _f2003()
        self.check_contiguous(v, selector, use or f"ASSOCIATE cannot give '{name}' to it")
        subs, dims = [], []
        for (lo, ext), sub in zip(v.dims, selector.items[1].items):
            if not isinstance(sub, F.Subscript_Triplet):
                subs.append(_to_int(self.expr(sub)))
                continue
            if sub.items[1] is None and ext is None:
                raise self.error(selector, "open upper bound on an assumed-size array")
            first = _to_int(self.expr(sub.items[0])) if sub.items[0] is not None else lo
            last = _to_int(self.expr(sub.items[1])) if sub.items[1] is not None else \
                X.sub(X.add(X.clone(lo), X.clone(ext)), _int(1))
            if sub.items[0] is not None:
                start = self.temp(f"{name}_lb", ir.INT)
                out.append(ir.Assign(ir.Ref(start, loc), first, loc))
                first = ir.Ref(start, loc)
            extent = self.temp(f"{name}_n", ir.INT)
            count = X.add(X.sub(last, X.clone(first)), _int(1))
            out.append(ir.Assign(ir.Ref(extent, loc), ir.Cond(
                ir.Binary(">", count, _int(0), ir.INT), X.clone(count), _int(0), ir.INT), loc))
            subs.append(X.clone(first))
            dims.append((_int(1), ir.Ref(extent, loc)))
        element = self.array_element(v, subs, selector)
        alias = FVar(name, v.type, loc=loc, alias_of=v.alias_of or v)
        alias.sym = self.temp(f"{name}_at", ir.Ptr(element.type))
        alias.sym.alias_storage = _storage(element)
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
            v = self.vars[_name(t.items[0])]
            bounds = self.do_bounds(v, list(t.items[1:]), node)
            body = self.counted_loop(self.value(v, node), bounds, body, loc)
        return body

    def construct_parts(self, node):
        """The children of a construct without the comments fparser puts before its first
        statement (a blank or comment line above an IF or a SELECT CASE), those read as
        the directives they may be, as before a DO."""
        F = _f2003()
        kids = list(node.children)
        while kids and isinstance(kids[0], F.Comment):
            self.directive(kids.pop(0))
        return kids

    def if_construct(self, node):
        F = _f2003()
        branches = []        # [(cond or None for else, [], loc, setup, [statement nodes])]
        current = None
        for c in self.construct_parts(node):
            if isinstance(c, (F.If_Then_Stmt, F.Else_If_Stmt)):
                setup = []
                test = self.expr_before(c.items[0], setup)
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

    def case_construct(self, node):
        F = _f2003()
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
        F = _f2003()
        selector = c.items[0]
        if str(selector).upper().strip() == "DEFAULT":
            return None
        if isinstance(sel, tuple):      # a CHARACTER selector: (pointer, length)
            def compare(node, op):
                return ir.Binary(op, self.string_compare(sel, node, c, setup), _int(0),
                                 ir.INT)
        else:
            def compare(node, op):
                return ir.Binary(op, X.clone(sel), self.expr(node), ir.INT)
        test = None
        for r in _walk_type(selector, F.Case_Value_Range) or []:
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
        kept = ckp is not None or fixed_point is not None
        self.kept_loops += kept
        try:
            loop = self.do_loop(node, kids, stmt, loc, ckp)
        finally:
            self.kept_loops -= kept
        if fixed_point is not None:
            # just before the loop, after its bounds' set-up
            loop.insert(len(loop) - 1, ir.Pragma("adgen fp_loop", fixed_point))
        if _construct_name(stmt) is not None:
            loop.append(jumps.Label(f"exit_{_construct_name(stmt)}", loc))   # (see loop_jump)
        return loop

    def do_loop(self, node, kids, stmt, loc, ckp):
        """The statements of a DO construct (its set-up, then the loop), ckp its
        BINOMIAL-CKP directive or None."""
        F = _f2003()
        ctl = next((item for item in stmt.items if isinstance(item, F.Loop_Control)), None)
        setup = []
        test = bounds = None
        if ckp is not None and (ctl is None or ctl.items[0] is not None):
            raise AdgenError("BINOMIAL-CKP: the loop must be a counted DO loop "
                             "(do i = a, b[, step])", ckp[0].loc)
        if ctl is not None and ctl.items[0] is not None:        # DO WHILE
            test = self.expr_before(ctl.items[0], setup)
        elif ctl is not None and ctl.items[1] is None:
            # DO CONCURRENT: its iterations may run in any order, so in order
            return self.do_concurrent(ctl.items[3], kids[1:], stmt, ckp)
        counter = None
        if ctl is not None and ctl.items[0] is None and ctl.items[1] is not None:
            var_node, bounds = ctl.items[1]
            counter = self.lookup(_name(var_node), stmt)
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
                                  or _label(c) in self.goto_targets], body)
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
    def directive(self, comment):
        """Read a `!$AD` directive comment (`C$AD`, `*$AD` in fixed form): BINOMIAL-CKP
        and FP-LOOP wait for the DO loop they stand before, NOCHECKPOINT for the call
        statement it stands before (split mode: `#pragma adgen nocheckpoint`), others are
        ignored with a warning."""
        m = _DIRECTIVE.match(str(comment).strip())
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
            self.fp_loop = loc
        else:
            self.front.warn(loc, f"!$AD {name} directive ignored (adgen knows "
                                 "BINOMIAL-CKP, FP-LOOP and NOCHECKPOINT)", self.func)

    def binomial_directive(self, fields, loc):
        """(the checkpoint pragma of `!$AD BINOMIAL-CKP nsteps nsnaps first`, the parse tree
        of nsnaps): the count is lowered with the loop (see checkpoint_pragma), once the
        dummies are parameters; nsteps and first are only checked, as in C."""
        F = _f2003()
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
        what = "" if node is None else f", not before this statement (line {_line(node)})"
        if self.binomial_ckp is not None:
            loc, self.binomial_ckp = self.binomial_ckp[0].loc, None
            raise AdgenError(f"BINOMIAL-CKP: the directive must stand just before a DO "
                             f"loop{what}", loc)
        if self.fp_loop is not None:
            loc, self.fp_loop = self.fp_loop, None
            raise AdgenError(f"FP-LOOP: the directive must stand just before a DO or DO WHILE "
                             f"loop{what}", loc)

    def do_concurrent(self, header, body_nodes, stmt, ckp):
        """`do concurrent (i = a:b[:s], j = ...[, mask])`: nested loops, the first index
        innermost (see index_loops), the body under the mask. The indices are the construct's own: a
        variable of the same name outside keeps its value."""
        F = _f2003()
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
        start = _convert(self.expr_before(bounds[0], setup), v.type)
        end = _convert(self.expr_before(bounds[1], setup), v.type)
        step = _const_int(self.expr(bounds[2])) if len(bounds) > 2 and bounds[2] is not None \
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
        update = ir.Binary("+" if step > 0 else "-", X.clone(var), _int(abs(step)), var.type,
                           loc)
        test = ir.Binary("<=" if step > 0 else ">=", X.clone(var), end, ir.INT, loc)
        loop = ir.For([ir.Assign(var, start, loc)], test, [ir.Assign(X.clone(var), update, loc)],
                      ir.Block(body, loc), loc)
        self.loop_ends.append((loop, f"{_storage_name(var)}_end"))
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
                written.add(_storage(st.lhs))
            for e in ir.stmt_exprs(st):
                for call in filter(self.is_procedure_call, ir.walk(e)):
                    summary = self.front.summaries.get(call.func)
                    if summary is None:
                        summary = _Changes({k for k, a in enumerate(call.args)
                                            if a.type.resolved().is_pointer or
                                            a.type.resolved().is_array}, set(), True)
                    written |= {_storage(call.args[k]) for k in summary.params
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
        return _reads_variables(e) or (call.func if call is not None else None) or \
            (self.changed_variable(e, changes) if changes is not None else None)

    def changed_variable(self, e, changes):
        """The name of a variable e reads that statements with these changes may change,
        or None."""
        written, all_globals = changes
        return next((_storage_label(r) for r in _storage_read(e)
                     if r in written or all_globals and _is_global_storage(r)), None)

    # ------------------------------------------------------------ assignments
    def assignment(self, lhs_node, rhs_node, out, loc, mask=None):
        if self.is_string(lhs_node):
            return self.string_assignment(lhs_node, rhs_node, out, loc)
        shape = self.shape_of(lhs_node)
        F = _f2003()
        base = lhs_node.items[0] if isinstance(lhs_node, F.Part_Ref) else lhs_node
        lv = self.lookup(_name(base), base) if isinstance(base, F.Name) else None
        dt = T.derived_type_of(lv.type) if lv is not None else None
        if dt is not None and dt.allocatable_paths():
            raise self.error(lhs_node, f"assignment of a whole structure of type '{dt.name}', "
                                       "which has allocatable components, is not supported "
                                       "(Fortran copies what they hold): assign the "
                                       "components one by one")
        if shape is None:
            pre = []
            target = self.designator(lhs_node, pre=pre)
            value = self.expr(rhs_node, pre=pre)
            if target.type.resolved().is_struct != value.type.resolved().is_struct:
                raise self.error(lhs_node, f"'{lhs_node}' assigned '{rhs_node}': a structure "
                                           "and a number (a defined assignment) is not "
                                           "supported")
            out.extend(pre)
            out.append(ir.Assign(target, _convert(value, target.type), loc))
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

        _visit(node, look)
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
        F = _f2003()
        if isinstance(rhs_node, F.Intrinsic_Function_Reference) and \
                _name(rhs_node.items[0]) == "matmul" and mask is None:
            return self.matmul(lhs_node, rhs_node, out, loc)
        if _is_pack(rhs_node) and mask is None:
            return self.pack(lhs_node, rhs_node, out, loc)
        if isinstance(rhs_node, F.Array_Constructor):
            if mask is None and self.storage_key(_base_name(lhs_node)) not in \
                    {self.storage_key(_name(n)) for n in _walk_type(rhs_node, F.Name)}:
                return self.array_constructor(lhs_node, rhs_node, out, loc)
            # `v = [v(2), v(1)]`, or under a WHERE mask: the values first, then the
            # assignment
            rhs_node = self.constructor_temp(rhs_node, lhs_node, out)
        # Fortran evaluates the right-hand side before assigning: when the target array
        # is read at other positions, go through a temporary.
        lhs_name = _base_name(lhs_node)
        moved = {id(r) for c in _walk_type(rhs_node, F.Intrinsic_Function_Reference)
                 if _name(c.items[0]) in ("cshift", "eoshift", "transpose", "spread",
                                          "reshape")
                 for r in _array_refs(c.items[1])}
        # the same designator is read at the positions it is assigned, unless cshift or
        # transpose moves its elements (another name of the same array may read others)
        lhs_key = self.storage_key(lhs_name)
        overlap = any(self.storage_key(_base_name(r)) == lhs_key and
                      (str(r) != str(lhs_node) or id(r) in moved) for r in _array_refs(rhs_node))
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
        body = pre + [ir.Assign(target, _convert(value, target.type), loc)] + list(after)
        if mask is not None:
            body = [ir.If(mask([ir.Ref(k) for k in counters]), ir.Block(body), None, loc)]
        for k, (lo, hi, st) in zip(counters, shape):
            ext = _count(lo, hi, st)
            body = [ir.For([ir.Assign(ir.Ref(k), _int(0), loc)],
                           ir.Binary("<", ir.Ref(k), ext, ir.INT),
                           [_increment(k, loc)], ir.Block(body), loc)]
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
        dims = [(_int(0), _count(lo, hi, st)) for lo, hi, st in shape]
        if self.heap_sized(dims):
            return self.heap_temp(t, dims)
        extents = [(self.at_entry(_count(*d)), self.at_entry(whole))
                   for d, whole in zip(shape, self.dimension_extents(like))]
        return self.entry_temp("tmp", t, extents, dims, self.loc(like))

    def entry_temp(self, name, t, extents, dims, loc):
        """A temporary array of type t declared on entry (see settle), its size from
        extents, [(extent at entry, whole extent)] (see _temp_size); its FVar, with dims."""
        sym = self.temp(name, None)
        self.temp_arrays.append((sym, extents, loc))
        sym.type = ir.Arr(t, _temp_size(extents, self.size_dependency, loc))
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
        F = _f2003()
        if isinstance(node, F.Name):
            v = self.array_var(_name(node), node)
            if v is None:
                return None
            if any(ext is None for _, ext in v.dims):
                raise self.error(node, f"whole assumed-size array '{v.name}' has no shape")
            return [(lo, X.sub(X.add(lo, ext), _int(1)), _int(1)) for lo, ext in v.dims]
        if isinstance(node, F.Part_Ref):
            v = self.array_var(_name(node.items[0]), node)
            if v is None:
                return None
            shape = []
            for (lo, ext), sub in zip(v.dims, node.items[1].items):
                if isinstance(sub, F.Subscript_Triplet):
                    shape.append(self.triplet(sub, lo, ext, node))
                elif self.vector_subscript(sub, node):
                    # a vector subscript u(idx): the dimension runs over idx's elements
                    lower, upper, stride = self.operand_shape(sub)[0]
                    shape.append((_int(1), _count(lower, upper, stride), _int(1)))
            return shape or None
        if _array_inquiry(node):
            return [(_int(1), _int(len(self.array_bounds(node.items[1].items[0]) or [])),
                     _int(1))]
        reshaped = self.reshape_shape(node)
        if reshaped is not None:
            return [(_int(1), ext, _int(1)) for ext in reshaped[1]]
        spread = self.spread_dimension(node)
        if spread is not None:
            along, copies, source = spread
            shape = list(self.operand_shape(source))
            return shape[:along] + [(_int(1), copies, _int(1))] + shape[along:]
        reduced = self.reduced_dimension(node)
        if reduced is not None:
            along, arg = reduced
            shape = list(self.operand_shape(arg))
            return shape[:along] + shape[along + 1:]
        located = self.location_rank(node)
        if located is not None:
            return [(_int(1), _int(located), _int(1))]
        if isinstance(node, F.Intrinsic_Function_Reference) and \
                _name(node.items[0]) == "transpose":
            (arg,) = self.intrinsic_arguments("transpose", node.items[1].items, node)
            shape = self.shape_of(arg)
            return shape[::-1] if shape is not None and len(shape) == 2 else None
        return None

    def where_construct(self, node, out):
        F = _f2003()
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
                return test if test is not None else _int(1)

            if self.shape_of(lhs) is None:
                raise self.error(a, "WHERE needs an array assignment")
            # matmul and pack are evaluated whole, as Fortran does for transformational
            # functions under WHERE: into temporaries, assigned where the mask holds
            rhs = self.without_products(rhs, out)
            rhs = self.without_constructors(rhs, out, keep=rhs)
            self.assignment(lhs, rhs, out, self.loc(a), mask=mask)

    def matmul(self, lhs_node, call, out, loc):
        a_node, b_node = self.intrinsic_arguments("matmul", call.items[1].items, call)
        sa, sb = self.operand_shape(a_node), self.operand_shape(b_node)
        if not sa or not sb or len(sa) != 2 or len(sb) not in (1, 2):
            raise self.error(call, "matmul is supported for matrix x matrix and "
                                   "matrix x vector")
        shape = self.shape_of(lhs_node)
        target_t = self.lookup(_base_name(lhs_node), lhs_node).type
        if self.storage_key(_base_name(lhs_node)) in \
                {self.storage_key(_base_name(r)) for r in _array_refs(call)}:
            raise self.error(call, "matmul into one of its own arguments")
        inner = _count(*sa[1])
        k = self.temp("k", ir.INT)
        acc = self.temp("acc", target_t)

        def make(ks, pre):
            i = ks[0]
            kk = ir.Ref(k)
            a = self.expr(a_node, [i, kk], pre)
            b = self.expr(b_node, [kk, ks[1]] if len(sb) == 2 else [kk], pre)
            pre += [ir.Assign(ir.Ref(acc), X.zero(target_t), loc),
                    ir.For([ir.Assign(ir.Ref(k), _int(0), loc)],
                           ir.Binary("<", ir.Ref(k), inner, ir.INT),
                           [_increment(k)],
                           ir.Block([ir.Assign(ir.Ref(acc), ir.Binary(
                               "+", ir.Ref(acc), ir.Binary("*", a, b, target_t), target_t),
                               loc)]), loc)]
            return self.designator(lhs_node, ks), ir.Ref(acc)

        self.elementwise(shape, make, out, loc)

    # ------------------------------------------------------ type-bound procedures
    def bound_calls(self, tree):
        """Each call through a type-bound procedure in the parse tree replaced, in place,
        by a plain call (see bound_call); errors name the statement's line."""
        current = getattr(self, "current", None)

        def enter(node):
            if _line(node):
                self.current = node
        try:
            _rewrite_in_place(tree, self.bound_call, enter)
        finally:
            self.current = current

    def bound_call(self, node):
        """For a call through a type-bound procedure (`call s%stretch(f)`,
        `s%energy(x)`, `s%unit_len()`), the call of the procedure its binding names with
        the object passed to the passed-object dummy (first, or by keyword for PASS(arg)
        naming another dummy; not at all for NOPASS); None for any other node. Without
        type extension (refused), the object's declared type decides the procedure."""
        F = _f2003()
        cls = type(node).__name__
        if cls in ("Call_Stmt", "Function_Reference") and \
                isinstance(node.items[0], F.Procedure_Designator):
            obj, _, bname = node.items[0].items
            bname = _name(bname)
            args = list(_call_arguments(node))
        elif isinstance(node, F.Part_Ref) and T.is_component_name(node.items[0]) and \
                len(node.items[0].parts) > 1:
            parts = node.items[0].parts
            obj = parts[0] if len(parts) == 2 else T.component_reference(parts[:-1])
            bname = T.component_path(node.items[0])[-1]
            args = list(node.items[1].items)
        else:
            return None
        otype, whole_array = self.object_type(obj)
        dtype = T.derived_type_of(otype)
        binding = dtype.bindings.get(bname) if dtype is not None else None
        if binding is None:
            if cls == "Part_Ref":
                return None         # a component
            raise self.error(node, f"'{node.items[0]}': '{bname}' is no type-bound procedure "
                                   f"of the type of '{obj}'")
        if whole_array:
            raise self.error(node, f"a type-bound procedure referenced through the array "
                                   f"'{obj}' is not supported (reference it for each element)")
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
        F = _f2003()
        if T.is_component_name(node) or \
                isinstance(node, F.Part_Ref) and T.is_component_name(node.items[0]):
            name = node if T.is_component_name(node) else node.items[0]
            v = T.resolve_component(self, str(name), node)
        else:
            base = node.items[0] if isinstance(node, F.Part_Ref) else node
            v = self.lookup(_name(base), node) if isinstance(base, F.Name) else None
        if v is None:
            raise self.error(node, f"the type of '{node}' is not known here")
        return v.type, bool(v.dims) and not isinstance(node, F.Part_Ref)

    # ------------------------------------------------------ structure constructors
    def constructed_type(self, node):
        """The DerivedType that node builds when it is a structure constructor (`t(v1,
        c=v2)`; fparser reads one as a function reference or an array element when the
        type comes from a module), else None."""
        F = _f2003()
        if isinstance(node, F.Part_Ref) or type(node).__name__ in _CALL_NODES:
            return self.types.get(_name(node.items[0]))
        return None

    def constructor_values(self, ctor):
        """{component name: its value's node} of a structure constructor, the values
        given in order or by keyword (the components left out are not in it)."""
        F = _f2003()
        dtype = self.constructed_type(ctor)
        comps = list(dtype.components)
        given = {}
        args = ctor.items[1].items if ctor.items[1] is not None else ()
        for k, a in enumerate(args):
            if isinstance(a, (F.Component_Spec, F.Actual_Arg_Spec)):
                name, value = _name(a.items[0]), a.items[1]
            elif given and len(given) != k:
                raise self.error(ctor, f"a value by position after one by keyword in '{ctor}'")
            elif k >= len(comps):
                raise self.error(ctor, f"'{ctor}' gives more values than '{dtype.name}' has "
                                       "components")
            else:
                name, value = comps[k], a
            if name not in dtype.components:
                raise self.error(ctor, f"'{dtype.name}' has no component '{name}'")
            if name in given:
                raise self.error(ctor, f"'{ctor}' gives the component '{name}' twice")
            given[name] = value
        return given

    def structure_assignment(self, lhs_node, ctor, out, loc):
        """`s = t(v1, v2, c=v3)`: each component of s assigned its value (given in order
        or by keyword, else the component's default value), as its own assignment; through
        a temporary structure when the values read s (`p = t(p%y, p%x)`) or when s's
        subscripts need statements (a function reference) to be evaluated once."""
        F = _f2003()
        dtype = self.constructed_type(ctor)
        given = self.constructor_values(ctor)
        if dtype.allocatable_paths():
            raise self.error(ctor, f"the structure constructor '{ctor}' of '{dtype.name}', "
                                   "which has allocatable components, is not supported: set "
                                   "the components one by one")
        if self.shape_of(lhs_node) is not None:
            raise self.error(ctor, f"the structure constructor '{ctor}' assigned to the "
                                   f"array '{lhs_node}' is not supported (assign it to each "
                                   "element)")
        pre = []
        target = self.designator(lhs_node, pre=pre)
        if T.derived_type_of(target.type) is not dtype:
            raise self.error(ctor, f"'{ctor}', of type '{dtype.name}', assigned to "
                                   f"'{lhs_node}' of another type")
        read = {self.storage_key(_name(n)) for n in _walk_type(list(given.values()), F.Name)}
        final = None
        if pre or self.storage_key(_base_name(lhs_node)) in read:
            sym = self.temp("value", ir.with_const(target.type, False))
            self.vars[sym.name] = FVar(sym.name, sym.type, sym=sym)
            final = ir.Assign(target, ir.Ref(sym, loc), loc)
            lhs_node, target = F.Name(sym.name), ir.Ref(sym, loc)
        for c in dtype.components.values():
            if c.name in given:
                stmt = F.Assignment_Stmt(f"{lhs_node}%{c.name} = 0")
                stmt.items = (stmt.items[0], "=", given[c.name])
                T.replace_data_refs(stmt)
                self.lower_statement(stmt, out)
            elif T.has_default(c):
                out += T.component_default(T.member(X.clone(target), c, loc), c, loc,
                                           lambda: self.temp("k", ir.INT))
            else:
                raise self.error(ctor, f"'{ctor}' gives no value for the component "
                                       f"'{c.name}', which has no default value")
        if final is not None:
            out.extend(pre)
            out.append(final)

    def structures_hoisted(self, node, out, loc):
        """An assignment or call reading temporary structures, set in out, instead of
        the structure constructors in its expressions (`call step(s, params_t(dt, nu))`)."""
        found = [n for n in _walk_nodes(node) if self.constructed_type(n) is not None]
        outer = [n for n in found
                 if not any(m is not n and any(x is n for x in _walk_nodes(m)) for m in found)]
        if not outer:
            return node
        F = _f2003()
        replacements = {}
        for ctor in outer:
            sym = self.temp("value", ir.Struct(self.constructed_type(ctor).sdef))
            self.vars[sym.name] = FVar(sym.name, sym.type, sym=sym)
            self.structure_assignment(F.Name(sym.name), ctor, out, loc)
            replacements[id(ctor)] = F.Name(sym.name)
        return _replace_nodes(node, replacements)

    def hoist_constructors(self, node, out):
        """An assignment or call with array constructors, matmul or functions that return
        arrays inside its expressions (`sum(x * [1d0, 2d0, 1d0])`): each goes into a
        temporary array set just before the statement, which reads the temporary instead
        (a copy of node). A constructor or matmul that is a whole right-hand side is left
        to assignment."""
        F = _f2003()
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
        F = _f2003()
        keep = node.items[2] if isinstance(node, F.Assignment_Stmt) else None
        while True:
            innermost = [p for p in _walk_type(node, F.Intrinsic_Function_Reference)
                         if _is_pack(p) and p is not keep and
                         not any(_is_pack(x) for x in _walk_type(
                             p.items[1], F.Intrinsic_Function_Reference))]
            if not innermost:
                return node
            p = innermost[0]
            args = self.intrinsic_arguments("pack", p.items[1].items, p)
            temp = self.value_temp(p, self.elem_type(args[0]), out)
            node = _replace_nodes(node, {id(p): temp})

    def without_matmuls(self, node, out):
        """An assignment or call with matmul inside its expressions (`x = x + matmul(k,
        v)`): each product goes into a temporary array computed just before the statement
        (inner ones first), which reads the temporary instead. A matmul that is a whole
        right-hand side is left to assignment, but for one that reads the array assigned
        (`x = matmul(a, x)`), which goes through a temporary too. Given an expression (the
        right-hand side of a WHERE assignment), every product goes to a temporary."""
        F = _f2003()

        def is_matmul(n):
            return isinstance(n, F.Intrinsic_Function_Reference) and \
                _name(n.items[0]) == "matmul"

        while True:
            keep = None
            if isinstance(node, F.Assignment_Stmt) and is_matmul(node.items[2]) and \
                    self.storage_key(_base_name(node.items[0])) not in \
                    {self.storage_key(_base_name(r)) for r in _array_refs(node.items[2])}:
                keep = node.items[2]
            innermost = [m for m in _walk_type(node, F.Intrinsic_Function_Reference)
                         if is_matmul(m) and m is not keep and
                         not any(is_matmul(x) for x in _walk_type(m.items[1],
                                                                 F.Intrinsic_Function_Reference))]
            if not innermost:
                return node
            m = innermost[0]
            node = _replace_nodes(node, {id(m): self.matmul_temp(m, node, out)})

    def matmul_temp(self, call, node, out):
        """A temporary array set (in out) to the product matmul(a, b); the name that reads
        it."""
        F = _f2003()
        loc = self.loc(node)
        a_node, b_node = self.intrinsic_arguments("matmul", call.items[1].items, call)
        sa, sb = self.operand_shape(a_node), self.operand_shape(b_node)
        if not sa or not sb or len(sa) != 2 or len(sb) not in (1, 2):
            raise self.error(call, "matmul is supported for matrix x matrix and "
                                   "matrix x vector")
        t = ir.arith_result(self.elem_type(a_node), self.elem_type(b_node))
        # the rows of a and the columns of b; the whole dimensions they come from size the
        # temporary where the product's own extents change in the procedure (temp_array)
        shape = [sa[0]] + ([sb[1]] if len(sb) == 2 else [])
        wholes = [self.operand_extents(a_node)[0]] + \
            ([self.operand_extents(b_node)[1]] if len(sb) == 2 else [])
        extents = [(self.at_entry(_count(*d)), self.at_entry(w) if w is not None else None)
                   for d, w in zip(shape, wholes)]
        dims = [(_int(1), _count(*d)) for d in shape]
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
        F = _f2003()
        inner = [c for c in _walk_type(node, F.Array_Constructor) if c is not keep]
        if not inner:
            return node
        return _replace_nodes(node, {id(c): self.constructor_temp(c, node, out)
                                     for c in inner})

    def without_array_functions(self, node, out):
        """node reading temporaries instead of its references to functions that return
        arrays: each function, a subroutine with its result as one more dummy argument
        (see build), is called before the statement (the innermost references first) to
        set a temporary array of the result's shape."""
        while True:
            refs = [n for n in _walk_nodes(node) if self.array_function(n)]
            inner = [r for r in refs
                     if not any(self.array_function(n) for n in _walk_nodes(r) if n is not r)]
            if not inner:
                return node
            node = _replace_nodes(node, {id(r): self.array_function_temp(r, out)
                                         for r in inner})

    def array_function(self, node):
        """The procedure node references when it is a function of the program that
        returns an array; None otherwise."""
        name = self.called_function(node)
        f = None
        if name in self.generics and self.known_procedure(name) is None:
            f = self.specific_procedure(name, node)
        elif name is not None:
            f = self.dummy_procs.get(name) or self.known_procedure(name)
        return f if getattr(f, "array_result", False) else None

    def array_function_temp(self, ref, out):
        """A temporary array set (in out) by a call of the function ref references; the
        name that reads it. Its shape is the result's declared one with the actual
        arguments for the dummy arguments."""
        f = self.array_function(ref)
        loc = self.loc(ref)
        # its arguments' matmul and array constructors first, as those of a CALL
        ref = self.constructors_hoisted(self.without_products(ref, out), out)
        args = _call_arguments(ref)
        pre = []
        if getattr(f, "allocatable_result", False):
            return self.handed_over_temp(f, ref, args, pre, out, loc)
        call = self.user_call(_name(ref.items[0]), args, ref, pre,
                              results=[X.null(ir.Ptr(ir.DOUBLE), loc)])
        at = next(k for k, p in enumerate(f.params) if getattr(p, "is_result", False))
        actual = dict(zip(f.params, call.args))
        # an expression passed through a temporary (argument_temporary): its value
        passed = {st.lhs.sym: st.rhs for st in pre if isinstance(st, ir.Assign) and
                  isinstance(st.lhs, ir.Ref) and st.lhs.sym in self.temps}
        extents, current = [], []
        for ext in f.result_extents:
            e = _substitute(_address_read(_substitute(_entry_expr(ext), actual)), passed)
            left = next((r.sym for r in ir.walk(e) if isinstance(r, ir.Ref) and
                         r.sym in actual), None)
            if left is not None:
                raise self.error(ref, f"the shape of the array '{f.name}' returns depends on "
                                      f"'{ir.source_name(left)}' in a way adgen cannot follow "
                                      "to the call: not supported")
            extents.append((self.at_entry(e), None))
            current.append((_int(1), e))
        t = ir.pointee(f.params[at].type)
        if self.heap_sized(current) and not self.tests:
            # the shape of an allocatable actual argument: on the heap for the statement
            v = self.heap_temp(t, current)
        else:
            v = self.entry_temp("result", t, extents,
                                [(_int(1), X.clone(e)) for e, _ in extents], loc)
        self.vars[v.sym.name] = v
        call.args[at] = ir.Ref(v.sym, loc)
        out.extend(pre)
        out.append(ir.ExprStmt(call, loc))
        return _f2003().Name(v.sym.name)

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
        call = self.user_call(_name(ref.items[0]), args, ref, pre, results=handover)
        self.heap_temps.append((sym, None))
        v = FVar(sym.name, t, sym=sym, dims=[(_int(1), ir.Ref(e, loc)) for e in extents])
        self.vars[sym.name] = v
        out.extend(pre)
        out.append(ir.ExprStmt(call, loc))
        return _f2003().Name(sym.name)

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
        F = _f2003()
        loc = self.loc(node)
        implied = _walk_type(ctor, F.Ac_Implied_Do)
        if implied and self.constructor_length(ctor) is None:
            raise self.error(node, "an array constructor with nested implied-do lists, or "
                                   "arrays in one, is supported as the whole right side of an "
                                   "assignment only")
        items = _constructor_items(ctor, implied=True)
        arrays = [it for it in items if not isinstance(it, F.Ac_Implied_Do) and
                  self.operand_shape(it)]
        if arrays or implied:
            # (all items of a constructor have one type and kind)
            t = self.elem_type(arrays[0]) if arrays else \
                self.expr(_implied_values(implied[0])[0], pre=[]).type
            length = self.constructor_length(ctor)
            if _const_int(length) is not None:
                sym = self.temp("ctor", ir.Arr(t, X.clone(length)))
                self.vars[sym.name] = FVar(sym.name, t, sym=sym, dims=[(_int(1), length)])
            else:
                sym = self.statement_array(t, [length], out, loc).sym
            self.array_constructor(F.Name(sym.name), ctor, out, loc)
            return F.Name(sym.name)
        pre = []
        values = [self.expr(it, pre=pre) for it in items]
        t = values[0].type
        for v in values[1:]:
            t = ir.arith_result(t, v.type)
        sym = self.temp("ctor", ir.Arr(t, _int(len(values))))
        self.vars[sym.name] = FVar(sym.name, t, sym=sym, dims=[(_int(1), _int(len(values)))])
        out.extend(pre)
        out.extend(ir.Assign(ir.Index(ir.Ref(sym, loc), _int(k), t, loc), _convert(v, t), loc)
                   for k, v in enumerate(values))
        return F.Name(sym.name)

    def array_constructor(self, lhs_node, ctor, out, loc):
        F = _f2003()
        shape = self.shape_of(lhs_node)
        if len(shape) != 1:
            raise self.error(ctor, "array constructors are supported for rank-1 targets")
        pos = self.temp("pos", ir.INT)
        out.append(ir.Assign(ir.Ref(pos), _int(0), loc))
        lo, hi, st = shape[0]


        def put(value_node):
            item_shape = self.operand_shape(value_node)
            if item_shape:
                # an array item: its elements in array element order
                body = []
                self.elementwise(item_shape, lambda ks, pre: (
                    self.designator(lhs_node, [ir.Ref(pos)], pre),
                    self.expr(value_node, ks, pre)), body, loc, after=[_increment(pos, loc)])
                return body
            pre = []
            target = self.designator(lhs_node, [ir.Ref(pos)])
            value = self.expr(value_node, pre=pre)
            return pre + [ir.Assign(target, _convert(value, target.type), loc),
                          _increment(pos, loc)]

        items = ctor.items[1].items if hasattr(ctor.items[1], "items") else [ctor.items[1]]
        for it in items:
            if isinstance(it, F.Ac_Implied_Do):
                values, control = it.items
                var_node, bounds = control.items[0], control.items[1]
                v = self.lookup(_name(var_node), it)
                var = self.value(v, it)
                bounds = self.do_bounds(v, bounds, it)
                body = []
                for val in (values.items if hasattr(values, "items") and
                            type(values).__name__.endswith("List") else [values]):
                    body += put(val)
                out.extend(self.counted_loop(var, bounds, body, loc))
            else:
                out.extend(put(it))

    # ------------------------------------------------------------- designators
    def value(self, v, node):
        """The IR expression reading a scalar variable."""
        if v.const is not None:
            return X.clone(v.const)
        if v.parent is not None:
            return T.member(X.clone(v.parent), v.component, self.loc(node))
        if v.common is not None:
            return ir.Member(ir.Ref(v.common), v.common_field, False,
                             self.storage_type(v), self.loc(node))
        if v.sym is None:
            v.sym = ir.Symbol(self.unique(v.name), v.type, "local", v.loc)
        if v.by_ref:
            return ir.Deref(ir.Ref(v.sym), v.type, self.loc(node))
        return ir.Ref(v.sym, self.loc(node))

    def array_base(self, v, node):
        """A pointer to (or the array of) the first element of an array variable."""
        if v.element_of is not None:
            raise self.error(node, f"'{v.name}', a component of an array of structures, "
                                   "has no storage of its own here")
        if v.descriptor:
            return ir.Member(X.clone(v.desc), "base_addr", False, ir.Ptr(v.type),
                             self.loc(node))
        if v.parent is not None:
            return T.member(X.clone(v.parent), v.component, self.loc(node))
        if v.common is not None:
            return ir.Member(ir.Ref(v.common), v.common_field, False, self.storage_type(v),
                             self.loc(node))
        return ir.Ref(v.sym, self.loc(node))

    def array_element(self, v, subs, node):
        """a(i, j, ...) as a flat column-major index."""
        if len(subs) != len(v.dims):
            raise AdgenError(f"'{v.name}' has rank {len(v.dims)}, indexed with {len(subs)} "
                             "subscripts", self.loc(node) if node is not None else v.loc)
        if v.element_of is not None:        # p%w of an array of structures
            return v.element_of(subs)
        flat = None
        stride = None
        for (lo, ext), s in zip(v.dims, subs):
            off = X.sub(_to_int(s), X.clone(lo))
            term = off if stride is None else X.mul(off, X.clone(stride))
            flat = term if flat is None else X.add(flat, term)
            if ext is not None:
                stride = X.clone(ext) if stride is None else X.mul(stride, X.clone(ext))
        base = self.array_base(v, node) if node is not None else ir.Ref(v.sym)
        return ir.Index(base, flat, v.type, self.loc(node) if node is not None else None)

    def designator(self, node, ks=None, pre=None):
        """An lvalue: a scalar variable, an array element, or (with counters ks) the
        current element of an array section; pre as for expr."""
        F = _f2003()
        if isinstance(node, F.Name):
            v = self.lookup(_name(node), node)
            if v.const is not None:
                raise self.error(node, f"assignment to the parameter '{v.name}'")
            if v.dims:
                if ks is None:
                    raise self.error(node, f"array '{v.name}' used as a scalar")
                subs = [X.add(X.clone(lo), k) for (lo, _), k in zip(v.dims, ks)]
                return self.array_element(v, subs, node)
            if self.result_var is not None and v is self.result_var:
                return ir.Ref(v.sym, self.loc(node))
            return self.value(v, node)
        if isinstance(node, F.Part_Ref):
            v = self.lookup(_name(node.items[0]), node)
            if not v.dims:
                raise self.error(node, f"'{v.name}' is not an array")
            return self.section_element(v, node, ks, pre)
        raise self.error(node, f"cannot assign to {node}")

    # -------------------------------------------------------------- expressions
    def expr(self, node, ks=None, pre=None):
        """An expression; ks are the loop counters of the current array element when the
        expression is array-valued. pre receives the statements that must run before
        the expression is evaluated (the temporaries of a call's by-reference arguments,
        reductions); where no list is given, an expression that needs them is refused
        rather than evaluated without them."""
        if pre is not None:
            return self.lower_expr(node, ks, pre)
        setup = []
        e = self.lower_expr(node, ks, setup)
        if setup:
            raise self.error(node, f"'{node}' needs a function call's argument temporary or "
                                   "a reduction computed before it, which adgen cannot place "
                                   "here: assign it to a variable first")
        return e

    def lower_expr(self, node, ks, pre):
        F = _f2003()
        E = lambda n: self.expr(n, ks, pre)  # noqa: E731
        loc = self.loc(node)
        cname = type(node).__name__
        if isinstance(node, F.Int_Literal_Constant):
            kind = node.items[1]
            return ir.Const(node.items[0], ir.LONG if kind == "8" else ir.INT, loc)
        if isinstance(node, F.Real_Literal_Constant):
            return _real_literal(node.items[0], node.items[1], self)
        if isinstance(node, F.Logical_Literal_Constant):
            return ir.Const("1" if "TRUE" in str(node).upper() else "0", ir.INT, loc)
        if isinstance(node, F.Char_Literal_Constant):
            raise self.error(node, "a CHARACTER string in a computation is not supported "
                                   "(they are in comparisons, assignments, SELECT CASE, "
                                   "arguments, len, len_trim and trim)")
        if cname == "Level_3_Expr":
            raise self.error(node, "a concatenation (//) where a number is needed")
        if isinstance(node, F.Name):
            v = self.lookup(_name(node), node)
            if v.dims:
                if ks is None:
                    raise self.error(node, f"array '{v.name}' used where a scalar is needed")
                subs = [X.add(X.clone(lo), k) for (lo, _), k in zip(v.dims, ks)]
                return self.array_element(v, subs, node)
            return self.value(v, node)
        if isinstance(node, F.Parenthesis):
            return E(node.items[1])
        if cname == "And_Operand" and len(node.items) == 2:
            return ir.Unary("!", E(node.items[1]), ir.INT, loc)
        if cname == "Level_4_Expr" and (self.is_string(node.items[0]) or
                                        self.is_string(node.items[2])):
            return self.string_comparison(node, pre)
        if cname in ("Level_2_Expr", "Add_Operand", "Level_4_Expr", "And_Operand",
                     "Or_Operand", "Equiv_Operand", "Level_3_Expr", "Level_5_Expr"):
            a, op, b = node.items
            return self.binary(op, E(a), E(b), node)
        if cname == "Level_2_Unary_Expr":
            op, a = node.items
            x = self.numbers(op, [E(a)], node)[0]
            return ir.Unary("-", x, x.type, loc) if op.strip() == "-" else x
        if cname == "Not_Op" or (cname == "And_Operand" and len(node.items) == 2):
            return ir.Unary("!", E(node.items[1]), ir.INT, loc)
        if cname == "Mult_Operand":
            a, op, b = node.items
            return self.power(*self.numbers(op, [E(a), E(b)], node), node)
        if isinstance(node, F.Intrinsic_Function_Reference):
            return self.intrinsic(_name(node.items[0]), _call_arguments(node), node, ks, pre)
        if (cname == "Part_Ref" or cname in _CALL_NODES) and \
                _name(node.items[0]) in getattr(self, "stmt_functions", {}):
            args = _call_arguments(node)
            return self.statement_function(_name(node.items[0]), args, node, ks, pre)
        if isinstance(node, F.Part_Ref):
            name = _name(node.items[0])
            v = self.array_var(name, node)
            if v is not None:
                return self.section_element(v, node, ks, pre)
            if name in _INTRINSIC_MATH or name in _OTHER_INTRINSICS or name in _SPECIFIC_NAMES:
                args = _call_arguments(node)
                return self.intrinsic(name, args, node, ks, pre)
        name = self.called_function(node)
        if name is not None:
            if id(node) in self.hoisted:
                return X.clone(self.hoisted[id(node)])
            args = _call_arguments(node)
            return self.function_call(name, args, node, pre, ks)
        if cname == "Alt_Return_Spec":
            raise self.error(node, f"an alternate return ({node}) is not supported")
        raise self.error(node, f"unsupported expression ({cname}: {node})")

    def called_function(self, node):
        """The name of the function node references, when it is a reference to a
        procedure (not an array element or section, nor an intrinsic); None otherwise."""
        F = _f2003()
        if (isinstance(node, F.Part_Ref) or type(node).__name__ in _CALL_NODES) \
                and _name(node.items[0]) in getattr(self, "stmt_functions", {}):
            return None         # a statement function: an expression, no call
        if isinstance(node, F.Part_Ref):
            name = _name(node.items[0])
            if self.array_var(name, node) is not None or name in _INTRINSIC_MATH or \
                    name in _OTHER_INTRINSICS or name in _SPECIFIC_NAMES:
                return None
            return name
        if type(node).__name__ in _CALL_NODES:
            return _name(node.items[0])
        return None

    def section_element(self, v, node, ks, pre=None):
        """The element of the array reference `node` to `v` (an element, or with
        counters ks the current element of a section); pre as for expr."""
        F = _f2003()
        subs = []
        kit = iter(ks or [])
        for (lo, ext), sub in zip(v.dims, node.items[1].items):
            if isinstance(sub, F.Subscript_Triplet):
                k = next(kit, None)
                if k is None:
                    raise self.error(node, f"array section of '{v.name}' where a scalar is "
                                           "needed")
                a = self.expr(sub.items[0]) if sub.items[0] is not None else X.clone(lo)
                st = self.expr(sub.items[2]) if sub.items[2] is not None else _int(1)
                subs.append(X.add(a, X.mul(k, st)))
            elif self.vector_subscript(sub, node):
                # u(idx): the element idx(k); assigned (a scatter) too, where Fortran asks
                # that no index repeat
                k = next(kit, None)
                if k is None:
                    raise self.error(node, f"vector subscript of '{v.name}' (an array of "
                                           "indices) where a scalar is needed")
                subs.append(_to_int(self.expr(sub, [k], pre)))
            else:
                subs.append(self.expr(sub, pre=pre))
        return self.array_element(v, subs, node)

    def vector_subscript(self, sub, node):
        """Whether subscript sub of an array reference is a vector subscript (an integer
        array of rank 1, `u(idx)`)."""
        F = _f2003()
        if isinstance(sub, F.Subscript_Triplet):
            return False
        shape = self.operand_shape(sub)
        if not shape:
            return False
        if len(shape) != 1:
            raise self.error(node, "a subscript that is an array of rank 2 or more")
        return True

    def numbers(self, op, operands, node):
        """The operands of the operator op, refused if one is a structure (an operator
        defined for its type)."""
        if any(isinstance(x.type.resolved(), ir.Struct) for x in operands):
            raise self.error(node, f"the operator '{op.strip().lower()}' on values of a "
                                   "derived type (a defined operator, `interface operator`) "
                                   "is not supported")
        return operands

    def binary(self, op, a, b, node):
        op = op.strip().upper()
        loc = self.loc(node)
        a, b = self.numbers(op, [a, b], node)
        op = _C_OPERATORS.get(op, op)
        if op in ir.COMPARISONS or op in ir.LOGICAL:
            return ir.Binary(op, a, b, ir.INT, loc)
        t = ir.arith_result(a.type, b.type)
        if op == "/" and t.is_float:
            a, b = _convert(a, t), _convert(b, t)
        return ir.Binary(op, a, b, t, loc)

    def power(self, a, b, node):
        loc = self.loc(node)
        n = _const_int(b)
        if n is not None and 1 <= n <= 4 and b.type.resolved().is_int:
            out = a
            for _ in range(n - 1):
                out = ir.Binary("*", out, X.clone(a), a.type, loc)
            return out
        t = a.type if a.type.resolved().is_float else ir.DOUBLE
        if a.type.resolved().is_int and b.type.resolved().is_int:
            return ir.Cast(a.type, ir.Call("pow", [ir.Cast(ir.DOUBLE, a), ir.Cast(ir.DOUBLE, b)],
                                           ir.DOUBLE, loc), loc)
        t = ir.arith_result(a.type, b.type)
        fn = "powf" if t.resolved().name == "float" else "pow"
        return ir.Call(fn, [_convert(a, t), _convert(b, t)], t, loc)

    def intrinsic(self, name, args, node, ks, pre):
        loc = self.loc(node)
        name = _SPECIFIC_NAMES.get(name, name)
        args = self.intrinsic_arguments(name, args, node)
        if name in _REDUCTIONS:
            # its function references evaluated once, before its loop
            with self.calls_hoisted(node.items[1],
                                    self.loop_invariant[-1] if self.loop_invariant else pre):
                return self.reduction(name, args, node, pre, ks)
        if name in _INQUIRY:
            return self.inquiry(name, args, node, ks)
        if name == "index":
            return self.string_index(node, pre)
        if name in ("len", "len_trim") and len(args) == 1 and self.is_string(args[0]):
            # (len of a whole CHARACTER array: its elements' length)
            ptr, length = self.string(args[0], pre, whole_array=name == "len")
            return _convert(length, ir.INT) if name == "len" else _convert(
                ir.Call("adgen_len_trim", [ptr, length], ir.LONG, loc), ir.INT)
        if name in ("ichar", "iachar") and len(args) == 1 and self.is_string(args[0]):
            # the code of the first character (0-255, as gfortran gives it)
            ptr, _ = self.string(args[0], pre)
            first = ir.Index(ptr, _int(0), ir.Prim("char"))
            return ir.Cast(ir.INT, ir.Cast(ir.Prim("unsigned char"), first, loc), loc)
        if name in _STRING_INTRINSICS:
            raise self.error(node, f"{name}() is supported in comparisons, assignments and "
                                   "arguments of CHARACTER strings only")
        if name == "kind":
            t = self.expr(args[0]).type.resolved()
            return _int(8 if t.name == "double" else 4 if t.name in ("float", "int") else 8)
        if name == "selected_real_kind":
            digits = _const_int(self.expr(args[0]))
            return _int(8 if digits is None or digits > 6 else 4)
        if name == "selected_int_kind":
            digits = _const_int(self.expr(args[0]))
            return _int(8 if digits is not None and digits > 9 else 4)
        if name == "associated":
            v = self.lookup(_name(args[0]), args[0])
            if not (v.pointer or v.pointer_dummy) or len(args) > 1:
                raise self.error(node, "associated() is supported with one argument, a "
                                       "POINTER")
            return ir.Binary("!=", ir.Ref(v.sym, loc), X.null(v.sym.type, loc), ir.INT, loc)
        if name == "allocated":
            v = self.lookup(_name(args[0]), args[0])
            return self.is_allocated(v if v.descriptor else self.allocatable(args[0]),
                                     args[0], loc)
        if name in ("matmul", "pack"):
            raise self.not_here(name, node)
        if name == "transpose":
            if ks is None or len(ks) != 2 or len(self.shape_of(args[0]) or []) != 2:
                raise self.error(node, "transpose is supported on a matrix, in an array "
                                       "assignment or an argument of matmul")
            return self.expr(args[0], [ks[1], ks[0]], pre)
        if name in ("cshift", "eoshift"):
            return self.shifted(name, args, node, ks, pre)
        if name == "reshape":
            return self.reshape_element(node, ks, pre)
        if name == "spread":
            along, _, source = self.spread_dimension(node)
            if ks is None:
                raise self.error(node, "spread is supported in array expressions")
            return self.expr(source, ks[:along] + ks[along + 1:], pre)
        if name == "present":
            v = self.lookup(_name(args[0]), node) \
                if isinstance(args[0], _f2003().Name) else None
            if v is None or not getattr(v.sym, "optional", False) and \
                    v.name not in getattr(self.func, "optional_dummies", ()):
                raise self.error(node, "present() of something that is not an OPTIONAL dummy "
                                       "argument")
            return ir.Binary("!=", ir.Ref(v.sym, loc), X.null(v.sym.type, loc), ir.INT, loc)
        vals = [self.expr(a, ks, pre) for a in args]
        structure = next((a for a, v in zip(args, vals) if v.type.resolved().is_struct), None)
        if structure is not None:
            raise self.error(node, f"{name}() of '{structure}', a value of a derived type, is "
                                   "not supported (a generic interface for the type)")
        if name in _INTRINSIC_MATH:
            t = vals[0].type if vals[0].type.resolved().is_float else ir.DOUBLE
            cname = {"gamma": "tgamma", "log_gamma": "lgamma"}.get(name, name)
            cname = cname[1:] if cname in ("dasinh", "dacosh", "datanh") else cname
            return ir.Call(_fname(cname, t), [_convert(vals[0], t)], t, loc)
        if name in ("atan2", "hypot"):
            t = ir.arith_result(vals[0].type, vals[1].type)
            return ir.Call(_fname(name, t), [_convert(v, t) for v in vals], t, loc)
        if name == "abs":
            t = vals[0].type
            if t.resolved().is_int:
                return ir.Call("abs", vals, ir.INT, loc)
            return ir.Call(_fname("fabs", t), vals, t, loc)
        if name in ("min", "max", "amin1", "amax1", "dmin1", "dmax1", "min0", "max0"):
            kind = "min" if "min" in name else "max"
            t = vals[0].type
            for v in vals[1:]:
                t = ir.arith_result(t, v.type)
            out = _convert(vals[0], t)
            from adgen.ir.c_text import expr_c
            for v in vals[1:]:
                v = _convert(v, t)
                if expr_c(v) == expr_c(out):
                    continue        # min(n, n): n (a C comparison of n with itself warns)
                if t.resolved().is_float:
                    out = ir.Call(_fname("f" + kind, t), [out, v], t, loc)
                else:
                    out = ir.Cond(ir.Binary("<" if kind == "min" else ">", out, v, ir.INT),
                                  X.clone(out), X.clone(v), t, loc)
            return out
        if name in ("mod", "amod", "dmod"):
            t = ir.arith_result(vals[0].type, vals[1].type)
            if t.resolved().is_int:
                return ir.Binary("%", vals[0], vals[1], t, loc)
            return ir.Call(_fname("fmod", t), [_convert(v, t) for v in vals], t, loc)
        if name == "modulo":
            # the remainder with the sign of p: a - floor(a / p) p
            t = ir.arith_result(vals[0].type, vals[1].type)
            a, p = (_convert(v, t) for v in vals)
            if t.resolved().is_int:
                return ir.Binary("%", ir.Binary("+", ir.Binary("%", a, p, t, loc), X.clone(p), t),
                                 X.clone(p), t, loc)
            return X.sub(a, X.mul(ir.Call(_fname("floor", t), [ir.Binary("/", X.clone(a), p, t)],
                                          t), X.clone(p)))
        if name in ("dim", "ddim", "idim"):
            # x - y where positive, else 0
            t = ir.arith_result(vals[0].type, vals[1].type)
            x, y = (_convert(v, t) for v in vals)
            return ir.Cond(ir.Binary(">", x, y, ir.INT), X.sub(X.clone(x), X.clone(y)),
                           X.zero(t), t, loc)
        if name == "merge":
            t = ir.arith_result(vals[0].type, vals[1].type)
            return ir.Cond(vals[2], _convert(vals[0], t), _convert(vals[1], t), t, loc)
        if name in ("sign", "dsign", "isign"):
            t = vals[0].type
            if t.resolved().is_int:
                return ir.Cond(ir.Binary(">=", vals[1], _int(0), ir.INT),
                               ir.Call("abs", [vals[0]], ir.INT),
                               ir.Unary("-", ir.Call("abs", [X.clone(vals[0])], ir.INT), ir.INT),
                               ir.INT, loc)
            return ir.Call(_fname("copysign", t), [ir.Call(_fname("fabs", t), [vals[0]], t),
                                                   _convert(vals[1], t)], t, loc)
        if name in ("real", "float", "sngl"):
            kind = None
            if len(args) > 1:
                kind = self.kind_value(args[1])
            return _convert(vals[0], ir.DOUBLE if kind == 8 else ir.FLOAT)
        if name == "dble":
            return _convert(vals[0], ir.DOUBLE)
        if name in ("int", "ifix", "idint"):
            return ir.Cast(ir.INT, vals[0], loc)
        if name in ("nint", "idnint"):
            return ir.Cast(ir.INT, ir.Call("lround", [_convert(vals[0], ir.DOUBLE)], ir.INT), loc)
        if name == "floor":
            return ir.Cast(ir.INT, ir.Call(_fname("floor", vals[0].type), vals,
                                           vals[0].type), loc)
        if name == "ceiling":
            return ir.Cast(ir.INT, ir.Call(_fname("ceil", vals[0].type), vals,
                                           vals[0].type), loc)
        if name in ("aint", "dint"):
            return ir.Call(_fname("trunc", vals[0].type), vals, vals[0].type, loc)
        if name in ("anint", "dnint"):
            return ir.Call(_fname("round", vals[0].type), vals, vals[0].type, loc)
        if name == "epsilon":
            return ir.Const("2.2204460492503131e-16" if vals[0].type.resolved().name ==
                            "double" else "1.19209290e-07f", vals[0].type, loc)
        if name == "huge":
            return _huge(vals[0].type, loc)
        if name == "tiny":
            return ir.Const("2.2250738585072014e-308", ir.DOUBLE, loc)
        raise self.error(node, f"intrinsic '{name}' is not supported")

    def inquiry(self, name, args, node, ks):
        """size, shape, lbound, ubound. Without DIM, shape, lbound and ubound are arrays
        (of one element per dimension): their element ks[0]."""
        bounds = self.array_bounds(args[0])
        if bounds is None:
            raise self.error(node, f"{name} of a scalar")
        if name == "size" and len(args) == 1:
            total = None
            for k in range(len(bounds)):
                e = self.bound_value(name, bounds, k, node)
                total = e if total is None else X.mul(total, e)
            return total
        values = [self.bound_value(name, bounds, k, node) for k in range(len(bounds))]
        if len(args) > 1:
            which = X.sub(_to_int(self.expr(args[1])), _int(1))
        elif ks is None:
            raise self.error(node, f"{name}(...) is an array; here a scalar is needed")
        else:
            which = ks[0]
        k = _const_int(which)
        if k is not None:
            if not 0 <= k < len(values):
                raise self.error(node, f"{name}: dimension {k + 1} of an array of rank "
                                       f"{len(values)}")
            return values[k]
        out = values[-1]            # values[which] for a dimension known at run time
        for k in range(len(values) - 2, -1, -1):
            out = ir.Cond(ir.Binary("==", X.clone(which), _int(k), ir.INT), values[k], out,
                          ir.INT)
        return out

    def not_here(self, name, node):
        """The error for matmul or pack where no temporary holds its value before the
        statement (pack in a test or a DO bound)."""
        where = "assignments, the arguments of a CALL, tests and DO bounds" \
            if name == "matmul" else "assignments and the arguments of a CALL"
        return self.error(node, f"{name} is supported in {where} (its value goes to a "
                                "temporary first), not in this statement: assign it to an "
                                "array first")

    def array_bounds(self, node):
        """[(lower, extent)] per dimension of an array argument of an inquiry intrinsic:
        a whole array has its declared lower bounds, a section or an array expression
        lower bounds 1; extent None for the last dimension of an assumed-size array."""
        F = _f2003()
        v = self.lookup(_name(node), node) if isinstance(node, F.Name) else None
        if v is not None:
            return [(X.clone(lo), X.clone(ext) if ext is not None else None)
                    for lo, ext in v.dims] if v.dims else None
        shape = self.operand_shape(node)
        return [(_int(1), _count(*d)) for d in shape] if shape else None

    def bound_value(self, name, bounds, k, node):
        lo, ext = bounds[k]
        if name == "lbound":
            return lo
        if ext is None:
            raise self.error(node, f"{name}: the last dimension of an assumed-size array "
                                   "has no extent")
        return X.sub(X.add(lo, ext), _int(1)) if name == "ubound" else ext

    def reduction(self, name, args, node, pre, ks=None):
        loc = self.loc(node)
        if name in ("maxloc", "minloc"):
            return self.location(name, args, node, pre, ks)
        mask = None
        along = (self.reduced_dimension(node) or (None,))[0]   # DIM of a rank 2 or more
        if along is not None and ks is None:
            raise self.error(node, f"{name} with DIM of an array of rank "
                                   f"{len(self.operand_shape(args[0]))}"
                                   " is supported in array expressions")
        if name in _ALONG and len(args) >= 2:
            rank = len(self.operand_shape(args[0]) or ())
            if args[1] is None or along is not None or \
                    (rank == 1 and _const_int(self.expr(args[1])) == 1):
                # DIM=1 of a rank-1 array reduces it whole; MASK=: the elements where it holds
                mask = args[2] if len(args) > 2 else None
                args = args[:1]
        if len(args) > (2 if name == "dot_product" else 1):
            raise self.error(node, f"{name} with DIM is not supported")
        shape = self.operand_shape(args[0])
        if shape is None:
            F = _f2003()
            for inner in _walk_type(args[0], F.Intrinsic_Function_Reference):
                if _name(inner.items[0]) in ("maxloc", "minloc"):
                    self.expr(inner)    # its own refusal: an array result (DIM, rank 2)
            raise self.error(node, f"{name} of a scalar")
        if name == "dot_product":
            t = ir.arith_result(self.elem_type(args[0]), self.elem_type(args[1]))
        elif name in ("count", "any", "all"):
            t = ir.INT
        else:
            t = self.elem_type(args[0])
        acc = self.temp(name, t)
        if name in ("sum", "dot_product", "count", "norm2"):
            init = X.zero(t)
        elif name == "product":
            init = X.const(1, t)
        elif name == "any":
            init = _int(0)
        elif name == "all":
            init = _int(1)
        else:
            # of no element (or none the mask selects): -huge for maxval, huge for minval
            init = _huge(t) if name == "minval" else ir.Unary("-", _huge(t), t)
        if self.loop_invariant and along is None:
            # Inside an array assignment, a reduction is the same for every element:
            # computed once, before the loops (so also before they change what it reads).
            pre = self.loop_invariant[-1]
        pre.append(ir.Assign(ir.Ref(acc), init, loc))

        def make(ks, inner_pre):
            target, value = fold(ks, inner_pre)
            if mask is not None:
                value = ir.Cond(self.expr(mask, ks, inner_pre), value, X.clone(target), t)
            return target, value

        def fold(ks, inner_pre):
            x = self.expr(args[0], ks, inner_pre)
            if name == "sum":
                v = ir.Binary("+", ir.Ref(acc), x, t)
            elif name == "product":
                v = ir.Binary("*", ir.Ref(acc), x, t)
            elif name == "dot_product":
                v = ir.Binary("+", ir.Ref(acc), ir.Binary(
                    "*", x, self.expr(args[1], ks, inner_pre), t), t)
            elif name == "norm2":
                v = ir.Binary("+", ir.Ref(acc), ir.Binary("*", x, X.clone(x), t), t)
            elif name == "count":
                v = ir.Binary("+", ir.Ref(acc), ir.Cond(x, _int(1), _int(0), ir.INT), ir.INT)
            elif name == "any":
                v = ir.Binary("||", ir.Ref(acc), x, ir.INT)
            elif name == "all":
                v = ir.Binary("&&", ir.Ref(acc), x, ir.INT)
            else:
                fn = _fname("fmin" if name == "minval" else "fmax", t)
                v = ir.Call(fn, [ir.Ref(acc), x], t)
            return ir.Ref(acc), v

        if along is not None:
            # element ks of the result: a loop along dimension `along` of the array, the
            # other indices ks
            self.elementwise([shape[along]], lambda kin, inner_pre: make(
                ks[:along] + kin + ks[along:], inner_pre), pre, loc)
        else:
            self.elementwise(shape, make, pre, loc)
        if name == "norm2":
            return ir.Call(_fname("sqrt", t), [ir.Ref(acc)], t, loc)
        return ir.Ref(acc)

    def reshape_shape(self, node):
        """For reshape(source, shape) of an array: (the source's parse tree, the extents of
        the result, one per element of shape, a rank-1 array of a constant size); None for
        anything else. PAD and ORDER are refused."""
        F = _f2003()
        if not isinstance(node, F.Intrinsic_Function_Reference) or \
                _name(node.items[0]) != "reshape":
            return None
        args = self.intrinsic_arguments("reshape", node.items[1].items, node)
        if len(args) < 2 or any(a is not None for a in args[2:]):
            raise self.error(node, "reshape is supported with SOURCE and SHAPE only (not PAD "
                                   "or ORDER)")
        source, shp = args[:2]
        if not self.operand_shape(source):
            raise self.error(node, "reshape of a scalar")
        if isinstance(shp, F.Array_Constructor):
            return source, [_to_int(self.expr(it)) for it in _constructor_items(shp)]
        sshape = self.operand_shape(shp)
        rank = _const_int(_count(*sshape[0])) if sshape and len(sshape) == 1 else None
        if rank is None or not isinstance(shp, (F.Name, F.Part_Ref)):
            raise self.error(node, "reshape: SHAPE must be an array constructor or an array "
                                   "of a constant size")
        return source, [_to_int(self.designator(shp, [_int(k)])) for k in range(rank)]

    def reshape_element(self, node, ks, pre):
        """Element ks of reshape(source, shape): the element of source at the same position
        in column-major order."""
        source, extents = self.reshape_shape(node)
        if ks is None:
            raise self.error(node, "reshape is supported in array expressions")
        linear = X.clone(ks[-1])
        for k, ext in zip(reversed(ks[:-1]), reversed(extents[:-1])):
            linear = X.add(X.mul(linear, X.clone(ext)), X.clone(k))
        counts = [_count(*d) for d in self.operand_shape(source)]
        index, below = [], None
        for j, c in enumerate(counts):
            at = linear if below is None else ir.Binary("/", X.clone(linear), below, ir.INT)
            if j < len(counts) - 1:
                at = ir.Binary("%", at, X.clone(c), ir.INT)
            index.append(at)
            below = X.clone(c) if below is None else X.mul(below, X.clone(c))
        return self.expr(source, index, pre)

    def spread_dimension(self, node):
        """For spread(source, dim, ncopies) of an array: (the new dimension, counted from
        0, the number of copies, the source's parse tree); None for anything else."""
        F = _f2003()
        if not isinstance(node, F.Intrinsic_Function_Reference) or \
                _name(node.items[0]) != "spread":
            return None
        args = self.intrinsic_arguments("spread", node.items[1].items, node)
        if len(args) != 3 or None in args:
            raise self.error(node, "spread needs SOURCE, DIM and NCOPIES")
        rank = len(self.operand_shape(args[0]) or ())
        if rank == 0:
            raise self.error(node, "spread of a scalar is not supported (of an array is)")
        dim = _const_int(self.expr(args[1]))
        if dim is None or not 1 <= dim <= rank + 1:
            raise self.error(node, f"spread: DIM must be a constant from 1 to {rank + 1}")
        return dim - 1, _to_int(self.expr(args[2])), args[0]

    def reduced_dimension(self, node):
        """For sum, product, maxval, minval or norm2 with DIM of an array of rank 2 or more
        (an array result): (the dimension it reduces, counted from 0, the array's parse
        tree); None otherwise."""
        F = _f2003()
        if not isinstance(node, F.Intrinsic_Function_Reference) or \
                _name(node.items[0]) not in _ALONG:
            return None
        args = self.intrinsic_arguments(_name(node.items[0]), node.items[1].items, node)
        if len(args) < 2 or args[1] is None:
            return None
        rank = len(self.operand_shape(args[0]) or ())
        if rank < 2:
            return None
        dim = _const_int(self.expr(args[1]))
        if dim is None or not 1 <= dim <= rank:
            raise self.error(node, f"{_name(node.items[0])}: DIM must be a constant from 1 to "
                                   f"{rank}")
        return dim - 1, args[0]

    def location(self, name, args, node, pre, ks=None):
        """maxloc(a[, dim=1]) and minloc(a[, dim=1]): the position, counting from 1 in
        each dimension, of the first (in array element order) largest (smallest) element;
        NaNs are passed over, and an array of NaNs only gives 1s (as gfortran does); 0s
        for an empty array. Of a rank-1 array, one position: the result, an array of one
        element, broadcast; of rank r without DIM, an array of r positions, element ks[0]
        here (see location_rank)."""
        loc = self.loc(node)
        shape = self.operand_shape(args[0])
        dim = len(args) > 1 and args[1] is not None
        if shape is None or (dim and (len(shape) != 1 or _const_int(self.expr(args[1])) != 1)):
            raise self.error(node, f"{name} is supported without DIM, or with DIM=1 of a "
                                   "rank-1 array")
        if len(args) > 2:
            raise self.error(node, f"{name} with MASK, KIND or BACK is not supported")
        if len(shape) > 1 and ks is None:
            raise self.error(node, f"{name} of a rank-{len(shape)} array is an array of "
                                   f"{len(shape)} positions: assign it to an integer array")
        t = self.elem_type(args[0])
        best = self.temp(name + "_value", t)
        positions = [self.temp(name, ir.INT) for _ in shape]
        if self.loop_invariant:
            pre = self.loop_invariant[-1]       # as for the other reductions
        integer = t.resolved().is_int
        big = ir.Const("INFINITY", t)
        pre.append(ir.Assign(ir.Ref(best), X.zero(t) if integer else big if name == "minloc"
                             else ir.Unary("-", big, t), loc))
        pre += [ir.Assign(ir.Ref(p), _int(0), loc) for p in positions]
        better, reached = (">", ">=") if name == "maxloc" else ("<", "<=")
        first_pos = positions[0]
        taken = self.temp(name + "_taken", ir.INT) if len(shape) > 1 else None

        def make(counters, inner_pre):
            x = self.expr(args[0], counters, inner_pre)
            # strictly better, or the first element (for reals, the first that is not a NaN)
            first = ir.Binary("==", ir.Ref(first_pos), _int(0), ir.INT)
            if not integer:
                first = ir.Binary("&&", first, ir.Binary(reached, X.clone(x), ir.Ref(best),
                                                         ir.INT), ir.INT)
            take = ir.Binary("||", ir.Binary(better, x, ir.Ref(best), ir.INT), first, ir.INT)
            if taken is not None:
                inner_pre.append(ir.Assign(ir.Ref(taken), take, loc))
                take = ir.Ref(taken)
            for p, k in zip(positions, counters):
                inner_pre.append(ir.Assign(ir.Ref(p), ir.Cond(
                    X.clone(take), X.add(X.clone(k), _int(1)), ir.Ref(p), ir.INT), loc))
            here = ir.Binary("==", ir.Ref(first_pos), X.add(X.clone(counters[0]), _int(1)),
                             ir.INT) if taken is None else ir.Ref(taken)
            return ir.Ref(best), ir.Cond(here, X.clone(x), ir.Ref(best), t)

        self.elementwise(shape, make, pre, loc)
        size = functools.reduce(X.mul, [_count(*d) for d in shape])
        empty_or_found = ir.Binary("||", ir.Binary("!=", ir.Ref(first_pos), _int(0), ir.INT),
                                   ir.Binary("<=", size, _int(0), ir.INT), ir.INT)
        pre += [ir.Assign(ir.Ref(p), ir.Cond(X.clone(empty_or_found), ir.Ref(p), _int(1),
                                             ir.INT), loc) for p in positions]
        if len(shape) == 1:
            return ir.Ref(first_pos)
        value = ir.Ref(positions[-1])
        for k in range(len(shape) - 2, -1, -1):
            value = ir.Cond(ir.Binary("==", X.clone(ks[0]), _int(k), ir.INT),
                            ir.Ref(positions[k]), value, ir.INT)
        return value

    def location_rank(self, node):
        """The rank of the array of maxloc or minloc without DIM when it is 2 or more (the
        result is then an array of that many positions), else None."""
        F = _f2003()
        if not isinstance(node, F.Intrinsic_Function_Reference) or \
                _name(node.items[0]) not in ("maxloc", "minloc"):
            return None
        args = self.intrinsic_arguments(_name(node.items[0]), node.items[1].items, node)
        if len(args) > 1 and args[1] is not None:
            return None
        rank = len(self.operand_shape(args[0]) or ())
        return rank if rank > 1 else None

    def shifted(self, name, args, node, ks, pre):
        """cshift(a, s[, dim]): along dimension dim (1 by default), element k of the result
        is element (k + s) mod n of a, counting from 0 (s may be negative); the other
        indices are the result's. eoshift(a, s[, boundary, dim]): element k + s of a where
        that is one of its elements, else boundary (0 by default). The shift and the
        boundary must be scalars, DIM a constant."""
        shape = self.operand_shape(args[0])
        at = 2 if name == "cshift" else 3
        dim = _const_int(self.expr(args[at])) \
            if len(args) > at and args[at] is not None else 1
        if ks is None or shape is None or len(ks) != len(shape):
            raise self.error(node, f"{name} is supported in array expressions")
        if dim is None or not 1 <= dim <= len(shape):
            raise self.error(node, f"{name}: DIM must be a constant from 1 to {len(shape)}")
        if self.operand_shape(args[1]):
            raise self.error(node, f"{name} with an array of shifts is not supported (a "
                                   "scalar shift is)")
        if name == "eoshift" and len(args) > 2 and args[2] is not None and \
                self.operand_shape(args[2]):
            raise self.error(node, "eoshift with an array of boundaries is not supported (a "
                                   "scalar boundary is)")
        n = _count(*shape[dim - 1])
        shift = _to_int(self.expr(args[1], None, pre))
        k = X.add(X.clone(ks[dim - 1]), shift)
        if name == "cshift":
            k = ir.Binary("%", k, n, ir.INT)
            k = ir.Binary("%", ir.Binary("+", k, X.clone(n), ir.INT), X.clone(n), ir.INT)
            return self.expr(args[0], ks[:dim - 1] + [k] + ks[dim:], pre)
        if any(self.called_function(c) is not None for c in _walk_nodes(args[0])):
            # (its elements beyond the ends must not be evaluated)
            raise self.error(node, "eoshift of an expression calling a function is not "
                                   "supported: assign the expression to an array first")
        inside = ir.Binary("&&", ir.Binary(">=", X.clone(k), _int(0), ir.INT),
                           ir.Binary("<", X.clone(k), n, ir.INT), ir.INT)
        value = self.expr(args[0], ks[:dim - 1] + [k] + ks[dim:], pre)
        boundary = self.expr(args[2], None, pre) if len(args) > 2 and args[2] is not None \
            else ir.Const("0", value.type)
        return ir.Cond(inside, value, _convert(boundary, value.type), value.type)

    def operand_shape(self, node):
        """The shape of an operand, a designator or an array-valued expression; None (or
        empty) for a scalar."""
        F = _f2003()
        if isinstance(node, F.Intrinsic_Function_Reference) and \
                _name(node.items[0]) in ("matmul", "pack"):
            raise self.not_here(_name(node.items[0]), node)
        return self.shape_of(node) or self.expr_shape(node)

    def operand_extents(self, node):
        """dimension_extents of an operand; None per dimension for an expression."""
        F = _f2003()
        if isinstance(node, (F.Name, F.Part_Ref)):
            return self.dimension_extents(node)
        return [None] * len(self.operand_shape(node))

    def expr_shape(self, node):
        """The shape of an array-valued expression: that of its first array operand."""
        r = self.shape_source(node)
        return self.shape_of(r) if r is not None else None

    def shape_source(self, node):
        """The first array operand of an array-valued expression, whose shape it has."""
        return next((r for r in _array_refs(node, self.is_operand)
                     if self.shape_of(r) is not None), None)

    def is_operand(self, name):
        """Whether a name in an array expression stands for operands taken element by
        element: an array, or an elemental function (its arguments are operands too)."""
        return self.is_array(name) or self.is_elemental(name)

    def dimension_extents(self, node):
        """For each dimension of shape_of(node), the extent of the array dimension it runs
        over (None where unknown)."""
        F = _f2003()
        if _array_inquiry(node):
            return [None]
        reshaped = self.reshape_shape(node)
        if reshaped is not None:
            return [None] * len(reshaped[1])
        spread = self.spread_dimension(node)
        if spread is not None:
            along, _, source = spread
            extents = self.operand_extents(source)
            return extents[:along] + [None] + extents[along:]
        reduced = self.reduced_dimension(node)
        if reduced is not None:
            along, arg = reduced
            extents = self.operand_extents(arg)
            return extents[:along] + extents[along + 1:]
        if self.location_rank(node) is not None:
            return [None]
        v = self.array_var(_base_name(node), node)
        if isinstance(node, F.Name):
            return [ext for _, ext in v.dims]
        return [ext if isinstance(sub, F.Subscript_Triplet) else None
                for (_, ext), sub in zip(v.dims, node.items[1].items)
                if isinstance(sub, F.Subscript_Triplet) or self.vector_subscript(sub, node)]

    def elem_type(self, node):
        if self.location_rank(node) is not None:
            return ir.INT           # maxloc, minloc: positions
        for r in _array_refs(node):
            if _array_inquiry(r):
                return ir.INT
            v = self.array_var(_base_name(r), r)
            if v is not None:
                return v.type
        return ir.DOUBLE

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
        args = _call_arguments(node)
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
            key = _keyword(a)
            if key is None and k >= len(dummies) or key is not None and key not in dummies:
                return False
            given[dummies.index(key) if key is not None else k] = _argument_value(a)
        optional = getattr(f, "optional_dummies", set())
        if any(k not in given and d not in optional for k, d in enumerate(dummies)):
            return False
        for k, a in given.items():
            p = f.params[k]
            want = ir.pointee(p.type).resolved() if p.type.resolved().is_pointer \
                else p.type.resolved()
            rank, elem = self.argument_kind(a)
            if rank != getattr(p, "fortran_rank", 0) or elem != want:
                return False
        return True

    def argument_kind(self, a):
        """(rank, element type) of an actual argument."""
        F = _f2003()
        products = []

        def look(n):
            if isinstance(n, F.Intrinsic_Function_Reference) and \
                    _name(n.items[0]) in ("matmul", "pack"):
                products.append(n)
            return not isinstance(n, (F.Intrinsic_Function_Reference, F.Part_Ref)) and \
                type(n).__name__ not in _CALL_NODES
        _visit(a, look)
        if products and products[0] is not a and not self.expr_shape(a):
            # an array expression whose only array operand is a product (`0.4d0 *
            # matmul(q, v) ** 2`): it has the product's rank
            return self.argument_kind(products[0])
        if isinstance(a, F.Intrinsic_Function_Reference) and \
                _name(a.items[0]) in ("matmul", "pack"):
            # (their shapes are the temporaries' they get later: see without_products)
            args = self.intrinsic_arguments(_name(a.items[0]), a.items[1].items, a)
            if _name(a.items[0]) == "pack":
                return 1, self.elem_type(args[0]).resolved()
            ranks = [len(self.operand_shape(x) or ()) for x in args[:2]]
            return 1 if 1 in ranks else 2, ir.arith_result(
                self.elem_type(args[0]), self.elem_type(args[1])).resolved()
        shape = self.operand_shape(a)
        if shape:
            return len(shape), self.elem_type(a).resolved()
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
        return f

    def call_args(self, f, args, node, pre, strings, ks=None, post=None):
        """Fortran passes every argument by reference. An array given for a scalar dummy
        of an elemental function passes its current element (ks), through a temporary.
        strings: {position: (pointer, length)} of the CHARACTER arguments; post: where
        statements after the call go (a CALL statement's; None in a function
        reference)."""
        F = _f2003()
        out = []
        for k, a in enumerate(args):
            if a is None:
                # an OPTIONAL dummy left out: a null pointer
                out.append(X.null(f.params[k].type, self.loc(node)))
                continue
            if k in strings:
                out.append(strings[k][0])       # its length: see user_call
                continue
            if k < len(f.params) and isinstance(f.params[k].type.resolved(), ir.FuncPtr):
                out.append(self.procedure_argument(f, k, a, node))
                continue
            if self.array_for_scalar(f, k, a):
                if ks is None or not getattr(f, "elemental", False):
                    raise self.error(a, f"array '{a}' passed for a scalar dummy argument of "
                                        f"'{_name(node.items[0])}'" + (
                                            " outside an array expression (not supported)"
                                            if getattr(f, "elemental", False) else ""))
                out.append(self.argument_temporary(f, k, self.expr(a, ks, pre), a, pre))
                continue
            if isinstance(a, F.Name):
                v = self.lookup(_name(a), a)
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
                v = self.array_var(_name(a.items[0]), a)
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
        return out

    def procedure_argument(self, f, k, a, node):
        """The procedure passed for dummy procedure k of f: a dummy procedure of this
        scope passed on, or a procedure of the input by name (callbacks.py makes the
        copies that call it)."""
        F = _f2003()
        name = _name(a) if isinstance(a, F.Name) else None
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
        pre.append(ir.Assign(ir.Ref(tmp), _convert(value, t), self.loc(a)))
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
        F = _f2003()
        partial = False         # an earlier dimension is not taken whole
        for (lo, ext), sub in zip(v.dims, section.items[1].items):
            if not isinstance(sub, F.Subscript_Triplet):
                if self.vector_subscript(sub, section):
                    return False
                partial = True
                continue
            lower, upper, stride = sub.items
            if partial or (stride is not None and _const_int(self.expr(stride)) != 1):
                return False
            whole = (lower is None or self.is_declared_bound(lower, lo, section)) and \
                (upper is None or ext is None or self.is_declared_bound(
                    upper, X.sub(X.add(X.clone(lo), X.clone(ext)), _int(1)), section))
            partial = not whole
        return True

    def section_copy(self, f, k, v, a, args, pre, post):
        """A section argument whose elements are not contiguous in memory (`u(i, :)`,
        `x(1:n:2)`, `u(idx)`), passed as gfortran passes one to an explicit-shape dummy:
        copied into a temporary before the call and back after it, unless dummy k is
        INTENT(IN). The copies are assignments like any other, so the derivatives follow
        them. Refused where the copy back cannot be made: in a function reference (no
        statement after the call), and for a vector subscript (not definable)."""
        F = _f2003()
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
            called = next((n for n in _walk_type(a.items[1], (F.Part_Ref,) + tuple(
                getattr(F, c) for c in _CALL_NODES)) if self.called_function(n)), None)
            if called is not None:
                raise self.error(a, f"the array section '{a}' is not contiguous in memory, "
                                    "so it is passed through a copy and copied back after "
                                    f"the call, which would call '{_name(called.items[0])}' "
                                    "in its subscripts a second time: set a variable to its "
                                    "value first")
            passed = {_base_name(b) for j, b in enumerate(args)
                      if j != k and isinstance(b, (F.Name, F.Part_Ref)) and not (
                          j < len(f.params) and getattr(f.params[j], "intent_in", False))}
            for n in _walk_type(a.items[1], F.Name):
                w = self.vars.get(_name(n))
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
        F = _f2003()
        dummy = f.params[k] if k < len(f.params) else None
        back = not getattr(dummy, "intent_in", False)
        key = self.storage_key(_name(a))
        aliased = any(j != k and isinstance(b, (F.Name, F.Part_Ref)) and
                      self.storage_key(_base_name(b)) == key
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
            b = X.sub(X.add(X.clone(lo), X.clone(ext)), _int(1))
        else:
            raise self.error(node, "open upper bound on an assumed-size array")
        st = self.expr(sub.items[2]) if sub.items[2] is not None else _int(1)
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
            names = ", ".join(sorted({_storage_name(p.entry_value) for p in placeholders}))
            self.entry_assumptions.append((placeholders, self.error(
                section, f"whether the array section '{section}' is contiguous in memory "
                         f"depends on '{names}', which the procedure changes: it cannot be "
                         "passed as an argument; copy it into an array first")))
        return True

    def call_extents(self, f, args, node):
        """The hidden extent arguments of the callee's assumed-shape dummies, from the
        shapes of the actual arguments."""
        F = _f2003()
        out = []
        for param, a in zip(f.params, args):
            rank = len(getattr(param, "extent_params", ()))
            if not rank:
                continue
            v = self.array_var(_name(a), a) if isinstance(a, F.Name) else None
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
                    e = _convert(X.clone(e), ir.INT)
                    e.loc = self.loc(node)
                    out.append(e)
                continue
            if v is not None:
                extents = [ext for _, ext in v.dims]
            else:
                shape = self.shape_of(a) if isinstance(a, F.Part_Ref) else self.expr_shape(a)
                extents = [_count(*d) for d in shape or []]
            if len(extents) != rank:
                raise self.error(node, f"'{a}' passed to '{param.name}', an assumed-shape "
                                       f"array of rank {rank}: the ranks differ")
            if any(e is None for e in extents):
                raise self.error(node, f"the assumed-size array '{a}' has no shape to pass "
                                       f"to the assumed-shape dummy '{param.name}'")
            for e in extents:
                e = _convert(X.clone(e), ir.INT)
                e.loc = self.loc(node)          # not that of the array's declaration
                out.append(e)
        return out

    def actual_arguments(self, f, name, args, node):
        """The actual arguments of a call of f in the order of its dummy arguments, a
        keyword argument (`b=x`) in the place of the dummy it names: as the caller sees
        them, in an interface block, or else in f's source."""
        dummies = self.interfaces.get(name, getattr(f, "dummy_names", None))
        if dummies is None:
            keyword = next((_keyword(a) for a in args if _keyword(a)), None)
            if keyword is not None:
                raise self.error(node, f"keyword argument '{keyword}=' in a call of '{name}', "
                                       "which is not in the input and has no interface block: "
                                       "adgen cannot tell which dummy argument it names; pass "
                                       f"the arguments in order or give the source of '{name}' "
                                       "too")
            return [_argument_value(a) for a in args]
        values = self.match_arguments(name, dummies, args, node)
        optional = getattr(f, "optional_dummies", set()) if name not in self.interfaces else ()
        missing = next((d for d, v in zip(dummies, values) if v is None and d not in optional),
                       None)
        if missing is not None:
            raise self.error(node, f"the call of '{name}' gives no argument '{missing}', "
                                   "which is not an OPTIONAL dummy of a procedure in the input")
        return values

    def intrinsic_arguments(self, name, args, node):
        """The arguments of an intrinsic in the order of its dummy arguments, keyword
        arguments (`size(x, dim=2)`) included."""
        if not any(_keyword(a) for a in args):
            return [_argument_value(a) for a in args]
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
            keyword = _keyword(a)
            if keyword is None and k >= len(dummies):
                raise self.error(node, f"'{name}' called with {len(args)} arguments; it has "
                                       f"{len(dummies)}")
            if keyword is not None and keyword not in dummies:
                raise self.error(node, f"'{name}' has no dummy argument '{keyword}'")
            slot = k if keyword is None else dummies.index(keyword)
            if values[slot] is not None:
                raise self.error(node, f"the dummy argument '{dummies[slot]}' of '{name}' is "
                                       "given twice")
            values[slot] = _argument_value(a)
        return values

    def user_call(self, name, args, node, pre, ks=None, post=None, results=()):
        """A call of a procedure; ks: the counters of the current element when the call
        is an elemental function's in an array expression; post: see call_args; results:
        for a function that returns an array, the address of the array it stores its result
        in (or the addresses that get an ALLOCATABLE result, see handover_params)."""
        f = self.callee(name, node)
        args = self.actual_arguments(f, name, args, node)
        strings = {k: self.string(a, pre, whole_array=True) for k, a in enumerate(args)
                   if a is not None and self.is_string(a)}
        # the lengths of the CHARACTER arguments, in their order, after all the others
        # (size_t, by value), as gfortran passes them: 0 for a left-out OPTIONAL one
        size_t = ir.Prim("size_t")
        dummies = [f.params.index(p.char_len_of) for p in f.params
                   if getattr(p, "char_len_of", None) in f.params]
        lengths = [_convert(strings[k][1], size_t) if k in strings else
                   ir.Cast(size_t, _int(0)) for k in dummies or strings]
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
            else:
                lv = self.value(v, node)
                cargs.append(ir.AddrOf(lv, ir.Ptr(lv.type), self.loc(node)))
        for hname, dim, which, _ in getattr(f, "host_bounds", []):
            # the bounds of the host arrays that are not constants, as the caller sees them
            e = _convert(X.clone(self.lookup(hname, node).dims[dim][which]), ir.INT)
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
            self.structure_assignment(_f2003().Name(sym.name), node, pre, self.loc(node))
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
            kind, t = self.implicit.get(name[0], ("real", None))
            f.ret = t or (ir.INT if kind == "integer" else ir.FLOAT)
        if not f.has_body and _returns_array(self.interface_bodies.get(name)):
            raise self.error(node, f"function '{name}' returns an array and adgen has only "
                                   "its interface: give its source too")
        if getattr(f, "array_result", False):
            # (the references in assignments, calls and conditions are calls before them:
            # without_array_functions)
            raise self.error(node, f"function '{name}' returns an array: supported in "
                                   "assignments, CALL statements and conditions, not here "
                                   "(assign its value to an array first)")
        call = self.user_call(name, args, node, pre, ks)
        call.type = f.ret
        return call


# the parts of gfortran's array descriptors (see FFront.descriptor_type)
_DESCRIPTOR_DTYPE = ir.Struct(ir.StructDef("adgen_gfc_dtype", [
    ("elem_len", ir.Prim("unsigned long")), ("version", ir.INT),
    ("rank", ir.Prim("signed char")), ("type", ir.Prim("signed char")),
    ("attribute", ir.Prim("short"))]))
_DESCRIPTOR_DIM = ir.Struct(ir.StructDef("adgen_gfc_dim", [
    ("stride", ir.LONG), ("lower_bound", ir.LONG), ("ubound", ir.LONG)]))

_UNSUPPORTED_JUMPS = {"Assigned_Goto_Stmt": "assigned GOTO", "Assign_Stmt": "ASSIGN"}


def _jump_chain(cases, loc):
    """if (test1) goto label1; else if (test2) goto label2; ... (a None test: else)."""
    return _if_chain([(test, [jumps.Goto(label, loc)], loc, []) for test, label in cases])
_INQUIRY = ("size", "shape", "lbound", "ubound")     # of an array's bounds, not values
# of an array's values: a scalar
_REDUCTIONS = ("sum", "product", "maxval", "minval", "dot_product", "count", "any", "all",
               "norm2", "maxloc", "minloc")
# The statements the derivative code leaves out (output, STOP)
_IO_STATEMENTS = ("Print_Stmt", "Write_Stmt", "Open_Stmt", "Close_Stmt", "Stop_Stmt",
                  "Flush_Stmt", "Rewind_Stmt", "Format_Stmt", "Error_Stop_Stmt")
# The intrinsics whose value is a CHARACTER string
_STRING_INTRINSICS = ("trim", "adjustl", "adjustr", "repeat", "char", "achar", "new_line")
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
    **{n: ("x",) for n in _INTRINSIC_MATH | {"kind", "epsilon", "huge", "tiny"}},
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
# The specific names of FORTRAN 77 (DEXP, ALOG, ...): the generic intrinsic they name
_SPECIFIC_NAMES = {"dexp": "exp", "dsqrt": "sqrt", "dabs": "abs", "iabs": "abs",
                   "dlog": "log", "alog": "log", "dlog10": "log10", "alog10": "log10",
                   "dsin": "sin", "dcos": "cos", "dtan": "tan", "dasin": "asin",
                   "dacos": "acos", "datan": "atan", "datan2": "atan2", "dsinh": "sinh",
                   "dcosh": "cosh", "dtanh": "tanh", "dfloat": "dble", "dreal": "dble"}
_OTHER_INTRINSICS = {"kind", "selected_real_kind", "selected_int_kind", "abs", "min", "max",
                     "mod", "sign", "real", "dble", "int", "nint", "floor", "ceiling", "sum",
                     "product", "maxval", "minval", "dot_product", "size", "shape", "lbound",
                     "ubound", "atan2", "hypot", "amin1", "amax1", "dmin1", "dmax1", "float",
                     "sngl", "aint", "anint", "epsilon", "huge", "tiny", "count", "any", "all",
                     "matmul", "transpose", "norm2", "allocated", "associated", "dmod",
                     "amod", "dsign",
                     "isign", "min0", "max0", "ifix", "idint", "idnint", "dint", "dnint",
                     "modulo", "dim", "ddim", "idim", "merge", "cshift", "eoshift", "maxloc",
                     "minloc", "present", "spread", "reshape", "len", "len_trim", "trim",
                     "index", "adjustl", "adjustr", "repeat", "char", "achar", "ichar",
                     "iachar", "new_line"}


# ------------------------------------------------------------------ helpers

def _int(v):
    return ir.Const(str(v), ir.INT)


def _const_int(e):
    if isinstance(e, ir.Const) and e.text.lstrip("-").isdigit():
        return int(e.text)
    if isinstance(e, ir.Unary) and e.op == "-":
        v = _const_int(e.arg)
        return -v if v is not None else None
    return None


def X_const_text(e):
    if isinstance(e, ir.Const):
        return e.text
    raise ValueError("not a constant")


def _malloc(ptr_type, count, loc):
    """(T *)malloc((size_t)count * sizeof(T)) for ptr_type T *."""
    nbytes = ir.Binary("*", ir.Cast(ir.SIZE_T, count), ir.SizeOf(ptr_type.target), ir.SIZE_T)
    return ir.Cast(ptr_type, ir.Call("malloc", [nbytes], ir.Ptr(ir.VOID), loc))


def _descriptor_field(desc, part, k=None, which=None):
    """A field of gfortran's array descriptor desc: `offset`, `dim[k].stride`,
    `dtype.rank`."""
    sdef = desc.type.resolved().sdef
    e = ir.Member(X.clone(desc), part, False, sdef.field_type(part))
    if part == "dim":
        e = ir.Index(e, _int(k), _DESCRIPTOR_DIM)
        return ir.Member(e, which, False, ir.LONG)
    if which is not None:
        inner = e.type.resolved().sdef
        return ir.Member(e, which, False, inner.field_type(which))
    return e


def _descriptor_bound(e):
    """Whether e reads a bound of an array descriptor (an allocatable component's or
    module variable's, known once it is allocated)."""
    return isinstance(e, ir.Member) and isinstance(e.base, ir.Index) and \
        e.base.type is _DESCRIPTOR_DIM


def _free(sym, loc):
    """free(sym);"""
    return ir.ExprStmt(ir.Call("free", [ir.Ref(sym, loc)], ir.VOID, loc), loc)


def _extent(lo, hi):
    return X.add(X.sub(X.clone(hi), X.clone(lo)), _int(1)) if _const_int(lo) != 1 \
        else X.clone(hi)


def _huge(t, loc=None):
    """The largest number of type t (Fortran's huge)."""
    name = t.resolved().name
    text = {"double": "1.7976931348623157e+308", "float": "3.40282347e+38f",
            "long": "9223372036854775807L", "long long": "9223372036854775807LL"}.get(
        name, "2147483647")
    return ir.Const(text, t, loc)


def _increment(sym, loc=None):
    """sym = sym + 1, sym an int variable."""
    return ir.Assign(ir.Ref(sym), ir.Binary("+", ir.Ref(sym), _int(1), ir.INT), loc)


def _char_loop(k, n, target, value, loc):
    """for (k = 0; k < n; k++) target = value; (k a long counter)."""
    return ir.For([ir.Assign(ir.Ref(k), _int(0), loc)], ir.Binary("<", ir.Ref(k), n, ir.INT),
                  [ir.Assign(ir.Ref(k), ir.Binary("+", ir.Ref(k), _int(1), ir.LONG), loc)],
                  ir.Block([ir.Assign(target, value, loc)]), loc)


def _c_char(ch):
    """A C character constant."""
    return "'\\''" if ch == "'" else "'\\\\'" if ch == "\\" else f"'{ch}'" \
        if " " <= ch <= "~" else f"'\\x{ord(ch):02x}'"


def _long(e):
    """An integer expression as a long (a length or a position in a string), constants
    as they are."""
    return e if _const_int(e) is not None else _convert(e, ir.LONG)


def _implied_values(implied):
    """The value items of an implied-do list of an array constructor."""
    values = implied.items[0]
    return values.items if type(values).__name__ == "Ac_Value_List" else [values]


def _concatenated(node):
    """The operands of a // b // ..., in order."""
    if type(node).__name__ == "Level_3_Expr":
        return _concatenated(node.items[0]) + _concatenated(node.items[2])
    return [node]


def _is_pack(node):
    return isinstance(node, _f2003().Intrinsic_Function_Reference) and \
        _name(node.items[0]) == "pack"


def _at_least_zero(e):
    """e, or 0 where e is below 0 (an extent, a trip count)."""
    c = _const_int(e)
    if c is not None:
        return _int(max(c, 0))
    return ir.Cond(ir.Binary(">", e, _int(0), ir.INT), X.clone(e), _int(0), ir.INT)


def _count(lo, hi, st):
    """Number of elements of lo:hi:st."""
    s = _const_int(st)
    span = X.sub(X.clone(hi), X.clone(lo))
    if s == 1:
        return X.add(span, _int(1))
    return ir.Binary("/", X.add(span, X.clone(st)), X.clone(st), ir.INT)


def _temp_size(extents, dependency, loc):
    """The size of a temporary array from [(extent, whole extent)] per dimension: the
    whole extent where dependency(extent) (see Scope.size_dependency) is not None."""
    size = None
    for e, whole in extents:
        changed = dependency(e)
        if changed:
            if whole is None or _reads_variables(whole):
                raise AdgenError(f"this array expression needs a temporary array whose size "
                                 f"depends on '{changed}', which the procedure sets or "
                                 "calls; write its bounds with dummy arguments, size(...) or "
                                 "constants", loc)
            e = X.clone(whole)
        size = e if size is None else X.mul(size, e)
    return _c_array_length(size)


def _c_array_length(size):
    """The length of the C array of a Fortran array of `size` elements: at least 1 (an
    empty section or automatic array would give a C array of no or negative length, which
    gcc reports on paths where it sees one)."""
    if size is not None and _const_int(size) is None:
        size = ir.Call("adgen_imax", [size, _int(1)], ir.LONG)
    return size


def _reads_variables(e):
    """The name of a local variable e reads (one the procedure sets), or None."""
    return next((r.sym.name for r in ir.walk(e)
                 if isinstance(r, ir.Ref) and r.sym.kind in ("local", "temp")), None)


def _to_int(e):
    if e.type.resolved().is_int:
        return e
    return ir.Cast(ir.INT, e)


def _convert(e, t):
    et, tt = e.type.resolved(), t.resolved()
    if isinstance(tt, ir.Prim) and isinstance(et, ir.Prim) and et.name != tt.name and \
            not tt.is_void:
        if isinstance(e, ir.Const) and tt.is_float and et.is_int:
            text = e.text.rstrip("fFlL")
            if "." not in text and "e" not in text.lower():
                text += ".0"
            if tt.name == "float":
                text += "f"
            return ir.Const(text, ir.Prim(tt.name), e.loc)
        return ir.Cast(ir.Prim(tt.name), e, e.loc)
    return e


def _fname(name, t):
    return name + ("f" if t.resolved().name == "float" else "")


def _real_literal(text, kind, scope):
    t = text.upper()
    is_double = "D" in t or kind in ("8", "dp") or (kind is not None and kind != "4" and
                                                   scope.kind_value_text(kind) == 8)
    t = t.replace("D", "E")
    if t.endswith("E"):
        t += "0"
    if "." not in t and "E" not in t:
        t += ".0"
    if t.startswith("."):
        t = "0" + t
    t = t.lower()
    if is_double:
        return ir.Const(t, ir.DOUBLE)
    return ir.Const(t + "f", ir.FLOAT)


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


def _replace_nodes(node, replacements):
    """A copy of node with its descendants whose id is a key of replacements put in their
    place; the nodes on the way to them are copied (shallow), the others shared."""
    from fparser.two.utils import Base
    if id(node) in replacements:
        return replacements[id(node)]
    items = getattr(node, "items", None)
    if not isinstance(items, tuple):
        return node
    new = tuple(_replace_nodes(c, replacements) if isinstance(c, Base) else c for c in items)
    if all(a is b for a, b in zip(new, items)):
        return node
    out = copy.copy(node)
    out.items = new
    return out


def _constructor_items(node, implied=False):
    """The values of an array constructor `(/ a, b /)` or `[a, b]`; with implied, its
    implied-do lists too, as they are (else they are refused)."""
    F = _f2003()
    if isinstance(node, F.Array_Constructor):
        inner = node.items[1]
        items = inner.items if type(inner).__name__.endswith("List") else [inner]
        out = []
        for it in items:
            if isinstance(it, F.Ac_Implied_Do) and not implied:
                raise AdgenError("implied-do in a PARAMETER array is not supported")
            out.append(it)
        return out
    return [node]


def _storage(e):
    """The variable an lvalue, or the address of one, lives in: its symbol, or (COMMON
    block, member); None for other expressions."""
    if _common_member(e):
        return (e.base.sym, e.field)
    if isinstance(e, ir.Member):
        return _storage(e.base)         # a component: the variable of the whole structure
    if isinstance(e, ir.Ref):
        return e.sym
    if isinstance(e, (ir.Deref, ir.Index)) and _alias_target(e.children()[0]) is not None:
        return _alias_target(e.children()[0])
    if isinstance(e, (ir.Deref, ir.Index, ir.AddrOf)):
        return _storage(e.children()[0])
    return None


def _common_member(e):
    """Whether e is a member of a COMMON block (each is a variable of its own)."""
    return isinstance(e, ir.Member) and isinstance(e.base, ir.Ref) and \
        getattr(e.base.sym, "fortran_common", False)


def _alias_target(e):
    """The storage an associate name's pointer points into, when e reads that pointer."""
    return getattr(e.sym, "alias_storage", None) if isinstance(e, ir.Ref) else None


def _storage_read(e):
    """The storage (see _storage) of the variables an expression reads."""
    if isinstance(e, ir.Ref) or _common_member(e):
        return {_storage(e)}
    through = {_storage(e)} if isinstance(e, (ir.Deref, ir.Index)) and \
        _alias_target(e.children()[0]) is not None else set()
    return through.union(*map(_storage_read, e.children()))


def _is_global_storage(storage):
    """A module variable, a member of a COMMON block or a SAVEd local (not a constant
    table)."""
    sym = storage[0] if isinstance(storage, tuple) else storage
    return isinstance(sym, ir.Symbol) and sym.kind == "global" and \
        (not sym.is_static or getattr(sym, "fortran_saved", False))


def _storage_label(storage):
    """The Fortran name of the variable of a storage (see _storage)."""
    if isinstance(storage, tuple):
        return storage[1]
    return getattr(storage, "fortran_name", storage.name)


def _storage_name(e):
    """A name for temporaries holding the value of e: its variable's or its callee's."""
    storage = _storage(e)
    if storage is not None:
        return _storage_label(storage)
    return e.func if isinstance(e, ir.Call) else "value"


def _list_holding(stmts, st):
    """The statement list, stmts or one nested in it, that holds the statement st."""
    if any(x is st for x in stmts):
        return stmts
    return next((holder for x in stmts for nested in ir.nested_lists(x)
                 for holder in [_list_holding(nested, st)] if holder is not None), None)


def _substitute(e, mapping):
    """A copy of e with each reference to a symbol in mapping replaced by a copy of its
    value, located where the reference is."""
    if isinstance(e, ir.Ref) and e.sym in mapping:
        value = X.clone(mapping[e.sym])
        value.loc = e.loc
        return value
    return X.map_children(e, lambda sub: _substitute(sub, mapping))


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


def _substitute_stmts(stmts, mapping):
    """Replace, in place, the references to the symbols in mapping by their values."""
    if not mapping:
        return
    for st in ir.stmts_walk(stmts):
        for attr in ("lhs", "rhs", "expr", "test", "value"):
            e = getattr(st, attr, None)
            if isinstance(e, ir.Expr):
                setattr(st, attr, _substitute(e, mapping))


def _keyword(arg):
    """The keyword of an actual argument `name = value` (lower case), or None."""
    if type(arg).__name__ in ("Actual_Arg_Spec", "Component_Spec") and \
            arg.items[0] is not None:
        return _name(arg.items[0])
    return None


def _argument_value(arg):
    """The value of an actual argument, without its keyword."""
    if type(arg).__name__ in ("Actual_Arg_Spec", "Component_Spec"):
        return arg.items[1]
    return arg


def _paths_overlap(a, b):
    """Whether two designators of one variable may name the same storage, told by their
    component names alone: `p(i)%x` and `p(j)%v` cannot, `p(i)%x` and `p(j)` or `p(j)%x`
    may (a whole variable or array overlaps all its parts)."""
    def path(node):
        if T.is_component_name(node):
            return T.component_path(node)
        if isinstance(node, _f2003().Part_Ref) and T.is_component_name(node.items[0]):
            return path(node.items[0])
        return [_base_name(node)]
    pa, pb = path(a), path(b)
    n = min(len(pa), len(pb))
    return pa[:n] == pb[:n]


def _base_name(node):
    F = _f2003()
    if isinstance(node, F.Name):
        return _name(node)
    if isinstance(node, F.Part_Ref):
        return _name(node.items[0])
    return None


def _array_refs(node, is_array=None):
    """Names and part references inside an expression (candidates for array operands),
    and the array-valued inquiries (shape(a)); the arrays whose bounds an inquiry reads
    are no operands, nor is the name of a part reference (x in x(i): the element is).

    With is_array (a predicate on names), only the operands of the expression taken
    element by element: not the arguments of a reduction (sum(v) is a scalar) or of a
    function call (a part reference whose name is no array)."""
    F = _f2003()
    out = []

    def look(n):
        if isinstance(n, F.Intrinsic_Function_Reference):
            name = _name(n.items[0])
            if name in _INQUIRY:
                if _array_inquiry(n):
                    out.append(n)
                return False
            if is_array is not None and name in ("spread", "reshape", "transpose", "pack",
                                                 "matmul"):
                out.append(n)       # its shape is not its source's
                return False
            if is_array is not None and name in _REDUCTIONS:
                if name in _ALONG and _has_dim(n) or \
                        name in ("maxloc", "minloc") and not _has_dim(n):
                    out.append(n)       # an array result when the array's rank is 2 or more
                return False
        if isinstance(n, F.Part_Ref) or type(n).__name__ in _CALL_NODES:
            out.append(n)
            if is_array is None or is_array(_name(n.items[0])):
                _visit(n.items[1], look)       # the subscripts (or a call's arguments)
            return False
        if isinstance(n, F.Name):
            out.append(n)
            return not T.is_component_name(n)       # (one operand, whatever its parts)
        return True

    _visit(node, look)
    return out


def _constant_size(v):
    """The number of elements of array variable v when its bounds are all constants;
    None otherwise."""
    size = 1
    for lo, ext in v.dims:
        lower, extent = X.int_value(X.fold(lo)), X.int_value(X.fold(ext))
        if lower is None or extent is None:
            return None
        size *= extent
    return size


def _rewrite_in_place(node, replacement, enter=None):
    """Replace, in the parse tree under node (its items and its constructs' contents),
    each node n for which replacement(n) gives a node by that node; innermost first, so
    that a replacement is made of replaced parts (enter: see _rewritten)."""
    items = getattr(node, "items", None)
    if isinstance(items, tuple):
        new = _rewritten(items, replacement, enter)
        if any(a is not b for a, b in zip(new, items)):
            node.items = new
    content = getattr(node, "content", None)
    if isinstance(content, list):
        content[:] = [_rewritten(c, replacement, enter) for c in content]


def _rewritten(node, replacement, enter=None):
    """node (or a list or tuple of nodes, as in a DO loop's control) rewritten; enter(n)
    is called on each node n before what it holds is rewritten."""
    from fparser.two.utils import Base
    if isinstance(node, (list, tuple)):
        return type(node)(_rewritten(c, replacement, enter) for c in node)
    if not isinstance(node, Base):
        return node
    if enter is not None:
        enter(node)
    _rewrite_in_place(node, replacement, enter)
    new = replacement(node)
    return node if new is None else new


def _walk_nodes(node):
    """node and the parse-tree nodes inside it, depth first."""
    found = []
    _visit(node, lambda n: found.append(n) or True)
    return found


def _visit(node, look):
    """look(n) for each parse-tree node n in node (a node, or a list or tuple of them),
    depth first; the nodes inside n are visited when it returns True."""
    from fparser.two.utils import Base
    if isinstance(node, (list, tuple)):
        for c in node:
            _visit(c, look)
    elif isinstance(node, Base) and look(node):
        _visit(node.children, look)


def _has_dim(node):
    """Whether a call of sum, product, maxval or minval gives DIM (second by position, or
    by keyword)."""
    args = _call_arguments(node)
    return any(_keyword(a) == "dim" for a in args) or \
        len(args) >= 2 and _keyword(args[1]) is None


def _array_inquiry(node):
    """shape(a), lbound(a) or ubound(a): an array of one element per dimension of a."""
    F = _f2003()
    return isinstance(node, F.Intrinsic_Function_Reference) and \
        _name(node.items[0]) in ("shape", "lbound", "ubound") and \
        len(node.items[1].items) == 1
