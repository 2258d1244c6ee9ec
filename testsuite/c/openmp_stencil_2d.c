/* adgen-test
head: openmp_stencil_2d(v)/(u w)
arg n: int = 6
arg m: int = 5
arg u: double[n*m] = uniform(-1, 1)
arg w: double = uniform(0.5, 1.5)
arg v: double[n*m]
*/
/* A five-point stencil on an n by m grid under `#pragma omp parallel for`, one row's
 * inside per iteration (v[i * m + j], j of an inner loop kept in the row; the edges set
 * apart, serially): the adjoint's backward
 * loop runs in parallel, the adjoints of v each row's own, those of u (its rows above and
 * below) and of w in copies of each thread's added up in the order of the threads. */
#include <math.h>

void openmp_stencil_2d(int n, int m, const double *u, double w, double *v)
{
    int i, j;
    for (j = 0; j < m; j++) {
        v[j] = u[j];
        v[(n - 1) * m + j] = u[(n - 1) * m + j];
    }
    for (i = 1; i < n - 1; i++) {
        v[i * m] = u[i * m];
        v[i * m + m - 1] = u[i * m + m - 1];
    }
#pragma omp parallel for private(j) schedule(static)
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < m - 1; j++)
            v[i * m + j] = w * u[i * m + j] + 0.25 * (1.0 - w) *
                (u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1] +
                 u[i * m + j + 1]) + 0.1 * sin(u[i * m + j]);
}
