/* 1-D viscous Burgers equation u_t + (u^2/2)_x = (nu(x) u_x)_x on a periodic grid, explicit
 * Euler steps with central differences: the misfit of the final state to an observed one,
 * as in estimating the initial condition and a spatially varying viscosity from a
 * measurement.  The viscosity is given in units of NU_REF.  The time loop is checkpointed
 * (binomial_ckp); compiled with -DBURGERS_NO_CHECKPOINT, adgen's adjoint stores every step
 * instead (the reference the checkpointed gradient is checked against). */
#include <string.h>
#include "burgers.h"

/* New value at a point from its neighbours and the viscosities of its two faces. */
static double burgers_point(double u_left, double u_mid, double u_right, double nu_left,
                            double nu_right, double c_adv, double c_diff)
{
    double flux_difference = 0.5 * (u_right * u_right - u_left * u_left);
    double diffusion = nu_right * (u_right - u_mid) - nu_left * (u_mid - u_left);
    return u_mid - c_adv * flux_difference + c_diff * diffusion;
}

/* One explicit step from u to u_next.  nu_face[i] sits between points i and i+1 (the last
 * between n-1 and 0), so the diffusion term stays conservative.  The two end points, whose
 * neighbours wrap around, are written out. */
static void burgers_step(int n, const double *u, const double *nu_face, double dt, double dx,
                         double *u_next)
{
    double c_adv = dt / (2.0 * dx), c_diff = NU_REF * dt / (dx * dx);
    int i;
    u_next[0] = burgers_point(u[n - 1], u[0], u[1], nu_face[n - 1], nu_face[0], c_adv, c_diff);
    for (i = 1; i < n - 1; i++)
        u_next[i] = burgers_point(u[i - 1], u[i], u[i + 1], nu_face[i - 1], nu_face[i], c_adv,
                                  c_diff);
    u_next[n - 1] = burgers_point(u[n - 2], u[n - 1], u[0], nu_face[n - 2], nu_face[n - 1],
                                  c_adv, c_diff);
}

void burgers_objective(int n, int nsteps, const double *u0, const double *nu_face,
                       const double *u_obs, double dt, double dx, double *u, double *u_next,
                       double *misfit)
{
    double sum = 0.0;
    int i, t;
    for (i = 0; i < n; i++)
        u[i] = u0[i];
#ifndef BURGERS_NO_CHECKPOINT
#pragma adgen binomial_ckp(nsteps, 50, 0)
#endif
    for (t = 0; t < nsteps; t++) {
        burgers_step(n, u, nu_face, dt, dx, u_next);
        memcpy(u, u_next, (size_t)n * sizeof(double));
    }
    for (i = 0; i < n; i++)
        sum += (u[i] - u_obs[i]) * (u[i] - u_obs[i]);
    *misfit = 0.5 * dx * sum;
}
