/* adgen-test
head: ground_track(track)/(elems)
arg elems: double[6] = {7000.0, 0.01, 0.9, 0.3, 0.5, 0.2}
arg ntimes: int = 5
arg track: double[3*ntimes]
*/
/* Satellite ground track from Keplerian elements (a, e, i, raan, argp, M0): mean anomaly
 * advanced with time and wrapped with fmod, Kepler's equation solved by a fixed number
 * of Newton steps, position rotated to the Earth-fixed frame, latitude/longitude through
 * atan2/asin/hypot, altitude with cbrt/pow, and a drag-like factor with expm1. */
#include <math.h>

#define MU 398600.4418
#define RE 6378.137
#define WE 7.2921159e-5
#define TWO_PI 6.283185307179586

static double solve_kepler(double M, double e)
{
    double E = M + e * sin(M);
    int k;
    for (k = 0; k < 6; k++)
        E -= (E - e * sin(E) - M) / (1.0 - e * cos(E));
    return E;
}

void ground_track(const double *elems, int ntimes, double *track)
{
    const double a = elems[0], e = elems[1], inc = elems[2];
    const double raan = elems[3], argp = elems[4], M0 = elems[5];
    const double n = sqrt(MU / pow(a, 3.0));
    int k;
    for (k = 0; k < ntimes; k++) {
        const double t = 600.0 * (k + 1);
        const double M = fmod(M0 + n * t, TWO_PI);
        const double E = solve_kepler(M, e);
        const double nu = 2.0 * atan2(sqrt(1.0 + e) * sin(0.5 * E), sqrt(1.0 - e) * cos(0.5 * E));
        const double r = a * (1.0 - e * cos(E));
        const double u = argp + nu;
        const double theta = raan - WE * t;
        double x = r * (cos(theta) * cos(u) - sin(theta) * sin(u) * cos(inc));
        double y = r * (sin(theta) * cos(u) + cos(theta) * sin(u) * cos(inc));
        double z = r * sin(u) * sin(inc);
        double rho = hypot(x, y);
        double alt = cbrt(pow(r, 3.0)) - RE;
        track[3 * k] = atan2(z, rho);
        track[3 * k + 1] = atan2(y, x);
        track[3 * k + 2] = alt * (1.0 + expm1(-alt / 500.0)) + asin(z / r);
    }
}
