/* adgen-test
head: step_index(e)/(x)
arg n: int = 4
arg d: int = 3
arg x: double[n*d] = uniform(-1, 1)
arg e: double[1]
*/
/* A scratch array refilled at the top of a loop whose step also moves the index the refill
 * reads: the index is undone before the refill runs again (written for this project). */
#include <math.h>
void step_index(int n, int d, const double *x, double *e)
{
    double t[8];
    int i, j, k;
    *e = 0.0;
    for (i = 0, k = 0; i < n; i++, k += d) {
        for (j = 0; j < d; j++)
            t[j] = 0.5 * x[k + j] + x[j];
        *e += sin(t[0] * t[d - 1]) + cos(t[1]);
    }
}
