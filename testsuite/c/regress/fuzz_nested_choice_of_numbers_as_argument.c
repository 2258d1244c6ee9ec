/* fuzz seed 1154, minimized: for loop, ternary, sin, tanh; fails with: adgen-reverse: _ choice of functions passed here: adgen makes it _ choice of calls in _ statement of its own, `if (_) _(_); else _(_);` (make it one, the test computed before) */
/* adgen-test
head: fz_head(y)/(x a)
arg n: int = 7
arg y: double[n]
arg b: double = 0.75
arg a: double = uniform(-1, 1)
arg x: double[n] = uniform(0.2, 1.5)
tol: 1e-5
sizes: give
seed: 155
*/
#include <math.h>

struct fz_s1 {
    double sink;
    double s1;
};

void fz_head(int n, double *y, double b, double a, const double *x)
{
    for (int i = 0; i < n; i++) {
        y[i] = x[i];
    }
    a = tanh((tanh(y[3]) < x[5]) ? (sin(y[0]) > (-0.2)) ? b : 3.0 : 0.25);
    a = a;
}
