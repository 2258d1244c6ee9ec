"""Pushes of consecutive elements made one block push (adgen.transform.block_pushes).

The derivatives of testsuite/c/block_pushes.c are checked by the test suite (finite
differences, dot-product test, every stack mode); these tests check which loops push and
pop one block, and that the loops that must not do not."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

import adgen

from test_tbr import function_text

SOURCE = Path(__file__).resolve().parent.parent / "testsuite" / "c" / "block_pushes.c"
HEAD = "block_pushes(out)/(a x w)"


@pytest.fixture(scope="module")
def code():
    return adgen.differentiate(str(SOURCE), head=HEAD)


def test_a_refilled_scratch_array_is_pushed_and_popped_as_one_block(code):
    fwd = function_text(code, "scale_fwd")
    assert "adgen_push(&out[0], (size_t)n * sizeof(double));" in fwd
    assert "adgen_push(&out[i]" not in fwd
    bwd = function_text(code, "scale_bwd")
    assert "adgen_pop(&out[0], (size_t)count * sizeof(double));" in bwd
    assert "adgen_pop(&out[i]" not in bwd
    # popped before the backward loop
    assert bwd.index("adgen_pop(&out[0]") < bwd.index("for (iter = count - 1;")


def test_an_update_in_place_and_a_shifted_index_are_blocks_from_their_first_element(code):
    assert "adgen_push(&x[1], (size_t)(n - 1) * sizeof(double));" in \
        function_text(code, "in_place_fwd")
    bwd = function_text(code, "in_place_bwd")
    assert "adgen_pop(&x[1], (size_t)count * sizeof(double));" in bwd
    # with its pop gone the backward loop is straight-line: its sum into *wb is split
    assert "*wb = *wb + (wb_sum + wb_sum2);" in bwd
    assert "adgen_push(&y[1], (size_t)(n - 1) * sizeof(double));" in \
        function_text(code, "shifted_fwd")


@pytest.mark.parametrize("name, element", [
    ("next_too", "y[i + 1]"),     # iteration i writes y[i + 1] before i + 1 pushes it
    ("previous", "y[i]"),         # the backward loop reads y[i - 1], not yet restored
    ("down", "y[i]"),             # counting down: the elements lie the other way round
    ("stride2", "y[i]"),          # not consecutive
])
def test_loops_that_do_not_qualify_push_one_element_at_a_time(code, name, element):
    fwd = function_text(code, f"{name}_fwd")
    assert f"adgen_push(&{element}, sizeof({element}));" in fwd
    assert "as one block" not in fwd
    assert "as one block" not in function_text(code, f"{name}_bwd")


def test_a_loop_that_pushes_two_arrays_keeps_its_pushes():
    # two pushes per iteration interleave on the stack: not one block each
    code = adgen.differentiate("""
        #include <math.h>
        void f(int n, int m, double *x, double *y, double *s)
        {
            int i, k;
            for (k = 0; k < m; k++)
                for (i = 0; i < n; i++) {
                    x[i] = sin(x[i]);
                    y[i] = cos(y[i]) * x[i];
                }
            s[0] = x[0] + y[0];
        }
    """, head="f(s)/(x y)", sizes={"x": "n", "y": "n", "s": "1"})
    head = function_text(code, "f_b")
    assert "as one block" not in head
    assert "adgen_push(&x[i], sizeof(x[i]));" in head


def test_a_pointer_that_may_be_the_array_keeps_the_pushes():
    # z may be x: writing z[0] in an iteration may change an element a later one pushes
    # (z[0] is stored too, which keeps the loop's pushes apart as well)
    code = adgen.differentiate("""
        #include <math.h>
        void f(int n, double *x, double *z, double *s)
        {
            int i;
            for (i = 0; i < n; i++) {
                x[i] = sin(x[i]);
                z[0] = z[0] * 0.5;
            }
            s[0] = x[0] + z[0];
        }
        void g(int n, double *x, double *s)
        {
            f(n, x, x, s);
        }
    """, head="g(s)/(x)", sizes={"x": "n", "s": "1"})
    assert "as one block" not in code


def test_explain_reports_each_block(tmp_path):
    out = tmp_path / "bp_b.c"
    p = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(SOURCE), "--head", HEAD,
                        "--explain", "-o", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = [ln for ln in p.stderr.splitlines() + p.stdout.splitlines() if "one block" in ln]
    assert any(re.search(r"block_pushes\.c:\d+: scale: out\[i\]: stored as one block "
                         r"\(consecutive elements", ln) for ln in lines), lines
    assert len(lines) == 4, lines   # scale, in_place, shifted, the head's y[i]


def test_the_stack_report_counts_a_block_inside_a_loop_once_per_iteration(tmp_path):
    # the block carries the elements' bytes: m blocks of n doubles, as one at a time
    src = tmp_path / "sq.c"
    src.write_text("""
        void sq(int n, int m, const double *a, double *y, double *out)
        {
            int i, k;
            double s = 0.0;
            for (k = 0; k < m; k++)
                for (i = 0; i < n; i++)
                    y[i] = 0.5 * y[i] * y[i] + a[i];
            for (i = 0; i < n; i++)
                s += y[i];
            out[0] = s;
        }
    """)
    out = tmp_path / "sq_b.c"
    p = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                        "sq(out)/(a y)", "--size", "a=n", "--size", "y=n", "--size", "out=1",
                        "--stack-report", "-o", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "adgen_push(&y[0], (size_t)n * sizeof(double));" in out.read_text()
    assert "sq_b: stack: 8 * m * n + 8 * n + 24 bytes pushed per call" in p.stderr + p.stdout


DENSE = SOURCE.parent / "dense_in_place.c"
DENSE_SIZES = {"a": "n*n", "b": "n*n", "c": "n*n", "out": "n+1"}


@pytest.fixture(scope="module")
def dense():
    return adgen.differentiate(str(DENSE), head="dense_in_place(out)/(a b c)",
                               sizes=DENSE_SIZES)


@pytest.mark.parametrize("name, element, runs", [
    ("trmm", "b[i][j]", "n - 1 - i > 0"),
    ("lu", "a[i][j]", "i > 0"),
    ("lu", "a[j][i]", "i > 0"),
    ("cholesky", "c[i * n + j]", "j > 0"),
    ("tail_sum", "b[n - 2]", "n - 1 > 0"),
])
def test_an_element_every_iteration_overwrites_is_pushed_once_before_its_loop(
        dense, name, element, runs):
    fwd = function_text(dense, f"{name}_fwd")
    push = f"adgen_push(&{element}, sizeof({element}));"
    # not before the update in the loop
    assert not re.search(re.escape(push) + r"\s*" + re.escape(f"{element} = {element} ") +
                         r"[-+] ", fwd)
    # guarded by the loop running (the element may lie outside the array otherwise), and
    # before the loop
    guard = fwd.index(f"if ({runs}) {{\n", fwd.index(f"{element}: one value for the whole loop"))
    assert guard < fwd.index(push, guard) < fwd.index("for (k = ", guard)
    bwd = function_text(dense, f"{name}_bwd")
    pop = f"adgen_pop(&{element}, sizeof({element}));"
    after = bwd.index(f"{element}: the value from before the loop")
    assert bwd.index("k = ", bwd.index("for (iter")) < after < bwd.index(pop, after)
    assert not re.search(r"k = [^;]*;\s*" + re.escape(pop), bwd)     # none in the loop


@pytest.mark.parametrize("name, element", [
    ("product", "b[i]"),        # its backward iterations read the element
    ("all_rows", "b[i * n]"),   # at k = i an iteration reads the element itself
])
def test_an_element_a_backward_iteration_may_read_stays_pushed_in_each(dense, name, element):
    fwd = function_text(dense, f"{name}_fwd")
    assert "one value for the whole loop" not in fwd
    inner = fwd.index("for (k = 0; k < n; k = k + 1) {")
    assert fwd.index(f"adgen_push(&{element}, sizeof({element}));") > inner


def test_the_stack_report_counts_an_element_pushed_once_per_loop(tmp_path):
    # n^2 values for the triangular product, not n^3 / 2; at most: the loop of the last
    # row runs no iteration and pushes nothing
    src = tmp_path / "trmm.c"
    src.write_text("""
        void trmm(int n, const double *a, double *b)
        {
            int i, j, k;
            for (i = 0; i < n; i++)
                for (j = 0; j < n; j++)
                    for (k = i + 1; k < n; k++)
                        b[i * n + j] += a[k * n + i] * b[k * n + j];
        }
    """)
    p = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                        "trmm(b)/(a b)", "--size", "a=n*n", "--size", "b=n*n",
                        "--stack-report", "--no-output"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "trmm_b: stack: at most 16 * n * n + 8 * n + 24 bytes pushed per call" in \
        p.stderr + p.stdout


def test_explain_names_each_element_pushed_once(tmp_path):
    p = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(DENSE), "--head",
                        "dense_in_place(out)/(a b c)", "--explain", "--no-output"] +
                       [a for k, v in DENSE_SIZES.items() for a in ("--size", f"{k}={v}")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = [ln for ln in (p.stderr + p.stdout).splitlines() if "once for the whole loop" in ln]
    assert any(re.search(r"dense_in_place\.c:\d+: trmm: b\[i\]\[j\]: stored once for the "
                         r"whole loop \(each iteration overwrites it, and no backward "
                         r"iteration reads the values in between\)", ln) for ln in lines), lines
    assert len(lines) == 6, lines
