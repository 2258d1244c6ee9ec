/* adgen-test
head: burgers_step(u)/(u nu)
arg n: int = 9
arg u: double[n] = uniform(0.5, 1.5)
arg nu: double = uniform(0.05, 0.1)
arg nsteps: int = 3
*/
/* Viscous Burgers' equation, explicit steps: the stencil helpers receive a pointer to the
 * centre cell and read p[-1] and p[1], as stencil code often does; the end cells are
 * copied from their neighbours (zero-gradient).  In-place update through a second buffer
 * and a helper that writes a slice u + 1 of length n - 2. */
#include <stdlib.h>
#include <string.h>

static double laplacian(const double *p)
{
    return p[-1] - 2.0 * p[0] + p[1];
}

static double upwind_grad(const double *p)
{
    return p[0] > 0.0 ? p[0] - p[-1] : p[1] - p[0];
}

static void interior_update(int m, const double *src, double *dst, double nu, double dt)
{
    int i;
    for (i = 0; i < m; i++)
        dst[i] = src[i] + dt * (nu * laplacian(src + i) - src[i] * upwind_grad(src + i));
}

void burgers_step(int n, double *u, double nu, int nsteps)
{
    double *work = malloc((size_t)n * sizeof(double));
    int s;
    for (s = 0; s < nsteps; s++) {
        interior_update(n - 2, u + 1, work + 1, nu, 0.2);
        work[0] = work[1];
        work[n - 1] = work[n - 2];
        memcpy(u, work, (size_t)n * sizeof(double));
    }
    free(work);
}
