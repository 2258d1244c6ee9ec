/* adgen-test
head: interp(interp)/(x t)
arg n: int = 6
arg h: double = 0.5
arg t: double = uniform(0.3, 2.2)
arg x: double[n] = uniform(0.5, 1.5)
head: interp_ternary(interp_ternary)/(x t)
arg n: int = 6
arg h: double = 0.5
arg t: double = uniform(0.3, 2.2)
arg x: double[n] = uniform(0.5, 1.5)
head: interp_fminmax(interp_fminmax)/(x t)
arg n: int = 6
arg h: double = 0.5
arg t: double = uniform(0.3, 2.2)
arg x: double[n] = uniform(0.5, 1.5)
head: resample(y)/(x)
arg n: int = 5
arg m: int = 7
arg x: double[n] = uniform(0.5, 1.5)
arg y: double[m]
*/
/* Linear interpolation in a table of n values, the cell index clamped into the table:
 * `if (j < 0) j = 0; if (j > n - 2) j = n - 2;`, the same with `?:`, and with fmin and
 * fmax on the value before its conversion. Each clamp bounds the index from its side
 * whatever it was before: x[j] and x[j + 1] reach n - 1, and x's length is n. adgen gave
 * none ("an index of 'x' has no known bound"): the index was set three times. resample
 * clamps in a loop, each iteration's index set and clamped again, and y's length is m
 * (its values are read). */
#include <math.h>

double interp(int n, double h, double t, const double *x)
{
    int j = (int)(t / h);
    if (j < 0)
        j = 0;
    if (j > n - 2)
        j = n - 2;
    return x[j] + (x[j + 1] - x[j]) * (t / h - j);
}

double interp_ternary(int n, double h, double t, const double *x)
{
    int j = (int)(t / h);
    j = j < 0 ? 0 : j;
    j = n - 2 < j ? n - 2 : j;
    return x[j] + (x[j + 1] - x[j]) * (t / h - j);
}

double interp_fminmax(int n, double h, double t, const double *x)
{
    int j = (int)fmax(0.0, fmin(t / h, n - 2.0));
    return x[j] + (x[j + 1] - x[j]) * (t / h - j);
}

void resample(int n, int m, const double *x, double *y)
{
    for (int k = 0; k < m; k++) {
        double s = (double)k * (n - 1) / (m - 1) + 0.25 * x[0];
        int j = (int)s;
        if (j > n - 2)
            j = n - 2;
        if (j < 0)
            j = 0;
        y[k] += x[j] * (j + 1 - s) + x[j + 1] * (s - j);
    }
}
