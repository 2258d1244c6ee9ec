"""Adjoint sums split in two parts (adgen.transform.split_sums).

The derivatives of testsuite/c/adjoint_sums.c are checked by the test suite (finite
differences, dot-product test, every stack mode); these tests check which loops are split,
that the loops that must not be are not, and that gcc vectorizes a split loop."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import adgen

from test_tbr import function_text

SUITE = Path(__file__).resolve().parent.parent / "testsuite" / "c"
SOURCE = SUITE / "adjoint_sums.c"
HEAD = "adjoint_sums(out)/(a l x w)"


@pytest.fixture(scope="module")
def code():
    return adgen.differentiate(str(SOURCE), head=HEAD)


def test_the_sum_of_a_triangular_product_is_split(code):
    bwd = function_text(code, "lower_bwd")
    assert "/* xb[i]: summed in 2 parts, added after the loop; x[i] read once" in bwd
    assert "x_i = iter2 >= 0 ? x[i] : 0.0;" in bwd
    # two copies of the body, each adding into its own partial sum; the second one the
    # iteration before (its index written so that gcc sees neighbouring elements)
    assert re.search(r"xb_sum = xb_sum \+ l\[c\] \* yb\[j\];", bwd)
    assert re.search(r"xb_sum2 = xb_sum2 \+ l\[c\] \* yb\[j\];", bwd)
    assert "j = i + 1 + iter2 - 1;" in bwd
    assert re.search(r"for \(; iter2 >= 1; iter2 = iter2 - 2\)", bwd)
    assert re.search(r"for \(; iter2 >= 0; iter2 = iter2 - 1\)", bwd)       # the last one
    assert "xb[i] = xb[i] + (xb_sum + xb_sum2);" in bwd


def test_strided_and_while_loops_and_a_head_scalar_are_split(code):
    strided = function_text(code, "strided_bwd")
    assert "xb_sum2" in strided
    assert "k = iter * 2 - 1;" in strided      # the stride, the start past zero
    tail = function_text(code, "tail_sum_bwd")
    assert re.search(r"xb\[0\] = xb\[0\] \+ \(xb_sum \+ xb_sum2\);", tail)
    head = function_text(code, "adjoint_sums_b")
    assert "*wb = *wb + (wb_sum + wb_sum2);" in head


def test_sums_into_an_adjoint_read_in_the_loop_stay_in_place(code):
    head = function_text(code, "adjoint_sums_b")
    # r[j] += 0.1 * r[i]: rb[i] is summed over j, but rb[j] is read there
    assert "rb_sum" not in head
    # r[j] += 0.01 * p[i] with p == r: pb[i] is rb[i], read as rb[j]
    assert "pb_sum" not in head
    assert re.search(r"pb\[i\] = pb\[i\] \+ 0\.01 \* tempb\d*;", head)


def test_the_adjoint_of_a_callee_scalar_is_what_its_call_points_it_to(code):
    # weighted's *wb is the head's *wb, w's adjoint: other memory than the adjoints the
    # loop reads and writes, so it is summed apart, and so is the adjoint of x[i]
    weighted = function_text(code, "weighted_bwd")
    assert "*wb = *wb + (wb_sum + wb_sum2);" in weighted
    assert "xb[i] = xb[i] + (xb_sum + xb_sum2);" in weighted


def test_a_callee_scalar_pointed_to_several_memories_stays_in_place():
    # called from two places with the adjoints of two variables: *ab may be either, so
    # the loop keeps its sums in order (gcc 12 vectorizes an in-order sum over two copies
    # of a loop body wrongly: the others stay in place too)
    code = adgen.differentiate("""
        double dot(int n, double a, const double *x, const double *y)
        {
            double s = 0.0;
            int i;
            for (i = 0; i < n; i++)
                s += a * x[i] * y[0];
            return s;
        }
        double f(int n, const double *x, double *y)
        {
            double p = x[0] * x[1], q = x[2] * x[2];
            return dot(n, p, x, y) * dot(n, q, y, x) + f(n - 1, x, y);
        }
    """, head="f(f)/(x)", sizes={"x": "n", "y": "n"})
    bwd = function_text(code, "dot_bwd")
    assert "ab_sum" not in bwd and "b_sum" not in bwd
    assert "*ab = *ab +" in bwd


def test_the_sum_of_a_local_scalar_is_split():
    code = adgen.differentiate("""
        double f(int n, const double *x)
        {
            double s = x[0] * x[0], t = 0.0;
            int i;
            for (i = 0; i < n; i++)
                t += s * x[i];
            return t * t;
        }
    """, head="f(f)/(x)")
    head = function_text(code, "f_b")
    assert "sb = sb + (sb_sum + sb_sum2);" in head


def test_explain_reports_each_split_sum(tmp_path):
    out = tmp_path / "sums_b.c"
    p = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(SOURCE), "--head", HEAD,
                        "--explain", "-o", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = [ln for ln in p.stderr.splitlines() + p.stdout.splitlines() if "summed in" in ln]
    loop = 1 + SOURCE.read_text().splitlines().index("        for (j = i + 1; j < n; j++) {")
    assert any(ln.endswith(f"adjoint_sums.c:{loop}: lower: adjoint of x[i]: summed in 2 parts "
                           "(adjoint increments may come in any order: the loop vectorizes)")
               for ln in lines), lines
    assert any("adjoint_sums: adjoint of w: summed in 2 parts" in ln for ln in lines), lines
    assert len(lines) == 6, lines  # lower, strided, weighted (w and x[i]), tail_sum, the head


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc not found")
def test_gcc_vectorizes_the_split_loop(tmp_path, code):
    src = tmp_path / "sums_b.c"
    src.write_text(code)
    p = subprocess.run(["gcc", "-O3", "-std=c99", "-c", str(src), "-o", str(tmp_path / "o.o"),
                        "-fopt-info-vec-optimized"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = code.splitlines()
    start = next(k for k, ln in enumerate(lines) if ln.startswith("static void lower_bwd("))
    loop = next(k for k in range(start, len(lines))
                if "iter2 >= 1; iter2 = iter2 - 2" in lines[k]) + 1
    assert re.search(rf"sums_b\.c:{loop}:\d+: optimized: loop vectorized", p.stderr), p.stderr


def test_a_sum_at_an_index_read_through_a_pointer_is_split():
    # xb[*k] is one place in every iteration: the loop stores no integer to memory
    code = adgen.differentiate("""
        double f(int n, const int *k, const double *x)
        {
            double t = 0.0;
            int i;
            for (i = 0; i < n; i++)
                t += x[*k] * x[i];
            return t;
        }
    """, head="f(f)/(x)", sizes={"x": "n"})
    head = function_text(code, "f_b")
    assert "xb[*k] = xb[*k] + (xb_sum + xb_sum2);" in head


def test_an_in_order_sum_at_a_place_not_known_fixed_keeps_the_loop_whole():
    # yb[idx[0]] is one place too, but read through memory: it cannot be split, and an
    # in-order sum beside split ones is what gcc 12 vectorizes wrongly
    code = adgen.differentiate("""
        double f(int n, const int *idx, const double *x, const double *y)
        {
            double s = x[0] * x[1], t = 0.0;
            int i;
            for (i = 0; i < n; i++)
                t += s * x[i] * y[idx[0]];
            return t;
        }
    """, head="f(f)/(x y)", sizes={"x": "n", "y": "n", "idx": "1"})
    head = function_text(code, "f_b")
    assert "_sum" not in head
    assert re.search(r"yb\[idx\[0\]\] = yb\[idx\[0\]\] \+", head)
