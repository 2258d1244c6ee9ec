/* adgen-test
head: evolve(cost)/(u w)
arg n: int = 14
arg steps: int = 6
arg u: double[n] = uniform(-1, 1)
arg w: double[n] = uniform(0.5, 1.5)
arg cost: double[1]
sizes: give
adgen-flags: --explain
*/
/* Calls in joint mode: a smoothing step that sweeps its array several times (it records
 * far more than the array it changes) is called in a time loop, so each call keeps only
 * the array and runs again in the backward sweep. Around it: a callee returning a value
 * and changing a global, one changing a local array of the caller, and a call forced into
 * split mode by its directive. */
#include <math.h>

static double total_flux;

static void smooth(int n, double *u, const double *w)
{
    int sweep, i;
    for (sweep = 0; sweep < 3; sweep++)
        for (i = 1; i < n - 1; i++)
            u[i] = u[i] + 0.2 * w[i] * sin(u[i - 1] - u[i]) * cos(0.3 * u[i + 1]);
}

static double flux(int n, const double *u, double *scratch)
{
    int pass, i;
    double s = 0.0;
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < n; i++) {
            scratch[i] = u[i] * u[i] * (1.0 + 0.1 * pass) + scratch[i] * 0.5;
            s += sqrt(1.0 + scratch[i]);
        }
    total_flux += s;
    return s;
}

static void relax(int n, double *v, const double *w)
{
    int i, k;
    for (k = 0; k < 2; k++)
        for (i = 1; i < n - 1; i++)
            v[i] = 0.5 * v[i] + 0.25 * w[i] * (v[i - 1] + v[i + 1]);
}

void evolve(int n, int steps, double *u, const double *w, double *cost)
{
    double scratch[32], v[32];
    double f = 0.0;
    int t, i;
    total_flux = 0.0;
    for (i = 0; i < n; i++) {
        scratch[i] = 0.0;
        v[i] = w[i] * u[i];
    }
    for (t = 0; t < steps; t++) {
        smooth(n, u, w);
        f = f + flux(n, u, scratch) * exp(-0.1 * t);
        relax(n, v, w);
#pragma adgen nocheckpoint
        smooth(n, v, u);
    }
    cost[0] = f + 0.01 * total_flux * total_flux;
    for (i = 0; i < n; i++)
        cost[0] += v[i] * u[i];
}
