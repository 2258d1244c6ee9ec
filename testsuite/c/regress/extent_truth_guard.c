/* adgen-test
head: edge_term(edge_term)/(x)
arg n: int = 40
arg periodic: int = 0
arg x: double[2]
*/
/* x[n] is read only when periodic is set, and this call passes a two-element x. Taken as
 * a bound, the access made x's length n + 1, and the zeroing of its gradient wrote 39
 * elements past the caller's array: a test of an int for truth guards an access as a
 * comparison does. */
#include <math.h>

double edge_term(int n, int periodic, const double *x)
{
    double s = x[0] * x[1] + sin(x[1]);
    if (periodic)
        s = s + x[0] * x[n];
    return s;
}
