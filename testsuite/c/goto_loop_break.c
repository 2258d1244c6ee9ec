/* adgen-test
head: settle(settle)/(x c)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg c: double = uniform(0.3, 0.6)
*/
/* break and continue of a for loop from inside a loop formed by a backward goto in its
 * body: they leave (or go on with) the for loop, not the goto's loop. */
#include <math.h>

double settle(int n, const double *x, double c)
{
    double s = 0.0, v;
    int i, k;
    for (i = 0; i < n; i++) {
        v = x[i];
        k = 0;
    again:
        v = c * v + 0.2 * sin(v);
        k++;
        if (v > 0.9)
            break;
        if (v < -0.9)
            continue;
        if (k < 4)
            goto again;
        s += v * v;
    }
    return s + v;
}
