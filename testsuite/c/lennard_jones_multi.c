/* adgen-test
head: lj_energy(lj_energy)/(pos)
arg n: int = 4
arg pos: double[3*n] = {0.0, 0.0, 0.0,  1.12, 0.05, -0.03,  0.04, 1.09, 0.1,  1.0, 1.05, 0.9}
arg box: double = 5.0
head: lj_forces(forces)/(pos)
arg n: int = 4
arg pos: double[3*n] = {0.0, 0.0, 0.0,  1.12, 0.05, -0.03,  0.04, 1.09, 0.1,  1.0, 1.05, 0.9}
arg box: double = 5.0
arg forces: double[3*n]
*/
/* Lennard-Jones energy and analytic forces with the minimum-image convention in a cubic
 * periodic box (round() of an active quantity: piecewise constant), sharing a pair
 * helper that returns the energy and writes the derivative of the pair potential through
 * a pointer.  Two heads: the energy gradient and the Jacobian of the forces (the
 * Hessian).  A global counter of pair evaluations is kept, as instrumented codes do. */
#include <math.h>

long lj_pair_evaluations = 0;

static double pair(double r2, double *dvdr2)
{
    const double s6 = 1.0 / (r2 * r2 * r2);
    lj_pair_evaluations++;
    *dvdr2 = -3.0 * (8.0 * s6 * s6 / r2 - 4.0 * s6 / r2);
    return 4.0 * (s6 * s6 - s6);
}

static void min_image(const double *a, const double *b, double box, double *d)
{
    int k;
    for (k = 0; k < 3; k++) {
        d[k] = a[k] - b[k];
        d[k] -= box * round(d[k] / box);
    }
}

double lj_energy(int n, const double *pos, double box)
{
    double e = 0.0, d[3], dv;
    int i, j;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            min_image(pos + 3 * i, pos + 3 * j, box, d);
            e += pair(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], &dv);
        }
    return e;
}

void lj_forces(int n, const double *pos, double box, double *forces)
{
    double d[3], dv;
    int i, j, k;
    for (k = 0; k < 3 * n; k++)
        forces[k] = 0.0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            min_image(pos + 3 * i, pos + 3 * j, box, d);
            (void)pair(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], &dv);
            for (k = 0; k < 3; k++) {
                forces[3 * i + k] -= 2.0 * dv * d[k];
                forces[3 * j + k] += 2.0 * dv * d[k];
            }
        }
}
