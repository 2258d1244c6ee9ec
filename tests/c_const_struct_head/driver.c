/* Checks energy_d and energy_b (tests/test_struct_heads.py) for the head
 * energy(energy)/(p x), p a struct with const members: the tangent and the adjoint against
 * central finite differences of the primal, and against each other (dot-product test).
 * The adjoint writes into the derivative struct, so it lives in allocated memory, set by
 * copying (the members are const here). Prints PASS or FAIL. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const int n;
    const double a;
    const double *const w;
    double *const work;
} Params;

#define N 5
#define NX (1 + 2 * N)      /* a, w[N], x[N] */

double energy(const Params *p, const double *x);
double energy_d(const Params *p, const Params *pd, const double *x, const double *xd,
                double *energy);
void energy_b(const Params *p, Params *pb, const double *x, double *xb, double energyb);

static double work[N], workd[N], workb[N];

static double f(const double *v)
{
    Params p = {N, v[0], v + 1, work};
    return energy(&p, v + 1 + N);
}

int main(void)
{
    double v[NX], vd[NX], vp[NX], vm[NX], g[NX] = {0}, wb[N];
    double h = 1e-6, worst = 0.0, fd, value, tangent, adot = 0.0;
    int k;
    for (k = 0; k < NX; k++) {
        v[k] = 0.5 + 0.3 * sin(1.0 + k);
        vd[k] = cos(1.0 + 2.0 * k);
        vp[k] = v[k] + h * vd[k];
        vm[k] = v[k] - h * vd[k];
    }
    fd = (f(vp) - f(vm)) / (2.0 * h);
    {
        Params p = {N, v[0], v + 1, work}, pd = {N, vd[0], vd + 1, workd};
        Params *pb = malloc(sizeof *pb);
        memcpy(pb, &(Params){N, 0.0, wb, workb}, sizeof *pb);
        tangent = energy_d(&p, &pd, v + 1 + N, vd + 1 + N, &value);
        energy_b(&p, pb, v + 1 + N, g + 1 + N, 1.0);
        g[0] = pb->a;
        memcpy(g + 1, wb, sizeof wb);
        free(pb);
    }
    for (k = 0; k < NX; k++) {
        double save = v[k], fk;
        v[k] = save + h;
        fk = f(v);
        v[k] = save - h;
        fk = (fk - f(v)) / (2.0 * h);
        v[k] = save;
        worst = fmax(worst, fabs(fk - g[k]) / fmax(1.0, fabs(fk)));
        adot += g[k] * vd[k];
    }
    printf("gradient against finite differences: %.2e; directional: fd %.12g tangent %.12g "
           "adjoint %.12g; value %.12g (primal %.12g)\n", worst, fd, tangent, adot, value, f(v));
    if (worst < 1e-7 && fabs(fd - tangent) < 1e-7 * fmax(1.0, fabs(fd)) &&
        fabs(tangent - adot) <= 1e-12 * fmax(1.0, fabs(tangent)) && value == f(v))
        printf("PASS\n");
    else
        printf("FAIL\n");
    return 0;
}
