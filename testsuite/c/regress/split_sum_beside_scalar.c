/* adgen-test
head: fz_head(y z)/(z)
arg n: int = 6
arg d: int = 3
arg z: double[n]
arg y: double[n*d]
tol: 1e-5
sizes: give
seed: 139
*/
/* The backward loop of t1's loop adds to the adjoints of v[1] and of the scalar s1. Only
 * the first was split in two parts: the second stayed an in-order sum over the two copies
 * of the loop body, which gcc 12 -O3 vectorizes wrongly (some terms counted twice), and the
 * gradient of z[1..2] was off. Now every sum of the loop is split, or none (found by the
 * fuzzer, seed 20138). */
#include <math.h>

void fz_f2(double *o, const double *v)
{
    int j;
    double sink = 0.0;
    double s1 = v[2];
    double t1[6];
    for (j = 0; j < 6; j++) {
        t1[j] = v[1] * s1;
    }
    sink += t1[0];
    o[0] += sink;
}

void fz_head(int n, int d, double *z, double *y)
{
    int i;
    for (i = 0; i < n * d; i++) {
        y[i] = 0.0;
    }
    fz_f2(y + 9, &z[0]);
}
