"""The Python API (adgen.differentiate, adgen.build) and `adgen check`.

Builds go to one session-wide cache directory (the `adgen_cache` fixture), so each program
is compiled once per session; numeric calls on test programs run in a forked child
(api_support.isolated) so that a crash in generated code fails one test only."""
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import adgen
import api_support as S
from adgen import check as adgen_check

ROOT = S.ROOT
C = ROOT / "testsuite" / "c"
MODEL = ROOT / "examples" / "rosenbrock" / "model.c"
ROSEN = "rosenbrock(rosenbrock)/(x)"


def _rosen(cache, **kw):
    return adgen.build(str(MODEL), head=ROSEN, cache_dir=cache, **kw)


def _rosen_grad(x, a=100.0):
    g = np.zeros_like(x)
    for i in range(len(x) - 1):
        u = x[i + 1] - x[i] ** 2
        g[i] += -4 * a * u * x[i] - 2 * (1 - x[i])
        g[i + 1] += 2 * a * u
    return g


# ------------------------------------------------------------------ against finite differences

# (program, head index, tolerance): heads with one scalar dependent
GRADIENT_CASES = [("return_double.c", 0, 1e-6), ("header_regression.c", 1, 1e-6),
                  ("loop_do_while.c", 0, 1e-6), ("call_chain.c", 1, 1e-6),
                  ("early_return.c", 1, 1e-6), ("gmm.c", 0, 1e-6),  # an output of 1 element
                  ("lstm.c", 0, 1e-5)]
# any heads: in/out arguments, by-value scalars, several dependents, structs, float
JACOBIAN_CASES = [("byvalue_scalars.c", 0, 1e-6), ("inout_args.c", 0, 1e-6),
                  ("multi_output.c", 0, 1e-6), ("struct_by_value.c", 0, 1e-6),
                  ("struct_by_pointer.c", 0, 1e-6), ("dense_layer.c", 0, 1e-6),
                  ("kepler_newton.c", 0, 1e-6), ("float_accum.c", 0, 1e-2)]


def _gradient_check(built, args, tol):
    J = S.central_fd_jacobian(built, args, h=1e-6)
    g = built.gradient(*args)
    assert set(g) == set(built.independents)
    errs = {}
    for x in built.independents:
        want = J[built.dependents[0], x].ravel()
        got = np.atleast_1d(np.asarray(g[x], dtype=float)).ravel()
        i = built.parameters.index(x)
        if isinstance(args[i], np.ndarray):
            assert isinstance(g[x], np.ndarray) and g[x].shape == args[i].shape
        else:
            assert isinstance(g[x], float)
        errs[x] = S.rel_err(got, want)
    return errs


@pytest.mark.parametrize("program,idx,tol", GRADIENT_CASES,
                         ids=[f"{p[:-2]}-{i}" for p, i, _ in GRADIENT_CASES])
def test_gradient_vs_finite_differences(program, idx, tol, adgen_cache, tmp_path):
    built, spec, head = S.build_head(C / program, idx, cache_dir=adgen_cache)
    args = S.head_arguments(C / program, head, spec, tmp_path, seed=spec.seed)
    errs = S.isolated(_gradient_check, built, args, tol)
    assert all(e <= tol for e in errs.values()), f"{head}: gradient vs FD: {errs}"


def _jacobian_check(built, args, seed):
    """Errors of jacobian (every method), vjp and jvp against central FD; also that no
    argument was modified."""
    before = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    J = S.central_fd_jacobian(built, args, h=1e-6 if _prec(built, args) == "double" else 3e-3)
    errs = {}
    methods = ["reverse", "forward", "auto"] + (["vector"] if built.vector else [])
    for m in methods:
        got = built.jacobian(*args, method=m)
        assert set(got) == set(J)
        for k in J:
            assert got[k].shape == J[k].shape, (m, k, got[k].shape, J[k].shape)
            errs[f"jacobian[{m}] {k}"] = S.rel_err(got[k], J[k])
    rng = np.random.default_rng(seed)
    idx = {n: i for i, n in enumerate(built.parameters)}
    shape = lambda n: () if n == built.name or not isinstance(args[idx[n]], np.ndarray) \
        else args[idx[n]].shape  # noqa: E731
    seeds = {d: (rng.uniform(-1, 1, shape(d)) if shape(d) else float(rng.uniform(-1, 1)))
             for d in built.dependents}
    xbar = built.vjp(*args, seeds=seeds)
    for x in built.independents:
        want = sum(J[d, x].T @ np.atleast_1d(seeds[d]).ravel() for d in built.dependents)
        errs[f"vjp {x}"] = S.rel_err(np.atleast_1d(xbar[x]).ravel(), want)
        assert np.shape(xbar[x]) == shape(x)
    tangents = {x: (rng.uniform(-1, 1, shape(x)) if shape(x) else float(rng.uniform(-1, 1)))
                for x in built.independents}
    ydot = built.jvp(*args, tangents=tangents)
    for d in built.dependents:
        want = sum(J[d, x] @ np.atleast_1d(tangents[x]).ravel() for x in built.independents)
        errs[f"jvp {d}"] = S.rel_err(np.atleast_1d(ydot[d]).ravel(), want)
        assert np.shape(ydot[d]) == shape(d)
    for a, b in zip(args, before):
        if isinstance(a, np.ndarray):
            assert np.array_equal(a, b), "a derivative method modified its arguments"
    return errs


def _prec(built, args):
    idx = {n: i for i, n in enumerate(built.parameters)}
    for n in built.independents + built.dependents:
        if n != built.name and isinstance(args[idx[n]], np.ndarray) and \
                args[idx[n]].dtype == np.float32:
            return "float"
    return "double"


@pytest.mark.parametrize("program,idx,tol", JACOBIAN_CASES,
                         ids=[f"{p[:-2]}-{i}" for p, i, _ in JACOBIAN_CASES])
def test_jacobian_vjp_jvp_vs_finite_differences(program, idx, tol, adgen_cache, tmp_path):
    built, spec, head = S.build_head(C / program, idx, cache_dir=adgen_cache)
    args = S.head_arguments(C / program, head, spec, tmp_path, seed=spec.seed)
    errs = S.isolated(_jacobian_check, built, args, spec.seed)
    bad = {k: e for k, e in errs.items() if not e <= tol}
    assert not bad, f"{head}: relative errors beyond {tol}: {bad}"


# ------------------------------------------------------------------------- the basics

def test_rosenbrock_primal_gradient_and_shapes(adgen_cache):
    m = _rosen(adgen_cache)
    assert isinstance(m, adgen.Built)
    assert m.name == "rosenbrock" and m.dependents == ["rosenbrock"] and m.independents == ["x"]
    assert m.parameters == ["n", "x", "a"]
    x = np.array([-1.2, 1.0, -1.2, 1.0, 0.5, 0.8])
    keep = x.copy()
    f = m.primal(6, x, 100.0)
    want = sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2 for i in range(5))
    assert f == pytest.approx(want, rel=1e-14)
    g = m.gradient(6, x, a=100.0)                      # keywords work too
    np.testing.assert_allclose(g["x"], _rosen_grad(x), rtol=1e-12)
    assert np.array_equal(x, keep)
    # a 2-D array: results come back in its shape
    x2 = x.reshape(2, 3)
    g2 = m.gradient(6, x2, 100.0)
    assert g2["x"].shape == (2, 3)
    np.testing.assert_allclose(g2["x"].ravel(), g["x"], rtol=1e-15)
    # vjp with the return value's seed (keyed by the function's name), jvp, jacobian
    np.testing.assert_allclose(m.vjp(6, x, 100.0, seeds={"rosenbrock": 2.0})["x"],
                               2 * g["x"], rtol=1e-14)
    t = np.linspace(-1, 1, 6)
    assert m.jvp(6, x, 100.0, tangents={"x": t})["rosenbrock"] == \
        pytest.approx(float(g["x"] @ t), rel=1e-12)
    J = m.jacobian(6, x, 100.0)
    assert set(J) == {("rosenbrock", "x")} and J["rosenbrock", "x"].shape == (1, 6)
    np.testing.assert_allclose(J["rosenbrock", "x"][0], g["x"], rtol=1e-12)
    # vector mode: one f_dv call for 3 directions
    T = np.random.default_rng(0).uniform(-1, 1, (3, 6))
    v = m.jvp(6, x, 100.0, tangents={"x": T}, nbdirs=3)["rosenbrock"]
    assert v.shape == (3,)
    np.testing.assert_allclose(v, T @ g["x"], rtol=1e-12)


def test_primal_writes_outputs_in_place(adgen_cache):
    built, spec, head = S.build_head(C / "multi_output.c", cache_dir=adgen_cache)
    n = 6
    r, theta = np.linspace(0.5, 2, n), np.linspace(-3, 3, n)
    xy, stats = np.zeros(2 * n), np.zeros(4)
    assert built.primal(n, r, theta, xy, stats) is None
    np.testing.assert_allclose(xy[0::2], r * np.cos(theta), rtol=1e-12)
    np.testing.assert_allclose(xy[1::2], r * np.sin(theta), rtol=1e-12)
    assert stats[2] == pytest.approx(r.mean(), rel=1e-14)
    # a non-contiguous output is written back too
    big = np.zeros(4 * n)
    built.primal(n, r, theta, big[::2], stats)
    np.testing.assert_allclose(big[::2], xy, rtol=1e-15)
    # a read-only output is refused
    ro = np.zeros(2 * n)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="xy.*read-only"):
        built.primal(n, r, theta, ro, stats)


def test_inout_argument_and_inputs_not_modified(adgen_cache):
    built, spec, head = S.build_head(C / "inout_args.c", cache_dir=adgen_cache)
    assert built.dependents == ["y"] and set(built.independents) == {"a", "x", "y"}
    n, a = 6, 0.7
    x, y = np.linspace(-1, 1, n), np.linspace(1, 2, n)
    x0, y0 = x.copy(), y.copy()
    ybar = np.linspace(0.1, 0.6, n)
    res = built.vjp(n, a, x, y, seeds={"y": ybar})
    assert isinstance(res["a"], float)
    assert np.array_equal(x, x0) and np.array_equal(y, y0)
    J = S.isolated(S.central_fd_jacobian, built, [n, a, x, y])
    np.testing.assert_allclose(res["y"], J["y", "y"].T @ ybar, rtol=1e-6)
    np.testing.assert_allclose(res["x"], J["y", "x"].T @ ybar, rtol=1e-6)


# ----------------------------------------------------------------------------- errors

def test_error_paths(adgen_cache):
    m = _rosen(adgen_cache)
    x = np.linspace(0, 1, 6)
    with pytest.raises(ValueError, match=r"argument 'x' has 4 elements, but rosenbrock uses 6"
                                         r".*n=6"):
        m.gradient(6, x[:4], 100.0)
    with pytest.raises(TypeError, match=r"argument 'x'.*dtype float64.*got float32"):
        m.gradient(6, x.astype(np.float32), 100.0)
    with pytest.raises(TypeError, match=r"argument 'x'.*numpy array.*got list"):
        m.primal(6, list(x), 100.0)
    with pytest.raises(TypeError, match=r"missing argument 'a'"):
        m.gradient(6, x)
    with pytest.raises(TypeError, match=r"takes 3 arguments"):
        m.primal(6, x, 100.0, 1)
    with pytest.raises(TypeError, match=r"unknown argument 'b'"):
        m.primal(6, x, b=1.0)
    with pytest.raises(TypeError, match=r"two values for argument 'x'"):
        m.primal(6, x, 100.0, x=x)
    with pytest.raises(TypeError, match=r"argument 'n' \(int\) must be an int, got float"):
        m.primal(6.0, x, 100.0)
    with pytest.raises(ValueError, match=r"argument 'n'.*out of range"):
        m.primal(2 ** 40, x, 100.0)
    with pytest.raises(TypeError, match=r"argument 'a' \(double\) must be a real number"):
        m.primal(6, x, "100")
    with pytest.raises(ValueError, match=r"seeds: 'y' is not a dependent.*rosenbrock"):
        m.vjp(6, x, 100.0, seeds={"y": 1.0})
    with pytest.raises(ValueError, match=r"tangents: 'rosenbrock' is not an independent"):
        m.jvp(6, x, 100.0, tangents={"rosenbrock": 1.0})
    with pytest.raises(ValueError, match=r"tangents\['x'\] has shape \(5,\), expected \(6,\)"):
        m.jvp(6, x, 100.0, tangents={"x": np.ones(5)})
    with pytest.raises(ValueError, match=r"3 directions"):
        m.jvp(6, x, 100.0, tangents={"x": np.ones((2, 6))}, nbdirs=3)
    with pytest.raises(ValueError, match="nbdirs must be a positive int"):
        m.jvp(6, x, 100.0, tangents={}, nbdirs=0)
    with pytest.raises(ValueError, match="method must be"):
        m.jacobian(6, x, 100.0, method="sideways")
    with pytest.raises(TypeError, match="unknown option 'optimise'"):
        adgen.build(str(MODEL), head=ROSEN, optimise=True)
    with pytest.raises(adgen.AdgenError, match="'nothere', which is not a function"):
        adgen.build(str(MODEL), head="nothere(y)/(x)", cache_dir=adgen_cache)
    # nothing was built for the failures, nothing crashed
    assert m.gradient(6, x, 100.0)["x"].shape == (6,)


def test_error_paths_structs_and_outputs(adgen_cache):
    built, spec, head = S.build_head(C / "struct_by_value.c", cache_dir=adgen_cache)
    a, x, y = np.ones(12), np.ones(4), np.zeros(3)
    with pytest.raises(TypeError, match=r"argument 'shape' \(Shape\): cannot make a Shape"):
        built.primal({"rows": 3, "nope": 1}, a, x, y)
    with pytest.raises(ValueError, match=r"argument 'y' has 2 elements, but scaled_matvec "
                                         r"uses 3"):
        built.primal([3, 4, 0.5], a, x, y[:2])
    built.primal({"rows": 3, "cols": 4, "scale": 0.5}, a, x, y)
    np.testing.assert_allclose(y, np.tanh(0.5 * 4) * np.ones(3), rtol=1e-14)
    with pytest.raises(ValueError, match=r"a gradient needs one scalar dependent.*y \(3 "
                                         r"values\).*vjp\(\) or jacobian\(\)"):
        built.gradient([3, 4, 0.5], a, x, y)


def test_vector_unavailable(adgen_cache, tmp_path):
    built, spec, head = S.build_head(C / "local_arrays.c", cache_dir=adgen_cache)
    assert not built.vector and "vector mode" in built.vector_error
    args = S.head_arguments(C / "local_arrays.c", head, spec, tmp_path)
    with pytest.raises(RuntimeError, match="vector mode is not available"):
        built.jvp(*args, tangents={}, nbdirs=2)
    with pytest.raises(RuntimeError, match="vector mode is not available"):
        built.jacobian(*args, method="vector")
    J = S.isolated(built.jacobian, *args)          # auto picks another method
    assert J["out", "a"].shape == (3, 9)


# ----------------------------------------------------------------------------- the cache

def test_cache_reuse_and_rebuild(adgen_cache, tmp_path):
    src = tmp_path / "model.c"
    shutil.copy(MODEL, src)
    cache = tmp_path / "cache"
    first = adgen.build(str(src), head=ROSEN, cache_dir=cache)
    assert not first.cached
    t0 = time.perf_counter()
    second = adgen.build(str(src), head=ROSEN, cache_dir=cache)
    elapsed = time.perf_counter() - t0
    assert second.cached and type(second) is type(first) and second.path == first.path
    assert elapsed < 0.5, f"a cached build took {elapsed:.2f} s"
    x = np.linspace(-1, 1, 5)
    np.testing.assert_array_equal(first.gradient(5, x, 100.0)["x"],
                                  second.gradient(5, x, 100.0)["x"])
    # changing the source rebuilds, and the new build computes the new function
    src.write_text(src.read_text().replace("return a * u * u + v * v;",
                                           "return a * u * u + 2.0 * v * v;"))
    third = adgen.build(str(src), head=ROSEN, cache_dir=cache)
    assert not third.cached and third.path != first.path
    assert third.primal(5, x, 100.0) != first.primal(5, x, 100.0)
    # other options are part of the key; rebuild=True ignores the cache
    assert not adgen.build(str(src), head=ROSEN, cache_dir=cache, defines=["UNUSED=1"]).cached
    assert not adgen.build(str(src), head=ROSEN, cache_dir=cache, rebuild=True).cached
    # $ADGEN_CACHE is the default directory
    old = os.environ.get("ADGEN_CACHE")
    os.environ["ADGEN_CACHE"] = str(cache)
    try:
        assert adgen.build(str(src), head=ROSEN).cached
        assert adgen.cache_dir() == cache.resolve()
    finally:
        if old is None:
            del os.environ["ADGEN_CACHE"]
        else:
            os.environ["ADGEN_CACHE"] = old
    assert not list((cache / "tmp").iterdir()), "a temporary build directory was left"


def test_cache_header_change_rebuilds(tmp_path):
    (tmp_path / "scale.h").write_text("#define SCALE 2.0\n")
    src = tmp_path / "f.c"
    src.write_text('#include "scale.h"\ndouble f(double x) { return SCALE * x * x; }\n')
    cache = tmp_path / "cache"
    b1 = adgen.build(str(src), head="f(f)/(x)", cache_dir=cache, vector=False)
    assert b1.gradient(3.0)["x"] == pytest.approx(12.0)
    (tmp_path / "scale.h").write_text("#define SCALE 3.0\n")
    b2 = adgen.build(str(src), head="f(f)/(x)", cache_dir=cache, vector=False)
    assert not b2.cached and b2.gradient(3.0)["x"] == pytest.approx(18.0)


OWN = "double f(double x)\n{\n    return x * x * x;\n}\n"


def test_cache_refuses_a_directory_others_can_write(tmp_path):
    """Another local user could put a module under the predictable key: refused."""
    src = tmp_path / "f.c"
    src.write_text(OWN)
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    with pytest.raises(adgen.BuildError, match="writable by other users"):
        adgen.build(str(src), head="f(f)/(x)", cache_dir=shared, vector=False)
    assert not any(shared.iterdir()), "nothing may be built or loaded there"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="giving a directory to another user needs root")
def test_cache_refuses_a_directory_of_another_user(tmp_path):
    src = tmp_path / "f.c"
    src.write_text(OWN)
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, 65534, 65534)
    with pytest.raises(adgen.BuildError, match="belongs to another user"):
        adgen.build(str(src), head="f(f)/(x)", cache_dir=theirs, vector=False)


def test_cache_cleaning_removes_only_its_own_entries(tmp_path):
    """ADGEN_CACHE=~ made the cleaning delete any old directory under ~/tmp."""
    src = tmp_path / "f.c"
    src.write_text(OWN)
    cache = tmp_path / "home"
    (cache / "tmp" / "thesis").mkdir(parents=True)
    (cache / "tmp" / "thesis" / "chapter1.tex").write_text("...")
    stale = cache / "tmp" / ("0" * 32 + ".abc123xy")      # a build killed long ago
    stale.mkdir()
    for d in (cache / "tmp" / "thesis", stale):
        os.utime(d, (0, 0))
    adgen.build(str(src), head="f(f)/(x)", cache_dir=cache, vector=False)
    assert (cache / "tmp" / "thesis" / "chapter1.tex").exists()
    assert not stale.exists()


def test_cache_build_keeps_the_entry_another_process_made(tmp_path, monkeypatch):
    """Two processes building the same source at once: the one finishing second found the
    other's entry and removed it, while the first might be loading it."""
    from adgen.api import compiling       # build() looks read_meta up there
    src = tmp_path / "f.c"
    src.write_text(OWN)
    cache = tmp_path / "cache"
    first = adgen.build(str(src), head="f(f)/(x)", cache_dir=cache, vector=False)
    marker = first.path / "still-here"
    marker.write_text("")
    real = compiling.read_meta
    calls = []

    def unseen_once(path):          # the entry appears while this build runs
        calls.append(path)
        return None if len(calls) == 1 else real(path)
    monkeypatch.setattr(compiling, "read_meta", unseen_once)
    second = adgen.build(str(src), head="f(f)/(x)", cache_dir=cache, vector=False)
    assert second.path == first.path and marker.exists()
    assert second.gradient(2.0)["x"] == pytest.approx(12.0)


def test_build_with_flags_in_cc(tmp_path, monkeypatch):
    src = tmp_path / "f.c"
    src.write_text(OWN)
    monkeypatch.setenv("CC", "gcc -m64")
    b = adgen.build(str(src), head="f(f)/(x)", cache_dir=tmp_path / "c", vector=False)
    assert b.gradient(2.0)["x"] == pytest.approx(12.0)


def test_concurrent_builds(tmp_path):
    """Two processes building the same thing into one cache both succeed."""
    src = tmp_path / "g.c"
    src.write_text("double g(int n, const double *x)\n{ double s = 0; int i;\n"
                   "  for (i = 0; i < n; i++) s += x[i] * x[i] * x[i]; return s; }\n")
    code = ("import adgen, numpy as np, sys\n"
            f"b = adgen.build({str(src)!r}, head='g(g)/(x)', cache_dir={str(tmp_path / 'c')!r})\n"
            "print(b.gradient(3, np.array([1.0, 2.0, 3.0]))['x'].tolist())\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert json.loads(out) == [3.0, 12.0, 27.0]
    entries = [p for p in (tmp_path / "c").iterdir() if p.name != "tmp"]
    assert len(entries) == 1


# ------------------------------------------------------------------------ differentiate

def test_differentiate_paths_text_and_options(tmp_path):
    text = adgen.differentiate(str(MODEL), head=ROSEN)
    assert "void rosenbrock_b(int n, const double *x, double *xb, double a, " \
           "double rosenbrockb)" in text
    assert "double rosenbrock_d(" in adgen.differentiate([MODEL], head=ROSEN, mode="forward")
    assert "rosenbrock_dv(" in adgen.differentiate(MODEL, head=ROSEN, mode="forward",
                                                   vector=True)
    src = "double sq(double x)\n{\n    return N * x * x;\n}\n"
    out = adgen.differentiate(src, head="sq(sq)/(x)", defines={"N": 3})
    assert "void sq_b(double x, double *xb, double sqb)" in out
    with pytest.raises(adgen.AdgenError, match="syntax error"):
        adgen.differentiate("double f(double x) {\n return x +; }\n", head="f(f)/(x)")
    with pytest.raises(ValueError, match="vector=True goes with mode='forward'"):
        adgen.differentiate(MODEL, head=ROSEN, vector=True)
    with pytest.raises(ValueError, match="mode: expected"):
        adgen.differentiate(MODEL, head=ROSEN, mode="sideways")
    with pytest.raises(TypeError, match="unknown option 'incude_dirs'"):
        adgen.differentiate(MODEL, head=ROSEN, incude_dirs=["."])
    with pytest.raises(TypeError, match="sizes: expected a dict"):
        adgen.differentiate(MODEL, head=ROSEN, sizes=["x=n"])


def test_build_from_source_text(adgen_cache):
    src = ("double cube_sum(int n, const double *x)\n{\n    double s = 0.0;\n"
           "    for (int i = 0; i < n; i++)\n        s += x[i] * x[i] * x[i];\n"
           "    return s;\n}\n")
    b = adgen.build(src, head="cube_sum(cube_sum)/(x)", cache_dir=adgen_cache)
    x = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(b.gradient(3, x)["x"], 3 * x ** 2, rtol=1e-15)


# ----------------------------------------------------------------------------- Fortran

def _fortran_available():
    if shutil.which(os.environ.get("FC", "gfortran")) is None:
        return "gfortran is not installed"
    try:
        import adgen.frontend.fortran_front  # noqa: F401
    except ImportError as exc:
        return f"adgen's Fortran front end is missing ({exc})"
    return None


@pytest.mark.skipif(_fortran_available() is not None, reason=str(_fortran_available()))
def test_fortran_function_and_subroutine(adgen_cache):
    F = ROOT / "testsuite" / "fortran"
    b = adgen.build(str(F / "func_result.f90"), head="energy(energy)/(x)",
                    cache_dir=adgen_cache)
    x = np.linspace(-1, 1, 6)
    # scalars passed by reference are given as Python numbers
    J = S.isolated(S.central_fd_jacobian, b, [6, x, 1.5])
    g = S.isolated(b.gradient, 6, x, 1.5)
    np.testing.assert_allclose(g["x"], J["energy", "x"][0], rtol=1e-6)
    s = adgen.build(str(F / "sub_basic.f90"), head="upwind_step(unew)/(u c)",
                    cache_dir=adgen_cache)
    u, unew = np.linspace(0.5, 1.5, 8), np.zeros(8)
    args = [8, u, 0.7, 0.1, unew]
    J = S.isolated(S.central_fd_jacobian, s, args)
    got = S.isolated(s.jacobian, *args)
    for k in J:
        assert S.rel_err(got[k], J[k]) <= 1e-6, k
    assert isinstance(S.isolated(s.vjp, *args, seeds={"unew": np.ones(8)})["c"], float)
    # the vector tangent takes nbdirs by reference, as every argument of a Fortran routine
    T = np.random.default_rng(1).uniform(-1, 1, (3, 8))
    many = S.isolated(s.jvp, *args, tangents={"u": T}, nbdirs=3)["unew"]
    for k in range(3):
        one = S.isolated(s.jvp, *args, tangents={"u": T[k]})["unew"]
        assert S.rel_err(many[k], one) <= 1e-12, k
    with pytest.raises(ValueError, match="argument 'u' has 5 elements.*n=8"):
        s.primal(8, u[:5], 0.7, 0.1, unew)


@pytest.mark.skipif(_fortran_available() is not None, reason=str(_fortran_available()))
def test_fortran_assumed_shape_head_refused(adgen_cache):
    """gfortran's primal takes array descriptors for assumed-shape dummies: the API says
    it cannot call it, rather than passing bare pointers."""
    with pytest.raises(adgen.BuildError, match="assumed-shape dummy argument 'x'"):
        adgen.build(str(ROOT / "testsuite" / "fortran" / "assumed_shape_head_1d.f90"),
                    head="weighted_sum(weighted_sum)/(x w)", cache_dir=adgen_cache)


@pytest.mark.skipif(_fortran_available() is not None, reason=str(_fortran_available()))
def test_check_fortran(adgen_cache, capsys, monkeypatch):
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    status, out, err = _check([str(ROOT / "testsuite" / "fortran" / "sub_basic.f90"), "--head",
                               "upwind_step(unew)/(u c)"], capsys)
    assert status == 0, out + err
    # scalars passed by reference get scalar values; the lengths come from n
    assert "n = 3 (default" in out and "unew: 3 values" in out and "unew[0] / c " in out


F_MESH = ROOT / "tests" / "fortran_handle_head" / "mesh.f90"


def _f_mesh(n=4):
    """A mesh_t of tests/fortran_handle_head/mesh.f90: x(0:n) (lower bound 0), w(2, n)."""
    i = np.arange(1, n + 1)
    return {"n": n, "h": 0.7, "x": {"lbound": [0], "values": np.linspace(0, 1, n + 1) ** 1.5},
            "w": np.array([np.cos(0.3 * i), 1 + 0.5 * np.sin(0.3 * i + 1)]),
            "ids": np.arange(1, n + 1, dtype=np.int32)}


@pytest.mark.skipif(_fortran_available() is not None, reason=str(_fortran_available()))
def test_fortran_derived_type_with_allocatable_components(adgen_cache):
    """A derived type with allocatable components as an independent: its components are
    given as numpy arrays (a dict with 'lbound' for other lower bounds), the API fills
    gfortran's descriptors; the gradient comes back in the type's shape (x(0:n) as n+1
    values, w(2, n) as a 2 x n array) and agrees with central finite differences."""
    b = adgen.build([str(F_MESH)], head="energy(cost)/(m q)", cache_dir=adgen_cache)
    m, q = _f_mesh(), np.array([0.4, 0.5, 0.6, 0.7])
    g = b.gradient(m, q, np.zeros(1))
    assert g["m"]["x"].shape == (5,) and g["m"]["w"].shape == (2, 4)
    assert set(g["m"]) == {"h", "x", "w"}

    def cost(mm, qq):
        out = np.zeros(1)
        b.primal(mm, qq, out)
        return out[0]
    h = 1e-6
    for key, idx in (("x", 0), ("x", 4), ("w", (1, 2)), ("w", (0, 3))):
        plus, minus = _f_mesh(), _f_mesh()
        for mm, sign in ((plus, 1), (minus, -1)):
            arr = mm["x"]["values"] if key == "x" else mm["w"]
            arr[idx] += sign * h
        fd = (cost(plus, q) - cost(minus, q)) / (2 * h)
        assert abs(g["m"][key][idx] - fd) <= 1e-7 * max(1.0, abs(fd)), (key, idx)
    with pytest.raises(TypeError, match="m.w"):
        b.gradient({k: v for k, v in m.items() if k != "w"}, q, np.zeros(1))


@pytest.mark.skipif(_fortran_available() is not None, reason=str(_fortran_available()))
def test_check_fortran_derived_type_with_allocatable_components(adgen_cache, tmp_path):
    """adgen check takes a derived type's allocatable components from --inputs as (nested)
    lists, and names the elements as numpy indexes them; without them, a usage error
    naming each with its rank (not the descriptor's fields)."""
    m = _f_mesh()
    m = {"n": 4, "h": 0.7, "x": {"lbound": [0], "values": m["x"]["values"].tolist()},
         "w": m["w"].tolist(), "ids": [1, 2, 3, 4]}
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"m": m}))
    env = dict(os.environ, ADGEN_CACHE=adgen_cache, PYTHONPATH=str(ROOT))
    base = [sys.executable, "-m", "adgen", "check", str(F_MESH), "--head", "relax(m)/(m)",
            "--inputs", str(inputs)]
    ok = subprocess.run(base, capture_output=True, text=True, env=env)
    assert ok.returncode == 0 and "PASS: 1 pair agrees" in ok.stdout, ok.stdout + ok.stderr
    assert re.search(r"^m\.(h|x\[\d\]|w\[\d, \d\]) / m\.(h|x\[\d\]|w\[\d, \d\])",
                     ok.stdout, re.M), ok.stdout
    inputs.write_text(json.dumps({"m": {"h": 0.7}}))
    bad = subprocess.run(base, capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr
    assert "m.w (an allocatable array of double, rank 2)" in bad.stderr, bad.stderr
    assert "base_addr" not in bad.stderr and '"w": [[<numbers>]]' in bad.stderr, bad.stderr


@pytest.mark.skipif(_fortran_available() is not None, reason=str(_fortran_available()))
def test_check_fortran_declared_sizes(adgen_cache, capsys, monkeypatch, tmp_path):
    """An explicit-shape array gets its declared size, all of which the derivative code
    uses (an adjoint sets every element): `x(5)` five elements, though the body reads two
    (fewer crashed the check); `q0(n, n)` n*n, though the extent analysis cannot follow
    the DO WHILE loop."""
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src = tmp_path / "declared.f90"
    src.write_text("subroutine pair(x, y)\n"
                   "  double precision :: x(5), y\n"
                   "  y = x(2)*x(3)\n"
                   "end subroutine pair\n"
                   "subroutine square(n, q0, y)\n"
                   "  integer n, i\n"
                   "  double precision :: q0(n, n), y\n"
                   "  i = 1\n"
                   "  y = 0\n"
                   "  do while (i <= n)\n"
                   "    y = y + q0(i, 1)**2 * q0(n, i)\n"
                   "    i = i + 1\n"
                   "  end do\n"
                   "end subroutine square\n")
    status, out, err = _check([str(src), "--head", "pair(y)/(x)"], capsys)
    assert status == 0, out + err
    assert "x: 5 random values in [-1, 1] (length from the declared size, 5)" in out
    status, out, err = _check([str(src), "--head", "square(y)/(q0)"], capsys)
    assert status == 0, out + err
    assert "q0: 9 random values in [-1, 1] (length from the declared size, n * n)" in out


# ------------------------------------------------------------------------------ adgen check

def _check(argv, capsys):
    status = adgen_check.main(argv)
    cap = capsys.readouterr()
    return status, cap.out, cap.err


def test_check_passes(adgen_cache, capsys, monkeypatch):
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    status, out, err = _check([str(MODEL), "--head", "rosenbrock(rosenbrock)/(x a)",
                               "--size", "x=n"], capsys)
    assert status == 0, out + err
    assert "PASS" in out and "rosenbrock / x[" in out and "rosenbrock / a" in out
    assert "n = 3 (default" in out and "tolerance: rel. error <= 1e-06" in out
    for col in ("pair", "FD", "tangent", "adjoint", "rel. error", "ok"):
        assert col in out


def test_check_float_helper_in_a_double_model(adgen_cache, capsys, monkeypatch, tmp_path):
    """A double model calling a float helper: finite differences at double's step and
    tolerance would fail on float rounding, so check takes float's for the whole head."""
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src = tmp_path / "m.c"
    src.write_text("#include <math.h>\n"
                   "static float soft(float a) { return a / (1.0f + fabsf(a)) + 0.1f * a * a; }\n"
                   "double model(int n, const double *x)\n{\n    double s = 0.0;\n"
                   "    int i;\n    for (i = 0; i < n; i++)\n"
                   "        s += soft((float)x[i]) * x[i];\n    return s;\n}\n")
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"n": 4, "x": [0.3, -0.7, 1.2, 0.5]}))
    status, out, err = _check([str(src), "--head", "model(model)/(x)", "--inputs",
                               str(inputs)], capsys)
    assert status == 0, out + err
    assert "rel. error <= 0.002" in out and "computes with float values" in out, out


def test_check_inputs_file_and_inferred_lengths(adgen_cache, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"shape": {"rows": 2, "cols": 3, "scale": 0.5},
                                  "x": [0.1, -0.2, 0.3]}))
    status, out, err = _check([str(C / "struct_by_value.c"), "--head",
                               "scaled_matvec(y)/(a x)", "--inputs", str(inputs)], capsys)
    assert status == 0, out + err
    assert "a: 6 random values" in out and "x: 3 values from the inputs" in out
    # an int array without values, a struct without fields: usage errors (exit 2)
    status, out, err = _check([str(C / "struct_by_value.c"), "--head",
                               "scaled_matvec(y)/(a x)"], capsys)
    assert status == 2 and 'give its fields in --inputs' in err
    status, out, err = _check([str(C / "csr_matvec.c"), "--head", "csr_residual(r)/(vals x)"],
                              capsys)
    assert status == 2 and "rowptr is an array of int" in err
    status, out, err = _check([str(MODEL), "--head", ROSEN, "--size", "x"], capsys)
    assert status == 2 and "NAME=VALUE" in err
    status, out, err = _check([str(MODEL), "--head", ROSEN, "--bogus"], capsys)
    assert status == 2 and "usage:" in err


# ------------------------------------------------------------ structs as head variables

MISFIT = ROOT / "tests" / "c_struct_value_head" / "misfit.c"
SYSTEM = ROOT / "tests" / "c_struct_head" / "system.c"
PARAMS = {"amp": 1.3, "rate": 0.7, "poly": [0.2, -0.4]}
STATE = {"p": [{"x": [0.1, 0.2, 0.3], "m": 1.5, "id": 1},
               {"x": [0.7, -0.2, 0.4], "m": 0.8, "id": 2}], "scale": 1.2}


def _struct_value_checks(built):
    """Gradient of misfit (p a struct by value) against central FD over each field of p;
    jvp, vjp and the Jacobian of every method agree with it."""
    t, y = np.linspace(0.0, 1.5, 6), 1.0 + 0.2 * np.sin(np.arange(1.0, 7.0))
    g = built.gradient(PARAMS, 6, t, y)
    errs = {}
    for field, k in (("amp", None), ("rate", None), ("poly", 0), ("poly", 1)):
        vals = []
        for sign in (1.0, -1.0):
            p = json.loads(json.dumps(PARAMS))
            if k is None:
                p[field] += sign * 1e-6
            else:
                p[field][k] += sign * 1e-6
            vals.append(built.primal(p, 6, t, y))
        got = g["p"][field] if k is None else g["p"][field][k]
        errs[f"{field}{'' if k is None else k}"] = S.rel_err(got, (vals[0] - vals[1]) / 2e-6)
    assert set(g["p"]) == {"amp", "rate", "poly"} and g["p"]["poly"].shape == (2,)
    assert g["y"].shape == (6,)
    flat = [g["p"]["amp"], g["p"]["rate"], *g["p"]["poly"]]
    for m in ("reverse", "forward"):
        J = built.jacobian(PARAMS, 6, t, y, method=m)
        errs[f"jacobian[{m}]"] = S.rel_err(J["misfit", "p"].ravel(), np.array(flat))
    errs["jvp"] = S.rel_err(built.jvp(PARAMS, 6, t, y, tangents={"p": {"rate": 1.0}})["misfit"],
                            g["p"]["rate"])
    errs["vjp"] = S.rel_err(built.vjp(PARAMS, 6, t, y, seeds={"misfit": 2.0})["p"]["poly"],
                            2.0 * g["p"]["poly"])
    return errs


def test_struct_by_value_independent(adgen_cache):
    built = adgen.build(str(MISFIT), head="misfit(misfit)/(p y)", cache_dir=adgen_cache)
    errs = S.isolated(_struct_value_checks, built)
    assert all(e <= 1e-6 for e in errs.values()), errs


MESH = """typedef struct {
    int n;
    const double *coords;
} Mesh;

double energy(const Mesh *m, const double *u)
{
    double s = 0.0;
    int i;
    for (i = 0; i + 1 < m->n; i++) {
        double h = m->coords[i + 1] - m->coords[i];
        double du = (u[i + 1] - u[i]) / h;
        s += 0.5 * h * du * du;
    }
    return s;
}
"""


def _mesh_checks(built):
    """The gradient of energy through a mesh struct given as a dict whose pointer field is
    a list, against central differences of the primal."""
    mesh, u = {"n": 4, "coords": [0.0, 0.3, 0.7, 1.2]}, np.array([0.1, -0.4, 0.5, 0.2])
    g = built.gradient(mesh, u)["u"]
    fd = []
    for k in range(4):
        e = np.zeros(4)
        e[k] = 1e-6
        fd.append((built.primal(mesh, u + e) - built.primal(mesh, u - e)) / 2e-6)
    return S.rel_err(g, np.array(fd))


def test_struct_with_pointer_field_from_a_dict(adgen_cache, tmp_path):
    """An inactive struct holding a pointer (a mesh's coordinates): its pointer field may
    be given as a sequence, which becomes a C array for the call."""
    src = tmp_path / "mesh.c"
    src.write_text(MESH)
    built = adgen.build(str(src), head="energy(energy)/(u)", sizes={"u": "m->n"},
                        cache_dir=adgen_cache)
    assert S.isolated(_mesh_checks, built) <= 1e-6


def _struct_pointer_checks(built):
    """step(s)/(s) on a struct holding an array of structs: the Jacobian over its 9
    floating-point fields by reverse and forward mode agree; vjp and jvp with dict seeds
    and tangents are its rows and columns; an unknown field is refused."""
    Jr = built.jacobian(STATE, 0.1, method="reverse")["s", "s"]
    Jf = built.jacobian(STATE, 0.1, method="forward")["s", "s"]
    row = built.vjp(STATE, 0.1, seeds={"s": {"scale": 1.0}})["s"]
    col = built.jvp(STATE, 0.1, tangents={"s": {"p": [{"m": 1.0}, {}]}})["s"]
    flat_row = [*row["p"][0]["x"], row["p"][0]["m"], *row["p"][1]["x"], row["p"][1]["m"],
                row["scale"]]
    flat_col = [*col["p"][0]["x"], col["p"][0]["m"], *col["p"][1]["x"], col["p"][1]["m"],
                col["scale"]]
    try:
        built.vjp(STATE, 0.1, seeds={"s": {"mass": 1.0}})
        refused = None
    except ValueError as exc:
        refused = str(exc)
    return (Jr.shape, S.rel_err(Jr, Jf), S.rel_err(np.array(flat_row), Jr[8]),
            S.rel_err(np.array(flat_col), Jf[:, 3]), refused)


def test_struct_pointer_independent_and_dependent(adgen_cache):
    built = adgen.build(str(SYSTEM), head="step(s)/(s)", cache_dir=adgen_cache)
    shape, e_modes, e_row, e_col, refused = S.isolated(_struct_pointer_checks, built)
    assert shape == (9, 9) and e_modes <= 1e-12 and e_row <= 1e-12 and e_col <= 1e-12
    assert refused is not None and "no floating-point field 'mass'" in refused
    assert not built.vector and "struct" in built.vector_error


PARTICLES = """typedef struct { double x, v; int id; } Particle;

double energy(int n, Particle *p, double k)
{
    double e = 0.0;
    for (int i = 0; i < n; i++) {
        e += 0.5 * p[i].v * p[i].v + k * p[i].x * p[i].x * p[i].x;
        p[i].x = p[i].x + 0.1 * p[i].v;
    }
    return e;
}
"""


def _particle_checks(built, both):
    """energy over an array of three structs given as a list of dicts: the gradient is a
    list of dicts (central differences agree); with p a dependent too (both), vjp and jvp
    take lists of dicts, the Jacobian runs over the flattened fields; the arguments stay
    unchanged; one struct fewer than the code uses is refused."""
    parts = [{"x": 0.3 * k - 0.2, "v": 0.5 - 0.1 * k, "id": k} for k in range(3)]
    before = json.dumps(parts)
    g = built.gradient(3, parts, 0.7)
    errs = {}
    for k in range(3):
        for field in ("x", "v"):
            vals = []
            for sign in (1.0, -1.0):
                q = json.loads(before)
                q[k][field] += sign * 1e-6
                vals.append(built.primal(3, q, 0.7))
            errs[f"{field}{k}"] = S.rel_err(g["p"][k][field], (vals[0] - vals[1]) / 2e-6)
    J = both.jacobian(3, parts, 0.7, method="reverse")
    Jf = both.jacobian(3, parts, 0.7, method="forward")
    errs["modes"] = S.rel_err(J["p", "p"], Jf["p", "p"])
    row = both.vjp(3, parts, 0.7, seeds={"p": [{}, {"x": 1.0}, {}]})["p"]
    errs["vjp"] = S.rel_err(np.array([row[k][f] for k in range(3) for f in ("x", "v")]),
                            J["p", "p"][2])
    col = both.jvp(3, parts, 0.7, tangents={"p": [{"v": 1.0}, {}, {}]})
    errs["jvp"] = S.rel_err(col["energy"], g["p"][0]["v"])
    try:
        built.gradient(4, parts, 0.7)
        refused = None
    except ValueError as exc:
        refused = str(exc)
    return errs, J["p", "p"].shape, json.dumps(parts) == before, refused


def test_pointer_to_structs_as_an_array(adgen_cache, tmp_path):
    src = tmp_path / "parts.c"
    src.write_text(PARTICLES)
    built = adgen.build(str(src), head="energy(energy)/(p k)", cache_dir=adgen_cache)
    both = adgen.build(str(src), head="energy(energy p)/(p k)", cache_dir=adgen_cache)
    errs, shape, unchanged, refused = S.isolated(_particle_checks, built, both)
    assert all(e <= 1e-6 for e in errs.values()), errs
    assert shape == (6, 6) and unchanged
    assert refused is not None and "'p' points to 3 Particle, but energy uses 4 of them " \
        "(n): give a list of 4 dicts, one per struct" in refused, refused
    # one struct given as a dict is one struct
    g = S.isolated(built.gradient, 1, {"x": 1.0, "v": 2.0, "id": 0}, 0.5)
    assert g["p"] == {"x": 1.5, "v": 2.0}


def test_check_array_of_structs(adgen_cache, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src, inputs = tmp_path / "parts.c", tmp_path / "in.json"
    src.write_text(PARTICLES)
    inputs.write_text(json.dumps({"n": 3, "k": 0.7, "p": [
        {"x": 0.1, "v": 0.2, "id": 0}, {"x": -0.3, "v": 0.5, "id": 1},
        {"x": 0.4, "v": -0.1, "id": 2}]}))
    status, out, err = _check([str(src), "--head", "energy(energy p)/(p k)", "--inputs",
                               str(inputs)], capsys)
    assert status == 0 and "PASS: 4 pairs agree" in out, out + err
    assert re.search(r"^p\[[012]\]\.[xv] / p\[[012]\]\.[xv] ", out, re.M), out


def test_check_struct_independents(adgen_cache, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"p": PARAMS, "n": 6}))
    status, out, err = _check([str(MISFIT), "--head", "misfit(misfit)/(p y)", "--inputs",
                               str(inputs), "--size", "t=n", "--size", "y=n"], capsys)
    assert status == 0, out + err
    assert re.search(r"^misfit / p\.(amp|rate|poly\[[01]\]) ", out, re.M), out
    # a struct of floating-point fields only may be left out: random values
    inputs.write_text(json.dumps({"n": 6}))
    status, out, err = _check([str(MISFIT), "--head", "misfit(misfit)/(p y)", "--inputs",
                               str(inputs), "--size", "t=n", "--size", "y=n"], capsys)
    assert status == 0 and re.search(r'^  p = \{"amp": .*"poly": \[.*\]\} \(random\)$',
                                     out, re.M), out + err
    inputs.write_text(json.dumps({"s": STATE, "dt": 0.1}))
    status, out, err = _check([str(SYSTEM), "--head", "step(s)/(s)", "--inputs", str(inputs)],
                              capsys)
    assert status == 0, out + err
    assert re.search(r"^s\.p\[[01]\]\.(x\[[012]\]|m)|^s\.scale", out, re.M), out


def test_check_struct_with_integer_fields(adgen_cache, capsys, monkeypatch, tmp_path):
    """Finite differences perturb a struct's floating-point fields and keep its integers
    (they were rebuilt with the integers zeroed: FD 0 against 3, a false FAIL)."""
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src = tmp_path / "p.c"
    src.write_text("typedef struct { double a; int n; double b; } P;\n"
                   "double by_pointer(const P *p) { return p->a * p->n + p->b * p->b; }\n"
                   "double by_value(P p) { return p.a * p.n + p.b * p.b; }\n")
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"p": {"a": 1.5, "n": 3, "b": 0.5}}))
    for f in ("by_pointer", "by_value"):
        status, out, err = _check([str(src), "--head", f"{f}({f})/(p)", "--inputs",
                                   str(inputs)], capsys)
        assert status == 0, out + err
        assert re.search(rf"^{f} / p\.a +3\.00000000\d\de\+00 ", out, re.M), out


def test_check_kernels_with_arrays_of_rows(adgen_cache, capsys, monkeypatch, tmp_path):
    """C99 kernels take their grids as variably-modified arrays (`double A[n][m]`, passed
    as `double (*)[m]`): the API passes a flat array of n * m numbers."""
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src = tmp_path / "k.c"
    src.write_text("void k(int n, int m, double A[n][m], double (*B)[3], double *out)\n"
                   "{\n    int i, j;\n    double s = 0.0;\n    for (i = 0; i < n; i++)\n"
                   "        for (j = 0; j < m; j++)\n"
                   "            s += A[i][j] * A[i][j] * B[i][j % 3];\n    out[0] = s;\n}\n")
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"n": 3, "m": 2}))
    status, out, err = _check([str(src), "--head", "k(out)/(A B)", "--inputs", str(inputs)],
                              capsys)
    assert status == 0, out + err
    assert "A: 6 random values in [-1, 1] (length from the extent adgen finds, n rows of m)" \
        in out, out
    assert "B: 9 random values" in out, out
    built = adgen.build(str(src), head="k(out)/(A B)", cache_dir=adgen_cache)
    A, B = np.arange(6.0).reshape(3, 2), np.ones((3, 3))
    g = built.gradient(3, 2, A, B, np.zeros(1))
    assert np.allclose(g["A"], 2 * A) and g["A"].shape == (3, 2)


def test_check_static_head_and_setup_function(adgen_cache, capsys, monkeypatch, tmp_path):
    """A static head (called from the module's own copy of its file) whose globals an init
    routine must set first: the routine is called before every call (without it, the
    workspace pointer is NULL and the primal crashes)."""
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src = tmp_path / "g.c"
    src.write_text("#include <stdlib.h>\ndouble *work;\nvoid init_work(void)\n{\n"
                   "    int i;\n    if (!work) work = malloc(4 * sizeof(double));\n"
                   "    for (i = 0; i < 4; i++) work[i] = 1.0 + i;\n}\n"
                   "static double energy(int n, const double *x)\n{\n    double s = 0.0;\n"
                   "    int i;\n    for (i = 0; i < n; i++) s += work[i % 4] * x[i] * x[i];\n"
                   "    return s;\n}\n")
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"n": 5}))
    status, out, err = _check([str(src), "--head", "energy(energy)/(x)", "--inputs",
                               str(inputs), "--size", "x=n", "--setup", "init_work"], capsys)
    assert status == 0, out + err
    built = adgen.build(str(src), head="energy(energy)/(x)", cache_dir=adgen_cache,
                        setup="init_work", vector=False)
    x = np.arange(5.0)
    assert np.allclose(built.gradient(5, x)["x"], 2 * x * np.array([1, 2, 3, 4, 1]))
    with pytest.raises(adgen.BuildError, match="no function of that name"):
        adgen.build(str(src), head="energy(energy)/(x)", cache_dir=adgen_cache,
                    setup="nosuch", vector=False)


def test_file_statics_stay_apart_from_other_files_globals(adgen_cache, tmp_path):
    """A `static` global is its own file's variable: another file's global of that name
    (static or not) is another variable. Read as one unit, the second file's `s` was the
    first file's static (a wrong value and a wrong derivative)."""
    (tmp_path / "a.c").write_text("static double s = 2.0;\n"
                                  "double fa(double x) { return s * x * x; }\n")
    (tmp_path / "b.c").write_text("double s = 5.0;\nstatic double t = 3.0;\n"
                                  "double fa(double x);\n"
                                  "double fb(double x) { return fa(x) + s * t * x; }\n")
    (tmp_path / "c.c").write_text("static double t = 7.0;\n"
                                  "double fc(double x) { return t * x; }\n")
    sources = [str(tmp_path / name) for name in ("a.c", "b.c", "c.c")]
    built = adgen.build(sources, head="fb(fb)/(x)", cache_dir=adgen_cache, vector=False)
    x = 1.5
    assert built.primal(x) == pytest.approx(2.0 * x * x + 15.0 * x, rel=1e-15)
    assert built.gradient(x)["x"] == pytest.approx(4.0 * x + 15.0, rel=1e-15)
    assert built.jvp(x, tangents={"x": 1.0})["fb"] == pytest.approx(4.0 * x + 15.0, rel=1e-15)


def test_static_functions_of_one_name_in_two_files(adgen_cache, tmp_path):
    """Two files with a static function of one name (each its own), and a header's static
    inline function both include: each file calls its own (before: "function 'helper' is
    defined twice")."""
    (tmp_path / "sq.h").write_text("static inline double sq(double x) { return x * x; }\n")
    (tmp_path / "a.c").write_text('#include "sq.h"\n'
                                  "static double helper(double x) { return 3.0 * x; }\n"
                                  "double fa(double x) { return helper(x) + sq(x); }\n")
    (tmp_path / "b.c").write_text('#include "sq.h"\n'
                                  "static double helper(double x) { return x * x * x; }\n"
                                  "double fa(double x);\n"
                                  "double fb(double x) { return fa(x) + helper(x) * sq(x); }\n")
    built = adgen.build([str(tmp_path / "a.c"), str(tmp_path / "b.c")], head="fb(fb)/(x)",
                        cache_dir=adgen_cache, vector=False)
    x = 0.7
    assert built.primal(x) == pytest.approx(3 * x + x ** 2 + x ** 5, rel=1e-15)
    assert built.gradient(x)["x"] == pytest.approx(3 + 2 * x + 5 * x ** 4, rel=1e-14)


def test_builtin_expect_of_a_double_is_a_long(adgen_cache):
    """__builtin_expect(e, c) is e converted to long, as gcc declares it (before: e itself,
    so that the derivative code computed what gcc's primal does not)."""
    src = ("double f(double x)\n{\n    return __builtin_expect(x * 3.0, 0) + x * x;\n}\n")
    built = adgen.build(src, head="f(f)/(x)", cache_dir=adgen_cache, vector=False)
    assert built.primal(0.9) == pytest.approx(2.0 + 0.81, rel=1e-15)
    assert built.gradient(0.9)["x"] == pytest.approx(1.8, rel=1e-15)


def test_check_names_a_symbol_no_source_defines(adgen_cache, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src = tmp_path / "u.c"
    src.write_text("double other(double);\ndouble h(double x) { return other(x) * x; }\n")
    status, out, err = _check([str(src), "--head", "h(h)/(x)", "--inactive", "other"], capsys)
    assert status == 1, out + err
    assert "Traceback" not in out + err
    assert "the program calls 'other', which none of the sources defines" in err, err
    # with the file that defines it (which adgen then differentiates too)
    lib = tmp_path / "other.c"
    lib.write_text("double other(double x) { return 2.0 + x * x; }\n")
    status, out, err = _check([str(src), str(lib), "--head", "h(h)/(x)"], capsys)
    assert status == 0, out + err


# ------------------------------------------------ handles: structs holding pointers

HANDLE = ROOT / "tests" / "c_handle_head" / "model.c"
H_MESH = {"n": 3, "h": 0.7, "x": [0.0, 0.9, 2.1, 2.8], "fixed": [1, 0, 0, 1],
          "mat": {"k": [1.5, 2.0, 1.2], "rho": 2.3}}
H_STATE = {"n": 3, "u": [0.4, -0.2, 0.9, 0.1], "flux": [0.1, 0.2, 0.3], "total": 0.25}
H_U = [0.3, -0.6, 0.8, 0.2]
H_VEC = {"n": 4, "w": 1.3, "a": [0.2, -0.5, 0.9, 0.4]}


def _handle_parts(value, path=()):
    """[(path, index)] of the floating-point parts of a handle given as a nested dict
    (in its order, the fields' declaration order): floats, lists of floats, nested dicts."""
    out = []
    for k, v in value.items():
        if isinstance(v, dict):
            out += _handle_parts(v, path + (k,))
        elif isinstance(v, float):
            out.append((path + (k,), None))
        elif isinstance(v, list) and v and all(isinstance(x, float) for x in v):
            out += [(path + (k,), i) for i in range(len(v))]
    return out


def _handle_moved(value, part, delta):
    v = json.loads(json.dumps(value))
    (path, i), d = part, v
    for k in path[:-1]:
        d = d[k]
    if i is None:
        d[path[-1]] += delta
    else:
        d[path[-1]][i] += delta
    return v


def _flat_result(r):
    """A derivative method's result for a handle (nested dict) or an array, flat."""
    if isinstance(r, dict):
        return [x for v in r.values() for x in _flat_result(v)]
    return list(np.atleast_1d(np.asarray(r, dtype=float)).ravel())


def _handle_call(head, args):
    """The dependents of head after the primal on args (a dict name -> value), flat, in
    the order of the parts: a state's arrays are given as numpy arrays, which the primal
    writes in place; its total, a scalar field, is computed from them."""
    args = {k: json.loads(json.dumps(v)) if isinstance(v, dict) else v
            for k, v in args.items()}
    for name in ("s", "out"):
        if name in args:
            args[name] = dict(args[name], u=np.array(args[name]["u"]),
                              flux=np.array(args[name]["flux"]))
    built = _HANDLE_BUILT[head]
    ret = built.primal(**args)
    if built.name in ("energy", "weighted"):
        return [ret]
    st = args["s" if built.name == "step" else "out"]
    total = args["m"]["h"] * st["u"].sum() if built.name == "step" else \
        st["total"] + float(np.sum(st["flux"] ** 2))
    return [*st["u"], *st["flux"], total]


_HANDLE_BUILT = {}
HANDLE_HEADS = {"energy": ("energy(energy)/(m u)", {"m": H_MESH, "u": np.array(H_U)}),
                "step": ("step(s)/(m s)", {"m": H_MESH, "s": H_STATE, "dt": 0.1}),
                "fluxes": ("fluxes(out)/(m u)", {"m": H_MESH, "u": np.array(H_U),
                                                 "out": H_STATE}),
                "weighted": ("weighted(weighted)/(v)", {"v": H_VEC})}


def _handle_checks(head, args):
    """Jacobians (reverse and forward; for a scalar dependent, the gradient) against
    central differences of the primal over every part of the independents; the dot-product
    test of jvp and vjp with dict tangents and seeds; the arguments left unchanged."""
    built = _HANDLE_BUILT[head]
    before = json.dumps({k: v for k, v in args.items() if isinstance(v, dict)})
    errs, fd = {}, {}
    for x in built.independents:
        if isinstance(args[x], dict):
            parts = _handle_parts(args[x])
            moved = [(_handle_moved(args[x], q, 1e-6), _handle_moved(args[x], q, -1e-6))
                     for q in parts]
        else:
            moved = [(args[x] + e, args[x] - e) for e in 1e-6 * np.eye(args[x].size)]
        fd[x] = np.array([(np.array(_handle_call(head, dict(args, **{x: plus}))) -
                           np.array(_handle_call(head, dict(args, **{x: minus})))) / 2e-6
                          for plus, minus in moved]).T
    d = built.dependents[0]
    for method in ("reverse", "forward"):
        J = built.jacobian(**args, method=method)
        for x in built.independents:
            errs[f"jacobian[{method}] {x}"] = S.rel_err(J[d, x], fd[x])
    if d == built.name:
        g = built.gradient(**args)
        for x in built.independents:
            errs[f"gradient {x}"] = S.rel_err(_flat_result(g[x]), fd[x][0])
            assert isinstance(g[x], dict) == isinstance(args[x], dict)
    rng = np.random.default_rng(3)

    def randomized(v):
        if isinstance(v, dict):
            return {k: randomized(w) for k, w in v.items() if not isinstance(w, int) and
                    not (isinstance(w, list) and isinstance(w[0], int))}
        return float(rng.uniform(-1, 1)) if isinstance(v, float) else rng.uniform(-1, 1, len(v))
    xdot = {x: randomized(args[x]) for x in built.independents}
    ybar = {d: float(rng.uniform(-1, 1)) if d == built.name else
            rng.uniform(-1, 1, len(_handle_call(head, args)))}
    ydot = built.jvp(**args, tangents=xdot)
    xbar = built.vjp(**args, seeds=ybar)
    lhs = float(np.dot(_flat_result(ybar[d]), _flat_result(ydot[d])))
    rhs = sum(float(np.dot(_flat_result(xbar[x]), _flat_result(xdot[x])))
              for x in built.independents)
    errs["dot-product"] = abs(lhs - rhs) / abs(lhs)
    assert json.dumps({k: v for k, v in args.items() if isinstance(v, dict)}) == before
    return errs, {x: _flat_result(g) for x, g in xbar.items()}, J


@pytest.mark.parametrize("name", list(HANDLE_HEADS))
def test_handle_heads_through_the_api(adgen_cache, name):
    """Heads whose independents and dependents are handles (structs holding pointers,
    given as dicts with their arrays as lists): the derivative methods make the derivative
    structs and report derivatives shaped like the handle; they agree with central
    differences of the primal and with each other."""
    head, args = HANDLE_HEADS[name]
    built = _HANDLE_BUILT[name] = adgen.build(str(HANDLE), head=head, cache_dir=adgen_cache)
    errs, xbar, J = S.isolated(_handle_checks, name, args)
    assert all(e <= 1e-6 for e in errs.values()), errs
    # the parts: m.h, m.x[0..3], m.mat.k[0..2], m.mat.rho; s.u[0..3], s.flux[0..2], s.total
    shapes = {"energy": {("energy", "m"): (1, 9), ("energy", "u"): (1, 4)},
              "step": {("s", "m"): (8, 9), ("s", "s"): (8, 8)},
              "fluxes": {("out", "m"): (8, 9), ("out", "u"): (8, 4)},
              "weighted": {("weighted", "v"): (1, 5)}}[name]
    assert {k: v.shape for k, v in J.items()} == shapes
    assert not built.vector


def _handle_api_results():
    built = _HANDLE_BUILT["step"]
    g = built.vjp(H_MESH, H_STATE, 0.1, seeds={"s": {"total": 1.0}})
    errors = []
    for bad in (dict(H_MESH, x=[0.0, 0.9, 2.1]), {k: v for k, v in H_MESH.items() if k != "mat"}):
        try:
            built.jacobian(bad, H_STATE, 0.1)
        except (TypeError, ValueError) as exc:
            errors.append(str(exc))
    return g, errors


def test_handle_results_and_errors(adgen_cache):
    """A handle's derivatives come back shaped like it (a dict per struct, also one a
    pointer leads to; an array per array); an array shorter than the code uses and a
    missing pointer field are refused with the field's name, never a crash."""
    head, _ = HANDLE_HEADS["step"]
    _HANDLE_BUILT["step"] = adgen.build(str(HANDLE), head=head, cache_dir=adgen_cache)
    g, errors = S.isolated(_handle_api_results)
    assert set(g) == {"m", "s"} and set(g["m"]) == {"h", "x", "mat"}
    assert set(g["m"]["mat"]) == {"k", "rho"} and g["m"]["mat"]["k"].shape == (3,)
    assert isinstance(g["m"]["h"], float) and g["s"]["u"].shape == (4,)
    assert errors[0] == ("step.jacobian(): argument 'm': m->x has 3 elements, but step uses "
                         "4 (m->n + 1 with m->n=3)"), errors
    assert "no value for m.mat" in errors[1], errors


def test_check_handle_head_command_line(adgen_cache, tmp_path):
    """`adgen check` on a handle head (a mesh with a nested material, integer data), its
    values from --inputs; without the integer fields and arrays, a usage error naming
    them."""
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"m": H_MESH, "s": H_STATE, "dt": 0.1}))
    env = dict(os.environ, ADGEN_CACHE=adgen_cache, PYTHONPATH=str(ROOT))
    base = [sys.executable, "-m", "adgen", "check", str(HANDLE), "--head", "step(s)/(m s)",
            "--inputs", str(inputs)]
    ok = subprocess.run(base, capture_output=True, text=True, env=env)
    assert ok.returncode == 0 and "PASS: 2 pairs agree" in ok.stdout, ok.stdout + ok.stderr
    assert re.search(r"^s\.(u|flux)\[\d\]( / m\.(h|x\[\d\]|mat\.k\[\d\]|mat\.rho))", ok.stdout,
                     re.M), ok.stdout
    inputs.write_text(json.dumps({"m": {"h": 0.7, "x": H_MESH["x"]}, "s": H_STATE,
                                  "dt": 0.1}))
    bad = subprocess.run(base, capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr
    assert bad.stderr.startswith("adgen check: error: m is a Mesh, a struct holding "
                                 "pointers: give m.n (int), m.fixed (an array of int"), bad.stderr
    assert "m.mat.k (an array of double, m->n elements)" in bad.stderr, bad.stderr


def test_check_names_a_kink_at_the_inputs(adgen_cache, capsys, monkeypatch, tmp_path):
    """At a knot of a piecewise-linear function, central differences of steps h and 4h
    agree (on the mean of the two slopes): the one-sided ones tell the kink."""
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src = tmp_path / "ramp.c"
    src.write_text("double ramp(double x, double y)\n{\n    double r = x < 1.0 ? 2.0 * x : "
                   "3.0 * x - 1.0;\n    return r + y * y;\n}\n")
    inputs = tmp_path / "in.json"
    for x, kink in ((1.0, True), (1.25, False)):
        inputs.write_text(json.dumps({"x": x, "y": 0.5}))
        status, out, err = _check([str(src), "--head", "ramp(ramp)/(x y)", "--inputs",
                                   str(inputs)], capsys)
        row = next(line for line in out.splitlines() if line.startswith("ramp / x"))
        assert status == (1 if kink else 0), out + err
        assert ("a kink at the inputs: the derivatives give the slope of one side" in row) \
            == kink, out
        assert re.search(r"^ramp / y .* yes$", out, re.M), out


def test_check_takes_longer_steps_for_an_output_computed_by_cancellation(
        adgen_cache, capsys, monkeypatch, tmp_path):
    """(x + 1e3)^2 - 1e6 - 2e3 x is x^2 computed from terms of 1e6: its rounding error,
    about 1e-10, swamps central differences of step 1e-6 (h and 4h disagree), though the
    derivatives are right. The differences are taken again with longer steps, which
    agree: a pass, where before the row said `NO (FD unreliable ...)`. A kink closer to
    the inputs than the shortest step is still told."""
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src = tmp_path / "canc.c"
    src.write_text("#include <math.h>\ndouble f(double x, double y)\n{\n"
                   "    double a = x + 1.0e3;\n"
                   "    return a * a - 1.0e6 - 2.0e3 * x + sin(y) * x + fabs(y - 0.3);\n}\n")
    inputs = tmp_path / "in.json"
    for y, status in ((0.9, 0), (0.3 + 1e-7, 1)):
        inputs.write_text(json.dumps({"x": 0.4, "y": y}))
        got, out, err = _check([str(src), "--head", "f(f)/(x y)", "--inputs", str(inputs)],
                               capsys)
        assert got == status, out + err
        assert re.search(r"^f / x .* yes$", out, re.M), out
        assert bool(re.search(r"^f / y .* NO \((FD unreliable|a kink)", out, re.M)) == \
            (status == 1), out


@pytest.mark.parametrize("source, head, inputs", [
    ("float p(float x) { return 1.0f / (x * x * x * x * x); }\n", "p(p)/(x)", {"x": 0.5}),
    ("#include <math.h>\ndouble g(double x) { return exp(x * log(x)); }\n", "g(g)/(x)",
     {"x": 120.0}),
])
def test_check_takes_shorter_steps_for_a_steep_function(source, head, inputs, adgen_cache,
                                                       capsys, monkeypatch, tmp_path):
    """1 / x^5 at 0.5 in single precision and x^x at 120: the truncation errors of steps
    h and 4h differ by more than the tolerance (they grow as h^2), though the derivatives
    are right; steps 16 times shorter agree. Before: `NO (FD unreliable ...)`, a FAIL."""
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src = tmp_path / "steep.c"
    src.write_text(source)
    (tmp_path / "in.json").write_text(json.dumps(inputs))
    status, out, err = _check([str(src), "--head", head, "--inputs",
                               str(tmp_path / "in.json")], capsys)
    assert status == 0 and "PASS" in out, out + err


def test_check_sees_no_kink_in_a_smooth_float_function(adgen_cache, capsys, monkeypatch,
                                                      tmp_path):
    """In single precision the step is large, and so is the gap between the one-sided
    differences of a smooth function (about h |f''|): no kink where that gap grows with
    the step (a quadratic's, at every seed that reported one)."""
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    src = tmp_path / "quadf.c"
    src.write_text("void g(const float *x, float *c)\n{\n"
                   "    c[0] = 8.0f - x[0]*x[0] - x[1]*x[1] - x[2]*x[2] - x[3]*x[3]"
                   " - x[0] + x[1] - x[2] + x[3];\n"
                   "    c[1] = 10.0f - x[0]*x[0] - 2.0f*x[1]*x[1] - x[2]*x[2]"
                   " - 2.0f*x[3]*x[3] + x[0] + x[3];\n}\n")
    for seed in ("1", "2", "4", "7"):
        status, out, err = _check([str(src), "--head", "g(c)/(x)", "--size", "x=4",
                                   "--size", "c=2", "--seed", seed], capsys)
        assert status == 0 and "kink" not in out, out + err


def test_check_fails_on_broken_adjoint(adgen_cache, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    head = "rosenbrock(rosenbrock)/(x a)"
    good = adgen.differentiate(MODEL, head=head)
    broken = tmp_path / "model_b.c"
    broken.write_text(S.tamper_adjoint(good, "rosenbrock", "xb[1] *= 1.001;"))
    status, out, err = _check([str(MODEL), "--head", head, "--size", "x=n",
                               "--derivative-file", f"reverse={broken}"], capsys)
    assert status == 1, out + err
    row = next(l for l in out.splitlines() if l.startswith("rosenbrock / x["))
    assert row.endswith("NO") and "rosenbrock / x[1]" in row
    assert "rosenbrock / a" in out and "FAIL: 1 of 2 pairs disagree" in out
    dot = next(l for l in out.splitlines() if l.startswith("dot-product test:"))
    assert dot.endswith("NO")


def test_check_reports_a_crash(adgen_cache, capsys, monkeypatch, tmp_path):
    """A derivative routine that crashes: reported (exit 1), the caller survives."""
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    good = adgen.differentiate(MODEL, head=ROSEN)
    crash = tmp_path / "crash_b.c"
    crash.write_text(S.tamper_adjoint(good, "rosenbrock",
                                      "{ volatile double *p = 0; *p = 1.0; }"))
    status, out, err = _check([str(MODEL), "--head", ROSEN, "--derivative-file",
                               f"reverse={crash}"], capsys)
    assert status == 1 and "the compiled code crashed (killed by SIGSEGV)" in err, out + err


def test_check_command_line_broken_tangent(adgen_cache, tmp_path):
    """Through the `adgen check` command: a tangent that forgets a term fails (exit 1)."""
    head = "damped_oscillator(pos)/(x0 v0 omega zeta)"
    src = C / "byvalue_scalars.c"
    text = adgen.differentiate(src, head=head, mode="forward")
    assert "posd[i] = " in text
    broken = tmp_path / "osc_d.c"
    broken.write_text(re.sub(r"(posd\[i\] = )(.*?);", r"\1 1.5 * (\2);", text))
    env = dict(os.environ, ADGEN_CACHE=adgen_cache, PYTHONPATH=str(ROOT))
    base = [sys.executable, "-m", "adgen", "check", str(src), "--head", head,
            "--inputs", str(tmp_path / "in.json")]
    (tmp_path / "in.json").write_text(json.dumps({"n": 5, "dt": 0.2}))
    ok = subprocess.run(base, capture_output=True, text=True, env=env)
    assert ok.returncode == 0 and "PASS: 4 pairs agree" in ok.stdout, ok.stdout + ok.stderr
    bad = subprocess.run(base + ["--derivative-file", f"forward={broken}"],
                         capture_output=True, text=True, env=env)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    rows = [l for l in bad.stdout.splitlines() if l.startswith("pos[")]
    assert len(rows) == 4 and all(r.endswith("NO") for r in rows), bad.stdout


def test_adgen_command_unchanged(tmp_path):
    out = tmp_path / "m_b.c"
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(MODEL), "--head", ROSEN,
                           "-o", str(out)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr
    assert "rosenbrock_b(" in out.read_text()


# ------------------------------------------------------------------------------ threads

def _adjoints_from_threads(path, cache, threads=4, rounds=15):
    """The adjoint of the heat example from several threads at once: how many results
    differ from one computed alone."""
    import threading
    built = adgen.build(path, head="heat(u)/(kappa u0)", cache_dir=cache)
    n, steps = 200, 200
    u0, w = np.sin(np.arange(1.0, n + 1)), np.linspace(1.0, 2.0, n)
    alone = built.vjp(n, steps, 1e-4, 0.7, u0, np.zeros(n), seeds={"u": w})
    wrong = []

    def work():
        for _ in range(rounds):
            r = built.vjp(n, steps, 1e-4, 0.7, u0, np.zeros(n), seeds={"u": w})
            if not (np.array_equal(r["u0"], alone["u0"]) and r["kappa"] == alone["kappa"]):
                wrong.append(r)
    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return len(wrong)


def test_calls_from_several_threads_are_serialized(adgen_cache):
    """The adjoint's tape is a static variable of its file and cffi lets other threads
    run during a C call (JAX runs its callbacks on threads of its own): the methods hold
    the build's lock, one per built module, while its routines run."""
    path = str(ROOT / "examples" / "frameworks" / "heat.c")
    assert S.isolated(_adjoints_from_threads, path, adgen_cache) == 0
    one = adgen.build(path, head="heat(u)/(kappa u0)", cache_dir=adgen_cache)
    assert adgen.build(path, head="heat(u)/(kappa u0)", cache_dir=adgen_cache).lock is one.lock


# --------------------------------------------------------------------------------- docs

def _doc_blocks(path):
    """[(language, code, text before the block)] of the fenced blocks of a markdown file."""
    blocks, cur, lang, before, prose = [], [], None, "", []
    for line in Path(path).read_text().splitlines():
        if lang is None and line.startswith("```"):
            lang, cur, before, prose = line[3:].strip(), [], "\n".join(prose[-3:]), []
        elif lang is not None and line.strip() == "```":
            blocks.append((lang, "\n".join(cur), before))
            lang = None
        elif lang is not None:
            cur.append(line)
        else:
            prose.append(line)
    return blocks


def test_python_api_doc_examples_run(adgen_cache, tmp_path, monkeypatch, capsys):
    """Every ```python block of docs/python-api.md, in order, in one namespace; a plain
    block introduced by "prints" must show what the python block before it printed."""
    blocks = _doc_blocks(ROOT / "docs" / "python-api.md")
    assert sum(lang == "python" for lang, _, _ in blocks) >= 4
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    ns = {"__name__": "__doc_example__"}
    printed = ""
    for i, (lang, code, before) in enumerate(blocks):
        if lang == "python":
            try:
                exec(compile(code, f"docs/python-api.md block {i + 1}", "exec"), ns)
            except Exception as exc:
                raise AssertionError(f"docs/python-api.md, python block {i + 1} fails: "
                                     f"{type(exc).__name__}: {exc}\n{code}") from exc
            printed = capsys.readouterr().out
        elif lang == "" and "prints" in before:
            for line in code.splitlines():
                assert line in printed.splitlines(), \
                    f"docs/python-api.md shows {line!r}, the example prints:\n{printed}"


# ------------------------------------------------ row pointers (double **rows)

ROWS = ROOT / "tests" / "c_row_pointers_head" / "model.c"


def test_row_pointer_arguments(adgen_cache, capsys, monkeypatch, tmp_path):
    """An argument that is an array of row pointers (`double **u`) is a 2-D numpy array,
    passed as pointers to its rows; its derivatives come back in its shape and agree with
    central finite differences of the primal (which writes the rows in place); a 1-D array
    is refused naming the argument; `adgen check` takes the rows from --inputs and asks
    for them when they are not given."""
    m = adgen.build(str(ROWS), head="relax_rows(u energy)/(u)", cache_dir=adgen_cache)
    u = 0.5 + 0.3 * np.sin(np.arange(20.0) + 1).reshape(5, 4)

    def energy(uu):
        e, uu = np.zeros(1), uu.copy()
        m.primal(5, 4, uu, 0.8, e)
        return e[0], uu
    e0, relaxed = energy(u)
    assert not np.array_equal(relaxed, u)          # the rows were written in place
    g = m.vjp(5, 4, u, 0.8, np.zeros(1), seeds={"energy": np.array([1.0])})["u"]
    assert g.shape == (5, 4)
    h = 1e-6
    for i, j in [(0, 0), (2, 1), (4, 3), (1, 2)]:
        up, um = u.copy(), u.copy()
        up[i, j] += h
        um[i, j] -= h
        fd = (energy(up)[0] - energy(um)[0]) / (2 * h)
        assert g[i, j] == pytest.approx(fd, rel=1e-7, abs=1e-9)
    t = np.cos(np.arange(20.0)).reshape(5, 4)
    d = m.jvp(5, 4, u, 0.8, np.zeros(1), tangents={"u": t})
    assert d["u"].shape == (5, 4)
    assert d["energy"][0] == pytest.approx(float((g * t).sum()), rel=1e-12)
    with pytest.raises(TypeError, match="'u'.*must be a 2-D numpy array"):
        m.vjp(5, 4, u.ravel(), 0.8, np.zeros(1), seeds={"energy": np.array([1.0])})
    monkeypatch.setenv("ADGEN_CACHE", adgen_cache)
    status, out, err = _check([str(ROWS), "--head", "relax_rows(u energy)/(u)"], capsys)
    assert status != 0 and "u is an array of row pointers: give its rows in --inputs" in \
        out + err, out + err
    # const-qualified rows (`const double **` takes no `double **`: the glue keeps them)
    src = tmp_path / "frob.c"
    src.write_text("double frob(int n, const double **a, const double *const *b)\n{\n"
                   "    double s = 0.0;\n    for (int i = 0; i < n; i++)\n"
                   "        s += a[i][0] * a[i][1] * b[i][1];\n    return s;\n}\n")
    f = adgen.build(str(src), head="frob(frob)/(a b)", cache_dir=adgen_cache)
    a, b = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[0.0, 5.0], [0.0, 6.0]])
    g = f.gradient(2, a, b)
    np.testing.assert_array_equal(g["a"], [[10.0, 5.0], [24.0, 18.0]])
    np.testing.assert_array_equal(g["b"], [[0.0, 2.0], [0.0, 12.0]])
    given = tmp_path / "inputs.json"
    given.write_text(json.dumps({"n": 5, "m": 4, "w": 0.8, "u": u.tolist()}))
    status, out, err = _check([str(ROWS), "--head", "relax_rows(u energy)/(u)", "--inputs",
                               str(given)], capsys)
    assert status == 0 and "PASS" in out, out + err


def test_deeply_nested_input_has_the_room_the_command_gives_it(adgen_cache):
    """The parser and the analyses recurse per level of nesting: the API runs them with
    the command's room (adgen/room.py), not the caller's default recursion limit."""
    e = "x[0]"
    for k in range(400):
        e = f"sin({e}) * x[{k % 3}]" if k % 2 else f"0.5 * ({e}) + x[{k % 3}]"
    source = f"#include <math.h>\ndouble f(const double *x)\n{{\n    return {e};\n}}\n"
    text = adgen.differentiate(source, head="f(f)/(x)")
    assert "f_b(" in text
    built = adgen.build(source, head="f(f)/(x)", sizes={"x": "3"}, cache_dir=adgen_cache)
    assert np.isfinite(built.gradient(x=np.array([0.1, 0.2, 0.3]))["x"]).all()
