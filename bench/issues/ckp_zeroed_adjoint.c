/* adgen: in a binomial_ckp loop, a helper's forward sweep zeroes the adjoint of an input it reads at an index of unknown bound (kb[(i + 1) % n] = 0.0), wiping what earlier-reversed steps accumulated: kb wrong, xb right (with k[i] it is right). */
static void step(int n, double *u, const double *k)
{
    int i;
    for (i = 0; i < n; i++)
        u[i] = u[i] * k[(i + 1) % n] + 0.1;
}

void f(int n, int nsteps, const double *x, const double *k, double *u, double *y)
{
    int i, t;
    for (i = 0; i < n; i++)
        u[i] = x[i];
#pragma adgen binomial_ckp(nsteps, 3, 0)
    for (t = 0; t < nsteps; t++)
        step(n, u, k);
    *y = 0.0;
    for (i = 0; i < n; i++)
        *y += u[i];
}
