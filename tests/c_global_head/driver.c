/* Checks step_d and step_b (head step(state energy trace)/(gain state force)), whose
 * independents and dependents are globals the caller sets and reads: the tangent against
 * central finite differences of the primal, the adjoint against the tangent (dot-product
 * test); a pure independent's adjoint is set whatever it held, the seeds of pure
 * dependents are consumed, and the primal outputs are the primal's. Prints PASS. */
#include <math.h>
#include <stdio.h>

extern double gain, state[4], energy, trace[3];
extern double gaind, stated[4], energyd, traced[3];
extern double gainb, stateb[4], energyb, traceb[3];
void step(double dt, const double *force);
void step_d(double dt, const double *force, const double *forced);
void step_b(double dt, const double *force, double *forceb);

#define NIN 9
#define NOUT 8
static const double dt = 0.3;

/* inputs u = (gain, state, force) set; outputs (state, energy, trace) read */
static void set_inputs(const double *u, double *force)
{
    int i;
    gain = u[0];
    for (i = 0; i < 4; i++) {
        state[i] = u[1 + i];
        force[i] = u[5 + i];
    }
}

static void get_outputs(double *y)
{
    int i;
    for (i = 0; i < 4; i++)
        y[i] = state[i];
    y[4] = energy;
    for (i = 0; i < 3; i++)
        y[5 + i] = trace[i];
}

static void primal(const double *u, double *y)
{
    double force[4];
    set_inputs(u, force);
    step(dt, force);
    get_outputs(y);
}

static int close_to(double a, double b, double tol)
{
    return fabs(a - b) <= tol * (fabs(a) + fabs(b) + 1e-3);
}

int main(void)
{
    double u[NIN] = {1.5, 0.3, -0.7, 1.1, 0.4, 0.2, -0.5, 0.9, 0.1};
    double v[NIN] = {0.7, -0.2, 0.5, 0.3, -0.9, 0.4, 0.6, -0.1, 0.8};
    double w[NOUT] = {0.3, -0.6, 0.2, 0.9, -0.4, 0.5, 0.7, -0.3};
    double y[NOUT], yp[NOUT], ym[NOUT], t[NOUT], up[NIN], um[NIN], force[4], forced[4];
    double forceb[4], yb[NOUT], h = 1e-6, lhs = 0.0, rhs = 0.0;
    int i, ok = 1;

    for (i = 0; i < NIN; i++) {
        up[i] = u[i] + h * v[i];
        um[i] = u[i] - h * v[i];
    }
    primal(up, yp);
    primal(um, ym);
    primal(u, y);

    set_inputs(u, force);
    gaind = v[0];
    for (i = 0; i < 4; i++) {
        stated[i] = v[1 + i];
        forced[i] = v[5 + i];
    }
    energyd = 99.0;     /* a pure dependent's tangent is the routine's, whatever it held */
    step_d(dt, force, forced);
    for (i = 0; i < 4; i++)
        t[i] = stated[i];
    t[4] = energyd;
    for (i = 0; i < 3; i++)
        t[5 + i] = traced[i];
    get_outputs(yb);
    for (i = 0; i < NOUT; i++) {
        if (!close_to(t[i], (yp[i] - ym[i]) / (2 * h), 1e-6)) {
            printf("tangent %d: %.15g, finite differences %.15g\n", i, t[i],
                   (yp[i] - ym[i]) / (2 * h));
            ok = 0;
        }
        if (yb[i] != y[i]) {
            printf("primal output %d of step_d: %.17g, primal %.17g\n", i, yb[i], y[i]);
            ok = 0;
        }
    }

    set_inputs(u, force);
    gainb = 123.0;      /* a pure independent's adjoint is set, whatever it held */
    for (i = 0; i < 4; i++) {
        stateb[i] = w[i];
        forceb[i] = -7.0;
    }
    energyb = w[4];
    for (i = 0; i < 3; i++)
        traceb[i] = w[5 + i];
    step_b(dt, force, forceb);
    get_outputs(yb);
    for (i = 0; i < NOUT; i++) {
        if (yb[i] != y[i]) {
            printf("primal output %d of step_b: %.17g, primal %.17g\n", i, yb[i], y[i]);
            ok = 0;
        }
        lhs += w[i] * t[i];
    }
    rhs = v[0] * gainb;
    for (i = 0; i < 4; i++)
        rhs += v[1 + i] * stateb[i] + v[5 + i] * forceb[i];
    if (!close_to(lhs, rhs, 1e-12)) {
        printf("dot-product test: <w, J v> = %.17g, <J^T w, v> = %.17g\n", lhs, rhs);
        ok = 0;
    }
    if (energyb != 0.0 || traceb[0] != 0.0 || traceb[1] != 0.0 || traceb[2] != 0.0) {
        printf("seeds of pure dependents not consumed: %g %g %g %g\n", energyb, traceb[0],
               traceb[1], traceb[2]);
        ok = 0;
    }
    printf(ok ? "PASS\n" : "FAIL\n");
    return !ok;
}
