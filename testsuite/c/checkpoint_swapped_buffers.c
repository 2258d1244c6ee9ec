/* adgen-test
head: run(energy)/(u0 c)
arg n: int = 9
arg nsteps: int = 23
arg u0: double[n] = uniform(-1, 1)
arg c: double = 0.2
arg energy: double[1]
sizes: give
*/
/* A time loop checkpointed with binomial_ckp whose two buffers are swapped through
 * pointers every step (the usual double buffering), a pointer walk inside the step, and
 * a second loop, not checkpointed, that swaps them too. The steps run again from kept
 * states must move each pointer's shadow with it: the kept states hold both. */
#include <math.h>

void run(int n, int nsteps, const double *u0, double c, double *energy)
{
    double a[16], b[16];
    double *cur = a, *nxt = b, *t;
    int i, k;
    for (i = 0; i < n; i++) {
        a[i] = u0[i];
        b[i] = 0.0;
    }
#pragma adgen binomial_ckp(nsteps, 4, 1)
    for (k = 1; k <= nsteps; k++) {
        const double *p = cur + 1;
        nxt[0] = cur[0];
        nxt[n - 1] = cur[n - 1];
        for (i = 1; i < n - 1; i++, p++)
            nxt[i] = *p + c * (p[-1] - 2.0 * *p + p[1]) - 0.05 * sin(*p) * *p;
        t = cur;
        cur = nxt;
        nxt = t;
    }
    for (k = 0; k < 2; k++) {
        for (i = 0; i < n; i++)
            nxt[i] = 0.5 * (cur[i] + cur[(i + 1) % n]);
        t = cur;
        cur = nxt;
        nxt = t;
    }
    energy[0] = 0.0;
    for (i = 0; i < n; i++)
        energy[0] += cur[i] * cur[i] + 0.1 * nxt[i];
}
