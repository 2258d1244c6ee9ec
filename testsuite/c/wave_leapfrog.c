/* adgen-test
head: wave_leapfrog(out)/(u0 v0 speed)
arg nx: int = 12
arg nsteps: int = 30
arg speed: double = uniform(0.3, 0.6)
arg u0: double[nx] = uniform(-1, 1)
arg v0: double[nx] = uniform(-1, 1)
arg out: double[nx+1]
sizes: give
*/
/* The lengths are given (--size) because v0[nx-1] is never read, so no code tells that v0 has nx elements:
 * adgen sets the gradient of every element it sees read, the user names the rest. */
/* 1-D wave equation u_tt = s^2 u_xx with fixed ends, leapfrog in time with three buffers
 * rotated by pointers (prev <- cur <- next <- prev).  Outputs the final displacement and a
 * discrete energy. */
#include <stdlib.h>

void wave_leapfrog(int nx, int nsteps, double speed, const double *u0, const double *v0, double *out)
{
    double *b0 = malloc((size_t)nx * sizeof(double));
    double *b1 = malloc((size_t)nx * sizeof(double));
    double *b2 = malloc((size_t)nx * sizeof(double));
    double *prev = b0, *cur = b1, *next = b2, *rot;
    double r = speed * speed, e = 0.0;
    int i, t;
    for (i = 0; i < nx; i++) {
        prev[i] = (i == 0 || i == nx - 1) ? 0.0 : u0[i];
    }
    /* first step from the initial velocity (Taylor) */
    cur[0] = 0.0;
    cur[nx - 1] = 0.0;
    for (i = 1; i < nx - 1; i++)
        cur[i] = prev[i] + 0.1 * v0[i] + 0.5 * r * (prev[i - 1] - 2.0 * prev[i] + prev[i + 1]);
    for (t = 1; t < nsteps; t++) {
        next[0] = 0.0;
        next[nx - 1] = 0.0;
        for (i = 1; i < nx - 1; i++)
            next[i] = 2.0 * cur[i] - prev[i] + r * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
        rot = prev;
        prev = cur;
        cur = next;
        next = rot;
    }
    for (i = 0; i < nx; i++) {
        double vel = cur[i] - prev[i];
        out[i] = cur[i];
        e += vel * vel + (i > 0 ? r * (cur[i] - cur[i - 1]) * (cur[i] - cur[i - 1]) : 0.0);
    }
    out[nx] = 0.5 * e;
    free(b0);
    free(b1);
    free(b2);
}
