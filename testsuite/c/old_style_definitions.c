/* adgen-test
head: fit_residuals(r)/(c x)
arg n: int = 4
arg c: double[n]
arg m: int = 5
arg x: double[m] = uniform(-1.5, 1.5)
arg r: double[m]
*/
/* Helpers defined in the old style (K&R), as pre-ANSI numerical code defines them: the
 * parameters' declarations after the parenthesis, in another order than the names, several
 * in one declaration, `register`, a `float` parameter (its caller's double converted to
 * it; its argument here carries no derivative), a function returning a pointer, and calls made through an unprototyped declaration
 * before the definition. They were refused ("old-style (K&R) function definitions are not
 * supported"). */
#include <math.h>

static double horner();
static double damp();

static double *row_of(table, k, width)
int width, k;
double *table;
{
    return table + k * width;
}

static double horner(c, n, t)
double t, *c;
int n;
{
    register int i;
    double s = 0.0;
    for (i = n - 1; i >= 0; i--)
        s = s * t + c[i];
    return s;
}

static double damp(v, w)
float v;
double w;
{
    return v * w / (1.0 + w * w);
}

void fit_residuals(int n, const double *c, int m, const double *x, double *r)
{
    double coef[8];
    int k;
    for (k = 0; k < n; k++)
        coef[k] = c[k];
    for (k = 0; k < m; k++) {
        double *row = row_of(coef, 0, n);
        r[k] = horner(row, n, x[k]) - exp(-x[k] * x[k]) + damp(0.25f * (float)k, 0.5 * c[0] * x[k]);
    }
}
