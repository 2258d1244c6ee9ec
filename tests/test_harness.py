"""Tests of the test harness itself, independent of adgen: the hand-written derivatives of
harness_selftest/tiny.c must pass, and each planted mistake must be caught."""
import shutil
import sys
from pathlib import Path

import pytest

import harness

HERE = Path(__file__).resolve().parent / "harness_selftest"
TINY = HERE / "tiny.c"


def fake_adgen(impl: Path):
    return [sys.executable, str(HERE / "fake_adgen.py"), str(impl)]


def test_parse_spec():
    spec = harness.parse_spec("""/* adgen-test
head: gmm(err)/(alphas means)
arg d: int = 3
arg alphas: double[d]
arg means: double[d*2] = uniform(-2, 2)
arg idx: int[d] = range(0, 3)
arg w: Wishart = {1.5, 3}
arg p: Params* = {2, 0.5}
arg s: float = 0.25
arg err: double[1]
tol: 1e-5
flags: -I include -DN=3
*/""")
    (h,) = spec.heads
    assert (h.func, h.deps, h.indeps) == ("gmm", ["err"], ["alphas", "means"])
    args = spec.args_for("gmm")
    assert [a.name for a in args] == ["d", "alphas", "means", "idx", "w", "p", "s", "err"]
    assert [a.kind for a in args] == ["int", "array", "array", "array", "struct", "struct_ptr",
                                      "real", "array"]
    assert args[2].init.kind == "uniform" and (args[2].init.lo, args[2].init.hi) == ("-2", "2")
    assert args[3].init.kind == "range" and args[1].init.kind == "uniform"
    assert args[2].length == "d*2" and args[5].ctype == "Params"
    assert spec.tol == 1e-5 and spec.dot_tol == 1e-12 and spec.seed == 1
    assert spec.flags == ["-I", "include", "-DN=3"]


def test_parse_spec_arg_groups():
    spec = harness.parse_spec("""
head: f(y)/(x)
head: f(y)/(x y)
arg n: int = 3
arg x: double[n]
arg y: double[n]
head: g(g)/(t)
arg t: double = 0.5
head: f(y)/(y)
head: f(y)/(x)
arg n: int = 7
arg x: double[n]
arg y: double[n]
""")
    f1, f2, g, f3, f4 = spec.heads
    assert f1.args is f2.args and [a.name for a in f1.args] == ["n", "x", "y"]
    assert [a.name for a in g.args] == ["t"]
    assert f3.args is f4.args and f3.args[0].init.text == "7"
    assert spec.args_for("f") is f1.args


@pytest.mark.parametrize("bad", [
    "head: f(y)\narg y: double[1]",                 # no independents
    "head: f(y)/(x)\narg n: int",                   # int without value
    "head: f(y)/(x)\narg i: int[3]",                # int array without init
    "head: f(y)/(x)\nwhatever: 3",                  # unknown key
    "head: f(y)/(x)\narg x: double[3]\narg x: double[3]",
])
def test_parse_spec_rejects(bad):
    with pytest.raises(harness.SpecError):
        harness.parse_spec(bad)


def test_signature_and_prototypes():
    text = TINY.read_text()
    spec = harness.parse_spec(text)
    plan = harness.make_plan(spec, spec.heads[0], text)
    assert harness.prototypes(plan) == (
        "void f_b(int n, const double *x, double *xb, double a, double *ab, double *y, "
        "double *yb, double fb);",
        "double f_d(int n, const double *x, const double *xd, double a, double ad, "
        "double *y, double *yd, double *f);")


def test_correct_derivatives_pass(tmp_path):
    harness.check_program(TINY, tmp_path, fake_adgen(HERE / "good"))


# (file, text to replace, replacement, expected words in the failure)
MUTATIONS = {
    "wrong_tangent": ("f_d.c", "a * cos(x[i]) * xd[i]", "a * cos(x[i]) * xd[i] * 1.001",
                      ["tangent f_d vs central finite differences", "dot-product test"]),
    "wrong_adjoint_inout": ("g_b.c", "zb[i] = 2 * z0 * zb[i];", "zb[i] = 2 * z0 * zb[i] + 1e-3;",
                            ["adjoint g_b vs central", "dot-product test"]),
    "adjoint_accumulated": ("f_b.c", "xb[i] = 2", "xb[i] += 2", ["garbage", "must be set"]),
    "tangent_accumulated": ("f_d.c", "yd[i] = ad", "yd[i] += ad", ["garbage", "must be written"]),
    "seed_not_consumed": ("f_b.c", "yb[i] = 0;", "", ["did not consume the seed of pure output y"]),
    "wrong_primal": ("f_d.c", "*f = s * a;", "*f = s * a * (1 + 1e-9);",
                     ["primal output return computed by f_d"]),
    "wrong_prototype": ("f_b.c", "double a, double *ab", "float a, double *ab",
                        ["prototype of docs/conventions.md"]),
    "defines_primal": ("g_b.c", "void g_b(", "void g(int n, double *z, const double *w) "
                       "{ (void)n; (void)z; (void)w; }\nvoid g_b(", ["multiple definition"]),
    "warning": ("g_d.c", "int i;", "int i, unused;", ["-Werror", "unused"]),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_mistakes_are_caught(name, tmp_path):
    fname, old, new, words = MUTATIONS[name]
    impl = tmp_path / "impl"
    shutil.copytree(HERE / "good", impl)
    text = (impl / fname).read_text()
    assert old in text
    (impl / fname).write_text(text.replace(old, new))
    with pytest.raises(AssertionError) as info:
        harness.check_program(TINY, tmp_path / "work", fake_adgen(impl))
    for w in words:
        assert w in str(info.value), str(info.value)


def test_expect_error(tmp_path):
    prog = tmp_path / "bad.c"
    prog.write_text("/* adgen-test\nhead: f(y)/(x)\nexpect-error: mystery\nexpect-error-line: 4\n*/\n"
                    "double mystery(double);\nvoid f(double *x, double *y) { *y = mystery(*x); }\n")
    impl = tmp_path / "impl"
    impl.mkdir()
    (impl / "error.txt").write_text(f"{prog}:4:40: error: call to undefined function 'mystery'\n")
    harness.expect_error(prog, tmp_path / "w", fake_adgen(impl))
    (impl / "error.txt").write_text(f"{prog}:5:40: error: call to undefined function 'mystery'\n")
    with pytest.raises(AssertionError, match="expected line 4"):
        harness.expect_error(prog, tmp_path / "w", fake_adgen(impl))
    (impl / "error.txt").write_text("error: something went wrong\n")
    with pytest.raises(AssertionError, match="FILE:LINE:COL"):
        harness.expect_error(prog, tmp_path / "w", fake_adgen(impl))
