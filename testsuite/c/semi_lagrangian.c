/* adgen-test
head: advect_field(q)/(q u v)
arg nx: int = 6
arg ny: int = 5
arg q: double[nx*ny] = uniform(0, 1)
arg u: double[nx*ny] = uniform(0.13, 0.37)
arg v: double[nx*ny] = uniform(-0.31, -0.12)
arg nsteps: int = 2
*/
/* Semi-Lagrangian advection, as in grid-based fluid solvers: each cell traces back along
 * the velocity, the departure point is clamped into the domain, split into an integer
 * cell (floor of an active coordinate) and a fractional weight, and the field is
 * interpolated bilinearly.  An enum selects the boundary treatment in a switch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum Boundary { CLAMP_EDGE, PERIODIC };

static double sample(const double *q, int nx, int ny, double x, double y, enum Boundary bc)
{
    int i0, j0, i1, j1;
    double fx, fy;
    switch (bc) {
    case PERIODIC:
        x = fmod(x + nx, (double)nx);
        y = fmod(y + ny, (double)ny);
        break;
    case CLAMP_EDGE:
    default:
        x = fmin(fmax(x, 0.0), nx - 1.000001);
        y = fmin(fmax(y, 0.0), ny - 1.000001);
        break;
    }
    i0 = (int)floor(x);
    j0 = (int)floor(y);
    fx = x - i0;
    fy = y - j0;
    i1 = (i0 + 1) % nx;
    j1 = (j0 + 1) % ny;
    return (1.0 - fy) * ((1.0 - fx) * q[j0 * nx + i0] + fx * q[j0 * nx + i1])
           + fy * ((1.0 - fx) * q[j1 * nx + i0] + fx * q[j1 * nx + i1]);
}

void advect_field(int nx, int ny, double *q, const double *u, const double *v, int nsteps)
{
    const double dt = 1.0;
    double *tmp = malloc((size_t)nx * ny * sizeof *tmp);
    int s, i, j;
    for (s = 0; s < nsteps; s++) {
        const enum Boundary bc = s % 2 == 0 ? PERIODIC : CLAMP_EDGE;
        for (j = 0; j < ny; j++)
            for (i = 0; i < nx; i++) {
                const int c = j * nx + i;
                tmp[c] = sample(q, nx, ny, i - dt * u[c], j - dt * v[c], bc);
            }
        memcpy(q, tmp, (size_t)nx * ny * sizeof *q);
    }
    free(tmp);
}
