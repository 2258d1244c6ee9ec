/* The trigonometric residual of trig.h; head trig_residual(f)/(x), differentiated in vector
 * tangent mode (adgen --forward --vector), one direction per input: the whole Jacobian. */
#include <math.h>
#include "trig.h"

void trig_residual(int n, const double *restrict x, double *restrict f)
{
    int i, j;
    double cos_sum = 0.0;
    for (j = 0; j < n; j++)
        cos_sum = cos_sum + cos(x[j]);
    for (i = 0; i < n; i++)
        f[i] = (double)n - cos_sum + (double)(i + 1) * (1.0 - cos(x[i])) - sin(x[i]);
}
