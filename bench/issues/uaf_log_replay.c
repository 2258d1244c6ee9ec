/* adgen repro: use-after-free in adgen_log_replay (see README.md). Head f(y)/(x). */
#include <stdlib.h>

static double sqnorm(int n, const double *v)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s = s + v[i] * v[i];
    return s;
}

void f(int n, const double *x, double *y)
{
    double *t = malloc((size_t)n * sizeof(double));
    int i;
    for (i = 0; i < n; i++)
        t[i] = x[i];
    for (i = 0; i < n; i++)
        t[i] = t[i] * t[i];
    y[0] = sqnorm(n, t) + sqnorm(n, x);
    free(t);
}
