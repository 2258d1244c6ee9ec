/* adgen-test
head: heat(e)/(u0 kappa)
arg ny: int = 5
arg nx: int = 6
arg u0: double[ny*nx] = uniform(0, 1)
arg kappa: double = 0.1
arg nsteps: int = 4
arg e: double[1]
*/
/* Block copies of variable-length arrays, as C99 grid code writes them: a whole grid
 * copied with `sizeof u` (ny * nx numbers, the extents as declared), a row's interior
 * through `&u[j][1]` with a length known at run time, and a local row of nx - 2 numbers
 * copied with `sizeof row`. */
#include <string.h>

static void step(int ny, int nx, double u[ny][nx], double un[ny][nx], double k)
{
    for (int j = 1; j < ny - 1; j++)
        for (int i = 1; i < nx - 1; i++)
            un[j][i] = u[j][i] + k * (u[j][i-1] + u[j][i+1] + u[j-1][i] + u[j+1][i]
                                      - 4.0 * u[j][i]) + 0.01 * u[j][i] * u[j][i];
    for (int j = 1; j < ny - 1; j++)
        memcpy(&u[j][1], &un[j][1], (size_t)(nx - 2) * sizeof(double));
}

void heat(int ny, int nx, double u0[ny][nx], double kappa, int nsteps, double *e)
{
    double u[ny][nx], un[ny][nx];
    double row[nx - 2];
    memcpy(u, u0, sizeof u);
    memcpy(un, u0, sizeof un);
    for (int s = 0; s < nsteps; s++)
        step(ny, nx, u, un, kappa);
    memcpy(row, &u[ny / 2][1], sizeof row);
    *e = 0.0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            *e += u[j][i] * u[j][i];
    for (int i = 0; i < nx - 2; i++)
        *e += row[i] * row[i] * row[i];
}
