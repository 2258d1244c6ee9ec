/* adgen-test
head: scan(y)/(x)
arg n: int = 9
arg x: double[n] = uniform(-1, 1)
arg y: double[3]
*/
/* Assignments used as values: in an if test, in a while test, in a for loop's test, in a
 * call's argument and in an index. The assignment runs first; the expression reads the
 * variable after it. */
#include <math.h>

static double soft(double v)
{
    return v / (1.0 + fabs(v));
}

void scan(int n, const double *x, double *y)
{
    double t, s = 0.0, u = 1.0, w;
    int i, j, k = 0;
    for (i = 0; i < n; i++) {
        if ((t = x[i] * x[i]) > 0.1)
            s += t;
        else
            s -= 0.5 * t;
    }
    while (k < n - 1 && (w = x[k] + 0.5) > 0.0) {
        u *= 1.0 + 0.1 * w;
        k++;
    }
    for (i = 0; (t = soft(x[i])) < 0.45 && i < n - 1; i++)
        u += t * t;
    y[0] = s;
    y[1] = u;
    s = soft(w = 2.0 * x[0]);
    s += w;
    j = 0;
    s += x[j = n - 1];
    s *= x[j - 1];
    y[2] = s;
}
