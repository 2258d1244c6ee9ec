/* adgen-test
head: block_pushes(out)/(a x w)
arg n: int = 6
arg m: int = 3
arg a: double[n] = uniform(-0.8, 0.8)
arg x: double[n] = uniform(0.2, 1.2)
arg w: double = 0.9
arg out: double[1]
*/
/* Loops whose forward sweep saves one element per iteration before overwriting it, which
 * adgen pushes as one block before the loop (and pops as one block before the backward
 * loop): a scratch array refilled each time, an update in place from the second element on,
 * a shifted index. Next to them, loops that must keep their pushes one at a time: one that
 * writes the next element too (its iteration would push a changed value), one whose
 * backward sweep reads the previous element, a loop counting down and one of stride 2. */
#include <math.h>

static void scale(int n, const double *a, const double *x, double *out)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = a[i] * x[i];
}

static double sqnorm(int n, const double *v)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += v[i] * v[i];
    return s;
}

static void in_place(int n, double w, double *x)
{
    int i;
    for (i = 1; i < n; i++)
        x[i] = sin(x[i]) * w;
}

static void shifted(int n, const double *a, double *y)
{
    int i;
    for (i = 0; i < n - 1; i++)
        y[i + 1] = y[i + 1] * y[i + 1] * a[i];
}

static void next_too(int n, double *y)
{
    int i;
    for (i = 0; i + 1 < n; i++) {
        y[i] = y[i] * y[i];
        y[i + 1] = y[i + 1] * y[i];
    }
}

static void previous(int n, double *y)
{
    int i;
    for (i = 1; i < n; i++)
        y[i] = y[i] * y[i - 1];
}

static void down(int n, double *y)
{
    int i;
    for (i = n - 1; i >= 0; i--)
        y[i] = y[i] * y[i];
}

static void stride2(int n, double *y)
{
    int i;
    for (i = 0; i < n; i += 2)
        y[i] = cos(y[i]);
}

void block_pushes(int n, int m, const double *a, double *x, double w, double *out)
{
    double tmp[6], y[6];
    double s = 0.0;
    int k, i;
    for (k = 0; k < m; k++) {
        scale(n, a, x, tmp);
        s += sqnorm(n, tmp);
        in_place(n, w, x);
        for (i = 0; i < n; i++)
            y[i] = 0.5 * x[i] + 0.1;
        shifted(n, a, y);
        next_too(n, y);
        previous(n, y);
        down(n, y);
        stride2(n, y);
        s += sqnorm(n, y);
    }
    out[0] = s;
}
