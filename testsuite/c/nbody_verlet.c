/* adgen-test
head: nbody_run(pos vel energy)/(pos vel mass)
arg prm: struct NBodyParams* = {4, 5, 0.01, 0.1, 1.0}
arg mass: double[4] = uniform(0.5, 2.0)
arg pos: double[12] = uniform(-1, 1)
arg vel: double[12] = uniform(-0.2, 0.2)
arg energy: double[1]
*/
/* Gravitational n-body integrator, velocity Verlet, softened potential.  Parameters travel
 * in a struct passed by const pointer; positions and velocities (3 per body, packed) are
 * advanced in place; the total energy at the end is an output. */
#include <math.h>
#include <stdlib.h>

struct NBodyParams {
    int nbody;
    int nsteps;
    double dt;
    double soft;    /* softening length */
    double G;
};

static void accelerations(const struct NBodyParams *prm, const double *mass,
                          const double *pos, double *acc)
{
    const int n = prm->nbody;
    int a, b, k;
    for (k = 0; k < 3 * n; k++)
        acc[k] = 0.0;
    for (a = 0; a < n; a++) {
        for (b = a + 1; b < n; b++) {
            double d[3], r2 = prm->soft * prm->soft, inv3;
            for (k = 0; k < 3; k++) {
                d[k] = pos[3 * b + k] - pos[3 * a + k];
                r2 += d[k] * d[k];
            }
            inv3 = prm->G / (r2 * sqrt(r2));
            for (k = 0; k < 3; k++) {
                acc[3 * a + k] += mass[b] * inv3 * d[k];
                acc[3 * b + k] -= mass[a] * inv3 * d[k];
            }
        }
    }
}

static double total_energy(const struct NBodyParams *prm, const double *mass,
                           const double *pos, const double *vel)
{
    double ekin = 0.0, epot = 0.0;
    int a, b, k;
    for (a = 0; a < prm->nbody; a++) {
        double v2 = 0.0;
        for (k = 0; k < 3; k++)
            v2 += vel[3 * a + k] * vel[3 * a + k];
        ekin += 0.5 * mass[a] * v2;
        for (b = a + 1; b < prm->nbody; b++) {
            double r2 = prm->soft * prm->soft;
            for (k = 0; k < 3; k++) {
                double dk = pos[3 * b + k] - pos[3 * a + k];
                r2 += dk * dk;
            }
            epot -= prm->G * mass[a] * mass[b] / sqrt(r2);
        }
    }
    return ekin + epot;
}

void nbody_run(const struct NBodyParams *prm, const double *mass, double *pos, double *vel,
               double *energy)
{
    const int n3 = 3 * prm->nbody;
    const double h = prm->dt;
    double *acc = malloc(n3 * sizeof(double));
    int step, k;
    accelerations(prm, mass, pos, acc);
    for (step = 0; step < prm->nsteps; step++) {
        for (k = 0; k < n3; k++) {
            vel[k] += 0.5 * h * acc[k];
            pos[k] += h * vel[k];
        }
        accelerations(prm, mass, pos, acc);
        for (k = 0; k < n3; k++)
            vel[k] += 0.5 * h * acc[k];
    }
    *energy = total_energy(prm, mass, pos, vel);
    free(acc);
}
