/* A least-squares misfit of a model whose parameters come in a struct passed by value:
 * the head's independents are the struct (and the data y); a helper takes the struct by
 * value too, and the head changes its own copy (clamps a coefficient). */
#include <math.h>

typedef struct {
    double amp, rate;
    double poly[2];
} Params;

static double model(Params q, double t)
{
    q.rate = q.rate * (1.0 + 0.1 * t);
    return q.amp * exp(-q.rate * t) + q.poly[0] + q.poly[1] * t;
}

double misfit(Params p, int n, const double *t, const double *y)
{
    int i;
    double s = 0.0;
    if (p.rate < 0.1)
        p.rate = 0.1 + 0.5 * p.rate * p.rate;
    for (i = 0; i < n; i++) {
        double r = model(p, t[i]) - y[i];
        s += r * r;
        p.poly[1] = 0.9 * p.poly[1];
    }
    return 0.5 * s;
}
