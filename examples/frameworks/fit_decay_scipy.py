"""Fits the amplitude and rate of a C decay model (decay.c) with
scipy.optimize.minimize(fun, x0, jac=True): Built.value_and_grad packs the two
independents into one vector and gives the misfit with its adjoint gradient. Needs scipy.

    python examples/frameworks/fit_decay_scipy.py
"""
from pathlib import Path

import numpy as np
import scipy.optimize

import adgen

HERE = Path(__file__).resolve().parent


def run(cache_dir=None):
    fit = adgen.build(str(HERE / "decay.c"), head="misfit(misfit)/(a k)", cache_dir=cache_dir)
    n = 8
    t = np.linspace(0.0, 3.0, n)
    obs = 2.5 * np.exp(-0.7 * t)            # data of a = 2.5, k = 0.7

    # the misfit as a function of [a, k], the other arguments fixed at these values
    value_and_grad = fit.value_and_grad(n, t, obs, 1.0, 0.1, np.zeros(n))
    result = scipy.optimize.minimize(value_and_grad, value_and_grad.x0, jac=True,
                                     method="L-BFGS-B")
    best = value_and_grad.unpack(result.x)
    print(f"a = {best['a']:.6f}, k = {best['k']:.6f} (true 2.5, 0.7)")
    return best


if __name__ == "__main__":
    run()
