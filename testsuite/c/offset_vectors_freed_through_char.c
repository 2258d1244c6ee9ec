/* adgen-test
head: smooth(smooth)/(x)
arg n: int = 5
arg x: double[n] = uniform(-1.0, 1.0)
*/
/* Vectors indexed from 1, as Numerical Recipes' nrutil allocates them (the pointer moved
 * back by the lower bound) and frees them: through a cast to char *, the pointer free
 * takes, which reads no value. Before, the cast was refused as a reinterpretation of the
 * doubles' bits. */
#include <stdlib.h>

static double *vec_from(long lo, long hi)
{
    double *v = (double *)malloc((size_t)(hi - lo + 2) * sizeof(double));
    return v - lo + 1;
}

static void vec_free(double *v, long lo)
{
    free((char *)(v + lo - 1));
}

double smooth(int n, const double *x)
{
    double *t = vec_from(1, n);
    double s = 0.0;
    int i;
    for (i = 1; i <= n; i++)
        t[i] = x[i - 1] * x[i - 1] + 0.5 * x[i - 1];
    for (i = 2; i <= n; i++)
        s += t[i] * t[i - 1];
    vec_free(t, 1);
    return s;
}
