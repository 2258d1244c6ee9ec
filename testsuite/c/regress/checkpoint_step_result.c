/* regress: a checkpointed time loop whose step is a function whose result the loop assigns (r = step(n, u, ...)): what the call writes (u) was left out of the state the checkpoints keep, as the statement assigns a scalar; the steps recomputed from a checkpoint started from the last u (wrong gradient); checkpoint_heat.c with a step that returns a value */
/* adgen-test
head: heat(energy)/(k u)
arg n: int = 12
arg nsteps: int = 37
arg k: double[n] = uniform(0.2, 0.4)
arg u: double[n] = uniform(-1, 1)
arg energy: double[1]
sizes: give
*/
#include <math.h>

static double step(int n, double *u, double *tmp, const double *k, double dt)
{
    int i;
    for (i = 1; i < n - 1; i++)
        tmp[i] = u[i] + dt * (k[i] * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.1 * sin(u[i]));
    for (i = 1; i < n - 1; i++)
        u[i] = tmp[i];
    return u[1];
}

void heat(int n, int nsteps, const double *k, double *u, double *energy)
{
    double tmp[64];
    double e = 0.0, r;
    int t, i;
#pragma adgen binomial_ckp(nsteps, 4, 0)
    for (t = 0; t < nsteps; t++) {
        r = step(n, u, tmp, k, 0.1);
        e = e + r * u[n / 2] * u[n / 2] * (1.0 + 0.01 * t);
    }
    energy[0] = e;
    for (i = 0; i < n; i++)
        energy[0] += u[i] * u[i];
}
