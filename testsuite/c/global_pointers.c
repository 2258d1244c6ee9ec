/* adgen-test
head: heat_run(energy)/(u0 kappa)
arg n: int = 8
arg nsteps: int = 5
arg u0: double[n] = uniform(-1, 1)
arg kappa: double[n] = uniform(0.1, 0.3)
arg work: double[2*n]
arg energy: double[1]
sizes: give
*/
/* Global pointers to active data, as a C model keeps its state: a setup function points
 * two globals at halves of a work array the caller passes, a step function reads one and
 * writes the other, then swaps them (double buffering), and a global points at the
 * conductivities. The head sets them before anything reads them; their derivatives live
 * where they point. */
#include <math.h>

static double *cur, *nxt;
static const double *conductivity;
static int npoints;

static void setup(int n, double *work, const double *kappa)
{
    cur = work;
    nxt = work + n;
    conductivity = kappa;
    npoints = n;
}

static void step(double dt)
{
    double *t;
    int i;
    nxt[0] = cur[0];
    nxt[npoints - 1] = cur[npoints - 1];
    for (i = 1; i < npoints - 1; i++)
        nxt[i] = cur[i] + dt * (conductivity[i] * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1])
                               - 0.1 * sin(cur[i]));
    t = cur;
    cur = nxt;
    nxt = t;
}

void heat_run(int n, int nsteps, const double *u0, const double *kappa, double *work,
              double *energy)
{
    int i, k;
    setup(n, work, kappa);
    for (i = 0; i < n; i++)
        cur[i] = u0[i] * u0[i];
    for (k = 0; k < nsteps; k++)
        step(0.2);
    energy[0] = 0.0;
    for (i = 0; i < n; i++)
        energy[0] = energy[0] + cur[i] * cur[i] * conductivity[i];
}
