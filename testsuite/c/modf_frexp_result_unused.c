/* adgen-test
head: f(y)/(x)
arg n: int = 6
arg x: double[n] = uniform(0.3, 0.9)
arg y: double[1]
sizes: give
*/
/* modf and frexp called for their second output only, as statements: the value they
 * return is dropped (derivative code that computed it in a statement of its own did not
 * compile with -Werror). */
#include <math.h>

void f(int n, const double *x, double *y)
{
    double whole = 0.5;
    int e = 0, i;
    double s = 0.0;
    for (i = 0; i < n; i++) {
        s = s + (whole + 1.0) * x[i] * x[i] + e * x[i];
        modf(x[i] * 7.0, &whole);
        frexp(x[i] * 100.0, &e);
    }
    y[0] = s;
}
