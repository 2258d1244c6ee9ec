/* regress: a call in joint mode whose callee writes memory that the caller sees only through a const pointer (it hands the callee a cast): the state kept and brought back is reached through the const view, which the output must cast (it did not compile under -Werror) */
/* adgen-test
head: f(y)/(x)
arg n: int = 5
arg x: double[n] = uniform(0.5, 1.5)
arg y: double[n]
tol: 1e-6
sizes: give
seed: 4
*/
#include <math.h>

static void square_in_place(int n, double *v)
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = v[i] * v[i];
}

void f(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = x[i];
#pragma adgen checkpoint
    square_in_place(n, (double *)x);
    for (i = 0; i < n; i++)
        y[i] = y[i] * sin(x[i]);
}
