/* adgen-test
head: total(t)/(x)
arg n: int = 5
arg x: double[n] = uniform(0.5, 1.5)
arg t: double[1]
*/
/* A callee that allocates an array, fills it and hands it to its caller through a pointer
 * argument (`make(n, x, &y)`), which reads it and frees it: the callee's shadow block is
 * handed over beside it, in scalar and vector tangent mode (the shadow of `&y` is the
 * address of y's shadow pointer) and in reverse mode.
 */
#include <stdlib.h>

static void make(int n, const double *x, double **out)
{
    int i;
    double *r = malloc(n * sizeof(double));
    for (i = 0; i < n; i++)
        r[i] = 2.0 * x[i] * x[i];
    *out = r;
}

void total(int n, const double *x, double *t)
{
    double *y;
    int i;
    make(n, x, &y);
    t[0] = 0.0;
    for (i = 0; i < n; i++)
        t[0] += y[i] * x[i];
    free(y);
}
