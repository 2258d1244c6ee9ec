"""Fits the rate, capacity and initial size of a Fortran logistic growth model
(growth.f90) inside a jitted JAX loss: jax.grad, jax.vmap and jax.scipy.optimize.minimize
call the compiled model and its adjoint. Needs jax (pip install 'adgen[jax]') and gfortran.

    python examples/frameworks/fit_growth_jax.py
"""
from pathlib import Path

import numpy as np
import jax
import jax.numpy as jnp
import jax.scipy.optimize

import adgen

jax.config.update("jax_enable_x64", True)       # the model is real(8): float64
HERE = Path(__file__).resolve().parent


def run(cache_dir=None):
    growth = adgen.build(str(HERE / "growth.f90"), head="growth(y)/(r capacity y0)",
                         cache_dir=cache_dir)
    model = growth.jax()        # model(n, r, capacity, y0, t, y) -> y at the times t

    n = 12
    t = np.linspace(0.0, 10.0, n)
    observed = model(n, 0.9, 8.0, 0.5, t, np.zeros(n))

    @jax.jit
    def loss(log_p):        # the logarithms of r, capacity and y0: all stay positive
        p = jnp.exp(log_p)
        y = model(n, p[0], p[1], p[2], t, np.zeros(n))
        return jnp.sum((y - observed) ** 2)

    start = jnp.log(jnp.array([0.6, 6.0, 1.0]))
    print("gradient at the start:", jax.grad(loss)(start))
    guesses = jnp.stack([start, start + 0.1, start - 0.1])
    print("losses of three guesses:", jax.vmap(loss)(guesses))
    fit = jax.scipy.optimize.minimize(loss, start, method="BFGS")   # jax.grad inside
    best = np.exp(np.asarray(fit.x))
    print(f"r, capacity, y0 = {np.round(best, 6)} (true 0.9, 8, 0.5)")
    return best


if __name__ == "__main__":
    run()
