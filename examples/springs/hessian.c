/* The Hessian of the spring network's energy from adgen's second derivative routine
   energy_b_d (the tangent of the adjoint energy_b), checked against central differences
   of the gradient; and an evaluation callback in the shape IPOPT's eval_h has, filling the
   entries of a sparsity pattern.

     adgen --reverse springs.c --head "energy(energy)/(pos)" -o springs_b.c
     adgen --forward springs_b.c --head "energy_b(posb)/(pos)" -o springs_b_d.c
     cc -O2 hessian.c springs.c springs_b.c springs_b_d.c -lm -o hessian && ./hessian */
#include <math.h>
#include <stdio.h>
#include <string.h>

double energy(int nn, const double *pos, int ne, const int *ei, const int *ej,
              const double *rest, const double *k, double g);
void energy_b(int nn, const double *pos, double *posb, int ne, const int *ei, const int *ej,
              const double *rest, const double *k, double g, double energyb);
void energy_b_d(int nn, const double *pos, const double *posd, double *posb, double *posbd,
                int ne, const int *ei, const int *ej, const double *rest, const double *k,
                double g, double energyb);

enum { NN = 4, NE = 5, N = 2 * NN };
static const int ei[NE] = {0, 1, 2, 3, 0}, ej[NE] = {1, 2, 3, 0, 2};
static const double rest[NE] = {1.0, 1.0, 1.0, 1.0, 1.4}, k[NE] = {10, 12, 9, 11, 5};
static const double gravity = 9.81;

/* Column j of the Hessian at pos: the product with the j-th unit vector. */
static void hessian_column(const double *pos, int j, double *column)
{
    double unit[N] = {0}, gradient[N];
    unit[j] = 1.0;
    energy_b_d(NN, pos, unit, gradient, column, NE, ei, ej, rest, k, gravity, 1.0);
}

/* IPOPT's eval_h for an objective alone: obj_factor times the Hessian's entries at
   (irow[m], jcol[m]), its lower triangle, in values[m]. One product per column used. */
static void eval_h(const double *x, double obj_factor, int nele, const int *irow,
                   const int *jcol, double *values)
{
    double column[N];
    for (int j = 0; j < N; j++) {
        int used = 0;
        for (int m = 0; m < nele; m++)
            used |= jcol[m] == j;
        if (!used)
            continue;
        hessian_column(x, j, column);
        for (int m = 0; m < nele; m++)
            if (jcol[m] == j)
                values[m] = obj_factor * column[irow[m]];
    }
}

int main(void)
{
    double pos[N] = {0.0, 0.0, 1.1, 0.1, 1.0, 1.2, -0.1, 0.9};
    double H[N][N], worst = 0.0, largest = 0.0, asym = 0.0;
    for (int j = 0; j < N; j++) {
        double column[N], gp[N], gm[N], xp[N], xm[N], h = 1e-5;
        hessian_column(pos, j, column);
        memcpy(xp, pos, sizeof pos);
        memcpy(xm, pos, sizeof pos);
        xp[j] += h;
        xm[j] -= h;
        energy_b(NN, xp, gp, NE, ei, ej, rest, k, gravity, 1.0);
        energy_b(NN, xm, gm, NE, ei, ej, rest, k, gravity, 1.0);
        for (int i = 0; i < N; i++) {
            H[i][j] = column[i];
            worst = fmax(worst, fabs((gp[i] - gm[i]) / (2 * h) - column[i]));
            largest = fmax(largest, fabs(column[i]));
        }
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < i; j++)
            asym = fmax(asym, fabs(H[i][j] - H[j][i]));
    /* the lower triangle's entries of the first two nodes, as IPOPT would ask for them */
    int irow[] = {0, 1, 1, 2, 3}, jcol[] = {0, 0, 1, 2, 2};
    double values[5];
    eval_h(pos, 2.0, 5, irow, jcol, values);
    int ipopt_ok = 1;
    for (int m = 0; m < 5; m++)
        ipopt_ok &= values[m] == 2.0 * H[irow[m]][jcol[m]];
    printf("energy %.6f; Hessian %dx%d: against differences of the gradient %.1e "
           "(largest entry %.1f), asymmetry %.1e, eval_h %s\n",
           energy(NN, pos, NE, ei, ej, rest, k, gravity), N, N, worst / largest, largest,
           asym / largest, ipopt_ok ? "ok" : "WRONG");
    return !(worst <= 1e-6 * largest && asym <= 1e-12 * largest && ipopt_ok);
}
