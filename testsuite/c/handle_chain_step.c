/* adgen-test
head: advance(s)/(par s)
arg par: const Params* = handle
field par.dt: double = 0.05
field par.k: double[7] = uniform(2, 4)
field par.damping: double = uniform(0.05, 0.2)
field par.anchor[2]: double = {-0.5, 7.5}
arg s: State* = handle
field s.n: int = 6
field s.t: double = 0.0
field s.q: double[s.n] = {0.1, 1.05, 1.9, 3.1, 4.0, 4.95}
field s.p: double[s.n] = uniform(-0.2, 0.2)
field s.energy: double
arg nsteps: int = 5
head: advance(s)/(s)
*/
/* A chain of masses joined by nonlinear springs (stiffness per spring, the two ends tied
 * to anchors held in the parameters' struct) advanced in place by a few damped
 * symplectic Euler steps: the state handle (time, positions, momenta, and the energy it
 * leaves) is updated through its pointer, with respect to the parameters' handle and the
 * initial state, or to the initial state alone. */
#include <math.h>

#define NMAX 16

typedef struct {
    double dt;
    double *k;          /* the stiffness of each of the n + 1 springs */
    double damping;
    double anchor[2];   /* where the two end springs are tied */
} Params;

typedef struct {
    int n;
    double t;
    double *q, *p;      /* positions and momenta of the n masses */
    double energy;      /* left by advance: kinetic + potential */
} State;

/* the length of spring j (j = 0 .. n) and its potential */
static double stretch(const Params *par, const State *s, int j)
{
    double left = j == 0 ? par->anchor[0] : s->q[j - 1];
    double right = j == s->n ? par->anchor[1] : s->q[j];
    return right - left - 1.0;
}

static double spring_energy(double k, double e)
{
    return 0.5 * k * e * e + 0.25 * k * e * e * e * e;
}

static void forces(const Params *par, const State *s, double *f)
{
    int i;
    for (i = 0; i < s->n; i++)
        f[i] = 0.0;
    for (i = 0; i <= s->n; i++) {
        double e = stretch(par, s, i);
        double tension = par->k[i] * (e + e * e * e);
        if (i > 0)
            f[i - 1] += tension;
        if (i < s->n)
            f[i] -= tension;
    }
}

void advance(const Params *par, State *s, int nsteps)
{
    double f[NMAX];
    int step, i;
    for (step = 0; step < nsteps; step++) {
        forces(par, s, f);
        for (i = 0; i < s->n; i++) {
            s->p[i] += par->dt * (f[i] - par->damping * s->p[i]);
            s->q[i] += par->dt * s->p[i];
        }
        s->t += par->dt;
    }
    s->energy = 0.0;
    for (i = 0; i < s->n; i++)
        s->energy += 0.5 * s->p[i] * s->p[i];
    for (i = 0; i <= s->n; i++)
        s->energy += spring_energy(par->k[i], stretch(par, s, i));
}
