/* adgen-test
head: f(f)/(x)
arg n: int = 4
arg x: double[n] = uniform(0.2, 1.2)
*/
/* A global pointer that starts at a table of constants (and that no function sets)
 * carries no derivatives: read through it, it is accepted as written. */
#include <math.h>

static const double weights[4] = {0.5, 1.5, 2.0, 0.25};
static const double *w = &weights[0];

double f(int n, const double *x)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += w[i % 4] * sin(x[i]);
    return s;
}
