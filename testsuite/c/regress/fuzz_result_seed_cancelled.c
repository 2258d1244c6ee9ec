/* adgen-test
head: outer(y)/(x)
arg x: double[2] = uniform(0.2, 1.5)
arg y: double[1]
*/
/* A helper whose value's derivative with respect to its active argument cancels
 * (`a * (s - s)`): its backward routine takes the value's adjoint by value, consumes it
 * and reads it nowhere else, which gcc's -Wunused-but-set-parameter refused (-Werror);
 * the parameter is now marked read, as an unused one is (fuzz seed 11403014). */
#include <math.h>

static double scaled(double s, double a)
{
    s *= a;
    return sin(2.0 * (s - s) + a);
}

void outer(const double *x, double *y)
{
    y[0] = x[1] * scaled(x[0], 0.5) + x[0];
}
