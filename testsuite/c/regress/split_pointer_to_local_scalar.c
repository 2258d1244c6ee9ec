/* adgen-test
head: head(y head)/(x)
arg n: int = 4
arg x: double[n] = uniform(0, 1)
arg y: double[n]
tol: 1e-5
*/
/* As fuzz_split_pointer_into_local_struct.c, for a local scalar: a callee of a loop whose
 * local pointer points to its local `t` (q = &t). The saved pointer and its shadow pointed
 * into the forward sweep's frame when the backward sweep used them; `t` now lives on the
 * heap (or the static stack) from one sweep to the other. */
#include <math.h>

static double sink;

static double helper(const double *u)
{
    double t = u[0];
    double pad[8] = {0};
    double *q = &t;
    *q = *q * *q + pad[1];
    return sin(t) + *q;
}

double head(int n, const double *x, double *y)
{
    int i;
    sink = 0.0;
    for (i = 0; i < n; i++)
        y[i] = fmin(0.3, helper(x + i));
    for (i = 0; i < n; i++)
        sink += x[i];
    return sink;
}
