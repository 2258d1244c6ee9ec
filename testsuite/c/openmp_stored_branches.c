/* adgen-test
head: openmp_stored_branches(v)/(x)
arg n: int = 9
arg x: double[n] = uniform(-1, 1)
arg v: double[n] = uniform(-1, 1)
sizes: give
*/
/* A parallel loop whose adjoint stores values in branches: the branch taken, the element
 * and the scalar each branch overwrites, kept in slots of each iteration's (written and
 * read under the same branch), so that both sweeps run in parallel. */
#include <math.h>

void openmp_stored_branches(int n, const double *x, double *v)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++) {
        double t = x[i] * x[i];
        if (x[i] > 0.0) {
            v[i] = sin(v[i]) * x[n - 1 - i];
            t = t * v[i];
        } else {
            t = exp(t);
            v[i] = v[i] * t;
        }
        v[i] = v[i] * t + t * t;
    }
}
