/* adgen-test
head: heat_advect(u)/(u nu c)
arg nx: int = 16
arg nsteps: int = 25
arg nu: double = uniform(0.1, 0.3)
arg c: double = uniform(0.1, 0.4)
arg u: double[nx] = uniform(0, 1)
head: heat_energy(heat_energy)/(u0 nu)
arg nx: int = 16
arg nsteps: int = 25
arg nu: double = uniform(0.1, 0.3)
arg u0: double[nx] = uniform(0, 1)
*/
/* Explicit finite-volume time stepping of u_t + c u_x = nu u_xx on a periodic grid
 * (nu and c already scaled by dt/dx^2 and dt/dx), first-order upwind advection.
 * Two buffers, the caller's u and a malloc'd one, are swapped by pointers after every
 * step; u is in/out.  heat_energy runs the pure diffusion from a read-only initial state
 * and returns the final energy. */
#include <stdlib.h>

static void step(int nx, double nu, double c, const double *cur, double *next)
{
    int i;
    for (i = 0; i < nx; i++) {
        int left = (i + nx - 1) % nx;
        int right = (i + 1) % nx;
        next[i] = cur[i] + nu * (cur[left] - 2.0 * cur[i] + cur[right])
                - c * (cur[i] - cur[left]);
    }
}

void heat_advect(int nx, int nsteps, double nu, double c, double *u)
{
    double *buf = malloc((size_t)nx * sizeof(double));
    double *cur = u, *next = buf, *tmp;
    int t, i;
    for (t = 0; t < nsteps; t++) {
        step(nx, nu, c, cur, next);
        tmp = cur;
        cur = next;
        next = tmp;
    }
    if (cur != u)
        for (i = 0; i < nx; i++)
            u[i] = cur[i];
    free(buf);
}

double heat_energy(int nx, int nsteps, double nu, const double *u0)
{
    double *a = malloc((size_t)nx * sizeof(double));
    double *b = malloc((size_t)nx * sizeof(double));
    double *cur = a, *next = b, *tmp, e = 0.0;
    int t, i;
    for (i = 0; i < nx; i++)
        a[i] = u0[i];
    for (t = 0; t < nsteps; t++) {
        step(nx, nu, 0.0, cur, next);
        tmp = cur;
        cur = next;
        next = tmp;
    }
    for (i = 0; i < nx; i++)
        e += 0.5 * cur[i] * cur[i];
    free(a);
    free(b);
    return e;
}
