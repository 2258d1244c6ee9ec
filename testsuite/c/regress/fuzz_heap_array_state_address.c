/* regress: a local array that a pointer points into lives on the heap between the sweeps; a call in joint mode that writes it kept the array as `&t1, sizeof(double [4])`, which after the move read 32 bytes from the pointer variable (gcc -O3: stringop-overread) instead of the array; minimized fuzz case (seed 3200682) */
/* adgen-test
head: fz_head(y fz_head)/(x)
arg n: int = 3
arg y: double[n]
arg x: double[7] = uniform(0, 1)
tol: 1e-5
seed: 683
*/
#include <math.h>

void fz_f1(int m, double alpha, double *o)
{
    for (int i = 0; i < m; i++) {
        o[i] = alpha;
    }
    if (0.5 >= 0.1) {
        alpha = fmax(0.5, alpha);
    }
}

double fz_f2(const double *u)
{
    int i;
    double sink = 0.0;
    double t1[4];
    for (i = 0; i < 4; i++) {
        t1[i] = 2.0;
    }
    double s1 = u[3];
    double s2 = 0.5;
    fz_f1(3, tanh(hypot(s1, 1.0 + 3.0 * 3.0) / (0.5 + cos(2.0) * cos(2.0))), t1 + 1);
    double *p1 = &t1[0];
    s2 *= (p1[3] > 0.5) ? t1[0] : -1.25;
    sink += s2;
    return sink;
}

double fz_head(int n, double *y, const double *x)
{
    for (int i = 0; i < n; i++) {
        y[i] = x[i];
    }
    double s1 = fz_f2(&x[3]);
    return s1;
}
