/* regress: array length inference when an output is updated through a pointer p1 = &y[k1 / 2] set inside a data-dependent while loop (adgen: 'an alias of y is set under a condition'; y is written in full by the first loop); minimized fuzz case */
/* adgen-test
head: fz_head(y)/(x)
arg n: int = 6
arg x: double[n] = uniform(-2, 2)
arg y: double[n]
tol: 1e-5
seed: 22
*/
#include <math.h>

void fz_head(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        y[i] = 0.0;
    }
    int k1 = 0;
    while (k1 < n && x[k1] > (-0.1)) {
        double *p1 = &y[k1 / 2];
        p1[0] += x[k1];
        k1 += 2;
    }
}
