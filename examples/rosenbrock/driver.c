/* Calls the adjoint rosenbrock_b that adgen generates from model.c, and checks the
 * gradient against central finite differences. Built and run by examples/demo.py. */
#include <math.h>
#include <stdio.h>

#define N 6

double rosenbrock(int n, const double *x, double a);
/* adgen --reverse model.c --head "rosenbrock(rosenbrock)/(x)" generates: */
void rosenbrock_b(int n, const double *x, double *xb, double a, double rosenbrockb);

int main(void)
{
    const double a = 100.0;
    double x[N] = {-1.2, 1.0, -1.2, 1.0, 0.5, 0.8};
    double xb[N];
    double worst = 0.0;
    int i, bad = 0;

    /* Seed the output with 1: xb is SET to df/dx (not added to), so no need to zero it. */
    rosenbrock_b(N, x, xb, a, 1.0);

    printf("f(x) = %.6g at x = (%g, %g, %g, %g, %g, %g)\n",
           rosenbrock(N, x, a), x[0], x[1], x[2], x[3], x[4], x[5]);
    printf("   i   adjoint df/dx[i]   finite difference\n");
    for (i = 0; i < N; i++) {
        double xi = x[i], h = 1e-6 * fmax(1.0, fabs(xi)), fp, fm, fd, err;
        x[i] = xi + h;
        fp = rosenbrock(N, x, a);
        x[i] = xi - h;
        fm = rosenbrock(N, x, a);
        x[i] = xi;
        fd = (fp - fm) / (2.0 * h);
        err = fabs(xb[i] - fd) / fmax(1.0, fabs(fd));
        if (!(err < 1e-6))          /* also catches NaN */
            bad = 1;
        if (err > worst)
            worst = err;
        printf("%4d   %16.9f   %17.9f\n", i, xb[i], fd);
    }
    if (!bad) {
        printf("OK: the adjoint gradient agrees with finite differences "
               "(max relative difference %.1e)\n", worst);
        return 0;
    }
    printf("MISMATCH: the adjoint gradient differs from finite differences "
           "(max relative difference %.1e)\n", worst);
    return 1;
}
