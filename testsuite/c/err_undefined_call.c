/* adgen-test
head: uses_mystery(y)/(x)
arg n: int = 3
arg x: double[n]
arg y: double[n]
expect-error: mystery
expect-error-line: 20
*/
/* Must be refused: the function calls an external function that is declared but whose
 * body adgen cannot see, so it cannot be differentiated.  The error must point at the
 * call. */
#include <math.h>

double mystery(double v);

void uses_mystery(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = sin(x[i]) * mystery(x[i]);
}
