/* adgen-test
head: openmp_parallel_loops(v energy)/(u w)
arg n: int = 9
arg u: double[n*n] = uniform(-1, 1)
arg w: double = uniform(0.5, 1.5)
arg v: double[n*n]
arg energy: double[1]
*/
/* OpenMP parallel loops, which the tangent keeps parallel: a smoothing sweep whose
 * iterations declare their own scalars, a small array and a pointer, and call a helper; a
 * collapsed nest with a private scalar and a schedule; a sum (reduction) and a firstprivate
 * weight. Built without -fopenmp the pragmas are ignored: the test programs check the
 * derivatives serially, tests/test_openmp.py runs them on several threads. */
#include <math.h>

static double soften(double a, double b)
{
    return a * tanh(b);
}

void openmp_parallel_loops(int n, const double *u, double w, double *v, double *energy)
{
    int i, j;
    double s = 0.0, scale = 0.5 * w, r;
#pragma omp parallel for schedule(static)
    for (i = 1; i < n * n - 1; i++) {
        double stencil[3];
        const double *row = &u[i - 1];
        double t;
        int k;
        for (k = 0; k < 3; k++)
            stencil[k] = row[k] * (k == 1 ? 2.0 : 1.0);
        t = 0.25 * (stencil[0] + stencil[1] + stencil[2]);
        v[i] = soften(w, t) + sin(u[i]) * t;
    }
    v[0] = u[0];
    v[n * n - 1] = u[n * n - 1];
#pragma omp parallel for collapse(2) private(r) firstprivate(scale) schedule(static, 2)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            r = v[i * n + j] * scale;
            v[i * n + j] = r + cos(r) * 0.1;
        }
#pragma omp parallel for reduction(+ : s)
    for (i = 0; i < n * n; i++)
        s += v[i] * v[i] * w;
    energy[0] = sqrt(s + 1.0);
}
