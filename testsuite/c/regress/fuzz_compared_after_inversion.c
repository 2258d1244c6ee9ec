/* Regression (fuzz seed 1120): a value restored by undoing a floating-point increment was
   compared again in the backward sweep and took the other branch. */
/* adgen-test
head: fz_head(y)/(x)
arg n: int = 7
arg y: double[n]
arg x: double[n] = uniform(-1, 1)
tol: 1e-5
seed: 121
*/
#include <math.h>

void fz_head(int n, double *y, double *x)
{
    int i;
    int j;
    for (i = 0; i < n; i++) {
        y[i] = x[n - 1 - i];
    }
    double acc1 = 0.0;
    for (j = 0; j < 4; j++) {
        y[3] += (atan(acc1) > cos(y[j]) || tanh(acc1) < 0.0) ? -0.5 : y[1];
        acc1 += x[4];
    }
}
