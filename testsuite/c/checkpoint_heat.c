/* adgen-test
head: heat(energy)/(k u)
arg n: int = 12
arg nsteps: int = 37
arg k: double[n] = uniform(0.2, 0.4)
arg u: double[n] = uniform(-1, 1)
arg energy: double[1]
sizes: give
*/
/* Binomial checkpointing (#pragma adgen binomial_ckp): an explicit heat-equation time
 * stepper with a nonlinear source, its state in the in/out array u, a local scratch array
 * and a scalar accumulated over the steps. 37 steps with 4 kept states: the reversal
 * splits the steps, and reaches some of them from the start of a stretch when no state
 * is left to keep. */
#include <math.h>

static void step(int n, double *u, double *tmp, const double *k, double dt)
{
    int i;
    for (i = 1; i < n - 1; i++)
        tmp[i] = u[i] + dt * (k[i] * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.1 * sin(u[i]));
    for (i = 1; i < n - 1; i++)
        u[i] = tmp[i];
}

void heat(int n, int nsteps, const double *k, double *u, double *energy)
{
    double tmp[64];
    double e = 0.0;
    int t, i;
#pragma adgen binomial_ckp(nsteps, 4, 0)
    for (t = 0; t < nsteps; t++) {
        step(n, u, tmp, k, 0.1);
        e = e + u[n / 2] * u[n / 2] * (1.0 + 0.01 * t);
    }
    energy[0] = e;
    for (i = 0; i < n; i++)
        energy[0] += u[i] * u[i];
}
