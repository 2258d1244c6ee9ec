/* adgen-test
head: guarded(f)/(x)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg f: double[1]
*/
/* Calls in the right operand of && and ||, which C evaluates only when the left one
 * does not decide: a test that reads a helper's result (`n > 2 && positive(x, n)`), an
 * active helper called only on the path that needs it, and a loop whose test has such
 * a call (evaluated again at each iteration). Each call runs exactly where the primal's
 * does; the one with a side effect (counting its calls in *calls) shows it. */
#include <math.h>

static int positive(const double *x, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (x[i] <= 0.0)
            return 0;
    return 1;
}

static double norm2(const double *x, int n, int *calls)
{
    double s = 0.0;
    int i;
    *calls = *calls + 1;
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

void guarded(int n, const double *x, double *f)
{
    int calls = 0, k = 0;
    double s = 0.0;
    if (n > 2 && positive(x, n))
        s = 1.0;
    if (s > 0.5 || norm2(x, n, &calls) > 0.1)
        s = s + sin(x[0]);
    while (k < n && norm2(x, k + 1, &calls) < 2.0) {
        s = s + x[k] * x[k] * (1.0 + k);
        k++;
    }
    *f = s * (1.0 + calls) + (k < n || positive(x, 1) ? x[1] : 0.0);
}
