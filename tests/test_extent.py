"""Array-length inference (adgen.analysis.extent): the number of elements a function
touches, which sizes the zeroing of gradients and internal adjoint storage."""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from adgen.analysis.extent import ExtentAnalysis, Unknown
from adgen.analysis.poly import Poly, range_sum
from adgen.ir.c_text import expr_c
from adgen.driver import Options, load_program, normalize_program, structure_program


def extent_of(tmp_path, source, func, param, **sizes):
    """The inferred element count of `param` in `func`, evaluated for the given sizes."""
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(source))
    prog = load_program([str(path)], Options())
    bodies = [f.name for f in prog.functions.values() if f.has_body]
    normalize_program(prog, bodies)
    structure_program(prog, bodies)
    f = prog.functions[func]
    p = next(q for q in f.params if q.name == param)
    text = expr_c(ExtentAnalysis(prog).max_index(f, p))
    env = dict(sizes, adgen_imax=max)
    return eval(text.replace("/", "//"), {}, env) + 1, text


TRIANGLE = """
    void tri(int d, const double *x, const double *ltri, double *out)
    {
        int i, j, c = 0;
        for (i = 0; i < d; i++) out[i] = x[i];
        for (i = 0; i < d; i++) {
            for (j = i + 1; j < d; j++) {
                out[j] = out[j] + ltri[c] * x[i];
                c++;
            }
        }
    }
"""


@pytest.mark.parametrize("d", [1, 2, 5, 64])
def test_packed_triangle_counter(tmp_path, d):
    n, _ = extent_of(tmp_path, TRIANGLE, "tri", "ltri", d=d)
    assert n == d * (d - 1) // 2


def test_counter_through_three_loops_and_downward(tmp_path):
    src = """
        void f(int n, int m, const double *a, double *out)
        {
            int i, j, l, c = 3;
            for (i = n - 1; i >= 0; i--)
                for (j = 0; j <= i; j++)
                    for (l = 0; l < m; l++) {
                        out[0] = out[0] + a[c];
                        c = c + 1;
                    }
        }
    """
    for n, m in [(1, 1), (4, 2), (7, 3)]:
        count, _ = extent_of(tmp_path, src, "f", "a", n=n, m=m)
        assert count == 3 + m * n * (n + 1) // 2


@pytest.mark.parametrize("body", [
    # read after the nest: the counter is past the last element there
    "for (i = 0; i < d; i++) for (j = i; j < d; j++) { out[0] += a[c]; c++; }"
    " out[1] = a[c];",
    # an iteration may stop before the increment
    "for (i = 0; i < d; i++) for (j = i; j < d; j++) { if (j > 3) break; out[0] += a[c]; c++; }",
    # the increment is conditional
    "for (i = 0; i < d; i++) for (j = i; j < d; j++) { out[0] += a[c]; if (j > 1) c++; }",
    # an inner loop that may run a negative number of times
    "for (i = 0; i < d; i++) for (j = 2; j < i; j++) { out[0] += a[c]; c++; }",
])
def test_counter_shapes_that_are_refused(tmp_path, body):
    src = f"""
        void f(int d, const double *a, double *out)
        {{
            int i, j, c = 0;
            {body}
        }}
    """
    with pytest.raises(Unknown):
        extent_of(tmp_path, src, "f", "a", d=4)


def test_poly_sums_and_printing():
    i = Poly.atom("i", None)
    d = Poly.atom("d", None)
    # sum_{i=0}^{d-1} (d - 1 - i) = d (d - 1) / 2
    s = range_sum(d - Poly.const(1) - i, "i", Poly.const(0), d - Poly.const(1))
    assert s.terms == (d * d - d).scale(0.5).terms
    # sum_{i=1}^{d} i^2 = d (d + 1) (2 d + 1) / 6
    sq = range_sum(i * i, "i", Poly.const(1), d)
    for v in range(6):
        assert sq.substitute("d", Poly.const(v)).constant_value() == \
            sum(k * k for k in range(1, v + 1))


def test_an_extent_asked_for_again_gives_the_first_reason(tmp_path):
    """The extent of an array adgen cannot size is asked for more than once; each time the
    error gives the reason found the first time (it used to say "used recursively")."""
    src = Path(__file__).resolve().parent.parent / "testsuite" / "c" / "pointer_walk.c"
    r = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                        "walk_filters(y)/(x)", "-o", str(tmp_path / "out.c")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "an alias of 'y' is set under a condition; give it with --size y=EXPR" in \
        r.stderr, r.stderr


def test_extent_of_a_pointer_field(tmp_path):
    """The length of what a parameter's pointer field points to (`m->x`, `m->mat->k`), also
    through a callee the handle is passed to; unknown when the head sets the field."""
    source = textwrap.dedent("""
        typedef struct { double *k; } Material;
        typedef struct { int n; double *x; Material *mat; } Mesh;
        static double cell(const Mesh *m, int i) { return m->x[i + 1] - m->x[i]; }
        double f(const Mesh *m)
        {
            double s = 0.0;
            for (int i = 0; i < m->n; i++)
                s += cell(m, i) * m->mat->k[i];
            return s;
        }
        double g(Mesh *m, double *y)
        {
            m->x = y;
            return m->x[0];
        }
    """)
    path = tmp_path / "prog.c"
    path.write_text(source)
    prog = load_program([str(path)], Options())
    bodies = [f.name for f in prog.functions.values() if f.has_body]
    normalize_program(prog, bodies)
    structure_program(prog, bodies)
    an = ExtentAnalysis(prog)
    f, g = prog.functions["f"], prog.functions["g"]
    assert expr_c(an.max_index(f, f.params[0], ("x",))) == "m->n"
    assert expr_c(an.max_index(f, f.params[0], ("mat", "k"))) == "m->n - 1"
    assert expr_c(an.max_index(f, f.params[0], ("mat",))) == "0"
    with pytest.raises(Unknown, match="'m->x' is reassigned"):
        an.max_index(g, g.params[0], ("x",))


def test_extent_down_a_call_chain_stays_flat(tmp_path):
    """Each function of a chain touches x[0..n-1] and passes x on: the head's extent is one
    maximum of the distinct indices, not a maximum nested once per call (which made a chain
    of 300 functions take minutes and print a line of kilobytes)."""
    source = "".join(
        f"""
        double f{i}(int n, double *x)
        {{
            double s = x[0];
            for (int k = 1; k < n; k++)
                s += x[k] * x[k - 1];
            return s{f" + f{i + 1}(n, x)" if i < 19 else ""};
        }}
        """ for i in range(19, -1, -1))
    count, text = extent_of(tmp_path, source, "f0", "x", n=7)
    assert count == 7
    assert text == "adgen_imax(n - 1, 0)"


F2C_MATRIX = """
    void f(int m, int n, double *a, int lda, double *y)
    {
        int a_dim1, a_offset, i, j;
        a_dim1 = lda;
        a_offset = 1 + a_dim1;
        a -= a_offset;
        --y;
        for (i = 1; i <= m; ++i)
            for (j = 1; j <= n; ++j)
                y[i] = y[i] + a[i + j * a_dim1];
        y[m] = y[m] * y[1];
    }
"""


@pytest.mark.parametrize("m,n,lda", [(1, 1, 1), (3, 4, 5), (7, 2, 7)])
def test_pointers_moved_back_before_one_based_loops(tmp_path, m, n, lda):
    # f2c's `a -= a_offset; --y;`: each read is at the moved offset, also outside the loops
    assert extent_of(tmp_path, F2C_MATRIX, "f", "a", m=m, n=n, lda=lda)[0] == \
        m + (n - 1) * lda
    assert extent_of(tmp_path, F2C_MATRIX, "f", "y", m=m, n=n, lda=lda)[0] == m


@pytest.mark.parametrize("body", [
    "double *p = y; p[0] = 1.0; --p; p[1] = 2.0;",         # read before it moves
    "double *p = y; for (i = 0; i < n; i++) { ++p; p[0] = 1.0; }",     # moved in a loop
    "double *p = y; if (n > 2) --p; p[1] = 1.0;",           # moved under a condition
])
def test_moved_pointers_the_offset_of_which_varies_are_unknown(tmp_path, body):
    src = f"void f(int n, double *y) {{ int i = 0; {body} (void)i; }}"
    with pytest.raises(Unknown):
        extent_of(tmp_path, src, "f", "y", n=3)
