/* adgen-test
head: sweep(y)/(x)
arg n: int = 8
arg x: double[n] = uniform(-1, 1)
arg y: double[3]
*/
/* Labels inside switch cases that other cases fall into: the statements of a case are
 * converted once for every case running them, each copy with labels of its own, with the
 * gotos of that copy. A loop with a goto to the end of its body (a continue written as a
 * goto) in the case fallen into; a backward goto forming a loop in the last case, which
 * two cases fall into; every path taken for one of the selectors. */
#include <math.h>

static double stage(int kind, int n, const double *x)
{
    double acc = 0.0;
    int j = 0;
    switch (kind) {
    case 0:
        acc += x[0] * x[0];
        /* fall through */
    case 1:
        for (int i = 0; i < n; i++) {
            if (x[i] < -0.5)
                goto next;
            acc += sin(x[i]) * (kind + 1);
        next: ;
        }
        /* fall through */
    case 2:
        j = 0;
    again:
        acc = 0.5 * acc + x[j] * x[j];
        j++;
        if (j < 3)
            goto again;
        break;
    default:
        acc = x[n - 1];
    }
    return acc;
}

void sweep(int n, const double *x, double *y)
{
    for (int k = 0; k < 3; k++)
        y[k] = stage(k, n, x) + 0.25 * stage(k + 1, n, x);
}
