/* adgen-test
head: inits(y)/(x)
arg n: int = 4
arg x: double[n] = uniform(-1, 1)
arg y: double[2]
*/
/* Initializer lists leave the other elements and fields zero, each time the declaration
 * runs: inside a loop body, the arrays and the struct start from zero on every iteration
 * (written for this project). */
#include <math.h>
struct pair { double a, b; };
void inits(int n, const double *x, double *y)
{
    int i, j;
    y[0] = 0.0;
    y[1] = 0.0;
    for (i = 0; i < n; i++) {
        double t[4] = {0.5 * x[i]};
        double u[12] = {x[0], x[1]};
        struct pair p = {x[i], 0.0};
        struct pair q[3] = {{x[i], x[0]}};
        y[0] += sin(t[0] + t[1] + t[3]) * u[11] + u[1] * u[5] + p.b * p.a + x[i] * p.a + q[2].a + q[1].b + q[0].b;
        for (j = 0; j < 4; j++)
            t[j] = t[j] + x[j] * x[i];
        for (j = 0; j < 12; j++)
            u[j] += x[j % n];
        p.b = x[i] * x[i];
        q[1].b = p.b * x[0];
        y[1] += t[2] * t[3] + u[7] * u[11] + p.b + q[1].b * q[0].a;
    }
}
