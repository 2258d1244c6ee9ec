/* adgen-test
head: relax(relax)/(u0)
arg n: int = 6
arg u0: double[n] = uniform(0.5, 1.5)
*/
/* A local array of constant size that fits the stack in the primal (4 MB of an 8 MB
 * stack) but not beside its adjoint's shadow: both go to static memory, as a large
 * Fortran local does (before: SIGSEGV in the derivative). A small local array and the
 * recursive helper's large local stay on the stack. */
#include <math.h>

#define NWORK 500000

static double depth_sum(int level, const double *u)
{
    double part[9000];
    int i;
    for (i = 0; i < 3; i++)
        part[i] = u[i] * u[i];
    if (level == 0)
        return part[0] + part[1] + part[2];
    return part[level % 3] + depth_sum(level - 1, u);
}

double relax(int n, const double *u0)
{
    double work[NWORK], small[4];
    double cost = 0.0;
    int i, sweep;
    for (i = 0; i < n; i++)
        work[i] = u0[i];
    small[0] = 0.25;
    for (sweep = 0; sweep < 4; sweep++)
        for (i = 1; i < n - 1; i++)
            work[i] = work[i] + small[0] * (work[i - 1] - 2.0 * work[i] + sin(work[i + 1]));
    for (i = 0; i < n; i++)
        cost = cost + work[i] * work[i];
    return cost + depth_sum(4, work);
}
