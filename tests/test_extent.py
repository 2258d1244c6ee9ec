"""Array-length inference (adgen.analysis.extent): the number of elements a function
touches, which sizes the zeroing of gradients and internal adjoint storage."""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from adgen.analysis.extent import ExtentAnalysis, Unknown
from adgen.analysis.poly import Poly, nonneg_within, range_sum
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


def test_poly_substitution_of_a_number_agrees_with_the_general_one():
    """Substituting a number (a type's size) takes one pass over the terms; substituting
    the polynomial (number + 0 * atom), which is not a number, takes the general route."""
    import random
    from fractions import Fraction
    rng = random.Random(7)
    keys = ["n", "m", "sizeof(double)"]
    for _ in range(300):
        p = Poly()
        for _ in range(rng.randint(1, 5)):
            term = Poly.const(Fraction(rng.randint(-9, 9), rng.randint(1, 3)))
            for _ in range(rng.randint(0, 3)):
                term = term * Poly.atom(rng.choice(keys), None)
            p = p + term
        key, c = rng.choice(keys), rng.randint(-3, 8)
        general = Poly({(): Fraction(c), ("m", "n"): Fraction(1)})
        general.terms[("m", "n")] = Fraction(0)     # a zero term: not a number to it
        assert general.constant_value() is None
        assert p.substitute(key, Poly.const(c)).terms == p.substitute(key, general).terms


def test_nonneg_within_a_slope_of_sizes_and_outer_counters():
    class Var:      # a loop counter (its name keys its atom)
        def __init__(self, name):
            self.name = name
    i, k = Var("i"), Var("k")
    n = Poly.atom("n", None)
    pi, pk, one = Poly.atom("i", None), Poly.atom("k", None), Poly.const(1)
    loops = [(i, Poly.const(0), n - one), (k, pi + one, n - one)]     # k > i
    # (k - i) * n: the slope of k is n, of i -n; smallest at k = i + 1
    assert nonneg_within((pk - pi) * n - n, loops)
    assert not nonneg_within((pk - pi) * n - n - one, loops)
    assert not nonneg_within((pi - pk) * n, loops)
    # a slope whose sign the loops do not fix: k - i - 1 may be 0 or more, n - 2 either
    assert not nonneg_within(pk * (n - Poly.const(2)), loops)


def test_an_extent_asked_for_again_gives_the_first_reason(tmp_path):
    """The extent of an array adgen cannot size is asked for more than once; each time the
    error gives the reason found the first time (it used to say "used recursively")."""
    src = Path(__file__).resolve().parent.parent / "testsuite" / "c" / "pointer_walk.c"
    r = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                        "walk_filters(y)/(x)", "-o", str(tmp_path / "out.c")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "an alias of 'y' walks over it in a while loop, whose iterations adgen does " \
        "not count; give it with --size y=EXPR" in r.stderr, r.stderr


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


@pytest.mark.parametrize("body, count", [
    ("double *p = y; p[0] = 1.0; --p; p[1] = 2.0;", 1),     # read before it moves
    ("double *p = y; for (i = 0; i < n; i++) { ++p; p[0] = 1.0; }", 4),     # in a loop
])
def test_moved_pointers_followed_where_they_are_read(tmp_path, body, count):
    src = f"void f(int n, double *y) {{ int i = 0; {body} (void)i; }}"
    assert extent_of(tmp_path, src, "f", "y", n=3)[0] == count


def test_a_pointer_moved_under_a_condition_on_sizes_is_unknown(tmp_path):
    # the condition may be what keeps p[1] inside the array
    src = "void f(int n, double *y) { double *p = y; if (n > 2) --p; p[1] = 1.0; }"
    with pytest.raises(Unknown, match="on the two sides of a condition on sizes"):
        extent_of(tmp_path, src, "f", "y", n=3)


# Local pointers walking over an array: the length is the largest offset any walk reaches,
# each access's offset a polynomial in the loop counters (pointer_walks).
WALKS = {
    # one pointer walked in two loops, set back to the start between them
    "reset": ("""
        void f(const double *x, double *out, int n, int l) {
            double *p = out;
            for (int k = 0; k < l; k++) { for (int i = 0; i < n; i++) p[i] = x[i]; p += n; }
            p = out;
            for (int k = 0; k < l; k++) { for (int i = 0; i < n; i++) p[i] *= x[i]; p += n; }
        }""", lambda n, l: n * l),
    # two pointers, the second one row ahead of the first
    "two walkers": ("""
        void f(const double *x, double *out, int n, int l) {
            double *p = out, *q = out + n;
            for (int k = 1; k < l; k++) {
                for (int i = 0; i < n; i++) q[i] += p[i] * x[i];
                p += n; q += n;
            }
        }""", lambda n, l: n * l if l > 0 else 0),
    # `*q++` in a nest, and a stride other than the inner loop's length
    "post-increment and stride": ("""
        void f(const double *x, double *out, int n, int l) {
            double *q = out, *p = out;
            for (int k = 0; k < l; k++) for (int i = 0; i < n; i++) *q++ *= x[i];
            for (int k = 0; k < l; k++) { p[0] *= x[0]; p[1] *= x[0]; p += 2 * n + 3; }
        }""", lambda n, l: max(n * l, (2 * n + 3) * (l - 1) + 2)),
    # read after the loop (one past the rows), stepped back; a walk down with p--
    "read after, backward": ("""
        void f(const double *x, double *out, int n, int l) {
            double *p = out;
            for (int k = 0; k < l; k++) { for (int i = 0; i < n; i++) p[i] *= x[i]; p += n; }
            p[0] = x[0];
            p -= n;
            p[n - 1] += x[0];
            double *q = out + 2 * n * l - 1;
            for (int k = n - 1; k >= 0; k--) { *q *= x[k]; q--; }
        }""", lambda n, l: max(n * l + 1, 2 * n * l)),
    # packed triangles: a step that grows with the counter, down too, read after the loop
    "triangles": ("""
        void f(const double *x, double *out, int n, int l) {
            double *p = out, *q = out;
            for (int k = 0; k < n; k++) {
                for (int i = 0; i <= k; i++) p[i] *= x[i];
                p += k + 1;
            }
            p[l] = x[0];
            for (int k = n - 1; k >= 0; k--) {
                for (int i = 0; i < n - k; i++) q[i] *= x[i];
                q += n - k;
            }
        }""", lambda n, l: n * (n + 1) // 2 + l + 1),
    # LSTM layers: a helper on each layer, the layer before read through `in`
    "layers through a helper": ("""
        static void cell(int b, double *h, double *c, const double *in) {
            for (int i = 0; i < b; i++) { c[i] = c[i] + in[i]; h[i] = c[i]; }
        }
        void f(int l, int b, double *state, const double *x, double *y) {
            double *layer = state; const double *in = x;
            for (int k = 0; k < l; k++) {
                cell(b, layer, layer + b, in);
                in = layer;
                layer += 2 * b;
            }
            for (int i = 0; i < b; i++) y[i] = in[i + b];
        }""", lambda n, l: 2 * n * l),
}


@pytest.mark.parametrize("shape", sorted(WALKS))
@pytest.mark.parametrize("n, l", [(1, 1), (3, 4), (5, 2)])
def test_pointer_walks(tmp_path, shape, n, l):
    source, want = WALKS[shape]
    sizes = dict(n=n, l=l) if "int n" in source else dict(b=n, l=l)
    count, text = extent_of(tmp_path, source, "f", "out" if "out" in source else "state",
                            **sizes)
    assert count == want(n, l), text


@pytest.mark.parametrize("steps", [0, 1, 4])
def test_swapped_pointers(tmp_path, steps):
    # double buffering: cur and next point at u or at w, whichever the step; w's length is
    # what either reaches while pointing there
    src = """
        void f(double *u, double *w, int n, int steps) {
            double *cur = u, *next = w, *t;
            for (int s = 0; s < steps; s++) {
                for (int i = 0; i < n; i++) next[i] = 2.0 * cur[i];
                t = cur; cur = next; next = t;
            }
            u[0] = cur[n];
        }
    """
    assert extent_of(tmp_path, src, "f", "w", n=3, steps=steps)[0] == 4
    assert extent_of(tmp_path, src, "f", "u", n=3, steps=steps)[0] == 4


def test_a_walk_in_a_callee(tmp_path):
    src = """
        static void rows(double *buf, const double *x, int n, int l) {
            double *p = buf;
            for (int k = 0; k < l; k++) { for (int i = 0; i < n; i++) p[i] *= x[i]; p += n; }
        }
        void f(const double *x, double *out, int n, int l) { rows(out + n, x, n, l); }
    """
    count, text = extent_of(tmp_path, src, "f", "out", n=3, l=4)
    assert count == 3 * 5 and text == "n + (l * n - 1)", text


@pytest.mark.parametrize("body, why", [
    # a while loop: its iterations are not counted (one that counts as a for loop does,
    # `k = 0; while (k < l) { ...; k++; }` or `while (k++ < l)`, is read as that for loop)
    ("int k = 0; while (k < l) { k++; p[0] *= x[0]; p += n; }", "in a while loop"),
    # the step depends on the data
    ("for (int k = 0; k < l; k++) { p[0] *= x[0]; if (x[k] > 0) p += n; }",
     "by different amounts in different iterations"),
    # a step that grows with the counter faster than a closed form of its sum follows
    ("for (int k = 0; k < l; k++) { p[k] *= x[0]; p += k * k * k; }",
     "by a step that changes from one iteration to the next"),
    # a step of unknown sign: the farthest offset could be at either end
    ("for (int k = 0; k < l; k++) { p[0] *= x[0]; p += n - l; }",
     "in a way whose range adgen cannot bound"),
    # an iteration may end before the step
    ("for (int k = 0; k < l; k++) { if (x[k] > 0) continue; p[0] *= x[0]; p += n; }",
     "in a loop whose iterations may end early"),
], ids=["while", "data", "triangle", "sign", "continue"])
def test_walks_whose_range_is_not_proven(tmp_path, body, why):
    src = f"""
        void f(const double *x, double *out, int n, int l) {{
            double *p = out;
            {body}
        }}
    """
    with pytest.raises(Unknown, match=f"an alias of 'out' walks over it {why}"):
        extent_of(tmp_path, src, "f", "out", n=3, l=4)


EXITS = """
    void f(int n, int h, int w, double *x, const double *img, double *out)
    {
        for (int i = 0; i < n; i++) {
            out[i] = 0.0;
            for (int j = 0; j < n; j++) {
                if (j == i)
                    continue;
                out[i] += x[j] - x[i];
            }
        }
        for (int i = 0; i < n; i++)
            x[i] += out[i];
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++)
                for (int d = -1; d <= 1; d++) {
                    int jj = j + d;
                    if (jj < 0 || jj >= w)
                        continue;
                    out[0] += img[i * w + jj];
                }
    }
"""


def test_exit_under_a_guard_guards_what_follows(tmp_path):
    """After `if (jj >= w) continue;` img[i * w + jj] reaches no farther than h*w - 1, but
    the loop ranges alone give h*w: no length (it was h*w + 1)."""
    with pytest.raises(Unknown, match="under a condition"):
        extent_of(tmp_path, EXITS, "f", "img", n=4, h=3, w=5)


def test_bound_reached_unguarded_later_is_known(tmp_path):
    """x[j] and x[i] after `if (j == i) continue;` reach n - 1, as x[i] of the loop after
    them does without a guard: x has n elements, wherever that unguarded loop is."""
    n, text = extent_of(tmp_path, EXITS, "f", "x", n=4, h=3, w=5)
    assert n == 4, text


STATUS_EXIT = """
    static int factor(int n, double *a)
    {
        for (int i = 0; i < n; i++)
            if (a[i] <= 0.0)
                return 1;
        return 0;
    }
    void f(int n, double *a, double *x)
    {
        int bad = factor(n, a);
        if (bad)
            return;
        for (int i = 0; i < n; i++)
            x[i] = x[i] / a[i];
    }
"""


def test_exit_on_a_status_set_once_guards_nothing(tmp_path):
    """`if (bad) return;` on a status set once, outside any loop, keeps no index inside an
    array: x's length is that of its loop, n."""
    n, text = extent_of(tmp_path, STATUS_EXIT, "f", "x", n=6)
    assert n == 6, text


REUSED_BOUND = """
    void f(int m, int n, int k, double *y)
    {
        int b, i;
        b = m;
        for (i = 0; i < b; i++)
            y[i] = 0.0;
        b = n;
        for (i = 0; i < b; i++)
            y[i] += 1.0;
        b = k;
        b = b + 2;
        for (i = 0; i < b; i++)
            y[i] += 2.0;
    }
"""


def test_bound_variable_set_before_each_loop(tmp_path):
    """A bound variable set before each loop (f2c's `i__1 = *n;`): each loop runs to the
    value set just before it (but the last, which a second assignment reads: no length)."""
    with pytest.raises(Unknown):
        extent_of(tmp_path, REUSED_BOUND, "f", "y", m=3, n=5, k=1)
    src = REUSED_BOUND.replace("        b = b + 2;\n", "")
    n, text = extent_of(tmp_path, src, "f", "y", m=3, n=5, k=1)
    assert n == 5, text
    n, text = extent_of(tmp_path, src, "f", "y", m=3, n=2, k=4)
    assert n == 4, text



def extent_text(tmp_path, source, func, param):
    """The inferred last index of `param` in `func`, as C text without blanks."""
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(source))
    prog = load_program([str(path)], Options())
    normalize_program(prog, [func])
    structure_program(prog, [func])
    f = prog.functions[func]
    p = next(q for q in f.params if q.name == param)
    return expr_c(ExtentAnalysis(prog).max_index(f, p)).replace(" ", "")


def test_bound_min_of_sizes(tmp_path):
    """`k = m <= n ? m : n;` (f2c's min) bounding a loop: the array has min(m, n) elements,
    not max(m, n) (LAPACK's tau of a QR factorization)."""
    src = """
        void f(int m, int n, double *tau)
        {
            int k, i;
            k = m <= n ? m : n;
            for (i = 0; i < k; i++)
                tau[i] = 0.0;
        }
    """
    assert extent_text(tmp_path, src, "f", "tau") == "(m<=n?m:n)-1"


def test_bound_chosen_by_a_flag(tmp_path):
    """`nb = periodic ? n : n - 1;` bounding a loop: y has that many elements, the choice
    made over the sizes (a flag and sizes the function does not change)."""
    src = """
        void f(int n, int periodic, double *y)
        {
            int nb = periodic ? n : n - 1;
            for (int i = 0; i < nb; i++)
                y[i] += 1.0;
        }
    """
    assert extent_text(tmp_path, src, "f", "y") == "(periodic?n:n-1)-1"


def test_bound_set_in_both_branches(tmp_path):
    """`if (periodic) nb = n; else nb = n - 1;` before the loop: the same choice; with a
    branch that also changes what the choice reads, no length."""
    src = """
        void f(int n, int periodic, double *y)
        {
            int nb, i, m = n;
            if (periodic)
                nb = m;
            else
                nb = m - 1;
            for (i = 0; i < nb; i++)
                y[i] += 1.0;
        }
    """
    assert extent_text(tmp_path, src, "f", "y") == "(periodic?n:n-1)-1"
    with pytest.raises(Unknown):
        extent_text(tmp_path, src.replace("nb = m - 1;", "{ nb = m - 1; m = 0; }"), "f", "y")


def test_bound_const_global(tmp_path):
    """A `const` integer global initialized with a literal bounds a loop as the literal
    does; one initialized otherwise is its name, a global f does not set (as one that is
    not const: test_bound_global_kept); one that f sets gives no length."""
    src = """
        static const int N = 0x10;
        const int M = 2 * 3;
        int K = 4;
        void f(double *y, double *z, double *w)
        {
            for (int i = 0; i < N; i++) y[i] += 1.0;
            for (int i = 0; i < M; i++) z[i] += 1.0;
            for (int i = 0; i < K; i++) w[i] += 1.0;
            K = 5;
        }
    """
    assert extent_text(tmp_path, src, "f", "y") == "15"
    assert extent_text(tmp_path, src, "f", "z") == "M-1"
    with pytest.raises(Unknown):
        extent_text(tmp_path, src, "f", "w")


@pytest.mark.parametrize("loop", [
    "for (size_t i = n; i-- > 0; ) y[i] += x[i];",
    "size_t i = n, k = 0; while (i-- > 0) { y[i] += x[i]; k++; }",
    "size_t i = n; while (i-- != 0) y[i] += x[i];",
    "long i = n; while (--i >= 0) y[i] += x[i];",
    "size_t i = 0; while (i++ < n) y[i - 1] += x[i - 1];",
], ids=["for", "while", "not-equal", "pre-decrement", "increment"])
def test_counter_stepped_in_the_loop_test(tmp_path, loop):
    """A loop that steps its counter in its test (`while (i-- > 0)`) is the for loop it
    equals, `for (i = n - 1; i + 1 > 0; i--)`: its counter takes n - 1 ... 0."""
    src = f"""
        #include <stddef.h>
        void f(size_t n, const double *x, double *y)
        {{
            {loop}
        }}
    """
    assert extent_text(tmp_path, src, "f", "x") == "n-1"
    assert extent_text(tmp_path, src, "f", "y") == "n-1"


def test_counter_stepped_in_the_test_and_set_away_from_the_loop(tmp_path):
    """The counter's setting moves to the loop only past settings of other variables that
    do not change what it reads (the value the loop starts from): otherwise the loop stays
    a while loop."""
    kinds = {}
    for between in ("m = 2;", "k = 2;"):
        path = tmp_path / "prog.c"
        path.write_text(f"""
            void f(int n, const double *x, double *y)
            {{
                int k = n, m, i;
                i = k;
                {between}
                while (i-- > 0) y[i] += x[i] * k;
            }}
        """)
        f = load_program([str(path)], Options()).functions["f"]
        kinds[between] = [type(s).__name__ for s in f.body.stmts]
    assert kinds == {"m = 2;": ["Assign", "Assign", "For"],
                     "k = 2;": ["Assign", "Assign", "Assign", "While"]}


GRID = """
    struct grid { int n; double h; } g;
    int npts;
    void grid_init(int n) { g.n = n; g.h = 1.0 / n; npts = n; }
    static void scale(double *y) { for (int i = 0; i < npts; i++) y[i] *= g.h; }
    void f(const double *x, double *y)
    {
        double s = 0.0;
        BEFORE
        for (int i = 0; i < g.n; i++) s += x[i] * x[i];
        for (int i = 0; i < npts; i++) y[i] += s;
        scale(y);
    }
"""


def test_bound_global_kept(tmp_path):
    """A global int, or a field of a global struct, that f and what it calls leave as they
    found it bounds a loop as a size parameter does: the length is its value at f's entry,
    setting another field of the struct notwithstanding."""
    for before in ("", "g.h = 2.0;"):
        src = GRID.replace("BEFORE", before)
        assert extent_text(tmp_path, src, "f", "x") == "g.n-1"
        assert extent_text(tmp_path, src, "f", "y") == "npts-1"


@pytest.mark.parametrize("before, param", [
    ("g.n = 3;", "x"),                      # f sets the field
    ("grid_init(4);", "x"),                 # a callee sets it
    ("grid_init(4);", "y"),
    ("g = (struct grid){3, 0.5};", "x"),    # the whole struct is set
    ("int *pn = &g.n; *pn = 2;", "x"),      # through a pointer
    ("int *pn = &npts; (void)pn;", "y"),
    ("refresh();", "x"),                    # a function adgen does not see into
], ids=["field", "callee", "callee-int", "whole", "pointer", "address", "external"])
def test_bound_global_that_may_change(tmp_path, before, param):
    """A global bound that f (or a function it calls) may change gives no length: its
    value at the entry need not be the one the loop reads."""
    src = "void refresh(void);" + GRID.replace("BEFORE", before)
    with pytest.raises(Unknown):
        extent_text(tmp_path, src, "f", param)


@pytest.mark.parametrize("clamps, last", [
    ("int j = (int)(t / h); if (j < 0) j = 0; if (j > n - 2) j = n - 2;", "n-1"),
    ("int j = (int)(t / h); j = j < 0 ? 0 : j; j = j > n - 2 ? n - 2 : j;", "n-1"),
    ("int j = (int)(t / h); if (n - 2 < j) j = n - 2; if (0 > j) j = 0;",
     "adgen_imax(adgen_imax(n-2,adgen_imax(n-2,0)+1),0)"),
    ("int j = (int)(t / h); j = j >= 0 ? j : 0; j = j <= n - 2 ? j : n - 2;", "n-1"),
    ("int j = (int)fmax(0.0, fmin(t / h, n - 2.0));",
     "adgen_imax(adgen_imax(n-2,adgen_imax(0,n-2)+1),0)"),
], ids=["if", "ternary", "upper-first", "kept-branch", "fmin-fmax"])
def test_clamped_index(tmp_path, clamps, last):
    """An index clamped into the table, `if (j > n - 2) j = n - 2;`: each clamp bounds it
    from its side whatever it was, and x[j + 1] reaches the bound plus one."""
    src = f"""
        #include <math.h>
        double f(int n, double h, double t, const double *x)
        {{
            {clamps}
            return x[j] + (x[j + 1] - x[j]) * (t / h - j);
        }}
    """
    assert extent_text(tmp_path, src, "f", "x") == last
    for n in (2, 5):
        count, _ = extent_of(tmp_path, src, "f", "x", n=n)
        assert count == n


def test_clamped_in_each_iteration(tmp_path):
    """An index set and clamped again in each iteration of a loop, to a bound that is the
    loop's counter; read after the loop, the last iteration's value: no length."""
    src = """
        void f(int n, double t, double *x)
        {
            int j = 0;
            for (int k = 0; k < n; k++) {
                int i = (int)(t * k);
                if (i < 0) i = 0;
                if (i > k) i = k;
                x[i] += 1.0;
                j = i;
            }
            x[j] += 1.0;
        }
    """
    assert extent_text(tmp_path, src.replace("x[j] += 1.0;", ""), "f", "x") == "n-1"
    with pytest.raises(Unknown):
        extent_text(tmp_path, src.replace("j = i;", "j = (int)t;"), "f", "x")


@pytest.mark.parametrize("clamps", [
    # no lower bound: the first value may be anything
    "int j = (int)(t / h); if (j > n - 2) j = n - 2;",
    # read before the last clamp
    "int j = (int)(t / h); if (j < 0) j = 0; x[j] = 0.0; if (j > n - 2) j = n - 2;",
    # the test and the value it sets differ
    "int j = (int)(t / h); if (j < 0) j = 0; if (j > n - 2) j = n - 1;",
    # clamped under a condition
    "int j = (int)(t / h); if (j < 0) j = 0; if (t > 1.0) { if (j > n - 2) j = n - 2; }",
    # set again after the clamps
    "int j = (int)(t / h); if (j < 0) j = 0; if (j > n - 2) j = n - 2; j = j + 2;",
    # fmin alone: no lower bound
    "int j = (int)fmin(t / h, n - 2.0);",
], ids=["one-side", "read-between", "other-value", "conditional", "set-after", "fmin"])
def test_clamps_that_bound_nothing(tmp_path, clamps):
    """A clamp gives a range only where it bounds every value the reads see."""
    src = f"""
        #include <math.h>
        double f(int n, double h, double t, double *x)
        {{
            {clamps}
            return x[j] + (x[j + 1] - x[j]) * (t / h - j);
        }}
    """
    with pytest.raises(Unknown):
        extent_text(tmp_path, src, "f", "x")


BISECTION = """
    double interp(int n, const double *xs, const double *ys, double t)
    {
        int lo = 0, hi = n - 1;
        while (hi - lo > 1) {
            int mid = MID;
            if (xs[mid] <= t) lo = LO; else hi = HI;
        }
        double w = (t - xs[lo]) / (xs[hi] - xs[lo]);
        return (1 - w) * ys[lo] + w * ys[hi];
    }
"""


@pytest.mark.parametrize("mid, lo, hi", [
    ("(lo + hi) / 2", "mid", "mid"),
    ("(lo + hi) >> 1", "mid", "mid"),
    ("(int)((long)hi + lo) / 2", "mid", "mid"),
    ("(lo + hi) / 2", "mid", "mid > lo ? mid : hi"),
    ("(3 * lo + hi) / 4", "mid", "mid"),
], ids=["mean", "shift", "casts", "choice", "weighted"])
def test_binary_search_cell(tmp_path, mid, lo, hi):
    """A binary search's lo, hi and mid start in [0, n - 1], and every assignment keeps
    them there whenever they are (each mean of two such values is): that interval holds
    them wherever they are read, and xs and ys get their n elements (adgen found none)."""
    src = BISECTION.replace("MID", mid).replace("LO;", lo + ";").replace("HI;", hi + ";")
    for param in ("xs", "ys"):
        assert extent_text(tmp_path, src, "interp", param) == "adgen_imax(n-1,0)"
        for n in (1, 2, 7):
            count, _ = extent_of(tmp_path, src, "interp", param, n=n)
            assert count == n


@pytest.mark.parametrize("mid, lo, hi", [
    ("(lo + hi) / 2", "mid", "mid + 1"),         # past n - 1 where mid is n - 1
    ("(lo + hi) / 2", "mid - 1", "mid"),         # below 0
    ("lo + hi", "mid / 2", "mid / 2"),           # mid itself is up to 2H
    ("(lo + hi) / 2", "mid", "hi + 1"),
    ("(lo + hi) / 2", "mid", "2 * mid - lo"),
    ("(int)((unsigned)(lo + hi) / 2u)", "mid", "mid"),     # a negative sum wraps
], ids=["up-one", "down-one", "sum", "step", "reflect", "unsigned"])
def test_binary_search_that_can_leave(tmp_path, mid, lo, hi):
    """An assignment that can take a value out of the interval its group starts in (`hi =
    mid + 1` without a guard): no length, never one that is too short."""
    src = BISECTION.replace("MID", mid).replace("LO;", lo + ";").replace("HI;", hi + ";")
    with pytest.raises(Unknown):
        extent_text(tmp_path, src, "interp", "xs")
