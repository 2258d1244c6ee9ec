/* adgen-test
head: march(cost)/(u0 nu)
arg n: int = 10
arg nsteps: int = 40
arg u0: double[n] = uniform(0, 1)
arg nu: double = 0.2
arg cost: double[1]
*/
/* A checkpointed time loop whose state is in arrays the function allocates before it:
 * the snapshots keep them through their pointers, with the lengths given to malloc. */
#include <stdlib.h>

void march(int n, int nsteps, const double *u0, double nu, double *cost)
{
    double *u = malloc((size_t)(n + 2) * sizeof(double));
    double *un = calloc((size_t)n, sizeof(double));
    double s = 0.0;
    int step, i;
    for (i = 0; i < n; i++)
        u[i + 1] = u0[i];
    u[0] = 0.0;
    u[n + 1] = 0.0;
#pragma adgen binomial_ckp(nsteps, 4, 0)
    for (step = 0; step < nsteps; step++) {
        for (i = 1; i <= n; i++)
            un[i - 1] = u[i] + nu * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - 0.05 * u[i] * u[i] * u[i];
        for (i = 1; i <= n; i++)
            u[i] = un[i - 1];
    }
    for (i = 1; i <= n; i++)
        s += u[i] * u[i];
    *cost = s;
    free(un);
    free(u);
}
