/* adgen-test
head: through_params(y)/(p)
arg n: int = 3
arg p: double[n] = uniform(-0.5, 0.8)
arg y: double[1]
sizes: give
*/
/* Code that keeps and brings back a state (a fixed-point loop, binomially checkpointed
 * steps, a call in joint mode) inside a callee, where the state is a local array of the
 * caller reached through a parameter (written for this project). */
#include <math.h>

/* z = uold + 0.1 (cos(z)/2 + p), iterated to its fixed point */
static void relax(int n, const double *uold, const double *p, double *z)
{
    double zk[8];
    double err = 1.0;
    int it = 0, i;
    for (i = 0; i < n; i++)
        z[i] = uold[i];
#pragma adgen fp_loop
    while (err > 1e-15 && it < 300) {
        it = it + 1;
        for (i = 0; i < n; i++)
            zk[i] = z[i];
        for (i = 0; i < n; i++)
            z[i] = uold[i] + 0.1 * (0.5 * cos(zk[i]) + p[i]);
        err = 0.0;
        for (i = 0; i < n; i++)
            err = fmax(err, fabs(z[i] - zk[i]));
    }
}

/* 40 explicit steps of a damped oscillation of u, checkpointed in 4 states */
static void evolve(int n, const double *p, double *u)
{
    int s, i;
#pragma adgen binomial_ckp(40, 4, 0)
    for (s = 0; s < 40; s++)
        for (i = 0; i < n; i++)
            u[i] = u[i] + 0.05 * (sin(p[i] * u[i]) - 0.3 * u[i]);
}

static void scale_in_place(int n, const double *p, double *v)
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = v[i] * (1.0 + 0.1 * tanh(p[i] * v[i]));
}

static void chain(int n, const double *p, double *v)
{
    relax(n, v, p, v + n);
    evolve(n, p, v + n);
#pragma adgen checkpoint
    scale_in_place(n, p, v + n);
}

void through_params(int n, const double *p, double *y)
{
    double v[16];
    int i;
    for (i = 0; i < n; i++)
        v[i] = 0.1 * (i + 1);
    chain(n, p, v);
    *y = 0.0;
    for (i = 0; i < n; i++)
        *y += v[n + i] * v[n + i] + v[i] * p[i];
}
