"""Every Fortran test program under testsuite/fortran/ through the generic harness
(tests/harness.py): adgen in both modes, the generated C built with gcc -Werror, a C driver
and a Fortran main program linked with the gfortran-compiled primal.

gfortran is needed: when it is missing and the tests run as root (CI), the session tries
`apt-get install -y gfortran` once before collecting (tests/conftest.py); otherwise the
tests are skipped with the reason."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import harness

ROOT = Path(__file__).resolve().parent.parent
# the programs, and the minimized failures of earlier fuzzing (regress/)
PROGRAMS = sorted(p for d in ("", "regress")
                  for p in (ROOT / "testsuite" / "fortran" / d).iterdir()
                  if p.is_file() and harness.is_fortran(p))


@pytest.fixture(scope="session")
def gfortran():
    if shutil.which(harness.FC) is None:
        reason = harness.ensure_gfortran()
        if reason:
            pytest.skip(f"the Fortran tests need {harness.FC} (set FC to another gfortran): "
                        f"it is not installed, and {reason}")
    return harness.FC


def test_programs_found():
    assert len(PROGRAMS) >= 25, f"only {len(PROGRAMS)} programs in testsuite/fortran"


@pytest.mark.parametrize("source", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program(source, tmp_path, gfortran):
    try:        # the adjoints with each stack kind (--stack=heap, static), one tangent
        harness.check_program(source, tmp_path, stacks=harness.STACKS)
        return
    except (AssertionError, harness.SpecError) as exc:
        message = str(exc)
    pytest.fail(message, pytrace=False)     # the harness's message says it all


@pytest.mark.parametrize("name", ["allocatable_return.f90", "allocatable_locals.f90",
                                  "allocatable_components.f90", "allocatable_goto_end.f90",
                                  "allocatable_function_results.f90",
                                  "module_allocatables_allocated.f90",
                                  "allocatable_move_alloc.f90",
                                  "associate_array_expression.f90",
                                  "associate_value_goto_out.f90",
                                  "construct_exits_freed.f90",
                                  "allocatable_statement.f90"])
def test_allocatables_freed_on_every_exit(name, tmp_path, gfortran):
    """The generated code frees every allocatable local, at the end, at each RETURN and at a
    GOTO to the END statement, every ALLOCATABLE function result after the statement
    that references the function, and what a construct allocates (a BLOCK's allocatable
    arrays, the array of an ASSOCIATE name of an array expression, the arrays of an IF
    condition or a SELECT CASE selector) at its end and at each EXIT, CYCLE, RETURN and
    GOTO leaving it: the program through the harness built with ASan, whose
    LeakSanitizer reports any block the primal or the derivative code loses (the
    driver's own are suppressed)."""
    env = dict(os.environ, ADGEN_TEST_SANITIZE="1", ADGEN_TEST_STACK="heap")
    env.pop("ASAN_OPTIONS", None)
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "harness.py"),
                           str(ROOT / "testsuite" / "fortran" / name), "--workdir",
                           str(tmp_path)], env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0 and "LeakSanitizer" not in proc.stdout + proc.stderr, \
        (proc.stdout + proc.stderr)[-3000:]


# ------------------------------------------------- heads with assumed-shape dummies

def _adgen(tmp_path, text, head, mode="--reverse", out="m_out.c", extra=()):
    src = tmp_path / "m.f90"
    src.write_text(text)
    out = tmp_path / out
    proc = subprocess.run([sys.executable, "-m", "adgen", mode, str(src), "--head", head,
                           *extra, "-o", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    return src, proc, out


_SIZED_HEADS = [
    # --size a=n*n: n is passed by reference, the length is the product of the integers
    # (read once on entry: n_in = *n), not of the pointers
    ("subroutine g(n, a, y)\n  integer, intent(in) :: n\n"
     "  real(8), intent(in) :: a(*)\n  real(8), intent(out) :: y\n  integer :: i\n"
     "  y = 0.0d0\n  do i = 1, n * n\n    y = y + a(i) ** 2\n  end do\nend subroutine g\n",
     "g(y)/(a)", "a=n*n", ["int n_in = *n;", "memset(ab, 0, n_in * n_in * sizeof(*ab));"]),
    # dummies named `double`, `static` or `floor` become other C names; --head and --size
    # still name them as the Fortran source does
    ("subroutine g(n, double, static, floor, y)\n  integer, intent(in) :: n, static\n"
     "  real(8), intent(in) :: double(*), floor\n  real(8), intent(out) :: y\n"
     "  integer :: i\n  y = 0.0d0\n  do i = 1, n\n"
     "    y = y + double(i) ** 2 * static + floor\n  end do\nend subroutine g\n",
     "g(y)/(double floor)", "double=n",
     ["double *double_2, double *double_2b, int *static_2, double *floor_2",
      "memset(double_2b, 0, n_in * sizeof(*double_2b));"]),
]


@pytest.mark.parametrize("text, head, size, expected", _SIZED_HEADS,
                         ids=["size_over_integers", "c_keyword_dummies"])
def test_size_option_over_fortran_heads(text, head, size, expected, tmp_path):
    _, proc, out = _adgen(tmp_path, text, head, extra=("--size", size))
    assert proc.returncode == 0, proc.stderr
    c = out.read_text()
    for line in expected:
        assert line in c
    cc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", str(out),
                         "-o", str(tmp_path / "m_b.o")], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr


def test_assumed_shape_head_exports(tmp_path):
    """The hidden extents come last, by reference, in the C routine and its header; the
    interface module's module procedure has the assumed-shape dummies (directions first
    for a derivative in vector mode)."""
    text = ("subroutine total(a, t)\n  real(8), intent(in) :: a(:)\n"
            "  real(8), intent(out) :: t\n  t = sum(a**2)\nend subroutine total\n")
    _, proc, out = _adgen(tmp_path, text, "total(t)/(a)")
    assert proc.returncode == 0, proc.stderr
    prototype = "void total_b_(double *a, double *ab, double *t, double *tb, int *a_extent)"
    assert prototype in out.read_text()
    assert prototype + ";" in out.with_suffix(".h").read_text()
    interface = (tmp_path / "m_out_interface.f90").read_text()
    assert 'bind(C, name="total_b_")' in interface
    assert "  subroutine total_b(a, ab, t, tb)\n    real(c_double) :: a(:)\n" in interface
    _, proc, out = _adgen(tmp_path, text, "total(t)/(a)", "--vector")
    assert proc.returncode == 0, proc.stderr
    interface = (tmp_path / "m_out_interface.f90").read_text()
    assert "real(c_double) :: ad(:, :)" in interface and "real(c_double) :: td(*)" in interface


COST = ("subroutine cost(n, u, kappa, j)\n  integer :: n\n  real(8) :: u(n), kappa, j\n"
        "  j = kappa * sum(u**2)\nend subroutine cost\n")


def _adgen_modes(tmp_path, modes):
    for mode, suffix in modes:
        _, proc, _ = _adgen(tmp_path, COST, "cost(j)/(u kappa)", mode, f"m_{suffix}.c")
        assert proc.returncode == 0, proc.stderr


def test_headers_of_all_modes_in_one_c_file(tmp_path):
    """Each header has the include guard of its output (m_b.h: ADGEN_M_B_H), so one C
    file may include the headers of the adjoint, the tangent and the vector tangent of
    the same routine and call all three, every argument by reference (nbdirs too)."""
    _adgen_modes(tmp_path, (("--reverse", "b"), ("--forward", "d"), ("--vector", "dv")))
    assert "#ifndef ADGEN_M_B_H" in (tmp_path / "m_b.h").read_text()
    assert "double *jd, int *nbdirs);" in (tmp_path / "m_dv.h").read_text()
    caller = tmp_path / "caller.c"
    caller.write_text(
        '#include "m_b.h"\n#include "m_d.h"\n#include "m_dv.h"\n'
        "void all(int *n, double *u, double *ub, double *ud, double *udv, double *k,\n"
        "         double *kb, double *kd, double *kdv, double *j, double *jb, double *jd,\n"
        "         double *jdv, int *nbdirs)\n{\n"
        "    cost_b_(n, u, ub, k, kb, j, jb);\n    cost_d_(n, u, ud, k, kd, j, jd);\n"
        "    cost_dv_(n, u, udv, k, kdv, j, jdv, nbdirs);\n}\n")
    proc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Werror",
                           "-Werror=implicit-function-declaration", "-c", str(caller),
                           "-o", str(tmp_path / "caller.o")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_vector_tangent_called_from_fortran(tmp_path, gfortran):
    """A Fortran program calls f_dv with no interface, nbdirs by reference like every
    argument; with the interface module, the call is checked."""
    _adgen_modes(tmp_path, (("--vector", "dv"),))
    main = tmp_path / "main.f90"
    main.write_text(
        "program main\n  implicit none\n  integer, parameter :: n = 4, nd = 3\n"
        "  real(8) :: u(n), ud(nd, n), kappa, kappad(nd), j, jd(nd)\n  integer :: i, k\n"
        "  kappa = 0.7d0\n  do i = 1, n\n    u(i) = 0.1d0 * i\n    do k = 1, nd\n"
        "      ud(k, i) = k + 0.5d0 * i\n    end do\n  end do\n"
        "  kappad = (/ 1.0d0, 0.0d0, -2.0d0 /)\n"
        "  call cost_dv(n, u, ud, kappa, kappad, j, jd, nd)\n  do k = 1, nd\n"
        "    if (abs(jd(k) - (kappad(k) * sum(u**2) + 2 * kappa * sum(u * ud(k, :)))) >"
        " 1d-12) stop 1\n  end do\n"
        "  if (abs(j - kappa * sum(u**2)) > 1d-12) stop 2\n  print *, 'PASS'\n"
        "end program main\n")
    checked = tmp_path / "checked.f90"
    checked.write_text(
        "subroutine checked(n, u, ud, kappa, kappad, j, jd, nd)\n  use m_dv_interface\n"
        "  implicit none\n  integer :: n, nd\n  real(8) :: u(n), ud(nd, n), kappa, "
        "kappad(nd), j, jd(nd)\n  call cost_dv(n, u, ud, kappa, kappad, j, jd, nd)\n"
        "end subroutine checked\n")
    _build_and_run_main(tmp_path, (["gcc", "-std=c99", "-c", "m_dv.c"],
                                   [gfortran, "-c", "m_dv_interface.f90", "checked.f90"],
                                   [gfortran, "-o", "main", "main.f90", "m_dv.o"]))


OPTIONAL_ASSUMED_SHAPE_HEAD = """module opt
  implicit none
contains
  subroutine cost(x, j, w)
    real(8), intent(in) :: x(:)
    real(8), intent(out) :: j
    real(8), intent(in), optional :: w(:)
    if (present(w)) then
      j = sum(w * sin(x))
    else
      j = sum(sin(x))
    end if
  end subroutine cost
end module opt
"""


def test_optional_assumed_shape_head_called_from_fortran(tmp_path, gfortran):
    """The adjoint of a head with an OPTIONAL assumed-shape dummy, called from Fortran
    through the interface module with the array and its adjoint, and without them (the
    wrapper then passes an extent of 0: size() of an absent array is not allowed)."""
    src, proc, _ = _adgen(tmp_path, OPTIONAL_ASSUMED_SHAPE_HEAD, "cost(j)/(x w)",
                          out="m_b.c")
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "main.f90").write_text(
        "program main\n  use m_b_interface\n  implicit none\n"
        "  real(8) :: x(3), xb(3), w(3), wb(3), j, jb\n  x = [0.3d0, -0.4d0, 1.1d0]\n"
        "  w = [2d0, 0.5d0, 1.5d0]\n  jb = 1d0\n  call cost_b(x, xb, j, jb, w, wb)\n"
        "  if (any(abs(xb - w * cos(x)) > 1d-14) .or. any(abs(wb - sin(x)) > 1d-14)) stop 1\n"
        "  if (abs(j - sum(w * sin(x))) > 1d-14) stop 2\n"
        "  jb = 1d0\n  call cost_b(x, xb, j, jb)\n"
        "  if (any(abs(xb - cos(x)) > 1d-14) .or. abs(j - sum(sin(x))) > 1d-14) stop 3\n"
        "  print *, 'PASS'\nend program main\n")
    _build_and_run_main(tmp_path, (["gcc", "-std=c99", "-c", "m_b.c"],
                                   [gfortran, "-std=f2018", "-c", "m_b_interface.f90"],
                                   [gfortran, "-o", "main", "main.f90", "m_b_interface.o",
                                    "m_b.o", "-lm"]))


def _build_and_run_main(tmp_path, commands):
    """Run the build commands in tmp_path, then the program `main` they build, which
    prints PASS."""
    run = lambda cmd: subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    for cmd in commands:
        proc = run(cmd)
        assert proc.returncode == 0, f"{' '.join(cmd)}: {proc.stderr}"
    proc = run([str(tmp_path / "main")])
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr


MAIN_PROGRAM = """\
program fit
  use iso_fortran_env, only: real64
  implicit none
  real(real64) :: x(4), f, scale
  scale = 2
  x = [0.3d0, -1.2d0, 0.7d0, 1.1d0]
  call objective(4, x, f)
  print *, f * scale
contains
  subroutine objective(n, x, f)
    integer, intent(in) :: n
    real(real64), intent(in) :: x(n)
    real(real64), intent(out) :: f
    f = sum(x**2) + residual(x(1), x(n))
  end subroutine objective
  function residual(a, b) result(r)
    real(real64), intent(in) :: a, b
    real(real64) :: r
    r = sin(a) * exp(b)
  end function residual
end program fit
"""

CHECK_MAIN_PROGRAM = r"""
#include <math.h>
#include <stdio.h>
void objective_d_(int *n, double *x, double *xd, double *f, double *fd);
void objective_b_(int *n, double *x, double *xb, double *f, double *fb);
int main(void)
{
    int n = 4, i, bad = 0;
    double x[4] = {0.3, -1.2, 0.7, 1.1}, xd[4] = {0}, xb[4], f, fd, fb = 1.0, fp, fm;
    objective_b_(&n, x, xb, &f, &fb);
    for (i = 0; i < n; i++) {       /* each adjoint against a central difference */
        double h = 1e-6, keep = x[i], zero = 0.0;
        x[i] = keep + h; objective_d_(&n, x, xd, &fp, &zero);
        x[i] = keep - h; objective_d_(&n, x, xd, &fm, &zero);
        x[i] = keep;
        xd[i] = 1.0; objective_d_(&n, x, xd, &f, &fd); xd[i] = 0.0;
        if (fabs(xb[i] - (fp - fm) / (2 * h)) > 1e-7 || fabs(fd - xb[i]) > 1e-12)
            bad = 1;
    }
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad;
}
"""


RESULT_CLAUSE = """module m3
  implicit none
contains
  function dist(a, b) result(res)
    real(8), intent(in) :: a(3), b(3)
    real(8) :: res
    res = sqrt(sum((a - b)**2))
  end function
end module
"""


def test_head_names_a_function_result_by_its_result_name(tmp_path):
    """`--head "dist(res)/(a b)"` for `function dist(a, b) result(res)`: the RESULT name
    is the function's result, as its own name is (before: "'res' is not a parameter")."""
    _, proc, out = _adgen(tmp_path, RESULT_CLAUSE, "dist(res)/(a b)")
    assert proc.returncode == 0, proc.stderr
    assert "dist(dist)/(a b)" in out.read_text()
    _, named, other = _adgen(tmp_path, RESULT_CLAUSE, "dist(dist)/(a b)", out="other.c")
    assert named.returncode == 0 and \
        other.read_text().split("*/", 1)[1] == out.read_text().split("*/", 1)[1]


DPROD = """subroutine area(a, b, s)
  implicit none
  real, intent(in) :: a, b
  real(8), intent(out) :: s
  s = dprod(a, b) + dprod(a, 2.0)
end subroutine
"""


def test_dprod_is_a_double_product(tmp_path):
    """dprod(a, b) of default reals: their product in double precision (before:
    "intrinsic 'dprod' is not supported"); derivatives checked against finite
    differences."""
    (tmp_path / "area.f90").write_text(DPROD)
    proc = subprocess.run([sys.executable, "-m", "adgen", "check", "area.f90", "--head",
                           "area(s)/(a b)"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
    _, proc, out = _adgen(tmp_path, DPROD, "area(s)/(a b)", mode="--forward")
    assert proc.returncode == 0 and "(double)" in out.read_text(), proc.stderr


UNCALLED_REFUSED = """module mu
  implicit none
  type f
    real(8), allocatable :: d(:)
  end type
contains
  subroutine init(x)
    type(f), intent(out) :: x
    allocate(x%d(3))
  end subroutine
  subroutine sq(a, b)
    real(8), intent(in) :: a
    real(8), intent(out) :: b
    b = a*a
  end subroutine
  subroutine uses_init(a, b)
    real(8), intent(in) :: a
    real(8), intent(out) :: b
    type(f) :: x
    call init(x)
    b = a * size(x%d)
  end subroutine
end module
"""


def test_refused_declarations_of_a_procedure_no_head_calls(tmp_path):
    """A procedure whose declarations adgen refuses (an INTENT(OUT) dummy of a type with
    allocatable components) stops the run only where the derivative code needs it, as
    any refusal in a body does (before: whatever the head)."""
    _, proc, _ = _adgen(tmp_path, UNCALLED_REFUSED, "sq(b)/(a)")
    assert proc.returncode == 0, proc.stderr
    _, proc, _ = _adgen(tmp_path, UNCALLED_REFUSED, "uses_init(b)/(a)")
    assert proc.returncode == 1 and ":8:" in proc.stderr and \
        "the INTENT(OUT) dummy argument 'x'" in proc.stderr, proc.stderr


UNREADABLE_SIGNATURE = """module weights
  implicit none
contains
  subroutine cost(x, j, *)
    real(8), intent(in) :: x(3)
    real(8), intent(out) :: j
    j = sum(sin(x))
    if (j > 10d0) return 1
  end subroutine cost
  subroutine caller(x, y)
    real(8), intent(in) :: x(3)
    real(8), intent(out) :: y
    call cost(x, y, *10)
10  continue
  end subroutine caller
  subroutine other(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = x * x
  end subroutine other
end module weights
"""


@pytest.mark.parametrize("head, line", [("other(y)/(x)", None), ("cost(j)/(x)", 4),
                                        ("caller(y)/(x)", 4)])
def test_module_procedure_with_a_refused_signature_stops_only_its_users(head, line,
                                                                      tmp_path):
    """A module procedure whose dummies adgen refuses (here an alternate return) stops
    the run where the derivative code needs it, a head or a callee, with the error at
    its own declaration (before: whatever the head)."""
    _, proc, _ = _adgen(tmp_path, UNREADABLE_SIGNATURE, head)
    if line is None:
        assert proc.returncode == 0, proc.stderr
    else:
        assert proc.returncode == 1 and f"m.f90:{line}:" in proc.stderr and \
            "an alternate return" in proc.stderr, proc.stderr


def test_internal_procedures_of_the_main_program_as_heads(tmp_path):
    """An internal procedure of the main program is a head (the main program's USE and
    IMPLICIT statements seen in it), its derivatives right; one that uses a variable of
    the main program is refused, naming it."""
    (tmp_path / "fit.f90").write_text(MAIN_PROGRAM)
    for mode, name in (("--reverse", "fit_b.c"), ("--forward", "fit_d.c")):
        proc = subprocess.run([sys.executable, "-m", "adgen", mode, "fit.f90", "--head",
                               "objective(f)/(x)", "-o", name], cwd=tmp_path,
                              capture_output=True, text=True)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    (tmp_path / "check.c").write_text(CHECK_MAIN_PROGRAM)
    _build_and_run_main(tmp_path, (
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "fit_b.c", "fit_d.c"],
        ["gcc", "-std=c99", "-o", "main", "check.c", "fit_b.o", "fit_d.o", "-lm"]))
    (tmp_path / "fit.f90").write_text(MAIN_PROGRAM.replace("+ residual(", "* scale + residual("))
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", "fit.f90", "--head",
                           "objective(f)/(x)", "-o", "fit_b.c"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert proc.returncode == 1 and re.match(
        r"fit.f90:10:14: error: 'objective', an internal procedure of the main program, uses "
        r"its variable 'scale' \(host association\)", proc.stderr), proc.stderr


def test_interface_module_keeps_the_fortran_names(tmp_path, gfortran):
    """Dummies named like C keywords have other names in C (`double_2`), but the interface
    module gives the Fortran ones, with their derivatives and extents named after them, so
    that a Fortran caller can pass the arguments by keyword."""
    text = ("subroutine g(n, double, static, y)\n  integer, intent(in) :: n, static\n"
            "  real(8), intent(in) :: double(:)\n  real(8), intent(out) :: y\n"
            "  y = static * sum(double(1:n) ** 2)\nend subroutine g\n")
    _, proc, out = _adgen(tmp_path, text, "g(y)/(double)", out="m_b.c")
    assert proc.returncode == 0, proc.stderr
    assert "double *double_2, double *double_2b" in out.read_text()
    interface = (tmp_path / "m_b_interface.f90").read_text()
    assert "subroutine g_b(n, double, doubleb, static, y, yb)" in interface
    assert "int(size(double, 1), c_int)" in interface
    main = tmp_path / "main.f90"
    main.write_text(
        "program main\n  use m_b_interface\n  implicit none\n"
        "  real(8) :: x(3), xb(3), y, yb\n  x = (/ 1.0d0, -2.0d0, 0.5d0 /)\n  yb = 1.0d0\n"
        "  call g_b(yb=yb, y=y, static=2, doubleb=xb, double=x, n=3)\n"
        "  if (any(abs(xb - 4 * x) > 1d-12) .or. abs(y - 2 * sum(x**2)) > 1d-12) stop 1\n"
        "  print *, 'PASS'\nend program main\n")
    _build_and_run_main(tmp_path, (["gcc", "-std=c99", "-c", "m_b.c"],
                                   [gfortran, "-o", "main", "m_b_interface.f90", "main.f90",
                                    "m_b.o"]))


@pytest.mark.parametrize("body, message, line", [
    ("  real(8), intent(in) :: a(:)\n  real(8), intent(out) :: t\n"
     "  t = part(a(1:size(a):2))\ncontains\n  real(8) function part(b)\n"
     "    real(8) :: b(:)\n    part = sum(b)\n  end function part\n",
     "not contiguous", 4),
    ("  real(8), intent(in) :: a(:)\n  real(8), intent(out) :: t\n  complex(8) :: z\n"
     "  z = cmplx(a(1), 1.0d0, 8)\n  t = real(tan(z))\n", "complex", 6),
])
def test_assumed_shape_head_refused(body, message, line, tmp_path):
    """What adgen cannot differentiate in a head with assumed-shape dummies is refused at
    its line, as elsewhere."""
    src, proc, _ = _adgen(tmp_path, f"subroutine total(a, t)\n{body}end subroutine total\n",
                          "total(t)/(a)")
    assert proc.returncode == 1, proc.stderr
    diag = f"{src}:{line}:"
    assert any(l.startswith(diag) and ": error: " in l and message in l.lower()
               for l in proc.stderr.splitlines()), proc.stderr


# ------------------------------------------------------- positions, stack counts

def test_preprocessed_source_keeps_its_line_numbers(tmp_path):
    # lines the preprocessor drops (a directive, an #ifdef block) do not shift the others
    src = tmp_path / "m.F90"
    src.write_text("#define SCALE 2.0d0\n#ifdef NEVER_DEFINED\n  this is not Fortran\n"
                   "#endif\nsubroutine f(x, y)\n  double precision, intent(in) :: x\n"
                   "  double precision, intent(out) :: y\n  print *, x\n"
                   "  y = SCALE * x * x\nend subroutine f\n")
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                           "f(y)/(x)", "-o", str(tmp_path / "m_b.c")], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert f"{src}:8:3: warning: print statement left out" in proc.stderr, proc.stderr


def test_print_warned_only_in_the_derivative_code(tmp_path):
    """A statement left out is reported where the derivative code has the procedure (the
    head, a procedure it calls, an internal one), not in a procedure it never calls."""
    src, proc, _ = _adgen(
        tmp_path, "subroutine setup(x)\n  double precision :: x\n  print *, 'setup'\n"
        "  x = 1.0d0\nend subroutine setup\n"
        "subroutine helper(x, y)\n  double precision :: x, y\n  print *, x\n"
        "  y = x * x\nend subroutine helper\n"
        "subroutine f(x, y)\n  double precision :: x, y\n  call helper(x, y)\n"
        "  call inner()\ncontains\n  subroutine inner()\n    write (*, *) y\n"
        "  end subroutine inner\nend subroutine f\n", "f(y)/(x)")
    assert proc.returncode == 0, proc.stderr
    assert f"{src}:8:3: warning: print statement left out" in proc.stderr, proc.stderr
    assert f"{src}:17:5: warning: write statement left out" in proc.stderr, proc.stderr
    assert f"{src}:3:" not in proc.stderr, proc.stderr


def test_warnings_carry_the_column(tmp_path):
    """A Fortran warning is at the line and column of what it is about, as an error is:
    the name it quotes where the statement spells it, else the statement's first
    character (an IF statement's, for the statement it guards)."""
    src, proc, _ = _adgen(
        tmp_path, "subroutine f(x, y)\n  real(8), intent(in) :: x\n"
        "  real(8), intent(out) :: y\n  real(8) :: t\n  real(8), save :: scratch(3)\n"
        "  integer :: i\n      call cpu_time(t)\n  do i = 1, 3\n    !$AD CHECKPOINT-START\n"
        "    scratch(i) = x * i\n  end do\n  y = sum(scratch)\n"
        "  if (y > 0) &\n     &    print *, y\nend subroutine f\n", "f(y)/(x)")
    assert proc.returncode == 0, proc.stderr
    warnings = sorted(line.split(": warning: ")[0][len(str(src)) + 1:] + " " +
                      line.split(": warning: ")[1].split()[0]
                      for line in proc.stderr.splitlines() if ": warning: " in line)
    assert warnings == ["13:3 print", "5:20 the", "7:7 call", "9:5 !$AD"], proc.stderr


def test_stack_report_of_a_loop_calling_a_subroutine(tmp_path):
    # n, passed on by reference to a subroutine that only reads it, stays a size
    src, proc, _ = _adgen(tmp_path, """\
subroutine g(n, u)
  integer, intent(in) :: n
  real(8), intent(inout) :: u(n)
  u = sin(u) + u * u
end subroutine
subroutine f(n, nsteps, x, u, y)
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: u(n)
  real(8), intent(out) :: y
  integer :: t
  u = x
  do t = 1, nsteps
    call g(n, u)
  end do
  y = sum(u)
end subroutine
""", "f(y)/(x)")
    assert proc.returncode == 0, proc.stderr
    report = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                             "f(y)/(x)", "--stack-report", "-o", str(tmp_path / "r.c")],
                            cwd=ROOT, capture_output=True, text=True)
    assert report.returncode == 0, report.stderr
    assert "unbounded" not in report.stdout and "n * nsteps" in report.stdout, report.stdout
    assert "*n" not in report.stdout, report.stdout


def test_explain_and_stack_report_speak_fortran(tmp_path):
    """--explain and --stack-report name a Fortran program's values as it writes them:
    dummies without C's pointer, elements with the program's subscripts and bounds."""
    src, proc, _ = _adgen(tmp_path, """\
subroutine heat(n, nt, u, h, cost)
  integer, intent(in) :: n, nt
  real(8), intent(inout) :: u(n)
  real(8), intent(inout) :: h(n, 0:nt)
  real(8), intent(out) :: cost
  real(8) :: unew(n)
  integer :: i, k
  do k = 1, nt
    do i = 2, n - 1
      unew(i) = u(i) + 0.1d0 * (u(i-1) - 2*u(i) + u(i+1)) + sin(u(i))
      h(i, k) = h(i, k - 1) * unew(i)
    end do
    do i = 2, n - 1
      u(i) = unew(i) * h(i, k)
    end do
  end do
  cost = sum(u**2) + mod(n, 3)
end subroutine
""", "heat(cost)/(u h)", extra=["--explain", "--stack-report"])
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout
    assert f"{src}:10: heat: unew(i): " in lines, lines
    assert f"{src}:11: heat: h(i, k): " in lines, lines
    assert f"{src}:14: heat: u(i): stored" in lines, lines
    assert "heat_b: stack: at most 32 * n * nt + 16 * n + 48 bytes" in lines, lines
    assert not any(c in lines for c in ("[", "*n", "->")), lines


def test_explain_names_a_split_sum_as_fortran_does(tmp_path):
    """The adjoint of a scalar dummy added up in parts is named as the program names the
    dummy (before: `*kappa`, C's pointer)."""
    src, proc, _ = _adgen(tmp_path, """\
subroutine heat(n, nt, u, kappa, cost)
  integer, intent(in) :: n, nt
  real(8), intent(inout) :: u(n)
  real(8), intent(in) :: kappa
  real(8), intent(out) :: cost
  real(8) :: unew(n)
  integer :: i, k
  do k = 1, nt
    do i = 2, n - 1
      unew(i) = u(i) + kappa * (u(i+1) - 2d0*u(i) + u(i-1)) - 0.01d0 * u(i)**3
    end do
    unew(1) = 0d0
    unew(n) = unew(n-1) * u(n)
    u = unew
  end do
  cost = sum(u**2)
end subroutine heat
""", "heat(cost)/(u kappa)", extra=["--explain"])
    assert proc.returncode == 0, proc.stderr
    assert f"{src}:9: heat: adjoint of kappa: summed in 2 parts" in proc.stdout, proc.stdout
    assert "*" not in proc.stdout, proc.stdout


def test_integer_dummies_read_once_where_nothing_writes_them():
    """`int *n` read as `*n` everywhere gets a local `n_in = *n` on entry (gcc keeps it in a
    register across the value stack's memcpys); a dummy the procedure changes, or passes to
    a procedure that changes it, is left as it is."""
    import adgen
    code = adgen.differentiate("""
        subroutine bump(m, k)
          integer, intent(inout) :: m
          integer, intent(in) :: k
          m = m + k
        end subroutine bump
        subroutine scale(n, x, y)
          integer, intent(in) :: n
          real(8), intent(inout) :: x(n)
          real(8), intent(in) :: y
          integer :: i
          do i = 1, n
            x(i) = sin(x(i)) * y
          end do
        end subroutine scale
        subroutine model(n, k, x, y, f)
          integer, intent(in) :: n
          integer, intent(inout) :: k
          real(8), intent(inout) :: x(n)
          real(8), intent(in) :: y
          real(8), intent(out) :: f
          integer :: i
          call scale(n, x, y)
          call bump(k, n)
          f = 0.0d0
          do i = 1, n
            f = f + x(i) * x(i) * k
          end do
        end subroutine model
    """, "model(f)/(x y)", language="fortran")
    from tests.test_tbr import function_text
    head = function_text(code, "model_b_")
    assert "int n_in = *n;" in head and "*n" not in head.split("int n_in = *n;")[1]
    assert "k_in" not in head       # changed by bump
    for sweep in ("scale_fwd", "scale_bwd"):
        assert "int n_in = *n;" in function_text(code, sweep)
    assert "m_in" not in function_text(code, "bump_fwd")


# ------------------------------------------------------------------- derived types

STRUCT_HEAD = ROOT / "tests" / "fortran_struct_head"


def test_derived_type_head(tmp_path, gfortran):
    """A head taking a derived type: the C routines take pointers to structs with
    gfortran's layout (the header defines them, each under a guard of its own), and a
    Fortran program calls them through the interface modules with structures of the
    module's type. Their results agree with each other and with finite differences of the
    gfortran-compiled primal."""
    shutil.copy(STRUCT_HEAD / "grid.f90", tmp_path / "relax.f90")
    shutil.copy(STRUCT_HEAD / "main.f90", tmp_path / "main.f90")
    for mode, name in (("--reverse", "relax_b"), ("--forward", "relax_d")):
        proc = subprocess.run([sys.executable, "-m", "adgen", mode, "relax.f90", "--head",
                               "relax(s)/(s)", "-o", f"{name}.c"], cwd=tmp_path,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    header = (tmp_path / "relax_b.h").read_text()
    assert "struct grid_material_t { double kappa[6]; double rho; };" in header
    assert "void relax_b_(struct grid_state_t *s, struct grid_state_t *sb, double *dt);" \
        in header
    interface = (tmp_path / "relax_b_interface.f90").read_text()
    assert "use grid, only: state_t" in interface and "type(state_t) :: sb" in interface
    (tmp_path / "both.c").write_text('#include "relax_b.h"\n#include "relax_d.h"\n')
    objects = ["relax.o", "relax_b.o", "relax_d.o", "relax_b_interface.o",
               "relax_d_interface.o"]
    _build_and_run_main(tmp_path, (
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "relax_b.c", "relax_d.c",
         "both.c"],
        [gfortran, "-c", "relax.f90", "relax_b_interface.f90", "relax_d_interface.f90"],
        [gfortran, "-o", "main", "main.f90", *objects]))


EXTENDED_HEAD = ROOT / "tests" / "fortran_extended_head"


def test_extended_type_head(tmp_path, gfortran):
    """A head taking a structure of a type extended twice and an array of structures of
    an extended type: the C structs hold the parent component whole, first, as gfortran
    lays it out (padding included: the parent ends in an integer), so that a Fortran
    program calling the derivative routines through the interface modules with the
    module's structures gets results that agree with each other and with finite
    differences of the gfortran-compiled primal."""
    shutil.copy(EXTENDED_HEAD / "bodies.f90", tmp_path / "advance.f90")
    shutil.copy(EXTENDED_HEAD / "main.f90", tmp_path / "main.f90")
    for mode, name in (("--reverse", "advance_b"), ("--forward", "advance_d")):
        proc = subprocess.run([sys.executable, "-m", "adgen", mode, "advance.f90", "--head",
                               "advance(b fleet)/(b fleet)", "-o", f"{name}.c"],
                              cwd=tmp_path, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    header = (tmp_path / "advance_b.h").read_text()
    assert "struct bodies_point2 { struct bodies_point point; int tag; double y[2]; };" \
        in header
    assert "struct bodies_body_t { struct bodies_point2 point2; double mass; };" in header
    (tmp_path / "both.c").write_text('#include "advance_b.h"\n#include "advance_d.h"\n')
    objects = ["advance.o", "advance_b.o", "advance_d.o", "advance_b_interface.o",
               "advance_d_interface.o"]
    _build_and_run_main(tmp_path, (
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "advance_b.c",
         "advance_d.c", "both.c"],
        [gfortran, "-c", "advance.f90", "advance_b_interface.f90", "advance_d_interface.f90"],
        [gfortran, "-o", "main", "main.f90", *objects]))


def test_value_in_an_interface_body_is_not_the_hosts(tmp_path):
    """VALUE in an interface body is about that interface's dummy: a dummy of the host
    of the same name stays passed by reference."""
    _, proc, out = _adgen(tmp_path, """\
subroutine f(x, y)
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  interface
    real(8) function sq(x)
      real(8), value :: x
    end function
  end interface
  y = x * x
end subroutine
""", "f(y)/(x)")
    assert proc.returncode == 0, proc.stderr
    assert "void f_b_(double *x, double *xb, double *y, double *yb)" in out.read_text()


@pytest.mark.parametrize("decl, line", [
    ("  real(8), value :: v(3)\n", 3), ("  type(pair) :: v\n  value :: v\n", 3)])
def test_value_dummies_not_scalar_numbers_refused(decl, line, tmp_path):
    """A VALUE dummy is passed by value (testsuite/fortran/value_dummies.f90): one that
    is not a scalar number or logical is refused by name."""
    text = ("module m\n  type pair\n    real(8) :: a, b\n  end type\ncontains\n"
            "  function scaled(x, v) result(s)\n" + decl.replace("  ", "    ")
            + "    real(8), intent(in) :: x\n    real(8) :: s\n    s = x * 2\n"
            "  end function scaled\nend module m\n")
    _, proc, out = _adgen(tmp_path, text, "scaled(scaled)/(x)")
    assert proc.returncode == 1 and not out.exists(), proc.stderr
    assert re.search(rf"m.f90:{line + 4}:\d+: error: the VALUE dummy argument 'v' is not a "
                     "scalar number", proc.stderr), proc.stderr


def test_names_on_the_command_line_in_any_case(tmp_path):
    """Fortran's names have no case: `--head "FORWARD_PROBLEM(V)/(XX)"`, `--size XX=N` and
    `--inactive STAMP` name what the program declares in lower case, and give the same
    code as names spelt as declared."""
    (tmp_path / "fp.f90").write_text(
        "subroutine forward_problem(v, xx, n)\n  integer, intent(in) :: n\n"
        "  real(8), intent(in) :: xx(n)\n  real(8), intent(out) :: v\n  integer :: i\n"
        "  real(8), external :: stamp\n"
        "  v = stamp(xx(1))\n  do i = 1, n\n    v = v + xx(i)**2\n  end do\n"
        "end subroutine\n")
    codes = []
    for head, size, inactive in (("FORWARD_PROBLEM(V)/(XX)", "XX=N", "STAMP"),
                                 ("forward_problem(v)/(xx)", "xx=n", "stamp")):
        proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", "fp.f90", "--head",
                               head, "--size", size, "--inactive", inactive, "-o", "fp_b.c"],
                              cwd=tmp_path, capture_output=True, text=True)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        codes.append((tmp_path / "fp_b.c").read_text().split("\n", 2)[2])  # (the command)
    assert codes[0] == codes[1]
    assert " * Heads: forward_problem(v)/(xx)\n" in codes[0]


def test_check_takes_names_in_any_case(tmp_path, gfortran, adgen_cache):
    """`adgen check` on Fortran: the head, --size and the --inputs keys in any case name
    the lower-case dummies (before: 'V' was no parameter, and `--size XX=N` and `{"N": 5}`
    were ignored, the check running with n = 3)."""
    (tmp_path / "fp.f90").write_text(
        "subroutine Forward_Problem(n, xx, v)\n  integer, intent(in) :: n\n"
        "  real(8), intent(in) :: xx(n)\n  real(8), intent(out) :: v\n  integer :: i\n"
        "  v = 0d0\n  do i = 1, n\n    v = v + cos(xx(i)) * xx(i)\n  end do\n"
        "end subroutine forward_problem\n")
    (tmp_path / "in.json").write_text('{"N": 5}')
    proc = subprocess.run([sys.executable, "-m", "adgen", "check", "fp.f90", "--head",
                           "FORWARD_PROBLEM(V)/(XX)", "--size", "XX=N", "--inputs",
                           "in.json"], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, ADGEN_CACHE=adgen_cache))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "n = 5" in proc.stdout and \
        "xx: 5 random values in [-1, 1] (length from --size xx=n)" in proc.stdout, proc.stdout


_TYPE_MODULE = ("module m\n  implicit none\n  type :: p_t\n    real(8) :: x(3), w\n"
                "  end type p_t\n")


_EXTENDED_MODULE = ("module m\n  implicit none\n  type :: p_t\n    real(8) :: x\n"
                    "  contains\n    procedure :: twice\n  end type p_t\n"
                    "  type, extends(p_t) :: q_t\n    real(8) :: y\n  end type q_t\n"
                    "contains\n  real(8) function twice(p)\n    class(p_t), intent(in) :: p\n"
                    "    twice = 2 * p%x\n  end function twice\n"
                    "  subroutine g(a, y)\n    real(8) :: a, y\n    type(q_t) :: q\n"
                    "    type(p_t) :: p\n    q%x = a\n")


_ALLOCATABLE_DUMMY = ("module m\ncontains\n  subroutine f(u)\n"
                      "    real(8), allocatable, intent(inout) :: u(:)\n")
_ALLOCATABLE_CALLER = ("end module m\nsubroutine g(a, y)\n  use m\n  real(8) :: a, y\n"
                       "  real(8), allocatable :: w(:)\n  allocate(w(3))\n  w = a\n"
                       "  call f(w)\n  y = sum(w)\nend subroutine g\n")


@pytest.mark.parametrize("text, message, place", [
    (_ALLOCATABLE_DUMMY.replace("inout", "out") + "    u = 1.0d0\n  end subroutine f\n" +
     _ALLOCATABLE_CALLER, "is INTENT(OUT), which deallocates it on entry", "4:42"),
    (_ALLOCATABLE_DUMMY + "    deallocate(u)\n    allocate(u(4))\n    u = 1.0d0\n"
     "  end subroutine f\n" + _ALLOCATABLE_CALLER,
     "ALLOCATE, DEALLOCATE or allocated() of the allocatable dummy argument 'u'", "5:16"),
    (_ALLOCATABLE_DUMMY + "    u = 2.0d0 * u\n  end subroutine f\n" +
     _ALLOCATABLE_CALLER.replace("call f(w)", "call f(w(1:2))"),
     "it must be an allocatable array", "14:10"),
])
def test_allocatable_dummies_refused(text, message, place, tmp_path):
    """An allocatable dummy that the procedure (de)allocates or gets deallocated, or that
    is given something else than an allocatable array, is refused at its line."""
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(a)")
    assert proc.returncode == 1
    assert f"{src}:{place}: error:" in proc.stderr and message in proc.stderr, proc.stderr


def test_allocatable_dummy_of_a_head_refused(tmp_path):
    src, proc, _ = _adgen(tmp_path, "subroutine h(u, y)\n  real(8), allocatable, "
                          "intent(inout) :: u(:)\n  real(8) :: y\n  y = sum(u)\n"
                          "end subroutine h\n", "h(y)/(u)")
    assert proc.returncode == 1
    assert f"{src}:2:42: error:" in proc.stderr and "is allocatable: not supported for a " \
        "head" in proc.stderr, proc.stderr


_POINTER_HEAD = ("subroutine g(a, y)\n  real(8), intent(in), target :: a(4, 4)\n"
                 "  real(8), intent(out) :: y\n")


@pytest.mark.parametrize("text, message, place", [
    (_POINTER_HEAD + "  real(8), pointer :: p(:, :)\n  p => a(2:3, :)\n  y = sum(p)\n",
     "the array section 'a(2 : 3, :)' is not contiguous in memory: the pointer 'p' cannot "
     "point to it", "5:8"),
    (_POINTER_HEAD + "  real(8), pointer :: p(:)\n  p(0:) => a(:, 1)\n  y = sum(p)\n",
     "pointer assignment with bounds is not supported", "5:3"),
    (_POINTER_HEAD + "  real(8), pointer :: p(:)\n  p => a\n  y = sum(p)\n",
     "pointer 'p' has rank 1, its target 'a' rank 2", "5:3"),
    (_POINTER_HEAD + "  real(8), pointer :: p(4)\n  y = a(1, 1)\n",
     "pointer array 'p' needs a deferred shape: p(:)", "4:23"),
    (_POINTER_HEAD.replace("intent(in), target :: a(4, 4)", "pointer :: a(:, :)") +
     "  y = a(1, 1)\n", "dummy argument 'a' is a POINTER: not supported for a head", "2:23"),
    (_POINTER_HEAD + "  real(8), target :: w(3)\n  call f(w, y)\ncontains\n"
     "  subroutine f(q, s)\n    real(8), pointer :: q(:)\n    real(8) :: s\n"
     "    s = q(1)\n  end subroutine f\n",
     "'w' passed to 'q', a POINTER dummy argument: it must be a POINTER array", "5:10"),
    (_POINTER_HEAD + "  real(8), pointer :: w(:)\n  call f(w, y)\ncontains\n"
     "  subroutine f(q, s)\n    real(8), pointer :: q(:)\n    real(8) :: s\n"
     "    nullify(q)\n    s = 0.0d0\n  end subroutine f\n",
     "NULLIFY of the POINTER dummy argument 'q' is not supported", "10:13"),
    (_POINTER_HEAD + "  real(8), pointer :: w(:)\n  call f(w, y)\ncontains\n"
     "  subroutine f(q, s)\n    real(8), pointer :: q(:)\n    real(8) :: s\n"
     "    allocate(q(3))\n    s = 0.0d0\n  end subroutine f\n",
     "ALLOCATE or DEALLOCATE of the POINTER dummy argument 'q' is not supported", "10:14"),
    (_POINTER_HEAD + "  real(8), pointer :: w(:)\n  call f(w, y)\ncontains\n"
     "  subroutine f(q, s)\n    real(8), pointer, intent(out) :: q(:)\n"
     "    real(8) :: s\n    s = 0.0d0\n  end subroutine f\n",
     "the POINTER dummy argument 'q' is INTENT(OUT)", "8:38"),
    (_POINTER_HEAD + "  real(8), pointer :: p(:), q(:)\n  p => a(:, 1)\n"
     "  y = merge(1.0d0, 0.0d0, associated(p, q))\n",
     "associated() is supported with one argument", "6:3"),
])
def test_pointers_refused(text, message, place, tmp_path):
    """What adgen does not support of POINTERs is refused at its line."""
    src, proc, _ = _adgen(tmp_path, text + "end subroutine g\n", "g(y)/(a)")
    assert proc.returncode == 1
    assert f"{src}:{place}: error:" in proc.stderr and message in proc.stderr, proc.stderr


@pytest.mark.parametrize("text, message, place", [
    ("module m\n  type :: p_t\n    real(8), allocatable :: x\n  end type p_t\n",
     "the allocatable scalar component 'x' of 'p_t' is not supported", "3:29"),
    ("module m\n  type :: p_t\n    real(8), allocatable :: x(4)\n  end type p_t\n",
     "the allocatable component 'x' of 'p_t' needs a deferred shape: x(:)", "3:29"),
    ("module m\n  type :: q_t\n    real(8) :: w\n  end type q_t\n  type :: p_t\n"
     "    type(q_t), allocatable :: x(:)\n  end type p_t\n",
     "the allocatable component 'x' of 'p_t' is of a derived type: not supported", "6:31"),
    ("module m\n  type :: q_t\n    real(8), allocatable :: w(:)\n  end type q_t\n"
     "  type :: p_t\n    type(q_t) :: x(3)\n  end type p_t\n",
     "an array of 'q_t', a type with allocatable components, is not supported", "6:18"),
    ("module m\n  type :: p_t\n    real(8), pointer :: x\n  end type p_t\n",
     "pointer components of 'p_t' are not supported", "3:5"),
    ("module m\n  type :: p_t\n    real(8) :: x = sqrt(2.0d0)\n  end type p_t\n",
     "the default value of the component 'x' of 'p_t' is supported as literals and named "
     "constants combined by arithmetic only", "3:16"),
    ("module m\n  type :: p_t\n    real(8) :: x(3) = [1d0, 2d0]\n  end type p_t\n",
     "the default value of the component 'x' of 'p_t' has 2 elements, the component 3", "3:16"),
    ("module m\n  type :: p_t\n    character(len=8) :: names(3)\n  end type p_t\n",
     "the CHARACTER component 'names' of 'p_t' is an array or ALLOCATABLE", "3:25"),
    ("module m\n  type :: p_t\n    character(len=:), allocatable :: name\n  end type p_t\n",
     "the CHARACTER component 'name' of 'p_t' is an array or ALLOCATABLE", "3:38"),
    ("module m\n  type :: s_t\n    real(8) :: x\n  end type s_t\n  type :: r_t\n"
     "    class(s_t), allocatable :: s\n  end type r_t\n",
     "the polymorphic component 's' of 'r_t' (CLASS(s_t)) is not supported", "6:32"),
    ("module m\n  type, extends(r_t) :: q_t\n    real(8) :: y\n  end type q_t\n",
     "'q_t' extends 'r_t', which is not a derived type defined here", "2:25"),
    # an object of an extended type for a TYPE dummy of its parent type (Fortran's rules)
    (_EXTENDED_MODULE + "    y = 0\n    call h(q, y)\n  end subroutine g\n"
     "  subroutine h(c, y)\n    type(p_t), intent(in) :: c\n    real(8) :: y\n"
     "    y = c%x\n  end subroutine h\n",
     "'q', of type 'q_t', is passed for the TYPE(p_t) dummy 'c' of 'h', which takes an "
     "object of type 'p_t' only: pass its parent component, 'q%p_t'", "22:12"),
    # a polymorphic array (the types of its elements are not followed)
    (_EXTENDED_MODULE.replace("    type(q_t) :: q\n", "    type(q_t) :: q\n"
                              "    class(p_t), pointer :: ps(:)\n")
     + "    y = q%x\n  end subroutine g\n",
     "the polymorphic variable 'ps' (CLASS(p_t), POINTER): a polymorphic array, dummy "
     "argument or module variable is not supported", "19:28"),
    # ... or one with SAVEd variables (its copy would keep its own)
    (_EXTENDED_MODULE.replace("    twice = 2 * p%x\n", "    integer, save :: calls = 0\n"
                              "    calls = calls + 1\n    twice = 2 * p%x * calls\n")
     + "    y = twice(q)\n  end subroutine g\n",
     "'twice', which has SAVEd variables, is called with an object of a type extending the "
     "type of its CLASS dummy 'p': not supported", "23:9"),
    # a construct that gives a polymorphic variable one of several types, and whose own
    # statement uses it (the variable is dispatched statement by statement)
    (_EXTENDED_MODULE.replace("    type(q_t) :: q\n", "    class(p_t), allocatable :: r\n")
     + "    allocate(p_t :: r)\n    r%x = a\n    do while (r%x < 2)\n"
     "      deallocate(r)\n      allocate(q_t :: r)\n      r%x = 3\n    end do\n"
     "    y = r%twice()\n  end subroutine g\n",
     "'DO WHILE (r%x < 2)' uses the polymorphic variable 'r' in a construct that gives "
     "it one of several types", "23:5"),
    (_EXTENDED_MODULE.replace("    type(q_t) :: q\n", "    class(p_t), allocatable :: q\n")
     + "    y = q%x\n  end subroutine g\n",
     "the polymorphic variable 'q' (CLASS(p_t), ALLOCATABLE): ALLOCATE gives it no type in "
     "the procedure", "18:32"),
    (_EXTENDED_MODULE + "    p = q\n    y = p%x\n  end subroutine g\n",
     "'p' assigned 'q': a structure of type 'q_t' assigned to one of type 'p_t': an "
     "intrinsic assignment needs a value of the same type (its parent component %p_t is)",
     "21:5"),
    # (`qs(k)%x` is `qs(k)%p_t%x`: the other element's)
    (_EXTENDED_MODULE.replace("    type(q_t) :: q\n", "    type(q_t) :: q, qs(2)\n"
                              "    integer :: k\n")
     + "    forall (k = 1:2) qs(k)%x = qs(3 - k)%p_t%x\n    y = qs(1)%x\n"
     "  end subroutine g\n",
     "FORALL whose assignment reads the array it assigns elsewhere than at the element "
     "assigned", "22:5"),
    (_EXTENDED_MODULE + "    q = q_t(p_t(a), x=a, y=a)\n    y = q%y\n  end subroutine g\n",
     "'q_t(p_t(a), x = a, y = a)' gives both the parent component 'p_t' and its component "
     "'x'", "21:9"),
    ("module m\n  type :: p_t\n    real(8) :: x\n  contains\n    procedure :: f\n"
     "    generic :: apply => f\n  end type p_t\ncontains\n  subroutine f(a)\n"
     "    class(p_t) :: a\n  end subroutine f\n",
     "the generic binding 'GENERIC :: apply => f' of 'p_t' is not supported", "6:5"),
    # (refused where the head calls it: a procedure no head calls may use anything)
    ("module m\n  type :: p_t\n    real(8) :: x\n  end type p_t\ncontains\n"
     "  subroutine f(a)\n    class(*) :: a\n  end subroutine f\n"
     "  subroutine g(a, y)\n    real(8) :: a, y\n    call f(a)\n    y = a\n"
     "  end subroutine g\n",
     "CLASS(*) is not supported", "7:5"),
    (_TYPE_MODULE.replace("  end type p_t\n", "  contains\n    procedure :: scale\n"
                          "  end type p_t\n") +
     "contains\n  subroutine scale(p, c)\n    class(p_t), intent(inout) :: p\n"
     "    real(8), intent(in) :: c\n    p%w = c * p%w\n  end subroutine scale\n"
     "  subroutine g(a, y)\n    real(8) :: a, y\n    type(p_t) :: p(2)\n    p%w = a\n"
     "    call p%scale(2d0)\n    y = p(1)%w\n  end subroutine g\n",
     "a type-bound procedure referenced through the array 'p' is not supported", "18:10"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p\n    p%w = a\n    call p%scale(2d0)\n    y = p%w\n"
     "  end subroutine g\n",
     "'p % scale': 'scale' is no type-bound procedure of the type of 'p'", "11:10"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p\n    p = p_t(w=a)\n    y = p%w\n  end subroutine g\n",
     "'p_t(w = a)' gives no value for the component 'x', which has no default value", "10:9"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p(2)\n    p = p_t([a, a, a], a)\n    y = p(1)%w\n"
     "  end subroutine g\n",
     "the structure constructor 'p_t([a, a, a], a)' assigned to the array 'p' is not "
     "supported", "10:9"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p\n    p = p_t([a, a, a], a, a)\n    y = p%w\n  end subroutine g\n",
     "gives more values than 'p_t' has components", "10:9"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p(4)\n    integer :: idx(2)\n    idx = [2, 3]\n"
     "    p(idx)%w = a\n    y = p(2)%w\n  end subroutine g\n",
     "a component of structures selected by a vector subscript", "12:5"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p(4)\n    p%w = a\n    y = sum(p%x(1:2))\n  end subroutine g\n",
     "'p%x(1:2)': a section of a component of an array of structures", "11:13"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p(4)\n    p%w = a\n    y = h(p%w)\n"
     "  end subroutine g\n  real(8) function h(v)\n    real(8) :: v(4)\n    v = 2 * v\n"
     "    h = v(1)\n  end function h\n",
     "is passed through a copy, which cannot be copied back here", "11:11"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p\n    p%w = a\n    y = p%v\n  end subroutine g\n",
     "the type 'p_t' has no component 'v'", "11:11"),
    # a structure where a number is needed (invalid without a defined operation for the
    # type: an internal error, and outputs that did not compile, before)
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p\n    p%w = a\n    y = abs(p)\n  end subroutine g\n",
     "abs() of 'p', a value of a derived type, is not supported", "11:13"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p\n    p%w = a\n    y = p\n  end subroutine g\n",
     "'y' assigned 'p': a structure and a number (a defined assignment) is not supported",
     "11:5"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p\n    p%w = a\n    y = -p\n  end subroutine g\n",
     "the operator '-' on values of a derived type", "11:5"),
    (_TYPE_MODULE + "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n"
     "    type(p_t) :: p(2)\n    real(8) :: v(2)\n    p%w = a\n    v = p\n    y = v(1)\n"
     "  end subroutine g\n",
     "an array of structures assigned numbers, or numbers assigned structures", "12:5"),
])
def test_derived_types_refused(text, message, place, tmp_path):
    """What adgen does not support of derived types is refused at its line."""
    if "subroutine g" not in text:
        text += "contains\n  subroutine g(a, y)\n    real(8) :: a, y\n    y = a\n" \
                "  end subroutine g\nend module m\n"
    else:
        text += "end module m\n"
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(a)")
    assert proc.returncode == 1
    assert f"{src}:{place}: error:" in proc.stderr and message in proc.stderr, proc.stderr


def test_class_dummy_of_a_head_refused(tmp_path):
    """gfortran passes a CLASS dummy in a class container, which the C routine of a head
    could not take: refused at the dummy's line (TYPE(...) is accepted)."""
    text = (_TYPE_MODULE + "contains\n  subroutine g(p)\n"
            "    class(p_t), intent(inout) :: p\n    p%w = p%w * p%x(1)\n"
            "  end subroutine g\nend module m\n")
    src, proc, _ = _adgen(tmp_path, text, "g(p)/(p)")
    assert proc.returncode == 1
    assert f"{src}:8:34: error: --head names 'g', whose dummy argument 'p' is CLASS(...): " \
        "not supported for a head (declare it TYPE(...))" in proc.stderr, proc.stderr
    _, proc, _ = _adgen(tmp_path, text.replace("class(p_t)", "type(p_t)"), "g(p)/(p)")
    assert proc.returncode == 0, proc.stderr


# ------------------------------------------------- allocatable components of derived types

MESH_HEAD = ROOT / "testsuite" / "fortran" / "mesh_head"


def test_head_with_allocatable_components(tmp_path, gfortran):
    """A head whose derived-type dummy holds allocatable components that the Fortran caller
    allocated (inactive geometry): the C routines read gfortran's descriptors through the
    struct's layout; a head may deallocate and allocate such a component for its caller,
    which then reads it and deallocates it (the adjoint frees the old block and leaves
    the new one as the primal does). The adjoint, the tangents and
    central finite differences of the gfortran-compiled primal agree."""
    shutil.copy(MESH_HEAD / "mesh.f90", tmp_path / "mesh.f90")
    shutil.copy(MESH_HEAD / "main.f90", tmp_path / "main.f90")
    for mode, head, name in (("--reverse", "run", "run_b"), ("--forward", "run", "run_d"),
                             ("--forward", "remesh", "remesh_d"),
                             ("--reverse", "remesh", "remesh_b")):
        proc = subprocess.run([sys.executable, "-m", "adgen", mode, "mesh.f90", "--head",
                               f"{head}(cost)/(q)", "-o", f"{name}.c"], cwd=tmp_path,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    header = (tmp_path / "run_b.h").read_text()
    assert "struct meshes_mesh_t { int n; struct adgen_gfc_double_1 x; " in header, header
    names = ("run_b", "run_d", "remesh_d", "remesh_b")
    _build_and_run_main(tmp_path, (
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c",
         *[f"{n}.c" for n in names]],
        [gfortran, "-c", "mesh.f90", *[f"{n}_interface.f90" for n in names]],
        [gfortran, "-o", "main", "main.f90", "mesh.o", *[f"{n}.o" for n in names],
         *[f"{n}_interface.o" for n in names]]))


HANDLE_HEAD = ROOT / "tests" / "fortran_handle_head"


def _case_outputs(tmp_path, case, source, runs):
    """Copies the case's source and main.f90 into tmp_path and runs adgen there on the
    source, once per (mode, head, output stem) of runs."""
    for name in (source, "main.f90"):
        shutil.copy(case / name, tmp_path / name)
    for mode, head, stem in runs:
        proc = subprocess.run([sys.executable, "-m", "adgen", mode, source, "--head", head,
                               "-o", f"{stem}.c"], cwd=tmp_path, capture_output=True,
                              text=True)
        assert proc.returncode == 0, proc.stderr


def test_head_with_a_mesh_independent(tmp_path, gfortran):
    """A derived-type dummy whose data are allocatable components as an independent
    (energy(cost)/(m q)) and in/out (relax(m)/(m)): the Fortran caller passes a derivative
    mesh allocated like the mesh; the adjoint sets a pure input's components whole (from
    the descriptors' bounds), and the adjoints, the tangents and central finite
    differences of the gfortran-compiled primal agree."""
    names = ("energy_b", "energy_d", "relax_b", "relax_d")
    _case_outputs(tmp_path, HANDLE_HEAD, "mesh.f90", [
        ("--reverse" if name.endswith("_b") else "--forward",
         "relax(m)/(m)" if name.startswith("relax") else "energy(cost)/(m q)", name)
        for name in names])
    assert "energy_b_(struct handles_mesh_t *m, struct handles_mesh_t *mb, " in \
        (tmp_path / "energy_b.c").read_text()
    _build_and_run_main(tmp_path, (
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c",
         *[f"{n}.c" for n in names]],
        [gfortran, "-c", "mesh.f90", *[f"{n}_interface.f90" for n in names]],
        [gfortran, "-o", "main", "main.f90", "mesh.o", *[f"{n}.o" for n in names],
         *[f"{n}_interface.o" for n in names]]))


GLOBAL_HEAD = ROOT / "tests" / "fortran_global_head"


def test_module_variable_heads(tmp_path, gfortran):
    """step(state energy trace)/(gain state force), whose independents and dependents are
    module variables but force: their derivatives are C globals of the output, declared
    with their bounds in the interface modules (`stateb(0:3)`), which the Fortran caller
    sets and reads; tangent, adjoint and central finite differences of the
    gfortran-compiled primal agree, seeds are consumed and primal outputs kept
    (tests/fortran_global_head/main.f90), under AddressSanitizer. An allocatable module
    variable is refused."""
    head = "step(state energy trace)/(gain state force)"
    _case_outputs(tmp_path, GLOBAL_HEAD, "model.f90",
                  [("--reverse", head, "m_b"), ("--forward", head, "m_d")])
    assert 'real(c_double), bind(C, name="__stepper_MOD_stateb") :: stateb(0:3)' in \
        (tmp_path / "m_b_interface.f90").read_text()
    san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
    _build_and_run_main(tmp_path, (
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", *san, "-c", "m_b.c", "m_d.c"],
        [gfortran, "-c", "model.f90", "m_b_interface.f90", "m_d_interface.f90"],
        [gfortran, *san, "-o", "main", "main.f90", "model.o", "m_b.o", "m_d.o", "-lm"]))
    (tmp_path / "alloc.f90").write_text(
        "module m\n  real(8), allocatable :: s(:)\ncontains\n  subroutine f(x)\n"
        "    real(8), intent(in) :: x\n    s = s * x\n  end subroutine f\nend module m\n")
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", "alloc.f90", "--head",
                           "f(s)/(x)", "-o", "a_b.c"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert proc.returncode == 1 and "'s' is not a dummy argument of 'f': a dependent must " \
        "be a dummy argument or the result, or a module variable that is not allocatable" \
        in proc.stderr, proc.stderr


_WS_MODULE = ("module ws_mod\n  implicit none\n  type :: ws_t\n"
              "    real(8), allocatable :: v(:)\n  end type ws_t\ncontains\n")


@pytest.mark.parametrize("text, head, mode, message, place", [
    # a head's dummy whose allocatable component carries derivatives: only the caller
    # knows the sizes of the adjoint storage (refused by the C core, at the declaration)
    (_WS_MODULE + "  subroutine apply(ws, x, y)\n    type(ws_t), intent(inout) :: ws\n"
     "    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    ws%v = x * ws%v\n"
     "    y = sum(ws%v)\n  end subroutine apply\nend module ws_mod\n",
     "apply(y)/(x)", "--reverse", "carries derivatives", "8:34"),
    (_WS_MODULE + "  subroutine apply(ws, x, y)\n    type(ws_t), intent(inout) :: ws\n"
     "    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    ws%v = x * ws%v\n"
     "    y = sum(ws%v)\n  end subroutine apply\nend module ws_mod\n",
     "apply(y)/(x)", "--forward", "carries derivatives", "8:34"),
    # an independent whose component the head allocates again: the caller's derivative
    # structure cannot follow
    (_WS_MODULE + "  subroutine apply(ws, y)\n    type(ws_t), intent(inout) :: ws\n"
     "    real(8), intent(out) :: y\n    deallocate(ws%v)\n    allocate(ws%v(3))\n"
     "    ws%v = 1.0d0\n    y = sum(ws%v)\n  end subroutine apply\nend module ws_mod\n",
     "apply(y)/(ws)", "--reverse", "may change the pointer 'ws%v'", "8:5"),
])
def test_allocatable_components_refused(text, head, mode, message, place, tmp_path):
    src, proc, _ = _adgen(tmp_path, text, head, mode=mode)
    assert proc.returncode == 1
    assert f"{src}:{place}: error:" in proc.stderr and message in proc.stderr, proc.stderr


def test_allocate_of_a_dummy_component(tmp_path):
    """Both derivative routines allocate a component of a dummy as gfortran does; the
    adjoint leaves it allocated for the caller (it frees only what the program frees)."""
    text = (_WS_MODULE + "  subroutine apply(ws, x, y)\n    type(ws_t), intent(inout) :: ws\n"
            "    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n"
            "    allocate(ws%v(3))\n    ws%v = 1.0d0\n    y = x * sum(ws%v)\n"
            "  end subroutine apply\nend module ws_mod\n")
    for mode in ("--forward", "--reverse"):
        _, proc, out = _adgen(tmp_path, text, "apply(y)/(x)", mode=mode)
        assert proc.returncode == 0, proc.stderr
        assert "ws->v.base_addr = (double *)malloc(" in out.read_text()


_CHARACTER_HEAD = """subroutine flux(n, u, f, scheme)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: f(n)
  character(len=*), intent(in) :: scheme
  integer :: i
  do i = 1, n
    if (scheme == 'upwind') then
      f(i) = u(i)**2
    else if (trim(scheme) == 'central') then
      f(i) = 0.5d0 * u(i)**3
    else
      f(i) = sin(u(i))
    end if
  end do
  select case (scheme)
  case ('limit')
    f(1) = f(2) * f(3)
  end select
end subroutine flux
"""


def test_head_with_a_character_dummy(tmp_path, gfortran):
    """A head taking a CHARACTER option (character(len=*)): the C routine takes it as
    `char *` and its length last, by value, as gfortran passes it, so that a Fortran caller
    calls it with or without the interface module; each option's gradient matches central
    differences of the gfortran-compiled primal."""
    _, proc, out = _adgen(tmp_path, _CHARACTER_HEAD, "flux(f)/(u)", out="m_b.c")
    assert proc.returncode == 0, proc.stderr
    assert "char *scheme, size_t scheme_len)" in out.read_text()
    interface = (tmp_path / "m_b_interface.f90").read_text()
    assert "subroutine flux_b(n, u, ub, f, fb, scheme)\n" in interface
    assert "character(len=*), intent(in) :: scheme" in interface
    (tmp_path / "main.f90").write_text(
        "program main\n  use m_b_interface\n  implicit none\n  integer, parameter :: n = 4\n"
        "  real(8) :: u(n), ub(n), f(n), fb(n), fp(n), fm(n), up(n), fd\n"
        "  character(len=8) :: schemes(3)\n  integer :: s, i, j\n  logical :: ok\n"
        "  external :: flux\n"
        "  schemes = [character(len=8) :: 'upwind', 'central', 'limit']\n  ok = .true.\n"
        "  u = [0.3d0, -1.2d0, 0.7d0, 2.0d0]\n"
        "  do s = 1, 3\n    do i = 1, n\n      fb = 0d0\n      fb(i) = 1d0\n"
        "      call flux_b(n, u, ub, f, fb, trim(schemes(s)))\n"
        "      do j = 1, n\n        up = u\n        up(j) = u(j) + 1d-6\n"
        "        call flux(n, up, fp, trim(schemes(s)))\n        up(j) = u(j) - 1d-6\n"
        "        call flux(n, up, fm, trim(schemes(s)))\n        fd = (fp(i) - fm(i)) / 2d-6\n"
        "        if (abs(fd - ub(j)) > 1d-6 * max(1d0, abs(fd))) ok = .false.\n"
        "      end do\n    end do\n  end do\n  if (ok) print *, 'PASS'\nend program main\n")
    _build_and_run_main(tmp_path, (
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "m_b.c"],
        [gfortran, "-c", "m.f90"],
        [gfortran, "-o", "main", "m_b_interface.f90", "main.f90", "m.o", "m_b.o"]))


@pytest.mark.parametrize("decl, body, message", [
    ("  character(len=8) :: names(3)\n", "  names = 'a'\n  if (any(names == 'b')) y = x\n",
     "the CHARACTER array 'names' is supported element by element here"),
    ("  character(len=8) :: names(3)\n", "  names = ['a', 'b']\n",
     "the CHARACTER array 'names' assigned an array constructor is supported with one "
     "string per element"),
    ("  character(len=8) :: names(3)\n", "  names(1:2) = 'a'\n",
     "a section of the CHARACTER array 'names' is not supported"),
    ("  character(len=8) :: names(n)\n  integer :: n\n", "  names(1) = 'a'\n",
     "the CHARACTER array 'names' needs constant bounds"),
    ("  character(len=8) :: a\n", "  a = 1\n",
     "the CHARACTER variable 'a' assigned a value that is not a string"),
    ("  character(len=8) :: a\n", "  a = 'x'\n  y = y + (a // 'y')\n",
     "a concatenation (//) where a number is needed"),
    ("  character(len=8) :: a\n  integer :: k\n", "  k = 2\n  a = repeat('x', k)\n",
     "repeat() is supported with a count known when adgen runs"),
    ("  character(len=8) :: a\n", "  a = char(65, kind=1)\n",
     "of the CHARACTER intrinsics, trim, adjustl, adjustr, repeat, char, achar, new_line, "
     "ichar, iachar, index, len and len_trim are supported"),
    ("  character(len=8) :: a\n", "  a = 'x'\n  if (a(2) == 'y') y = 0d0\n",
     "a CHARACTER variable is not an array (a substring is written s(i:j))"),
    ("  character(len=8) :: a\n", "  a = 'x'\n  if (a == 1) y = 0d0\n",
     "compares a CHARACTER string with a number"),
    ("  character(len=8) :: names\n  dimension names(3)\n", "  names(1) = 'a'\n",
     "is an array given its shape by a DIMENSION statement: not supported"),
    ("  real(8) :: g\n  character(len=8) :: mode\n  common /blk/ mode, g\n",
     "  if (mode == 'x') y = g\n", "in a COMMON block is not supported"),
    # deferred-length strings: local ALLOCATABLE scalars whose values are bounded
    ("  character(len=:), allocatable :: s\n", "  s = 'a'\n  s = s // 'b'\n",
     "the deferred-length CHARACTER variable 's' assigned a value that reads it"),
    ("  character(len=:), allocatable :: s\n", "  allocate(character(len=4) :: s)\n",
     "ALLOCATE of the deferred-length CHARACTER variable 's' is not supported"),
    ("  character(len=:), pointer :: s\n", "",
     "the deferred-length CHARACTER variable 's' is not ALLOCATABLE"),
    ("  character(len=:), allocatable :: s(:)\n", "",
     "the deferred-length CHARACTER variable 's' is an array"),
    ("  character(len=:), allocatable, save :: s\n", "",
     "the deferred-length CHARACTER variable 's' is SAVEd"),
])
def test_character_refused(decl, body, message, tmp_path):
    """What adgen does not do with CHARACTER strings is refused at its line."""
    text = (f"subroutine g(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n"
            f"{decl}  y = x * x\n{body}end subroutine g\n")
    _, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert message in proc.stderr, proc.stderr


def test_host_string_of_deferred_length_in_an_internal_procedure_refused(tmp_path):
    """An internal procedure may use a CHARACTER variable of its host of a constant or
    assumed length (contains_host_strings.f90, internal_procedure_host_assumed_length.f90);
    one of deferred length, an allocatable scalar whose length changes with what it is
    assigned, is refused at the use, by name."""
    text = ("subroutine g(x, y)\n  real(8), intent(in) :: x\n"
            "  real(8), intent(out) :: y\n  character(len=:), allocatable :: mode\n"
            "  mode = 'sq'\n  y = h(x)\ncontains\n  real(8) function h(v)\n"
            "    real(8), intent(in) :: v\n    h = v\n    if (mode == 'sq') h = v * v\n"
            "  end function h\nend subroutine g\n")
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert re.match(rf"{re.escape(str(src))}:11:\d+: error: 'mode', an allocatable scalar "
                    "of the host, used in an internal procedure", proc.stderr), proc.stderr


@pytest.mark.parametrize("text, place, message", [
    # fparser stops on an END naming another unit (it logs and exits)
    ("module coefs\n  implicit none\ncontains\n  subroutine g(x, y)\n"
     "    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n    y = x\n"
     "  end subroutine g\nend module other\n",
     "9:1", r"Fortran syntax error: .*coefs.*other"),
    # an alternate return: at the `*` dummy or the caller's `*10`, whichever comes first
    ("subroutine h(x, *)\n  real(8), intent(inout) :: x\n  x = 2 * x\n"
     "  if (x > 1) return 1\nend subroutine h\nsubroutine g(x, y)\n"
     "  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n  y = x\n"
     "  call h(y, *10)\n10 continue\nend subroutine g\n",
     "(1:1|10:\\d+)", r"an alternate return \("),
    # modules that use each other, which no compiler builds
    ("module a_m\n  use b_m\n  real(8) :: ga = 1d0\nend module a_m\n"
     "module b_m\n  use a_m\n  real(8) :: gb = 2d0\nend module b_m\n"
     "subroutine g(x, y)\n  use a_m\n  real(8), intent(in) :: x\n"
     "  real(8), intent(out) :: y\n  y = ga * x\nend subroutine g\n",
     "2:7", r"module 'a_m' uses 'b_m', which cannot be read before it"),
], ids=["mismatched-end-name", "alternate-return", "modules-in-a-circle"])
def test_malformed_program_refused_at_its_line(text, place, message, tmp_path):
    """Input no compiler takes (or adgen does not): an error at its line, not a silent
    exit or an internal error."""
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert re.match(rf"{re.escape(str(src))}:{place}: error: {message}", proc.stderr), \
        proc.stderr


def test_syntax_error_fparser_cannot_place(tmp_path, gfortran):
    """fparser fails on `real, external : f` with an internal error and no position: the
    error is placed where gfortran places it."""
    text = ("subroutine g(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n"
            "  real, external : sdot\n  y = x\nend subroutine g\n")
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"{src}:4:"), proc.stderr
    assert "syntax error" in proc.stderr and "(1)" not in proc.stderr, proc.stderr


def test_statement_fparser_cannot_read_is_placed(tmp_path, gfortran):
    """A variable named as a keyword (`real = ...`, implicitly typed) makes fparser fail
    inside with no position, where gfortran finds nothing wrong: the error is placed at the
    statement fparser was reading."""
    text = ("real(8) function w(s)\n  real(8), intent(in) :: s\n  real = s * sqrt(s)\n"
            "  w = real\nend function w\n"
            "subroutine g(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n"
            "  real(8) :: w\n  y = w(x)\nend subroutine g\n")
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"{src}:3:"), proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr


def test_complex_dummies_of_a_head(tmp_path, gfortran):
    """A head's COMPLEX dummies: their derivatives are COMPLEX too, the real part that of
    the real part and the imaginary part that of the imaginary part (the pair of reals a
    complex number is); the interface module declares them COMPLEX(c_double_complex).
    Checked from Fortran against finite differences of each part, both modes."""
    text = ("subroutine g(n, z, y)\n  integer, intent(in) :: n\n"
            "  complex(8), intent(in) :: z(n)\n  real(8), intent(out) :: y\n"
            "  y = sum(abs(z) ** 2 * real(z)) + aimag(z(1) * z(2) / (z(3) + 2))\n"
            "end subroutine g\n")
    for mode, out in (("--reverse", "m_b.c"), ("--forward", "m_d.c")):
        _, proc, _ = _adgen(tmp_path, text, "g(y)/(z)", mode=mode, out=out)
        assert proc.returncode == 0, proc.stderr
    interface = (tmp_path / "m_b_interface.f90").read_text()
    assert "complex(c_double_complex) :: zb(*)" in interface, interface
    (tmp_path / "main.f90").write_text(
        "program main\n  use m_b_interface\n  use m_d_interface\n  implicit none\n"
        "  complex(8) :: z(3), zb(3), zd(3), zp(3)\n  real(8) :: y, yb, yd, yp, ym, fd\n"
        "  complex(8) :: dir(2)\n  integer :: i, k\n  logical :: ok\n"
        "  z = [(0.7d0, -0.3d0), (1.2d0, 0.5d0), (-0.4d0, 0.9d0)]\n"
        "  dir = [(1d0, 0d0), (0d0, 1d0)]\n  ok = .true.\n  yb = 1d0\n"
        "  call g_b(3, z, zb, y, yb)\n"
        "  do i = 1, 3\n    do k = 1, 2\n      zp = z\n      zp(i) = z(i) + 1d-6 * dir(k)\n"
        "      call g(3, zp, yp)\n      zp(i) = z(i) - 1d-6 * dir(k)\n      call g(3, zp, ym)\n"
        "      fd = (yp - ym) / 2d-6\n"
        "      if (k == 1 .and. abs(fd - real(zb(i))) > 1d-6) ok = .false.\n"
        "      if (k == 2 .and. abs(fd - aimag(zb(i))) > 1d-6) ok = .false.\n"
        "      zd = 0\n      zd(i) = dir(k)\n      call g_d(3, z, zd, y, yd)\n"
        "      if (abs(fd - yd) > 1d-6) ok = .false.\n"
        "    end do\n  end do\n  if (ok) print *, 'PASS'\nend program main\n")
    (tmp_path / "g.f90").write_text(text)
    _build_and_run_main(tmp_path, (
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "m_b.c"],
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "m_d.c"],
        [gfortran, "-o", "main", "m_b_interface.f90", "m_d_interface.f90", "main.f90", "g.f90",
         "m_b.o", "m_d.o"]))


@pytest.mark.parametrize("decl, body, message, place", [
    ("  complex(8) :: z\n", "  z = cmplx(x, 1d0, kind=8)\n  y = abs(tan(z))\n",
     "tan of a COMPLEX value is not supported", "6:11"),
    ("  complex(8) :: z\n", "  z = cmplx(x, 1d0, kind=8)\n  z = z ** z\n  y = real(z)\n",
     "a power of a COMPLEX value is supported with an integer constant exponent from 1 to 4",
     "6:7"),
    ("  complex(8) :: z\n", "  z = cmplx(x, 1d0, kind=8)\n  z = z ** 5\n  y = real(z)\n",
     "integer constant exponent from 1 to 4", "6:7"),
    ("  complex(8) :: z(3)\n", "  z = x\n  where (real(z) > 0) z = 2 * z\n  y = real(z(1))\n",
     "COMPLEX values in this statement (Where_Stmt) are not supported", "6:3"),
    ("  complex(8) :: z(3), w(3)\n", "  z = x\n  w = z\n  z = z * w\n  y = real(z(1))\n",
     "a COMPLEX array assigned a value whose real and imaginary parts each read the other's",
     "7:3"),
    ("  complex(8) :: z(3)\n", "  z = x\n  y = real(dot_product(z, z))\n",
     "dot_product of a COMPLEX value is not supported", "6:12"),
    ("  complex(16) :: z\n", "  z = x\n  y = real(z)\n", "COMPLEX of kind 16 is not supported",
     "4:3"),
    ("  complex(8) :: z(3)\n", "  z = x\n  y = real(sum(z, dim=1))\n",
     "sum of COMPLEX values is supported for an array (no DIM or MASK)", "6:12"),
    ("  complex(8) :: z\n  integer :: i\n",
     "  z = x\n  y = 0\n  do i = 1, int(abs(z))\n    y = y + x\n  end do\n",
     "COMPLEX values in a DO statement's bounds are not supported", "8:3"),
    ("  complex(8) :: z\n", "  z = x\n  y = 0\n  do while (abs(exp(z * z + z)) < 4)\n"
     "    z = z * 1.5d0\n    y = y + x\n  end do\n",
     "needs a temporary, which cannot be set before it here", "7:3"),
])
def test_complex_refused(decl, body, message, place, tmp_path):
    """What adgen does not do with COMPLEX values is refused at its line."""
    text = (f"subroutine g(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n"
            f"{decl}{body}end subroutine g\n")
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert re.match(rf"{re.escape(str(src))}:{place}: error: ", proc.stderr), proc.stderr
    assert message in proc.stderr, proc.stderr


def test_character_array_dummy_of_a_head_refused(tmp_path):
    """A head's dummy that is a CHARACTER array is refused at its line (the generated
    Fortran interface and callers from C would need its layout)."""
    text = ("subroutine g(x, names, y)\n  real(8), intent(in) :: x\n"
            "  character(len=*), intent(in) :: names(2)\n  real(8), intent(out) :: y\n"
            "  y = x * x\n  if (names(1) == 'sq') y = y * x\nend subroutine g\n")
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert f"{src}:3:35: error: --head names 'g', whose dummy argument 'names' is a " \
        "CHARACTER array: not supported for a head" in proc.stderr, proc.stderr


def test_character_lengths_come_last(tmp_path):
    """The length of a CHARACTER dummy comes after all the other arguments, as gfortran
    passes it: after a function's seed fb, and after nbdirs in vector mode."""
    text = ("real(8) function energy(n, u, scheme)\n  integer, intent(in) :: n\n"
            "  real(8), intent(in) :: u(n)\n  character(len=*), intent(in) :: scheme\n"
            "  energy = sum(u**2)\n  if (scheme == 'quartic') energy = sum(u**4)\n"
            "end function energy\n")
    for mode, extra, want in (
            ("--reverse", (), "char *scheme, double *energyb, size_t scheme_len)"),
            ("--forward", ("--vector",),
             "char *scheme, double *energyd, int *nbdirs, size_t scheme_len)")):
        _, proc, out = _adgen(tmp_path, text, "energy(energy)/(u)", mode, extra=extra)
        assert proc.returncode == 0, proc.stderr
        assert want in out.read_text()


def test_check_takes_a_character_dummy_from_the_inputs(tmp_path):
    """adgen check passes a CHARACTER dummy the str --inputs gives (and its length),
    and asks for one when none is given."""
    src = tmp_path / "m.f90"
    src.write_text(_CHARACTER_HEAD)
    run = lambda *extra: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "adgen", "check", str(src), "--head", "flux(f)/(u)", *extra],
        cwd=ROOT, capture_output=True, text=True)
    proc = run()
    assert proc.returncode == 2, proc.stdout + proc.stderr      # a usage error
    assert "scheme is a CHARACTER string: give its value in --inputs" in proc.stderr
    assert "Traceback" not in proc.stderr
    for scheme in ("upwind", "central", "limit"):
        (tmp_path / "in.json").write_text(f'{{"scheme": "{scheme}", "n": 4}}')
        proc = run("--inputs", str(tmp_path / "in.json"))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert f'scheme = "{scheme}"' in proc.stdout and "PASS" in proc.stdout


def test_api_passes_character_strings(tmp_path):
    """The Python API takes a str for a CHARACTER dummy and passes its length after all
    the other arguments: each option's gradient is its own (against central differences
    of the primal called through the API)."""
    import numpy as np
    import adgen
    src = tmp_path / "flux.f90"
    src.write_text(_CHARACTER_HEAD)
    built = adgen.build(str(src), head="flux(f)/(u)", cache_dir=tmp_path / "cache")
    assert built.parameters == ["n", "u", "f", "scheme"]
    u = np.array([0.3, -1.2, 0.7, 2.0])
    grads = {}
    for scheme in ("upwind", "central", "limit"):
        g = built.vjp(4, u, np.zeros(4), scheme, seeds={"f": np.ones(4)})["u"]
        fd = np.zeros(4)
        for j in range(4):
            up, um, fp, fm = u.copy(), u.copy(), np.zeros(4), np.zeros(4)
            up[j] += 1e-6
            um[j] -= 1e-6
            built.primal(4, up, fp, scheme)
            built.primal(4, um, fm, scheme)
            fd[j] = (fp.sum() - fm.sum()) / 2e-6
        assert np.allclose(g, fd, rtol=1e-6, atol=1e-8), (scheme, g, fd)
        t = built.jvp(4, u, np.zeros(4), scheme, tangents={"u": np.ones(4)})["f"]
        assert np.isclose(t.sum(), g.sum())
        grads[scheme] = g
    assert not np.allclose(grads["upwind"], grads["central"])
    with pytest.raises(TypeError, match="must be a str"):
        built.vjp(4, u, np.zeros(4), 3, seeds={"f": np.ones(4)})


@pytest.mark.parametrize("call", ["call random_number(z)", "call date_and_time(t)"])
def test_intrinsic_subroutines_refused(call, tmp_path):
    """An intrinsic subroutine adgen does not know is refused by name at its line (it was
    taken for an external procedure whose source was missing)."""
    name = call.split()[1].split("(")[0]
    text = ("subroutine g(x, y)\n  real(8), intent(in) :: x\n  real(8), intent(out) :: y\n"
            "  real(8) :: z\n  character(len=10) :: t\n"
            f"  z = 1d0\n  {call}\n  y = z * x\nend subroutine g\n")
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert f"{src}:7:8: error: the intrinsic subroutine '{name}' is not supported" in \
        proc.stderr, proc.stderr


_REALLOCATED = ("subroutine g(a, y)\n  real(8) :: a(6), y\n"
                "  real(8), allocatable :: w(:)\n  integer :: i, j\n  w = a\n")


@pytest.mark.parametrize("text, message, place", [
    (_REALLOCATED + "  w = [((a(i) * j, i = 1, 2), j = 1, 2)]\n", "cannot tell the length "
     "of the array constructor assigned to the allocatable 'w'", "6:3"),
    (_REALLOCATED + "  w = [(a(i:i + 1), i = 1, 2)]\n", "cannot tell the length "
     "of the array constructor assigned to the allocatable 'w'", "6:3"),
])
def test_reallocating_assignments_refused(text, message, place, tmp_path):
    """An assignment to a whole local allocatable array reallocates it to the value's
    shape (allocatable_assignment.f90); where adgen cannot tell that shape it is
    refused."""
    src, proc, _ = _adgen(tmp_path, text + "  y = sum(w)\nend subroutine g\n", "g(y)/(a)")
    assert proc.returncode == 1
    assert f"{src}:{place}: error:" in proc.stderr and message in proc.stderr, proc.stderr


_KEPT_SHAPE_HEAD = ("  integer, intent(in) :: n, k\n  real(8), intent(in) :: x(n)\n"
                    "  real(8), intent(out) :: cost\n")
_KEPT_SHAPE_MAIN = r"""#include <stdio.h>
#include <stdlib.h>
void f_b_(int *n, int *k, double *x, double *xb, double *cost, double *costb);
int main(int argc, char **argv)
{
    int n = 6, k = argc > 1 ? atoi(argv[1]) : 6, i;
    double x[6] = {0.5, 0.7, 0.9, 1.1, 1.3, 1.5}, xb[6] = {0}, cost = 0, costb = 1;
    f_b_(&n, &k, x, xb, &cost, &costb);
    for (i = 0; i < n; i++)
        if (xb[i] != 2 * x[i])
            return 1;
    puts("PASS");
    return 0;
}
"""


_ALLOCATED_LOCAL = ("subroutine f(n, k, x, cost)\n" + _KEPT_SHAPE_HEAD +
                    "  real(8), allocatable :: a(:)\n  integer :: i\n  allocate(a(n))\n"
                    "%s  end do\n  cost = sum(a**2)\nend subroutine f\n")


@pytest.mark.parametrize("text, line, name, allocated", [
    # allocated by the procedure, assigned in a checkpointed loop
    (_ALLOCATED_LOCAL % ("  a = 0\n  !$AD BINOMIAL-CKP 3 2 1\n  do i = 1, 3\n"
                         "    a = x(1:k) + a * 0\n"), 11, "a", True),
    # allocated by the procedure, assigned in a loop from a value that does not read it
    (_ALLOCATED_LOCAL % "  do i = 1, 2\n    a = x(1:k)\n", 9, "a", True),
    # an allocatable dummy
    ("module mm\ncontains\n  subroutine fill(a, x, k)\n"
     "    real(8), allocatable, intent(inout) :: a(:)\n    real(8), intent(in) :: x(:)\n"
     "    integer, intent(in) :: k\n    a = x(1:k)\n  end subroutine fill\nend module mm\n"
     "subroutine f(n, k, x, cost)\n  use mm\n" + _KEPT_SHAPE_HEAD +
     "  real(8), allocatable :: a(:)\n  allocate(a(n))\n  call fill(a, x, k)\n"
     "  cost = sum(a**2)\nend subroutine f\n", 7, "a", True),
    # a host's array, assigned in an internal procedure
    ("subroutine f(n, k, x, cost)\n" + _KEPT_SHAPE_HEAD +
     "  real(8), allocatable :: a(:)\n  a = x\n  call inner()\n  cost = sum(a**2)\n"
     "contains\n  subroutine inner()\n    a = x(1:k)\n  end subroutine inner\n"
     "end subroutine f\n", 11, "a", True),
    # a component
    ("module mm\n  type box\n    real(8), allocatable :: w(:)\n  end type box\n"
     "end module mm\nsubroutine f(n, k, x, cost)\n  use mm\n" + _KEPT_SHAPE_HEAD +
     "  type(box) :: s\n  allocate(s%w(n))\n  s%w = x(1:k)\n  cost = sum(s%w**2)\n"
     "end subroutine f\n", 13, "s%w", True),
    # a module variable the caller has not allocated
    ("module mm\n  integer, allocatable :: g(:)\nend module mm\n"
     "subroutine f(n, k, x, cost)\n  use mm\n" + _KEPT_SHAPE_HEAD +
     "  g = nint(x(1:k))\n  cost = sum(x**2) + sum(g) * 0\nend subroutine f\n", 9, "g",
     False),
], ids=["allocated_local_checkpointed", "allocated_local_in_loop", "allocatable_dummy", "host_array", "component",
        "module_variable"])
def test_kept_shape_checked_at_run_time(text, line, name, allocated, tmp_path, gfortran):
    """An allocatable array that keeps its storage in the derivative code, assigned a value
    of another shape (or while not allocated), where Fortran would reallocate it: the
    adjoint stops with the place and the reason instead of assigning the wrong elements
    (it used to give wrong derivatives silently). With the shapes agreeing it runs."""
    src, proc, out = _adgen(tmp_path, text, "f(cost)/(x)", out="m_b.c")
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "main.c").write_text(_KEPT_SHAPE_MAIN)
    # the primal's object gives the module variables
    for cmd in (["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "main.c", "m_b.c"],
                [gfortran, "-c", "m.f90"], [gfortran, "-o", "main", "main.o", "m_b.o", "m.o"]):
        build = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
        assert build.returncode == 0, build.stderr
    run = lambda k: subprocess.run([str(tmp_path / "main"), str(k)], capture_output=True,
                                   text=True)
    same, other = run(6), run(3)
    expected = f"m.f90:{line}: error: '{name}' assigned a value of another shape, or not " \
        "allocated: Fortran would reallocate it"
    if allocated:
        assert same.returncode == 0 and "PASS" in same.stdout, same.stdout + same.stderr
    else:
        assert same.returncode != 0 and expected in same.stderr, same.stderr
    assert other.returncode != 0 and "PASS" not in other.stdout, other.stdout
    assert expected in other.stderr, other.stderr


def test_module_allocatables_left_as_the_primal_leaves_them(tmp_path, gfortran):
    """The adjoint of testsuite/fortran/module_allocatables_allocated.f90 called from a
    Fortran main, first with the kept work array `w` unallocated, then with it allocated:
    both calls give the same gradient, which central differences of the gfortran-compiled
    primal confirm; after each, the module holds what the primal leaves (`w` allocated with
    its bounds and values, the rest deallocated)."""
    shutil.copy(ROOT / "testsuite" / "fortran" / "module_allocatables_allocated.f90",
                tmp_path / "model.f90")
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", "model.f90", "--head",
                           "simulate(cost)/(u0 kappa)", "-o", "model_b.c"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "main.f90").write_text("""\
program main
  use state
  implicit none
  integer, parameter :: n = 5, nsteps = 3
  real(8) :: u0(n), u0b(n), g(n), kappa, kappab, cost, costb, c1, c2, w_left(n)
  integer :: i
  u0 = [(0.6d0 + 0.15d0 * i, i = 1, n)]
  kappa = 0.3d0
  if (allocated(w)) stop 1
  u0b = 0; kappab = 0; costb = 1
  call simulate_b(n, nsteps, u0, u0b, kappa, kappab, cost, costb)
  if (.not. allocated(w) .or. allocated(u) .or. allocated(flux) .or. allocated(hist) &
      .or. allocated(perm) .or. allocated(scratch)) stop 2
  if (lbound(w, 1) /= 1 .or. ubound(w, 1) /= n) stop 3
  w_left = w
  g = u0b
  call simulate(n, nsteps, u0, kappa, c1)
  if (abs(cost - c1) > 1d-13 * abs(c1) .or. any(w /= w_left)) stop 4
  u0b = 0; kappab = 0; costb = 1
  call simulate_b(n, nsteps, u0, u0b, kappa, kappab, cost, costb)
  if (any(abs(u0b - g) > 1d-13 * maxval(abs(g))) .or. any(w /= w_left)) stop 5
  call simulate(n, nsteps, u0, kappa + 1d-6, c1)
  call simulate(n, nsteps, u0, kappa - 1d-6, c2)
  if (abs((c1 - c2) / 2d-6 - kappab) > 1d-6 * max(1d0, abs(kappab))) stop 6
  u0(2) = u0(2) + 1d-6
  call simulate(n, nsteps, u0, kappa, c1)
  u0(2) = u0(2) - 2d-6
  call simulate(n, nsteps, u0, kappa, c2)
  if (abs((c1 - c2) / 2d-6 - g(2)) > 1d-6 * max(1d0, abs(g(2)))) stop 7
  print *, 'PASS'
end program main
""")
    _build_and_run_main(tmp_path, (
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "model_b.c"],
        [gfortran, "-c", "model.f90"],
        [gfortran, "-o", "main", "main.f90", "model.o", "model_b.o"]))


@pytest.mark.parametrize("body, place, message", [
    # the entry's statements jump back to a label before the ENTRY statement
    ("10 y = y + a\n  if (y < 1d0) goto 10\n  return\n  entry t(a, y)\n  y = 2 * a\n"
     "  if (y < 5d0) goto 10\n", "8:3", "the code of ENTRY 't' jumps to label 10, before the "
     "ENTRY statement: not supported"),
    # an ENTRY statement inside a construct (the standard does not allow it)
    ("y = a\n  if (a > 0) then\n    entry t(a, y)\n    y = 2 * a\n  end if\n", "5:5",
     "an ENTRY statement inside a construct"),
])
def test_entry_refused(body, place, message, tmp_path):
    """What adgen does not do with ENTRY statements is refused at its line."""
    text = f"subroutine s(a, y)\n  real(8) :: a, y\n  {body}end subroutine s\n"
    src, proc, _ = _adgen(tmp_path, text, "s(y)/(a)")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"{src}:{place}: error: {message}"), proc.stderr


def test_move_alloc_of_a_module_variable_refused(tmp_path):
    """move_alloc is supported between local allocatable arrays; of a module variable
    (gfortran's descriptor) it is refused at its line, naming what is supported."""
    text = ("module m\n  real(8), allocatable :: keep(:)\ncontains\n"
            "  subroutine g(x, y)\n    real(8), intent(in) :: x\n    real(8), intent(out) :: y\n"
            "    real(8), allocatable :: t(:)\n    allocate(t(2))\n    t = x\n"
            "    call move_alloc(t, keep)\n    y = keep(1) * keep(2)\n  end subroutine g\n"
            "end module m\n")
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"{src}:10:24: error: move_alloc of 'keep': supported for "
                                  "local allocatable arrays"), proc.stderr


def test_separate_module_procedure_without_interface_refused(tmp_path):
    """`module procedure f ... end procedure` in a submodule takes its dummies from the
    module's `module function f` interface: with none (here a plain interface, no MODULE
    prefix), it is refused at its line, not read as a procedure without dummies."""
    text = ("module m\n  interface\n    function sq(x) result(y)\n"
            "      real(8), intent(in) :: x\n      real(8) :: y\n    end function\n"
            "  end interface\nend module m\nsubmodule (m) m_impl\ncontains\n"
            "  module procedure sq\n    y = x * x\n  end procedure\nend submodule\n"
            "subroutine g(x, y)\n  use m\n  real(8) :: x, y\n  y = sq(x)\nend subroutine g\n")
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"{src}:11:3: error: 'module procedure sq': module 'm' "
                                  "declares no interface `module subroutine sq` or `module "
                                  "function sq` for it"), proc.stderr


def test_separate_module_procedure_outside_module_refused(tmp_path):
    """A `module procedure f` body outside a module or submodule has no interface to take
    its dummies from: refused, not read as a subroutine without dummies."""
    text = ("subroutine g(x, y)\n  real(8) :: x, y\n  y = x\nend subroutine g\n"
            "module procedure sq\n  y = x * x\nend procedure\n")
    src, proc, _ = _adgen(tmp_path, text, "g(y)/(x)")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"{src}:5:1: error: 'module procedure sq' is the body "
                                  "of a separate module procedure"), proc.stderr


STOPPING = """\
subroutine step(mode, x, y)
  integer, intent(in) :: mode
  real(8), intent(in) :: x
  real(8), intent(out) :: y
  y = x * x
  if (mode == 1) stop
  if (mode == 2) stop 'no convergence'
  if (mode == 3) stop 3
  if (mode == 4) error stop
  if (mode == 5) error stop 'singular'
  if (mode == 6) error stop mode + 1
  y = y + sin(x)
end subroutine step
"""

_STOP_MAIN = """\
program main
  implicit none
  integer :: mode
  character(len=8) :: arg
  real(8) :: x, y, xb, yb, xd, yd
  call get_command_argument(1, arg)
  read (arg, *) mode
  x = 0.5d0
  {call}
  print *, 'went on'
end program main
"""


@pytest.mark.parametrize("mode", ["--reverse", "--forward"])
def test_stop_ends_the_derivative_code_as_it_ends_the_program(mode, tmp_path, gfortran):
    """STOP and ERROR STOP end the derivative code where they end the primal, with the
    message gfortran prints and its exit status; where no stop is reached, the code goes
    on and its derivative is right."""
    src, proc, out = _adgen(tmp_path, STOPPING, "step(y)/(x)", mode)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr, proc.stderr
    call = ("yb = 1d0\n  xb = 0d0\n  call step_b(mode, x, xb, y, yb)\n"
            "  if (mode == 0 .and. abs(xb - (2 * x + cos(x))) > 1d-14) error stop 'xb'"
            if mode == "--reverse" else
            "xd = 1d0\n  call step_d(mode, x, xd, y, yd)\n"
            "  if (mode == 0 .and. abs(yd - (2 * x + cos(x))) > 1d-14) error stop 'yd'")
    (tmp_path / "derivative.f90").write_text(_STOP_MAIN.format(call=call))
    (tmp_path / "primal.f90").write_text(_STOP_MAIN.format(call="call step(mode, x, y)"))
    run = lambda cmd: subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    for cmd in (["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", out.name],
                [gfortran, "-o", "derivative", "derivative.f90", out.stem + ".o", "-lm"],
                [gfortran, "-o", "primal", "primal.f90", src.name]):
        built = run(cmd)
        assert built.returncode == 0, f"{' '.join(cmd)}: {built.stderr}"
    for case in range(7):
        primal, derivative = (run([str(tmp_path / name), str(case)])
                              for name in ("primal", "derivative"))
        assert ("went on" in derivative.stdout) == (case == 0), derivative.stdout
        assert derivative.returncode == primal.returncode, (case, derivative.stderr)
        # (gfortran follows ERROR STOP with a backtrace)
        first = lambda proc: (proc.stderr.strip().splitlines() or [""])[0].strip()
        assert first(derivative) == first(primal), (case, derivative.stderr, primal.stderr)
