/* adgen-test
head: model(y)/(x)
arg n: int = 4
arg x: double[n]
arg y: double[1]
expect-error: static global 'dt' is set in 'configure', which runs in the program's own code
expect-error-line: 14
*/
/* Must be refused: the output keeps its own copy of a static global, and the function that
 * sets it (not translatable here: it prints) runs in the program's object, so the copy
 * would keep its initial value. */
#include <stdio.h>

static double dt = 0.1;

void configure(double step)
{
    dt = step;
    printf("step %g\n", step);
}

void model(int n, const double *x, double *y)
{
    int i;
    y[0] = 0.0;
    for (i = 0; i < n; i++)
        y[0] = y[0] + dt * x[i] * x[i];
}
