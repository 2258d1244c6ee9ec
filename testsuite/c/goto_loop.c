/* adgen-test
head: series(series)/(x a)
arg n: int = 6
arg x: double[n] = uniform(0.1, 0.9)
arg a: double = uniform(0.5, 1.5)
*/
/* Loops written with backward gotos, as f2c writes Fortran's: a counted loop with its test
 * at the top and a goto back at the bottom, a nested one inside, an exit forward out of
 * both. */
#include <math.h>

double series(int n, const double *x, double a)
{
    double s = 0.0, p;
    int i = 0, k;
L10:
    if (i >= n)
        goto L30;
    p = x[i];
    k = 0;
L20:
    p = p * a + 0.1 * cos(p);
    ++k;
    if (k < 3)
        goto L20;
    s += p;
    if (s > 50.0)
        goto L30;
    ++i;
    goto L10;
L30:
    return s;
}
