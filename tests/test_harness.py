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


def test_stacks_share_one_tangent(tmp_path, monkeypatch):
    """Each stack kind gets its own adjoint, checked and reported as that kind's; the
    tangent is made once for them all."""
    impl = tmp_path / "impl"
    shutil.copytree(HERE / "good", impl)
    (impl / "static").mkdir()
    for func in "fg":       # the static stack's adjoints define its overflow flag
        text = (impl / f"{func}_b.c").read_text() + f"int {func}_b_stack_overflow = 0;\n"
        if func == "f":     # and f's is wrong
            assert "xb[i] = 2" in text
            text = text.replace("xb[i] = 2", "xb[i] = 2.002")
        (impl / "static" / f"{func}_b.c").write_text(text)
    log = tmp_path / "calls.log"
    monkeypatch.setenv("FAKE_ADGEN_LOG", str(log))
    with pytest.raises(AssertionError) as info:
        harness.check_program(TINY, tmp_path / "work", fake_adgen(impl),
                              stacks=["heap", "static"])
    message = str(info.value)
    assert "(--stack=static) adjoint f_b vs central" in message, message
    assert "(--stack=heap)" not in message, message
    calls = log.read_text().split("\n")[:-1]
    heads = {c.split()[2] for c in calls}
    assert sorted(calls) == sorted(f"{m} {k} {f}" for f in heads
                                   for m, k in (("b", "heap"), ("b", "static"), ("d", "-")))


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


# ---- Fortran programs (harness_selftest/tiny.f90, hand-written derivatives in fgood/) ----

FTINY = HERE / "tiny.f90"
needs_gfortran = pytest.mark.skipif(shutil.which(harness.FC) is None,
                                    reason=f"{harness.FC} is not installed")


def test_parse_fortran_spec():
    text = """program text
! adgen-test
! head: Sim(Y s)/(X)
! arg n: integer = 4
! arg m: integer(8) = n*2
! arg flag: logical = .true.
! arg mask: logical[n] = [.true., .false., .true., .false.]
! arg x: real(8)[0:n, -1:1] = uniform(-1.5d0, 2_8)
! arg y: double precision[n]
! arg s: real = 2.5e-1
! arg w: real*8[3] = (/ 1.d0, 2.5D-1, 3 /)
! setup: Init_Model
! sources: include/a.f90 b.f90
!
! tol: 1  (after the empty comment line: not in the block)
"""
    spec = harness.parse_spec(text, "fortran")
    (h,) = spec.heads
    assert (h.func, h.deps, h.indeps) == ("sim", ["y", "s"], ["x"])
    a = {x.name: x for x in h.args}
    assert [x.ftype for x in h.args] == ["integer(4)", "integer(8)", "logical", "logical",
                                        "real(8)", "real(8)", "real(4)", "real(8)"]
    assert a["n"].kind == "int" and a["m"].ctype == "long" and a["flag"].init.text == "1"
    assert a["mask"].init.text == "{1, 0, 1, 0}" and a["mask"].kind == "array"
    assert a["x"].dims == [("0", "n"), ("-1", "1")]
    assert a["x"].length == "((n) - (0) + 1) * ((1) - (-1) + 1)"
    assert (a["x"].init.lo, a["x"].init.hi) == ("-1.5e0", "2")
    assert a["s"].scalar and a["s"].kind == "array" and a["s"].length == "1"
    assert a["s"].ctype == "float" and a["s"].init.text == "2.5e-1"
    assert a["w"].init.text == "{1.e0, 2.5e-1, 3}"
    assert spec.setup == "init_model" and spec.sources == ["include/a.f90", "b.f90"]
    assert spec.tol == 1e-6
    assert harness.fortran_block("      x = 1\nC adgen-test\nC head: f(y)/(x)\n      end\n",
                                 fixed=True) == " head: f(y)/(x)"
    assert harness._element_labels("b", 6, {"b": [[-1, 1], [1, 2]]}) == \
        ["b(-1, 1)", "b(0, 1)", "b(1, 1)", "b(-1, 2)", "b(0, 2)", "b(1, 2)"]


@pytest.mark.parametrize("bad", [
    "head: f(y)/(x)\narg x: complex[3]",             # unsupported type
    "head: f(y)/(x)\narg n: integer",               # integer without value
    "head: f(y)/(x)\narg k: integer[3]",            # integer array without init
    "head: f(y)/(x)\narg x: real(8)[*]",            # no extent
    "head: f(y)/(x)\nsetup: call init(3)",          # setup takes a name
    "head: f(y)/(x)\narg x: real(8)[3]\nfield x.n: integer = 3",     # handles are C only
])
def test_parse_fortran_spec_rejects(bad):
    with pytest.raises(harness.SpecError):
        harness.parse_spec(bad, "fortran")


def test_fortran_keys_rejected_in_c():
    with pytest.raises(harness.SpecError, match="only for Fortran"):
        harness.parse_spec("head: f(y)/(x)\nsetup: init")


@needs_gfortran
def test_fortran_prototypes(tmp_path):
    spec = harness._read_spec(FTINY)
    fb = harness.build_fortran_primal(spec, FTINY, tmp_path, [])
    assert fb.procs["fsub"].symbol == "fsub_" and fb.procs["fsetup"].symbol == "__tinymod_MOD_fsetup"
    plans = [harness.make_fortran_plan(spec, h, fb) for h in spec.heads]
    assert harness.prototypes(plans[0]) == (
        "void fsub_b_(int *n, double *x, double *xb, double *a, double *ab, double *y, "
        "double *yb, double *s, double *sb);",
        "void fsub_d_(int *n, double *x, double *xd, double *a, double *ad, double *y, "
        "double *yd, double *s, double *sd);")
    assert harness.prototypes(plans[1]) == (
        "void ffun_b_(int *m, double *z, double *zb, double *ffunb);",
        "double ffun_d_(int *m, double *z, double *zd, double *ffun);")


@needs_gfortran
def test_fortran_correct_derivatives_pass(tmp_path):
    harness.check_program(FTINY, tmp_path, fake_adgen(HERE / "fgood"))


# (file, text to replace, replacement, expected words in the failure)
FMUTATIONS = {
    "wrong_adjoint": ("fsub_b.c", "*ab += t * sin(x[i])", "*ab += 1.001 * t * sin(x[i])",
                      ["adjoint fsub_b vs central", "dot-product test",
                       "Fortran main program calling fsub_d and fsub_b"]),
    "adjoint_accumulated": ("fsub_b.c", "*ab = 0.0;", "", ["garbage", "must be set"]),
    "seed_not_consumed": ("fsub_b.c", "*sb = 0.0;", "", ["did not consume the seed of pure output s"]),
    "result_seed_by_value": ("ffun_b.c", "*ffunb", "ffunb",
                             ["cannot be called as the Fortran contract prescribes"]),
    "missing_underscore": ("fsub_d.c", "void fsub_d_(", "void fsub_d(",
                           ["cannot be called as the Fortran contract", "fsub_d_"]),
    "defines_module_variable": ("fsub_d.c", "extern double __tinymod_MOD_scale;",
                                "double __tinymod_MOD_scale = 2.0;", ["multiple definition"]),
    "result_seed_not_consumed": ("ffun_b.c", "*ffunb = 0.0;", "",
                                 ["did not consume the seed of the function result"]),
    "wrong_primal": ("ffun_d.c", "*ffun = f / 2.0;", "*ffun = f / 2.0 + 1e-9;",
                     ["primal output return computed by ffun_d"]),
}


@needs_gfortran
@pytest.mark.parametrize("name", sorted(FMUTATIONS))
def test_fortran_mistakes_are_caught(name, tmp_path):
    fname, old, new, words = FMUTATIONS[name]
    impl = tmp_path / "impl"
    shutil.copytree(HERE / "fgood", impl)
    text = (impl / fname).read_text()
    assert old in text
    (impl / fname).write_text(text.replace(old, new))
    with pytest.raises(AssertionError) as info:
        harness.check_program(FTINY, tmp_path / "work", fake_adgen(impl))
    for w in words:
        assert w in str(info.value), str(info.value)


@needs_gfortran
def test_fortran_main_catches_consistent_errors(tmp_path):
    """Tangent and adjoint wrong in the same way pass the dot-product test; the C driver's
    and the Fortran main program's finite differences catch them."""
    impl = tmp_path / "impl"
    shutil.copytree(HERE / "fgood", impl)
    for fname, old, new in (("ffun_d.c", "return fd;", "return fd * 1.001;"),
                            ("ffun_b.c", "z[i] * *ffunb", "1.001 * z[i] * *ffunb")):
        (impl / fname).write_text((impl / fname).read_text().replace(old, new))
    with pytest.raises(AssertionError) as info:
        harness.check_program(FTINY, tmp_path / "work", fake_adgen(impl))
    msg = str(info.value)
    assert "tangent ffun_d vs central" in msg and "Fortran main program calling ffun_d" in msg
    assert "dot-product test:" not in msg.split("Fortran main")[0], msg


def test_fortran_expect_error(tmp_path):
    prog = tmp_path / "bad.f90"
    prog.write_text("! adgen-test\n! head: f(y)/(x)\n! expect-error: Derived Type\n"
                    "! expect-error-line: 5\nsubroutine f(x, y)\n  real(8) :: x, y\n  y = x\n"
                    "end subroutine\n")
    impl = tmp_path / "impl"
    impl.mkdir()
    (impl / "error.txt").write_text(f"{prog}:5:3: error: derived types are not supported\n")
    harness.expect_error(prog, tmp_path / "w", fake_adgen(impl))       # case-insensitive
    (impl / "error.txt").write_text(f"{prog}: error: derived types are not supported\n")
    with pytest.raises(AssertionError, match="FILE:LINE:COL"):
        harness.expect_error(prog, tmp_path / "w", fake_adgen(impl))


# ---- handles: structs holding pointers (harness_selftest/handles.c, derivatives in hgood/) ----

HANDLES = HERE / "handles.c"


def test_parse_spec_handles():
    spec = harness.parse_spec("""/* adgen-test
head: energy(energy)/(m u)
arg m: const Mesh * = handle
field m.n: int = 4
field m.h: double = uniform(0.5, 1)
field m.x: double[m.n + 1]
field m.fixed: int[m.n + 1] = range(0, 2)
field m.mat: Material*
field m.mat.k: double[m.n] = 1.5
field m.c: Coef
field m.c.a: float
field m.w[2]: double = {1, 2}
arg u: double[m->n + 1]
head: weighted(weighted)/(v)
arg v: struct vec = handle
field v.a: double[3]
*/""")
    h1, h2 = spec.heads
    m, u = h1.args
    assert (m.kind, m.ctype, m.pointer) == ("handle", "Mesh", True)
    assert [f.path for f in m.fields] == ["m.n", "m.h", "m.x", "m.fixed", "m.mat", "m.mat.k",
                                          "m.c", "m.c.a", "m.w"]
    assert [f.kind for f in m.fields] == ["int", "real", "array", "array", "struct_ptr",
                                          "array", "struct", "real", "fixed"]
    assert [f.floating for f in m.fields] == [False, True, True, False, False, True, False,
                                              True, True]
    assert m.field_at("m.x").length == "m.n + 1" and m.field_at("m.w").length == "2"
    assert m.field_at("m.mat.k").ident == "m__mat__k" and m.field_at("m.mat").ctype == "Material"
    (v,) = h2.args
    assert (v.kind, v.ctype, v.pointer) == ("handle", "struct vec", False)
    assert m.byref("m.c.a") and not v.byref("v.a")     # (v.a's elements are behind it)
    # the C texts of the driver and of the head
    handles = {"m": m, "v": v}
    assert harness.translate("m.n + 1", handles, "driver") == "(drvh_m.n) + 1"
    assert harness.translate("m->n * k.n", handles, "head") == "(m->n) * k.n"
    assert harness.head_expr(m, "m.mat.k") == "m->mat->k" and harness.head_expr(v, "v.a") == "v.a"
    assert harness.head_expr(m, "m.c.a") == "m->c.a"
    assert harness.field_lvalue(m, "m.mat.k", "drvbh") == "drvbh_m__mat.k"
    assert harness.field_lvalue(m, "m.c.a", "drvh") == "drvh_m.c.a"


@pytest.mark.parametrize("bad", [
    "head: f(y)/(x)\narg x: double[3]\nfield x.n: int = 3",         # x is no handle
    "head: f(y)/(m)\nfield m.n: int = 3\narg m: M* = handle",        # field before its arg
    "head: f(y)/(m)\narg m: M* = handle\nfield m.a.b: double",       # m.a not given
    "head: f(y)/(m)\narg m: M* = handle\nfield m.a: double\nfield m.a.b: double",
    "head: f(y)/(m)\narg m: M* = handle\nfield m.n: int",             # int without value
    "head: f(y)/(m)\narg m: M* = handle\nfield m.k: int[3]",          # int array without init
    "head: f(y)/(m)\narg m: M* = handle\nfield m.s: S* = {1, 2}",     # struct field with a value
    "head: f(y)/(m)\narg m: M* = handle\nfield m.x: double[3]\nfield m.x: double[3]",
    "head: f(y)/(m)\narg m: M* = handle\nfield m.c[2]: double[2]",    # two lengths
    "head: f(y)/(m)\narg m: M = {1, 2}\nfield m.n: int = 3",          # not a handle
])
def test_parse_spec_rejects_handles(bad):
    with pytest.raises(harness.SpecError):
        harness.parse_spec(bad)


def test_handle_plan_checks():
    """A length may use the fields given above it only; a head's handle needs a
    floating-point field."""
    text = HANDLES.read_text()
    bad = text.replace("field g.x: double[g.n]", "field g.x: double[g.mat.n]")
    spec = harness.parse_spec(bad)
    with pytest.raises(harness.SpecError, match="g.mat.n is not a field given above"):
        harness.make_plan(spec, spec.heads[0], bad)
    spec = harness.parse_spec("head: f(f)/(v)\narg v: Vec = handle\nfield v.n: int = 3\n")
    with pytest.raises(harness.SpecError, match="no floating-point field"):
        harness.make_plan(spec, spec.heads[0], "typedef struct { int n; } Vec;\n"
                          "double f(Vec v) { return v.n; }\n")


def test_handle_prototypes_and_parts():
    text = HANDLES.read_text()
    spec = harness.parse_spec(text)
    plans = [harness.make_plan(spec, h, text) for h in spec.heads]
    assert [harness.prototypes(p) for p in plans] == [
        ("void energy_b(const Grid *g, Grid *gb, double energyb);",
         "double energy_d(const Grid *g, const Grid *gd, double *energy);"),
        ("void scale_b(Vec v, Vec *vb, Vec *out, Vec *outb);",
         "void scale_d(Vec v, Vec vd, Vec *out, Vec *outd);"),
        ("void relax_b(Vec *v, Vec *vb);", "void relax_d(Vec *v, Vec *vd);"),
        ("void damp_b(Vec v, Vec *vb);", "void damp_d(Vec v, Vec vd);"),
        ("void fill_b(double t, double *tb, Vec out, Vec *outb);",
         "void fill_d(double t, double td, Vec out, Vec outd);")]
    # the parts of a handle, in the order of its field lines
    assert [p.label for p in plans[0].indep_parts()] == ["g.h", "g.x", "g.mat.k", "g.mat.rho",
                                                         "g.c.a", "g.c.b", "g.w"]
    # a handle's own fields by value are no outputs: damp(v)/(v) outputs v.v only
    assert [p.label for p in plans[3].dep_parts()] == ["v.v"]
    assert [p.label for p in plans[3].indep_parts()] == ["v.s", "v.v"]
    # sizes: give names a handle's pointer fields as C does
    plans[0].spec.sizes = "give"
    assert harness.size_options(plans[0]) == ["--size", "g->x=(g->n)",
                                              "--size", "g->mat->k=(g->n)"]


def test_handles_correct_derivatives_pass(tmp_path):
    harness.check_program(HANDLES, tmp_path, fake_adgen(HERE / "hgood"))
    harness.check_primal(HANDLES, tmp_path / "primal")       # (no derivative routines)


# (file, text to replace, replacement, expected words in the failure)
HMUTATIONS = {
    "field_adjoint_accumulated": ("energy_b.c", "gb->h = 0;", "",
                                  ["garbage", "pure input(s) g.h", "must be set"]),
    "nested_handle_wrong_adjoint": ("energy_b.c", "gb->mat->k[i] = g->x[i]",
                                    "gb->mat->k[i] = 1.001 * g->x[i]",
                                    ["adjoint energy_b vs central", "adjoint of g.mat.k[",
                                     "dot-product test"]),
    "array_in_struct_not_set": ("energy_b.c", "gb->w[1] = g->w[0] * energyb;", "",
                                ["garbage", "g.w[1]"]),
    "struct_field_wrong_tangent": ("energy_d.c", "g->c.a * gd->c.b", "g->c.a * gd->c.a",
                                   ["tangent energy_d vs central", "dot-product test"]),
    "handle_seed_not_consumed": ("scale_b.c", "outb->s = 0;", "",
                                 ["did not consume the seed of pure output out: the seed of "
                                  "out.s"]),
    "handle_tangent_accumulated": ("scale_d.c", "outd->s = 2", "outd->s += 2",
                                   ["garbage", "tangent of pure output(s) out.s"]),
    "by_value_field_not_set": ("damp_b.c", "vb->s = 0;", "",
                               ["garbage", "v.s", "must be set"]),
    "by_value_output_field_touched": ("fill_b.c", "    /* out.s is no output",
                                      "    outb->s = 0;\n    /* out.s is no output",
                                      ["fill_b changed the derivative of out.s"]),
    "handle_primal_output": ("relax_d.c", "v->s = 0.5 * v->s;", "",
                             ["primal output v.s computed by relax_d"]),
    "handle_by_pointer_prototype": ("scale_d.c", "Vec v, Vec vd, Vec *out, Vec *outd)\n{",
                                    "Vec v, const Vec *vdp, Vec *out, Vec *outd)\n{\n"
                                    "    Vec vd = *vdp;", ["prototype of docs/conventions.md"]),
}


@pytest.mark.parametrize("name", sorted(HMUTATIONS))
def test_handle_mistakes_are_caught(name, tmp_path):
    fname, old, new, words = HMUTATIONS[name]
    impl = tmp_path / "impl"
    shutil.copytree(HERE / "hgood", impl)
    text = (impl / fname).read_text()
    assert old in text
    (impl / fname).write_text(text.replace(old, new))
    with pytest.raises(AssertionError) as info:
        harness.check_program(HANDLES, tmp_path / "work", fake_adgen(impl))
    for w in words:
        assert w in str(info.value), str(info.value)


def test_huge_values_are_refused(tmp_path):
    """Dependents or finite differences near the garbage value the checks fill in cannot be
    told from it: the program is refused (its inputs' ranges are to blame), not adgen."""
    prog = tmp_path / "huge.c"
    prog.write_text("/* adgen-test\nhead: f(f)/(x)\narg n: int = 2\narg x: double[n]\n*/\n"
                    "double f(int n, const double *x)\n{\n    return 1e26 * x[0] * x[n - 1];\n}\n")
    with pytest.raises(AssertionError, match="too large to tell from the garbage"):
        harness.check_primal(prog, tmp_path / "w")


def test_stray_module_files_where_the_tests_run(tmp_path, monkeypatch):
    """A .mod file of another module of the same name in the directory the tests are run
    from (left by a manual gfortran -c there) does not stand for the primal's module when
    the harness compiles its Fortran main program: gfortran reads the current directory's
    .mod files first, so the harness compiles in its module directory."""
    reason = harness.ensure_gfortran()
    if reason:
        pytest.skip(f"the Fortran tests need {harness.FC}: {reason}")
    stray = tmp_path / "stray"
    stray.mkdir()
    (stray / "fields.f90").write_text("module fields\n  integer :: other\nend module fields\n")
    harness._run([harness.FC, "-c", "fields.f90"], "gfortran", 120, cwd=stray)
    assert (stray / "fields.mod").exists()
    monkeypatch.chdir(stray)
    program = Path(__file__).resolve().parent.parent / "testsuite" / "fortran" / \
        "character_arrays.f90"
    harness.check_program(program, tmp_path / "work")
