/* adgen-test
head: scalar_temps(e)/(x w state)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
arg w: double[n] = uniform(0.5, 1.5)
arg state: double[n] = uniform(-1, 1)
arg e: double[1]
*/
/* Scalar temporaries set in a loop from cheap expressions of values the iteration leaves
 * alone: the adjoint sets them again at the start of each backward iteration instead of
 * storing them (the arguments of a helper, as in an LSTM cell), and stores those that
 * would differ in the backward sweep (written for this project). */
#include <math.h>

static double squash(double a)
{
    return a / (1.0 + a * a);
}

void scalar_temps(int n, const double *x, const double *w, double *state, double *e)
{
    double a, b, c, g, h, p, q, u, t, last, r = 0.0, acc = 0.0;
    double scale = 0.5;
    int i;
    *e = 0.0;
    last = 0.0;
    for (i = 0; i < n; i++) {
        /* recomputed: cheap, of values the iteration does not change */
        a = x[i] * w[i] + 0.25;
        b = w[i] * 0.5 - x[i];
        *e += squash(a) * sin(b) + squash(b * a);
        /* recomputed: p is read only by the recomputation of q (q's adjoint needs no p) */
        p = x[i] * 0.5;
        q = p + w[i];
        *e += sin(q) * x[i];
        /* acc changes every iteration: u reads it as a term (its adjoint does not read
           it), so recomputing u would store acc instead; t reads it as a factor */
        acc = 0.5 * acc + x[i];
        u = acc - w[i];
        *e += sin(u);
        t = acc * w[i];
        *e += sin(t);
        /* stored: reads state[i], which the iteration changes afterwards */
        c = state[i] * w[i];
        state[i] = 0.5 * state[i] + x[i];
        *e += sin(c) * state[i];
        /* stored: exp is dearer than a push and a pop */
        g = exp(0.5 * x[i]);
        *e += g * cos(g);
        /* stored: its value is read after the loop */
        last = x[i] * x[i] + w[i];
        *e += sin(last);
        /* stored: reads scale, which the iteration changes afterwards */
        h = scale * x[i];
        scale = scale + 0.125;
        *e += h * h * w[i];
        /* stored: read before it is set in the next iteration */
        if (i > 0)
            *e += sin(r) * x[i];
        r = x[i] + w[i];
        *e += r * r;
    }
    *e += cos(last) * state[0];
}
