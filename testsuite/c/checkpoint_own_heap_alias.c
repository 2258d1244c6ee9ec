/* adgen-test
head: march(cost)/(u0 nu)
arg n: int = 10
arg nsteps: int = 40
arg u0: double[n] = uniform(0, 1)
arg nu: double = 0.2
arg cost: double[1]
*/
/* A checkpointed time loop whose state is in a block the function allocates before it and
 * reaches through copies of its pointer (`v = &u[0]`, `w = u`): the snapshots keep the
 * block through the pointer malloc set, which covers what the copies write. */
#include <stdlib.h>

void march(int n, int nsteps, const double *u0, double nu, double *cost)
{
    double *u = malloc((size_t)(n + 2) * sizeof(double));
    double *un = calloc((size_t)n, sizeof(double));
    double *v = &u[0];
    double *w;
    double s = 0.0;
    int step, i;
    for (i = 0; i < n; i++)
        v[i + 1] = u0[i];
    v[0] = 0.0;
    v[n + 1] = 0.0;
#pragma adgen binomial_ckp(nsteps, 4, 0)
    for (step = 0; step < nsteps; step++) {
        w = u;
        for (i = 1; i <= n; i++)
            un[i - 1] = v[i] + nu * (v[i - 1] - 2.0 * w[i] + v[i + 1]) - 0.05 * w[i] * w[i] * v[i];
        for (i = 1; i <= n; i++)
            w[i] = un[i - 1];
    }
    for (i = 1; i <= n; i++)
        s += u[i] * u[i];
    cost[0] = s;
    free(un);
    free(u);
}
