/* adgen-test
head: trig_terms(y)/(theta u)
arg n: int = 5
arg theta: double[n] = uniform(-1.2, 1.2)
arg u: double[n] = uniform(-0.9, 0.9)
arg y: double[4*n]
*/
/* sin, cos, tan, asin, acos, atan and atan2 (all four quadrants reachable: theta and u are
 * of both signs). */
#include <math.h>

void trig_terms(int n, const double *theta, const double *u, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        double t = theta[i], v = u[i];
        y[4 * i + 0] = sin(t) * cos(2.0 * t) + tan(0.5 * t);
        y[4 * i + 1] = asin(v) + acos(0.5 * v) * t;
        y[4 * i + 2] = atan(t * v) + atan(3.0 * t);
        y[4 * i + 3] = atan2(v, t) + atan2(sin(t), cos(t) + 2.0);
    }
}
