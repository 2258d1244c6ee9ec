/* adgen-test
head: openmp_stored_values(u energy)/(u c)
arg n: int = 7
arg steps: int = 3
arg u: double[n] = uniform(-1, 1)
arg c: double = uniform(0.5, 1.5)
arg energy: double[1]
*/
/* A parallel loop, stepped in time, whose adjoint must store values: each iteration
 * overwrites its own element of u, which the derivative of the update reads, and a scalar
 * of its own twice (t, private), which the derivative of the second assignment reads. The
 * adjoint keeps them in slots of each iteration's, not on the stack, so that its forward
 * and backward loops both run in parallel: the value t has before the loop, which the
 * sine's derivative reads, is kept apart. */
#include <math.h>

void openmp_stored_values(int n, int steps, double *u, double c, double *energy)
{
    int i, k;
    double t = c * c;
    double e = sin(t);
    for (k = 0; k < steps; k++) {
#pragma omp parallel for private(t) schedule(static)
        for (i = 0; i < n; i++) {
            t = exp(-c * u[i] * u[i]);
            t = t * sin(u[i]) + t * t;
            u[i] = u[i] * t + cos(u[i]);
        }
    }
    for (i = 0; i < n; i++)
        e += u[i] * u[i];
    *energy = e;
}
