/* adgen-test
head: model(y)/(x)
arg n: int = 6
arg x: double[n] = uniform(0.2, 1.5)
arg y: double[n]
*/
/* `#pragma adgen checkpoint` before a call whose arguments call another function, one that
 * allocates its scratch (which joint mode cannot keep). The directive is the outer call's:
 * the inner call, computed first, keeps its own mode. (The inner call took the directive,
 * and adgen refused it.) */
#include <math.h>
#include <stdlib.h>

static double spread(int n, const double *x)
{
    double *w = malloc((size_t)n * sizeof(double));
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        w[i] = x[i] * x[i];
    for (i = 0; i < n; i++)
        s = s + sin(w[i]);
    free(w);
    return s;
}

static void relax(int n, const double *x, double c, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = y[i] * c + tanh(x[i]);
}

void model(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = x[i];
#pragma adgen checkpoint
    relax(n, x, 0.5 + 0.1 * spread(n, x), y);
#pragma adgen nocheckpoint
    relax(n, y, spread(n, y), y);
}
