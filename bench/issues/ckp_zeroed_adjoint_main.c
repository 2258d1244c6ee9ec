/* Driver: the checkpointed adjoint against finite differences (expected: equal). */
#include <stdio.h>
void f(int n, int nsteps, const double *x, const double *k, double *u, double *y);
void f_b(int n, int nsteps, const double *x, double *xb, const double *k, double *kb,
         double *u, double *y, double *yb);
int main(void)
{
    double x[2] = {1.0, 2.0}, k[2] = {0.9, 1.1}, xb[2], kb[2], u[2], y, yb = 1.0, yp, ym;
    int j;
    f_b(2, 10, x, xb, k, kb, u, &y, &yb);
    for (j = 0; j < 2; j++) {
        k[j] += 1e-6; f(2, 10, x, k, u, &yp);
        k[j] -= 2e-6; f(2, 10, x, k, u, &ym);
        k[j] += 1e-6;
        printf("kb[%d] = %.10g   finite difference %.10g\n", j, kb[j], (yp - ym) / 2e-6);
    }
    return 0;
}
