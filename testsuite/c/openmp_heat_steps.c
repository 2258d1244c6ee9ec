/* adgen-test
head: openmp_heat_steps(u)/(u k)
arg n: int = 8
arg steps: int = 3
arg u: double[n] = uniform(-1, 1)
arg k: double = uniform(0.1, 0.3)
arg work: double[n]
*/
/* A 1-D heat equation stepped in time: the time loop is serial, the space loop of each
 * step parallel (a stencil into a scratch array), then copied back. The adjoint's space
 * loops run in parallel in each backward step. */
#include <math.h>

void openmp_heat_steps(int n, int steps, double *u, double k, double *work)
{
    int i, s;
    for (s = 0; s < steps; s++) {
#pragma omp parallel for schedule(static)
        for (i = 1; i < n - 1; i++)
            work[i] = u[i] + k * (u[i - 1] - 2.0 * u[i] + u[i + 1]) * (1.0 + 0.1 * u[i] * u[i]);
        work[0] = u[0];
        work[n - 1] = u[n - 1];
#pragma omp parallel for
        for (i = 0; i < n; i++)
            u[i] = work[i];
    }
}
