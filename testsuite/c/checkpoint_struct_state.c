/* adgen-test
head: chain(energy)/(stiff x0)
arg n: int = 10
arg nsteps: int = 29
arg stiff: double[n] = uniform(0.5, 1.5)
arg x0: double[n] = uniform(-0.5, 0.5)
arg energy: double[1]
sizes: give
*/
/* A checkpointed time loop and a fixed-point loop whose state lives in local structs: a
 * chain of masses kept as a struct of arrays (positions, velocities, the elapsed time),
 * stepped by symplectic Euler under binomial checkpointing, then an equilibrium of springs
 * found by relaxation, each node an element of a local array of structs. The kept states
 * are the whole structs. */
#include <math.h>

#define NMAX 16

struct chain_state {
    double x[NMAX];
    double v[NMAX];
    double time;
};

struct node {
    double pos;
    double load;
};

void chain(int n, int nsteps, const double *stiff, const double *x0, double *energy)
{
    struct chain_state s;
    struct node nodes[NMAX];
    double dt = 0.05, change = 1.0, e = 0.0;
    int t, i, it = 0;
    for (i = 0; i < n; i++) {
        s.x[i] = x0[i];
        s.v[i] = 0.0;
    }
    s.time = 0.0;
#pragma adgen binomial_ckp(nsteps, 3, 0)
    for (t = 0; t < nsteps; t++) {
        for (i = 1; i < n - 1; i++)
            s.v[i] = s.v[i] + dt * stiff[i] * (s.x[i - 1] - 2.0 * s.x[i] + s.x[i + 1])
                     - dt * 0.1 * sin(s.x[i]);
        for (i = 1; i < n - 1; i++)
            s.x[i] = s.x[i] + dt * s.v[i];
        s.time = s.time + dt * (1.0 + 0.1 * s.x[n / 2]);
    }
    for (i = 0; i < n; i++) {
        nodes[i].pos = 0.0;
        nodes[i].load = 0.2 * s.x[i];
    }
#pragma adgen fp_loop
    while (change > 1e-14 && it < 500) {
        change = 0.0;
        for (i = 1; i < n - 1; i++) {
            double p = (stiff[i] * (nodes[i - 1].pos + nodes[i + 1].pos) + nodes[i].load) /
                       (2.0 * stiff[i] + 1.0);
            change = fmax(change, fabs(p - nodes[i].pos));
            nodes[i].pos = p;
        }
        it++;
    }
    for (i = 0; i < n; i++)
        e = e + s.v[i] * s.v[i] + nodes[i].pos * nodes[i].pos;
    energy[0] = e + s.time;
}
