/* adgen-test
head: chain(out)/(x)
arg n: int = 6
arg x: double[2] = uniform(0.2, 0.9)
arg out: double[2]
*/
/* A recursive function whose locals are passed by address to its own call (so its
 * derivative keeps them on the heap from its forward sweep to its backward sweep), and
 * whose backward sweep needs the number its call was given (the trip count of a loop
 * after the call): the backward sweep sets that argument again before the call. */
#include <math.h>

static void pair(int n, double x, double *tn, double *tnm1)
{
    double a, b;
    int i;
    if (n == 1) {
        *tn = x;
        *tnm1 = 1.0;
        return;
    }
    pair(n - 1, x, &a, &b);
    *tn = 2.0 * x * a - b;
    for (i = 0; i < n; i++)
        *tn = 0.9 * *tn + 0.1 * sin(x * (i + 1));
    *tnm1 = a;
}

void chain(int n, const double *x, double *out)
{
    double t, tm1;
    pair(n, x[0], &t, &tm1);
    out[0] = t * x[1];
    out[1] = tm1 + t * t;
}
