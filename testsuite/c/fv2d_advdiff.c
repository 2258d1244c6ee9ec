/* adgen-test
head: fv_advect_diffuse(u)/(u vel kappa)
arg nx: int = 6
arg ny: int = 5
arg nsteps: int = 3
arg u: double[nx*ny] = uniform(0.5, 1.5)
arg vel: double[2] = uniform(0.2, 0.6)
arg kappa: double = uniform(0.05, 0.1)
*/
/* Explicit finite-volume advection-diffusion on an nx x ny cell grid stored row-major
 * (row j, column i at u[j*nx + i]).  Upwind advective fluxes with a velocity whose sign
 * is fixed by the inputs, central diffusive fluxes, zero-gradient (Neumann) boundaries
 * through ghost values computed by a helper.  u is updated in place. */
#include <stdlib.h>
#include <string.h>

static inline size_t cell(size_t i, size_t j, size_t nx) { return j * nx + i; }

/* value of the neighbour (i+di, j+dj), mirrored at the boundary */
static double neighbour(const double *u, int i, int j, int di, int dj, int nx, int ny)
{
    int ii = i + di, jj = j + dj;
    if (ii < 0) ii = 0;
    if (ii > nx - 1) ii = nx - 1;
    if (jj < 0) jj = 0;
    if (jj > ny - 1) jj = ny - 1;
    return u[cell((size_t)ii, (size_t)jj, (size_t)nx)];
}

static double upwind_flux(double ul, double ur, double a)
{
    return a > 0.0 ? a * ul : a * ur;
}

void fv_advect_diffuse(int nx, int ny, int nsteps, double *u, const double *vel, double kappa)
{
    const double dx = 1.0 / nx, dy = 1.0 / ny, dt = 0.02;
    double *unew = malloc(sizeof(double) * (size_t)nx * (size_t)ny);
    int step;
    for (step = 0; step < nsteps; ++step) {
        int i, j;
        for (j = 0; j < ny; ++j) {
            for (i = 0; i < nx; ++i) {
                double c = u[cell(i, j, nx)];
                double e = neighbour(u, i, j, 1, 0, nx, ny);
                double w = neighbour(u, i, j, -1, 0, nx, ny);
                double n = neighbour(u, i, j, 0, 1, nx, ny);
                double s = neighbour(u, i, j, 0, -1, nx, ny);
                double fe = upwind_flux(c, e, vel[0]) - kappa * (e - c) / dx;
                double fw = upwind_flux(w, c, vel[0]) - kappa * (c - w) / dx;
                double fn = upwind_flux(c, n, vel[1]) - kappa * (n - c) / dy;
                double fs = upwind_flux(s, c, vel[1]) - kappa * (c - s) / dy;
                unew[cell(i, j, nx)] = c - dt * ((fe - fw) / dx + (fn - fs) / dy);
            }
        }
        memcpy(u, unew, sizeof(double) * (size_t)nx * (size_t)ny);
    }
    free(unew);
}
