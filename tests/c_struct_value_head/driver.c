/* Checks misfit_d and misfit_b (tests/test_struct_heads.py) for the head
 * misfit(misfit)/(p y): the tangent and the adjoint against central finite differences of
 * the primal, and against each other (dot-product test). Prints PASS or FAIL. */
#include <math.h>
#include <stdio.h>

typedef struct {
    double amp, rate;
    double poly[2];
} Params;

#define N 6
#define NP 4
#define NX (NP + N)

double misfit(Params p, int n, const double *t, const double *y);
double misfit_d(Params p, Params pd, int n, const double *t, const double *y,
                const double *yd, double *misfit);
void misfit_b(Params p, Params *pb, int n, const double *t, const double *y, double *yb,
              double misfitb);

static double t[N], ydata[N];

static Params unpack(const double *x)
{
    Params p = {x[0], x[1], {x[2], x[3]}};
    return p;
}

static double f(const double *x)
{
    return misfit(unpack(x), N, t, x + NP);
}

int main(void)
{
    double x[NX], xd[NX], xp[NX], xm[NX], yb[N], g[NX];
    double h = 1e-6, worst = 0.0, fd, value, tangent;
    Params pb;
    int k;
    for (k = 0; k < N; k++) {
        t[k] = 0.3 * k;
        ydata[k] = 1.0 + 0.2 * sin(k + 1.0);
    }
    x[0] = 1.3;
    x[1] = 0.7;
    x[2] = 0.2;
    x[3] = -0.4;
    for (k = 0; k < N; k++)
        x[NP + k] = ydata[k];
    for (k = 0; k < NX; k++)
        xd[k] = cos(1.0 + 2.0 * k);
    for (k = 0; k < NX; k++) {
        xp[k] = x[k] + h * xd[k];
        xm[k] = x[k] - h * xd[k];
    }
    fd = (f(xp) - f(xm)) / (2.0 * h);
    tangent = misfit_d(unpack(x), unpack(xd), N, t, x + NP, xd + NP, &value);
    misfit_b(unpack(x), &pb, N, t, x + NP, yb, 1.0);
    g[0] = pb.amp;
    g[1] = pb.rate;
    g[2] = pb.poly[0];
    g[3] = pb.poly[1];
    for (k = 0; k < N; k++)
        g[NP + k] = yb[k];
    /* each component of the gradient against finite differences along e_k */
    for (k = 0; k < NX; k++) {
        double save = x[k], fk;
        x[k] = save + h;
        fk = f(x);
        x[k] = save - h;
        fk = (fk - f(x)) / (2.0 * h);
        x[k] = save;
        worst = fmax(worst, fabs(fk - g[k]) / fmax(1.0, fabs(fk)));
    }
    {
        double adot = 0.0;
        for (k = 0; k < NX; k++)
            adot += g[k] * xd[k];
        printf("gradient against finite differences: %.2e; directional: fd %.12g "
               "tangent %.12g adjoint %.12g; value %.12g (primal %.12g)\n",
               worst, fd, tangent, adot, value, f(x));
        if (worst < 1e-7 && fabs(fd - tangent) < 1e-7 * fmax(1.0, fabs(fd)) &&
            fabs(tangent - adot) <= 1e-12 * fmax(1.0, fabs(tangent)) && value == f(x))
            printf("PASS\n");
        else
            printf("FAIL\n");
    }
    return 0;
}
