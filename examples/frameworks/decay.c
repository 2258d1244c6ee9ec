#include <math.h>

/* y[i] = a exp(-k t[i]); returns the sum of the squared misfits y[i] - obs[i]. */
double misfit(int n, const double *t, const double *obs, double a, double k, double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        y[i] = a * exp(-k * t[i]);
        s += (y[i] - obs[i]) * (y[i] - obs[i]);
    }
    return s;
}
