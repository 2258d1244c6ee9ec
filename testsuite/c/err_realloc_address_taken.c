/* adgen-test
head: grow(grow)/(x)
arg n: int = 4
arg x: double[n] = uniform(0.2, 1.3)
expect-error: 'buf' holds a block that realloc grows and its address is taken
expect-error-line: 23
*/
/* A pointer realloc grows whose address a function is given: that function may set it to
 * a block of a length adgen cannot see, so adgen cannot tell what realloc copies. */
#include <stdlib.h>

static void make(double **p, int n)
{
    int i;
    *p = malloc(n * sizeof(double));
    for (i = 0; i < n; i++)
        (*p)[i] = 0.0;
}

double grow(int n, const double *x)
{
    double s = 0.0;
    double *buf = NULL;
    int i;
    make(&buf, n);
    buf = realloc(buf, 2 * n * sizeof(double));
    for (i = 0; i < n; i++)
        buf[n + i] = x[i] * x[i];
    for (i = 0; i < 2 * n; i++)
        s += buf[i];
    free(buf);
    return s;
}
