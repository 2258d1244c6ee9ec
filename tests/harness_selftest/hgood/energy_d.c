#include <math.h>
typedef struct { double *k; double rho; } Mat;
typedef struct { double a, b; } Coef;
typedef struct { int n; double h; double *x; const int *flag; Mat *mat; Coef c; double w[2]; } Grid;
double energy_d(const Grid *g, const Grid *gd, double *energy)
{
    double e = 0, ed = 0;
    int i;
    for (i = 0; i < g->n; i++) {
        double f = g->flag[i] ? 2.0 : 1.0, x = g->x[i], xd = gd->x[i];
        e += g->mat->k[i] * x * x * f + g->mat->rho * g->h * sin(x);
        ed += gd->mat->k[i] * x * x * f + 2 * g->mat->k[i] * x * xd * f
            + (gd->mat->rho * g->h + g->mat->rho * gd->h) * sin(x) + g->mat->rho * g->h * cos(x) * xd;
    }
    *energy = e + g->c.a * g->c.b + g->w[0] * g->w[1];
    return ed + gd->c.a * g->c.b + g->c.a * gd->c.b + gd->w[0] * g->w[1] + g->w[0] * gd->w[1];
}
