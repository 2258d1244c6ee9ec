/* adgen-test
head: openmp_matvec(y)/(a x)
arg n: int = 5
arg m: int = 4
arg a: double[n*m] = uniform(-1, 1)
arg x: double[m] = uniform(-1, 1)
arg y: double[n]
*/
/* A matrix-vector product under `#pragma omp parallel for`, one row per iteration with a
 * sum of its own (whose values the backward sweep does not need): the adjoint's backward
 * loop runs in parallel, the adjoints of y each iteration's own, those of a and x in
 * copies of each thread's added up in the order of the threads after the loop. */
#include <math.h>

void openmp_matvec(int n, int m, const double *a, const double *x, double *y)
{
    int i, j;
#pragma omp parallel for private(j)
    for (i = 0; i < n; i++) {
        double s = 0.0;
        for (j = 0; j < m; j++)
            s += a[i * m + j] * sin(x[j]);
        y[i] = s;
    }
}
