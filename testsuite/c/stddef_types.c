/* adgen-test
head: expall(y)/(x)
arg n: int = 4
arg x: double[n]
arg y: double[n]
*/
/* Types of <stddef.h> (ptrdiff_t, size_t) in a program that includes it: the generated
 * files include it too (they left it out, and ptrdiff_t was unknown there). */
#include <math.h>
#include <stddef.h>

void expall(int n, const double *x, double *y)
{
    ptrdiff_t k;
    size_t m = (size_t)n;
    for (k = 0; k < (ptrdiff_t)m; k++)
        y[k] = exp(x[k]) * (double)(k + 1);
}
