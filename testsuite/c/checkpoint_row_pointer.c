/* adgen-test
head: run(run)/(m c)
arg n: int = 3
arg nsteps: int = 7
arg m: double[n*n] = uniform(-1, 1)
arg c: double = 0.3
sizes: give
*/
/* A checkpointed loop whose step takes a row of a matrix through a function returning a
 * pointer into it, set before it is used in each step: the steps run again from kept
 * states need not move its shadow (the recording step sets both), and must not be
 * refused for it. */
#include <math.h>

static double *row(double *m, int n, int i)
{
    return m + i * n;
}

double run(int n, int nsteps, double *m, double c)
{
    int i, k;
    double e = 0.0;
#pragma adgen binomial_ckp(nsteps, 2, 1)
    for (k = 0; k < nsteps; k++) {
        double *r = row(m, n, k % n);
        for (i = 0; i < n; i++)
            r[i] = r[i] + c * sin(r[(i + 1) % n]);
    }
    for (i = 0; i < n * n; i++)
        e += m[i] * m[i];
    return e;
}
