"""Fits the diffusivity of a C heat model (heat.c) to observed temperatures with
torch.optim.LBFGS: the model runs as compiled C inside a torch loss, its gradient comes
from adgen's adjoint. Needs torch (pip install 'adgen[torch]').

    python examples/frameworks/fit_heat_torch.py
"""
from pathlib import Path

import numpy as np
import torch

import adgen

HERE = Path(__file__).resolve().parent


def run(cache_dir=None):
    heat = adgen.build(str(HERE / "heat.c"), head="heat(u)/(kappa u0)", cache_dir=cache_dir)
    model = heat.torch()            # model(n, steps, dt, kappa, u0, u) -> the final u

    n, steps, dt = 20, 40, 0.001
    x = np.arange(1, n + 1) / (n + 1)
    u0 = torch.tensor(np.sin(np.pi * x) + 0.5 * np.sin(3 * np.pi * x))
    observed = model(n, steps, dt, torch.tensor(0.35, dtype=torch.float64), u0, np.zeros(n))

    kappa = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.LBFGS([kappa], max_iter=50, line_search_fn="strong_wolfe",
                                  tolerance_grad=1e-12, tolerance_change=1e-14)

    def closure():
        optimizer.zero_grad()
        loss = ((model(n, steps, dt, kappa, u0, np.zeros(n)) - observed) ** 2).sum()
        loss.backward()
        return loss

    optimizer.step(closure)
    print(f"kappa = {kappa.item():.6f} (true 0.35)")
    return kappa.item()


if __name__ == "__main__":
    run()
