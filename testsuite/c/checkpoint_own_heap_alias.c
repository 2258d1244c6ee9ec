/* adgen-test
head: chain_energy(energy)/(q0 k)
arg n: int = 8
arg steps: int = 30
arg q0: double[n] = uniform(-0.5, 0.5)
arg k: double = 1.3
arg energy: double[1]
*/
/* A checkpointed loop whose state is a block the function allocates before it and writes
 * through copies of its pointer (`q = &blk[0]`, and `r = blk` set again in each step): the
 * snapshots keep the block through the pointer malloc set, which covers what the copies
 * write. A chain of nonlinear oscillators, positions and velocities in one block. */
#include <math.h>
#include <stdlib.h>

void chain_energy(int n, int steps, const double *q0, double k, double *energy)
{
    double *blk = malloc(2 * (size_t)n * sizeof(double));
    double *q = &blk[0];
    double *r;
    double e = 0.0, dt = 0.05;
    int t, i;
    for (i = 0; i < n; i++) {
        q[i] = q0[i];
        q[n + i] = 0.0;
    }
#pragma adgen binomial_ckp(steps, 3, 0)
    for (t = 0; t < steps; t++) {
        r = blk;
        for (i = 1; i < n - 1; i++)
            r[n + i] += dt * (k * (q[i - 1] - 2.0 * q[i] + q[i + 1]) - sin(q[i]));
        for (i = 0; i < n; i++)
            q[i] += dt * r[n + i];
    }
    for (i = 0; i < n; i++)
        e += 0.5 * blk[n + i] * blk[n + i] + 1.0 - cos(blk[i]);
    energy[0] = e;
    free(blk);
}
