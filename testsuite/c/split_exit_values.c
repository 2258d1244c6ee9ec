/* adgen-test
head: pose_error(e)/(cam pts)
arg n: int = 4
arg cam: double[6] = uniform(0.5, 1.5)
arg pts: double[3*n] = uniform(-1, 1)
arg e: double[1]
*/
/* A helper called in split mode (its forward and backward sweeps are functions of their
 * own) whose locals the backward sweep reads: those it can set again from what it is
 * given (pointers into the caller's arrays, values of unchanged parameters and memory,
 * and of locals it receives) are not stored at the end of the forward sweep, also those
 * of one branch of an if, set again where the backward sweep enters the branch; the
 * others are (written for this project). */
#include <math.h>

static double residual(const double *cam, const double *x, double *scratch, int m)
{
    /* set again: pointers and values of what the helper leaves alone */
    const double *shift = &cam[3];
    const double *scale = cam + 1;
    double gain = cam[0];
    int last = m - 1;
    double u, v, w, r, a, b, d2;
    /* stored: the value read is changed afterwards */
    double first;
    /* stored: set twice */
    double twice;
    /* stored: exp is dearer than a push and a pop */
    double g;
    scratch[0] = x[0] * gain;
    first = scratch[0];
    scratch[0] = first * x[1];
    twice = x[2] * shift[0];
    twice = twice * twice;
    g = exp(0.5 * cam[2]);
    u = gain * (x[0] - shift[0]) * scale[0];
    v = gain * (x[1] - shift[1]) * scale[1];
    w = (x[2] - shift[2]) * g;
    r = u * u + v * sin(v) + w * first + twice * scratch[0] + (double)last * u;
    /* stored: too dear to compute again */
    d2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    if (d2 > 0.5) {
        /* set again where the backward sweep enters the branch (from d2, which it has) */
        a = x[1] / d2;
        r = r + a * a * gain;
    } else {
        b = gain * x[2];
        r = r - b * sin(b);
    }
    return r;
}

void pose_error(int n, const double *cam, const double *pts, double *e)
{
    double scratch[1];
    int i;
    *e = 0.0;
    for (i = 0; i < n; i++) {
#pragma adgen nocheckpoint
        *e += residual(cam, &pts[3 * i], scratch, n);
    }
}
