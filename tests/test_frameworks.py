"""Built.torch(), Built.jax() and Built.value_and_grad() (adgen/api/torch_bridge.py,
jax_bridge.py, scipy_bridge.py) on C and Fortran programs: their values and derivatives
against the numpy methods and central finite differences, torch's gradcheck, JAX's jit,
grad and vmap, scipy.optimize.minimize reaching a known optimum, the batch axis, the error
paths, and the examples of docs/python-api.md (examples/frameworks) run end to end.

torch, jax and scipy are optional: `make test` installs them (tests/tools.py); where they
are missing, their tests are skipped."""
import importlib.util
import os
import re
import shutil
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import adgen

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "frameworks"
HEAT, DECAY, GROWTH = EXAMPLES / "heat.c", EXAMPLES / "decay.c", EXAMPLES / "growth.f90"
NO_FORTRAN = shutil.which(os.environ.get("FC", "gfortran")) is None
needs_fortran = pytest.mark.skipif(NO_FORTRAN, reason="gfortran is not installed")

# a Fortran scalar dependent passed by reference; its minimum is 0 at x = (1, ..., 1)
SUMSQ_F90 = """\
subroutine sumsq(n, x, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  s = sum((x - 1.0d0) ** 2 * (1.0d0 + x ** 2))
end subroutine sumsq
"""
# a program in float: float32 tensors
SCALE_C = """\
float scale(int n, const float *x, float s, float *y)
{
    float total = 0.0f;
    for (int i = 0; i < n; i++) {
        y[i] = s * x[i] * x[i];
        total += y[i];
    }
    return total;
}
"""
# torch's forward-mode checks call torch.jit.script, which torch itself deprecates
pytestmark = pytest.mark.filterwarnings(
    "ignore:`torch.jit.script` is deprecated:DeprecationWarning")

N, STEPS, DT = 6, 5, 0.01
U0 = np.sin(np.pi * np.arange(1, N + 1) / (N + 1))
T = np.linspace(0.0, 4.0, N)


@pytest.fixture(scope="module")
def heat(adgen_cache):
    return adgen.build(str(HEAT), head="heat(u)/(kappa u0)", cache_dir=adgen_cache)


@pytest.fixture(scope="module")
def decay(adgen_cache):
    return adgen.build(str(DECAY), head="misfit(misfit y)/(a k t)", cache_dir=adgen_cache)


@pytest.fixture(scope="module")
def growth(adgen_cache):
    if NO_FORTRAN:
        pytest.skip("gfortran is not installed")
    return adgen.build(str(GROWTH), head="growth(y)/(r capacity y0)", cache_dir=adgen_cache)


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch", reason="torch is not installed "
                               "(pip install 'adgen[torch]'; make test installs it)")


@pytest.fixture(scope="module")
def jax():
    jax = pytest.importorskip("jax", reason="jax is not installed "
                              "(pip install 'adgen[jax]'; make test installs it)")
    jax.config.update("jax_enable_x64", True)
    return jax


def heat_fd(heat, kappa, u0, h=1e-6):
    """Central finite differences of the final temperatures: (d u/d kappa, d u/d u0)."""
    def u(k, v):
        out = np.zeros(N)
        heat.primal(N, STEPS, DT, k, v, out)
        return out
    dk = (u(kappa + h, u0) - u(kappa - h, u0)) / (2 * h)
    du0 = np.empty((N, N))
    for j in range(N):
        e = np.zeros(N)
        e[j] = h
        du0[:, j] = (u(kappa, u0 + e) - u(kappa, u0 - e)) / (2 * h)
    return dk, du0


def growth_numpy(growth, r, capacity, y0):
    y = np.zeros(N)
    growth.primal(N, r, capacity, y0, T, y)
    return y


# ------------------------------------------------------------------------------ torch

def test_torch_heat_against_numpy_fd_and_gradcheck(heat, torch):
    model = heat.torch()
    kappa = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
    u0 = torch.tensor(U0, requires_grad=True)
    u = model(N, STEPS, DT, kappa, u0, np.zeros(N))
    expected = np.zeros(N)
    heat.primal(N, STEPS, DT, 0.7, U0, expected)
    assert u.dtype == torch.float64 and u.shape == (N,)
    assert np.allclose(u.detach().numpy(), expected, rtol=1e-14)
    weights = torch.linspace(1.0, 2.0, N, dtype=torch.float64)
    (u * weights).sum().backward()
    adj = heat.vjp(N, STEPS, DT, 0.7, U0, np.zeros(N), seeds={"u": weights.numpy()})
    assert np.allclose(kappa.grad.item(), adj["kappa"], rtol=1e-12)
    assert np.allclose(u0.grad.numpy(), adj["u0"], rtol=1e-12)
    dk, du0 = heat_fd(heat, 0.7, U0)
    assert np.allclose(kappa.grad.item(), dk @ weights.numpy(), rtol=1e-6)
    assert np.allclose(u0.grad.numpy(), weights.numpy() @ du0, rtol=1e-6, atol=1e-9)
    assert torch.autograd.gradcheck(
        lambda k, v: model(N, STEPS, DT, k, v, np.zeros(N)), (kappa, u0),
        check_forward_ad=True)
    assert U0.tolist() == u0.detach().numpy().tolist()      # inputs untouched
    # forward mode: the tangent routine, as Built.jvp
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        dual = fw.make_dual(kappa.detach(), torch.tensor(1.0, dtype=torch.float64))
        tangent = fw.unpack_dual(model(N, STEPS, DT, dual, u0.detach(), np.zeros(N))).tangent
    assert np.allclose(tangent.numpy(), heat.jvp(N, STEPS, DT, 0.7, U0, np.zeros(N),
                                                 tangents={"kappa": 1.0})["u"], rtol=1e-14)


def test_torch_integer_arguments_as_tensors_and_inputs_not_requiring_grad(heat, torch):
    model = heat.torch()
    kappa = torch.tensor(0.7, dtype=torch.float64)
    u = model(torch.tensor(N), torch.tensor(STEPS, dtype=torch.int32), DT, kappa,
              torch.tensor(U0), torch.zeros(N, dtype=torch.float64))
    assert not u.requires_grad
    assert np.allclose(u.numpy(), model(N, STEPS, DT, 0.7, U0, np.zeros(N)).numpy())


def test_torch_several_dependents_and_a_sub_head(decay, torch):
    obs = np.array([2.0, 1.3, 0.8, 0.5, 0.3, 0.2])
    model = decay.torch()
    assert model.dependents == ["misfit", "y"]
    a = torch.tensor(2.1, dtype=torch.float64, requires_grad=True)
    k = torch.tensor(0.9, dtype=torch.float64, requires_grad=True)
    t = torch.tensor(T / 2, requires_grad=True)
    misfit, y = model(N, t, obs, a, k, np.zeros(N))
    assert misfit.shape == () and y.shape == (N,)
    assert np.isclose(misfit.item(), decay.primal(N, T / 2, obs, 2.1, 0.9, np.zeros(N)))
    assert torch.autograd.gradcheck(
        lambda a, k, t: model(N, t, obs, a, k, np.zeros(N)), (a, k, t),
        check_forward_ad=True)
    # only d misfit / d k: the other inputs are plain values
    only_k = decay.torch(head="misfit(misfit)/(k)")
    value = only_k(N, T / 2, obs, 2.1, k, np.zeros(N))
    value.backward()
    assert np.isclose(k.grad.item(), decay.vjp(N, T / 2, obs, 2.1, 0.9, np.zeros(N),
                                               seeds={"misfit": 1.0})["k"], rtol=1e-12)


def test_torch_batch_axis_runs_each_row(heat, torch):
    model = heat.torch()
    kappas = torch.tensor([0.3, 0.7, 1.1], dtype=torch.float64, requires_grad=True)
    u0 = torch.tensor(U0, requires_grad=True)
    u = model(N, STEPS, DT, kappas, u0, np.zeros(N))
    assert u.shape == (3, N)
    for b, kappa in enumerate([0.3, 0.7, 1.1]):
        assert np.allclose(u[b].detach().numpy(),
                           model(N, STEPS, DT, kappa, U0, np.zeros(N)).numpy(), rtol=1e-14)
    rows = torch.tensor(np.stack([U0, U0 ** 2, np.cos(U0)]), requires_grad=True)
    assert model(N, STEPS, DT, 0.7, rows, np.zeros(N)).shape == (3, N)
    # batched and shared inputs together, through the adjoint row by row
    assert torch.autograd.gradcheck(
        lambda k, v: model(N, STEPS, DT, k, v, np.zeros(N)), (kappas, u0),
        check_forward_ad=True)
    assert torch.autograd.gradcheck(
        lambda k, v: model(N, STEPS, DT, k, v, np.zeros(N)), (kappas, rows),
        check_forward_ad=True)
    with pytest.raises(ValueError, match="batch axes differ.*kappa has 3 rows.*u0 has 2"):
        model(N, STEPS, DT, kappas, rows[:2], np.zeros(N))


def test_torch_batch_shapes_option(adgen_cache, torch):
    """shapes= gives an array independent's shape in one call, over the count adgen's
    analysis (here the sizes option) gives; an array of another shape is one call's."""
    built = adgen.build("double total(int n, const double *w)\n{\n    double s = 0.0;\n"
                        "    for (int i = 0; i < n; i++)\n        s += w[i] * w[i];\n"
                        "    return s;\n}\n", head="total(total)/(w)", sizes={"w": "n"},
                        cache_dir=adgen_cache)
    rows = torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.5, 0.0]], dtype=torch.float64,
                        requires_grad=True)
    assert built.torch()(2, rows).shape == (3,)           # w has n = 2 elements a call
    assert built.torch(shapes={"w": 4})(2, rows.reshape(6)).shape == ()
    per_row = built.torch(shapes={"w": (2,)})(2, rows)
    assert per_row.detach().numpy().tolist() == [5.0, 25.0, 0.25]
    per_row.sum().backward()
    assert np.allclose(rows.grad.numpy(), 2 * rows.detach().numpy())
    with pytest.raises(ValueError, match=r"shapes: 'n' is not an independent"):
        built.torch(shapes={"n": 2})


@needs_fortran
def test_torch_fortran_growth(growth, torch):
    model = growth.torch()
    r, cap, y0 = (torch.tensor(v, dtype=torch.float64, requires_grad=True)
                  for v in (0.8, 10.0, 1.0))
    y = model(N, r, cap, y0, T, np.zeros(N))
    assert np.allclose(y.detach().numpy(), growth_numpy(growth, 0.8, 10.0, 1.0), rtol=1e-14)
    y.sum().backward()
    h = 1e-6
    fd = (growth_numpy(growth, 0.8 + h, 10.0, 1.0) -
          growth_numpy(growth, 0.8 - h, 10.0, 1.0)).sum() / (2 * h)
    assert np.isclose(r.grad.item(), fd, rtol=1e-6)
    assert torch.autograd.gradcheck(
        lambda r, c, y0: model(N, r, c, y0, T, np.zeros(N)), (r, cap, y0),
        check_forward_ad=True)


def test_torch_float_program_takes_float32(adgen_cache, torch):
    built = adgen.build(SCALE_C, head="scale(scale y)/(x s)", cache_dir=adgen_cache)
    model = built.torch()
    x = torch.tensor([0.5, 1.0, 1.5], dtype=torch.float32, requires_grad=True)
    s = torch.tensor(2.0, dtype=torch.float32, requires_grad=True)
    total, y = model(3, x, s, np.zeros(3, np.float32))
    assert total.dtype == y.dtype == torch.float32
    total.backward()
    assert np.allclose(x.grad.numpy(), 4.0 * x.detach().numpy())
    assert np.isclose(s.grad.item(), 3.5)
    with pytest.raises(TypeError, match=r"'x' must be a tensor of dtype torch.float32, "
                                        r"got torch.float64"):
        model(3, x.double(), s, np.zeros(3, np.float32))


def test_torch_error_paths(heat, torch, adgen_cache):
    model = heat.torch()
    kappa = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
    u0 = torch.tensor(U0)
    with pytest.raises(TypeError, match=r"heat.torch\(\): argument 'u0' must be a tensor "
                                        r"of dtype torch.float64, got torch.float32"):
        model(N, STEPS, DT, kappa, u0.float(), np.zeros(N))
    with pytest.raises(ValueError, match=r"heat.torch\(\): argument 'u0' has 3 elements, "
                                         r"but heat uses 6"):
        model(N, STEPS, DT, kappa, u0[:3], np.zeros(N))
    with pytest.raises(ValueError, match=r"'u0' is on device meta: the compiled code runs "
                                         r"on the CPU"):
        model(N, STEPS, DT, kappa, torch.empty(N, dtype=torch.float64, device="meta"),
              np.zeros(N))
    with pytest.raises(ValueError, match=r"argument 'kappa' is one number \(a batch of "
                                         r"them on one leading axis\), got shape \(2, 1\)"):
        model(N, STEPS, DT, torch.ones(2, 1, dtype=torch.float64), u0, np.zeros(N))
    with pytest.raises(TypeError, match=r"argument 'n' must be an int or an integer tensor"):
        model(torch.tensor(6.0), STEPS, DT, kappa, u0, np.zeros(N))
    with pytest.raises(ValueError, match=r"'dt' requires grad but is not an independent"):
        model(N, STEPS, torch.tensor(DT, requires_grad=True), kappa, u0, np.zeros(N))
    with pytest.raises(TypeError, match=r"missing argument 'u'"):
        model(N, STEPS, DT, kappa, u0)
    with pytest.raises(ValueError, match=r"'dt' is not a independent of the build"):
        heat.torch(head="heat(u)/(dt)")
    with pytest.raises(ValueError, match=r"head 'f\(y\)/\(x\)' is not of heat"):
        heat.torch(head="f(y)/(x)")
    pair = adgen.build("typedef struct { double a, b; } Pair;\n"
                       "double area(Pair p) { return p.a * p.b; }\n",
                       head="area(area)/(p)", cache_dir=adgen_cache)
    with pytest.raises(TypeError, match=r"'p' is a Pair struct: the framework bridges take "
                                        r"floating-point"):
        pair.torch()


def test_missing_extras_name_the_install(heat, monkeypatch):
    for module in ("torch", "jax"):
        monkeypatch.setitem(sys.modules, module, None)      # import fails
    with pytest.raises(ImportError, match=r"pip install 'adgen\[torch\]'"):
        heat.torch()
    with pytest.raises(ImportError, match=r"pip install 'adgen\[jax\]'"):
        heat.jax()


# -------------------------------------------------------------------------------- JAX

def test_jax_heat_jit_grad_vmap(heat, jax):
    jnp = jax.numpy
    model = heat.jax()
    weights = np.linspace(1.0, 2.0, N)

    def loss(kappa, u0):
        return jnp.sum(model(N, STEPS, DT, kappa, u0, np.zeros(N)) * weights)

    expected = np.zeros(N)
    heat.primal(N, STEPS, DT, 0.7, U0, expected)
    assert np.allclose(np.asarray(jax.jit(lambda k: model(N, STEPS, DT, k, U0, np.zeros(N)))(
        0.7)), expected, rtol=1e-14)
    gk, gu0 = jax.jit(jax.grad(loss, argnums=(0, 1)))(0.7, jnp.asarray(U0))
    adj = heat.vjp(N, STEPS, DT, 0.7, U0, np.zeros(N), seeds={"u": weights})
    assert np.isclose(float(gk), adj["kappa"], rtol=1e-12)
    assert np.allclose(np.asarray(gu0), adj["u0"], rtol=1e-12)
    dk, du0 = heat_fd(heat, 0.7, U0)
    assert np.isclose(float(gk), dk @ weights, rtol=1e-6)
    kappas = jnp.array([0.3, 0.7, 1.1])
    per_row = jax.vmap(jax.grad(loss), in_axes=(0, None))(kappas, jnp.asarray(U0))
    assert np.allclose(np.asarray(per_row),
                       [heat.vjp(N, STEPS, DT, k, U0, np.zeros(N), seeds={"u": weights})["kappa"]
                        for k in (0.3, 0.7, 1.1)], rtol=1e-12)
    # arguments held fixed may be traced too: u0 a traced input of the jitted function
    traced = jax.jit(lambda v: model(N, STEPS, DT, 0.7, v, np.zeros(N)))
    assert np.allclose(np.asarray(traced(jnp.asarray(U0))), expected, rtol=1e-14)
    only_kappa = heat.jax(head="heat(u)/(kappa)")
    g = jax.jit(jax.grad(lambda k, v: jnp.sum(only_kappa(N, STEPS, DT, k, v, np.zeros(N))
                                              * weights)))(0.7, jnp.asarray(U0))
    assert np.isclose(float(g), adj["kappa"], rtol=1e-12)


def test_jax_forward_mode(heat, jax):
    """mode='forward': custom_jvp with the tangent routine: jvp and jacfwd, under jit and
    vmap, agree with Built.jvp and the Jacobian; reverse mode is JAX's error."""
    jnp = jax.numpy
    model = heat.jax(mode="forward")
    u0 = jnp.asarray(U0)
    _, tangent = jax.jit(lambda k: jax.jvp(
        lambda k: model(N, STEPS, DT, k, u0, np.zeros(N)), (k,), (1.0,)))(0.7)
    assert np.allclose(np.asarray(tangent), heat.jvp(N, STEPS, DT, 0.7, U0, np.zeros(N),
                                                     tangents={"kappa": 1.0})["u"],
                       rtol=1e-14)
    J = jax.jit(jax.jacfwd(lambda v: model(N, STEPS, DT, 0.7, v, np.zeros(N))))(u0)
    dk, du0 = heat_fd(heat, 0.7, U0)
    assert np.allclose(np.asarray(J), du0, rtol=1e-6, atol=1e-9)
    assert np.allclose(np.asarray(J), heat.jacobian(N, STEPS, DT, 0.7, U0,
                                                    np.zeros(N))["u", "u0"], rtol=1e-13)
    per_row = jax.vmap(lambda k: jax.jvp(lambda k: model(N, STEPS, DT, k, u0, np.zeros(N)),
                                         (k,), (1.0,))[1])(jnp.array([0.3, 0.7]))
    assert np.allclose(np.asarray(per_row[1]), np.asarray(tangent), rtol=1e-14)
    with pytest.raises(ValueError, match="custom_vjp"):
        jax.grad(lambda k: jnp.sum(model(N, STEPS, DT, k, u0, np.zeros(N))))(0.7)
    with pytest.raises(ValueError, match=r"heat.jax\(\): mode must be 'reverse' or "
                                         r"'forward', got 'both'"):
        heat.jax(mode="both")


@needs_fortran
def test_jax_fortran_growth(growth, jax):
    jnp = jax.numpy
    model = growth.jax()
    assert np.allclose(np.asarray(model(N, 0.8, 10.0, 1.0, T, np.zeros(N))),
                       growth_numpy(growth, 0.8, 10.0, 1.0), rtol=1e-14)

    @jax.jit
    def loss(p):
        return jnp.sum(model(N, p[0], p[1], p[2], T, np.zeros(N)) ** 2)

    p = jnp.array([0.8, 10.0, 1.0])
    g = np.asarray(jax.grad(loss)(p))
    h = 1e-6
    for j in range(3):
        e = np.zeros(3)
        e[j] = h
        fd = (float(loss(p + e)) - float(loss(p - e))) / (2 * h)
        assert np.isclose(g[j], fd, rtol=1e-6), (j, g[j], fd)
    ps = jnp.stack([p, p * 1.1])
    assert np.allclose(np.asarray(jax.vmap(jax.grad(loss))(ps)),
                       [np.asarray(jax.grad(loss)(q)) for q in ps], rtol=1e-14)
    forward = growth.jax(mode="forward")
    jacobian = jax.jacfwd(lambda p: forward(N, p[0], p[1], p[2], T, np.zeros(N)))(p)
    assert np.allclose(np.asarray(jacobian), np.asarray(
        jax.jacrev(lambda p: model(N, p[0], p[1], p[2], T, np.zeros(N)))(p)), rtol=1e-13)
    t_traced = jax.jit(lambda t: model(N, 0.8, 10.0, 1.0, t, np.zeros(N)))(jnp.asarray(T))
    assert np.allclose(np.asarray(t_traced), growth_numpy(growth, 0.8, 10.0, 1.0))


def test_jax_several_dependents_and_errors(decay, jax):
    jnp = jax.numpy
    obs = np.array([2.0, 1.3, 0.8, 0.5, 0.3, 0.2])
    model = decay.jax()
    misfit, y = model(N, T / 2, obs, 2.1, 0.9, np.zeros(N))
    assert misfit.shape == () and y.shape == (N,)

    def loss(a, k, t):
        m, yy = model(N, t, obs, a, k, np.zeros(N))
        return m + jnp.sum(yy)

    ga, gk, gt = jax.grad(loss, argnums=(0, 1, 2))(2.1, 0.9, jnp.asarray(T / 2))
    adj = decay.vjp(N, T / 2, obs, 2.1, 0.9, np.zeros(N),
                    seeds={"misfit": 1.0, "y": np.ones(N)})
    assert np.allclose([float(ga), float(gk)], [adj["a"], adj["k"]], rtol=1e-12)
    assert np.allclose(np.asarray(gt), adj["t"], rtol=1e-12)
    with pytest.raises(TypeError, match=r"misfit.jax\(\): argument 't' must have dtype "
                                        r"float64, got float32"):
        model(N, jnp.asarray(T, dtype=jnp.float32), obs, 2.1, 0.9, np.zeros(N))
    with pytest.raises(ValueError, match=r"argument 't' has 3 elements, but misfit uses 6"):
        model(N, T[:3], obs, 2.1, 0.9, np.zeros(N))
    # custom_vjp, not custom_jvp: JAX itself refuses forward mode
    with pytest.raises(TypeError, match="custom_vjp"):
        jax.jvp(lambda k: model(N, T, obs, 2.1, k, np.zeros(N))[0], (0.9,), (1.0,))


def test_jax_float_program_without_x64(adgen_cache, jax):
    jnp = jax.numpy
    model = adgen.build(SCALE_C, head="scale(scale)/(s)", cache_dir=adgen_cache).jax()
    x = np.array([0.5, 1.0, 1.5], dtype=np.float32)
    jax.config.update("jax_enable_x64", False)
    try:
        value, g = jax.jit(jax.value_and_grad(
            lambda s: model(3, x, s, np.zeros(3, np.float32))))(jnp.float32(2.0))
        assert value.dtype == g.dtype == jnp.float32
        assert np.isclose(float(value), 7.0) and np.isclose(float(g), 3.5)
    finally:
        jax.config.update("jax_enable_x64", True)


def test_jax_float64_needs_x64(heat, jax):
    model = heat.jax()
    jax.config.update("jax_enable_x64", False)
    try:
        with pytest.raises(TypeError, match=r"jax_enable_x64"):
            model(N, STEPS, DT, 0.7, U0, np.zeros(N))
    finally:
        jax.config.update("jax_enable_x64", True)


# ------------------------------------------------------------------------------ SciPy

def test_value_and_grad_packs_independents(decay):
    obs = 2.5 * np.exp(-0.7 * T)
    vg = decay.value_and_grad(N, T, obs, 1.0, 0.1, np.zeros(N), head="misfit(misfit)/(a k t)")
    assert vg.names == ["a", "k", "t"] and vg.x0.shape == (2 + N,)
    value, grad = vg(vg.x0)
    assert np.isclose(value, decay.primal(N, T, obs, 1.0, 0.1, np.zeros(N)))
    adj = decay.vjp(N, T, obs, 1.0, 0.1, np.zeros(N), seeds={"misfit": 1.0})
    assert np.allclose(grad, np.concatenate([[adj["a"], adj["k"]], adj["t"]]), rtol=1e-12)
    parts = vg.unpack(vg.x0)
    assert parts["t"].shape == (N,) and float(parts["a"]) == 1.0
    with pytest.raises(ValueError, match=r"has 2 dependents"):
        decay.value_and_grad(N, T, obs, 1.0, 0.1, np.zeros(N))
    with pytest.raises(ValueError, match=r"the vector has shape \(3,\), expected \(8,\)"):
        vg(np.zeros(3))
    with pytest.raises(TypeError, match=r"argument 't' must have dtype float64"):
        decay.value_and_grad(N, T.astype(np.float32), obs, 1.0, 0.1, np.zeros(N),
                             head="misfit(misfit)/(t)")


def test_value_and_grad_in_scipy_minimize(decay, adgen_cache):
    optimize = pytest.importorskip("scipy.optimize", reason="scipy is not installed")
    obs = 2.5 * np.exp(-0.7 * T)
    vg = decay.value_and_grad(N, T, obs, 1.0, 0.1, np.zeros(N), head="misfit(misfit)/(a k)")
    result = optimize.minimize(vg, vg.x0, jac=True, method="BFGS")
    assert result.success and np.allclose(result.x, [2.5, 0.7], atol=1e-6)
    rosen = adgen.build(str(ROOT / "examples" / "rosenbrock" / "model.c"),
                        head="rosenbrock(rosenbrock)/(x)", cache_dir=adgen_cache)
    vg = rosen.value_and_grad(5, np.zeros(5), 100.0)
    result = optimize.minimize(vg, vg.x0, jac=True, method="L-BFGS-B")
    assert np.allclose(result.x, np.ones(5), atol=1e-4)


@needs_fortran
def test_value_and_grad_fortran(adgen_cache):
    optimize = pytest.importorskip("scipy.optimize", reason="scipy is not installed")
    built = adgen.build(SUMSQ_F90, head="sumsq(s)/(x)", language="fortran",
                        cache_dir=adgen_cache)
    x = np.array([0.2, -0.5, 2.0])
    vg = built.value_and_grad(3, x, 0.0)
    value, grad = vg(vg.x0)
    assert np.isclose(value, np.sum((x - 1) ** 2 * (1 + x ** 2)))
    assert np.allclose(grad, 2 * (x - 1) * (1 + x ** 2) + 2 * x * (x - 1) ** 2)
    result = optimize.minimize(vg, vg.x0, jac=True, method="BFGS")
    assert np.allclose(result.x, np.ones(3), atol=1e-5)
    growth = adgen.build(str(GROWTH), head="growth(y)/(r)", cache_dir=adgen_cache)
    with pytest.raises(ValueError, match=r"the dependent 'y' has shape \(6,\): "
                                         r"value_and_grad needs one number"):
        growth.value_and_grad(N, 0.8, 10.0, 1.0, T, np.zeros(N))


# ------------------------------------------------------------------ examples and docs

def _example(name):
    spec = importlib.util.spec_from_file_location(f"adgen_example_{name}",
                                                  EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_heat_torch(adgen_cache, torch):
    assert abs(_example("fit_heat_torch").run(adgen_cache) - 0.35) < 1e-6


@needs_fortran
def test_example_growth_jax(adgen_cache, jax):
    assert np.allclose(_example("fit_growth_jax").run(adgen_cache), [0.9, 8.0, 0.5],
                       rtol=1e-5)


def test_example_decay_scipy(adgen_cache):
    pytest.importorskip("scipy.optimize", reason="scipy is not installed")
    best = _example("fit_decay_scipy").run(adgen_cache)
    assert np.allclose([best["a"], best["k"]], [2.5, 0.7], atol=1e-5)


def test_docs_show_the_examples_as_they_are():
    """Each code block of docs/python-api.md's framework sections is a piece of one of the
    example programs, verbatim (a function's body dedented)."""
    text = (ROOT / "docs" / "python-api.md").read_text()
    sources = "\n".join(p.read_text() for p in EXAMPLES.glob("*.*"))
    blocks = re.findall(r"^```(?:py|c|fortran)\n(.*?)^```$", text[text.index("## PyTorch"):],
                        re.M | re.S)
    assert len(blocks) >= 3
    for block in blocks:
        block = block.strip("\n")
        assert block in sources or textwrap.indent(block, "    ") in sources, \
            f"not in examples/frameworks:\n{block}"
