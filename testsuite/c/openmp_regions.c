/* adgen-test
head: openmp_regions(unew v res)/(u f c w)
arg n: int = 9
arg u: double[n] = uniform(-1, 1)
arg f: double[n] = uniform(-1, 1)
arg c: double = uniform(0.5, 1.5)
arg w: double = uniform(0.5, 1.5)
arg unew: double[n]
arg v: double[n]
arg res: double[1]
*/
/* Parallel regions that run one worksharing loop each, written as OpenMP code often is:
 * a region with a scalar of its own and `#pragma omp for` inside it (a reduction,
 * `nowait`, `default(none)` with the variables listed on the region), and a region
 * `#pragma omp parallel` / `#pragma omp for` before a loop without braces. adgen reads
 * each as the combined `parallel for`, so both sweeps keep them parallel
 * (tests/test_openmp.py runs them on threads). */
#include <math.h>

void openmp_regions(int n, const double *u, const double *f, double c, double w,
                    double *unew, double *v, double *res)
{
    double r = 0.0;
    int i;
#pragma omp parallel default(none) shared(u, f, unew, r) firstprivate(c, n)
    {
        double t;
#pragma omp for schedule(static) reduction(+: r) nowait
        for (i = 1; i < n - 1; i++) {
            t = 0.5 * (u[i - 1] + u[i + 1]);
            unew[i] = t + c * f[i] * sin(u[i]);
            r += (t - u[i]) * (t - u[i]);
        }
    }
    unew[0] = u[0] + f[0];
    unew[n - 1] = u[n - 1] - f[n - 1];
#pragma omp parallel
#pragma omp for
    for (i = 0; i < n; i++)
        v[i] = w * u[i] * sin(f[i]);
    res[0] = r;
}
