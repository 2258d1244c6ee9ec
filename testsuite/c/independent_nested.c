/* adgen-test
head: independent_nested(out)/(x p)
arg n: int = 5
arg m: int = 4
arg x: double[n*m] = uniform(-1, 1)
arg p: double[3] = uniform(0.5, 1.5)
arg out: double[1]
*/
/* A loop under `#pragma adgen independent` inside another: the inner loop's sum is a
 * scratch scalar of the outer one, its gathered adjoints are scaled into the outer
 * loop's gathered adjoints at each outer iteration. */
#include <math.h>
void independent_nested(int n, int m, const double *x, const double *p, double *out)
{
    double total = 0.0, row, t;
    int i, j;
#pragma adgen independent
    for (i = 0; i < n; i++) {
        row = 0.0;
#pragma adgen independent
        for (j = 0; j < m; j++) {
            t = sin(x[i * m + j] * p[0]) + p[1];
            row += t * t;
        }
        total += log(row + p[2]);
    }
    out[0] = total * total;
}
