"""Derivative rules (--rules FILE, #pragma adgen rule): the generated code calls the user's
NAME_b / NAME_d. Their derivatives are checked against finite differences by the test
suite (testsuite/c/user_rule_solve.c); here: the pragma form, the declarations, the errors."""
import subprocess
import sys
import textwrap

import pytest

SRC = """
    void scale(int n, const double *a, double *y);
    {pragma}
    void model(int n, const double *a, double *y, double *out)
    {{
        int i;
        scale(n, a, y);
        out[0] = 0.0;
        for (i = 0; i < n; i++)
            out[0] += y[i] * y[i];
    }}
"""


def run(tmp_path, pragma, *args):
    src = tmp_path / "m.c"
    src.write_text(textwrap.dedent(SRC.format(pragma=pragma)))
    return subprocess.run([sys.executable, "-m", "adgen", str(src), "--head",
                           "model(out)/(a)", "-o", str(tmp_path / "out.c")] + list(args),
                          capture_output=True, text=True)


def test_pragma_rule_declares_and_calls_the_users_routines(tmp_path):
    r = run(tmp_path, "#pragma adgen rule scale(y)/(a) a=n y=n", "--reverse")
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "out.c").read_text()
    assert "void scale_b(int n, const double *a, double *ab, double *y, double *yb);" in text
    assert "scale_b(n, a, " in text
    r = run(tmp_path, "#pragma adgen rule scale(y)/(a) a=n y=n", "--forward")
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "out.c").read_text()
    assert "void scale_d(int n, const double *a, const double *ad, double *y, double *yd);" \
        in text


@pytest.mark.parametrize("rule, message", [
    ("scale(y)/(b) y=n", "names 'b', which is not one of its parameters"),
    ("scale(y)/(a) y=n", "give the length of 'a'"),
    ("scale(y)/(n) y=n", "'n' is not floating-point data"),
    ("scale(y)(a)", "malformed rule"),
    ("nosuch(y)/(a)", "rule for 'nosuch', which is not a function of the input"),
])
def test_rule_errors(tmp_path, rule, message):
    r = run(tmp_path, "#pragma adgen rule " + rule, "--reverse")
    assert r.returncode == 1
    assert "m.c:3:" in r.stderr and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_rules_file_errors_name_the_line(tmp_path):
    (tmp_path / "r.rules").write_text("# rules\n\nscale(y)/(a) a=n\n")
    r = run(tmp_path, "", "--rules", str(tmp_path / "r.rules"))
    assert r.returncode == 1 and "r.rules:3:1: error:" in r.stderr and "'y'" in r.stderr
    r = run(tmp_path, "", "--rules", str(tmp_path / "missing.rules"))
    assert r.returncode == 1 and "cannot read the rules file" in r.stderr


BLAS = """
    #include <cblas.h>
    {pragma}
    double model(int n, const double *a, double *y)
    {{
        cblas_dcopy(n, a, 1, y, 1);
        cblas_dscal(n, 2.0, y, 1);
        return cblas_ddot(n, y, 1, a, 1);
    }}
"""


@pytest.mark.parametrize("mode", ["--reverse", "--forward"])
def test_builtin_cblas_rules_are_defined_in_the_output(tmp_path, mode):
    src = tmp_path / "m.c"
    src.write_text(textwrap.dedent(BLAS.format(pragma="")))
    out = tmp_path / "out.c"
    r = subprocess.run([sys.executable, "-m", "adgen", str(src), mode, "--head",
                        "model(model)/(a)", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    suffix = "_b" if mode == "--reverse" else "_d"
    for name in ("cblas_dcopy", "cblas_dscal", "cblas_ddot"):
        assert f"static {'double' if name == 'cblas_ddot' and suffix == '_d' else 'void'} " \
               f"{name}{suffix}(" in text, name
        if mode == "--reverse":     # the kernel itself, declared and called forward
            assert f"{name}(const int N" in text
    assert "cblas_daxpy" not in text and "#include <cblas.h>" not in text
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", str(out), "-o",
                    str(tmp_path / "out.o")], check=True)


def test_arrays_given_to_a_ruled_function_stay_apart(tmp_path):
    """The arrays given to cblas_ddot at different calls are different memory: the
    helper's local t (which it writes) is not the head's x or c. When the calls' arrays
    were made one memory, the helper's call in joint mode kept and brought back x and c
    (through their const pointers: the output did not compile)."""
    src = tmp_path / "m.c"
    src.write_text(textwrap.dedent("""\
        #include <cblas.h>
        static double helper(const double *u)
        {
            double t[4];
            int i;
            for (i = 0; i < 4; i++)
                t[i] = u[i] * u[i];
            return cblas_ddot(4, t, 1, t, 1);
        }
        void f(int n, const double *x, const double *c, double *y)
        {
            y[0] = cblas_ddot(n, c, 1, x, 1);
        #pragma adgen checkpoint
            y[1] = helper(x) * y[0];
        }
    """))
    out = tmp_path / "out.c"
    r = subprocess.run([sys.executable, "-m", "adgen", str(src), "--reverse", "--head",
                        "f(y)/(x c)", "--size", "x=n", "--size", "c=n", "--size", "y=2",
                        "--explain", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "call of helper: joint mode (#pragma adgen checkpoint)" in r.stdout
    text = out.read_text()
    assert "adgen_keep(x" not in text and "adgen_pop(c" not in text
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", str(out), "-o",
                    str(tmp_path / "out.o")], check=True)


def test_a_users_rule_replaces_the_builtin_one(tmp_path):
    src = tmp_path / "m.c"
    src.write_text(textwrap.dedent(BLAS.format(
        pragma="#pragma adgen rule cblas_ddot(cblas_ddot)/(X Y) X=N Y=N")))
    out = tmp_path / "out.c"
    r = subprocess.run([sys.executable, "-m", "adgen", str(src), "--head",
                        "model(model)/(a)", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "static void cblas_ddot_b(" not in text
    assert "void cblas_ddot_b(const int N" in text         # declared: the user's
    assert "static void cblas_dscal_b(" in text


def test_fortran_rules_call_the_external_derivative_subroutines(tmp_path):
    src = tmp_path / "m.f90"
    src.write_text(textwrap.dedent("""\
        subroutine sq(n, u, v)
          integer, intent(in) :: n
          real(8), intent(in) :: u(n)
          real(8), intent(out) :: v(n)
          v = u * u
        end subroutine sq
        real(8) function g(x)
          real(8), intent(in) :: x
          g = x * x
        end function g
        subroutine model(n, x, y)
          integer, intent(in) :: n
          real(8), intent(in) :: x(n)
          real(8), intent(out) :: y
          real(8) :: w(n)
          call sq(n, x, w)
          y = sum(w) + g(x(1))
        end subroutine model
        """))
    rules = tmp_path / "r.rules"
    rules.write_text("sq(v)/(u)  u=n v=n\n")
    out = tmp_path / "m_b.c"
    cmd = [sys.executable, "-m", "adgen", "--reverse", str(src), "--head", "model(y)/(x)",
           "--rules", str(rules), "-o", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    # every argument by reference, gfortran's symbol; the lengths read *n
    assert "void sq_b_(int *n, double *u, double *ub, double *v, double *vb);" in text
    assert "sq_b_(n, x, " in text
    # lengths default to the declarations (a scalar: 1, u(n): n); a function's result
    # seed is passed by reference, as every Fortran argument
    rules.write_text("sq(v)/(u)\ng(g)/(x)\n")
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "void g_b_(double *x, double *xb, double *gb);" in text
    assert "sq_b_(n, x, " in text
    # an assumed-size array has no declared length: the rule must give it
    src.write_text(src.read_text().replace("real(8), intent(in) :: u(n)",
                                           "real(8), intent(in) :: u(*)"))
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 1 and "r.rules:1:1: error:" in r.stderr and \
        "give the length of 'u'" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


FORTRAN_BLAS = """\
    subroutine model(n, a, y, s)
      integer, intent(in) :: n
      real(8), intent(in) :: a(n)
      real(8), intent(out) :: y(n), s
      double precision, external :: ddot
      call dcopy(n, a, 1, y, 1)
      call dscal(n, 2.0d0, y, 1)
      s = ddot(n, y, 1, a, 1)
    end subroutine model
"""


def _fortran_blas(tmp_path, text, *args):
    src = tmp_path / "m.f90"
    src.write_text(textwrap.dedent(text))
    out = tmp_path / "m_b.c"
    r = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                        "model(s)/(a)", "-o", str(out), *args], capture_output=True, text=True)
    assert "Traceback" not in r.stderr
    return r, out


def test_fortran_blas_builtin_rules_and_a_users_in_place_of_one(tmp_path):
    r, out = _fortran_blas(tmp_path, FORTRAN_BLAS)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    for name in ("dcopy", "dscal", "ddot"):      # defined in the output, the kernel called
        assert f"static void {name}_b_(const int *n, " in text and f" {name}_(" in text, name
    assert "daxpy" not in text
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", str(out), "-o",
                    str(tmp_path / "out.o")], check=True)
    rules = tmp_path / "r.rules"
    rules.write_text("ddot(ddot)/(dx dy)  dx=n dy=n\n")
    r, out = _fortran_blas(tmp_path, FORTRAN_BLAS, "--rules", str(rules))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "static void ddot_b_(" not in text
    assert "void ddot_b_(int *n, double *dx, double *dxb, int *incx" in text   # the user's
    assert "static void dscal_b_(" in text


@pytest.mark.parametrize("change", [
    ("double precision, external :: ddot", "real, external :: ddot"),   # a REAL result
    ("call dscal(n, 2.0d0, y, 1)", "call dscal(n, 2.0, y, 1)"),         # a REAL scale
    ("call dcopy(n, a, 1, y, 1)", "call dcopy(n, a, y, 1)"),            # an argument short
])
def test_fortran_blas_called_otherwise_is_an_unknown_external(tmp_path, change):
    r, _ = _fortran_blas(tmp_path, FORTRAN_BLAS.replace(*change))
    name = change[0].split()[-1] if "external" in change[0] else change[0].split("(")[0][5:]
    assert r.returncode == 1 and f"call to unknown external function '{name}'" in r.stderr, \
        r.stderr


C_FORTRAN_BLAS = """
    double ddot_(const int *n, const double *x, const int *incx, const double *y,
                 const int *incy);
    void model(int n, const double *a, double *s)
    {
        int one = 1;
        s[0] = ddot_(&n, a, &one, a, &one);
    }
"""


@pytest.mark.parametrize("change", [
    None,
    ("const int *n,", "const long *n,"),        # 64-bit integers: another library's kernel
    ("const double *y,", "const float *y,"),    # single precision
])
def test_fortran_blas_called_from_c(tmp_path, change):
    """C input calling a Fortran BLAS kernel under gfortran's symbol gets the built-in
    rule when the arguments are the reference BLAS's, and the unknown-external error
    otherwise."""
    src = tmp_path / "m.c"
    src.write_text(textwrap.dedent(C_FORTRAN_BLAS if change is None
                                   else C_FORTRAN_BLAS.replace(*change)))
    out = tmp_path / "m_b.c"
    r = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                        "model(s)/(a)", "-o", str(out)], capture_output=True, text=True)
    assert "Traceback" not in r.stderr
    if change is None:
        assert r.returncode == 0, r.stderr
        assert "static void ddot__b(const int *n, " in out.read_text()
    else:
        assert r.returncode == 1 and "unknown external function 'ddot_'" in r.stderr, \
            r.stderr
