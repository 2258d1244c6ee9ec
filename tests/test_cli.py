"""The command line's contract (docs/cli.md): exit statuses, the error format, output files.

Every error must be one line `FILE:LINE:COL: error: MESSAGE` (or `FILE: error: MESSAGE`
when there is no position) on stderr, exit status 1 (2 for bad usage), never a Python
traceback, and no output file.  Tests marked xfail(strict=True) document a part of the
contract adgen does not meet yet.
"""
import math
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "examples" / "rosenbrock" / "model.c"

OK = "double f(double x)\n{\n    return x * x;\n}\n"


def adgen(*args, cwd, env=None):
    """Runs `python -m adgen ARGS` in cwd (this checkout's adgen, installed or not)."""
    full_env = dict(os.environ if env is None else env)
    full_env.pop("ADGEN_DEBUG", None)          # it turns internal errors into tracebacks
    full_env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT)] + ([full_env["PYTHONPATH"]] if full_env.get("PYTHONPATH") else []))
    return subprocess.run([sys.executable, "-m", "adgen"] + [str(a) for a in args],
                          cwd=cwd, env=full_env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, errors="replace", timeout=300)


def check_error(proc, file, message, lines=None, located=True, status=1):
    """Asserts proc failed with one well-formed error about file; returns the message."""
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out, out
    assert proc.returncode == status, f"exit status {proc.returncode}, stderr:\n{proc.stderr}"
    assert proc.stdout == "", proc.stdout
    first = proc.stderr.splitlines()[0] if proc.stderr else ""
    if located:
        m = re.match(rf"^{re.escape(str(file))}:(\d+):(\d+): error: (.+)$", first)
        assert m, f"expected '{file}:LINE:COL: error: MESSAGE', got: {first!r}"
        line, col, msg = int(m.group(1)), int(m.group(2)), m.group(3)
        assert line >= 1 and col >= 1, first
        if lines is not None:
            assert line in lines, f"error on line {line}, expected one of {lines}: {first}"
    else:
        m = re.match(rf"^{re.escape(str(file))}: error: (.+)$", first)
        assert m, f"expected '{file}: error: MESSAGE', got: {first!r}"
        msg = m.group(1)
    assert re.search(message, msg, re.I), f"message {msg!r} does not match {message!r}"
    return msg


def files_in(d):
    return sorted(p.name for p in Path(d).iterdir())


def refuse(tmp_path, source, message, lines=None, head=None):
    """source must be refused in both modes (for head, or the heads adgen chooses), with
    no output file left behind."""
    path = tmp_path / "prog.c"
    path.write_text(source)
    for mode in ("--reverse", "--forward"):
        proc = adgen(mode, "prog.c", *(["--head", head] if head else []), "-o", "out.c",
                     cwd=tmp_path)
        msg = check_error(proc, "prog.c", message, lines)
        assert files_in(tmp_path) == ["prog.c"], "adgen left files behind"
    return msg


def test_tests_run_this_checkout(tmp_path):
    """In this process and in the commands the tests start (tests/conftest.py), adgen is
    this checkout's, not another installation's."""
    import adgen as this
    assert Path(this.__file__).resolve().is_relative_to(ROOT), this.__file__
    out = subprocess.run([sys.executable, "-c", "import adgen; print(adgen.__file__)"],
                         cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert Path(out.strip()).resolve().is_relative_to(ROOT), out


# ----------------------------------------------------------------- input files

def _caret_column(proc):
    """The (line, column) of an error's first line, and the column its caret line points at
    (1-based, in the source line shown above it, tabs expanded)."""
    first, shown, caret = proc.stderr.splitlines()[:3]
    m = re.match(r"^[^:]+:(\d+):(\d+): error: ", first)
    assert m, first
    gutter = re.match(r"^ *(\d+) \| ", shown)
    assert gutter and int(gutter.group(1)) == int(m.group(1)), proc.stderr
    assert re.match(r"^ +\| *\^$", caret) and len(caret.split("|")[0]) == len(gutter.group(0)) - 2, \
        proc.stderr
    return int(m.group(1)), int(m.group(2)), shown[len(gutter.group(0)):], \
        len(caret) - len(gutter.group(0))


def test_error_shows_the_line_with_a_caret(tmp_path):
    """As gcc does: after `FILE:LINE:COL: error: ...`, the line and a caret under COL (the
    source's tabs expanded to 8 columns in both)."""
    (tmp_path / "model.c").write_text(
        "double g(double);\ndouble f(double x)\n{\n\tdouble t = x;\n\treturn g(t) * x;\n}\n")
    proc = adgen("--reverse", "model.c", cwd=tmp_path)
    check_error(proc, "model.c", "unknown external function 'g'", lines=[5])
    line, col, shown, at = _caret_column(proc)
    assert shown == "        return g(t) * x;"
    assert (col, at) == (9, 16) and shown[at - 1] == "g"


@pytest.mark.parametrize("line,name,column", [
    ("    return x  *    g(x);", "g", 20),            # runs of spaces
    ("    return x *  (x /* twice */ +  g(x));", "g", 35),    # and a comment before
    ('    return puts(" a  b ") + x  *  g(x);', "g", 35),     # and a string with spaces
])
def test_error_column_is_the_source_s(tmp_path, line, name, column):
    """The column of an error and its caret are those of the file as written, where the
    preprocessor's output (which pycparser reads) has made runs of spaces one and left
    comments out, as gcc's own errors say."""
    (tmp_path / "model.c").write_text("#include <stdio.h>\ndouble g(double);\n"
                                      f"double f(double x)\n{{\n{line}\n}}\n")
    proc = adgen("--reverse", "model.c", "--head", "f/(x)", cwd=tmp_path)
    check_error(proc, "model.c", f"unknown external function '{name}'", lines=[5])
    _, col, shown, at = _caret_column(proc)
    assert shown == line and (col, at) == (column, column) and shown[at - 1] == name, \
        proc.stderr


def test_fortran_error_shows_the_line_with_a_caret(tmp_path):
    (tmp_path / "model.f90").write_text(
        "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n"
        "  y = x * g(x)\nend subroutine\n")
    proc = adgen("--reverse", "model.f90", cwd=tmp_path)
    check_error(proc, "model.f90", "g", lines=[4])
    line, col, shown, at = _caret_column(proc)
    assert shown == "  y = x * g(x)" and (col, at) == (11, 11)    # under the name called


_FORTRAN_HEAD = "subroutine f(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n"


@pytest.mark.parametrize("name, text, head, message, place, caret", [
    # a declaration: the name declared, not the type
    ("decl.f90", "module m\n  type :: p_t\n    real(8), allocatable :: x\n  end type\n"
     "end module m\n", "", "allocatable scalar component 'x'", (3, 29),
     "    3 |     real(8), allocatable :: x\n      |                             ^"),
    # a call on a continuation line, a comment line before it: that line, its column
    ("cont.f90", _FORTRAN_HEAD + "  y = x + &   ! 'g' is\n  ! called\n    & 2 * g(x)\n"
     "end subroutine\n", "--head=f(y)/(x)", "unknown external function 'g'", (6, 11),
     "    6 |     & 2 * g(x)\n      |           ^"),
    # fixed form, a tab before the statement, its continuation in column 6
    ("fixed.f", "      subroutine f(x, y)\n      real*8 x, y\nc g(x) below\n\ty = x +\n"
     "     &    g(x)\n      end\n", "--head=f(y)/(x)", "unknown external function 'g'",
     (5, 11), "    5 |      &    g(x)\n      |           ^"),
    ("tab.f90", _FORTRAN_HEAD + "\ty = x * g(x)\nend subroutine\n", "--head=f(y)/(x)",
     "unknown external function 'g'", (4, 10),
     "    4 |         y = x * g(x)\n      |                 ^"),
    # a name of --head placed at the procedure's statement
    ("head.f90", _FORTRAN_HEAD + "  y = x\nend subroutine\n", "--head=f(z)/(x)",
     "'z' is not a parameter of 'f'", (1, 12), "    1 | subroutine f(x, y)\n      |            ^"),
    # not the name in a string, nor in a comment, nor inside another name
    ("string.f90", _FORTRAN_HEAD + "  print *, 'g(x)'; y = x * gg + g(x) ! g\n"
     "end subroutine\n", "--head=f(y)/(x)", "unknown external function 'g'", (4, 33),
     "    4 |   print *, 'g(x)'; y = x * gg + g(x) ! g\n"
     "      |                                 ^"),
])
def test_fortran_errors_point_at_what_they_are_about(name, text, head, message, place,
                                                      caret, tmp_path):
    """A Fortran error is at the line and column of the name its message is about, in the
    statement it is about (on the line that spells it, for a continued statement), with
    the caret under it."""
    (tmp_path / name).write_text(text)
    proc = adgen("--reverse", name, *([head] if head else []), "--no-output", cwd=tmp_path)
    check_error(proc, name, re.escape(message), lines=[place[0]])
    assert _caret_column(proc)[:2] == place, proc.stderr
    assert proc.stderr.splitlines()[1:3] == caret.split("\n"), proc.stderr


def test_fortran_error_in_an_included_file(tmp_path):
    """An error in a file a Fortran source INCLUDEs names that file and its line."""
    (tmp_path / "body.inc").write_text("  ! the body\n\n  y = x * g(x)\n")
    (tmp_path / "model.f90").write_text(_FORTRAN_HEAD + "  include 'body.inc'\n"
                                        "end subroutine\n")
    proc = adgen("--reverse", "model.f90", "--no-output", cwd=tmp_path)
    check_error(proc, "body.inc", "unknown external function 'g'", lines=[3])
    assert _caret_column(proc)[:2] == (3, 11), proc.stderr


@pytest.mark.parametrize("files, where, message", [
    # fparser's own error, which names the INCLUDE line of the source
    ({"body.inc": "  y = x\n\n  y = y +\n"}, ("body.inc", 3, 3), r"y = y \+"),
    # in a file that an INCLUDEd file INCLUDEs
    ({"body.inc": "  y = x\n  include 'deep.inc'\n", "deep.inc": "  y = 1\n  y = y +* 2\n"},
     ("deep.inc", 2, 3), r"y = y \+\* 2"),
    # an END naming another unit (fparser logs it and exits)
    ({"body.inc": "  y = g(x)\ncontains\n  real(8) function g(t)\n    real(8) :: t\n"
      "    g = t\n  end function h\n"}, ("body.inc", 6, 3), r"expected .*g.* but got h"),
    # an error fparser cannot place: where gfortran places it, in the INCLUDEd file
    ({"body.inc": "  y = x\n  real, external : sdot\n"}, ("body.inc", 2, 8), r"syntax error"),
], ids=["fparser", "nested", "end-name", "gfortran"])
def test_fortran_syntax_error_in_an_included_file(files, where, message, tmp_path):
    """A syntax error inside an INCLUDEd file names that file, its line and column, not
    the INCLUDE line of the source."""
    if "external :" in files["body.inc"] and shutil.which("gfortran") is None:
        pytest.skip("gfortran places this error")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "model.f90").write_text(_FORTRAN_HEAD + "  include 'body.inc'\n"
                                        "end subroutine\n")
    proc = adgen("--reverse", "model.f90", "--no-output", cwd=tmp_path)
    check_error(proc, where[0], message, lines=[where[1]])
    assert _caret_column(proc)[:2] == where[1:], proc.stderr


@pytest.mark.parametrize("name", ["model.f90", "model.f"])
def test_fortran_include_found_beside_the_source_or_with_minus_i(name, tmp_path):
    """An INCLUDE line's file is looked for beside the source, then in the -I directories,
    in free and fixed form alike, wherever adgen runs; one found nowhere is an error (it
    was left out, and the current directory searched)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / "src" / name).write_text(
        "      subroutine f(x, y)\n      real*8 x, y\n      include 'body.inc'\n"
        "      end\n")
    (tmp_path / "body.inc").write_text("      y = 0\n")      # (not the one to read)
    for where in ("src", "inc"):
        (tmp_path / where / "body.inc").write_text("      y = x * g(x)\n")
        proc = adgen("--reverse", f"src/{name}", "-I", "inc", "--no-output", cwd=tmp_path)
        check_error(proc, f"{where}/body.inc", "unknown external function 'g'", lines=[1])
        (tmp_path / where / "body.inc").unlink()
    proc = adgen("--reverse", f"src/{name}", "-I", "inc", "--no-output", cwd=tmp_path)
    check_error(proc, f"src/{name}", "INCLUDE 'body.inc': no such file", lines=[3])


def test_error_without_its_line_shows_none(tmp_path):
    """A position in a file that cannot be read (gone since) gives the message alone."""
    from adgen.errors import AdgenError, Loc, report
    assert report(AdgenError("bad", Loc(str(tmp_path / "gone.c"), 3, 2)), "x.c") == \
        f"{tmp_path / 'gone.c'}:3:2: error: bad"
    assert report(AdgenError("bad"), "x.c") == "x.c: error: bad"


def test_missing_input_file(tmp_path):
    proc = adgen("--reverse", "nosuch.c", cwd=tmp_path)
    check_error(proc, "nosuch.c", r"no such file|not found|does not exist", located=False)


def test_directory_as_input(tmp_path):
    (tmp_path / "src.c").mkdir()
    proc = adgen("--reverse", "src.c", cwd=tmp_path)
    check_error(proc, "src.c", r"directory", located=False)


def test_empty_file(tmp_path):
    (tmp_path / "empty.c").write_text("")
    proc = adgen("--reverse", "empty.c", cwd=tmp_path)
    check_error(proc, "empty.c", r"empty", located=False)


def test_binary_garbage(tmp_path):
    data = random.Random(7).randbytes(300)
    (tmp_path / "garbage.c").write_bytes(data[:150] + b"\0" + data[150:])
    proc = adgen("--reverse", "garbage.c", cwd=tmp_path)
    check_error(proc, "garbage.c", r"binary|not a text|not c source", located=False)


# ------------------------------------------------------------ malformed C input

SYNTAX_MISSING_SEMICOLON = """double f(double x)
{
    double y = x * 2.0
    return y;
}
"""

SYNTAX_BAD_EXPRESSION = """double f(double x)
{
    return x * ;
}
"""


# pycparser fails on these without a position (an assertion, "Invalid expression"): the
# position is gcc's, reading the input as adgen does (with __adgen__ defined)
SYNTAX_STRAY_BRACE = """double f(double x)
{
    return x;
}
}
"""

SYNTAX_ARRAY_WITHOUT_NAME = """#ifdef __adgen__
#include <math.h>
#else
#include "not_there.h"
#endif
void f(int n, double *q)
{
    for (int i = 0; i < n; i++)
        -[i] = 0.1 * i;
}
"""


@pytest.mark.parametrize("source,lines", [
    (SYNTAX_MISSING_SEMICOLON, {3, 4}),
    (SYNTAX_BAD_EXPRESSION, {3}),
    (SYNTAX_STRAY_BRACE, {5}),
    (SYNTAX_ARRAY_WITHOUT_NAME, {9}),
], ids=["missing-semicolon", "bad-expression", "stray-brace", "array-without-name"])
def test_syntax_error(tmp_path, source, lines):
    refuse(tmp_path, source, r"syntax error", lines)


def test_unterminated_comment(tmp_path):
    refuse(tmp_path, "double f(double x)\n{\n    /* never closed\n    return x;\n}\n",
           r"unterminated comment", {3})


def test_unterminated_string(tmp_path):
    refuse(tmp_path, 'double f(double x)\n{\n    const char *s = "abc;\n    return x;\n}\n',
           r"unterminated string|missing terminating", {3})


def test_undefined_identifier(tmp_path):
    msg = refuse(tmp_path, "double f(double x)\n{\n    return x * y;\n}\n",
                 r"undeclared|undefined", {3})
    assert "'y'" in msg


# -------------------------------------------------------- refused C constructs

EXTERNAL = """double g(double);

double f(double x)
{
    return g(x) * x;
}
"""


def test_unknown_external_function(tmp_path):
    refuse(tmp_path, EXTERNAL, r"'g'.*--inactive", {5})
    # the remedy the message suggests works
    proc = adgen("--reverse", "prog.c", "--inactive", "g", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out.c").exists()


def test_file_static_named_in_an_initializer_and_in_another_file(tmp_path):
    """A file's static whose name another file uses too is renamed in its file; an
    initializer naming it (C text, not renamed with it) is refused at its line."""
    (tmp_path / "a.c").write_text("static double w = 2.0;\nstatic double *pw = &w;\n"
                                  "double fa(double x) { return *pw * x; }\n")
    (tmp_path / "b.c").write_text("double w = 1.0;\ndouble fa(double x);\n"
                                  "double fb(double x) { return fa(x) * w; }\n")
    proc = adgen("--reverse", "a.c", "b.c", "--head", "fb(fb)/(x)", "-o", "out.c",
                 cwd=tmp_path)
    check_error(proc, "a.c", r"static 'w' .* another file .* initializer of 'pw'", lines=[2])
    assert files_in(tmp_path) == ["a.c", "b.c"]


def test_file_static_renamed_is_named_as_written(tmp_path):
    """A file's static renamed after its file (another file has one of that name) is
    named in messages as the source names it: 's', not 's_model'."""
    (tmp_path / "model.c").write_text(
        "static double s;\nstatic int calls;\ndouble f(double x) { calls++; if (calls > 1) "
        "s = s + x; else s = x * x; return s * x; }\n")
    (tmp_path / "other.c").write_text("static double s = 2.0;\n"
                                      "double g(double x) { return s * x; }\n")
    proc = adgen("--reverse", "model.c", "other.c", "--head", "f(f)/(x)", "-o", "out.c",
                 cwd=tmp_path)
    check_error(proc, "model.c", r"the static global 's' keeps its value .*declare 's' "
                "without 'static'", lines=[1])
    assert "s_model" not in proc.stderr


def test_inactive_names_a_function_adgen_sees(tmp_path):
    """--inactive for a function the input defines: the derivative code calls it as
    compiled, its result a constant (its body is not differentiated, nor refused); a
    static one, which the derivative code cannot call, or a head, is an error."""
    source = ("double g(double x)\n{\n    return x * x;\n}\n\n"
              "double f(double x)\n{\n    return g(x) + x;\n}\n")
    (tmp_path / "prog.c").write_text(source)
    proc = adgen("--reverse", "prog.c", "--head", "f", "--inactive", "g", "-o", "out.c",
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    code = (tmp_path / "out.c").read_text()
    assert "double g(double x);" in code and "g_b" not in code and "fb" in code, code
    proc = adgen("check", "prog.c", "--head", "f", "--inactive", "g", cwd=tmp_path)
    assert proc.returncode == 1 and "NO" in proc.stdout, proc.stdout    # g's part is left out
    (tmp_path / "prog.c").write_text("static " + source)
    (tmp_path / "out.c").unlink()
    proc = adgen("--reverse", "prog.c", "--inactive", "g", "-o", "out.c", cwd=tmp_path)
    check_error(proc, "prog.c", r"--inactive g: 'g' is static, so the derivative code", {1})
    assert not (tmp_path / "out.c").exists()
    proc = adgen("--reverse", "prog.c", "--head", "g", "--inactive", "g", "-o", "out.c",
                 cwd=tmp_path)
    check_error(proc, "prog.c", r"--inactive g: 'g' is a head", {1})


EQUIVALENCE_CONSTANT = """      DOUBLE PRECISION FUNCTION EPSM()
      INTEGER IM(2)
      DOUBLE PRECISION DM
      EQUIVALENCE (DM, IM(1))
      DATA DM /2.22044604926D-16/
      EPSM = DM
      END
      SUBROUTINE F(X, Y)
      DOUBLE PRECISION X, Y, EPSM
      Y = X*X + EPSM()
      END
"""


def test_inactive_routine_of_a_machine_constant_with_equivalence(tmp_path):
    """MINPACK's DPMPAR pattern: a routine returning a machine constant through
    EQUIVALENCE, which adgen refuses; the error names --inactive as the way out, and with
    it the caller is differentiated and checked."""
    (tmp_path / "f.f").write_text(EQUIVALENCE_CONSTANT)
    proc = adgen("--reverse", "f.f", "--head", "f(y)/(x)", "-o", "out.c", cwd=tmp_path)
    check_error(proc, "f.f", r"EQUIVALENCE is not supported \(if 'epsm' computes nothing "
                r"that carries derivatives, name it with --inactive epsm", {4})
    proc = adgen("check", "f.f", "--head", "f(y)/(x)", "--inactive", "epsm", cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr


REPORTING_STEP = """\
void report(const char *msg);

static double smooth(int n, const double *h)
{
    double scratch[64];
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        scratch[i] = h[i] * h[i];
    if (scratch[0] > 4.0)
        report("large");
    for (i = 1; i < n; i++)
        s += scratch[i] * scratch[i - 1];
    return s;
}

void run(int n, int steps, double *h, double *cost)
{
    int t, i;
    for (t = 0; t < steps; t++) {
        double s = smooth(n, h);
        for (i = 0; i < n; i++)
            h[i] = h[i] + 0.01 * s;
        if (h[0] > 1e6)
            break;
    }
    *cost = h[n - 1] * h[n - 1];
}
"""


def test_inactive_external_function_in_a_callee(tmp_path):
    """A function marked --inactive that is handed memory, called by a function whose
    sweeps are split: what it may write is unknown, so the backward sweep takes the
    callee's locals from the stack (it once stopped with an internal error)."""
    (tmp_path / "prog.c").write_text(REPORTING_STEP)
    proc = adgen("--reverse", "prog.c", "--head", "run(cost)/(h)", "--inactive", "report",
                 "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "out.c"],
                   cwd=tmp_path, check=True)


def test_function_pointer(tmp_path):
    # a head taking a function: no call tells which one it is
    refuse(tmp_path, "double apply(double (*h)(double), double x)\n{\n    return h(x);\n}\n",
           r"takes a function as an argument \('h'\)", {1, 3})


NULL_IN_TABLE = """#include <stddef.h>
#include <math.h>
static double f0(double x) { return sin(x); }
static double f1(double x) { return x * x; }
double run(int m, double x)
{
    double (*f[3])(double) = {f0, f1, NULL};
    double s = 0.0;
    for (int j = 0; j < m; j++)
        s += f[j](x);
    return s;
}
"""

NULL_IN_TABLE_DRIVER = """#include <stdio.h>
double run_b(int m, double x, double *xb, double runb);
double run_d(int m, double x, double xd, double *run);
int main(int argc, char **argv)
{
    double xb = 0.0, y = 0.0;
    (void)argv;
    if (argc > 1) {
        printf("%g\\n", run_d(3, 0.5, 1.0, &y));
        return 0;
    }
    run_b(2, 0.5, &xb, 1.0);
    printf("%.15g\\n", xb);
    fflush(stdout);
    run_b(3, 0.5, &xb, 1.0);
    return 0;
}
"""


def test_a_call_through_a_table_entry_holding_no_function_stops(tmp_path):
    """A table of functions called in a loop holds their numbers; an entry holding none
    (NULL here, which the program would call) stops the derivative code with the place
    and the pointer, in both modes, where the entries that hold one give derivatives."""
    (tmp_path / "prog.c").write_text(NULL_IN_TABLE)
    (tmp_path / "main.c").write_text(NULL_IN_TABLE_DRIVER)
    for mode, out in (("--reverse", "prog_b.c"), ("--forward", "prog_d.c")):
        proc = adgen(mode, "prog.c", "--head", "run(run)/(x)", "-o", out, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", "run", "main.c",
                    "prog_b.c", "prog_d.c", "-lm"], cwd=tmp_path, check=True)
    message = "prog.c:10: an element of the function pointer array 'f' holds none of f0, f1"
    for args in ([], ["tangent"]):
        run = subprocess.run(["./run"] + args, cwd=tmp_path, capture_output=True, text=True)
        assert run.returncode != 0 and message in run.stderr, (run.returncode, run.stderr)
    first = subprocess.run(["./run"], cwd=tmp_path, capture_output=True, text=True)
    assert abs(float(first.stdout.split()[0]) - (math.cos(0.5) + 1.0)) < 1e-14


POINTER_SET_ELSEWHERE = """static double (*law)(double);
static double quad(double v) { return v * v; }
static double cube(double v) { return v * v * v; }
void choose(int k) { law = k ? quad : cube; }
double run(const double *x)
{
    return law(x[0]) + law(x[1]);
}
"""

POINTER_KEPT_BETWEEN_CALLS = """static double (*law)(double);
static double quad(double v) { return v * v; }
static double cube(double v) { return v * v * v; }
double run(int k, const double *x)
{
    if (k > 1)
        law = k > 2 ? quad : cube;
    return law(x[0]) + law(x[1]);
}
"""


@pytest.mark.parametrize("source,message", [
    (POINTER_SET_ELSEWHERE, r"the function pointer 'law' is set in 'choose', which runs in "
                            r"the program's own code: adgen cannot tell which function it "
                            r"holds at the calls; pass the function as an argument"),
    (POINTER_KEPT_BETWEEN_CALLS, r"the function pointer 'law' keeps its value from one call "
                                 r"of 'run' to the next: adgen cannot tell which function it "
                                 r"holds at the calls; pass the function as an argument")],
    ids=["set-by-init", "kept-between-calls"])
def test_static_function_pointer_of_several_functions_set_outside_refused(
        tmp_path, source, message):
    """A static function pointer that may hold several functions holds their number; where
    the program's own code sets it (an init routine) or a call leaves it for the next, the
    output's copy would not hold what the program's does. The refusal names the pointer
    and the way out that works: not "declare it without static", which function pointers
    refuse in turn (another file could set it)."""
    refuse(tmp_path, source, message, {1}, head="run(run)/(x)")


CALLBACK_MISUSED = """static double sq(double x) { return x * x; }
static double twice(double (*f)(double), double (*g)(double), double x)
{
    if (f == g)
        return 0.0;
    return f(g(x));
}
double top(double x)
{
    return twice(sq, sq, x);
}
"""

CALLBACK_UNKNOWN = """static double apply(double (*f)(double), double x)
{
    return f(x);
}
double top(double x)
{
    return apply(0, x);
}
"""


@pytest.mark.parametrize("source,message,line", [
    (CALLBACK_MISUSED, r"function pointer 'f' used other than passed to a call or called", 4),
    (CALLBACK_UNKNOWN, r"'apply' calls its function parameter 'f', given NULL by a call, "
                       r"where no test of it keeps the call from running", 3)],
    ids=["compared", "null-called"])
def test_function_pointer_parameter_refused(tmp_path, source, message, line):
    # (named: without --head, `top` would be left out with a warning and `sq`, which no
    # function calls by name, differentiated alone)
    refuse(tmp_path, source, message, {line}, head="top")


VARARGS_BARE = """double first(int n, ...)
{
    return n;
}
"""

VARARGS_VA_ARG = """#include <stdarg.h>

double sum(int n, ...)
{
    va_list ap;
    double s = 0.0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double);
    va_end(ap);
    return s;
}
"""


@pytest.mark.parametrize("source,lines", [
    (VARARGS_BARE, {1}),
    (VARARGS_VA_ARG, {3, 9}),
], ids=["ellipsis", "va_arg"])
def test_varargs_definition(tmp_path, source, lines):
    refuse(tmp_path, source, r"variadic|varargs|\.\.\.", lines)


OLD_STYLE_HEAD = """double energy(n, x, k)
double *x;
double k;
{
    int i;
    double e = 0.0;
    for (i = 0; i < n; i++)
        e += k * x[i] * x[i];
    return e;
}
"""


def test_old_style_head(tmp_path):
    """An old-style (K&R) definition is the prototyped one: `n`, which its declarations
    leave out, an int; the derivative routines take the parameters in the list's order."""
    (tmp_path / "prog.c").write_text(OLD_STYLE_HEAD)
    proc = adgen("--reverse", "prog.c", "--head", "energy(energy)/(x k)", "-o", "out.c",
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = (tmp_path / "out.c").read_text()
    assert "void energy_b(int n, double *x, double *xb, double k, double *kb, " \
        "double energyb)" in out, out
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "out.c"],
                   cwd=tmp_path, check=True)


def test_old_style_declaration_of_no_parameter(tmp_path):
    refuse(tmp_path, "double f(x)\ndouble x, y;\n{\n    return x * y;\n}\n",
           r"'y' is declared as a parameter of 'f' but is not in its parameter list", {2})


@pytest.mark.parametrize("source,message,line", [
    ("void f(int n, double *x)\n{\n    for (int i = 0; i < n; i++) {\n        x[i] *= 2.0;\n"
     "        return 1;\n    }\n}\n", r"'return' with a value in 'f', which returns void", 5),
    ("double f(double x)\n{\n    if (x > 0.0)\n        return;\n    return x * x;\n}\n",
     r"'return' without a value in 'f', which returns a value", 4),
    ("double f(double x)\n{\n    double y = x * x;\n        break;\n    return y;\n}\n",
     r"'break' outside a loop or switch", 4),
    ("double f(int n, double x)\n{\n    switch (n) {\n    case 1:\n        x *= 2.0;\n"
     "        continue;\n    }\n    return x;\n}\n", r"'continue' outside a loop or switch", 6),
], ids=["value-in-void", "no-value", "break-outside", "continue-in-switch"])
def test_invalid_jumps_refused(tmp_path, source, message, line):
    """Invalid C (a return that does not match the function, which gcc only warns about;
    a break or continue with no loop around it): refused, not given a derivative."""
    refuse(tmp_path, source, message, {line})


FUNCTION_FOR_DATA = """static double sq(double v)
{
    return v * v;
}

static void scale(int n, double *out)
{
    for (int i = 0; i < n; i++)
        out[i] *= 2.0;
}

void f(int n, double *x)
{
    scale(n, sq);
    x[0] = sq(x[0]);
}
"""


def test_function_passed_for_data(tmp_path):
    """A function passed for a parameter that is not a function pointer (gcc warns) is
    refused; without --head, the function is left out of the heads with a warning that
    says why (its callees, now uncalled, are differentiated in its place)."""
    (tmp_path / "prog.c").write_text(FUNCTION_FOR_DATA)
    proc = adgen("--reverse", "prog.c", "--head", "f(x)/(x)", "-o", "out.c", cwd=tmp_path)
    check_error(proc, "prog.c", r"the function 'sq' is passed to 'scale' for 'out', which is "
                r"not a function pointer", {14})
    proc = adgen("--reverse", "prog.c", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("prog.c:14:5: warning: 'f' is left out of the functions "
                                  "differentiated (no --head names it): the function 'sq' "
                                  "is passed to"), proc.stderr


REFUSED_WHILE_DIFFERENTIATED = {
    "takes a function": ("double sq(double x) { return x * x; }\n"
                         "double apply(double (*g)(double), double x) { return g(x) + x; }\n"
                         "double triple(double x) { return x * 3.0; }\n"
                         "int main(void) { return (int)(apply(sq, 2.0) + triple(1.0)); }\n",
                         "prog.c:2:22: warning: 'apply' is left out", ["triple_b", "sq_b"]),
    "calls an unknown external": ("double ext(double);\n"
                                  "double bad(double x) { return ext(x) * x; }\n"
                                  "double good(double x) { return x * 3.0; }\n",
                                  "prog.c:2:31: warning: 'bad' is left out", ["good_b"]),
}


@pytest.mark.parametrize("case", sorted(REFUSED_WHILE_DIFFERENTIATED))
def test_default_head_refused_while_differentiated_is_left_out(tmp_path, case):
    """Without --head, a default head refused only while it is differentiated (not while
    it is read) is left out with a warning saying why, and the others are differentiated
    (before: the run stopped at the error); named with --head, it is still an error."""
    source, warning, written = REFUSED_WHILE_DIFFERENTIATED[case]
    (tmp_path / "prog.c").write_text(source)
    proc = adgen("--reverse", "prog.c", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stderr.startswith(warning), proc.stderr
    code = (tmp_path / "out.c").read_text()
    assert all(f"void {name}(" in code for name in written), code
    refused = warning.split("'")[1]
    proc = adgen("--reverse", "prog.c", "--head", refused, "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 1 and ": error: " in proc.stderr, proc.stderr


STRUCT_OF_STRUCT_ARRAYS = """
#include <math.h>

struct body { double x[3], v[3]; double m; };
struct state { struct body b[2]; int step; };

void advance(struct state *s, double dt)
{
    int i, k;
    for (i = 0; i < 2; i++)
        for (k = 0; k < 3; k++) {
            s->b[i].v[k] = s->b[i].v[k] - dt * sin(s->b[i].x[k]) / s->b[i].m;
            s->b[i].x[k] = s->b[i].x[k] + dt * s->b[i].v[k];
        }
    s->b[0].m = s->b[0].m * (1.0 + dt * s->b[1].x[2]);
    s->step++;
}
"""


def test_struct_holding_an_array_of_structs(tmp_path):
    """A head's struct holding an array of structs that hold arrays (bodies in a state):
    every number in it is the head's data (before: the array of structs was left out of
    the head's memory, the derivatives were zero with a warning saying so, and the check
    failed against finite differences). Without --head, the function is a head too."""
    (tmp_path / "prog.c").write_text(STRUCT_OF_STRUCT_ARRAYS)
    body = '{"x": [1.0, 2.0, 3.0], "v": [0.5, 0.25, 2.0], "m": 1.5}'
    (tmp_path / "in.json").write_text(
        '{"s": {"b": [%s, %s], "step": 0}, "dt": 0.1}' % (body, body.replace("1.5", "2.5")))
    proc = adgen("check", "prog.c", "--head", "advance(s)/(s dt)", "--inputs", "in.json",
                 cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
    assert "warning" not in proc.stderr, proc.stderr
    proc = adgen("--reverse", "prog.c", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    assert "advance(s)/(s dt)" in (tmp_path / "out.c").read_text()


KINETIC = """
#include <math.h>

struct particle { double x, v, m; };

double kinetic(int n, const struct particle *p)
{
    double e = 0.0;
    int i;
    for (i = 0; i < n; i++)
        e += 0.5 * p[i].m * p[i].v * p[i].v + sin(p[i].x);
    return e;
}

double potential(struct particle q)
{
    return q.m * q.x;
}
"""


def test_default_heads_read_numbers_held_in_structs(tmp_path):
    """Without --head, or with a head named without lists, numbers held in structs (an
    array of structs, a struct by value) are inputs (before: 'no function to
    differentiate', and `--head kinetic` gave kinetic(kinetic)/() with zero derivatives)."""
    (tmp_path / "prog.c").write_text(KINETIC)
    proc = adgen("--reverse", "prog.c", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    code = (tmp_path / "out.c").read_text()
    assert "kinetic(kinetic)/(p)" in code and "potential(potential)/(q)" in code, code
    proc = adgen("--reverse", "prog.c", "--head", "kinetic", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr


DEFAULT_REAL_LITERAL = """subroutine lap(n, u, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: r(n)
  integer :: i
  r = 0d0
  do i = 2, n - 1
    r(i) = u(i-1) - 2.0 * u(i) + u(i+1)**2
  end do
end subroutine
"""


def test_check_keeps_double_tolerances_beside_default_real_literals(tmp_path):
    """A double precision routine whose only default-real value is a literal (`2.0 *
    u(i)`, computed in double): `adgen check` keeps double precision's tolerances (before:
    single precision's, 2e-3 and 1e-5, under which a wrong adjoint could pass)."""
    (tmp_path / "lap.f90").write_text(DEFAULT_REAL_LITERAL)
    proc = adgen("check", "lap.f90", "--head", "lap(r)/(u)", "--size", "u=6", cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
    assert "rel. error <= 1e-06" in proc.stdout and "dot-product test <= 1e-12" in \
        proc.stdout, proc.stdout


LOCAL_PROCEDURES = {
    "main.f90": "program fit\n  implicit none\n  real(8) :: x(3), f\n"
                "  x = [0.3d0, -1.2d0, 0.7d0]\n  call objective(3, x, f)\n  print *, f\n"
                "contains\n  subroutine objective(n, x, f)\n    integer, intent(in) :: n\n"
                "    real(8), intent(in) :: x(n)\n    real(8), intent(out) :: f\n"
                "    f = sum(sin(x)**2) + x(1) * x(n)\n  end subroutine objective\n"
                "end program fit\n",
    "priv.f90": "module mm\n  implicit none\n  private\n  public :: run\ncontains\n"
                "  subroutine run(x, y)\n    real(8), intent(in) :: x\n"
                "    real(8), intent(out) :: y\n    call inner(x, y)\n"
                "  end subroutine run\n  subroutine inner(x, y)\n"
                "    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n"
                "    y = x * sin(x)\n  end subroutine inner\nend module mm\n"}


@pytest.mark.parametrize("source, head, size", [
    ("main.f90", "objective(f)/(x)", ["--size", "x=3"]), ("priv.f90", "inner(y)/(x)", [])],
    ids=["internal procedure of the main program", "PRIVATE module procedure"])
def test_check_of_a_local_procedure(tmp_path, source, head, size):
    """`adgen check` calls a head that gfortran's object holds as a local symbol (an
    internal procedure of the main program, `objective.0`; a PRIVATE module procedure,
    inlined into its caller at -O2): every procedure kept as written, the head's symbol
    made global (before: 'the program calls objective_, which none of the sources
    defines')."""
    (tmp_path / source).write_text(LOCAL_PROCEDURES[source])
    proc = adgen("check", source, "--head", head, *size, cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr


SINGLE_OFF_THE_PATH = """\
      SUBROUTINE GROW(X, Y)
      DOUBLE PRECISION X, Y, C(3)
      DATA C /1.0D0, 0.5D0, 1.0D-9/
      N = KEEP(C, 3, 1.0E-6)
      Y = 0.0D0
      DO 10 I = 1, N
         Y = Y + C(I) * EXP(X * I)
   10 CONTINUE
      END

      FUNCTION KEEP(C, NC, ETA)
      DOUBLE PRECISION C(*)
      TOTAL = 0.
      DO 10 I = NC, 1, -1
         TOTAL = TOTAL + ABS(REAL(C(I)))
         IF (TOTAL .GT. ETA) GO TO 20
   10 CONTINUE
   20 KEEP = I
      END
"""


def test_check_keeps_double_tolerances_beside_a_float_off_the_path(tmp_path):
    """A double precision routine whose helper computes in default REAL, on values the
    derivatives do not depend on (how many terms of a series to take): `adgen check`
    keeps double precision's step and tolerances. Before, it took single precision's (a
    step of 3e-3 at x = 9, whose truncation error made it fail the right derivative);
    a float on the way from the independents to the dependents still gives them (tests/
    test_api.py, a double model calling a float helper)."""
    (tmp_path / "grow.f").write_text(SINGLE_OFF_THE_PATH)
    (tmp_path / "in.json").write_text('{"x": 9.0}')
    proc = adgen("check", "grow.f", "--head", "grow(y)/(x)", "--inputs", "in.json",
                 cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
    assert "rel. error <= 1e-06" in proc.stdout and "single precision" not in proc.stdout, \
        proc.stdout


LOGICAL_DUMMY = """function g(x, flip)
  implicit none
  real(8) :: g
  real(8), intent(in) :: x
  logical, intent(in) :: flip
  g = x**2
  if (flip) g = -g
end function
"""


@pytest.mark.parametrize("flip,sign", [("true", -1), ("false", 1)])
def test_check_takes_json_booleans_for_logical_arguments(tmp_path, flip, sign):
    """A LOGICAL dummy given as JSON true/false (before: 'expected an integer')."""
    (tmp_path / "g.f90").write_text(LOGICAL_DUMMY)
    (tmp_path / "in.json").write_text('{"x": 0.5, "flip": %s}' % flip)
    proc = adgen("check", "g.f90", "--head", "g(g)/(x)", "--inputs", "in.json", cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
    derivative = re.search(r"g / x\s+(\S+)", proc.stdout).group(1)
    assert float(derivative) == pytest.approx(sign * 1.0), proc.stdout


def test_union(tmp_path):
    refuse(tmp_path, "union bits { double d; unsigned long u; };\n\ndouble f(double x)\n{\n"
                     "    union bits b;\n    b.d = x;\n    return b.d * x;\n}\n",
           r"union", {1, 5, 6, 7})


STRUCT_VIEW_RESULT = """typedef struct {
    int n;
    double *data;
} View;

static View make_view(double *p, int n)
{
    View v;
    v.n = n;
    v.data = p;
    return v;
}

double sumsq(int n, const double *x)
{
    double buf[8];
    View v = make_view(buf, n);
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        v.data[i] = x[i] * x[i];
    for (i = 0; i < n; i++)
        s += buf[i] * x[i];
    return s;
}
"""


def test_struct_result_holding_active_pointers(tmp_path):
    """A function returning a struct that points to active data (a view of a local array):
    both derivative routines carry the pointer's shadow out of it; checked against finite
    differences."""
    (tmp_path / "prog.c").write_text(STRUCT_VIEW_RESULT)
    proc = adgen("check", "prog.c", "--head", "sumsq(sumsq)/(x)", "--size", "x=n",
                 cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr


def test_check_of_f2c_code_finds_the_lengths_itself(tmp_path):
    """f2c's code takes its integers by pointer and moves its array pointers back for
    one-based loops: `adgen check` reads the integers from --inputs and sizes every array
    from adgen's own extents (before, 'no length known' for each)."""
    (tmp_path / "in.json").write_text('{"m": [3], "n": [4], "lda": [5]}')
    proc = adgen("check", str(ROOT / "testsuite" / "c" / "f2c_matrix_offsets.c"),
                 "--head", "rowscale_(y)/(a x)", "--inputs", "in.json", cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
    assert "a: 18 random values" in proc.stdout and "y: 3 values" in proc.stdout, proc.stdout


def test_check_of_a_binary_search_finds_the_lengths_itself(tmp_path):
    """A table searched by bisection: its cell's lo and hi are kept in [0, n - 1], so
    `adgen check` sizes xs and ys without --size (before, 'array xs: no length known')."""
    proc = adgen("check", str(ROOT / "testsuite" / "c" / "binary_search_interp.c"),
                 "--head", "interp(interp)/(ys t)", cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
    assert "xs: 3 random values" in proc.stdout, proc.stdout


POINTER_TYPEDEFS = """
typedef double *vec;
typedef float *frame_t;

void sumsq(vec x, int n, double *out)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    *out = s;
}

void total(frame_t *frame, int n, float *loss)
{
    int i;
    float s = 0.0f;
    for (i = 0; i < n; i++)
        s += (*frame)[i] * (*frame)[i];
    *loss = s;
}
"""


@pytest.mark.parametrize("head,inputs", [
    ("sumsq(out)/(x)", '{"n": 3}'),
    ("total(loss)/(frame)", '{"n": 3, "frame": [[0.5, 1.5, 2.0]]}')], ids=["vec", "frame_t"])
def test_check_of_parameters_declared_with_pointer_typedefs(tmp_path, head, inputs):
    """A parameter declared with a typedef of a pointer (`vec x`) or a pointer to one
    (`frame_t *frame`): the derivative routines spell it so, and `adgen check` reads their
    prototypes and declares them to cffi all the same (before: 'does not follow
    docs/conventions.md', and 'cffi refuses the declarations')."""
    (tmp_path / "prog.c").write_text(POINTER_TYPEDEFS)
    (tmp_path / "in.json").write_text(inputs)
    proc = adgen("check", "prog.c", "--head", head, "--inputs", "in.json", cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr


TWO_HEADS = """
#include <math.h>

void step(int n, double *x, double dt)
{
    int i;
    for (i = 0; i < n; i++)
        x[i] += dt * sin(x[i]);
}

double energy(int n, const double *x)
{
    double e = 0.0;
    int i;
    for (i = 0; i < n; i++)
        e += x[i] * x[i];
    return e;
}
"""


def test_check_of_two_heads_with_one_inputs_file(tmp_path):
    """One --inputs file for two heads whose parameters differ: each head takes the values
    of its own parameters (before: "'dt' is not a parameter of energy" after the first
    head); a name that is a parameter of neither is still an error."""
    (tmp_path / "prog.c").write_text(TWO_HEADS)
    (tmp_path / "in.json").write_text('{"n": 3, "dt": 0.1}')
    heads = ["--head", "step(x)/(x dt)", "--head", "energy(energy)/(x)"]
    proc = adgen("check", "prog.c", *heads, "--inputs", "in.json", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.count("PASS") == 2, proc.stdout + proc.stderr
    (tmp_path / "bad.json").write_text('{"n": 3, "dtt": 0.1}')
    proc = adgen("check", "prog.c", *heads, "--inputs", "bad.json", cwd=tmp_path)
    assert proc.returncode == 2 and "'dtt' is not a parameter" in proc.stderr, proc.stderr


@pytest.mark.parametrize("option", [("--size", "y=4"), ("--inputs", "bad.json")])
def test_check_of_one_head_refuses_a_name_that_is_no_parameter(tmp_path, option):
    """With one head too, a --size or --inputs name that is no parameter of it is an
    error (before: ignored, the check running on lengths and values it had chosen)."""
    (tmp_path / "prog.c").write_text(TWO_HEADS)
    (tmp_path / "bad.json").write_text('{"n": 3, "y": 0.1}')
    proc = adgen("check", "prog.c", "--head", "energy(energy)/(x)", *option, cwd=tmp_path)
    assert proc.returncode == 2 and \
        "adgen check: error: 'y' is not a parameter of energy (n, x)" in proc.stderr, \
        proc.stdout + proc.stderr


@pytest.mark.parametrize("stmt", ['__asm__("nop");', 'asm("nop");'], ids=["__asm__", "asm"])
def test_inline_asm(tmp_path, stmt):
    refuse(tmp_path, f"double f(double x)\n{{\n    {stmt}\n    return x * x;\n}}\n",
           r"inline asm|assembl", {3})


SETJMP = """#include <setjmp.h>

static jmp_buf env;

double f(double x)
{
    if (setjmp(env))
        return 0.0;
    return x * x;
}
"""

LONGJMP = """#include <setjmp.h>

jmp_buf env;

double f(double x)
{
    if (x < 0.0)
        longjmp(env, 1);
    return x * x;
}
"""


def test_posix_bessel_functions_of_c(tmp_path):
    """POSIX's Bessel functions have derivative rules (J0' = -J1, Jn' = (J(n-1) -
    J(n+1)) / 2, ...): the derivatives pass adgen check, and the output declares them
    itself, as <math.h> does not under -std=c99 (before: "no derivative rule for the
    library function 'j0'"). --inactive j0 still makes j0's result a constant."""
    (tmp_path / "prog.c").write_text(
        "#include <math.h>\ndouble f(double x)\n{\n    double ip = 1.0;\n"
        "    return j0(3.0 * x) * x * ip + jn(2, x) * y1(x + 1.0) + yn(3, x + 2.0);\n}\n")
    proc = adgen("--reverse", "prog.c", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "out.c").read_text()
    assert "double j0(double);" in text and "double jn(int, double);" in text, text
    gcc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "out.c"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert gcc.returncode == 0, gcc.stderr
    proc = adgen("check", "prog.c", "--head", "f(f)/(x)", cwd=tmp_path)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
    proc = adgen("--reverse", "prog.c", "--inactive", "j0", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "j1(" not in (tmp_path / "out.c").read_text()


def test_inactive_function_with_a_rule_is_a_constant(tmp_path):
    """--inactive modf keeps modf's calls as they are, carrying no derivative, although
    adgen differentiates modf by itself (rules.THROUGH_POINTER)."""
    (tmp_path / "prog.c").write_text(
        "#include <math.h>\ndouble f(double x)\n{\n    double ip;\n"
        "    return modf(3.0 * x, &ip) * x;\n}\n")
    proc = adgen("--forward", "prog.c", "-o", "d.c", cwd=tmp_path)
    assert proc.returncode == 0 and "trunc(" in (tmp_path / "d.c").read_text(), proc.stderr
    proc = adgen("--forward", "prog.c", "--inactive", "modf", "-o", "d.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    code = (tmp_path / "d.c").read_text()
    assert "modf(3.0 * x, &ip)" in code and "trunc(" not in code, code


@pytest.mark.parametrize("mode", ["--forward", "--reverse"])
def test_inactive_math_function_carries_no_derivative(mode, tmp_path):
    """--inactive sin makes sin's value a constant in both modes: the derivative is
    sin(3x), not sin(3x) + 3x cos(3x). Before, the option was ignored for a function of
    the rule table, its derivative taken all the same."""
    (tmp_path / "prog.c").write_text(
        "#include <math.h>\ndouble f(double x)\n{\n    return sin(3.0 * x) * x;\n}\n")
    proc = adgen(mode, "prog.c", "--inactive", "sin", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    code = (tmp_path / "out.c").read_text()
    assert "cos(" not in code and "sin(3.0 * x)" in code, code
    proc = adgen(mode, "prog.c", "-o", "out.c", cwd=tmp_path)
    assert "cos(3.0 * x)" in (tmp_path / "out.c").read_text()


SWITCH_STATIC_FALLTHROUGH = """\
double f(int k, double x)
{
    double s = 0.0;
    switch (k) {
    case 0:
        s = x;
    case 1: {
        static int calls = 0;
        calls++;
        s += x * x;
        break;
    }
    }
    return s;
}
"""


def test_static_local_in_case_entered_by_falling_through(tmp_path):
    # the case is converted once for each way in: its static would become two
    refuse(tmp_path, SWITCH_STATIC_FALLTHROUGH, r"static local in a switch case", {8})


@pytest.mark.parametrize("source,lines", [(SETJMP, {7}), (LONGJMP, {8})],
                         ids=["setjmp", "longjmp"])
def test_setjmp_longjmp(tmp_path, source, lines):
    refuse(tmp_path, source, r"setjmp|longjmp", lines)


# ------------------------------------------------------------------- --head

def test_head_names_unknown_function(tmp_path):
    (tmp_path / "ok.c").write_text(OK)
    proc = adgen("--reverse", "ok.c", "--head", "g(g)/(x)", "-o", "out.c", cwd=tmp_path)
    msg = check_error(proc, "ok.c", r"'g'", located=False)
    assert "function" in msg
    assert files_in(tmp_path) == ["ok.c"]


@pytest.mark.parametrize("head", ["f(f)/(z)", "f(z)/(x)"], ids=["independent", "dependent"])
def test_head_names_unknown_parameter(tmp_path, head):
    (tmp_path / "ok.c").write_text(OK)
    proc = adgen("--reverse", "ok.c", "--head", head, "-o", "out.c", cwd=tmp_path)
    check_error(proc, "ok.c", r"'z'.*parameter")
    assert files_in(tmp_path) == ["ok.c"]


@pytest.mark.parametrize("head,what", [("f()/(x)", "dependent"), ("f/()", "independent")],
                         ids=["dependents", "independents"])
def test_head_with_an_empty_list(tmp_path, head, what):
    # every derivative would be zero: a mistake, not a request
    (tmp_path / "ok.c").write_text(OK)
    for mode in ("--reverse", "--forward"):
        proc = adgen(mode, "ok.c", "--head", head, "-o", "out.c", cwd=tmp_path)
        check_error(proc, "ok.c", rf"names no {what}")
        assert files_in(tmp_path) == ["ok.c"]


GLOBAL_OUT = """double total[2];
void f(int n, const double *x)
{
    int i;
    total[0] = 0.0;
    for (i = 0; i < n; i++)
        total[0] = total[0] + x[i] * x[i];
}
"""


@pytest.mark.parametrize("head", ["f(total)/(x)", "f(x)/(total)"], ids=["dependent", "independent"])
def test_head_naming_a_global(tmp_path, head):
    # its derivative is a global of the output, without 'static': the caller's to set and
    # read (tests/c_global_head checks the numbers)
    (tmp_path / "g.c").write_text(GLOBAL_OUT)
    for mode, suffix in (("--reverse", "b"), ("--forward", "d")):
        proc = adgen(mode, "g.c", "--head", head, "-o", "out.c", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        text = (tmp_path / "out.c").read_text()
        assert re.search(rf"^double total{suffix}\[2\];$", text, re.M), text
    proc = adgen("--vector", "g.c", "--head", head, "-o", "out_dv.c", cwd=tmp_path)
    check_error(proc, "g.c", r"vector mode does not support a global variable as an "
                r"independent or a dependent \('total'\): pass it as an argument")


GLOBAL_HEADS = """double gain = 1.5;
double scale = 2.0;
double f1(double x) { return gain * x * x; }
double f2(double x) { return scale * x; }
"""

GLOBAL_HEADS_DRIVER = """#include <stdio.h>
void f1_b(double x, double *xb, double f1b);
void f2_b(double x, double *xb, double f2b);
double f1_d(double x, double xd, double *f1);
double f2_d(double x, double xd, double *f2);
extern double gainb, gaind;
int main(void)
{
    double xb, f;
    f1_b(3.0, &xb, 1.0);
    f2_b(3.0, &xb, 1.0);
    gaind = 1.0;
    f2_d(3.0, 1.0, &f);
    printf("%g %g\\n", gainb, gaind);
    return 0;
}
"""


def test_a_head_leaves_the_derivative_of_a_global_it_never_touches(tmp_path):
    # gainb is f1's gradient for the caller to read; f2 neither names nor uses gain, so
    # its derivative routines must leave gainb and gaind as they are (they zeroed them)
    (tmp_path / "m.c").write_text(GLOBAL_HEADS)
    (tmp_path / "main.c").write_text(GLOBAL_HEADS_DRIVER)
    for mode, out in (("--reverse", "m_b.c"), ("--forward", "m_d.c")):
        proc = adgen(mode, "m.c", "--head", "f1(f1)/(x gain)", "--head", "f2(f2)/(x)",
                     "-o", out, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", "run", "main.c",
                    "m.c", "m_b.c", "m_d.c", "-lm"], cwd=tmp_path, check=True)
    run = subprocess.run(["./run"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["9", "1"]


@pytest.mark.parametrize("before,message", [
    ("static ", r"'total' is a static variable: a dependent must be a parameter or a global "
     "without 'static'"),
    ("double totalb;\n", r"the derivative of the global 'total' is the global 'totalb', a "
     "name the program already uses"),
    ("", r"the derivative of the global 'total' is the global 'totalb', a name the program "
     r"already uses \(a local variable\)")],
    ids=["static", "derivative name taken", "derivative name of a local"])
def test_head_naming_a_global_refused(tmp_path, before, message):
    text = before + GLOBAL_OUT
    if not before:      # a local of the head named like the derivative (it would hide it)
        text = text.replace("    int i;", "    int i;\n    double totalb = 0.0;\n    (void)totalb;")
    (tmp_path / "g.c").write_text(text)
    proc = adgen("--reverse", "g.c", "--head", "f(total)/(x)", "-o", "out.c", cwd=tmp_path)
    check_error(proc, "g.c", message)
    assert files_in(tmp_path) == ["g.c"]


def test_two_heads_of_one_function(tmp_path):
    (tmp_path / "ok.c").write_text(OK)
    proc = adgen("--reverse", "ok.c", "--head", "f(f)/(x)", "--head", "f/(x)", "-o", "out.c",
                 cwd=tmp_path)
    check_error(proc, "ok.c", r"two heads name 'f'")
    assert files_in(tmp_path) == ["ok.c"]


def test_dependents_independent_of_the_independents_warn(tmp_path):
    # x only decides a branch: the derivatives are zero, and adgen says so
    (tmp_path / "p.c").write_text("double f(double x, double c)\n{\n"
                                  "    return x > 1.0 ? c * c : c;\n}\n")
    for mode in ("--reverse", "--forward"):
        proc = adgen(mode, "p.c", "--head", "f(f)/(x)", "-o", "out.c", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert re.search(r"^p\.c:1:8: warning: no dependent of 'f\(f\)/\(x\)' depends on an "
                         r"independent: its derivatives are all zero$", proc.stderr, re.M), \
            proc.stderr
        proc = adgen(mode, "p.c", "--head", "f(f)/(x c)", "-o", "out.c", cwd=tmp_path)
        assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr


def test_memcpy_between_types_names_them(tmp_path):
    """A memcpy adgen cannot follow element by element names the two types (it said
    "between arrays" for a struct filled from an array of doubles)."""
    refuse(tmp_path, "#include <string.h>\nstruct quad { double p, q, r, s; };\n"
           "double f(const double *x)\n{\n    struct quad a;\n    memcpy(&a, x, sizeof a);\n"
           "    return a.p * a.q + a.r * a.s;\n}\n",
           r"memcpy from 'double' into 'struct quad': a copy between different types is not "
           r"supported; copy it with a loop", lines=[6], head="f(f)/(x)")


def test_misspelled_head_names_get_a_suggestion(tmp_path):
    (tmp_path / "p.c").write_text("double energy(int n, const double *pos)\n{\n"
                                  "    return n * pos[0] * pos[0];\n}\n")
    proc = adgen("--reverse", "p.c", "--head", "enrgy(enrgy)/(pos)", cwd=tmp_path)
    check_error(proc, "p.c", r"'enrgy', which is not a function of the input; "
                             r"did you mean 'energy'\?$", located=False)
    proc = adgen("--reverse", "p.c", "--head", "energy(energy)/(pso)", cwd=tmp_path)
    check_error(proc, "p.c", r"'pso' is not a parameter of 'energy'; did you mean 'pos'\?$")
    # a dependent may be the return value: by the function's name, or a RESULT name
    proc = adgen("--reverse", "p.c", "--head", "energy(enrgy)/(pos)", cwd=tmp_path)
    check_error(proc, "p.c", r"'enrgy' is not a parameter of 'energy'; did you mean "
                             r"'energy'\?$")
    (tmp_path / "q.f90").write_text("module q\ncontains\nreal(8) function sq(x) result(res)\n"
                                    "  real(8), intent(in) :: x\n  res = x * x\nend function\n"
                                    "end module\n")
    proc = adgen("--reverse", "q.f90", "--head", "sq(rse)/(x)", cwd=tmp_path)
    check_error(proc, "q.f90", r"'rse' is not a parameter of 'sq'; did you mean 'res'\?$")


KERNEL_PROGRAM = """\
#include <stdio.h>
static void init_array(int n, double A[n][n], double x[n])
{
    for (int i = 0; i < n; i++) {
        x[i] = i;
        for (int j = 0; j < n; j++)
            A[i][j] = (double)(i * j % n) / n;
    }
}
void kernel_gemv(int n, double alpha, double A[n][n], double x[n], double y[n])
{
    for (int i = 0; i < n; i++) {
        y[i] = 0.0;
        for (int j = 0; j < n; j++)
            y[i] += alpha * A[i][j] * x[j];
    }
}
static void print_array(int n, double y[n])
{
    for (int i = 0; i < n; i++)
        printf("%f\\n", y[i]);
}
int main(void)
{
    double A[10][10], x[10], y[10];
    init_array(10, A, x);
    kernel_gemv(10, 1.5, A, x, y);
    print_array(10, y);
    return 0;
}
"""


def test_default_heads_are_kernels(tmp_path):
    """Without --head: the functions main calls that read and write numbers, arrays of
    rows (`double A[n][n]`) included; not the set-up (writes only) or the printing (reads
    only)."""
    (tmp_path / "k.c").write_text(KERNEL_PROGRAM)
    for mode, suffix in (("--reverse", "b"), ("--forward", "d")):
        proc = adgen(mode, "k.c", "-o", f"k_{suffix}.c", cwd=tmp_path)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        code = (tmp_path / f"k_{suffix}.c").read_text()
        assert " * Heads: kernel_gemv(y)/(alpha A x y)\n" in code, code[:400]
        subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c",
                        f"k_{suffix}.c", "-o", os.devnull], cwd=tmp_path, check=True)


def test_no_default_head_reads_and_writes_numbers(tmp_path):
    """A set-up function (writes numbers, reads none) and a printing one (reads, writes
    none) are no heads: with nothing else, an error, not derivatives all zero."""
    start = KERNEL_PROGRAM.index("void kernel_gemv")
    end = KERNEL_PROGRAM.index("static void print")
    (tmp_path / "p.c").write_text(KERNEL_PROGRAM[:start] + KERNEL_PROGRAM[end:]
                                  .split("int main")[0].replace("static ", ""))
    proc = adgen("--reverse", "p.c", cwd=tmp_path)
    check_error(proc, "p.c", "no function to differentiate", located=False)


def test_openmp_pragmas_are_said_to_run_serially(tmp_path):
    """The adjoint runs a parallel loop that overwrites values its backward sweep reads
    in an inner loop serially and says why; the tangent keeps it parallel
    (docs/openmp.md), and says nothing."""
    (tmp_path / "p.c").write_text(
        "#include <math.h>\nvoid f(int n, const double *x, double *y)\n{\n    int i, j;\n"
        "#pragma omp parallel for schedule(static) private(j)\n"
        "    for (i = 0; i < n; i++)\n"
        "        for (j = 0; j < 3; j++)\n            y[i] = sin(y[i]) * x[i];\n}\n")
    for mode in ("--reverse", "--forward"):
        proc = adgen(mode, "p.c", "--head", "f(y)/(x)", "--size", "y=n", "-o", "out.c",
                     cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        said = [] if mode == "--forward" else [
            "p.c:5:9: warning: '#pragma omp parallel for schedule(static) private(j)' is not "
            "supported here yet: the adjoint runs this loop serially: its forward sweep "
            "stores 'y[i]' for the backward sweep"]
        assert proc.stderr.splitlines() == said, proc.stderr
        parallel = "#pragma omp parallel for schedule(static) private(j" in \
            (tmp_path / "out.c").read_text()
        assert parallel == (mode == "--forward")


def test_static_state_is_refused(tmp_path):
    def refused(text, head):
        (tmp_path / "p.c").write_text(text)
        for mode in ("--reverse", "--forward"):
            proc = adgen(mode, "p.c", "--head", head, "-o", "out.c", cwd=tmp_path)
            msg = check_error(proc, "p.c", "keeps its value from one call")
        return msg

    # the output's copy of a static the head carries from call to call is not the program's
    assert refused((
        "static double integ = 0.0;\nstatic double scratch;\n"
        "double step(double u, double dt)\n{\n    scratch = u * u;\n"
        "    integ = integ + scratch * dt;\n    return integ * integ;\n}\n"),
        "step(step)/(u)").startswith(    # not scratch, which each call sets before reading
        "the static global 'integ' keeps its value from one call of 'step' to the next")
    # a call counter a branch tests: from the second call on, another branch
    msg = refused((
        "static int calls = 0;\ndouble f(double x)\n{\n    calls++;\n"
        "    if (calls > 1)\n        return x * x;\n    return x;\n}\n"), "f(f)/(x)")
    assert "declare 'calls' without 'static'" in msg
    # skipped by a goto on one path and read after its label: carried on that path
    assert refused((
        "static double s;\ndouble f(int n, const double *x)\n{\n    double r = 0.0;\n"
        "    int i;\n    for (i = 0; i < n; i++) {\n        if (x[i] > 0.0)\n"
        "            goto next;\n        s = x[i] * x[i];\n    next:\n"
        "        r += s * x[i];\n    }\n    return r;\n}\n"),
        "f(f)/(x)").startswith("the static global 's' keeps its value")
    # a static local the same way
    assert refused((
        "double filt(double x)\n{\n    static double prev = 0.0;\n"
        "    double y = 0.5 * (x * x + prev);\n    prev = x;\n    return y;\n}\n"),
        "filt(filt)/(x)").startswith("the static local 'prev' of 'filt' keeps its value")
    # a counter whose value reaches nothing but itself, and a static each call sets before
    # reading it, carry no state of the derivatives
    (tmp_path / "p.c").write_text(
        "double filt(double x)\n{\n    static int calls = 0;\n    static double t;\n"
        "    t = x * x;\n    calls++;\n    return t * x;\n}\n")
    proc = adgen("--reverse", "p.c", "--head", "filt(filt)/(x)", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    # declared without `static`, the output uses the program's variable
    (tmp_path / "p.c").write_text(
        "int calls = 0;\ndouble f(double x)\n{\n    calls++;\n"
        "    if (calls > 1)\n        return x * x;\n    return x;\n}\n")
    proc = adgen("--reverse", "p.c", "--head", "f(f)/(x)", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^extern int calls;", (tmp_path / "out.c").read_text(), re.M)


FP_SWAP = """#include <math.h>

double solve(int n, const double *b, double c)
{
    double a[8], w[8];
    double *x = a, *y = w, *t;
    double diff = 1.0, s = 0.0;
    int i, it = 0;
    for (i = 0; i < n; i++) {
        a[i] = 0.0;
        w[i] = 0.0;
    }
#pragma adgen fp_loop
    while (diff > 1e-13 && it < 200) {
        diff = 0.0;
        for (i = 0; i < n; i++) {
            y[i] = 0.5 * cos(x[i]) * c + b[i];
            diff += fabs(y[i] - x[i]);
        }
        t = x;
        x = y;
        y = t;
        it++;
    }
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}
"""


def test_fp_loop_swapping_buffers_is_refused(tmp_path):
    # the two-phase adjoint needs the body to map one state in place: with buffers swapped
    # between iterations its adjoint came out zero (the tangent is fine)
    (tmp_path / "fp.c").write_text(FP_SWAP)
    proc = adgen("--reverse", "fp.c", "--head", "solve(solve)/(b c)", "--size", "b=n",
                 "-o", "out.c", cwd=tmp_path)
    check_error(proc, "fp.c", r"^fp_loop: the loop carries the pointer 'x' from one "
                r"iteration to the next", lines=[13])
    proc = adgen("--forward", "fp.c", "--head", "solve(solve)/(b c)", "-o", "out.c",
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("directive,message", [
    ("#pragma adgen fploop", r"unknown directive '#pragma adgen fploop' \(adgen knows "
     r"binomial_ckp, checkpoint, fp_loop, independent, nocheckpoint, rule, size, stack_size"),
    ("#pragma adgen fp_loop 1e-6", r"expected '#pragma adgen fp_loop \[adj_reduction="
     r"FACTOR\]'"),
    ("#pragma adgen binomial_ckp", r"expected '#pragma adgen binomial_ckp\(nsteps, nsnaps, "
     r"first\)'"),
    ("#pragma adgen checkpoint now", r"expected '#pragma adgen checkpoint'")],
    ids=["unknown", "fp_loop", "binomial_ckp", "checkpoint"])
def test_a_directive_adgen_cannot_read_is_an_error(tmp_path, directive, message):
    # it was ignored: the loop was then reversed (or the call run) as if it were absent
    (tmp_path / "fp.c").write_text(FIXED_POINT.replace(
        "#pragma adgen fp_loop adj_reduction=1e-3", directive))
    proc = adgen("--reverse", "fp.c", "--head", "fixed(fixed)/(p)", "-o", "out.c",
                 cwd=tmp_path)
    check_error(proc, "fp.c", message, lines=[6])
    assert files_in(tmp_path) == ["fp.c"]


FIXED_POINT = """#include <math.h>
double fixed(double p)
{
    double z = 0.0, change = 1.0;
    int it = 0;
#pragma adgen fp_loop adj_reduction=1e-3
    while (change > 1e-15 && it < 10000) {
        double znew = 0.9 * z + p;
        change = fabs(znew - z);
        z = znew;
        it++;
    }
    return z;
}
"""

FIXED_POINT_FORTRAN = """subroutine fixed(p, z)
  implicit none
  double precision, intent(in) :: p
  double precision, intent(out) :: z
  double precision :: znew, change
  integer :: it
  z = 0d0
  change = 1d0
  it = 0
  !$AD FP-LOOP z adj_reduction=1.d-3 adj_residual=1.d-9
  do while (change > 1d-15 .and. it < 10000)
    znew = 0.9d0 * z + p
    change = abs(znew - z)
    z = znew
    it = it + 1
  end do
end subroutine
"""


def test_fp_loop_stops_at_the_directives_reduction(tmp_path):
    # z = 0.9 z + p: dz*/dp = 10, the passes' changes shrinking by 0.9 each; with
    # adj_reduction=1e-3 they stop after about 66 passes, a gradient off by about 1e-3
    # (the setting was ignored: 1e-14 of the largest adjoint, exact to rounding)
    (tmp_path / "main.c").write_text(
        "#include <stdio.h>\nvoid fixed_b(double p, double *pb, double fixedb);\n"
        "int main(void)\n{\n    double pb;\n    fixed_b(1.0, &pb, 1.0);\n"
        "    printf(\"%.17g\\n\", pb);\n    return 0;\n}\n")
    gradients = {}
    for name, text in (("loose", FIXED_POINT),
                       ("tight", FIXED_POINT.replace(" adj_reduction=1e-3", ""))):
        (tmp_path / f"{name}.c").write_text(text)
        proc = adgen("--reverse", f"{name}.c", "--head", "fixed(fixed)/(p)", "-o",
                     f"{name}_b.c", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", name,
                        "main.c", f"{name}_b.c", "-lm"], cwd=tmp_path, check=True)
        run = subprocess.run([f"./{name}"], cwd=tmp_path, capture_output=True, text=True,
                             check=True)
        gradients[name] = float(run.stdout)
    assert abs(gradients["tight"] - 10.0) < 1e-9, gradients
    assert 1e-4 < abs(gradients["loose"] - 10.0) < 1e-1, gradients
    # Fortran's `!$AD FP-LOOP z adj_reduction=1.d-3`: the same stop, and a setting adgen
    # does not know named in a warning
    (tmp_path / "fp.f90").write_text(FIXED_POINT_FORTRAN)
    proc = adgen("--reverse", "fp.f90", "--head", "fixed(z)/(p)", "-o", "fp_b.c",
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^fp\.f90:10(:\d+)?: warning: !\$AD FP-LOOP setting 'adj_residual' "
                     r"ignored \(adgen knows adj_reduction\)", proc.stderr, re.M), proc.stderr
    assert re.search(r"while \(fp_change > 1\.?e-3 \* fp_first_change",
                     (tmp_path / "fp_b.c").read_text())


def test_checkpointed_loop_carrying_a_pointer_a_call_sets_is_refused(tmp_path):
    # the steps run again from kept states move the pointer, and only the recording sweep
    # of the call would give its shadow: refused where the next step reads it
    (tmp_path / "walk.c").write_text(
        "static double *next(double *p) { return p + 1; }\n"
        "double run(int n, double *x, double c)\n{\n    double *p = x, s = 0.0;\n"
        "#pragma adgen binomial_ckp(n, 2, 1)\n"
        "    for (int k = 0; k < n; k++) {\n        p[0] = p[0] * c;\n"
        "        p = next(p);\n    }\n"
        "    for (int k = 0; k < n; k++)\n        s += x[k] * x[k];\n    return s;\n}\n")
    proc = adgen("--reverse", "walk.c", "--head", "run(run)/(x c)", "--size", "x=n",
                 "-o", "out.c", cwd=tmp_path)
    check_error(proc, "walk.c", r"a pointer to active data that a call sets and the next "
                r"step reads", lines=[8])


def test_size_that_is_no_integer_is_refused(tmp_path):
    """--size over a size passed by pointer (f2c's `int *n`) wrote C that did not compile
    (a size_t set from an int *): refused, saying how to read the number."""
    (tmp_path / "p.c").write_text(
        "void f(int *n, double *x, double *y)\n{\n    int k;\n"
        "    for (k = 0; k < *n; ++k)\n        y[k] = x[k] * x[k];\n}\n")
    for size in ("y=n", "y=x"):
        proc = adgen("--reverse", "p.c", "--head", "f(y)/(x)", "--size", size, "-o",
                     "out.c", cwd=tmp_path)
        name = size[2:]
        check_error(proc, "p.c", rf"the length '{name}' given with --size is not an integer: "
                    rf"'{name}' is a pointer \(for the number it points to, write \*{name}\)",
                    located=False)
    proc = adgen("--reverse", "p.c", "--head", "f(y)/(x)", "--size", "y=*n", "-o", "out.c",
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_error_in_a_function_given_a_function_is_located(tmp_path):
    """A function adgen cannot read (`* h` of a double) that a call passes a function: its
    error, located, not an internal error from the copy made for the function passed."""
    (tmp_path / "p.c").write_text(
        "static double rhs(double y) { return -y; }\n"
        "static double step(double (*f)(double), double y, double h)\n"
        "{\n    return y + * h * f(y);\n}\n"
        "double run(double y) { return step(rhs, y, 0.1); }\n")
    proc = adgen("--reverse", "p.c", "--head", "run(run)/(y)", "-o", "out.c", cwd=tmp_path)
    check_error(proc, "p.c", r"dereference of something that is not a pointer", lines=[4])


def test_head_malformed(tmp_path):
    (tmp_path / "ok.c").write_text(OK)
    proc = adgen("--reverse", "ok.c", "--head", "f(f", cwd=tmp_path)
    check_error(proc, "ok.c", r"malformed --head", located=False)


# ------------------------------------------------------------------ bad usage

@pytest.mark.parametrize("argv", [
    [],
    ["--reverse"],
    ["--forward"],
    ["--reverse", "--forward", "ok.c"],
    ["--reverse", "--vector", "ok.c"],
    ["--reverse", "--no-such-option", "ok.c"],
    ["--reverse", "ok.c", "--size", "x"],
], ids=["nothing", "reverse-no-file", "forward-no-file", "two-modes",
        "reverse-vector", "unknown-option", "size-without-expr"])
def test_bad_usage(tmp_path, argv):
    (tmp_path / "ok.c").write_text(OK)
    proc = adgen(*argv, cwd=tmp_path)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode == 2, proc.stderr
    assert re.search(r"^adgen: error: .+", proc.stderr, re.M), proc.stderr
    assert files_in(tmp_path) == ["ok.c"]


# ---------------------------------------------------------------- output files

@pytest.mark.parametrize("mode", ["--reverse", "--forward"])
@pytest.mark.parametrize("spelling", ["ok.c", "./ok.c", "ABS"])
def test_output_equal_to_input_is_refused(tmp_path, mode, spelling):
    src = tmp_path / "ok.c"
    src.write_text(OK)
    before = src.read_bytes()
    out = str(src) if spelling == "ABS" else spelling
    proc = adgen(mode, "ok.c", "-o", out, cwd=tmp_path)
    check_error(proc, out, r"input|overwrite", located=False)
    assert src.read_bytes() == before
    assert files_in(tmp_path) == ["ok.c"]


def test_output_to_a_device_or_fifo_is_written_in_place(tmp_path):
    """The atomic write renamed a temporary over whatever -o named: as root, `-o /dev/null`
    replaced the device with a regular file."""
    import stat
    import threading
    (tmp_path / "ok.c").write_text(OK)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    proc = adgen("--reverse", "ok.c", "-o", str(fifo), cwd=tmp_path)
    reader.join(60)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and "void f_b(" in got[0]
    assert sorted(files_in(tmp_path)) == ["ok.c", "pipe"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # a null device of the test's own (not /dev/null: a regression would replace it)
        null = tmp_path / "null"
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        proc = adgen("--reverse", "ok.c", "-o", str(null), cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert stat.S_ISCHR(os.stat(null).st_mode)


def test_output_directory_is_an_error(tmp_path):
    (tmp_path / "ok.c").write_text(OK)
    (tmp_path / "out").mkdir()
    proc = adgen("--reverse", "ok.c", "-o", "out", cwd=tmp_path)
    check_error(proc, "out", r"the output is a directory", located=False)
    assert files_in(tmp_path / "out") == []


def test_output_naming_an_included_header_is_refused(tmp_path):
    (tmp_path / "defs.h").write_text("#define K 2.0\n")
    (tmp_path / "m.c").write_text('#include "defs.h"\ndouble f(double x)\n{\n'
                                  "    return K * x * x;\n}\n")
    rules = tmp_path / "r.rules"
    rules.write_text("# no rules\n")
    for target in ("defs.h", "r.rules"):
        before = (tmp_path / target).read_bytes()
        proc = adgen("--reverse", "m.c", "--rules", "r.rules", "-o", target, cwd=tmp_path)
        check_error(proc, target, r"is a file adgen reads", located=False)
        assert (tmp_path / target).read_bytes() == before


def test_output_to_standard_output_and_no_output(tmp_path):
    (tmp_path / "ok.c").write_text(OK)
    proc = adgen("--reverse", "ok.c", "-o", "-", "--stack-report", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("/* Generated by adgen") and "void f_b(" in proc.stdout
    assert "bytes pushed per call" in proc.stderr      # notes beside C go to stderr
    proc = adgen("--reverse", "ok.c", "--no-output", "--explain", cwd=tmp_path)
    assert proc.returncode == 0 and "f: result: not stored" in proc.stdout, proc.stderr
    assert files_in(tmp_path) == ["ok.c"]


def test_dependency_file_lists_every_file_read(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "my defs.h").write_text("#define K 2.0\n")
    (tmp_path / "m.c").write_text('#include <math.h>\n#include "my defs.h"\n'
                                  "double f(double x)\n{\n    return K * sin(x);\n}\n")
    proc = adgen("--reverse", "m.c", "-I", "inc", "-o", "m_b.c", "-MD", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    dep = (tmp_path / "m_b.d").read_text()
    assert dep.startswith("m_b.c: m.c \\\n inc/my\\ defs.h\n"), dep
    assert "math.h" not in dep          # adgen's own standard headers are not the program's
    assert "\ninc/my\\ defs.h:\n" in dep
    proc = adgen("--reverse", "m.c", "-I", "inc", "-o", "m_b.c", "-MF", "deps/x.d", cwd=tmp_path)
    check_error(proc, "deps/x.d", r"directory does not exist", located=False)
    (tmp_path / "deps").mkdir()
    proc = adgen("--reverse", "m.c", "-I", "inc", "-o", "m_b.c", "-MF", "deps/x.d", cwd=tmp_path)
    assert proc.returncode == 0 and (tmp_path / "deps" / "x.d").read_text() == dep


def test_command_line_and_input_text_cannot_end_a_comment(tmp_path):
    """The header comment quotes the command line, and a helper copied into the output
    keeps its pragmas as comments: `*/` in either ended the comment and made live code."""
    (tmp_path / "m.c").write_text(
        "static int twice(int n)\n{\n#pragma message \"*/ int injected_pragma = 1; /*\"\n"
        "    return 2 * n;\n}\n\ndouble f(double x)\n{\n    return x * twice(3);\n}\n")
    proc = adgen("--reverse", "m.c", "-D", "U=*/ int injected_sym = ", "-I", ";/*",
                 "-o", "m_b.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "m_b.c"],
                   cwd=tmp_path, check=True)
    symbols = subprocess.run(["nm", "m_b.o"], cwd=tmp_path, capture_output=True,
                             text=True).stdout
    assert "injected" not in symbols, symbols


def test_input_names_are_never_compiler_options(tmp_path):
    """`@opts.c` is a response file to gcc: with `-B./evil/` in it, `adgen *.c` ran a
    program of the directory as the compiler."""
    evil = tmp_path / "evil"
    evil.mkdir()
    marker = tmp_path / "ran"
    for tool in ("cc1", "cpp", "as"):
        (evil / tool).write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
        os.chmod(evil / tool, 0o755)
    (tmp_path / "@opts.c").write_text("-B./evil/\n")
    proc = adgen("--reverse", "@opts.c", "-o", "out.c", cwd=tmp_path)
    assert not marker.exists(), "a program named by an input file ran"
    check_error(proc, "@opts.c", r".")         # it is C: and not valid C
    (tmp_path / "-x.c").write_text(OK)
    proc = adgen("--reverse", "-o", "out.c", "--", "-x.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists()


def _regenerated(build, out, header, tmp_path):
    """Builds, then changes the header: the derivative is generated again."""
    subprocess.run(build, cwd=tmp_path, check=True, capture_output=True, timeout=300)
    first = out.read_text()
    assert "2.0 *" in first or "2.0" in first
    header.write_text("#define K 3.0\n")
    subprocess.run(build, cwd=tmp_path, check=True, capture_output=True, timeout=300)
    assert out.read_text() != first and "3.0" in out.read_text()


MAKE_MODEL = ('#include "defs.h"\ndouble f(double x)\n{\n    return K * x * x;\n}\n')


def test_make_pattern_rule_rebuilds_when_a_header_changes(tmp_path):
    """The pattern rule of docs/tutorial.md, with the dependency file adgen writes."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    (tmp_path / "defs.h").write_text("#define K 2.0\n")
    (tmp_path / "model.c").write_text(MAKE_MODEL)
    (tmp_path / "Makefile").write_text(
        f"ADGEN = {sys.executable} -m adgen\n"
        "all: model_b.c\n"
        "%_b.c: %.c\n\t$(ADGEN) --reverse $< -o $@ -MD\n"
        "-include model_b.d\n")
    _regenerated(["make"], tmp_path / "model_b.c", tmp_path / "defs.h", tmp_path)


def test_cmake_function_rebuilds_when_a_header_changes(tmp_path):
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed (apt-get install cmake)")
    module = adgen("--print-cmake-module", cwd=tmp_path).stdout.strip()
    assert module.endswith("adgen.cmake") and os.path.isfile(module)
    src = tmp_path / "src"
    src.mkdir()
    (src / "defs.h").write_text("#define K 2.0\n")
    (src / "model.c").write_text(MAKE_MODEL)
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(m C)\n"
        f'include("{module}")\n'
        'adgen_add_derivative(OUTPUT model_b.c SOURCES model.c HEAD "f(f)/(x)")\n'
        "add_library(m STATIC model.c ${CMAKE_CURRENT_BINARY_DIR}/model_b.c)\n")
    adgen_cmd = ";".join([sys.executable, "-m", "adgen"])
    subprocess.run(["cmake", "-S", "src", "-B", "build", f"-DADGEN_EXECUTABLE={adgen_cmd}"],
                   cwd=tmp_path, check=True, capture_output=True, timeout=300)
    _regenerated(["cmake", "--build", "build"], tmp_path / "build" / "model_b.c",
                 src / "defs.h", tmp_path)


def test_output_directory_missing(tmp_path):
    (tmp_path / "ok.c").write_text(OK)
    proc = adgen("--reverse", "ok.c", "-o", "no/such/dir/out.c", cwd=tmp_path)
    check_error(proc, "no/such/dir/out.c", r"directory", located=False)
    assert files_in(tmp_path) == ["ok.c"]


@pytest.mark.parametrize("source", [SYNTAX_MISSING_SEMICOLON, EXTERNAL, SETJMP],
                         ids=["parse-error", "external-call", "setjmp"])
def test_no_partial_output(tmp_path, source):
    (tmp_path / "prog.c").write_text(source)
    for mode in ("--reverse", "--forward"):
        proc = adgen(mode, "prog.c", "-o", "out.c", cwd=tmp_path)
        assert proc.returncode == 1
        assert not (tmp_path / "out.c").exists()
        proc = adgen(mode, "prog.c", cwd=tmp_path)           # default output name
        assert proc.returncode == 1
        assert files_in(tmp_path) == ["prog.c"]


def test_failure_keeps_existing_output(tmp_path):
    """A failed run does not touch an output file left by an earlier run."""
    (tmp_path / "prog.c").write_text(EXTERNAL)
    (tmp_path / "out.c").write_text("/* earlier */\n")
    proc = adgen("--reverse", "prog.c", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 1
    assert (tmp_path / "out.c").read_text() == "/* earlier */\n"
    assert files_in(tmp_path) == ["out.c", "prog.c"]


@pytest.mark.parametrize("mode", ["--reverse", "--forward"])
def test_deterministic_output(tmp_path, mode):
    (tmp_path / "model.c").write_bytes(MODEL.read_bytes())
    outputs = []
    for hashseed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = adgen(mode, "model.c", "-o", "out.c", cwd=tmp_path, env=env)
        assert proc.returncode == 0, proc.stderr
        outputs.append((tmp_path / "out.c").read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]


def test_default_output_names(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "model.c").write_bytes(MODEL.read_bytes())
    for modes, name, routine in ((["--reverse"], "model_b.c", "rosenbrock_b("),
                                 (["-b"], "model_b.c", "rosenbrock_b("),
                                 (["--forward"], "model_d.c", "rosenbrock_d("),
                                 (["--tangent"], "model_d.c", "rosenbrock_d("),
                                 (["-d"], "model_d.c", "rosenbrock_d("),
                                 (["--vector"], "model_dv.c", "rosenbrock_dv("),
                                 (["--forward", "--vector"], "model_dv.c", "rosenbrock_dv(")):
        proc = adgen(*modes, "src/model.c", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == proc.stderr == ""
        assert routine in (src / name).read_text()
    assert files_in(tmp_path) == ["src"]                 # beside the input, not in cwd
    assert files_in(src) == ["model.c", "model_b.c", "model_d.c", "model_dv.c"]


def test_output_file_mode_follows_umask(tmp_path):
    (tmp_path / "ok.c").write_text(OK)
    old = os.umask(0o022)
    try:
        proc = adgen("--reverse", "ok.c", cwd=tmp_path)
    finally:
        os.umask(old)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "ok_b.c").stat().st_mode & 0o777 == 0o644


def test_no_mode_means_reverse(tmp_path):
    """The mode may be left out: reverse is the default, as --help says."""
    (tmp_path / "ok.c").write_text(OK)
    proc = adgen("ok.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "_b(" in (tmp_path / "ok_b.c").read_text()


def test_a_deep_call_chain_is_read_once_per_question(tmp_path):
    """A chain of calls passing the same pointers down (f0 calls f1 ... calls f15): the
    question whether a callee writes through an integer pointer was asked again for each
    argument at each level, 3^16 times; now each callee is read once per question, and
    both modes finish at once (a time limit, not a benchmark: the old way does not end)."""
    parts = ["#include <math.h>"]
    for k in reversed(range(16)):
        call = f"f{k + 1}(n, x, y);" if k < 15 else ""
        parts.append(f"void f{k}(int n, double *x, double *y)\n{{\n"
                     f"    for (int i = 0; i < n; i++)\n        y[i] = y[i] * sin(x[i]);\n"
                     f"    {call}\n}}\n")
    (tmp_path / "chain.c").write_text("\n".join(parts))
    for mode in ("--reverse", "--forward"):
        proc = subprocess.run([sys.executable, "-m", "adgen", mode, "chain.c", "--head",
                               "f0(y)/(x y)", "-o", "out.c"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr


def test_a_long_call_chain(tmp_path):
    """A chain of 200 functions, each calling the next: the analyses follow calls
    recursively, and the command gives them room (it used to stop with 'program too
    deeply nested'); the output compiles cleanly."""
    n = 200
    parts = []
    for i in reversed(range(n)):
        call = f"    f{i + 1}(m, x, y);\n" if i + 1 < n else ""
        parts.append(f"void f{i}(int m, double *x, double *y)\n{{\n    int i;\n"
                     f"    for (i = 0; i < m; i++)\n        y[i] = y[i] * 0.5 + sin(x[i]);\n"
                     f"{call}}}\n")
    (tmp_path / "chain.c").write_text("#include <math.h>\n" + "\n".join(parts))
    proc = adgen("--reverse", "chain.c", "--head", "f0(y)/(x y)", "-o", "chain_b.c",
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    cc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "chain_b.c"],
                        cwd=tmp_path, capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr


def test_every_array_that_needs_size_is_reported_at_once(tmp_path):
    """Each array whose length adgen cannot tell is named in one run (each error at its
    line, as gcc lists several), not one per run; given them all, the output is written."""
    (tmp_path / "p.c").write_text(
        "void f(const double *x, double *y, const double *u, double *v)\n{\n"
        "    int i = 0, k = 0;\n    while (x[i] > 0) {\n        y[i] = x[i] * x[i];\n"
        "        i++;\n    }\n    while (u[k] > 0) {\n        v[k] = u[k] * u[k];\n"
        "        k++;\n    }\n}\n")
    proc = adgen("--reverse", "p.c", "--head", "f(y v)/(x u)", "-o", "out.c", cwd=tmp_path)
    check_error(proc, "p.c", "cannot tell how many elements 'x' has", lines=[4])
    errors = [line for line in proc.stderr.splitlines() if ": error: " in line]
    assert [re.match(r"p\.c:(\d+):\d+: error: cannot tell how many elements '(\w+)'",
                     line).groups() for line in errors] == [("4", "x"), ("8", "u")], \
        proc.stderr
    assert not (tmp_path / "out.c").exists()
    proc = adgen("--reverse", "p.c", "--head", "f(y v)/(x u)", "--size", "x=8", "--size",
                 "u=8", "-o", "out.c", cwd=tmp_path)
    assert proc.returncode == 0 and (tmp_path / "out.c").exists(), proc.stderr


VALUE_WITHOUT_RETURN = """static int scale_in_place(int n, double *v, double k)
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = k * v[i] * v[i];
}
void scaled(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = x[i] + 1.0;
    scale_in_place(n, y, 0.5);
    int status = scale_in_place(n, y, 2.0);
    (void)status;
}
"""


@pytest.mark.parametrize("mode", ["--reverse", "--forward"])
def test_function_of_a_value_that_returns_none_gives_output_that_compiles(tmp_path, mode):
    """A function declared to return a value that returns none, called for its effect (C
    allows it; the compiler warns) and once with its (undefined) value kept: its sweeps
    return a value all the same, so the output compiles (its forward sweep was void, and
    the caller assigning its value did not compile)."""
    (tmp_path / "p.c").write_text(VALUE_WITHOUT_RETURN)
    proc = adgen(mode, "p.c", "--head", "scaled(y)/(x)", "--size", "x=n", "-o", "out.c",
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "out.c"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
