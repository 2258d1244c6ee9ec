/* adgen-test
head: kepler_positions(xy)/(mean_anom ecc)
arg n: int = 5
arg mean_anom: double[n] = uniform(0.2, 6)
arg ecc: double = uniform(0.1, 0.6)
arg xy: double[2*n]
*/
/* Solving Kepler's equation E - e sin E = M by a fixed number of Newton iterations (the
 * derivative is taken through the iterations), then the position on the orbit. */
#include <math.h>

static double eccentric_anomaly(double m, double e)
{
    double ea = m + e * sin(m);
    int it;
    for (it = 0; it < 12; it++)
        ea -= (ea - e * sin(ea) - m) / (1.0 - e * cos(ea));
    return ea;
}

void kepler_positions(int n, const double *mean_anom, double ecc, double *xy)
{
    int i;
    for (i = 0; i < n; i++) {
        double ea = eccentric_anomaly(mean_anom[i], ecc);
        xy[2 * i] = cos(ea) - ecc;
        xy[2 * i + 1] = sqrt(1.0 - ecc * ecc) * sin(ea);
    }
}
