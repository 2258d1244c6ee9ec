/* regress: a checkpointed time loop in a function whose state is an array its caller allocated with malloc and handed down: the memory counted as the heap's, which adgen cannot keep, and the directive was refused; it is kept through the parameter, as any array a caller hands down */
/* adgen-test
head: model(energy)/(k u0)
arg n: int = 10
arg nsteps: int = 23
arg k: double[n] = uniform(0.2, 0.4)
arg u0: double[n] = uniform(-1, 1)
arg energy: double[1]
sizes: give
*/
#include <math.h>
#include <stdlib.h>

static void simulate(int n, int nsteps, const double *k, double *u, double *tmp)
{
    int t, i;
#pragma adgen binomial_ckp(nsteps, 3, 0)
    for (t = 0; t < nsteps; t++) {
        for (i = 1; i < n - 1; i++)
            tmp[i] = u[i] + 0.1 * (k[i] * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.1 * sin(u[i]));
        for (i = 1; i < n - 1; i++)
            u[i] = tmp[i];
    }
}

void model(int n, int nsteps, const double *k, const double *u0, double *energy)
{
    double *u = malloc((size_t)n * sizeof(double));
    double *tmp = malloc((size_t)n * sizeof(double));
    int i;
    for (i = 0; i < n; i++)
        u[i] = u0[i];
    simulate(n, nsteps, k, u, tmp);
    energy[0] = 0.0;
    for (i = 0; i < n; i++)
        energy[0] += u[i] * u[i];
    free(u);
    free(tmp);
}
