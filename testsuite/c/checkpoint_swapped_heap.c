/* adgen-test
head: heat(energy)/(u0 k)
arg n: int = 8
arg nsteps: int = 30
arg u0: double[n] = uniform(-1, 1)
arg k: double[2] = uniform(0.1, 0.3)
arg energy: double[1]
*/
/* The usual time stepper: two buffers the function allocates before a checkpointed loop,
 * swapped through a third pointer every step. The state kept between steps holds both
 * blocks through the two allocated pointers, which each step only permutes (each holds
 * one block at every step's start), with the pointers and their shadows. */
#include <stdlib.h>

void heat(int n, int nsteps, const double *u0, const double *k, double *energy)
{
    size_t bytes = (size_t)n * sizeof(double);
    double *u = malloc(bytes);
    double *v = malloc(bytes);
    double *t = NULL;
    int i, s;
    for (i = 0; i < n; i++)
        u[i] = u0[i];
#pragma adgen binomial_ckp(nsteps, 4, 0)
    for (s = 0; s < nsteps; s++) {
        v[0] = u[0];
        v[n - 1] = u[n - 1];
        for (i = 1; i < n - 1; i++)
            v[i] = u[i] + k[0] * (u[i - 1] - 2.0 * u[i] + u[i + 1]) - k[1] * u[i] * u[i] * u[i];
        t = u;
        u = v;
        v = t;
    }
    energy[0] = 0.0;
    for (i = 0; i < n; i++)
        energy[0] += u[i] * u[i] + 0.5 * v[i];
    free(u);
    free(v);
}
