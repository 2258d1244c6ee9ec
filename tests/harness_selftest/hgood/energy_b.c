#include <math.h>
typedef struct { double *k; double rho; } Mat;
typedef struct { double a, b; } Coef;
typedef struct { int n; double h; double *x; const int *flag; Mat *mat; Coef c; double w[2]; } Grid;
void energy_b(const Grid *g, Grid *gb, double energyb)
{
    int i;
    gb->h = 0;
    gb->mat->rho = 0;
    for (i = 0; i < g->n; i++) {
        double f = g->flag[i] ? 2.0 : 1.0;
        gb->x[i] = (2 * g->mat->k[i] * g->x[i] * f + g->mat->rho * g->h * cos(g->x[i])) * energyb;
        gb->mat->k[i] = g->x[i] * g->x[i] * f * energyb;
        gb->mat->rho += g->h * sin(g->x[i]) * energyb;
        gb->h += g->mat->rho * sin(g->x[i]) * energyb;
    }
    gb->c.a = g->c.b * energyb;
    gb->c.b = g->c.a * energyb;
    gb->w[0] = g->w[1] * energyb;
    gb->w[1] = g->w[0] * energyb;
}
