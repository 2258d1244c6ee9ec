/* regress: a for loop whose body ends in an unconditional continue (generated code: variable 'cont2' set but not used, -Werror); minimized fuzz case */
/* adgen-test
head: fz_head(y fz_head)/(x)
arg n: int = 6
arg y: double[n]
arg x: double[n] = uniform(-1, 1)
tol: 1e-5
sizes: give
seed: 10
*/
#include <math.h>

double fz_head(int n, double *y, const double *x)
{
    for (int i = 0; i < n; i++) {
        y[i] = x[i];
    }
    for (int i = 1; i < n; i += 2) {
        continue;
    }
    return 0.8;
}
