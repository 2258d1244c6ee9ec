/* Checks relax_d and relax_b (tests/test_struct_heads.py): the tangent against central
 * finite differences of the primal, and the adjoint against the tangent (dot-product
 * test). Prints PASS or FAIL. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 5
#define M 4
#define NY (N * M + 1)

void relax(int n, int m, double u[n][m], double w, double *energy);
void relax_d(int n, int m, double (*u)[m], double (*ud)[m], double w, double *energy,
             double *energyd);
void relax_b(int n, int m, double (*u)[m], double (*ub)[m], double w, double *energy,
             double *energyb);

static void outputs(const double *u0, double *y)
{
    double u[N][M], e;
    memcpy(u, u0, sizeof u);
    relax(N, M, u, 0.8, &e);
    memcpy(y, u, sizeof u);
    y[N * M] = e;
}

int main(void)
{
    double u0[N * M], ud0[N * M], yb0[NY], yp[NY], ym[NY], up[N * M], um[N * M];
    double u[N][M], ud[N][M], ub[N][M], e, ed = 0.0, eb;
    double h = 1e-6, worst = 0.0, tdot = 0.0, adot = 0.0;
    int k;
    for (k = 0; k < N * M; k++) {
        u0[k] = 0.5 + 0.3 * sin(k + 1.0);
        ud0[k] = cos(2.0 * k);
        up[k] = u0[k] + h * ud0[k];
        um[k] = u0[k] - h * ud0[k];
    }
    for (k = 0; k < NY; k++)
        yb0[k] = sin(3.0 * k + 0.5);
    outputs(up, yp);
    outputs(um, ym);
    memcpy(u, u0, sizeof u);
    memcpy(ud, ud0, sizeof ud);
    relax_d(N, M, u, ud, 0.8, &e, &ed);
    for (k = 0; k < NY; k++) {
        double fd = (yp[k] - ym[k]) / (2.0 * h);
        double t = k < N * M ? ((double *)ud)[k] : ed;
        worst = fmax(worst, fabs(fd - t) / fmax(1.0, fabs(fd)));
        tdot += yb0[k] * t;
    }
    memcpy(u, u0, sizeof u);
    memcpy(ub, yb0, sizeof ub);
    eb = yb0[N * M];
    relax_b(N, M, u, ub, 0.8, &e, &eb);
    for (k = 0; k < N * M; k++)
        adot += ((double *)ub)[k] * ud0[k];
    printf("tangent against finite differences: %.2e; dot-product test: %.17g %.17g\n",
           worst, tdot, adot);
    if (worst < 1e-7 && fabs(tdot - adot) <= 1e-12 * fmax(1.0, fabs(tdot)) && eb == 0.0)
        printf("PASS\n");
    else
        printf("FAIL\n");
    return 0;
}
