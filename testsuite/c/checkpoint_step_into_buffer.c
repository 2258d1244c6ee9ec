/* adgen-test
head: march(cost)/(u c)
arg n: int = 10
arg nsteps: int = 29
arg u: double[n] = uniform(-1, 1)
arg next: double[n]
arg c: double[n] = uniform(0.1, 0.3)
arg cost: double[1]
sizes: give
*/
/* Binomial checkpointing of a stepper that writes each new state into a buffer of the
 * caller's (through a small helper per point) and copies it back: the buffer's old values
 * are never read again once a step is reversed (the next one starts from a kept state),
 * so the steps do not store them, and the copy back stores the state as one block. */
#include <string.h>

static double point(double left, double mid, double right, double c)
{
    return mid + c * (left - 2.0 * mid + right) - 0.05 * mid * mid * mid;
}

static void step(int n, const double *u, const double *c, double *next)
{
    int i;
    next[0] = point(u[n - 1], u[0], u[1], c[0]);
    for (i = 1; i < n - 1; i++)
        next[i] = point(u[i - 1], u[i], u[i + 1], c[i]);
    next[n - 1] = point(u[n - 2], u[n - 1], u[0], c[n - 1]);
}

void march(int n, int nsteps, double *u, double *next, const double *c, double *cost)
{
    int t, i;
    double s = 0.0;
#pragma adgen binomial_ckp(nsteps, 3, 0)
    for (t = 0; t < nsteps; t++) {
        step(n, u, c, next);
        memcpy(u, next, (size_t)n * sizeof(double));
        s = s + u[t % n] * u[t % n];
    }
    for (i = 0; i < n; i++)
        s = s + u[i] * u[i];
    cost[0] = s;
}
