/* adgen-test
head: extend(extend)/(x)
arg n: int = 4
arg x: double[n] = uniform(0.2, 1.3)
expect-error: realloc of a block that is not held by a local pointer variable
expect-error-line: 16
*/
/* realloc of a block the caller handed over: adgen cannot tell how many elements it
 * holds, so it cannot tell what realloc copies. */
#include <stdlib.h>

double extend(int n, double *x)
{
    double s;
    double *y = x;
    y = realloc(x, 2 * n * sizeof(double));
    y[n] = 1.0;
    s = y[0] * y[n];
    free(y);
    return s;
}
