/* adgen-test
head: head(y head)/(x)
arg n: int = 4
arg d: int = 2
arg x: double[n] = uniform(0, 1)
arg a: double = 0.3
arg y: double[n*d]
tol: 1e-5
*/
/* A callee run in split mode (called in a loop) whose local pointer points into a local
 * struct's array field (`p = &w.t[0]`): the forward sweep saved the pointer and its shadow
 * for the backward one, which then wrote through them into the forward sweep's dead
 * frame (a wrong gradient; random program seed 11000419). Such a struct now lives on the
 * heap (or the static stack) from one sweep to the other, as local arrays did. */
#include <math.h>

struct work {
    double sink;
    double t[4];
    double t2[4];
    double s;
};

static double helper(int m, const double *u)
{
    struct work w = {0};
    struct work v;
    int i;
    for (i = 0; i < 4; i++)
        w.t[i] = u[(i + i) % m];
    double *p = &w.t[0];
    p[1] = 0.25 / (0.5 + w.t[1] * w.t[1]);
    v = w;
    return sin(v.t[0]);
}

static double sink;

double head(int n, int d, const double *x, double a, double *y)
{
    int i;
    sink = 0.0;
    for (i = 0; i < n * d; i++)
        y[i] = fmin(a, helper(d, x + 1));
    for (i = 0; i < n; i++)
        sink += x[i];
    return sink;
}
