/* adgen-test
head: openmp_jacobi(unew res)/(u f c)
arg n: int = 9
arg u: double[n] = uniform(-1, 1)
arg f: double[n] = uniform(-1, 1)
arg c: double = uniform(0.5, 1.5)
arg unew: double[n]
arg res: double[1]
*/
/* A Jacobi sweep under `#pragma omp parallel for`: each iteration writes its own element
 * of unew from its neighbours in u and a coefficient c that every iteration reads, and
 * adds its change into a sum (reduction). The adjoint's backward loop runs in parallel
 * too: the adjoints of u[i - 1] and u[i + 1] and of c go into copies of each thread's,
 * added up in the order of the threads after it. */
#include <math.h>

void openmp_jacobi(int n, const double *u, const double *f, double c, double *unew,
                   double *res)
{
    int i;
    double r = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : r)
    for (i = 1; i < n - 1; i++) {
        double t = 0.5 * (u[i - 1] + u[i + 1]);
        unew[i] = t + c * f[i] * sin(u[i]) + 0.1 * t * t;
        r += (t - u[i]) * (t - u[i]);
    }
    unew[0] = u[0] + f[0];
    unew[n - 1] = u[n - 1] - f[n - 1];
    res[0] = r;
}
