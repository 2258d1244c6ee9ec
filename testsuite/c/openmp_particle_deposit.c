/* adgen-test
head: openmp_particle_deposit(rho moment)/(frac charge)
arg np: int = 6
arg ng: int = 5
arg cell: int[np] = {0, 3, 1, 3, 2, 0}
arg frac: double[np] = uniform(0.1, 0.9)
arg charge: double[np] = uniform(-1, 1)
arg rho: double[ng] = uniform(-1, 1)
arg moment: double[1] = uniform(-1, 1)
sizes: give
*/
/* Particles deposit their charge into the two grid cells around them (cloud in cell),
 * the loop spread over threads: two particles may share a cell, so each deposit is an
 * `omp atomic` update, and the first moment of the charge is summed in an `omp critical`
 * section. The tangent keeps both exclusive; the adjoint's backward loop only reads the
 * grid's adjoint, and runs in parallel too. */

void openmp_particle_deposit(int np, int ng, const int *cell, const double *frac,
                             const double *charge, double *rho, double *moment)
{
    int p;
    (void)ng;
#pragma omp parallel for schedule(static)
    for (p = 0; p < np; p++) {
        double left = charge[p] * (1.0 - frac[p]);
        double right = charge[p] * frac[p];
#pragma omp atomic
        rho[cell[p]] += left;
#pragma omp atomic update
        rho[cell[p] + 1] += right;
#pragma omp critical(moments)
        {
            *moment += right * frac[p];
            *moment -= 0.5 * left * frac[p] * frac[p];
        }
    }
}
