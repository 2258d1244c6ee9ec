/* adgen-test
head: integrate(integrate)/(y0 k)
arg n: int = 40
arg y0: double = 0.8
arg k: double = 1.3
*/
/* The right-hand side an integrator calls through a file-scope `static` function pointer
 * initialized with it and never set (a table of models reduced to one): a call of that
 * function, differentiated as such. The pointer is also handed on as a callback. */
#include <math.h>

typedef double (*rhs_fn)(double t, double y, double k);

static double decay(double t, double y, double k)
{
    return -k * y * (1.0 + 0.1 * sin(t));
}

static rhs_fn model_rhs = decay;

static double step(rhs_fn f, double t, double y, double h, double k)
{
    return y + h * f(t + 0.5 * h, y + 0.5 * h * f(t, y, k), k);
}

double integrate(int n, double y0, double k)
{
    double y = y0, t = 0.0, h = 0.02;
    int i;
    for (i = 0; i < n; i++) {
        y = y + 0.5 * h * model_rhs(t, y, k);
        y = step(model_rhs, t, y, 0.5 * h, k);
        t += h;
    }
    return y;
}
