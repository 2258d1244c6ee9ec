/* adgen-test
head: pack(y)/(x)
arg n: int = 3
arg x: double[2*n] = uniform(-1, 1)
arg y: double[2*n]
*/
/* memcpy of a 2-D array whose rows have a length known only at run time (a
 * variable-length array): its numbers counted in memory order, row by row of n. */
#include <string.h>

void pack(int n, const double *x, double *y)
{
    double a[2][n];
    int i;
    for (i = 0; i < 2 * n; i++)
        a[i / n][i % n] = x[i];
    memcpy(y, a, sizeof(double) * 2 * n);
}
