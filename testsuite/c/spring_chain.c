/* adgen-test
head: chain_simulate(final)/(x0 stiff)
arg chain: Chain* = {5, 0.8f, 10.0, 0.05, {1.0, 1.2, 0.9, 1.1, 1.0}}
arg x0: double[10] = {0.0, 0.0, 0.9, 0.1, 1.7, -0.1, 2.6, 0.05, 3.3, 0.2}
arg stiff: double = uniform(8, 12)
arg nsteps: int = 6
arg final: double[2*10]
flags: -I include
*/
/* A mass-spring chain in the plane (own header: types, an inline helper and a do/while(0)
 * macro), semi-implicit Euler steps.  The chain description (a struct with a fixed-size
 * mass array, a float rest length) comes by const pointer, the stiffness separately; the state is a struct of fixed-size
 * 2-D arrays that the step function updates through a pointer.  The first node is pinned.
 * Outputs: final positions and velocities. */
#include "springs.h"

static void spring_forces(const Chain *c, double stiff, const ChainState *s,
                          double f[MAX_NODES][DIM])
{
    size_t i;
    for (i = 0; i < c->nnodes; i++)
        f[i][0] = f[i][1] = 0.0;
    for (i = 0; i + 1 < c->nnodes; i++) {
        double d[DIM], len, mag;
        d[0] = s->x[i + 1][0] - s->x[i][0];
        d[1] = s->x[i + 1][1] - s->x[i][1];
        len = vec_norm2(d);
        mag = stiff * (len - c->rest_len) / len;
        AXPY2(f[i], mag, d);
        AXPY2(f[i + 1], -mag, d);
    }
    for (i = 0; i < c->nnodes; i++) {
        AXPY2(f[i], -c->damping, s->v[i]);
        f[i][1] -= 9.81 * c->mass[i];
    }
}

static void step(const Chain *c, double stiff, ChainState *s, double dt)
{
    double f[MAX_NODES][DIM];
    size_t i;
    int k;
    spring_forces(c, stiff, s, f);
    for (i = 1; i < c->nnodes; i++)
        for (k = 0; k < DIM; k++) {
            s->v[i][k] += dt * f[i][k] / c->mass[i];
            s->x[i][k] += dt * s->v[i][k];
        }
}

void chain_simulate(const Chain *chain, const double *x0, double stiff, int nsteps, double *final)
{
    ChainState st;
    const size_t n = chain->nnodes;
    size_t i;
    int t;
    for (i = 0; i < n; i++) {
        st.x[i][0] = x0[2 * i];
        st.x[i][1] = x0[2 * i + 1];
        st.v[i][0] = st.v[i][1] = 0.0;
    }
    for (t = 0; t < nsteps; t++)
        step(chain, stiff, &st, 0.01);
    for (i = 0; i < n; i++) {
        final[2 * i] = st.x[i][0];
        final[2 * i + 1] = st.x[i][1];
        final[2 * n + 2 * i] = st.v[i][0];
        final[2 * n + 2 * i + 1] = st.v[i][1];
    }
}
