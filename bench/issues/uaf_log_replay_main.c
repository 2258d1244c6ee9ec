#include <stdio.h>
void f_b(int n, const double *x, double *xb, double *y, double *yb);
int main(void)
{
    double x[3] = {1, 2, 3}, xb[3], y, yb = 1.0;
    f_b(3, x, xb, &y, &yb);
    printf("%g %g %g %g\n", y, xb[0], xb[1], xb[2]);
    return 0;
}
