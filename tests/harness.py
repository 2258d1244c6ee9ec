"""Generic test harness for adgen's C and Fortran test programs.

A program under `testsuite/c/` (or `testsuite/fortran/`, see "Fortran" below) carries an `adgen-test` comment block (see
docs/testsuite-format.md) telling which heads to differentiate and how to build the
arguments of a call (handles, structs holding pointers, from `field` lines: the driver
makes their structs and arrays, and derivative structs of the same types for the
derivative routines).  For each head the harness

1. runs adgen in reverse and tangent mode (`sys.executable -m adgen`);
2. compiles each generated file with `gcc -std=c99 -Wall -Wextra -Werror -c` at -O0 and
   -O3, and checks that it agrees with the prototypes the convention prescribes
   (docs/conventions.md), which the harness writes from the primal's own signature;
3. writes a C driver that `#include`s the program (so it has the primal and its types),
   declares f_b / f_d itself, and is linked with the two derivative objects (so a generated
   file that defines a symbol of the primal fails to link);
4. runs the driver, which prints one JSON object: central finite differences of the
   dependents with respect to every independent element, the tangent for a random
   direction, the adjoint for random seeds, and the primal outputs of every routine;
5. compares in Python and raises AssertionError listing every failed check with its worst
   element.

Fortran programs (by the file's suffix) carry the block in `!` comments with Fortran
argument types; the harness compiles the program with gfortran -c -O2 (the primal the
drivers call, its procedures' interfaces read from gfortran's tree dump), checks that
f_b_ / f_d_ can be called as the Fortran contract prescribes (every argument by
reference), links the C driver with gfortran, and also builds and runs a Fortran main
program calling f_d / f_b with no interface (dot-product test and a directional finite
difference). See docs/testsuite-format.md.

Public API:
    parse_spec(text, lang="c") -> Spec
    check_program(source, workdir) -> None       (AssertionError on failure)
    expect_error(source, workdir) -> None        (for programs with `expect-error:`)
    check_primal(source, workdir) -> None        (block, primal and FD only: no adgen)
check_program and expect_error take an optional `adgen_cmd` (a list) to run instead of
`python -m adgen`.

Command line, for debugging programs (see --help):
    python tests/harness.py testsuite/c/foo.c [-v] [--workdir DIR] [--primal-only]
    python tests/harness.py testsuite/fortran/foo.f90 [-v] [--workdir DIR] [--primal-only]
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace as dataclass_replace
from pathlib import Path
from typing import Optional

REPO_ROOT = Path(__file__).resolve().parent.parent

# Default command that runs adgen; check_program/expect_error accept another one. The
# default command runs in this process (adgen's command line, its output and status
# captured), sparing each run the start of an interpreter and the import of adgen, most of
# what it costs; ADGEN_TEST_SUBPROCESS=1 starts `python -m adgen` for each run instead.
ADGEN_CMD = [sys.executable, "-m", "adgen"]
IN_PROCESS = not os.environ.get("ADGEN_TEST_SUBPROCESS")

CC = os.environ.get("CC", "gcc")
# ADGEN_TEST_STACK=static: adjoints with --stack=static (of STATIC_STACK_BYTES); for a C
# program that allocates nothing itself, the adjoint call runs under a malloc that aborts.
STATIC_STACK_BYTES = 64 << 20


def stack_mode() -> str:
    return os.environ.get("ADGEN_TEST_STACK", "heap")


# the stack kinds the test suite runs every program with (ADGEN_TEST_STACK picks one)
STACKS = [os.environ["ADGEN_TEST_STACK"]] if os.environ.get("ADGEN_TEST_STACK") else \
    ["heap", "static"]


def no_alloc_guard(plan, source: Path) -> bool:
    """True when the driver must check that the adjoint allocates nothing."""
    return stack_mode() == "static" and not plan.fortran and not re.search(
        r"\b(malloc|calloc|realloc)\s*\(", Path(source).read_text(errors="replace"))


# Linked (with -Wl,--wrap=...) when no_alloc_guard: the adjoint's allocations abort.
_NO_ALLOC_GUARD = r"""
static int drv_no_alloc = 0;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
static void drv_alloc_abort(const char *what)
{
    fprintf(stderr, "the adjoint called %s with --stack=static\n", what);
    abort();
}
void *__wrap_malloc(size_t n)
{ if (drv_no_alloc) drv_alloc_abort("malloc"); return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size)
{ if (drv_no_alloc) drv_alloc_abort("calloc"); return __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n)
{ if (drv_no_alloc) drv_alloc_abort("realloc"); return __real_realloc(p, n); }
"""
WRAP_ALLOC = ["-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc"]
WERROR_FLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]
# The driver is not held to -Werror (it includes the program, which may well have an unused
# static helper), but a few warnings that reveal a prototype/argument mismatch are errors.
DRIVER_FLAGS = ["-std=c99", "-O3", "-Werror=implicit-function-declaration",
                "-Werror=incompatible-pointer-types", "-Werror=int-conversion",
                "-Werror=return-type"]
# ADGEN_TEST_SANITIZE=1 builds derivative objects and driver with ASan/UBSan.
SANITIZE_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                  "-fno-omit-frame-pointer", "-g"]
SANITIZE = SANITIZE_FLAGS if os.environ.get("ADGEN_TEST_SANITIZE") else []

ADGEN_TIMEOUT = 120
RUN_TIMEOUT = 120

GARBAGE = 1e30            # written into pure-input adjoints before f_b, pure-output tangents before f_d
UNTOUCHED = 0.25          # written into what f_b must leave alone (see Plan.untouched_parts)
PRIMAL_TOL = {"double": 1e-12, "float": 1e-5}
FD_STEP = {"double": 1e-6, "float": 3e-3}

FLOAT_TYPES = ("double", "float")
INT_TYPES = ("int", "long", "unsigned", "size_t")
ELEM_TYPES = FLOAT_TYPES + INT_TYPES
SPEC_KEYS = ("head", "arg", "field", "tol", "atol", "dot_tol", "fd_step", "seed", "flags", "adgen-flags", "sizes",
             "expect-error", "expect-error-line", "expect-warning", "setup", "sources", "link")
FORTRAN_ONLY_KEYS = ("setup", "sources")


# --------------------------------------------------------------------------------------------
# The adgen-test block
# --------------------------------------------------------------------------------------------

class SpecError(ValueError):
    """The adgen-test block of a program is malformed or inconsistent with the program."""


@dataclass
class Head:
    func: str
    deps: list          # names; the function's own name means its return value
    indeps: list
    text: str           # as written, passed to adgen --head
    args: list = field(default_factory=list)    # [Arg] of the function's parameters

    def __str__(self):
        return self.text


@dataclass
class Init:
    kind: str           # 'uniform' | 'range' | 'list' | 'value'
    lo: str = ""
    hi: str = ""
    text: str = ""      # C text for 'list' ({...}) and 'value'


@dataclass
class Arg:
    name: str
    kind: str           # 'int' | 'real' | 'array' | 'struct' | 'struct_ptr'
    ctype: str          # scalar or element type, or the struct type's name
    length: Optional[str] = None   # C expression over earlier int arguments (arrays)
    init: Optional[Init] = None
    # Fortran programs only
    ftype: Optional[str] = None     # 'integer(4)', 'integer(8)', 'logical', 'real(4)', 'real(8)'
    dims: Optional[list] = None     # [(lower, upper)] C expressions, for Fortran labels
    scalar: bool = False            # a Fortran scalar (passed by reference: an array of 1)
    by_value: bool = False          # a Fortran VALUE dummy (passed by value, as in C)
    # handles (kind 'handle': a struct holding pointers, `arg m: Mesh* = handle`)
    pointer: bool = False           # passed as a pointer to the struct (else by value)
    fields: list = field(default_factory=list)     # [Field], in the order of the field lines

    @property
    def floating(self):
        return self.ctype in FLOAT_TYPES and self.kind in ("real", "array")

    def field_at(self, path: str) -> Optional["Field"]:
        """The field of a handle at `path` ('m.mat.k'), or None."""
        return next((f for f in self.fields if f.path == path), None)

    def byref(self, path: str) -> bool:
        """Whether the handle's value at `path` is reached through a pointer (the handle
        passed by pointer, or a pointer-to-struct field on the way): what the caller sees
        change."""
        if self.pointer:
            return True
        while path != self.name:
            path = path.rsplit(".", 1)[0]
            f = self.field_at(path)
            if f is not None and f.kind == "struct_ptr":
                return True
        return False


@dataclass
class Field:
    """A `field` line of a handle: `field m.mat.k: double[m.n]`, `field p.c[3]: double`."""
    path: str           # dotted, the handle's name first
    kind: str           # 'int' | 'real' | 'array' (a pointer to LEN elements) |
                        # 'fixed' (an array inside the struct) | 'struct_ptr' | 'struct'
    ctype: str          # scalar or element type, or the struct type's name
    length: Optional[str] = None    # 'array' and 'fixed'
    init: Optional[Init] = None

    @property
    def floating(self):
        return self.ctype in FLOAT_TYPES and self.kind in ("real", "array", "fixed")

    @property
    def name(self):
        return self.path.rsplit(".", 1)[1]

    @property
    def parent(self):
        return self.path.rsplit(".", 1)[0]

    @property
    def ident(self):
        """A C identifier for the driver's variables of this field."""
        return self.path.replace(".", "__")


@dataclass
class Spec:
    heads: list = field(default_factory=list)
    tol: float = 1e-6
    dot_tol: float = 1e-12
    # differences this small pass whatever their relative size (a fixed-point loop's adjoint
    # differentiates its fixed point, the tangent and the finite differences the iterations
    # run: they differ by about what the stopping test leaves)
    atol: float = 0.0
    fd_step: Optional[float] = None     # None: FD_STEP by element type
    seed: int = 1
    flags: list = field(default_factory=list)
    adgen_flags: list = field(default_factory=list)     # options for adgen only (--rules F)
    expect_error: Optional[str] = None
    expect_error_lines: Optional[set] = None    # acceptable lines of the error
    expect_warning: Optional[str] = None        # adgen must warn (FILE:LINE: warning: ...)
    sizes: str = "infer"    # "infer": adgen finds array lengths itself; "give": pass --size NAME=LEN
    lang: str = "c"         # "c" | "fortran"
    setup: Optional[str] = None     # Fortran: a subroutine without arguments called before each evaluation
    sources: list = field(default_factory=list)     # Fortran: more source files (relative paths)
    link: list = field(default_factory=list)        # Fortran: files of a library it calls

    def args_for(self, func: str) -> list:
        """The arg lines of the first head of `func` (see Head.args for each head's own)."""
        return next((h.args for h in self.heads if h.func == func and h.args), [])


_BLOCK = re.compile(r"/\*\s*adgen-test\b(.*?)\*/", re.S)
_HEAD = re.compile(r"^\s*([A-Za-z_]\w*)\s*\(([^()]*)\)\s*/\s*\(([^()]*)\)\s*$")
_ARG = re.compile(r"^([A-Za-z_]\w*)\s*:\s*([^=]+?)\s*(?:=\s*(.+?))?\s*$")
_CALL = re.compile(r"^(uniform|range)\s*\(\s*([^,]+?)\s*,\s*([^,]+?)\s*\)$")


def parse_head(text: str) -> Head:
    m = _HEAD.match(text)
    if not m:
        raise SpecError(f"bad head {text!r}: expected f(dependents)/(independents)")
    split = lambda s: [w for w in re.split(r"[\s,]+", s.strip()) if w]
    return Head(m.group(1), split(m.group(2)), split(m.group(3)), text.strip())


def _parse_init(text: str) -> Init:
    text = text.strip()
    m = _CALL.match(text)
    if m:
        return Init(m.group(1), m.group(2), m.group(3))
    if text.startswith("{"):
        if not text.endswith("}"):
            raise SpecError(f"unterminated initializer {text!r}")
        return Init("list", text=text)
    return Init("value", text=text)


def _parse_arg(text: str) -> Arg:
    m = _ARG.match(text)
    if not m:
        raise SpecError(f"bad arg line {text!r}: expected 'arg NAME: TYPE [= INIT]'")
    name, typ, init = m.group(1), " ".join(m.group(2).split()), m.group(3)
    init = _parse_init(init) if init else None
    am = re.match(r"^(\w+)\s*\[(.+)\]$", typ)
    if am:
        elem, length = am.group(1), am.group(2).strip()
        return Arg(name, "array", elem, length, _array_init(f"arg {name}", elem, init))
    if typ in INT_TYPES:
        if init is None or init.kind != "value":
            raise SpecError(f"arg {name}: an {typ} argument needs '= N'")
        return Arg(name, "int", typ, init=init)
    if typ in FLOAT_TYPES:
        return Arg(name, "real", typ, init=_real_init(f"arg {name}", typ, init))
    sm = _STRUCT_TYPE.match(typ)
    if sm:
        if init is not None and init.kind == "value" and init.text == "handle":
            return Arg(name, "handle", sm.group(1), pointer=bool(sm.group(2)))
        if init is None or init.kind != "list":
            raise SpecError(f"arg {name}: a struct argument needs '= {{...}}' (or '= handle', "
                            f"followed by its field lines)")
        return Arg(name, "struct_ptr" if sm.group(2) else "struct", sm.group(1), init=init)
    raise SpecError(f"arg {name}: unsupported type {typ!r}")


_STRUCT_TYPE = re.compile(r"^(?:const\s+)?((?:struct\s+)?[A-Za-z_]\w*)\s*(\*?)$")
_FIELD = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\s*(?:\[\s*(.+?)\s*\])?\s*:\s*"
                    r"([^=]+?)\s*(?:=\s*(.+?))?\s*$")


def _array_init(where: str, elem: str, init: Optional[Init]) -> Init:
    """The init of an array of `elem` (an arg line's or a field line's), checked."""
    if elem not in ELEM_TYPES:
        raise SpecError(f"{where}: arrays of {elem!r} are not supported "
                        f"(element type one of {', '.join(ELEM_TYPES)})")
    if elem in FLOAT_TYPES:
        init = init or Init("uniform", "-1", "1")
        if init.kind == "range":
            raise SpecError(f"{where}: range() is for int arrays; use uniform()")
    elif init is None or init.kind == "uniform":
        raise SpecError(f"{where}: an int array needs '= {{...}}' or '= range(lo, hi)'")
    return init


def _real_init(where: str, typ: str, init: Optional[Init]) -> Init:
    init = init or Init("uniform", "-1", "1")
    if init.kind not in ("uniform", "value"):
        raise SpecError(f"{where}: a {typ} argument takes '= uniform(lo, hi)' or '= VALUE'")
    return init


def _parse_field(text: str, group: list) -> None:
    """A `field` line, `HANDLE.NAME[.NAME...]: TYPE [= INIT]` or `HANDLE.NAME[LEN]: TYPE
    [= INIT]` (an array inside the struct), added to its handle among the arg lines of
    `group` (see docs/testsuite-format.md)."""
    m = _FIELD.match(text)
    if not m:
        raise SpecError(f"bad field line {text!r}: expected 'field HANDLE.NAME: TYPE [= INIT]'")
    path, fixed, typ, init = m.group(1), m.group(2), " ".join(m.group(3).split()), m.group(4)
    where = f"field {path}"
    owner = path.split(".")[0]
    h = next((a for a in group if a.name == owner), None)
    if h is None or h.kind != "handle":
        raise SpecError(f"{where}: no handle argument {owner!r} above it "
                        f"('arg {owner}: TYPE* = handle')")
    if h.field_at(path) is not None:
        raise SpecError(f"{where}: given twice")
    parent = path.rsplit(".", 1)[0]
    if parent != owner:
        pf = h.field_at(parent)
        if pf is None or pf.kind not in ("struct", "struct_ptr"):
            raise SpecError(f"{where}: {parent} is not a struct field given above it "
                            f"('field {parent}: TYPE*' or 'field {parent}: TYPE')")
    init = _parse_init(init) if init else None
    am = re.match(r"^(\w+)\s*\[(.+)\]$", typ)
    if fixed is not None or am:
        elem, length = (typ, fixed) if fixed is not None else (am.group(1), am.group(2).strip())
        if fixed is not None and am:
            raise SpecError(f"{where}: give the length once ('{path}[LEN]: TYPE' for an "
                            f"array inside the struct, '{path}: TYPE[LEN]' for a pointer)")
        f = Field(path, "fixed" if fixed is not None else "array", elem, length,
                  _array_init(where, elem, init))
    elif typ in INT_TYPES:
        if init is None or init.kind != "value":
            raise SpecError(f"{where}: an {typ} field needs '= N'")
        f = Field(path, "int", typ, init=init)
    elif typ in FLOAT_TYPES:
        f = Field(path, "real", typ, init=_real_init(where, typ, init))
    else:
        sm = _STRUCT_TYPE.match(typ)
        if not sm:
            raise SpecError(f"{where}: unsupported type {typ!r}")
        if init is not None:
            raise SpecError(f"{where}: a struct field takes no value: give its fields "
                            f"('field {path}.NAME: TYPE')")
        f = Field(path, "struct_ptr" if sm.group(2) else "struct", sm.group(1))
    h.fields.append(f)


def _parse_lines(text: str) -> set:
    """'12', '19, 22' or '13-16' -> a set of line numbers."""
    lines = set()
    for part in re.split(r"[\s,]+", text.strip()):
        lo, _, hi = part.partition("-")
        lines.update(range(int(lo), int(hi or lo) + 1))
    return lines


def parse_spec(text: str, lang: str = "c") -> Spec:
    """Parse the `adgen-test` block of a program's text (the whole source, or the block).

    lang="fortran": `text` is a Fortran program (or the block's lines without their comment
    markers) and the arg lines use Fortran types (see _parse_farg)."""
    if lang == "fortran":
        body = fortran_block(text)
        if body is None:
            body = text
    else:
        m = _BLOCK.search(text)
        body = m.group(1) if m else text
    spec = Spec(lang=lang)
    seen = set()
    group = []              # [Arg] shared by the consecutive head lines above
    after_arg = False
    for raw in body.splitlines():
        line = raw.strip()
        if line.startswith("*"):          # tolerate ' * ' comment decoration
            line = line[1:].strip()
        if not line:
            continue
        km = re.match(r"^(arg|field)\s+(.*)$", line) or re.match(r"^([\w-]+)\s*:\s*(.*)$", line)
        if not km or km.group(1) not in SPEC_KEYS:
            raise SpecError(f"unknown line in adgen-test block: {line!r} "
                            f"(keys: {', '.join(SPEC_KEYS)})")
        key, value = km.group(1), km.group(2).strip()
        if key not in ("head", "arg", "field"):
            if key in seen:
                raise SpecError(f"{key}: given twice")
            seen.add(key)
        try:
            if key == "head":
                if after_arg and spec.heads:     # arg lines closed the previous group
                    group = []
                h = parse_head(value)
                if lang == "fortran":       # Fortran names are case-insensitive
                    h.func = h.func.lower()
                    h.deps = [d.lower() for d in h.deps]
                    h.indeps = [d.lower() for d in h.indeps]
                h.args = group
                spec.heads.append(h)
            elif key == "arg":
                a = _parse_farg(value) if lang == "fortran" else _parse_arg(value)
                if any(b.name == a.name for b in group):
                    raise SpecError(f"arg {a.name}: given twice")
                group.append(a)
            elif key == "field":
                if lang == "fortran":
                    raise SpecError("field: handles are for C programs")
                _parse_field(value, group)
            elif key == "tol":
                spec.tol = float(value)
            elif key == "dot_tol":
                spec.dot_tol = float(value)
            elif key == "atol":
                spec.atol = float(value)
            elif key == "fd_step":
                spec.fd_step = float(value)
            elif key == "seed":
                spec.seed = int(value)
            elif key == "flags":
                spec.flags = shlex.split(value)
            elif key == "adgen-flags":
                spec.adgen_flags = shlex.split(value)
            elif key == "sizes":
                if value not in ("give", "infer"):
                    raise SpecError(f"sizes: expected 'give' or 'infer', not {value!r}")
                spec.sizes = value
            elif key == "expect-error":
                spec.expect_error = value
            elif key == "expect-error-line":
                spec.expect_error_lines = _parse_lines(value)
            elif key == "expect-warning":
                spec.expect_warning = value
            elif key in FORTRAN_ONLY_KEYS and lang != "fortran":
                raise SpecError(f"{key}: only for Fortran programs")
            elif key == "setup":
                if not re.match(r"^[A-Za-z]\w*$", value):
                    raise SpecError(f"setup: expected the name of a subroutine without "
                                    f"arguments, not {value!r}")
                spec.setup = value.lower()
            elif key == "sources":
                spec.sources = shlex.split(value)
            elif key == "link":
                spec.link = shlex.split(value)
        except ValueError as exc:
            if isinstance(exc, SpecError):
                raise
            raise SpecError(f"{key}: bad value {value!r}") from None
        after_arg = key in ("arg", "field")
    for h in spec.heads:        # a head without arg lines: those of its function's first
        if not h.args:
            h.args = spec.args_for(h.func)
    if not spec.heads and spec.expect_error is None:
        raise SpecError("no 'head:' line in the adgen-test block")
    return spec


# --------------------------------------------------------------------------------------------
# Fortran: the block in `!` comments, arg lines with Fortran types
# --------------------------------------------------------------------------------------------

FORTRAN_SUFFIXES = (".f90", ".f95", ".f03", ".f08", ".f", ".for", ".f77")
FIXED_FORM_SUFFIXES = (".f", ".for", ".f77")        # .F too (suffixes compared in lower case)

# canonical Fortran type of an arg line -> C type of its elements
FTYPE_CTYPE = {"integer(4)": "int", "integer(8)": "long", "logical": "int",
               "real(4)": "float", "real(8)": "double"}
_FTYPE_SPELLINGS = {
    "integer": "integer(4)", "integer(4)": "integer(4)", "integer*4": "integer(4)",
    "integer(kind=4)": "integer(4)",
    "integer(8)": "integer(8)", "integer*8": "integer(8)", "integer(kind=8)": "integer(8)",
    "logical": "logical", "logical(4)": "logical", "logical(kind=4)": "logical",
    "real": "real(4)", "real(4)": "real(4)", "real*4": "real(4)", "real(kind=4)": "real(4)",
    "real(8)": "real(8)", "real*8": "real(8)", "real(kind=8)": "real(8)",
    "doubleprecision": "real(8)",
}


def is_fortran(path) -> bool:
    return Path(path).suffix.lower() in FORTRAN_SUFFIXES


def _fortran_comment(line: str, fixed: bool):
    """The text of a comment line after its marker, or None for a line that is not a comment."""
    if fixed and line[:1] in ("c", "C", "*", "!"):
        return line[1:]
    stripped = line.lstrip()
    if stripped.startswith("!"):
        return stripped[1:]
    return None


def fortran_block(text: str, fixed: bool = False) -> Optional[str]:
    """The lines of the `adgen-test` block of a Fortran program, comment markers removed, or
    None.  The block starts at a comment line `! adgen-test` and runs over the comment lines
    that follow, up to the first line that is not a comment or an empty comment line."""
    body, inside = [], False
    for line in text.splitlines():
        c = _fortran_comment(line, fixed)
        if not inside:
            if c is not None and re.match(r"^\s*adgen-test\s*$", c):
                inside = True
            continue
        if c is None or not c.strip():
            break
        body.append(c)
    return "\n".join(body) if inside else None


def _f2c(text: str) -> str:
    """Fortran literal syntax in an init value or length to C: 1.5d-3 -> 1.5e-3, 2.0_dp -> 2.0,
    .true. -> 1, .false. -> 0, [a, b] and (/ a, b /) -> {a, b}."""
    text = text.strip()
    text = re.sub(r"\.true\.", "1", text, flags=re.I)
    text = re.sub(r"\.false\.", "0", text, flags=re.I)
    text = re.sub(r"(?<![A-Za-z_\d.])(\d+\.?\d*|\.\d+)[dD]([+-]?\d+)", r"\1e\2", text)
    text = re.sub(r"(?<![A-Za-z_])(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)_\w+",
                  r"\1", text)
    if text.startswith("(/") and text.endswith("/)"):
        text = "{" + text[2:-2].strip() + "}"
    elif text.startswith("[") and text.endswith("]"):
        text = "{" + text[1:-1].strip() + "}"
    return text


def _parse_farg(text: str) -> Arg:
    """An arg line of a Fortran program: `NAME: TYPE [= INIT]` or `NAME: TYPE[DIMS] [= INIT]`.

    TYPE: integer, integer(8), logical, real / real(4) (default real: float), real(8) /
    real*8 / double precision (double).  DIMS: `EXTENT` or `LOWER:UPPER` per dimension,
    comma-separated, C integer expressions over earlier integer arguments.  Scalars are
    passed by reference, like everything in Fortran."""
    m = _ARG.match(text)
    if not m:
        raise SpecError(f"bad arg line {text!r}: expected 'arg NAME: TYPE [= INIT]'")
    name, typ, init = m.group(1).lower(), " ".join(m.group(2).split()), m.group(3)
    am = re.match(r"^(.*?)\s*\[(.*)\]$", typ)
    elem = am.group(1) if am else typ
    ftype = _FTYPE_SPELLINGS.get(re.sub(r"\s+", "", elem.lower()))
    if ftype is None:
        raise SpecError(f"arg {name}: unsupported Fortran type {elem!r} (one of integer, "
                        f"integer(8), logical, real, real(4), real(8), double precision)")
    ctype = FTYPE_CTYPE[ftype]
    init = _parse_init(_f2c(init)) if init else None
    if init is not None and init.kind in ("uniform", "range"):
        init.lo, init.hi = _f2c(init.lo), _f2c(init.hi)
    floating = ftype.startswith("real")
    if am:
        dims = []
        for d in _split_top(am.group(2)):
            if not d:
                raise SpecError(f"arg {name}: empty dimension in {typ!r}")
            if d == "*" or d.endswith(":*") or d == ":":
                raise SpecError(f"arg {name}: give every dimension's extent (no '*' or ':')")
            lo, sep, hi = d.partition(":")
            lo, hi = (lo.strip(), hi.strip()) if sep else ("1", d.strip())
            dims.append((_f2c(lo), _f2c(hi)))
        length = " * ".join(f"({hi})" if lo == "1" else f"(({hi}) - ({lo}) + 1)"
                            for lo, hi in dims)
        if floating:
            init = init or Init("uniform", "-1", "1")
            if init.kind == "range":
                raise SpecError(f"arg {name}: range() is for integer arrays; use uniform()")
        elif init is None or init.kind == "uniform":
            raise SpecError(f"arg {name}: an {ftype} array needs '= [...]' or '= range(lo, hi)'")
        return Arg(name, "array", ctype, length, init, ftype=ftype, dims=dims)
    if floating:
        init = init or Init("uniform", "-1", "1")
        if init.kind not in ("uniform", "value"):
            raise SpecError(f"arg {name}: a {ftype} scalar takes '= uniform(lo, hi)' or '= VALUE'")
        return Arg(name, "array", ctype, "1", init, ftype=ftype, scalar=True)
    if init is None or init.kind != "value":
        raise SpecError(f"arg {name}: an {ftype} argument needs '= VALUE'")
    return Arg(name, "int", ctype, init=init, ftype=ftype)


# --------------------------------------------------------------------------------------------
# The primal's signature, read from the program text
# --------------------------------------------------------------------------------------------

@dataclass
class Param:
    decl: str           # as written, e.g. 'const double *restrict x'
    name: str

    def renamed(self, new: str, drop_const: bool = False, pointer: bool = False) -> str:
        """The declaration with the declarator name replaced (optionally made `*new`)."""
        decl = self.decl
        if drop_const:
            decl = re.sub(r"\bconst\b\s*", "", decl)
        head, sep, tail = decl.partition("[")
        head = re.sub(rf"\b{re.escape(self.name)}\b(?!.*\b{re.escape(self.name)}\b)",
                      ("*" if pointer else "") + new, head)
        return " ".join((head + sep + tail).split())


@dataclass
class Signature:
    ret: str            # return type, storage-class words removed ('void', 'double', ...)
    params: list


_QUALIFIERS = {"const", "volatile", "restrict", "static", "register", "struct", "union",
               "enum", "unsigned", "signed", "int", "long", "short", "char", "double",
               "float", "void", "_Bool"}


def _strip_comments_and_directives(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"\\\n", " ", text)
    return "\n".join("" if l.lstrip().startswith("#") else l for l in text.splitlines())


def _split_top(text: str, sep=","):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]


def find_signature(text: str, func: str) -> Signature:
    """Find the definition of `func` in C source text; its return type and parameters."""
    src = _strip_comments_and_directives(text)
    for m in re.finditer(rf"\b{re.escape(func)}\s*\(", src):
        depth, i = 0, m.end() - 1
        while i < len(src):
            depth += {"(": 1, ")": -1}.get(src[i], 0)
            if depth == 0:
                break
            i += 1
        rest = src[i + 1:].lstrip()
        if not rest.startswith("{"):
            continue
        before = src[:m.start()]
        start = max(before.rfind(";"), before.rfind("}"), before.rfind("{")) + 1
        ret = before[start:]
        if re.search(r"[=()]", ret):        # a call inside an expression, not a definition
            continue
        ret = re.sub(r"\b(static|inline|extern|__inline__|_Noreturn)\b", " ", ret)
        ret = " ".join(ret.split())
        plist = src[m.end():i].strip()
        params = []
        if plist and plist != "void":
            for p in _split_top(plist):
                name_part = p.split("[", 1)[0]
                idents = [w for w in re.findall(r"[A-Za-z_]\w*", name_part)
                          if w not in _QUALIFIERS]
                if len(idents) < 2 and not re.search(r"\b(int|long|short|char|double|float|"
                                                     r"unsigned|signed)\b", name_part):
                    raise SpecError(f"cannot read parameter {p!r} of {func}")
                if not idents:
                    raise SpecError(f"parameter without a name in {func}: {p!r}")
                params.append(Param(" ".join(p.split()), idents[-1]))
        return Signature(ret or "int", params)
    raise SpecError(f"no definition of function {func!r} found in the program")


# --------------------------------------------------------------------------------------------
# Handles: where the driver keeps a handle's structs and arrays, and C expressions over them
# --------------------------------------------------------------------------------------------

def node_expr(h: Arg, path: str, prefix: str) -> str:
    """The driver's C object of the struct at `path` of handle h (the handle itself, what a
    pointer field points to, a struct field): `drvh_m`, `drvh_m__mat`, `drvh_m.p`. prefix:
    'drvh' the primal, 'drv0h' its initial copy, 'drvbh' / 'drvdh' the derivative structs."""
    if path == h.name:
        return f"{prefix}_{h.name}"
    f = h.field_at(path)
    if f.kind == "struct_ptr":
        return f"{prefix}_{f.ident}"
    return f"{node_expr(h, f.parent, prefix)}.{f.name}"


def field_lvalue(h: Arg, path: str, prefix: str) -> str:
    """The driver's C lvalue of the field at `path` of handle h (see node_expr)."""
    f = h.field_at(path)
    return f"{node_expr(h, f.parent, prefix)}.{f.name}"


def head_expr(h: Arg, path: str) -> str:
    """The field at `path` as the head's code names it: `m->mat->k`, `v.a`."""
    if path == h.name:
        return h.name
    f = h.field_at(path)
    pf = h.field_at(f.parent)
    arrow = pf.kind == "struct_ptr" if pf is not None else h.pointer
    return f"{head_expr(h, f.parent)}{'->' if arrow else '.'}{f.name}"


_REF = re.compile(r"\b([A-Za-z_]\w*)((?:\s*(?:\.|->)\s*[A-Za-z_]\w*)+)")


def _ref_path(m) -> str:
    """The dotted path ('m.mat.k') of a match of _REF (`m->mat->k`, `m.mat.k`)."""
    return ".".join([m.group(1)] + re.findall(r"[A-Za-z_]\w*", m.group(2)))


def handle_refs(expr: str, handles: dict) -> list:
    """The paths ('m.n') of handle fields an expression of a block refers to (`m.n + 1`,
    `m->n`)."""
    return [_ref_path(m) for m in _REF.finditer(expr or "") if m.group(1) in handles]


def translate(expr: str, handles: dict, style: str) -> str:
    """An expression of the block (a length, an int value) in C: its references to handle
    fields become the driver's (style 'driver': `drvh_m.n`) or the head's (style 'head',
    for --size: `m->n`)."""
    def sub(m):
        h = handles.get(m.group(1))
        if h is None:
            return m.group(0)
        path = _ref_path(m)
        if h.field_at(path) is None:
            raise SpecError(f"{path} (in {expr!r}) is not a field given by a field line")
        return f"({field_lvalue(h, path, 'drvh') if style == 'driver' else head_expr(h, path)})"
    return _REF.sub(sub, expr)


@dataclass
class Part:
    """One floating-point quantity of an independent or dependent: a scalar, an array, or a
    field of a handle (a handle has one part per floating-point field, array it points to,
    array inside it; nested handles' parts in turn). Its C texts take '{i}', the element's
    index, and '{m}', the mode letter of the derivative storage ('b' or 'd')."""
    owner: str          # the argument, or the function's name for its return value
    label: str          # 'x', 'm.mat.k': the key of its length in the driver's results
    ctype: str
    count: Optional[str]    # C expression of its number of elements; None: a scalar
    prim: str = ""      # the primal's element
    base: str = ""      # its initial value
    deriv: str = ""     # the derivative's element
    scalar: bool = False    # one element, labelled without an index (a Fortran scalar)
    byref: bool = True  # its change reaches the caller (not a field of a struct by value)
    ret: bool = False   # the return value

    def at(self, text: str, i: str = "drv_i", m: str = "") -> str:
        return text.replace("{i}", i).replace("{m}", m)


# --------------------------------------------------------------------------------------------
# One head: the interface the convention prescribes
# --------------------------------------------------------------------------------------------

@dataclass
class Plan:
    """Everything the driver needs for one head."""
    head: Head
    sig: Signature
    spec: Spec
    ret_active: bool
    ret_type: str       # 'double'/'float' (for packing) or the primal's return type
    args: list          # the Arg of each parameter, in order
    lang: str = "c"
    proc: Optional["FProc"] = None      # Fortran: the procedure, as gfortran compiled it
    setup: Optional["FProc"] = None     # Fortran: the `setup:` subroutine

    @property
    def fortran(self):
        return self.lang == "fortran"

    def routine(self, mode=None):
        """The symbol of the primal (mode None; for a Fortran head with assumed-shape dummies,
        its shim, see make_fortran_shim) or of its derivative routine ('b' or 'd')."""
        f = self.head.func
        if not self.fortran:
            return f if mode is None else f"{f}_{mode}"
        if mode is None:
            return f"drv_shim_{f}_" if self.assumed_shape() else self.proc.symbol
        return f"{f}_{mode}_"

    def assumed_shape(self):
        """Fortran: the arguments of the head's assumed-shape dummies, in order."""
        if not self.fortran:
            return []
        return [a for p, a in zip(self.proc.params, self.args) if p.assumed_rank]

    def extents(self):
        """[(name, C expression)]: the hidden extents the C routines of a Fortran head with
        assumed-shape dummies take last, by reference: per such dummy, per dimension."""
        out = []
        for a in self.assumed_shape():
            for k, (lo, hi) in enumerate(a.dims, 1):
                suffix = str(k) if len(a.dims) > 1 else ""
                out.append((f"{a.name}_extent{suffix}", f"({hi}) - ({lo}) + 1"))
        return out

    def arg(self, name):
        return next((a for a in self.args if a.name == name), None)

    def role(self, name):
        """'in', 'out', 'inout' or None for an argument name."""
        i, o = name in self.head.indeps, name in self.head.deps
        return "inout" if i and o else "in" if i else "out" if o else None

    @property
    def prec(self):
        """'float' if any active quantity is single precision, else 'double'."""
        types = [p.ctype for n in dict.fromkeys(self.head.deps + self.head.indeps)
                 for p in self.parts(n)]
        return "float" if "float" in types else "double"

    def handles(self) -> dict:
        return {a.name: a for a in self.args if a.kind == "handle"}

    def parts(self, name) -> list:
        """The Parts of an independent or dependent (the function's name: its return value)."""
        a = self.arg(name)
        if a is None:
            return [Part(name, f"{name} (return value)", self.ret_type, None, ret=True,
                         scalar=True)]
        if a.kind == "real":
            return [Part(name, name, a.ctype, None, name, f"drv0_{name}", f"drv{{m}}_{name}",
                         scalar=True, byref=False)]
        if a.kind == "array":
            return [Part(name, name, a.ctype, f"drv_len_{name}", f"{name}[{{i}}]",
                         f"drv0_{name}[{{i}}]", f"drv{{m}}_{name}[{{i}}]", scalar=a.scalar)]
        out = []
        for f in a.fields:
            if not f.floating:
                continue
            if f.kind == "array":       # behind its pointer
                out.append(Part(name, f.path, f.ctype, f"drv_len_{f.ident}",
                                f"drvw_{f.ident}[{{i}}]", f"drv0_{f.ident}[{{i}}]",
                                f"drv{{m}}_{f.ident}[{{i}}]"))
            else:
                lv = lambda prefix: field_lvalue(a, f.path, prefix) + \
                    ("[{i}]" if f.kind == "fixed" else "")
                out.append(Part(name, f.path, f.ctype,
                                f"drv_len_{f.ident}" if f.kind == "fixed" else None,
                                lv("drvh"), lv("drv0h"), lv("drv{m}h"),
                                scalar=f.kind == "real", byref=a.byref(f.path)))
        return out

    def out_parts(self, name) -> list:
        """The Parts of dependent `name` that are outputs: not a handle's own fields when
        it is passed by value (the caller never sees them change; inputs only, as a
        parameter by value is)."""
        a = self.arg(name)
        return [p for p in self.parts(name)
                if p.byref or a is None or a.kind != "handle"]

    def dep_parts(self) -> list:
        return [p for d in self.head.deps for p in self.out_parts(d)]

    def untouched_parts(self) -> list:
        """The fields of a pure-output handle passed by value: neither outputs nor
        independents, their derivatives in the caller's struct are not f_b's to change."""
        return [p for name in self.head.deps if self.role(name) == "out"
                for p in self.parts(name) if p not in self.out_parts(name)]

    def indep_parts(self) -> list:
        return [p for n in self.head.indeps for p in self.parts(n)]


def make_plan(spec: Spec, head: Head, source_text: str) -> Plan:
    sig = find_signature(source_text, head.func)
    names = [p.name for p in sig.params]
    args = head.args
    if names != [a.name for a in args]:
        raise SpecError(f"the arg lines for {head.func} ({', '.join(a.name for a in args) or 'none'}) do "
                        f"not match the parameters of {head.func} ({', '.join(names) or 'none'})")
    for name in head.deps + head.indeps:
        if name == head.func:
            continue
        a = next((a for a in args if a.name == name), None)
        if a is None:
            raise SpecError(f"head {head}: {name!r} is not a parameter of {head.func}")
        if a.kind == "handle":
            if not any(f.floating for f in a.fields):
                raise SpecError(f"head {head}: the handle {name!r} has no floating-point "
                                f"field (give its fields with field lines)")
            continue
        if not a.floating:
            raise SpecError(f"head {head}: {name!r} is not a float/double scalar or array, "
                            f"or a handle")
        if a.kind == "real" and name in head.deps:
            raise SpecError(f"head {head}: by-value {name!r} cannot be a dependent")
    _check_handle_refs(args)
    if head.func in head.indeps:
        raise SpecError(f"head {head}: the return value cannot be an independent")
    if not head.deps or not head.indeps:
        raise SpecError(f"head {head}: needs at least one dependent and one independent")
    ret_active = head.func in head.deps
    ret_words = _unconst(sig.ret).split()
    ret_type = sig.ret
    if ret_active:
        if sig.ret == "void" or "*" in sig.ret:
            raise SpecError(f"head {head}: {head.func} returns {sig.ret}, not a float value")
        ret_type = "float" if ret_words == ["float"] else "double"
    return Plan(head, sig, spec, ret_active, ret_type, args)


def _check_handle_refs(args: list) -> None:
    """Lengths and values may use the fields of handles given above them (by field lines:
    the driver sets the fields in their order)."""
    handles = {a.name: a for a in args if a.kind == "handle"}
    given = set()

    def check(where, *exprs):
        for e in exprs:
            for path in handle_refs(e, handles):
                if path not in given:
                    raise SpecError(f"{where}: {path} is not a field given above it")

    def texts(x):
        init = x.init
        return [x.length] + ([init.text, init.lo, init.hi] if init is not None else [])

    for a in args:
        check(f"arg {a.name}", *texts(a))
        for f in a.fields:
            check(f"field {f.path}", *texts(f))
            given.add(f.path)


def prototypes(plan: Plan):
    """The f_b and f_d prototypes the convention prescribes, from the primal's signature."""
    if plan.fortran:
        return fortran_prototypes(plan)
    f, sig = plan.head.func, plan.sig
    rev, tan = [], []
    for p in sig.params:
        rev.append(p.decl)
        tan.append(p.decl)
        a = plan.arg(p.name)
        if plan.role(p.name) is None:
            continue
        if a.kind == "array" or a.kind == "handle" and a.pointer:
            rev.append(p.renamed(p.name + "b", drop_const=True))
            tan.append(p.renamed(p.name + "d"))
        else:   # by-value scalar or handle
            rev.append(p.renamed(p.name + "b", drop_const=True, pointer=True))
            tan.append(p.renamed(p.name + "d", drop_const=True))
    ret = _unconst(sig.ret)
    if plan.ret_active:
        rev.append(f"{ret} {f}b")
        tan.append(f"{ret} *{f}")
        tan_ret = ret
    else:
        tan_ret = sig.ret
    params = lambda ps: ", ".join(ps) if ps else "void"
    return (f"void {f}_b({params(rev)});",
            f"{tan_ret} {f}_d({params(tan)});")


# --------------------------------------------------------------------------------------------
# Fortran: the procedures as gfortran compiles them, and their derivatives' interface
# --------------------------------------------------------------------------------------------

FC = os.environ.get("FC", "gfortran")
FC_FLAGS = ["-O2"]          # the primal, as a user would build it
_GFORTRAN = []     # the answer of ensure_gfortran, once


def ensure_gfortran(install=False):
    """None when gfortran ($FC) is on PATH; else the reason it is not. With install, it is
    installed with apt-get where it is missing (root only, non-interactive: CI); `make
    test` does that first (tests/tools.py), so that the tests themselves install nothing."""
    if not _GFORTRAN or install and _GFORTRAN[0] is not None:
        _GFORTRAN[:] = [None if shutil.which(FC) else
                        apt_install(["gfortran"], lambda: shutil.which(FC)) if install else
                        "gfortran is not installed (`make test` installs it with apt-get "
                        "where it can: python tests/tools.py)"]
    return _GFORTRAN[0]


def f2c_missing():
    """None when f2c, its header and its library (Debian's f2c and libf2c2-dev) are there;
    else what is missing. `make test` installs them where it can (tests/tools.py)."""
    if shutil.which("f2c") is None:
        return "f2c is not installed"
    cmd = ["gcc", "-x", "c", "-", "-lf2c", "-lm", "-o", os.devnull]
    probe = '#include "f2c.h"\nint MAIN__(void) { return 0; }\n'
    try:
        proc = subprocess.run(cmd, input=probe, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"gcc cannot build with libf2c: {exc}"
    return None if proc.returncode == 0 else "f2c.h or libf2c is not installed"


def mpi_missing():
    """None when Open MPI's compiler wrapper and launcher (Debian's libopenmpi-dev and
    openmpi-bin) are there; else what is missing. `make test` installs them where it can
    (tests/tools.py)."""
    for tool in ("mpicc", "mpirun"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Open MPI: libopenmpi-dev, openmpi-bin)"
    return None


# The environment of an MPI run: the shared-memory transport without the cross-process
# copies (CMA) that a container's ptrace rules may forbid.
MPI_ENV = {"OMPI_MCA_btl_vader_single_copy_mechanism": "none"}


def mpirun(ranks, argv, timeout=120):
    """Runs argv on `ranks` processes (Open MPI's mpirun: as root too, more ranks than
    cores), bounded in time; the CompletedProcess."""
    cmd = ["mpirun", "--oversubscribe", "-np", str(ranks), *argv]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **MPI_ENV), stdin=subprocess.DEVNULL)


def apt_install(packages, found):
    """Installs Debian's packages with apt-get (root only, non-interactive); None when
    found() holds after it, else the reason."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return (f"not running as root, so not trying to install it "
                f"(apt-get install {' '.join(packages)})")
    if shutil.which("apt-get") is None:
        return "apt-get is not available to install it"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log = []
    for cmd in (["apt-get", "update"],
                ["apt-get", "install", "-y", "--no-install-recommends", *packages]):
        try:
            proc = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True, timeout=900)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{' '.join(cmd)} failed: {exc}"
        log.append(proc.stderr.strip()[-500:])
        if proc.returncode != 0 and cmd[1] == "install":
            return (f"apt-get install {' '.join(packages)} failed (exit {proc.returncode}): "
                    f"{log[-1]}")
    if not found():
        return f"apt-get install {' '.join(packages)} ran, but they are still missing"
    return None

_DUMP_TYPES = {"integer(kind=4)": "integer(4)", "integer(kind=8)": "integer(8)",
               "logical(kind=4)": "logical", "real(kind=4)": "real(4)",
               "real(kind=8)": "real(8)"}


@dataclass
class FParam:
    name: str
    ftype: Optional[str]        # canonical (see FTYPE_CTYPE); None: unsupported
    array: bool
    problem: Optional[str] = None   # why the harness cannot pass this argument
    assumed_rank: int = 0       # an assumed-shape dummy (a(:, :)): its rank
    by_value: bool = False      # a VALUE dummy

    @property
    def ctype(self):
        return FTYPE_CTYPE[self.ftype]

    def decl(self, name=None, pointer=True):
        """Its C declaration, named `name`: a pointer, but for a VALUE dummy (pointer=False:
        a VALUE dummy's tangent, passed by value too)."""
        star = "*" if pointer or not self.by_value else ""
        return f"{self.ctype} {star}{name or self.name}"


@dataclass
class FProc:
    name: str                   # lower case
    symbol: str                 # gfortran's: name_ or __mod_MOD_name
    module: Optional[str]
    params: list                # [FParam]
    ret_ftype: Optional[str]    # None: a subroutine
    problem: Optional[str] = None

    @property
    def ret_ctype(self):
        return FTYPE_CTYPE[self.ret_ftype] if self.ret_ftype else "void"


@dataclass
class FortranBuild:
    """The gfortran-compiled primal of a Fortran test program."""
    objs: list                  # object files, one per source
    moddir: Path                # the .mod files
    procs: dict                 # name -> FProc (external and module procedures)


def _parse_dump_param(text: str) -> FParam:
    text = " ".join(text.split())
    name = re.findall(r"\w+", text)[-1] if re.search(r"\w", text) else "?"
    m = re.match(r"^(\w+\(kind=\d+\))(\[[^\]]*\])?\s*([&*])?\s*(?:restrict\s+)?(\w+)$", text)
    am = re.match(r"^struct array(\d+)_(\w+\(kind=\d+\))", text)
    if am:      # an assumed-shape dummy: gfortran passes a descriptor
        ftype = _DUMP_TYPES.get(am.group(2))
        problem = None if ftype else f"an assumed-shape array of type {am.group(2)}"
        return FParam(name, ftype, True, problem, assumed_rank=int(am.group(1)))
    if not m:
        return FParam(name, None, False, f"an argument gfortran passes as {text!r}")
    ftype = _DUMP_TYPES.get(m.group(1))
    if m.group(1).startswith("character"):
        return FParam(name, None, False, "a character argument")
    if ftype is None:
        return FParam(name, None, bool(m.group(2)), f"of type {m.group(1)}")
    if not m.group(3):
        return FParam(name, ftype, False, "an array passed by value" if m.group(2) else None,
                      by_value=True)
    return FParam(name, ftype, bool(m.group(2)))


def read_fortran_procs(dumps, objs) -> dict:
    """The external and module procedures of the primal: names and argument types from
    gfortran's -fdump-tree-original, symbols from nm."""
    symbols = {}
    for obj in objs:
        proc = _run(["nm", "-g", "--defined-only", str(obj)], "nm", RUN_TIMEOUT)
        for line in proc.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] == "T":
                sym = parts[2]
                mm = re.match(r"^__(\w+?)_MOD_(\w+)$", sym)
                if mm:
                    symbols.setdefault(mm.group(2), []).append((sym, mm.group(1)))
                elif sym.endswith("_") and not sym.startswith("_"):
                    symbols.setdefault(sym[:-1], []).append((sym, None))
    procs = {}
    for dump in dumps:
        for line in Path(dump).read_text(errors="replace").splitlines():
            m = re.match(r"^(void|[a-z]+\(kind=\d+\))\s+(\w+)\s+\((.*)\)\s*$", line)
            if not m or m.group(2) not in symbols:
                continue
            name = m.group(2)
            params = [_parse_dump_param(t) for t in _split_top(m.group(3)) if t]
            params = [p for p in params if not re.match(r"^_\w+$", p.name)]   # hidden lengths
            ret = None
            problem = None
            if m.group(1) != "void":
                ret = _DUMP_TYPES.get(m.group(1))
                if ret is None:
                    problem = f"returns {m.group(1)}"
            cands = symbols[name]
            if len(cands) > 1 or name in procs:
                problem = f"several procedures are named {name!r}"
            sym, mod = cands[0]
            procs[name] = FProc(name, sym, mod, params, ret, problem)
    return procs


def build_fortran_primal(spec: Spec, source: Path, workdir: Path, flags) -> FortranBuild:
    """Compile the program (and its `sources:`) with gfortran -c -O2: the primal the
    drivers call. A failure is the test program's fault (SpecError)."""
    workdir.mkdir(parents=True, exist_ok=True)
    objs, dumps = [], []
    fflags = [f for f in flags if f.startswith(("-D", "-U", "-I"))]
    for i, src in enumerate(fortran_sources(spec, source, primal_order=True)):
        obj = workdir / f"fprimal{i}.o"
        for old in workdir.glob(f"fprimal{i}.*original"):
            old.unlink()
        cmd = [FC] + FC_FLAGS + ["-fdump-tree-original", "-J", str(workdir), "-I", str(workdir)] \
            + fflags + ["-c", str(Path(src).resolve()), "-o", str(obj)]
        proc = _run(cmd, FC, RUN_TIMEOUT, cwd=workdir)
        if proc.returncode != 0:
            raise SpecError(f"the test program {src.name} itself does not compile with {FC}:\n"
                            f"  $ {shlex.join(cmd)}\n{proc.stderr.strip()[:3000]}")
        objs.append(obj)
        dumps += sorted(workdir.glob(f"fprimal{i}.*original"))
    if not dumps:
        raise SpecError(f"{FC} wrote no -fdump-tree-original file in {workdir}")
    return FortranBuild(objs, workdir, read_fortran_procs(dumps, objs))


def fortran_sources(spec: Spec, source: Path, primal_order: bool = False):
    """The program and its `sources:`; for adgen the program first (as in `adgen model.f90
    more.f90`), for gfortran (primal_order) the `sources:` first (they hold the modules the
    program uses), after the `link:` files, which adgen does not see."""
    extra = [(source.parent / s).resolve() for s in spec.sources]
    library = [(source.parent / s).resolve() for s in spec.link]
    for e in extra + library:
        if not e.exists():
            raise SpecError(f"sources/link: no file {e}")
    return library + extra + [source] if primal_order else [source] + extra


def make_fortran_plan(spec: Spec, head: Head, fb: FortranBuild) -> Plan:
    proc = fb.procs.get(head.func)
    if proc is None:
        raise SpecError(f"head {head}: no external or module procedure {head.func!r} in the "
                        f"gfortran-compiled program (found: {', '.join(sorted(fb.procs)) or 'none'})")
    if proc.problem:
        raise SpecError(f"head {head}: {head.func} {proc.problem}")
    args = head.args
    names = [p.name for p in proc.params]
    if names != [a.name for a in args]:
        raise SpecError(f"the arg lines for {head.func} ({', '.join(a.name for a in args) or 'none'}) "
                        f"do not match the arguments of {head.func} ({', '.join(names) or 'none'})")
    for p, a in zip(proc.params, args):
        if p.problem:
            raise SpecError(f"head {head}: argument {p.name} of {head.func} is {p.problem}; "
                            f"the harness cannot call it (an expect-error program may)")
        if p.ftype != a.ftype:
            raise SpecError(f"arg {a.name}: the arg line says {a.ftype}, gfortran says {p.ftype}")
        if p.array != (a.kind == "array" and not a.scalar):
            raise SpecError(f"arg {a.name}: the arg line says {'an array' if not a.scalar and a.kind == 'array' else 'a scalar'}, "
                            f"but it is {'an array' if p.array else 'a scalar'} in {head.func}")
        if p.assumed_rank and p.assumed_rank != len(a.dims):
            raise SpecError(f"arg {a.name}: the arg line gives {len(a.dims)} dimensions, but it "
                            f"is an assumed-shape array of rank {p.assumed_rank} in {head.func}")
    # a VALUE dummy is passed by value, as a C scalar is
    args = [dataclass_replace(a, kind="real" if a.floating else a.kind, length=None,
                                by_value=True) if p.by_value else a
            for p, a in zip(proc.params, args)]
    for name in head.deps + head.indeps:
        if name == head.func and proc.ret_ftype is not None:
            continue
        a = next((a for a in args if a.name == name), None)
        if a is None:
            raise SpecError(f"head {head}: {name!r} is not an argument of {head.func}")
        if not a.floating:
            raise SpecError(f"head {head}: {name!r} is not a real scalar or array")
    if head.func in head.indeps:
        raise SpecError(f"head {head}: the function result cannot be an independent")
    if not head.deps or not head.indeps:
        raise SpecError(f"head {head}: needs at least one dependent and one independent")
    ret_active = head.func in head.deps
    if ret_active and not (proc.ret_ftype or "").startswith("real"):
        raise SpecError(f"head {head}: {head.func} is not a real function")
    setup = None
    if spec.setup:
        setup = fb.procs.get(spec.setup)
        if setup is None or setup.params or setup.ret_ftype or setup.problem:
            raise SpecError(f"setup: {spec.setup!r} is not a subroutine without arguments of "
                            f"the program")
    sig = Signature(proc.ret_ctype, [Param(p.decl(pointer=False), p.name) for p in proc.params])
    ret_type = proc.ret_ctype if ret_active else sig.ret
    return Plan(head, sig, spec, ret_active, ret_type, list(args), lang="fortran", proc=proc,
                setup=setup)


def fortran_prototypes(plan: Plan):
    """The C prototypes of f_b_ and f_d_ the Fortran contract prescribes: every argument by
    reference, each active one followed by its derivative; an active function result adds a
    last `T *fb` (reverse: its seed) or `T *f` (tangent, which returns the result's tangent)."""
    f, proc = plan.head.func, plan.proc
    rev, tan = [], []
    for p in proc.params:
        rev.append(p.decl(pointer=False))
        tan.append(p.decl(pointer=False))
        if plan.role(p.name):
            rev.append(p.decl(p.name + "b"))
            tan.append(p.decl(p.name + "d", pointer=False))
    if plan.ret_active:
        rev.append(f"{proc.ret_ctype} *{f}b")
        tan.append(f"{proc.ret_ctype} *{f}")
    extents = [f"int *{name}" for name, _ in plan.extents()]
    rev += extents
    tan += extents
    params = lambda ps: ", ".join(ps) if ps else "void"
    return (f"void {f}_b_({params(rev)});",
            f"{proc.ret_ctype} {f}_d_({params(tan)});")


def fortran_primal_prototype(proc: FProc, plan: Optional[Plan] = None) -> str:
    """The C prototype of a gfortran-compiled procedure; with the plan of a head with
    assumed-shape dummies, that of its shim (make_fortran_shim)."""
    ps = [p.decl(pointer=False) for p in proc.params]
    symbol = proc.symbol
    if plan is not None and plan.assumed_shape():
        ps += [f"int *{name}" for name, _ in plan.extents()]
        symbol = plan.routine()
    return f"{proc.ret_ctype} {symbol}({', '.join(ps) or 'void'});"


_FDECL = {"integer(4)": "integer", "integer(8)": "integer(8)", "logical": "logical",
          "real(4)": "real(4)", "real(8)": "real(8)"}


def fortran_primal_interface(proc: FProc) -> list:
    """An interface block for an external procedure with assumed-shape dummies (explicit-shape
    ones declared assumed-size): the lines of it."""
    kind = "function" if proc.ret_ftype else "subroutine"
    prefix = f"{_FDECL[proc.ret_ftype]} " if proc.ret_ftype else ""
    out = ["interface", f"  {prefix}{kind} {proc.name}({', '.join(p.name for p in proc.params)})"]
    for p in proc.params:
        dims = f"({', '.join([':'] * p.assumed_rank)})" if p.assumed_rank else \
            "(*)" if p.array else ""
        out.append(f"    {_FDECL[p.ftype]} :: {p.name}{dims}")
    return out + [f"  end {kind} {proc.name}", "end interface"]


def make_fortran_shim(plan: Plan) -> str:
    """A Fortran procedure the C driver calls in place of a primal with assumed-shape dummies
    (which takes array descriptors): it takes those arrays with explicit shape, their extents
    last by reference as the derivative routines do, and calls the primal."""
    proc = plan.proc
    extents = [f"drv_e{k}" for k in range(len(plan.extents()))]
    name = plan.routine()[:-1]
    args = [p.name for p in proc.params]
    kind = "function" if proc.ret_ftype else "subroutine"
    prefix = f"{_FDECL[proc.ret_ftype]} " if proc.ret_ftype else ""
    o = [f"! Calls {proc.name} for the C driver of tests/harness.py, with explicit-shape arrays.",
         f"{prefix}{kind} {name}({', '.join(args + extents)})"]
    if proc.module:
        o.append(f"  use {proc.module}, only: {proc.name}")
    o.append("  implicit none")
    if not proc.module:
        o += ["  " + line for line in fortran_primal_interface(proc)]
    o.append(f"  integer :: {', '.join(extents)}")
    k = 0
    for p in proc.params:
        dims = ""
        if p.assumed_rank:
            dims = f"({', '.join(extents[k:k + p.assumed_rank])})"
            k += p.assumed_rank
        elif p.array:
            dims = "(*)"
        o.append(f"  {_FDECL[p.ftype]} :: {p.name}{dims}")
    call = f"{proc.name}({', '.join(args)})"
    o.append(f"  {name} = {call}" if proc.ret_ftype else f"  call {call}")
    return "\n".join(o + [f"end {kind} {name}"]) + "\n"


def fortran_call_check(protos) -> str:
    """C text calling f_b_ / f_d_ as a C program following the contract would (arguments of
    the contract's types): appended to an #include of the generated file, it does not compile
    when the generated routine cannot be called so (a missing or extra argument, a by-value
    one, another type, a void tangent of a function...)."""
    out = ["/* calls as the Fortran contract prescribes (tests/harness.py) */"]
    for k, proto in enumerate(protos):
        m = re.match(r"^(\w+) (\w+)\((.*)\);$", proto)
        ret, name, plist = m.group(1), m.group(2), m.group(3)
        params = [] if plist == "void" else [p.strip() for p in plist.split(",")]
        decls = [re.sub(r"\w+$", f"drv_a{i}", p) for i, p in enumerate(params)]
        call = f"{name}({', '.join(f'drv_a{i}' for i in range(len(params)))})"
        body = f"{call};" if ret == "void" else f"{ret} drv_r = {call}; (void)drv_r;"
        out.append(f"void drv_callcheck{k}({', '.join(decls) or 'void'}) {{ {body} }}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------
# The C driver
# --------------------------------------------------------------------------------------------

_DRIVER_PRELUDE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* ---- driver support (generated by tests/harness.py) ---- */
static unsigned long long drv_rng;
static double drv_uniform(double lo, double hi)
{
    unsigned long long z = (drv_rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return lo + (hi - lo) * ((double)(z >> 11) / 9007199254740992.0);
}
static long drv_randint(long lo, long hi) /* in [lo, hi) */
{
    long v = lo + (long)(drv_uniform(0.0, 1.0) * (double)(hi - lo));
    return v < hi ? v : hi - 1;
}
/* Guard cells before and after every block the driver allocates (but under ASan, which
   watches the bytes around each block itself): drv_check_guards finds any write the
   routines make outside the arrays they are given. */
#ifdef __SANITIZE_ADDRESS__
#define DRV_GUARD 0
#else
#define DRV_GUARD 64
#endif
#define DRV_MAX_BLOCKS 4096
static unsigned char *drv_blocks[DRV_MAX_BLOCKS];
static size_t drv_block_bytes[DRV_MAX_BLOCKS];
static int drv_nblocks;
/* not inlined: LeakSanitizer's suppression names it (see _sanitizer_env) */
__attribute__((noinline)) static void *drv_alloc(long n, size_t size)
{
    size_t bytes = (size_t)(n > 0 ? n : 1) * size;
    unsigned char *raw = (unsigned char *)calloc(bytes + 2 * DRV_GUARD, 1);
    if (!raw) { fprintf(stderr, "driver: out of memory\n"); exit(3); }
    memset(raw, 0xA5, DRV_GUARD);
    memset(raw + DRV_GUARD + bytes, 0xA5, DRV_GUARD);
    if (drv_nblocks < DRV_MAX_BLOCKS) {
        drv_blocks[drv_nblocks] = raw;
        drv_block_bytes[drv_nblocks++] = bytes;
    }
    return raw + DRV_GUARD;
}
static void drv_check_guards(void)
{
    int b;
    long k;
    for (b = 0; b < drv_nblocks; b++)
        for (k = 0; k < 2 * DRV_GUARD; k++) {
            long at = k < DRV_GUARD ? k : (long)drv_block_bytes[b] + k;
            if (drv_blocks[b][at] != 0xA5) {
                fprintf(stderr, "driver: a routine wrote outside an array it was given "
                        "(block %d of %ld bytes, %ld bytes %s it)\n", b,
                        (long)drv_block_bytes[b],
                        k < DRV_GUARD ? DRV_GUARD - k : k - DRV_GUARD + 1,
                        k < DRV_GUARD ? "before" : "after");
                exit(5);
            }
        }
}
static int drv_first = 1;
static FILE *drv_out;       /* the JSON results: stdout, or a file for a Fortran program */
static void drv_num(double v)
{
    if (v != v) fprintf(drv_out, "NaN");
    else if (v > 1.7976931348623157e308) fprintf(drv_out, "Infinity");
    else if (v < -1.7976931348623157e308) fprintf(drv_out, "-Infinity");
    else fprintf(drv_out, "%.17g", v);
}
static void drv_key(const char *key)
{
    fprintf(drv_out, "%s\"%s\": ", drv_first ? "{" : ",\n ", key);
    drv_first = 0;
}
static void drv_vec(const char *key, const double *v, long n)
{
    long i;
    drv_key(key);
    fprintf(drv_out, "[");
    for (i = 0; i < n; i++) { if (i) fprintf(drv_out, ", "); drv_num(v[i]); }
    fprintf(drv_out, "]");
}
"""


def _unconst(ctype: str) -> str:
    return " ".join(re.sub(r"\bconst\b", " ", ctype).split())


class _Driver:
    """Builds the C text of the driver for one head."""

    def __init__(self, plan: Plan, source: Path, modes: str = "db",
                 results_path: Optional[Path] = None):
        self.plan, self.source, self.modes = plan, source, modes
        self.results_path = results_path
        self.spec, self.head = plan.spec, plan.head
        self.fortran = plan.fortran
        self.handles = plan.handles()
        self.lines = []

    # -- helpers --
    def emit(self, text=""):
        self.lines.append(text)

    def c(self, expr: str) -> str:
        """An expression of the block in the driver's C (handle fields: see translate)."""
        return translate(expr, self.handles, "driver") if self.handles else expr

    def scalar_init(self, init) -> str:
        """C value of a scalar's init: a draw from its uniform range, or its expression."""
        if init.kind == "uniform":
            return f"drv_uniform({self.c(init.lo)}, {self.c(init.hi)})"
        return self.c(init.text)

    def arrays(self):
        return [a for a in self.plan.args if a.kind == "array"]

    def handle_arrays(self):
        """(handle, field) of every array a handle points to or holds."""
        return [(a, f) for a in self.handles.values() for f in a.fields
                if f.kind in ("array", "fixed")]

    def nodes(self, a):
        """The paths of the structs of handle a the driver declares: the handle's own and
        those its pointer fields point to."""
        return [a.name] + [f.path for f in a.fields if f.kind == "struct_ptr"]

    def active(self, a):
        return self.plan.role(a.name) is not None

    def dep_parts(self):
        return self.plan.dep_parts()

    def indep_parts(self):
        return self.plan.indep_parts()

    def count(self, parts):
        """C expression for the number of scalars in a list of Parts."""
        terms = ["1" if p.count is None else p.count for p in parts]
        return " + ".join(terms) if terms else "0"

    @staticmethod
    def each(p: Part, body: str, i: str = "drv_i") -> str:
        """`body` (with {i} and {m} texts of the part filled) for every element of part p."""
        if p.count is None:
            return body.replace("{i}", "0")
        return f"for ({i} = 0; {i} < {p.count}; {i}++) {{ {body.replace('{i}', i)} }}"

    def reset(self):
        """Statements putting every argument back to its initial value (and, for a Fortran
        program with `setup:`, calling its setup routine)."""
        out = []
        if self.plan.setup is not None:
            out.append(f"{self.plan.setup.symbol}();")
        for a in self.plan.args:
            if a.kind == "int" and self.fortran:
                out.append(f"drvs_{a.name} = {a.name};")
            elif a.kind == "array":
                out.append(f"memcpy({a.name}, drv0_{a.name}, (size_t)drv_len_{a.name} * sizeof *{a.name});")
            elif a.kind == "real":
                out.append(f"{a.name} = drv0_{a.name};")
            elif a.kind == "struct_ptr":
                out.append(f"memcpy(&drvs_{a.name}, &drv0_{a.name}, sizeof drvs_{a.name});")
            elif a.kind == "handle":
                for path in self.nodes(a):
                    out.append(f"{node_expr(a, path, 'drvh')} = {node_expr(a, path, 'drv0h')};")
                for f in a.fields:
                    if f.kind == "array":
                        out.append(f"memcpy(drvw_{f.ident}, drv0_{f.ident}, "
                                   f"(size_t)drv_len_{f.ident} * sizeof *drvw_{f.ident});")
        return " ".join(out)

    def link_derivatives(self, mode):
        """Statements making the derivative structs of the active handles for f_b ('b') or
        f_d ('d'): zero, integer fields and pointers to other than floating-point data the
        primal's, pointer fields to floating-point data leading to the derivative arrays,
        pointer-to-struct fields to the derivative structs."""
        out = []
        for a in self.handles.values():
            if not self.active(a):
                continue
            for path in self.nodes(a):
                node = node_expr(a, path, f"drv{mode}h")
                out.append(f"memset(&{node}, 0, sizeof {node});")
            for f in a.fields:
                lv, plv = field_lvalue(a, f.path, f"drv{mode}h"), field_lvalue(a, f.path, "drvh")
                if f.kind == "int" or f.kind == "array" and not f.floating:
                    out.append(f"{lv} = {plv};")
                elif f.kind == "fixed" and not f.floating:
                    out.append(f"memcpy({lv}, {plv}, sizeof {lv});")
                elif f.kind == "array":
                    out.append(f"{lv} = drv{mode}_{f.ident};")
                elif f.kind == "struct_ptr":
                    out.append(f"{lv} = &{node_expr(a, f.path, f'drv{mode}h')};")
        return " ".join(out)

    def call_args(self, mode):
        """Argument list of a call of f (mode None), f_d ('d') or f_b ('b')."""
        out = []
        for a, p in zip(self.plan.args, self.plan.sig.params):
            # a C99 array of rows (`double p[n][m]`) takes the driver's flat array as is
            rows = "(void *)" if not self.fortran and a.kind == "array" and \
                re.search(r"\]\s*\[|\(\s*\*\s*\w+\s*\)\s*\[", p.decl) else ""
            if self.fortran and a.kind == "int" and not a.by_value:
                out.append(f"&drvs_{a.name}")       # by reference, a copy reset before each call
            elif a.kind == "struct_ptr":
                out.append(f"&drvs_{a.name}")
            elif a.kind == "handle":
                out.append(("&" if a.pointer else "") + node_expr(a, a.name, "drvh"))
            else:
                out.append(rows + a.name)
            if mode is None or self.plan.role(a.name) is None:
                continue
            if a.kind == "array":
                out.append(f"{rows}drv{mode}_{a.name}")
            elif a.kind == "handle":
                by_pointer = a.pointer or mode == "b"
                out.append(("&" if by_pointer else "") + node_expr(a, a.name, f"drv{mode}h"))
            elif mode == "b":
                out.append(f"&drvb_{a.name}")
            else:
                out.append(f"drvd_{a.name}")
        if self.plan.ret_active and mode == "b":
            out.append("&drvb_return" if self.fortran else "drvb_return")
        if self.plan.ret_active and mode == "d":
            out.append("&drv_fval")
        out += [f"&drve_{name}" for name, _ in self.plan.extents()]
        return ", ".join(out)

    def pack(self, target, parts, ret_expr=None, mode=None):
        """Copy the values of parts (the primal's, or with mode 'b'/'d' the derivatives';
        `ret_expr` for the return value) into the double vector `target`."""
        out = ["drv_k = 0;"]
        for p in parts:
            if p.ret:
                out.append(f"{target}[drv_k++] = (double)({ret_expr});")
            else:
                src = p.prim if mode is None else p.at(p.deriv, "{i}", mode)
                out.append(self.each(p, f"{target}[drv_k++] = (double){src};"))
        return " ".join(out)

    def pack_deps(self, target, ret_expr, mode=None):
        return self.pack(target, self.dep_parts(), ret_expr, mode)

    def print_outputs(self, key, ret_expr):
        """Print every array argument and every value of a handle (and the primal return)
        after a call."""
        for a in self.plan.args:
            if a.kind == "array":
                self.emit(f"    for (drv_i = 0; drv_i < drv_len_{a.name}; drv_i++) "
                          f"drv_tmp[drv_i] = (double){a.name}[drv_i];")
                self.emit(f'    drv_vec("{key}:{a.name}", drv_tmp, drv_len_{a.name});')
            elif a.kind == "handle":
                for f in a.fields:
                    if f.kind in ("struct", "struct_ptr"):
                        continue
                    lv = field_lvalue(a, f.path, "drvh")
                    if f.kind in ("int", "real"):
                        self.emit(f'    drv_tmp[0] = (double){lv}; drv_vec("{key}:{f.path}", drv_tmp, 1);')
                        continue
                    elem = f"drvw_{f.ident}[drv_i]" if f.kind == "array" else f"{lv}[drv_i]"
                    self.emit(f"    for (drv_i = 0; drv_i < drv_len_{f.ident}; drv_i++) "
                              f"drv_tmp[drv_i] = (double){elem};")
                    self.emit(f'    drv_vec("{key}:{f.path}", drv_tmp, drv_len_{f.ident});')
        if ret_expr is not None:
            self.emit(f'    drv_tmp[0] = (double)({ret_expr}); drv_vec("{key}:return", drv_tmp, 1);')

    def fill_text(self, n, t, init, length):
        """Declarations (emitted) and the C value of element drv_i of an array `n` of type t
        (its init); `length` the C variable of its length."""
        if init.kind == "uniform":
            return f"({t})drv_uniform({self.c(init.lo)}, {self.c(init.hi)})"
        if init.kind == "range":
            return f"({t})drv_randint({self.c(init.lo)}, {self.c(init.hi)})"
        if init.kind == "value":
            return f"({t})({self.c(init.text)})"
        self.emit(f"    static const {t} drvl_{n}[] = {init.text};")
        self.emit(f"    if ((long)(sizeof drvl_{n} / sizeof drvl_{n}[0]) != {length}) {{")
        self.emit(f'        fprintf(stderr, "driver: {n}: initializer has %ld values, length is %ld\\n", '
                  f"(long)(sizeof drvl_{n} / sizeof drvl_{n}[0]), {length}); return 2; }}")
        return f"drvl_{n}[drv_i]"

    def declare_handle(self, a):
        """The structs and arrays of handle a, set from its field lines in their order."""
        active = self.active(a)
        nodes = {a.name: a.ctype}
        nodes.update((f.path, f.ctype) for f in a.fields if f.kind == "struct_ptr")

        def declare_node(path, ctype):
            names = ["drvh", "drv0h"] + (["drvbh", "drvdh"] if active else [])
            self.emit(f"    {ctype} " + ", ".join(node_expr(a, path, p) for p in names) + ";")
            self.emit(f"    memset(&{node_expr(a, path, 'drvh')}, 0, sizeof {node_expr(a, path, 'drvh')});")

        self.emit(f"    /* handle {a.name} */")
        declare_node(a.name, a.ctype)
        for f in a.fields:
            lv = field_lvalue(a, f.path, "drvh")
            if f.kind == "struct_ptr":
                declare_node(f.path, f.ctype)
                self.emit(f"    {lv} = &{node_expr(a, f.path, 'drvh')};")
            elif f.kind == "int":
                self.emit(f"    {lv} = ({f.ctype})({self.c(f.init.text)});")
            elif f.kind == "real":
                self.emit(f"    {lv} = ({f.ctype})({self.scalar_init(f.init)});")
            elif f.kind == "array":
                t, n = f.ctype, f.ident
                self.emit(f"    long drv_len_{n} = (long)({self.c(f.length)});")
                self.emit(f"    {t} *drv0_{n} = ({t} *)drv_alloc(drv_len_{n}, sizeof({t}));")
                self.emit(f"    {t} *drvw_{n} = ({t} *)drv_alloc(drv_len_{n}, sizeof({t}));")
                fill = self.fill_text(n, t, f.init, f"drv_len_{n}")
                self.emit(f"    for (drv_i = 0; drv_i < drv_len_{n}; drv_i++) drv0_{n}[drv_i] = {fill};")
                self.emit(f"    memcpy(drvw_{n}, drv0_{n}, (size_t)drv_len_{n} * sizeof({t}));")
                self.emit(f"    {lv} = drvw_{n};")
                if active and f.floating:
                    for m in "bd":
                        self.emit(f"    {t} *drv{m}_{n} = ({t} *)drv_alloc(drv_len_{n}, sizeof({t}));")
            elif f.kind == "fixed":
                t, n = f.ctype, f.ident
                self.emit(f"    long drv_len_{n} = (long)({self.c(f.length)});")
                self.emit(f"    if ((long)(sizeof {lv} / sizeof {lv}[0]) != drv_len_{n}) {{")
                self.emit(f'        fprintf(stderr, "driver: field {f.path}: the struct\'s array has %ld '
                          f'elements, the field line says %ld\\n", (long)(sizeof {lv} / sizeof {lv}[0]), '
                          f"drv_len_{n}); return 2; }}")
                fill = self.fill_text(n, t, f.init, f"drv_len_{n}")
                self.emit(f"    for (drv_i = 0; drv_i < drv_len_{n}; drv_i++) {lv}[drv_i] = {fill};")
        for path in nodes:
            self.emit(f"    {node_expr(a, path, 'drv0h')} = {node_expr(a, path, 'drvh')};")

    # -- the text --
    def build(self) -> str:
        plan, spec, head = self.plan, self.spec, self.head
        proto_b, proto_d = prototypes(plan)
        ret_void = plan.sig.ret == "void"
        if self.fortran:
            self.emit(f"/* driver for head {head} of the Fortran program {self.source.name}; "
                      f"generated by tests/harness.py */")
            self.emit(_DRIVER_PRELUDE)
            self.emit("/* the gfortran-compiled primal */")
            self.emit(fortran_primal_prototype(plan.proc, plan))
            if plan.setup is not None:
                self.emit(fortran_primal_prototype(plan.setup))
        else:
            self.emit(f"/* driver for head {head} of {self.source.name}; generated by tests/harness.py */")
            self.emit(f'#include "{self.source.resolve()}"')
            for lib in plan.spec.link:      # a library the program calls, unseen by adgen
                self.emit(f'#include "{(self.source.parent / lib).resolve()}"')
            self.emit(_DRIVER_PRELUDE)
            if "b" in self.modes and no_alloc_guard(plan, self.source):
                self.emit(_NO_ALLOC_GUARD)
        if self.modes:
            self.emit("/* derivative routines, as docs/conventions.md prescribes */")
            if "b" in self.modes:
                self.emit(proto_b)
            if "d" in self.modes:
                self.emit(proto_d)
            self.emit()
        self.emit("int main(void)")
        self.emit("{")
        self.emit("    long drv_i, drv_j, drv_k, drv_col, drv_r, drv_s, drv_ntmp;")
        self.emit("    double drv_h, drv_v0, drv_xp, drv_xm;")
        self.emit(f"    drv_rng = {spec.seed}ULL;")
        if self.fortran:    # the primal may print to stdout: the results go to a file
            path = str(self.results_path).replace("\\", "\\\\").replace('"', '\\"')
            self.emit(f'    drv_out = fopen("{path}", "w");')
            self.emit('    if (!drv_out) { fprintf(stderr, "driver: cannot write the results file\\n"); return 2; }')
        else:
            self.emit("    drv_out = stdout;")
        # arguments, in parameter order (lengths may use earlier int arguments)
        for a in plan.args:
            n = a.name
            if a.kind == "int" and self.fortran:
                self.emit(f"    {a.ctype} {n} = ({a.ctype})({a.init.text}), drvs_{n} = {n};")
            elif a.kind == "int":
                self.emit(f"    {a.ctype} {n} = ({a.ctype})({self.c(a.init.text)});")
            elif a.kind == "real":
                self.emit(f"    {a.ctype} drv0_{n} = ({a.ctype})({self.scalar_init(a.init)}), "
                          f"{n} = drv0_{n};")
            elif a.kind == "struct":
                self.emit(f"    {a.ctype} {n} = {a.init.text};")
            elif a.kind == "struct_ptr":
                self.emit(f"    {a.ctype} drv0_{n} = {a.init.text}, drvs_{n};")
            elif a.kind == "handle":
                self.declare_handle(a)
            else:
                t = a.ctype
                self.emit(f"    long drv_len_{n} = (long)({self.c(a.length)});")
                self.emit(f"    {t} *drv0_{n} = ({t} *)drv_alloc(drv_len_{n}, sizeof({t}));")
                self.emit(f"    {t} *{n} = ({t} *)drv_alloc(drv_len_{n}, sizeof({t}));")
                fill = self.fill_text(n, t, a.init, f"drv_len_{n}")
                self.emit(f"    for (drv_i = 0; drv_i < drv_len_{n}; drv_i++) drv0_{n}[drv_i] = {fill};")
            if a.kind in ("array", "real") and plan.role(n):
                # derivative storage
                if a.kind == "array":
                    for m in "bd":
                        self.emit(f"    {a.ctype} *drv{m}_{n} = ({a.ctype} *)drv_alloc(drv_len_{n}, sizeof({a.ctype}));")
                else:
                    self.emit(f"    {a.ctype} drvb_{n}, drvd_{n};")
        for name, extent in plan.extents():
            self.emit(f"    int drve_{name} = (int)({extent});")
        nin, nout = self.count(self.indep_parts()), self.count(self.dep_parts())
        self.emit(f"    long drv_nin = {nin}, drv_nout = {nout};")
        lens = [f"drv_len_{a.name}" for a in self.arrays()] + \
            [f"drv_len_{fl.ident}" for _, fl in self.handle_arrays()]
        sizes = " ".join(f"if ({n} > drv_ntmp) drv_ntmp = {n};" for n in lens)
        self.emit(f"    drv_ntmp = drv_nin > drv_nout ? drv_nin : drv_nout; {sizes}")
        self.emit("    double *drv_tmp = (double *)drv_alloc(drv_ntmp + 1, sizeof(double));")
        self.emit("    double *drv_y0 = (double *)drv_alloc(drv_nout, sizeof(double));")
        self.emit("    double *drv_yp = (double *)drv_alloc(drv_nout, sizeof(double));")
        self.emit("    double *drv_ym = (double *)drv_alloc(drv_nout, sizeof(double));")
        self.emit("    double *drv_jac = (double *)drv_alloc(drv_nout * drv_nin, sizeof(double));")
        self.emit("    double *drv_jac4 = (double *)drv_alloc(drv_nout * drv_nin, sizeof(double));")
        self.emit("    double *drv_xdot = (double *)drv_alloc(drv_nin, sizeof(double));")
        self.emit("    double *drv_ydot = (double *)drv_alloc(drv_nout, sizeof(double));")
        self.emit("    double *drv_ybar = (double *)drv_alloc(drv_nout, sizeof(double));")
        self.emit("    double *drv_xbar = (double *)drv_alloc(drv_nin, sizeof(double));")
        if not ret_void:
            self.emit(f"    {_unconst(plan.sig.ret)} drv_ret;")
        if plan.ret_active:
            self.emit(f"    {plan.ret_type} drv_fval = 0, drvb_return = 0;")
            self.emit(f"    {plan.ret_type} drv_rd;")
        elif not ret_void:
            self.emit(f"    {_unconst(plan.sig.ret)} drv_rd;")
        call = f"{plan.routine()}({self.call_args(None)})"
        call = call if ret_void else f"drv_ret = {call}"
        reset = self.reset()
        pack = lambda target: self.pack_deps(target, "drv_ret")

        self.emit()
        self.emit("    /* lengths of the array arguments (and of the arrays of handles) */")
        keys = [(a.name, f"drv_len_{a.name}") for a in self.arrays()] + \
            [(fl.path, f"drv_len_{fl.ident}") for _, fl in self.handle_arrays()]
        fmt = ", ".join(f'\\"{k}\\": %ld' for k, _ in keys)
        vals = "".join(f", {v}" for _, v in keys)
        self.emit(f'    drv_key("lengths"); fprintf(drv_out, "{{{fmt}}}"{vals});')
        if self.fortran:
            self.fortran_extras()

        self.emit()
        self.emit("    /* the primal */")
        self.emit(f"    {reset} {call};")
        self.emit("    " + pack("drv_y0"))
        self.emit('    drv_vec("y0", drv_y0, drv_nout);')
        self.print_outputs("primal", None if ret_void else "drv_ret")

        self.emit()
        self.emit("    /* central finite differences, one column per independent element; a second")
        self.emit("       Jacobian with a 4 times larger step tells whether the FD can be trusted */")
        self.emit("    for (drv_s = 0; drv_s < 2; drv_s++) {")
        self.emit("    drv_col = 0;")
        for p in self.indep_parts():
            step = spec.fd_step or FD_STEP[p.ctype]
            if p.count is None:
                loop, elem, base = "", p.at(p.prim, "0"), p.at(p.base, "0")
            else:
                loop = f"for (drv_j = 0; drv_j < {p.count}; drv_j++) "
                elem, base = p.at(p.prim, "drv_j"), p.at(p.base, "drv_j")
            self.emit(f"    {loop}{{")
            self.emit(f"        drv_v0 = (double){base};")
            self.emit(f"        drv_h = (drv_s ? 4.0 : 1.0) * {step!r} * (fabs(drv_v0) > 1.0 ? fabs(drv_v0) : 1.0);")
            self.emit(f"        {reset} {elem} = ({p.ctype})(drv_v0 + drv_h); drv_xp = (double){elem}; {call};")
            self.emit("        " + pack("drv_yp"))
            self.emit(f"        {reset} {elem} = ({p.ctype})(drv_v0 - drv_h); drv_xm = (double){elem}; {call};")
            self.emit("        " + pack("drv_ym"))
            self.emit("        for (drv_r = 0; drv_r < drv_nout; drv_r++)")
            self.emit("            (drv_s ? drv_jac4 : drv_jac)[drv_r * drv_nin + drv_col] = (drv_yp[drv_r] - drv_ym[drv_r]) / (drv_xp - drv_xm);")
            self.emit("        drv_col++;")
            self.emit("    }")
        self.emit("    }")
        self.emit('    drv_vec("jac", drv_jac, drv_nout * drv_nin);')
        self.emit('    drv_vec("jac4", drv_jac4, drv_nout * drv_nin);')
        if "d" in self.modes:
            self.build_tangent()
        if "b" in self.modes:
            self.build_adjoint()
        self.emit('    fprintf(drv_out, "}\\n");')
        self.emit('    if (drv_out != stdout && fclose(drv_out) != 0) return 2;')
        self.emit("    drv_check_guards();")
        self.emit("    (void)drv_j; (void)drv_h; (void)drv_v0; (void)drv_xp; (void)drv_xm;")
        self.emit("    (void)drv_xdot; (void)drv_ydot; (void)drv_xbar; (void)drv_ybar;")
        self.emit("    return 0;")
        self.emit("}")
        return "\n".join(self.lines) + "\n"

    def fortran_extras(self):
        """Fortran: the bounds of the arrays (for labels like u(0,2)) and the initial values
        of the arguments (for the Fortran main program, see make_fortran_main)."""
        arrays = [a for a in self.arrays() if a.dims]
        fmt = ", ".join(f'\\"{a.name}\\": [' + ", ".join("[%ld, %ld]" for _ in a.dims) + "]"
                        for a in arrays)
        vals = "".join(f", (long)({lo}), (long)({hi})" for a in arrays for lo, hi in a.dims)
        self.emit(f'    drv_key("bounds"); fprintf(drv_out, "{{{fmt}}}"{vals});')
        ints = [a for a in self.plan.args if a.kind == "int"]
        fmt = ", ".join(f'\\"{a.name}\\": %ld' for a in ints)
        vals = "".join(f", (long){a.name}" for a in ints)
        self.emit(f'    drv_key("ints"); fprintf(drv_out, "{{{fmt}}}"{vals});')
        self.emit(f"    {self.reset()}")
        for a in self.arrays():
            self.emit(f"    for (drv_i = 0; drv_i < drv_len_{a.name}; drv_i++) "
                      f"drv_tmp[drv_i] = (double){a.name}[drv_i];")
            self.emit(f'    drv_vec("init:{a.name}", drv_tmp, drv_len_{a.name});')

    def build_tangent(self):
        plan, f = self.plan, self.head.func
        ret_void = plan.sig.ret == "void"
        reset = self.reset()
        self.emit()
        self.emit(f"    /* tangent: {f}_d along a random direction */")
        self.emit(f"    {reset}")
        link = self.link_derivatives("d")
        if link:
            self.emit(f"    {link}")
        self.emit("    drv_k = 0;")
        for p in self.indep_parts():
            d = p.at(p.deriv, "{i}", "d")
            self.emit("    " + self.each(p, f"{d} = ({p.ctype})drv_uniform(-1.0, 1.0); "
                                        f"drv_xdot[drv_k++] = (double){d};"))
        for p in self.dep_parts():
            if not p.ret and plan.role(p.owner) == "out":
                # a pure output's tangent must be written: garbage first
                self.emit("    " + self.each(p, f"{p.at(p.deriv, '{i}', 'd')} = "
                                            f"({p.ctype}){GARBAGE!r};"))
        dcall = f"{plan.routine('d')}({self.call_args('d')})"
        self.emit(f"    {dcall};" if ret_void and not plan.ret_active else f"    drv_rd = {dcall};")
        self.emit("    " + self.pack_deps("drv_ydot", "drv_rd", "d"))
        self.emit('    drv_vec("xdot", drv_xdot, drv_nin);')
        self.emit('    drv_vec("ydot", drv_ydot, drv_nout);')
        self.print_outputs("tangent", "drv_fval" if plan.ret_active else (None if ret_void else "drv_rd"))

    def build_adjoint(self):
        plan, f = self.plan, self.head.func
        reset = self.reset()
        self.emit()
        self.emit(f"    /* adjoint: {f}_b with random seeds */")
        self.emit(f"    {reset}")
        link = self.link_derivatives("b")
        if link:
            self.emit(f"    {link}")
        self.emit("    drv_k = 0;")
        for p in self.dep_parts():
            if p.ret:
                self.emit(f"    drvb_return = ({plan.ret_type})drv_uniform(-1.0, 1.0); drv_ybar[drv_k++] = (double)drvb_return;")
            else:
                b = p.at(p.deriv, "{i}", "b")
                self.emit("    " + self.each(p, f"{b} = ({p.ctype})drv_uniform(-1.0, 1.0); "
                                            f"drv_ybar[drv_k++] = (double){b};"))
        for p in self.indep_parts():
            if plan.role(p.owner) == "inout" and p in self.dep_parts():
                continue        # its adjoint is the seed set above
            self.emit("    " + self.each(p, f"{p.at(p.deriv, '{i}', 'b')} = ({p.ctype}){GARBAGE!r};"))
        for p in self.plan.untouched_parts():
            # no output, no independent: f_b must leave its derivative as the caller set it
            b = p.at(p.deriv, "{i}", "b")
            self.emit("    " + self.each(p, f"{b} = ({p.ctype}){UNTOUCHED!r};"))
        if no_alloc_guard(plan, self.source):
            self.emit(f"    drv_no_alloc = 1; {plan.routine('b')}({self.call_args('b')}); "
                      "drv_no_alloc = 0;")
            flag = f"{f}_b_stack_overflow"
            self.emit(f"    {{ extern int {flag}; if ({flag}) {{ fprintf(stderr, "
                      f"\"static stack overflow\\n\"); exit(4); }} }}")
        else:
            self.emit(f"    {plan.routine('b')}({self.call_args('b')});")
        self.emit("    " + self.pack("drv_xbar", self.indep_parts(), mode="b"))
        self.emit('    drv_vec("ybar", drv_ybar, drv_nout);')
        self.emit('    drv_vec("xbar", drv_xbar, drv_nin);')
        for name in self.head.deps:
            if name != f and plan.role(name) == "out":
                parts = plan.out_parts(name)
                self.emit("    " + self.pack("drv_tmp", parts, mode="b"))
                self.emit(f'    drv_vec("seed_after:{name}", drv_tmp, {self.count(parts)});')
        untouched = self.plan.untouched_parts()
        if untouched:
            self.emit("    " + self.pack("drv_tmp", untouched, mode="b"))
            self.emit(f'    drv_vec("untouched", drv_tmp, {self.count(untouched)});')
        if self.fortran and plan.ret_active:    # the result's seed, by reference: consumed too
            self.emit('    drv_tmp[0] = (double)drvb_return; drv_vec("seed_after:return", drv_tmp, 1);')
        self.print_outputs("reverse", None)


def make_driver(plan: Plan, source: Path, modes: str = "db",
                results_path: Optional[Path] = None) -> str:
    """C text of the driver for one head, calling f_d if 'd' in modes, f_b if 'b' in modes
    (modes='': primal and finite differences only).  A Fortran program's driver writes its
    JSON results to `results_path` (the primal may print to stdout), a C one to stdout."""
    return _Driver(plan, source, modes, results_path).build()


# --------------------------------------------------------------------------------------------
# Fortran: a main program calling the derivative routines with no interface
# --------------------------------------------------------------------------------------------

def _flit(v, ftype: str) -> str:
    """A Fortran literal for value v of an argument of type ftype."""
    if ftype == "logical":
        return ".true." if v else ".false."
    if ftype.startswith("integer"):
        return str(int(v)) + ("_8" if ftype == "integer(8)" else "")
    v = float(v)
    if not math.isfinite(v):
        raise AssertionError(f"non-finite initial value {v!r}")
    r = repr(v)
    return r.replace("e", "d") if "e" in r else r + "d0"


def make_fortran_main(plan: Plan, res: dict, source_name: str = "the program") -> str:
    """A Fortran `program` that calls f_d and f_b (and the primal) as a Fortran user would,
    with no interface: `call f_b(n, u, ub, ...)`, `fd = f_d(...)`. Its inputs are those of the
    C driver (`res`, its JSON results). It checks the dot-product test and a directional
    central finite difference of <ybar, y> along xdot, prints PASS and stops 0, or prints
    FAIL and stops 1."""
    spec, head, f, proc = plan.spec, plan.head, plan.head.func, plan.proc
    lengths = res["lengths"]
    rng = __import__("random").Random(spec.seed + 7)
    L = lambda a: 1 if a.kind == "int" else lengths[a.name]
    deps = [(d, None if d == f else plan.arg(d)) for d in head.deps]
    indeps = [(n, plan.arg(n)) for n in head.indeps]
    nout = sum(1 if a is None else L(a) for _, a in deps)
    nin = sum(L(a) for _, a in indeps)
    ret_f = proc.ret_ftype
    decl = _FDECL.get
    # Assumed-shape dummies of rank > 1 get views of the flat arrays with the arg lines' bounds
    assumed = plan.assumed_shape()
    views = {a.name: res["bounds"][a.name] for a in assumed if len(a.dims) > 1}
    view_of = {n: f"drvp_{n}" for v in views for n in (v, v + "b", v + "d")}
    actual = lambda name: view_of.get(name, name)

    uses = {}
    externals = []
    if proc.module:
        uses.setdefault(proc.module, []).append(proc.name)
    elif assumed:
        externals += fortran_primal_interface(proc)
    elif ret_f:
        externals.append(f"{decl(ret_f)}, external :: {proc.name}")
    if plan.setup is not None and plan.setup.module:
        uses.setdefault(plan.setup.module, []).append(plan.setup.name)
    elif plan.setup is not None:
        externals.append(f"external :: {plan.setup.name}")
    dret = ret_f if (plan.ret_active or ret_f) else None
    if assumed:     # with explicit interfaces: the modules adgen wrote
        for mode in "bd":
            uses.setdefault(f"{f}_{mode}_interface", []).append(f"{f}_{mode}")
    elif dret:
        externals.append(f"{decl(dret)}, external :: {f}_d")
    if not assumed:
        externals.append(f"external :: {f}_b" + ("" if dret else f", {f}_d"))

    how = "through the interface modules adgen wrote" if assumed else "with no interface"
    o = [f"! Fortran main program for head {head} of {source_name}: calls the derivative",
         f"! routines {how}. Generated by tests/harness.py.",
         "program drv_main"]
    for mod, names in uses.items():
        o.append(f"  use {mod}, only: {', '.join(dict.fromkeys(names))}")
    o.append("  implicit none")
    o += [f"  {e}" for e in externals]
    for a in plan.args:
        t = decl(a.ftype)
        dim = "" if a.kind == "int" or a.scalar else f"({L(a)})"
        names = [a.name, f"drv0_{a.name}"]
        if plan.role(a.name):
            names += [f"{a.name}b", f"{a.name}d"]
        if a.name in views:
            o.append(f"  {t}, target :: " + ", ".join(n + dim for n in names))
            ranks = ", ".join([":"] * len(views[a.name]))
            o.append(f"  {t}, pointer :: " + ", ".join(
                f"drvp_{n}({ranks})" for n in names if n != f"drv0_{a.name}"))
        else:
            o.append(f"  {t} :: " + ", ".join(n + dim for n in names))
    o.append(f"  real(8) :: drv_xdot({max(nin, 1)}), drv_xbar({max(nin, 1)}), drv_xp({max(nin, 1)}), "
             f"drv_xm({max(nin, 1)})")
    o.append(f"  real(8) :: drv_ybar({nout}), drv_ydot({nout}), drv_y({nout})")
    o.append("  real(8) :: drv_t1, drv_t2, drv_sc, drv_h, drv_sp, drv_sm, drv_err, drv_dot")
    o.append("  real(8) :: drv_fd(2), drv_ad(2), drv_abs(2)")
    if ret_f:
        o.append(f"  {decl(ret_f)} :: drv_r, drv_fval, drv_fb")
    o.append("  integer :: drv_s")
    o.append("  logical :: drv_ok")
    for name, bounds in views.items():
        spec_ = ", ".join(f"{lo}:{hi}" for lo, hi in bounds)
        for n in [name] + ([name + "b", name + "d"] if plan.role(name) else []):
            o.append(f"  drvp_{n}({spec_}) => {n}")
    o.append("")
    o.append("  ! the inputs of the C driver")
    for a in plan.args:
        if a.kind == "int":
            o.append(f"  drv0_{a.name} = {_flit(res['ints'][a.name], a.ftype)}")
        else:
            vals = res[f"init:{a.name}"]
            if a.scalar:
                o.append(f"  drv0_{a.name} = {_flit(vals[0], a.ftype)}")
            else:
                o += [f"  drv0_{a.name}({i + 1}) = {_flit(v, a.ftype)}" for i, v in enumerate(vals)]
    o += [f"  drv_xdot({i + 1}) = {_flit(rng.uniform(-1, 1), 'real(8)')}" for i in range(nin)]
    o += [f"  drv_ybar({i + 1}) = {_flit(rng.uniform(-1, 1), 'real(8)')}" for i in range(nout)]

    def call(mode):
        args = []
        for a in plan.args:
            args.append(actual(a.name))
            if mode and plan.role(a.name):
                args.append(actual(a.name + mode))
        if plan.ret_active and mode == "b":
            args.append("drv_fb")
        if plan.ret_active and mode == "d":
            args.append("drv_fval")
        name = f if mode is None else f"{f}_{mode}"
        return f"{name}({', '.join(args)})"

    def sl(a, k):       # the section of a packed vector for argument a at offset k
        return f"({k + 1})" if a.scalar else f"({k + 1}:{k + L(a)})"

    def pack(target, value_of, ret_expr):
        out, k = [], 0
        for name, a in deps:
            if a is None:
                out.append(f"  {target}({k + 1}) = {ret_expr}")
                k += 1
            else:
                out.append(f"  {target}{sl(a, k)} = {value_of(name)}")
                k += L(a)
        return out

    def primal_call():
        return [f"  drv_r = {call(None)}"] if ret_f else [f"  call {call(None)}"]

    o.append("")
    o.append("  ! tangent along xdot")
    o.append("  call drv_reset()")
    k = 0
    for name, a in indeps:
        o.append(f"  {name}d = drv_xdot{sl(a, k)}")
        k += L(a)
    for name, a in deps:
        if a is not None and plan.role(name) == "out":
            o.append(f"  {name}d = {_flit(GARBAGE, a.ftype)}")
    if dret:
        o.append(f"  drv_r = {call('d')}")
    else:
        o.append(f"  call {call('d')}")
    o += pack("drv_ydot", lambda n: n + "d", "drv_r")

    o.append("")
    o.append("  ! adjoint with seeds ybar")
    o.append("  call drv_reset()")
    k = 0
    for name, a in deps:
        if a is None:
            o.append(f"  drv_fb = drv_ybar({k + 1})")
            k += 1
        else:
            o.append(f"  {name}b = drv_ybar{sl(a, k)}")
            k += L(a)
    for name, a in indeps:
        if plan.role(name) == "in":
            o.append(f"  {name}b = {_flit(GARBAGE, a.ftype)}")
    o.append(f"  call {call('b')}")
    k = 0
    for name, a in indeps:
        o.append(f"  drv_xbar{sl(a, k)} = {name}b")
        k += L(a)

    o.append("")
    o.append("  ! dot-product test")
    o.append("  drv_t1 = sum(drv_ybar * drv_ydot)")
    o.append("  drv_t2 = sum(drv_xbar * drv_xdot)")
    o.append("  drv_sc = max(sum(abs(drv_ybar * drv_ydot)), sum(abs(drv_xbar * drv_xdot)), tiny(1.0d0))")
    o.append("  drv_dot = abs(drv_t1 - drv_t2) / drv_sc")
    if spec.atol:
        o.append(f"  if (abs(drv_t1 - drv_t2) <= {_flit(spec.atol, 'real(8)')}) drv_dot = 0.0d0")

    o.append("")
    o.append("  ! central finite differences of <ybar, y> along (the scaled) xdot, steps h and 4h")
    step = spec.fd_step or FD_STEP[plan.prec]
    o.append("  do drv_s = 1, 2")
    o.append(f"    drv_h = merge(1.0d0, 4.0d0, drv_s == 1) * {_flit(step, 'real(8)')}")
    for sign, xrec, srec in (("+", "drv_xp", "drv_sp"), ("-", "drv_xm", "drv_sm")):
        o.append("    call drv_reset()")
        k = 0
        for name, a in indeps:
            o.append(f"    {name} = drv0_{name} {sign} drv_h * max(1.0d0, abs(real(drv0_{name}, 8))) "
                     f"* drv_xdot{sl(a, k)}")
            o.append(f"    {xrec}{sl(a, k)} = {name}")
            k += L(a)
        o += ["  " + l for l in primal_call()]
        o += ["  " + l for l in pack("drv_y", lambda n: n, "drv_r")]
        o.append(f"    {srec} = sum(drv_ybar * drv_y)")
    o.append("    drv_fd(drv_s) = drv_sp - drv_sm")
    o.append("    drv_ad(drv_s) = sum(drv_xbar * (drv_xp - drv_xm))")
    o.append("    drv_abs(drv_s) = sum(abs(drv_xbar * (drv_xp - drv_xm)))")
    o.append("  end do")
    # the error of the step-h comparison, less the FD uncertainty (told by the 4h one),
    # relative to the size of the terms
    o.append("  drv_err = max(0.0d0, abs(drv_fd(1) - drv_ad(1)) - 2.0d0 * abs((drv_fd(1) - drv_ad(1)) "
             "- (drv_fd(2) - drv_ad(2)) / 4.0d0)) &")
    o.append(f"      / max(abs(drv_fd(1)), abs(drv_ad(1)), {_flit(math.sqrt(spec.tol), 'real(8)')} "
             f"* drv_abs(1), {_flit(spec.atol / spec.tol, 'real(8)')}, tiny(1.0d0))")
    o.append("")
    o.append(f"  drv_ok = drv_dot <= {_flit(spec.dot_tol, 'real(8)')} .and. "
             f"drv_err <= {_flit(spec.tol, 'real(8)')}")
    o.append("  if (drv_ok) then")
    o.append("    print '(a, es10.3, a, es10.3)', 'adgen Fortran main: PASS dot-product test rel. diff ', drv_dot, &")
    o.append("      ', directional FD rel. err ', drv_err")
    o.append("  else")
    o.append("    print '(a)', 'adgen Fortran main: FAIL'")
    o.append(f"    print '(a, es24.16, a, es24.16, a, es10.3, a)', '  dot-product test: <ybar, {f}_d(xdot)> = ', "
             "drv_t1, &")
    o.append(f"      ', <{f}_b(ybar), xdot> = ', drv_t2, ' (rel. diff ', drv_dot, ')'")
    o.append("    print '(a, es24.16, a, es24.16, a, es10.3, a)', '  central FD of <ybar, y> along xdot: ', "
             "drv_fd(1), &")
    o.append(f"      ', <{f}_b(ybar), dx> = ', drv_ad(1), ' (rel. err ', drv_err, ')'")
    o.append("    stop 1")
    o.append("  end if")
    o.append("")
    o.append("contains")
    o.append("")
    o.append("  subroutine drv_reset()")
    if plan.setup is not None:
        o.append(f"    call {plan.setup.name}()")
    for a in plan.args:
        o.append(f"    {a.name} = drv0_{a.name}")
    o.append("  end subroutine drv_reset")
    o.append("end program drv_main")
    return "\n".join(o) + "\n"


# --------------------------------------------------------------------------------------------
# Running things
# --------------------------------------------------------------------------------------------

def _run(cmd, what, timeout, cwd=None, env=None):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                              timeout=timeout, cwd=cwd, env=env)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{what}: timed out after {timeout} s\n  $ {shlex.join(map(str, cmd))}")
    return proc


def _must(proc, cmd, what):
    if proc.returncode != 0:
        out = (proc.stderr + proc.stdout).strip()
        if len(out) > 4000:
            out = out[:4000] + "\n..."
        raise AssertionError(f"{what} failed (exit {proc.returncode})\n"
                             f"  $ {shlex.join(map(str, cmd))}\n{out}")
    return proc


def _sanitizer_env(workdir):
    """The environment of a driver built with ASan: its own buffers (drv_alloc) are kept to
    the end on purpose, so LeakSanitizer reports only memory the program and the
    derivative code lose. None (inherit) without the sanitizer."""
    if not SANITIZE:
        return None
    supp = workdir / "lsan.supp"
    supp.write_text("leak:drv_alloc\n")
    env = dict(os.environ)
    env["LSAN_OPTIONS"] = f"suppressions={supp}" + \
        (":" + env["LSAN_OPTIONS"] if env.get("LSAN_OPTIONS") else "")
    return env


def _run_adgen(cmd, what):
    """adgen's command line `cmd`: in this process when it is the default command (see
    IN_PROCESS), else as a process of its own."""
    if not (IN_PROCESS and cmd[:len(ADGEN_CMD)] == ADGEN_CMD):
        return _run(cmd, what, ADGEN_TIMEOUT, env=_adgen_env())
    import contextlib
    import io
    import threading
    import traceback
    cli = _adgen_cli()
    argv = [str(a) for a in cmd[len(ADGEN_CMD):]]
    out, err, status = io.StringIO(), io.StringIO(), {}

    def run():
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status["code"] = cli.main(argv)
            except SystemExit as exc:
                status["code"] = exc.code
            except BaseException:       # as the interpreter would: a traceback, status 1
                traceback.print_exc()
                status["code"] = 1

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(ADGEN_TIMEOUT)
    if worker.is_alive():
        raise AssertionError(f"{what}: timed out after {ADGEN_TIMEOUT} s\n"
                             f"  $ {shlex.join(map(str, cmd))}")
    code = status.get("code")
    code = 0 if code is None else code if isinstance(code, int) else 1
    return subprocess.CompletedProcess(cmd, code, out.getvalue(), err.getvalue())


def _adgen_cli():
    """adgen.cli of this checkout (as PYTHONPATH gives it to `python -m adgen`)."""
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    from adgen import cli
    if not Path(cli.__file__).resolve().is_relative_to(REPO_ROOT):
        raise AssertionError(f"adgen is imported from {cli.__file__}, not from {REPO_ROOT}")
    return cli


def _adgen_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def resolve_flags(spec: Spec, source: Path):
    """The program's `flags:` with -I directories made absolute (relative to its directory)."""
    out, it = [], iter(spec.flags)
    for tok in it:
        if tok == "-I":
            out += ["-I", str((source.parent / next(it)).resolve())]
        elif tok.startswith("-I"):
            out += ["-I", str((source.parent / tok[2:]).resolve())]
        else:
            out.append(tok)
    return out


def adgen_only_flags(spec: Spec, source: Path):
    """The program's `adgen-flags:`, a file after --rules made absolute (relative to the
    program's directory)."""
    out, it = [], iter(spec.adgen_flags)
    for tok in it:
        out.append(tok)
        if tok == "--rules":
            out.append(str((source.parent / next(it)).resolve()))
    return out


def size_options(plan: Plan):
    """`--size NAME=LEN` for every floating-point array parameter when the block says
    `sizes: give`. By default adgen finds the lengths itself, as it must for users."""
    if plan.spec.sizes == "infer":
        return []
    return [x for name, length in given_sizes(plan.args).items()
            for x in ("--size", f"{name}={length}")]


def given_sizes(args) -> dict:
    """{name: length} of the floating-point arrays of a head's arguments (args), as C
    names them in the function: a handle's pointer fields too (`m->x`), the lengths over
    the handles' fields (`m->n`)."""
    handles = {a.name: a for a in args if a.kind == "handle"}
    out = {}
    for a in args:
        if a.kind == "array" and a.ctype in FLOAT_TYPES:
            out[a.name] = translate(a.length, handles, "head")
        for f in a.fields:      # a handle's pointer fields, named as C names them: m->x
            if f.kind == "array" and f.floating:
                out[head_expr(a, f.path)] = translate(f.length, handles, "head")
    return out


def run_adgen(mode: str, source, head: Head, out: Path, flags, adgen_cmd=None,
              extra=()):
    """`source`: a path, or a list of paths (a Fortran program and its `sources:`)."""
    sources = [str(s) for s in source] if isinstance(source, (list, tuple)) else [str(source)]
    if mode == "reverse" and stack_mode() == "static":
        extra = list(extra) + ["--stack=static", "--stack-size", str(STATIC_STACK_BYTES)]
    cmd = list(adgen_cmd or ADGEN_CMD) + [f"--{mode}"] + sources + ["--head", head.text,
                                          "-o", str(out)] + list(flags) + list(extra)
    return cmd, _run_adgen(cmd, f"adgen --{mode}")


def _compile_derivative(path: Path, source: Path, flags, protos: str, workdir: Path,
                        call_check: Optional[str] = None):
    """-O0 and -O3 compiles with -Werror; a prototype check (or for Fortran, `call_check`:
    calls as the contract prescribes); returns the -O3 object."""
    inc = ["-I", str(source.resolve().parent)] + flags
    for opt in ("-O0", "-O3"):
        obj = path.with_suffix(f".{opt[1:]}.o")          # f_b.O0.o, f_b.O3.o
        cmd = [CC] + WERROR_FLAGS + [opt] + SANITIZE + inc + ["-c", str(path), "-o", str(obj)]
        _must(_run(cmd, "gcc", RUN_TIMEOUT), cmd, f"compiling {path.name} at {opt}")
    check = workdir / f"{path.stem}_protocheck.c"
    if call_check is not None:
        check.write_text(f'#include "{path.resolve()}"\n{call_check}')
        cmd = [CC, "-std=c99", "-fsyntax-only", "-Werror=incompatible-pointer-types",
               "-Werror=int-conversion", "-Werror=implicit-function-declaration"] + inc + [str(check)]
    else:
        check.write_text(f'#include "{path.resolve()}"\n/* the prototype the convention prescribes */\n{protos}\n')
        cmd = [CC, "-std=c99", "-fsyntax-only"] + inc + [str(check)]
    proc = _run(cmd, "gcc", RUN_TIMEOUT)
    if proc.returncode != 0:
        what = ("cannot be called as the Fortran contract prescribes (docs/testsuite-format.md)"
                if call_check is not None else
                "does not define the routine with the prototype of docs/conventions.md")
        raise AssertionError(f"{path.name} {what}:\n  {protos}\n  $ {shlex.join(cmd)}\n"
                             f"{proc.stderr.strip()[:3000]}")
    return path.with_suffix(".O3.o")


# --------------------------------------------------------------------------------------------
# Judging the driver's results
# --------------------------------------------------------------------------------------------

def _element_labels(name, n, bounds=None):
    """Labels of the n elements of array `name`: name[i], or for a Fortran array whose
    bounds the driver printed, name(i, j) with its own lower bounds (column-major)."""
    b = (bounds or {}).get(name)
    if not b:
        return [f"{name}[{i}]" for i in range(n)]
    out = []
    for i in range(n):
        subs, rest = [], i
        for lo, hi in b:
            ext = max(hi - lo + 1, 1)
            subs.append(str(lo + rest % ext))
            rest //= ext
        out.append(f"{name}({', '.join(subs)})")
    return out


def _elements(parts, lengths, bounds=None):
    """(label, Part) for every scalar of a packed list of Parts."""
    out = []
    for p in parts:
        if p.scalar:
            out.append((p.label, p))
        else:
            out.extend((l, p) for l in _element_labels(p.label, lengths[p.label], bounds))
    return out


def _fmt(v):
    return f"{v:.10g}"


def compare(got, want, rtol, floor, noise=None, abs_floor=0.0):
    """Per-element errors  max(0, |got-want| - noise) / max(|got|, |want|, floor*max|want|).

    `noise` is the uncertainty of `want` (finite differences), allowed on top of the
    relative tolerance; `abs_floor` a lower bound of the denominator.
    Returns (n_bad, worst_index, worst_err, raw) where raw is the largest error without the
    noise allowance (for reporting)."""
    scale = max(max((abs(w) for w in want if math.isfinite(w)), default=0.0) * floor, abs_floor)
    noise = noise or [0.0] * len(want)
    bad, worst, worst_err, raw = 0, None, -1.0, 0.0
    for i, (g, w) in enumerate(zip(got, want)):
        if not (math.isfinite(g) and math.isfinite(w)):
            err = 0.0 if g == w else math.inf
            raw = max(raw, err)
        else:
            den = max(abs(g), abs(w), scale, 1e-300)
            err = max(0.0, abs(g - w) - noise[i]) / den
            raw = max(raw, abs(g - w) / den)
        if err > rtol:
            bad += 1
        if err > worst_err:
            worst, worst_err = i, err
    return bad, worst, worst_err, raw


def _mismatch(title, got, want, labels, rtol, floor, got_name, want_name, stats=None,
              noise=None, abs_floor=0.0):
    bad, i, err, raw = compare(got, want, rtol, floor, noise, abs_floor)
    if stats is not None and i is not None:
        stats[title] = max(stats.get(title, 0.0), raw)
    if not bad:
        return None
    pm = f" (+- {noise[i]:.2g})" if noise else ""
    return (f"{title}: {bad} of {len(got)} values differ beyond tol {rtol:g}; worst {labels[i]}: "
            f"{got_name} {_fmt(got[i])}, {want_name} {_fmt(want[i])}{pm} (rel. err {err:.2g})")


def judge(plan: Plan, res: dict, stats: Optional[dict] = None) -> list:
    """The failures (readable strings) found in the driver's results for one head.

    `stats`, if given, receives the worst relative error of each comparison.  Results of
    a driver built without derivatives are checked for the primal and FD parts only."""
    spec, head, f = plan.spec, plan.head, plan.head.func
    lengths = res["lengths"]
    bounds = res.get("bounds")
    yel = _elements(plan.dep_parts(), lengths, bounds)
    xel = _elements(plan.indep_parts(), lengths, bounds)
    ylab, xlab = [l for l, _ in yel], [l for l, _ in xel]
    nout, nin = len(ylab), len(xlab)
    y0 = res["y0"]
    jac = [res["jac"][r * nin:(r + 1) * nin] for r in range(nout)]
    fails = []

    nonfinite = [ylab[i] for i, v in enumerate(y0) if not math.isfinite(v)]
    if nonfinite:
        return [f"the primal gives non-finite dependents ({', '.join(nonfinite[:5])}): "
                f"fix the arg init ranges"]
    bad_fd = [(ylab[r], xlab[c]) for r in range(nout) for c in range(nin)
              if not math.isfinite(jac[r][c])]
    if bad_fd:
        return [f"finite differences are not finite (d {bad_fd[0][0]} / d {bad_fd[0][1]}): "
                f"fix the arg init ranges"]
    # derivatives of that size could not be told from the garbage the checks fill in
    huge = GARBAGE * 1e-6
    big = [ylab[i] for i, v in enumerate(y0) if abs(v) >= huge] + \
        [f"d {ylab[r]} / d {xlab[c]}" for r in range(nout) for c in range(nin)
         if abs(jac[r][c]) >= huge]
    if big:
        return [f"the primal's dependents or their finite differences are too large to tell "
                f"from the garbage value {GARBAGE:g} (at least {huge:g}: {', '.join(big[:4])}): "
                f"fix the arg init ranges"]
    if all(v == 0.0 for row in jac for v in row):
        return ["the finite-difference Jacobian is identically zero: the test would be vacuous"]
    # FD with steps h and 4h must agree (relative to the largest entry of each row), else no
    # comparison with the FD means anything: a kink or a jump near the inputs.  Their
    # difference also estimates the FD error of each entry (`fd_err`), allowed in the
    # comparisons below on top of the tolerance.
    jac4 = [res["jac4"][r * nin:(r + 1) * nin] for r in range(nout)]
    # on top, the rounding of the two values whose difference the FD divides by 2h (the
    # smallest h): the two steps may agree by chance (an output very nearly linear, whose
    # values change by whole units of the last place), and an entry below that is beyond
    # what finite differences can tell
    step = spec.fd_step or FD_STEP[plan.prec]
    eps = 2.0 ** -52 if plan.prec == "double" else 2.0 ** -23
    fd_err = [[2.0 * abs(a - b) + 2.0 * eps * abs(y0[r]) / step for a, b in zip(ra, rb)]
              for r, (ra, rb) in enumerate(zip(jac, jac4))]
    jmax = max(abs(v) for row in jac4 for v in row)
    for r in range(nout):
        m = _mismatch("finite differences with steps h and 4h", jac[r], jac4[r],
                      [f"d {ylab[r]} / d {l}" for l in xlab], spec.tol, 1.0,
                      "h gives", "4h gives", stats, abs_floor=math.sqrt(spec.tol) * jmax)
        if m:
            return [m + " -- the FD cannot be trusted: move the arg init ranges away from "
                    "kinks, or adjust fd_step/tol"]

    prec = plan.prec
    floor = math.sqrt(spec.tol)

    if "ydot" in res:
        # tangent vs J xdot
        xdot, ydot = res["xdot"], res["ydot"]
        want = [sum(jac[r][c] * xdot[c] for c in range(nin)) for r in range(nout)]
        noise = [sum(fd_err[r][c] * abs(xdot[c]) for c in range(nin)) for r in range(nout)]
        garbage = [label for (label, p), v in zip(yel, ydot)
                   if not p.ret and plan.role(p.owner) == "out" and abs(v) >= GARBAGE / 10]
        if garbage:
            fails.append(f"{f}_d left the garbage {GARBAGE:g} in the tangent of pure output(s) "
                         f"{', '.join(garbage[:4])}: it must be written, not accumulated")
        else:
            m = _mismatch(f"tangent {f}_d vs central finite differences J.xdot", ydot, want,
                          ylab, spec.tol, floor, f"{f}_d gives", "FD gives", stats, noise,
                          abs_floor=spec.atol / spec.tol)
            if m:
                fails.append(m)

    if "xbar" in res:
        # adjoint vs J^T ybar
        ybar, xbar = res["ybar"], res["xbar"]
        want = [sum(jac[r][c] * ybar[r] for r in range(nout)) for c in range(nin)]
        noise = [sum(fd_err[r][c] * abs(ybar[r]) for r in range(nout)) for c in range(nin)]
        garbage = [xlab[i] for i, v in enumerate(xbar) if abs(v) >= GARBAGE / 10]
        if garbage:
            fails.append(f"{f}_b left the garbage {GARBAGE:g} in the adjoint of pure input(s) "
                         f"{', '.join(garbage[:4])}: it must be set, not accumulated")
        else:
            m = _mismatch(f"adjoint {f}_b vs central finite differences J^T.ybar", xbar, want,
                          [f"adjoint of {l}" for l in xlab], spec.tol, floor,
                          f"{f}_b gives", "FD gives", stats, noise,
                          abs_floor=spec.atol / spec.tol)
            if m:
                fails.append(m)

    if "ydot" in res and "xbar" in res:
        # dot-product test
        ty = [yb * yd for yb, yd in zip(ybar, ydot)]
        tx = [xb * xd for xb, xd in zip(xbar, xdot)]
        a, b = math.fsum(ty), math.fsum(tx)
        scale = max(math.fsum(map(abs, ty)), math.fsum(map(abs, tx)))
        if stats is not None:
            stats["dot-product test"] = abs(a - b) / (scale or 1)
        if not (math.isfinite(a) and math.isfinite(b)) or \
                abs(a - b) > max(spec.dot_tol * scale, spec.atol):
            fails.append(f"dot-product test: <ybar, {f}_d(xdot)> = {a!r} but <{f}_b(ybar), xdot> "
                         f"= {b!r} (rel. diff {abs(a - b) / (scale or 1):.2g} > dot_tol "
                         f"{spec.dot_tol:g})")

    changed = [i for i, v in enumerate(res.get("untouched", [])) if v != UNTOUCHED]
    if changed:
        label = _elements(plan.untouched_parts(), lengths)[changed[0]][0]
        fails.append(f"{f}_b changed the derivative of {label}, a field of a handle passed by "
                     "value that is no output nor independent: it must be left as the caller "
                     "set it")

    # pure outputs' seeds consumed (for Fortran, the function result's seed too)
    if "seed_after:return" in res and res["seed_after:return"][0] != 0.0:
        fails.append(f"{f}_b did not consume the seed of the function result: {f}b = "
                     f"{_fmt(res['seed_after:return'][0])} on return (must be 0)")
    for name in head.deps:
        a_ = plan.arg(name)
        if a_ is not None and plan.role(name) == "out":
            left = res.get(f"seed_after:{name}", [])
            nz = [i for i, v in enumerate(left) if v != 0.0]
            if nz and a_.kind == "handle":
                label = _elements(plan.out_parts(name), lengths)[nz[0]][0]
                fails.append(f"{f}_b did not consume the seed of pure output {name}: the "
                             f"seed of {label} is {_fmt(left[nz[0]])} on return (must be 0)")
            elif nz:
                fails.append(f"{f}_b did not consume the seed of pure output {name}: "
                             f"{name}b[{nz[0]}] = {_fmt(left[nz[0]])} on return (must be 0)")

    # primal outputs of the derivative routines
    ptol = PRIMAL_TOL[prec]
    for key, routine in (("tangent", f"{f}_d"), ("reverse", f"{f}_b")):
        for k, want in res.items():
            if not k.startswith("primal:"):
                continue
            name = k.split(":", 1)[1]
            got = res.get(f"{key}:{name}")
            if got is None:
                continue
            a_ = plan.arg(name)
            if a_ is None and "." in name:      # a value of a handle
                h = plan.arg(name.split(".")[0])
                fl = h.field_at(name) if h is not None else None
                scalar = fl is not None and fl.kind in ("int", "real")
            else:
                scalar = a_ is not None and a_.scalar
            labels = ([f"return value of {f}"] if name == "return"
                      else [name] if scalar
                      else _element_labels(name, len(want), bounds))
            m = _mismatch(f"primal output {name} computed by {routine}", got, want, labels,
                          ptol, 1e-3, routine, "primal", stats)
            if m:
                fails.append(m)
    return fails


# --------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------

def _read_spec(source: Path) -> Spec:
    text = source.read_text(errors="replace")
    if is_fortran(source):
        body = fortran_block(text, source.suffix.lower() in FIXED_FORM_SUFFIXES)
        if body is None:
            raise SpecError(f"{source}: no adgen-test block (a comment line '! adgen-test')")
        try:
            return parse_spec(body, "fortran")
        except SpecError as exc:
            raise SpecError(f"{source}: {exc}") from None
    if not _BLOCK.search(text):
        raise SpecError(f"{source}: no adgen-test block")
    try:
        return parse_spec(text)
    except SpecError as exc:
        raise SpecError(f"{source}: {exc}") from None


def check_program_compiles(source: Path, flags) -> None:
    """The test program itself must be clean C99 (else a failure would blame adgen):
    compiled at -O0, as the derivative code is, since some warnings come only from code
    generation (storing a local's address in a global, -Wdangling-pointer)."""
    # (-Wno-unknown-pragmas: a program may carry `#pragma adgen` directives)
    cmd = [CC] + WERROR_FLAGS + ["-Wno-unknown-pragmas", "-O0", "-c", "-o", os.devnull] + \
        flags + [str(source)]
    proc = _run(cmd, "gcc", RUN_TIMEOUT)
    if proc.returncode != 0:
        raise SpecError(f"the test program {source.name} itself does not compile cleanly:\n"
                        f"  $ {shlex.join(cmd)}\n{proc.stderr.strip()[:3000]}")


def _build_and_run(plan: Plan, source: Path, workdir: Path, flags, objs: dict,
                   fbuild: Optional[FortranBuild] = None) -> dict:
    """Write, compile, link (with the derivative objects `objs`, {'b'|'d': path}, and for a
    Fortran program its gfortran-compiled primal) and run the driver; its JSON results."""
    f = plan.head.func
    modes = "".join(objs)
    driver = workdir / f"{f}_driver{modes}.c"
    results = driver.with_suffix(".json")
    if results.exists():
        results.unlink()
    driver.write_text(make_driver(plan, source, modes, results if plan.fortran else None))
    exe, dobj = driver.with_suffix(""), driver.with_suffix(".o")
    cmd = [CC] + DRIVER_FLAGS + SANITIZE + flags + ["-c", str(driver), "-o", str(dobj)]
    _must(_run(cmd, "gcc", RUN_TIMEOUT), cmd, "compiling the driver")
    if fbuild is not None:      # gfortran links libgfortran
        shim = [_compile_fortran_shim(plan, workdir, fbuild)] if plan.assumed_shape() else []
        cmd = [FC] + SANITIZE + [str(dobj)] + [str(o) for o in objs.values()] \
            + [str(o) for o in shim + fbuild.objs] + ["-lm", "-o", str(exe)]
    else:
        wrap = WRAP_ALLOC if "b" in objs and no_alloc_guard(plan, source) else []
        cmd = [CC] + SANITIZE + wrap + [str(dobj)] + [str(o) for o in objs.values()] + \
            ["-lm", "-o", str(exe)]
    _must(_run(cmd, "link", RUN_TIMEOUT), cmd,
          "linking the driver with the derivative objects (a generated file must not "
          "define a symbol of the primal)")
    proc = _run([str(exe)], "driver", RUN_TIMEOUT, env=_sanitizer_env(workdir))
    try:
        _must(proc, [exe], "running the driver")
    except AssertionError as exc:
        hint = "" if SANITIZE or proc.returncode >= 0 else \
            "\n(it crashed: rerun with ADGEN_TEST_SANITIZE=1 to build with ASan/UBSan)"
        raise AssertionError(str(exc) + hint) from None
    out = results.read_text() if plan.fortran else proc.stdout
    try:
        return json.loads(out)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"driver output is not JSON ({exc}):\n{out[:2000]}")


def _compile_fortran(path: Path, moddir: Path, fbuild: FortranBuild, what: str) -> Path:
    """gfortran -c of a file the harness uses, with the primal's modules; its object."""
    obj = path.with_suffix(".o")
    moddir.mkdir(exist_ok=True)
    cmd = [FC, "-O2", "-ffree-line-length-none", "-J", str(moddir), "-I", str(moddir),
           "-I", str(fbuild.moddir), "-c", str(path.resolve()), "-o", str(obj.resolve())]
    # (in the module directory: gfortran reads .mod files of the current directory first,
    # and a stray one where the tests were started must not stand for the primal's)
    _must(_run(cmd, FC, RUN_TIMEOUT, cwd=moddir), cmd, f"compiling {what}")
    return obj


def _compile_fortran_shim(plan: Plan, workdir: Path, fbuild: FortranBuild) -> Path:
    shim = workdir / f"{plan.head.func}_shim.f90"
    shim.write_text(make_fortran_shim(plan))
    return _compile_fortran(shim, workdir / "fmain_mod", fbuild, "the primal's shim")


def check_head(source: Path, spec: Spec, head: Head, workdir: Path, adgen_cmd=None,
               stats: Optional[dict] = None, derivatives: bool = True,
               fbuild: Optional[FortranBuild] = None, stacks=None) -> None:
    """Differentiate one head both ways, build and run its driver, assert on the results.

    When one mode fails (adgen, compilation, linking), the other is still checked against
    the finite differences, and all failures are reported together.
    derivatives=False checks the primal and the finite differences only (no adgen).
    For a Fortran program, `fbuild` is its gfortran-compiled primal (build_fortran_primal);
    the Fortran main program (make_fortran_main) is checked too when both modes built.
    `stacks`: the stack kinds to check the adjoint with, in turn (default: the one
    ADGEN_TEST_STACK names); the tangent, which has no stack, is made and built once for
    all of them."""
    workdir.mkdir(parents=True, exist_ok=True)
    if fbuild is not None:
        plan = make_fortran_plan(spec, head, fbuild)
        sources = fortran_sources(spec, source)
    else:
        plan = make_plan(spec, head, source.read_text())
        sources = source
    flags = resolve_flags(spec, source)
    stacks = list(stacks or [stack_mode()]) if derivatives else [stack_mode()]
    fails, tangent = [], {}
    for k, stack in enumerate(stacks):
        where = workdir if k == 0 else workdir / stack
        with _stack_kind(stack):
            found = _check_stack(source, spec, head, plan, sources, flags, where, adgen_cmd,
                                 stats if k == 0 else None, derivatives, fbuild, tangent)
        if len(stacks) > 1:
            found = [f"(--stack={stack}) {f}" for f in found]
        fails += found
    if fails:
        raise AssertionError("- " + "\n- ".join(f.replace("\n", "\n  ") for f in fails))


@contextlib.contextmanager
def _stack_kind(stack):
    """ADGEN_TEST_STACK set to `stack` for a while (stack_mode reads it)."""
    old = os.environ.get("ADGEN_TEST_STACK")
    os.environ["ADGEN_TEST_STACK"] = stack
    try:
        yield
    finally:
        if old is None:
            del os.environ["ADGEN_TEST_STACK"]
        else:
            os.environ["ADGEN_TEST_STACK"] = old


def _check_stack(source, spec, head, plan, sources, flags, workdir, adgen_cmd, stats,
                 derivatives, fbuild, tangent) -> list:
    """check_head with the stack kind stack_mode() gives: its failures. `tangent` holds
    what the first stack's check made of the tangent ({'obj': its object, None when it
    failed, and its failures were reported with that stack}), which the later ones reuse."""
    workdir.mkdir(parents=True, exist_ok=True)
    fails, objs = [], {}
    if derivatives:
        protos = prototypes(plan)
        for mode, suffix, proto in zip(("reverse", "forward"), "bd", protos):
            if mode == "forward" and "obj" in tangent:
                if tangent["obj"] is not None:
                    objs["d"] = tangent["obj"]
                    interface = tangent["obj"].parent / f"{head.func}_d_interface.f90"
                    if interface.exists():      # for the Fortran main program
                        shutil.copy(interface, workdir / interface.name)
                continue
            out = workdir / f"{head.func}_{suffix}.c"
            if out.exists():
                out.unlink()
            try:
                cmd, proc = run_adgen(mode, sources, head, out, flags, adgen_cmd,
                                      size_options(plan) + adgen_only_flags(spec, source))
                _must(proc, cmd, f"adgen --{mode}")
                if not out.exists():
                    raise AssertionError(f"adgen --{mode} exited 0 but wrote no {out.name}")
                if spec.expect_warning is not None:
                    _check_warning(proc.stderr, source, spec.expect_warning, f"adgen --{mode}")
                check = fortran_call_check([proto]) if fbuild is not None else None
                objs[suffix] = _compile_derivative(out, source, flags, proto, workdir, check)
            except AssertionError as exc:
                fails.append(str(exc))
            if mode == "forward":
                tangent["obj"] = objs.get("d")
    try:
        res = _build_and_run(plan, source, workdir, flags, objs, fbuild)
    except AssertionError as exc:
        if len(objs) < 2:
            return fails + [str(exc)]
        fails.append(str(exc))      # linking both failed: check each mode alone
        res = {}
        for suffix in objs:
            try:
                res.update(_build_and_run(plan, source, workdir, flags, {suffix: objs[suffix]},
                                          fbuild))
            except AssertionError as exc1:
                fails.append(f"(with {head.func}_{suffix}.o alone) {exc1}")
        if not res:
            return fails
    fails += judge(plan, res, stats)
    # (a VALUE dummy needs an interface where the Fortran main has none)
    if fbuild is not None and len(objs) == 2 and "ints" in res and \
            not any(p.by_value for p in plan.proc.params):
        try:
            _run_fortran_main(plan, res, source, workdir, objs, fbuild, stats)
        except AssertionError as exc:
            fails.append(str(exc))
    return fails


def _run_fortran_main(plan: Plan, res: dict, source: Path, workdir: Path, objs: dict,
                      fbuild: FortranBuild, stats: Optional[dict] = None) -> None:
    """Build the Fortran main program (make_fortran_main) with gfortran, link it with the
    derivative objects and the primal, run it: it must print PASS."""
    f = plan.head.func
    main = workdir / f"{f}_fmain.f90"
    main.write_text(make_fortran_main(plan, res, source.name))
    moddir = workdir / "fmain_mod"
    interfaces = []
    if plan.assumed_shape():
        # the derivative routines are called through the modules adgen wrote beside them
        # (strict line length: adgen's must fit in free form's 132 columns)
        for mode in "bd":
            path = workdir / f"{f}_{mode}_interface.f90"
            interfaces.append(_compile_fortran(path, moddir, fbuild, path.name))
            cmd = [FC, "-std=f2008", "-fsyntax-only", "-J", str(moddir), str(path.resolve())]
            _must(_run(cmd, FC, RUN_TIMEOUT, cwd=moddir), cmd,
                  f"checking {path.name} with -std=f2008")
    obj = _compile_fortran(main, moddir, fbuild, "the Fortran main program")
    exe = main.with_suffix("")
    cmd = [FC] + SANITIZE + [str(obj)] + [str(o) for o in interfaces + list(objs.values())] \
        + [str(o) for o in fbuild.objs] + ["-lm", "-o", str(exe)]
    _must(_run(cmd, "link", RUN_TIMEOUT), cmd,
          "linking the Fortran main program with the derivative objects")
    proc = _run([str(exe)], "Fortran main program", RUN_TIMEOUT)
    out = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0 or "adgen Fortran main: PASS" not in proc.stdout:
        raise AssertionError(f"the Fortran main program calling {f}_d and {f}_b with no "
                             f"interface failed (exit {proc.returncode}; {main}):\n{out[:3000]}")
    if stats is not None:
        m = re.search(r"rel\. diff\s+(\S+), directional FD rel\. err\s+(\S+)", out)
        if m:
            stats["Fortran main: dot-product test"] = float(m.group(1))
            stats["Fortran main: directional FD"] = float(m.group(2))


def check_program(source: Path, workdir: Path, adgen_cmd=None, stats: Optional[dict] = None,
                  derivatives: bool = True, stacks=None) -> None:
    """Check every head of a test program; raises AssertionError with details on failure.

    A program marked `expect-error:` is checked with expect_error instead.  `stats`, if
    given, receives {head text: {comparison: worst relative error}}. `stacks`: the stack
    kinds the adjoints are checked with (see check_head; the test suite gives STACKS)."""
    source, workdir = Path(source), Path(workdir)
    spec = _read_spec(source)
    if spec.expect_error is not None:
        if derivatives:
            expect_error(source, workdir, adgen_cmd)
        return
    fbuild = None
    if is_fortran(source):
        fbuild = build_fortran_primal(spec, source, workdir / "primal",
                                      resolve_flags(spec, source))
    else:
        check_program_compiles(source, resolve_flags(spec, source))
    errors = []
    for i, head in enumerate(spec.heads):
        sub = workdir / (f"{i}_{head.func}" if len(spec.heads) > 1 else head.func)
        head_stats = {} if stats is None else stats.setdefault(head.text, {})
        try:
            check_head(source, spec, head, sub, adgen_cmd, head_stats, derivatives, fbuild,
                       stacks)
        except AssertionError as exc:
            body = "\n".join("  " + l for l in str(exc).splitlines())
            errors.append(f"{source.name}, head {head}:\n{body}\n  (work files in {sub})")
    if errors:
        raise AssertionError("\n".join(errors))


def check_primal(source: Path, workdir: Path) -> None:
    """Without adgen: the program compiles cleanly, its block is consistent, the primal gives
    finite values and a non-zero finite-difference Jacobian (an aid for writing programs)."""
    check_program(source, workdir, derivatives=False)


_DIAG = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")
_WARN = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?:(?P<col>\d+):)? warning: (?P<msg>.*)$")


def _check_warning(stderr: str, source: Path, text: str, where: str) -> None:
    """`expect-warning:` adgen succeeded and printed `FILE:LINE[:COL]: warning: MESSAGE`
    about the program, MESSAGE containing `text`."""
    ok = [m for m in map(_WARN.match, stderr.splitlines())
          if m and Path(m["file"]).name == source.name and text in m["msg"]]
    if not ok:
        raise AssertionError(f"{where} on {source.name}: no 'FILE:LINE: warning: ...' line for "
                             f"{source.name} containing {text!r}\n  stderr: {stderr.strip()[:1500]}")


def expect_error(source: Path, workdir: Path, adgen_cmd=None) -> None:
    """adgen must refuse the program: exit 1, and a `FILE:LINE:COL: error: ...` line on
    stderr about this file whose message contains the expected text (and, with
    `expect-error-line:`, at that line). Checked in both modes."""
    source, workdir = Path(source), Path(workdir)
    spec = _read_spec(source)
    if spec.expect_error is None:
        raise SpecError(f"{source}: no 'expect-error:' line")
    workdir.mkdir(parents=True, exist_ok=True)
    head = spec.heads[0] if spec.heads else None
    flags = resolve_flags(spec, source)
    problems = []
    sources = fortran_sources(spec, source) if is_fortran(source) else [source]
    for mode in ("reverse", "forward"):
        out = workdir / f"out_{mode}.c"
        cmd = list(adgen_cmd or ADGEN_CMD) + [f"--{mode}"] + [str(s) for s in sources] + \
            adgen_only_flags(spec, source)
        if head:
            cmd += ["--head", head.text]
        cmd += ["-o", str(out)] + flags
        proc = _run_adgen(cmd, f"adgen --{mode}")
        diags = [m for m in map(_DIAG.match, proc.stderr.splitlines()) if m]
        where = f"adgen --{mode} on {source.name}"
        if proc.returncode != 1:
            problems.append(f"{where}: exit status {proc.returncode}, expected 1\n"
                            f"  stderr: {proc.stderr.strip()[:1500]}")
            continue
        if is_fortran(source):      # Fortran is case-insensitive: so is the match
            ok = [m for m in diags if Path(m["file"]).name == source.name
                  and spec.expect_error.lower() in m["msg"].lower()]
        else:
            ok = [m for m in diags if Path(m["file"]).name == source.name
                  and spec.expect_error in m["msg"]]
        if not ok:
            problems.append(f"{where}: no 'FILE:LINE:COL: error: ...' line for {source.name} "
                            f"containing {spec.expect_error!r}\n  stderr: {proc.stderr.strip()[:1500]}")
            continue
        if spec.expect_error_lines and not any(
                int(m["line"]) in spec.expect_error_lines for m in ok):
            want = ", ".join(map(str, sorted(spec.expect_error_lines)))
            problems.append(f"{where}: error reported at line {ok[0]['line']}, expected line "
                            f"{want}: {ok[0].group(0)}")
    if problems:
        raise AssertionError("\n".join(problems))


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description="Check adgen on test programs.")
    ap.add_argument("programs", nargs="+", type=Path)
    ap.add_argument("--workdir", type=Path, help="keep work files here (default: a temp dir)")
    ap.add_argument("--primal-only", action="store_true",
                    help="do not run adgen: check the program, its block and the FD part")
    ap.add_argument("--adgen", help="command that runs adgen (default: python -m adgen)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print the worst relative error of every comparison")
    args = ap.parse_args(argv)
    status = 0
    for prog in args.programs:
        wd = args.workdir / prog.stem if args.workdir else Path(tempfile.mkdtemp(prefix="adgen-"))
        stats = {}
        try:
            check_program(prog, wd, shlex.split(args.adgen) if args.adgen else None,
                          stats=stats, derivatives=not args.primal_only)
            print(f"PASS {prog}")
        except (AssertionError, SpecError) as exc:
            print(f"FAIL {prog}\n{exc}")
            status = 1
        if args.verbose:
            for head, st in stats.items():
                for what, err in st.items():
                    print(f"    {head}: {what}: {err:.2g}")
    return status


if __name__ == "__main__":
    sys.exit(main())
