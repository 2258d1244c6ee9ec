/* adgen-test
head: option_implied_vol(vols)/(prices spot)
arg n: int = 4
arg prices: double[n] = {10.7, 8.2, 6.1, 4.5}
arg strikes: double[n] = {95, 100, 105, 110}
arg spot: double = 100.0
arg vols: double[n]
*/
/* Implied volatility of European calls: Black-Scholes price through erfc, then a
 * safeguarded Newton iteration (do/while with break, falling back to bisection when the
 * Newton step leaves the bracket), with early returns from the solver. */
#include <math.h>

static double norm_cdf(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

static double bs_call(double s, double k, double t, double r, double sigma)
{
    double sq = sigma * sqrt(t);
    double d1 = (log(s / k) + (r + 0.5 * sigma * sigma) * t) / sq;
    double d2 = d1 - sq;
    return s * norm_cdf(d1) - k * exp(-r * t) * norm_cdf(d2);
}

static double bs_vega(double s, double k, double t, double r, double sigma)
{
    double d1 = (log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrt(t));
    return s * sqrt(t) * exp(-0.5 * d1 * d1) / sqrt(2.0 * 3.141592653589793);
}

static double implied_vol(double price, double s, double k, double t, double r)
{
    double lo = 1e-3, hi = 3.0, sigma = 0.3;
    int it = 0;
    /* work in units of the strike: the by-value parameters are ordinary locals */
    do {
        double f = bs_call(s, k, t, r, sigma) - price;
        double step;
        if (fabs(f) < 1e-14)
            return sigma;
        if (f > 0.0)
            hi = sigma;
        else
            lo = sigma;
        step = f / bs_vega(s, k, t, r, sigma);
        sigma -= step;
        if (sigma <= lo || sigma >= hi)
            sigma = 0.5 * (lo + hi);
        if (fabs(step) < 1e-15)
            break;
    } while (++it < 100);
    return sigma;
}

void option_implied_vol(int n, const double *prices, const double *strikes, double spot,
                        double *vols)
{
    int i;
    for (i = 0; i < n; i++)
        vols[i] = implied_vol(prices[i], spot, strikes[i], 0.5, 0.01);
}
