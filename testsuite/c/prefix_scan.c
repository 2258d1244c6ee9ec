/* adgen-test
head: prefix_scan(x)/(x)
arg n: int = 10
arg x: double[n] = uniform(-1, 1)
*/
/* In-place recurrences on an in/out array: a prefix sum, then a backward first-order
 * filter, each element overwritten using already-overwritten neighbours, then a
 * normalisation by a value computed from the overwritten array. */
#include <math.h>

void prefix_scan(int n, double *x)
{
    double norm = 0.0;
    int i;
    for (i = 1; i < n; i++)
        x[i] += x[i - 1];
    for (i = n - 2; i >= 0; i--)
        x[i] = 0.6 * x[i] + 0.4 * sin(x[i + 1]);
    for (i = 0; i < n; i++)
        norm += x[i] * x[i];
    norm = sqrt(norm);
    for (i = 0; i < n; i++)
        x[i] /= norm;
}
