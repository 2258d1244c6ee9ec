/* regress: a checkpointed time loop inside another loop of the head: each pass of the outer loop allocated the kept states and counted the steps anew in the forward sweep, over the previous pass's, so the backward sweep reversed every pass with the last pass's states and freed them once per pass (double free) */
/* adgen-test
head: episodes(energy)/(k u)
arg n: int = 10
arg nsteps: int = 9
arg k: double[n] = uniform(0.2, 0.4)
arg u: double[n] = uniform(-1, 1)
arg energy: double[1]
sizes: give
*/
#include <math.h>

static void step(int n, double *u, double *tmp, const double *k, double dt)
{
    int i;
    for (i = 1; i < n - 1; i++)
        tmp[i] = u[i] + dt * (k[i] * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.1 * sin(u[i]));
    for (i = 1; i < n - 1; i++)
        u[i] = tmp[i];
}

void episodes(int n, int nsteps, const double *k, double *u, double *energy)
{
    double tmp[64];
    double e = 0.0;
    int t, i, pass;
    for (pass = 0; pass < 3; pass++) {
        /* each pass runs a different number of steps */
#pragma adgen binomial_ckp(nsteps + pass, 2, 0)
        for (t = 0; t < nsteps + pass; t++) {
            step(n, u, tmp, k, 0.1);
            e = e + u[n / 2] * u[n / 2] * (1.0 + 0.01 * t);
        }
        for (i = 0; i < n; i++)
            u[i] = 0.9 * u[i] + 0.05 * cos(u[i]);
    }
    energy[0] = e;
    for (i = 0; i < n; i++)
        energy[0] += u[i] * u[i];
}
