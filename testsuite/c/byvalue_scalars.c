/* adgen-test
head: damped_oscillator(pos)/(x0 v0 omega zeta)
arg n: int = 8
arg x0: double = uniform(-1, 1)
arg v0: double = uniform(-1, 1)
arg omega: double = uniform(1, 2)
arg zeta: double = uniform(0.1, 0.5)
arg dt: double = 0.2
arg pos: double[n]
*/
/* Active scalars passed by value (four independents, one passive double): the closed-form
 * trajectory of an underdamped oscillator sampled at n times.  The by-value parameters
 * are also reassigned inside the function (legal C, a copy). */
#include <math.h>

void damped_oscillator(int n, double x0, double v0, double omega, double zeta, double dt, double *pos)
{
    double wd, a, b;
    int i;
    omega = fabs(omega);                 /* modifies the local copy */
    wd = omega * sqrt(1.0 - zeta * zeta);
    a = x0;
    b = (v0 + zeta * omega * x0) / wd;
    for (i = 0; i < n; i++) {
        double t = dt * i;
        pos[i] = exp(-zeta * omega * t) * (a * cos(wd * t) + b * sin(wd * t));
    }
}
