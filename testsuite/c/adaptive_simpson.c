/* adgen-test
head: integrate_profiles(vals)/(params)
arg nprof: int = 3
arg params: double[2*nprof] = {1.0, 0.5,  2.0, 1.5,  0.7, 3.0}
arg vals: double[nprof]
*/
/* Adaptive Simpson quadrature, recursive with a depth limit: each call compares the
 * whole-interval and two-half estimates and recurses on the halves when they disagree.
 * The refinement pattern is piecewise constant in the parameters; the integrand is a
 * damped oscillation a * exp(-x) * cos(b x) evaluated through a parameter array. */
#include <math.h>

static double integrand(const double *p, double x)
{
    return p[0] * exp(-x) * cos(p[1] * x);
}

static double simpson(double a, double b, double fa, double fm, double fb)
{
    return (b - a) / 6.0 * (fa + 4.0 * fm + fb);
}

static double adapt(const double *p, double a, double b, double fa, double fm, double fb,
                    double whole, double eps, int depth)
{
    const double m = 0.5 * (a + b);
    const double lm = 0.5 * (a + m), rm = 0.5 * (m + b);
    const double flm = integrand(p, lm), frm = integrand(p, rm);
    const double left = simpson(a, m, fa, flm, fm);
    const double right = simpson(m, b, fm, frm, fb);
    const double delta = left + right - whole;
    if (depth <= 0 || fabs(delta) <= 15.0 * eps)
        return left + right + delta / 15.0;
    return adapt(p, a, m, fa, flm, fm, left, 0.5 * eps, depth - 1)
           + adapt(p, m, b, fm, frm, fb, right, 0.5 * eps, depth - 1);
}

void integrate_profiles(int nprof, const double *params, double *vals)
{
    int k;
    for (k = 0; k < nprof; k++) {
        const double *p = params + 2 * k;
        const double a = 0.0, b = 4.0;
        const double fa = integrand(p, a), fb = integrand(p, b), fm = integrand(p, 0.5 * (a + b));
        vals[k] = adapt(p, a, b, fa, fm, fb, simpson(a, b, fa, fm, fb), 1e-6, 8);
    }
}
