/* adgen-test
head: independent_scratch_overwritten(s)/(x y)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
arg y: double[4] = uniform(-1, 1)
arg s: double[2]
sizes: give
*/
/* Loops reversed one iteration at a time (`#pragma adgen independent`, and a parallel sum
 * under OpenMP) whose iterations overwrite elements of an array of their own, the old
 * values read by the derivatives of the overwriting statements: each iteration's backward
 * sweep, which runs within the forward sweep, must find them stored. */
#include <math.h>

void independent_scratch_overwritten(int n, const double *x, const double *y, double *s)
{
    int i, j;
    double a = 0.0, b = 0.0;
#pragma adgen independent
    for (i = 0; i < n; i++) {
        double w[4];
        for (j = 0; j < 4; j++)
            w[j] = x[i] * y[j] + j;
        for (j = 1; j < 4; j++)
            w[j] = w[j] * w[j - 1];
        a += log(1.0 + w[3] * w[3]);
    }
#pragma omp parallel for reduction(+ : b)
    for (i = 0; i < n; i++) {
        double w[2];
        w[0] = x[i] * y[0];
        w[1] = x[i] + y[1];
        w[1] = w[1] * w[0];
        w[0] = sin(w[0]);
        b += w[0] * w[1];
    }
    s[0] = a;
    s[1] = b;
}
