/* A stepper keeping its model in globals, as simulation codes do: the gain and the state
 * are independents, the state, the energy and the trace dependents (the state both), the
 * forcing a parameter; `rate` carries derivatives inside only. */
#include <math.h>

double gain = 1.5;
double state[4];
double energy;
double trace[3];
double rate;

static double sq(double a)
{
    return a * a;
}

void step(double dt, const double *force)
{
    int i;
    double e = 0.0;
    rate = gain * dt;
    for (i = 0; i < 4; i++) {
        state[i] = state[i] + rate * sin(state[(i + 1) % 4]) + dt * force[i] * state[i];
        e += sq(state[i]);
    }
    energy = 0.5 * e;
    for (i = 0; i < 3; i++)
        trace[i] = state[i] * state[i + 1] + gain;
}
