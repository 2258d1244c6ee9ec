/* adgen-test
head: mixed(y)/(x)
arg n: int = 7
arg x: double[n] = uniform(-1, 1)
arg y: double[2]
*/
/* Gotos among the other statements: a forward goto to the label that starts a loop formed
 * by a backward goto (entering it from before), a goto out of a switch inside a while
 * loop, a goto to the end of a loop body (as continue) from a case entered by falling
 * through (its statements converted twice). */
#include <math.h>

void mixed(int n, const double *x, double *y)
{
    double s = 0.0, t = 1.0;
    int i = 0, k;
    if (x[0] > 2.0)
        goto again;             /* never with these inputs: skips the set-up below */
    t = 0.5 + x[1] * x[1];
again:
    t = t * 0.9 + 0.05 * sin(x[i]);
    i++;
    if (i < n)
        goto again;
    k = 0;
    while (k < n) {
        switch (k % 3) {
        case 0:
            s += x[k] * t;
            break;
        case 1:
            if (x[k] > 0.95)
                goto out;
            s -= 0.5 * x[k] * x[k];
            /* falls through */
        default:
            if (x[k] < -0.95)
                goto next;
            s += cos(x[k]);
        }
        s *= 0.99;
    next:
        k++;
    }
out:
    y[0] = s;
    y[1] = t * s;
}
