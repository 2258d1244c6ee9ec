/* adgen-test
head: sub(y)/(x c)
arg n: int = 5
arg x: double[n] = uniform(0.5, 1.5)
arg c: double = 0.7
arg y: double[n]
*/
/* A parameter passed by value whose address the function hands to a callee (`cube(&v,
 * ...)`, `scale_by(&w, &s)`): the callee's derivative code takes the address of the
 * parameter's derivative too, which the forward sweep of a split call does not have from
 * its caller; the value's own derivative is a local of the function, added to the
 * caller's at its entry. One callee also writes through the address it gets. */
#include <math.h>

static void cube(const double *a, double *r)
{
    *r = *a * *a * *a;
}

static void scale_by(double *a, const double *s)
{
    *a = *a * *s + 0.5 * *s;
}

static double mid(double v, double w, double s)
{
    double r;
    cube(&v, &r);
    scale_by(&w, &s);
    return r * w + v;
}

void sub(int n, const double *x, double c, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = mid(x[i], c * x[i], c);
    for (i = 1; i < n; i++)
        y[i] = y[i] + 0.1 * mid(sin(y[i - 1]), c, x[i]);
}
