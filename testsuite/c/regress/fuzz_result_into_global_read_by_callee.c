/* regress: a global set from the result of a function that reads it (st = f2(x), f2 reading st): the callee's backward sweep adds to the global's adjoint, which the caller then zeroed with the seed it had passed; C form of fuzz case, Fortran seed 120266 */
/* adgen-test
head: h(y)/(x)
arg x: double[3] = uniform(-1, 1)
arg y: double[1]
*/
#include <math.h>
static double st;
static double f2(const double *u) { return 0.5 * (1.5 + tanh(st + u[2])) + u[1]; }
void h(const double *x, double *y)
{
    int i;
    double hx[3];
    st = 0.0;
    *y = 0.0;
    for (i = 0; i < 3; i++) hx[i] = 0.5 * x[i];
    for (i = 0; i < 3; i++) {
        st = f2(x);
        *y += f2(hx) * f2(hx);
    }
}
