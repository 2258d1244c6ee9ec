/* adgen-test
head: staged(staged)/(x)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
*/
/* Two gotos to one label, the second among the statements the first skips: once the
 * second jumps, the statements after it must be skipped too (they ran, as the flags were
 * tested once for the whole run of skipped statements). */
#include <math.h>

double staged(int n, const double *x)
{
    double s = 0.0;
    int i;
    if (n < 1)
        goto out;
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    if (s > 0.01)
        goto out;
    s = 10.0 * sin(s);
out:
    return s;
}
