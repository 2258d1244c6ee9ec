/* adgen-test
head: f(y)/(x)
arg x: double[2]
arg y: double[1]
expect-error: complex numbers (<complex.h>) are not supported
expect-error-line: 10
*/
/* Complex arithmetic is refused where <complex.h> is included (adgen differentiates real
 * arithmetic; the message is not the preprocessor's "No such file or directory"). */
#include <complex.h>

void f(const double *x, double *y)
{
    double complex z = x[0] + x[1] * I;
    z = z * z;
    y[0] = creal(z);
}
