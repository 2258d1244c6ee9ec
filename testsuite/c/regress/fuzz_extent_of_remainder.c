/* adgen-test
head: shift(y)/(x)
arg n: int = 6
arg y: double[n]
arg x: double[n] = uniform(-1, 1)
*/
/* y is reached at (l + 1) % 15 + i with l < 4 and i <= n - 5: the remainder is l + 1 itself, at most 4,
 * not 14. Taken as 14, y's length came out as n + 10, and the copy of y's final values
 * wrote past its end, over x (found by the long fuzz run, seed 2008323). */
#include <math.h>

void shift(int n, double *y, double *x)
{
    for (int i = 0; i < n; i++)
        y[i] = 0.25 * x[(i + 3) % n];
    for (int i = 0; i + 5 <= n; i++) {
        for (int l = 0; l < 4; l++) {
            double *p = &y[(l + 1) % 15];
            p[i] = atan(x[l] * y[0]) + p[i];
        }
    }
}
